"""A tune's numbers are one frozen value (TuneSettings): checked before anything is written, recorded beside the
study as settings.json, and a resume with other search settings is refused in one line naming the setting and both
values, before the lock or the study is touched."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from results_folders import folder_snapshot

from simkit.cli import main
from simkit.tune.settings import TuneSettings

ROOT = Path(__file__).resolve().parents[2]
PLANTED = ROOT / "scenarios" / "miracle" / "planted-strong-priest.toml"
DECKS = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"]
KNOB = "creatures.Priest.L1.cost=1..4"


@pytest.mark.parametrize("change, words", [
    ({"trials": 0}, "--trials must be at least 1, got 0"),
    ({"max_changes": 0}, "--max-changes must be at least 1, got 0"),
    ({"stages": 2}, "--stages 2: the anchored stages re-screen knobs"),
    ({"bots": ("a,b",), "panel": ("a", "b")}, "--bots and --panel: give one"),
    ({"check_games": 0}, "--check-games must be a whole number of at least 1, got 0"),
    ({"check_seed": -1}, "--check-seed"),
    ({"weights": "sprad=1"}, "unknown weight 'sprad'"),
])
def test_a_setting_out_of_range_is_refused_naming_its_flag(change, words):
    """Each setting is checked on its own, before the scenario is read, and refused naming its flag."""
    with pytest.raises(ValueError, match=words):
        TuneSettings(knobs=(KNOB,), **change).check()


def test_a_resume_with_other_settings_is_refused_naming_the_setting_and_writing_nothing(tmp_path, capsys):
    """A 2-trial tune (2 decks, 1 game per pair), then the same with `--seed 5 --resume`: status 2, one line naming
    --seed with both values, and not a byte of the folder changed (study, lock, settings.json); settings.json holds
    what the study holds."""
    out = tmp_path / "tune"
    args = ["tune", str(PLANTED), "--knob", KNOB, "--max-changes", "1", "--decks", *DECKS, "--games", "1",
            "--trials", "2", "--confirm", "0", "--workers", "1", "--out", str(out)]
    assert main(args) == 0
    kept = json.loads((out / "settings.json").read_text())
    assert (kept["sampler_seed"], kept["games"], kept["max_changes"], kept["decks"]) == (0, 1, 1, DECKS)
    before = folder_snapshot(out)
    capsys.readouterr()
    assert main([*args, "--seed", "5", "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds a tune with other settings: --seed 0 there, 5 here" in err, err
    assert folder_snapshot(out) == before
    assert main([*args, "--max-changes", "2", "--resume"]) == 2
    assert "--max-changes 1 there, 2 here" in capsys.readouterr().err
    assert folder_snapshot(out) == before
