"""What the side to act sees in one game, computed into per-game scratch arrays (compiled).

Mirrors :func:`simkit.games.miracle.bots_score.situate` and :func:`simkit.games.miracle.rules.attack_now`
number for number: the same float32 results, so the compiled bot plays exactly the numpy bot's games.
Both run once per game and decision; the packed named tuples are passed only at that level.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from simkit.games.miracle.bots_tables import FAR

F32 = np.float32


class KSit(NamedTuple):
    """Scratch arrays for one game at a time (U unit slots, C cells); see ``bots_score.Situation``."""

    atk: np.ndarray  # int32[U] current attack, 0 for empty slots
    value: np.ndarray  # float32[U]
    threat: np.ndarray  # float32[2, C] enemy attack reaching each cell next turn, [ground, flying]
    threatens: np.ndarray  # bool[U] enemy units able to hit the own miracle next turn
    garrison_goal: np.ndarray  # float32[C]
    garrison_worth: np.ndarray  # float32[C]
    ground: np.ndarray  # int32[C] slot of the ground unit on each cell, -1 if none
    air: np.ndarray  # int32[C] slot of the flying unit on each cell, -1 if none
    own_threat: np.ndarray  # float32[1] summed attack of the enemy units that threaten the own miracle
    home_count: np.ndarray  # int64[1] own units within home_radius of the own miracle
    # scratch of the move scorer (fast/moves.py), kept here so that no decision allocates
    stops: np.ndarray  # bool[2, C]
    unit_cell: np.ndarray  # int64[4, U] threatening enemies' cells, own units' slots and cells, hunted cells
    threat_flying: np.ndarray  # bool[U]
    reached: np.ndarray  # bool[C]
    frontier: np.ndarray  # int64[2, C]
    spawn_cells: np.ndarray  # int64[C] the summoner's spawn points (fast/summons.py)
    unit_x: np.ndarray  # float32[2, side units] and
    cell_x: np.ndarray  # float32[2, C] per-unit values and their sums near each cell (fast/uses.py)
    target: np.ndarray  # bool[C] the InfernoFlame's targets (fast/uses.py)


def new_sit(units: int, cells: int) -> KSit:
    """Scratch arrays for games with ``units`` slots (two sides' worth) on ``cells`` cells."""
    side_units = units // 2
    return KSit(
        atk=np.zeros(units, np.int32),
        value=np.zeros(units, F32),
        threat=np.zeros((2, cells), F32),
        threatens=np.zeros(units, np.bool_),
        garrison_goal=np.zeros(cells, F32),
        garrison_worth=np.zeros(cells, F32),
        ground=np.zeros(cells, np.int32),
        air=np.zeros(cells, np.int32),
        own_threat=np.zeros(1, F32),
        home_count=np.zeros(1, np.int64),
        stops=np.zeros((2, cells), np.bool_),
        unit_cell=np.zeros((4, units), np.int64),
        threat_flying=np.zeros(units, np.bool_),
        reached=np.zeros(cells, np.bool_),
        frontier=np.zeros((2, cells), np.int64),
        spawn_cells=np.zeros(cells, np.int64), unit_x=np.zeros((2, side_units), F32),
        cell_x=np.zeros((2, cells), F32), target=np.zeros(cells, np.bool_),
    )


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
    for u in range(n):
        out[u] = 0
        if alive[u]:
            out[u] = R.attack[kind[u], level[u] - 1] + (R.holy_attack if S.buff[g, u] > 0 else 0)
    for j in range(n):
        if not alive[j]:
            continue
        aura, radius = R.aura[kind[j], level[j] - 1], R.aura_range[kind[j], level[j] - 1]
        if aura <= 0:
            continue
        for u in range(n):
            if u != j and alive[u] and side[u] == side[j] and R.distance[cell[u], cell[j]] <= radius:
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
    for u in range(S.alive.shape[1]):
        sit.value[u] = T.value[S.kind[g, u], S.level[g, u] - 1] if S.alive[g, u] else F32(0)
        sit.threatens[u] = False
    sit.threat[:] = 0
    own_threat = F32(0)
    for i in range(n_side):
        j = foe * n_side + i
        a = sit.atk[j]
        if not S.alive[g, j] or a <= 0:
            continue
        k, lv = S.kind[g, j], S.level[g, j] - 1
        reach = R.move[k, lv] + R.range_max[k, lv]
        at = F32(a)
        air = R.flying[k] or R.anti_air[k]
        here = S.cell[g, j]
        for c in range(cells):
            if R.distance[here, c] <= reach:
                sit.threat[0, c] += at
                if air:
                    sit.threat[1, c] += at
        if R.miracle_distance[cur, here] <= reach:
            sit.threatens[j] = True
            own_threat += at
    sit.own_threat[0] = own_threat

    count = 0
    for i in range(n_side):
        u = cur * n_side + i
        if S.alive[g, u] and T.miracle_distance[cur, S.cell[g, u]] <= T.home_radius:
            count += 1
    sit.home_count[0] = count

    sit.ground[:] = -1
    sit.air[:] = -1
    for u in range(S.alive.shape[1]):
        if S.alive[g, u]:
            if R.flying[S.kind[g, u]]:
                sit.air[S.cell[g, u]] = u
            else:
                sit.ground[S.cell[g, u]] = u

    sit.garrison_goal[:] = F32(FAR)
    sit.garrison_worth[:] = 0
    detour = F32(T.garrison_detour)
    for gi in range(R.garrisons.shape[0]):
        gc = R.garrisons[gi]
        holder = sit.ground[gc]
        held = holder >= 0 and S.side[g, holder] == cur
        owner = S.garrison_owner[g, gi]
        if owner != cur and not held:
            for c in range(cells):
                steps = F32(T.garrison_steps[gi, c]) + detour
                if steps < sit.garrison_goal[c]:
                    sit.garrison_goal[c] = steps
        capture = 1.0 if owner != cur else 0.0
        denial = 1.0 if owner == foe else 0.0
        sit.garrison_worth[gc] = F32(w.garrison_capture * capture + w.garrison_denial * denial)
