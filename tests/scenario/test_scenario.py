"""Scenario loading: the base rulebook, patches with extends, and every bad input named by file and key."""

import dataclasses
import re
import shutil
import tomllib
from pathlib import Path

import numpy as np
import pytest

import simkit
from simkit import ScenarioError

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "scenarios" / "miracle" / "base.toml"
PRIEST_PATCH = ROOT / "scenarios" / "miracle" / "priest-patch.toml"


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def patch(tmp_path: Path, text: str) -> Path:
    """A patch file extending the base scenario by its absolute path."""
    return write(tmp_path / "bad.toml", f'extends = "{BASE.as_posix()}"\n{text}')


def flatten(data, prefix=""):
    if isinstance(data, dict):
        out = {}
        for k, v in data.items():
            out.update(flatten(v, f"{prefix}.{k}" if prefix else k))
        return out
    return {prefix: data}


def test_base_scenario_loads_with_its_numbers(base):
    """The base scenario loads as the miracle game with its name, version and a stable hash."""
    assert base.game_name == "miracle" and base.game.name == "miracle" and base.game.scenario is base
    assert base.rules_version == "miracle-war/1"
    assert base.name.startswith("Battle of Miracles")
    assert base.hash == simkit.load_scenario(BASE).hash and len(base.hash) == 16
    cards = base.rules.cards
    assert cards.kinds == ("Swordsman", "Archer", "BlackBat", "Priest", "VolcanoDragon", "FrostDragon")
    assert cards.artifacts == ("HolyLight", "InfernoFlame", "SalamanderShield", "WindBlessing")
    assert base.rules.turn_limit == 100 and base.rules.miracle_hp == 30 and base.rules.full_tie == "draw"
    with pytest.raises(dataclasses.FrozenInstanceError):
        base.game_name = "other"


def test_base_creature_table_matches_the_rules_page(base):
    """Cost/attack/HP/range/move/cooldown per level and unit counts are the rules page's table."""
    cards = base.rules.cards
    table = {
        "Swordsman": ("2/2/2/1-1/3/2", "4/4/4/1-1/3/2", "6/6/6/1-1/3/3", (6, 7, 8)),
        "Archer": ("2/1/2/3-4/3/4", "4/2/3/3-4/3/4", "6/3/4/3-4/3/4", (3, 4, 5)),
        "BlackBat": ("2/1/1/0-1/4/3", "3/2/1/0-1/4/3", "5/4/2/0-1/5/4", (3, 4, 5)),
        "Priest": ("2/0/3/0-1/5/3", "4/0/4/0-1/5/3", "7/0/6/0-2/5/5", (3, 4, 4)),
        "VolcanoDragon": ("5/3/5/1-2/2/5", "7/4/7/1-2/2/5", "9/5/9/1-2/2/5", (3, 4, 5)),
        "FrostDragon": ("5/3/4/0-2/2/4", "7/4/6/0-2/2/4", "9/5/8/0-2/2/5", (3, 4, 5)),
    }
    for kind, (*levels, units) in table.items():
        k = cards.kind_index(kind)
        assert tuple(cards.units[k]) == units
        for lv, text in enumerate(levels):
            got = (f"{cards.cost[k, lv]}/{cards.attack[k, lv]}/{cards.hp[k, lv]}/{cards.range_min[k, lv]}-"
                   f"{cards.range_max[k, lv]}/{cards.move[k, lv]}/{cards.cooldown[k, lv]}")
            assert got == text, (kind, lv + 1)
    flying = {cards.kinds[k] for k in range(len(cards.kinds)) if cards.flying[k]}
    anti_air = {cards.kinds[k] for k in range(len(cards.kinds)) if cards.anti_air[k]}
    assert flying == {"BlackBat"} and anti_air == {"Archer", "Priest", "FrostDragon"}
    assert tuple(cards.splash[cards.kind_index("VolcanoDragon")]) == (3, 4, 5)
    assert tuple(cards.aura_range[cards.kind_index("Priest")]) == (2, 3, 3)
    assert list(cards.artifact_cost) == [6, 8, 6, 8] and list(cards.artifact_cooldown) == [5, 6, 4, 12]


def test_base_has_the_80_legal_decks_as_canonical_ids(base):
    """The deck pool is every 1 artifact + 3 distinct creatures: 80 decks, creatures in alphabetical order."""
    assert len(base.decks) == 80 == len(set(base.decks))
    assert "HolyLight:Archer,Priest,Swordsman" in base.decks
    for deck in base.decks:
        artifact, creatures = deck.split(":")
        names = creatures.split(",")
        assert artifact in base.rules.cards.artifacts and len(set(names)) == 3 and names == sorted(names)
        assert base.canonical_deck(deck) == deck
    assert base.canonical_deck("HolyLight: Swordsman, Archer ,Priest") == "HolyLight:Archer,Priest,Swordsman"


def test_priest_patch_overrides_exactly_its_keys(base):
    """The priest patch changes only its name, Priest L3 cost, HolyLight cooldown and results folder."""
    sc = simkit.load_scenario(PRIEST_PATCH)
    old, new = flatten(base.data), flatten(sc.data)
    assert old.keys() == new.keys()
    changed = {k for k in old if old[k] != new[k]}
    assert changed == {"name", "creatures.Priest.L3.cost", "artifacts.HolyLight.cooldown", "sweep.out"}
    assert (new["creatures.Priest.L3.cost"], new["artifacts.HolyLight.cooldown"]) == (6, 4)
    priest, holy = sc.rules.cards.kind_index("Priest"), sc.rules.cards.artifacts.index("HolyLight")
    assert sc.rules.cards.cost[priest, 2] == 6 and sc.rules.cards.artifact_cooldown[holy] == 4
    cost = base.rules.cards.cost.copy()
    cost[priest, 2] = 6
    assert np.array_equal(sc.rules.cards.cost, cost)
    assert sc.hash != base.hash and sc.decks == base.decks


def test_patch_merges_tables_key_by_key(tmp_path, base):
    """A patch overriding one key of a table keeps that table's other keys."""
    sc = simkit.load_scenario(patch(tmp_path, "[creatures.Archer.L2]\nattack = 3\n"))
    k = sc.rules.cards.kind_index("Archer")
    assert sc.rules.cards.attack[k, 1] == 3
    assert sc.rules.cards.hp[k, 1] == base.rules.cards.hp[k, 1] == 3


def test_extends_chain_is_resolved_relative_to_each_files_folder(tmp_path):
    """extends names a file relative to the folder of the file that says it, along a whole chain."""
    shutil.copy(BASE, write(tmp_path / "rules" / "placeholder", "").with_name("base.toml"))
    write(tmp_path / "rules" / "mid.toml", 'extends = "base.toml"\n[rules]\nturn_limit = 60\n')
    top = write(tmp_path / "variants" / "deep" / "top.toml",
                'extends = "../../rules/mid.toml"\nname = "top"\n[creatures.Swordsman.L1]\ncost = 1\n')
    sc = simkit.load_scenario(top)
    assert sc.name == "top" and sc.rules.turn_limit == 60
    assert sc.rules.cards.cost[sc.rules.cards.kind_index("Swordsman"), 0] == 1
    assert "extends" not in sc.data


BAD_PATCHES = [
    ('[decks]\npool = ["HolyLight:Archer,Ninja,Priest"]\n', "decks.pool[0]", "unknown creature 'Ninja'"),
    ('[decks]\npool = ["HolyLight:Archer,Archer,Priest"]\n', "decks.pool[0]", "creature 'Archer' appears twice"),
    ('[decks]\npool = ["HolyLight:WindBlessing,Archer,Priest"]\n', "decks.pool[0]", "exactly 1 artifact"),
    ('[decks]\npool = ["HolyLight,WindBlessing:Archer,Priest,Swordsman"]\n', "decks.pool[0]", "exactly 1 artifact"),
    ('[decks]\npool = ["HolyLight:Archer,Priest"]\n', "decks.pool[0]", "exactly 3 creature kinds"),
    ("[creatures.Archer.L1]\ncost = -1\n", "creatures.Archer.L1.cost", "must be at least 0, got -1"),
    ("[creatures.Archer.L1]\nattack = 1.5\n", "creatures.Archer.L1.attack", "must be an integer, got 1.5"),
    ('[creatures.Archer.L1]\nmove = "three"\n', "creatures.Archer.L1.move", "must be an integer"),
    ("[creatures.Archer.L1]\nhp = 0\n", "creatures.Archer.L1.hp", "must be at least 1"),
    ("[creatures.Archer.L1]\nrange = [4, 3]\n", "creatures.Archer.L1.range", "minimum 4 is above maximum 3"),
    ("[creatures.Archer]\nunits = [3, 2, 5]\n", "creatures.Archer.units", "must not fall"),
    ("[creatures.Archer.L1]\nspeed = 3\n", "creatures.Archer.L1.speed", "unknown key"),
    ("[artifacts.HolyLight]\ncost = -6\n", "artifacts.HolyLight.cost", "must be at least 0"),
    ("[artifacts.Excalibur]\ncost = 1\n", "artifacts.Excalibur", "unknown artifact"),
    ("[map]\nspawn_points = [[[9, -9, 0]], [[8, -6, -2]]]\n", "map.spawn_points[0][0]", "off the board"),
    ("[map]\nspawn_points = [[[0, 0, 0]], [[8, -6, -2]]]\n", "map.spawn_points[0][0]", "(0, 0, 0) is on the abyss"),
    ("[map]\nspawn_points = [[[-7, 7, 0]], [[8, -6, -2]]]\n", "map.spawn_points[0][0]", "is a miracle cell"),
    ("[map]\nabyss = [[1, 1, 1]]\n", "map.abyss[0]", "not a cube cell"),
    ("[map]\nmiracles = [[-7, 7, 0]]\n", "map.miracles", "must list 2 cells"),
    ('[rules]\nfull_tie = "first"\n', "rules.full_tie", "must be one of 'draw', 'second'"),
    ("[rules]\nturn_limit = 0\n", "rules.turn_limit", "must be at least 1"),
    ("[rules]\nunit_steps = [76, 51]\n", "rules.unit_steps", "must be increasing"),
    ('game = "chess"\n', "game", "unknown game 'chess'"),
    ("[rules]\nturn_limt = 50\n", "rules.turn_limt", "unknown key"),
    ("[map]\nabbys = []\n", "map.abbys", "unknown key"),
    ("[[map.garrisons]]\ncell = [0, 5, -5]\nspawn_point = []\n", "map.garrisons[0].spawn_points", "missing key"),
    ("[[map.garrisons]]\ncell = [0, 5, -5]\nspawn_points = []\nowner = 0\n", "map.garrisons[0].owner", "unknown key"),
    ("[artifacts.HolyLight]\nduraton = 3\n", "artifacts.HolyLight.duraton", "unknown key"),
    ("[artifacts.InfernoFlame.inferno]\nhitpoints = 3\n", "artifacts.InfernoFlame.inferno.hitpoints", "unknown key"),
    ('[decks]\npools = ["HolyLight:Archer,Priest,Swordsman"]\n', "decks.pools", "unknown key (known: pool)"),
    ("[rules]\nmana_phase = [1, 4]\n", "rules.mana_phase", "the second player's phase 4 is never reached"),
    # the first player plays the odd turns: with an even period, an even phase never comes round for it
    ("[rules]\nmana_period = 2\nmana_phase = [0, 1]\n", "rules.mana_phase",
     "the first player's phase 0 is never reached: on its (odd) turns, turn % mana_period (2) is never 0"),
    ("[rules]\nmana_period = 2\nmana_phase = [2, 1]\n", "rules.mana_phase", "the first player's phase 2 is never"),
    # a stat beyond its int16 table is refused by name (it used to be a bare OverflowError)
    ("[creatures.Archer.L1]\nattack = 40000\n", "creatures.Archer.L1.attack", "must be at most 32767"),
    ("[creatures.Archer.L1]\nrange = [3, 40000]\n", "creatures.Archer.L1.range", "must be at most 32767"),
    ("[creatures.Priest.L2]\nheal = 40000\n", "creatures.Priest.L2.heal", "must be at most 32767"),
    ("[creatures.Archer]\nunits = [3, 4, 40000]\n", "creatures.Archer.units", "must be at most 32767"),
    ("[artifacts.WindBlessing]\ncooldown = 40000\n", "artifacts.WindBlessing.cooldown", "must be at most 32767"),
    ("[artifacts.InfernoFlame.inferno]\nstars = 40000\n", "artifacts.InfernoFlame.inferno.stars", "at most 32767"),
]


def tables(data, prefix=""):
    """The dotted names of every table of ``data`` (the top level as ``""``)."""
    yield prefix
    for k, v in data.items():
        if isinstance(v, dict):
            yield from tables(v, f"{prefix}.{k}" if prefix else k)


def test_an_unknown_key_in_any_table_is_refused(tmp_path):
    """A misspelt key is refused by name in every table the loader reads: each of the base's, and [decks]."""
    with BASE.open("rb") as f:
        names = [*tables(tomllib.load(f)), "decks"]
    some = {"", "rules", "map", "creatures.Priest.L3", "artifacts.InfernoFlame.inferno", "bots.rush", "sweep"}
    assert some < set(names)
    for name in names:
        path = patch(tmp_path, (f"[{name}]\n" if name else "") + "zzz_unknown = 1\n")
        with pytest.raises(ScenarioError) as err:
            simkit.load_scenario(path)
        key = f"{name}.zzz_unknown" if name else "zzz_unknown"
        assert str(err.value).startswith(f"{path}: {key}: "), name


@pytest.mark.parametrize("text, key, problem", BAD_PATCHES)
def test_bad_patch_is_rejected_naming_file_and_key(tmp_path, text, key, problem):
    """Each invalid value is rejected with one message: the file, the key and the problem."""
    path = patch(tmp_path, text)
    with pytest.raises(ScenarioError) as err:
        simkit.load_scenario(path)
    assert str(err.value).startswith(f"{path}: {key}: ")
    assert problem in str(err.value)


def test_missing_key_is_named(tmp_path):
    """A creature level without its move is rejected naming that key."""
    text = BASE.read_text(encoding="utf-8")
    swordsman_l1 = text.index("[creatures.Swordsman.L1]")
    cut = text.index("move = 3\n", swordsman_l1)
    path = write(tmp_path / "copy.toml", text[:cut] + text[cut + len("move = 3\n"):])
    with pytest.raises(ScenarioError, match=re.escape(f"{path}: creatures.Swordsman.L1.move: missing key")):
        simkit.load_scenario(path)


def test_missing_table_is_named(tmp_path):
    """A scenario without its [rules] table is rejected naming the table."""
    text = BASE.read_text(encoding="utf-8")
    path = write(tmp_path / "copy.toml", text[:text.index("[rules]")] + text[text.index("[map]"):])
    with pytest.raises(ScenarioError, match=re.escape(f"{path}: rules: missing table")):
        simkit.load_scenario(path)


def test_bad_toml_is_named(tmp_path):
    """A file that is not TOML is rejected naming the file."""
    path = write(tmp_path / "broken.toml", 'game = "miracle"\n[rules\nturn_limit = 100\n')
    with pytest.raises(ScenarioError, match=re.escape(f"{path}: not valid TOML")):
        simkit.load_scenario(path)


def test_non_utf8_file_is_named(tmp_path):
    """A scenario saved in another encoding (here Latin-1) is refused in one line naming the file and the byte."""
    path = tmp_path / "latin1.toml"
    path.write_bytes(f'extends = "{BASE.as_posix()}"\nname = "Priester-Änderung"\n'.encode("latin-1"))
    with pytest.raises(ScenarioError) as err:
        simkit.load_scenario(path)
    assert str(err.value).startswith(f"{path}: not UTF-8 text (byte 0xc4 at offset ")
    assert "\n" not in str(err.value)


def test_missing_file_is_named(tmp_path):
    """A missing scenario file is rejected naming it; a missing file named by extends, naming the patch that asked
    for it (two files up the chain too) and where it was looked for."""
    with pytest.raises(ScenarioError, match=re.escape(f"{tmp_path / 'nowhere.toml'}: file not found")):
        simkit.load_scenario(tmp_path / "nowhere.toml")
    path = write(tmp_path / "orphan.toml", 'extends = "gone.toml"\n')
    with pytest.raises(ScenarioError, match=re.escape(f"{path}: extends: 'gone.toml' not found (looked for "
                                                      f"{tmp_path / 'gone.toml'}")):
        simkit.load_scenario(path)
    top = write(tmp_path / "top.toml", 'extends = "orphan.toml"\n')
    with pytest.raises(ScenarioError, match=re.escape(f"{path}: extends: 'gone.toml' not found")):
        simkit.load_scenario(top)


def test_circular_extends_is_rejected(tmp_path):
    """Two files extending each other are rejected instead of looping."""
    write(tmp_path / "a.toml", 'extends = "b.toml"\n')
    write(tmp_path / "b.toml", 'extends = "a.toml"\n')
    with pytest.raises(ScenarioError, match="circular chain"):
        simkit.load_scenario(tmp_path / "a.toml")


def test_an_unknown_bot_gets_a_did_you_mean(base):
    """A misspelt bot names the closest bot the scenario knows; a name like none of them gets no guess."""
    said = base.unknown_bot("balancd")
    assert said.startswith("unknown bot 'balancd': did you mean balanced? (the scenario knows: random, balanced")
    assert "did you mean" not in base.unknown_bot("zzzz")
