"""Rules page section 4, Death: removal, creature-slot cooling, dead stars, recycling."""

from miracle_positions import MELEE, SHIELD, end_turns, patch_scenario, place, player, unit

LINE = [(2 + k, -4, 2 - k) for k in range(6)]  # LINE[i] and LINE[j] are |i - j| apart


def test_dead_unit_leaves_the_board_and_its_slot_cools_for_its_cooldown(base):
    """A dead L1 Swordsman's unit cools 2 of its owner's turn starts, then is available again."""
    m = base.new_match(MELEE, SHIELD)
    sword = place(m, "Swordsman", LINE[0])
    enemy = place(m, "Swordsman", LINE[1], side=1, level=3)
    m.attack(sword, enemy)
    assert unit(m, sword) is None
    seen = [(m.snapshot()["turn"], player(m, 0)["available"]["Swordsman"], player(m, 0)["cooling"]["Swordsman"])]
    for _ in range(4):
        m.end_turn()
        seen.append((m.snapshot()["turn"], player(m, 0)["available"]["Swordsman"],
                     player(m, 0)["cooling"]["Swordsman"]))
    assert seen == [(1, 5, [2]), (2, 5, [2]), (3, 5, [1]), (4, 5, [1]), (5, 6, [])]


def test_cooling_counts_the_owners_turn_starts_when_it_dies_on_the_opponents_turn(base):
    """A unit killed on the opponent's turn cools from its owner's next turn start on."""
    m = base.new_match(SHIELD, MELEE)
    m.end_turn()
    place(m, "Swordsman", LINE[0], side=0)
    killer = place(m, "Swordsman", LINE[1], side=1, level=3)
    victim = next(u["id"] for u in m.snapshot()["units"] if u["side"] == 0)
    m.attack(killer, victim)
    assert player(m, 0)["cooling"]["Swordsman"] == [2]
    m.end_turn()
    assert player(m, 0)["cooling"]["Swordsman"] == [1]
    end_turns(m, 2)
    assert player(m, 0)["cooling"]["Swordsman"] == [] and player(m, 0)["available"]["Swordsman"] == 6


def test_cooldown_depends_on_the_level(base):
    """A dead L3 Swordsman cools 3 turns where an L1 cools 2."""
    m = base.new_match(MELEE, SHIELD)
    big = place(m, "Swordsman", LINE[0], level=3)
    small = place(m, "Swordsman", (3, -5, 2))
    enemy = place(m, "Swordsman", LINE[1], side=1, level=3)
    m.attack(big, enemy)  # both die
    m.end_turn()
    killer = place(m, "Swordsman", (4, -5, 1), side=1, level=3)
    m.attack(killer, small)
    assert player(m, 0)["cooling"]["Swordsman"] == [2, 3]


def test_dead_stars_grow_by_the_dead_units_level(base):
    """Each death adds its level to its owner's dead stars."""
    m = base.new_match(MELEE, SHIELD)
    big = place(m, "Swordsman", LINE[0], level=3)
    mid = place(m, "Swordsman", LINE[1], side=1, level=2)
    m.attack(big, mid)
    assert player(m, 1)["dead_stars"] == 2 and player(m, 0)["dead_stars"] == 0
    m.end_turn()
    enemy = place(m, "Swordsman", (3, -5, 2), side=1, level=3)
    m.attack(enemy, big)  # 6 on the 2 HP left, and a counter of 6: both die
    assert unit(m, big) is None and unit(m, enemy) is None
    assert player(m, 0)["dead_stars"] == 3 and player(m, 1)["dead_stars"] == 2 + 3


def test_several_units_can_die_in_one_action(base):
    """A splash that kills two units besides the target removes all of them, each cooling and scoring."""
    m = base.new_match("HolyLight:Priest,Swordsman,VolcanoDragon", SHIELD)
    dragon = place(m, "VolcanoDragon", LINE[0], level=3)
    target = place(m, "Swordsman", LINE[2], side=1)
    a = place(m, "Swordsman", (3, -3, 0), side=1, level=2)
    b = place(m, "Swordsman", (4, -5, 1), side=1, level=2)
    m.attack(dragon, target)
    assert all(unit(m, x) is None for x in (target, a, b))
    assert player(m, 1)["dead_stars"] == 1 + 2 + 2
    assert player(m, 1)["cooling"]["Swordsman"] == [2, 2, 2]
    assert player(m, 1)["available"]["Swordsman"] == 3


def test_a_zero_cooldown_returns_the_unit_at_once(tmp_path):
    """With cooldown 0 (a designer's patch) a dead unit is available again immediately, even if no kind cools."""
    text = "".join(
        f"[creatures.{k}.L{lv}]\ncooldown = 0\n"
        for k in ("Swordsman", "Archer", "BlackBat", "Priest", "VolcanoDragon", "FrostDragon")
        for lv in (1, 2, 3)
    )
    m = patch_scenario(tmp_path, text).new_match(MELEE, SHIELD)
    sword = place(m, "Swordsman", LINE[0])
    enemy = place(m, "Swordsman", LINE[1], side=1, level=3)
    m.attack(sword, enemy)
    assert unit(m, sword) is None
    assert player(m, 0)["cooling"]["Swordsman"] == [] and player(m, 0)["available"]["Swordsman"] == 6
    m.end_turn()
    assert player(m, 0)["available"]["Swordsman"] == 6
