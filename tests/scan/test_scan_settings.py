"""A scan's numbers are one frozen value (ScanSettings): checked before anything is written, recorded in scan.json
beside its results, and a resume with other played settings is refused in one line naming the setting and both
values, with nothing written; what only reads the games (the figure, its target, the bootstrap) may change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from results_folders import folder_snapshot

from simkit.cli import main
from simkit.scan import ScanSettings

ROOT = Path(__file__).resolve().parents[2]
MIRACLE = ROOT / "scenarios" / "miracle" / "quick.toml"
TWO = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:Archer,Priest,VolcanoDragon"]


@pytest.mark.parametrize("settings, words", [
    (ScanSettings(key="rules.mana_period", values="3,5", games=0), "--games: games per pair must be at least 1"),
    (ScanSettings(key="rules.mana_period", values="3,5", target=float("inf")), "--target: must be a finite number"),
    (ScanSettings(key="rules.mana_period", values="3,5", bootstrap=-1), "--bootstrap: must be at least 0"),
    (ScanSettings(key="rules.mana_period", values="3,5", bots="a,b,c"), "--bots takes two bot names"),
])
def test_a_setting_out_of_range_is_refused_naming_its_flag(settings, words):
    """Each setting is checked on its own, before the scenario is read, and refused naming its flag."""
    with pytest.raises(ValueError, match=words):
        settings.check()


def test_a_resume_with_other_settings_is_refused_naming_the_setting_and_writing_nothing(tmp_path, capsys):
    """`simkit scan` of the mana period at 3 and 5 (2 decks, 1 game per pair), then the same with `--seed 9
    --resume`: status 2, one line naming --seed with both values, and not a byte of the folder changed (scan.json,
    each value's sweep and patch); the spec recorded is the settings played."""
    out = tmp_path / "scan"
    args = ["scan", str(MIRACLE), "--key", "rules.mana_period", "--values", "3,5", "--games", "1", "--decks", *TWO,
            "--workers", "1", "--bootstrap", "20", "--out", str(out)]
    assert main(args) == 0
    spec = json.loads((out / "scan.json").read_text())
    assert (spec["key"], spec["values"], spec["games"], spec["seed"]) == ("rules.mana_period", [3, 5], 1, 0)
    before = folder_snapshot(out)
    capsys.readouterr()
    assert main([*args, "--seed", "9", "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds a scan with other settings: --seed 0 there, 9 here" in err, err
    assert folder_snapshot(out) == before
    assert main([*args[:-2], "--games", "2", "--out", str(out), "--resume"]) == 2
    assert "--games 1 there, 2 here" in capsys.readouterr().err
    assert folder_snapshot(out) == before
