"""Magic War's rules, one test per clause that matters most, on literal positions (``tests/magic_positions.py``).

Units are the authored roster's (magic-war-roster.md B.2; not the designer's numbers). Section numbers and
[R n] point to magic-war.md; B.1 to the roster page's primitives. Cells are (c, r).
"""

from __future__ import annotations

import copy

import pytest

from simkit.core.errors import IllegalAction
from simkit.games.magic.match import Match
from simkit.scenario import scenario_from_data
from tests.magic_positions import hp, position, scenario

ORC_LEADERS = [(0, "Chieftain", (2, 0)), (1, "Chieftain", (2, 5))]


def refused(m: Match, action, words: str) -> None:
    """The action is refused, naming ``words``, and the game is unchanged."""
    before = m.snapshot()
    with pytest.raises(IllegalAction, match=words):
        m.do(action)
    assert m.snapshot() == before


# ---- 4. setup and deployment -------------------------------------------------------------------------------


def test_first_player_deploys_everything_then_the_second():
    """4.2-4.4: leaders on their crowns; the first player places all its units on rows 0-1, then the second
    (having seen them) on rows 4-5; then turn 1 is the first player's."""
    m = Match(scenario(), "Orc:Goblin", "Orc:Goblin*2,Ogre", seed=1)
    assert m.type_at(2, 0) == "Chieftain" and m.type_at(2, 5) == "Chieftain"
    assert m.to_act == 0 and m.turn == 0
    assert {a[2] for a in m.legal_actions()} == {(c, r) for r in (0, 1) for c in range(5)} - {(2, 0)}
    refused(m, ("place", "Goblin", (2, 2)), "not a free cell of the own deployment rows")
    refused(m, ("end",), "deployment is not over")
    m.do(("place", "Goblin", (1, 1)))
    assert m.to_act == 1
    refused(m, ("place", "Ogre", (2, 1)), "not a free cell")
    for a in (("place", "Goblin", (0, 4)), ("place", "Ogre", (2, 4)), ("place", "Goblin", (4, 5))):
        m.do(a)
    refused(m, ("place", "Goblin", (1, 4)), "not the deployment phase")
    assert m.turn == 1 and m.to_act == 0 and m.type_at(2, 4) == "Ogre"


# ---- 5.4 movement ------------------------------------------------------------------------------------------


def test_walkers_need_a_clear_path_flyers_pass_over():
    """5.4 [R5]: a walker steps orthogonally through empty cells only; a flyer passes over anything; both end
    on an empty cell."""
    m = position(ORC_LEADERS + [(0, "Goblin", (0, 2)), (0, "Ogre", (0, 3)), (0, "Thunderbird", (4, 1)),
                                (0, "Goblin", (4, 2)), (1, "Goblin", (4, 3))])
    refused(m, ("move", (0, 2), (0, 4)), "not reachable")      # walk 2: the Ogre blocks the column
    refused(m, ("move", (4, 1), (4, 3)), "not reachable")      # a move ends on an empty cell
    m.do(("move", (4, 1), (4, 4)))                             # fly 3 over its own Goblin and the enemy's
    m.do(("move", (0, 2), (1, 3)))                             # an L-shaped path of two steps [R5]
    assert m.type_at(4, 4) == "Thunderbird" and m.type_at(1, 3) == "Goblin"
    refused(m, ("move", (1, 3), (1, 4)), "already moved")


def test_a_unit_moves_before_it_attacks_never_after():
    """5.2: the move comes before the attack; after attacking, the unit may not move."""
    m = position(ORC_LEADERS + [(0, "Goblin", (1, 2)), (1, "Goblin", (1, 3))], faces=[1])
    m.do(("attack", (1, 2), (1, 3)))
    refused(m, ("move", (1, 2), (0, 2)), "may not move afterwards")
    refused(m, ("attack", (1, 2), (1, 3)), "already attacked")


# ---- 6.1 legal attacks -------------------------------------------------------------------------------------


def test_melee_reaches_orthogonal_neighbours_only():
    """6.1 [R6]: melee range 1 is an orthogonally adjacent cell; a diagonal is out of range."""
    m = position(ORC_LEADERS + [(0, "Goblin", (1, 2)), (1, "Goblin", (2, 3)), (1, "Goblin", (1, 3))], faces=[1])
    refused(m, ("attack", (1, 2), (2, 3)), "out of range")
    m.do(("attack", (1, 2), (1, 3)))


def test_ranged_line_is_blocked_by_a_unit_between():
    """6.1 [R7]: a ranged unit shoots along its row or column, within range, with nothing between."""
    elves = [(0, "ElfQueen", (2, 0)), (1, "ElfQueen", (2, 5))]
    m = position(elves + [(0, "Archer", (0, 1)), (0, "Sprite", (0, 2)), (1, "Archer", (0, 4)), (1, "Archer", (3, 2))])
    refused(m, ("attack", (0, 1), (0, 4)), "out of range")   # the Sprite stands between
    refused(m, ("attack", (0, 1), (3, 2)), "out of range")   # distance 4, not in line
    m.do(("move", (0, 2), (1, 2)))
    m.do(("attack", (0, 1), (0, 4)))


def test_ranged_manhattan_option():
    """[R7] option ranged_shape = "manhattan": any cell within range, lines and blockers aside."""
    data = copy.deepcopy(scenario().data)
    data["combat"]["ranged_shape"] = "manhattan"
    sc = scenario_from_data(data, "manhattan.toml")
    elves = [(0, "ElfQueen", (2, 0)), (1, "ElfQueen", (2, 5))]
    m = position(elves + [(0, "Archer", (0, 1)), (0, "Sprite", (0, 2)), (1, "Archer", (1, 3))], sc=sc)
    m.do(("attack", (0, 1), (1, 3)))


def test_leaders_are_immune_on_turn_one():
    """5.5 [R14]: on global turn 1 neither leader may be attacked; from turn 2 on it may."""
    m = position([(0, "Chieftain", (2, 0)), (1, "Chieftain", (2, 5)), (0, "Thunderbird", (2, 4))], turn=1)
    refused(m, ("attack", (2, 4), (2, 5)), "immune")
    m = position([(0, "Chieftain", (2, 0)), (1, "Chieftain", (2, 5)), (0, "Thunderbird", (2, 4))], turn=3,
                 faces=[6, 6])
    m.do(("attack", (2, 4), (2, 5)))
    assert hp(m, 2, 5) == 6


def test_own_units_may_be_attacked_but_not_the_own_leader():
    """6.1 [R15]: an own unit may be attacked (7.3 "可以消灭本方单位"), not the attacker itself or its own leader."""
    m = position(ORC_LEADERS + [(0, "Goblin", (2, 1)), (0, "Goblin", (1, 1))], faces=[6])
    refused(m, ("attack", (2, 1), (2, 0)), "its own leader")
    m.do(("attack", (2, 1), (1, 1)))
    assert hp(m, 1, 1) == 1


# ---- 6.2 dice ----------------------------------------------------------------------------------------------


def test_melee_hits_on_three_ranged_on_four():
    """6.2: melee dice hit on 3-6, ranged on 4-6; each hit is one damage marker."""
    m = position(ORC_LEADERS + [(0, "Goblin", (1, 2)), (1, "Ogre", (1, 3)), (0, "Goblin", (3, 2)),
                                (1, "Ogre", (3, 3))], faces=[3, 2])
    m.do(("attack", (1, 2), (1, 3)))
    m.do(("attack", (3, 2), (3, 3)))
    assert (hp(m, 1, 3), hp(m, 3, 3)) == (9, 10)
    elves = [(0, "ElfQueen", (2, 0)), (1, "ElfQueen", (2, 5))]
    m = position(elves + [(0, "Archer", (1, 1)), (1, "Treant", (1, 3))], faces=[4, 3])
    m.do(("attack", (1, 1), (1, 3)))
    assert hp(m, 1, 3) == 8


def test_precision_lowers_the_hit_number():
    """6.2 [R9], B.1 precision_aura: the Crusader's Steady (+1, itself) hits on 2-6."""
    sanct = [(0, "King", (2, 0)), (1, "King", (2, 5))]
    m = position(sanct + [(0, "Crusader", (1, 2)), (1, "Archangel", (1, 3))], faces=[2, 2])
    m.do(("attack", (1, 2), (1, 3)))
    assert hp(m, 1, 3) == 5


def test_attack_bonus_aura_adds_a_die():
    """B.1 attack_bonus_aura: a Crusader next to a Swordsman (Drill) rolls 3 dice."""
    sanct = [(0, "King", (2, 0)), (1, "King", (2, 5))]
    m = position(sanct + [(0, "Crusader", (1, 2)), (0, "Swordsman", (0, 2)), (1, "Archangel", (1, 3))],
                 faces=[6, 6, 6])
    m.do(("attack", (1, 2), (1, 3)))
    assert m.state.dice_rolled == 3 and hp(m, 1, 3) == 4


# ---- 8.1 stacking, B.1 defensive auras ---------------------------------------------------------------------


def test_joint_defence_takes_one_die_and_does_not_stack():
    """B.1 attack_modifier_aura, 8.1 [R28]: a unit next to two Pikemen: the attack rolls 1 die fewer, not 2."""
    sanct = [(0, "King", (2, 0)), (1, "King", (2, 5))]
    m = position(sanct + [(0, "Crusader", (1, 2)), (1, "Swordsman", (1, 3)), (1, "Pikeman", (0, 3)),
                          (1, "Pikeman", (2, 3))], faces=[6, 6])
    m.do(("attack", (1, 2), (1, 3)))
    assert m.state.dice_rolled == 1 and hp(m, 1, 3) == 1


def test_different_types_add_pikeman_and_mage():
    """8.1: a Pikeman (-1 die) and a Mage (Ward, -1 hit) both apply: 2 dice become 1, its hit is cancelled."""
    sanct = [(0, "King", (2, 0)), (1, "King", (2, 5))]
    m = position(sanct + [(0, "Crusader", (1, 2)), (1, "Swordsman", (1, 3)), (1, "Pikeman", (0, 3)),
                          (1, "Mage", (2, 3))], faces=[6, 6])
    m.do(("attack", (1, 2), (1, 3)))
    assert m.state.dice_rolled == 1 and hp(m, 1, 3) == 2


def test_damage_reduction_on_itself():
    """B.1 damage_reduction with include_self: the Unicorn's Resistance cancels one hit of each attack on it."""
    elves = [(0, "ElfQueen", (2, 0)), (1, "ElfQueen", (2, 5))]
    m = position(elves + [(0, "Archer", (1, 1)), (1, "Unicorn", (1, 3))], faces=[6, 6])
    m.do(("attack", (1, 1), (1, 3)))
    assert hp(m, 1, 3) == 4


# ---- 6.3 combined attack -----------------------------------------------------------------------------------


def test_combined_attack_the_bearer_takes_the_reduction_once():
    """6.3 [R31]: joiners roll their own dice at their own number; Joint Defence's -1 falls once, on the bearer
    the attacker names; afterwards every participant is done."""
    sanct = [(0, "King", (2, 0)), (1, "King", (2, 5))]
    units = sanct + [(0, "Crusader", (1, 3)), (0, "Swordsman", (3, 3)), (1, "Swordsman", (2, 3)),
                     (1, "Pikeman", (2, 4))]
    m = position(units, faces=[1, 2, 3])
    action = ("attack", (1, 3), (2, 3), ((3, 3),), (3, 3))
    assert action in m.legal_actions() and ("attack", (1, 3), (2, 3), ((3, 3),), (1, 3)) in m.legal_actions()
    m.do(action)
    # Crusader 2 dice on 2-6 (faces 1, 2: one hit), Swordsman 2 - 1 = 1 die on 3-6 (face 3: one hit)
    assert m.state.dice_rolled == 3 and m.unit_at(2, 3) is None
    refused(m, ("move", (3, 3), (3, 2)), "may not move afterwards")


def test_a_combined_attack_names_a_participant_as_bearer():
    """6.3: the bearer is one of the participants; with no per-attack reduction it is the principal."""
    orcs = ORC_LEADERS + [(0, "Goblin", (1, 3)), (0, "Goblin", (3, 3)), (1, "Ogre", (2, 3)), (0, "Goblin", (0, 0))]
    m = position(orcs, faces=[6, 6])
    refused(m, ("attack", (1, 3), (2, 3), ((3, 3),), (3, 3)), "bearer")
    refused(m, ("attack", (1, 3), (2, 3), ((0, 0),), (1, 3)), "joiner")
    m.do(("attack", (1, 3), (2, 3), ((3, 3),), (1, 3)))
    assert hp(m, 2, 3) == 8


# ---- 7 death, magic, tactical cards ------------------------------------------------------------------------


def test_kill_gives_magic_usable_from_the_next_own_turn():
    """7.2 [R22, R23]: a kill stores 1 magic for the player whose action killed; it becomes active when that
    player's next turn starts, not before."""
    m = position(ORC_LEADERS + [(0, "Goblin", (1, 2)), (1, "Goblin", (1, 3), 1)], faces=[6])
    m.do(("attack", (1, 2), (1, 3)))
    p = m.state.sides[0]
    assert (p.active_magic, p.stored_magic) == (0, 1)
    m.do(("end",))
    assert m.to_act == 1 and m.state.sides[0].active_magic == 0
    m.do(("end",))
    p = m.state.sides[0]
    assert m.turn == 5 and (p.active_magic, p.stored_magic) == (1, 0)


def test_tactical_draws_by_cost_cut_at_the_cap():
    """7.3 [R25]: an own unit's death draws 1 card (cost 1-3) or 2 (cost 4-6), never past the cap of 4."""
    m = position(ORC_LEADERS + [(0, "Goblin", (1, 2)), (1, "Goblin", (1, 3), 1), (0, "Goblin", (3, 2)),
                                (1, "Ogre", (3, 3), 9)], faces=[6, 6], drawn=(0, 3))
    m.do(("attack", (1, 2), (1, 3)))
    assert m.state.sides[1].drawn == 4         # the Goblin: 1 card, 3 -> 4
    m = position(ORC_LEADERS + [(0, "Goblin", (3, 2)), (1, "Ogre", (3, 3), 9), (1, "Goblin", (0, 5))], faces=[6],
                 drawn=(0, 1))
    m.do(("attack", (3, 2), (3, 3)))
    assert m.state.sides[1].drawn == 3         # the Ogre (cost 5): 2 cards
    m = position(ORC_LEADERS + [(0, "Goblin", (3, 2)), (1, "Ogre", (3, 3), 9), (1, "Goblin", (0, 5))], faces=[6],
                 drawn=(0, 3))
    m.do(("attack", (3, 2), (3, 3)))
    assert m.state.sides[1].drawn == 4         # cut short at the cap


def test_leader_at_two_hp_unlocks_a_fifth_card():
    """7.3 (5) [R26]: the first time a leader has at most 2 HP, its cap becomes 5 and it draws 1."""
    m = position([(0, "Chieftain", (2, 0)), (1, "Chieftain", (2, 5), 5), (0, "Goblin", (2, 4)),
                  (1, "Goblin", (0, 5))], faces=[6], drawn=(0, 4))
    m.do(("attack", (2, 4), (2, 5)))
    p = m.state.sides[1]
    assert hp(m, 2, 5) == 2 and p.cap == 5 and p.drawn == 5 and (p.unlocked_alone, p.unlocked_leader_hp) == (0, 1)


def test_on_death_magic_goes_to_the_owner():
    """B.1 on_death: a Skeleton's BoneDust stores 1 magic for its owner, beside the killer's 1."""
    und = [(0, "UndeadLeader", (2, 0)), (1, "UndeadLeader", (2, 5))]
    m = position(und + [(0, "Wraith", (1, 2)), (1, "Skeleton", (1, 3))], faces=[6, 6])
    m.do(("attack", (1, 2), (1, 3)))
    assert [int(p.stored_magic) for p in m.state.sides] == [1, 1]


# ---- 8, B.1 active skills ----------------------------------------------------------------------------------


def test_heal_uses_the_attack_and_never_overheals():
    """B.1 heal: the Priest removes 1 marker from an own unit within 2 and may not attack afterwards [R11]."""
    sanct = [(0, "King", (2, 0)), (1, "King", (2, 5))]
    m = position(sanct + [(0, "Priest", (1, 1)), (0, "Pikeman", (1, 3), 1), (1, "Swordsman", (1, 2))])
    m.do(("skill", (1, 1), (1, 3), 0))
    assert hp(m, 1, 3) == 4
    refused(m, ("attack", (1, 1), (1, 2)), "already attacked")


def test_leader_skill_costs_magic_a_card_may_pay():
    """B.1 slots, 7.3 [R24]: the King's RoyalGrace costs 1 magic; with none it is illegal; a tactical card
    may pay it at once; the King may still attack afterwards (5.2)."""
    sanct = [(0, "King", (2, 0)), (1, "King", (2, 5))]
    units = sanct + [(0, "Pikeman", (2, 1), 3), (1, "Swordsman", (1, 0))]
    m = position(units)
    refused(m, ("skill", (2, 0), (2, 1), 0), "not enough magic")
    m = position(units, hands=(1, 0), faces=[1, 1])
    m.do(("skill", (2, 0), (2, 1), 1))
    p = m.state.sides[0]
    assert hp(m, 2, 1) == 3 and p.held == 0 and p.cards_used == 1
    refused(m, ("skill", (2, 0), (2, 1), 0), "already used")
    m.do(("attack", (2, 0), (1, 0)))


def test_orc_cards_pay_magic_only_without_more_units():
    """7.3 use (1) [R24]: an Orc card pays magic only while the Orcs have no more units on the board than the enemy."""
    units = ORC_LEADERS + [(0, "Goblin", (2, 1)), (0, "Goblin", (1, 1)), (1, "Goblin", (2, 4))]
    m = position(units, hands=(1, 0))
    refused(m, ("skill", (2, 0), (2, 1), 1), "Orc restriction")
    m = position(units + [(1, "Goblin", (1, 4))], hands=(1, 0))
    m.do(("skill", (2, 0), (2, 1), 1))


def test_summon_into_the_three_by_three_and_act_at_once():
    """8.2 [R32]: RaiseSpirit (2 magic) puts a Spirit on an empty cell of the leader's 3x3; it may act this turn."""
    und = [(0, "UndeadLeader", (2, 0)), (1, "UndeadLeader", (2, 5))]
    m = position(und + [(0, "Zombie", (2, 1))], magic=((2, 0), (0, 0)))
    refused(m, ("skill", (2, 0), (2, 2), 0), "not a legal target")
    refused(m, ("skill", (2, 0), (2, 1), 0), "not a legal target")
    m.do(("skill", (2, 0), (3, 1), 0))
    assert m.type_at(3, 1) == "Spirit" and m.state.sides[0].active_magic == 0
    assert ("move", (3, 1), (3, 3)) in m.legal_actions()


def test_free_active_self_damage_once_per_turn():
    """B.1 free_active [R37]: the Ogre's Bloodlust costs it 1 HP for +1 die this turn, uses nothing, once per
    turn, and needs at least 2 HP."""
    m = position(ORC_LEADERS + [(0, "Ogre", (1, 2)), (1, "Ogre", (1, 3))], faces=[6, 6, 6])
    m.do(("skill", (1, 2), (1, 2), 0))
    refused(m, ("skill", (1, 2), (1, 2), 0), "already used")
    m.do(("attack", (1, 2), (1, 3)))
    assert hp(m, 1, 2) == 9 and hp(m, 1, 3) == 7
    m = position(ORC_LEADERS + [(0, "Ogre", (1, 2), 9)])
    refused(m, ("skill", (1, 2), (1, 2), 0), "below the skill's minimum")


def test_free_active_on_a_friend_adds_move():
    """B.1 free_active: WarDrums (1 magic) gives a friend within 2 +1 die and +1 move this turn."""
    m = position(ORC_LEADERS + [(0, "Goblin", (2, 2))], magic=((1, 0), (0, 0)))
    assert ("move", (2, 2), (1, 4)) not in m.legal_actions()
    m.do(("skill", (2, 0), (2, 2), 0))
    assert ("move", (2, 2), (1, 4)) in m.legal_actions()   # 3 steps now


def test_move_bonus_auras_of_two_types_add():
    """8.1, B.1 move_bonus_aura: a Zombie beside a Spirit and within 2 of the ZombieKing moves 1 + 1 + 1 = 3."""
    und = [(0, "UndeadLeader", (2, 0)), (1, "UndeadLeader", (2, 5))]
    m = position(und + [(0, "Zombie", (0, 1)), (0, "Spirit", (0, 0)), (0, "ZombieKing", (1, 0))])
    assert ("move", (0, 1), (0, 4)) in m.legal_actions() and ("move", (0, 1), (0, 5)) not in m.legal_actions()


def test_splash_hits_enemies_around_the_target():
    """B.1 splash_on_clustered: after its attack the Thunderbird rolls 1 die against each enemy adjacent to
    the target (ascending cell), never an own unit; splash ignores the defensive auras."""
    m = position(ORC_LEADERS + [(0, "Thunderbird", (2, 2)), (1, "Ogre", (2, 3)), (1, "Goblin", (3, 3)),
                                (1, "Goblin", (2, 4)), (0, "Goblin", (1, 3))], faces=[6, 6, 3, 1])
    m.do(("attack", (2, 2), (2, 3)))
    assert (hp(m, 2, 3), hp(m, 3, 3), hp(m, 2, 4), hp(m, 1, 3)) == (8, 1, 2, 2)


# ---- 5.2 turn end, 1 turn limit, illegal actions -----------------------------------------------------------


def test_the_turn_ends_when_nothing_else_is_legal():
    """5.2 [R12]: when no action but ending the turn remains, the turn ends by itself."""
    m = position(ORC_LEADERS + [(1, "Goblin", (2, 3))], faces=[1, 1])
    m.do(("move", (2, 0), (2, 2)))
    m.do(("attack", (2, 2), (2, 3)))
    assert m.to_act == 1 and m.turn == 4


def test_turn_limit_tiebreak_on_leader_hp_fraction():
    """1 [R34]: after turn 60 the larger leader HP fraction wins (Chieftain 6/8 against 7/8)."""
    m = position([(0, "Chieftain", (2, 0), 2), (1, "Chieftain", (2, 5), 1), (1, "Goblin", (0, 5))], turn=60)
    m.do(("end",))
    assert m.over and m.winner == "second" and m.end_reason == "turn_limit"


def test_a_destroyed_leader_ends_the_game_at_once():
    """9: the game ends the moment a leader dies; its owner loses."""
    m = position([(0, "Chieftain", (2, 0)), (1, "Chieftain", (2, 5), 7), (0, "Goblin", (2, 4))], faces=[6])
    m.do(("attack", (2, 4), (2, 5)))
    assert m.over and m.winner == "first" and m.end_reason == "leader"
    refused(m, ("end",), "the game is over")


def test_malformed_actions_are_refused():
    """5.2: an illegal action raises IllegalAction naming the reason and changes nothing."""
    m = position(ORC_LEADERS + [(0, "Goblin", (1, 2)), (1, "Goblin", (1, 3))])
    refused(m, ("fly", (1, 2)), "unknown action")
    refused(m, ("move", (1, 2), (9, 9)), "off the 5x6 board")
    refused(m, ("move", (3, 3), (3, 4)), "no own unit on that cell")
    refused(m, ("attack", (1, 2), (1, 3), ((1, 2),), (1, 2)), "joiner")


# ---- options ------------------------------------------------------------------------------------------------


def variant(**tables):
    """The base scenario with some keys changed, e.g. variant(rules={"obstacles": [[2, 2]]})."""
    data = copy.deepcopy(scenario().data)
    for table, keys in tables.items():
        data[table].update(keys)
    return scenario_from_data(data, "variant.toml")


def test_obstacles_block_walkers_and_lines_not_flyers():
    """2 [R4]: walkers may not enter or pass an obstacle, flyers pass over it but not stop on it, and it blocks
    a ranged line."""
    sc = variant(rules={"obstacles": [[2, 2]]})
    elves = [(0, "ElfQueen", (2, 0)), (1, "ElfQueen", (2, 5))]
    m = position(elves + [(0, "Archer", (2, 1)), (0, "SilverPegasus", (1, 2)), (1, "Treant", (2, 3))], sc=sc)
    refused(m, ("attack", (2, 1), (2, 3)), "out of range")
    refused(m, ("move", (1, 2), (2, 2)), "not reachable")
    m.do(("move", (1, 2), (3, 2)))                 # flies over the obstacle
    refused(m, ("move", (2, 1), (2, 2)), "not reachable")


def test_not_acted_joiners_option():
    """[R31] combined_joiners = "not_acted": a unit that moved may not join."""
    sc = variant(combat={"combined_joiners": "not_acted"})
    m = position(ORC_LEADERS + [(0, "Goblin", (1, 3)), (0, "Goblin", (3, 2)), (1, "Ogre", (2, 3))], sc=sc)
    m.do(("move", (3, 2), (3, 3)))
    refused(m, ("attack", (1, 3), (2, 3), ((3, 3),), (1, 3)), "joiner")


def test_summoned_units_wait_when_the_option_says_so():
    """[R32] summoned_can_act = false: a summoned Spirit neither moves nor attacks in the turn it appears."""
    sc = variant(combat={"summoned_can_act": False})
    und = [(0, "UndeadLeader", (2, 0)), (1, "UndeadLeader", (2, 5))]
    m = position(und + [(0, "Zombie", (2, 1))], magic=((2, 0), (0, 0)), sc=sc)
    m.do(("skill", (2, 0), (3, 1), 0))
    assert not any(a[0] in ("move", "attack") and a[1] == (3, 1) for a in m.legal_actions())


def test_turn_limit_tiebreak_on_army_value():
    """1 [R34]: with equal leader fractions, the larger fraction of the bought army's gold alive wins."""
    m = position([(0, "Chieftain", (2, 0)), (1, "Chieftain", (2, 5)), (0, "Goblin", (0, 0))], turn=60)
    for p, gold in ((0, 1), (1, 9)):
        m.state.sides[p].army_value = gold  # the bought army's gold: 1 of 1 alive against 0 of 9
    m.do(("end",))
    assert m.winner == "first" and m.end_reason == "turn_limit"


# ---- rulings where the page is silent (docs/magic.md "Rulings", S1-S6) ----------------------------------------


def test_s1_a_heal_needs_a_damaged_target():
    """[S1]: a heal on an own unit without markers is refused (it could remove nothing); on a damaged one it heals."""
    sanct = [(0, "King", (2, 0)), (1, "King", (2, 5))]
    m = position(sanct + [(0, "Priest", (1, 1)), (0, "Pikeman", (1, 3)), (0, "Pikeman", (0, 1), 2)])
    refused(m, ("skill", (1, 1), (1, 3), 0), "not a legal target")
    m.do(("skill", (1, 1), (0, 1), 0))
    assert hp(m, 0, 1) == 3


def test_s2_a_friend_skill_may_target_its_source_unless_the_option_says_other():
    """[S2] friend_includes_source: by default the Chieftain may drum himself (+1 die, +1 move); with the option
    false a "friend" is another own unit only."""
    units = ORC_LEADERS + [(0, "Goblin", (1, 1)), (1, "Goblin", (2, 1))]
    m = position(units, magic=((1, 0), (0, 0)), faces=[6, 6, 6])
    m.do(("skill", (2, 0), (2, 0), 0))
    m.do(("attack", (2, 0), (2, 1)))
    assert hp(m, 2, 1) is None and int(m.state.dice_rolled) == 3
    sc = variant(combat={"friend_includes_source": False})
    m = position(units, magic=((1, 0), (0, 0)), sc=sc)
    refused(m, ("skill", (2, 0), (2, 0), 0), "not a legal target")
    m.do(("skill", (2, 0), (1, 1), 0))


def test_s3_a_free_skill_needs_a_target_that_has_not_attacked():
    """[S3]: a free skill's target must not have attacked yet (R37's "before the attack" for every free skill)."""
    m = position(ORC_LEADERS + [(0, "Goblin", (1, 1)), (1, "Goblin", (1, 2), 1)], magic=((1, 0), (0, 0)), faces=[6])
    m.do(("attack", (1, 1), (1, 2)))
    refused(m, ("skill", (2, 0), (1, 1), 0), "not a legal target")


def test_s4_one_cards_free_skill_affects_a_unit_once_a_turn():
    """[S4, R28]: a second free skill of the same card on the same unit in a turn is refused (its effect would
    not stack); another card's free skill still adds (a fixture card, Cheer, on two Goblins)."""
    data = copy.deepcopy(scenario().data)
    data["skills"]["Cheer"] = {"kind": "free_active", "target": "friend", "range": 2, "dice": 1}
    data["races"]["Orc"]["units"]["Goblin"]["skills"] = ["Cheer"]
    sc = scenario_from_data(data, "cheer.toml")
    m = position(ORC_LEADERS + [(0, "Goblin", (0, 2)), (0, "Goblin", (2, 2)), (0, "Ogre", (1, 2)),
                                (1, "Goblin", (1, 3))], sc=sc)
    m.do(("skill", (0, 2), (1, 2), 0))
    refused(m, ("skill", (2, 2), (1, 2), 0), "not a legal target")
    m.do(("skill", (1, 2), (1, 2), 0))  # the Ogre's own Bloodlust: another card's, it adds
    assert int(m.unit_at(1, 2).bonus_dice) == 2


def test_s5_draws_after_one_action_follow_the_death_order_then_the_unlocks():
    """[S5]: when one action kills units of both sides, each owner draws as its unit dies, in the 7.1 order (here
    the first player's own Goblin, next to the attacker, before the second's, two cells away); then the unlocks,
    the first seat's before the second's."""
    m = position(ORC_LEADERS + [(0, "Thunderbird", (2, 2)), (0, "Goblin", (2, 3), 1), (1, "Goblin", (2, 4), 1),
                                (1, "Goblin", (0, 5))], faces=[6, 6, 6])
    pile = [int(c) for c in m.state.pile[:3]]
    m.do(("attack", (2, 2), (2, 3)))                      # hits its own Goblin; the splash hits the enemy behind it
    first, second = m.state.sides
    assert hp(m, 2, 3) is None and hp(m, 2, 4) is None
    assert [int(c) for c in first.hand[:int(first.held)]] == [pile[0]]
    assert [int(c) for c in second.hand[:int(second.held)]] == [pile[1]]


def test_s6_a_leader_may_use_its_skill_after_its_attack_unless_the_option_says_other():
    """[S6] leader_skill_after_attack: by default a leader's skill may come before or after its attack; with the
    option false it comes before only."""
    units = [(0, "King", (2, 0)), (1, "King", (2, 5)), (0, "Pikeman", (1, 1), 2), (1, "Swordsman", (2, 1))]
    m = position(units, magic=((1, 0), (0, 0)), faces=[1, 1])
    m.do(("attack", (2, 0), (2, 1)))
    m.do(("skill", (2, 0), (1, 1), 0))
    assert hp(m, 1, 1) == 4
    m = position(units, magic=((1, 0), (0, 0)), faces=[1, 1], sc=variant(combat={"leader_skill_after_attack": False}))
    m.do(("attack", (2, 0), (2, 1)))
    refused(m, ("skill", (2, 0), (1, 1), 0), "comes before its attack")
