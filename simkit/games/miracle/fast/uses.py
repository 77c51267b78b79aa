"""The utility bots' scores of the legal artifact uses (which uses are legal: :mod:`.legal`)."""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.miracle.bots_tables import FAR
from simkit.games.miracle.cards import HOLY_LIGHT, INFERNO_FLAME, SALAMANDER_SHIELD, WIND_BLESSING
from simkit.games.miracle.fast.borrow import borrow
from simkit.games.miracle.fast.choice import offer
from simkit.games.miracle.fast.features import goal_steps, risk, summon_base
from simkit.games.miracle.fast.legal import artifact_usable, blocks, inferno_targets, kills

F32 = np.float32


@numba.njit(cache=True)
def near_sums(distance, alive, cell, first, x, radius, out):
    """``out[c]``: the float32 sum of ``x[i]`` over the live units of slots ``first + i`` within ``radius``
    of each cell.

    Exact: the summed values are whole numbers, so the order does not matter.
    """
    out[:] = 0
    for i in range(x.shape[0]):
        u = first + i
        if not alive[u]:
            continue
        row = distance[cell[u]]
        for c in range(out.shape[0]):
            if row[c] <= radius:
                out[c] += x[i]


@numba.njit(cache=True, inline="always")
def holy_light(S, R, T, L, g, cur, sit, mana, cand_index, cand_score, n):
    """HolyLight on any cell: HP restored and attack granted to own units in its radius."""
    w = T.weights
    first = cur * R.side_units
    missing, fighters = borrow(sit.unit_x, 0), borrow(sit.unit_x, 1)
    for i in range(R.side_units):
        u = first + i
        missing[i] = F32(S.max_hp[g, u] - S.hp[g, u])
        fighters[i] = F32((1 + S.ready[g, u]) if sit.atk[u] > 0 else 0)
    cells = R.distance.shape[0]
    restored, granted = borrow(sit.cell_x, 0), borrow(sit.cell_x, 1)
    near_sums(R.distance, borrow(S.alive, g), borrow(S.cell, g), first, missing, R.holy_radius, restored)
    near_sums(R.distance, borrow(S.alive, g), borrow(S.cell, g), first, fighters, R.holy_radius, granted)
    heal, buff = F32(w.heal), F32(w.buff * R.holy_attack)
    for c in range(cells):
        n = offer(cand_index, cand_score, n, L.use_cell + c, heal * restored[c] + buff * granted[c] + mana)
    return n


@numba.njit(cache=True, inline="always")
def wind_blessing(S, R, T, L, g, cur, sit, mana, cand_index, cand_score, n):
    """WindBlessing on any cell: own units in its radius may act again (good for those that acted)."""
    first = cur * R.side_units
    acted, fresh = borrow(sit.unit_x, 0), borrow(sit.unit_x, 1)
    for i in range(R.side_units):
        acted[i] = F32(0) if S.ready[g, first + i] else F32(1)
        fresh[i] = F32(1) - acted[i]
    cells = R.distance.shape[0]
    again, waiting = borrow(sit.cell_x, 0), borrow(sit.cell_x, 1)
    near_sums(R.distance, borrow(S.alive, g), borrow(S.cell, g), first, acted, R.wind_radius, again)
    near_sums(R.distance, borrow(S.alive, g), borrow(S.cell, g), first, fresh, R.wind_radius, waiting)
    refresh = F32(T.weights.refresh)
    for c in range(cells):
        n = offer(cand_index, cand_score, n, L.use_cell + c, refresh * (again[c] - waiting[c]) + mana)
    return n


@numba.njit(cache=True, inline="always")
def inferno_flame(S, R, T, L, g, cur, sit, mana, cand_index, cand_score, n):
    """InfernoFlame: damage to enemy units in its radius, plus the Inferno judged as a summon."""
    w = T.weights
    cells = R.distance.shape[0]
    foe = 1 - cur
    first = foe * R.side_units
    burn, killed = borrow(sit.unit_x, 0), borrow(sit.unit_x, 1)
    for i in range(R.side_units):
        u = first + i
        hp = F32(S.hp[g, u])
        shielded = S.shield[g, u]
        burn[i] = F32(0) if blocks(shielded, R.inferno_damage) else min(F32(R.inferno_damage), hp)
        killed[i] = sit.value[u] if kills(R.inferno_damage, hp, shielded) else F32(0)
    burnt, dead = borrow(sit.cell_x, 0), borrow(sit.cell_x, 1)
    near_sums(R.distance, borrow(S.alive, g), borrow(S.cell, g), first, burn, R.inferno_radius, burnt)
    near_sums(R.distance, borrow(S.alive, g), borrow(S.cell, g), first, killed, R.inferno_radius, dead)
    target = sit.target
    inferno_targets(S, R, g, cur, sit.ground, target)
    kind = R.inferno
    approach, flying = borrow(borrow(borrow(T.approach, kind), 0), foe), R.flying[kind]
    best = F32(FAR)
    for c in range(cells):
        if target[c]:
            best = min(best, goal_steps(approach[c], sit.garrison_goal[cur, c], flying))
    damage, kill, advance, exposure = F32(w.damage), F32(w.kill), F32(w.advance), F32(w.exposure)
    base = summon_base(R, w, kind, 0)
    value, hp_i = T.value[kind, 0], F32(R.hp[kind, 0])
    for c in range(cells):
        if not target[c]:
            continue
        s = damage * burnt[c] + kill * dead[c]
        s += (base + mana) - advance * (goal_steps(approach[c], sit.garrison_goal[cur, c], flying) - best)
        s += exposure * risk(value, sit.threat[cur, 0, c], hp_i)
        n = offer(cand_index, cand_score, n, L.use_cell + c, s)
    return n


@numba.njit(cache=True, inline="always")
def salamander_shield(S, R, T, L, g, cur, sit, mana, cand_index, cand_score, n):
    """SalamanderShield on an own unit: its value, doubled when enemies can reach it."""
    shield = F32(T.weights.shield)
    for i in range(R.side_units):
        u = cur * R.side_units + i
        if not S.alive[g, u]:
            continue
        reached = 1 if sit.threat[cur, 1 if R.flying[S.kind[g, u]] else 0, S.cell[g, u]] > 0 else 0
        s = F32(np.float64(shield * sit.value[u]) * (1 + reached) + np.float64(mana))
        n = offer(cand_index, cand_score, n, L.use_unit + u, s)
    return n


@numba.njit(cache=True, inline="always")
def uses(S, R, T, L, g, sit, cand_index, cand_score, n):
    """Offer every legal use of the current player's artifact in game ``g``; returns the count."""
    cur = np.int64(S.current[g])
    art = S.deck_artifact[g, cur]
    if not artifact_usable(S, R, g, cur):
        return n
    effect = R.artifact_effect[art]
    mana = F32(T.weights.mana) * F32(R.artifact_cost[art])
    if effect == HOLY_LIGHT:
        return holy_light(S, R, T, L, g, cur, sit, mana, cand_index, cand_score, n)
    if effect == WIND_BLESSING:
        return wind_blessing(S, R, T, L, g, cur, sit, mana, cand_index, cand_score, n)
    if effect == INFERNO_FLAME:
        return inferno_flame(S, R, T, L, g, cur, sit, mana, cand_index, cand_score, n)
    if effect == SALAMANDER_SHIELD:
        return salamander_shield(S, R, T, L, g, cur, sit, mana, cand_index, cand_score, n)
    return n
