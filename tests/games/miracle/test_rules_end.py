"""Rules page section 5 (end of game): fallen miracle, turn limit, tie-breaks, nothing after the end."""

import pytest
from miracle_positions import DRAGONS, MELEE, SHIELD, end_turns, patch_scenario, place

from simkit import IllegalAction

BESIDE_SECOND_MIRACLE = (6, -6, 0)


def play_to_last_turn(m):
    end_turns(m, 99)
    assert m.snapshot()["turn"] == 100 and not m.over


def test_miracle_at_zero_ends_the_game_at_once(base):
    """The attack that brings a miracle to 0 ends the game on that turn: winner the attacker, reason miracle."""
    m = base.new_match(MELEE, SHIELD)
    end_turns(m, 6)
    sword = place(m, "Swordsman", BESIDE_SECOND_MIRACLE, level=3)
    m.state.miracle_hp[0, 1] = 6
    m.attack(sword, "miracle")
    snap = m.snapshot()
    assert (snap["over"], snap["winner"], snap["end_reason"], snap["turn"]) == (True, 0, "miracle", 7)
    assert snap["players"][1]["miracle_hp"] == 0


def test_miracle_below_zero_ends_the_game_for_the_second_player_too(base):
    """Overkill counts: a miracle pushed below 0 by the second player ends the game, winner the second player."""
    m = base.new_match(MELEE, SHIELD)
    m.end_turn()
    sword = place(m, "Swordsman", (-6, 6, 0), level=3)
    m.state.miracle_hp[0, 0] = 1
    m.attack(sword, "miracle")
    snap = m.snapshot()
    assert (snap["over"], snap["winner"], snap["end_reason"], snap["turn"]) == (True, 1, "miracle", 2)
    assert snap["players"][0]["miracle_hp"] == -5


def test_game_ends_after_turn_100(base):
    """The game ends when turn 100 ends (turn limit), not before."""
    m = base.new_match(MELEE, SHIELD)
    play_to_last_turn(m)
    assert m.current == 1
    m.end_turn()
    snap = m.snapshot()
    assert (snap["over"], snap["end_reason"], snap["turn"]) == (True, "turn_limit", 100)


def test_turn_limit_winner_has_more_miracle_hp(base):
    """At the turn limit the side whose miracle has more HP wins, whatever the dead stars."""
    m = base.new_match(MELEE, SHIELD)
    play_to_last_turn(m)
    sword = place(m, "Swordsman", (-6, 6, 0))
    m.attack(sword, "miracle")
    m.state.dead_stars[0] = (0, 9)
    m.end_turn()
    assert m.snapshot()["winner"] == 1


def test_turn_limit_tie_on_miracle_hp_goes_to_fewer_dead_stars(base):
    """With equal miracle HP the side with fewer dead stars wins."""
    m = base.new_match(MELEE, SHIELD)
    play_to_last_turn(m)
    mine = place(m, "Swordsman", (3, -3, 0), side=0)
    theirs = place(m, "Swordsman", (3, -4, 1), side=1, level=3)
    m.attack(theirs, mine)  # the first player loses a 1-star unit
    m.end_turn()
    snap = m.snapshot()
    assert [p["dead_stars"] for p in snap["players"]] == [1, 0]
    assert snap["winner"] == 1


def test_full_tie_is_a_draw_by_default(base):
    """Equal miracle HP and equal dead stars: a draw."""
    m = base.new_match(MELEE, SHIELD)
    play_to_last_turn(m)
    m.end_turn()
    assert m.snapshot()["winner"] == "draw"


def test_full_tie_second_gives_the_game_to_the_second_player(tmp_path):
    """With full_tie = "second" a full tie goes to the second player."""
    sc = patch_scenario(tmp_path, '[rules]\nfull_tie = "second"\n')
    m = sc.new_match(MELEE, SHIELD)
    play_to_last_turn(m)
    m.end_turn()
    assert m.snapshot()["winner"] == 1


def test_every_action_after_the_end_is_illegal(base):
    """Once the game is over every action raises IllegalAction and there are no legal actions."""
    m = base.new_match(MELEE, DRAGONS)
    sword = place(m, "Swordsman", BESIDE_SECOND_MIRACLE, level=3)
    other = place(m, "Swordsman", (5, -5, 0))
    m.state.miracle_hp[0, 1] = 1
    m.attack(sword, "miracle")
    assert m.over
    before = m.snapshot()
    for action in [("end_turn",), ("summon", "Swordsman", 1, (-6, 6, 0)), ("move", other, (4, -4, 0)),
                   ("attack", other, "miracle"), ("use", (0, 0, 0))]:
        with pytest.raises(IllegalAction, match="the game is over"):
            m.do(action)
    assert m.legal_actions() == []
    assert m.snapshot() == before
