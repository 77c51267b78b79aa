"""Row bitboards for hex grids: a set of cells as one ``uint64`` word per grid row.

Game-agnostic. A cell ``(x, y, z)`` sits in row ``x - xmin`` at bit ``y - ymin``; the six
neighbours of every cell of a set are then a few shifts of whole rows, so reachability over a
batch of boards costs a handful of vector operations per step instead of table gathers.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simkit.games.kits.hexgrid import HexGrid

_ONE = np.uint64(1)


@dataclass(frozen=True)
class HexBitboard:
    """The row-bitboard layout of a :class:`HexGrid`.

    Attributes:
        rows: R, the number of words per board.
        cell_row: ``int[C]`` row of each cell.
        cell_bit: ``uint64[C]`` bit index of each cell in its row.
        valid: ``uint64[R]`` the grid's cells.
        unpacked: ``int[C]`` position of each cell's bit among a board's bits unpacked row by row.
    """

    rows: int
    cell_row: np.ndarray
    cell_bit: np.ndarray
    valid: np.ndarray
    unpacked: np.ndarray

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
        return cls(rows=len(valid), cell_row=row, cell_bit=bit, valid=valid, unpacked=row * 64 + (y - y.min()))

    def from_mask(self, mask: np.ndarray) -> np.ndarray:
        """``uint64[..., R]`` bitboards of a ``bool[..., C]`` cell mask."""
        out = np.zeros(mask.shape[:-1] + (self.rows,), np.uint64)
        vals = np.where(mask, _ONE << self.cell_bit, np.uint64(0))
        for r in range(self.rows):
            out[..., r] = np.bitwise_or.reduce(vals[..., self.cell_row == r], axis=-1)
        return out

    def from_cells(self, cells: np.ndarray, present: np.ndarray) -> np.ndarray:
        """``uint64[..., R]`` the set of ``cells`` (``int[..., n]`` cell indices) where ``present``.

        Cells of one set must be distinct where present.
        """
        lead, n = cells.shape[:-1], cells.shape[-1]
        flat_cells, flat_present = cells.reshape(-1, n), present.reshape(-1, n)
        rows = self.cell_row[flat_cells] + self.rows * np.arange(len(flat_cells))[:, None]
        vals = np.where(flat_present, _ONE << self.cell_bit[flat_cells], np.uint64(0))
        out = np.zeros(len(flat_cells) * self.rows, np.uint64)
        np.bitwise_or.at(out, rows.ravel(), vals.ravel())
        return out.reshape(lead + (self.rows,))

    def to_mask(self, bits: np.ndarray) -> np.ndarray:
        """``bool[..., C]`` cell mask of ``uint64[..., R]`` bitboards."""
        # little-endian bytes, unpacked least significant bit first: bit b of row r lands at r * 64 + b
        raw = np.ascontiguousarray(bits, dtype="<u8").view(np.uint8)
        flat = np.unpackbits(raw, axis=-1, bitorder="little")
        return flat[..., self.unpacked].view(bool)

    def adjacent(self, bits: np.ndarray) -> np.ndarray:
        """``uint64[..., R]`` the grid cells with at least one neighbour in ``bits``."""
        # The neighbour of (x, y) in direction (dx, dy) is (x + dx, y + dy): bit b of row r looks at
        # bit b + dy of row r + dx. The six directions are (1,-1) (1,0) (0,1) (-1,1) (-1,0) (0,-1).
        lower = bits << _ONE  # looks at bit b - 1
        upper = bits >> _ONE  # looks at bit b + 1
        out = lower | upper  # dx = 0
        out[..., :-1] |= (lower | bits)[..., 1:]  # dx = +1: dy = -1 or 0
        out[..., 1:] |= (upper | bits)[..., :-1]  # dx = -1: dy = +1 or 0
        return out & self.valid
