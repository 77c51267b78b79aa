"""The utility bots list the legal actions the rules list, and their two game loops play the same games.

The bots enumerate the legal actions while scoring them, with the rules' own predicates
(``fast/legal.py``); over states of real games (utility bots against each other and against random
play, over decks covering every artifact and creature: threats, garrisons, priests' auras, dragons'
splash and the four artifacts) they offer exactly the rules' legal mask. Utility bots' games are
played wholly in compiled code (``fast/game.py``) or one batched step at a time from Python
(``play.py``, when actions are recorded): both loops play the same games.
"""

from __future__ import annotations

import numpy as np
import pytest
from miracle_positions import nan_as_none, random_games

import simkit
from simkit.core.rng import GameStreams
from simkit.games.miracle import rules as R
from simkit.games.miracle.batch import _choose, make_bot
from simkit.games.miracle.bots import RandomBot

PAIRINGS = (("balanced", "rush"), ("control", "balanced"), ("rush", "random"))


def game_states(base, pairing, n: int = 16, every: int = 5, seed: int = 0) -> list[R.State]:
    """Every ``every``-th state of ``n`` games between the bots of ``pairing`` over random decks."""
    rules = base.rules
    rng = np.random.default_rng(seed)
    st = random_games(base, n, rng)
    streams = GameStreams(np.arange(n) + 7919 * seed)
    bots = tuple(RandomBot() if name == "random" else make_bot(base, name) for name in pairing)
    out, k, in_turn = [], 0, np.zeros(n, np.int64)
    while not st.over.all():
        if k % every == 0:
            out.append(st.copy())
        act = _choose(rules, bots, st, streams)
        act.kind[in_turn >= 80] = R.END_TURN
        R.step(rules, st, act)
        in_turn = np.where(act.kind == R.END_TURN, 0, in_turn + 1)
        k += 1
    return out


@pytest.fixture(scope="module")
def states(base):
    return [st for i, pairing in enumerate(PAIRINGS) for st in game_states(base, pairing, seed=i)]


@pytest.mark.parametrize("personality", ["balanced", "rush", "control"])
def test_bots_offer_exactly_the_legal_actions(base, states, personality):
    """Every action a utility bot scores is legal, and every legal action is scored (finite score)."""
    bot = make_bot(base, personality)
    bad = []
    for i, st in enumerate(states):
        offered, legal = np.isfinite(bot.scores(base.rules, st)), R.legal_mask(base.rules, st)
        if not np.array_equal(offered, legal):
            g, j = np.argwhere(offered != legal)[0]
            bad.append(f"state {i} game {g} action {j}: offered {offered[g, j]}, legal {legal[g, j]}")
    assert not bad, f"{len(bad)} of {len(states)} batches differ; first: {bad[0]}"


CAPPED = """
[rules]
turn_limit = 30

[bots]
max_actions_per_turn = 3
"""

# A narrower, wider map than the base one (11 rows of up to 19 cells), its miracles and abyss
# splitting rows: the compiled move search's row bitboards must follow any board.
ODD_MAP = """
[map]
bounds = [5, 9, 11]
miracles = [[-4, 6, -2], [4, -6, 2]]
off_board = []
spawn_points = [
  [[-5, 6, -1], [-3, 6, -3], [-4, 5, -1], [-4, 7, -3], [-5, 7, -2]],
  [[5, -6, 1], [3, -6, 3], [4, -5, 1], [4, -7, 3], [5, -7, 2]],
]
abyss = [[0, 0, 0], [0, 1, -1], [1, -1, 0], [-2, 3, -1], [2, -3, 1], [-1, -8, 9], [1, 8, -9]]

[[map.garrisons]]
cell = [0, -4, 4]
spawn_points = [[1, -4, 3], [-1, -4, 5]]

[[map.garrisons]]
cell = [0, 4, -4]
spawn_points = [[-1, 4, -3], [1, 4, -5]]
"""
PATCHES = {"capped": CAPPED, "odd_map": ODD_MAP}


@pytest.mark.parametrize("scenario", ["base", "capped", "odd_map"])
@pytest.mark.parametrize("pairing", [("balanced", "balanced"), ("rush", "control")])
def test_whole_games_in_compiled_code_play_the_batched_games(base, tmp_path, scenario, pairing):
    """``play_batch`` plays utility bots' games wholly in compiled code (``fast/game.py``); the same bots
    and rules, one batched step at a time from Python (recorded actions), play the same games (a cap of
    3 actions a turn forces many turn ends, whose random words must still be drawn; an odd map, other
    board geometry)."""
    if scenario in PATCHES:
        path = tmp_path / f"{scenario}.toml"
        path.write_text(f'extends = "{base.path.as_posix()}"\n{PATCHES[scenario]}', encoding="utf-8")
        base = simkit.load_scenario(path)
    rng = np.random.default_rng(11)
    first, second = (list(rng.choice(base.decks, 6)) for _ in range(2))
    seeds = list(range(200, 206))
    compiled = base.game.play_batch(first, second, seeds, pairing)
    reference = base.game.play_batch(first, second, seeds, pairing, record_actions=True)
    actions = reference.pop("action_list")
    assert nan_as_none(compiled) == nan_as_none(reference)
    if scenario == "capped":  # the cap ended turns: runs of 3 actions, never more
        turns = ["".join("e" if a[0] == "end_turn" else "a" for a in game) for game in actions]
        assert max(len(run) for t in turns for run in t.split("e")) == 3
