"""Issue 36 item 9 (the Card Duel): every number of a Duel scenario has a bound the engine can hold.

A value beyond it is refused when the scenario loads, in one line naming the file and the key;
within it, games play and end inside the rules' bounds. The fuzz test below tries types and extreme
values at every key of the quick scenario's tables.
"""

from __future__ import annotations

import copy
import math
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simkit.core.errors import ScenarioError
from simkit.games.duel.tables import MAX_DECK, VALUE_MAX, max_turn_limit
from simkit.runner import play_games
from simkit.scenario import load_scenario, scenario_from_data

ROOT = Path(__file__).resolve().parents[3]
QUICK = ROOT / "scenarios" / "duel" / "quick.toml"
SOURCE = "fuzzed.toml"
BASE_DATA = load_scenario(QUICK).data
TURN_LIMIT_MAX = max_turn_limit(BASE_DATA["decks"]["deck_size"])  # 20000 actions // (20 cards + 4)


def _with(path: tuple, value) -> dict:
    data = copy.deepcopy(BASE_DATA)
    node = data
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = value
    return data


def _refusal(path: tuple, value) -> str:
    with pytest.raises(ScenarioError) as err:
        scenario_from_data(_with(path, value), source=SOURCE)
    return str(err.value)


# -- literal cases: the values the audit found, and one per kind of bound ------------------------------


@pytest.mark.parametrize("path, value, words", [
    (("rules", "turn_draw"), 2**63 - 1, f"rules.turn_draw: must be at most {MAX_DECK}"),
    (("rules", "first_draw"), 33, f"rules.first_draw: must be at most {MAX_DECK}"),
    (("rules", "hp"), 2**64, f"rules.hp: must be at most {VALUE_MAX}"),
    (("rules", "max_hp"), 2**63, f"rules.max_hp: must be at most {VALUE_MAX}"),
    (("rules", "turn_limit"), TURN_LIMIT_MAX + 1, f"rules.turn_limit: must be at most {TURN_LIMIT_MAX} with decks"),
    (("rules", "turn_limit"), 2**63, f"rules.turn_limit: must be at most {VALUE_MAX}"),
    (("rules", "mana"), -(2**64), "rules.mana: must be at least 0"),
    (("cards", "Dagger", "on_attack", 0, "amount"), 10**18, "cards.Dagger.on_attack[0].amount: must be at most"),
    (("cards", "Frost", "effects", 0, "level"), 2**70, "cards.Frost.effects[0].level: must be at most"),
    (("cards", "Step", "effects", 0, "min"), -(10**18), "cards.Step.effects[0].min: must be from -9 to 9"),
    (("cards", "Dagger", "cooldown"), 2**63, "cards.Dagger.cooldown: must be at most"),
    (("decks", "core", "Strike"), 2**63, f"decks.core.Strike: must be at most {MAX_DECK}"),
    (("decks", "spell_copies"), 2**40, f"decks.spell_copies: must be at most {MAX_DECK}"),
    (("bots", "aggro", "damage"), 1e308, "bots.aggro.damage: must be from -1e+09 to 1e+09"),
    (("bots", "search-1", "plans"), 10**9, "bots.search-1.plans: must be a whole number from 1 to 1024"),
    (("bots", "search-1", "depth"), 2**63, "bots.search-1.depth: must be a whole number from 0 to 16"),
])
def test_a_number_beyond_its_bound_is_refused_naming_file_and_key(path, value, words):
    """Each value is refused at load with `file: key: must be ...`, one line (no OverflowError, no hang)."""
    msg = _refusal(path, value)
    assert msg.startswith(f"{SOURCE}: ") and words in msg and "\n" not in msg


def test_the_largest_turn_draw_and_turn_limit_play_games_that_end():
    """At the bounds themselves (a draw of a whole deck a turn, HP 10**9, the longest turn limit: 833 turns
    of 20-card decks) games end at the cap, within the engine's action cap."""
    data = _with(("rules", "turn_draw"), MAX_DECK)
    data["rules"].update(hp=VALUE_MAX, max_hp=VALUE_MAX, turn_limit=TURN_LIMIT_MAX, hand_limit=VALUE_MAX)
    sc = scenario_from_data(data, source=SOURCE)
    assert TURN_LIMIT_MAX == 833
    with _deadline(120):
        df = play_games(sc, [sc.decks[0]] * 2, [sc.decks[1]] * 2, bots=["aggro", "random"], seeds=[1, 2])
    assert (df["turns"] == TURN_LIMIT_MAX).all() and (df["end_reason"] == "turn_limit").all()


def test_a_move_choice_wider_than_the_engine_lists_is_refused():
    """A distance of 400 with two cards choosing any move in it: a hand holding both offers 2 x 401 moves,
    more legal actions than the engine's list holds (512, unchecked in compiled code): refused naming
    rules.max_distance and the cards."""
    data = _with(("rules", "max_distance"), 400)
    data["cards"]["Step"]["effects"][0].update(min=-400, max=400)
    data["cards"]["Frost"]["effects"].append({"do": "move_distance", "min": -400, "max": 400})
    with pytest.raises(ScenarioError, match=r"rules\.max_distance: 400 lets a position offer up to \d+ legal actions"
                                            r".*Step, Frost"):
        scenario_from_data(data, source=SOURCE)


def test_a_deck_rule_making_too_many_decks_is_refused_without_listing_them():
    """Forty spells taken 16 at a time make C(40, 16) decks: refused at once, not enumerated."""
    data = copy.deepcopy(BASE_DATA)
    del data["decks"]["pool"]
    for i in range(40):
        data["cards"][f"S{i}"] = {"type": "magic", "cost_mana": 1, "effects": [{"do": "damage", "amount": 1}]}
    data["decks"].update(spells=[f"S{i}" for i in range(40)], spells_per_deck=16, spell_copies=1, weapons_per_deck=0,
                         weapon_copies=1, deck_size=28)
    data["decks"]["core"] = {"Strike": 4, "Step": 3, "Guard": 3, "VenomCoating": 1, "Barrier": 1}
    with pytest.raises(ScenarioError, match=f"make {math.comb(40, 16)} decks"):
        scenario_from_data(data, source=SOURCE)


# -- the fuzz test -------------------------------------------------------------------------------------


def _leaves(node, path=()) -> list[tuple]:
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _leaves(v, (*path, k))]
    if isinstance(node, list) and node and all(isinstance(v, dict) for v in node):
        return [p for i, v in enumerate(node) for p in _leaves(v, (*path, i))]
    return [path]


PATHS = [p for p in _leaves(BASE_DATA) if p[0] in ("rules", "statuses", "cards", "decks", "bots")]
EXTREMES = [0, 1, -1, 2, 31, 32, 33, 60, 9999, 10_000, 10_001, VALUE_MAX, VALUE_MAX + 1, 2**31, 2**63 - 1, 2**63,
            2**64, -(2**63), -(2**64), True, False, 0.5, -0.0, 1e9, 1e308, -1e308, float("nan"), float("inf"),
            float("-inf"), "", "x", "draw", [], {}, [1], {"a": 1}, ["Dagger"]]
VALUES = st.one_of(st.sampled_from(EXTREMES), st.integers(-(2**70), 2**70), st.floats(allow_nan=True))


class Hang(Exception):
    """A game ran past its deadline."""


@contextmanager
def _deadline(seconds: int):
    def stop(*_):
        raise Hang(f"no answer within {seconds} s")

    old = signal.signal(signal.SIGALRM, stop)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(changes=st.lists(st.tuples(st.sampled_from(PATHS), VALUES), min_size=1, max_size=3,
                        unique_by=lambda c: c[0]))
def test_fuzz_every_duel_value_is_refused_in_one_line_or_plays_within_bounds(changes):
    """Any values at up to three keys of the Duel tables: refused at load in one line naming the file and a
    changed key (or the key it contradicts), or the scenario plays games that end within its own bounds."""
    data = copy.deepcopy(BASE_DATA)
    for path, value in changes:
        node = data
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = value
    try:
        with _deadline(30):
            sc = scenario_from_data(data, source=SOURCE)
    except ScenarioError as exc:
        msg = str(exc)
        assert msg.startswith(f"{SOURCE}: ") and "\n" not in msg, msg
        named = msg[len(SOURCE) + 2:].split(": ", 1)[0]
        assert any(named.split(".")[0].split("[")[0] == path[0] or str(path[-1]) in msg for path, _ in changes), \
            (changes, msg)
        return
    rules = sc.rules.settings
    bots = [b for b in sc.game.bot_names() if b in ("aggro", "control")] + ["random"]
    first, second = sc.decks[0], sc.decks[-1]
    with _deadline(60):
        df = play_games(sc, [first, second], [second, first], bots=[bots[0], bots[-1]], seeds=[1, 2])
    assert df["winner"].isin(["first", "second", "draw"]).all()
    assert ((df["turns"] >= 1) & (df["turns"] <= rules.turn_limit)).all()
    assert (df[["first_hp", "second_hp"]].to_numpy() <= rules.max_hp).all()
