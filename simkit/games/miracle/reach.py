"""Where units may move: reachability over row bitboards for a whole batch.

Ground units never enter ground units or abyss and stop on entering a cell next to an enemy
ground unit or under an enemy flying unit; flying units never enter flying units and stop next
to an enemy flying unit or over an enemy ground unit. The start cell never stops a unit.
"""

from __future__ import annotations

import numpy as np

from simkit.games.miracle.state import State
from simkit.games.miracle.tables import Rules


def layer_bits(rules: Rules, st: State) -> np.ndarray:
    """``uint64[B, 2 layers (ground, flying), 2 sides, R]`` cells holding a unit of that layer and side."""
    flying = rules.cards.flying[st.kind]
    groups = [st.alive & (flying == layer) & (st.side == side) for layer in (False, True) for side in (0, 1)]
    present = np.stack(groups, 1)  # (B, 4, U)
    cells = np.broadcast_to(st.cell[:, None, :], present.shape)
    bits = rules.board.bits.from_cells(cells, present)
    return bits.reshape(st.batch, 2, 2, -1)


def reachable(rules: Rules, st: State) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Cells each unit that may move now can move to (start excluded).

    Only the current player's alive, ready units in unfinished games move; the work is done for
    those units alone.

    Returns:
        ``(games, slots, bits)``: ``int[P]`` game and unit slot of each mover and ``uint64[P, R]``
        the cells it reaches.
    """
    board, cards = rules.board, rules.cards
    bb = board.bits
    movers = st.alive & st.ready & (st.side == st.current[:, None]) & ~st.over[:, None]
    games, slots = np.nonzero(movers)
    occ = layer_bits(rules, st)  # (B, layer, side, R)
    any_ground, any_air = occ[:, 0, 0] | occ[:, 0, 1], occ[:, 1, 0] | occ[:, 1, 1]
    enter = np.stack([board.walkable_bits & ~any_ground & bb.valid, ~any_air & bb.valid], 1)  # (B, layer, R)
    enemy_ground, enemy_air = occ[:, 0, ::-1], occ[:, 1, ::-1]  # indexed by the mover's side
    stop = np.stack([bb.adjacent(enemy_ground) | enemy_air, bb.adjacent(enemy_air) | enemy_ground], 1)

    kind, level, side = st.kind[games, slots], st.level[games, slots], st.side[games, slots]
    layer = cards.flying[kind].astype(np.int8)
    steps = cards.move[kind, level - 1]
    enter_u = enter[games, layer]  # (P, R)
    stop_u = stop[games, layer, side]
    start = bb.from_cells(st.cell[games, slots][:, None], np.ones((len(games), 1), bool))
    reach = start.copy()
    frontier = start
    for k in range(1, int(steps.max(initial=0)) + 1):
        nxt = bb.adjacent(frontier) & enter_u & ~reach
        nxt = np.where((steps >= k)[:, None], nxt, np.uint64(0))
        reach |= nxt
        frontier = nxt & ~stop_u
    return games, slots, reach & ~start
