"""Seats with their own pools (issue 31, item 6): a game declaring seat pools (Magic War: 12 gold first,
13 second) sweeps every first-seat deck against every second-seat deck; every other game's plan is unchanged."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import simkit
from simkit.analysis import analyze
from simkit.analysis.metagame import seat_metagame
from simkit.analysis.results import check_results
from simkit.core.rng import derive_seed
from simkit.sweep import RunOptions, SweepSettings, load_results, plan_sweep, run_sweep
from simkit.sweep.store import plan_dict, plan_of

ROOT = Path(__file__).resolve().parents[2]
MAGIC = ROOT / "scenarios" / "magic" / "base.toml"
DUEL = ROOT / "scenarios" / "duel" / "quick.toml"


@pytest.fixture(scope="module")
def magic():
    return simkit.load_scenario(MAGIC)


def test_a_seat_pool_plan_pairs_first_with_second(magic):
    """The plan holds the first seat's 12 armies and the second seat's 24: 288 pairs, seeds as always."""
    plan = plan_sweep(magic, SweepSettings(games=2, chunk_size=50))
    first, second = plan.pools
    assert len(first) == 12 and len(second) == 24 and len(plan.pairs) == 288 == plan.pools.pairings
    assert plan.total_games == 576
    c = plan.chunk(3)
    assert c.seeds[0] == derive_seed(plan.seed, c.first_decks[0], c.second_decks[0], c.games[0])
    assert set(a for a, _ in plan.pairs) == set(first)
    assert all(magic.game.canonical_deck(a) == a for a in second)


def test_a_game_with_alike_seats_plans_two_equal_pools():
    """A game whose seats are alike is two equal pools, not a special case: pairs = decks x decks as before,
    meta's plan records both pools (equal) beside its old keys."""
    sc = simkit.load_scenario(DUEL)
    plan = plan_sweep(sc, SweepSettings(games=2, bots=("aggro", "control")))
    assert plan.pools.first == plan.pools.second == sc.decks and plan.pools.alike_seats
    assert plan.pairs == [(a, b) for a in sc.decks for b in sc.decks]
    d = plan_dict(plan)
    assert set(d) == {"scenario_hash", "decks", "second_decks", "games", "bots", "seed", "chunk_size", "chunk_count"}
    assert d["decks"] == d["second_decks"] == list(sc.decks)


def test_a_seat_pool_sweep_runs_loads_and_analyses(magic, tmp_path):
    """Sweep (Orc armies only: 3 first x 6 second), resume-safe plan in meta.json, results complete, analysis
    with each seat's equilibrium mix."""
    plan = plan_sweep(magic, SweepSettings(games=1, decks=["Orc:*"], bots=("balanced", "balanced")))
    first, second = plan.pools
    assert (len(first), len(second)) == (3, 6)
    out = tmp_path / "orc"
    run_sweep(magic, plan, out, RunOptions(workers=1))
    meta = json.loads((out / "meta.json").read_text())
    assert meta["second_decks"] == list(second) and meta["plan"]["second_decks"] == list(second)
    assert set(meta["deck_cards"]) == set(second)
    assert plan_of(out).pairs == plan.pairs
    df = load_results(out)
    assert len(df) == 18 and set(df["first_deck"]) == set(first)
    tables = analyze(df, bootstrap=10)
    mg = tables["metagame"]
    assert set(mg["seat"]) == {"first", "second"}
    for seat in ("first", "second"):
        assert mg[mg.seat == seat]["weight"].sum() == pytest.approx(1.0)
    with pytest.raises(ValueError, match="every ordered deck pairing must be played"):
        part = df.iloc[1:].copy()
        part.attrs = df.attrs
        check_results(part)


def test_seat_metagame_on_a_literal_table():
    """Matching pennies between the seats gives each seat half and half; a first deck beaten everywhere by
    another is dominated and has no weight."""
    rates = pd.DataFrame([[1.0, 0.0], [0.0, 1.0], [0.0, 0.0]], index=["A", "B", "C"], columns=["X", "Y"])
    mg = seat_metagame(rates).set_index(["seat", "deck"])
    assert mg.loc[("first", "A"), "weight"] == pytest.approx(0.5)
    assert mg.loc[("second", "X"), "weight"] == pytest.approx(0.5)
    assert mg.loc[("first", "C"), "weight"] == pytest.approx(0.0) and mg.loc[("first", "C"), "dominated"]


def test_compare_pairs_seat_pool_sweeps(magic, tmp_path):
    """compare: a base and a patch (leaders immune for two turns) swept on the same seat pools pair game by game,
    and the Nash shift is each seat's mix."""
    from simkit.analysis.paired import compare_results

    patch = simkit.load_scenario(MAGIC.parent / "immune-2.toml")
    frames = []
    for sc, name in ((magic, "base"), (patch, "patch")):
        plan = plan_sweep(sc, SweepSettings(games=1, decks=["Orc:*"], bots=("balanced", "balanced")))
        run_sweep(sc, plan, tmp_path / name, RunOptions(workers=1))
        frames.append(load_results(tmp_path / name))
    tables = compare_results(*frames)
    assert tables["same_seed"] == 1.0
    assert all(d.endswith(("(first seat)", "(second seat)")) for d in tables["nash_shift"]["deck"])


def test_an_army_id_selects_that_army_only(magic):
    """An army id holds '*' ("Orc:Goblin*6,OrcInfantry*3"); as a --decks pattern it picks that army, not others."""
    plan = plan_sweep(magic, SweepSettings(decks=["Orc:Goblin*6,OrcInfantry*3", "Orc:Goblin*5,OrcInfantry*4"]))
    assert plan.pools.first == ("Orc:Goblin*6,OrcInfantry*3",)
    assert plan.pools.second == ("Orc:Goblin*6,OrcInfantry*3", "Orc:Goblin*5,OrcInfantry*4")
