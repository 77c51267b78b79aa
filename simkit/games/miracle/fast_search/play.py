"""Whole games with search bots, compiled: :func:`simkit.games.miracle.fast.game.play` where a seat may plan its turns.

Each seat is a *player* ``(policy, reply, params, weights)``: two packed :class:`~simkit.games.miracle.fast.pack.KBot`,
the search budget (``float64[search.PARAMS]``) and the value weights. Every seat plans each of its
turns at the turn's first decision (the kit's turn search, :mod:`simkit.games.kits.turn_search`) and
then plays the plan. A utility
bot is the player with one candidate, no depth and its own temperature: its one candidate is drawn
word for word as :func:`~simkit.games.miracle.fast.game.play` draws its decisions, so it plays the
same games.
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.kits.experience import begin, note_choice, note_lead, write
from simkit.games.kits.turn_search import PLANS
from simkit.games.miracle.fast.pack import KBotRef, KRulesRef, KSitRef, KStateRef
from simkit.games.miracle.fast_search.hooks import apply, search_turn
from simkit.games.miracle.lead import lead

F32 = np.float32


@numba.njit(cache=True)
def _context(state, rules, work, scratch, L, cap):
    """The hooks' context (see :mod:`.hooks`) with fresh decision scratch (plans of at most ``cap + 1`` actions)."""
    S, R, W, sit = KStateRef(*state), KRulesRef(*rules), KStateRef(*work), KSitRef(*scratch)
    cand_index = np.empty(L.size, np.int64)
    cand_score = np.empty(L.size, F32)
    cand_high = np.empty(L.size, np.float64)
    atk = np.zeros(S.alive.shape[1], np.int32)
    return (S, R, W, sit, L, cand_index, cand_score, cand_high, atk, np.zeros(cap + 1, np.int64))


@numba.njit(cache=True)
def play(state, rules, work, scratch, L, keys, counter, cap, played, first, second, band, records, figures):
    """Play every game of ``state`` to its end in place, noting how each game plays
    (:mod:`simkit.games.miracle.lead`).

    ``state``, ``rules``, ``scratch``: the packed games, rules and bot scratch; ``work``: a packed
    one-game state the searches simulate on; ``L``: the layout; ``keys``, ``counter``: each game's
    stream (advanced in place); ``cap``: a turn reaching this many actions is ended for the bot;
    ``played[g]``: actions played. ``first``/``second``: the players. ``band``: the scenario's
    ``[experience] level_band``; ``records``: one :data:`~simkit.games.kits.experience.EXPERIENCE` record
    (scratch); ``figures[g]``: game ``g``'s figures (:func:`~simkit.games.kits.experience.write`). Each action of a
    planned turn is a decision among the legal actions of its position, but the one that ends a turn at the cap:
    the policy counted them as it drew the plan (the search keeps them with the chosen plan, ``legal``), on a copy
    of the real game that the real turn follows action by action (no chance, no hidden cards).
    """
    ctx = _context(state, rules, work, scratch, L, cap)
    S = ctx[0]
    policies = (KBotRef(*first[0]), KBotRef(*second[0]))
    replies = (KBotRef(*first[1]), KBotRef(*second[1]))
    best = np.empty(cap + 1, np.int64)
    plan = np.empty(cap + 1, np.int64)
    seen = np.empty(max(int(first[2][PLANS]), int(second[2][PLANS]), 1), np.uint64)
    R, legal = ctx[1], np.empty(cap + 1, np.int64)
    x = records[0]
    for g in range(S.turn.shape[0]):
        begin(x)
        while not S.over[g]:
            seat = S.current[g]
            params = first[2] if seat == 0 else second[2]
            weights = first[3] if seat == 0 else second[3]
            n = search_turn(
                ctx, g, seat, policies[seat], replies[seat], params, weights, keys, counter, cap, plan, best, seen,
                ctx[9], legal,
            )
            for i in range(n):
                played[g] += 1
                if legal[i] > 0:
                    note_choice(x, legal[i])
                turn = S.turn[g]
                if apply(ctx, g, best[i]) or S.over[g]:
                    note_lead(x, turn, lead(S, R, g), band)
                    break
        write(x, S.winner[g], S.turn[g], figures[g])


@numba.njit(cache=True)
def plan(state, rules, work, scratch, L, keys, counter, cap, g, player, out):
    """The turn a ``player`` plans for game ``g`` from its current position to the end of its
    turn: ``out[:n]`` its flat actions; returns ``n``. Advances ``counter[g]`` as :func:`play` does."""
    ctx = _context(state, rules, work, scratch, L, cap)
    policy, reply = KBotRef(*player[0]), KBotRef(*player[1])
    scratch_plan = np.empty(cap + 1, np.int64)
    seen = np.empty(max(int(player[2][PLANS]), 1), np.uint64)
    seat = np.int64(ctx[0].current[g])
    return search_turn(ctx, g, seat, policy, reply, player[2], player[3], keys, counter, cap, scratch_plan, out,
                       seen)
