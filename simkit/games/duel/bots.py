"""The duel's bots, compiled: ``random`` and the utility personalities of ``[bots]``.

A bot is handed only its seat's view (:func:`~simkit.games.duel.engine.make_view`, rules page
section 12) and decides from it alone; its randomness comes from its game's bot stream (word
``counter`` of the stream of the game's bot seed), so a game's decisions depend on nothing but the
game. A utility bot scores each legal action by the change it makes to ``sum(weight * feature)``
of the view (the action applied to a copy of the view by the engine's own ``step``), plus Gumbel
noise of ``temperature``; ending the play phase or the turn scores ``end_turn``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.duel import engine as E
from simkit.games.duel.bots_config import W
from simkit.games.duel.tables import (
    F_RANGE,
    F_TYPE,
    POISON,
    REGENERATION,
    SHIELD,
    SLOW,
    STRENGTH,
    T_ATTACHMENT,
    T_PERSISTENT,
    T_WEAPON,
)

BOT_RANDOM, BOT_UTILITY, BOT_SEARCH = 0, 1, 2  # search: simkit.games.duel.fast_search

_W_TEMP, _W_END, _W_DAMAGE, _W_HP = W["temperature"], W["end_turn"], W["damage"], W["hp"]
_W_SHIELD_CAP = W["shield_cap"]
_W_SHIELD, _W_ESHIELD, _W_POISON, _W_OPOISON = W["shield"], W["enemy_shield"], W["poison"], W["own_poison"]
_W_SLOW, _W_REGEN, _W_STRENGTH, _W_WEAPON = W["slow"], W["regeneration"], W["strength"], W["weapon"]
_W_ATTACH, _W_PERSIST, _W_TRAP, _W_CHARGE = W["attachment"], W["persistent"], W["trap"], W["charge"]
_W_CARD, _W_VARIETY, _W_REACH, _W_THREAT = W["card"], W["variety"], W["reach"], W["threat"]
_W_PREFER, _W_DIST, _W_WIN = W["prefer_distance"], W["distance"], W["win"]


@njit(cache=True)
def utility(v, p, w, cd):
    """``sum(weight * feature)`` of seat ``p``'s view ``v``."""
    b, o = E.base(p), E.base(1 - p)
    dist = v[E.G_DIST]
    u = w[_W_HP] * v[b + E.P_HP] - w[_W_DAMAGE] * v[o + E.P_HP]
    u += w[_W_SHIELD] * min(v[b + E.P_ST + SHIELD], w[_W_SHIELD_CAP]) + w[_W_ESHIELD] * v[o + E.P_ST + SHIELD]
    u += w[_W_POISON] * v[o + E.P_ST + POISON] + w[_W_OPOISON] * v[b + E.P_ST + POISON]
    u += w[_W_SLOW] * v[o + E.P_ST + SLOW] + w[_W_REGEN] * v[b + E.P_ST + REGENERATION]
    u += w[_W_STRENGTH] * v[b + E.P_ST + STRENGTH]
    u += w[_W_TRAP] * v[b + E.P_NTRAP] + w[_W_CARD] * v[b + E.P_NHAND]
    if v[o + E.P_HP] <= 0:
        u += w[_W_WIN]
    seen = np.zeros(cd.shape[0], np.bool_)
    distinct = 0
    longest = -1  # the longest range among own equipped weapons
    for i in range(v[E.G_N]):
        z = v[b + E.A_ZONE + i]
        c = v[b + E.A_CARD + i]
        if z == E.Z_HAND:
            if not seen[c]:
                seen[c] = True
                distinct += 1
        elif z == E.Z_EQUIP:
            t = cd[c, F_TYPE]
            if t == T_WEAPON:
                u += w[_W_WEAPON] + w[_W_CHARGE] * v[b + E.A_CHARGE + i]
                longest = max(longest, cd[c, F_RANGE])
                if cd[c, F_RANGE] >= dist:
                    u += w[_W_REACH]
            elif t == T_ATTACHMENT:
                u += w[_W_ATTACH]
            elif t == T_PERSISTENT:
                u += w[_W_PERSIST]
        c = v[o + E.A_CARD + i]
        if v[o + E.A_ZONE + i] == E.Z_EQUIP and cd[c, F_TYPE] == T_WEAPON and cd[c, F_RANGE] >= dist:
            u += w[_W_THREAT]
    prefer = w[_W_PREFER] if longest < 0 else min(w[_W_PREFER], longest)
    u += w[_W_DIST] * abs(dist - prefer)
    return u + w[_W_VARIETY] * distinct


@njit(cache=True)
def gumbel(seed, counter):
    """Standard Gumbel noise from word ``counter`` of the stream of ``seed``."""
    u = np.float64(E.stream_bits(seed, counter) >> E._S11) * (1.0 / 9007199254740992.0)
    u = min(max(u, 1e-300), 1.0 - 1e-16)
    return -np.log(-np.log(u))


@njit(cache=True)
def decide(v, kind, w, seed, counter, out, scratch, st, cd, ef):
    """The action of the bot of the seat whose view ``v`` is (``v[G_VIEW]``), from the view alone.

    Args:
        kind: ``BOT_RANDOM`` or ``BOT_UTILITY``.
        w: the personality's weights (:data:`~simkit.games.duel.bots_config.WEIGHTS` order).
        seed, counter: the bot stream and the next word to take.
        out, scratch: work arrays (``int64[MAX_LEGAL, 3]``, ``int64[STATE_SIZE]``).

    Returns:
        ``(kind, x, y, counter)``: the action and the stream position after it.
    """
    n = E.legal(v, out, st, cd)
    if kind == BOT_RANDOM:
        j = E.below(seed, counter, n)
        return out[j, 0], out[j, 1], out[j, 2], counter + 1
    p = v[E.G_VIEW]
    here = utility(v, p, w, cd)
    best, best_score = 0, -np.inf
    temp = w[_W_TEMP]
    for j in range(n):
        k = out[j, 0]
        if k == E.K_END_PLAY or k == E.K_END_TURN:
            score = w[_W_END]
        else:
            scratch[:E.RULES_SIZE] = v[:E.RULES_SIZE]  # the counters aside: the bot reads none
            E.step(scratch, k, out[j, 1], out[j, 2], st, cd, ef)
            score = utility(scratch, p, w, cd) - here
        if temp > 0:
            score += temp * gumbel(seed, counter)
            counter += 1
        if score > best_score:
            best, best_score = j, score
    return out[best, 0], out[best, 1], out[best, 2], counter


@njit(cache=True)
def play_one(s, deck0, deck1, seed, bot_seed, kinds, weights, st, cd, ef, log, cap):
    """Play one game in ``s`` to its end; returns the number of actions (recorded in ``log`` when it
    has rows; raises when a game exceeds ``cap`` actions, which the rules make impossible)."""
    E.setup(s, deck0, deck1, seed, st, cd, ef)
    v = np.zeros_like(s)
    scratch = np.zeros_like(s)
    out = np.empty((E.MAX_LEGAL, 3), np.int64)
    counter = 0
    played = 0
    while s[E.G_PHASE] != E.PH_OVER:
        p = s[E.G_CUR]
        E.make_view(s, p, v)
        k, x, y, counter = decide(v, kinds[p], weights[p], bot_seed, counter, out, scratch, st, cd, ef)
        if played < log.shape[0]:
            log[played, 0], log[played, 1], log[played, 2] = k, x, y
        E.step(s, k, x, y, st, cd, ef)
        played += 1
        if played >= cap:
            raise RuntimeError("a duel game exceeded the action cap")
    return played


@njit(cache=True)
def play_many(decks0, decks1, seeds, bot_seeds, kinds, weights, st, cd, ef, result, cap):
    """Play game ``g`` between ``decks0[g]`` and ``decks1[g]`` for every row; ``result[g]`` gets
    (winner, end reason, turns, HP of seat 0, HP of seat 1, actions), then the game's counters
    (:func:`~simkit.games.duel.engine.write_tally`). Games are independent."""
    s = np.empty(E.STATE_SIZE, np.int64)
    log = np.empty((0, 3), np.int64)
    for g in range(decks0.shape[0]):
        n = play_one(s, decks0[g], decks1[g], seeds[g], bot_seeds[g], kinds, weights, st, cd, ef, log, cap)
        result[g, 0] = s[E.G_WINNER]
        result[g, 1] = s[E.G_REASON]
        result[g, 2] = s[E.G_TURN]
        result[g, 3] = s[E.base(0) + E.P_HP]
        result[g, 4] = s[E.base(1) + E.P_HP]
        result[g, 5] = n
        E.write_tally(s, result[g, 6:])
