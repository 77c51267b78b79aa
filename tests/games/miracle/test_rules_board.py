"""Rules page section 1 (board): cells, abyss, symmetry, miracles, spawn points, garrisons, geometry."""

import itertools

import numpy as np
import pytest
from miracle_positions import BASE, MELEE, SHIELD, place

import simkit
from simkit import ScenarioError
from simkit.games.kits.hexgrid import DIRECTIONS
from simkit.games.miracle import rules as R

ABYSS_QUARTER = [
    (-2, -1, 3), (-1, -2, 3), (-2, -2, 4), (-3, -2, 5),
    (-4, -4, 8), (-5, -4, 9), (-4, -5, 9), (-5, -5, 10), (-6, -5, 11),
    (-5, -8, 13), (-6, -7, 13), (-7, -6, 13), (-8, -5, 13), (-6, -8, 14), (-7, -7, 14), (-8, -6, 14),
]
ABYSS = {(0, 0, 0), (-1, 0, 1), (0, -1, 1), (1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0)}
ABYSS |= set(ABYSS_QUARTER) | {(-x, -y, -z) for x, y, z in ABYSS_QUARTER}
FIRST_SPAWN = [(-8, 6, 2), (-7, 6, 1), (-6, 6, 0), (-6, 7, -1), (-6, 8, -2)]
BEHIND_FIRST = {(-8, 7, 1), (-8, 8, 0), (-7, 8, -1)}  # the cells behind the first player's miracle
BEHIND_SECOND = {(8, -7, -1), (8, -8, 0), (7, -8, 1)}
GARRISONS = {
    (-6, -6, 12): {(-7, -5, 12), (-5, -7, 12), (-5, -6, 11)},
    (6, 6, -12): {(7, 5, -12), (5, 7, -12), (5, 6, -11)},
    (0, -5, 5): {(0, -4, 4), (-1, -4, 5), (-1, -5, 6)},
    (0, 5, -5): {(0, 4, -4), (1, 4, -5), (1, 5, -6)},
}


def neg(c):
    return (-c[0], -c[1], -c[2])


def cells_of(grid, mask):
    return {grid.cell(i) for i in np.nonzero(mask)[0]}


def test_board_has_275_cells(base):
    """The board is every (x, y, -x-y) with |x| <= 8, |y| <= 8, |x+y| <= 14, less the 2 miracle cells and the
    3 cells behind each miracle: 275 cells."""
    grid = base.rules.board.grid
    expected = {(x, y, -x - y) for x in range(-8, 9) for y in range(-8, 9) if abs(x + y) <= 14}
    expected -= {(-7, 7, 0), (7, -7, 0)}
    expected -= BEHIND_FIRST | BEHIND_SECOND
    assert grid.size == 275
    assert {grid.cell(i) for i in range(grid.size)} == expected


def test_abyss_is_the_39_listed_cells(base):
    """The abyss is exactly the 39 cells the rules page lists."""
    board = base.rules.board
    assert len(ABYSS) == 39
    assert cells_of(board.grid, board.abyss) == ABYSS


def test_map_is_point_symmetric_not_mirror_symmetric(base):
    """p -> -p maps the board, abyss, garrisons and swaps the sides' spawn points; no mirror maps the abyss."""
    board = base.rules.board
    grid = board.grid
    cells = {grid.cell(i) for i in range(grid.size)}
    assert {neg(c) for c in cells} == cells
    abyss = cells_of(grid, board.abyss)
    assert {neg(c) for c in abyss} == abyss
    assert {neg(c) for c in cells_of(grid, board.spawn[0])} == cells_of(grid, board.spawn[1])
    assert board.miracles[1] == neg(board.miracles[0])
    garrisons = {grid.cell(int(g)): cells_of(grid, board.garrison_spawn[i]) for i, g in enumerate(board.garrisons)}
    assert {neg(g): {neg(c) for c in s} for g, s in garrisons.items()} == garrisons
    for perm in [(0, 2, 1), (1, 0, 2), (2, 1, 0)]:  # the reflections: odd permutations, either sign
        for sign in (1, -1):
            assert {tuple(sign * c[p] for p in perm) for c in abyss} != abyss


def test_miracles_spawn_points_and_garrisons_are_the_listed_cells(base):
    """Miracles at (-7,7,0)/(7,-7,0), the 5 spawn points per side and the 4 garrisons with 3 spawn points each."""
    board = base.rules.board
    grid = board.grid
    assert board.miracles == ((-7, 7, 0), (7, -7, 0))
    assert cells_of(grid, board.spawn[0]) == set(FIRST_SPAWN)
    assert cells_of(grid, board.spawn[1]) == {neg(c) for c in FIRST_SPAWN}
    garrisons = {grid.cell(int(g)): cells_of(grid, board.garrison_spawn[i]) for i, g in enumerate(board.garrisons)}
    assert garrisons == GARRISONS


def test_miracle_cells_are_not_board_cells(base):
    """A miracle cell is not a board cell: it has no index and is nobody's neighbour."""
    grid = base.rules.board.grid
    for miracle in base.rules.board.miracles:
        assert grid.index(miracle) == -1
        for d, off in enumerate(DIRECTIONS):
            i = grid.index(tuple(m + o for m, o in zip(miracle, off, strict=True)))
            if i >= 0:
                assert grid.neighbors[i, (d + 3) % 6] == -1  # the step back onto the miracle leads nowhere


def test_nothing_enters_a_miracle_cell(base):
    """A unit next to a miracle can move anywhere around it but never onto it, and cannot summon on it."""
    m = base.new_match(MELEE, MELEE)
    uid = place(m, "Swordsman", (-6, 6, 0))
    assert (-7, 7, 0) not in {a[2] for a in m.legal_actions() if a[0] == "move" and a[1] == uid}
    with pytest.raises(Exception, match="not on the board"):
        m.move(uid, (-7, 7, 0))
    with pytest.raises(Exception, match="not on the board"):
        m.summon("Swordsman", 1, (-7, 7, 0))


def test_cells_behind_the_miracles_are_off_the_board(base):
    """The three cells behind each miracle have no index and are nobody's neighbour, like a miracle cell."""
    grid = base.rules.board.grid
    for c in sorted(BEHIND_FIRST | BEHIND_SECOND):
        assert grid.index(c) == -1
        for off in DIRECTIONS:
            i = grid.index(tuple(a + b for a, b in zip(c, off, strict=True)))
            if i >= 0:
                assert all(grid.cell(int(j)) != c for j in grid.neighbors[i] if j >= 0)


def test_no_unit_enters_the_cells_behind_a_miracle(base):
    """A BlackBat (flying, move 4) and a Swordsman (ground, move 3) next to their miracle never reach the
    cells behind it, and nothing is summoned there."""
    m = base.new_match(SHIELD, MELEE)
    bat = place(m, "BlackBat", (-6, 8, -2))
    sword = place(m, "Swordsman", (-8, 6, 2))
    reached = {a[2] for a in m.legal_actions() if a[0] == "move" and a[1] in (bat, sword)}
    assert (-6, 7, -1) in reached and (-7, 6, 1) in reached  # both can move; only the back cells are out
    assert not reached & BEHIND_FIRST
    for c in sorted(BEHIND_FIRST):
        with pytest.raises(Exception, match="not on the board"):
            m.move(bat, c)
        with pytest.raises(Exception, match="not on the board"):
            m.summon("Swordsman", 1, c)


def test_a_miracle_has_three_board_cells_beside_it(base):
    """Of a miracle's six neighbours only the three in front are board cells: a melee attacker stands there."""
    board = base.rules.board
    beside = [{board.grid.cell(int(i)) for i in np.nonzero(board.miracle_distance[side] == 1)[0]} for side in (0, 1)]
    assert beside[0] == {(-7, 6, 1), (-6, 6, 0), (-6, 7, -1)}
    assert beside[1] == {(7, -6, -1), (6, -6, 0), (6, -7, 1)}


def test_neighbours_follow_the_six_directions(base):
    """Each cell's neighbours are the six cube offsets, -1 where the neighbour is off the board."""
    grid = base.rules.board.grid
    for i in range(grid.size):
        c = grid.cell(i)
        for d, off in enumerate(DIRECTIONS):
            assert grid.neighbors[i, d] == grid.index(tuple(a + b for a, b in zip(c, off, strict=True)))
    corner = grid.index((6, -8, 2))  # a spawn point beside the cells behind the second player's miracle
    assert sorted(int(j) for j in grid.neighbors[corner] if j >= 0) == sorted(
        grid.index(c) for c in [(6, -7, 1), (5, -7, 2), (5, -8, 3)]
    )


def test_distance_is_half_the_cube_difference(base):
    """Distance = (|dx| + |dy| + |dz|) / 2 for every pair of board cells."""
    grid = base.rules.board.grid
    cells = grid.cells.astype(int)
    expected = np.abs(cells[:, None, :] - cells[None, :, :]).sum(-1) // 2
    assert np.array_equal(grid.distance, expected)
    assert grid.distance[grid.index((-8, 6, 2)), grid.index((8, -6, -2))] == 16
    assert grid.distance[grid.index((3, -3, 0)), grid.index((3, -2, -1))] == 1


def test_pair_distance_reads_the_table(base):
    """The engine's unit-to-unit distance is the board's distance table between the units' cells."""
    m = base.new_match(MELEE, MELEE)
    a = place(m, "Swordsman", (3, -3, 0), side=0)
    b = place(m, "Swordsman", (-3, 3, 0), side=1)
    st = m.state
    d = R.packed(m.rules).k_rules.distance  # the table every rule of the engine reads
    assert np.array_equal(d, m.rules.board.grid.distance)
    ca, cb = (int(st.cell[0, np.nonzero(st.alive[0] & (st.uid[0] == x))[0][0]]) for x in (a, b))
    assert d[ca, cb] == d[cb, ca] == 6


@pytest.mark.parametrize("a, b", list(itertools.combinations([(-8, 6, 2), (0, -5, 5), (5, 2, -7), (8, -5, -3)], 2)))
def test_distance_is_the_fewest_steps_on_the_open_grid(base, a, b):
    """Distance ignores terrain: it is the fewest neighbour steps between two cells."""
    grid = base.rules.board.grid
    start, goal = grid.index(a), grid.index(b)
    frontier, seen, steps = {start}, {start}, 0
    while goal not in frontier:
        frontier = {int(j) for i in frontier for j in grid.neighbors[i] if j >= 0} - seen
        seen |= frontier
        steps += 1
    # the cells missing from the board (miracles and the cells behind them) never shorten these paths
    assert grid.distance[start, goal] == steps


@pytest.mark.parametrize("text, key, problem", [
    ("off_board = [[9, -9, 0]]", "map.off_board[0]", "cell (9, -9, 0) is already outside the bounds"),
    ("off_board = [[-7, 7, 0]]", "map.off_board[0]", "cell (-7, 7, 0) is a miracle cell (never a board cell)"),
    ("off_board = [[-8, 7, 1], [-8, 7, 1]]", "map.off_board[1]", "cell (-8, 7, 1) is listed twice"),
    ("off_board = [[-8, 7]]", "map.off_board[0]", "[-8, 7] is not a cube cell [x, y, z] with x + y + z = 0"),
    ("off_board = [[-8, 6, 2]]", "map.spawn_points[0][0]", "cell (-8, 6, 2) is off the board"),
])
def test_bad_off_board_cells_are_named(tmp_path, text, key, problem):
    """A map's off_board list is checked like every cell list: the file, the key and the problem."""
    path = tmp_path / "bad.toml"
    path.write_text(f'extends = "{BASE.as_posix()}"\n[map]\n{text}\n', encoding="utf-8")
    with pytest.raises(ScenarioError) as err:
        simkit.load_scenario(path)
    assert str(err.value) == f"{path}: {key}: {problem}"
