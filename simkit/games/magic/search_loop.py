"""The plan search over Magic War's hooks (:mod:`.search`), compiled, to the kit's contract.

At a decision of a search seat the loop draws ``plans`` candidate plans with the policy (the first from the
game's own stream at the policy's own noise, exactly as the policy would play the real game; the rest at
``temperature`` from a
stream keyed by that stream and its position), values each distinct one over ``samples``
determinizations (common to all candidates: the same salts, the same look-ahead streams): the seat's view
re-drawn (:func:`~.search.copy_game`), the plan replayed, ``depth`` turns played on (the seat's own by the
policy, the opponent's by ``reply``, both at ``reply_temperature``), the position valued; and keeps the
policy's own plan unless another's mean beats it by more than ``margin``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.kits.mix import mix64
from simkit.games.magic.search import copy_game, game_over, play_turn, replay, to_act, value

#: the search budget, in the order of ``params`` (``[bots.search-N]`` keys of the same names)
PLANS, DEPTH, TEMPERATURE, REPLY_TEMPERATURE, SAMPLES, MARGIN = range(6)
PARAMS = 6
#: the first candidate's temperature: the policy's own noise (the hooks' convention), so it is the policy's plan
OWN = -1.0
_SALT = np.uint64(0x5EA5C4B07E11A6E5)  # keeps the candidates' stream apart from the game's own
_LOOK = np.uint64(0x6C6F6F6B61686561)  # and the look-ahead's


@njit(cache=True)
def plan_hash(plan, n):
    """A 64-bit hash of the ``n`` first words of ``plan``."""
    h = np.uint64(n)
    for i in range(n):
        h = mix64(h ^ np.uint64(plan[i]))
    return h


@njit(cache=True)
def search_plan(ctx, g, seat, policy, reply, params, weights, keys, counter, cap, cands, lengths, seen, best):
    """Choose the plan of ``seat`` (to act) from the root in ``ctx``: ``best[:n]`` its words; returns ``n``.

    ``g``: the stream of ``keys``/``counter`` the policy draws from (``counter[g]`` advances by the first
    candidate's draws); ``cands``: ``int64[>= plans, cap + 2]`` and ``lengths``, ``seen``: ``[>= plans]``
    scratch."""
    plans, depth = int(params[PLANS]), int(params[DEPTH])
    temperature, reply_temperature = params[TEMPERATURE], params[REPLY_TEMPERATURE]
    samples, margin = max(1, int(params[SAMPLES])), params[MARGIN]
    local_key = np.zeros(1, np.int64)
    local_counter = np.zeros(1, np.int64)
    look_key = np.zeros(1, np.int64)
    look_counter = np.zeros(1, np.int64)
    no_record = cands[0, :0]
    distinct = 0
    for i in range(plans):
        copy_game(ctx, g, seat, 0)
        row = cands[distinct]
        if i == 0:
            n = play_turn(ctx, policy, OWN, keys, counter, g, cap, row)
            local_key[0] = np.int64(mix64(np.uint64(keys[g]) ^ mix64(np.uint64(counter[g]) ^ _SALT)) >> np.uint64(1))
        else:
            n = play_turn(ctx, policy, temperature, local_key, local_counter, 0, cap, row)
        h = plan_hash(row, n)
        repeated = False
        for j in range(distinct):
            if seen[j] == h and lengths[j] == n:
                repeated = True
                break
        if repeated:
            continue
        seen[distinct] = h
        lengths[distinct] = n
        distinct += 1
    chosen = 0
    if distinct > 1:
        bar = -np.inf
        for j in range(distinct):
            total = 0.0
            for t in range(samples):
                copy_game(ctx, g, seat, t)
                if not replay(ctx, cands[j], lengths[j]):
                    total = -np.inf
                    break
                look_key[0] = np.int64(mix64(np.uint64(local_key[0]) ^ mix64(np.uint64(t) ^ _LOOK)) >> np.uint64(1))
                look_counter[0] = 0
                for _ in range(depth):
                    if game_over(ctx):
                        break
                    bot = policy if to_act(ctx) == seat else reply
                    play_turn(ctx, bot, reply_temperature, look_key, look_counter, 0, cap, no_record)
                total += value(ctx, seat, policy, weights)
            mean = total / samples
            if j == 0:
                bar = mean + margin
            elif mean > bar:
                bar, chosen = mean, j
    n = lengths[chosen]
    best[:n] = cands[chosen, :n]
    return n
