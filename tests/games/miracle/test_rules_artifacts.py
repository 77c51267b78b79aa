"""Rules page section 2, artifacts: SalamanderShield (holy shield), HolyLight, InfernoFlame, WindBlessing."""

import pytest
from miracle_positions import (
    DRAGONS,
    MELEE,
    SHIELD,
    WIND,
    end_turns,
    patch_scenario,
    place,
    player,
    set_hp,
    set_mana,
    targets,
    unit,
)

from simkit import IllegalAction

LINE = [(2 + k, -4, 2 - k) for k in range(6)]  # LINE[i] and LINE[j] are |i - j| apart


def hp(m, uid):
    return unit(m, uid)["hp"]


def artifact(m, side):
    a = player(m, side)["artifact"]
    return a["state"], a["cooldown"]


# -- SalamanderShield and the holy shield ----------------------------------------------------


def test_salamander_shield_adds_three_hp_and_a_holy_shield(base):
    """SalamanderShield on a friendly unit: +3 max HP and +3 HP, a holy shield, 6 mana, artifact in use."""
    m = base.new_match(SHIELD, MELEE)
    set_mana(m, 6)
    sword = place(m, "Swordsman", LINE[0], hp=1)
    m.use(sword)
    u = unit(m, sword)
    assert (u["hp"], u["max_hp"], u["holy_shield"]) == (4, 5, True)
    assert player(m, 0)["mana"] == 0
    assert artifact(m, 0) == ("in_use", 0)
    set_mana(m, 6)
    with pytest.raises(IllegalAction, match="SalamanderShield is in use"):
        m.use(sword)


def test_salamander_shield_targets_only_a_friendly_unit(base):
    """SalamanderShield cannot be used on an enemy unit nor on a cell."""
    m = base.new_match(SHIELD, MELEE)
    set_mana(m, 6)
    enemy = place(m, "Swordsman", LINE[1], side=1)
    with pytest.raises(IllegalAction, match="must target a friendly unit"):
        m.use(enemy)
    with pytest.raises(IllegalAction, match="targets a friendly unit id, not a cell"):
        m.use(LINE[0])


def test_holy_shield_cancels_the_whole_first_hit_only(base):
    """The holy shield cancels the whole of one hit, however big, then is gone; the next hit hurts."""
    m = base.new_match(MELEE, SHIELD)
    first = place(m, "Swordsman", LINE[0], level=3)
    second = place(m, "Swordsman", (3, -5, 2), level=3)
    m.end_turn()
    set_mana(m, 6)
    shielded = place(m, "Swordsman", LINE[1], side=1)
    m.use(shielded)
    m.end_turn()
    m.attack(first, shielded)
    assert (hp(m, shielded), unit(m, shielded)["holy_shield"]) == (5, False)
    assert hp(m, first) == 6 - 2  # the counter still lands
    m.attack(second, shielded)
    assert unit(m, shielded) is None


def test_holy_shield_cancels_a_counter_attack(base):
    """A shielded attacker's holy shield takes the target's counter-attack."""
    m = base.new_match(SHIELD, MELEE)
    set_mana(m, 6)
    sword = place(m, "Swordsman", LINE[0])
    enemy = place(m, "Swordsman", LINE[1], side=1, level=3)
    m.use(sword)
    m.attack(sword, enemy)
    assert hp(m, enemy) == 4
    assert (hp(m, sword), unit(m, sword)["holy_shield"]) == (5, False)


def test_zero_damage_does_not_consume_the_holy_shield(base, tmp_path):
    """A hit of 0 damage (an InfernoFlame patched to 0 damage) leaves the holy shield up."""
    sc = patch_scenario(tmp_path, "[artifacts.InfernoFlame]\ndamage = 0\n")
    m = sc.new_match(DRAGONS, SHIELD)
    m.end_turn()
    set_mana(m, 6)
    shielded = place(m, "Swordsman", (-4, 6, -2), side=1)
    m.use(shielded)
    m.end_turn()
    set_mana(m, 8)
    m.use((-4, 5, -1))  # within 7 of the own miracle, 1 from the shielded unit
    assert unit(m, shielded)["holy_shield"] and hp(m, shielded) == 5


def test_holy_shield_returns_at_each_of_its_owners_turn_starts(base):
    """A used-up holy shield comes back at the owner's next turn start, not at the opponent's."""
    m = base.new_match(SHIELD, MELEE)
    set_mana(m, 6)
    sword = place(m, "Swordsman", LINE[0], level=3)
    enemy = place(m, "Swordsman", LINE[1], side=1, level=3)
    m.use(sword)
    m.attack(sword, enemy)  # the counter takes the shield
    assert not unit(m, sword)["holy_shield"]
    m.end_turn()
    assert not unit(m, sword)["holy_shield"]
    m.end_turn()
    assert unit(m, sword)["holy_shield"]


def test_salamander_shield_is_recycled_when_its_unit_dies(base):
    """When the equipped unit dies the SalamanderShield starts its 4-turn cooldown, then is ready again."""
    m = base.new_match(SHIELD, MELEE)
    set_mana(m, 6)
    sword = place(m, "Swordsman", LINE[0])
    m.use(sword)
    m.end_turn()
    first = place(m, "Swordsman", LINE[1], side=1, level=3)
    second = place(m, "Swordsman", (3, -5, 2), side=1, level=3)
    m.attack(first, sword)  # the holy shield takes it
    m.attack(second, sword)
    assert unit(m, sword) is None
    assert artifact(m, 0) == ("cooling", 4)
    seen = []
    for _ in range(4):
        m.end_turn()  # the first player's turn start: its cooldown phase
        seen.append(artifact(m, 0))
        m.end_turn()
    assert seen == [("cooling", 3), ("cooling", 2), ("cooling", 1), ("ready", 0)]


# -- HolyLight ----------------------------------------------------------------------------------


def test_holy_light_heals_to_max_and_adds_two_attack_within_two(base):
    """HolyLight heals friendly units within 2 of the cell to max HP and gives them +2 attack; others nothing."""
    m = base.new_match(MELEE, SHIELD)
    set_mana(m, 6)
    near = place(m, "Swordsman", LINE[0], level=3, hp=1)
    edge = place(m, "Archer", LINE[2], hp=1)
    far = place(m, "Swordsman", LINE[3], hp=1)
    enemy = place(m, "Swordsman", LINE[1], side=1, level=3, hp=1)
    m.use(LINE[0])
    assert (hp(m, near), unit(m, near)["atk"]) == (6, 8)
    assert (hp(m, edge), unit(m, edge)["atk"]) == (2, 3)
    assert (hp(m, far), unit(m, far)["atk"]) == (1, 2)
    assert (hp(m, enemy), unit(m, enemy)["atk"]) == (1, 6)
    assert player(m, 0)["mana"] == 0


def test_holy_light_bonus_lasts_four_turn_ends(base):
    """The +2 lasts through the opponent's turn, the caster's next turn and the opponent's next; gone after."""
    m = base.new_match(MELEE, SHIELD)
    set_mana(m, 6)
    sword = place(m, "Swordsman", LINE[0])
    m.use(LINE[0])
    seen = []
    for _ in range(5):
        seen.append((m.snapshot()["turn"], unit(m, sword)["atk"]))
        m.end_turn()
    assert seen == [(1, 4), (2, 4), (3, 4), (4, 4), (5, 2)]


def test_holy_light_bonus_counts_in_a_counter_attack_on_the_fourth_turn(base):
    """On the opponent's second turn after the cast the bonus still strengthens the caster's counter-attack."""
    m = base.new_match(MELEE, DRAGONS)
    set_mana(m, 6)
    sword = place(m, "Swordsman", LINE[0], level=3)
    m.use(LINE[0])
    end_turns(m, 3)
    assert m.snapshot()["turn"] == 4
    attacker = place(m, "FrostDragon", LINE[1], side=1, level=3)
    m.attack(attacker, sword)
    assert hp(m, sword) == 6 - 5
    assert unit(m, attacker) is None  # countered for 6 + 2 on 8 HP


def test_holy_light_may_target_the_abyss(base):
    """HolyLight may be cast on any board cell, an abyss cell included."""
    m = base.new_match(MELEE, SHIELD)
    set_mana(m, 6)
    sword = place(m, "Swordsman", (2, -2, 0), hp=1)
    assert ("use", (0, 0, 0)) in m.legal_actions()
    m.use((0, 0, 0))
    assert (hp(m, sword), unit(m, sword)["atk"]) == (2, 4)


def test_holy_light_is_recycled_at_once_into_its_cooldown(base):
    """HolyLight goes straight to cooling for 5 of the caster's turn starts, then is ready."""
    m = base.new_match(MELEE, SHIELD)
    set_mana(m, 6)
    m.use((0, 0, 0))
    assert artifact(m, 0) == ("cooling", 5)
    seen = []
    for _ in range(5):
        end_turns(m, 2)
        seen.append(artifact(m, 0))
    assert seen == [("cooling", 4), ("cooling", 3), ("cooling", 2), ("cooling", 1), ("ready", 0)]
    with pytest.raises(IllegalAction, match="costs 6 mana"):
        m.use((0, 0, 0))  # turn 11: ready, but 4 max mana


# -- InfernoFlame -------------------------------------------------------------------------------


def test_inferno_flame_targets_cells_near_the_own_miracle(base):
    """InfernoFlame needs a cell within 7 of the user's miracle: 7 away is fine, 8 is not."""
    m = base.new_match(DRAGONS, MELEE)
    set_mana(m, 8)
    cells = {a[1] for a in m.legal_actions() if a[0] == "use"}
    assert (0, 7, -7) in cells and (1, 6, -7) not in cells
    with pytest.raises(IllegalAction, match="within 7 of the own miracle"):
        m.use((1, 6, -7))
    m.use((0, 7, -7))
    assert [u["kind"] for u in m.snapshot()["units"]] == ["Inferno"]


def test_inferno_flame_rejects_abyss_and_cells_with_a_ground_unit(base):
    """InfernoFlame cannot target the abyss or a cell holding a ground unit of either side; a flyer is fine."""
    m = base.new_match(DRAGONS, MELEE)
    set_mana(m, 8)
    place(m, "VolcanoDragon", (-5, 5, 0))
    place(m, "Swordsman", (-4, 5, -1), side=1)
    place(m, "BlackBat", (-3, 5, -2))
    for cell in [(-1, 1, 0), (-5, 5, 0), (-4, 5, -1)]:
        with pytest.raises(IllegalAction, match="not abyss, holds no ground unit"):
            m.use(cell)
    m.use((-3, 5, -2))
    assert {u["kind"] for u in m.snapshot()["units"] if u["pos"] == (-3, 5, -2)} == {"BlackBat", "Inferno"}


def test_inferno_flame_targets_cells_near_an_owned_garrison(base):
    """InfernoFlame may target cells within 5 of a garrison the user owns (not 6, not before it is owned)."""
    m = base.new_match(DRAGONS, MELEE)
    place(m, "VolcanoDragon", (0, -5, 5))
    set_mana(m, 8)
    with pytest.raises(IllegalAction, match="owned garrison"):
        m.use((5, -5, 0))
    end_turns(m, 2)
    assert m.snapshot()["garrisons"][(0, -5, 5)] == 0
    set_mana(m, 8)
    with pytest.raises(IllegalAction, match="owned garrison"):
        m.use((6, -6, 0))
    m.use((5, -5, 0))
    assert any(u["kind"] == "Inferno" and u["pos"] == (5, -5, 0) for u in m.snapshot()["units"])


def test_inferno_flame_burns_enemies_within_two_on_both_layers(base):
    """InfernoFlame deals 2 to every enemy within 2 of the cell, ground or flying; friends and farther units go free."""
    m = base.new_match(DRAGONS, SHIELD)
    set_mana(m, 8)
    centre = (-3, 4, -1)
    ground = place(m, "Swordsman", (-2, 4, -2), side=1, level=3)  # 1 away
    flyer = place(m, "BlackBat", (-1, 4, -3), side=1, level=3)  # 2 away
    far = place(m, "Swordsman", (0, 4, -4), side=1, level=3)  # 3 away
    friend = place(m, "FrostDragon", (-3, 3, 0))  # 1 away
    m.use(centre)
    assert (hp(m, ground), hp(m, far), hp(m, friend)) == (4, 6, 4)
    assert unit(m, flyer) is None  # 2 damage on 2 HP


def test_inferno_is_an_eight_twelve_ground_unit_that_waits_a_turn(base):
    """The Inferno is an 8-attack 12-HP ground unit for the user; it cannot act on the turn it appears."""
    m = base.new_match(DRAGONS, SHIELD)
    set_mana(m, 8)
    m.use((-3, 4, -1))
    inferno = m.snapshot()["units"][0]
    assert (inferno["kind"], inferno["side"], inferno["atk"], inferno["hp"], inferno["level"], inferno["flying"]) == (
        "Inferno", 0, 8, 12, 1, False)
    assert not inferno["can_move"]
    with pytest.raises(IllegalAction, match="cannot act any more this turn"):
        m.move(inferno["id"], (-2, 4, -2))
    m.end_turn()
    bat = place(m, "BlackBat", (-2, 4, -2), side=1, level=3)
    m.end_turn()
    assert bat in targets(m, inferno["id"])  # anti-air, range 0-1
    m.attack(inferno["id"], bat)
    assert unit(m, bat) is None


def test_inferno_uses_no_creature_slot_and_is_recycled_when_it_dies(base):
    """The Inferno takes no creature unit; when it dies its side gains 1 dead star and InfernoFlame cools 6 turns."""
    m = base.new_match(DRAGONS, MELEE)
    set_mana(m, 8)
    before = player(m, 0)["available"]
    m.use((-3, 4, -1))
    assert player(m, 0)["available"] == before
    assert artifact(m, 0) == ("in_use", 0)
    inferno = m.snapshot()["units"][0]["id"]
    m.end_turn()
    killer = place(m, "Swordsman", (-2, 4, -2), side=1, level=3)
    set_hp(m, inferno, 6)
    m.attack(killer, inferno)
    assert unit(m, inferno) is None
    assert player(m, 0)["dead_stars"] == 1
    assert player(m, 0)["available"] == before and player(m, 0)["cooling"] == {k: [] for k in before}
    assert artifact(m, 0) == ("cooling", 6)


# -- WindBlessing -------------------------------------------------------------------------------


def test_wind_blessing_lets_units_within_one_act_again(base):
    """WindBlessing resets units within 1 that moved or attacked; a unit 2 away stays spent."""
    m = base.new_match(WIND, SHIELD)
    mover = place(m, "Swordsman", LINE[0])
    archer = place(m, "Archer", LINE[1])
    far = place(m, "Swordsman", (3, -6, 3))
    target = place(m, "Swordsman", LINE[4], side=1, level=3)
    m.move(mover, (3, -5, 2))
    m.attack(archer, target)
    m.move(far, (4, -7, 3))
    set_mana(m, 8)
    m.use((3, -4, 1))  # LINE[1]: 1 from the mover and 0 from the archer, 2 from the far unit
    assert unit(m, mover)["can_move"] and unit(m, archer)["can_attack"]
    assert not unit(m, far)["can_move"]
    m.attack(archer, target)
    m.move(mover, LINE[0])
    assert hp(m, target) == 4
    assert artifact(m, 0) == ("cooling", 12)


def test_wind_blessing_gives_nothing_extra_to_a_unit_that_had_not_acted(base):
    """A unit that had not acted may act once, not twice, after WindBlessing."""
    m = base.new_match(WIND, SHIELD)
    set_mana(m, 8)
    sword = place(m, "Swordsman", LINE[0])
    m.use(LINE[0])
    m.move(sword, LINE[1])
    with pytest.raises(IllegalAction, match="cannot act any more this turn"):
        m.move(sword, LINE[2])


def test_wind_blessing_lets_a_unit_summoned_this_turn_act(base):
    """A unit summoned this turn within 1 of the cell may move at once; enemies are not reset."""
    m = base.new_match(WIND, SHIELD)
    set_mana(m, 10)
    enemy = place(m, "Swordsman", (-5, 6, -1), side=1)
    uid = m.summon("Swordsman", 1, (-6, 6, 0))
    m.use((-6, 6, 0))
    assert unit(m, uid)["can_move"]
    assert not unit(m, enemy)["can_move"]
    m.attack(uid, enemy)
    assert unit(m, enemy) is None
