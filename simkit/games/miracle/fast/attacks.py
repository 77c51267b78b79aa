"""The utility bots' scores of the legal attacks, and their prediction of each blow.

Which attacks are legal, whether the target strikes back, whom the splash reaches, whether a holy
shield cancels a hit and whether a hit kills are :mod:`.legal`'s predicates (:func:`.legal.may_attack`,
:func:`.legal.can_hit`, :func:`.legal.strikes_back`, :func:`.legal.splashes`,
:func:`.legal.splash_victim`, :func:`.legal.blocks`, :func:`.legal.kills`), the ones the step applies.
The scores mix float32 and float64 with explicit casts at every step (the precision the scores have
had since they were first written), so they are the same bits compiled or not.

:func:`attacks` runs once per decision and takes the game's rows and the weights it needs from the
packed groups; the helpers it calls per attacker and target take only arrays and scalars.
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.miracle.fast.borrow import borrow, unowned
from simkit.games.miracle.fast.choice import offer
from simkit.games.miracle.fast.legal import blocks, can_hit, kills, may_attack, splash_victim, splashes, strikes_back

F32 = np.float32
F64 = np.float64


@numba.njit(cache=True)
def any_attacker(alive, ready, side, atk, cur):
    """Some slot holds a unit of side ``cur`` that may attack now (alive, ready, attack above 0)."""
    for a in range(alive.shape[0]):
        if may_attack(alive[a], ready[a], side[a], cur, atk[a]):
            return True
    return False


@numba.njit(cache=True)
def blow(
    w_damage, w_kill, w_shield_break, w_counter_damage, w_loss, w_defend,
    atk, value_a, hp_a, shield_a, back, value_t, hp_t, shield_t, threatens_t, counter,
):
    """``float64`` score of an attacker (attack ``atk``) hitting a target (attack ``back``) before the
    splash: damage, kill, shield break, counter-attack, loss and defence, summed in a fixed
    order and precision. ``counter``: the target strikes back (:func:`.legal.strikes_back`)."""
    atk, hp_t = F32(atk), F32(max(hp_t, 1))
    broken = blocks(shield_t, atk)
    dealt = F32(0) if broken else min(atk, hp_t)
    kill = kills(atk, hp_t, shield_t)
    s = F64(F32(w_damage) * dealt) + w_kill * F64(kill) * F64(value_t) + w_shield_break * F64(broken)

    back, hp_a = F32(back), F32(hp_a)
    hurt = counter and back > 0 and not blocks(shield_a, back)
    s += F64(F32(w_counter_damage) * (min(back, hp_a) if hurt else F32(0)))
    s += w_loss * F64(counter and kills(back, hp_a, shield_a)) * F64(value_a)

    share = F32(1) if kill else dealt / hp_t
    s += F64(F32(w_defend) * share * (back * F32(threatens_t)))
    return s


@numba.njit(cache=True)
def splash(alive, side, kind, cell, hp, shield, value, flying, distance, foe, here, there, amount, w_damage, w_kill):
    """``float32`` worth of the splash of ``amount`` when an attacker on cell ``here`` hits the ground
    unit on cell ``there``: damage and kills on the enemy (side ``foe``) units it reaches
    (:func:`.legal.splash_victim`), summed in float32 by increasing slot.
    The unit arrays are the game's rows."""
    gain = F32(0)
    for v in range(alive.shape[0]):
        if not alive[v] or side[v] != foe:
            continue
        cv = cell[v]
        if not splash_victim(distance[there, cv], distance[here, cv], flying[kind[v]]):
            continue
        hp_v, shield_v = F32(hp[v]), shield[v]
        taken = F32(0) if blocks(shield_v, amount) else min(F32(amount), hp_v)
        killed = value[v] if kills(amount, hp_v, shield_v) else F32(0)
        gain += F32(w_damage) * taken + F32(w_kill) * killed
    return gain


@numba.njit(cache=True)
def miracle_blow(w_miracle_damage, w_miracle_kill, atk, miracle_hp):
    """``float32`` score of an attacker (attack ``atk``) hitting the enemy miracle (``miracle_hp`` left),
    computed in float64 and rounded once."""
    atk, hp = F32(atk), F32(miracle_hp)
    return F32(F64(F32(w_miracle_damage) * min(atk, hp)) + w_miracle_kill * F64(atk >= hp))


@numba.njit(cache=True, inline="always")
def attacks(S, R, T, L, g, sit, cand_index, cand_score, n):
    """Offer every legal attack of game ``g`` (:func:`.choice.offer`), attackers by slot, each one's
    targets by slot, the enemy miracle last; returns the new candidate count ``n``."""
    if S.over[g]:
        return n
    alive, ready, side, atk = borrow(S.alive, g), borrow(S.ready, g), borrow(S.side, g), unowned(sit.atk)
    cur = S.current[g]
    units = alive.shape[0]
    if not any_attacker(alive, ready, side, atk, cur):  # most decisions have no unit left to attack with
        return n

    kind, level, cell = borrow(S.kind, g), borrow(S.level, g), borrow(S.cell, g)
    hp, shield = borrow(S.hp, g), borrow(S.shield, g)
    value, threatens = unowned(sit.value), unowned(sit.threatens)
    flying, anti_air = unowned(R.flying), unowned(R.anti_air)
    range_min, range_max, splash_of = unowned(R.range_min), unowned(R.range_max), unowned(R.splash)
    distance, miracle_distance = unowned(R.distance), unowned(R.miracle_distance)
    w = T.weights
    w_damage, w_kill, w_shield_break = w.damage, w.kill, w.shield_break
    w_counter_damage, w_loss, w_defend = w.counter_damage, w.loss, w.defend
    w_miracle_damage, w_miracle_kill = w.miracle_damage, w.miracle_kill
    foe = 1 - cur
    miracle_hp = S.miracle_hp[g, foe]

    mine, theirs, n_side = cur * R.side_units, foe * R.side_units, R.side_units  # slots grouped by side
    for a in range(mine, mine + n_side):
        if not may_attack(alive[a], ready[a], side[a], cur, atk[a]):
            continue
        ka, la, here = kind[a], level[a] - 1, cell[a]
        lo, hi, amount = range_min[ka, la], range_max[ka, la], splash_of[ka, la]
        air_a, hits_air_a = flying[ka], flying[ka] or anti_air[ka]
        first = L.attack + a * (units + 1)
        for t in range(theirs, theirs + n_side):
            if not alive[t]:
                continue
            kt = kind[t]
            air_t = flying[kt]
            dist = distance[here, cell[t]]
            if not can_hit(lo, hi, hits_air_a, air_t, dist):
                continue
            lt = level[t] - 1
            back_air = flying[kt] or anti_air[kt]
            counter = strikes_back(range_min[kt, lt], range_max[kt, lt], atk[t], back_air, air_a, dist)
            s = blow(
                w_damage, w_kill, w_shield_break, w_counter_damage, w_loss, w_defend,
                atk[a], value[a], hp[a], shield[a], atk[t], value[t], hp[t], shield[t], threatens[t], counter,
            )
            if splashes(amount, air_t):
                s += F64(splash(
                    alive, side, kind, cell, hp, shield, value, flying, distance, foe, here, cell[t], amount,
                    w_damage, w_kill,
                ))
            n = offer(cand_index, cand_score, n, first + t, F32(s))
        if lo <= miracle_distance[foe, here] <= hi:
            at_miracle = miracle_blow(w_miracle_damage, w_miracle_kill, atk[a], miracle_hp)
            n = offer(cand_index, cand_score, n, first + units, at_miracle)
    return n
