"""The experience figures (:mod:`simkit.games.kits.experience`) noted where games are played an action at a time
from Python: the batched loop of :func:`simkit.games.miracle.batch.play_batch` and the
:class:`~simkit.games.miracle.match.Match` (the whole-game loops note them inline, as :mod:`simkit.games.miracle.lead`
says)."""

from __future__ import annotations

import numba

from simkit.games.kits.experience import note_choice, note_lead
from simkit.games.miracle.fast.pack import KRulesRef, KStateRef
from simkit.games.miracle.lead import lead
from simkit.games.miracle.state import END_TURN


@numba.njit(cache=True)
def leads(state, rules, out):
    """``out[g]``: the lead (:func:`simkit.games.miracle.lead.lead`) of every game of ``state`` (packed
    :class:`~.pack.KState` and :class:`~.pack.KRules`)."""
    S, R = KStateRef(*state), KRulesRef(*rules)
    for g in range(S.turn.shape[0]):
        out[g] = lead(S, R, g)


@numba.njit(cache=True)
def note_step(state, rules, records, ids, kind, turn, legal, band):
    """Note what one action of each game of ``state`` (just applied) tells of how the game plays: game ``i``'s
    record is ``records[ids[i]]`` (:data:`simkit.games.kits.experience.EXPERIENCE`), its action's kind ``kind[i]``
    and the turn it was played in ``turn[i]``; ``legal[i]`` the legal actions it was chosen among (0: no decision,
    a turn the cap ended for the bot). The lead is noted when the action ended a turn or the game; ``band``: the
    scenario's ``[experience] level_band``."""
    S, R = KStateRef(*state), KRulesRef(*rules)
    for i in range(ids.shape[0]):
        x = records[ids[i]]
        if legal[i] > 0:
            note_choice(x, legal[i])
        if kind[i] == END_TURN or S.over[i]:
            note_lead(x, turn[i], lead(S, R, i), band)
