"""Compiled scores of the legal attacks.

Mirrors :func:`simkit.games.miracle.rules.attack_mask` and
:func:`simkit.games.miracle.bots_score.score_attacks` number for number. The numpy reference mixes
float32 and float64 (NEP 50): a weight times a float32 array stays float32, a weight times a bool
array is float64, and the sum of the unit features is float64 until the final cast. The casts below
follow it step by step, so the scores are the same float32 bits.
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.miracle.fast.choice import emit
from simkit.games.miracle.fast.situation import hits_air

F32 = np.float32
F64 = np.float64


@numba.njit(cache=True)
def can_attack(S, R, g, sit, a):
    """Slot ``a`` of game ``g`` holds a unit of the side to act that may attack now."""
    return S.alive[g, a] and S.ready[g, a] and sit.atk[a] > 0 and S.side[g, a] == S.current[g] and not S.over[g]


@numba.njit(cache=True)
def in_range(R, kind, level0, dist):
    """``dist`` lies within the attack range of units of ``kind``/``level0``."""
    return R.range_min[kind, level0] <= dist <= R.range_max[kind, level0]


@numba.njit(cache=True)
def can_hit(S, R, g, a, t):
    """The attacker in slot ``a`` may hit the unit in slot ``t`` (alive enemy, in range, reachable layer)."""
    if not S.alive[g, t] or S.side[g, t] == S.side[g, a]:
        return False
    ka = S.kind[g, a]
    if R.flying[S.kind[g, t]] and not hits_air(R, ka):
        return False
    return in_range(R, ka, S.level[g, a] - 1, R.distance[S.cell[g, a], S.cell[g, t]])


@numba.njit(cache=True)
def blow(S, R, T, g, sit, a, t):
    """``float64`` score of ``a`` hitting ``t`` before the splash: damage, kill, shield break,
    counter-attack, loss and defence, summed in the reference's order and precision."""
    w = T.weights
    atk, hp_t, sh_t = F32(sit.atk[a]), F32(max(S.hp[g, t], 1)), S.shield[g, t]
    dealt = F32(0) if sh_t else min(atk, hp_t)
    kill = not sh_t and atk >= hp_t
    s = F64(F32(w.damage) * dealt) + w.kill * F64(kill) * F64(sit.value[t]) + w.shield_break * F64(sh_t)

    kt, lt = S.kind[g, t], S.level[g, t] - 1
    back, hp_a = F32(sit.atk[t]), F32(S.hp[g, a])
    counter = (
        in_range(R, kt, lt, R.distance[S.cell[g, a], S.cell[g, t]]) and back > 0
        and (not R.flying[S.kind[g, a]] or hits_air(R, kt))
    )
    hurt = counter and not S.shield[g, a]
    s += F64(F32(w.counter_damage) * (min(back, hp_a) if hurt else F32(0)))
    s += w.loss * F64(hurt and back >= hp_a) * F64(sit.value[a])

    share = F32(1) if kill else dealt / hp_t
    s += F64(F32(w.defend) * share * (back * F32(sit.threatens[t])))
    return s


@numba.njit(cache=True)
def splash(S, R, T, g, sit, a, t, amount):
    """``float32`` worth of the splash of ``amount`` when ``a`` hits the ground unit ``t``: damage
    and kills on the enemy ground units next to ``t`` and 2 from ``a``, summed in float32 by
    increasing slot (as the reference's matmul does)."""
    w = T.weights
    foe = 1 - S.current[g]
    here, there = S.cell[g, a], S.cell[g, t]
    gain = F32(0)
    for v in range(S.alive.shape[1]):
        if not S.alive[g, v] or S.side[g, v] != foe or R.flying[S.kind[g, v]]:
            continue
        cv = S.cell[g, v]
        if R.distance[there, cv] != 1 or R.distance[here, cv] != 2:
            continue
        hp, shield = F32(S.hp[g, v]), S.shield[g, v]
        taken = F32(0) if shield else min(F32(amount), hp)
        killed = sit.value[v] if not shield and amount >= hp else F32(0)
        gain += F32(w.damage) * taken + F32(w.kill) * killed
    return gain


@numba.njit(cache=True)
def miracle_blow(S, T, g, sit, a):
    """``float32`` score of ``a`` hitting the enemy miracle (computed in float64, rounded once)."""
    w = T.weights
    atk, hp = F32(sit.atk[a]), F32(S.miracle_hp[g, 1 - S.current[g]])
    return F32(F64(F32(w.miracle_damage) * min(atk, hp)) + w.miracle_kill * F64(atk >= hp))


@numba.njit(cache=True)
def attacks(S, R, T, L, g, sit, out):
    """Offer every legal attack of game ``g``, attackers by slot, each one's targets by slot, the miracle last."""
    n = S.alive.shape[1]
    foe = 1 - S.current[g]
    for a in range(n):
        if not can_attack(S, R, g, sit, a):
            continue
        ka, la = S.kind[g, a], S.level[g, a] - 1
        amount = R.splash[ka, la]
        first = L.attack + a * (n + 1)
        for t in range(n):
            if not can_hit(S, R, g, a, t):
                continue
            s = blow(S, R, T, g, sit, a, t)
            if amount > 0 and not R.flying[S.kind[g, t]]:
                s += F64(splash(S, R, T, g, sit, a, t, amount))
            emit(out, g, first + t, F32(s))
        if in_range(R, ka, la, R.miracle_distance[foe, S.cell[g, a]]):
            emit(out, g, first + n, miracle_blow(S, T, g, sit, a))
