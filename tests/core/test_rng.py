"""Seeds are derived by a splitmix64 fold over the parts: stable across versions and machines."""

from __future__ import annotations

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simkit.core.rng import derive_seed, mix64

PINNED = [7968027912023157163, 1873272656644598055, 2611923443488327891]


def numpy_fold(*parts) -> int:
    """The fold with numpy uint64 scalars, as the first version of ``derive_seed`` computed it."""
    h = np.uint64(0x243F6A8885A308D3)
    for p in parts:
        if isinstance(p, str):
            for ch in p.encode():
                h = mix64(h ^ np.uint64(ch))
        else:
            h = mix64(h ^ np.uint64(int(p) & 0xFFFFFFFFFFFFFFFF))
    return int(h) & 0x7FFFFFFFFFFFFFFF


def test_seeds_of_a_sweep_never_change():
    """Game 3 of a pair in a sweep with seed 0, and a batch test's seed: pinned values."""
    pair = ("HolyLight:Archer,BlackBat,Priest", "WindBlessing:Archer,Priest,Swordsman")
    assert derive_seed(0, *pair, 3) == numpy_fold(0, *pair, 3)
    assert [derive_seed(0, *pair, 3), derive_seed("batch", 7), derive_seed()] == PINNED


@given(st.lists(st.one_of(st.integers(-(2**63), 2**64 - 1), st.text(max_size=40)), max_size=6))
def test_derive_seed_is_the_uint64_fold(parts):
    assert derive_seed(*parts) == numpy_fold(*parts)


def test_the_compiled_mixer_is_the_arrays_mixer():
    """kits.mix.mix64 (for compiled code) and kits.rng.mix64 (numpy arrays) give the same values."""
    from simkit.games.kits.mix import mix64 as compiled

    xs = np.array([0, 1, 2**63, 2**64 - 1, 0x243F6A8885A308D3], dtype=np.uint64)
    assert [int(compiled(np.uint64(x))) for x in xs] == [int(v) for v in mix64(xs)]
