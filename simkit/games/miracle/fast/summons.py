"""The utility bots' scores of the legal summons (which summons are legal: :mod:`.legal`)."""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.miracle.bots_tables import FAR
from simkit.games.miracle.fast.borrow import borrow
from simkit.games.miracle.fast.choice import offer
from simkit.games.miracle.fast.features import goal_steps, risk, summon_base
from simkit.games.miracle.fast.legal import spawn_points, summonable

F32 = np.float32


@numba.njit(cache=True, inline="always")
def summons(S, R, T, L, g, sit, cand_index, cand_score, n):
    """Offer every legal summon of game ``g`` (by deck slot, level and spawn point); returns the count."""
    w = T.weights
    cur = np.int64(S.current[g])
    foe = 1 - cur
    cells = R.distance.shape[0]
    mana = S.mana[g, cur]
    n_spawn = spawn_points(R.spawn_cells, R.spawn_count, borrow(S.garrison_owner, g), cur, sit.spawn_cells)
    spawn_cells = sit.spawn_cells
    advance, exposure, mana_weight = F32(w.advance), F32(w.exposure), w.mana
    garrison_goal = borrow(sit.garrison_goal, cur)
    for slot in range(3):
        available = S.available[g, cur, slot]
        if available <= 0:
            continue
        kind = np.int64(S.deck_kind[g, cur, slot])
        flying = R.flying[kind]
        taken = sit.air if flying else sit.ground
        threat = borrow(borrow(sit.threat, cur), 1 if flying else 0)
        for level0 in range(3):
            if not summonable(available, R.cost[kind, level0], mana):
                continue
            approach = borrow(borrow(borrow(T.approach, kind), level0), foe)
            best = F32(FAR)
            for i in range(n_spawn):
                c = spawn_cells[i]
                if taken[c] < 0:
                    best = min(best, goal_steps(approach[c], garrison_goal[c], flying))
            base = np.float64(summon_base(R, w, kind, level0)) + mana_weight * R.cost[kind, level0]
            value, hp = T.value[kind, level0], R.hp[kind, level0]
            first = L.summon + (slot * 3 + level0) * cells
            for i in range(n_spawn):
                c = spawn_cells[i]
                if taken[c] < 0:
                    ahead = advance * (goal_steps(approach[c], garrison_goal[c], flying) - best)
                    at_risk = exposure * risk(value, threat[c], hp)
                    n = offer(cand_index, cand_score, n, first + c, F32(base - ahead + at_risk))
    return n
