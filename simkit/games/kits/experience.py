"""How a game played, not only who won: the experience figures every game records as it plays.

A game declares a **lead signal** (``simkit/games/<game>/lead.py``): how far ahead the first seat is, a number
from -1 (the second seat as far ahead as the game allows) through 0 (level) to +1, read from the state at the end
of each turn, its weights from the scenario. Its engine keeps one :data:`EXPERIENCE` record per game and calls,
compiled as it plays:

- :func:`begin` when a game starts;
- :func:`note_lead` at the end of every turn (and once more when the game ends, on the final state);
- :func:`note_choice` at every decision a bot takes, with the number of legal actions it chose among;
- :func:`note_value` where a search bot estimates the first seat's chance to win (the game's uncertainty);
- :func:`write` when the game is over: the figures of :data:`FIGURES` into a row of a ``float64`` array.

No per-turn array is kept: each figure is updated as the game goes, so recording costs a few additions a turn.
The figures, for a game whose ``winner`` is 0 (first), 1 (second) or 2 (a draw):

``lead_changes``
    how many times the side ahead changed: at each noted turn the leader is the seat whose lead exceeds the
    scenario's ``[experience] level_band`` (else no one); a change is a turn whose leader is the other seat than
    the last turn that had one.
``winner_deficit``
    the largest lead the eventual winner was behind by at the end of a turn (0 when never behind); a comeback is
    a win from behind by more than ``[experience] comeback``. NaN for a draw.
``decided_turn``
    the turn from whose end on the eventual winner stayed ahead to the end of the game (the game's end counts as
    the winner ahead, so it is at most the game's last turn). NaN for a draw.
``decisions``, ``choices``
    the decisions taken and the mean number of legal actions per decision (Ludii's decision factor).
``uncertainty``
    the mean over noted estimates of ``1 - |2p - 1|`` (1: either side as likely to win; 0: the outcome is
    certain), where ``p`` is a search bot's estimate of the first seat's chance to win; NaN where no bot gave one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.kits.state import record

__all__ = ["EXPERIENCE", "FIGURES", "begin", "experience_columns", "note_choice", "note_lead", "note_value", "write"]

I, F = np.int64, np.float64

#: one game's running experience figures (kept beside its state; never read by the rules or the bots)
EXPERIENCE = record("Experience", [
    ("leader", I),         # the last seat ahead by more than the band: -1 none yet, 0 first, 1 second
    ("changes", I),        # how many times that seat changed
    ("deficit", F, 2),     # the largest lead each seat was behind by at a turn's end
    ("behind", I, 2),      # the last turn at whose end each seat was not ahead (0: none)
    ("decisions", I),      # decisions noted
    ("choices", I),        # legal actions summed over them
    ("estimates", I),      # win estimates noted
    ("closeness", F),      # 1 - |2p - 1| summed over them
], doc="One game's experience figures as it plays (simkit.games.kits.experience).")

#: the result columns :func:`write` fills, in order (:data:`simkit.games.EXPERIENCE_COLUMNS`)
FIGURES = ("lead_changes", "winner_deficit", "decided_turn", "decisions", "choices", "uncertainty")


@njit(cache=True)
def begin(x):
    """Clear ``x`` for a new game."""
    x.leader = -1
    x.changes = 0
    x.deficit[0] = 0.0
    x.deficit[1] = 0.0
    x.behind[0] = 0
    x.behind[1] = 0
    x.decisions = 0
    x.choices = 0
    x.estimates = 0
    x.closeness = 0.0


@njit(cache=True)
def note_lead(x, turn, lead, band):
    """Note the lead (first seat's view, -1 to +1) at the end of ``turn``; ``band``: the lead at or below which
    neither seat counts as ahead (the scenario's ``[experience] level_band``)."""
    if -lead > x.deficit[0]:
        x.deficit[0] = -lead
    if lead > x.deficit[1]:
        x.deficit[1] = lead
    if lead <= band:
        x.behind[0] = turn
    if lead >= -band:
        x.behind[1] = turn
    seat = -1
    if lead > band:
        seat = 0
    elif lead < -band:
        seat = 1
    if seat >= 0:
        if x.leader >= 0 and seat != x.leader:
            x.changes += 1
        x.leader = seat


@njit(cache=True)
def note_choice(x, legal):
    """Note one decision among ``legal`` legal actions."""
    x.decisions += 1
    x.choices += legal


@njit(cache=True)
def note_value(x, p):
    """Note a search bot's estimate ``p`` (0 to 1) of the first seat's chance to win."""
    if p < 0.0:
        p = 0.0
    elif p > 1.0:
        p = 1.0
    x.estimates += 1
    x.closeness += 1.0 - abs(2.0 * p - 1.0)


@njit(cache=True)
def write(x, winner, turns, row):
    """The figures of :data:`FIGURES` of a game over after ``turns`` turns, won by ``winner`` (0, 1; 2 a draw),
    into ``row`` (``float64[len(FIGURES)]``)."""
    row[0] = x.changes
    if winner == 0 or winner == 1:
        row[1] = x.deficit[winner]
        decided = x.behind[winner] + 1
        row[2] = decided if decided < turns else turns
    else:
        row[1] = np.nan
        row[2] = np.nan
    row[3] = x.decisions
    row[4] = x.choices / x.decisions if x.decisions > 0 else np.nan
    row[5] = x.closeness / x.estimates if x.estimates > 0 else np.nan


def experience_columns(figures: np.ndarray) -> dict[str, list]:
    """The result columns of ``figures`` (``float64[n, len(FIGURES)]``, one :func:`write` row per game):
    ``lead_changes`` and ``decisions`` as integers, the others as floats (NaN where a figure has no value)."""
    figures = np.asarray(figures, np.float64).reshape(-1, len(FIGURES))
    out = {}
    for j, name in enumerate(FIGURES):
        column = figures[:, j]
        out[name] = column.astype(np.int64).tolist() if name in ("lead_changes", "decisions") else column.tolist()
    return out
