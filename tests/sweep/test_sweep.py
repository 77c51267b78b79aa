"""Sweeps: plans and seeds, the parquet store, resume after a kill, determinism, Dask, bad input."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import simkit
from simkit.cli import main
from simkit.sweep import (
    RunOptions,
    SweepSettings,
    chunk_path,
    done_chunks,
    load_results,
    plan_sweep,
    run_sweep,
    select_decks,
)

ROOT = Path(__file__).resolve().parents[2]
QUICK = ROOT / "scenarios" / "miracle" / "quick.toml"
PATCH = ROOT / "scenarios" / "miracle" / "priest-patch.toml"
TWO = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"]
KEY = ["first_deck", "second_deck", "game"]


def small_plan(sc, games=2, chunk_size=3, decks=TWO):
    return plan_sweep(sc, SweepSettings(games=games, decks=decks, chunk_size=chunk_size))


@pytest.fixture(scope="module")
def reference(quick, tmp_path_factory):
    """A small sweep (2 decks, 4 ordered pairs x 2 games) played in one process."""
    out = tmp_path_factory.mktemp("ref")
    run_sweep(quick, small_plan(quick), out, RunOptions(workers=1))
    return load_results(out)


def test_plan_covers_every_ordered_pair_exactly_n_times(quick):
    """Chunks partition the games: every ordered pair (mirrors included) appears N times, none twice."""
    plan = plan_sweep(quick, SweepSettings(games=3, chunk_size=7))
    rows = []
    for k in range(plan.chunk_count):
        c = plan.chunk(k)
        rows += list(zip(c.first_decks, c.second_decks, c.games))
    assert len(rows) == len(set(rows)) == 6 * 6 * 3
    assert {(a, b) for a, b, _ in rows} == {(a, b) for a in quick.decks for b in quick.decks}


def test_seeds_do_not_depend_on_chunking_or_on_the_patch(quick):
    """A game's seed depends on the sweep seed, the ordered pair and the game index only."""
    def seeds(plan):
        out = {}
        for k in range(plan.chunk_count):
            c = plan.chunk(k)
            out.update(zip(zip(c.first_decks, c.second_decks, c.games), c.seeds))
        return out

    base = simkit.load_scenario(ROOT / "scenarios" / "miracle" / "base.toml")
    patch = simkit.load_scenario(PATCH)
    assert base.hash != patch.hash
    a = seeds(plan_sweep(base, SweepSettings(games=2, decks=TWO, chunk_size=1)))
    b = seeds(plan_sweep(patch, SweepSettings(games=2, decks=TWO, chunk_size=5)))
    assert a == b
    assert len(set(a.values())) == len(a)


def test_deck_patterns_select_from_the_pool(quick):
    """Shell patterns pick decks of the pool in pool order; a pattern matching nothing is refused."""
    assert select_decks(quick.decks, ["HolyLight:*"]) == tuple(d for d in quick.decks if d.startswith("HolyLight:"))
    assert len(select_decks(quick.decks, ["*Priest*", "*Archer*"])) == 4
    with pytest.raises(ValueError, match="'Nope:\\*' matches no deck"):
        select_decks(quick.decks, ["Nope:*"])


def test_results_have_one_row_per_game_with_the_documented_columns(reference, quick):
    """The dataset has every column a designer's analysis needs, and metadata about the run."""
    df = reference
    assert len(df) == 8
    for col in ["first_deck", "second_deck", "game", "seed", "winner", "end_reason", "turns", "first_miracle_hp",
                "second_miracle_hp", "first_dead_stars", "second_dead_stars", "first_bot", "second_bot",
                "scenario_hash", "rules_version"]:
        assert col in df.columns, col
    assert set(df["winner"]) <= {"first", "second", "draw"}
    assert set(df["end_reason"]) <= {"miracle", "turn_limit"}
    assert (df["scenario_hash"] == quick.hash).all()
    assert df.groupby(["first_deck", "second_deck"]).size().eq(2).all()
    meta = df.attrs["meta"]
    assert meta["scenario_hash"] == quick.hash and meta["games_per_pair"] == 2 and meta["finished"]
    assert meta["decks"] == TWO and "creatures" in meta["scenario_text"]


def test_results_do_not_depend_on_workers_or_chunk_size(reference, quick, tmp_path):
    """Two worker processes with another chunk size give exactly the same games."""
    run_sweep(quick, small_plan(quick, chunk_size=2), tmp_path, RunOptions(workers=2))
    again = load_results(tmp_path)
    pd.testing.assert_frame_equal(again.drop(columns=[]), reference, check_like=True)
    assert (tmp_path / "sweep.log").read_text().count("chunk") >= 4


def test_resume_plays_only_missing_chunks(reference, quick, tmp_path):
    """Chunks lost to an interruption are played again on --resume; the result equals an unbroken run."""
    plan = small_plan(quick)
    run_sweep(quick, plan, tmp_path, RunOptions(workers=1))
    chunk_path(tmp_path, 1).unlink()
    with pytest.raises(ValueError, match="--resume"):
        run_sweep(quick, plan, tmp_path, RunOptions(workers=1))
    run_sweep(quick, plan, tmp_path, RunOptions(workers=1, resume=True))
    pd.testing.assert_frame_equal(load_results(tmp_path), reference)


def test_sigkill_then_resume_gives_exactly_n_games_per_pair(quick, reference, short_scenario, tmp_path):
    """A sweep killed with SIGKILL mid-run leaves only whole chunks; --resume completes it without duplicates.

    100 one-game chunks, so that the kill lands mid-run however fast the games are played."""
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "simkit", "sweep", str(short_scenario), "--games", "25", "--chunk-size", "1",
           "--workers", "1", "--out", str(out), "--decks", *TWO]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 120
    while time.time() < deadline and len(done_chunks(out)) < 2 and proc.poll() is None:
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert len(done_chunks(out)) < 100, "the sweep finished before it could be killed"
    assert main(cmd[3:] + ["--resume"]) == 0
    df = load_results(out)
    assert not df.duplicated(KEY).any()
    unbroken = tmp_path / "unbroken"
    run_sweep(quick, small_plan(quick, games=25, chunk_size=1), unbroken, RunOptions(workers=1))
    pd.testing.assert_frame_equal(df, load_results(unbroken))
    first_two = df[df["game"] < 2].reset_index(drop=True)
    pd.testing.assert_frame_equal(first_two, reference.reset_index(drop=True), check_like=True)


def test_a_folder_of_another_scenario_is_refused(quick, tmp_path):
    """Results of one scenario never mix with another's."""
    run_sweep(quick, small_plan(quick, games=1), tmp_path, RunOptions(workers=1))
    patch = simkit.load_scenario(PATCH)
    with pytest.raises(ValueError, match="another scenario"):
        run_sweep(patch, small_plan(patch, games=1), tmp_path, RunOptions(workers=1, resume=True))


def test_dask_cluster_gives_the_same_results(reference, quick, tmp_path):
    """The same chunks sent to a Dask LocalCluster land in the folder with the same games."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cl:
        run_sweep(quick, small_plan(quick, chunk_size=4), tmp_path, RunOptions(scheduler=cl.scheduler_address))
    pd.testing.assert_frame_equal(load_results(tmp_path), reference)


@pytest.mark.parametrize(
    "args, message",
    [
        (["--games", "0"], "at least 1"),
        (["--decks", "Nope:*"], "matches no deck"),
        (["--bots", "balanced,nobody"], "unknown bot"),
    ],
)
def test_cli_bad_input_gives_one_line_and_exit_2(args, message, short_scenario, tmp_path, capsys):
    """Bad flags end with one clear line on stderr and exit status 2."""
    assert main(["sweep", str(short_scenario), "--out", str(tmp_path / "o"), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]


def test_cli_refuses_unreadable_scenario_and_unwritable_folder(tmp_path, capsys):
    """A missing or invalid scenario, or an out folder that cannot be made, is named in the error."""
    assert main(["sweep", str(tmp_path / "missing.toml")]) == 2
    assert "missing.toml: file not found" in capsys.readouterr().err
    bad = tmp_path / "bad.toml"
    bad.write_text('extends = "%s"\n[creatures.Priest.L3]\ncost = -1\n' % (ROOT / "scenarios/miracle/base.toml"))
    assert main(["sweep", str(bad)]) == 2
    assert "creatures.Priest.L3.cost" in capsys.readouterr().err
    blocker = tmp_path / "file"
    blocker.write_text("x")
    assert main(["sweep", str(QUICK), "--games", "1", "--out", str(blocker / "sub")]) == 2
    assert "not writable" in capsys.readouterr().err


def test_cli_sweep_end_to_end(short_scenario, tmp_path, capsys):
    """`simkit sweep` on two decks writes a complete dataset and says where it is."""
    out = tmp_path / "cli"
    assert main(["sweep", str(short_scenario), "--games", "1", "--decks", *TWO, "--out", str(out)]) == 0
    assert "results:" in capsys.readouterr().out
    assert len(load_results(out)) == 4


def test_a_misspelt_sweep_key_is_refused_at_load(tmp_path):
    """A typo in [sweep] is an error naming file and key, not a silently ignored default."""
    path = tmp_path / "typo.toml"
    path.write_text(f'extends = "{QUICK}"\n[sweep]\ngmaes = 3\n')
    with pytest.raises(simkit.ScenarioError, match=r"typo.toml: sweep.gmaes: unknown key"):
        simkit.load_scenario(path)
