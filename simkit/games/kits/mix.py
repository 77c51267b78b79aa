"""splitmix64's finaliser compiled, for every game's compiled code: one home for the mixer games hash and draw with.

:func:`simkit.core.rng.mix64` is the same finaliser over numpy arrays for the generic layers
(which never import numba); ``tests/core/test_rng.py`` holds the two to the same values.
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.core.rng import GOLDEN, MIX1, MIX2

_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)


@numba.njit(cache=True)
def mix64(x):
    """The splitmix64 finaliser on one ``uint64``."""
    z = x + GOLDEN
    z = (z ^ (z >> _S30)) * MIX1
    z = (z ^ (z >> _S27)) * MIX2
    return z ^ (z >> _S31)
