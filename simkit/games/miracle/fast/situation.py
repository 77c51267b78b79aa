"""What the side to act sees in one game, computed into per-game scratch arrays: the utility bots'
view of the position (current attacks, unit values, the enemies' threat next turn, garrison goals).

:func:`situate` runs once per game and decision and reads the game's rows into locals before its
loops. The rules it reads (current attack, occupancy) are :mod:`.legal`'s.
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.miracle.bots_tables import FAR
from simkit.games.miracle.fast.borrow import borrow, unowned
from simkit.games.miracle.fast.legal import attack_now, hits_air, occupancy

F32 = np.float32


@numba.njit(cache=True, inline="always")
def _threat_maps(S, R, g, cur, sit):
    """``sit.threat[cur]``: the attack of the enemies of side ``cur`` reaching each cell next turn;
    also ``sit.threatens`` and ``sit.own_threat``.

    The maps are a function of the enemies' (cell, attack, reach, anti-air) in slot order only,
    kept in ``sit.threat_key[cur]``: they are worked out again only when that list changed (enemies
    do not move in the side's turn, so most decisions reuse them).
    """
    n_side = R.side_units
    foe = 1 - cur
    alive, kind, level = borrow(S.alive, g), borrow(S.kind, g), borrow(S.level, g)
    cell, atk = borrow(S.cell, g), unowned(sit.atk)
    key = unowned(sit.threat_key)
    own_threat = F32(0)
    changed = False
    for i in range(n_side):
        j = foe * n_side + i
        a = atk[j]
        here, reach, air = -1, 0, 0
        if alive[j] and a > 0:
            k, lv = kind[j], level[j] - 1
            here, reach = np.int64(cell[j]), np.int64(R.move[k, lv] + R.range_max[k, lv])
            air = 1 if hits_air(R, k) else 0
            if R.miracle_distance[cur, here] <= reach:
                sit.threatens[j] = True
                own_threat += F32(a)
        if key[cur, i, 0] != here or key[cur, i, 1] != a or key[cur, i, 2] != reach or key[cur, i, 3] != air:
            changed = True
            key[cur, i, 0], key[cur, i, 1], key[cur, i, 2], key[cur, i, 3] = here, a, reach, air
    sit.own_threat[0] = own_threat
    if changed:
        threat = borrow(sit.threat, cur)
        ground_threat, air_threat, distance = borrow(threat, 0), borrow(threat, 1), unowned(R.distance)
        ground_threat[:] = 0
        air_threat[:] = 0
        for i in range(n_side):
            here = key[cur, i, 0]
            if here < 0:
                continue
            at, reach, air = F32(key[cur, i, 1]), key[cur, i, 2], key[cur, i, 3]
            near = borrow(distance, here)
            for c in range(near.shape[0]):
                if near[c] <= reach:
                    ground_threat[c] += at
                    if air:
                        air_threat[c] += at


@numba.njit(cache=True, inline="always")
def _garrison_goals(S, R, T, g, cur, sit):
    """``sit.garrison_goal[cur]`` (steps to the nearest garrison side ``cur`` does not own or hold,
    plus the detour) and ``sit.garrison_worth`` at the garrison cells (0 elsewhere, never written).

    The goals depend on which garrisons are sought and on the detour only, kept in
    ``sit.garrison_key[cur]``; they are worked out again only when these changed.
    """
    w = T.weights
    foe = 1 - cur
    key = unowned(sit.garrison_key)
    changed = key[cur, 0] != T.garrison_detour
    key[cur, 0] = T.garrison_detour
    for gi in range(R.garrisons.shape[0]):
        gc = R.garrisons[gi]
        holder = sit.ground[gc]
        held = holder >= 0 and S.side[g, holder] == cur
        owner = S.garrison_owner[g, gi]
        sought = 1 if owner != cur and not held else 0
        changed |= key[cur, 1 + gi] != sought
        key[cur, 1 + gi] = sought
        capture = 1.0 if owner != cur else 0.0
        denial = 1.0 if owner == foe else 0.0
        sit.garrison_worth[gc] = F32(w.garrison_capture * capture + w.garrison_denial * denial)
    if changed:
        goal, detour = borrow(sit.garrison_goal, cur), F32(T.garrison_detour)
        goal[:] = F32(FAR)
        for gi in range(R.garrisons.shape[0]):
            if key[cur, 1 + gi]:
                steps_row = borrow(T.garrison_steps, gi)
                for c in range(goal.shape[0]):
                    steps = F32(steps_row[c]) + detour
                    if steps < goal[c]:
                        goal[c] = steps


@numba.njit(cache=True, inline="always")
def situate(S, R, T, g, sit):
    """Fill ``sit`` for game ``g``; the maps of the side to act, ``threat`` and ``garrison_goal``,
    are its rows of them."""
    cur = np.int64(S.current[g])
    attack_now(S, R, g, sit.atk)
    alive, kind, level, cell = borrow(S.alive, g), borrow(S.kind, g), borrow(S.level, g), borrow(S.cell, g)
    value, threatens, bot_value = unowned(sit.value), unowned(sit.threatens), unowned(T.value)
    for u in range(alive.shape[0]):
        value[u] = bot_value[kind[u], level[u] - 1] if alive[u] else F32(0)
        threatens[u] = False
    _threat_maps(S, R, g, cur, sit)

    count = 0
    own_distance, home_radius = borrow(T.miracle_distance, cur), T.home_radius
    for i in range(R.side_units):
        u = cur * R.side_units + i
        if alive[u] and own_distance[cell[u]] <= home_radius:
            count += 1
    sit.home_count[0] = count

    occupancy(S, R, g, sit.ground, sit.air)
    _garrison_goals(S, R, T, g, cur, sit)
