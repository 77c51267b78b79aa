"""`simkit check` for any game: a game's declared invariants after every action, through the interface."""

from __future__ import annotations

from pathlib import Path

import simkit
from simkit.cli import main
from simkit.testing.rule_check import run_check, run_invariant_games

ROOT = Path(__file__).resolve().parents[2]
DUEL = ROOT / "scenarios" / "duel" / "quick.toml"


def test_simkit_check_runs_the_duels_invariants_end_to_end(capsys):
    """`simkit check` on a duel scenario plays games, checks its six invariants and passes (exit 0)."""
    assert main(["check", str(DUEL), "--profile", "ci", "--examples", "4"]) == 0
    out = capsys.readouterr().out
    assert "PASSED" in out and "hp_bounds" in out and "hidden_information" in out and "illegal actions refused" in out


class _BrokenSpec:
    """The duel's invariants plus one that a real game breaks: distance never changes."""

    names = ("distance_never_changes",)

    def invariants(self, before, action, after):
        return ["distance_never_changes"] if before["distance"] != after["distance"] else []


def test_a_broken_invariant_is_reported_with_the_game_and_the_actions():
    """An invariant the games break is reported: its name, the game (decks, seed) and the shortest action
    sequence that still breaks it (one move of the distance)."""
    sc = simkit.load_scenario(DUEL)
    report = run_invariant_games(sc, _BrokenSpec(), games=6, seed=1)
    assert not report.passed
    assert "distance_never_changes" in report.failure and "seed" in report.failure
    assert "the shortest sequence found (1 action)" in report.failure, report.failure
    assert report.case.actions[-1][0] in ("advance", "retreat", "play")
    assert "FAILED" in report.format()


def test_miracle_check_goes_through_the_interface(tmp_path):
    """Battle of Miracles' own hypothesis check answers the same call (its report has passed and format())."""
    report = run_check(ROOT / "scenarios" / "miracle" / "quick.toml", examples=2, profile="ci", variants=False,
                       out_dir=tmp_path)
    assert report.passed and "every invariant held" in report.format()


def test_a_failing_case_is_written_and_replays_end_to_end(tmp_path, capsys):
    """A failure writes its shortest case; `simkit check --replay CASE` rebuilds the game, reports the same
    clause with the replay command's verdict (exit 1)."""
    sc = simkit.load_scenario(DUEL)
    report = run_invariant_games(sc, _BrokenSpec(), games=4, seed=2, out_dir=tmp_path)
    assert report.case_path.exists() and f"--replay {report.case_path}" in report.failure
    import json

    from simkit.testing.rule_check import _replay_generic

    again = _replay_generic(sc, _BrokenSpec(), report.case_path, json.loads(report.case_path.read_text()))
    assert not again.passed and "distance_never_changes" in again.failure


def test_the_duel_check_runs_its_rule_examples_first_and_names_a_failing_one(tmp_path, capsys):
    """`simkit check` on a scenario whose examples file holds a wrong example fails on it first, naming the
    file, the example, its clause and expected against got (exit 1)."""
    for name in ("base.toml", "examples.toml"):
        text = (ROOT / "scenarios" / "duel" / name).read_text(encoding="utf-8")
        if name == "examples.toml":
            old = 'then = { "second.hp" = 23, "first.ap" = 1'
            text = text.replace(old, old.replace("23", "22"))
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert main(["check", str(tmp_path / "base.toml"), "--profile", "ci", "--examples", "2"]) == 1
    out = capsys.readouterr().out
    assert "rule example failed" in out and "'Strike deals 2 normal damage'" in out
    assert "second.hp: expected 22, got 23" in out and "clause    1-damage: 1 damage step 3" in out
