"""Robustness across a bot panel: per-bot deck rates, rank agreement, robust and bot-dependent flags."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simkit.analysis.robustness import best_pilot, deck_rates_by_bot, flag_robustness, rank_agreement, robustness
from simkit.testing.synthetic import synthetic_results

DECKS = [f"HolyLight:Archer,Priest,{k}" for k in ("Swordsman", "BlackBat", "FrostDragon", "VolcanoDragon")] + [
    f"InfernoFlame:Archer,Priest,{k}" for k in ("Swordsman", "BlackBat", "FrostDragon", "VolcanoDragon")]


def _strength(order):
    """A rate function: deck i beats deck j at 1/2 + 0.05 (rank_j - rank_i), ranks from ``order``."""
    rank = {d: r for r, d in enumerate(order)}
    return lambda a, b: 0.5 + 0.05 * (rank[b] - rank[a])


def _panel(orders: dict[str, list[str]], games: int = 30) -> pd.DataFrame:
    parts = [synthetic_results(DECKS, games, _strength(order), seed=i, bots=(bot, bot))
             for i, (bot, order) in enumerate(orders.items())]
    return pd.concat(parts, ignore_index=True)


def test_bots_that_agree_correlate_near_one_and_share_their_top_decks():
    """Two bots with the same planted ranking agree: Spearman and Kendall near 1, full top-k overlap."""
    df = _panel({"a": DECKS, "b": DECKS})
    t = rank_agreement(df, bootstrap=50, top_k=2)
    assert len(t) == 1
    row = t.iloc[0]
    assert row["spearman"] > 0.9 and row["kendall"] > 0.75
    assert row["spearman_low"] <= row["spearman"] <= row["spearman_high"]
    assert row["top_overlap"] == 1.0


def test_bots_with_reversed_rankings_correlate_negatively():
    """A bot that ranks the decks in reverse gives a negative correlation and no shared top deck."""
    df = _panel({"a": DECKS, "b": DECKS[::-1]})
    row = rank_agreement(df, bootstrap=0, top_k=2).iloc[0]
    assert row["spearman"] < -0.9 and row["top_overlap"] == 0.0


def test_deck_rates_by_bot_has_one_column_per_bot_strongest_first():
    """The deck table has a column per panel bot, ordered by mean win rate."""
    df = _panel({"a": DECKS, "b": DECKS})
    rates = deck_rates_by_bot(df)
    assert list(rates.columns) == ["a", "b"]
    assert rates.index[0] == DECKS[0] and rates.index[-1] == DECKS[-1]
    assert np.all(np.diff(rates.mean(axis=1).to_numpy()) <= 0)


def test_a_flag_seen_by_every_bot_is_robust_and_one_seen_by_one_bot_is_bot_dependent():
    """The same strong deck under both bots is robust; a deck strong only under one bot is bot-dependent."""
    df = _panel({"a": DECKS, "b": DECKS[::-1]}, games=60)
    flags = flag_robustness(df)
    decks = flags[flags["kind"] == "deck"].set_index("subject")
    # DECKS[0] is the strongest under a and the weakest under b: it flags both ways, never robustly
    assert decks.loc[DECKS[0], "label"] == "bot-dependent"
    same = flag_robustness(_panel({"a": DECKS, "b": DECKS}, games=60))
    same_decks = same[same["kind"] == "deck"].set_index("subject")
    assert same_decks.loc[DECKS[0], "label"] == "robust"
    assert {"value_a", "value_b"} <= set(same.columns)


def test_best_pilot_names_the_bot_that_wins_most_with_each_deck():
    """Each deck's pilot is the bot under which it wins most."""
    df = _panel({"a": DECKS, "b": DECKS[::-1]})
    pilots = best_pilot(df).set_index("deck")
    assert pilots.loc[DECKS[0], "pilot"] == "a" and pilots.loc[DECKS[-1], "pilot"] == "b"


def test_robustness_needs_two_panel_bots():
    """One bot (or games between two different bots only) is not a panel."""
    with pytest.raises(ValueError, match="at least two bots"):
        robustness(synthetic_results(DECKS, 2, bots=("a", "b")))


def test_agreement_is_corrected_for_the_noise_of_measured_rates():
    """Noise in measured rates pulls a correlation toward 0: the reported value is corrected upward for
    two bots that truly agree, and its interval contains it (a percentile interval would lie below it)."""
    df = _panel({"a": DECKS, "b": DECKS}, games=3)
    row = rank_agreement(df, bootstrap=200, top_k=2).iloc[0]
    assert row["spearman"] >= row["spearman_measured"]
    assert row["spearman_low"] <= row["spearman"] <= row["spearman_high"]
    assert row["kendall_low"] <= row["kendall"] <= row["kendall_high"]


def test_the_flags_table_shows_every_bots_value_even_for_a_bot_name_with_a_hyphen():
    """A panel bot called search-2 (no Python identifier) still gets its value printed in the robust-flags table."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from simkit.report.robustness_page import plot_robust_flags

    flags = pd.DataFrame({"kind": ["deck"], "subject": ["HolyLight:Archer,Priest,BlackBat"], "label": ["robust"],
                          "flagged_by": ["balanced, search-2"], "value_balanced": [0.812], "value_search-2": [0.734]})
    fig, ax = plt.subplots()
    plot_robust_flags(ax, flags, ["balanced", "search-2"])
    text = ax.texts[0].get_text()
    plt.close(fig)
    assert "81.2%" in text and "73.4%" in text
