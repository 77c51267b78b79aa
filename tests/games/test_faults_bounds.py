"""Issue 36 item 9 (Battle of Miracles, Krypton Tower War, Magic War; the Card Duel has its own file): every number
of a scenario's tables has a bound the engine can hold.

A value beyond it is refused when the scenario loads, in one line naming the file, the key and the bound; within
it, games play and end inside the scenario's own turn limit. The literal cases are the values the audit found and
one per kind of bound; the fuzz tests try types and extreme values (int64's edges, NaN, infinities, negatives,
booleans, huge strings, wrong shapes) at every key of each game's tables: a few examples per game by default,
many more under ``-m slow``.
"""

from __future__ import annotations

import copy
import resource
import signal
from contextlib import contextmanager
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from simkit.core.errors import ScenarioError
from simkit.runner import play_games
from simkit.scenario import load_scenario, scenario_from_data

ROOT = Path(__file__).resolve().parents[2]
SOURCE = "fuzzed.toml"
SCENARIOS = {
    "miracle": ROOT / "scenarios" / "miracle" / "quick.toml",
    "krypton": ROOT / "scenarios" / "krypton" / "quick.toml",
    "magic": ROOT / "scenarios" / "magic" / "base.toml",
}
#: the tables of each game whose values are fuzzed (``[sweep]`` has its own tests: test_faults_errors.py)
TABLES = {
    "miracle": ("rules", "creatures", "artifacts", "map", "mana", "bots", "decks"),
    "krypton": ("rules", "bases", "terrain", "classes", "towers", "veins", "magic", "map", "bots", "decks"),
    "magic": ("rules", "combat", "magic", "tactics", "skills", "races", "bots", "armies"),
}
_DATA: dict[str, dict] = {}


def base_data(game: str) -> dict:
    if game not in _DATA:
        _DATA[game] = load_scenario(SCENARIOS[game]).data
    return _DATA[game]


def _with(game: str, changes) -> dict:
    data = copy.deepcopy(base_data(game))
    for path, value in changes:
        node = data
        for step in path[:-1]:
            node = node[step]
        node[path[-1]] = value
    return data


def compiled(game: str) -> None:
    """Play one game of the unchanged scenario with no deadline, so that the deadlines below time games, not
    numba's one-time compile of the game's kernels (minutes on a loaded machine)."""
    if ("compiled", game) not in _DATA:
        sc = load_scenario(SCENARIOS[game])
        first, second = sc.game.seat_decks(sc.decks)
        bots = [b for b in sc.game.bot_names() if b != "random" and not b.startswith("search")][:1] + ["random"]
        play_games(sc, [first[0]], [second[0]], bots=bots, seeds=[1])
        play_games(sc, [first[0]], [second[0]], bots=["random", bots[0]], seeds=[1])
        _DATA[("compiled", game)] = {}


def _refusal(game: str, path: tuple, value) -> str:
    with pytest.raises(ScenarioError) as err:
        scenario_from_data(_with(game, [(path, value)]), source=SOURCE)
    return str(err.value)


# -- literal cases -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("game, path, value, words", [
    # the audit's cases: a worker grown to 12 GB, an OverflowError after meta.json was written
    ("krypton", ("rules", "dice_sides"), 1_000_000_000, "rules.dice_sides: must be at most 64"),
    ("krypton", ("terrain", "plain"), 3_170_494, "terrain.plain: must be at most 64"),  # found by the fuzz: 3 GB
    ("krypton", ("rules", "base_hp"), 10**20, "rules.base_hp: must be at most 1000000000"),
    ("krypton", ("rules", "base_hp"), 1e20, "rules.base_hp: must be an integer"),
    ("krypton", ("rules", "max_dice"), 7, "rules.max_dice: must be at most 6 (the engine's dice a side)"),
    ("krypton", ("rules", "dice_sides"), 30, "rules.dice_sides: 3 dice of 30 sides (sum) make 88 totals"),
    ("krypton", ("rules", "max_rounds"), 1001, "rules.max_rounds: must be at most 1000"),
    ("krypton", ("rules", "team_size"), 7, "rules.team_size: must be at most 6"),
    ("krypton", ("map", "radius"), 12, "map.radius: must be at most 11 (the engine holds 400 cells at most)"),
    ("krypton", ("magic", "copies", "Ignite"), 300, "magic.copies.Ignite: must be at most 256"),
    ("krypton", ("magic", "heal"), 2**63, "magic.heal: must be at most 1000000000"),
    ("krypton", ("towers", "Attack Tower", "hp"), 2**64, "towers.Attack Tower.hp: must be at most 1000000000"),
    ("krypton", ("bases", "table", "defense"), [6, 2**63], "bases.table.defense: must hold numbers of at most"),
    ("krypton", ("bots", "search-1", "plans"), 10**9, "bots.search-1.plans: must be a whole number of at most 1024"),
    ("magic", ("rules", "max_units"), 40, "rules.max_units: must be at most 31"),
    ("magic", ("rules", "turn_limit"), 32767, "rules.turn_limit: must be at most"),
    ("magic", ("rules", "budgets"), [12, 10**18], "rules.budgets: must be at most 1000000000"),
    ("magic", ("combat", "die_sides"), 2**63, "combat.die_sides: must be at most 1000000000"),
    ("magic", ("races", "Orc", "units", "Goblin", "attack"), 10**9, "Orc.units.Goblin.attack: must be at most 64"),
    ("magic", ("races", "Orc", "units", "Goblin", "move"), 2**40, "races.Orc.units.Goblin.move: must be at most 64"),
    ("magic", ("races", "Orc", "units", "Goblin", "max_copies"), 10, "Goblin.max_copies: must be at most 9"),
    ("magic", ("skills", "Drill", "k"), 10**9, "skills.Drill.k: must be at most 64"),
    ("magic", ("tactics", "cap"), 2**63, "tactics.cap: must be at most 64"),
    ("miracle", ("rules", "turn_limit"), 40000, "rules.turn_limit: must be at most 32767"),
    ("miracle", ("rules", "mana_period"), 780_782_683_447_255_680, "rules.mana_period: must be at most 32767"),
    ("miracle", ("creatures", "Priest", "L1", "hp"), 2**63, "creatures.Priest.L1.hp: must be at most"),
])
def test_a_number_beyond_its_bound_is_refused_naming_file_key_and_bound(game, path, value, words):
    """Each value is refused at load with `file: key: must be ...`, one line (no OverflowError, no hang, no OOM)."""
    msg = _refusal(game, path, value)
    assert msg.startswith(f"{SOURCE}: ") and words in msg and "\n" not in msg, msg


def test_magic_armies_too_many_to_list_are_refused_without_listing_them():
    """No [armies] pool, 14 units a side and a budget of 10**9: over a hundred thousand armies, refused at load
    naming rules.budgets within seconds (they were listed, a worker's memory without end)."""
    data = _with("magic", [(("rules", "budgets"), [10**9, 10**9]), (("rules", "deploy_rows"), [[0, 2], [3, 5]]),
                           (("rules", "max_units"), 14)])
    del data["armies"]
    with _deadline(60), pytest.raises(ScenarioError, match=r"^fuzzed\.toml: rules\.budgets: .* make more than "
                                                            r"100000 armies to look through; give an \[armies\] pool"):
        scenario_from_data(data, source=SOURCE)


def test_krypton_at_its_bounds_plays_games_that_end_within_the_action_cap():
    """Krypton at the largest rounds, base HP and dice it takes (1000 rounds, 10**9 HP, 6 dice of 11 sides): the
    bases cannot fall, so games run to the round cap and end there, inside the 200,000 actions a game may take."""
    data = _with("krypton", [(("rules", "max_rounds"), 1000), (("rules", "base_hp"), 10**9),
                             (("rules", "max_dice"), 6), (("rules", "dice_sides"), 11)])
    sc = scenario_from_data(data, source=SOURCE)
    compiled("krypton")
    with _deadline(300):
        df = play_games(sc, [sc.decks[0]], [sc.decks[-1]], bots=["balanced", "random"], seeds=[1])
    assert (df["turns"] == 1000).all() and (df["end_reason"] == "turn_limit").all()


@pytest.mark.slow  # whole games of 1000 turns
def test_magic_at_its_longest_turn_limit_plays_games_that_end():
    """Magic War at the longest turn limit its armies allow: games end, by a leader or at the limit."""
    data = _with("magic", [])
    sc0 = scenario_from_data(data, source=SOURCE)
    with pytest.raises(ScenarioError, match=r"rules\.turn_limit: must be at most (\d+)") as err:
        scenario_from_data(_with("magic", [(("rules", "turn_limit"), 30000)]), source=SOURCE)
    longest = int(str(err.value).split("must be at most ")[1].split()[0])
    sc = scenario_from_data(_with("magic", [(("rules", "turn_limit"), longest)]), source=SOURCE)
    first, second = sc.game.seat_decks(sc0.decks)
    compiled("magic")
    with _deadline(300):
        df = play_games(sc, [first[0]], [second[0]], bots=["random", "random"], seeds=[1])
    assert (df["turns"] <= longest).all()


# -- the fuzz tests ----------------------------------------------------------------------------------------------


def _leaves(node, path=()) -> list[tuple]:
    if isinstance(node, dict):
        return [p for k, v in node.items() for p in _leaves(v, (*path, k))]
    if isinstance(node, list) and node and all(isinstance(v, dict) for v in node):
        return [p for i, v in enumerate(node) for p in _leaves(v, (*path, i))]
    return [path]


def paths(game: str) -> list[tuple]:
    return [p for p in _leaves(base_data(game)) if p[0] in TABLES[game]]


EXTREMES = [0, 1, -1, 2, 6, 7, 9, 10, 11, 12, 23, 24, 63, 64, 65, 255, 256, 1000, 1001, 32767, 32768, 10**9,
            10**9 + 1, 2**31, 2**63 - 1, 2**63, 2**64, -(2**63), -(2**64), True, False, 0.5, -0.0, 1e20, 1e308,
            float("nan"), float("inf"), float("-inf"), "", "x", "sum", "max", "x" * 100_000, [], {}, [1], [0, 0, 0],
            [[0, 0, 0]], {"a": 1}]
VALUES = st.one_of(st.sampled_from(EXTREMES), st.integers(-(2**70), 2**70), st.floats(allow_nan=True))


class Hang(Exception):
    """Loading or a game ran past its deadline."""


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


@contextmanager
def _memory_cap(extra: int = 3 * 2**30):
    """At most ``extra`` more bytes of address space while the block runs (a MemoryError past it, never the
    machine's OOM killer), then the limit as it was."""
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    size = int(Path("/proc/self/statm").read_text().split()[0]) * resource.getpagesize()
    cap = size + extra if hard == resource.RLIM_INFINITY else min(size + extra, hard)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))


def _refused_or_plays(game: str, changes) -> None:
    """The clause every fuzzed scenario meets: refused in one line naming the file and a changed key (or the key
    it contradicts, in the same table), or it plays two games that end within its turn limit."""
    try:
        with _deadline(60):
            sc = scenario_from_data(_with(game, changes), source=SOURCE)
    except ScenarioError as exc:
        msg = str(exc)
        assert msg.startswith(f"{SOURCE}: ") and "\n" not in msg and len(msg) < 2000, (changes, msg[:500])
        named = msg[len(SOURCE) + 2:].split(": ", 1)[0]
        assert any(named.split(".")[0].split("[")[0] == path[0] or str(path[-1]) in msg for path, _ in changes), \
            (changes, msg[:500])
        return
    first, second = sc.game.seat_decks(sc.decks)
    bots = [b for b in sc.game.bot_names() if b != "random" and not b.startswith("search")][:1] + ["random"]
    limit = sc.game.turn_limit
    with _deadline(120):
        df = play_games(sc, [first[0], first[-1]], [second[-1], second[0]], bots=bots, seeds=[1, 2])
    assert df["winner"].isin(["first", "second", "draw"]).all(), df["winner"].tolist()
    assert (df["turns"] >= 0).all() and (limit is None or (df["turns"] <= limit).all()), (changes, df["turns"])


def _fuzz(game: str, examples: int):
    compiled(game)

    @settings(max_examples=examples, deadline=None, derandomize=True,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(changes=st.lists(st.tuples(st.sampled_from(paths(game)), VALUES), min_size=1, max_size=2,
                            unique_by=lambda c: c[0]))
    def run(changes):
        with _memory_cap():
            _refused_or_plays(game, changes)

    run()


@pytest.mark.parametrize("game", sorted(SCENARIOS))
def test_fuzz_every_value_is_refused_in_one_line_or_plays_within_bounds(game):
    """Any values at one or two keys of the game's tables (a few dozen examples): refused at load in one line
    naming the file and a changed key, or the scenario plays games that end within its own turn limit."""
    _fuzz(game, 30)


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(SCENARIOS))
def test_fuzz_thoroughly_every_value_is_refused_in_one_line_or_plays_within_bounds(game):
    """The same clause over many more examples (minutes a game)."""
    _fuzz(game, 400)
