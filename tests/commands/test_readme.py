"""README.md is a user guide a newcomer reads in ten minutes: short, its set-up commands first, its test command
the one CI runs, every step of the designer's loop with a command, the four games in one table, no experiment
results (those are in docs/findings/)."""

from __future__ import annotations

import re
from pathlib import Path

from test_docs import commands

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
TEST_COMMAND = 'pip install -e ".[test]" && python -m pytest -q'


def test_the_guide_is_at_most_300_lines():
    """A guide, not a lab notebook."""
    assert len(README.splitlines()) <= 300


def test_the_two_set_up_commands_come_first_and_the_test_command_is_what_ci_runs():
    """The first bash block installs in a virtual environment, the second holds the main job and the tests;
    .ci/run runs the very same test command."""
    blocks = re.findall(r"```bash\n(.*?)```", README, re.S)
    assert "python -m venv" in blocks[0]
    first, second = blocks[1].strip().splitlines()
    assert first.startswith("pip install -e . && simkit sweep scenarios/miracle/quick.toml")
    assert second == TEST_COMMAND
    assert TEST_COMMAND in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_the_test_time_is_stated_once():
    """One figure for the test command's time, measured on a clean clone (not three ways in one paragraph)."""
    said = re.findall(r"on a clean clone it took\s+([^.]*)\.", README)
    assert len(said) == 1 and re.search(r"\d+ minutes", said[0]), said


def test_every_step_of_the_designers_loop_has_a_command():
    """sweep, report, a patch (show), compare, the spreadsheet, scan, tune, explore, check and ladder each appear
    as a command in a bash block."""
    shown = {c[0] for c in commands(README)}
    assert shown >= {"sweep", "report", "show", "compare", "cards", "scan", "tune", "explore", "check", "ladder"}


def test_the_four_games_are_one_table_with_rules_scenarios_and_pages():
    """One table row a game: its rules page, its scenario folder, its design page and its findings."""
    rows = [line for line in README.splitlines() if line.startswith("| ") and "scenarios/" in line]
    assert len(rows) == 4
    for game, row in zip(("miracle", "duel", "krypton", "magic"), rows):
        assert f"`scenarios/{game}/`" in row and f"docs/findings/{game}.md" in row and "../shared/rules/" in row


def test_no_experiment_results_and_no_lab_commands():
    """No measured percentage (50% is a target, and a knob's range is a setting), and no command of scripts/ or
    lab/: findings live in docs/findings/."""
    assert not [p for p in re.findall(r"\d+(?:\.\d+)?%", README) if p != "50%"]
    assert "python scripts/" not in README and "python lab/" not in README
