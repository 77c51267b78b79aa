"""Battle of Miracles' lead signal and experience figures on hand-built games whose figures are known by hand.

Strength (base scenario's ``[lead]``): 1 per miracle HP, 0.5 per mana of a unit's cost at full HP, 1 per garrison;
the lead is the first seat's strength less the second's, over their sum. A level-3 Swordsman costs 6 and hits for 6,
so one standing beside a miracle is worth 3 and takes 6 HP off it each time it attacks (a miracle never strikes
back). The level band is the core's default, 0.05.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from miracle_positions import MELEE, SHIELD, place, set_hp

from simkit.games.miracle import rules as R
from simkit.games.miracle.batch import play_batch

BESIDE_FIRST_MIRACLE = (-6, 6, 0)
BESIDE_SECOND_MIRACLE = (6, -6, 0)


def lead(m) -> float:
    """The lead of the match's position (:func:`simkit.games.miracle.lead.lead`)."""
    return float(R.leads(m.rules, m.state)[0])


class Scripted:
    """A match played by a script, counting the legal actions (``legal_actions``) before every decision."""

    def __init__(self, base, first=MELEE, second=MELEE):
        self.m = base.new_match(first, second)
        self.legal: list[int] = []
        self.leads: list[float] = []

    def do(self, action: tuple) -> None:
        """Do ``action``, noting the legal actions it was chosen among and, when it ends a turn, the lead."""
        self.legal.append(len(self.m.legal_actions()))
        self.m.do(action)
        if action == ("end_turn",) and not self.m.over:
            self.leads.append(lead(self.m))

    def end_turns(self, n: int) -> None:
        """End ``n`` turns in a row."""
        for _ in range(n):
            self.do(("end_turn",))

    def figures(self) -> dict:
        """The match's experience figures."""
        return self.m.experience()


# -- the lead signal on literal positions -------------------------------------------------------------------------


def test_a_new_game_is_level(base):
    """Both miracles at full HP and nothing on the board: the lead is 0."""
    assert lead(base.new_match(MELEE, SHIELD)) == 0.0


def test_lead_weighs_miracle_hp_units_by_their_hp_left_and_garrisons(base):
    """First: miracle 20, a full level-2 Swordsman (cost 4: worth 2), a level-3 one at half HP (cost 6: worth 1.5) =
    23.5; second: miracle 30 and one garrison = 31. Lead (23.5 - 31) / 54.5."""
    m = base.new_match(MELEE, MELEE)
    m.state.miracle_hp[0] = (20, 30)
    place(m, "Swordsman", (-3, 3, 0), side=0, level=2)
    wounded = place(m, "Swordsman", (-4, 3, 1), side=0, level=3)
    set_hp(m, wounded, 3)
    m.state.garrison_owner[0, 0] = 1
    assert lead(m) == pytest.approx((23.5 - 31) / 54.5)


def test_swapping_the_seats_positions_negates_the_lead(base):
    """The same position with the seats' miracles, units and garrisons exchanged reads as the negated lead."""
    one, two = base.new_match(MELEE, MELEE), base.new_match(MELEE, MELEE)
    for m, me in ((one, 0), (two, 1)):
        m.state.miracle_hp[0, me], m.state.miracle_hp[0, 1 - me] = 17, 29
        place(m, "Archer", (-3, 3, 0) if me == 0 else (3, -3, 0), side=me, level=3)
        place(m, "Priest", (2, -3, 1) if me == 0 else (-2, 3, -1), side=1 - me, level=1)
        m.state.garrison_owner[0, 2] = me
    assert lead(one) != 0.0
    assert lead(two) == pytest.approx(-lead(one))


def test_the_inferno_counts_at_infernoflames_cost(base):
    """An Inferno (InfernoFlame costs 8) at full HP is worth 0.5 x 8 = 4: lead 4 / 64 against nothing."""
    m = base.new_match("InfernoFlame:BlackBat,FrostDragon,VolcanoDragon", MELEE)
    place(m, "Inferno", (-3, 3, 0), side=0)
    assert lead(m) == pytest.approx(4 / 64)


def test_a_finished_game_reads_as_its_result(base):
    """Once a miracle falls the lead is +1 for the first seat's win, -1 for the second's."""
    m = base.new_match(MELEE, MELEE)
    sword = place(m, "Swordsman", BESIDE_SECOND_MIRACLE, side=0, level=3)
    m.state.miracle_hp[0, 1] = 6
    m.attack(sword, "miracle")
    assert m.over and lead(m) == 1.0
    m = base.new_match(MELEE, MELEE)
    m.end_turn()
    sword = place(m, "Swordsman", BESIDE_FIRST_MIRACLE, side=1, level=3)
    m.state.miracle_hp[0, 0] = 1
    m.attack(sword, "miracle")
    assert m.over and lead(m) == -1.0


def test_the_lead_weights_are_scenario_data(tmp_path):
    """``[lead]`` weights change the reading: with units weighing 0, a lone Swordsman leaves the game level; a
    negative weight or an unknown key is refused naming the key."""
    from miracle_positions import patch_scenario

    from simkit.core.errors import ScenarioError

    sc = patch_scenario(tmp_path, "[lead]\nunits = 0\n")
    m = sc.new_match(MELEE, MELEE)
    place(m, "Swordsman", (-3, 3, 0), side=0, level=3)
    assert lead(m) == 0.0
    with pytest.raises(ScenarioError, match=r"lead\.garrisons: must be a number of at least 0"):
        patch_scenario(tmp_path, "[lead]\ngarrisons = -1\n")
    with pytest.raises(ScenarioError, match=r"lead\.unit: unknown key"):
        patch_scenario(tmp_path, "[lead]\nunit = 1\n")


# -- hand-built games ---------------------------------------------------------------------------------------------


def test_wire_to_wire_win(base):
    """The first seat's level-3 Swordsman hits the second's miracle on turns 1, 3, 5, 7 and 9 (30 to 0): ahead at
    every turn's end (9/57, 9/57, 15/51, 15/51, ...), it wins on turn 9 never behind: no lead change, deficit 0,
    decided from turn 1; 13 decisions (an attack and an end of turn on its turns, an end on the second's, the last
    blow)."""
    g = Scripted(base)
    sword = place(g.m, "Swordsman", BESIDE_SECOND_MIRACLE, side=0, level=3)
    for turn in range(1, 10):
        if turn % 2:
            g.do(("attack", sword, "miracle"))
        if not g.m.over:
            g.do(("end_turn",))
    assert (g.m.winner, g.m.snapshot()["turn"]) == ("first", 9)
    assert g.leads == pytest.approx([9 / 57, 9 / 57, 15 / 51, 15 / 51, 21 / 45, 21 / 45, 27 / 39, 27 / 39])
    f = g.figures()
    assert (f["lead_changes"], f["winner_deficit"], f["decided_turn"], f["decisions"]) == (0, 0.0, 1, 13)
    assert f["choices"] == pytest.approx(np.mean(g.legal))
    assert math.isnan(f["uncertainty"])


def test_comeback(base):
    """The first seat hits twice (turns 1 and 3: lead 15/51, about 0.29), then only the second seat's Swordsman
    hits (turns 4, 6, ... 12): level at the end of turns 6 and 7, ahead from turn 8, winning on turn 12. One lead
    change, the winner's deficit 15/51, decided at turn 8; 18 decisions."""
    g = Scripted(base)
    mine = place(g.m, "Swordsman", BESIDE_SECOND_MIRACLE, side=0, level=3)
    theirs = None
    for turn in range(1, 13):
        if turn in (1, 3):
            g.do(("attack", mine, "miracle"))
        if turn == 4:
            theirs = place(g.m, "Swordsman", BESIDE_FIRST_MIRACLE, side=1, level=3)
        if turn % 2 == 0 and turn >= 4:
            g.do(("attack", theirs, "miracle"))
        if not g.m.over:
            g.do(("end_turn",))
    assert (g.m.winner, g.m.snapshot()["turn"]) == ("second", 12)
    assert g.leads == pytest.approx([9 / 57, 9 / 57, 15 / 51, 6 / 48, 6 / 48, 0.0, 0.0, -6 / 36, -6 / 36, -12 / 30,
                                     -12 / 30])
    f = g.figures()
    assert f["lead_changes"] == 1
    assert f["winner_deficit"] == pytest.approx(15 / 51)
    assert (f["decided_turn"], f["decisions"]) == (8, 18)
    assert f["choices"] == pytest.approx(np.mean(g.legal))


def test_draw_at_the_turn_limit_after_a_lead_change(base):
    """Turn 1: the first seat hits (second's miracle 24; lead 9/57). Turn 2: two second-seat Swordsmen hit (first's
    18; lead -9/51, a change). Turn 3: a second first-seat Swordsman hits (18 each, level), then both end turns to
    the limit: a draw at turn 100, one lead change, no deficit or deciding turn; 104 decisions."""
    g = Scripted(base)
    one = place(g.m, "Swordsman", BESIDE_SECOND_MIRACLE, side=0, level=3)
    g.do(("attack", one, "miracle"))
    g.do(("end_turn",))
    for cell in (BESIDE_FIRST_MIRACLE, (-7, 6, 1)):
        g.do(("attack", place(g.m, "Swordsman", cell, side=1, level=3), "miracle"))
    g.do(("end_turn",))
    g.do(("attack", place(g.m, "Swordsman", (7, -6, -1), side=0, level=3), "miracle"))
    g.end_turns(98)
    assert (g.m.winner, g.m.snapshot()["end_reason"], g.m.snapshot()["turn"]) == ("draw", "turn_limit", 100)
    assert g.leads[:3] == pytest.approx([9 / 57, -9 / 51, 0.0])
    assert set(g.leads[2:]) == {0.0}
    f = g.figures()
    assert (f["lead_changes"], f["decisions"]) == (1, 104)
    assert math.isnan(f["winner_deficit"]) and math.isnan(f["decided_turn"])
    assert f["choices"] == pytest.approx(np.mean(g.legal))


def test_an_end_of_turn_the_cap_forces_is_no_decision(tmp_path):
    """With ``max_actions_per_turn = 2``, an ``end_turn`` after two actions of a turn is the cap's, not a choice:
    two moves and the end make 2 decisions."""
    from miracle_positions import patch_scenario

    sc = patch_scenario(tmp_path, "[bots]\nmax_actions_per_turn = 2\n")
    m = sc.new_match(MELEE, MELEE)
    a = place(m, "Swordsman", (-3, 3, 0), side=0)
    b = place(m, "Swordsman", (-4, 3, 1), side=0)
    m.move(a, (-2, 2, 0))
    m.move(b, (-3, 2, 1))
    m.end_turn()
    assert m.experience()["decisions"] == 2


# -- every path plays the same figures ----------------------------------------------------------------------------


@pytest.mark.parametrize("bots", [("balanced", "rush"), ("search-1", "balanced")])
def test_compiled_recorded_and_single_games_note_the_same_figures(base, bots):
    """The whole-game loop, the batched loop (recorded actions) and the Match replaying those actions note the
    same figures, game for game."""
    first, second = [base.decks[0], base.decks[40]], [base.decks[77], base.decks[3]]
    seeds = [5, 6]
    fast = play_batch(base, first, second, seeds, bots)
    recorded = play_batch(base, first, second, seeds, bots, record_actions=True)
    figures = ("lead_changes", "winner_deficit", "decided_turn", "decisions", "choices")
    for i in range(2):
        m = base.game.replay(first[i], second[i], recorded["action_list"][i])
        single = m.experience()
        for name in figures:
            assert fast[name][i] == recorded[name][i] == single[name] or (
                math.isnan(fast[name][i]) and math.isnan(recorded[name][i]) and math.isnan(single[name])), name
        assert fast["decisions"][i] > 0 and fast["winner"][i] == recorded["winner"][i]
