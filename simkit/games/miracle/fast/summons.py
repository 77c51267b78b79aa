"""Compiled scores of the legal summons (mirrors ``bots_score.score_summons`` and ``rules.summon_mask``)."""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.miracle.bots_tables import FAR
from simkit.games.miracle.fast.choice import emit

F32 = np.float32


@numba.njit(cache=True)
def spawn_points(S, R, g, cur, out):
    """``out[c]``: cell ``c`` is a spawn point of side ``cur`` in game ``g`` (its own or its garrisons')."""
    out[:] = R.spawn[cur]
    for gi in range(R.garrisons.shape[0]):
        if S.garrison_owner[g, gi] == cur:
            out |= R.garrison_spawn[gi]


@numba.njit(cache=True)
def summon_base(R, w, kind, level0):
    """Weighted stats of a new unit (``bots_score._summon_base``), as float64 of the float32 value."""
    support = R.heal[kind, level0] + R.aura[kind, level0] + R.splash[kind, level0]
    stats = (
        w.unit_attack * R.attack[kind, level0] + w.unit_hp * R.hp[kind, level0]
        + w.unit_support * support + w.unit_move * R.move[kind, level0]
    )
    return F32(stats)


@numba.njit(cache=True)
def goal_steps(R, T, sit, kind, level0, foe, c):
    """Steps to the goal of a unit of ``kind``/``level0`` standing on cell ``c`` (``bots_score._goal``)."""
    goal = F32(T.approach[kind, level0, foe, c])
    if not R.flying[kind]:
        goal = min(goal, sit.garrison_goal[c])
    return goal


@numba.njit(cache=True)
def risk(value, threat, hp):
    """Value at risk (``bots_score._risk``), all float32."""
    hp = F32(max(hp, 1))
    return value * min(threat, hp) / hp


@numba.njit(cache=True)
def summons(S, R, T, L, g, sit, out):
    """Offer every legal summon of game ``g``: by deck slot, level and spawn point."""
    w = T.weights
    cur = np.int64(S.current[g])
    foe = 1 - cur
    cells = R.distance.shape[0]
    mana = S.mana[g, cur]
    spawn = np.empty(cells, np.bool_)
    spawn_points(S, R, g, cur, spawn)
    advance, exposure = F32(w.advance), F32(w.exposure)
    for slot in range(3):
        if S.available[g, cur, slot] <= 0:
            continue
        kind = np.int64(S.deck_kind[g, cur, slot])
        taken = sit.air if R.flying[kind] else sit.ground
        layer = 1 if R.flying[kind] else 0
        for level0 in range(3):
            if R.cost[kind, level0] > mana:
                continue
            best = F32(FAR)
            for c in range(cells):
                if spawn[c] and taken[c] < 0:
                    best = min(best, goal_steps(R, T, sit, kind, level0, foe, c))
            base = np.float64(summon_base(R, w, kind, level0)) + w.mana * R.cost[kind, level0]
            value, hp = T.value[kind, level0], R.hp[kind, level0]
            first = L.summon + (slot * 3 + level0) * cells
            for c in range(cells):
                if spawn[c] and taken[c] < 0:
                    ahead = advance * (goal_steps(R, T, sit, kind, level0, foe, c) - best)
                    at_risk = exposure * risk(value, sit.threat[layer, c], hp)
                    emit(out, g, first + c, F32(base - ahead + at_risk))
