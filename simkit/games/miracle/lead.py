"""How far ahead the first seat is in a game of Battle of Miracles: the game's lead signal, and its recording.

A miracle that falls loses the game, and at the turn limit the miracle with more HP wins; what is on the board
decides how much HP each miracle will still lose. So a seat's **strength** is

    strength = miracle_hp x (its miracle's HP)
             + units x (the mana value of each of its units on the board, times the share of its HP it has left)
             + garrisons x (the garrisons it owns),

the three weights from the scenario's ``[lead]`` table (:class:`simkit.games.miracle.tables.LeadWeights`; a unit's
mana value is its cost, the Inferno's InfernoFlame's cost), and the **lead** is the first seat's strength less the
second's, over their sum: -1 to +1, 0 when level, the same number negated when the seats' positions are swapped.
Both miracles at full HP and nothing else on the board is level. Once the game is over the lead is the result:
+1 when the first seat won, -1 when the second did, 0 for a draw.

The engine notes the lead (:func:`simkit.games.kits.experience.note_lead`) after every action that ends a turn or
the game, with the number of the turn it was played in: the whole-game loops (:func:`.fast.game.play`,
:func:`.fast_search.play.play`) inline, the batched loop and the :class:`~simkit.games.miracle.match.Match` through
:func:`.fast.experience.step_noting`. Every decision a bot takes is noted with the number of legal actions it chose
among (an ``end_turn`` the scenario's ``max_actions_per_turn`` forces is no decision). The search bot values a
position with weighted sums of the same kind (its ``value_*`` weights), not a chance to win, so no estimate is
noted and the game's ``uncertainty`` is NaN.
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.miracle.state import FIRST, SECOND


@numba.njit(cache=True)
def lead(S, R, g):
    """The lead of game ``g`` (see the module's docstring): ``S``, ``R`` the packed state and rules."""
    if S.over[g]:
        if S.winner[g] == FIRST:
            return 1.0
        if S.winner[g] == SECOND:
            return -1.0
        return 0.0
    first = R.lead_miracle * max(np.float64(S.miracle_hp[g, 0]), 0.0)
    second = R.lead_miracle * max(np.float64(S.miracle_hp[g, 1]), 0.0)
    for i in range(R.garrisons.shape[0]):
        owner = S.garrison_owner[g, i]
        if owner == 0:
            first += R.lead_garrisons
        elif owner == 1:
            second += R.lead_garrisons
    for u in range(S.alive.shape[1]):
        if not S.alive[g, u] or S.hp[g, u] <= 0:
            continue
        worth = R.lead_worth[S.kind[g, u], S.level[g, u] - 1] * S.hp[g, u] / S.max_hp[g, u]
        if S.side[g, u] == 0:
            first += worth
        else:
            second += worth
    total = first + second
    return (first - second) / total if total > 0 else 0.0
