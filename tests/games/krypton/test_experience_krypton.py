"""Krypton's experience figures (simkit.games.kits.experience) on literal games whose figures are known by hand, and
its lead signal (simkit.games.krypton.lead) on literal positions.

The games are played through the Match on the base scenario's map: every hero parked in a far corner, no cards
(the pile and the hands empty), each hero turn ended at once (``("end",)``); between rounds the test writes the
bases' HP (the lead's largest term: ``[lead] base = 0.5`` of weights summing to 1, so a base HP is 0.05 of lead)
and the game ends by a real attack on a base of 1 HP (a 6 on the die + 1 for a plain beats the basic base's 6)
or at the round limit, or by the authored lock rule (``end_at_lock``). The lead is noted at each round's end and on
the final state."""

from __future__ import annotations

import math

import pytest
from krypton_positions import BASE, new, put, scenario, sides, tower

from simkit.core.errors import ScenarioError
from simkit.games import EXPERIENCE_COLUMNS
from simkit.games.krypton.batch import make_bot, play_batch
from simkit.games.krypton.bots import choose
from simkit.games.krypton.lead import LEAD_TERMS
from simkit.games.krypton.outside import match_record
from simkit.games.krypton.stalemate import locked
from simkit.scenario import load_scenario

#: the cells next to each side's base (its own spawn points, plain): where an enemy hero attacks it from
NEXT_TO_BASE = {0: (-5, 3, 2), 1: (5, -2, -3)}
ENEMY_BASE = {0: (6, -3, -3), 1: (-6, 3, 3)}


def patched(tmp_path, text: str):
    """The base scenario with ``text`` added (a table of its own)."""
    p = tmp_path / "patched.toml"
    p.write_text(f'extends = "{BASE.as_posix()}"\n{text}\n', encoding="utf-8")
    return load_scenario(p)


class Game:
    """A literal game: a Match with no cards whose decisions are counted with the legal actions listed before each."""

    def __init__(self, sc=None):
        self.m = new(sc=sc)
        self.m.set_pile([])
        self.m.set_hand(0, [])
        self.m.set_hand(1, [])
        self.legal: list[int] = []

    def do(self, action: tuple) -> None:
        self.legal.append(len(self.m.legal_actions()))
        self.m.do(action)

    def end_round(self, base_hp: tuple[int, int] | None = None) -> None:
        """Set the bases' HP (if given), then end every hero turn of the round."""
        if base_hp is not None:
            sides(self.m, base_hp=list(base_hp))
        r = self.m.round
        while self.m.round == r and not self.m.over:
            self.do(("end",))

    def win_by(self, side: int) -> None:
        """Hero 0 of ``side`` takes the enemy base's last HP: the base is set to 1 HP, the hero put next to it,
        the turns before its own ended, its attack rolls a 6."""
        m = self.m
        sides(m, base_hp=[1 if s != side else int(m.state.sides[s].base_hp) for s in (0, 1)])
        put(m, side, 0, NEXT_TO_BASE[1 - side])
        while m.side != side:
            self.do(("end",))
        m.script_dice(6)
        self.do(("attack",) + ENEMY_BASE[side])
        assert m.over and m.winner == ("first", "second")[side] and m.end_reason == "base"

    def figures(self) -> dict:
        f = self.m.experience_figures()
        assert f["decisions"] == len(self.legal) == len(self.m.actions)
        assert f["choices"] == pytest.approx(sum(self.legal) / len(self.legal))
        return f


def test_a_wire_to_wire_win_has_no_lead_change_no_deficit_and_is_decided_in_round_1():
    """The first side ahead at every round's end (its enemy's base at 8, 5, then 1 HP: leads 0.1, 0.25, 0.45) and
    winning in round 4: no lead change, never behind, decided from round 1."""
    g = Game()
    g.end_round((10, 8))
    assert g.m.lead_now() == pytest.approx(0.1)
    g.end_round((10, 5))
    g.end_round((10, 1))
    assert g.m.lead_now() == pytest.approx(0.45)
    g.win_by(0)
    f = g.figures()
    assert (f["lead_changes"], f["winner_deficit"], f["decided_turn"]) == (0, 0.0, 1)
    assert g.m.round == 4 and math.isnan(f["uncertainty"])


def test_a_comeback_counts_the_winners_deepest_deficit_and_the_round_it_took_the_lead_for_good():
    """The first side ahead by 0.1 and 0.3 (the second base at 8, then 4 HP), then behind by 0.15 (its own base at
    1 against 4) and the second side winning in round 4: one lead change, the winner's deficit 0.3 (a comeback:
    more than the default 0.25), decided in round 3 (the first round whose end saw it ahead for good)."""
    g = Game()
    g.end_round((10, 8))
    g.end_round((10, 4))
    g.end_round((1, 4))
    assert g.m.lead_now() == pytest.approx(-0.15)
    g.win_by(1)
    f = g.figures()
    assert f["lead_changes"] == 1
    assert f["winner_deficit"] == pytest.approx(0.3)
    assert f["decided_turn"] == 3 and g.m.round == 4


def test_a_win_snatched_from_behind_in_its_last_round_counts_the_final_state():
    """The first side ahead by 0.1 and 0.3 after rounds 1 and 2, the second side taking the first base's last HP in
    round 3: the final state (the result, -1) is the lead's one change, and the game was decided in round 3."""
    g = Game()
    g.end_round((10, 8))
    g.end_round((10, 4))
    g.win_by(1)
    f = g.figures()
    assert (f["lead_changes"], f["decided_turn"]) == (1, 3) and f["winner_deficit"] == pytest.approx(0.3)


def test_a_draw_at_the_round_limit_counts_lead_changes_and_has_no_deficit_or_deciding_round(tmp_path):
    """``max_rounds = 3``: the first side ahead by 0.1 after round 1, behind by 0.1 after round 2 (its base at 6
    against 8), the game drawn at the limit after round 3 (the final lead: 0, the result): one lead change, no
    deficit and no deciding round (NaN)."""
    g = Game(patched(tmp_path, "[rules]\nmax_rounds = 3"))
    g.end_round((10, 8))
    g.end_round((6, 8))
    g.end_round()
    assert g.m.over and g.m.winner == "draw" and g.m.end_reason == "turn_limit" and g.m.round == 3
    f = g.figures()
    assert f["lead_changes"] == 1
    assert math.isnan(f["winner_deficit"]) and math.isnan(f["decided_turn"])
    assert match_record(g.m)["lead_changes"] == 1


def test_a_locked_game_keeps_its_lead_to_a_draw_at_the_limit(tmp_path):
    """A lock (``simkit.games.krypton.stalemate``: dry veins, both bases advanced, 4 energy a side, one die each)
    with the first side 0.2 ahead (the second base at 6): the lead never changes, and the game can only be drawn
    at the limit (``max_rounds = 3``): no lead change, no deficit, no deciding round."""
    g = Game(patched(tmp_path, "[rules]\nmax_rounds = 3"))
    g.m.state.stock[:] = 0
    sides(g.m, energy=[4, 4], tier=[2, 2], base_hp=[10, 6])
    assert locked(g.m) and g.m.lead_now() == pytest.approx(0.2)
    for _ in range(3):
        g.end_round()
        assert locked(g.m)
    assert g.m.end_reason == "turn_limit" and g.m.winner == "draw"
    f = g.figures()
    assert f["lead_changes"] == 0 and math.isnan(f["winner_deficit"]) and math.isnan(f["decided_turn"])


def test_a_game_ended_by_the_lock_rule_is_a_draw_in_the_round_it_locked(tmp_path):
    """``end_at_lock = true`` (an authored end rule): the first side 0.2 ahead after round 1 (the second base at 6),
    then the game locks in round 2 (veins dry, both bases advanced, 4 energy a side) and ends there, drawn, at the
    next hero turn's start: no lead change, no deficit, no deciding round, 2 rounds."""
    g = Game(patched(tmp_path, "[rules]\nend_at_lock = true"))
    g.end_round((10, 6))
    g.m.state.stock[:] = 0
    sides(g.m, energy=[4, 4], tier=[2, 2])
    g.do(("end",))
    assert g.m.over and g.m.end_reason == "lock" and g.m.winner == "draw" and g.m.round == 2
    f = g.figures()
    assert f["lead_changes"] == 0 and math.isnan(f["winner_deficit"]) and math.isnan(f["decided_turn"])
    assert f["decisions"] == 5


# -- the lead signal on literal positions --------------------------------------------------------------------------


def test_a_new_game_is_level():
    """Both bases whole, the same tier, dice and heroes' HP: lead 0."""
    assert new().lead_now() == 0.0
    assert new("Archer+Knight", "Warrior+Warrior").lead_now() == 0.0  # shares of each team's own full HP


def test_the_lead_weighs_base_tier_heroes_and_dice_as_the_scenario_says():
    """The first base at 7 of 10 (-0.3), a tier more (+1 of 1), the second's heroes at 9 of 12 HP (+0.25), a
    Prayer Tower more (2 dice against 1, of 3 at most: +0.5): 0.5 x -0.3 + 0.2 x 1 + 0.15 x 0.25 + 0.15 x 0.5."""
    m = new()
    sides(m, base_hp=[7, 10], tier=[2, 1])
    put(m, 1, 0, (3, 3, -6), hp=3)
    tower(m, 0, "Prayer Tower", (-3, 4, -1))
    assert m.lead_now() == pytest.approx(0.5 * -0.3 + 0.2 * 1 + 0.15 * 0.25 + 0.15 * 0.5)


def test_swapping_the_sides_negates_the_lead():
    """The same position with the sides' roles swapped (bases, tiers, a hurt hero, a Prayer Tower, a dead hero)
    has the opposite lead."""
    def position(a: int):
        m = new()
        b = 1 - a
        sides(m, base_hp=[7, 10] if a == 0 else [10, 7], tier=[2, 1] if a == 0 else [1, 2])
        put(m, b, 0, (3, 3, -6) if b == 1 else (-3, -3, 6), hp=3)
        m.place({"sides": {a: {"heroes": {1: {"state": 2, "hp": 0, "cell": -1}}}}})
        tower(m, a, "Prayer Tower", (-3, 4, -1) if a == 0 else (3, -4, 1))
        return m.lead_now()

    one = position(0)
    assert one != 0 and position(1) == pytest.approx(-one)


def test_a_destroyed_base_counts_zero_and_the_result_is_the_lead_once_over():
    """A base below 0 HP counts 0 (the lead stays within -1..+1); once over, the lead is the result."""
    m = new()
    sides(m, base_hp=[10, -5])
    assert m.lead_now() == pytest.approx(0.5)
    m.place({"winner": 0})
    assert m.lead_now() == 1.0
    m.place({"winner": 1})
    assert m.lead_now() == -1.0
    m.place({"winner": 2})
    assert m.lead_now() == 0.0


def test_the_weights_and_the_band_come_from_the_scenario(tmp_path):
    """``[lead] base = 1`` with the other weights 0: the lead is the base share alone; ``[experience] level_band``
    reaches the Match (a Krypton scenario may hold the core's ``[experience]`` table)."""
    sc = patched(tmp_path, "[lead]\ntier = 0\nheroes = 0\ndice = 0\nbase = 1\n[experience]\nlevel_band = 0.2")
    m = new(sc=sc)
    sides(m, base_hp=[10, 8], tier=[1, 2])
    assert m.lead_now() == pytest.approx(0.2)
    assert m.lead_weights.band == 0.2


def test_a_scenario_without_a_lead_table_takes_simkits_weights(tmp_path):
    """The base scenario's ``[lead]`` is simkit's defaults; a file without the table loads with the same weights."""
    text = BASE.read_text(encoding="utf-8")
    start = text.index("\n[lead]\n")
    p = tmp_path / "no-lead.toml"
    p.write_text(text[:start] + text[text.index("\n[sweep]\n"):], encoding="utf-8")
    assert "[lead]" not in p.read_text(encoding="utf-8").replace("`[lead]`", "")
    assert load_scenario(p).rules.lead == {name: w for name, _, w in LEAD_TERMS} == scenario().rules.lead


@pytest.mark.parametrize("text, key", [("base = -0.1", "lead.base"), ("dice = true", "lead.dice"),
                                       ("tier = 2", "lead.tier"), ("luck = 0.1", "lead.luck"),
                                       ("base = 0\ntier = 0\nheroes = 0\ndice = 0", "lead")])
def test_a_bad_lead_weight_is_refused_naming_its_key(tmp_path, text, key):
    """A weight outside 0..1, not a number, an unknown term, or every weight 0: one line naming file and key."""
    with pytest.raises(ScenarioError, match=rf"patched\.toml: {key.replace('.', '[.]')}"):
        patched(tmp_path, f"[lead]\n{text}")


# -- the same figures however a game is played ---------------------------------------------------------------------


def test_a_game_has_the_same_figures_in_a_batch_played_alone_and_through_the_match():
    """A balanced mirror and a random against a hunter: the figures of play_batch (compiled), of the same game
    played decision by decision by the bots through Match.do, and of its outside-bot record are the same."""
    sc = scenario()
    for bots, decks, seed in ((("balanced", "balanced"), ("Archer+Knight", "Knight+Warrior"), 5),
                              (("random", "hunter"), ("Warrior+Warrior", "Archer+Archer"), 6)):
        r = play_batch(sc, [decks[0]], [decks[1]], [seed], bots)
        m = sc.new_match(*decks, seed)
        players = [make_bot(sc, name, s, seed)[0] for s, name in enumerate(bots)]
        while not m.over:
            m.do(choose(players[m.to_act], m))
        record = match_record(m)
        for c in EXPERIENCE_COLUMNS:
            a, b = r[c][0], record[c]
            assert a == b or (math.isnan(a) and math.isnan(b)), (bots, c, a, b)
        assert r["decisions"][0] == r["actions"][0] and math.isnan(r["uncertainty"][0])
