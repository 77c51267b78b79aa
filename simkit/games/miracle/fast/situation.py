"""What the side to act sees in one game, computed into per-game scratch arrays (compiled).

Mirrors :func:`simkit.games.miracle.bots_score.situate` and :func:`simkit.games.miracle.rules.attack_now`
number for number: the same float32 results, so the compiled bot plays exactly the numpy bot's games.
Both run once per game and decision and read the game's rows into locals before their loops.
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.miracle.bots_tables import FAR

F32 = np.float32


@numba.njit(cache=True, inline="always")
def hits_air(R, kind):
    """Units of ``kind`` may attack flying units."""
    return R.flying[kind] or R.anti_air[kind]


@numba.njit(cache=True, inline="always")
def attack_now(S, R, g, out):
    """``out[u]``: the current attack of every slot of game ``g`` (``rules.attack_now``): its own,
    the HolyLight buff, then the aura of every friendly aura bearer in range (few units bear one,
    so they are found once rather than sought around every unit)."""
    n = S.alive.shape[1]
    alive, kind, level, side, cell = S.alive[g], S.kind[g], S.level[g], S.side[g], S.cell[g]
    buff, attack, holy_attack = S.buff[g], R.attack, R.holy_attack
    auras, aura_range, distance = R.aura, R.aura_range, R.distance
    for u in range(n):
        out[u] = 0
        if alive[u]:
            out[u] = attack[kind[u], level[u] - 1] + (holy_attack if buff[u] > 0 else 0)
    for j in range(n):
        if not alive[j]:
            continue
        aura, radius = auras[kind[j], level[j] - 1], aura_range[kind[j], level[j] - 1]
        if aura <= 0:
            continue
        for u in range(n):
            if u != j and alive[u] and side[u] == side[j] and distance[cell[u], cell[j]] <= radius:
                out[u] += aura


@numba.njit(cache=True, inline="always")
def situate(S, R, T, g, sit):
    """Fill ``sit`` for game ``g`` (``bots_score.situate``)."""
    w = T.weights
    n_side = R.side_units
    cur = np.int64(S.current[g])
    foe = 1 - cur
    cells = sit.garrison_goal.shape[0]
    attack_now(S, R, g, sit.atk)
    alive, kind, level, cell, side = S.alive[g], S.kind[g], S.level[g], S.cell[g], S.side[g]
    atk, value, threatens, threat = sit.atk, sit.value, sit.threatens, sit.threat
    bot_value, distance = T.value, R.distance
    for u in range(alive.shape[0]):
        value[u] = bot_value[kind[u], level[u] - 1] if alive[u] else F32(0)
        threatens[u] = False
    threat[:] = 0
    ground_threat, air_threat = threat[0], threat[1]
    own_threat = F32(0)
    for i in range(n_side):
        j = foe * n_side + i
        a = atk[j]
        if not alive[j] or a <= 0:
            continue
        k, lv = kind[j], level[j] - 1
        reach = R.move[k, lv] + R.range_max[k, lv]
        at = F32(a)
        air = R.flying[k] or R.anti_air[k]
        here = cell[j]
        row = distance[here]
        for c in range(cells):
            if row[c] <= reach:
                ground_threat[c] += at
                if air:
                    air_threat[c] += at
        if R.miracle_distance[cur, here] <= reach:
            threatens[j] = True
            own_threat += at
    sit.own_threat[0] = own_threat

    count = 0
    own_distance, home_radius = T.miracle_distance[cur], T.home_radius
    for i in range(n_side):
        u = cur * n_side + i
        if alive[u] and own_distance[cell[u]] <= home_radius:
            count += 1
    sit.home_count[0] = count

    ground, air, flying = sit.ground, sit.air, R.flying
    ground[:] = -1
    air[:] = -1
    for u in range(alive.shape[0]):
        if alive[u]:
            if flying[kind[u]]:
                air[cell[u]] = u
            else:
                ground[cell[u]] = u

    goal, worth, garrison_steps = sit.garrison_goal, sit.garrison_worth, T.garrison_steps
    goal[:] = F32(FAR)
    worth[:] = 0
    detour = F32(T.garrison_detour)
    for gi in range(R.garrisons.shape[0]):
        gc = R.garrisons[gi]
        holder = ground[gc]
        held = holder >= 0 and side[holder] == cur
        owner = S.garrison_owner[g, gi]
        if owner != cur and not held:
            steps_row = garrison_steps[gi]
            for c in range(cells):
                steps = F32(steps_row[c]) + detour
                if steps < goal[c]:
                    goal[c] = steps
        capture = 1.0 if owner != cur else 0.0
        denial = 1.0 if owner == foe else 0.0
        worth[gc] = F32(w.garrison_capture * capture + w.garrison_denial * denial)
