"""How a game's candidate actions are collected and the best one chosen, with Gumbel noise.

The scorers :func:`offer` every legal action of a game, in increasing flat index, into two
buffers; :func:`choose` then adds each candidate's Gumbel noise (from the game's word and the
action's key, scaled by the temperature, added in float32) and keeps the first of equal
best scores (as ``argmax`` would).

Hot helpers take arrays and scalars. The packed groups (state, rules, bot, scratch) reach the
helpers as StructRefs built by the entry kernels (``decide``, ``step``, ``game.play``; see
:mod:`.pack`), and every function of ``fast/`` that takes them is inlined into its caller
(``inline="always"``, numba's own inlining) but for the two halves of an action, the bot's decision
(:func:`.decide.decide_one`) and the rules' step (:func:`.step.step_one`, with :func:`.step.turn_start`):
those are compiled once each, for every kernel that calls them, and side by side on a cold cache
(:func:`.game.compile_parts`). numba's inlining copies the callee's IR at every level, so the whole engine
inlined into one loop compiled in about 58 s of CPU, and in about 35 s split so; the two calls per action
cost no time ``scripts/us_per_action.py`` can tell from the noise of a shared machine (about 2%).
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.kits.mix import mix64  # noqa: F401 (the bots draw and hash with it; re-exported)

F32 = np.float32


@numba.njit(cache=True)
def offer(cand_index, cand_score, n, index, score):
    """Append action ``index`` with float32 ``score`` to a game's candidates; returns the new count."""
    cand_index[n] = index
    cand_score[n] = score
    return n + 1


def _gumbel_bounds(buckets: int) -> tuple[np.ndarray, np.ndarray]:
    """The Gumbel noise at the low and high end of each of ``buckets`` equal slices of [0, 1), as
    clipped by :func:`_noisy`: noise is increasing in the uniform, so these bound every draw of a slice."""
    edges = np.arange(buckets + 1, dtype=np.float64) / buckets
    u = np.clip(edges, 1e-300, 1 - 1e-16)
    noise = -np.log(-np.log(u))
    return noise[:-1].copy(), noise[1:].copy()


_BUCKET_SHIFT = np.uint64(52)  # a word's top 12 bits: its slice of [0, 1) among 4096
_NOISE_LOW, _NOISE_HIGH = _gumbel_bounds(4096)
_SLACK = 1e-4  # far above float32 rounding of the sums compared: a bound is never too tight


@numba.njit(cache=True)
def _noisy(score, word, key, temperature):
    """``score`` plus the Gumbel noise of ``word`` and the action's ``key``, added in float32."""
    u = np.float64(mix64(word ^ key) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
    u = min(max(u, 1e-300), 1 - 1e-16)
    return score + F32(temperature * -np.log(-np.log(u)))


@numba.njit(cache=True)
def choose(cand_index, cand_score, n, word, keys, temperature, high):
    """The flat index of the best of ``n`` candidates once noise is added (-1 when there are none).

    Exact but lazy: a first pass bounds each candidate's noisy score by the lowest and highest
    noise of its word's slice (keeping the upper bounds in ``high``, float64 scratch of at least
    ``n``), and computes the noisy score of the candidate with the highest lower bound, a floor
    under the best. The noise (two logarithms) is then computed only for candidates whose upper
    bound reaches that floor; the others score strictly less than the best, and dropping a value
    below the maximum never changes the first index that reaches it.
    """
    if temperature <= 0:
        best, best_index = F32(-np.inf), -1
        for i in range(n):
            if cand_score[i] > best:
                best, best_index = cand_score[i], cand_index[i]
        return best_index
    low, pick = -np.inf, -1
    for i in range(n):
        bucket = mix64(word ^ keys[cand_index[i]]) >> _BUCKET_SHIFT
        score = np.float64(cand_score[i])
        bound = score + temperature * _NOISE_LOW[bucket]
        high[i] = score + temperature * _NOISE_HIGH[bucket]
        if bound > low:
            low, pick = bound, i
    floor = -np.inf
    if pick >= 0:
        floor = np.float64(_noisy(cand_score[pick], word, keys[cand_index[pick]], temperature))
        floor -= _SLACK * (1.0 + abs(floor))
    best, best_index = F32(-np.inf), -1
    for i in range(n):
        if high[i] < floor:
            continue
        index = cand_index[i]
        score = _noisy(cand_score[i], word, keys[index], temperature)
        if score > best:
            best, best_index = score, index
    return best_index
