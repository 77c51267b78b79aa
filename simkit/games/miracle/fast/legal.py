"""Which actions are legal, and why one is not: the rules of ``../shared/rules/miracle-war.md``
section 4, written once.

Every caller asks these functions: the step's callers (:func:`legal_masks`, the flat mask of
:func:`simkit.games.miracle.rules.legal_mask`, which the random bot and ``Match.legal_actions``
read), ``Match`` when it explains a refusal (:func:`reasons`, a code per action that
:data:`REASONS` puts into words), and the utility bots, which list the legal actions themselves
while scoring them (:mod:`.summons`, :mod:`.moves`, :mod:`.attacks`, :mod:`.uses`) through the
same predicates. The predicates take scalars, so the scorers' inner loops call them without
reference counting (see :mod:`.moves`).

``S`` is a :class:`~.pack.KState`, ``R`` a :class:`~.pack.KRules` and ``g`` the game; the functions
run compiled and, under ``NUMBA_DISABLE_JIT=1``, as plain Python.
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.miracle.cards import HOLY_LIGHT, INFERNO_FLAME, SALAMANDER_SHIELD, WIND_BLESSING
from simkit.games.miracle.fast.borrow import borrow, trailing_zeros, unowned
from simkit.games.miracle.fast.pack import KRulesRef, KSitRef, KStateRef
from simkit.games.miracle.state import ATTACK, END_TURN, IN_USE, MOVE, READY, SUMMON, TARGET_MIRACLE, USE

U64 = np.uint64
ONE = U64(1)

# Why an action is illegal (0: it is legal). Match words them (REASONS) with the numbers at hand.
LEGAL = 0
GAME_OVER = 1
NO_UNIT_AVAILABLE = 2
SUMMON_TOO_DEAR = 3
NOT_A_SPAWN_POINT = 4
LAYER_TAKEN = 5
NOT_OWN_UNIT = 6
NOT_READY = 7
NO_PATH = 8
NO_ATTACK = 9
MIRACLE_OUT_OF_RANGE = 10
FRIENDLY_TARGET = 11
TARGET_FLIES = 12
OUT_OF_RANGE = 13
ARTIFACT_IN_USE = 14
ARTIFACT_COOLING = 15
ARTIFACT_TOO_DEAR = 16
SHIELD_ON_ENEMY = 17
BAD_INFERNO_CELL = 18
NOT_AN_ACTION = 19

#: The reason codes, by name (index = code).
REASONS = (
    "legal", "game over", "no unit available", "summon too dear", "not a spawn point", "layer taken",
    "not own unit", "not ready", "no path", "no attack", "miracle out of range", "friendly target",
    "target flies", "out of range", "artifact in use", "artifact cooling", "artifact too dear",
    "shield on enemy", "bad inferno cell", "not an action",
)

# Rows of the move search's bitboards (sit.bits, one uint64 word per padded board row, see KRules.bit_row)
ENTER = 0  # + layer: cells a mover of the layer may enter (no unit of its layer, no abyss for ground)
STOP = 2  # + layer: cells a mover of the layer stops on entering (next to an enemy of its layer,
# or under/over an enemy of the other layer)
ENEMY = 4  # + layer: the enemies' cells
REACH, FRONT, NEXT = 6, 7, 8  # the unit being searched: cells entered, cells to expand from, new cells


# ----------------------------------------------------------------------------------------------
# predicates on scalars (the scorers call them in their inner loops)


@numba.njit(cache=True, inline="always")
def hits_air(R, kind):
    """Units of ``kind`` may attack flying units: they fly or are anti-air."""
    return R.flying[kind] or R.anti_air[kind]


@numba.njit(cache=True, inline="always")
def may_act(alive, ready, side, cur):
    """A slot holds a unit of the side to act ``cur`` that may still move or attack this turn."""
    return alive and ready and side == cur


@numba.njit(cache=True, inline="always")
def may_attack(alive, ready, side, cur, atk):
    """A slot holds a unit of the side to act that may attack now: it may act and its attack is above 0."""
    return may_act(alive, ready, side, cur) and atk > 0


@numba.njit(cache=True, inline="always")
def can_hit(lo, hi, hits_air_attacker, target_flies, dist):
    """An attacker of range ``lo..hi`` reaches an enemy unit at ``dist``: in range, and a flying target
    only when the attacker flies or is anti-air."""
    return lo <= dist <= hi and (hits_air_attacker or not target_flies)


@numba.njit(cache=True, inline="always")
def strikes_back(lo, hi, atk, hits_air_target, attacker_flies, dist):
    """A target of range ``lo..hi`` and attack ``atk`` counter-attacks its attacker at ``dist``:
    the attacker is in its range, its attack is above 0 and it reaches the attacker's layer."""
    return lo <= dist <= hi and atk > 0 and (not attacker_flies or hits_air_target)


@numba.njit(cache=True, inline="always")
def splashes(amount, target_flies):
    """A blow of an attacker with splash ``amount`` on a unit splashes: the amount is above 0 and
    the target is a ground unit (a miracle is never splashed around)."""
    return amount > 0 and not target_flies


@numba.njit(cache=True, inline="always")
def splash_victim(to_target, to_attacker, victim_flies):
    """An enemy unit at ``to_target`` from the target and ``to_attacker`` from the attacker takes the
    splash: a ground unit next to the target and 2 from the attacker."""
    return to_target == 1 and to_attacker == 2 and not victim_flies


@numba.njit(cache=True, inline="always")
def blocks(shielded, dmg):
    """A holy shield cancels a hit: the unit is shielded and the hit is above 0 (the shield is spent)."""
    return shielded and dmg > 0


@numba.njit(cache=True, inline="always")
def kills(dmg, hp, shielded):
    """A hit of ``dmg`` kills a unit of ``hp`` (at least 1): no holy shield cancels it and it leaves
    0 HP or less."""
    return not blocks(shielded, dmg) and dmg >= hp


@numba.njit(cache=True, inline="always")
def summonable(available, cost, mana):
    """A deck slot with ``available`` units may be summoned at a level of ``cost`` with ``mana`` left."""
    return available > 0 and cost <= mana


# ----------------------------------------------------------------------------------------------
# per game


@numba.njit(cache=True)
def spawn_points(spawn_cells, spawn_count, garrison_owner, cur, out):
    """Write the spawn points of side ``cur`` in increasing order to ``out``: its own and those of the
    garrisons it owns (rows ``cur`` and ``2 + garrison`` of :attr:`KRules.spawn_cells`); returns how many."""
    n = 0
    for row in range(spawn_count.shape[0]):
        if row == cur or (row >= 2 and garrison_owner[row - 2] == cur):
            for i in range(spawn_count[row]):
                c = np.int64(spawn_cells[row, i])
                at = n  # insertion sort: a handful of cells, most already in order
                while at > 0 and out[at - 1] > c:
                    at -= 1
                if at > 0 and out[at - 1] == c:
                    continue
                for j in range(n, at, -1):
                    out[j] = out[j - 1]
                out[at] = c
                n += 1
    return n


@numba.njit(cache=True, inline="always")
def occupancy(S, R, g, ground, air):
    """``ground[c]``/``air[c]``: the slot of the ground/flying unit on each cell of game ``g``, -1 if none."""
    alive, kind, cell, flying = borrow(S.alive, g), borrow(S.kind, g), borrow(S.cell, g), unowned(R.flying)
    ground[:] = -1
    air[:] = -1
    for u in range(alive.shape[0]):
        if alive[u]:
            if flying[kind[u]]:
                air[cell[u]] = u
            else:
                ground[cell[u]] = u


@numba.njit(cache=True, inline="always")
def attack_now(S, R, g, out):
    """``out[u]``: the current attack of every slot of game ``g`` (0 for empty slots): its card's, plus
    the HolyLight bonus while its buff lasts, plus the aura of every *other* friendly aura bearer
    within the bearer's aura range (stacking)."""
    n = S.alive.shape[1]
    alive, kind, level = borrow(S.alive, g), borrow(S.kind, g), borrow(S.level, g)
    side, cell, buff = borrow(S.side, g), borrow(S.cell, g), borrow(S.buff, g)
    attack, holy_attack = unowned(R.attack), R.holy_attack
    auras, aura_range, distance = unowned(R.aura), unowned(R.aura_range), unowned(R.distance)
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
def board_bits(S, R, g, cur, bits):
    """Fill rows ``ENTER``, ``STOP`` and ``ENEMY`` of ``bits`` for the side ``cur`` of game ``g``: ground
    units never enter ground units or abyss, flying units never enter flying units; a ground unit
    stops on entering a cell next to an enemy ground unit or under an enemy flying unit, a flying
    unit next to an enemy flying unit or over an enemy ground unit."""
    rows = bits.shape[1]
    for r in range(rows):
        bits[ENTER, r] = bits[ENTER + 1, r] = bits[ENEMY, r] = bits[ENEMY + 1, r] = 0
    for j in range(S.alive.shape[1]):
        if S.alive[g, j]:
            layer = 1 if R.flying[S.kind[g, j]] else 0
            at = S.cell[g, j]
            r, bit = R.bit_row[at], ONE << R.bit_index[at]
            bits[ENTER + layer, r] |= bit  # occupied, inverted below
            if S.side[g, j] != cur:
                bits[ENEMY + layer, r] |= bit
    for r in range(1, rows - 1):
        bits[ENTER, r] = R.walkable_bits[r] & ~bits[ENTER, r]
        bits[ENTER + 1, r] = R.valid_bits[r] & ~bits[ENTER + 1, r]
        for layer in range(2):
            e, up, down = bits[ENEMY + layer, r], bits[ENEMY + layer, r + 1], bits[ENEMY + layer, r - 1]
            near = (e << ONE) | (e >> ONE) | (up << ONE) | up | (down >> ONE) | down
            bits[STOP + layer, r] = near | bits[ENEMY + 1 - layer, r]


@numba.njit(cache=True, inline="always")
def reach(R, bits, layer, steps, start, targets):
    """List in ``targets``, in increasing order, the cells a mover of ``layer`` on ``start`` reaches
    by a path of at most ``steps`` steps (rows ``ENTER``/``STOP`` of ``bits`` filled by
    :func:`board_bits`); returns how many. The start is not a target and never stops the mover.

    Each step expands the cells entered on the previous step except those the mover stops on (the
    start always expands), over the rows the unit can reach only.
    """
    r0 = np.int64(R.bit_row[start])
    top = bits.shape[1] - 2
    lo, hi = max(r0 - steps, 1), min(r0 + steps, top)
    for r in range(lo - 1, hi + 2):
        bits[REACH, r] = bits[FRONT, r] = 0
    bits[FRONT, r0] = ONE << R.bit_index[start]
    enter, stop = ENTER + layer, STOP + layer
    cell_of = unowned(R.bit_cell)
    for _ in range(steps):
        for r in range(lo, hi + 1):
            f, up, down = bits[FRONT, r], bits[FRONT, r + 1], bits[FRONT, r - 1]
            near = (f << ONE) | (f >> ONE) | (up << ONE) | up | (down >> ONE) | down
            bits[NEXT, r] = near & bits[enter, r] & ~bits[REACH, r]
        for r in range(lo, hi + 1):
            new = bits[NEXT, r]
            bits[REACH, r] |= new
            bits[FRONT, r] = new & ~bits[stop, r]
    m = 0
    for r in range(lo, hi + 1):
        word = bits[REACH, r]
        while word:
            targets[m] = cell_of[r, trailing_zeros(word)]
            m += 1
            word &= word - ONE
    return m


@numba.njit(cache=True, inline="always")
def artifact_usable(S, R, g, cur):
    """The artifact of side ``cur`` is ready and affordable."""
    art = S.deck_artifact[g, cur]
    return S.artifact_state[g, cur] == READY and R.artifact_cost[art] <= S.mana[g, cur]


@numba.njit(cache=True, inline="always")
def inferno_targets(S, R, g, cur, ground, out):
    """``out[c]``: InfernoFlame may land on cell ``c``: not abyss, no ground unit (``ground``: the
    occupancy), within its miracle range of the own miracle or its garrison range of an owned garrison."""
    out[:] = R.miracle_distance[cur] <= R.inferno_miracle_range
    for gi in range(R.garrisons.shape[0]):
        if S.garrison_owner[g, gi] == cur:
            out |= R.distance[R.garrisons[gi]] <= R.inferno_garrison_range
    out &= ~R.abyss & (ground < 0)


# ----------------------------------------------------------------------------------------------
# the flat mask and the reasons


@numba.njit(cache=True, inline="always")
def mask_one(S, R, L, g, sit, out):
    """``out``: ``bool[N]`` every legal action of game ``g`` in the flat layout (``L``, a
    :class:`~.pack.Layout`); all False when the game is over. ``sit``: scratch (:class:`~.pack.KSit`)."""
    out[:] = False
    if S.over[g]:
        return
    cells, units = R.distance.shape[0], S.alive.shape[1]
    cur = np.int64(S.current[g])
    foe = 1 - cur
    ground, air, atk = sit.ground, sit.air, sit.atk
    occupancy(S, R, g, ground, air)
    attack_now(S, R, g, atk)
    # summons
    n_spawn = spawn_points(R.spawn_cells, R.spawn_count, borrow(S.garrison_owner, g), cur, sit.spawn_cells)
    for slot in range(3):
        kind = S.deck_kind[g, cur, slot]
        taken = air if R.flying[kind] else ground
        for level0 in range(3):
            if not summonable(S.available[g, cur, slot], R.cost[kind, level0], S.mana[g, cur]):
                continue
            first = L.summon + (slot * 3 + level0) * cells
            for i in range(n_spawn):
                c = sit.spawn_cells[i]
                if taken[c] < 0:
                    out[first + c] = True
    # moves
    board_bits(S, R, g, cur, sit.bits)
    for u in range(units):
        if not may_act(S.alive[g, u], S.ready[g, u], S.side[g, u], cur):
            continue
        k, lv = S.kind[g, u], S.level[g, u] - 1
        m = reach(R, sit.bits, 1 if R.flying[k] else 0, np.int64(R.move[k, lv]), np.int64(S.cell[g, u]),
                  sit.move_cells)
        for i in range(m):
            out[L.move + u * cells + sit.move_cells[i]] = True
    # attacks
    for u in range(units):
        if not may_attack(S.alive[g, u], S.ready[g, u], S.side[g, u], cur, atk[u]):
            continue
        k, lv = S.kind[g, u], S.level[g, u] - 1
        lo, hi, air_ok = R.range_min[k, lv], R.range_max[k, lv], hits_air(R, k)
        first = L.attack + u * (units + 1)
        for t in range(units):
            if S.alive[g, t] and S.side[g, t] != cur:
                dist = R.distance[S.cell[g, u], S.cell[g, t]]
                out[first + t] = can_hit(lo, hi, air_ok, R.flying[S.kind[g, t]], dist)
        out[first + units] = lo <= R.miracle_distance[foe, S.cell[g, u]] <= hi
    # artifact uses
    if artifact_usable(S, R, g, cur):
        effect = R.artifact_effect[S.deck_artifact[g, cur]]
        if effect == HOLY_LIGHT or effect == WIND_BLESSING:
            for c in range(cells):
                out[L.use_cell + c] = True
        elif effect == INFERNO_FLAME:
            inferno_targets(S, R, g, cur, ground, sit.target)
            for c in range(cells):
                out[L.use_cell + c] = sit.target[c]
        elif effect == SALAMANDER_SHIELD:
            for u in range(units):
                out[L.use_unit + u] = S.alive[g, u] and S.side[g, u] == cur
    out[L.end_turn] = True


@numba.njit(cache=True)
def legal_count(S, R, L, g, sit, mask):
    """How many actions are legal in game ``g`` now (:func:`mask_one` into the scratch ``mask``, ``bool[N]``)."""
    mask_one(S, R, L, g, sit, mask)
    n = 0
    for i in range(mask.shape[0]):
        if mask[i]:
            n += 1
    return n


@numba.njit(cache=True)
def legal_masks(state, rules, L, scratch, out):
    """``out[g]``: every legal action of each game of ``state`` in the flat layout (:func:`mask_one`).

    ``state``, ``rules``, ``scratch``: the packed :class:`~.pack.KState`, :class:`~.pack.KRules` and
    :class:`~.pack.KSit`; ``out``: ``bool[B, N]``.
    """
    S, R, sit = KStateRef(*state), KRulesRef(*rules), KSitRef(*scratch)
    for g in range(S.turn.shape[0]):
        mask_one(S, R, L, g, sit, out[g])


@numba.njit(cache=True, inline="always")
def unit_reason(S, g, u, cur):
    """Why unit slot ``u`` may not act for the side ``cur`` (``LEGAL`` when it may)."""
    if S.side[g, u] != cur:
        return NOT_OWN_UNIT
    if not (S.alive[g, u] and S.ready[g, u]):
        return NOT_READY
    return LEGAL


@numba.njit(cache=True, inline="always")
def reason_one(S, R, g, kind, a, b, c, sit):
    """Why the engine action ``(kind, a, b, c)`` is illegal in game ``g`` now (``LEGAL`` when it is
    legal): the same clauses as :func:`mask_one`, first failing clause first."""
    if S.over[g]:
        return GAME_OVER
    cur = np.int64(S.current[g])
    units = S.alive.shape[1]
    occupancy(S, R, g, sit.ground, sit.air)
    if kind == END_TURN:
        return LEGAL
    if kind == SUMMON:
        slot, level0 = a, b - 1
        k = S.deck_kind[g, cur, slot]
        if S.available[g, cur, slot] <= 0:
            return NO_UNIT_AVAILABLE
        if not summonable(S.available[g, cur, slot], R.cost[k, level0], S.mana[g, cur]):
            return SUMMON_TOO_DEAR
        n_spawn = spawn_points(R.spawn_cells, R.spawn_count, borrow(S.garrison_owner, g), cur, sit.spawn_cells)
        spawn = False
        for i in range(n_spawn):
            spawn |= sit.spawn_cells[i] == c
        if not spawn:
            return NOT_A_SPAWN_POINT
        taken = sit.air if R.flying[k] else sit.ground
        return LAYER_TAKEN if taken[c] >= 0 else LEGAL
    if kind == MOVE or kind == ATTACK:
        why = unit_reason(S, g, a, cur)
        if why != LEGAL:
            return why
        k, lv = S.kind[g, a], S.level[g, a] - 1
        if kind == MOVE:
            board_bits(S, R, g, cur, sit.bits)
            m = reach(R, sit.bits, 1 if R.flying[k] else 0, np.int64(R.move[k, lv]), np.int64(S.cell[g, a]),
                      sit.move_cells)
            for i in range(m):
                if sit.move_cells[i] == c:
                    return LEGAL
            return NO_PATH
        attack_now(S, R, g, sit.atk)
        if not may_attack(S.alive[g, a], S.ready[g, a], S.side[g, a], cur, sit.atk[a]):
            return NO_ATTACK
        lo, hi = R.range_min[k, lv], R.range_max[k, lv]
        if b == TARGET_MIRACLE:
            return LEGAL if lo <= R.miracle_distance[1 - cur, S.cell[g, a]] <= hi else MIRACLE_OUT_OF_RANGE
        if b < 0 or b >= units or not S.alive[g, b]:
            return NOT_AN_ACTION
        if S.side[g, b] == cur:
            return FRIENDLY_TARGET
        flies = R.flying[S.kind[g, b]]
        if flies and not hits_air(R, k):
            return TARGET_FLIES
        return LEGAL if can_hit(lo, hi, hits_air(R, k), flies, R.distance[S.cell[g, a], S.cell[g, b]]) \
            else OUT_OF_RANGE
    if kind == USE:
        art = S.deck_artifact[g, cur]
        if S.artifact_state[g, cur] != READY:
            return ARTIFACT_IN_USE if S.artifact_state[g, cur] == IN_USE else ARTIFACT_COOLING
        if not artifact_usable(S, R, g, cur):
            return ARTIFACT_TOO_DEAR
        effect = R.artifact_effect[art]
        if effect == SALAMANDER_SHIELD:
            if b < 0 or b >= units or not S.alive[g, b]:
                return NOT_AN_ACTION
            return LEGAL if S.side[g, b] == cur else SHIELD_ON_ENEMY
        if effect == INFERNO_FLAME:
            if c < 0 or c >= R.distance.shape[0]:
                return NOT_AN_ACTION
            inferno_targets(S, R, g, cur, sit.ground, sit.target)
            return LEGAL if sit.target[c] else BAD_INFERNO_CELL
        return LEGAL
    return NOT_AN_ACTION


@numba.njit(cache=True)
def reasons(state, rules, scratch, kind, a, b, c, out):
    """``out[g]``: why each game's engine action ``(kind[g], a[g], b[g], c[g])`` is illegal
    (:func:`reason_one`; ``LEGAL``, 0, when it is legal)."""
    S, R, sit = KStateRef(*state), KRulesRef(*rules), KSitRef(*scratch)
    for g in range(S.turn.shape[0]):
        out[g] = reason_one(S, R, g, kind[g], a[g], b[g], c[g], sit)


@numba.njit(cache=True)
def attacks_now(state, rules, out):
    """``out[g, u]``: the current attack of every slot of every game of ``state`` (:func:`attack_now`)."""
    S, R = KStateRef(*state), KRulesRef(*rules)
    for g in range(S.turn.shape[0]):
        attack_now(S, R, g, out[g])


@numba.njit(cache=True)
def spawn_masks(state, rules, scratch, out):
    """``out[g, c]``: cell ``c`` is a spawn point of the side to act in game ``g`` (its own, or of a
    garrison it owns)."""
    S, R, sit = KStateRef(*state), KRulesRef(*rules), KSitRef(*scratch)
    for g in range(S.turn.shape[0]):
        n = spawn_points(R.spawn_cells, R.spawn_count, S.garrison_owner[g], np.int64(S.current[g]), sit.spawn_cells)
        for i in range(n):
            out[g, sit.spawn_cells[i]] = True
