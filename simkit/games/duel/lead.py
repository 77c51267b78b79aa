"""The Card Duel's lead signal: how far ahead the first player is at the end of a turn, from -1 to +1.

A Duel is won by bringing the opponent's HP to 0, so a player's **standing** is its HP and what stands between
that HP and the opponent's weapons and spells: with the weights of the scenario's ``[lead]`` table (a
:data:`~simkit.games.duel.state.LEAD` record ``w``, every weight in HP),

    standing = w.hp * HP + w.shield * Shield - w.poison * Poison + w.regeneration * Regeneration
               + w.strength * Strength + w.weapon * (equipped weapons) + w.attachment * (attachments on them)
               + w.persistent * (persistent magic in play),

at least 0, and 0 for a player at HP 0 or below (it has lost). The hand, the piles and the set counter cards do
not count (nobody can see the opponent's), nor does the distance (it favours whichever weapon is in range, and
both players move it). The lead is

    lead = (standing of the first - standing of the second) / (the two standings added up),

0 when both are 0: level (0) at the start (25 HP each, nothing in play), +1 when the second player has lost or
has nothing left, -1 the other way round, and the same position with the seats swapped has the opposite lead. A
difference of 3 HP weighs more at 5 against 2 HP than at 25 against 22: the nearer a player is to 0, the nearer
the opponent is to winning.

The weights are simkit's authored defaults (:data:`~simkit.games.duel.state.LEADS`: one Shield, Poison or
Regeneration level for one HP, as the rules page counts them; Strength, weapons and persistent magic at
simkit's guess of their worth): the designer's note gives none, and a scenario's ``[lead]`` table replaces
them. The engine notes the lead when a turn ends and on the final state
(:mod:`simkit.games.kits.experience`); neither the rules nor the bots read it.
"""

from __future__ import annotations

from numba import njit

from simkit.games.duel.state import (
    POISON,
    REGENERATION,
    SHIELD,
    STRENGTH,
    T_ATTACHMENT,
    T_PERSISTENT,
    T_WEAPON,
    Z_EQUIP,
)

__all__ = ["lead", "standing"]


@njit(cache=True)
def standing(s, p, w, cards):
    """Seat ``p``'s standing in game ``s`` with the ``[lead]`` weights ``w`` (``cards``: the pool's CARD
    records): its HP, statuses and equipment zone weighed in HP, at least 0; 0 at HP 0 or below."""
    me = s.players[p]
    if me.hp <= 0:
        return 0.0
    x = w.hp * me.hp + w.shield * me.statuses[SHIELD] - w.poison * me.statuses[POISON]
    x += w.regeneration * me.statuses[REGENERATION] + w.strength * me.statuses[STRENGTH]
    for i in range(s.deck_size):
        if me.zone[i] == Z_EQUIP:
            t = cards[me.card[i]].type
            if t == T_WEAPON:
                x += w.weapon
            elif t == T_ATTACHMENT:
                x += w.attachment
            elif t == T_PERSISTENT:
                x += w.persistent
    return max(x, 0.0)


@njit(cache=True)
def lead(s, w, cards):
    """How far ahead the first seat is in ``s``: the difference of the two standings over their sum, from -1
    (the second as far ahead as the game allows) through 0 (level) to +1."""
    a = standing(s, 0, w, cards)
    b = standing(s, 1, w, cards)
    if a + b <= 0.0:
        return 0.0
    return (a - b) / (a + b)
