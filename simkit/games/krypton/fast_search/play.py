"""Krypton games where a seat may be a search bot, compiled: one decision (:func:`decide`) and whole games
(:func:`play_loop`, :func:`~simkit.games.krypton.bots.play_loop` with search seats).

A search seat follows its plan (:mod:`simkit.games.kits.turn_search`) while the real game stays where the
plan expected: the same hero turn, chance counter, seat to act and kind of decision as when it was
planned, and the next action legal; otherwise it searches again. Its plan and marks live in
``plans[seat]`` (action codes) / ``marks[seat]`` (a :data:`MARKS` record), so a game can be played in pieces.

Randomness: seat ``p``'s searches draw from stream ``p`` of ``keys``/``counter``
(``derive_seed(seed, "search", p)``), its determinizations from the view key ``derive_seed(seed, "view")``:
a game depends on its seed only.
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.kits import experience as X
from simkit.games.kits.state import record
from simkit.games.kits.turn_search import budget
from simkit.games.krypton import bots as B
from simkit.games.krypton import engine as E
from simkit.games.krypton import lead as L
from simkit.games.krypton.fast_search.hooks import Context, chance, in_turn, search_turn
from simkit.games.krypton.state import MAXLEGAL, MAXPILE

#: a seat played by a search bot (beside :data:`~simkit.games.krypton.bots.BOT_RANDOM` and ``BOT_UTILITY``)
BOT_SEARCH = 2
#: a plan reaching this many decisions ends (a hero turn takes far fewer)
PLAN_CAP = 64
MARKS = record("SearchMarks", [
    ("left", np.int64),       # decisions in the plan under way
    ("at", np.int64),         # the next one's index
    ("turn", np.int64),       # the hero turn, chance counter, seat and kind of decision (1: own move) the plan
    ("chance", np.int64),     # was made at
    ("seat", np.int64),
    ("own", np.int64),
    ("searches", np.int64),   # counter: searches run
    ("decisions", np.int64),  # counter: decisions made
], "A search seat's plan under way and its counters.")


@numba.njit(cache=True)
def context(real, rules, dist, nbr, DV, DP, DN, view_key):
    """The hooks' :class:`~.hooks.Context` for the real game ``real[0]`` and the packed rules ``rules[0]`` (both
    one-record arrays), with fresh work state and scratch."""
    work = np.empty_like(real)
    wmem = np.zeros(2, B.MEMORY)
    lg = np.empty(MAXLEGAL, np.int64)
    wb = np.zeros(1, B.WEIGHTS_RECORD)
    ev = np.zeros((0, E.EVW), np.int64)
    unseen = np.empty(MAXPILE, np.int64)
    return Context(real, rules, dist, nbr, DV, DP, DN, work, wmem, lg, wb, ev, view_key, unseen)


@numba.njit(cache=True)
def decide(ctx, seat, policy, reply, params, values, keys, counter, plans, marks, scratch, seen):
    """The search seat ``seat``'s next action code in the real game ``ctx.real[0]`` (it must owe the decision)."""
    s, rules, dist, nbr, lg = ctx.real[0], ctx.rules[0], ctx.dist, ctx.nbr, ctx.lg
    m, plan = marks[seat], plans[seat]
    m.decisions += 1
    nl = E.legal(s, rules, dist, nbr, lg)
    if (m.at < m.left and m.turn == s.turn and m.chance == chance(s) and m.seat == seat
            and m.own == np.int64(in_turn(s)) and B.in_list(plan[m.at], lg, nl)):
        m.at += 1
        return plan[m.at - 1]
    m.turn, m.chance, m.seat, m.own = s.turn, chance(s), seat, np.int64(in_turn(s))
    m.left = search_turn(ctx, seat, seat, policy, reply, params, values, keys, counter, PLAN_CAP, scratch, plan,
                         seen)
    m.searches += 1
    m.at = 1
    return plan[0]


@numba.njit(cache=True)
def play_loop(real, packed, dist, nbr, ev, kinds, weights, DV, DP, DN, mems, policy, reply, params, values, keys,
              counter, view_key, plans, marks, acts, n, lws, xs):
    """Play on with the two seats' bots until the game ``real[0]`` (rules ``packed[0]``) is over or ``acts``
    (the actions so far: ``n``) is full; returns the new ``n`` (-1 - n: a bot chose an illegal action, a bug).

    ``kinds[seat]``: ``BOT_RANDOM``, ``BOT_UTILITY`` (weights ``weights[seat]``, memory ``mems[seat]``) or
    :data:`BOT_SEARCH` (``policy[seat]``, ``reply[seat]``: utility weights; ``params[seat]``: the kit's
    budget; ``values[seat]``: the value weights; ``plans``/``marks``: the plans under way). Each decision and the
    lead at each round's end (weights ``lws[0]``) are noted into the experience record ``xs[0]``
    (:func:`simkit.games.krypton.lead.note_turn`); a search's value is no chance to win, so no estimate is noted."""
    ctx = context(real, packed, dist, nbr, DV, DP, DN, view_key)
    s, rules = real[0], packed[0]
    lg = np.empty(MAXLEGAL, np.int64)
    scratch = np.empty(PLAN_CAP + 1, np.int64)
    seen = np.empty(max(budget(params[0])[0], budget(params[1])[0], 1), np.uint64)  # the most plans a search draws
    while s.winner < 0 and n < acts.shape[0]:
        seat = E.to_act(s, rules)
        if kinds[seat] == BOT_SEARCH:
            code = decide(ctx, seat, policy[seat], reply[seat], params[seat], values[seat], keys, counter, plans,
                          marks, scratch, seen)
            nl = E.legal(s, rules, dist, nbr, lg)
        else:
            nl = E.legal(s, rules, dist, nbr, lg)
            code = B.choose_code(s, rules, dist, nbr, kinds[seat], weights[seat], DV, DP, DN, mems[seat], lg, nl)
        if not B.in_list(code, lg, nl):
            return -1 - n
        turn = s.turn
        E.apply(s, rules, dist, ev, code)
        X.note_choice(xs[0], nl)
        if s.turn != turn or s.winner >= 0:  # a hero turn ended (a round may have) or the game did
            L.note_turn(s, rules, lws[0], xs[0], turn)
        acts[n] = code
        n += 1
    return n
