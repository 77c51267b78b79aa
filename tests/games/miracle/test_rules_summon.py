"""Rules page section 4, Summon: spawn points, layers, cost, availability, summoning sickness."""

import pytest
from miracle_positions import DRAGONS, MELEE, SHIELD, place, player, set_mana, unit

from simkit import IllegalAction

FIRST_SPAWN = {(-8, 6, 2), (-7, 6, 1), (-6, 6, 0), (-6, 7, -1), (-6, 8, -2)}
SECOND_SPAWN = {(-x, -y, -z) for x, y, z in FIRST_SPAWN}


def summon_cells(m, kind, level=1):
    return {a[3] for a in m.legal_actions() if a[:3] == ("summon", kind, level)}


def test_summon_only_on_own_spawn_points(base):
    """A player summons on its own 5 spawn points only: not the opponent's, not a neutral garrison's."""
    m = base.new_match(MELEE, MELEE)
    assert summon_cells(m, "Swordsman") == FIRST_SPAWN
    with pytest.raises(IllegalAction, match="not one of the current player's spawn points"):
        m.summon("Swordsman", 1, (6, -6, 0))
    with pytest.raises(IllegalAction, match="not one of the current player's spawn points"):
        m.summon("Swordsman", 1, (0, 4, -4))
    m.end_turn()
    assert summon_cells(m, "Swordsman") == SECOND_SPAWN


def test_summon_places_a_full_hp_unit_and_pays_cost_and_one_unit(base):
    """A summon costs the level's mana and one available unit; the unit has full HP on the chosen cell."""
    m = base.new_match(MELEE, MELEE)
    uid = m.summon("Swordsman", 1, (-6, 6, 0))
    u = unit(m, uid)
    assert (u["kind"], u["level"], u["side"], u["pos"], u["hp"], u["max_hp"], u["atk"]) == (
        "Swordsman", 1, 0, (-6, 6, 0), 2, 2, 2)
    assert player(m, 0)["mana"] == 0
    assert player(m, 0)["available"]["Swordsman"] == 5


def test_summon_needs_enough_mana(base):
    """A level whose cost is above the player's mana cannot be summoned."""
    m = base.new_match(MELEE, MELEE)
    with pytest.raises(IllegalAction, match="costs 4 mana, the player has 2"):
        m.summon("Swordsman", 2, (-6, 6, 0))
    assert summon_cells(m, "Swordsman", 2) == set()
    set_mana(m, 6)
    uid = m.summon("Swordsman", 3, (-6, 6, 0))
    assert unit(m, uid)["level"] == 3 and unit(m, uid)["hp"] == 6
    assert player(m, 0)["mana"] == 0


def test_summon_needs_an_available_unit(base):
    """With all 3 Archer units on the board, a 4th Archer cannot be summoned."""
    m = base.new_match(MELEE, MELEE)
    set_mana(m, 12)
    for cell in [(-8, 6, 2), (-7, 6, 1), (-6, 6, 0)]:
        m.summon("Archer", 1, cell)
    assert player(m, 0)["available"]["Archer"] == 0
    with pytest.raises(IllegalAction, match="no Archer unit available"):
        m.summon("Archer", 1, (-6, 7, -1))
    assert summon_cells(m, "Archer") == set()


def test_summon_only_kinds_of_own_deck_and_levels_one_to_three(base):
    """Only a kind of the player's own deck, at level 1, 2 or 3, can be summoned."""
    m = base.new_match(MELEE, DRAGONS)
    set_mana(m, 12)
    with pytest.raises(IllegalAction, match="not in the current player's deck"):
        m.summon("BlackBat", 1, (-6, 6, 0))
    with pytest.raises(IllegalAction, match="unknown creature kind"):
        m.summon("Dragon", 1, (-6, 6, 0))
    for level in (0, 4):
        with pytest.raises(IllegalAction, match="level must be 1, 2 or 3"):
            m.summon("Swordsman", level, (-6, 6, 0))


def test_summon_blocked_by_a_unit_of_the_same_layer(base):
    """A spawn point holding a ground unit (own or enemy) takes no ground summon; same for flying."""
    m = base.new_match(DRAGONS, SHIELD)
    set_mana(m, 12)
    place(m, "Swordsman", (-6, 6, 0), side=1)
    place(m, "VolcanoDragon", (-7, 6, 1), side=0)
    place(m, "BlackBat", (-8, 6, 2), side=1)
    place(m, "BlackBat", (-6, 7, -1), side=0)
    for cell in [(-6, 6, 0), (-7, 6, 1)]:
        with pytest.raises(IllegalAction, match="already holds a ground unit"):
            m.summon("FrostDragon", 1, cell)
    for cell in [(-8, 6, 2), (-6, 7, -1)]:
        with pytest.raises(IllegalAction, match="already holds a flying unit"):
            m.summon("BlackBat", 1, cell)
    assert summon_cells(m, "FrostDragon") == {(-8, 6, 2), (-6, 7, -1), (-6, 8, -2)}
    assert summon_cells(m, "BlackBat") == {(-6, 6, 0), (-7, 6, 1), (-6, 8, -2)}


def test_flying_unit_may_be_summoned_over_an_enemy_ground_unit(base):
    """The other layer may be occupied by either side: a bat over an enemy Swordsman, a dragon under an enemy bat."""
    m = base.new_match(DRAGONS, SHIELD)
    set_mana(m, 12)
    place(m, "Swordsman", (-6, 6, 0), side=1)
    place(m, "BlackBat", (-7, 6, 1), side=1)
    bat = m.summon("BlackBat", 1, (-6, 6, 0))
    dragon = m.summon("FrostDragon", 1, (-7, 6, 1))
    assert unit(m, bat)["pos"] == (-6, 6, 0) and unit(m, bat)["flying"]
    assert unit(m, dragon)["pos"] == (-7, 6, 1) and not unit(m, dragon)["flying"]


def test_summoned_unit_cannot_move_or_attack_this_turn(base):
    """A unit summoned this turn may neither move nor attack until its owner's next turn."""
    m = base.new_match(MELEE, MELEE)
    enemy = place(m, "Swordsman", (-5, 6, -1), side=1)
    uid = m.summon("Swordsman", 1, (-6, 6, 0))
    assert not unit(m, uid)["can_move"] and not unit(m, uid)["can_attack"]
    with pytest.raises(IllegalAction, match="cannot act any more this turn"):
        m.move(uid, (-5, 5, 0))
    with pytest.raises(IllegalAction, match="cannot act any more this turn"):
        m.attack(uid, enemy)
    assert not [a for a in m.legal_actions() if a[0] in ("move", "attack") and a[1] == uid]
