"""Row bitboards for hex grids: a set of cells as one ``uint64`` word per grid row.

Game-agnostic. A cell ``(x, y, z)`` sits in row ``x - xmin`` at bit ``y - ymin``; the six
neighbours of every cell of a set are then a few shifts of whole rows, so reachability over a
batch of boards costs a handful of vector operations per step instead of table gathers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simkit.hexgrid import DIRECTIONS, HexGrid

_ONE = np.uint64(1)


@dataclass(frozen=True)
class HexBitboard:
    """The row-bitboard layout of a :class:`HexGrid`.

    Attributes:
        rows: R, the number of words per board.
        cell_row: ``int[C]`` row of each cell.
        cell_bit: ``uint64[C]`` bit index of each cell in its row.
        valid: ``uint64[R]`` the grid's cells.
    """

    rows: int
    cell_row: np.ndarray
    cell_bit: np.ndarray
    valid: np.ndarray

    @classmethod
    def from_grid(cls, grid: HexGrid) -> HexBitboard:
        """The layout of ``grid`` (at most 64 distinct y values)."""
        x, y = grid.cells[:, 0].astype(np.int64), grid.cells[:, 1].astype(np.int64)
        width = int(y.max() - y.min() + 1)
        if width > 64:
            raise ValueError(f"grid is {width} cells wide; row bitboards hold at most 64")
        row = x - x.min()
        bit = (y - y.min()).astype(np.uint64)
        valid = np.zeros(int(row.max()) + 1, np.uint64)
        np.bitwise_or.at(valid, row, _ONE << bit)
        return cls(rows=len(valid), cell_row=row, cell_bit=bit, valid=valid)

    def from_mask(self, mask: np.ndarray) -> np.ndarray:
        """``uint64[..., R]`` bitboards of a ``bool[..., C]`` cell mask."""
        out = np.zeros(mask.shape[:-1] + (self.rows,), np.uint64)
        vals = np.where(mask, _ONE << self.cell_bit, np.uint64(0))
        for r in range(self.rows):
            out[..., r] = np.bitwise_or.reduce(vals[..., self.cell_row == r], axis=-1)
        return out

    def from_cells(self, cells: np.ndarray, present: np.ndarray) -> np.ndarray:
        """``uint64[..., R]`` the set of ``cells`` (``int[..., n]`` cell indices) where ``present``.

        Cells of one set must be distinct (their bits are summed).
        """
        vals = np.where(present, _ONE << self.cell_bit[cells], np.uint64(0))
        rows = self.cell_row[cells]
        out = np.zeros(cells.shape[:-1] + (self.rows,), np.uint64)
        for r in range(self.rows):
            out[..., r] = np.where(rows == r, vals, np.uint64(0)).sum(-1, dtype=np.uint64)
        return out

    def to_mask(self, bits: np.ndarray) -> np.ndarray:
        """``bool[..., C]`` cell mask of ``uint64[..., R]`` bitboards."""
        return ((bits[..., self.cell_row] >> self.cell_bit) & _ONE).astype(bool)

    def adjacent(self, bits: np.ndarray) -> np.ndarray:
        """``uint64[..., R]`` the grid cells with at least one neighbour in ``bits``."""
        out = np.zeros_like(bits)
        for dx, dy, _ in DIRECTIONS:
            # neighbour of (x, y) in direction d is (x + dx, y + dy): take row r + dx, bit b + dy
            src = bits
            if dy == 1:
                src = src >> _ONE
            elif dy == -1:
                src = src << _ONE
            if dx == 1:
                out[..., :-1] |= src[..., 1:]
            elif dx == -1:
                out[..., 1:] |= src[..., :-1]
            else:
                out |= src
        return out & self.valid
