"""Krypton games where a seat may be a search bot, compiled: one decision (:func:`decide`) and whole games
(:func:`play_loop`, :func:`~simkit.games.krypton.bots.play_loop` with search seats).

A search seat follows its plan (:mod:`simkit.games.kits.turn_search`) while the real game stays where the
plan expected: the same hero turn, chance counter, seat to act and kind of decision as when it was
planned, and the next action legal; otherwise it searches again. Its plan and marks live in
``plans[seat]`` / ``marks[seat]`` (``int64``: :data:`M_LEFT`, :data:`M_AT`, then the marks), so a game can
be played in pieces.

Randomness: seat ``p``'s searches draw from stream ``p`` of ``keys``/``counter``
(``derive_seed(seed, "search", p)``), its determinizations from the view key ``derive_seed(seed, "view")``:
a game depends on its seed only.
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.kits.turn_search import PLANS
from simkit.games.krypton import bots as B
from simkit.games.krypton import engine as E
from simkit.games.krypton.fast_search.hooks import chance, in_turn, search_turn

#: a seat played by a search bot (beside :data:`~simkit.games.krypton.bots.BOT_RANDOM` and ``BOT_UTILITY``)
BOT_SEARCH = 2
#: a plan reaching this many decisions ends (a hero turn takes far fewer)
PLAN_CAP = 64
#: ``marks[seat]``: decisions left in the plan, the next one's index, then the hero turn, chance counter,
#: seat and kind of decision (1: own move) the plan was made at, the searches run and the decisions made
M_LEFT, M_AT, M_TURN, M_CHANCE, M_SEAT, M_OWN, M_SEARCHES, M_DECISIONS = range(8)
MARKS = 8


@numba.njit(cache=True)
def context(s, R, dist, nbr, DV, DP, DN, view_key):
    """The hooks' context (:mod:`.hooks`) for real game ``s``, with fresh work state and scratch."""
    w = np.empty_like(s)
    wmem = np.zeros((2, B.MEM), np.int64)
    lg = np.empty(E.MAXLEGAL, np.int64)
    wb = np.empty(B.NW, np.float64)
    ev = np.zeros((0, E.EVW), np.int64)
    unseen = np.empty(E.MAXPILE, np.int64)
    return (s, R, dist, nbr, DV, DP, DN, w, wmem, lg, wb, ev, view_key, unseen)


@numba.njit(cache=True)
def decide(ctx, seat, policy, reply, params, values, keys, counter, plans, marks, scratch, seen):
    """The search seat ``seat``'s next action code in the real game ``ctx[0]`` (it must owe the decision)."""
    s, R, dist, nbr, lg = ctx[0], ctx[1], ctx[2], ctx[3], ctx[9]
    m, plan = marks[seat], plans[seat]
    m[M_DECISIONS] += 1
    nl = E.legal(s, R, dist, nbr, lg)
    if (m[M_AT] < m[M_LEFT] and m[M_TURN] == s[E.G_TURN] and m[M_CHANCE] == chance(s) and m[M_SEAT] == seat
            and m[M_OWN] == np.int64(in_turn(s)) and B.in_list(plan[m[M_AT]], lg, nl)):
        m[M_AT] += 1
        return plan[m[M_AT] - 1]
    m[M_TURN], m[M_CHANCE], m[M_SEAT], m[M_OWN] = s[E.G_TURN], chance(s), seat, np.int64(in_turn(s))
    m[M_LEFT] = search_turn(ctx, seat, seat, policy, reply, params, values, keys, counter, PLAN_CAP, scratch, plan,
                            seen)
    m[M_SEARCHES] += 1
    m[M_AT] = 1
    return plan[0]


@numba.njit(cache=True)
def play_loop(s, R, dist, nbr, ev, kinds, W, DV, DP, DN, mems, policy, reply, params, values, keys, counter,
              view_key, plans, marks, acts, n):
    """Play on with the two seats' bots until the game is over or ``acts`` (the actions so far: ``n``) is
    full; returns the new ``n`` (-1 - n: a bot chose an illegal action, a bug).

    ``kinds[seat]``: ``BOT_RANDOM``, ``BOT_UTILITY`` (weights ``W[seat]``, memory ``mems[seat]``) or
    :data:`BOT_SEARCH` (``policy[seat]``, ``reply[seat]``: utility weights; ``params[seat]``: the kit's
    budget; ``values[seat]``: the value weights; ``plans``/``marks``: the plans under way)."""
    ctx = context(s, R, dist, nbr, DV, DP, DN, view_key)
    lg = np.empty(E.MAXLEGAL, np.int64)
    scratch = np.empty(PLAN_CAP + 1, np.int64)
    seen = np.empty(max(int(params[0, PLANS]), int(params[1, PLANS]), 1), np.uint64)
    while s[E.G_WINNER] < 0 and n < acts.shape[0]:
        seat = E.to_act(s, R)
        if kinds[seat] == BOT_SEARCH:
            code = decide(ctx, seat, policy[seat], reply[seat], params[seat], values[seat], keys, counter, plans,
                          marks, scratch, seen)
            nl = E.legal(s, R, dist, nbr, lg)
        else:
            nl = E.legal(s, R, dist, nbr, lg)
            code = B.choose_code(s, R, dist, nbr, kinds[seat], W[seat], DV, DP, DN, mems[seat], lg, nl)
        if not B.in_list(code, lg, nl):
            return -1 - n
        E.apply(s, R, dist, ev, code)
        acts[n] = code
        n += 1
    return n
