"""What each card did: the engines' counters read by the analysis (per game, before -> after), the report's
page and CSV, and the compare's, end to end on tiny real sweeps; results without counters still report."""

import numpy as np
import pandas as pd
import pytest
from pypdf import PdfReader

from simkit.analysis import card_usage, card_usage_change
from simkit.analysis.cards import counter_columns
from simkit.cli import main
from simkit.games import ResultSchema, counter_column, parse_counter_column
from simkit.report.card_usage_page import ABSENT, change_sentence, usage_sentences

A, B = "Lead:Archer,Priest,Swordsman", "Lead:BlackBat,Priest,Swordsman"
SCHEMA = ResultSchema(end_reasons={"miracle": "a miracle fell"}, card_categories={"creature": "creature kind"},
                      card_counters={"creature": {"summoned": "units summoned", "damage": "damage dealt"},
                                     "pile": {"drawn": "cards drawn"}})


def _results(rows: list[dict]) -> pd.DataFrame:
    """Games of decks A and B with the given counter cells (every other counter 0)."""
    cols = [counter_column(s, "creature", c, k) for s in ("first", "second") for c in ("Archer", "BlackBat")
            for k in ("summoned", "damage")] + [counter_column(s, "pile", "Fireball", "drawn")
                                                for s in ("first", "second")]
    df = pd.DataFrame([{"first_deck": r.get("first", A), "second_deck": r.get("second", B), "game": i,
                        "winner": "first", "end_reason": "miracle", "turns": 10,
                        **{c: r.get(c, 0) for c in cols}} for i, r in enumerate(rows)])
    df.attrs["meta"] = {"schema": SCHEMA.as_meta(), "deck_cards": {
        A: {"creature": ["Archer", "Priest", "Swordsman"]}, B: {"creature": ["BlackBat", "Priest", "Swordsman"]}}}
    return df


def test_a_counter_column_names_seat_category_card_and_counter_and_other_columns_are_not_counters():
    """`first:creature:Archer:summoned` parses back to its four parts; core and side columns parse to None."""
    name = counter_column("first", "creature", "Archer", "summoned")
    assert name == "first:creature:Archer:summoned"
    assert parse_counter_column(name) == ("first", "creature", "Archer", "summoned")
    assert parse_counter_column("first_miracle_hp") is None and parse_counter_column("third:a:b:c") is None


def test_a_deck_card_counts_only_in_the_games_of_the_seats_holding_it():
    """Archer (deck A only) over 3 games, A first twice and second once: its three seat-games 2, 4, 6 summoned,
    mean 4; the seats holding BlackBat count too; the interval is the normal one of the mean."""
    df = _results([
        {"first:creature:Archer:summoned": 2, "second:creature:BlackBat:summoned": 1},
        {"first:creature:Archer:summoned": 4, "second:creature:BlackBat:summoned": 1},
        {"first": B, "second": A, "second:creature:Archer:summoned": 6, "first:creature:BlackBat:summoned": 4},
    ])
    u = card_usage(df).set_index(["card", "counter"])
    archer = u.loc[("Archer", "summoned")]
    assert archer["games"] == 3 and archer["total"] == 12 and archer["mean"] == pytest.approx(4.0)
    half = 1.959964 * 2.0 / np.sqrt(3)  # sd of 2, 4, 6 is 2
    assert archer["low"] == pytest.approx(4 - half, rel=1e-5) and archer["high"] == pytest.approx(4 + half, rel=1e-5)
    assert u.loc[("BlackBat", "summoned"), "mean"] == pytest.approx(2.0)
    assert u.loc[("Archer", "summoned"), "words"] == "units summoned"


def test_a_card_of_a_category_no_deck_holds_counts_in_every_seat_game():
    """Fireball (a shared pile's card): two games, drawn 1 and 0 by the first seat, 3 and 0 by the second:
    four seat-games, mean 1."""
    df = _results([{"first:pile:Fireball:drawn": 1, "second:pile:Fireball:drawn": 3}, {}])
    u = card_usage(df).set_index(["card", "counter"])
    assert u.loc[("Fireball", "drawn"), "games"] == 4 and u.loc[("Fireball", "drawn"), "mean"] == 1.0


def test_results_without_counters_give_an_empty_table_and_a_page_that_says_so():
    """An older sweep's results (no counter columns): no rows, counted False, the sentence says they are absent."""
    df = _results([{}]).loc[:, lambda d: [c for c in d.columns if ":" not in c]]
    u = card_usage(df)
    assert u.empty and u.attrs["counted"] is False and counter_columns(df) == {}
    assert usage_sentences(u) == [ABSENT]
    change = card_usage_change(u, card_usage(_results([{}])))
    assert change.empty and "the base holds no card counters" in change_sentence(change)


def test_a_change_is_significant_exactly_when_its_simultaneous_interval_leaves_out_zero():
    """Archer summoned 2 a game -> 5 a game over 40 games each (noise +-1): significant, interval about 3;
    BlackBat 2 -> 2 (same noise): not significant, its interval holds 0."""
    rng = np.random.default_rng(1)

    def sweep(archer: float) -> pd.DataFrame:
        return _results([{"first:creature:Archer:summoned": int(archer + rng.integers(-1, 2)),
                          "second:creature:BlackBat:summoned": int(2 + rng.integers(-1, 2))} for _ in range(40)])

    c = card_usage_change(card_usage(sweep(2)), card_usage(sweep(5))).set_index(["card", "counter"])
    archer, bat = c.loc[("Archer", "summoned")], c.loc[("BlackBat", "summoned")]
    assert archer["significant"] and archer["low"] > 0 and 2.5 < archer["change"] < 3.5
    assert not bat["significant"] and bat["low"] <= 0 <= bat["high"]
    assert (c["significant"] == ((c["low"] > 0) | (c["high"] < 0))).all()
    assert c.attrs["compared"] == len(c)
    assert "Archer summoned" in change_sentence(c.reset_index()) and "1 of" in change_sentence(c.reset_index())


@pytest.fixture(scope="module")
def two_sweeps(tmp_path_factory, short_scenario):
    """The 12-turn quick Battle of Miracles sweep at 1 game a pairing, and a patch making Archers cost 3 more."""
    root = tmp_path_factory.mktemp("usage")
    patch = root / "archer.toml"
    patch.write_text(f'extends = "{short_scenario}"\nname = "archers dear"\n[creatures.Archer.L1]\ncost = 5\n'
                     '[creatures.Archer.L2]\ncost = 7\n[creatures.Archer.L3]\ncost = 9\n')
    for scenario, out in ((short_scenario, root / "base"), (patch, root / "patch")):
        assert main(["sweep", str(scenario), "--games", "1", "--workers", "1", "--out", str(out)]) == 0
    return root


def test_report_has_the_card_usage_page_and_csv_from_a_real_sweep(two_sweeps):
    """`simkit report` of a real sweep: a 'What the cards did' page naming cards and counts, and card_usage.csv with
    every creature kind and artifact of the pool, some cards summoned."""
    out = two_sweeps / "r" / "base.pdf"
    assert main(["report", str(two_sweeps / "base"), "-o", str(out)]) == 0
    text = "\n".join(p.extract_text() for p in PdfReader(out).pages)
    assert "What the cards did" in text and "units summoned" in text
    csv = pd.read_csv(out.with_name("base.card_usage.csv"))
    assert {"Archer", "Priest", "HolyLight", "InfernoFlame"} <= set(csv["card"])
    assert csv[csv["counter"] == "summoned"]["mean"].gt(0).any()


def test_compare_shows_each_card_before_and_after_and_the_dearer_archer_summoned_less(two_sweeps):
    """`simkit compare` base -> archers dear: a 'Why it moved' page, card_usage_changes.csv, and Archers summoned
    fewer times a game (the change's interval below 0)."""
    out = two_sweeps / "r" / "ab.pdf"
    assert main(["compare", str(two_sweeps / "base"), str(two_sweeps / "patch"), "-o", str(out)]) == 0
    text = "\n".join(p.extract_text() for p in PdfReader(out).pages)
    assert "Why it moved" in text and "Card counts:" in text
    c = pd.read_csv(out.with_name("ab.card_usage_changes.csv")).set_index(["card", "counter"])
    archer = c.loc[("Archer", "summoned")]
    assert archer["patch"] < archer["base"] and archer["high"] < 0 and archer["significant"]


def test_a_sweep_folder_from_before_the_counters_reports_and_its_page_says_they_are_absent(tmp_path):
    """A results folder without counter columns (as every sweep before them): `simkit report` still writes the
    report, its card usage page says the counters are absent, and card_usage.csv has no rows."""
    from results_folders import write_sweep_folder

    from simkit.testing.synthetic import synthetic_results

    decks = ["HolyLight:Archer,Priest,Swordsman", "WindBlessing:BlackBat,Priest,VolcanoDragon",
             "HolyLight:BlackBat,FrostDragon,Swordsman"]
    folder = write_sweep_folder(synthetic_results(decks, 4, seed=3), tmp_path / "old")
    out = tmp_path / "old.pdf"
    assert main(["report", str(folder), "-o", str(out)]) == 0
    text = " ".join(" ".join(p.extract_text().split()) for p in PdfReader(out).pages)
    assert "These results hold no card counters" in text
    assert pd.read_csv(tmp_path / "old.card_usage.csv").empty
