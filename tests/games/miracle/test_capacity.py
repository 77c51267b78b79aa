"""Every scenario number, and every sum the rules make of them, fits the engine's integers or is refused at load.

The state keeps turns, mana, HP and dead stars in int16 and buffs in int8 (``state.empty_state``);
the limits below are theirs. Each is shown from both sides: the largest value the engine holds
loads (and, where the rules add numbers up, plays right in both engines), one more is refused at
load with ``file: key: problem``. Before these checks a turn limit of 40000 made games that never
ended, a miracle of 40000 HP crashed mid-sweep and a stat of 40000 was a bare traceback.
"""

from __future__ import annotations

import numpy as np
import pytest
from miracle_positions import BASE, place

import simkit
from simkit import ScenarioError
from simkit.cli import main
from simkit.games.miracle.capacity import state_dtypes
from simkit.games.miracle.match import Match
from simkit.games.miracle.state import MIRACLE, empty_state

MELEE = "HolyLight:Archer,Priest,Swordsman"
SHIELD = "SalamanderShield:BlackBat,Priest,Swordsman"


def patch(tmp_path, text: str, name: str = "patch.toml"):
    path = tmp_path / name
    path.write_text(f'extends = "{BASE.as_posix()}"\n{text}', encoding="utf-8")
    return path


def refused(tmp_path, text: str, key: str) -> str:
    """Load a patch that must be refused naming ``key``; returns the problem."""
    path = patch(tmp_path, text)
    with pytest.raises(ScenarioError) as err:
        simkit.load_scenario(path)
    message = str(err.value)
    assert message.startswith(f"{path}: {key}: ") and "\n" not in message, message
    return message.removeprefix(f"{path}: {key}: ")


def loads(tmp_path, text: str):
    return simkit.load_scenario(patch(tmp_path, text))


def do(m: Match, action) -> None:
    """Apply ``action`` to ``m`` (the one engine, through the single-match facade)."""
    m.do(action)


def test_limits_follow_the_dtypes_empty_state_builds(base):
    """The limits are read off the state's own arrays: every field's dtype as empty_state makes it."""
    st = empty_state(base.rules, np.zeros((1, 2), np.int16), np.zeros((1, 2, 3), np.int16))
    assert state_dtypes(base.rules) == {name: getattr(st, name).dtype for name in state_dtypes(base.rules)}
    assert state_dtypes(base.rules)["turn"] == np.int16 and state_dtypes(base.rules)["buff"] == np.int8


@pytest.mark.parametrize("field, text, key", [
    ("available", "[creatures.Swordsman]\nunits = [6, 7, 200]\n", "creatures.Swordsman.units"),
    ("artifact_cooldown", "[artifacts.WindBlessing]\ncooldown = 200\n", "artifacts.WindBlessing.cooldown"),
    ("cell", "", "map.bounds"),  # 275 cells
    ("miracle_hp", "[creatures.Swordsman.L3]\nattack = 200\n", "creatures.Swordsman.L3.attack"),
])
def test_a_narrower_state_dtype_narrows_the_limit(tmp_path, monkeypatch, field, text, key):
    """Were a state field int8 instead of int16, a number beyond 127 would be refused at its key: the limits are
    read off the state's dtypes, not written down a second time."""
    import simkit.games.miracle.capacity as capacity

    assert loads(tmp_path, text)
    real = capacity.state_dtypes
    monkeypatch.setattr(capacity, "state_dtypes", lambda rules: {**real(rules), field: np.dtype(np.int8)})
    problem = refused(tmp_path, text, key)
    assert "127, the most the engine's int8 holds" in problem


def test_a_turn_limit_beyond_the_turn_counter_is_refused(tmp_path):
    """turn_limit = 40000 (the int16 turn counter would wrap and the game never end) is refused."""
    problem = refused(tmp_path, "[rules]\nturn_limit = 40000\n", "rules.turn_limit")
    assert problem == "must be at most 32767, the most the engine's int16 holds, got 40000"


def test_a_mana_period_beyond_the_turn_counter_is_refused(tmp_path):
    """turn % mana_period is taken in the turn's int16: a period of 40000 is refused, not an error mid-game."""
    problem = refused(tmp_path, "[rules]\nmana_period = 40000\n", "rules.mana_period")
    assert problem.startswith("must be at most 32767")


def test_miracle_hp_up_to_its_int16_loads_and_beyond_is_refused(tmp_path):
    """A miracle of 32767 HP loads; 32768 (which crashed mid-sweep with an OverflowError) is refused."""
    assert loads(tmp_path, "[rules]\nmiracle_hp = 32767\n").rules.miracle_hp == 32767
    problem = refused(tmp_path, "[rules]\nmiracle_hp = 32768\n", "rules.miracle_hp")
    assert problem == "must be at most 32767, the most the engine's int16 holds, got 32768"


def test_max_mana_keeps_room_to_grow_past_the_cap(tmp_path):
    """Max mana grows by 1 before the cap applies: a cap of 32767 is refused, 32766 holds in both engines."""
    assert refused(tmp_path, "[rules]\nmax_mana_cap = 32767\n", "rules.max_mana_cap").startswith(
        "must be at most 32766 (max mana + 1 must fit before the cap applies")
    sc = loads(tmp_path, "[rules]\nmax_mana_cap = 32766\nfirst_max_mana = 32766\nsecond_max_mana = 32766\n"
                         "mana_period = 1\nmana_phase = [0, 0]\n")
    m = Match(sc, MELEE, MELEE)
    for _ in range(3):
        do(m, ("end_turn",))
    assert m.state.max_mana[0].tolist() == [32766, 32766] and m.state.mana[0, m.current] == 32766


def test_a_hit_with_every_aura_and_holy_light_must_fit_a_units_hp(tmp_path):
    """The Inferno's 8 + four L3 Priests' auras + HolyLight's 2 must stay within int16: aura 8189 loads, 8190 not."""
    loads(tmp_path, "[creatures.Priest.L3]\naura = 8189\n")  # 8 + 4 x 8189 + 2 = 32766
    problem = refused(tmp_path, "[creatures.Priest.L3]\naura = 8190\n", "creatures.Priest.L3.aura")
    assert problem.startswith("the Inferno attacks for up to 32770 (8 base + 32760 from 4 Priest auras + 2 from "
                              "HolyLight), more than a unit's HP can lose in one hit: 32767")


@pytest.mark.parametrize("text, key", [
    ("[artifacts.HolyLight]\nattack = 32760\n", "artifacts.HolyLight.attack"),
    ("[creatures.Swordsman.L3]\nattack = 32762\n", "creatures.Swordsman.L3.attack"),
    ("[artifacts.InfernoFlame]\ndamage = 32768\n", "artifacts.InfernoFlame.damage"),
])
def test_every_kind_of_hit_must_fit_a_units_hp(tmp_path, text, key):
    """HolyLight's bonus, a base attack with the bonuses on top, and InfernoFlame's burn are each checked."""
    assert "more than a unit's HP can lose in one hit: 32767" in refused(tmp_path, text, key)


def test_a_hit_of_the_full_int16_kills_the_strongest_unit_and_miracle_in_do(tmp_path):
    """With no auras or bonuses, attack 32767 loads and takes a 32767-HP unit, then a 32767-HP miracle, to 0."""
    sc = loads(tmp_path, "[rules]\nmiracle_hp = 32767\n[artifacts.HolyLight]\nattack = 0\n"
                         "[creatures.Priest.L1]\naura = 0\n[creatures.Priest.L2]\naura = 0\n"
                         "[creatures.Priest.L3]\naura = 0\n[creatures.Swordsman.L1]\nattack = 32767\n"
                         "[creatures.Swordsman.L3]\nhp = 32767\n[artifacts.SalamanderShield]\nhp = 0\n")
    m = Match(sc, MELEE, MELEE)
    hero = place(m, "Swordsman", (5, -6, 1), side=0)
    wall = place(m, "Swordsman", (5, -5, 0), side=1, level=3)
    do(m, ("attack", hero, wall))  # the wall dies; its counter kills the hero
    assert m.snapshot()["units"] == [] and [p["dead_stars"] for p in m.snapshot()["players"]] == [1, 3]
    raider = place(m, "Swordsman", (6, -6, 0), side=0)
    do(m, ("attack", raider, "miracle"))
    assert m.over and m.state.miracle_hp[0].tolist() == [32767, 0] and m.state.end_reason[0] == MIRACLE


def test_max_hp_with_the_salamander_shield_must_fit(tmp_path):
    """VolcanoDragon L3's 9 HP + a shield of 32758 is 32767 and loads; a shield of 32759 is refused."""
    loads(tmp_path, "[artifacts.SalamanderShield]\nhp = 32758\n")
    problem = refused(tmp_path, "[artifacts.SalamanderShield]\nhp = 32759\n", "artifacts.SalamanderShield.hp")
    assert problem.startswith("VolcanoDragon L3 has up to 9 + 32759 (SalamanderShield) = 32768 HP, above 32767")


def test_the_shield_at_the_limit_gives_full_int16_hp_in_do(tmp_path):
    """A Swordsman L3 of 32764 HP shielded by +3 reaches 32767 max HP in both engines."""
    sc = loads(tmp_path, "[creatures.Swordsman.L3]\nhp = 32764\n[artifacts.SalamanderShield]\ncost = 0\n")
    m = Match(sc, SHIELD, SHIELD)
    bearer = place(m, "Swordsman", (-6, 6, 0), side=0, level=3)
    do(m, ("use", bearer))
    unit = next(u for u in m.snapshot()["units"] if u["id"] == bearer)
    assert (unit["hp"], unit["max_hp"]) == (32767, 32767)


def test_heals_beyond_int16_are_summed_wide_and_capped_at_max_hp_in_do(tmp_path):
    """Two L1 Priests healing 32767 each (65534 in all) bring a 1-HP Swordsman back to its 2, not past int16."""
    sc = loads(tmp_path, "[creatures.Priest.L1]\nheal = 32767\n")
    m = Match(sc, MELEE, MELEE)
    place(m, "Priest", (-5, 5, 0), side=0)
    place(m, "Priest", (-5, 6, -1), side=0)
    swordsman = place(m, "Swordsman", (-6, 6, 0), side=0, hp=1)
    do(m, ("end_turn",))
    hp = {u["id"]: (u["hp"], u["max_hp"]) for u in m.snapshot()["units"]}
    assert hp[swordsman] == (2, 2) and all(now == most for now, most in hp.values())


def test_holy_light_lasts_at_most_what_the_int8_buff_holds(tmp_path):
    """HolyLight's duration is a unit's int8 buff counter: 127 loads, 128 is refused."""
    loads(tmp_path, "[artifacts.HolyLight]\nduration = 127\n")
    problem = refused(tmp_path, "[artifacts.HolyLight]\nduration = 128\n", "artifacts.HolyLight.duration")
    assert problem == "must be at most 127, the most the engine's int8 holds, got 128"


def test_dead_stars_of_the_longest_game_must_fit(tmp_path):
    """12 mana buys at most 8 dead stars a turn (four BlackBat L2 at 3): 4095 turns of a side fit int16, 4096 not."""
    loads(tmp_path, "[rules]\nturn_limit = 8190\n")  # 4095 x 8 = 32760
    problem = refused(tmp_path, "[rules]\nturn_limit = 8192\n", "rules.turn_limit")
    assert problem.startswith("4096 turns of a side, each placing units worth up to 8 dead stars (max_mana_cap 12 "
                              "buys at most that many, of BlackBat L2), could count 32768 dead stars, above 32767")


def test_free_units_count_dead_stars_by_the_bots_action_cap(tmp_path):
    """With a 0-mana unit only the bots' action cap bounds placements: 150 turns x 80 x 3 stars is refused."""
    problem = refused(tmp_path, "[creatures.Archer.L1]\ncost = 0\n[rules]\nturn_limit = 300\n", "rules.turn_limit")
    assert "up to 240 dead stars (bots.max_actions_per_turn, a placement may cost 0 mana)" in problem
    loads(tmp_path, "[creatures.Archer.L1]\ncost = 0\n[bots]\nmax_actions_per_turn = 20\n")  # 50 x 60 = 3000


@pytest.mark.parametrize("bounds, problem", [
    ("[8, 40, 40]", "the board is 81 cells wide (y from -40 to 40); the engine's row bitboards hold at most 64"),
    ("[2000, 8, 2000]", "the board has 67937 cells, more than the 32767 the engine's cell index holds"),
    ("[1000000000, 8, 1000000000]", "the board has 2000000001 rows (x from -1000000000 to 1000000000), more cells"),
])
def test_a_board_the_engine_cannot_index_is_refused_before_it_is_built(tmp_path, bounds, problem):
    """Bounds too wide for a row bitboard or with more cells than an int16 index are refused naming map.bounds."""
    assert refused(tmp_path, f"[map]\nbounds = {bounds}\n", "map.bounds").startswith(problem)


@pytest.mark.parametrize("text", [
    "[rules]\nmiracle_hp = 40000\n", "[rules]\nturn_limit = 40000\n", "[creatures.Archer.L1]\nattack = 40000\n",
])
def test_sweep_of_an_out_of_range_scenario_exits_with_one_line_and_writes_nothing(tmp_path, capsys, text):
    """`simkit sweep` on a scenario the engine cannot hold exits 2 with one line naming file and key; no folder."""
    path = patch(tmp_path, text, "big.toml")
    out = tmp_path / "results"
    assert main(["sweep", str(path), "--games", "1", "--decks", MELEE, "--out", str(out), "--workers", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"simkit sweep: error: {path}: ")
    assert not out.exists()
