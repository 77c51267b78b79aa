"""Hexagonal grids in cube coordinates: cell indexing and precomputed geometry tables.

Game-agnostic. A cell is a tuple ``(x, y, z)`` with ``x + y + z == 0``; a grid indexes its
cells ``0..C-1`` once and precomputes neighbour and distance tables so rules can work on
whole batches with array lookups.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

Cell = tuple[int, int, int]

#: The six neighbour offsets, in the rules' order.
DIRECTIONS: tuple[Cell, ...] = (
    (1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1),
)


def distance(a: Cell, b: Cell) -> int:
    """Hex distance between two cube cells: ``(|dx| + |dy| + |dz|) / 2``."""
    return (abs(a[0] - b[0]) + abs(a[1] - b[1]) + abs(a[2] - b[2])) // 2


def is_cube(cell: Iterable[int]) -> bool:
    """True when ``cell`` is three integers summing to zero."""
    c = tuple(cell)
    return len(c) == 3 and all(isinstance(v, int) and not isinstance(v, bool) for v in c) and sum(c) == 0


def hexagon_cells(bounds: tuple[int, int, int]) -> list[Cell]:
    """All cells with ``|x| <= bx``, ``|y| <= by`` and ``|x + y| <= bz``, sorted."""
    bx, by, bz = bounds
    return sorted((x, y, -x - y) for x in range(-bx, bx + 1) for y in range(-by, by + 1) if abs(x + y) <= bz)


@dataclass(frozen=True)
class HexGrid:
    """A fixed set of cells with index lookups and geometry tables.

    Attributes:
        cells: ``int16[C, 3]`` cube coordinates of cell ``i``.
        neighbors: ``int16[C, 6]`` index of each neighbour, ``-1`` off the grid.
        distance: ``int16[C, C]`` hex distance between cells.
    """

    cells: np.ndarray
    neighbors: np.ndarray
    distance: np.ndarray
    _index: dict[Cell, int] = field(repr=False, compare=False)

    @classmethod
    def from_cells(cls, cells: Iterable[Cell]) -> HexGrid:
        """Build the grid and its tables from a list of cube cells (order kept)."""
        cell_list = [tuple(int(v) for v in c) for c in cells]
        index = {c: i for i, c in enumerate(cell_list)}
        arr = np.array(cell_list, dtype=np.int16).reshape(-1, 3)
        nbr = np.full((len(cell_list), 6), -1, dtype=np.int16)
        for i, c in enumerate(cell_list):
            for d, off in enumerate(DIRECTIONS):
                nbr[i, d] = index.get((c[0] + off[0], c[1] + off[1], c[2] + off[2]), -1)
        dist = (np.abs(arr[:, None, :].astype(np.int32) - arr[None, :, :]).sum(-1) // 2).astype(np.int16)
        return cls(cells=arr, neighbors=nbr, distance=dist, _index=index)

    @property
    def size(self) -> int:
        """Number of cells C."""
        return len(self.cells)

    def index(self, cell: Iterable[int]) -> int:
        """Index of ``cell``; ``-1`` when it is not on the grid."""
        return self._index.get(tuple(int(v) for v in cell), -1)

    def cell(self, i: int) -> Cell:
        """Cube coordinates of cell index ``i`` as a plain tuple."""
        x, y, z = self.cells[i]
        return (int(x), int(y), int(z))

    def distance_to(self, cell: Cell) -> np.ndarray:
        """``int16[C]`` distance from every grid cell to ``cell`` (which need not be on the grid)."""
        return (np.abs(self.cells.astype(np.int32) - np.array(cell, dtype=np.int32)).sum(-1) // 2).astype(np.int16)
