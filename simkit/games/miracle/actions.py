"""Every legal action of B games as one flat ``bool[B, N]`` mask, and back to :class:`Actions`.

The flat layout (for the current player) is, in order: summons ``[3 deck slots, 3 levels, C]``,
moves ``[U, C]``, attacks ``[U, U + 1]`` (last: the enemy miracle), artifact on a cell ``[C]``,
artifact on a unit ``[U]``, end turn ``[1]``. Bots score or sample this layout.
"""

from __future__ import annotations

import numpy as np

from simkit.games.miracle.state import ATTACK, END_TURN, MOVE, PASS, SUMMON, TARGET_MIRACLE, USE, Actions
from simkit.games.miracle.tables import Rules


def layout(rules: Rules) -> dict[str, tuple[int, int]]:
    """``{part: (start, stop)}`` offsets of each part of the flat action mask."""
    c, u = rules.board.grid.size, rules.unit_slots
    sizes = {"summon": 9 * c, "move": u * c, "attack": u * (u + 1), "use_cell": c, "use_unit": u, "end_turn": 1}
    out, at = {}, 0
    for name, n in sizes.items():
        out[name] = (at, at + n)
        at += n
    return out


def decode(rules: Rules, index: np.ndarray) -> Actions:
    """Turn flat action indices ``int[B]`` into an :class:`Actions` batch (negative index: PASS)."""
    c, u = rules.board.grid.size, rules.unit_slots
    lay = layout(rules)
    index = np.asarray(index, dtype=np.int64)
    kind = np.full(len(index), PASS, np.int32)
    a = np.zeros(len(index), np.int32)
    bb = np.zeros(len(index), np.int32)
    cc = np.zeros(len(index), np.int32)

    def part(name):
        lo, hi = lay[name]
        m = (index >= lo) & (index < hi)
        return m, index[m] - lo

    m, i = part("summon")
    kind[m], a[m], bb[m], cc[m] = SUMMON, i // (3 * c), (i // c) % 3 + 1, i % c
    m, i = part("move")
    kind[m], a[m], cc[m] = MOVE, i // c, i % c
    m, i = part("attack")
    t = i % (u + 1)
    kind[m], a[m], bb[m] = ATTACK, i // (u + 1), np.where(t == u, TARGET_MIRACLE, t)
    m, i = part("use_cell")
    kind[m], cc[m] = USE, i
    m, i = part("use_unit")
    kind[m], bb[m] = USE, i
    m, _ = part("end_turn")
    kind[m] = END_TURN
    return Actions(kind, a, bb, cc)


def sample_uniform(mask: np.ndarray, u: np.ndarray) -> np.ndarray:
    """``int[B]`` the index of a uniformly chosen True in each row (``u``: uniforms in [0, 1)); -1 for empty rows."""
    counts = mask.sum(1)
    pick = np.minimum((u * counts).astype(np.int64), np.maximum(counts - 1, 0))
    first_reaching = (np.cumsum(mask, 1) > pick[:, None]).argmax(1)
    return np.where(counts > 0, first_reaching, -1)
