"""Magic War armies (rules page 3.3, roster B.4): the enumerator, canonical ids, illegal armies refused by name."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import pytest

from simkit.core.errors import ScenarioError
from simkit.games.magic.tables import (
    ARMY_RE,
    all_decks,
    armies,
    army_id,
    build_rules,
    canonical_deck,
    check_seat,
    count_vectors,
    deck_pool,
    seat_pools,
)
from simkit.scenario import Field

ROOT = Path(__file__).resolve().parents[3]
BASE = ROOT / "scenarios" / "magic" / "base.toml"
DATA = tomllib.loads(BASE.read_text())

#: the page's test vector (a fixture, not a roster): six unlimited unit types of costs 1 to 6
NAMES = ("One", "Two", "Three", "Four", "Five", "Six")
FIXTURE_UNITS = {NAMES[c - 1]: {"type": "troop", "cost": c, "attack": 1, "attack_type": "melee", "hp": 2,
                            "move_type": "walk", "move": 1} for c in range(1, 7)}


def rules_of(data: dict):
    return build_rules(Field("test.toml", data))


def fixture_data(**rules) -> dict:
    data = copy.deepcopy(DATA)
    data["races"] = {"Fixture": {"leader": "FixtureLeader", "units": {
        "FixtureLeader": {"type": "leader", "cost": 0, "attack": 2, "attack_type": "melee", "hp": 6,
                          "move_type": "walk", "move": 1}, **copy.deepcopy(FIXTURE_UNITS)}}}
    data["skills"] = {}
    data["armies"] = {"pool": ["Fixture:One*2,Three"]}
    data["rules"].update(rules)
    return data


def test_enumerator_matches_the_pages_test_vector():
    """3.3: costs 1..6 unlimited, 1-9 units: 219 armies at 12 gold (54 spend all), 283 at 13 (64)."""
    costs = [1, 2, 3, 4, 5, 6]
    at12, at13 = count_vectors(costs, [9] * 6, 12, 1, 9), count_vectors(costs, [9] * 6, 13, 1, 9)
    assert (len(at12), len(at13)) == (219, 283)
    spend = [sum(k * c for k, c in zip(v, costs)) for v in at12], [sum(k * c for k, c in zip(v, costs)) for v in at13]
    assert (spend[0].count(12), spend[1].count(13)) == (54, 64)
    uncapped = count_vectors(costs, [13] * 6, 12, 1, 13), count_vectors(costs, [13] * 6, 13, 1, 13)
    assert (len(uncapped[0]), len(uncapped[1])) == (226, 297)  # without the 9-unit cap


def test_fixture_race_in_a_scenario_gives_the_vector():
    """The same vector through a scenario: a Fixture race of six units costing 1..6."""
    r = rules_of(fixture_data())
    assert (len(armies(r, "Fixture", 12)), len(armies(r, "Fixture", 13))) == (219, 283)


def test_authored_roster_counts():
    """B.4: per race and in all, 1,427 armies at 12 gold and 1,832 at 13."""
    r = rules_of(DATA)
    want = {"Sanctuary": (277, 367), "Undead": (500, 602), "Orc": (177, 220), "Elf": (473, 643)}
    assert {race: (len(armies(r, race, 12)), len(armies(r, race, 13))) for race in r.races} == want
    assert sum(len(armies(r, x, 12)) for x in r.races) == 1427
    assert len(all_decks(r)) == 1832


def test_ids_are_canonical_and_sorted():
    """3.3: `Race:Unit*n,Unit`, units in ASCII order, *n only for n >= 2, ids output sorted."""
    r = rules_of(DATA)
    got = armies(r, "Orc", 12)
    assert got == sorted(got) and all(ARMY_RE.match(a) for a in got)
    assert army_id("Terran", {"Marine": 9}) == "Terran:Marine*9"
    assert canonical_deck(r, "Orc:OrcInfantry,Ogre,Ogre") == "Orc:Ogre*2,OrcInfantry"
    assert "Orc:Ogre*2,OrcInfantry" in got


@pytest.mark.parametrize("army, words", [
    ("Orc:Goblin*10", "not of the form"),
    ("Orc:Thunderbird*2", "at most 1 [R18]"),
    ("Orc:Chieftain,Goblin", "leader Chieftain is not bought"),
    ("Orc:Treant", "not a Orc unit"),
    ("Dwarf:Goblin", "unknown race"),
    ("Undead:Skeleton*9,Spirit", "10 units"),
])
def test_illegal_armies_are_refused_by_name(army, words):
    """An illegal army is refused with its id and the rule it breaks."""
    with pytest.raises(ScenarioError, match=army.split(":")[0]) as exc:
        canonical_deck(rules_of(DATA), army)
    assert words in str(exc.value)


def test_a_scenario_naming_an_illegal_army_is_refused_at_load():
    """3.3: a scenario whose pool names an illegal army fails at load, naming the army and the rule."""
    data = copy.deepcopy(DATA)
    data["armies"]["pool"] = ["Orc:Ogre*2,OrcInfantry", "Orc:Thunderbird*2"]
    r = rules_of(data)
    with pytest.raises(ScenarioError, match=r"armies.pool\[1\]: army 'Orc:Thunderbird\*2': 2 x Thunderbird"):
        deck_pool(r, Field("test.toml", data))


def test_a_listed_army_no_seat_can_afford_stays_in_the_pool_and_sits_in_no_seat():
    """[R16] with the seat model: a listed army costing 15 gold (more than either budget) keeps its place in the
    pool, sits in neither seat's pool, and is refused in one line naming its cost when a game seats it."""
    data = copy.deepcopy(DATA)
    data["armies"]["pool"] = ["Orc:Ogre*2,OrcInfantry", "Orc:Ogre*3"]
    r = rules_of(data)
    assert deck_pool(r, Field("test.toml", data)) == ["Orc:Ogre*2,OrcInfantry", "Orc:Ogre*3"]
    first, second = seat_pools(r, ["Orc:Ogre*2,OrcInfantry", "Orc:Ogre*3"])
    assert "Orc:Ogre*3" not in first + second
    for seat in (0, 1):
        with pytest.raises(ScenarioError, match="costs 15 gold: seat .* at most 1[23] \\[R16\\]"):
            check_seat(r, "Orc:Ogre*3", seat)


def test_a_13_gold_army_sits_only_second():
    """4.1: seat 0 buys with 12 gold, seat 1 with 13."""
    r = rules_of(DATA)
    army = "Undead:Skeleton*5,Zombie*4"
    check_seat(r, army, 1)
    with pytest.raises(ScenarioError, match="seat 0 .* at most 12"):
        check_seat(r, army, 0)


def test_budget_exact_option():
    """[R16] budget_exact = true: only armies spending the whole budget."""
    r = rules_of(fixture_data(budget_exact=True))
    assert len(armies(r, "Fixture", 12)) == 54 and len(armies(r, "Fixture", 13)) == 64


def test_the_scenario_pool_is_canonical_and_legal():
    """The default pool (B.5): 24 armies, 12 of them fit seat 0."""
    r = rules_of(DATA)
    pool = deck_pool(r, Field("test.toml", DATA))
    assert len(pool) == 24 and pool == DATA["armies"]["pool"]
    assert sum(1 for a in pool if _fits(r, a, 0)) == 12


def _fits(r, army, seat):
    try:
        check_seat(r, army, seat)
    except ScenarioError:
        return False
    return True


@pytest.mark.parametrize("key, value, words", [
    (("combat", "ranged_shape"), "cone", "ranged_shape: must be one of"),
    (("rules", "budgets"), [12], "budgets: must have 2 items"),
    (("races", "Orc", "units", "Ogre", "hp"), 0, "races.Orc.units.Ogre.hp: must be at least 1"),
    (("races", "Orc", "units", "Ogre", "skills"), ["Nope"], "unknown skill 'Nope'"),
    (("skills", "Cleave", "kind"), "teleport", "skills.Cleave.kind: must be one of"),
    (("races", "Orc", "units", "Thunderbird", "max_copies"), 2, "a hero is unique"),
])
def test_bad_tables_are_refused_naming_file_key_problem(key, value, words):
    """tables.py: a wrong value fails as `file: key: problem`."""
    data = copy.deepcopy(DATA)
    t = data
    for k in key[:-1]:
        t = t[k]
    t[key[-1]] = value
    with pytest.raises(ScenarioError, match="test.toml: ") as exc:
        rules_of(data)
    assert words in str(exc.value)
