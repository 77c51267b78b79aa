"""``--bots-from FILE`` on the commands where a designer names bots besides sweep and play: tune, scan and explore
play the personality a patch defines (``mine``) on the base, end to end on a few games, and record where the bots
came from in every sweep folder they write, so a resume, a report or a replay sees the same bot. Without the option
the base does not know ``mine``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from simkit.cli import main
from simkit.sweep import load_results, read_meta

ROOT = Path(__file__).resolve().parents[2]
QUICK = ROOT / "scenarios" / "miracle" / "quick.toml"
BASE = ROOT / "scenarios" / "miracle" / "base.toml"
TWO = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"]


@pytest.fixture
def patch(tmp_path) -> Path:
    """A designer's patch defining a personality of their own, ``mine`` (a balanced bot that never guards home)."""
    p = tmp_path / "mine.toml"
    p.write_text(f'extends = "{QUICK}"\n[bots.mine]\nlike = "balanced"\ngarrison_detour = 6\nhome_guard = 0\n',
                 encoding="utf-8")
    return p


def _played_by_mine(folder: Path, patch: Path) -> None:
    """Every game of the sweep folder was played by ``mine`` in both seats, and the folder names the bots' file."""
    games = load_results(folder)
    assert len(games) and set(games["first_bot"]) == set(games["second_bot"]) == {"mine"}
    assert read_meta(folder)["plan"]["bots_from"] == str(patch.resolve())


def test_tune_plays_the_base_and_every_candidate_with_the_patchs_bot(patch, tmp_path, capsys):
    out = tmp_path / "tune"
    args = ["tune", str(QUICK), "--knob", "creatures.Priest.L1.cost=1..3", "--decks", *TWO, "--games", "1",
            "--trials", "2", "--confirm", "0", "--bots", "mine,mine", "--workers", "1", "--out", str(out)]
    assert main(args) == 2  # the base alone knows no `mine`
    assert "unknown bot 'mine'" in capsys.readouterr().err
    assert main([*args, "--bots-from", str(patch)]) == 0
    sweeps = sorted(p.parent for p in out.rglob("meta.json"))
    assert len(sweeps) >= 2 and any("base" in p.parts for p in sweeps)  # the base and a candidate (a check, if any)
    for folder in sweeps:
        _played_by_mine(folder, patch)


def test_scan_plays_every_value_with_the_patchs_bot(patch, tmp_path, capsys):
    out = tmp_path / "scan"
    args = ["scan", str(QUICK), "--key", "rules.mana_period", "--values", "2,3", "--games", "1", "--decks", *TWO,
            "--bots", "mine,mine", "--bootstrap", "20", "--workers", "1", "--out", str(out)]
    assert main(args) == 2
    assert "unknown bot 'mine'" in capsys.readouterr().err
    assert main([*args, "--bots-from", str(patch)]) == 0
    for value in ("2", "3"):
        _played_by_mine(out / "values" / value, patch)
    assert json.loads((out / "scan.json").read_text())["bots_from"] == str(patch.resolve())
    assert main([*args, "--bots-from", str(patch), "--resume"]) == 0  # re-read: the same scan
    assert main([*args, "--resume"]) == 2  # without the bots' file it is not the same scan


def test_explore_plays_the_pool_with_the_patchs_bot(patch, tmp_path, capsys):
    out = tmp_path / "explore"
    args = ["explore", str(QUICK), "--horizon", "2", "--start", "2", "--top", "2", "--contenders", "2",
            "--field-looks", "1", "--max-games", "40", "--bots", "mine,mine", "--workers", "1", "--out", str(out)]
    assert main(args) == 2
    assert "unknown bot 'mine'" in capsys.readouterr().err
    assert main([*args, "--bots-from", str(patch)]) == 0
    assert "bots mine (first) vs mine (second)" in capsys.readouterr().out
    _played_by_mine(out, patch)
