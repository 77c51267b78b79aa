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

The loop knows a game only through five hooks, :data:`HOOKS`, and passes their context ``ctx``
(a tuple of the game's own arrays) through unopened:

- ``copy_game(ctx, g)``: copy real game ``g`` into the context's one-game work state;
- ``play_turn(ctx, bot, temperature, keys, counter, k, cap, record) -> n``: play the work state's
  current turn with ``bot`` drawing from stream ``k`` of ``keys``/``counter``, recording its actions
  in ``record`` (an empty array: none) and returning how many it played (at most ``cap``);
- ``game_over(ctx) -> bool`` and ``to_act(ctx) -> seat``: of the work state;
- ``value(ctx, seat, bot, weights) -> float``: the work state's worth to ``seat``.

A game gets its search with :func:`compile_turn_search`, naming its hook functions (compiled with
numba). Numba caches a kernel only when the functions it calls are fixed when it is compiled: a kernel
taking functions as arguments is not cached, and neither is one built as a closure over them (measured:
a closure recompiles in every process). So the loop below is written against the five hook names, and
:func:`compile_turn_search` compiles its code with the game's hooks in place of those names and caches
it beside the game's own module.
"""

# ruff: noqa: F821  (the five hook names of search_turn are bound by compile_turn_search)
from __future__ import annotations

import types
from collections.abc import Mapping

import numba
import numpy as np

from simkit.games.kits.mix import mix64

#: the hooks a game supplies, by name (see the module docstring for their signatures)
HOOKS = ("copy_game", "play_turn", "game_over", "to_act", "value")

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


def compile_turn_search(hooks: Mapping[str, object], module_file: str):
    """The turn search compiled against one game's ``hooks`` and cached beside ``module_file``.

    Args:
        hooks: a compiled function (numba dispatcher) for each name of :data:`HOOKS`.
        module_file: the ``__file__`` of the game's module that calls this (the cache lives in its
            ``__pycache__``; drop it with :func:`simkit.games.kits.numba_cache.drop_stale_cache`
            when the hooks or this file change).

    Returns:
        ``search_turn(ctx, g, policy, reply, params, weights, keys, counter, cap, plan, best, seen)``.

    Raises:
        TypeError: a hook is missing, not one of :data:`HOOKS`, or not compiled.
    """
    names = set(hooks)
    if names != set(HOOKS):
        raise TypeError(f"turn search hooks: need exactly {', '.join(HOOKS)}; missing "
                        f"{sorted(set(HOOKS) - names)}, unknown {sorted(names - set(HOOKS))}")
    plain = [n for n, f in hooks.items() if not isinstance(f, numba.core.registry.CPUDispatcher)]
    if plain and not numba.config.DISABLE_JIT:
        raise TypeError(f"turn search hooks must be numba-compiled functions: {', '.join(plain)}")
    namespace = dict(globals())
    namespace.update(hooks)
    code = search_turn.__code__.replace(co_filename=module_file)
    function = types.FunctionType(code, namespace, "search_turn", search_turn.__defaults__)
    return numba.njit(cache=True)(function)
