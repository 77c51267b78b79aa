"""The template game's rules, once: plain functions over one game's ``int64`` state, compiled by numba.

The same functions run compiled (sweeps, the bots) and as plain Python under ``NUMBA_DISABLE_JIT=1``
(a test plays games both ways and finds them equal). They never draw random numbers: a game's
chance is an array of uniforms ``rolls`` pre-drawn from :mod:`simkit.core.rng` for the game's seed
(:func:`simkit.games._template.batch.game_rolls`), read in order (``s[G_ROLL]`` counts those used).

The rules (example rules, not a designer's game): two players with ``hp`` HP each. A turn: the
player to act gains ``energy_per_turn`` energy (at most ``max_energy``), then plays any number of
the cards of their deck, each costing its ``cost`` energy and one of its ``uses``; a card deals a
damage drawn evenly from its ``damage = [min, max]`` to the opponent and heals its ``heal`` to its
player (never above ``hp``). ``end`` ends the turn. A player at 0 HP or less loses at once. After
turn ``turn_limit`` the player with more HP wins; equal HP is a draw.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from simkit.games._template import tables as T
from simkit.games.kits.numba_cache import drop_stale_cache

# numba keys its cache on each function's own file, not on the constants and kernels it takes from
# the others: drop the folder's cache whenever any of them changes
_HERE = Path(__file__).parent
drop_stale_cache(_HERE, [_HERE / "tables.py", _HERE / "engine.py", _HERE / "bots.py"])

# the state: a header, then one block per player
G_TURN, G_CUR, G_WINNER, G_REASON, G_ROLL = range(5)
HEADER = 5
P_HP, P_ENERGY, P_CARD, P_USES = 0, 1, 2, 2 + T.MAX_SLOTS
PLAYER = 2 + 2 * T.MAX_SLOTS
STATE_SIZE = HEADER + 2 * PLAYER

# winners (as simkit.games.WINNERS) and end reasons (as the schema's, after "none")
DRAW, NO_WINNER = 2, -1
END_NONE, END_HP_ZERO, END_TURN_LIMIT = 0, 1, 2

# actions (kind, x): play the card of slot x, or end the turn
KINDS = ("play", "end")
K_PLAY, K_END = 0, 1
MAX_LEGAL = T.MAX_SLOTS + 1

# why an action is illegal (check's codes)
REASONS = ("ok", "the game is over", "no such action", "the deck has no such card", "the card has no uses left",
           "not enough energy")
R_OK, R_OVER, R_KIND, R_SLOT, R_USED, R_ENERGY = range(6)


@njit(cache=True)
def base(p):
    """Where player ``p``'s block starts in the state."""
    return HEADER + p * PLAYER


@njit(cache=True)
def start_turn(s, st):
    """The player to act gains their energy for the turn."""
    b = base(s[G_CUR])
    s[b + P_ENERGY] = min(s[b + P_ENERGY] + st[T.S_PER_TURN], st[T.S_MAX_ENERGY])


@njit(cache=True)
def setup(s, deck0, deck1, st, cd):
    """A new game in ``s``: both players at full HP holding their decks' cards (card ids), turn 1."""
    s[:] = 0
    s[G_TURN], s[G_CUR], s[G_WINNER], s[G_REASON] = 1, 0, NO_WINNER, END_NONE
    for p in range(2):
        b = base(p)
        deck = deck0 if p == 0 else deck1
        s[b + P_HP] = st[T.S_HP]
        for i in range(T.MAX_SLOTS):
            s[b + P_CARD + i] = deck[i] if i < st[T.S_SLOTS] else -1
            s[b + P_USES + i] = cd[deck[i], T.F_USES] if i < st[T.S_SLOTS] else 0
    start_turn(s, st)


@njit(cache=True)
def check(s, kind, x, st, cd):
    """``R_OK`` when action ``(kind, x)`` is legal for the player to act, else the reason's code."""
    if s[G_WINNER] != NO_WINNER:
        return R_OVER
    if kind == K_END:
        return R_OK
    if kind != K_PLAY:
        return R_KIND
    if x < 0 or x >= st[T.S_SLOTS]:
        return R_SLOT
    b = base(s[G_CUR])
    if s[b + P_USES + x] <= 0:
        return R_USED
    if s[b + P_ENERGY] < cd[s[b + P_CARD + x], T.F_COST]:
        return R_ENERGY
    return R_OK


@njit(cache=True)
def legal(s, out, st, cd):
    """The legal actions of the player to act into ``out`` (``int64[MAX_LEGAL, 2]``), in slot order,
    ``end`` last; returns how many (0 once the game is over)."""
    if s[G_WINNER] != NO_WINNER:
        return 0
    n = 0
    for x in range(st[T.S_SLOTS]):
        if check(s, K_PLAY, x, st, cd) == R_OK:
            out[n, 0], out[n, 1] = K_PLAY, x
            n += 1
    out[n, 0], out[n, 1] = K_END, 0
    return n + 1


@njit(cache=True)
def damage_roll(card, u, cd):
    """The damage of ``card`` for the uniform ``u`` in [0, 1): each of min..max equally likely."""
    lo, hi = cd[card, T.F_MIN], cd[card, T.F_MAX]
    return lo + min(np.int64(u * (hi - lo + 1)), hi - lo)


@njit(cache=True)
def step(s, kind, x, st, cd, rolls):
    """Do the legal action ``(kind, x)`` of the player to act (check it first: step does not)."""
    p = s[G_CUR]
    b, o = base(p), base(1 - p)
    if kind == K_PLAY:
        card = s[b + P_CARD + x]
        s[b + P_ENERGY] -= cd[card, T.F_COST]
        s[b + P_USES + x] -= 1
        s[o + P_HP] -= damage_roll(card, rolls[s[G_ROLL]], cd)
        s[G_ROLL] += 1
        s[b + P_HP] = min(s[b + P_HP] + cd[card, T.F_HEAL], st[T.S_HP])
        if s[o + P_HP] <= 0:
            s[G_WINNER], s[G_REASON] = p, END_HP_ZERO
        return
    if s[G_TURN] >= st[T.S_TURN_LIMIT]:
        hp0, hp1 = s[base(0) + P_HP], s[base(1) + P_HP]
        s[G_WINNER] = 0 if hp0 > hp1 else (1 if hp1 > hp0 else DRAW)
        s[G_REASON] = END_TURN_LIMIT
        return
    s[G_TURN] += 1
    s[G_CUR] = 1 - p
    start_turn(s, st)
