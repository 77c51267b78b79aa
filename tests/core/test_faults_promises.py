"""The README's "What simkit promises": every promise names the tests that hold it, and each exists."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _section() -> str:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start = text.index("## What simkit promises\n")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def test_every_promise_names_at_least_one_test():
    """Each bullet of the section names a `tests/FILE.py::test_name`."""
    bullets = [b for b in re.split(r"\n- ", _section())[1:]]
    assert len(bullets) >= 7
    for bullet in bullets:
        assert re.search(r"`tests/(?:\w+/)*test_\w+\.py::test_\w+`", bullet), bullet[:80]


def test_every_test_a_promise_names_exists():
    """Every named test is a function of that name in that file, so renaming a test means updating the promise."""
    named = re.findall(r"`(tests/(?:\w+/)*test_\w+\.py)::(test_\w+)`", _section())
    assert named
    for path, name in named:
        source = (ROOT / path).read_text(encoding="utf-8")
        assert re.search(rf"^def {name}\(", source, re.M), f"{path}::{name} does not exist"
