"""Magic War under `simkit scan` over the second seat's budget (issue 31, items 5 and 7): armies drawn at each
seat's own budget follow the value; a listed pool, which cannot, is refused by name where a seat has no army."""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd
import pytest

import simkit
from simkit.cli import main
from simkit.games.magic.tables import army_cost, parse_army_counts
from simkit.scan import ScanSettings
from simkit.sweep import RunOptions, load_results

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "scenarios" / "magic" / "base.toml"
DRAWN = ROOT / "scenarios" / "magic" / "budget-scan.toml"


def _patch(tmp_path, text: str, name: str = "p.toml") -> Path:
    path = tmp_path / name
    path.write_text(f'extends = "{DRAWN}"\n' + text, encoding="utf-8")
    return path


def _cost(sc, deck: str) -> int:
    return army_cost(sc.game.rules, parse_army_counts(sc.game.rules, deck))


def test_a_draw_gives_five_armies_per_race_and_seat_each_spending_that_seats_budget():
    """budget-scan.toml: 5 per race, 4 races: 20 first-seat armies costing 12, 20 second-seat armies costing 13."""
    sc = simkit.load_scenario(DRAWN)
    first, second = sc.game.seat_decks()
    assert len(first) == 20 and len(second) == 20
    assert {_cost(sc, d) for d in first} == {12} and {_cost(sc, d) for d in second} == {13}
    assert [d.partition(":")[0] for d in first] == ["Sanctuary"] * 5 + ["Undead"] * 5 + ["Orc"] * 5 + ["Elf"] * 5
    assert list(sc.decks) == list(first) + list(second)


def test_the_first_seats_draw_stays_when_the_second_budget_moves_and_equal_budgets_draw_equal_armies(tmp_path):
    base = simkit.load_scenario(DRAWN)
    for b1 in (11, 12, 15):
        sc = simkit.load_scenario(_patch(tmp_path, f"[rules]\nbudgets = [12, {b1}]\n", f"b{b1}.toml"))
        first, second = sc.game.seat_decks()
        assert first == base.game.seat_decks()[0]
        assert {_cost(sc, d) for d in second} == {b1}
        if b1 == 12:
            assert second == first


def test_spend_any_draws_within_the_budget_and_another_seed_draws_other_armies(tmp_path):
    sc = simkit.load_scenario(_patch(tmp_path, '[armies]\nspend = "any"\nseed = 5\ndraw = 4\n'))
    first, second = sc.game.seat_decks()
    assert len(first) == 16 and max(_cost(sc, d) for d in first) <= 12 and max(_cost(sc, d) for d in second) <= 13
    assert first != simkit.load_scenario(DRAWN).game.seat_decks()[0]


@pytest.mark.parametrize("text, message", [
    ("[armies]\ndraw = 3\nspend = \"most\"\n", "armies.spend: must be one of"),
    ("[armies]\ndraw = 0\nseed = 2\n", "armies.seed: only with draw"),
    ("[armies]\ndraw = 3\npick = 1\n", "armies.pick: unknown key (known: pool, draw, seed, spend)"),
    ("[rules]\nbudgets = [12, 0]\n", "armies.draw: no second-seat army costs exactly 0 gold (rules.budgets[1])"),
])
def test_a_bad_draw_is_refused_naming_its_key(tmp_path, text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        simkit.load_scenario(_patch(tmp_path, text))


def test_a_listed_pool_a_budget_cannot_buy_is_refused_naming_the_draw(tmp_path, capsys):
    """base.toml's pool is listed at 12 and 13 gold: with budgets [12, 11] no listed army fits the second seat,
    and the scan says so in one line (exit 2, nothing written), pointing at [armies] draw; a first seat of 5 gold
    likewise."""
    out = tmp_path / "scan"
    assert main(["scan", str(BASE), "--key", "rules.budgets[1]", "--values", "11,13", "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err == ("simkit scan: error: rules.budgets[1] = 11: the scenario refuses it (armies.pool: no listed army "
                   "fits the second seat's 11 gold (rules.budgets[1]); a listed pool is fixed: give [armies] draw = N "
                   "to draw N armies per race at each seat's budget (scenarios/magic/budget-scan.toml))")
    assert not out.exists()
    seat = tmp_path / "seat.toml"
    seat.write_text(f'extends = "{BASE}"\n[rules]\nbudgets = [5, 13]\n', encoding="utf-8")
    with pytest.raises(ValueError, match=re.escape("armies.pool: no listed army fits the first seat's 5 gold "
                                                   "(rules.budgets[0]); a listed pool is fixed")):
        simkit.load_scenario(seat).game.seat_decks()


def test_a_seats_budget_scans_on_the_listed_pool(tmp_path):
    """The listed pool keeps its armies at every budget and each seat holds those it can afford: scanning the
    second seat's budget over 12 and 13 on base.toml's Orc armies plays 3 x 3 pairings at 12 (the 13-gold armies
    sit in no seat) and 3 x 6 at 13, the first seat's armies and their seeds the same."""
    out = tmp_path / "scan"
    table = simkit.run_scan(BASE, ScanSettings(key="rules.budgets[1]", values="12,13", games=1, decks=["Orc:*"],
                                               bootstrap=50), run=RunOptions(workers=1), out=out, page=False)
    assert list(table["games"]) == [9, 18] and table.attrs["seat_decks"] == [(3, 3), (3, 6)]
    at12, at13 = (load_results(out / "values" / v) for v in ("12", "13"))
    assert set(at12["first_deck"]) == set(at13["first_deck"]) == set(at12["second_deck"])
    both = at12.merge(at13, on=["first_deck", "second_deck", "game"])
    assert len(both) == 9 and (both["seed_x"] == both["seed_y"]).all()


def test_a_tiny_budget_scan_follows_the_pools_keeps_the_seeds_and_resumes(tmp_path):
    """Orc armies only (5 first x 5 second), one game per pair, second budget 11, 13, 15: each value's second
    seat holds armies costing that value, the first seat the same armies and seeds; a resumed scan plays nothing."""
    out = tmp_path / "scan"
    settings = ScanSettings(key="rules.budgets[1]", values="11,13,15", games=1, decks=["Orc:*"], bootstrap=100)
    table = simkit.run_scan(DRAWN, settings, out, RunOptions(workers=1), page=False)
    assert list(table["value"]) == [11, 13, 15] and (table["games"] == 25).all()
    assert not table.attrs["paired"] and table.attrs["target"] == 0.5
    assert table.attrs["seat_decks"] == [(5, 5), (5, 5), (5, 5)]
    sc = simkit.load_scenario(DRAWN)
    frames = {v: load_results(out / "values" / str(v)) for v in (11, 13, 15)}
    for v, df in frames.items():
        assert {_cost(sc, d) for d in df["second_deck"]} == {v}
        assert set(df["first_deck"]) == set(frames[11]["first_deck"])
        est = df["winner"].map({"first": 1.0, "draw": 0.5, "second": 0.0}).mean()
        assert table.loc[table["value"] == v, "estimate"].iloc[0] == pytest.approx(est)
    assert (table["low"] <= table["estimate"]).all() and (table["estimate"] <= table["high"]).all()
    assert table.attrs["sentence"].startswith(("Settled: ", "Not settled"))
    again = simkit.run_scan(DRAWN, settings, out, RunOptions(workers=1, resume=True), page=False)
    assert again.attrs["games_played"] == 0
    pd.testing.assert_frame_equal(again, table)
