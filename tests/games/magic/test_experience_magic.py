"""Magic War's experience figures (issue 50): the lead signal on literal positions, and hand-built games played
through the Match (a wire-to-wire win, a comeback, a draw at the turn limit) whose figures are worked out by hand;
then the same figures from every path that plays a game (the batch's kernels, search seats, the Match).

Lead, as ``simkit/games/magic/lead.py`` defines it with the base scenario's ``[lead]`` weights (1 and 1): half of
(first leader's HP share - second's) + half of (first army's share - second's), an army's share being its bought
units' gold, each by its HP left, over its gold bought. The Chieftain has 8 HP, a Goblin 2 (1 gold), an Ogre 10
(5 gold); a melee die hits on 3-6. Cells are (c, r).
"""

from __future__ import annotations

import copy
import math

import hypothesis.strategies as st
import numpy as np
import pytest
from hypothesis import given

from simkit.core.errors import ScenarioError
from simkit.games import EXPERIENCE_COLUMNS
from simkit.games.magic import engine as E
from simkit.games.magic.lead import lead, standing_lead
from simkit.games.magic.match import Match
from simkit.games.magic.outside import match_record
from simkit.scenario import scenario_from_data
from tests.magic_positions import scenario

BAND = 0.05  # the base scenario's [experience] level_band (simkit's default)


def hits_key(pattern: str) -> int:
    """A dice-stream key whose tape starts with ``pattern``: ``H`` a die showing 3-6 (a melee hit), ``M`` 1-2."""
    for key in range(1, 1_000_000):
        if all((int(E.below(key, k, 6)) + 1 >= 3) == (x == "H") for k, x in enumerate(pattern)):
            return key
    raise AssertionError(f"no key found for {pattern}")


def game(units, first: str, second: str, dice: str = "", sc=None) -> Match:
    """A match at the start of turn 1 (the first player to act) with exactly ``units`` on the board, its armies
    ``first`` and ``second`` (what each side bought: the army share's whole) and its dice tape ``dice``."""
    m = Match(sc or scenario(), first, second, seed=0)
    m.set_position(units, turn=1, dice_key=hits_key(dice) if dice else 12345)
    return m


def play(m: Match, actions) -> list[int]:
    """Do ``actions``; the numbers of legal actions before each (counted from the listing, as a player sees it)."""
    legal = []
    for action in actions:
        legal.append(len(m.legal_actions()))
        m.do(action)
    return legal


def same(a: dict, b: dict) -> bool:
    """The same figures (NaN, a figure with no value, equal to NaN)."""
    return a.keys() == b.keys() and all(
        a[k] == b[k] or (isinstance(a[k], float) and isinstance(b[k], float) and math.isnan(a[k]) and math.isnan(b[k]))
        for k in a)


def lead_of(m: Match) -> float:
    """The lead of the match's position (compiled, with the scenario's weights)."""
    return float(lead(m.state, m.rules.packed, m.rules.lead))


# ---- the lead signal on literal positions -------------------------------------------------------------------


def test_a_level_position_has_lead_zero():
    """Both leaders whole, the same army whole on both sides, mirrored: neither side is ahead."""
    m = game([(0, "Chieftain", (2, 0)), (1, "Chieftain", (2, 5)), (0, "Goblin", (1, 1)), (1, "Goblin", (1, 4))],
             "Orc:Goblin", "Orc:Goblin")
    assert lead_of(m) == 0.0


SIDED = [(0, "Chieftain", (2, 0), 2), (1, "Chieftain", (2, 5), 5), (0, "Goblin", (1, 1), 1), (0, "Ogre", (3, 1), 4),
         (1, "Goblin", (0, 4)), (1, "Goblin", (4, 4), 1), (1, "Ogre", (2, 4), 7)]


def test_the_lead_weighs_the_leaders_hp_and_the_armys_gold_by_hp_left():
    """Leaders 6/8 against 3/8; armies of 7 gold: the first's Goblin at 1 of 2 HP and Ogre at 6 of 10 stand for
    0.5 + 3 = 3.5 gold (0.5), the second's 1 + 0.5 + 1.5 = 3 gold (3/7): lead (0.375 + 1/14) / 2."""
    m = game(SIDED, "Orc:Goblin*2,Ogre", "Orc:Goblin*2,Ogre")
    assert math.isclose(lead_of(m), (0.375 + 1 / 14) / 2)


def test_a_symmetric_position_negates_the_lead():
    """The same position with the sides swapped and the board turned (row r to 5 - r) has the opposite lead."""
    mirrored = [(1 - u[0], u[1], (u[2][0], 5 - u[2][1]), *u[3:]) for u in SIDED]
    m = game(SIDED, "Orc:Goblin*2,Ogre", "Orc:Goblin*2,Ogre")
    w = game(mirrored, "Orc:Goblin*2,Ogre", "Orc:Goblin*2,Ogre")
    assert lead_of(m) != 0 and math.isclose(lead_of(w), -lead_of(m))


ORC = ("Goblin", "OrcInfantry", "WolfRider", "Ogre")  # 2, 4, 5 and 10 HP


@st.composite
def sided_positions(draw):
    """Both Chieftains (any HP left) and up to six Orc units anywhere off the crowns, any damage short of death."""
    cells = draw(st.lists(st.sampled_from([(c, r) for r in range(6) for c in range(5) if (c, r) not in
                                           ((2, 0), (2, 5))]), min_size=0, max_size=6, unique=True))
    units = [(0, "Chieftain", (2, 0), draw(st.integers(0, 7))), (1, "Chieftain", (2, 5), draw(st.integers(0, 7)))]
    for cell in cells:
        name = draw(st.sampled_from(ORC))
        hp = int(scenario().rules.card(name).hp)
        units.append((draw(st.integers(0, 1)), name, cell, draw(st.integers(0, hp - 1))))
    return units


@given(sided_positions())
def test_the_lead_lies_in_minus_one_to_one_and_a_mirrored_position_negates_it(units):
    """Any position: the lead lies in -1..1, and the sides swapped with the board turned negate it exactly."""
    mirrored = [(1 - u[0], u[1], (u[2][0], 5 - u[2][1]), u[3]) for u in units]
    m = game(units, "Orc:Goblin*2,Ogre", "Orc:Goblin*2,Ogre")
    w = game(mirrored, "Orc:Goblin*2,Ogre", "Orc:Goblin*2,Ogre")
    assert -1.0 <= lead_of(m) <= 1.0
    assert lead_of(w) == -lead_of(m)


def test_a_summoned_unit_is_no_part_of_the_army_share():
    """A Spirit raised by the Undead leader (summoned, not bought) adds nothing to its side's share."""
    units = [(0, "UndeadLeader", (2, 0)), (1, "UndeadLeader", (2, 5)), (0, "Skeleton", (1, 1)),
             (1, "Skeleton", (1, 4)), (0, "Spirit", (3, 1))]
    m = game(units, "Undead:Skeleton", "Undead:Skeleton")
    m.state.units[4].summoned = 1
    assert lead_of(m) == 0.0


def test_a_finished_game_leads_by_its_result():
    """A destroyed leader is as far behind as the game allows: the winner's lead is 1 whatever else stands."""
    m = game([(0, "Chieftain", (2, 0), 7), (1, "Chieftain", (2, 2)), (0, "Ogre", (1, 1))], "Orc:Ogre", "Orc:Goblin",
             dice="HH")
    play(m, [("end",), ("move", (2, 2), (2, 1)), ("attack", (2, 1), (2, 0))])
    assert m.winner == "second" and lead_of(m) == -1.0
    # as it stands: leaders 0 and 1 (-1), armies 1 and 0 (+1): level, but the game is the second's
    assert standing_lead(m.state, m.rules.packed, m.rules.lead) == 0.0


def test_the_weights_are_the_scenarios():
    """``[lead] army = 0``: only the leaders count (the first 6/8, the second 3/8: lead 0.375)."""
    data = copy.deepcopy(scenario().data)
    data["lead"] = {"leader": 1.0, "army": 0.0}
    m = game(SIDED, "Orc:Goblin*2,Ogre", "Orc:Goblin*2,Ogre", sc=scenario_from_data(data, "leaders.toml"))
    assert math.isclose(lead_of(m), 0.375)


@pytest.mark.parametrize("table, words", [({"leader": -1.0}, "lead.leader: must be at least 0"),
                                          ({"leader": 0, "army": 0}, "lead.army: the weights leader and army"),
                                          ({"board": 1.0}, "lead.board: unknown key"),
                                          ({"army": "much"}, "lead.army: must be a number")])
def test_a_bad_lead_table_is_refused_naming_its_key(table, words):
    """A negative weight, both weights 0, an unknown key or a word: one line naming the file and the key."""
    data = copy.deepcopy(scenario().data)
    data["lead"] = table
    with pytest.raises(ScenarioError, match=f"bad.toml: {words}"):
        scenario_from_data(data, "bad.toml")


def test_a_scenario_without_a_lead_table_takes_the_defaults():
    """Old scenario files have no ``[lead]``: they load, with simkit's weights 1 and 1."""
    data = copy.deepcopy(scenario().data)
    del data["lead"]
    rules = scenario_from_data(data, "old.toml").rules
    assert (rules.lead.leader, rules.lead.army) == (1.0, 1.0)


# ---- hand-built games ----------------------------------------------------------------------------------------


def test_a_wire_to_wire_win():
    """The first player ahead at every turn's end and winning: no lead change, never behind, decided from turn 1.

    The second's Chieftain starts at 2/8 HP: lead (0.75 + 0) / 2 = 0.375 at the ends of turns 1 and 2; turn 3 a
    Goblin hits it to 1/8 (0.4375 at turns 3 and 4); turn 5 it is destroyed."""
    m = game([(0, "Chieftain", (2, 0)), (1, "Chieftain", (2, 5), 6), (0, "Goblin", (2, 4)), (1, "Goblin", (0, 5))],
             "Orc:Goblin", "Orc:Goblin", dice="HH")
    legal = play(m, [("end",), ("end",), ("attack", (2, 4), (2, 5)), ("end",), ("end",), ("attack", (2, 4), (2, 5))])
    assert (m.winner, m.end_reason, m.turn) == ("first", "leader", 5)
    f = m.experience_figures()
    assert (f["lead_changes"], f["winner_deficit"], f["decided_turn"], f["decisions"]) == (0, 0.0, 1.0, 6)
    assert f["choices"] == sum(legal) / 6 and math.isnan(f["uncertainty"])


COMEBACK = [(0, "Chieftain", (2, 0), 3), (1, "Chieftain", (2, 2)), (0, "Goblin", (1, 3)), (0, "Goblin", (3, 3)),
            (1, "Goblin", (1, 4), 1), (1, "Goblin", (3, 4), 1)]
# the second's turns end by themselves after its Chieftain's attack (nothing else is left to do, 5.2)
COMEBACK_PLAY = [("attack", (1, 3), (1, 4)), ("attack", (3, 3), (3, 4)), ("end",),  # turn 1: 0.3125
                 ("move", (2, 2), (2, 1)), ("attack", (2, 1), (2, 0)),              # turn 2: 0.1875
                 ("end",),                                                          # turn 3: 0.1875
                 ("attack", (2, 1), (2, 0)),                                        # turn 4: 0.0625
                 ("end",),                                                          # turn 5: 0.0625
                 ("attack", (2, 1), (2, 0))]                                        # turn 6: the second wins


def test_a_comeback():
    """The second player behind by 0.3125 at turn 1's end, still behind at turn 5's, wins on turn 6: one lead
    change, its deficit 0.3125 (a comeback: more than the scenario's 0.25), decided on turn 6.

    The first's Goblins destroy the second's two (army shares 1 and 0) while its Chieftain stands at 5/8 HP: lead
    ((0.625 - 1) + 1) / 2 = 0.3125; the second's Chieftain then hits it twice a turn: 3/8 (0.1875), 1/8 (0.0625,
    still above the 0.05 band), destroyed."""
    m = game(COMEBACK, "Orc:Goblin*2", "Orc:Goblin*2", dice="HHHHHHHH")
    legal = play(m, COMEBACK_PLAY)
    assert (m.winner, m.end_reason, m.turn) == ("second", "leader", 6)
    f = m.experience_figures()
    assert (f["lead_changes"], f["winner_deficit"], f["decided_turn"], f["decisions"]) == (1, 0.3125, 6.0, 9)
    assert f["choices"] == sum(legal) / 9
    assert f["winner_deficit"] > 0.25  # the scenario's [experience] comeback (simkit's default)


def test_a_draw_at_the_turn_limit():
    """Ahead, behind, level, then ends to turn 60, where the tie-break finds leaders and armies equal: a draw with
    one lead change and no deficit or deciding turn.

    Two Goblins each (2 gold): turn 1 one hit on the second's (shares 1 and 0.75: lead 0.125), turn 2 two hits on
    the first's (0.5 and 0.75: -0.125, the second ahead), turn 3 one more on the second's (0.5 each: level)."""
    units = [(0, "Chieftain", (2, 0)), (1, "Chieftain", (2, 5)), (0, "Goblin", (1, 2)), (0, "Goblin", (3, 2)),
             (1, "Goblin", (1, 3)), (1, "Goblin", (3, 3))]
    m = game(units, "Orc:Goblin*2", "Orc:Goblin*2", dice="HHHH")
    actions = [("attack", (1, 2), (1, 3)), ("end",), ("attack", (1, 3), (1, 2)), ("attack", (3, 3), (3, 2)), ("end",),
               ("attack", (3, 2), (3, 3)), ("end",)] + [("end",)] * 57
    legal = play(m, actions)
    assert (m.winner, m.end_reason, m.turn) == ("draw", "turn_limit", 60)
    f = m.experience_figures()
    assert (f["lead_changes"], f["decisions"]) == (1, 64)
    assert math.isnan(f["winner_deficit"]) and math.isnan(f["decided_turn"])
    assert f["choices"] == sum(legal) / 64


def test_turns_that_end_by_themselves_are_noted_with_the_position_they_leave():
    """A turn with nothing to do but end ends by itself (5.2): one action can end two turns, and both are noted.

    The second's lone Chieftain is walled in by two obstacles with no enemy in reach and no magic: the first's
    "end" of turn 1 ends turn 2 too. The first leads by 0.5 (its Goblin against an army of none) at both ends, so
    the last turn at whose end the second was not ahead is turn 2."""
    data = copy.deepcopy(scenario().data)
    data["rules"].update(obstacles=[[1, 5], [0, 4]], max_units=7)
    data["armies"] = {"pool": ["Orc:Goblin"]}
    sc = scenario_from_data(data, "walled.toml")
    m = game([(0, "Chieftain", (2, 0)), (1, "Chieftain", (0, 5)), (0, "Goblin", (2, 3))], "Orc:Goblin",
             "Orc:Goblin", sc=sc)
    m.do(("end",))
    assert (m.turn, m.to_act) == (3, 0)
    assert list(m.experience.behind) == [0, 2] and list(m.experience.deficit) == [0.0, 0.5]


def test_the_record_of_a_match_holds_its_figures():
    """``outside.match_record`` (an outside-bot game's row) carries the experience columns of the match."""
    m = game(COMEBACK, "Orc:Goblin*2", "Orc:Goblin*2", dice="HHHHHHHH")
    play(m, COMEBACK_PLAY)
    record = match_record(m)
    assert same({c: record[c] for c in EXPERIENCE_COLUMNS}, m.experience_figures())


def test_a_clone_carries_the_figures_on_apart():
    """clone(): the copy's figures go on from the original's, and what it plays leaves the original's alone."""
    m = game(COMEBACK, "Orc:Goblin*2", "Orc:Goblin*2", dice="HHHHHHHH")
    play(m, COMEBACK_PLAY[:3])
    before = m.experience_figures()
    other = m.clone()
    play(other, COMEBACK_PLAY[3:])
    assert same(m.experience_figures(), before) and other.experience_figures()["lead_changes"] == 1


# ---- every path that plays a game gives the same figures ----------------------------------------------------


@pytest.mark.parametrize("bots", [("random", "random"), ("balanced", "aggro"), ("search-1", "turtle")])
def test_a_batchs_figures_are_its_games_replayed_through_the_match(bots):
    """The compiled batch (utility, random and search seats) and the Match replaying its actions note the same
    decisions and leads: identical figures, per game."""
    sc = scenario()
    a, b = sc.game.seat_decks()
    firsts, seconds = [a[0], a[5], a[9]], [b[2], b[14], b[21]]
    n = 1 if bots[0].startswith("search") else 3
    out = sc.game.play_batch(firsts[:n], seconds[:n], [5, 6, 7][:n], bots, record_actions=True)
    for i in range(n):
        m = sc.game.replay(out["first_deck"][i], out["second_deck"][i], out["action_list"][i], seed=out["seed"][i])
        f = m.experience_figures()
        assert same({c: out[c][i] for c in EXPERIENCE_COLUMNS}, f), (bots, i, f)
        assert out["decisions"][i] == out["actions"][i]
        assert np.isnan(out["uncertainty"][i])
