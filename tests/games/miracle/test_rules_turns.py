"""Rules page section 3 (turns): mana, garrison capture, cooldown phase, unit-count steps, readiness."""

import pytest
from miracle_positions import DRAGONS, MELEE, end_turns, place, player, set_mana, unit

from simkit import IllegalAction

NORTH_GARRISON = (0, 5, -5)  # spawn points (0,4,-4) (1,4,-5) (1,5,-6)
SOUTH_GARRISON = (0, -5, 5)  # spawn points (0,-4,4) (-1,-4,5) (-1,-5,6)


def test_first_player_moves_on_odd_turns(base):
    """The first player plays odd turns and the second even turns."""
    m = base.new_match(MELEE, DRAGONS)
    seen = []
    for _ in range(4):
        snap = m.snapshot()
        seen.append((snap["turn"], snap["current"]))
        m.end_turn()
    assert seen == [(1, 0), (2, 1), (3, 0), (4, 1)]


def test_max_mana_over_turns_one_to_eight(base):
    """Max mana of the player to act over turns 1..8 is 2,2,2,3,3,3,3,4 (starting from 1 and 2)."""
    m = base.new_match(MELEE, DRAGONS)
    seen = []
    for _ in range(8):
        snap = m.snapshot()
        seen.append(snap["players"][snap["current"]]["max_mana"])
        m.end_turn()
    assert seen == [2, 2, 2, 3, 3, 3, 3, 4]


def test_max_mana_reaches_twelve_on_turns_41_and_40_and_stays(base):
    """The first player reaches 12 max mana on turn 41, the second on turn 40, and neither ever exceeds 12."""
    m = base.new_match(MELEE, DRAGONS)
    reached = {}
    for _ in range(99):
        snap = m.snapshot()
        side = snap["current"]
        mana = snap["players"][side]["max_mana"]
        assert mana <= 12
        if mana == 12 and side not in reached:
            reached[side] = snap["turn"]
        m.end_turn()
    assert reached == {0: 41, 1: 40}
    assert player(m, 0)["max_mana"] == player(m, 1)["max_mana"] == 12


def test_mana_is_refilled_to_max_at_each_own_turn_start(base):
    """Spent mana returns: at the player's turn start mana := max mana."""
    m = base.new_match(MELEE, DRAGONS)
    m.summon("Swordsman", 1, (-6, 6, 0))
    assert player(m, 0)["mana"] == 0
    m.end_turn()
    assert player(m, 0)["mana"] == 0  # not the first player's turn start
    m.end_turn()
    assert player(m, 0)["mana"] == player(m, 0)["max_mana"] == 2


def test_summoned_unit_may_act_at_its_owners_next_turn(base):
    """At the owner's turn start its units may move and attack again; not at the opponent's turn start."""
    m = base.new_match(MELEE, DRAGONS)
    uid = m.summon("Swordsman", 1, (-6, 6, 0))
    assert not unit(m, uid)["can_move"]
    m.end_turn()
    assert not unit(m, uid)["can_move"]
    m.end_turn()
    assert unit(m, uid)["can_move"] and unit(m, uid)["can_attack"]
    m.move(uid, (-5, 5, 0))
    assert not unit(m, uid)["can_move"]


def test_garrison_is_captured_at_a_turn_start_by_a_ground_unit(base):
    """A ground unit on a garrison claims it for its side at the next turn start (either player's)."""
    m = base.new_match(MELEE, DRAGONS)
    place(m, "Swordsman", NORTH_GARRISON, side=0)
    assert m.snapshot()["garrisons"][NORTH_GARRISON] is None  # not before a turn start
    m.end_turn()
    assert m.snapshot()["garrisons"] == {(-6, -6, 12): None, (6, 6, -12): None, SOUTH_GARRISON: None,
                                         NORTH_GARRISON: 0}


def test_flying_unit_does_not_capture_a_garrison(base):
    """A flying unit standing on a garrison does not claim it."""
    m = base.new_match(DRAGONS, MELEE)
    place(m, "BlackBat", NORTH_GARRISON, side=0)
    end_turns(m, 2)
    assert m.snapshot()["garrisons"][NORTH_GARRISON] is None


def test_garrison_ownership_persists_until_another_side_stands_there(base):
    """Ownership stays after the unit leaves and passes to the other side only when its ground unit is there."""
    m = base.new_match(MELEE, DRAGONS)
    uid = place(m, "Swordsman", NORTH_GARRISON, side=0)
    end_turns(m, 2)
    m.move(uid, (0, 3, -3))
    end_turns(m, 2)
    assert m.snapshot()["garrisons"][NORTH_GARRISON] == 0
    m.end_turn()
    place(m, "VolcanoDragon", NORTH_GARRISON, side=1)
    assert m.snapshot()["garrisons"][NORTH_GARRISON] == 0
    m.end_turn()
    assert m.snapshot()["garrisons"][NORTH_GARRISON] == 1


def test_owned_garrison_adds_its_three_spawn_points(base):
    """An owned garrison's 3 spawn points join the owner's 5 initial ones, and only the owner's."""
    m = base.new_match(MELEE, MELEE)
    place(m, "Swordsman", NORTH_GARRISON, side=0)

    def spawns(match):
        return {a[3] for a in match.legal_actions() if a[:3] == ("summon", "Swordsman", 1)}

    own = {(-8, 6, 2), (-7, 6, 1), (-6, 6, 0), (-6, 7, -1), (-6, 8, -2)}
    assert spawns(m) == own
    m.end_turn()
    assert spawns(m) == {(-x, -y, -z) for x, y, z in own}
    m.end_turn()
    assert spawns(m) == own | {(0, 4, -4), (1, 4, -5), (1, 5, -6)}
    uid = m.summon("Swordsman", 1, (1, 4, -5))
    assert unit(m, uid)["pos"] == (1, 4, -5)


def test_unit_counts_rise_on_turns_51_and_76_for_both_players(base):
    """On turns 51 and 76 both players' unit counts rise to the next start/51/76 value, available at once."""
    m = base.new_match(MELEE, DRAGONS)
    end_turns(m, 49)
    assert m.snapshot()["turn"] == 50
    counts = [player(m, s)["available"] for s in (0, 1)]
    assert counts == [{"Archer": 3, "Priest": 3, "Swordsman": 6},
                      {"BlackBat": 3, "FrostDragon": 3, "VolcanoDragon": 3}]
    m.end_turn()
    counts = [player(m, s)["available"] for s in (0, 1)]
    assert counts == [{"Archer": 4, "Priest": 4, "Swordsman": 7},
                      {"BlackBat": 4, "FrostDragon": 4, "VolcanoDragon": 4}]
    end_turns(m, 24)
    assert m.snapshot()["turn"] == 75
    m.end_turn()
    counts = [player(m, s)["available"] for s in (0, 1)]
    assert counts == [{"Archer": 5, "Priest": 4, "Swordsman": 8},
                      {"BlackBat": 5, "FrostDragon": 5, "VolcanoDragon": 5}]


def test_extra_units_of_a_step_can_be_summoned_at_once(base):
    """With every Swordsman on the board, the 7th becomes summonable on turn 51 itself."""
    m = base.new_match(MELEE, DRAGONS)
    for i in range(6):
        place(m, "Swordsman", (-4 + i, 8 - i, -4), side=0)
    end_turns(m, 48)
    set_mana(m, 12, side=0)
    with pytest.raises(IllegalAction, match="no Swordsman unit available"):
        m.summon("Swordsman", 1, (-6, 6, 0))
    end_turns(m, 2)
    assert m.snapshot()["turn"] == 51
    uid = m.summon("Swordsman", 1, (-6, 6, 0))
    assert unit(m, uid)["kind"] == "Swordsman"
    assert player(m, 0)["available"]["Swordsman"] == 0


def test_main_phase_allows_any_number_of_actions_in_any_order(base):
    """In one turn a player may summon, move, attack, use its artifact and summon again, in any order."""
    m = base.new_match(MELEE, DRAGONS)
    sword = place(m, "Swordsman", (-5, 5, 0))
    archer = place(m, "Archer", (2, -4, 2))
    enemy = place(m, "FrostDragon", (5, -4, -1), side=1, level=3)
    set_mana(m, 12)
    first = m.summon("Swordsman", 1, (-6, 6, 0))
    m.move(sword, (-3, 3, 0))
    m.use((-6, 6, 0))
    m.attack(archer, enemy)
    second = m.summon("Priest", 1, (-7, 6, 1))
    m.end_turn()
    assert [a[0] for a in m.actions] == ["summon", "move", "use", "attack", "summon", "end_turn"]
    assert unit(m, first)["pos"] == (-6, 6, 0) and unit(m, second)["pos"] == (-7, 6, 1)
    assert unit(m, sword)["pos"] == (-3, 3, 0) and unit(m, enemy)["hp"] == 8 - 1
    assert player(m, 0)["mana"] == 12 - 2 - 6 - 2
