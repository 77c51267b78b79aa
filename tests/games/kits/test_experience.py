"""The experience kit's figures on hand-built lead sequences whose figures are known by hand."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simkit.games.kits import experience as X
from simkit.games.kits.state import zeros

BAND = 0.05


def figures(leads, winner, choices=(), values=(), band=BAND):
    """The :data:`~simkit.games.kits.experience.FIGURES` of a game whose turn ends saw ``leads`` (turns 1, 2, ...)."""
    x = zeros(X.EXPERIENCE)
    X.begin(x)
    for turn, lead in enumerate(leads, start=1):
        X.note_lead(x, turn, lead, band)
    for n in choices:
        X.note_choice(x, n)
    for p in values:
        X.note_value(x, p)
    row = np.zeros(len(X.FIGURES))
    X.write(x, winner, len(leads), row)
    return dict(zip(X.FIGURES, row.tolist()))


def test_wire_to_wire_win_is_decided_at_turn_one_with_no_lead_change():
    """The first seat ahead at every turn's end and winning: no change, never behind, decided from turn 1."""
    f = figures([0.1, 0.3, 0.5, 1.0], winner=0)
    assert (f["lead_changes"], f["winner_deficit"], f["decided_turn"]) == (0, 0.0, 1)


def test_comeback_counts_the_winners_deepest_deficit_and_the_turn_it_took_the_lead_for_good():
    """The second seat behind by 0.4 at turn 2, level at 3, ahead from turn 4: one change, deficit 0.4, decided 4."""
    f = figures([0.2, 0.4, 0.0, -0.3, -1.0], winner=1)
    assert f["lead_changes"] == 1
    assert math.isclose(f["winner_deficit"], 0.4)
    assert f["decided_turn"] == 4


def test_seesaw_counts_every_change_of_the_side_ahead_and_ignores_leads_inside_the_band():
    """Ahead first, second, first, second: three changes; a 0.03 lead is level (band 0.05), not a change."""
    f = figures([0.2, -0.2, 0.03, 0.3, -0.03, -0.4], winner=1)
    assert f["lead_changes"] == 3
    assert f["decided_turn"] == 6


def test_a_win_snatched_in_the_last_turn_is_decided_in_that_turn():
    """The winner behind at every turn's end, the game ending in its last turn: decided at the last turn."""
    f = figures([-0.1, -0.2, -0.1], winner=0)
    assert f["decided_turn"] == 3
    assert math.isclose(f["winner_deficit"], 0.2)


def test_a_draw_has_no_deficit_and_no_deciding_turn():
    """A drawn game: winner_deficit and decided_turn are NaN; lead changes still counted."""
    f = figures([0.2, -0.2], winner=2)
    assert f["lead_changes"] == 1
    assert math.isnan(f["winner_deficit"]) and math.isnan(f["decided_turn"])


def test_decision_factor_and_uncertainty():
    """Choices among 3, 5 and 1 legal actions: factor 3; estimates 0.5 and 1.0: uncertainty (1 + 0) / 2."""
    f = figures([0.2], winner=0, choices=(3, 5, 1), values=(0.5, 1.0))
    assert (f["decisions"], f["choices"], f["uncertainty"]) == (3, 3.0, 0.5)
    g = figures([0.2], winner=0)
    assert g["decisions"] == 0 and math.isnan(g["choices"]) and math.isnan(g["uncertainty"])


def test_columns_turn_rows_into_result_columns():
    """``experience_columns``: counts as integers, the rest as floats with NaN kept."""
    rows = np.array([[2, 0.5, 3, 10, 4.5, np.nan], [0, np.nan, np.nan, 0, np.nan, 0.2]])
    cols = X.experience_columns(rows)
    assert cols["lead_changes"] == [2, 0] and cols["decisions"] == [10, 0]
    assert cols["decided_turn"][0] == 3.0 and math.isnan(cols["decided_turn"][1])


@given(st.lists(st.floats(-1, 1), min_size=1, max_size=40), st.sampled_from((0, 1)))
def test_figures_stay_in_their_ranges(leads, winner):
    """For any lead sequence and winner: the deciding turn lies in 1..turns, the deficit in 0..1, and the changes
    are fewer than the turns."""
    f = figures(leads, winner)
    assert 1 <= f["decided_turn"] <= len(leads)
    assert 0 <= f["winner_deficit"] <= 1
    assert 0 <= f["lead_changes"] < len(leads)
