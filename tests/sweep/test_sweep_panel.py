"""Bot panels: every pairing under each panel bot in both seats, in one results folder."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from simkit.cli import main
from simkit.sweep import RunOptions, SweepSettings, chunk_path, load_results, plan_sweep, run_sweep

ROOT = Path(__file__).resolve().parents[2]
QUICK = ROOT / "scenarios" / "miracle" / "quick.toml"
TWO = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"]
COLUMNS = ["first_deck", "second_deck", "game", "seed", "winner", "end_reason", "turns", "first_bot", "second_bot"]


@pytest.fixture(scope="module")
def short(quick):
    """The quick scenario with games cut to 12 turns (conftest's ``quick``)."""
    return quick


@pytest.fixture(scope="module")
def panel_results(short, tmp_path_factory):
    out = tmp_path_factory.mktemp("panel")
    run_sweep(short, plan_sweep(short, SweepSettings(games=2, decks=TWO, panel=["balanced", "rush"], chunk_size=3)),
              out, RunOptions(workers=1))
    return out


def test_a_panel_plays_every_pairing_under_each_bot_in_both_seats(panel_results):
    """Each panel bot plays every ordered pair its planned number of times, the same bot in both seats."""
    df = load_results(panel_results)
    assert len(df) == 2 * 4 * 2
    counts = df.groupby(["first_bot", "second_bot", "first_deck", "second_deck"]).size()
    assert set(counts.index.get_level_values(0)) == {"balanced", "rush"} and (counts == 2).all()
    assert (df["first_bot"] == df["second_bot"]).all()
    assert df.attrs["meta"]["panel"] == ["balanced", "rush"]


def test_a_panel_bot_plays_the_games_of_a_plain_sweep_with_that_bot(short, panel_results, tmp_path):
    """Under a panel, bot X's games are exactly a plain sweep's with X in both seats (same seeds)."""
    run_sweep(short, plan_sweep(short, SweepSettings(games=2, decks=TWO, bots=("rush", "rush"), chunk_size=5)),
              tmp_path, RunOptions(workers=1))
    plain = load_results(tmp_path)[COLUMNS]
    panel = load_results(panel_results)
    rush = panel[panel["first_bot"] == "rush"][COLUMNS].reset_index(drop=True)
    pd.testing.assert_frame_equal(rush, plain)


def test_a_panel_sweep_resumes_to_the_unbroken_result(short, panel_results, tmp_path):
    """Chunks of a panel sweep lost mid-run are played again on --resume; the folder equals an unbroken run."""
    plan = plan_sweep(short, SweepSettings(games=2, decks=TWO, panel=["balanced", "rush"], chunk_size=3))
    run_sweep(short, plan, tmp_path, RunOptions(workers=1))
    for k in (1, plan.chunk_count - 1):
        chunk_path(tmp_path, k).unlink()
    run_sweep(short, plan, tmp_path, RunOptions(workers=2, resume=True))
    pd.testing.assert_frame_equal(load_results(tmp_path)[COLUMNS], load_results(panel_results)[COLUMNS])


def test_a_panel_naming_an_unknown_bot_is_refused_before_anything_is_written(short, tmp_path, capsys):
    """An unknown panel bot is named at planning; the folder is not created."""
    out = tmp_path / "never"
    assert main(["sweep", str(short.path), "--panel", "balanced,wizard", "--out", str(out)]) == 2
    assert "unknown bot 'wizard'" in capsys.readouterr().err
    assert not out.exists()


def test_bots_and_panel_together_are_refused(short, tmp_path, capsys):
    """--bots and --panel together are ambiguous: one line, exit 2."""
    assert main(["sweep", str(short.path), "--panel", "balanced", "--bots", "rush,rush",
                 "--out", str(tmp_path / "x")]) == 2
    assert "--bots and --panel" in capsys.readouterr().err
