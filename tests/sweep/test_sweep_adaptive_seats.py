"""Adaptive sweeps of a game whose seats have their own pools (issue 31: Magic War, 12 gold first, 13 second).

Each ordered pairing (first-seat army, second-seat army) is a unit of its own, stopped by the same anytime-valid
test on its own games; a deck's rate reads every pairing it is part of, in whichever seat; the rounds are
deterministic and resumable as a one-pool adaptive sweep's."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import simkit
from simkit.analysis import analyze
from simkit.analysis.sequential import AdaptiveSettings, stream_table, unit_status
from simkit.cli import main
from simkit.core.rng import derive_seed
from simkit.core.seats import SeatPools
from simkit.sweep import RunOptions, SweepSettings, done_chunks, load_results, plan_sweep, read_meta, run_sweep

ROOT = Path(__file__).resolve().parents[2]
MAGIC = ROOT / "scenarios" / "magic" / "base.toml"
ORC = ["Orc:*"]  # 3 first-seat armies (12 gold) x 6 second-seat armies (the same 3 and three costing 13)
SETTINGS = AdaptiveSettings(precision=0.5, max_games=120, horizon=20)
FLAGS = ["--adaptive", "--precision", "0.5", "--max-games", "120", "--horizon", "20", "--bots", "balanced,balanced"]


@pytest.fixture(scope="module")
def magic():
    return simkit.load_scenario(MAGIC)


def seat_plan(sc, chunk_size=16):
    return plan_sweep(sc, SweepSettings(decks=ORC, bots=("balanced", "balanced"), chunk_size=chunk_size,
                                        adaptive=SETTINGS))


@pytest.fixture(scope="module")
def reference(magic, tmp_path_factory):
    """An adaptive sweep of the Orc armies (at most 120 games) played in one process."""
    out = tmp_path_factory.mktemp("adaptive-seats")
    run_sweep(magic, seat_plan(magic), out, RunOptions(workers=1))
    return out


def literal_games() -> pd.DataFrame:
    """A first seat of decks A, B and a second seat of A, B, C (C sits second only), games per pairing:
    A-A 2, A-B 3, A-C 2, B-A 2, B-B 2, B-C 4."""
    winners = {("A", "A"): ["first", "second"], ("A", "B"): ["first", "draw", "second"],
               ("A", "C"): ["first", "first"], ("B", "A"): ["second", "second"], ("B", "B"): ["draw", "draw"],
               ("B", "C"): ["first", "first", "second", "second"]}
    rows = [(a, b, g, w) for (a, b), ws in winners.items() for g, w in enumerate(ws)]
    return pd.DataFrame(rows, columns=["first_deck", "second_deck", "game", "winner"])


LITERAL_POOLS = SeatPools(("A", "B"), ("A", "B", "C"))


def test_a_matchup_reads_the_seatings_its_decks_meet_in_and_a_deck_every_pairing_it_sits_in():
    """Literal units: A and B meet in both seatings, so matchup A vs B reads 2 complete levels of A-B and B-A
    (A's 1.5 + 2 points of 4); C sits second only, so A vs C is the one seating A first (2 of 2) and B vs C
    B first (2 of 4); a mirror is a first-seat unit; deck A reads 2 levels of A-B, A-C and B-A (5.5 of 6),
    C 0 of 4; the first seat overall 7.5 of 12 (2 levels of 6 pairings), deck A's first seat 3.5 of 6."""
    t = stream_table(literal_games(), LITERAL_POOLS).set_index(["kind", "scope", "subject"])
    assert t.loc[("matchup", "matchup", "A vs B"), ["points", "trials", "draws"]].tolist() == [3.5, 4.0, 1.0]
    assert t.loc[("first_player", "matchup", "A vs B"), ["points", "trials"]].tolist() == [1.5, 4.0]
    assert t.loc[("matchup", "matchup", "A vs C"), ["points", "trials", "levels"]].tolist() == [2.0, 2.0, 2]
    assert t.loc[("matchup", "matchup", "B vs C"), ["points", "trials", "levels"]].tolist() == [2.0, 4.0, 4]
    assert t.loc[("first_player", "matchup", "B vs B"), ["points", "trials", "draws", "wins"]].tolist() == \
        [1.0, 2.0, 2.0, 0.0]
    assert t.loc[("deck", "deck", "A"), ["points", "trials", "levels", "draws"]].tolist() == [5.5, 6.0, 2, 1.0]
    assert t.loc[("deck", "deck", "B"), ["points", "trials", "levels"]].tolist() == [2.5, 6.0, 2]
    assert t.loc[("deck", "deck", "C"), ["points", "trials", "levels", "games"]].tolist() == [0.0, 4.0, 2, 6]
    assert t.loc[("first_player", "deck", "A"), ["points", "trials"]].tolist() == [3.5, 6.0]
    assert t.loc[("first_player", "overall", "all games"), ["points", "trials", "levels", "games"]].tolist() == \
        [7.5, 12.0, 2, 15]
    assert t.reset_index().groupby("kind").size().to_dict() == {"matchup": 3, "first_player": 9, "deck": 3}


def test_unit_status_of_seat_pools_tests_every_unit():
    """Every unit gets an interval and a decision; the matchup family holds the 3 pairs, the per-matchup
    first-seat family the 3 pairs and 2 mirrors."""
    u = unit_status(literal_games(), AdaptiveSettings(), LITERAL_POOLS)
    assert set(u["status"]) <= {"active", "narrow", "inside", "flagged", "futile", "done"}
    assert (u["family"] == "matchup/matchup").sum() == 3 and (u["family"] == "first_player/matchup").sum() == 5
    assert ((u["low"] <= u["rate"]) & (u["rate"] <= u["high"])).all()


def test_a_seat_pool_sweep_plays_rounds_of_unequal_prefixes_with_the_uniform_seeds(reference):
    """Round 0 plays 2 games of each of the 3 x 6 pairings; later rounds play more of some pairings only, each
    pairing's games numbered 0..n-1 with derive_seed(seed, first army, second army, g), within max_games."""
    df = load_results(reference)
    meta = df.attrs["meta"]
    assert meta["complete"] and meta["adaptive_result"]["stopped"] in ("settled", "max_games")
    assert meta["rounds"][0]["counts"] == [[2] * 6] * 3 and len(meta["rounds"]) >= 2
    assert np.asarray(meta["rounds"][-1]["counts"]).shape == (3, 6)
    assert 18 * 2 < len(df) <= SETTINGS.max_games
    per_pair = df.groupby(["first_deck", "second_deck"])["game"].agg(["size", "max"])
    assert len(per_pair) == 18 and (per_pair["max"] == per_pair["size"] - 1).all() and per_pair["size"].nunique() > 1
    seeds = [derive_seed(0, a, b, g) for a, b, g in zip(df["first_deck"], df["second_deck"], df["game"], strict=True)]
    assert df["seed"].tolist() == seeds
    assert set(df["first_deck"]) == set(meta["plan"]["decks"]) and set(df["second_deck"]) == set(meta["second_decks"])


def test_seat_pool_rounds_do_not_depend_on_workers_or_chunk_size(reference, magic, tmp_path):
    """Two worker processes and another chunk size play the very same rounds and games."""
    run_sweep(magic, seat_plan(magic, chunk_size=5), tmp_path, RunOptions(workers=2))
    pd.testing.assert_frame_equal(load_results(tmp_path), load_results(reference))
    assert [r["counts"] for r in read_meta(tmp_path)["rounds"]] == [r["counts"] for r in read_meta(reference)["rounds"]]


def test_a_killed_seat_pool_sweep_resumes_to_the_unbroken_run(magic, tmp_path):
    """`simkit sweep --adaptive` on Magic War, killed with SIGKILL mid-run (the process this test started) and
    resumed, gives the games and rounds an unbroken run gives. One-game chunks, so the kill lands mid-run."""
    out = tmp_path / "killed"
    cmd = [sys.executable, "-m", "simkit", "sweep", str(MAGIC), *FLAGS, "--chunk-size", "1", "--workers", "1",
           "--out", str(out), "--decks", *ORC]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 180
    while time.time() < deadline and len(done_chunks(out)) < 45 and proc.poll() is None:
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert "adaptive_result" not in read_meta(out), "the sweep finished before it could be killed"
    assert main(cmd[3:] + ["--resume"]) == 0
    unbroken = tmp_path / "unbroken"
    run_sweep(magic, seat_plan(magic, chunk_size=1), unbroken, RunOptions(workers=1))
    pd.testing.assert_frame_equal(load_results(out), load_results(unbroken))
    assert read_meta(out)["rounds"] == read_meta(unbroken)["rounds"]


def test_the_tables_of_a_seat_pool_folder_use_its_pairings(reference):
    """Every deck (first seat, second seat or both) has a confidence-sequence interval and, as its rate, the mean
    of its matchup rates; a matchup met in one seating only takes that pairing's interval; the first seat overall reads
    every pairing."""
    df = load_results(reference)
    t = analyze(df, bootstrap=0)
    decks = t["decks"].set_index("deck")
    assert len(decks) == 6 and decks[["low", "high"]].notna().all().all()
    rates = t["matchups"][~t["matchups"]["mirror"]].groupby("deck")["win_rate"].mean()
    assert np.allclose(decks["win_rate"], rates.reindex(decks.index))
    units = t["units"].set_index(["kind", "subject"])
    m = t["matchups"].set_index(["deck", "opponent"])
    firsts, seconds = set(df["first_deck"]), set(df["second_deck"])
    a = sorted(firsts)[0]
    b = sorted(seconds - firsts)[0]  # an army costing 13: it only ever sits second, so a vs b has one seating
    unit = units.loc[("matchup", f"{a} vs {b}")] if a < b else units.loc[("matchup", f"{b} vs {a}")]
    if b < a:  # the unit is b's rate
        unit = unit.copy()
        unit["low"], unit["high"] = 1 - unit["high"], 1 - unit["low"]
    assert (m.loc[(a, b), "low"], m.loc[(a, b), "high"]) == pytest.approx((unit["low"], unit["high"]))
    assert (m.loc[(b, a), "low"], m.loc[(b, a), "high"]) == pytest.approx((1 - unit["high"], 1 - unit["low"]))
    over = t["first_player"].set_index("scope").loc["overall"]
    whole = units.loc[("first_player", "all games")]
    assert over["low"] == pytest.approx(whole["low"] - 0.5) and whole["trials"] == 18 * whole["levels"]


def test_the_report_of_a_seat_pool_folder_counts_its_pairings(reference, tmp_path):
    """`simkit report` writes the PDF; its title page counts 3 first-seat x 6 second-seat decks and says the
    sweep was adaptive."""
    from pypdf import PdfReader

    out = tmp_path / "r.pdf"
    assert main(["report", str(reference), "-o", str(out)]) == 0
    text = PdfReader(out).pages[0].extract_text()
    assert "3 first-seat x 6 second-seat decks (every pairing)" in text and "Adaptive sweep" in text


def brute_units(df: pd.DataFrame, pools: SeatPools) -> dict:
    """The units' points and trials straight from their definitions, game by game (the test's reference)."""
    pts = {(a, b, g): {"first": 1.0, "draw": 0.5, "second": 0.0}[w]
           for a, b, g, w in zip(df["first_deck"], df["second_deck"], df["game"], df["winner"], strict=True)}
    n = df.groupby(["first_deck", "second_deck"]).size().to_dict()
    out = {}
    decks = sorted(set(pools.first) | set(pools.second))
    for i, a in enumerate(decks):
        for b in decks[i + 1:]:
            seatings = [(x, y) for x, y in ((a, b), (b, a)) if pools.holds(x, y)]
            if seatings:
                lv = min(n.get(s, 0) for s in seatings)
                own = sum(pts[(x, y, g)] if x == a else 1 - pts[(x, y, g)] for x, y in seatings for g in range(lv))
                out[("matchup", f"{a} vs {b}")] = (own, len(seatings) * lv)
        cells = [(a, y) for y in pools.second if y != a and pools.holds(a, y)] + \
                [(x, a) for x in pools.first if x != a and pools.holds(x, a)]
        lv = min((n.get(c, 0) for c in cells), default=0)
        own = sum(pts[(x, y, g)] if x == a else 1 - pts[(x, y, g)] for x, y in cells for g in range(lv))
        out[("deck", a)] = (own, len(cells) * lv)
    lv = min(n.get(p, 0) for p in pools.pairs())
    out[("first_player", "all games")] = (sum(pts[(x, y, g)] for x, y in pools.pairs() for g in range(lv)),
                                          pools.pairings * lv)
    return out


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 4), st.data())
def test_every_unit_is_its_definition_for_any_two_pools(d, data):
    """Invariant: for any two seat pools (equal or not) and any games per pairing, every matchup, deck and
    overall unit holds exactly the points and trials its definition gives, game by game."""
    decks = [f"D{k}" for k in range(d)]
    first = data.draw(st.lists(st.sampled_from(decks), min_size=1, unique=True))
    second = data.draw(st.lists(st.sampled_from(decks), min_size=1, unique=True))
    pools = SeatPools(tuple(sorted(first)), tuple(sorted(second)))
    rows = []
    for a, b in pools.pairs():
        ws = data.draw(st.lists(st.sampled_from(["first", "second", "draw"]), min_size=1, max_size=4))
        rows += [(a, b, g, w) for g, w in enumerate(ws)]
    df = pd.DataFrame(rows, columns=["first_deck", "second_deck", "game", "winner"])
    t = stream_table(df, pools).set_index(["kind", "subject"])
    for key, (points, trials) in brute_units(df, pools).items():
        assert t.loc[key, ["points", "trials"]].tolist() == pytest.approx([points, trials]), key


def literal_layout():
    """A seat-pool plan (first seat A, B; second seat A, B, C) after round 0: 2 games of every pairing."""
    from simkit.sweep.adaptive import AdaptiveLayout
    from simkit.sweep.plan import SweepPlan

    plan = SweepPlan("x.toml", "h", SeatPools(("A", "B"), ("A", "B", "C")), 2, ("r", "r"), 0, 4,
                     adaptive=AdaptiveSettings())
    layout = AdaptiveLayout(plan)
    layout.add_round(np.full((1, 2, 3), 2), {})
    return layout


@pytest.mark.parametrize("active, grown", [
    ([("matchup", "matchup", "B vs C", "B", "C")], [(1, 2)]),  # C sits second only: the one seating
    ([("matchup", "matchup", "A vs B", "A", "B")], [(0, 1), (1, 0)]),  # both seatings
    ([("deck", "deck", "C", "C", None)], [(0, 2), (1, 2)]),  # C sits second only: its column
    ([("deck", "deck", "A", "A", None)], [(0, 1), (0, 2), (1, 0)]),  # A sits both: its row and column, no mirror
    ([("first_player", "overall", "all games", None, None)], [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]),
])
def test_the_next_round_grows_exactly_the_pairings_of_the_open_units(monkeypatch, active, grown):
    """With one unit open, the next round takes exactly its pairings from 2 games to the next look, 3."""
    import simkit.analysis.sequential as sequential
    from simkit.sweep.adaptive import next_round

    units = pd.DataFrame(active, columns=["kind", "scope", "subject", "deck", "opponent"]).assign(status="active")
    monkeypatch.setattr(sequential, "unit_status", lambda *a, **k: units)
    target, status, reason = next_round(literal_layout(), literal_games())
    want = np.full((1, 2, 3), 2)
    for i, j in grown:
        want[0, i, j] = 3
    assert reason == "" and target.tolist() == want.tolist()


def test_a_uniform_seat_pool_sweep_logs_both_pools(tmp_path):
    """sweep.log names both seats' pools (3 first-seat x 6 second-seat Orc armies), not the first seat's alone."""
    out = tmp_path / "orc"
    assert main(["sweep", str(MAGIC), "--decks", *ORC, "--games", "1", "--bots", "balanced,balanced",
                 "--workers", "1", "--out", str(out)]) == 0
    log = (out / "sweep.log").read_text()
    assert "3 first-seat x 6 second-seat decks, 1 games per pair, 1 chunks to play" in log
