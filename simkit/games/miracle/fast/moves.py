"""The utility bots' scores of the legal moves.

The legal moves are :mod:`.legal`'s (:func:`.legal.board_bits` and :func:`.legal.reach`, the
row-bitboard search one unit at a time over the rows it can reach); every intermediate of a score
is rounded to float32 or float64 as written, so the scores, and the games, do not depend on
whether the code runs compiled or as plain Python.

What all units of the side to act share is worked out once per decision: the row bitboards of the
cells each layer may enter and stops on, the own units (for auras) and the enemies threatening the
own miracle (for the hunt). Then, unit by unit, the search marks the cells the unit reaches, they
are listed in increasing order (rows follow the cell order, bits the order within a row), and the
moves are offered with every term of their score but the support, which a second pass adds for
units with an aura.

Shaped for numba, every rule measured: :func:`moves` is inlined into its caller and avoids making
numba hold references for the whole call (atomic increments and decrements; about 0.5 us a decision
when S, R, T and sit were named tuples of arrays, one per array). Numba holds them as soon as the
function has an early ``return``, a ``break``, an array ``view``, ``reshape`` or allocation, or calls
inside a loop a compiled function that takes arrays and is not inlined (hence
``features.goal_steps`` takes scalars). Helpers are therefore inlined (``inline="always"``) or take
scalars only, and the loops run to their end. Bitboard words are ``uint64`` throughout (numba turns
``uint64`` mixed with ``int64`` into ``float64``).
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.miracle.bots_tables import FAR
from simkit.games.miracle.fast.borrow import borrow, unowned
from simkit.games.miracle.fast.features import goal_steps, risk
from simkit.games.miracle.fast.legal import board_bits, may_act, reach

F32 = np.float32
F64 = np.float64
U64 = np.uint64

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
    targets = unowned(sit.move_cells)  # the unit's target cells
    # rows of sit.unit_cell: the threatening enemies' cells, the own units' slots and cells, and
    # the cells of the units a mover looks at (the enemies it may hunt, then the own units near it)
    threat_cell, friend_slot, friend_cell, listed = 0, 1, 2, 3

    bits = unowned(sit.bits)
    board_bits(S, R, g, cur, bits)
    n_threats = n_friends = 0
    for j in range(slots):
        if not S.alive[g, j]:
            continue
        at = np.int64(S.cell[g, j])
        if S.side[g, j] == cur:
            sit.unit_cell[friend_slot, n_friends] = j
            sit.unit_cell[friend_cell, n_friends] = at
            n_friends += 1
        elif sit.threatens[j]:
            sit.unit_cell[threat_cell, n_threats] = at
            sit.threat_flying[n_threats] = R.flying[S.kind[g, j]]
            n_threats += 1

    mine = cur * R.side_units  # the side's slots (state.py: slots are grouped by side)
    for u in range(mine, mine + R.side_units):
        if S.over[g] or not may_act(S.alive[g, u], S.ready[g, u], S.side[g, u], cur):
            continue
        k, lv = S.kind[g, u], np.int64(S.level[g, u]) - 1
        fly = R.flying[k]
        layer = 1 if fly else 0
        start = np.int64(S.cell[g, u])
        steps = np.int64(R.move[k, lv])
        m = reach(R, bits, layer, steps, start, targets)
        first = L.move + u * cells

        # the unit's features on its own cell
        unit_value = sit.value[u]
        hp = F32(max(S.hp[g, u], 1))
        goal0 = goal_steps(T.approach[k, lv, foe, start], sit.garrison_goal[cur, start], fly)
        risk0 = risk(unit_value, sit.threat[cur, layer, start], hp)
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

        # every term but the support, in a fixed order; the rows read per target cell kept in locals
        approach = borrow(borrow(borrow(T.approach, k), lv), foe)
        garrison_goal, threat = borrow(sit.garrison_goal, cur), borrow(borrow(sit.threat, cur), layer)
        own_distance, worth = borrow(T.miracle_distance, cur), unowned(sit.garrison_worth)
        hunted, distance, home_radius = borrow(sit.unit_cell, listed), unowned(R.distance), T.home_radius
        keep_defender = w.keep_defender
        for i in range(m):
            c = U64(targets[U64(i)])
            goal = goal_steps(approach[c], garrison_goal[c], fly)
            own = F32(own_distance[c])
            leaving = home0 and not own <= home_radius
            s = advance * F32(goal0 - goal)
            s = F32(s - F32(exposure * F32(risk0 - risk(unit_value, threat[c], hp))))
            s = F32(s - (F32(0) if fly else F32(worth0 - worth[c])))
            s = F32(F64(s) + keep_defender * (1.0 if leaving else 0.0))
            s = F32(s + F32(home_pull * F32(own0 - own)))
            # the hunt: steps gained toward attacking range of the nearest threatening enemy it can hit
            off = FAR
            for h in range(n_hunted):
                d = np.int64(distance[U64(hunted[h]), c])
                off = min(off, max(d - hi, lo - d, 0))
            hunt = F32(F32(off0 - off) * own_threat) if off0 < FAR else F32(0)
            cand_index[n + i] = first + np.int64(c)
            cand_score[n + i] = F32(s + F32(defend * hunt))

        # the support: own units brought into or out of the unit's aura
        aura, radius = R.aura[k, lv], R.aura_range[k, lv]
        if aura > 0 and w.support != 0:
            support = w.support * F64(aura)  # float64, as the scores were first written
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
