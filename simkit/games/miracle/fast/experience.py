"""The experience figures (:mod:`simkit.games.kits.experience`) noted where games are played an action at a time
from Python: the batched loop of :func:`simkit.games.miracle.batch.play_batch` and the
:class:`~simkit.games.miracle.match.Match` apply each action with :func:`step_noting` (the whole-game loops note
the figures inline, as :mod:`simkit.games.miracle.lead` says)."""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.kits.experience import note_choice, note_lead
from simkit.games.miracle.fast.legal import legal_count
from simkit.games.miracle.fast.pack import KRulesRef, KSitRef, KStateRef
from simkit.games.miracle.fast.step import step_one
from simkit.games.miracle.lead import lead
from simkit.games.miracle.state import END_TURN, PASS


@numba.njit(cache=True)
def leads(state, rules, out):
    """``out[g]``: the lead (:func:`simkit.games.miracle.lead.lead`) of every game of ``state`` (packed
    :class:`~.pack.KState` and :class:`~.pack.KRules`)."""
    S, R = KStateRef(*state), KRulesRef(*rules)
    for g in range(S.turn.shape[0]):
        out[g] = lead(S, R, g)


@numba.njit(cache=True)
def step_noting(state, rules, L, scratch, mask, records, ids, decided, band, kind, a, b, c):
    """Apply one legal action per game of ``state`` in place (:func:`.step.step_one`, as :func:`.step.step` does)
    and note what it tells of how the game plays in game ``i``'s record ``records[ids[i]]``
    (:data:`simkit.games.kits.experience.EXPERIENCE`): a decision among the legal actions of its position when
    ``decided[i]`` (not an end of turn the cap forces), and the lead once it ended a turn or the game, with the
    number of the turn it was played in; ``band``: the scenario's ``[experience] level_band``.

    ``state``, ``rules``, ``scratch``: the packed :class:`~.pack.KState`, :class:`~.pack.KRules` and
    :class:`~.pack.KSit`; ``L``: the :class:`~.pack.Layout`; ``mask``: scratch ``bool[N]``; ``kind, a, b, c``:
    ``int32[B]`` as :class:`~simkit.games.miracle.state.Actions`. Games that are over, or whose action is PASS,
    are left untouched and note nothing.
    """
    S, R, sit = KStateRef(*state), KRulesRef(*rules), KSitRef(*scratch)
    atk = np.zeros(S.alive.shape[1], np.int32)
    for i in range(S.turn.shape[0]):
        if S.over[i] or kind[i] == PASS:
            continue
        x = records[ids[i]]
        if decided[i]:
            note_choice(x, legal_count(S, R, L, i, sit, mask))
        turn = S.turn[i]
        step_one(S, R, i, kind[i], a[i], b[i], c[i], atk)
        if kind[i] == END_TURN or S.over[i]:
            note_lead(x, turn, lead(S, R, i), band)
