"""The kit's one compiled search (simkit/games/kits/turn_search.py): plugged into a game by its six declared
hooks, and on a toy game of chance small enough to value by hand, it keeps the policy's plan unless another
beats it by the margin, values plans over determinizations and draws only from the game's streams."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from simkit.games.kits import turn_search as K
from simkit.games.kits.mix import mix64
from simkit.games.kits.turn_search import HOOKS, compile_turn_search

# ---- a toy game: each seat in turn names a number 0..3 and scores it, plus a die (0 or 2) that salt > 0
# re-keys; five turns. ctx = (real games int64[G, 4], work int64[4]: score 0, score 1, turn, chance key;
# noted int64[2]: beside a recorded action, 10 times it plus the turn it was played in).


@numba.njit(cache=True)
def _die(state):
    return 2 * np.int64(mix64(np.uint64(state[3]) ^ np.uint64(state[2] + 1)) % np.uint64(2))


@numba.njit(cache=True)
def copy_game(ctx, g, seat, salt):
    ctx[1][:] = ctx[0][g]
    if salt > 0:
        ctx[1][3] = 1000 + salt


@numba.njit(cache=True)
def play_turn(ctx, bot, temperature, keys, counter, k, cap, record):
    w = ctx[1]
    word = mix64(keys[k] ^ mix64(counter[k]))
    counter[k] += np.uint64(1)
    a = np.int64(bot[0]) if temperature == 0 else np.int64(word % np.uint64(4))
    if record.shape[0] > 0:
        record[0] = a
        ctx[2][0] = 10 * a + w[2]
    w[w[2] % 2] += a + _die(w)
    w[2] += 1
    return 1


@numba.njit(cache=True)
def replay(ctx, plan, n):
    w = ctx[1]
    if plan[0] > 3:
        return False
    w[w[2] % 2] += plan[0] + _die(w)
    w[2] += 1
    return True


@numba.njit(cache=True)
def game_over(ctx):
    return ctx[1][2] >= 5


@numba.njit(cache=True)
def to_act(ctx):
    return ctx[1][2] % 2


@numba.njit(cache=True)
def value(ctx, seat, bot, weights):
    return np.float64(ctx[1][seat] - ctx[1][1 - seat]) * weights[0]


SEARCH = compile_turn_search({"copy_game": copy_game, "play_turn": play_turn, "replay": replay,
                              "game_over": game_over, "to_act": to_act, "value": value}, __file__)


def _search(plans=8, samples=1, margin=0.0, policy_action=0, policy_temperature=None, games=None, g=0, key=7,
            noted=None):
    games = np.zeros((1, 4), np.int64) if games is None else games
    ctx = (games, np.zeros(4, np.int64), np.zeros(2, np.int64))
    params = np.zeros(K.PARAMS if policy_temperature is None else K.PARAMS + 1)
    params[K.PLANS], params[K.DEPTH], params[K.TEMPERATURE] = plans, 0, 1.0
    params[K.SAMPLES], params[K.MARGIN] = samples, margin
    if policy_temperature is not None:
        params[K.POLICY_TEMPERATURE] = policy_temperature
    keys = np.full(games.shape[0], key, np.uint64)
    counter = np.zeros(games.shape[0], np.uint64)
    plan, best, seen = np.zeros(2, np.int64), np.zeros(2, np.int64), np.zeros(plans, np.uint64)
    args = () if noted is None else (ctx[2], noted)
    n = SEARCH(ctx, g, 0, np.array([float(policy_action)]), np.array([0.0]), params, np.array([1.0]), keys,
               counter, 1, plan, best, seen, *args)
    return int(best[0]), n, counter


def test_the_hooks_are_the_declared_six():
    """The search knows a game through exactly six hooks, named in the kit."""
    assert HOOKS == ("copy_game", "play_turn", "replay", "game_over", "to_act", "value")


def test_a_missing_or_unknown_hook_is_named():
    """Compiling the search against a wrong set of hooks names what is missing and what is unknown."""
    from simkit.games.duel import fast_search

    hooks = {name: getattr(fast_search, name) for name in HOOKS if name != "value"}
    hooks["valu"] = fast_search.value
    with pytest.raises(TypeError, match=r"missing \['value'\], unknown \['valu'\]"):
        compile_turn_search(hooks, fast_search.__file__)


def test_one_plan_is_the_policys_own_draw_from_the_games_stream():
    """plans = 1: the policy's plan, one word drawn from the game's stream and nothing else."""
    action, n, counter = _search(plans=1, policy_action=2, policy_temperature=0.0)
    assert (action, n, counter.tolist()) == (2, 1, [1])


def test_another_plan_replaces_the_policys_only_by_more_than_the_margin():
    """The policy names 0; the noisy candidates name every number 0..3 among 8 plans. Margin 0: the best
    number (3, worth 3 more than 0 on the same die) wins; a margin of 3 keeps 0 (3 does not beat it by more
    than 3); a margin just under 3 lets 3 through."""
    assert _search(margin=0.0, policy_temperature=0.0)[0] == 3
    assert _search(margin=3.0, policy_temperature=0.0)[0] == 0
    assert _search(margin=2.9, policy_temperature=0.0)[0] == 3


def test_without_a_policy_temperature_the_first_candidate_is_a_noisy_draw():
    """The seventh param is optional: without it the first candidate is drawn at the candidates' temperature
    (here a draw from the stream, not the policy's fixed 0), so a huge margin keeps that draw."""
    keys = np.array([7], np.uint64)
    first = int(mix64(keys[0] ^ mix64(np.uint64(0))) % np.uint64(4))
    assert _search(margin=100.0)[0] == first


def test_samples_value_a_plan_on_every_determinization_whatever_the_batch():
    """With 4 samples every distinct plan is replayed on salts 1..3 besides the drawing copy: the search
    still finds the best number, and the result does not depend on the game's index in the batch."""
    games = np.zeros((3, 4), np.int64)
    games[:, 3] = [5, 9, 11]
    alone = _search(samples=4, games=games[1:2].copy(), g=0)
    batch = _search(samples=4, games=games, g=1)
    assert alone[0] == batch[0] == 3 and alone[2][0] == batch[2][1]


def _halving_search(plans=8, samples=4, margin=0.0, games=None, g=0, noted=None):
    games = np.zeros((1, 4), np.int64) if games is None else games
    ctx = (games, np.zeros(4, np.int64), np.zeros(2, np.int64))
    params = np.zeros(K.HALVING + 1)
    params[K.PLANS], params[K.DEPTH], params[K.TEMPERATURE], params[K.POLICY_TEMPERATURE] = plans, 0, 1.0, 0.0
    params[K.SAMPLES], params[K.MARGIN], params[K.HALVING] = samples, margin, 1.0
    keys = np.full(games.shape[0], 7, np.uint64)
    counter = np.zeros(games.shape[0], np.uint64)
    plan, best, seen = np.zeros(2, np.int64), np.zeros(2, np.int64), np.zeros(plans, np.uint64)
    args = () if noted is None else (ctx[2], noted)
    n = SEARCH(ctx, g, 0, np.array([0.0]), np.array([0.0]), params, np.array([1.0]), keys, counter, 1, plan,
               best, seen, *args)
    return int(best[0]), n, counter


def test_halving_rounds_halve_the_others_down_to_one():
    """Sequential halving's rounds: one per halving of the candidates besides the policy's own until one is
    left, plus that last round (1 other: 1 round; 2: 2; 3: 3; 15 and 16: 5; 17: 6)."""
    assert [K.halving_rounds(n) for n in (1, 2, 3, 4, 15, 16, 17)] == [1, 2, 3, 3, 5, 5, 6]


def test_halve_keeps_the_better_half_of_the_others_and_the_policys_plan():
    """Candidates 0..6 (0 the policy's own, worth least) valued 0, 5, 1, 5, 9, 2, 1: of the six others the
    three best stay (9 and the two 5s), in drawing order, after the policy's plan; a tie keeps the earlier
    drawn (1 of candidates 2 and 6 would stay if only one more fitted)."""
    alive = np.arange(7)
    value = np.array([0.0, 5.0, 1.0, 5.0, 9.0, 2.0, 1.0])
    assert K.halve(value, alive, 7) == 4
    assert alive[:4].tolist() == [0, 1, 3, 4]
    alive = np.array([0, 2, 6])
    assert K.halve(np.array([0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]), alive, 3) == 2 and alive[:2].tolist() == [0, 2]


def test_halving_finds_the_best_plan_and_keeps_the_margin():
    """With halving on (the eighth param) the toy search still names 3, the best number, among 8 plans; a
    margin of 3 keeps the policy's 0; and the choice does not depend on the game's index in the batch."""
    assert _halving_search()[0] == 3
    assert _halving_search(plans=16, samples=2)[0] == 3
    assert _halving_search(margin=3.0)[0] == 0
    games = np.zeros((3, 4), np.int64)
    games[:, 3] = [5, 9, 11]
    alone = _halving_search(games=games[1:2].copy(), g=0)
    batch = _halving_search(games=games, g=1)
    assert alone[0] == batch[0] == 3 and alone[2][0] == batch[2][1]


def test_halving_off_is_the_uniform_search():
    """An eighth param of 0 is the uniform search: the same choice and the same draws as without it."""
    params_off = _search(samples=4, policy_temperature=0.0)
    games = np.zeros((1, 4), np.int64)
    ctx = (games, np.zeros(4, np.int64), np.zeros(2, np.int64))
    params = np.zeros(K.HALVING + 1)
    params[K.PLANS], params[K.TEMPERATURE], params[K.SAMPLES] = 8, 1.0, 4
    keys, counter = np.full(1, 7, np.uint64), np.zeros(1, np.uint64)
    plan, best, seen = np.zeros(2, np.int64), np.zeros(2, np.int64), np.zeros(8, np.uint64)
    n = SEARCH(ctx, 0, 0, np.array([0.0]), np.array([0.0]), params, np.array([1.0]), keys, counter, 1, plan, best,
               seen)
    assert (int(best[0]), n, counter.tolist()) == (params_off[0], params_off[1], params_off[2].tolist())


@pytest.mark.parametrize(("search", "kwargs", "action"), [
    (_search, {"plans": 1, "policy_action": 2, "policy_temperature": 0.0}, 2),  # the policy's own plan
    (_search, {"policy_temperature": 0.0}, 3),  # another plan beat it: the kept figure is that plan's
    (_search, {"margin": 3.0, "policy_temperature": 0.0}, 0),  # the policy's plan, drawn first, kept
    (_search, {"samples": 4, "games": np.array([[0, 0, 2, 9]])}, 3),  # replays on salts 1..3 note nothing
    (_halving_search, {}, 3),  # kept through the halving rounds
    (_halving_search, {"margin": 3.0}, 0),
])
def test_the_figures_noted_beside_a_plan_are_the_chosen_plans(search, kwargs, action):
    """A figure play_turn notes beside each recorded action (here 10 x the action + the turn) comes back with
    the chosen plan, in every path: one plan, the uniform search whether another plan or the policy's wins,
    with several determinizations, and sequential halving; choices and draws are those of the search without
    it. The turn is 2 in one game, so the note is told from the action's alone."""
    noted = np.full(2, -1, np.int64)
    chosen, n, counter = search(**kwargs, noted=noted)
    plain = search(**kwargs)
    assert (chosen, n, counter.tolist()) == (plain[0], plain[1], plain[2].tolist())
    turn = int(kwargs["games"][0, 2]) if "games" in kwargs else 0
    assert chosen == action and noted[0] == 10 * action + turn and n == 1
