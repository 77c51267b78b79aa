"""Compiled scores of the legal moves.

Mirrors :func:`simkit.games.miracle.rules.move_mask` (a breadth-first search over the neighbour
table instead of row bitboards) and :func:`simkit.games.miracle.bots_score.score_moves` number for
number: every intermediate is rounded to the dtype numpy gives it, in numpy's order, so the scores
are the numpy bot's bit for bit.

What all units of the side to act share is worked out once per decision: a code per cell telling
which movers may not enter it and which stop there, the own units (for auras) and the enemies
threatening the own miracle (for the hunt). Then, unit by unit, the search marks the cells the
unit enters, a scan of the marked span lists them in increasing order, and the moves are offered
with every term of their score but the support, which a second pass adds for units with an aura.

Shaped for numba, every rule measured: :func:`moves` is inlined into its caller and avoids making
numba hold references for the whole call (atomic increments and decrements; about 0.5 us a decision
when S, R, T and sit were named tuples of arrays, one per array). Numba holds them as soon as the
function has an early ``return``, a ``break``, an array ``view``, ``reshape`` or allocation, or calls
inside a loop a compiled function that takes arrays and is not inlined (hence
``features.goal_steps`` takes scalars). Helpers are therefore inlined (``inline="always"``) or take
scalars only, and the loops run to their end. Indices known to be non-negative are ``uint64``, which spares numba
its check for negative indices in the search.
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.miracle.bots_tables import FAR
from simkit.games.miracle.fast.features import goal_steps, risk

F32 = np.float32
F64 = np.float64
U64 = np.uint64

# Bits of a cell's code (kept in sit.cell_code for the decision at hand); BARRED and STOP are
# shifted left by the mover's layer (0 ground, 1 flying).
BARRED = 1  # the mover may not enter: a unit of its layer stands there (or abyss, for ground movers)
STOP = 4  # the mover stops on entering: next to an enemy of its layer, or under/over one of the other
ENTERED = 16  # the unit being searched enters the cell (cleared once its moves are listed)


@numba.njit(cache=True, inline="always")
def _reach(neighbors, code, queue, layer, steps, start):
    """Mark ``ENTERED`` in ``code`` the cells a mover of ``layer`` on ``start`` reaches in ``steps`` steps.

    Each step expands the cells entered on the previous step except those the mover stops on (the
    start always expands). ``queue`` (int[C]) receives the start then the entered cells. Returns
    the lowest and highest entered cell (both ``start`` when none).
    """
    closed, stop = (BARRED << layer) | ENTERED, STOP << layer
    queue[0] = start
    begin, end, step = 0, 1, 0
    while step < steps and begin < end:
        width = U64(end)
        for i in range(begin, end):
            c = U64(queue[i])
            if i > 0 and code[c] & stop:
                continue
            for j in range(6):
                n = np.int64(neighbors[c, U64(j)])
                at = U64(max(n, 0))  # off the board (-1): looks at cell 0 and does not enter
                enter = (n >= 0) & ((code[at] & closed) == 0)
                code[at] |= ENTERED * enter
                queue[width] = at
                width += U64(enter)
        begin, end, step = end, np.int64(width), step + 1
    lowest, highest = start, start
    for i in range(1, end):
        lowest, highest = min(lowest, queue[i]), max(highest, queue[i])
    return lowest, highest


@numba.njit(cache=True, inline="always")
def _entered_cells(code, lowest, highest, cells):
    """List in ``cells`` the cells from ``lowest`` to ``highest`` marked ``ENTERED``, in increasing
    order, and clear the marks; returns how many."""
    m = U64(0)
    for c in range(U64(lowest), U64(highest) + U64(1)):
        mark = code[c]
        cells[m] = c
        m += U64((mark & ENTERED) != 0)
        code[c] = mark & ~ENTERED
    return np.int64(m)


@numba.njit(cache=True, inline="always")
def moves(S, R, T, L, g, sit, cand_index, cand_score, n):
    """Offer every legal move of game ``g``, by unit slot then target cell; returns the new candidate count."""
    w = T.weights
    cells, slots = R.distance.shape[0], S.alive.shape[1]
    cur = np.int64(S.current[g])
    foe = 1 - cur
    own_threat = sit.own_threat[0]
    danger = min(F32(own_threat / F32(max(S.miracle_hp[g, cur], 1))), F32(1))
    guards = sit.home_count[0] <= T.home_guard
    advance, exposure, defend = F32(w.advance), F32(w.exposure), F32(w.defend)
    home_pull = F32(F32(w.home_return) * danger)
    code, targets = sit.cell_code, sit.move_cells  # the search queue, then the unit's target cells
    # rows of sit.unit_cell: the threatening enemies' cells, the own units' slots and cells, and
    # the cells of the units a mover looks at (the enemies it may hunt, then the own units near it)
    threat_cell, friend_slot, friend_cell, listed = 0, 1, 2, 3

    for c in range(cells):
        code[c] = BARRED * R.abyss[c]
    n_threats = n_friends = 0
    for j in range(slots):
        if not S.alive[g, j]:
            continue
        layer = 1 if R.flying[S.kind[g, j]] else 0
        at = np.int64(S.cell[g, j])
        code[at] |= BARRED << layer
        if S.side[g, j] == cur:
            sit.unit_cell[friend_slot, n_friends] = j
            sit.unit_cell[friend_cell, n_friends] = at
            n_friends += 1
            continue
        code[at] |= STOP << (1 - layer)
        for i in range(6):
            nb = R.neighbors[at, i]
            if nb >= 0:
                code[nb] |= STOP << layer
        if sit.threatens[j]:
            sit.unit_cell[threat_cell, n_threats] = at
            sit.threat_flying[n_threats] = layer == 1
            n_threats += 1

    for u in range(slots):
        if S.over[g] or not (S.alive[g, u] and S.ready[g, u] and S.side[g, u] == cur):
            continue
        k, lv = S.kind[g, u], np.int64(S.level[g, u]) - 1
        fly = R.flying[k]
        layer = 1 if fly else 0
        start = np.int64(S.cell[g, u])
        steps = R.move[k, lv]
        lowest, highest = _reach(R.neighbors, code, targets, layer, steps, start)
        m = _entered_cells(code, lowest, highest, targets)
        first = L.move + u * cells

        # the unit's features on its own cell
        unit_value = sit.value[u]
        hp = F32(max(S.hp[g, u], 1))
        goal0 = goal_steps(T.approach[k, lv, foe, start], sit.garrison_goal[start], fly)
        risk0 = risk(unit_value, sit.threat[layer, start], hp)
        worth0 = sit.garrison_worth[start]
        own0 = F32(T.miracle_distance[cur, start])
        home0 = guards and own0 <= T.home_radius
        lo, hi = max(np.int64(R.range_min[k, lv]), 1), np.int64(R.range_max[k, lv])
        air = fly or R.anti_air[k]
        n_hunted = 0
        for i in range(n_threats):
            if air or not sit.threat_flying[i]:
                sit.unit_cell[listed, n_hunted] = sit.unit_cell[threat_cell, i]
                n_hunted += 1
        off0 = FAR
        for h in range(n_hunted):
            d = np.int64(R.distance[sit.unit_cell[listed, h], start])
            off0 = min(off0, max(d - hi, lo - d, 0))

        # every term but the support, in numpy's order
        for i in range(m):
            c = U64(targets[U64(i)])
            goal = goal_steps(T.approach[k, lv, foe, c], sit.garrison_goal[c], fly)
            own = F32(T.miracle_distance[cur, c])
            leaving = home0 and not own <= T.home_radius
            s = advance * F32(goal0 - goal)
            s = F32(s - F32(exposure * F32(risk0 - risk(unit_value, sit.threat[layer, c], hp))))
            s = F32(s - (F32(0) if fly else F32(worth0 - sit.garrison_worth[c])))
            s = F32(F64(s) + w.keep_defender * (1.0 if leaving else 0.0))
            s = F32(s + F32(home_pull * F32(own0 - own)))
            # the hunt: steps gained toward attacking range of the nearest threatening enemy it can hit
            off = FAR
            for h in range(n_hunted):
                d = np.int64(R.distance[sit.unit_cell[listed, h], c])
                off = min(off, max(d - hi, lo - d, 0))
            hunt = F32(F32(off0 - off) * own_threat) if off0 < FAR else F32(0)
            cand_index[n + i] = first + np.int64(c)
            cand_score[n + i] = F32(s + F32(defend * hunt))

        # the support: own units brought into or out of the unit's aura
        aura, radius = R.aura[k, lv], R.aura_range[k, lv]
        if aura > 0 and w.support != 0:
            support = w.support * F64(aura)  # numpy: weight * int16 aura is float64
            # only own units within radius + move of the start can be in range of a target
            n_near = 0
            for f in range(n_friends):
                at = sit.unit_cell[friend_cell, f]
                if sit.unit_cell[friend_slot, f] != u and R.distance[at, start] <= radius + steps:
                    sit.unit_cell[listed, n_near] = at
                    n_near += 1
            count0 = 0
            for f in range(n_near):
                count0 += R.distance[sit.unit_cell[listed, f], start] <= radius
            for i in range(m):
                count = 0
                for f in range(n_near):
                    count += R.distance[sit.unit_cell[listed, f], targets[i]] <= radius
                cand_score[n + i] = F32(F64(cand_score[n + i]) + support * F64(F32(F32(count) - F32(count0))))
        n += m
    return n
