"""Krypton Tower War: one test per rule clause of shared/rules/krypton-tower-war.md, on literal positions
of the authored map (sections 2-9, 11-13; the magic cards are in test_krypton_cards.py)."""

from __future__ import annotations

import pytest
from krypton_positions import both, cell, dice, hands, new, put, scenario, sides, steps, tower, turn

from simkit.core.errors import IllegalAction
from simkit.games.krypton.bots import cost_to_cells as cost_to
from simkit.games.krypton.state import CARDS, HS_BOARD, HS_DEAD, HS_FLIPPED, T_PLAIN, T_VEIN

# -- section 2: the authored map -----------------------------------------------------------------------


def test_map_has_127_cells_97_plain_and_the_side_swap_symmetry():
    """The board is every cell within 6 of the centre, 97 of them plain, and p -> -p swaps the sides."""
    g = new()
    r = g.rules
    assert r.grid.size == 127
    assert sum(1 for t in r.terrain if t == T_PLAIN) == 97
    for i in range(r.grid.size):
        x, y, z = g.cell_of(i)
        j = g.index_of(-x, -y, -z)
        assert r.terrain[i] == r.terrain[j] and r.stock[i] == r.stock[j]
        assert (i in r.spawns[0]) == (j in r.spawns[1])
    assert g.cell_of(r.bases[0]) == (-6, 3, 3) and g.cell_of(r.bases[1]) == (6, -3, -3)


def test_map_check_figures_poor_vein_2_rich_vein_5_enemy_base_10():
    """The page's check figures: cheapest cost from an own spawn point to own poor veins 2, rich 5, next to
    the enemy base 10."""
    g = new()
    r = g.rules
    for goal, want in (([g.index_of(-4, 4, 0), g.index_of(-4, 0, 4)], 2), ([g.index_of(0, 3, -3)], 5),
                       ([c for c in range(r.grid.size) if g.dist(c, r.bases[1]) == 1], 10)):
        d = cost_to(g, 0, goal)
        assert min(d[s] for s in r.spawns[0]) == want


# -- section 3 and 9: terrain and movement ---------------------------------------------------------------


@pytest.mark.parametrize("points, reached", [(2, (-3, 2, 1)), (3, (-2, 2, 0)), (4, (-2, 3, -1)), (5, (-2, 3, -1)),
                                             (6, (-2, 4, -2))])
def test_manual_move_example_hill_then_plain_then_forest(points, reached):
    """The manual's example: hill, plain, forest costs 3, 1, 2 on entering: 1-2 points cannot move, 3 reach
    the hill, 4-5 the plain, 6 the forest."""
    g = new()
    put(g, 0, 0, (-3, 2, 1))
    turn(g, 0, 0, points)
    for c in ((-2, 2, 0), (-2, 3, -1), (-2, 4, -2)):
        if ("step",) + c not in g.legal_actions():
            break
        g.do(("step",) + c)
    assert cell(g, 0, 0) == reached


def test_river_costs_3_and_a_vein_costs_1():
    """River 3 and vein 1 ("as plain") terrain points on entering."""
    g = new()
    put(g, 0, 0, (-1, 2, -1))
    turn(g, 0, 0, 3)
    g.do(("step", 0, 2, -2))  # river
    assert g.state.this_turn.points == 0
    g2 = new()
    put(g2, 0, 0, (-4, 3, 1))
    turn(g2, 0, 0, 1)
    g2.do(("step", -4, 4, 0))  # poor vein
    assert g2.state.this_turn.points == 0


def test_step_beyond_the_points_is_refused_and_changes_nothing():
    """A step costing more than the remaining points is illegal; the refusal leaves the game unchanged."""
    g = new()
    put(g, 0, 0, (-3, 2, 1))
    turn(g, 0, 0, 2)
    before = g.snapshot()
    with pytest.raises(IllegalAction):
        g.do(("step", -2, 2, 0))  # hill costs 3
    assert g.snapshot() == before


def test_knight_plus_2_from_plain_minus_2_from_other_terrain_never_below_0():
    """Knight points: roll + 2 when the move starts on plain (or vein), roll - 2 otherwise, at least 0."""
    for start, roll, want in (((0, 0, 0), 3, 5), ((-4, 4, 0), 3, 5), ((-2, 2, 0), 3, 1), ((-2, 2, 0), 1, 0)):
        g = new("Knight+Warrior", "Warrior+Warrior")
        put(g, 0, 0, start)
        g.state.turn = -1
        g.set_hand(0, [])  # the roll happens at the start of the hero turn, after the draw
        dice(g, roll)
        g.next_turn()
        assert (g.state.this_turn.roll, g.state.this_turn.points) == (roll, want)


def test_no_entering_a_base_an_enemy_building_or_a_hero_but_a_friendly_tower_is_fine():
    """Cells with a base, an enemy building or any hero cannot be entered; an own tower's cell can."""
    g = new()
    put(g, 0, 0, (-5, 4, 1))
    put(g, 1, 0, (-4, 3, 1))
    tower(g, 1, "Attack Tower", (-5, 5, 0))
    tower(g, 0, "Magic Tower", (-4, 4, 0))
    turn(g, 0, 0, 6)
    legal = g.legal_actions()
    assert ("step", -6, 4, 2) in legal  # own spawn point, free
    assert ("step", -4, 3, 1) not in legal  # a hero
    assert ("step", -5, 5, 0) not in legal  # an enemy building
    assert ("step", -4, 4, 0) in legal  # an own tower
    put(g, 0, 0, (-5, 3, 2))
    assert ("step", -6, 3, 3) not in g.legal_actions()  # a base


def test_move_only_before_the_hero_action():
    """After its hero action the hero cannot move any more (remaining points are lost)."""
    g = new()
    put(g, 0, 0, (0, 0, 0))
    turn(g, 0, 0, 6)
    g.do(("standby",))
    assert not [a for a in g.legal_actions() if a[0] == "step"]


# -- section 8: tower and base attacks ---------------------------------------------------------------------


def test_attack_tower_hits_on_entering_its_range_not_when_moving_inside_it():
    """Stepping from distance 2 to distance 1 of an enemy Attack Tower costs 2 HP at once; a step that stays
    within range costs nothing more."""
    g = new()
    tower(g, 1, "Attack Tower", (0, 0, 0))
    put(g, 0, 0, (-2, 0, 2), hp=6)  # hill, distance 2
    turn(g, 0, 0, 6)
    g.do(("step", -1, 0, 1))  # distance 1
    assert g.hero(0, 0).hp == 4
    g.do(("step", -1, 1, 0))  # still distance 1
    assert g.hero(0, 0).hp == 4


def test_each_attack_tower_hits_separately_and_the_base_attacks_like_a_tower():
    """Two enemy towers entered at once hit twice; an enemy base hits a hero entering next to it."""
    g = new()
    tower(g, 1, "Attack Tower", (1, -1, 0))
    tower(g, 1, "Attack Tower", (0, -1, 1))
    put(g, 0, 0, (-1, 1, 0), hp=6)  # distance 2 of both
    turn(g, 0, 0, 6)
    g.do(("step", 0, 0, 0))  # distance 1 of both
    assert g.hero(0, 0).hp == 2
    g2 = new()
    put(g2, 0, 0, (4, -3, -1), hp=6)
    turn(g2, 0, 0, 6)
    g2.do(("step", 5, -3, -2))  # next to the enemy base (6,-3,-3)
    assert g2.hero(0, 0).hp == 4


def test_end_phase_hits_the_acting_hero_2_per_tower_in_range():
    """In the end phase each enemy Attack Tower within 1 of the acting hero deals 2 to it."""
    g = new()
    tower(g, 1, "Attack Tower", (1, -1, 0))
    tower(g, 1, "Attack Tower", (-1, 1, 0))
    put(g, 0, 0, (0, 0, 0), hp=6)
    put(g, 0, 1, (0, -1, 1), hp=6)  # a friendly hero in range but not acting
    turn(g, 0, 0, 0)
    dice(g, 1, 1, 1, 1)
    g.do(("end",))
    assert g.hero(0, 0).hp == 2 and g.hero(0, 1).hp == 6


def test_a_hero_killed_during_its_move_stops_and_its_turn_ends():
    """A tower hit that kills the moving hero stops it there; after its side's revival choice the turn passes on."""
    g = new()
    tower(g, 1, "Attack Tower", (0, 0, 0))
    put(g, 0, 0, (-2, 0, 2), hp=2)
    turn(g, 0, 0, 6)
    g.do(("step", -1, 0, 1))
    assert g.hero(0, 0).state == HS_DEAD and g.to_act == 0
    assert g.legal_actions() == [("revive", "base"), ("revive", "place")]
    dice(g, 3)
    g.do(("revive", "base"))
    assert (g.side, g.hero_index) == (1, 0)


# -- sections 5 and 6: buildings, energy, veins ---------------------------------------------------------------


def test_gather_poor_vein_gives_2_rich_vein_4():
    """Gather on a poor vein gives 2 energy, on a rich vein 4, and the stock drops by as much."""
    g = new()
    put(g, 0, 0, (-4, 4, 0))
    turn(g, 0, 0, 0)
    g.do(("gather",))
    assert g.state.sides[0].energy == 2 and g.state.stock[g.index_of(-4, 4, 0)] == 6
    g = new()
    put(g, 0, 0, (0, 3, -3))
    turn(g, 0, 0, 0)
    g.do(("gather",))
    assert g.state.sides[0].energy == 4 and g.state.stock[g.index_of(0, 3, -3)] == 12


def test_a_vein_gives_at_most_its_stock_and_then_becomes_buildable_plain():
    """With 1 left a poor vein gives 1; at stock 0 it is plain for the rest of the game (a tower may go there)."""
    g = new()
    v = g.index_of(-4, 4, 0)
    g.state.stock[v] = 1
    put(g, 0, 0, (-4, 4, 0))
    turn(g, 0, 0, 0)
    assert ("build", "Attack Tower") not in g.legal_actions()  # a vein is not buildable
    g.do(("gather",))
    assert g.state.sides[0].energy == 1 and g.state.stock[v] == 0 and g.state.terrain[v] == T_PLAIN
    assert g.buildable(v)
    assert g.rules.terrain[v] == T_VEIN


def test_a_hero_may_gather_on_the_turn_it_arrives():
    """Move onto a vein, then gather in the same turn."""
    g = new()
    put(g, 0, 0, (-4, 3, 1))
    turn(g, 0, 0, 1)
    g.do(("step", -4, 4, 0))
    g.do(("gather",))
    assert g.state.sides[0].energy == 2


def test_build_pays_the_cost_and_the_tower_stands_under_the_hero():
    """Build an Attack Tower on plain: the side pays 2, the tower is on the builder's cell and the hero stays."""
    g = new()
    g.state.sides[0].energy = 3
    put(g, 0, 0, (0, 0, 0))
    turn(g, 0, 0, 0)
    g.do(("build", "Attack Tower"))
    c = g.index_of(0, 0, 0)
    assert (g.state.tower_side[c], g.towers()[c], g.state.tower_hp[c], g.state.sides[0].energy) == \
        (0, "Attack Tower", 1, 1)
    assert cell(g, 0, 0) == (0, 0, 0)


@pytest.mark.parametrize("at", [(-2, 4, -2), (-2, 2, 0), (0, 1, -1), (-4, 4, 0), (-5, 3, 2)])
def test_no_tower_on_forest_hill_river_vein_or_spawn_point(at):
    """Towers go on plain only, and not on a spawn point."""
    g = new()
    g.state.sides[0].energy = 30
    put(g, 0, 0, at)
    turn(g, 0, 0, 0)
    assert not [a for a in g.legal_actions() if a[0] == "build"]


def test_prayer_tower_needs_the_advanced_base_and_costs_5():
    """A Prayer Tower is refused on the basic base and built for 5 once the base is upgraded (20)."""
    g = new()
    g.state.sides[0].energy = 25
    put(g, 0, 0, (0, 0, 0))
    turn(g, 0, 0, 0)
    assert ("build", "Prayer Tower") not in g.legal_actions()
    g.do(("upgrade",))
    assert g.state.sides[0].energy == 5 and g.base_defense(0) == 10
    g.do(("build", "Prayer Tower"))
    assert g.state.sides[0].energy == 0 and g.dice_count(0) == 2


def test_dice_are_1_plus_prayer_towers_at_most_3_and_hand_limit_3_plus_magic_towers():
    """Dice per side = 1 + own Prayer Towers, at most 3; magic hand limit = 3 + own Magic Towers."""
    g = new()
    for k, at in enumerate([(0, 0, 0), (1, -1, 0), (-1, 1, 0), (1, 0, -1)]):
        tower(g, 0, "Prayer Tower", at)
        assert g.dice_count(0) == min(3, 2 + k)
    tower(g, 0, "Magic Tower", (-1, 0, 1))
    tower(g, 0, "Magic Tower", (0, -1, 1))
    assert (g.hand_limit(0), g.hand_limit(1), g.dice_count(1)) == (5, 3, 1)


def test_death_penalty_gives_a_tenth_of_the_energy_rounded_down():
    """A hero's death makes its side give floor(energy / 10) to the other side."""
    g = new()
    sides(g, energy=[29, 4])
    put(g, 0, 0, (0, 0, 0), hp=2)
    g.damage_hero(0, 0, 2)
    assert both(g, "energy") == [27, 6]


def test_text_base_tiers_4_8_12_upgrades_15_and_30(tmp_path):
    """base_tiers = "text": defence 4, 8, 12 at levels 1-3, upgrades for 15 then 30."""
    sc = scenario(scenario().path.parent / "base-text-defence.toml")
    g = new(sc=sc)
    assert g.base_defense(0) == 4
    g.state.sides[0].energy = 45
    put(g, 0, 0, (0, 0, 0))
    turn(g, 0, 0, 0)
    g.do(("upgrade",))
    assert (g.state.sides[0].energy, g.base_defense(0)) == (30, 8)
    g.do(("upgrade",))
    assert (g.state.sides[0].energy, g.base_defense(0)) == (0, 12)
    assert ("upgrade",) not in g.legal_actions()


# -- section 7: attack judgments -----------------------------------------------------------------------------


def test_attack_hero_totals_are_dice_plus_terrain_and_the_loser_loses_the_difference():
    """Warrior on plain rolls 5 (total 6) against a warrior on a hill rolling 1 (total 4): the defender loses 2."""
    g = new()
    put(g, 0, 0, (-1, 1, 0))
    put(g, 1, 0, (-2, 2, 0))  # hill: 3
    turn(g, 0, 0, 0)
    dice(g, 5, 1)
    g.do(("attack", -2, 2, 0))
    assert g.hero(1, 0).hp == 4 and g.hero(0, 0).hp == 6


def test_the_attacker_loses_the_difference_when_its_total_is_lower():
    """Rolling 1 (total 2) against 3 on plain (total 4): the attacker loses 2."""
    g = new()
    put(g, 0, 0, (0, 0, 0))
    put(g, 1, 0, (1, -1, 0))
    turn(g, 0, 0, 0)
    dice(g, 1, 3)
    g.do(("attack", 1, -1, 0))
    assert g.hero(0, 0).hp == 4 and g.hero(1, 0).hp == 6


def test_equal_totals_nothing_happens():
    """Equal totals: no HP lost on either side."""
    g = new()
    put(g, 0, 0, (0, 0, 0))
    put(g, 1, 0, (1, -1, 0))
    turn(g, 0, 0, 0)
    dice(g, 4, 4)
    g.do(("attack", 1, -1, 0))
    assert g.hero(0, 0).hp == 6 and g.hero(1, 0).hp == 6


def test_several_dice_are_summed():
    """With two Prayer Towers the attacker rolls three dice and sums them (dice_combine = "sum")."""
    g = new()
    tower(g, 0, "Prayer Tower", (-3, -1, 4))
    tower(g, 0, "Prayer Tower", (-3, 0, 3))
    put(g, 0, 0, (0, 0, 0))
    put(g, 1, 0, (1, -1, 0))
    turn(g, 0, 0, 0)
    dice(g, 2, 2, 2, 6)
    g.do(("attack", 1, -1, 0))
    assert g.hero(1, 0).hp == 6 - ((6 + 1) - (6 + 1)) and not g.state.judgment.on
    assert [e for e in g.events if e[1] == "totals"][-1][3:] == (7, 7)


def test_range_warrior_1_archer_2():
    """A warrior reaches enemies at distance 1 only; an archer at distance 2."""
    g = new("Archer+Warrior", "Warrior+Warrior")
    put(g, 0, 0, (0, 0, 0))  # the archer
    put(g, 1, 0, (2, -1, -1))  # distance 2
    turn(g, 0, 0, 0)
    assert ("attack", 2, -1, -1) in g.legal_actions()
    turn(g, 0, 1, 0)
    put(g, 0, 1, (0, -1, 1))
    assert ("attack", 2, -1, -1) not in g.legal_actions()


def test_attacking_a_tower_the_attacker_never_loses_hp_and_a_won_attack_destroys_it():
    """Against an Attack Tower (defence 8) a losing attacker loses nothing; a winning one destroys the 1-HP tower."""
    g = new()
    tower(g, 1, "Attack Tower", (1, -1, 0))
    put(g, 0, 0, (0, 0, 0), hp=6)
    turn(g, 0, 0, 0)
    dice(g, 1)
    g.do(("attack", 1, -1, 0, "tower"))
    assert g.hero(0, 0).hp == 6 and g.index_of(1, -1, 0) in g.towers()
    tower(g, 0, "Prayer Tower", (-3, -1, 4))
    tower(g, 0, "Prayer Tower", (-3, 0, 3))
    turn(g, 0, 0, 0)
    dice(g, 6, 1, 1)  # 8 + 1 terrain = 9 > 8
    g.do(("attack", 1, -1, 0, "tower"))
    assert g.index_of(1, -1, 0) not in g.towers()


def test_a_tower_with_its_own_hero_on_it_is_a_target_of_its_own():
    """A cell may hold an enemy hero and the enemy tower under it: each is a target, named apart (the tower
    as ``("attack", x, y, z, "tower")``), listed once; attacking the tower judges the tower, not the hero."""
    g = new()
    put(g, 0, 0, (0, 0, 0))
    put(g, 1, 0, (1, -1, 0))
    tower(g, 1, "Magic Tower", (1, -1, 0))  # the hero stands on its own tower
    turn(g, 0, 0, 0)
    attacks = [a for a in g.legal_actions() if a[0] == "attack"]
    assert attacks == [("attack", 1, -1, 0), ("attack", 1, -1, 0, "tower")]
    dice(g, 6)  # 6 + 1 against the Magic Tower's 6; a building rolls nothing
    g.do(("attack", 1, -1, 0, "tower"))
    assert g.index_of(1, -1, 0) not in g.towers() and g.hero(1, 0).hp == 6
    assert [e[5] for e in g.events if e[1] == "attack"] == ["tower"]


def test_blood_battle_judges_the_hero_and_the_tower_under_it_once_each():
    """Blood Battle against a hero standing on its own tower: one judgment for the hero, one for the tower."""
    g = new()
    put(g, 0, 0, (0, 0, 0))
    put(g, 1, 0, (1, -1, 0))
    tower(g, 1, "Magic Tower", (1, -1, 0))
    hands(g, ["Blood Battle"], [])
    turn(g, 0, 0, 0)
    g.do(("play", "Blood Battle"))
    dice(g, 6, 1, 6)
    g.do(("attack", 1, -1, 0))  # the hero: 6+1 against 1+1
    assert g.hero(1, 0).hp == 1
    assert [a for a in g.legal_actions() if a[0] == "attack"] == [("attack", 1, -1, 0, "tower")]
    g.do(("attack", 1, -1, 0, "tower"))  # the tower: 6+1 against 6
    assert g.index_of(1, -1, 0) not in g.towers()
    assert [e[5] for e in g.events if e[1] == "attack"] == ["hero", "tower"]


def test_a_base_loses_the_difference_and_a_destroyed_base_ends_the_game():
    """An attack beating the base's defence by d takes d of its 10 HP; at 0 the attacker's side wins at once."""
    g = new()
    tower(g, 0, "Prayer Tower", (-3, -1, 4))
    tower(g, 0, "Prayer Tower", (-3, 0, 3))
    put(g, 0, 0, (5, -3, -2))
    turn(g, 0, 0, 0)
    dice(g, 6, 6, 6)  # 18 + 1 against 6
    g.do(("attack", 6, -3, -3))
    assert g.state.sides[1].base_hp == -3 and g.over and g.winner == "first" and g.end_reason == "base"
    assert g.legal_actions() == []


def test_dice_combine_max_takes_the_highest_die(tmp_path):
    """dice_combine = "max": only the highest die counts."""
    text = (scenario().path.read_text().replace('dice_combine = "sum"', 'dice_combine = "max"'))
    p = tmp_path / "max.toml"
    p.write_text(text)
    g = new(sc=scenario(p))
    tower(g, 0, "Prayer Tower", (-3, -1, 4))
    put(g, 0, 0, (0, 0, 0))
    put(g, 1, 0, (1, -1, 0))
    turn(g, 0, 0, 0)
    dice(g, 2, 5, 3)
    g.do(("attack", 1, -1, 0))
    assert g.hero(1, 0).hp == 4  # 5 + 1 against 3 + 1


# -- sections 11-13: turns, revival, end -----------------------------------------------------------------------


def test_turn_order_alternates_sides_heroes_in_team_order():
    """Hero turns: side 0 hero 1, side 1 hero 1, side 0 hero 2, side 1 hero 2, then round 2."""
    g = new()
    order = []
    for _ in range(5):
        order.append((g.side, g.hero_index, g.round))
        g.do(("end",))
    assert order == [(0, 0, 1), (1, 0, 1), (0, 1, 1), (1, 1, 1), (0, 0, 2)]


def test_draw_one_card_at_each_hero_turn_below_the_limit_and_none_at_it():
    """A side draws 1 card at the start of each of its hero turns while below its hand limit."""
    g = new()
    assert len(g.hand(0)) == 1 and len(g.hand(1)) == 0  # seat 0's first turn drew
    g.do(("end",))
    assert len(g.hand(1)) == 1
    g.set_hand(0, ["Curse", "Curse", "Ignite"])
    pile = len(g.pile())
    g.do(("end",))
    assert len(g.hand(0)) == 3 and len(g.pile()) == pile


def test_an_empty_pile_is_refilled_by_shuffling_the_discard_pile():
    """With the pile empty the discard pile is shuffled into a new pile before the draw."""
    g = new()
    g.set_pile([])
    g.place({"n_discard": 3, "discard": {0: CARDS.index("Ignite"), 1: CARDS.index("Curse"), 2: CARDS.index("Inspire")}})
    g.set_hand(1, [])
    g.do(("end",))
    assert len(g.hand(1)) == 1 and len(g.pile()) == 2 and g.state.n_discard == 0


def test_revival_choice_is_owed_by_the_dead_heros_side_during_the_enemy_turn():
    """A hero killed in the enemy's turn: its side owes the revival choice (to_act), then play goes back."""
    g = new()
    put(g, 0, 0, (0, 0, 0))
    put(g, 1, 0, (1, -1, 0), hp=1)
    turn(g, 0, 0, 0)
    dice(g, 6, 1)
    g.do(("attack", 1, -1, 0))
    assert g.side == 0 and g.to_act == 1 and g.legal_actions() == [("revive", "base"), ("revive", "place")]
    g.do(("revive", "base"))
    assert g.to_act == 0 and g.hero(1, 0).state == HS_DEAD


def test_return_to_base_revives_full_hp_on_the_first_free_spawn_point_at_its_next_turn():
    """"Return to base": off the board until its next preparation, then full HP on the first free spawn point."""
    g = new()
    put(g, 1, 1, (6, -4, -2))  # the first spawn point is taken
    put(g, 1, 0, (1, -1, 0), hp=1)
    put(g, 0, 0, (0, 0, 0))
    turn(g, 0, 0, 0)
    dice(g, 6, 1)
    g.do(("attack", 1, -1, 0))
    g.do(("revive", "base"))
    dice(g, 4)
    g.do(("end",))
    h = g.hero(1, 0)
    assert (g.side, g.hero_index) == (1, 0)
    assert (h.state, h.hp, g.cell_of(h.cell)) == (HS_BOARD, 6, (6, -2, -4))


def test_no_free_spawn_point_the_hero_stays_dead_and_its_turn_ends():
    """If every spawn point of its side is taken the returning hero stays dead and the turn passes on."""
    g = new()
    g.place({"sides": {1: {"heroes": {0: {"state": HS_DEAD, "hp": 0, "cell": -1}}}}})
    g.state.n_revivals_owed = 0
    for k, c in enumerate(g.rules.spawns[1]):
        tower(g, 0, "Magic Tower", g.cell_of(c)) if k else put(g, 1, 1, g.cell_of(c))
    turn(g, 0, 0, 0)
    dice(g, 2)
    g.do(("end",))
    assert g.hero(1, 0).state == HS_DEAD and (g.side, g.hero_index) == (0, 1)


def test_revive_in_place_is_at_once_full_hp_flipped_and_skips_the_next_turn():
    """"Revive in place": back on its cell at once at full HP, can be attacked, and its next turn is skipped."""
    g = new()
    put(g, 0, 0, (0, 0, 0))
    put(g, 1, 0, (1, -1, 0), hp=1)
    turn(g, 0, 0, 0)
    dice(g, 6, 1)
    g.do(("attack", 1, -1, 0))
    g.do(("revive", "place"))
    h = g.hero(1, 0)
    assert (h.state, h.hp, g.cell_of(h.cell)) == (HS_FLIPPED, 6, (1, -1, 0))
    assert g.hero_at(g.index_of(1, -1, 0)) == (1, 0)
    dice(g, 3)
    g.do(("end",))  # side 1 hero 1's turn is skipped: side 0 hero 2 acts
    assert (g.side, g.hero_index) == (0, 1) and h.state == HS_BOARD


def test_round_cap_is_a_draw_by_default():
    """After max_rounds rounds the game ends: a draw (turn_limit_result = "draw")."""
    g = new()
    g.state.turn = 2 * g.team * g.rules.settings["max_rounds"] - 2
    sides(g, base_hp=[10, 3])
    g.state.this_turn.ending = 0
    g.do(("end",))
    g.do(("end",))
    assert g.over and g.winner == "draw" and g.end_reason == "turn_limit" and g.round == 50


def test_round_cap_with_base_hp_gives_the_game_to_the_higher_base(tmp_path):
    """turn_limit_result = "base_hp": at the cap the side whose base has more HP wins."""
    p = tmp_path / "hp.toml"
    p.write_text(scenario().path.read_text().replace('turn_limit_result = "draw"', 'turn_limit_result = "base_hp"'))
    g = new(sc=scenario(p))
    g.state.turn = 2 * g.team * g.rules.settings["max_rounds"] - 1
    sides(g, base_hp=[10, 3])
    g.do(("end",))
    assert g.over and g.winner == "first" and g.end_reason == "turn_limit"


def test_the_dice_come_from_the_games_seed():
    """Two games with the same seed roll the same; another seed rolls otherwise."""
    a, b, c = (new(seed=s) for s in (7, 7, 8))
    rolls = [[x.roll_die() for _ in range(20)] for x in (a, b, c)]
    assert rolls[0] == rolls[1] != rolls[2]
    assert a.pile() == b.pile()


def test_steps_helper_walks_a_path():
    """The positions helper walks several steps (used by the card tests)."""
    g = new()
    put(g, 0, 0, (0, 0, 0))
    turn(g, 0, 0, 2)
    steps(g, (1, -1, 0), (1, -2, 1))
    assert cell(g, 0, 0) == (1, -2, 1)
