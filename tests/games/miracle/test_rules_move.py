"""Rules page section 4, Move: layers, blocking, zones of control, abyss, move budget."""

import pytest
from miracle_positions import DRAGONS, SHIELD, moves, place, unit

from simkit import IllegalAction
from simkit.games.kits.hexgrid import distance

# A straight line of cells (direction (1, 0, -1)) in open ground: its k-step end has a unique shortest path.
A = (2, -4, 2)
LINE = [(2 + k, -4, 2 - k) for k in range(6)]  # LINE[0] == A


def open_cells(m, centre, radius):
    grid = m.rules.board.grid
    return {grid.cell(i) for i in range(grid.size) if 1 <= distance(grid.cell(i), centre) <= radius}


def test_ground_move_budget_is_its_move_stat(base):
    """On open ground a Swordsman (move 3) reaches every cell within 3 steps and no further."""
    m = base.new_match(SHIELD, DRAGONS)
    centre = (4, -7, 3)
    reach = open_cells(m, centre, 3)
    assert not any(m.rules.board.abyss[m.rules.board.grid.index(c)] for c in reach)
    uid = place(m, "Swordsman", centre)
    assert moves(m, uid) == reach
    with pytest.raises(IllegalAction, match="no legal path of at most 3 steps"):
        m.move(uid, (4, -3, -1))


def test_flying_move_budget_depends_on_level(base):
    """A BlackBat L1 flies 4 steps, an L3 5 steps, over any terrain."""
    m = base.new_match(SHIELD, DRAGONS)
    low = place(m, "BlackBat", (3, -3, 0), level=1)
    assert moves(m, low) == open_cells(m, (3, -3, 0), 4)
    high = place(m, "BlackBat", (-4, 2, 2), level=3)
    assert moves(m, high) == open_cells(m, (-4, 2, 2), 5)


def test_move_lands_the_unit_and_ends_its_actions(base):
    """After a move the unit stands on the cell and may neither move nor attack again this turn."""
    m = base.new_match(SHIELD, DRAGONS)
    uid = place(m, "Swordsman", A)
    enemy = place(m, "VolcanoDragon", (5, -4, -1), side=1)
    m.move(uid, LINE[2])
    assert unit(m, uid)["pos"] == LINE[2] and not unit(m, uid)["can_move"]
    with pytest.raises(IllegalAction, match="cannot act any more this turn"):
        m.move(uid, LINE[3])
    with pytest.raises(IllegalAction, match="cannot act any more this turn"):
        m.attack(uid, enemy)


def test_ground_unit_never_enters_the_abyss_but_a_flyer_stops_there(base):
    """Only flying units may enter or stop on the abyss; ground units walk around it."""
    m = base.new_match(SHIELD, DRAGONS)
    sword = place(m, "Swordsman", (2, -2, 0))
    bat = place(m, "BlackBat", (-2, 2, 0))
    ground_reach = moves(m, sword)
    assert (1, -1, 0) not in ground_reach and (0, 0, 0) not in ground_reach
    with pytest.raises(IllegalAction, match="no legal path"):
        m.move(sword, (1, -1, 0))
    assert {(0, 0, 0), (-1, 1, 0), (1, -1, 0)} <= moves(m, bat)
    m.move(bat, (0, 0, 0))
    assert unit(m, bat)["pos"] == (0, 0, 0)


def test_ground_unit_never_enters_or_passes_another_ground_unit(base):
    """A ground unit cannot enter a cell holding a ground unit, nor pass through a friendly one."""
    m = base.new_match(SHIELD, DRAGONS)
    uid = place(m, "Swordsman", A)
    friend = place(m, "Swordsman", LINE[1])
    reach = moves(m, uid)
    assert LINE[1] not in reach
    assert LINE[3] not in reach  # its only 3-step path runs through the friend
    assert LINE[2] in reach  # a detour of 3 steps
    m.end_turn()
    m.end_turn()
    m.move(friend, (3, -5, 2))
    assert LINE[3] in moves(m, uid)


def test_surrounded_unit_cannot_move_on_its_layer(base):
    """A Priest ringed by friendly ground units cannot move; a bat ringed by them flies over."""
    m = base.new_match(SHIELD, DRAGONS)
    centre = (3, -5, 2)
    ring = [(4, -6, 2), (4, -5, 1), (3, -4, 1), (2, -4, 2), (2, -5, 3), (3, -6, 3)]
    for cell in ring:
        place(m, "Swordsman" if cell != ring[0] else "Priest", cell)
    sword = place(m, "Priest", centre)
    bat = place(m, "BlackBat", centre)
    assert moves(m, sword) == set()
    assert moves(m, bat) == open_cells(m, centre, 4)


def test_flying_unit_never_enters_or_passes_another_flying_unit(base):
    """A bat never enters a flying unit's cell nor passes a friendly flyer, but flies over ground units."""
    m = base.new_match(SHIELD, DRAGONS)
    bat = place(m, "BlackBat", A)
    place(m, "BlackBat", LINE[1])
    place(m, "Swordsman", LINE[2])
    reach = moves(m, bat)
    assert LINE[1] not in reach and LINE[4] not in reach  # LINE[4]: only 4-step path is through the bat
    assert LINE[2] in reach  # over a friendly ground unit


def test_ground_unit_stops_next_to_an_enemy_ground_unit(base):
    """A ground unit may stop on, but not pass, a cell adjacent to an enemy ground unit."""
    m = base.new_match(SHIELD, DRAGONS)
    uid = place(m, "Swordsman", A)
    free = moves(m, uid)
    assert LINE[3] in free
    place(m, "VolcanoDragon", (3, -3, 0), side=1)  # adjacent to LINE[1] and LINE[2], not to A
    reach = moves(m, uid)
    assert LINE[1] in reach and LINE[2] in reach  # may stop there
    assert LINE[3] not in reach  # its only path passes the enemy's neighbourhood


def test_ground_unit_stops_under_an_enemy_flying_unit_only_on_its_cell(base):
    """An enemy flying unit stops a ground unit on its own cell, not on the cells around it."""
    m = base.new_match(SHIELD, DRAGONS)
    uid = place(m, "Swordsman", A)
    place(m, "BlackBat", LINE[1], side=1)
    reach = moves(m, uid)
    assert LINE[1] in reach and LINE[3] not in reach
    m2 = base.new_match(SHIELD, DRAGONS)
    uid2 = place(m2, "Swordsman", A)
    place(m2, "BlackBat", (3, -3, 0), side=1)  # next to the line, not on it
    assert LINE[3] in moves(m2, uid2)


def test_flying_unit_stops_next_to_an_enemy_flying_unit(base):
    """A flying unit may stop on, but not pass, a cell adjacent to an enemy flying unit."""
    m = base.new_match(SHIELD, DRAGONS)
    bat = place(m, "BlackBat", A)
    assert LINE[4] in moves(m, bat)
    place(m, "BlackBat", (3, -3, 0), side=1)
    reach = moves(m, bat)
    assert LINE[1] in reach and LINE[4] not in reach


def test_flying_unit_stops_over_an_enemy_ground_unit_only_on_its_cell(base):
    """An enemy ground unit stops a flying unit on its cell, not on the cells around it."""
    m = base.new_match(SHIELD, DRAGONS)
    bat = place(m, "BlackBat", A)
    place(m, "VolcanoDragon", LINE[1], side=1)
    reach = moves(m, bat)
    assert LINE[1] in reach and LINE[4] not in reach
    m2 = base.new_match(SHIELD, DRAGONS)
    bat2 = place(m2, "BlackBat", A)
    place(m2, "VolcanoDragon", (3, -3, 0), side=1)  # next to the line: no stop for a flyer
    assert LINE[4] in moves(m2, bat2)


def test_friendly_units_never_stop_a_move(base):
    """Zones of control come from enemies only: friendly units beside the path do not stop a unit."""
    m = base.new_match(SHIELD, DRAGONS)
    uid = place(m, "Swordsman", A)
    place(m, "Swordsman", (3, -3, 0))
    place(m, "BlackBat", LINE[1])
    assert LINE[3] in moves(m, uid)


def test_leaving_an_enemy_adjacent_start_cell_is_allowed(base):
    """The start cell never stops a unit: a Swordsman next to an enemy walks its full 3 steps away."""
    m = base.new_match(SHIELD, DRAGONS)
    uid = place(m, "Swordsman", A)
    place(m, "VolcanoDragon", (1, -4, 3), side=1)  # adjacent to A only
    place(m, "BlackBat", A, side=1)  # and an enemy flyer above it
    assert LINE[3] in moves(m, uid)
    m.move(uid, LINE[3])
    assert unit(m, uid)["pos"] == LINE[3]
