"""Hypothesis profiles for rule-invariant suites: ``ci`` (fast), ``dev`` and ``thorough`` (for ``simkit check``).

The test suite's ``tests/conftest.py`` registers the same names; registration here is guarded so
whichever comes first wins and importing both is harmless. Nothing is *loaded* here: a designer's
pytest run keeps its own choice (``settings.load_profile("ci")`` or ``HYPOTHESIS_PROFILE``).
"""

from __future__ import annotations

from hypothesis import HealthCheck, settings
from hypothesis.errors import InvalidArgument

#: max_examples of each profile.
PROFILES: dict[str, int] = {"ci": 30, "dev": 60, "thorough": 500}


def register_profiles() -> None:
    """Register the ``ci``, ``dev`` and ``thorough`` profiles unless a profile of that name exists."""
    for name, examples in PROFILES.items():
        try:
            settings.get_profile(name)
        except InvalidArgument:
            settings.register_profile(
                name, max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
            )


def profile(name: str) -> settings:
    """The registered settings profile ``name`` (registering the simkit profiles first).

    Raises:
        ValueError: no profile of that name.
    """
    register_profiles()
    try:
        return settings.get_profile(name)
    except InvalidArgument:
        raise ValueError(f"unknown hypothesis profile {name!r} (simkit registers: {', '.join(PROFILES)})") from None
