"""The template game's lead signal: how far ahead the first player is at the end of a turn, from -1 to +1.

A game copied from the template replaces this with what decides its own game. Here HP decides (0 HP loses, more
HP wins at the turn limit), and energy kept is the damage a player can still pay for next turn, so a player's
**standing** is ``w.hp * HP + w.energy * energy`` (weights of the scenario's ``[lead]`` table, a
:data:`~.state.LEAD` record), 0 for a player at 0 HP or less, and the lead is the difference of the two standings
over their sum: 0 when level, +1 when the second player has lost, -1 the other way round; the same position with
the seats swapped has the opposite lead. The play loops note it at every turn's end and on the final state
(:mod:`simkit.games.kits.experience`); neither the rules nor the bots read it.
"""

from __future__ import annotations

from numba import njit


@njit(cache=True)
def standing(s, p, w):
    """Seat ``p``'s standing in game ``s`` with the ``[lead]`` weights ``w``; 0 at 0 HP or less."""
    me = s.players[p]
    if me.hp <= 0:
        return 0.0
    return max(w.hp * me.hp + w.energy * me.energy, 0.0)


@njit(cache=True)
def lead(s, w):
    """How far ahead the first seat is in ``s``: the difference of the standings over their sum, -1 to +1."""
    a, b = standing(s, 0, w), standing(s, 1, w)
    return 0.0 if a + b <= 0.0 else (a - b) / (a + b)
