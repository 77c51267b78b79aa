"""Unit and race pages (issue 31, item 6): the regression of the first seat's score on unit counts on planted
literal games, the race-pair table, and the pages in a real Magic War report; other games get none."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import simkit
from simkit.analysis.unit_value import count_regression, one_card_categories, seat_by_category, unit_values
from simkit.report import balance_report
from simkit.report.unit_pages import plural, unit_tables
from simkit.sweep import RunOptions, SweepSettings, plan_sweep, run_sweep
from simkit.testing.synthetic import synthetic_results

ROOT = Path(__file__).resolve().parents[3]
DRAWN = ROOT / "scenarios" / "magic" / "budget-scan.toml"

#: the games a pair plays to score p for the first seat (win 1, draw 1/2)
GAMES = {1.0: ["first", "first"], 0.75: ["first", "draw"], 0.5: ["draw", "draw"], 0.25: ["second", "draw"],
         0.0: ["second", "second"]}


def _planted(counts: dict, score) -> pd.DataFrame:
    rows = []
    for a in counts:
        for b in counts:
            for w in GAMES[score(a, b)]:
                rows.append({"first_deck": a, "second_deck": b, "winner": w})
    return pd.DataFrame(rows)


def test_ols_recovers_a_planted_line_and_leaves_a_collinear_column_unidentified():
    x1 = np.array([0.0, 1, 2, 3, 4, 5])
    x = np.column_stack([np.ones(6), x1, 2 * x1])
    fit = count_regression(0.2 + 0.1 * x1, x)
    assert list(fit["identified"]) == [True, True, False]
    assert fit["beta"][:2] == pytest.approx([0.2, 0.1]) and np.isnan(fit["beta"][2])
    assert fit["se"][:2] == pytest.approx([0, 0], abs=1e-9)


def test_hc1_intervals_are_the_sandwich_with_its_small_sample_factor():
    """y = 0, 1 at x = 0 and 1, 0 at x = 1 (n = 4): beta = (0.5, 0); residuals all 1/2; HC1 se of the slope
    sqrt(4/2 * 0.5) / ... computed by hand: bread (X'X)^-1, meat sum x x' r^2, times n / (n - k)."""
    x = np.array([[1.0, 0], [1, 0], [1, 1], [1, 1]])
    y = np.array([0.0, 1, 1, 0])
    fit = count_regression(y, x)
    bread = np.linalg.inv(x.T @ x)
    meat = (x * 0.25).T @ x
    se = np.sqrt(np.diag(bread @ meat @ bread * 4 / 2))
    assert fit["beta"] == pytest.approx([0.5, 0.0]) and fit["se"] == pytest.approx(se)


def test_unit_values_read_a_planted_quarter_point_per_copy_per_gold():
    """Score 0.5 + 0.25 (X first - X second); X costs 1, Y costs 2; a fourth deck of one X breaks the equal cost."""
    counts = {"A:X*2": {"X": (2, 1)}, "A:X,Y": {"X": (1, 1), "Y": (1, 2)}, "A:Y": {"Y": (1, 2)}, "A:X": {"X": (1, 1)}}
    x = {d: c.get("X", (0, 0))[0] for d, c in counts.items()}
    df = _planted(counts, lambda a, b: 0.5 + 0.25 * (x[a] - x[b]))
    uv = unit_values(df, counts, {"X": "A", "Y": "A"}).set_index("card")
    assert uv.loc["X", "per_copy"] == pytest.approx(0.25) and uv.loc["X", "per_cost"] == pytest.approx(0.25)
    assert uv.loc["Y", "per_copy"] == pytest.approx(0.0, abs=1e-12)
    assert list(uv.index) == ["X", "Y"] and uv.loc["X", "decks"] == 3 and uv.loc["Y", "cost"] == 2
    assert uv.attrs["intercept"][0] == pytest.approx(0.5) and uv.attrs["games"] == 32
    assert not uv.attrs["relative"]


def test_when_every_deck_costs_the_same_the_values_are_relative_and_one_is_the_reference():
    counts = {"A:X*2": {"X": (2, 1)}, "A:X,Y": {"X": (1, 1), "Y": (1, 1)}, "A:Y*2": {"Y": (2, 1)}}
    x = {d: c.get("X", (0, 0))[0] for d, c in counts.items()}
    uv = unit_values(_planted(counts, lambda a, b: 0.5 + 0.25 * (x[a] - x[b])), counts).set_index("card")
    assert uv.attrs["relative"]
    assert uv.loc["X", "per_copy"] == pytest.approx(0.25) and uv.loc["X", "identified"]
    assert np.isnan(uv.loc["Y", "per_copy"]) and not uv.loc["Y", "identified"]


def test_a_deck_without_counts_is_refused_by_name():
    df = pd.DataFrame({"first_deck": ["a"], "second_deck": ["b"], "winner": ["first"]})
    with pytest.raises(ValueError, match="no card counts for the deck 'b'"):
        unit_values(df, {"a": {"X": (1, 1)}})


def test_the_race_table_is_the_first_seats_score_by_each_sides_race():
    cards = {"Elf:A": {"race": ("Elf",), "unit": ("A",)}, "Orc:B": {"race": ("Orc",), "unit": ("B",)},
             "Orc:C": {"race": ("Orc",), "unit": ("B", "C")}}
    assert one_card_categories(cards) == ["race"]
    df = pd.DataFrame({"first_deck": ["Elf:A", "Elf:A", "Orc:B", "Orc:C", "Orc:B"],
                       "second_deck": ["Orc:B", "Orc:C", "Elf:A", "Elf:A", "Orc:C"],
                       "winner": ["first", "draw", "second", "second", "first"]})
    t = seat_by_category(df, cards, "race").set_index(["first", "second"])
    assert t.loc[("Elf", "Orc"), "games"] == 2 and t.loc[("Elf", "Orc"), "first_rate"] == 0.75
    assert t.loc[("Orc", "Elf"), "first_rate"] == 0.0 and t.loc[("Orc", "Orc"), "games"] == 1
    assert ("Elf", "Elf") not in t.index
    assert (t["low"] <= t["first_rate"]).all() and (t["first_rate"] <= t["high"]).all()


def test_plural_words():
    assert (plural("army"), plural("deck"), plural("unit type"), plural("day")) == ("armies", "decks", "unit types",
                                                                                    "days")


def test_magic_wars_deck_counts_give_each_units_copies_and_gold():
    sc = simkit.load_scenario(DRAWN)
    counts = sc.game.capability("deck_counts")
    assert counts("Orc:Goblin*6,OrcInfantry*3") == {"Goblin": (6, 1), "OrcInfantry": (3, 2)}
    assert counts("Sanctuary:Archangel,Crusader,Pikeman,Swordsman")["Archangel"] == (1, 5)
    assert simkit.load_scenario(ROOT / "scenarios" / "duel" / "quick.toml").game.capability("deck_counts") is None


def test_a_game_without_deck_counts_gets_no_unit_tables():
    df = synthetic_results(["A:x,y,z", "B:x,y,w"], 2)
    assert unit_tables(df, {"cards": pd.DataFrame()}) == {}


def test_a_magic_war_report_has_a_unit_page_and_a_race_page_with_their_tables(tmp_path):
    """Orc and Elf armies of budget-scan.toml (10 first x 10 second), one game each: the report's last pages are
    the units and the races, and their CSVs hold every unit of the armies swept and the four race pairs."""
    pypdf = pytest.importorskip("pypdf")
    sc = simkit.load_scenario(DRAWN)
    out = tmp_path / "sweep"
    plan = plan_sweep(sc, SweepSettings(games=1, decks=["Orc:*", "Elf:*"]))
    run_sweep(sc, plan, out, RunOptions(workers=1))
    files = balance_report(out, tmp_path / "r.pdf")
    text = [p.extract_text() for p in pypdf.PdfReader(files[0]).pages]
    units = next(i for i, t in enumerate(text) if "Each unit type: win rate when bought" in t)
    assert "First seat's score by race" in text[units + 1] and "armies" in text[units]
    uv = pd.read_csv(tmp_path / "r.unit_value.csv")
    swept = {u for d in plan.pools.decks for u in sc.game.deck_cards(d)["unit"]}
    assert set(uv["card"]) == swept and set(uv["group"]) == {"Orc", "Elf"}
    assert (uv["bought_low"] <= uv["bought_rate"]).all()
    race = pd.read_csv(tmp_path / "r.race_seat.csv")
    assert len(race) == 4 and race["games"].sum() == 100 and set(race["category"]) == {"race"}
