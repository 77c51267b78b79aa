"""Rules page section 2, Priest: attack aura and end-of-turn heal."""

import pytest
from miracle_positions import MELEE, SHIELD, place, targets, unit

from simkit import IllegalAction

LINE = [(2 + k, -4, 2 - k) for k in range(6)]  # LINE[i] and LINE[j] are |i - j| apart


def atk(m, uid):
    return unit(m, uid)["atk"]


def hp(m, uid):
    return unit(m, uid)["hp"]


def test_priest_aura_gives_other_friendly_units_plus_one_within_range(base):
    """An L1 Priest gives +1 attack to friendly units within 2, not at 3, not to enemies and not to itself."""
    m = base.new_match(MELEE, SHIELD)
    priest = place(m, "Priest", LINE[0])
    near = place(m, "Swordsman", LINE[2])
    far = place(m, "Swordsman", LINE[3])
    enemy = place(m, "Swordsman", LINE[1], side=1)
    assert (atk(m, near), atk(m, far), atk(m, enemy), atk(m, priest)) == (3, 2, 2, 0)


def test_priest_aura_range_grows_with_level(base):
    """An L2 Priest reaches 3 cells, an L1 Priest only 2."""
    m = base.new_match(MELEE, SHIELD)
    place(m, "Priest", LINE[0], level=2)
    sword = place(m, "Swordsman", LINE[3])
    assert atk(m, sword) == 3


def test_priest_auras_stack_and_priests_buff_each_other(base):
    """Two priests give +2 to a unit in both auras, and +1 to each other (never to themselves)."""
    m = base.new_match(MELEE, SHIELD)
    a = place(m, "Priest", LINE[0])
    b = place(m, "Priest", LINE[2])
    sword = place(m, "Swordsman", LINE[1])
    assert atk(m, sword) == 2 + 2
    assert (atk(m, a), atk(m, b)) == (1, 1)


def test_buffed_priest_attacks_and_counters(base):
    """A priest buffed by another priest attacks for 1 and counters for 1; a lone priest does neither."""
    m = base.new_match(MELEE, SHIELD)
    priest = place(m, "Priest", LINE[0])
    place(m, "Priest", (1, -4, 3))
    enemy = place(m, "Swordsman", LINE[1], side=1)
    assert enemy in targets(m, priest)
    m.attack(priest, enemy)
    assert hp(m, enemy) == 2 - 1
    assert hp(m, priest) == 3 - 2

    m2 = base.new_match(SHIELD, MELEE)
    attacker = place(m2, "Swordsman", LINE[0], level=3)
    buffed = place(m2, "Priest", LINE[1], side=1)
    place(m2, "Priest", LINE[2], side=1)
    lone_attacker = place(m2, "Swordsman", (-3, 3, 0))
    lone = place(m2, "Priest", (-2, 3, -1), side=1, level=3)
    m2.attack(attacker, buffed)
    assert hp(m2, attacker) == 6 - 1
    m2.attack(lone_attacker, lone)
    assert hp(m2, lone) == 6 - 2 and hp(m2, lone_attacker) == 2


def test_lone_priest_cannot_attack(base):
    """A priest without another priest nearby has attack 0 and cannot attack."""
    m = base.new_match(MELEE, SHIELD)
    priest = place(m, "Priest", LINE[0], level=3)
    enemy = place(m, "Swordsman", LINE[1], side=1)
    with pytest.raises(IllegalAction, match="attack 0"):
        m.attack(priest, enemy)


def test_priest_heals_friendly_units_in_range_at_end_of_own_turn(base):
    """At its owner's turn end an L1 Priest heals 1 to friendly units within 2, itself included."""
    m = base.new_match(MELEE, SHIELD)
    priest = place(m, "Priest", LINE[0], hp=1)
    near = place(m, "Swordsman", LINE[2], level=3, hp=2)
    far = place(m, "Swordsman", LINE[3], level=3, hp=2)
    enemy = place(m, "Swordsman", LINE[1], side=1, level=3, hp=2)
    m.end_turn()
    assert (hp(m, priest), hp(m, near), hp(m, far), hp(m, enemy)) == (2, 3, 2, 2)


def test_priest_heal_is_capped_at_max_hp_and_stacks_per_priest(base):
    """Each priest in range heals 1 (two priests heal 2) and no unit goes above its max HP."""
    m = base.new_match(MELEE, SHIELD)
    place(m, "Priest", LINE[0])
    place(m, "Priest", LINE[2])
    wounded = place(m, "Swordsman", LINE[1], level=3, hp=2)
    nearly = place(m, "Swordsman", (3, -5, 2), level=3, hp=5)
    m.end_turn()
    assert hp(m, wounded) == 4
    assert hp(m, nearly) == 6


def test_priest_does_not_heal_at_the_opponents_turn_end(base):
    """The heal is an end-of-own-turn effect: nothing heals when the opponent ends its turn."""
    m = base.new_match(SHIELD, MELEE)
    m.end_turn()
    place(m, "Priest", LINE[0], side=0)
    wounded = place(m, "Swordsman", LINE[1], side=0, level=3, hp=2)
    m.end_turn()  # the second player's turn ends
    assert hp(m, wounded) == 2
    m.end_turn()  # the first player's turn ends
    assert hp(m, wounded) == 3


def test_priest_aura_ends_when_the_priest_dies(base):
    """Once the priest dies its aura is gone: the buffed unit's attack falls back."""
    m = base.new_match(SHIELD, MELEE)
    killer = place(m, "Swordsman", (3, -5, 2), level=3)
    priest = place(m, "Priest", LINE[0], side=1)
    sword = place(m, "Swordsman", LINE[1], side=1)
    assert atk(m, sword) == 3
    m.attack(killer, priest)
    assert unit(m, priest) is None
    assert atk(m, sword) == 2
