"""compare says what a patch did to how the games play: paired changes of length, comebacks and decisiveness, each
with its interval at the level corrected over the figures, in a sentence that matches its numbers."""

import numpy as np
import pandas as pd
from pypdf import PdfReader

from simkit.analysis.experience_change import experience_deltas
from simkit.analysis.paired import compare_results
from simkit.report.comparison import experience_change_text, write_compare_report
from simkit.testing.synthetic import synthetic_results, with_experience

POOL = [f"HolyLight:{t}" for t in ("Archer,BlackBat,Priest", "FrostDragon,Priest,Swordsman",
                                   "Priest,Swordsman,VolcanoDragon", "Archer,BlackBat,FrostDragon")]


def sweep(name: str, comebacks: float, longer: int = 0) -> pd.DataFrame:
    """The same 480 games (same seeds and winners), with planted comebacks and ``longer`` turns added to each."""
    df = synthetic_results(POOL, 30, 0.5, seed=3, scenario_name=name, scenario_hash=name)
    df = with_experience(df, comebacks=comebacks, decided_early=0.4, seed=1)
    df["turns"] = df["turns"] + longer
    return df


def test_a_patch_that_lengthens_games_and_cuts_comebacks_is_said_with_both_changes():
    """Planted: +5 turns a game and comebacks 40% -> 10%: both changes significant, their corrected intervals
    missing 0 and covering the planted change; the sentence names both with their numbers."""
    t = experience_deltas(sweep("base", 0.4), sweep("patch", 0.1, longer=5)).set_index("figure")
    assert t.loc["turns", "delta"] == 5 and t.loc["turns", "significant"]
    assert t.loc["comebacks", "significant"] and t.loc["comebacks", "adj_high"] < 0
    assert t.loc["comebacks", "adj_low"] < -0.3 < t.loc["comebacks", "adj_high"]
    tables = compare_results(sweep("base", 0.4), sweep("patch", 0.1, longer=5))
    text = experience_change_text(tables)
    assert text.startswith("How the games play (480 paired games")
    assert "mean length" in text and "+5.00" in text and "comebacks 4" in text


def test_an_unchanged_patch_changes_nothing_measurably():
    """The same planted figures in both sweeps: no figure changes significantly, and the sentence says so."""
    t = experience_deltas(sweep("base", 0.3), sweep("patch", 0.3))
    assert not t["significant"].any()
    assert (t["adj_low"] <= 0).all() and (t["adj_high"] >= 0).all()
    text = experience_change_text(compare_results(sweep("base", 0.3), sweep("patch", 0.3)))
    assert "no measurable change in mean length" in text and "points" not in text


def test_sweeps_without_the_figures_say_why_and_still_compare(tmp_path):
    """A base swept before the game recorded the figures: the table is empty, the sentence says which sweep and
    why, and the comparison report is written."""
    base = synthetic_results(POOL, 30, 0.5, seed=3, scenario_name="base", scenario_hash="base")
    tables = compare_results(base, sweep("patch", 0.3))
    assert tables["experience_deltas"].empty
    assert experience_change_text(tables).startswith("How the games play was not compared: the base sweep:")
    files = write_compare_report(tables, tmp_path / "c.pdf")
    assert (tmp_path / "c.experience_deltas.csv") in files


def test_the_comparison_pdf_has_the_page(tmp_path):
    """The comparison PDF gains the page "How the games play: what the patch changed" with the sentence on it."""
    tables = compare_results(sweep("base", 0.4), sweep("patch", 0.1, longer=5))
    write_compare_report(tables, tmp_path / "c.pdf")
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(tmp_path / "c.pdf").pages]
    page = next(p for p in pages if "How the games play: what the patch changed" in p)
    assert "mean length" in page and "corrected CI" in page
    assert np.isfinite(tables["experience_deltas"]["adj_low"]).all()
