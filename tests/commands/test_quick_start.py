"""docs/quick-start.md cannot silently drift: its paths exist, its commands parse, and the README links it and
the example notebook."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_docs import commands, named_paths

from simkit.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "quick-start.md"


def test_the_readme_links_the_quick_start_and_the_notebook():
    """A newcomer finds both from the README."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/quick-start.md" in readme and "notebooks/balance.ipynb" in readme


def test_every_path_named_exists():
    """Every repository path the page names exists."""
    paths = named_paths(PAGE.read_text(encoding="utf-8"))
    assert {"scenarios/miracle/quick.toml", "scenarios/miracle/priest-patch.toml"} <= paths
    assert not sorted(p for p in paths if not (ROOT / p).exists())


def test_every_command_shown_parses():
    """The five steps' commands (sweep, report with --html, cards export and import, compare) parse."""
    shown = commands(PAGE.read_text(encoding="utf-8"))
    assert {c[0] for c in shown} == {"sweep", "report", "cards", "compare"}
    parser = build_parser()
    for argv in shown:
        try:
            parser.parse_args(argv)
        except SystemExit:
            pytest.fail(f"docs/quick-start.md: `simkit {' '.join(argv)}` does not parse")
