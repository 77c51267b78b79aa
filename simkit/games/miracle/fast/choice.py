"""How the compiled scorers hand over a candidate action: kept as the best so far, with its noise.

Every legal action of a game is passed to :func:`emit` in increasing flat index, so a strict
``>`` keeps the first of equal scores, as ``argmax`` does in the numpy bot. The noise is the
numpy bot's: a Gumbel draw from the game's word and the action's key, scaled by the temperature
and added in float32.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

F32 = np.float32
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)


class Out(NamedTuple):
    """Where candidates go (B games, N flat actions)."""

    best: np.ndarray  # float32[B] best noisy score so far
    best_index: np.ndarray  # int64[B] its flat index, -1 while none
    word: np.ndarray  # uint64[B] the game's random word for this decision
    keys: np.ndarray  # uint64[N] one hash per flat action
    temperature: float
    dense: np.ndarray  # float32[B, N] every score without noise (tests), or float32[0, 0] to skip


@numba.njit(cache=True)
def mix64(x):
    """The splitmix64 finaliser (``simkit.rng.mix64``) on one ``uint64``."""
    z = x + _GOLDEN
    z = (z ^ (z >> np.uint64(30))) * _M1
    z = (z ^ (z >> np.uint64(27))) * _M2
    return z ^ (z >> np.uint64(31))


@numba.njit(cache=True)
def emit(out, g, index, score):
    """Offer action ``index`` of game ``g`` with float32 ``score``."""
    if out.dense.shape[0] > 0:
        out.dense[g, index] = score
    if out.temperature > 0:
        u = np.float64(mix64(out.word[g] ^ out.keys[index]) >> np.uint64(11)) * (1.0 / 9007199254740992.0)
        u = min(max(u, 1e-300), 1 - 1e-16)
        score = score + F32(out.temperature * -np.log(-np.log(u)))
    if score > out.best[g]:
        out.best[g] = score
        out.best_index[g] = index
