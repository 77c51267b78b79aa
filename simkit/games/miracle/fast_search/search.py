"""Turn search, compiled: sample whole turns with a policy, look ahead, keep the plan worth most.

At the start of its turn a search bot plays ``plans`` candidate turns on a copy of the game with
its policy (a utility bot with Gumbel noise), follows each by ``depth`` further turns (the
opponent's played by the ``reply`` bot, its own by the policy, both at ``reply_temperature``),
values the position reached (:func:`~.hooks.value`) and plays the best candidate's actions.
Identical candidates are valued once. The rules have no chance of their own, so the chosen turn,
replayed on the real game, reaches exactly the position the search saw after it.

Randomness: the first candidate draws its words from the game's own stream, exactly as the policy
bot would draw them when playing that turn; every other draw (further candidates, the look-ahead)
comes from a stream keyed by the game's key and its position after that first candidate. So a
search with one candidate plays its policy's games word for word, and every choice depends only
on the game's seed and state, never on the batch.

The loop below knows the game only through the hooks of :mod:`.hooks` (``copy_game``,
``play_turn``, ``game_over``, ``to_act``, ``value``) and passes their context ``ctx`` through
unopened. Numba cannot cache a kernel that takes functions as arguments, so the loop is compiled
with one game's hooks imported by name: another game gets the search by compiling this loop against
its own hooks module.
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.miracle.fast.choice import mix64
from simkit.games.miracle.fast_search.hooks import copy_game, game_over, play_turn, to_act, value

#: the search budget, in the order of ``params``
PLANS, DEPTH, TEMPERATURE, REPLY_TEMPERATURE = range(4)
PARAMS = 4
_SALT = np.uint64(0x5EA5C4B07E11A6E5)  # keeps the look-ahead stream apart from the game's own


@numba.njit(cache=True, inline="always")
def _plan_hash(plan, n):
    """A 64-bit hash of the ``n`` first actions of ``plan``."""
    h = np.uint64(n)
    for i in range(n):
        h = mix64(h ^ np.uint64(plan[i]))
    return h


@numba.njit(cache=True)
def search_turn(ctx, g, policy, reply, params, weights, keys, counter, cap, plan, best, seen):
    """Choose the turn of the side to act in game ``g``: ``best[:n]`` its actions; returns ``n``.

    ``policy``/``reply``: the bots playing the candidates and the opponent's turns; ``params``:
    ``float64[PARAMS]`` the budget (``PLANS``, ``DEPTH``, ``TEMPERATURE``, ``REPLY_TEMPERATURE``);
    ``weights``: the value weights; ``keys``/``counter``: the games' streams (``counter[g]``
    advances by the first candidate's draws); ``cap``: a turn reaching this many actions ends;
    ``plan``, ``best``: ``int64[cap + 1]`` scratch and result; ``seen``: ``uint64[>= plans]`` scratch.
    """
    plans, depth = int(params[PLANS]), int(params[DEPTH])
    temperature, reply_temperature = params[TEMPERATURE], params[REPLY_TEMPERATURE]
    local_key = np.zeros(1, np.uint64)
    local_counter = np.zeros(1, np.uint64)
    no_record = plan[:0]
    best_value, best_n, distinct = -np.inf, 0, 0
    me = -1
    for i in range(plans):
        copy_game(ctx, g)
        if i == 0:
            me = to_act(ctx)
            n = play_turn(ctx, policy, temperature, keys, counter, g, cap, plan)
            local_key[0] = mix64(keys[g] ^ mix64(counter[g] ^ _SALT))
            if plans == 1:  # nothing to compare: the policy's own turn
                best[:n] = plan[:n]
                return n
        else:
            n = play_turn(ctx, policy, temperature, local_key, local_counter, 0, cap, plan)
        h = _plan_hash(plan, n)
        repeated = False
        for j in range(distinct):
            if seen[j] == h:
                repeated = True
                break
        if repeated:
            continue
        seen[distinct] = h
        distinct += 1
        for _ in range(depth):
            if game_over(ctx):
                break
            bot = policy if to_act(ctx) == me else reply
            play_turn(ctx, bot, reply_temperature, local_key, local_counter, 0, cap, no_record)
        v = value(ctx, me, policy, weights)
        if v > best_value:
            best_value, best_n = v, n
            best[:n] = plan[:n]
    return best_n
