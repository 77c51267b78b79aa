"""docs/promises.md, "What simkit promises": every promise names the tests that hold it, and each exists; the README
links the page."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _section() -> str:
    return (ROOT / "docs" / "promises.md").read_text(encoding="utf-8")


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


def test_the_readme_says_what_is_promised_and_links_the_page():
    """The guide keeps a short "What simkit promises" section that links the page with the tests."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## What simkit promises"):]
    assert "docs/promises.md" in section[:section.index("\n## ", 3)]
