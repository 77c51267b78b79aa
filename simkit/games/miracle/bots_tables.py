"""Lookup tables the utility bots read, built once per scenario from the fixed ``Rules``.

Walking distances ignore units (they move) but respect terrain: ground units go around the
abyss, flying units go straight. The geometry comes from the board's neighbour table.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simkit.core.rng import mix64
from simkit.games.miracle.cards import unit_worth
from simkit.games.miracle.tables import Rules

#: Distance used for cells from which a goal cannot be reached at all.
FAR = 999


def walk_steps(neighbors: np.ndarray, passable: np.ndarray, sources: np.ndarray) -> np.ndarray:
    """``int16[C]`` fewest steps from each cell to any of ``sources``, moving only over ``passable`` cells.

    Args:
        neighbors: ``int[C, 6]`` neighbour table, -1 off the board.
        passable: ``bool[C]`` cells a walker may stand on.
        sources: ``bool[C]`` the goal cells (only passable ones count).

    Returns:
        Steps to the nearest goal cell; :data:`FAR` where none is reachable.
    """
    c = len(passable)
    out = np.full(c, FAR, np.int16)
    frontier = sources & passable
    seen = frontier.copy()
    padded_nb = np.where(neighbors >= 0, neighbors, c)
    step = 0
    while frontier.any():
        out[frontier] = step
        step += 1
        grown = np.concatenate([frontier, [False]])[padded_nb].any(1)
        frontier = grown & passable & ~seen
        seen |= frontier
    return out


@dataclass(frozen=True)
class BotTables:
    """Precomputed per-scenario tables.

    Attributes:
        value: ``float32[K + 1, 3]`` worth of a unit by kind and level: its mana cost (the Inferno:
            InfernoFlame's cost).
        approach: ``int16[K + 1, 3, 2, C]`` steps a unit of that kind and level needs from each
            cell to reach a cell from which it can attack side ``s``'s miracle.
        garrison_steps: ``int16[G, C]`` ground steps from each cell to each garrison.
        miracle_distance: ``int16[2, C]`` hex distance of each cell to each miracle.
        action_keys: ``uint64[N]`` one hash per flat action index (for per-action noise).
    """

    value: np.ndarray
    approach: np.ndarray
    garrison_steps: np.ndarray
    miracle_distance: np.ndarray
    action_keys: np.ndarray


def build_tables(rules: Rules, actions: int) -> BotTables:
    """Build the :class:`BotTables` of ``rules``.

    Args:
        rules: the scenario's rules.
        actions: N, the length of the flat action mask.
    """
    board, cards = rules.board, rules.cards
    nb = board.grid.neighbors
    c = board.grid.size
    value = unit_worth(cards).astype(np.float32)
    ground = ~board.abyss
    everywhere = np.ones(c, bool)
    kinds = cards.flying.shape[0]
    approach = np.full((kinds, 3, 2, c), FAR, np.int16)
    cache: dict[tuple[bool, int, int, int], np.ndarray] = {}
    for k in range(kinds):
        passable = everywhere if cards.flying[k] else ground
        for lv in range(3):
            lo, hi = max(int(cards.range_min[k, lv]), 1), int(cards.range_max[k, lv])
            for side in range(2):
                key = (bool(cards.flying[k]), lo, hi, side)
                if key not in cache:
                    md = board.miracle_distance[side]
                    cache[key] = walk_steps(nb, passable, (md >= lo) & (md <= hi))
                approach[k, lv, side] = cache[key]
    garrison_steps = np.stack(
        [walk_steps(nb, ground, np.arange(c) == g) for g in board.garrisons]
    ).reshape(len(board.garrisons), c)
    return BotTables(
        value=value,
        approach=approach,
        garrison_steps=garrison_steps.astype(np.int16),
        miracle_distance=board.miracle_distance.astype(np.int16),
        action_keys=mix64(np.arange(actions, dtype=np.uint64) * np.uint64(0x9E3779B97F4A7C15)),
    )
