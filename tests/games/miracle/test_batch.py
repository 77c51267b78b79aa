"""Batched play equals single play: B games run together end in exactly the states each reaches alone."""

import numpy as np
import pytest
from miracle_positions import patch_scenario

from simkit.core.rng import GameStreams, derive_seed
from simkit.games.miracle import actions as A
from simkit.games.miracle import rules as R
from simkit.games.miracle.cards import parse_deck
from simkit.games.miracle.state import State

END_TURN_CHANCE = 0.2


def random_decks(scenario, games: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """``(artifact int[B, 2], kinds int[B, 2, 3])`` of random deck pairings from the scenario's pool."""
    rng = np.random.default_rng(seed)
    pairs = rng.integers(0, len(scenario.decks), (games, 2))
    parsed = [[parse_deck(scenario.rules.cards, scenario.decks[d]) for d in row] for row in pairs]
    return np.array([[p[0] for p in row] for row in parsed]), np.array([[p[1] for p in row] for row in parsed])


def play(rules, artifact, kinds, seeds, steps: int) -> State:
    """Play ``steps`` actions in every game: uniform over the legal mask, ending the turn one time in five."""
    st = R.new_games(rules, artifact, kinds)
    streams = GameStreams(seeds)
    end_turn = A.layout(rules)["end_turn"][0]
    for _ in range(steps):
        if st.over.all():
            break
        u = streams.uniform(2)
        pick = A.sample_uniform(R.legal_mask(rules, st), u[:, 0])
        pick = np.where((u[:, 1] < END_TURN_CHANCE) & ~st.over, end_turn, pick)
        R.step(rules, st, A.decode(rules, pick))
    return st


def assert_same_as_alone(rules, artifact, kinds, seeds, steps: int) -> State:
    together = play(rules, artifact, kinds, seeds, steps)
    for i in range(len(seeds)):
        alone = play(rules, artifact[i:i + 1], kinds[i:i + 1], seeds[i:i + 1], steps)
        assert together.take([i]).equals(alone), f"game {i} differs when played in the batch"
    return together


def test_batch_of_16_random_games_equals_each_game_alone(base):
    """16 games with random decks, played 240 actions together, end exactly as each does alone."""
    artifact, kinds = random_decks(base, 16, seed=11)
    seeds = np.array([derive_seed("batch", i) for i in range(16)], dtype=np.int64)
    st = assert_same_as_alone(base.rules, artifact, kinds, seeds, steps=240)
    # the run is not vacuous: fights, deaths and artifacts happened and the games diverged
    assert st.dead_stars.sum() > 0 and (st.artifact_state != 0).any()
    assert len({tuple(row) for row in st.hp}) == 16


def test_batch_with_games_ending_at_different_steps_equals_each_alone(tmp_path):
    """With a 16-turn limit, games that end early stay untouched while the others play on, as alone."""
    sc = patch_scenario(tmp_path, "[rules]\nturn_limit = 16\n")
    artifact, kinds = random_decks(sc, 16, seed=12)
    seeds = np.array([derive_seed("ending", i) for i in range(16)], dtype=np.int64)
    st = assert_same_as_alone(sc.rules, artifact, kinds, seeds, steps=400)
    assert st.over.all() and (st.turn == 16).all()


def test_batch_results_do_not_depend_on_batch_order(base):
    """Reversing the order of the games in the batch reverses the final states and changes nothing else."""
    artifact, kinds = random_decks(base, 16, seed=13)
    seeds = np.arange(16, dtype=np.int64) + 500
    forward = play(base.rules, artifact, kinds, seeds, steps=120)
    backward = play(base.rules, artifact[::-1], kinds[::-1], seeds[::-1], steps=120)
    assert forward.equals(backward.take(np.arange(16)[::-1]))


@pytest.mark.slow
def test_batch_of_32_full_games_equals_each_game_alone(base):
    """32 whole 100-turn games with random decks end exactly as each does alone."""
    artifact, kinds = random_decks(base, 32, seed=14)
    seeds = np.array([derive_seed("full", i) for i in range(32)], dtype=np.int64)
    st = assert_same_as_alone(base.rules, artifact, kinds, seeds, steps=10_000)
    assert st.over.all()
