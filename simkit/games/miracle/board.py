"""The Battle of Miracles map, read from the scenario's ``[map]`` table into lookup tables."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simkit.games.kits.bitboard import HexBitboard
from simkit.games.kits.hexgrid import Cell, HexGrid, hexagon_cells, is_cube
from simkit.scenario import Field


@dataclass(frozen=True)
class Board:
    """Cells and terrain of one map.

    Attributes:
        grid: the board cells (miracle and off-board cells excluded) and their geometry tables.
        abyss: ``bool[C]`` only flying units may enter or stop there.
        miracles: the two miracle cells, first player's then second's (not board cells).
        miracle_distance: ``int16[2, C]`` distance of every cell to each side's miracle.
        spawn: ``bool[2, C]`` each side's initial spawn points.
        garrisons: ``int16[G]`` cell index of each garrison.
        garrison_spawn: ``bool[G, C]`` the extra spawn points each garrison gives its owner.
        bits: the row-bitboard layout of the grid.
        walkable_bits: ``uint64[R]`` cells that are not abyss.
    """

    grid: HexGrid
    abyss: np.ndarray
    miracles: tuple[Cell, Cell]
    miracle_distance: np.ndarray
    spawn: np.ndarray
    garrisons: np.ndarray
    garrison_spawn: np.ndarray
    bits: HexBitboard
    walkable_bits: np.ndarray


def _cell(f: Field, value, key: str) -> Cell:
    if not isinstance(value, list) or not is_cube(value):
        raise f.fail(f"{value!r} is not a cube cell [x, y, z] with x + y + z = 0", key)
    return tuple(value)  # type: ignore[return-value]


def _cells(f: Field, value, key: str) -> list[Cell]:
    if not isinstance(value, list):
        raise f.fail(f"must be a list of cells, got {value!r}", key)
    return [_cell(f, v, f"{key}[{i}]") for i, v in enumerate(value)]


def _word_bits() -> int:
    """Bits of a row bitboard word (the dtype ``HexBitboard`` builds its rows with)."""
    return np.iinfo(HexBitboard.from_grid(HexGrid.from_cells([(0, 0, 0)])).valid.dtype).bits


def _max_cells() -> int:
    """The most cells a grid can index (``HexGrid`` stores cell indices as its ``neighbors`` dtype)."""
    return int(np.iinfo(HexGrid.from_cells([(0, 0, 0)]).neighbors.dtype).max)


def _region(f: Field) -> list[Cell]:
    """The cells ``[map] bounds`` describe, refused before they are listed when the engine cannot hold them:
    a row (cells of one x) must fit one bitboard word, a cell index the grid's index type."""
    bx, by, bz = f.int_list("bounds", length=3, minimum=1)
    # |x| <= |y| + |x + y| and so on: each bound is also capped by the other two (same region, fewer loops)
    bx, by, bz = min(bx, by + bz), min(by, bx + bz), min(bz, bx + by)
    word, index = _word_bits(), _max_cells()
    if 2 * by + 1 > word:
        raise f.fail(f"the board is {2 * by + 1} cells wide (y from {-by} to {by}); the engine's row bitboards "
                     f"hold at most {word}", "bounds")
    rows = 2 * bx + 1  # every row x holds at least one cell
    if rows - 2 > index:
        raise f.fail(f"the board has {rows} rows (x from {-bx} to {bx}), more cells than the {index} the engine's "
                     "cell index holds", "bounds")
    return hexagon_cells((bx, by, bz))


def build_board(top: Field) -> Board:
    """Read and validate ``[map]``; every problem is reported with its key."""
    f = top.table("map")
    region = _region(f)
    region_set = set(region)
    miracles = _cells(f, f.get("miracles"), "miracles")
    if len(miracles) != 2:
        raise f.fail(f"must list 2 cells (first player, second player), got {len(miracles)}", "miracles")
    for i, c in enumerate(miracles):
        if c not in region_set:
            raise f.fail(f"cell {c} is off the board", f"miracles[{i}]")
    if miracles[0] == miracles[1]:
        raise f.fail("both miracles are on the same cell", "miracles")
    off_board: set[Cell] = set()
    for i, c in enumerate(_cells(f, f.get("off_board", []), "off_board")):
        key = f"off_board[{i}]"
        if c not in region_set:
            raise f.fail(f"cell {c} is already outside the bounds", key)
        if c in miracles:
            raise f.fail(f"cell {c} is a miracle cell (never a board cell)", key)
        if c in off_board:
            raise f.fail(f"cell {c} is listed twice", key)
        off_board.add(c)
    cells = [c for c in region if c not in miracles and c not in off_board]
    if len(cells) > _max_cells():
        raise f.fail(f"the board has {len(cells)} cells, more than the {_max_cells()} the engine's cell index holds",
                     "bounds")
    grid = HexGrid.from_cells(cells)

    def on_board(c: Cell, key: str) -> int:
        i = grid.index(c)
        if i < 0:
            what = "a miracle cell" if c in miracles else "off the board"  # off_board cells included
            raise f.fail(f"cell {c} is {what}", key)
        return i

    abyss = np.zeros(grid.size, dtype=bool)
    for i, c in enumerate(_cells(f, f.get("abyss", []), "abyss")):
        abyss[on_board(c, f"abyss[{i}]")] = True

    def spawn_mask(cells: list[Cell], key: str) -> np.ndarray:
        mask = np.zeros(grid.size, dtype=bool)
        for i, c in enumerate(cells):
            j = on_board(c, f"{key}[{i}]")
            if abyss[j]:
                raise f.fail(f"spawn point {c} is on the abyss", f"{key}[{i}]")
            if mask[j]:
                raise f.fail(f"spawn point {c} is listed twice", f"{key}[{i}]")
            mask[j] = True
        return mask

    sides = f.get("spawn_points")
    if not isinstance(sides, list) or len(sides) != 2:
        raise f.fail("must be two lists of cells (first player, second player)", "spawn_points")
    spawn = np.stack(
        [spawn_mask(_cells(f, s, f"spawn_points[{k}]"), f"spawn_points[{k}]") for k, s in enumerate(sides)]
    )

    raw_garrisons = f.get("garrisons", [])
    if not isinstance(raw_garrisons, list):
        raise f.fail("must be an array of tables [[map.garrisons]]", "garrisons")
    garrisons, garrison_spawn = [], []
    for g, raw in enumerate(raw_garrisons):
        gf = Field(f.source, raw, f"map.garrisons[{g}]")
        if not isinstance(raw, dict):
            raise gf.fail("must be a table with cell and spawn_points")
        c = _cell(gf, gf.get("cell"), "cell")
        j = on_board(c, f"garrisons[{g}].cell")
        if abyss[j]:
            raise gf.fail(f"garrison {c} is on the abyss", "cell")
        garrisons.append(j)
        cells = _cells(gf, gf.get("spawn_points"), "spawn_points")
        garrison_spawn.append(spawn_mask(cells, f"garrisons[{g}].spawn_points"))
        gf.reject_unknown(("cell", "spawn_points"))
    f.reject_unknown(("bounds", "miracles", "off_board", "spawn_points", "abyss", "garrisons"))
    return Board(
        grid=grid,
        abyss=abyss,
        miracles=(miracles[0], miracles[1]),
        miracle_distance=np.stack([grid.distance_to(m) for m in miracles]),
        spawn=spawn,
        garrisons=np.array(garrisons, dtype=np.int16),
        garrison_spawn=np.array(garrison_spawn, dtype=bool).reshape(len(garrisons), grid.size),
        bits=(bits := HexBitboard.from_grid(grid)),
        walkable_bits=bits.from_mask(~abyss),
    )
