"""Compiled scores of the legal moves.

Mirrors :func:`simkit.games.miracle.rules.move_mask` (a breadth-first search over the neighbour
table instead of row bitboards) and :func:`simkit.games.miracle.bots_score.score_moves` number for
number: every intermediate is rounded to the dtype numpy gives it, in numpy's order, so the scores
are the numpy bot's bit for bit.

:func:`moves` unpacks the packed named tuples once per game; everything it calls per unit, cell or
neighbour takes arrays and scalars only (see :mod:`.choice` for why). What all units of the side to
act share is worked out once per game: where a mover of each layer must stop, the own units (for
auras) and the enemies threatening the own miracle (for the hunt).
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.miracle.bots_tables import FAR
from simkit.games.miracle.fast.choice import offer
from simkit.games.miracle.fast.features import goal_steps, risk

F32 = np.float32
F64 = np.float64


@numba.njit(cache=True)
def _stop_cells(alive, side, kind, cell, flying, neighbors, cur, stops):
    """``stops[layer, c]``: a mover of side ``cur`` entering ``c`` on ``layer`` (0 ground, 1 flying) stops there.

    Ground movers stop next to an enemy ground unit or under an enemy flying unit; flying movers
    next to an enemy flying unit or over an enemy ground unit (the neighbour table is symmetric,
    so marking each enemy's neighbours marks the cells next to it).
    """
    stops[:] = False
    for j in range(alive.shape[0]):
        if not alive[j] or side[j] == cur:
            continue
        layer = 1 if flying[kind[j]] else 0
        at = cell[j]
        stops[1 - layer, at] = True
        for i in range(6):
            n = neighbors[at, i]
            if n >= 0:
                stops[layer, n] = True


@numba.njit(cache=True)
def _reach(neighbors, abyss, occupant, stops, fly, steps, start, reached, frontier, grown):
    """Mark in ``reached`` (bool[C]) the cells a mover on ``start`` reaches in ``steps`` steps, start included.

    ``occupant``: the slot on each cell of the mover's layer (-1 if none); ``stops``: the cells the
    mover stops on; ``abyss`` bars ground movers. ``frontier`` and ``grown`` are int scratch arrays
    of C cells. Each step expands the cells entered on the previous step except those the mover
    stops on (the start always expands). Returns the lowest and highest reached cell.
    """
    reached[:] = False
    reached[start] = True
    lowest, highest = start, start
    frontier[0] = start
    width = 1
    for _ in range(steps):
        m = 0
        for i in range(width):
            c = frontier[i]
            for j in range(6):
                n = neighbors[c, j]
                if n < 0 or reached[n] or occupant[n] >= 0 or (not fly and abyss[n]):
                    continue
                reached[n] = True
                lowest, highest = min(lowest, n), max(highest, n)
                if not stops[n]:
                    grown[m] = n
                    m += 1
        frontier, grown = grown, frontier
        width = m
        if width == 0:
            break
    return lowest, highest


@numba.njit(cache=True)
def _hunt_offset(distance, hunted, n_hunted, lo, hi, c):
    """Steps from ``c`` out of or into attacking range (``lo``..``hi``) of the nearest of the first
    ``n_hunted`` cells of ``hunted`` (FAR when there are none)."""
    best = FAR
    for i in range(n_hunted):
        d = np.int64(distance[hunted[i], c])
        best = min(best, max(d - hi, lo - d, 0))
    return best


@numba.njit(cache=True)
def _friends_near(distance, friend_slot, friend_cell, n_friends, u, radius, c):
    """Own live units other than ``u`` (of the first ``n_friends`` in ``friend_slot``/``friend_cell``)
    within ``radius`` of ``c``."""
    count = 0
    for i in range(n_friends):
        if friend_slot[i] != u and distance[friend_cell[i], c] <= radius:
            count += 1
    return count


@numba.njit(cache=True, inline="always")
def _score(w, fly, aura, danger, own_threat, leaving, here, there):
    """Score of moving a unit from features ``here`` to features ``there`` (``score_moves``).

    Features: (goal steps, value at risk, garrison worth, distance to the own miracle, hunt offset,
    friends in aura range). ``w``: the personality's weights; ``fly``: the unit flies; ``aura``: its
    aura; ``danger``: the share of the own miracle's HP under threat; ``own_threat``: the summed attack
    threatening the own miracle; ``leaving``: the move takes one of too few defenders out of the home.
    """
    goal0, risk0, worth0, own0, off0, count0 = here
    goal, risk, worth, own, off, count = there
    s = F32(w.advance) * F32(goal0 - goal)
    s = F32(s - F32(F32(w.exposure) * F32(risk0 - risk)))
    s = F32(s - (F32(0) if fly else F32(worth0 - worth)))
    s = F32(F64(s) + w.keep_defender * (1.0 if leaving else 0.0))
    s = F32(s + F32(F32(F32(w.home_return) * danger) * F32(own0 - own)))
    hunt = F32(F32(off0 - off) * own_threat) if off0 < FAR else F32(0)
    s = F32(s + F32(F32(w.defend) * hunt))
    if aura > 0 and w.support != 0:
        # numpy: weight * int16 aura is float64, so the count change joins in float64
        s = F32(F64(s) + (w.support * F64(aura)) * F64(F32(count - count0)))
    return s


@numba.njit(cache=True, inline="always")
def moves(S, R, T, L, g, sit, cand_index, cand_score, n):
    """Offer every legal move of game ``g``, by unit slot then target cell; returns the new candidate count."""
    if S.over[g]:
        return n
    alive, ready, side, kind, level = S.alive[g], S.ready[g], S.side[g], S.kind[g], S.level[g]
    cell, hp_now = S.cell[g], S.hp[g]
    flying, neighbors, distance, abyss = R.flying, R.neighbors, R.distance, R.abyss
    w = T.weights
    value, threat, garrison_goal, garrison_worth = sit.value, sit.threat, sit.garrison_goal, sit.garrison_worth
    cells, slots = distance.shape[0], alive.shape[0]
    cur = np.int64(S.current[g])
    foe = 1 - cur
    own_distance = T.miracle_distance[cur]
    home_radius = T.home_radius
    own_threat = sit.own_threat[0]
    miracle_hp = F32(max(S.miracle_hp[g, cur], 1))
    danger = min(F32(own_threat / miracle_hp), F32(1))
    guards = sit.home_count[0] <= T.home_guard

    stops = sit.stops
    _stop_cells(alive, side, kind, cell, flying, neighbors, cur, stops)
    # enemies threatening the own miracle (cell, flying) and the own units (slot, cell)
    threat_cell, friend_slot, friend_cell, hunted = (
        sit.unit_cell[0],
        sit.unit_cell[1],
        sit.unit_cell[2],
        sit.unit_cell[3],
    )
    threat_flying = sit.threat_flying
    n_threats = n_friends = 0
    for j in range(slots):
        if sit.threatens[j]:
            threat_cell[n_threats] = cell[j]
            threat_flying[n_threats] = flying[kind[j]]
            n_threats += 1
    for i in range(R.side_units):
        j = cur * R.side_units + i
        if alive[j]:
            friend_slot[n_friends] = j
            friend_cell[n_friends] = cell[j]
            n_friends += 1
    reached, frontier, grown = sit.reached, sit.frontier[0], sit.frontier[1]

    for u in range(slots):
        if not (alive[u] and ready[u] and side[u] == cur):
            continue
        k, lv = kind[u], np.int64(level[u]) - 1
        fly = flying[k]
        layer = 1 if fly else 0
        start = cell[u]
        occupant = sit.air if fly else sit.ground
        steps = R.move[k, lv]
        lowest, highest = _reach(neighbors, abyss, occupant, stops[layer], fly, steps, start, reached, frontier, grown)
        if lowest == highest:
            continue
        # what stays the same for every target cell of this unit
        approach = T.approach[k, lv, foe]
        layer_threat = threat[layer]
        unit_value = value[u]
        hp = F32(max(hp_now[u], 1))
        lo, hi = max(np.int64(R.range_min[k, lv]), 1), np.int64(R.range_max[k, lv])
        air = fly or R.anti_air[k]
        n_hunted = 0
        for i in range(n_threats):
            if air or not threat_flying[i]:
                hunted[n_hunted] = threat_cell[i]
                n_hunted += 1
        aura, radius = R.aura[k, lv], R.aura_range[k, lv]
        counts = aura > 0 and w.support != 0

        goal0 = goal_steps(approach, garrison_goal, fly, start)
        own0 = F32(own_distance[start])
        off0 = _hunt_offset(distance, hunted, n_hunted, lo, hi, start)
        count0 = F32(0)
        if counts:
            count0 = F32(_friends_near(distance, friend_slot, friend_cell, n_friends, u, radius, start))
        here = (goal0, risk(unit_value, layer_threat[start], hp), garrison_worth[start], own0, off0, count0)
        home0 = guards and own0 <= home_radius
        first = L.move + u * cells
        for c in range(lowest, highest + 1):
            if not reached[c] or c == start:
                continue
            goal = goal_steps(approach, garrison_goal, fly, c)
            own = F32(own_distance[c])
            off = _hunt_offset(distance, hunted, n_hunted, lo, hi, c) if off0 < FAR else FAR
            count = F32(0)
            if counts:
                count = F32(_friends_near(distance, friend_slot, friend_cell, n_friends, u, radius, c))
            there = (goal, risk(unit_value, layer_threat[c], hp), garrison_worth[c], own, off, count)
            leaving = home0 and not own <= home_radius
            score = _score(w, fly, aura, danger, own_threat, leaving, here, there)
            n = offer(cand_index, cand_score, n, first + c, score)
    return n
