"""Magic War's search bots: data in `[bots.search-N]`, the seat's view (nothing hidden peeked), plans that stop
at chance, one plan = the policy's game, seeded and batch-free games, both speeds, and the CLI."""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import simkit
from simkit.core.errors import ScenarioError
from simkit.games.kits.state import snapshot
from simkit.games.magic.batch import bot_tables
from simkit.games.magic.match import Match
from simkit.games.magic.search import copy_game, decode, encode, new_context, play_turn, replay, root_of
from simkit.games.magic.search_loop import PARAMS, search_plan
from simkit.games.magic.search_play import PLAN_CAP
from simkit.scenario import scenario_from_data
from simkit.testing.api import api_test
from tests.magic_positions import BASE, position, scenario

ROOT = Path(__file__).resolve().parents[3]
#: a cheap rung for the slow paths (uncompiled play): two plans, one sample, the rest of the turn
TINY = {"like": "search-1", "plans": 2, "samples": 1, "depth": 1}
#: the same by sequential halving over more candidates
TINY_HALVING = {"like": "search-1", "plans": 5, "samples": 2, "depth": 1, "halving": True}


def with_bots(**tables):
    """The base scenario with ``tables`` added to ``[bots]``."""
    data = copy.deepcopy(scenario().data)
    data["bots"].update(tables)
    return scenario_from_data(data, str(BASE))


def ctx_of(sc):
    return new_context(sc.rules.packed)


def plan_of(sc, s, bot="search-2", key=5):
    """The plan ``bot`` chooses for the seat to act in game ``s`` (its words), from bot stream ``key``."""
    kinds, policy, reply, params, values = bot_tables(sc, (bot, bot))
    p = int(s.to_act)
    ctx = ctx_of(sc)
    root_of(s, key, ctx[1])
    most = int(params[p, 0])
    plan, best, seen = np.zeros(PLAN_CAP + 2, np.int64), np.zeros(PLAN_CAP + 2, np.int64), np.zeros(most, np.uint64)
    keys, counters = np.array([key, key + 1], np.uint64), np.zeros(2, np.uint64)
    n = search_plan(ctx, p, p, policy[p], reply[p], params[p], values[p], keys, counters, PLAN_CAP, plan, best, seen)
    return [int(x) for x in best[:n]]


def midgame(seed=3, actions=40):
    """A real game of balanced bots stopped after ``actions`` actions (in play, cards drawn)."""
    sc = scenario()
    a, b = sc.game.seat_decks()
    m = Match(sc, a[2], b[5], seed=seed)
    rows = sc.game.play_batch([a[2]], [b[5]], [seed], ("balanced", "balanced"), record_actions=True)["action_list"][0]
    for act in rows[:actions]:
        m.do(act)
    return sc, m


# ---- data --------------------------------------------------------------------------------------------------------


def test_search_rungs_are_data():
    """`[bots.search-N]` tables are bots of the scenario, their budgets and weights read from it."""
    sc = scenario()
    assert {"search-1", "search-2"} <= set(sc.game.bot_names())
    kinds, policy, reply, params, values = bot_tables(sc, ("search-1", "search-2"))
    assert list(kinds) == [2, 2] and params.shape == (2, PARAMS)
    t = sc.data["bots"]
    assert params[0, 0] == t["search-1"]["plans"] and params[1, 0] == t["search-2"]["plans"]
    assert values[0].win == t["search-1"]["value_win"] and policy[0] == policy[1]


@pytest.mark.parametrize("key, value, problem", [
    ("plans", 0, "bots.bad.plans: must be at least 1"),
    ("samples", 2.5, "bots.bad.samples: must be an integer"),
    ("value_army", float("nan"), "bots.bad.value_army: must be a finite number"),
    ("policy", "search-1", "bots.bad.policy: must name a utility personality"),
    ("lookahead", 2, "bots.bad.lookahead: unknown key"),
    ("halving", "yes", "bots.bad.halving: must be true or false"),
])
def test_bad_search_keys_are_refused_in_one_line(tmp_path, key, value, problem):
    """A bad `[bots.<name>]` key of a search bot: `file: bots.<name>.<key>: problem`, one line, at load."""
    table = {"like": "search-1", key: value}
    path = tmp_path / "bad.toml"
    lines = [f'extends = "{BASE}"', "[bots.bad]"]
    lines += [f"{k} = {json.dumps(v) if not isinstance(v, float) or v == v else 'nan'}" for k, v in table.items()]
    path.write_text("\n".join(lines) + "\n")
    with pytest.raises(ScenarioError) as e:
        simkit.load_scenario(path)
    msg = str(e.value)
    assert msg.startswith(f"{path}: ") and problem in msg and "\n" not in msg


# ---- the hooks ---------------------------------------------------------------------------------------------------


def hidden_reversed(m, dice_change):
    """A clone of match ``m`` whose dice key and whose cards hidden from the seat to act (the opponent's hand, the
    pile left) are changed: the key by ``dice_change``, the hidden cards put in reverse order."""
    other = m.clone()
    g = other.state
    g.dice_key = dice_change(int(g.dice_key))
    side = g.sides[1 - int(g.to_act)]
    h, kp, nd = int(side.held), int(g.pile_drawn), int(g.pile_size)
    pool = np.concatenate([side.hand[:h], g.pile[kp:nd]])[::-1]
    side.hand[:h], g.pile[kp:nd] = pool[:h], pool[h:]
    return other


def test_the_view_never_reads_the_dice_and_redeals_only_hidden_cards():
    """The root takes its dice key from the bot stream: two games that differ in their dice tape and in the order
    of what the seat cannot see (the opponent's hand, the pile) give the same determinizations; the own hand
    is kept, the hidden cards keep their multiset, and salts differ in dice."""
    sc, m = midgame()
    s = m.state
    seat = int(s.to_act)
    other = hidden_reversed(m, lambda key: key + 12345).state
    side = s.sides[1 - seat]
    h, kp, nd = int(side.held), int(s.pile_drawn), int(s.pile_size)
    hidden = np.concatenate([side.hand[:h], s.pile[kp:nd]])
    works = []
    for state in (s, other, s):
        ctx = ctx_of(sc)
        root_of(state, 77, ctx[1])
        copy_game(ctx, 0, seat, 3)
        works.append(snapshot(ctx[2][0]))
    assert works[0] == works[1] == works[2]
    w = works[0]
    assert w["sides"][seat]["hand"] == snapshot(s.sides[seat].hand)
    again = w["sides"][1 - seat]["hand"][:h] + w["pile"][kp:nd]
    assert sorted(again) == sorted(hidden) and w["dice_key"] != s.dice_key
    ctx = ctx_of(sc)
    root_of(s, 77, ctx[1])
    copy_game(ctx, 0, seat, 4)
    assert ctx[2][0].dice_key != w["dice_key"]
    view = m.view(seat, 77, 3)  # the Match's view is the search's
    assert snapshot(view.state) == w and view.value(seat) == view.clone().value(seat)


def test_search_plans_do_not_depend_on_hidden_information():
    """Over a real game, search-2 chooses the same plan from the real state and from one whose dice tape and
    hidden cards were changed."""
    sc, m = midgame(seed=8, actions=30)
    checked = 0
    rows = sc.game.play_batch([m.decks[0]], [m.decks[1]], [8], ("balanced", "balanced"),
                              record_actions=True)["action_list"][0]
    for act in rows[30:60]:
        if m.over:
            break
        other = hidden_reversed(m, lambda key: key ^ 0x5A5A5A)
        plan = plan_of(sc, m.state)
        assert plan and plan == plan_of(sc, other.state)
        checked += 1
        m.do(act)
    assert checked >= 20


def test_a_plan_stops_at_the_first_dice_and_replays_to_the_same_position():
    """A recorded plan ends with the action that rolls dice or draws a card, or with the turn; replayed on a
    fresh copy of the view it reaches the very position it was drawn in; an action illegal there fails it."""
    sc = scenario()
    m = position([(0, "Goblin", (1, 2)), (0, "Goblin", (3, 2)), (1, "Ogre", (1, 3)), (1, "Goblin", (4, 4))],
                 turn=3, to_act=0)
    kinds, policy, _, _, _ = bot_tables(sc, ("balanced", "balanced"))
    ctx = ctx_of(sc)
    root_of(m.state, 9, ctx[1])
    copy_game(ctx, 0, 0, 0)
    record = np.zeros(PLAN_CAP, np.int64)
    keys, counter = np.array([4], np.int64), np.zeros(1, np.int64)
    n = play_turn(ctx, policy[0], policy[0].noise, keys, counter, 0, PLAN_CAP, record)
    after = snapshot(ctx[2][0])
    assert n >= 2
    copy_game(ctx, 0, 0, 0)
    start = snapshot(ctx[2][0])
    chance = ("dice_rolled", "pile_drawn", "to_act", "turn")
    for i in range(0, n - 2, 2):  # no action before the last rolls a die, draws a card or ends the turn
        assert replay(ctx, record[i:i + 2], 2)
        assert all(getattr(ctx[2][0], f) == start[f] for f in chance)
    assert any(after[f] != start[f] for f in chance if f != "to_act")
    copy_game(ctx, 0, 0, 0)
    assert replay(ctx, record, n) and snapshot(ctx[2][0]) == after
    copy_game(ctx, 0, 0, 0)
    bad = record.copy()
    kind, a, _, d = decode(record[0])
    bad[0] = encode(kind, a, 63, d)  # to an off-board cell
    assert not replay(ctx, bad, n)


# ---- whole games -------------------------------------------------------------------------------------------------


def test_one_plan_plays_the_policys_game_action_for_action():
    """A search bot with one plan is its policy: its games are the policy's, action for action, in either seat."""
    sc = with_bots(one={"like": "search-1", "plans": 1, "samples": 3})
    a, b = sc.game.seat_decks()
    firsts, seconds, seeds = [a[0], a[5], a[9]], [b[3], b[11], b[20]], [1, 2, 3]
    for bots, same in ((("one", "aggro"), ("balanced", "aggro")), (("turtle", "one"), ("turtle", "balanced"))):
        x = sc.game.play_batch(firsts, seconds, seeds, bots, record_actions=True)
        y = sc.game.play_batch(firsts, seconds, seeds, same, record_actions=True)
        assert x["action_list"] == y["action_list"] and x["winner"] == y["winner"]


def test_search_games_are_seeded_and_batch_free():
    """A search game depends on its seed only: alone or in a batch, twice, the same; another seed differs."""
    sc = scenario()
    a, b = sc.game.seat_decks()
    many = sc.game.play_batch([a[1], a[4], a[1]], [b[2], b[7], b[2]], [5, 6, 9], ("search-1", "balanced"),
                              record_actions=True)
    one = sc.game.play_batch([a[4]], [b[7]], [6], ("search-1", "balanced"), record_actions=True)
    assert one["action_list"][0] == many["action_list"][1] and one["winner"][0] == many["winner"][1]
    assert many["action_list"][0] != many["action_list"][2]


def test_a_search_game_replays_from_its_actions():
    """Every action a search bot chose is legal on the real game: replayed through the Match facade from the
    seed, the record reaches the same end."""
    sc = scenario()
    a, b = sc.game.seat_decks()
    out = sc.game.play_batch([a[3]], [b[9]], [4], ("balanced", "search-2"), record_actions=True)
    m = Match(sc, a[3], b[9], seed=4)
    for act in out["action_list"][0]:
        m.do(act)
    assert m.over and m.winner == out["winner"][0] and m.turn == out["turns"][0]


def test_search_2_passes_api_test():
    """The game interface's contract holds when search-2 plays aggro."""
    out = api_test(scenario(), games=3, seed=2, bots=("search-2", "aggro"))
    assert out["games"] == 3


def test_halving_is_data_and_its_games_are_seeded_and_batch_free():
    """`halving = true` sets the budget's eighth param; such a game depends on its seed only."""
    sc = with_bots(tiny=TINY_HALVING)
    assert bot_tables(sc, ("tiny", "search-1"))[3][:, 7].tolist() == [1.0, 0.0]
    a, b = sc.game.seat_decks()
    many = sc.game.play_batch([a[1], a[4]], [b[2], b[7]], [5, 6], ("tiny", "balanced"), record_actions=True)
    one = sc.game.play_batch([a[4]], [b[7]], [6], ("tiny", "balanced"), record_actions=True)
    assert one["action_list"][0] == many["action_list"][1] and one["winner"][0] == many["winner"][1]


@pytest.mark.slow
@pytest.mark.parametrize("table", [TINY, TINY_HALVING], ids=["uniform", "halving"])
def test_uncompiled_search_plays_the_same_game(table):
    """One engine, two speeds: a search game compiled and under NUMBA_DISABLE_JIT=1 is the same game."""
    code = (
        "import copy, json, warnings; warnings.simplefilter('ignore'); import simkit;"
        "from simkit.scenario import scenario_from_data;"
        f"sc = simkit.load_scenario({str(BASE)!r}); d = copy.deepcopy(sc.data); d['bots']['tiny'] = {table!r};"
        f"sc = scenario_from_data(d, {str(BASE)!r}); a, b = sc.game.seat_decks();"
        "out = sc.game.play_batch([a[0]], [b[13]], [3], ('tiny', 'balanced'), record_actions=True);"
        "print(json.dumps(out))"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stderr[-2000:]
    sc = with_bots(tiny=table)
    a, b = sc.game.seat_decks()
    here = sc.game.play_batch([a[0]], [b[13]], [3], ("tiny", "balanced"), record_actions=True)
    assert json.loads(done.stdout) == json.loads(json.dumps(here))


def test_simkit_play_takes_a_search_bot(tmp_path):
    """`simkit play --bots search-1,balanced`: a told game and a replayable record."""
    sc = scenario()
    a, b = sc.game.seat_decks()
    out = tmp_path / "game.json"
    done = subprocess.run([sys.executable, "-m", "simkit", "play", str(BASE), a[0], b[0], "--bots", "search-1,balanced",
                           "--seed", "2", "--json", str(out)], env={**os.environ, "PYTHONPATH": str(ROOT)},
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "search-1" in done.stdout and out.exists()
    record = json.loads(out.read_text())
    row = sc.game.play_batch([a[0]], [b[0]], [2], ("search-1", "balanced"), record_actions=True)
    assert json.loads(json.dumps(row["action_list"][0])) == json.loads(json.dumps(record["actions"]))


def test_the_match_follows_a_search_game_and_values_its_end():
    """The Match is the search's Python face: a search bot's game replays through it, each action among its legal
    ones, and the end is worth the win by the search bot's value weights (``Match.value``)."""
    sc = scenario()
    a, b = sc.game.seat_decks()
    res = sc.game.play_batch([a[6]], [b[1]], [2], ("search-1", "aggro"), record_actions=True)
    m = Match(sc, a[6], b[1], seed=2)
    for action in res["action_list"][0]:
        assert tuple(action) in m.legal_actions()
        m.do(action)
    assert m.over
    winner = ("first", "second").index(res["winner"][0])
    win = sc.data["bots"]["search-1"]["value_win"]
    assert m.value(winner) > win / 2 and m.value(1 - winner) < -win / 2
    assert m.value(winner, "search-2") == m.value(winner)  # search-2 is like search-1 in its value weights
    with pytest.raises(ValueError, match="unknown search bot 'balanced'"):
        m.value(0, "balanced")
    fresh = Match(sc, a[6], b[1], seed=2)
    view = fresh.view(0, key=5)
    assert view.state.dice_key != fresh.state.dice_key and view.to_act == 0 and not view.over
