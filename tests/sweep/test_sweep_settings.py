"""A sweep's numbers are one frozen value (SweepSettings): checked on their own before the scenario is read, recorded
in meta.json as the plan, and a resume with other settings is refused in one line naming the setting and both
values, with nothing written."""

from __future__ import annotations

from pathlib import Path

import pytest
from results_folders import folder_snapshot

from simkit.analysis.sequential import AdaptiveSettings
from simkit.cli import main
from simkit.sweep import SweepSettings, read_meta

TWO = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"]


@pytest.mark.parametrize("settings, words", [
    (SweepSettings(games=0), "--games: games per pair must be at least 1, got 0"),
    (SweepSettings(chunk_size=0), "--chunk-size: games per chunk must be at least 1, got 0"),
    (SweepSettings(seed=-1), "--seed"),
    (SweepSettings(bots=("a", "b", "c")), "--bots takes two bot names"),
    (SweepSettings(bots=("a", "b"), panel=("a", "b")), "--bots and --panel: give one"),
    (SweepSettings(panel=("a", "a")), "--panel names a bot twice: a,a"),
    (SweepSettings(games=3, adaptive=AdaptiveSettings()), "--games is for uniform sweeps"),
])
def test_a_setting_out_of_range_is_refused_naming_its_flag(settings, words):
    """Each setting is checked on its own, before any scenario is read, and refused naming its flag."""
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        settings.check()


def test_settings_are_frozen_and_hold_tuples():
    """A settings value cannot be changed after it is made, and lists given to it become tuples (so two equal
    settings compare equal however they were spelled)."""
    s = SweepSettings(decks=list(TWO), bots=["random", "greedy"])
    assert s == SweepSettings(decks=tuple(TWO), bots=("random", "greedy"))
    with pytest.raises(AttributeError):
        s.games = 3


def test_a_resume_with_other_settings_is_refused_naming_the_setting_and_writing_nothing(short_scenario, tmp_path,
                                                                                         capsys):
    """`simkit sweep --games 1` then `--games 2 --resume` into the same folder: status 2, one line naming --games
    with both values, and not a byte of the folder changed (its lock and log included); the same settings resume."""
    out = tmp_path / "sweep"
    args = ["sweep", str(short_scenario), "--decks", *TWO, "--workers", "1", "--out", str(out)]
    assert main([*args, "--games", "1"]) == 0
    assert read_meta(out)["plan"]["games"] == 1  # the settings, recorded beside the results as the plan
    before = folder_snapshot(out)
    capsys.readouterr()
    assert main([*args, "--games", "2", "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds a sweep with other settings: --games 1 there, 2 here" in err, err
    assert folder_snapshot(out) == before
    assert main([*args, "--seed", "7", "--games", "1", "--resume"]) == 2
    assert "--seed 0 there, 7 here" in capsys.readouterr().err
    assert folder_snapshot(out) == before
    assert main([*args, "--games", "1", "--resume"]) == 0  # the same settings: nothing left to play
    assert Path(out / "meta.json").exists()
