"""Real play against simulation: each rate weighted as the real games met each pairing, every difference with its
interval, and the words never stronger than that interval."""

from __future__ import annotations

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from simkit.core.words import Estimate, real_against_words
from simkit.real.against import against_simulation, against_words


def games(rows: list[tuple[str, str, str, int]], bot: str = "b") -> pd.DataFrame:
    """``(first deck, second deck, winner, how many)`` -> one row a game."""
    out = [{"first_deck": f, "second_deck": s, "winner": w, "end_reason": "miracle", "turns": 10, "first_bot": bot,
            "second_bot": bot} for f, s, w, n in rows for _ in range(n)]
    return pd.DataFrame(out)


def test_the_simulated_rate_weights_each_pairing_as_the_real_games_met_it():
    """A plays B three times first and once second in real games; the bots' A wins 80% first and 40% second, so the
    simulated rate of A is (3 x 0.8 + 1 x 0.4) / 4 = 0.7, and A's real 2 of 4 is 0.5: 20 points below."""
    real = games([("A", "B", "first", 2), ("A", "B", "second", 1), ("B", "A", "first", 1)])
    sim = games([("A", "B", "first", 8), ("A", "B", "second", 2), ("B", "A", "first", 6), ("B", "A", "second", 4),
                 ("A", "A", "first", 5)])
    t = against_simulation(real, sim).set_index("subject")
    a = t.loc["A"]
    assert a["real_games"] == 4 and a["real_rate"] == pytest.approx(0.5)
    assert a["sim_rate"] == pytest.approx(0.7) and a["sim_games"] == 20
    assert a["difference"] == pytest.approx(-0.2) and a["low"] < -0.2 < a["high"]
    seat = t.loc["the first seat"]  # the first seat: 3 of 4 real, simulated (3 x 0.8 + 1 x 0.6) / 4 = 0.75
    assert seat["real_rate"] == pytest.approx(0.75) and seat["sim_rate"] == pytest.approx(0.75)
    assert not seat["measured"]
    assert t.attrs == {"real_games": 4, "compared": 4, "pairings": 2}


def test_a_large_difference_is_measured_and_named_first():
    """Real players win every game of A in either seat where the bots' A loses most: the difference is measured, its
    interval leaves 0 out, and the first sentence names A as differing measurably; the seat (even in both) does
    not."""
    real = games([("A", "B", "first", 30), ("B", "A", "second", 30)])
    sim = games([("A", "B", "first", 20), ("A", "B", "second", 80), ("B", "A", "first", 80), ("B", "A", "second", 20)])
    t = against_simulation(real, sim)
    a = t[t["subject"] == "A"].iloc[0]
    assert a["measured"] and a["low"] > 0
    words = against_words(t, "balanced")
    assert words[0].startswith("Real play against balanced's simulation: the first seat shows no measurable "
                               "difference: it scores 50.0% in real games against 50.0% simulated")
    assert "2 of 2 decks differ measurably (A: 100.0% in real games against 20.0% simulated" in words[0]


def test_real_games_of_pairings_the_sweep_never_played_are_left_out_and_said():
    """A real game of a pairing the sweep lacks is not compared; the sample sentence counts it."""
    real = games([("A", "B", "first", 3), ("A", "C", "first", 2)])
    sim = games([("A", "B", "first", 5), ("B", "A", "second", 5)])
    t = against_simulation(real, sim)
    assert t.attrs["compared"] == 3 and t.attrs["real_games"] == 5
    assert "(2 more real games are of pairings it did not play and are left out)" in against_words(t, "b")[1]


def test_no_shared_pairing_is_refused():
    """Real games and a sweep with no pairing in common cannot be compared: one line says what to sweep."""
    with pytest.raises(ValueError, match="no real game is of a deck pairing the sweep played"):
        against_simulation(games([("A", "B", "first", 1)]), games([("C", "D", "first", 1)]))


rates = st.floats(0, 1)


@given(st.lists(st.tuples(rates, rates, rates), min_size=1, max_size=6), rates, rates, rates)
def test_the_words_never_call_a_difference_whose_interval_holds_zero_measured(decks, d, lo, hi):
    """Property: a deck is named as differing measurably exactly when its interval leaves 0 out, and the seat is
    said to differ exactly when its interval does."""
    def est(v, a, b, name):
        low, high = sorted((a - 0.5, b - 0.5))
        return Estimate(v - 0.5, low, high, 10, name), 0.5, 0.5

    items = [est(v, a, b, f"deck{i}") for i, (v, a, b) in enumerate(decks)]
    seat = est(d, lo, hi, "the first seat")
    first = real_against_words(seat, items, "bot", games=10, all_games=10, pairings=2)[0]
    moved = [e for e, _, _ in items if e.excludes(0.0)]
    assert ("the first seat differs measurably" in first) == seat[0].excludes(0.0)
    assert (f"{len(moved)} of {len(items)}" in first) == bool(moved)
    for e, _, _ in items:
        if not e.excludes(0.0):
            assert f"{e.name}: " not in first
