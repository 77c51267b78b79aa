"""Krypton Tower War's sixteen magic cards (rules page section 10), one test per card and per timing rule,
on literal cells of the authored map. Counter cards are decisions of the defending side: the tests check
that the decision is owed by it (to_act) while the other side's hero turn goes on."""

from __future__ import annotations

import pytest
from krypton_positions import dice, hands, new, put, tower, turn

from simkit.core.errors import IllegalAction
from simkit.games.krypton.state import HS_BOARD, HS_DEAD, HS_FLIPPED


def attack_setup(hand1=(), hand0=(), hp0=6, hp1=6, at1=(1, -1, 0)):
    """Side 0 hero 1 on plain (0,0,0) about to attack side 1 hero 1 on plain (1,-1,0) (or ``at1``)."""
    g = new()
    put(g, 0, 0, (0, 0, 0), hp=hp0)
    put(g, 1, 0, at1, hp=hp1)
    hands(g, list(hand0), list(hand1))
    turn(g, 0, 0, 0)
    return g


def test_ignite_any_distance_2_damage():
    """Ignite: one enemy hero at any distance loses 2 HP."""
    g = attack_setup(hand0=["Ignite"], at1=(3, 3, -6))
    g.do(("play", "Ignite", 3, 3, -6))
    assert g.hero(1, 0).hp == 4 and g.hand(0) == [] and g.discard()[-1] == "Ignite"


def test_earthsplit_makes_the_enemy_terrain_count_1():
    """Earthsplit: the enemy hero on a hill (3) counts 1 in judgments this turn."""
    g = attack_setup(hand0=["Earthsplit"], at1=(-1, 1, 0))
    put(g, 1, 0, (-2, 2, 0))  # hill
    put(g, 0, 0, (-1, 1, 0))
    g.do(("play", "Earthsplit", -2, 2, 0))
    dice(g, 3, 3)
    g.do(("attack", -2, 2, 0))
    assert g.hero(1, 0).hp == 6 and g.hero(0, 0).hp == 6  # 3+1 against 3+1


def test_inspire_adds_2_and_copies_stack():
    """Inspire: +2 to a friendly hero's totals this turn; two copies give +4."""
    g = attack_setup(hand0=["Inspire", "Inspire"])
    g.do(("play", "Inspire", 0, 0, 0))
    g.do(("play", "Inspire", 0, 0, 0))
    dice(g, 1, 1)
    g.do(("attack", 1, -1, 0))
    assert g.hero(1, 0).hp == 2  # 1+1+4 against 1+1


def test_this_turn_effects_end_with_the_hero_turn():
    """Inspire and Earthsplit last until the end of the current hero turn."""
    g = attack_setup(hand0=["Inspire"])
    g.do(("play", "Inspire", 0, 0, 0))
    dice(g, 2)
    g.do(("end",))
    assert g.hero(0, 0).inspire == 0


def test_blood_battle_pays_2_and_attacks_every_enemy_in_range_in_the_chosen_order():
    """Blood Battle: the acting hero pays 2 HP; its attack then targets every enemy hero and building in range,
    one judgment each, in the order its side chooses."""
    g = attack_setup(hand0=["Blood Battle"])
    put(g, 1, 1, (-1, 1, 0))
    tower(g, 1, "Magic Tower", (0, 1, -1))
    g.do(("play", "Blood Battle"))
    assert g.hero(0, 0).hp == 4
    dice(g, 6, 6, 1, 6, 1)
    g.do(("attack", 0, 1, -1, "tower"))  # the tower first: 6+1 > 6
    assert sorted(a[1:] for a in g.legal_actions()) == [(-1, 1, 0), (1, -1, 0)]
    assert all(a[0] == "attack" for a in g.legal_actions())
    g.do(("attack", -1, 1, 0))
    g.do(("attack", 1, -1, 0))
    assert g.hero(1, 0).hp == 1 and g.hero(1, 1).hp == 1 and g.index_of(0, 1, -1) not in g.towers()
    assert ("end",) in g.legal_actions()


def test_blood_battle_only_before_the_hero_action():
    """Blood Battle is played before the hero action, not after it."""
    g = attack_setup(hand0=["Blood Battle"])
    g.do(("standby",))
    assert ("play", "Blood Battle") not in g.legal_actions()


def test_shuttle_makes_every_entered_cell_cost_1():
    """Shuttle: hill, river and forest cost 1 each this turn."""
    g = new()
    put(g, 0, 0, (-3, 2, 1))
    g.set_hand(0, ["Shuttle"])
    turn(g, 0, 0, 3)
    g.do(("play", "Shuttle"))
    for c in ((-2, 2, 0), (-2, 3, -1), (-2, 4, -2)):
        g.do(("step",) + c)
    assert g.state.this_turn.points == 0


def test_firestorm_hits_enemies_on_forest_and_cataclysm_on_hills():
    """Firestorm: every enemy hero on a forest loses 2; Cataclysm: every one on a hill."""
    g = attack_setup(hand0=["Firestorm", "Cataclysm"], at1=(-2, 4, -2))
    put(g, 1, 1, (-2, 2, 0))
    put(g, 0, 1, (-1, 4, -3))  # own hero on a forest: untouched
    g.do(("play", "Firestorm"))
    assert [g.hero(1, k).hp for k in (0, 1)] == [4, 6] and g.hero(0, 1).hp == 6
    g.do(("play", "Cataclysm"))
    assert [g.hero(1, k).hp for k in (0, 1)] == [4, 4]


def test_satans_pact_pays_2_and_one_attack_die_shows_6():
    """Satan's Pact: the acting hero pays 2; with two dice, one shows 6 and the other is rolled."""
    g = attack_setup(hand0=["Satan's Pact"])
    tower(g, 0, "Prayer Tower", (-3, -1, 4))
    g.do(("play", "Satan's Pact"))
    assert g.hero(0, 0).hp == 4
    dice(g, 1, 1, 1)  # attacker's rolled die, then the defender's two
    g.do(("attack", 1, -1, 0))
    assert [e for e in g.events if e[1] == "dice"][-1][3] == [6, 1]
    assert g.hero(1, 0).hp == 6 - ((6 + 1 + 1) - (1 + 1))


def test_hp_price_cards_need_more_than_2_hp():
    """A card whose price is HP cannot be played by a hero with 2 HP or less."""
    g = attack_setup(hand0=["Satan's Pact", "Blood Battle"], hp0=2)
    assert not [a for a in g.legal_actions() if a[0] == "play"]


def test_divine_grace_costs_4_energy_and_heals_2_up_to_max():
    """Divine Grace: the side pays 4 energy, a friendly hero heals 2, never above its class HP."""
    g = attack_setup(hand0=["Divine Grace", "Divine Grace"], hp0=3)
    g.state.sides[0].energy = 8
    g.do(("play", "Divine Grace", 0, 0, 0))
    assert (g.hero(0, 0).hp, g.state.sides[0].energy) == (5, 4)
    g.do(("play", "Divine Grace", 0, 0, 0))
    assert (g.hero(0, 0).hp, g.state.sides[0].energy) == (6, 0)


def test_divine_grace_refused_without_4_energy():
    """Without 4 energy Divine Grace cannot be played."""
    g = attack_setup(hand0=["Divine Grace"], hp0=3)
    g.state.sides[0].energy = 3
    with pytest.raises(IllegalAction):
        g.do(("play", "Divine Grace", 0, 0, 0))


def test_iron_wall_tower_loses_nothing_until_its_sides_next_turn():
    """Iron Wall: the tower survives a won attack; the protection ends at its side's next preparation."""
    g = new()
    put(g, 1, 0, (0, 0, 0))
    tower(g, 1, "Magic Tower", (1, -1, 0))
    put(g, 0, 1, (2, -2, 0))  # side 0 hero 2 acts after side 1 hero 1
    hands(g, [], ["Iron Wall"])
    turn(g, 1, 0, 0)
    g.do(("play", "Iron Wall", 1, -1, 0))
    dice(g, 3)
    g.do(("end",))  # side 0 hero 2
    dice(g, 6)
    g.do(("attack", 1, -1, 0, "tower"))  # 6 + 3 (hill) > 6, but Iron Wall
    assert g.index_of(1, -1, 0) in g.towers()
    dice(g, 2)
    g.do(("end",))  # side 1 hero 2: its preparation ends Iron Wall
    assert not g.state.iron_wall[g.index_of(1, -1, 0)]


def test_normal_magic_only_in_its_own_turn_and_outside_judgments():
    """Normal cards are not offered to the defending side in a counter window."""
    g = attack_setup(hand1=["Ignite", "Curse"])
    dice(g, 6, 1)
    g.do(("attack", 1, -1, 0))
    assert g.to_act == 1 and g.legal_actions() == [("play", "Curse"), ("pass",)]


def test_counter_cards_are_not_played_in_the_own_turn():
    """Counter cards cannot be played as normal magic."""
    g = attack_setup(hand0=["Curse", "Unyielding Will", "Space Swap"])
    assert not [a for a in g.legal_actions() if a[0] == "play"]


def test_curse_window_is_owed_by_the_defender_after_the_roll_and_subtracts_2():
    """Curse: at the compare step the defending side (to_act) may play it: every enemy hero -2 this turn."""
    g = attack_setup(hand1=["Curse"])
    dice(g, 4, 3)
    g.do(("attack", 1, -1, 0))
    assert g.side == 0 and g.to_act == 1 and list(g.state.judgment.attack_dice[:g.state.judgment.n_attack_dice]) == [4]
    g.do(("play", "Curse"))
    assert g.hero(1, 0).hp == 6 and g.hero(0, 0).hp == 5  # 4+1-2 against 3+1
    assert g.to_act == 0


def test_pass_closes_the_window_and_the_judgment_goes_on():
    """Passing the window: the judgment ends as the dice say."""
    g = attack_setup(hand1=["Curse"])
    dice(g, 4, 3)
    g.do(("attack", 1, -1, 0))
    g.do(("pass",))
    assert g.hero(1, 0).hp == 5 and not g.state.judgment.on


def test_power_of_unity_adds_1_per_other_friendly_hero_within_2():
    """Power of Unity: +1 per other friendly hero within 2 of the defending hero."""
    g = attack_setup(hand1=["Power of Unity"])
    put(g, 1, 1, (2, -2, 0))  # distance 1 of (1,-1,0)
    dice(g, 3, 3)
    g.do(("attack", 1, -1, 0))
    assert g.legal_actions() == [("play", "Power of Unity"), ("pass",)]
    g.do(("play", "Power of Unity"))
    assert g.hero(0, 0).hp == 5  # 3+1 against 3+1+1


def test_unyielding_will_keeps_the_hero_at_1():
    """Unyielding Will: the defending hero's HP cannot fall below 1 this turn."""
    g = attack_setup(hand1=["Unyielding Will"], hp1=2)
    dice(g, 6, 1)
    g.do(("attack", 1, -1, 0))
    g.do(("play", "Unyielding Will", 1, -1, 0))
    assert g.hero(1, 0).hp == 1 and g.hero(1, 0).state == HS_BOARD


def test_same_end_the_attacker_loses_what_the_defender_actually_lost():
    """Same End: when the own hero lost, the attacking hero loses as much HP as the own hero actually lost."""
    g = attack_setup(hand1=["Same End"], hp1=2)
    dice(g, 6, 1)
    g.do(("attack", 1, -1, 0))
    g.do(("play", "Same End"))
    assert g.hero(0, 0).hp == 6 - 2  # the defender had 2 HP to lose of the 5
    assert g.to_act == 1  # its revival choice


def test_same_end_is_not_offered_when_the_own_hero_won():
    """Same End needs the own hero to have lost the judgment."""
    g = attack_setup(hand1=["Same End"])
    dice(g, 1, 6)
    g.do(("attack", 1, -1, 0))
    assert not g.state.judgment.on and g.hero(0, 0).hp == 1


def test_pursuit_sets_own_hp_to_1_and_the_attacker_loses_that_much_first():
    """Pursuit: the own hero's HP becomes 1, the attacker loses the HP just lost, then the damage applies."""
    g = attack_setup(hand1=["Pursuit"], hp1=6, hp0=6)
    dice(g, 3, 2)
    g.do(("attack", 1, -1, 0))  # 4 against 3: the defender loses 1
    g.do(("play", "Pursuit"))
    assert g.hero(0, 0).hp == 1  # lost 5
    assert g.hero(1, 0).state == HS_DEAD  # 1 - 1
    assert g.to_act == 1


def test_space_swap_swaps_two_own_towers_and_the_attack_tower_hits_around_its_new_cell():
    """Space Swap at the declaration: the targeted tower and another own tower swap cells; an Attack Tower
    arriving next to the attacker deals 2; the attack goes on against the tower now on the targeted cell."""
    g = new()
    put(g, 0, 0, (0, 0, 0))
    tower(g, 1, "Magic Tower", (1, -1, 0))
    tower(g, 1, "Attack Tower", (3, 3, -6))
    hands(g, [], ["Space Swap"])
    turn(g, 0, 0, 0)
    g.do(("attack", 1, -1, 0, "tower"))
    assert g.to_act == 1 and g.legal_actions() == [("play", "Space Swap", 3, 3, -6), ("pass",)]
    dice(g, 6)
    g.do(("play", "Space Swap", 3, 3, -6))
    assert g.towers()[g.index_of(1, -1, 0)] == "Attack Tower"
    assert g.towers()[g.index_of(3, 3, -6)] == "Magic Tower"
    assert g.hero(0, 0).hp == 4
    assert g.index_of(1, -1, 0) in g.towers()  # 6 + 1 against the Attack Tower's 8: no win


def test_space_swap_kill_ends_the_attack_even_if_the_attacker_revives_in_place():
    """Space Swap's Attack Tower kills the attacker: revived in place at once, it is back on the board, but
    the attack goes on only "if the attacker lives": no dice are rolled and the tower stands."""
    g = new()
    put(g, 0, 0, (0, 0, 0), hp=2)
    tower(g, 1, "Magic Tower", (1, -1, 0))
    tower(g, 1, "Attack Tower", (3, 3, -6))
    hands(g, ["Inspire"], ["Space Swap"])
    turn(g, 0, 0, 0)
    g.do(("play", "Inspire", 0, 0, 0))  # 6 + 1 + 2 = 9 would beat the Attack Tower's 8
    g.do(("attack", 1, -1, 0, "tower"))
    dice(g, 6, 6)
    g.do(("play", "Space Swap", 3, 3, -6))
    assert g.hero(0, 0).state == HS_DEAD and g.to_act == 0
    g.do(("revive", "place"))
    assert g.towers()[g.index_of(1, -1, 0)] == "Attack Tower"  # not destroyed
    assert not [e for e in g.events if e[1] == "dice"]
    assert g.hero(0, 0).state == HS_FLIPPED and g.hero(0, 0).hp == 6
    assert not g.state.judgment.on and g.side == 1  # the flipped attacker's turn ended


def test_an_attacker_killed_by_pursuit_and_revived_in_place_keeps_its_full_hp():
    """Pursuit kills the attacker, which then loses the judgment: the damage, "then deaths": it revives in
    place at full HP afterwards and the judgment's damage does not reach the revived hero."""
    g = attack_setup(hand1=["Pursuit"], hp0=5, hp1=6)
    dice(g, 1, 4, 3)
    g.do(("attack", 1, -1, 0))  # 1+1 against 4+1: the attacker loses 3
    g.do(("play", "Pursuit"))  # the defender goes to 1, the attacker loses 5: dead
    assert g.hero(1, 0).hp == 1 and g.hero(0, 0).state == HS_DEAD and g.to_act == 0
    g.do(("revive", "place"))
    assert g.hero(0, 0).state == HS_FLIPPED and g.hero(0, 0).hp == 6
    assert not g.state.judgment.on and g.hero(1, 0).hp == 1


def test_normal_magic_and_upgrades_between_blood_battle_judgments():
    """Between Blood Battle's judgments the side may play normal magic and upgrade (before declaring the next
    one); it may not end the turn while judgments are owed; a target Ignite removes is no longer owed."""
    g = attack_setup(hand0=["Blood Battle", "Ignite"])
    put(g, 1, 1, (-1, 1, 0), hp=2)
    g.state.sides[0].energy = 20
    g.do(("play", "Blood Battle"))
    dice(g, 6, 1)
    g.do(("attack", 1, -1, 0))
    legal = g.legal_actions()
    assert ("upgrade",) in legal and ("play", "Ignite", -1, 1, 0) in legal and ("end",) not in legal
    assert ("standby",) not in legal and not [a for a in legal if a[0] == "step"]
    g.do(("upgrade",))
    assert g.state.sides[0].tier == 2
    g.do(("play", "Ignite", -1, 1, 0))  # kills hero 2 of side 1
    g.do(("revive", "base"))
    assert ("end",) in g.legal_actions() and not [a for a in g.legal_actions() if a[0] == "attack"]


def test_unyielding_will_may_hold_another_friendly_hero():
    """Unyielding Will holds one friendly hero, not only the judgment's target: every friendly hero on the
    board is offered, by its cell."""
    g = attack_setup(hand1=["Unyielding Will"], hp1=2)
    put(g, 1, 1, (2, -2, 0))
    dice(g, 6, 1)
    g.do(("attack", 1, -1, 0))
    assert g.legal_actions() == [("play", "Unyielding Will", 1, -1, 0), ("play", "Unyielding Will", 2, -2, 0),
                                 ("pass",)]
    g.do(("play", "Unyielding Will", 2, -2, 0))
    assert g.hero(1, 1).floor1 and not g.hero(1, 0).floor1
    assert g.hero(1, 0).state == HS_DEAD  # the target was not held


def test_unyielding_will_is_offered_when_a_tower_or_the_base_is_attacked():
    """The damage step of a judgment against a tower (or the base) opens Unyielding Will for a friendly hero."""
    g = new()
    put(g, 0, 0, (0, 0, 0))
    tower(g, 1, "Magic Tower", (1, -1, 0))
    hands(g, [], ["Unyielding Will"])
    turn(g, 0, 0, 0)
    dice(g, 6)
    g.do(("attack", 1, -1, 0, "tower"))  # 6 + 1 against 6
    assert g.to_act == 1 and g.legal_actions() == [("play", "Unyielding Will", 3, 3, -6),
                                                   ("play", "Unyielding Will", 2, 4, -6), ("pass",)]
    g.do(("play", "Unyielding Will", 3, 3, -6))
    assert g.hero(1, 0).floor1 and g.index_of(1, -1, 0) not in g.towers()


def test_power_of_unity_counts_a_friend_at_exactly_2_and_not_at_3():
    """Power of Unity's radius is inclusive: a friendly hero at distance exactly 2 adds 1, one at 3 nothing."""
    for friend, attacker_hp in (((3, -1, -2), 5), ((4, -1, -3), 6)):
        g = attack_setup(hand1=["Power of Unity"])
        put(g, 1, 1, friend)
        dice(g, 3, 3)
        g.do(("attack", 1, -1, 0))
        g.do(("play", "Power of Unity"))
        assert g.hero(0, 0).hp == attacker_hp


def test_pursuit_is_offered_to_a_hero_with_exactly_2_hp():
    """Pursuit needs the own hero at HP >= 2: at 2 it is offered (the hero goes to 1, the attacker loses 1)."""
    g = attack_setup(hand1=["Pursuit"], hp1=2)
    dice(g, 3, 2)
    g.do(("attack", 1, -1, 0))  # 4 against 3
    assert ("play", "Pursuit") in g.legal_actions()
    g.do(("play", "Pursuit"))
    assert g.hero(0, 0).hp == 5 and g.hero(1, 0).state == HS_DEAD


def test_satans_pact_replaces_the_only_die_with_a_6():
    """With one die, Satan's Pact's 6 is that die: nothing is rolled for the attacker."""
    g = attack_setup(hand0=["Satan's Pact"])
    g.do(("play", "Satan's Pact"))
    dice(g, 2)  # the defender's die only
    g.do(("attack", 1, -1, 0))
    assert g.hero(1, 0).hp == 6 - ((6 + 1) - (2 + 1)) and g.hero(0, 0).hp == 4
