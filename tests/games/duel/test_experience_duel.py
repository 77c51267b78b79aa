"""Card Duel: the lead signal on literal positions, and the experience figures of hand-built games played through
the Match (a wire-to-wire win, a comeback, a draw at the turn limit), each figure counted by hand.

Hand-built games start from a literal position (:func:`duel_positions.position`: 25 HP, 2 action points and
3 mana each, distance given, the rest of each deck in its source pile in deck order, so a turn's draw takes the
deck's next Strikes); every action is a decision, and the decision factor is the mean number of legal actions
listed at each (a hand's copies are one action; advance and retreat are legal away from the ends of the distance).
Decks: A = Dagger+Greataxe:Rage,Reflect,ShadowBolt, B = Longbow+Spear:Mend,Reflect,Venom.
"""

from __future__ import annotations

import math

import pytest
from duel_positions import A, B, duel, patched, position

import simkit
from simkit import IllegalAction
from simkit.core.errors import ScenarioError
from simkit.games import EXPERIENCE_COLUMNS
from simkit.games.duel import lead as L
from simkit.games.duel.batch import play_batch
from simkit.games.duel.outside import match_record


def lead_of(m) -> float:
    """The lead signal of the match's state with the scenario's ``[lead]`` weights."""
    return L.lead(m.state, m.rules.lead, m.rules.cards)


def play(m, *actions) -> None:
    """Do each action in turn (tuples, or a verb alone)."""
    for a in actions:
        m.do(a if isinstance(a, tuple) else (a,))


def same(a, b) -> bool:
    """Equal figures, NaN equal to NaN."""
    return all(x == y or (isinstance(x, float) and math.isnan(x) and math.isnan(y)) for x, y in zip(a, b))


# ---- the lead signal -------------------------------------------------------------------------------------


def test_a_new_game_is_level():
    """25 HP each and nothing in play: lead 0 (the hands, 4 and 5 cards, do not count)."""
    assert lead_of(position(p0={"hand": ["Strike"]}, p1={"hand": ["Strike", "Guard"]})) == 0.0


def test_lead_weighs_hp_statuses_and_equipment():
    """First: 20 HP + Shield 3 + Dagger equipped (2) = 25; second: 10 HP - Poison 2 + Strength 1 (2) = 10:
    lead (25 - 10) / 35 = 3/7."""
    m = position(first=A, second=B, p0={"hp": 20, "statuses": {"shield": 3}, "equipment": ["Dagger"]},
                 p1={"hp": 10, "statuses": {"poison": 2, "strength": 1}})
    assert lead_of(m) == pytest.approx(3 / 7)


def test_swapping_the_seats_negates_the_lead():
    """The same two players in the other seats: the lead is the opposite, to the last bit."""
    one = {"hp": 20, "statuses": {"shield": 3, "regeneration": 2}, "equipment": ["Dagger", {"card": "VenomCoating",
                                                                                              "on": "Dagger"}]}
    two = {"hp": 12, "statuses": {"poison": 5}, "equipment": ["Barrier"]}
    here = lead_of(position(first=A, second=A, p0=one, p1=two))
    there = lead_of(position(first=A, second=A, p0=two, p1=one))
    assert here == -there
    assert here == pytest.approx((28 - 9) / 37)  # 20 + 3 + 2 + Dagger 2 + VenomCoating 1; 12 - 5 + Barrier 2


def test_a_player_at_zero_hp_has_lost_whatever_it_holds():
    """HP 0 counts 0 whatever the Shield and weapons: the other seat's lead is 1."""
    m = position(first=A, p0={"hp": 0, "statuses": {"shield": 9}, "equipment": ["Dagger", "Greataxe"]}, p1={"hp": 1})
    assert lead_of(m) == -1.0


def test_poison_can_bring_a_standing_to_zero_but_not_below():
    """3 HP under Poison 5 stands at 0 (not -2): the other seat's lead is 1; both at 0: level."""
    assert lead_of(position(p0={"hp": 10}, p1={"hp": 3, "statuses": {"poison": 5}})) == 1.0
    assert lead_of(position(p0={"hp": 3, "statuses": {"poison": 5}}, p1={"hp": 2, "statuses": {"poison": 2}})) == 0.0


def test_the_weights_are_the_scenarios(tmp_path):
    """[lead] weapon = 10 and hp = 2: first 2 * 10 + a weapon 10 = 30 against 2 * 10 = 20: lead 1/5; the base
    scenario (weapon 2): 12 against 10, 1/11."""
    spec = {"p0": {"hp": 10, "equipment": ["Dagger"]}, "p1": {"hp": 10}, "first": A}
    assert lead_of(position(**spec)) == pytest.approx(1 / 11)
    sc = patched(tmp_path, "[lead]\nweapon = 10\nhp = 2\n")
    assert lead_of(position(scenario=sc, **spec)) == pytest.approx(1 / 5)


def test_a_scenario_without_lead_weights_takes_simkits_defaults(tmp_path):
    """An old scenario file with no [lead] table loads, with the authored defaults the base file states."""
    path = tmp_path / "old.toml"
    text = (duel().path).read_text(encoding="utf-8")
    start = text.index("[lead]")
    path.write_text(text[:start] + text[text.index("# ---- bots", start):], encoding="utf-8")
    old = simkit.load_scenario(path)
    assert "lead" not in old.data
    assert old.rules.lead.tolist() == duel().rules.lead.tolist()


@pytest.mark.parametrize("text, words", [
    ("[lead]\nhp = 0\n", r"lead\.hp.*above 0"),
    ("[lead]\nweapon = -1\n", r"lead\.weapon.*at least 0"),
    ("[lead]\nweapons = 1\n", r"weapons"),
    ("[lead]\nshield = \"much\"\n", r"lead\.shield.*number"),
])
def test_bad_lead_weights_are_refused_naming_the_key(tmp_path, text, words):
    """A [lead] weight that is no number, negative, an unknown key, or hp 0 is refused in one line naming it."""
    with pytest.raises(ScenarioError, match=words):
        patched(tmp_path, text)


# ---- hand-built games ---------------------------------------------------------------------------------------


def test_wire_to_wire_win():
    """The first player strikes 4 HP to 2, both pass, it strikes again: ahead at every turn's end (23/27, 23/27),
    the final state 1. No lead change, never behind, decided at turn 1. Decisions (legal actions): play Strike
    (Strike, advance, retreat, end_play: 4), end_play (4: a Strike is left), end_turn (discard Strike, end_turn:
    2); the second player's end_play (Strike, advance, retreat, end_play: 4: it drew two Strikes) and end_turn
    (2); play Strike (4): 6 decisions among 20."""
    m = position(distance=1, p0={"hand": ["Strike", "Strike"]}, p1={"hp": 4})
    play(m, ("play", "Strike"), "end_play", "end_turn")
    assert lead_of(m) == pytest.approx(23 / 27)
    play(m, "end_play", "end_turn", ("play", "Strike"))
    assert (m.winner, m.end_reason, m.turn) == ("first", "hp_zero", 3)
    f = m.figures()
    assert (f["lead_changes"], f["winner_deficit"], f["decided_turn"], f["decisions"]) == (0, 0.0, 1, 6)
    assert f["choices"] == pytest.approx(20 / 6)
    assert math.isnan(f["uncertainty"])


def test_comeback():
    """The second player, behind 1 HP to 6 after turn 1 (lead 5/7), strikes twice (2 against 1: 1/3), shields
    itself with Guard at turn 4 (2 against 1 + 3: -1/3) and strikes the last 2 HP at turn 6. One lead change
    (turn 4), the winner's deficit 5/7 (a comeback), decided at turn 4 (ahead from its end on). Decisions by
    turn (legal actions): 1: Strike (4), end_play (3), end_turn (1); 2: Strike (5: Strike, Guard, advance,
    retreat, end_play), Strike (5), end_play (3), end_turn (2); 3: end_play (4), end_turn (2); 4: Guard (5),
    end_play (4), end_turn (2); 5: end_play (8: the first player drew a Step, which offers -1, 0, 1 and 2 at
    distance 1), end_turn (3: discard Strike or Step); 6: Strike (8: the second drew Steps too): 15 decisions among
    59."""
    m = position(distance=1, p0={"hp": 6, "hand": ["Strike"]}, p1={"hp": 3, "hand": ["Guard"]})
    play(m, ("play", "Strike"), "end_play", "end_turn")
    assert lead_of(m) == pytest.approx(5 / 7)
    play(m, ("play", "Strike"), ("play", "Strike"), "end_play", "end_turn")
    play(m, "end_play", "end_turn")
    assert lead_of(m) == pytest.approx(1 / 3)
    play(m, ("play", "Guard"), "end_play", "end_turn")
    assert lead_of(m) == pytest.approx(-1 / 3)
    play(m, "end_play", "end_turn", ("play", "Strike"))
    assert (m.winner, m.turn) == ("second", 6)
    f = m.figures()
    assert (f["lead_changes"], f["decided_turn"], f["decisions"]) == (1, 4, 15)
    assert f["winner_deficit"] == pytest.approx(5 / 7)
    assert f["choices"] == pytest.approx(59 / 15)


def test_draw_at_the_turn_limit(tmp_path):
    """Turn limit 3: the first player strikes (23 HP against 25: 2/48, inside the level band), the second strikes
    twice and casts ShadowBolt (19 against 23: the second ahead), the first strikes twice and poisons with Venom
    (19 against 19 - 4: the first ahead) and the game ends drawn. One lead change; no deficit and no deciding
    turn (no winner). Decisions: 1: Strike (5: Strike, Venom, advance, retreat, end_play), end_play (4), end_turn
    (2); 2: Strike (5), Strike (5), ShadowBolt (4), end_play (3), end_turn (2); 3: Strike (5), Strike (5), Venom
    (4), end_play (3), end_turn (1): 13 decisions among 48."""
    sc = patched(tmp_path, "[rules]\nturn_limit = 3\n")
    m = position(scenario=sc, first=B, second=A, distance=1, p0={"hand": ["Strike", "Venom"]},
                 p1={"hand": ["Strike", "Strike", "ShadowBolt"]})
    play(m, ("play", "Strike"), "end_play", "end_turn")
    assert lead_of(m) == pytest.approx(2 / 48)
    play(m, ("play", "Strike"), ("play", "Strike"), ("play", "ShadowBolt"), "end_play", "end_turn")
    assert lead_of(m) == pytest.approx(-4 / 42)
    play(m, ("play", "Strike"), ("play", "Strike"), ("play", "Venom"), "end_play", "end_turn")
    assert (m.winner, m.end_reason, m.turn) == ("draw", "turn_limit", 3)
    assert lead_of(m) == pytest.approx(4 / 34)
    f = m.figures()
    assert (f["lead_changes"], f["decisions"]) == (1, 13)
    assert math.isnan(f["winner_deficit"]) and math.isnan(f["decided_turn"])
    assert f["choices"] == pytest.approx(48 / 13)


def test_refused_actions_and_clones_leave_the_figures_alone():
    """An illegal action notes nothing; a clone's figures go on apart from the match's."""
    m = position(distance=1, p0={"hand": ["Strike"]})
    with pytest.raises(IllegalAction, match="no such card in hand"):
        m.do(("play", "Guard"))
    trial = m.clone()
    trial.do(("play", "Strike"))
    assert m.figures()["decisions"] == 0 and trial.figures()["decisions"] == 1


# ---- every path records the same figures ---------------------------------------------------------------------


def test_the_match_replaying_a_batch_game_records_the_batchs_figures():
    """A batch's games (compiled, utility and random bots) replayed action by action through the Match: the same
    experience figures, and the outside bots' record (:func:`match_record`) carries them."""
    sc = duel()
    decks = sc.decks
    out = play_batch(sc, [decks[0], decks[60], decks[5]], [decks[119], decks[7], decks[5]], [3, 4, 5],
                     ("aggro", "random"), record_actions=True)
    for g in range(3):
        m = sc.game.new_match(out["first_deck"][g], out["second_deck"][g], seed=out["seed"][g])
        for action in out["action_list"][g]:
            m.do(action)
        want = [out[c][g] for c in EXPERIENCE_COLUMNS]
        assert same([m.figures()[c] for c in EXPERIENCE_COLUMNS], want)
        record = match_record(m)
        assert same([record[c] for c in EXPERIENCE_COLUMNS], want)
        assert out["decisions"][g] == out["actions"][g]


def test_a_games_figures_do_not_depend_on_its_batch():
    """A game's figures alone equal its figures among others, with and without its actions recorded."""
    sc = duel()
    decks = sc.decks
    many = play_batch(sc, [decks[1], decks[2]], [decks[3], decks[4]], [8, 9], ("control", "aggro"))
    one = play_batch(sc, [decks[2]], [decks[4]], [9], ("control", "aggro"), record_actions=True)
    assert same([one[c][0] for c in EXPERIENCE_COLUMNS], [many[c][1] for c in EXPERIENCE_COLUMNS])
