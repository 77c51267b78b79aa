"""The compiled noisy choice skips the logarithms of candidates that cannot win, yet always picks
what adding every candidate's Gumbel noise (as the numpy bot does) and taking the first best picks."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.core.rng import mix64
from simkit.games.miracle.fast.choice import choose


def every_noise_choice(index, score, word, keys, temperature) -> int:
    """The numpy bot's rule: Gumbel noise on every candidate, added in float32, first best wins."""
    u = (mix64(np.uint64(word) ^ keys[index]) >> np.uint64(11)).astype(np.float64) * (1.0 / (1 << 53))
    noise = -np.log(-np.log(np.clip(u, 1e-300, 1 - 1e-16)))
    noisy = score + (temperature * noise).astype(np.float32)
    return int(index[np.argmax(noisy)]) if len(index) else -1


scores = st.lists(
    st.one_of(
        st.sampled_from([0.0, 1.0, -1.0, 2.5]),  # ties
        st.floats(-50, 50, width=32),
        st.floats(-1e6, 1e6, width=32),
    ),
    max_size=60,
)


@settings(max_examples=400)
@given(scores, st.integers(0, 2**64 - 1), st.sampled_from([0.0, 0.01, 0.3, 1.0, 5.0]), st.integers(0, 2**32))
def test_lazy_noise_chooses_as_noise_on_every_candidate(values, word, temperature, key_seed):
    n = len(values)
    keys = mix64(np.arange(200, dtype=np.uint64) + np.uint64(key_seed))
    index = np.sort(np.random.default_rng(key_seed).choice(200, n, replace=False)).astype(np.int64)
    score = np.array(values, np.float32)
    got = choose(index, score, n, np.uint64(word), keys, temperature, np.empty(n))
    assert got == every_noise_choice(index, score, word, keys, temperature)


def test_a_clear_best_is_chosen_whatever_the_words():
    """One clear best among many poor candidates (all skipped without their noise) wins every time."""
    keys = mix64(np.arange(100, dtype=np.uint64))
    index = np.arange(100, dtype=np.int64)
    score = np.full(100, -10.0, np.float32)
    score[37] = 10.0
    for word in range(50):
        assert choose(index, score, 100, np.uint64(word), keys, 0.3, np.empty(100)) == 37
        assert every_noise_choice(index, score, word, keys, 0.3) == 37
