"""Rules page section 4, Attack: ranges, layers, the miracle, counter-attacks, splash, one action per turn."""

import pytest
from miracle_positions import DRAGONS, MELEE, SHIELD, place, player, targets, unit

from simkit import IllegalAction

LINE = [(2 + k, -4, 2 - k) for k in range(6)]  # LINE[i] and LINE[j] are |i - j| apart
VOLCANO = "HolyLight:Priest,Swordsman,VolcanoDragon"


def hp(m, uid):
    u = unit(m, uid)
    return None if u is None else u["hp"]


def test_attack_range_has_a_minimum_and_a_maximum(base):
    """An Archer (range 3-4) can attack enemies at distance 3 and 4, not 2 or 5."""
    m = base.new_match(MELEE, SHIELD)
    archer = place(m, "Archer", LINE[0])
    near, lo, hi, far = (place(m, "Swordsman", LINE[k], side=1) for k in (2, 3, 4, 5))
    assert targets(m, archer) == {lo, hi}
    with pytest.raises(IllegalAction, match="not within range 3-4"):
        m.attack(archer, near)
    with pytest.raises(IllegalAction, match="not within range 3-4"):
        m.attack(archer, far)
    m.attack(archer, hi)
    assert hp(m, hi) == 1


def test_attack_deals_the_attackers_current_attack(base):
    """The target loses HP equal to the attacker's attack."""
    m = base.new_match(MELEE, SHIELD)
    sword = place(m, "Swordsman", LINE[0], level=3)
    target = place(m, "Swordsman", LINE[1], side=1, level=3, hp=6)
    m.attack(sword, target)
    assert unit(m, target) is None  # 6 damage on 6 HP: dead
    other = place(m, "Swordsman", (3, -5, 2), side=1, level=3)
    archer = place(m, "Archer", (6, -5, -1), level=2)
    m.attack(archer, other)
    assert hp(m, other) == 6 - 2


def test_flying_target_needs_a_flying_or_anti_air_attacker(base):
    """A Swordsman cannot hit a bat; an Archer (anti-air) and a bat (flying) can."""
    m = base.new_match(MELEE, SHIELD)
    sword = place(m, "Swordsman", LINE[0])
    archer = place(m, "Archer", LINE[4])
    enemy_bat = place(m, "BlackBat", LINE[1], side=1)
    with pytest.raises(IllegalAction, match="flies; unit .* is neither flying nor anti-air"):
        m.attack(sword, enemy_bat)
    assert enemy_bat not in targets(m, sword)
    assert enemy_bat in targets(m, archer)
    m.attack(archer, enemy_bat)
    assert unit(m, enemy_bat) is None
    m2 = base.new_match(SHIELD, SHIELD)
    bat = place(m2, "BlackBat", LINE[0])
    other_bat = place(m2, "BlackBat", LINE[1], side=1)
    assert other_bat in targets(m2, bat)


def test_range_zero_reaches_the_other_layer_of_the_same_cell(base):
    """Range 0 is the unit's own cell: a bat hits the ground unit beneath it, a FrostDragon the bat above it."""
    m = base.new_match(DRAGONS, SHIELD)
    bat = place(m, "BlackBat", LINE[0])
    frost = place(m, "FrostDragon", LINE[2])
    under = place(m, "Swordsman", LINE[0], side=1, level=3)
    over = place(m, "BlackBat", LINE[2], side=1)
    assert under in targets(m, bat) and over in targets(m, frost)
    m.attack(frost, over)
    assert unit(m, over) is None


def test_attack_on_the_enemy_miracle(base):
    """A unit within range of the enemy miracle attacks it for its attack; out of range it cannot."""
    m = base.new_match(MELEE, SHIELD)
    sword = place(m, "Swordsman", (6, -6, 0))  # distance 1 from (7, -7, 0)
    archer = place(m, "Archer", (4, -4, 0))  # distance 3
    far = place(m, "Swordsman", (4, -5, 1))  # distance 3
    own = place(m, "Swordsman", (-6, 6, 0))  # next to its own miracle
    assert "miracle" in targets(m, sword) and "miracle" in targets(m, archer)
    assert "miracle" not in targets(m, far) and "miracle" not in targets(m, own)
    m.attack(sword, "miracle")
    m.attack(archer, "miracle")
    assert player(m, 1)["miracle_hp"] == 30 - 2 - 1
    assert player(m, 0)["miracle_hp"] == 30
    assert hp(m, sword) == 2  # a miracle does not strike back
    with pytest.raises(IllegalAction, match="enemy miracle is not within range 1-1"):
        m.attack(far, "miracle")


def test_unit_with_attack_zero_cannot_attack(base):
    """A lone Priest (attack 0) has no attack, even with an enemy in range."""
    m = base.new_match(MELEE, SHIELD)
    priest = place(m, "Priest", LINE[0])
    enemy = place(m, "Swordsman", LINE[1], side=1)
    assert targets(m, priest) == set()
    with pytest.raises(IllegalAction, match="has attack 0"):
        m.attack(priest, enemy)


def test_target_counter_attacks_when_attacker_is_in_its_range(base):
    """A surviving target within range strikes back for its own attack."""
    m = base.new_match(MELEE, SHIELD)
    sword = place(m, "Swordsman", LINE[0], level=3)
    target = place(m, "Swordsman", LINE[1], side=1, level=2)
    m.attack(sword, target)
    assert unit(m, target) is None
    assert hp(m, sword) == 6 - 4


def test_lethal_attack_still_draws_the_counter_and_both_die(base):
    """Deaths are resolved after the whole action: a target brought to 0 HP still counters; both can die."""
    m = base.new_match(MELEE, SHIELD)
    sword = place(m, "Swordsman", LINE[0])
    target = place(m, "Swordsman", LINE[1], side=1)
    m.attack(sword, target)
    assert unit(m, sword) is None and unit(m, target) is None
    assert player(m, 0)["dead_stars"] == 1 and player(m, 1)["dead_stars"] == 1


def test_no_counter_when_attacker_is_out_of_the_targets_range(base):
    """An Archer shooting a Swordsman 3 cells away takes no counter; neither does a bat beside an Archer."""
    m = base.new_match(MELEE, SHIELD)
    archer = place(m, "Archer", LINE[0])
    sword = place(m, "Swordsman", LINE[3], side=1, level=3)
    m.attack(archer, sword)
    assert hp(m, archer) == 2 and hp(m, sword) == 5
    m2 = base.new_match(SHIELD, MELEE)
    bat = place(m2, "BlackBat", LINE[0])
    enemy_archer = place(m2, "Archer", LINE[1], side=1, level=3)
    m2.attack(bat, enemy_archer)
    assert hp(m2, bat) == 1 and hp(m2, enemy_archer) == 4 - 1


def test_no_counter_when_target_cannot_hit_the_attackers_layer(base):
    """A bat attacking a Swordsman (no anti-air) takes no counter, even adjacent."""
    m = base.new_match(SHIELD, MELEE)
    bat = place(m, "BlackBat", LINE[0], level=3)
    sword = place(m, "Swordsman", LINE[1], side=1, level=3)
    m.attack(bat, sword)
    assert hp(m, bat) == 2 and hp(m, sword) == 2


def test_anti_air_target_counters_a_flying_attacker(base):
    """A FrostDragon (anti-air, range 0-2) strikes back at a bat that attacks it."""
    m = base.new_match(SHIELD, DRAGONS)
    bat = place(m, "BlackBat", LINE[0], level=3)
    frost = place(m, "FrostDragon", LINE[1], side=1)
    m.attack(bat, frost)
    assert unit(m, frost) is None and unit(m, bat) is None  # 4 damage on 4 HP; 3 counter damage on 2 HP
    m2 = base.new_match(SHIELD, DRAGONS)
    bat2 = place(m2, "BlackBat", LINE[0], level=3)
    frost2 = place(m2, "FrostDragon", LINE[0], side=1, level=3)  # range 0: beneath the bat
    m2.attack(bat2, frost2)
    assert hp(m2, frost2) == 8 - 4 and unit(m2, bat2) is None


def test_flying_target_counters_a_flying_attacker(base):
    """Flying units can hit flying units, so a bat attacked by a bat strikes back (intended, as the rulebook says)."""
    m = base.new_match(SHIELD, DRAGONS)
    bat = place(m, "BlackBat", LINE[0], level=3)
    enemy = place(m, "BlackBat", LINE[1], side=1, level=2)
    m.attack(bat, enemy)
    assert unit(m, enemy) is None  # 4 damage on 1 HP
    assert unit(m, bat) is None  # 2 counter damage on 2 HP


def test_one_action_per_unit_per_turn(base):
    """After attacking, a unit may neither attack again nor move this turn."""
    m = base.new_match(MELEE, SHIELD)
    sword = place(m, "Swordsman", LINE[0], level=3)
    first = place(m, "Swordsman", LINE[1], side=1)
    second = place(m, "Swordsman", (3, -5, 2), side=1, level=3)
    m.attack(sword, first)
    assert not unit(m, sword)["can_attack"] and not unit(m, sword)["can_move"]
    with pytest.raises(IllegalAction, match="cannot act any more this turn"):
        m.attack(sword, second)
    with pytest.raises(IllegalAction, match="cannot act any more this turn"):
        m.move(sword, (1, -3, 2))
    with pytest.raises(IllegalAction, match="cannot act any more this turn"):
        m.attack(sword, "miracle")


def test_splash_at_range_one_hits_enemy_ground_behind_the_target(base):
    """Attacking at range 1, the dragon splashes enemy ground units 1 from the target and 2 from itself only."""
    m = base.new_match(VOLCANO, SHIELD)
    dragon = place(m, "VolcanoDragon", LINE[0], level=2)
    target = place(m, "Swordsman", LINE[1], side=1, level=3)
    behind = place(m, "Swordsman", LINE[2], side=1, level=3)  # 1 from target, 2 from dragon
    beside = place(m, "Swordsman", (2, -3, 1), side=1, level=3)  # 1 from both
    farther = place(m, "Swordsman", LINE[3], side=1, level=3)  # 2 from target
    flyer = place(m, "BlackBat", (4, -5, 1), side=1, level=3)  # 1 from target, 2 from dragon, flying
    friend = place(m, "Swordsman", (3, -3, 0), level=3)  # 1 from target, 2 from dragon, friendly
    m.attack(dragon, target)
    assert hp(m, target) == 6 - 4
    assert hp(m, behind) == 6 - 4
    assert (hp(m, beside), hp(m, farther), hp(m, flyer), hp(m, friend)) == (6, 6, 2, 6)
    assert hp(m, dragon) == 7 - 6  # the target's counter


def test_splash_at_range_two_skips_units_next_to_the_dragon(base):
    """Attacking at range 2, the dragon splashes the target's neighbours at distance 2 from it, not those at 1."""
    m = base.new_match(VOLCANO, SHIELD)
    dragon = place(m, "VolcanoDragon", LINE[0])
    target = place(m, "Swordsman", LINE[2], side=1, level=3)
    side_a = place(m, "Swordsman", (3, -3, 0), side=1, level=3)
    side_b = place(m, "Swordsman", (4, -5, 1), side=1, level=3)
    between = place(m, "Swordsman", LINE[1], side=1, level=3)  # 1 from target and 1 from dragon
    behind = place(m, "Swordsman", LINE[3], side=1, level=3)  # 1 from target, 3 from dragon
    m.attack(dragon, target)
    assert hp(m, target) == 6 - 3
    assert (hp(m, side_a), hp(m, side_b)) == (6 - 3, 6 - 3)
    assert (hp(m, between), hp(m, behind)) == (6, 6)
    assert hp(m, dragon) == 5  # a Swordsman 2 away cannot counter


def test_splash_damage_is_fixed_whatever_the_attack_bonus(base):
    """Priest auras raise the dragon's hit but not its splash (3 at level 1)."""
    m = base.new_match(VOLCANO, SHIELD)
    dragon = place(m, "VolcanoDragon", LINE[0])
    place(m, "Priest", (1, -4, 3))
    place(m, "Priest", (2, -5, 3))
    target = place(m, "Swordsman", LINE[1], side=1, level=3)
    behind = place(m, "Swordsman", LINE[2], side=1, level=3)
    assert unit(m, dragon)["atk"] == 3 + 2
    m.attack(dragon, target)
    assert hp(m, target) == 6 - 5
    assert hp(m, behind) == 6 - 3


def test_attacking_the_miracle_splashes_nothing(base):
    """A dragon attacking the enemy miracle splashes no unit, even one 1 from the miracle and 2 from it."""
    m = base.new_match(VOLCANO, SHIELD)
    dragon = place(m, "VolcanoDragon", (5, -5, 0))  # 2 from the miracle (7, -7, 0)
    near = place(m, "Swordsman", (6, -7, 1), side=1, level=3)  # 1 from the miracle, 2 from the dragon
    m.attack(dragon, "miracle")
    assert player(m, 1)["miracle_hp"] == 27
    assert hp(m, near) == 6
