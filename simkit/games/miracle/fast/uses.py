"""Compiled scores of the legal artifact uses (mirrors ``bots_score.score_uses`` and ``rules.use_mask``)."""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.miracle.bots_tables import FAR
from simkit.games.miracle.cards import HOLY_LIGHT, INFERNO_FLAME, SALAMANDER_SHIELD, WIND_BLESSING
from simkit.games.miracle.fast.choice import emit
from simkit.games.miracle.fast.summons import goal_steps, risk, summon_base
from simkit.games.miracle.state import READY

F32 = np.float32


@numba.njit(cache=True)
def near_sum(S, R, g, slots, x, c, radius):
    """The float32 sum of ``x[i]`` over the live units of ``slots`` within ``radius`` of cell ``c``."""
    total = F32(0)
    for i in range(slots.shape[0]):
        u = slots[i]
        if S.alive[g, u] and R.distance[S.cell[g, u], c] <= radius:
            total += x[i]
    return total


@numba.njit(cache=True)
def inferno_target(S, R, g, cur, sit, c):
    """InfernoFlame may land on cell ``c``: no abyss, no ground unit, near the own miracle or an owned garrison."""
    if R.abyss[c] or sit.ground[c] >= 0:
        return False
    if R.miracle_distance[cur, c] <= R.inferno_miracle_range:
        return True
    for gi in range(R.garrisons.shape[0]):
        if S.garrison_owner[g, gi] == cur and R.distance[R.garrisons[gi], c] <= R.inferno_garrison_range:
            return True
    return False


@numba.njit(cache=True)
def holy_light(S, R, T, L, g, cur, sit, mana, out):
    """HolyLight on any cell: HP restored and attack granted to own units in its radius."""
    w = T.weights
    slots = cur * R.side_units + np.arange(R.side_units)
    missing = np.empty(R.side_units, F32)
    fighters = np.empty(R.side_units, F32)
    for i in range(R.side_units):
        u = slots[i]
        missing[i] = F32(S.max_hp[g, u] - S.hp[g, u])
        fighters[i] = F32((1 + S.ready[g, u]) if sit.atk[u] > 0 else 0)
    heal, buff = F32(w.heal), F32(w.buff * R.holy_attack)
    for c in range(R.distance.shape[0]):
        restored = near_sum(S, R, g, slots, missing, c, R.holy_radius)
        granted = near_sum(S, R, g, slots, fighters, c, R.holy_radius)
        emit(out, g, L.use_cell + c, heal * restored + buff * granted + mana)


@numba.njit(cache=True)
def wind_blessing(S, R, T, L, g, cur, mana, out):
    """WindBlessing on any cell: own units in its radius may act again (good for those that acted)."""
    slots = cur * R.side_units + np.arange(R.side_units)
    acted = np.empty(R.side_units, F32)
    fresh = np.empty(R.side_units, F32)
    for i in range(R.side_units):
        acted[i] = F32(0) if S.ready[g, slots[i]] else F32(1)
        fresh[i] = F32(1) - acted[i]
    refresh = F32(T.weights.refresh)
    for c in range(R.distance.shape[0]):
        gained = near_sum(S, R, g, slots, acted, c, R.wind_radius) - near_sum(S, R, g, slots, fresh, c, R.wind_radius)
        emit(out, g, L.use_cell + c, refresh * gained + mana)


@numba.njit(cache=True)
def inferno_flame(S, R, T, L, g, cur, sit, mana, out):
    """InfernoFlame: damage to enemy units in its radius, plus the Inferno judged as a summon."""
    w = T.weights
    cells = R.distance.shape[0]
    foe = 1 - cur
    slots = foe * R.side_units + np.arange(R.side_units)
    burn = np.empty(R.side_units, F32)
    killed = np.empty(R.side_units, F32)
    for i in range(R.side_units):
        u = slots[i]
        hp = F32(S.hp[g, u])
        shielded = S.shield[g, u]
        burn[i] = F32(0) if shielded else min(F32(R.inferno_damage), hp)
        killed[i] = sit.value[u] if (not shielded and R.inferno_damage >= hp) else F32(0)
    kind = R.inferno
    best = F32(FAR)
    for c in range(cells):
        if inferno_target(S, R, g, cur, sit, c):
            best = min(best, goal_steps(R, T, sit, kind, 0, foe, c))
    damage, kill, advance, exposure = F32(w.damage), F32(w.kill), F32(w.advance), F32(w.exposure)
    base = summon_base(R, w, kind, 0)
    value, hp_i = T.value[kind, 0], F32(R.hp[kind, 0])
    for c in range(cells):
        if not inferno_target(S, R, g, cur, sit, c):
            continue
        s = damage * near_sum(S, R, g, slots, burn, c, R.inferno_radius)
        s += kill * near_sum(S, R, g, slots, killed, c, R.inferno_radius)
        s += (base + mana) - advance * (goal_steps(R, T, sit, kind, 0, foe, c) - best)
        s += exposure * risk(value, sit.threat[0, c], hp_i)
        emit(out, g, L.use_cell + c, s)


@numba.njit(cache=True)
def salamander_shield(S, R, T, L, g, cur, sit, mana, out):
    """SalamanderShield on an own unit: its value, doubled when enemies can reach it."""
    shield = F32(T.weights.shield)
    for i in range(R.side_units):
        u = cur * R.side_units + i
        if not S.alive[g, u]:
            continue
        reached = 1 if sit.threat[1 if R.flying[S.kind[g, u]] else 0, S.cell[g, u]] > 0 else 0
        emit(out, g, L.use_unit + u, F32(np.float64(shield * sit.value[u]) * (1 + reached) + np.float64(mana)))


@numba.njit(cache=True)
def uses(S, R, T, L, g, sit, out):
    """Offer every legal use of the current player's artifact in game ``g``."""
    cur = np.int64(S.current[g])
    art = S.deck_artifact[g, cur]
    if S.artifact_state[g, cur] != READY or R.artifact_cost[art] > S.mana[g, cur]:
        return
    effect = R.artifact_effect[art]
    mana = F32(T.weights.mana) * F32(R.artifact_cost[art])
    if effect == HOLY_LIGHT:
        holy_light(S, R, T, L, g, cur, sit, mana, out)
    elif effect == WIND_BLESSING:
        wind_blessing(S, R, T, L, g, cur, mana, out)
    elif effect == INFERNO_FLAME:
        inferno_flame(S, R, T, L, g, cur, sit, mana, out)
    elif effect == SALAMANDER_SHIELD:
        salamander_shield(S, R, T, L, g, cur, sit, mana, out)
