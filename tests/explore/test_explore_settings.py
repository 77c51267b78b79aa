"""An explore run's numbers are one frozen value (ExploreSettings), recorded in its meta.json beside the games, and
a resume with other settings is refused in one line naming the setting and both values, with nothing written."""

from __future__ import annotations

from pathlib import Path

from results_folders import folder_snapshot

from simkit.cli import main
from simkit.sweep import read_meta

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "scenarios" / "miracle" / "base.toml"
POOL = [f"{a}:{c}" for a in ("HolyLight", "InfernoFlame")
        for c in ("Archer,BlackBat,Priest", "Archer,Priest,Swordsman", "BlackBat,Priest,Swordsman")]


def test_a_resume_with_other_settings_is_refused_naming_the_setting_and_writing_nothing(tmp_path, capsys):
    """`simkit explore` of a six-deck pool (12 turns, horizon 2), then the same with `--epsilon 0.1 --resume`:
    status 2, one line naming --epsilon with both values, and not a byte of the folder changed."""
    scenario = tmp_path / "small.toml"
    pool = ", ".join(f'"{d}"' for d in POOL)
    scenario.write_text(f'extends = "{BASE}"\nname = "explore settings pool"\n[rules]\nturn_limit = 12\n'
                        f"[decks]\npool = [{pool}]\n")
    out = tmp_path / "explore"
    args = ["explore", str(scenario), "--horizon", "2", "--start", "2", "--top", "2", "--contenders", "2",
            "--field-looks", "1,2", "--chunk-size", "8", "--workers", "1", "--out", str(out)]
    assert main(args) == 0
    kept = read_meta(out)["rounds"][0]["units"]["settings"]
    assert (kept["epsilon"], kept["horizon"], kept["start"]) == (0.02, 2, 2)
    before = folder_snapshot(out)
    capsys.readouterr()
    assert main([*args, "--epsilon", "0.1", "--resume"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "holds an explore run with other settings: --epsilon 0.02 there, 0.1 here" in err
    assert folder_snapshot(out) == before
