"""The template game's bots and game loop, compiled: ``random`` and the utility bots of ``[bots]``.

A bot's noise is pre-drawn like the game's rolls (``noise[k, j]``: a uniform for legal action ``j``
of decision ``k``, from the game's bot stream), so a decision depends on nothing but its game. A
utility bot scores each legal action by its expected effect, weight times feature (``damage``: the
mean damage, ``heal``: the HP it would really heal, ``energy``: its cost, ``win``: when even its
least damage takes the opponent to 0), ``end_turn`` for ending the turn, plus Gumbel noise of
``temperature``; it never reads the rolls to come.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games._template import engine as E
from simkit.games._template.tables import F_COST, F_HEAL, F_MAX, F_MIN, S_HP

BOT_RANDOM, BOT_UTILITY = 0, 1
W_TEMP, W_END, W_DAMAGE, W_HEAL, W_ENERGY, W_WIN = range(6)  # tables.WEIGHTS


@njit(cache=True)
def score(s, x, w, st, cd):
    """A utility bot's score of playing the card of slot ``x`` (without the noise)."""
    b, o = E.base(s[E.G_CUR]), E.base(1 - s[E.G_CUR])
    card = s[b + E.P_CARD + x]
    mean = 0.5 * (cd[card, F_MIN] + cd[card, F_MAX])
    healed = min(cd[card, F_HEAL], st[S_HP] - s[b + E.P_HP])
    u = w[W_DAMAGE] * mean + w[W_HEAL] * healed + w[W_ENERGY] * cd[card, F_COST]
    if cd[card, F_MIN] >= s[o + E.P_HP]:
        u += w[W_WIN]
    return u


@njit(cache=True)
def decide(s, kind, w, noise, out, st, cd):
    """The ``(kind, x)`` the bot of the player to act chooses, from the legal actions and ``noise``
    (``float64[MAX_LEGAL]`` uniforms) alone."""
    n = E.legal(s, out, st, cd)
    if kind == BOT_RANDOM:
        j = min(np.int64(noise[0] * n), n - 1)
        return out[j, 0], out[j, 1]
    best, best_score = 0, -np.inf
    for j in range(n):
        u = w[W_END] if out[j, 0] == E.K_END else score(s, out[j, 1], w, st, cd)
        if w[W_TEMP] > 0:
            u -= w[W_TEMP] * np.log(-np.log(min(max(noise[j], 1e-300), 1.0 - 1e-16)))
        if u > best_score:
            best, best_score = j, u
    return out[best, 0], out[best, 1]


@njit(cache=True)
def play_one(s, deck0, deck1, rolls, noise, kinds, weights, st, cd, log):
    """Play one game in ``s`` to its end; returns its number of actions, each logged in ``log``
    (``int64[cap, 3]``: kind, x, seat) when it has rows."""
    E.setup(s, deck0, deck1, st, cd)
    out = np.empty((E.MAX_LEGAL, 2), np.int64)
    played = 0
    while s[E.G_WINNER] == E.NO_WINNER:
        if played >= noise.shape[0]:
            raise RuntimeError("a template game exceeded its action cap")
        p = s[E.G_CUR]
        k, x = decide(s, kinds[p], weights[p], noise[played], out, st, cd)
        if played < log.shape[0]:
            log[played, 0], log[played, 1], log[played, 2] = k, x, p
        E.step(s, k, x, st, cd, rolls)
        played += 1
    return played


@njit(cache=True)
def play_many(decks0, decks1, rolls, noise, kinds, weights, st, cd, result, logs):
    """Play game ``g`` between ``decks0[g]`` and ``decks1[g]`` with its ``rolls[g]`` and ``noise[g]``
    for every row; ``result[g]`` gets (winner, end reason, turns, HP of seat 0, HP of seat 1,
    actions) and ``logs[g]`` its actions (when ``logs`` has rows). Games are independent."""
    s = np.empty(E.STATE_SIZE, np.int64)
    empty = np.empty((0, 3), np.int64)
    for g in range(decks0.shape[0]):
        log = logs[g] if logs.shape[0] > 0 else empty
        n = play_one(s, decks0[g], decks1[g], rolls[g], noise[g], kinds, weights, st, cd, log)
        result[g, 0], result[g, 1], result[g, 2] = s[E.G_WINNER], s[E.G_REASON], s[E.G_TURN]
        result[g, 3], result[g, 4], result[g, 5] = s[E.base(0) + E.P_HP], s[E.base(1) + E.P_HP], n
