"""Compiled scores of the legal moves.

Mirrors :func:`simkit.games.miracle.rules.move_mask` (a breadth-first search over the neighbour
table instead of row bitboards) and :func:`simkit.games.miracle.bots_score.score_moves` number for
number: every intermediate is rounded to the dtype numpy gives it, in numpy's order, so the scores
are the numpy bot's bit for bit.
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.miracle.bots_tables import FAR
from simkit.games.miracle.fast.choice import emit
from simkit.games.miracle.fast.situation import hits_air

F32 = np.float32
F64 = np.float64


@numba.njit(cache=True)
def _enemy(S, g, slot, side):
    """``slot`` holds a unit not of ``side`` (``slot`` may be -1: no unit)."""
    return slot >= 0 and S.side[g, slot] != side


@numba.njit(cache=True)
def _stops(S, R, g, sit, side, fly, c):
    """A mover of ``side`` entering cell ``c`` stops there.

    Ground movers stop next to an enemy ground unit or under an enemy flying unit; flying movers
    next to an enemy flying unit or over an enemy ground unit.
    """
    if _enemy(S, g, sit.ground[c] if fly else sit.air[c], side):
        return True
    same_layer = sit.air if fly else sit.ground
    for i in range(6):
        n = R.neighbors[c, i]
        if n >= 0 and _enemy(S, g, same_layer[n], side):
            return True
    return False


@numba.njit(cache=True)
def _enterable(R, sit, fly, c):
    """A mover may enter ``c``: no unit of its layer there, and no abyss for ground units."""
    if fly:
        return sit.air[c] < 0
    return sit.ground[c] < 0 and not R.abyss[c]


@numba.njit(cache=True)
def reach(S, R, g, u, sit, reached, frontier, grown):
    """Mark in ``reached`` (bool[C]) the cells unit ``u`` of game ``g`` can reach, its start included.

    ``frontier`` and ``grown`` are int scratch arrays of C cells. Each step expands the cells entered
    on the previous step except those the unit would stop on (the start always expands).
    """
    reached[:] = False
    k, lv, side = S.kind[g, u], S.level[g, u] - 1, S.side[g, u]
    fly = R.flying[k]
    start = S.cell[g, u]
    reached[start] = True
    frontier[0] = start
    width = 1
    for _ in range(R.move[k, lv]):
        m = 0
        for i in range(width):
            c = frontier[i]
            for j in range(6):
                n = R.neighbors[c, j]
                if n < 0 or reached[n] or not _enterable(R, sit, fly, n):
                    continue
                reached[n] = True
                if not _stops(S, R, g, sit, side, fly, n):
                    grown[m] = n
                    m += 1
        frontier, grown = grown, frontier
        width = m
        if width == 0:
            break


@numba.njit(cache=True)
def _goal(R, T, sit, k, lv, foe, c):
    """Steps from ``c`` to the goal of a unit of ``kind``/``lv`` (``bots_score._goal``)."""
    goal = F32(T.approach[k, lv, foe, c])
    if R.flying[k]:
        return goal
    return min(goal, sit.garrison_goal[c])


@numba.njit(cache=True)
def _risk(value, threat, hp):
    """Value at risk on a cell with ``threat`` (``bots_score._risk``; ``hp`` already at least 1)."""
    return F32(F32(value * min(threat, hp)) / hp)


@numba.njit(cache=True)
def _hunt_offset(S, R, g, sit, lo, hi, air, c):
    """Steps from ``c`` out of or into attacking range of the nearest enemy threatening the own
    miracle that the unit can hit (FAR when there is none)."""
    best = FAR
    for j in range(S.alive.shape[1]):
        if not sit.threatens[j] or (R.flying[S.kind[g, j]] and not air):
            continue
        d = np.int64(R.distance[S.cell[g, j], c])
        best = min(best, max(d - hi, lo - d, 0))
    return best


@numba.njit(cache=True)
def _friends_near(S, R, g, u, cur, radius, c):
    """Live friendly units other than ``u`` within ``radius`` of ``c``."""
    count = 0
    for i in range(R.side_units):
        j = cur * R.side_units + i
        if j != u and S.alive[g, j] and R.distance[S.cell[g, j], c] <= radius:
            count += 1
    return count


@numba.njit(cache=True)
def _features(S, R, T, g, sit, u, c):
    """What a move of unit ``u`` to ``c`` is judged on, at ``c``: (goal steps, value at risk, garrison
    worth, distance to the own miracle, hunt offset, friends in aura range)."""
    cur = np.int64(S.current[g])
    k, lv = S.kind[g, u], np.int64(S.level[g, u]) - 1
    fly = R.flying[k]
    goal = _goal(R, T, sit, k, lv, 1 - cur, c)
    hp = F32(max(S.hp[g, u], 1))
    risk = _risk(sit.value[u], sit.threat[1 if fly else 0, c], hp)
    worth = sit.garrison_worth[c]
    own = F32(T.miracle_distance[cur, c])
    lo, hi = max(np.int64(R.range_min[k, lv]), 1), np.int64(R.range_max[k, lv])
    off = _hunt_offset(S, R, g, sit, lo, hi, hits_air(R, k), c)
    count = F32(_friends_near(S, R, g, u, cur, R.aura_range[k, lv], c))
    return goal, risk, worth, own, off, count


@numba.njit(cache=True)
def _score(S, R, T, g, sit, u, here, there, danger, guards):
    """Score of moving unit ``u`` from features ``here`` to features ``there`` (``score_moves``).

    ``danger`` is the share of the own miracle's HP under threat, ``guards`` whether the home has at
    most ``home_guard`` units.
    """
    w = T.weights
    k, lv = S.kind[g, u], S.level[g, u] - 1
    goal0, risk0, worth0, own0, off0, count0 = here
    goal, risk, worth, own, off, count = there
    s = F32(w.advance) * F32(goal0 - goal)
    s = F32(s - F32(F32(w.exposure) * F32(risk0 - risk)))
    s = F32(s - (F32(0) if R.flying[k] else F32(worth0 - worth)))
    leaving = guards and own0 <= T.home_radius and not own <= T.home_radius
    s = F32(F64(s) + w.keep_defender * (1.0 if leaving else 0.0))
    s = F32(s + F32(F32(F32(w.home_return) * danger) * F32(own0 - own)))
    hunt = F32(F32(off0 - off) * sit.own_threat[0]) if off0 < FAR else F32(0)
    s = F32(s + F32(F32(w.defend) * hunt))
    aura = R.aura[k, lv]
    if aura > 0 and w.support != 0:
        # numpy: weight * int16 aura is float64, so the count change joins in float64
        s = F32(F64(s) + (w.support * F64(aura)) * F64(F32(count - count0)))
    return s


@numba.njit(cache=True)
def moves(S, R, T, L, g, sit, out):
    """Offer every legal move of game ``g``, by unit slot then target cell."""
    if S.over[g]:
        return
    cells = R.distance.shape[0]
    cur = np.int64(S.current[g])
    reached = np.empty(cells, np.bool_)
    frontier = np.empty(cells, np.int64)
    grown = np.empty(cells, np.int64)
    miracle_hp = F32(max(S.miracle_hp[g, cur], 1))
    danger = min(F32(sit.own_threat[0] / miracle_hp), F32(1))
    guards = sit.home_count[0] <= T.home_guard
    for u in range(S.alive.shape[1]):
        if not (S.alive[g, u] and S.ready[g, u] and S.side[g, u] == cur):
            continue
        reach(S, R, g, u, sit, reached, frontier, grown)
        start = S.cell[g, u]
        here = _features(S, R, T, g, sit, u, start)
        for c in range(cells):
            if reached[c] and c != start:
                there = _features(S, R, T, g, sit, u, c)
                emit(out, g, L.move + u * cells + c, _score(S, R, T, g, sit, u, here, there, danger, guards))
