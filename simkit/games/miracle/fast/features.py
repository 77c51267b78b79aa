"""Features the compiled scorers share: a new unit's weighted stats, steps to a goal, value at risk.

Each computes in float32 (explicit casts, the same bits compiled or not).
"""

from __future__ import annotations

import numba
import numpy as np

F32 = np.float32


@numba.njit(cache=True, inline="always")
def summon_base(R, w, kind, level0):
    """Weighted stats of a new unit, float32."""
    support = R.heal[kind, level0] + R.aura[kind, level0] + R.splash[kind, level0]
    stats = (
        w.unit_attack * R.attack[kind, level0] + w.unit_hp * R.hp[kind, level0]
        + w.unit_support * support + w.unit_move * R.move[kind, level0]
    )
    return F32(stats)


@numba.njit(cache=True, inline="always")
def goal_steps(approach_steps, garrison_steps, flying):
    """Steps to the goal from one cell: ``approach_steps`` is the unit's entry
    of the bot's approach table for the cell, ``garrison_steps`` the cell's garrison goal; ground
    units may head for a garrison instead. Scalars only: called per cell in the scorers' loops,
    where a compiled call taking arrays would cost reference counts."""
    goal = F32(approach_steps)
    if not flying:
        goal = min(goal, garrison_steps)
    return goal


@numba.njit(cache=True)
def risk(value, threat, hp):
    """Value at risk, all float32."""
    hp = F32(max(hp, 1))
    return value * min(threat, hp) / hp
