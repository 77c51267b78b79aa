"""Batched bots: personalities as validated data, legal choices only, features that steer the choice."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as hs
from miracle_positions import BASE, DRAGONS, MELEE, SHIELD, WIND, place, random_games

import simkit
from simkit.core.rng import GameStreams
from simkit.games.miracle import actions as A
from simkit.games.miracle import rules as R
from simkit.games.miracle.batch import bot_names, make_bot
from simkit.games.miracle.bots import RandomBot, UtilityBot, bot_settings


def patch(tmp_path, text: str, name: str = "patch.toml"):
    """A scenario that extends the base file with ``text``."""
    path = tmp_path / name
    path.write_text(f'extends = "{BASE.as_posix()}"\n{text}', encoding="utf-8")
    return simkit.load_scenario(path)


def random_states(base, n: int, steps: int, seed: int = 0) -> R.State:
    """``n`` games over random decks after ``steps`` uniformly random actions each."""
    rules = base.rules
    rng = np.random.default_rng(seed)
    st = random_games(base, n, rng)
    streams = GameStreams(np.arange(n) + 1000 * seed)
    for _ in range(steps):
        R.step(rules, st, RandomBot().act(rules, st, streams))
    return st


def chosen(bot, m, seed: int = 0) -> R.Actions:
    """The bot's action for a single match's game."""
    return bot.act(m.rules, m.state, GameStreams([seed]))


def same(a: R.Actions, b: R.Actions) -> bool:
    return all(np.array_equal(x, y) for x, y in zip(a, b))


def cold(base, name: str) -> UtilityBot:
    """Personality ``name`` without noise (temperature 0), for exact expectations."""
    cfg = bot_settings(base).personalities[name]
    return UtilityBot(type(cfg)(**{**cfg.__dict__, "temperature": 0.0}))


# -- personalities as data ------------------------------------------------------------------


def test_base_scenario_has_the_three_personalities(base):
    """The base scenario defines balanced, rush and control; random is built in."""
    assert {"random", "balanced", "rush", "control"} <= set(bot_names(base))
    assert bot_settings(base).max_actions_per_turn >= 1


def test_a_designer_adds_a_personality_without_code(tmp_path):
    """A [bots.<name>] table in a patch is a new bot, starting from another one's numbers with `like`."""
    sc = patch(tmp_path, "[bots.turtle]\nlike = \"control\"\nadvance = 0.05\n")
    turtle = make_bot(sc, "turtle")
    control = bot_settings(sc).personalities["control"]
    assert turtle.config.weights.advance == 0.05
    assert turtle.config.weights.exposure == control.weights.exposure
    assert "turtle" in bot_names(sc)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[bots.balanced]\nbravery = 1.0\n", ["patch.toml", "bots.balanced.bravery", "unknown key"]),
        ("[bots.balanced]\nadvance = \"far\"\n", ["bots.balanced.advance", "must be a number"]),
        ("[bots.balanced]\ntemperature = -1.0\n", ["bots.balanced.temperature", "at least 0"]),
        ("[bots.balanced]\nhome_guard = 1.5\n", ["bots.balanced.home_guard", "integer"]),
        ("[bots]\nmax_actions_per_turn = 0\n", ["bots.max_actions_per_turn", "at least 1"]),
        ("[bots.random]\nadvance = 1.0\n", ["bots.random", "built-in"]),
        ("[bots.a]\nlike = \"b\"\n[bots.b]\nlike = \"a\"\n", ["circular"]),
        ("[bots.a]\nlike = \"nobody\"\n", ["bots.a.like", "balanced"]),
        ("[bots]\nspeed = 3\n", ["bots.speed", "unknown key"]),
        ("[bots.partial]\ntemperature = 0.1\n", ["bots.partial", "missing key"]),
    ],
)
def test_bad_bot_tables_are_rejected_naming_file_and_key(tmp_path, text, words):
    """Every problem in [bots] is refused when the scenario loads, naming the file and the key."""
    with pytest.raises(simkit.ScenarioError) as err:
        patch(tmp_path, text)
    for word in words:
        assert word in str(err.value)


def test_unknown_bot_name_lists_the_known_ones(base):
    """Asking for a bot the scenario does not define names every known bot."""
    with pytest.raises(ValueError, match="known: random, balanced, rush, control"):
        make_bot(base, "genius")


# -- legal choices on any state ----------------------------------------------------------------


@pytest.fixture(scope="module")
def late(base) -> R.State:
    """Six games after 500 random actions (around turn 55: artifacts used, cooling or in use)."""
    return random_states(base, 6, 500, 3)


@pytest.mark.parametrize("name", ["random", "balanced", "rush", "control"])
def test_bots_choose_only_legal_actions(base, late, name):
    """Every chosen action is legal in the engine's flat mask, on states from early to late game."""
    rules = base.rules
    bot = make_bot(base, name)
    for st in (random_states(base, 6, 0, 1), random_states(base, 6, 40, 2), late.copy()):
        legal = R.legal_mask(rules, st)
        act = bot.act(rules, st, GameStreams(np.arange(6)))
        before = st.copy()
        R.step(rules, st, act)  # the engine accepts it
        live = ~before.over
        flat = _flat_index(rules, before, act)
        assert legal[np.nonzero(live)[0], flat[live]].all()


def _flat_index(rules, st, act) -> np.ndarray:
    """The flat layout index of each action (inverse of ``actions.decode``)."""
    c, u = rules.board.grid.size, rules.unit_slots
    lay = A.layout(rules)
    out = np.full(st.batch, -1)
    k = act.kind
    out = np.where(k == R.SUMMON, lay["summon"][0] + act.a * 3 * c + (act.b - 1) * c + act.c, out)
    out = np.where(k == R.MOVE, lay["move"][0] + act.a * c + act.c, out)
    target = np.where(act.b == R.TARGET_MIRACLE, u, act.b)
    out = np.where(k == R.ATTACK, lay["attack"][0] + act.a * (u + 1) + target, out)
    cells, units = R.use_mask(rules, st)
    on_unit = units.any(1)
    out = np.where((k == R.USE) & ~on_unit, lay["use_cell"][0] + act.c, out)
    out = np.where((k == R.USE) & on_unit, lay["use_unit"][0] + act.b, out)
    return np.where(k == R.END_TURN, lay["end_turn"][0], out)


def test_utility_scores_are_finite_exactly_on_legal_actions(base, late):
    """A utility bot scores every legal action and nothing else."""
    rules = base.rules
    for name in ("balanced", "rush", "control"):
        bot = make_bot(base, name)
        for st in (random_states(base, 5, 0, 4), random_states(base, 5, 60, 5), late):
            assert np.array_equal(np.isfinite(bot.scores(rules, st)), R.legal_mask(rules, st))


def every_bot_acts(base, seed: int, steps: int, names) -> None:
    """Each bot of ``names`` gives every game of a state reached by ``steps`` legal actions an action (PASS only
    when over)."""
    rules = base.rules
    st = random_states(base, 3, steps, seed)
    for name in names:
        act = make_bot(base, name).act(rules, st, GameStreams(np.arange(3) + seed))
        assert ((act.kind == R.PASS) == st.over).all()


@given(seed=hs.integers(0, 10_000), steps=hs.integers(0, 120))
def test_bots_never_raise_on_reachable_states(base, seed, steps):
    """Any state reached by legal play gets an action from every utility bot, the random bot and the first search
    rung (PASS only when over); the deeper rungs run the same search with larger budgets (the slow test below)."""
    every_bot_acts(base, seed, steps, [n for n in bot_names(base) if "search" not in n or n == "search-1"])


@pytest.mark.slow
@given(seed=hs.integers(0, 10_000), steps=hs.integers(0, 120))
def test_every_bot_of_every_search_rung_never_raises_on_reachable_states(base, seed, steps):
    """Any state reached by legal play gets an action from every bot the scenario names, every search rung of
    every personality too (PASS only when over)."""
    every_bot_acts(base, seed, steps, bot_names(base))


def test_a_finished_game_gets_a_pass(base):
    """Games that are over are passed over, the others still get an action."""
    rules = base.rules
    st = random_states(base, 2, 0)
    st.over[0] = True
    act = make_bot(base, "balanced").act(rules, st, GameStreams([0, 1]))
    assert act.kind[0] == R.PASS and act.kind[1] != R.PASS


# -- randomness ---------------------------------------------------------------------------------


def test_temperature_noise_comes_from_each_games_own_stream(base):
    """Same seeds give the same choices; other seeds give other choices; one game's choice ignores the batch."""
    rules = base.rules
    bot = make_bot(base, "balanced")
    st = random_states(base, 8, 30, 7)
    a = bot.act(rules, st, GameStreams(np.arange(8)))
    b = bot.act(rules, st, GameStreams(np.arange(8)))
    assert same(a, b)
    differ = 0
    for shift in range(1, 6):
        c = bot.act(rules, st, GameStreams(np.arange(8) + 100 * shift))
        differ += int((c.kind != a.kind).sum() + ((c.kind == a.kind) & ((c.a != a.a) | (c.c != a.c))).sum())
    assert differ > 0
    alone = bot.act(rules, st.take([3]), GameStreams([3]))
    assert same(alone, R.Actions(*(x[[3]] for x in a)))


def test_zero_temperature_is_deterministic_and_draws_nothing(base):
    """With temperature 0 the best action is played whatever the seed, and the stream is not advanced."""
    rules = base.rules
    bot = cold(base, "balanced")
    st = random_states(base, 4, 20, 8)
    s1, s2 = GameStreams(np.arange(4)), GameStreams(np.arange(4) + 99)
    assert same(bot.act(rules, st, s1), bot.act(rules, st, s2))
    assert (s1.counter == 0).all()


# -- features steer the choice ------------------------------------------------------------------


def test_the_blow_that_destroys_the_miracle_is_played(base):
    """With the enemy miracle at 2 HP and a unit in reach, the bot destroys it rather than kill a unit."""
    m = base.new_match(MELEE, DRAGONS)
    m.state.miracle_hp[0, 1] = 2
    uid = place(m, "Swordsman", (7, -6, -1))
    place(m, "VolcanoDragon", (6, -6, 0), side=1, hp=1)
    act = chosen(cold(base, "balanced"), m)
    assert same(act, m.encode(("attack", uid, "miracle")))


def test_a_kill_is_preferred_to_a_losing_trade(base):
    """Attacking a target it kills scores above attacking a stronger one whose counter kills the attacker."""
    m = base.new_match(MELEE, SHIELD)
    uid = place(m, "Swordsman", (0, 3, -3), level=2)
    weak = place(m, "Swordsman", (1, 3, -4), side=1, level=1)
    strong = place(m, "Swordsman", (-1, 3, -2), side=1, level=3)
    scores = cold(base, "balanced").scores(m.rules, m.state)[0]
    kill, trade = (_flat_index(m.rules, m.state, m.encode(("attack", uid, t)))[0] for t in (weak, strong))
    assert scores[kill] > scores[trade]


def test_nothing_worth_more_than_ending_the_turn_ends_it(tmp_path):
    """A personality whose end_turn outweighs every action ends the turn at once."""
    sc = patch(tmp_path, "[bots.idle]\nlike = \"balanced\"\nend_turn = 1000.0\ntemperature = 0.0\n")
    m = sc.new_match(MELEE, DRAGONS)
    assert len(m.legal_actions()) > 1
    assert same(chosen(make_bot(sc, "idle"), m), m.encode(("end_turn",)))


def test_a_defender_shoots_the_unit_attacking_the_own_miracle(base):
    """An Archer at home shoots the bat at its miracle instead of marching on."""
    m = base.new_match(MELEE, DRAGONS)
    m.state.mana[0, 0] = 0
    archer = place(m, "Archer", (-4, 3, 1))
    bat = place(m, "BlackBat", (-6, 6, 0), side=1)
    act = chosen(cold(base, "balanced"), m)
    assert same(act, m.encode(("attack", archer, bat)))


def _use_cells(bot, m) -> np.ndarray:
    """Scores of the artifact on each cell for a single match."""
    lo, hi = A.layout(m.rules)["use_cell"]
    return bot.scores(m.rules, m.state)[0, lo:hi]


def test_holy_light_goes_where_it_heals_most(base):
    """HolyLight's best cell covers the cluster of wounded friends, not the lone healthy unit."""
    m = base.new_match(MELEE, DRAGONS)
    m.state.mana[0, 0] = 6
    wounded = [place(m, "Swordsman", c, level=2, hp=1) for c in ((-2, 2, 0), (-2, 3, -1), (-3, 3, 0))]
    place(m, "Swordsman", (3, 3, -6), level=2)
    best = int(np.argmax(_use_cells(cold(base, "balanced"), m)))
    grid = m.rules.board.grid
    for uid in wounded:
        slot = int(np.nonzero(m.state.uid[0] == uid)[0][0])
        assert grid.distance[best, m.state.cell[0, slot]] <= m.rules.cards.effect["HolyLight"]["radius"]


def test_inferno_flame_goes_where_it_burns_most(base):
    """InfernoFlame's best cell is within reach of the most enemies."""
    m = base.new_match(DRAGONS, MELEE)
    m.state.mana[0, 0] = 8
    enemies = [place(m, "Swordsman", c, side=1) for c in ((-3, 4, -1), (-3, 5, -2), (-2, 4, -2))]
    place(m, "Archer", (-7, 2, 5), side=1)
    scores = _use_cells(cold(base, "balanced"), m)
    best = int(np.argmax(scores))
    cells = [int(m.state.cell[0, np.nonzero(m.state.uid[0] == e)[0][0]]) for e in enemies]
    radius = m.rules.cards.effect["InfernoFlame"]["radius"]
    assert all(m.rules.board.grid.distance[best, c] <= radius for c in cells)


def test_salamander_shield_goes_on_the_strongest_front_unit(base):
    """SalamanderShield picks the big unit facing enemies over a small one at home."""
    m = base.new_match(SHIELD, MELEE)
    m.state.mana[0, 0] = 6
    front = place(m, "Swordsman", (2, 0, -2), level=3, ready=False)
    place(m, "Swordsman", (-6, 6, 0), level=1, ready=False)
    place(m, "Swordsman", (3, 1, -4), side=1, level=1)
    lo, hi = A.layout(m.rules)["use_unit"]
    best = int(np.argmax(cold(base, "balanced").scores(m.rules, m.state)[0, lo:hi]))
    assert int(m.state.uid[0, best]) == front


def test_wind_blessing_waits_until_the_cluster_has_acted(base):
    """WindBlessing on a cluster scores higher once its units have acted than while they may still act."""
    m = base.new_match(WIND, MELEE)
    m.state.mana[0, 0] = 8
    cluster = [place(m, "Swordsman", c) for c in ((-2, 2, 0), (-2, 3, -1), (-3, 3, 0))]
    bot = cold(base, "balanced")
    center = m.rules.board.grid.index((-2, 3, -1))
    fresh = _use_cells(bot, m)[center]
    for uid in cluster:
        m.state.ready[0, np.nonzero(m.state.uid[0] == uid)[0][0]] = False
    assert _use_cells(bot, m)[center] > fresh


def test_personalities_weigh_the_same_move_differently(base):
    """Rush values a forward move more than control does (weights are the personality)."""
    m = base.new_match(MELEE, DRAGONS)
    m.state.mana[0, 0] = 0
    uid = place(m, "Swordsman", (-5, 5, 0))
    target = m.encode(("move", uid, (-3, 4, -1)))
    idx = _flat_index(m.rules, m.state, target)[0]
    rush = cold(base, "rush").scores(m.rules, m.state)[0, idx]
    control = cold(base, "control").scores(m.rules, m.state)[0, idx]
    assert rush > control
