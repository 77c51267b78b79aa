"""simkit.games.kits.hexgrid: cube-coordinate helpers, cell indexing and the geometry tables."""

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from simkit.games.kits.hexgrid import DIRECTIONS, HexGrid, distance, hexagon_cells, is_cube

cube = st.tuples(st.integers(-20, 20), st.integers(-20, 20)).map(lambda p: (p[0], p[1], -p[0] - p[1]))


def test_directions_are_the_six_unit_steps():
    """The six neighbour offsets are the cube vectors at distance 1, each with its opposite."""
    assert len(set(DIRECTIONS)) == 6
    for d in DIRECTIONS:
        assert sum(d) == 0 and distance((0, 0, 0), d) == 1
        assert (-d[0], -d[1], -d[2]) in DIRECTIONS


@given(cube, cube)
def test_distance_is_symmetric_and_half_the_coordinate_difference(a, b):
    """distance(a, b) = (|dx| + |dy| + |dz|) / 2 = distance(b, a), zero only for a == b."""
    assert distance(a, b) == (abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2])) // 2 == distance(b, a)
    assert (distance(a, b) == 0) == (a == b)


@given(cube, cube, cube)
def test_distance_obeys_the_triangle_inequality(a, b, c):
    """Going through a third cell is never shorter."""
    assert distance(a, c) <= distance(a, b) + distance(b, c)


def test_is_cube_accepts_only_three_integers_summing_to_zero():
    """A cube cell is exactly three integers (not booleans) with x + y + z = 0."""
    assert is_cube((1, -1, 0)) and is_cube([0, 0, 0])
    assert not is_cube((1, 1, 1))
    assert not is_cube((1, -1))
    assert not is_cube((1.0, -1, 0))
    assert not is_cube((True, -1, 0))


def test_hexagon_cells_counts_a_regular_hexagon():
    """A regular hexagon of radius r has 3r(r+1) + 1 cells; the bounds cut corners when the third is smaller."""
    for r in range(5):
        cells = hexagon_cells((r, r, r))
        assert len(cells) == 3 * r * (r + 1) + 1
        assert all(sum(c) == 0 and distance(c, (0, 0, 0)) <= r for c in cells)
    assert len(hexagon_cells((8, 8, 14))) == 283
    assert hexagon_cells((1, 1, 1)) == sorted(hexagon_cells((1, 1, 1)))


def test_grid_indexes_cells_in_the_given_order():
    """index and cell are inverse; cells off the grid have index -1."""
    cells = [(0, 0, 0), (1, -1, 0), (0, 1, -1)]
    grid = HexGrid.from_cells(cells)
    assert grid.size == 3
    assert [grid.cell(i) for i in range(3)] == cells
    assert [grid.index(c) for c in cells] == [0, 1, 2]
    assert grid.index((5, -5, 0)) == -1


def test_neighbour_table_is_symmetric_and_off_grid_is_minus_one():
    """j is i's neighbour in direction d exactly when i is j's neighbour in the opposite direction."""
    grid = HexGrid.from_cells(hexagon_cells((2, 2, 2)))
    centre = grid.index((0, 0, 0))
    assert (grid.neighbors[centre] >= 0).all()
    for i in range(grid.size):
        for d in range(6):
            j = grid.neighbors[i, d]
            if j >= 0:
                assert grid.neighbors[j, (d + 3) % 6] == i
                assert grid.distance[i, j] == 1
    edge = grid.index((2, -2, 0))
    assert (grid.neighbors[edge] == -1).sum() == 3


def test_distance_table_and_distance_to_agree_with_distance():
    """The distance table, and distances to an off-grid cell, match the distance function."""
    cells = hexagon_cells((3, 3, 3))
    grid = HexGrid.from_cells(c for c in cells if c != (0, 0, 0))
    for i in range(grid.size):
        for j in range(grid.size):
            assert grid.distance[i, j] == distance(grid.cell(i), grid.cell(j))
    expected = np.array([distance(grid.cell(i), (0, 0, 0)) for i in range(grid.size)])
    assert np.array_equal(grid.distance_to((0, 0, 0)), expected)
