"""Applying actions: what summons, moves, attacks, artifact uses, deaths, turn ends and turn starts
do (``../shared/rules/miracle-war.md`` sections 2 to 5), written once.

:func:`step_one` applies one legal action to one game; :func:`step` does it for a batch (the batch
on axis 0), and the sweeps' compiled loops (:mod:`.game`, :mod:`simkit.games.miracle.fast_search`)
call :func:`step_one` between their bots' decisions. Which actions are legal is :mod:`.legal`'s;
:mod:`simkit.games.miracle.rules` is the Python face of both. ``S`` is a :class:`~.pack.KState`,
``R`` a :class:`~.pack.KRules` and ``g`` the game. Compiled with numba; under
``NUMBA_DISABLE_JIT=1`` the same functions run as plain Python.
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.miracle.cards import HOLY_LIGHT, INFERNO_FLAME, SALAMANDER_SHIELD, WIND_BLESSING
from simkit.games.miracle.fast.borrow import borrow
from simkit.games.miracle.fast.legal import attack_now, blocks, hits_air, splash_victim, splashes, strikes_back
from simkit.games.miracle.fast.pack import KRulesRef, KStateRef
from simkit.games.miracle.state import (
    ARTIFACT_CARD,
    ATTACK,
    COOLING,
    DAMAGE,
    END_TURN,
    FIRST,
    IN_USE,
    MIRACLE,
    MOVE,
    PASS,
    PLAYED,
    READY,
    SECOND,
    SUMMON,
    TARGET_MIRACLE,
    TURN_LIMIT,
    USE,
)

# ----------------------------------------------------------------------------------------------
# units and artifacts


@numba.njit(cache=True, inline="always")
def hit(S, g, u, dmg):
    """Deal ``dmg`` to slot ``u``; a holy shield cancels a non-zero hit (:func:`.legal.blocks`).
    Returns the damage dealt (0 when the shield took it)."""
    if blocks(S.shield[g, u], dmg):
        S.shield[g, u] = False
        return 0
    elif dmg > 0:
        S.hp[g, u] -= dmg
        return dmg
    return 0


@numba.njit(cache=True, inline="always")
def tally_damage(S, g, u, dealt):
    """Count ``dealt`` to the card of unit ``u``: its deck slot, or the artifact for the Inferno."""
    slot = S.deck_slot[g, u]
    S.tally[g, S.side[g, u], slot if slot >= 0 else ARTIFACT_CARD, DAMAGE] += dealt


@numba.njit(cache=True, inline="always")
def recycle(S, R, g, side):
    """Send the artifact of ``side`` to cooling, or ready at once if its cooldown is 0."""
    cd = R.artifact_cooldown[S.deck_artifact[g, side]]
    S.artifact_cooldown[g, side] = cd
    S.artifact_state[g, side] = COOLING if cd > 0 else READY


@numba.njit(cache=True, inline="always")
def place_unit(S, R, g, side, kind, level, deck_slot, cell):
    """Put a new unit with full HP, not ready, in the first free slot of ``side``; returns the slot
    (the side's first slot when none is free, which legal games never meet: ``Rules.side_units``
    holds every unit a deck can field plus one Inferno)."""
    first = side * R.side_units
    u = first
    for s in range(first, first + R.side_units):
        if not S.alive[g, s]:
            u = s
            break
    hp = R.hp[kind, level - 1]
    S.alive[g, u] = True
    S.kind[g, u] = kind
    S.level[g, u] = level
    S.deck_slot[g, u] = deck_slot
    S.cell[g, u] = cell
    S.hp[g, u] = hp
    S.max_hp[g, u] = hp
    S.ready[g, u] = False
    S.shield[g, u] = False
    S.equipped[g, u] = False
    S.buff[g, u] = 0
    S.uid[g, u] = S.next_uid[g]
    S.next_uid[g] += 1
    return u


# ----------------------------------------------------------------------------------------------
# the four actions


@numba.njit(cache=True, inline="always")
def summon(S, R, g, slot, level, cell):
    """The side to act summons a unit of deck slot ``slot`` at ``level`` on ``cell``."""
    cur = S.current[g]
    kind = S.deck_kind[g, cur, slot]
    S.mana[g, cur] -= R.cost[kind, level - 1]
    S.available[g, cur, slot] -= 1
    S.tally[g, cur, slot, PLAYED] += 1
    place_unit(S, R, g, cur, kind, level, slot, cell)


@numba.njit(cache=True, inline="always")
def move(S, g, u, cell):
    """Unit ``u`` moves to ``cell`` and may not act again."""
    S.cell[g, u] = cell
    S.ready[g, u] = False


@numba.njit(cache=True, inline="always")
def counters(S, R, g, u, t, atk):
    """The target ``t`` strikes back at the attacker ``u`` (:func:`.legal.strikes_back`)."""
    tk, tl = S.kind[g, t], S.level[g, t] - 1
    d = R.distance[S.cell[g, u], S.cell[g, t]]
    return strikes_back(R.range_min[tk, tl], R.range_max[tk, tl], atk[t], hits_air(R, tk), R.flying[S.kind[g, u]], d)


@numba.njit(cache=True, inline="always")
def splash(S, R, g, u, t, amount):
    """``amount`` to every enemy unit the splash reaches (:func:`.legal.splash_victim`) around the target ``t``."""
    here, there = S.cell[g, u], S.cell[g, t]
    for v in range(S.alive.shape[1]):
        if not S.alive[g, v] or S.side[g, v] == S.current[g]:
            continue
        if splash_victim(R.distance[S.cell[g, v], there], R.distance[S.cell[g, v], here], R.flying[S.kind[g, v]]):
            tally_damage(S, g, u, hit(S, g, v, amount))


@numba.njit(cache=True, inline="always")
def attack(S, R, g, u, t, atk):
    """Unit ``u`` attacks slot ``t`` or the enemy miracle; counter-attack and splash follow.

    ``atk``: scratch ``int32[U]``, filled with the attacks before the blow (a target brought to 0 HP
    still counter-attacks: deaths wait for the end of the action).
    """
    attack_now(S, R, g, atk)
    power = atk[u]
    S.ready[g, u] = False
    if t == TARGET_MIRACLE:
        S.miracle_hp[g, 1 - S.current[g]] -= power
        tally_damage(S, g, u, power)
        return
    tally_damage(S, g, u, hit(S, g, t, power))
    if counters(S, R, g, u, t, atk):
        tally_damage(S, g, t, hit(S, g, u, atk[t]))
    amount = R.splash[S.kind[g, u], S.level[g, u] - 1]
    if splashes(amount, R.flying[S.kind[g, t]]):
        splash(S, R, g, u, t, amount)


@numba.njit(cache=True, inline="always")
def use(S, R, g, target, cell):
    """The side to act uses its artifact on unit ``target`` or ``cell``, by its effect."""
    cur = S.current[g]
    art = S.deck_artifact[g, cur]
    effect = R.artifact_effect[art]
    S.mana[g, cur] -= R.artifact_cost[art]
    S.tally[g, cur, ARTIFACT_CARD, PLAYED] += 1
    n = S.alive.shape[1]
    if effect == HOLY_LIGHT:
        for u in range(n):
            if S.alive[g, u] and S.side[g, u] == cur and R.distance[S.cell[g, u], cell] <= R.holy_radius:
                S.hp[g, u] = S.max_hp[g, u]
                S.buff[g, u] = R.holy_duration
        recycle(S, R, g, cur)
    elif effect == WIND_BLESSING:
        for u in range(n):
            if S.alive[g, u] and S.side[g, u] == cur and R.distance[S.cell[g, u], cell] <= R.wind_radius:
                S.ready[g, u] = True
        recycle(S, R, g, cur)
    elif effect == SALAMANDER_SHIELD:
        S.max_hp[g, target] += R.shield_hp
        S.hp[g, target] += R.shield_hp
        S.shield[g, target] = True
        S.equipped[g, target] = True
        S.artifact_state[g, cur] = IN_USE
    elif effect == INFERNO_FLAME:
        for u in range(n):
            if S.alive[g, u] and S.side[g, u] != cur and R.distance[S.cell[g, u], cell] <= R.inferno_radius:
                S.tally[g, cur, ARTIFACT_CARD, DAMAGE] += hit(S, g, u, R.inferno_damage)
        place_unit(S, R, g, cur, R.inferno, 1, -1, cell)
        S.artifact_state[g, cur] = IN_USE


# ----------------------------------------------------------------------------------------------
# after an action: deaths and the end of the game


@numba.njit(cache=True, inline="always")
def has_dead(S, g):
    """Game ``g`` has a unit at HP <= 0 still on the board."""
    for u in range(S.alive.shape[1]):
        if S.alive[g, u] and S.hp[g, u] <= 0:
            return True
    return False


@numba.njit(cache=True, inline="always")
def resolve_deaths(S, R, g):
    """Remove every unit at HP <= 0: its slot cools, its owner's dead stars grow, a bound artifact
    is recycled."""
    for u in range(S.alive.shape[1]):
        if not S.alive[g, u] or S.hp[g, u] > 0:
            continue
        side, kind, lv, slot = S.side[g, u], S.kind[g, u], S.level[g, u] - 1, S.deck_slot[g, u]
        S.dead_stars[g, side] += R.stars[kind, lv]
        if slot >= 0:
            cd = R.cooldown[kind, lv]
            if cd > 0:
                S.cooling[g, side, slot, cd] += 1
            elif cd == 0:
                S.available[g, side, slot] += 1
        if S.equipped[g, u] or kind == R.inferno:
            recycle(S, R, g, side)
        S.alive[g, u] = False
        S.ready[g, u] = False
        S.shield[g, u] = False
        S.equipped[g, u] = False
        S.buff[g, u] = 0


@numba.njit(cache=True, inline="always")
def decide_winner(S, R, g):
    """Winner of game ``g``: more miracle HP, then fewer dead stars, then ``full_tie``."""
    hp, stars = borrow(S.miracle_hp, g), borrow(S.dead_stars, g)
    if hp[0] != hp[1]:
        return FIRST if hp[0] > hp[1] else SECOND
    if stars[0] != stars[1]:
        return FIRST if stars[0] < stars[1] else SECOND
    return R.full_tie


@numba.njit(cache=True, inline="always")
def check_miracles(S, R, g):
    """End the game when a miracle has fallen."""
    if S.miracle_hp[g, 0] <= 0 or S.miracle_hp[g, 1] <= 0:
        S.over[g] = True
        S.end_reason[g] = MIRACLE
        S.winner[g] = decide_winner(S, R, g)


# ----------------------------------------------------------------------------------------------
# turns


@numba.njit(cache=True, inline="always")
def has_healer(S, R, g):
    """A unit of the side to act has a (non-zero) heal."""
    cur = S.current[g]
    for u in range(S.alive.shape[1]):
        if S.alive[g, u] and S.side[g, u] == cur and R.heal[S.kind[g, u], S.level[g, u] - 1] != 0:
            return True
    return False


@numba.njit(cache=True, inline="always")
def heal(S, R, g):
    """Priests of the side to act heal every friendly unit within their heal range (themselves
    included), never above max HP."""
    cur = S.current[g]
    n = S.alive.shape[1]
    for u in range(n):
        amount = 0
        if S.alive[g, u] and S.side[g, u] == cur:
            for j in range(n):
                if not S.alive[g, j] or S.side[g, j] != cur:
                    continue
                kj, lj = S.kind[g, j], S.level[g, j] - 1
                if R.heal[kj, lj] > 0 and R.distance[S.cell[g, u], S.cell[g, j]] <= R.heal_range[kj, lj]:
                    amount += R.heal[kj, lj]
        S.hp[g, u] = min(np.int64(S.hp[g, u]) + amount, np.int64(S.max_hp[g, u]))


@numba.njit(cache=True, inline="always")
def capture_garrisons(S, R, g):
    """A ground unit standing on a garrison claims it for its side; ownership persists until another
    side's ground unit stands there at a turn start."""
    for i in range(R.garrisons.shape[0]):
        holder = -1
        for u in range(S.alive.shape[1]):
            if S.alive[g, u] and not R.flying[S.kind[g, u]] and S.cell[g, u] == R.garrisons[i]:
                holder = u
        if holder >= 0:
            S.garrison_owner[g, i] = S.side[g, holder]


@numba.njit(cache=True, inline="always")
def cool_down(S, g, cur):
    """Cooldown phase of ``cur``: cooling units one turn closer (those at 1 become available), the
    artifact's cooldown down by 1 (ready at 0)."""
    last = S.cooling.shape[3] - 1
    for s in range(S.cooling.shape[2]):
        S.available[g, cur, s] += S.cooling[g, cur, s, 1]
        for r in range(1, last):
            S.cooling[g, cur, s, r] = S.cooling[g, cur, s, r + 1]
        S.cooling[g, cur, s, 0] = 0
        S.cooling[g, cur, s, last] = 0
    if S.artifact_state[g, cur] == COOLING:
        S.artifact_cooldown[g, cur] -= 1
        if S.artifact_cooldown[g, cur] <= 0:
            S.artifact_state[g, cur] = READY


@numba.njit(cache=True, inline="always")
def unit_step(S, R, g, i):
    """Both sides' unit counts rise from value ``i`` to value ``i + 1`` of each kind's ``units``."""
    for side in range(2):
        for s in range(S.deck_kind.shape[2]):
            k = S.deck_kind[g, side, s]
            S.available[g, side, s] += R.units[k, i + 1] - R.units[k, i]


@numba.njit(cache=True)
def turn_start(S, R, g):
    """Turn start of the side to act: mana, garrisons, shields, cooldowns, unit steps, ready."""
    cur = S.current[g]
    grow = 1 if S.turn[g] % R.mana_period == R.mana_phase[cur] else 0
    S.max_mana[g, cur] = min(S.max_mana[g, cur] + grow, R.max_mana_cap)
    S.mana[g, cur] = S.max_mana[g, cur]
    capture_garrisons(S, R, g)
    for u in range(S.alive.shape[1]):
        mine = S.alive[g, u] and S.side[g, u] == cur
        if mine and S.equipped[g, u]:
            S.shield[g, u] = True  # the SalamanderShield's holy shield returns
        # ready is set here already: the cooldown phase and unit steps below never touch units
        S.ready[g, u] = mine
    cool_down(S, g, cur)
    for i in range(R.unit_steps.shape[0]):
        if S.turn[g] == R.unit_steps[i]:
            unit_step(S, R, g, i)


@numba.njit(cache=True, inline="always")
def end_turn(S, R, g):
    """End the turn: priests heal, buffs count down, then the turn limit or the next turn."""
    if has_healer(S, R, g):  # a cheap test first
        heal(S, R, g)
    for u in range(S.alive.shape[1]):
        S.buff[g, u] = max(S.buff[g, u] - 1, 0)
    if S.turn[g] >= R.turn_limit:
        S.over[g] = True
        S.end_reason[g] = TURN_LIMIT
        S.winner[g] = decide_winner(S, R, g)
        return
    S.turn[g] += 1
    S.current[g] = 1 - S.current[g]
    turn_start(S, R, g)


# ----------------------------------------------------------------------------------------------
# one action per game


@numba.njit(cache=True, inline="always")
def perform(S, R, g, kind, a, b, c, atk):
    """Game ``g`` summons, moves, attacks or uses its artifact (deaths not yet resolved)."""
    if kind == SUMMON:
        summon(S, R, g, a, b, c)
    elif kind == ATTACK:
        attack(S, R, g, a, b, atk)
    elif kind == USE:
        use(S, R, g, b, c)
    elif kind == MOVE:
        move(S, g, a, c)


@numba.njit(cache=True)
def step_one(S, R, g, kind, a, b, c, atk):
    """Apply one legal action ``(kind, a, b, c)`` to game ``g``, then resolve deaths and the end of
    the game; a game that is over, or a PASS, is left untouched.

    ``atk``: scratch ``int32[U]`` (the attacks before a blow).
    """
    if S.over[g] or kind == PASS:
        return
    if kind == END_TURN:
        end_turn(S, R, g)
        return
    perform(S, R, g, kind, a, b, c, atk)
    if has_dead(S, g):
        resolve_deaths(S, R, g)
    check_miracles(S, R, g)


@numba.njit(cache=True)
def step(state, rules, kind, a, b, c):
    """Apply one legal action per game of ``state`` (a :class:`~.pack.KState`; ``rules``: a
    :class:`~.pack.KRules`) in place, then resolve deaths and the end of the game: :func:`step_one`
    for each game.

    ``kind, a, b, c``: ``int32[B]`` as in :class:`~simkit.games.miracle.state.Actions`. Games that
    are over, or whose action is PASS, are left untouched. The caller guarantees legality
    (:mod:`.legal` says which actions are legal).
    """
    S, R = KStateRef(*state), KRulesRef(*rules)
    atk = np.zeros(S.alive.shape[1], np.int32)
    for g in range(S.turn.shape[0]):
        step_one(S, R, g, kind[g], a[g], b[g], c[g], atk)


@numba.njit(cache=True)
def start_games(state, rules):
    """The first player's turn start in every game of ``state`` (new games, before turn 1's actions)."""
    S, R = KStateRef(*state), KRulesRef(*rules)
    for g in range(S.turn.shape[0]):
        turn_start(S, R, g)
