"""The experience figures (:mod:`simkit.games.kits.experience`) noted where games are played an action at a time
from Python: the batched loop of :func:`simkit.games.miracle.batch.play_batch` and the
:class:`~simkit.games.miracle.match.Match` apply each action with :func:`simkit.games.miracle.rules.step_noting`,
which notes the decision (:func:`note_choices`), applies the action by the rules' own ``step`` (so a check or a
planted bug that replaces it reaches every path) and notes the lead (:func:`note_leads`); the whole-game loops note
the figures inline, as :mod:`simkit.games.miracle.lead` says."""

from __future__ import annotations

import numba

from simkit.games.kits.experience import note_choice, note_lead
from simkit.games.miracle.fast.legal import legal_count
from simkit.games.miracle.fast.pack import KRulesRef, KSitRef, KStateRef
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
def note_choices(state, rules, L, scratch, mask, records, ids, decided, kind):
    """Before an action per game of ``state`` is applied: note in game ``i``'s record ``records[ids[i]]``
    (:data:`simkit.games.kits.experience.EXPERIENCE`) a decision among the legal actions of its position where
    ``decided[i]`` (not an end of turn the cap forces). Games that are over, or whose action is PASS, note nothing.

    ``state``, ``rules``, ``scratch``: the packed :class:`~.pack.KState`, :class:`~.pack.KRules` and
    :class:`~.pack.KSit`; ``L``: the :class:`~.pack.Layout`; ``mask``: scratch ``bool[N]``; ``kind``: ``int32[B]``.
    """
    S, R, sit = KStateRef(*state), KRulesRef(*rules), KSitRef(*scratch)
    for i in range(S.turn.shape[0]):
        if S.over[i] or kind[i] == PASS or not decided[i]:
            continue
        note_choice(records[ids[i]], legal_count(S, R, L, i, sit, mask))


@numba.njit(cache=True)
def note_leads(state, rules, records, ids, turns, was_over, band, kind):
    """After the action per game was applied: note the lead of game ``i`` in ``records[ids[i]]`` once its action
    ended a turn or the game, with ``turns[i]``, the turn it was played in; ``band``: the scenario's
    ``[experience] level_band``. Games over before it (``was_over``), or whose action was PASS, note nothing."""
    S, R = KStateRef(*state), KRulesRef(*rules)
    for i in range(S.turn.shape[0]):
        if was_over[i] or kind[i] == PASS:
            continue
        if kind[i] == END_TURN or S.over[i]:
            note_lead(records[ids[i]], turns[i], lead(S, R, i), band)
