"""docs/promises.md, "What simkit promises": every promise names the tests that hold it, and each exists; every
game's clause-coverage and planted-slip tests are among them; the README links the page."""

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


def _tests_named(path: Path, pattern: str) -> set[str]:
    return {f"{path.relative_to(ROOT)}::{m.group(1)}"
            for m in re.finditer(rf"^def ({pattern})\(", path.read_text(encoding="utf-8"), re.M)}


def test_every_games_clause_coverage_and_planted_slip_tests_are_named():
    """The page names each game's test that every clause of its rules page has a literal example (a
    ``test_every_clause_has_a_literal_example*`` of tests/games/*/test_docs_*.py) and each planted-slip clause test
    (``test_every_planted*_fails_its_clause_test``): a game that gains one is held to the promise at once."""
    wanted = set()
    for path in sorted((ROOT / "tests" / "games").glob("*/test_docs_*.py")):
        wanted |= _tests_named(path, r"test_every_clause_has_a_literal_example\w*")
    planted = ROOT / "tests" / "testing" / "test_planted_bugs.py"
    wanted |= _tests_named(planted, r"test_every_planted\w*_fails_its_clause_test")
    assert len(wanted) >= 6
    named = set(re.findall(r"`(tests/[\w/]+\.py::test_\w+)`", _section()))
    assert not wanted - named, f"docs/promises.md does not name {sorted(wanted - named)}"
