"""How a game's candidate actions are collected and the best one chosen, with the numpy bot's noise.

The scorers :func:`offer` every legal action of a game, in increasing flat index, into two
buffers; :func:`choose` then adds each candidate's Gumbel noise (from the game's word and the
action's key, scaled by the temperature, added in float32) and keeps the first of equal
best scores, as ``argmax`` does in the numpy bot.

Hot helpers take arrays, never the packed named tuples: numba passes a tuple of arrays by value
with a reference count per array, about 300 ns a call against 10 ns for a few arrays. For the same
reason every function of ``fast/`` that takes a packed tuple is inlined into its caller
(``inline="always"``, numba's own inlining) except the entry points: ``decide_one``, ``step_one``
and the batch loops.
"""

from __future__ import annotations

import numba
import numpy as np

F32 = np.float32
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


@numba.njit(cache=True)
def mix64(x):
    """The splitmix64 finaliser (``simkit.rng.mix64``) on one ``uint64``."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@numba.njit(cache=True)
def offer(cand_index, cand_score, n, index, score):
    """Append action ``index`` with float32 ``score`` to a game's candidates; returns the new count."""
    cand_index[n] = index
    cand_score[n] = score
    return n + 1


@numba.njit(cache=True)
def choose(cand_index, cand_score, n, word, keys, temperature):
    """The flat index of the best of ``n`` candidates once noise is added (-1 when there are none)."""
    best, best_index = F32(-np.inf), -1
    for i in range(n):
        index, score = cand_index[i], cand_score[i]
        if temperature > 0:
            u = np.float64(mix64(word ^ keys[index]) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
            u = min(max(u, 1e-300), 1 - 1e-16)
            score = score + F32(temperature * -np.log(-np.log(u)))
        if score > best:
            best, best_index = score, index
    return best_index
