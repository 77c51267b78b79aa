"""The comparison report answers first: the verdict, what the patch changed, the band and the flags on its title
page, significance words that agree with their intervals, and noise not drawn as a result."""

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from matplotlib.figure import Figure
from pypdf import PdfReader

from simkit.analysis.paired import compare_results, corrected_interval
from simkit.analysis.stats import adjust_p, paired_delta
from simkit.report.comparison import compare_headlines, nash_sentence, write_compare_report
from simkit.report.plots import plot_delta_heatmap
from simkit.testing.synthetic import synthetic_deck_cards, synthetic_results

TRIOS = ["Archer,BlackBat,Priest", "FrostDragon,Priest,Swordsman", "Priest,Swordsman,VolcanoDragon",
         "Archer,BlackBat,FrostDragon", "BlackBat,Swordsman,VolcanoDragon", "Archer,FrostDragon,VolcanoDragon"]
POOL = [f"{a}:{t}" for a in ("HolyLight", "WindBlessing") for t in TRIOS]


def sweep(edge: float, seat: float, name: str, cost: int):
    """Priest decks with ``edge`` over the rest, the first seat worth ``seat``; the scenario text names the
    Priest's L3 cost, as a results folder keeps it."""

    def rate(a, b):
        return (0.5 + edge * ("Priest" in synthetic_deck_cards(a)["creature"])
                - edge * ("Priest" in synthetic_deck_cards(b)["creature"]))

    df = synthetic_results(POOL, 40, rate, first_advantage=seat, seed=5, scenario_name=name, scenario_hash=name,
                           bots=("balanced", "balanced"))
    df.attrs["meta"] = {**df.attrs["meta"], "scenario_text": json.dumps(
        {"name": name, "creatures": {"Priest": {"L3": {"cost": cost}}}})}
    return df


@pytest.fixture(scope="module")
def tables():
    """Base: Priest decks 10 points up, first seat 8 points up; the patch (Priest L3 cost 6 -> 7) removes both."""
    return compare_results(sweep(0.10, 0.08, "base", 6), sweep(0.0, 0.0, "patch", 7))


def _title_text(tables, tmp_path) -> str:
    out = tmp_path / "c.pdf"
    write_compare_report(tables, out)
    return PdfReader(out).pages[0].extract_text()  # pypdf: the suite does not need poppler


def test_the_title_page_states_the_verdict_the_change_the_band_and_the_flags(tables, tmp_path):
    """Page 1's text: the verdict sentence with its interval first, `key: before -> after`, the decks inside
    the band before -> after, and each flag that changed as base -> patch with its reason, before the headlines."""
    text = " ".join(_title_text(tables, tmp_path).split())
    v = tables["verdict"]
    assert v["kind"] == "more balanced"
    assert f"More balanced: deck spread {100 * tables['spread']['base']:.1f} -> " in text
    assert f"(x{v['ratio']:.2f}, 95% CI {v['low']:.2f}-{v['high']:.2f})" in text
    assert "What the patch changed creatures.Priest.L3.cost: 6 -> 7" in text
    assert f"{v['inside_before']} -> {v['inside_after']} of 12 decks inside the 45-55% band" in text
    seat = tables["flag_changes"].set_index(["kind", "subject"]).loc[("first_player", "all games")]
    assert seat["status"] == "vanished"
    assert (f"vanished first player all games: {100 * seat['base_value']:.1f}% -> {100 * seat['patch_value']:.1f}% "
            f"(band 45-55%): {seat['reason']}") in text
    assert text.index("More balanced") < text.index("What the patch changed") < text.index("Headlines")


def test_a_sweep_against_itself_says_nothing_changed_on_its_title_page(tmp_path):
    """The same rules on both sides: the change block says nothing changed and the verdict says the rules are
    the same."""
    base = sweep(0.10, 0.08, "base", 6)
    text = " ".join(_title_text(compare_results(base, base), tmp_path).split())
    assert "nothing: both sweeps play the same rules" in text
    assert "The two sweeps play the same rules; no measurable effect on balance" in text


def test_every_interval_agrees_with_its_significance_word(tables):
    """In every table of changes the corrected interval misses 0 exactly when the change is significant, and the
    headline's first-player sentence quotes that interval."""
    for name in ("deck_deltas", "card_deltas", "first_player_deltas", "matchup_deltas"):
        t = tables[name]
        misses = (t["adj_low"] > 0) | (t["adj_high"] < 0)
        assert (misses == t["significant"]).all(), name
        assert ((t["adj_low"] <= t["low"] + 1e-12) & (t["adj_high"] >= t["high"] - 1e-12)).all(), name
    o = tables["first_player_deltas"].iloc[0]
    line = next(h for h in compare_headlines(tables) if h.startswith("First-player advantage"))
    assert f"95% CI {100 * o['adj_low']:+.1f} to {100 * o['adj_high']:+.1f}, significant" in line


@given(st.lists(st.tuples(st.integers(2, 400), st.floats(-0.3, 0.3), st.floats(0.05, 1.0)), min_size=1,
                max_size=30), st.sampled_from(["holm", "bh"]))
def test_the_corrected_interval_misses_zero_exactly_when_the_corrected_test_rejects(rows, method):
    """For any family of paired changes, the interval at the corrected level excludes 0 iff p_adjusted < 0.05."""
    n = np.array([r[0] for r in rows], float)
    mean = np.array([r[1] for r in rows])
    sd = np.array([r[2] for r in rows])
    sum_d = mean * n
    sum_d2 = (sd ** 2) * (n - 1) + n * mean ** 2
    t = pd.DataFrame({"games": n, **paired_delta(n, sum_d, sum_d2)})
    t["p_adjusted"] = adjust_p(t["p_value"].to_numpy(), method)
    t = corrected_interval(t, 0.05)
    borderline = np.isclose(t["p_adjusted"], 0.05, rtol=1e-6)
    misses = ((t["adj_low"] > 0) | (t["adj_high"] < 0))[~borderline]
    assert (misses == (t["p_adjusted"] < 0.05)[~borderline]).all()


def test_matchup_changes_that_are_not_significant_are_not_coloured(tables):
    """Every non-mirror cell that is not significant is painted white with a grey number; significant cells keep
    their colour and a black or white number."""
    fig = Figure()
    ax = fig.add_subplot()
    order = sorted(POOL)
    plot_delta_heatmap(ax, tables["matchup_deltas"], order)
    noise = int((~tables["matchup_deltas"]["significant"]).sum())
    assert 0 < noise < len(tables["matchup_deltas"])
    grey = [t for t in ax.texts if t.get_color() == "#9e9e9e"]
    assert len(grey) == noise
    assert len(ax.images) == 2  # the changes, and the white cover over the noise


def test_the_nash_sentence_names_only_decks_whose_own_rate_changed():
    """Two decks left the mix, one with a significant change of its win rate: it is named, the other is noise."""
    nash = pd.DataFrame({"deck": ["A", "B", "C", "D"], "weight_base": [0.5, 0.3, 0.2, 0.0],
                         "weight_patch": [0.5, 0.0, 0.0, 0.5], "change": [0, -0.3, -0.2, 0.5],
                         "in_support_base": [True, True, True, False], "in_support_patch": [True, False, False, True],
                         "deck_change_significant": [False, True, False, False]})
    assert nash_sentence(nash) == ("Nash mix: 3 decks before, 2 after; B left; 2 decks entered or left with no "
                                   "significant change of their own win rate (noise, not a result).")
    same = nash.assign(in_support_patch=nash["in_support_base"])
    assert nash_sentence(same) == "Nash mix: 3 decks before, 3 after; the same decks."
