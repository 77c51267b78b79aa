"""The outside-bot tests' fixture: no permission carried from one test to the next, no program left running."""

import pytest

from simkit import outside


@pytest.fixture(autouse=True)
def forget_permissions():
    """Each test starts with no outside bot allowed or given, and ends every program it started."""
    outside.reset()
    yield
    from simkit.outside.process import end_all

    end_all()
    outside.reset()
