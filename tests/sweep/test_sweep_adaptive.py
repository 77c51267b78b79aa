"""Adaptive sweeps: rounds planned from the games played, deterministic and resumable, read by report and compare."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import simkit
from simkit.analysis import analyze
from simkit.analysis.paired import compare_results
from simkit.analysis.sequential import AdaptiveSettings
from simkit.cli import main
from simkit.core.rng import derive_seed
from simkit.sweep import RunOptions, SweepSettings, done_chunks, load_results, plan_sweep, read_meta, run_sweep

ROOT = Path(__file__).resolve().parents[2]
QUICK = ROOT / "scenarios" / "miracle" / "quick.toml"
THREE = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon",
         "SalamanderShield:Archer,FrostDragon,Swordsman"]
SETTINGS = AdaptiveSettings(precision=0.9, max_games=150)


@pytest.fixture(scope="module")
def short_scenario(tmp_path_factory):
    """The quick scenario with games cut to 12 turns, so the sweep machinery is tested fast."""
    path = tmp_path_factory.mktemp("scenario") / "short.toml"
    path.write_text(f'extends = "{QUICK}"\nname = "quick, 12 turns"\n[rules]\nturn_limit = 12\n')
    return path


@pytest.fixture(scope="module")
def quick(short_scenario):
    """The short quick-sweep scenario."""
    return simkit.load_scenario(short_scenario)


def adaptive_plan(sc, chunk_size=16, settings=SETTINGS):
    return plan_sweep(sc, SweepSettings(decks=THREE, chunk_size=chunk_size, adaptive=settings))


@pytest.fixture(scope="module")
def reference(quick, tmp_path_factory):
    """An adaptive sweep of three decks (at most 150 games) played in one process."""
    out = tmp_path_factory.mktemp("adaptive")
    run_sweep(quick, adaptive_plan(quick), out, RunOptions(workers=1))
    return out


def counts(out: Path) -> list:
    return [r["counts"] for r in read_meta(out)["rounds"]]


def test_rounds_play_unequal_prefixes_with_the_uniform_seeds(reference):
    """Round 0 plays 2 games of every ordered pair; later rounds play more of some pairs only, each pair's games
    numbered 0..n-1 with the uniform sweep's seed derive_seed(seed, A, B, g), within max_games."""
    df = load_results(reference)
    meta = df.attrs["meta"]
    assert meta["complete"] and meta["adaptive_result"]["stopped"] in ("settled", "max_games")
    assert meta["rounds"][0]["counts"] == [[2] * 3] * 3 and len(meta["rounds"]) >= 2
    assert 9 * 2 < len(df) <= SETTINGS.max_games
    per_pair = df.groupby(["first_deck", "second_deck"])["game"].agg(["size", "max"])
    assert (per_pair["max"] == per_pair["size"] - 1).all() and per_pair["size"].nunique() > 1
    seeds = [derive_seed(0, a, b, g) for a, b, g in zip(df["first_deck"], df["second_deck"], df["game"], strict=True)]
    assert df["seed"].tolist() == seeds
    assert meta["plan"]["adaptive"]["precision"] == 0.9 and meta["plan"]["chunk_count"] is None


#: the rounds main's planner played for `reference` before seat pools came to adaptive sweeps (issue 31)
MAIN_ROUNDS = [
    [[2, 2, 2], [2, 2, 2], [2, 2, 2]],
    [[3, 3, 3], [3, 3, 3], [3, 3, 3]],
    [[4, 4, 3], [4, 4, 4], [3, 4, 4]],
    [[5, 5, 3], [5, 5, 5], [3, 5, 5]],
    [[5, 6, 3], [6, 6, 5], [3, 5, 6]],
    [[5, 8, 3], [8, 8, 5], [3, 5, 8]],
    [[5, 10, 3], [10, 10, 5], [3, 5, 10]],
    [[5, 12, 3], [12, 12, 5], [3, 5, 10]],
    [[5, 15, 3], [15, 15, 5], [3, 5, 10]],
    [[5, 19, 3], [19, 19, 5], [3, 5, 10]],
    [[5, 19, 3], [19, 24, 5], [3, 5, 10]],
    [[5, 19, 3], [19, 30, 5], [3, 5, 10]],
    [[5, 19, 3], [19, 38, 5], [3, 5, 10]],
    [[5, 19, 4], [19, 38, 5], [4, 5, 10]],
    [[5, 19, 5], [19, 38, 5], [5, 5, 10]],
    [[5, 19, 6], [19, 38, 6], [6, 6, 10]],
    [[5, 19, 8], [19, 38, 8], [8, 8, 10]],
    [[5, 19, 10], [19, 38, 8], [10, 8, 10]],
    [[5, 19, 10], [19, 38, 10], [10, 10, 10]],
]


def test_alike_seats_play_the_rounds_they_always_played_with_two_equal_pools(reference):
    """Alike seats are two equal pools, not a special case: the very rounds main played before the seat model
    was one (literal), and meta.json records both pools, equal."""
    meta = read_meta(reference)
    assert counts(reference) == MAIN_ROUNDS and meta["adaptive_result"]["stopped"] == "settled"
    assert meta["second_decks"] == meta["decks"] and meta["plan"]["second_decks"] == meta["plan"]["decks"]


def test_a_folder_that_records_one_pool_resumes_and_loads_as_two_equal_pools(reference, quick, tmp_path):
    """A folder written before both pools were recorded (no second_decks) loads with alike seats and resumes
    as the same plan: nothing is played again."""
    import shutil

    old = tmp_path / "old"
    shutil.copytree(reference, old)
    meta = read_meta(old)
    del meta["second_decks"], meta["plan"]["second_decks"]
    (old / "meta.json").write_text(json.dumps(meta))
    df = load_results(old)
    assert simkit.analysis.seat_pools(df).alike_seats
    run_sweep(quick, adaptive_plan(quick), old, RunOptions(workers=1, resume=True))
    pd.testing.assert_frame_equal(load_results(old), load_results(reference))


def test_results_do_not_depend_on_workers_or_chunk_size(reference, quick, tmp_path):
    """Two worker processes and another chunk size play the very same rounds and games."""
    run_sweep(quick, adaptive_plan(quick, chunk_size=5), tmp_path, RunOptions(workers=2))
    pd.testing.assert_frame_equal(load_results(tmp_path), load_results(reference))
    assert counts(tmp_path) == counts(reference)


def test_sigkill_then_resume_equals_an_unbroken_run(quick, short_scenario, tmp_path):
    """An adaptive sweep killed with SIGKILL mid-run and resumed gives the folder an unbroken run gives.

    One-game chunks, so the kill lands mid-run however fast the games are played."""
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "simkit", "sweep", str(short_scenario), "--adaptive", "--precision", "0.9",
           "--max-games", "150", "--chunk-size", "1", "--workers", "1", "--out", str(out), "--decks", *THREE]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 120
    while time.time() < deadline and len(done_chunks(out)) < 25 and proc.poll() is None:
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert "adaptive_result" not in read_meta(out), "the sweep finished before it could be killed"
    assert main(cmd[3:] + ["--resume"]) == 0
    unbroken = tmp_path / "unbroken"
    run_sweep(quick, adaptive_plan(quick, chunk_size=1), unbroken, RunOptions(workers=1))
    pd.testing.assert_frame_equal(load_results(out), load_results(unbroken))
    assert read_meta(out)["rounds"] == read_meta(unbroken)["rounds"]


def test_a_folder_is_refused_for_other_settings_and_a_finished_one_says_so(reference, quick):
    """Resuming with another precision is refused (the plan differs); a finished adaptive sweep says so."""
    with pytest.raises(ValueError, match="other settings: the adaptive settings "):
        run_sweep(quick, adaptive_plan(quick, settings=AdaptiveSettings(precision=0.5, max_games=150)), reference,
                  RunOptions(workers=1, resume=True))
    with pytest.raises(ValueError, match="finished: nothing to play"):
        run_sweep(quick, adaptive_plan(quick), reference, RunOptions(workers=1))


def test_report_tables_weight_decks_per_opponent_and_use_confidence_sequences(reference):
    """With unequal games per pair, a deck's rate is the mean of its matchup rates, and every interval is the
    (wider) confidence sequence, not Wilson's."""
    df = load_results(reference)
    a, b = THREE[0], THREE[1]
    one_pair = df["first_deck"].isin([a, b]) & df["second_deck"].isin([a, b]) & (df["first_deck"] != df["second_deck"])
    df = df[~(one_pair & (df["game"] >= 2))].reset_index(drop=True)  # A vs B keeps 2 games per seating
    df.attrs["meta"] = load_results(reference).attrs["meta"]
    t = analyze(df, bootstrap=0)
    m = t["matchups"][~t["matchups"]["mirror"]]
    by_opponent = m.groupby("deck")["win_rate"].mean()
    decks = t["decks"].set_index("deck")
    assert np.allclose(decks["win_rate"], by_opponent.reindex(decks.index))
    pooled = simkit.analysis.deck_strength(df, bootstrap=0).set_index("deck")["win_rate"]
    assert not np.allclose(decks["win_rate"], pooled.reindex(decks.index))
    wilson = simkit.analysis.matchup_matrix(df)
    assert ((m["high"] - m["low"]).to_numpy() > (wilson.loc[m.index, "high"] - wilson.loc[m.index, "low"])).all()
    assert "units" in t and set(t["units"]["status"]) <= {"active", "narrow", "inside", "flagged", "futile", "done"}


def test_report_pdf_says_the_intervals_are_anytime_valid(reference, tmp_path):
    """`simkit report` on an adaptive folder writes its PDF and says the sweep was adaptive."""
    from pypdf import PdfReader

    out = tmp_path / "r.pdf"
    assert main(["report", str(reference), "-o", str(out)]) == 0
    text = PdfReader(out).pages[0].extract_text()
    assert "Adaptive sweep" in text and "confidence sequence" in text
    assert "too few to flag" not in text and "This sweep was adaptive: pairs played" in text
    assert "anytime-valid 95% interval" in " ".join(text.split())  # going first: not a fixed-n interval
    units = pd.read_csv(tmp_path / "r.units.csv")
    assert {"kind", "status", "p_value", "look"} <= set(units.columns)


def test_compare_pairs_the_games_both_sweeps_played(reference, quick, tmp_path):
    """An adaptive sweep compared with a uniform one of 3 games per pair pairs the games both played."""
    uniform = tmp_path / "uniform"
    run_sweep(quick, plan_sweep(quick, SweepSettings(games=3, decks=THREE, chunk_size=16)), uniform,
              RunOptions(workers=1))
    a, u = load_results(reference), load_results(uniform)
    t = compare_results(u, a)
    both = a.merge(u, on=["first_deck", "second_deck", "game"])
    assert t["games"] == {"paired": len(both), "base": len(u), "patch": len(a)}
    assert t["same_seed"] == 1.0


@pytest.mark.parametrize("args, message", [
    (["--adaptive", "--games", "5"], "--games is for uniform sweeps"),
    (["--precision", "0.1"], "need --adaptive"),
    (["--adaptive", "--precision", "0"], "--precision"),
    (["--adaptive", "--max-games", "-1"], "--max-games"),
    (["--adaptive", "--horizon", "1"], "--horizon"),
    (["--horizon", "50"], "need --adaptive"),
])
def test_cli_bad_adaptive_flags_give_one_line_and_exit_2(args, message, short_scenario, tmp_path, capsys):
    """Adaptive flags out of range or without --adaptive end with one line and exit 2, nothing written."""
    assert main(["sweep", str(short_scenario), "--out", str(tmp_path / "o"), *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
    assert not (tmp_path / "o").exists()


def test_load_refuses_a_tampered_round(reference, tmp_path):
    """A round whose recorded counts no longer fit the chunks on disk is refused naming meta.json."""
    import shutil

    copy = tmp_path / "copy"
    shutil.copytree(reference, copy)
    meta = json.loads((copy / "meta.json").read_text())
    meta["rounds"][0]["counts"][0][0] = 3
    (copy / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="rounds"):
        load_results(copy)


def test_an_adaptive_panel_plans_each_bots_games_from_its_own_results(quick, tmp_path):
    """`--adaptive --panel balanced,rush`: each bot plays its own rounds (a bot x deck x deck table of counts per
    round), every pair's games are a prefix with the uniform seeds under each bot, chunks never mix bots, the
    same bot is in both seats, and the report reads the reference bot's games and shows the panel pages."""
    plan = plan_sweep(quick, SweepSettings(decks=THREE, panel=["balanced", "rush"], chunk_size=7,
                                           adaptive=AdaptiveSettings(precision=0.9, max_games=300)))
    run_sweep(quick, plan, tmp_path, RunOptions(workers=1))
    df = load_results(tmp_path)
    meta = df.attrs["meta"]
    assert meta["complete"] and np.asarray(meta["rounds"][-1]["counts"]).shape == (2, 3, 3)
    assert meta["rounds"][0]["counts"] == [[[2] * 3] * 3] * 2
    assert (df["first_bot"] == df["second_bot"]).all() and set(df["first_bot"]) == {"balanced", "rush"}
    per = df.groupby(["first_bot", "first_deck", "second_deck"])["game"].agg(["size", "max"])
    assert (per["max"] == per["size"] - 1).all()
    seeds = [derive_seed(0, a, b, g) for a, b, g in zip(df["first_deck"], df["second_deck"], df["game"], strict=True)]
    assert df["seed"].tolist() == seeds
    assert any(k.startswith("rush/") for k in meta["rounds"][-1]["units"])
    out = tmp_path / "r.pdf"
    assert main(["report", str(tmp_path), "-o", str(out)]) == 0
    from pypdf import PdfReader

    text = "".join(p.extract_text() for p in PdfReader(out).pages)
    assert "Adaptive sweep" in text and "Does the player matter?" in text
