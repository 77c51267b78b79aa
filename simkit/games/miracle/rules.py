"""The rules of Battle of Miracles as functions over a whole batch of games.

Every function takes the fixed :class:`Rules` and a batched :class:`State`; branching is by
masks over games and units, never a Python loop over games. ``step`` applies one action per
game (the caller guarantees legality, e.g. by choosing from the ``*_mask`` functions);
``simkit.games.miracle.match.Match`` checks single actions and explains illegal ones.

Action batches are :class:`Actions`: ``kind`` (END_TURN, SUMMON, MOVE, ATTACK, USE, PASS) and
three operands whose meaning depends on it:

=========  ==================  =========================  ============
kind       a                   b                          c
=========  ==================  =========================  ============
SUMMON     deck slot 0..2      level 1..3                 cell
MOVE       unit slot           -                          cell
ATTACK     unit slot           target slot, -1 miracle    -
USE        -                   target slot (shield)       target cell
=========  ==================  =========================  ============
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from simkit.games.miracle.cards import HOLY_LIGHT, INFERNO_FLAME, SALAMANDER_SHIELD, WIND_BLESSING
from simkit.games.miracle.reach import reachable
from simkit.games.miracle.state import (
    COOLING,
    DRAW,
    FIRST,
    IN_USE,
    MIRACLE,
    READY,
    SECOND,
    TURN_LIMIT,
    State,
    empty_state,
)
from simkit.games.miracle.tables import Rules

END_TURN, SUMMON, MOVE, ATTACK, USE, PASS = range(6)
ACTION_NAMES = ("end_turn", "summon", "move", "attack", "use", "pass")
TARGET_MIRACLE = -1


class Actions(NamedTuple):
    """One action per game: ``int[B]`` arrays (see the module docstring for the operands)."""

    kind: np.ndarray
    a: np.ndarray
    b: np.ndarray
    c: np.ndarray

    @classmethod
    def of(cls, kind, a=0, b=0, c=0, batch: int = 1) -> Actions:
        """Broadcast scalars or arrays to a batch of actions."""
        return cls(*(np.broadcast_to(np.asarray(v, dtype=np.int32), (batch,)).copy() for v in (kind, a, b, c)))


# ----------------------------------------------------------------------------------------------
# derived views of the state


def _rows(st: State, rows):
    return np.arange(st.batch) if rows is None else rows


def unit_flying(rules: Rules, st: State) -> np.ndarray:
    """``bool[B, U]`` the unit in each slot flies."""
    return rules.cards.flying[st.kind]


def occupancy(rules: Rules, st: State) -> tuple[np.ndarray, np.ndarray]:
    """``(ground, flying)``: ``int[B, C]`` slot of the unit on each cell and layer, -1 if none."""
    b, c = st.batch, rules.board.grid.size
    fly = unit_flying(rules, st)
    rows = np.arange(b)[:, None]
    slots = np.arange(st.alive.shape[1])
    out = []
    for layer in (False, True):
        occ = np.full((b, c + 1), -1, np.int32)
        occ[rows, np.where(st.alive & (fly == layer), st.cell, c)] = slots
        out.append(occ[:, :c])
    return out[0], out[1]


def cell_distance(rules: Rules, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Hex distance between cell indices ``a`` and ``b`` (broadcast), from cube coordinates."""
    cells = rules.board.grid.cells
    dx = cells[a, 0] - cells[b, 0]
    dy = cells[a, 1] - cells[b, 1]
    return (np.abs(dx) + np.abs(dy) + np.abs(dx + dy)) >> 1


def pair_distance(rules: Rules, st: State) -> np.ndarray:
    """``int16[B, U, U]`` distance between the cells of every two unit slots."""
    return cell_distance(rules, st.cell[:, :, None], st.cell[:, None, :])


def attack_now(rules: Rules, st: State, dist: np.ndarray | None = None) -> np.ndarray:
    """``int[B, U]`` current attack: base + auras of other friendly priests + HolyLight bonus."""
    cards = rules.cards
    lv = st.level - 1
    base = cards.attack[st.kind, lv].astype(np.int32)
    aura = np.where(st.alive, cards.aura[st.kind, lv], 0)  # (B, U) aura each slot gives
    if aura.any():
        dist = pair_distance(rules, st) if dist is None else dist
        reach = cards.aura_range[st.kind, lv]
        gives = (
            (aura[:, None, :] > 0)
            & (dist <= reach[:, None, :])
            & (st.side[:, :, None] == st.side[:, None, :])
            & ~np.eye(st.alive.shape[1], dtype=bool)
        )
        base = base + (gives * aura[:, None, :]).sum(-1)
    bonus = rules.cards.effect.get("HolyLight", {}).get("attack", 0)
    base = base + np.where(st.buff > 0, bonus, 0)
    return np.where(st.alive, base, 0)


def hits_air(rules: Rules, kind: np.ndarray) -> np.ndarray:
    """Units of ``kind`` may attack flying units (they fly or are anti-air)."""
    return rules.cards.flying[kind] | rules.cards.anti_air[kind]


# ----------------------------------------------------------------------------------------------
# legal-action masks


def _side_slots(rules: Rules, side: np.ndarray) -> np.ndarray:
    """``int[B, side_units]`` the slots of ``side`` in each game."""
    return side[:, None].astype(np.int32) * rules.side_units + np.arange(rules.side_units)


def spawn_cells(rules: Rules, st: State, side: np.ndarray | None = None) -> np.ndarray:
    """``bool[B, C]`` the spawn points of ``side`` (default: the current player): its own and its garrisons'."""
    side = st.current if side is None else side
    own = rules.board.spawn[side]
    owned = st.garrison_owner == side[:, None]  # (B, G)
    return own | (owned[:, :, None] & rules.board.garrison_spawn[None]).any(1)


def summon_mask(rules: Rules, st: State) -> np.ndarray:
    """``bool[B, 3, 3, C]`` legal summons by deck slot, level (index 0..2) and cell."""
    cards = rules.cards
    b = np.arange(st.batch)
    cur = st.current
    kinds = st.deck_kind[b, cur]  # (B, 3)
    ground, flying = occupancy(rules, st)
    free = np.stack([ground < 0, flying < 0], 1)  # (B, layer, C)
    layer_free = free[b[:, None], cards.flying[kinds].astype(np.int8)]  # (B, 3, C)
    spawn = spawn_cells(rules, st)
    ok_unit = (st.available[b, cur] > 0)[:, :, None] & (cards.cost[kinds] <= st.mana[b, cur][:, None, None])
    ok_unit &= ~st.over[:, None, None]
    return ok_unit[:, :, :, None] & (layer_free & spawn[:, None, :])[:, :, None, :]


def move_mask(rules: Rules, st: State) -> np.ndarray:
    """``bool[B, U, C]`` cells each unit may move to now (only the current player's ready units).

    Ground units never enter ground units, abyss or miracles and stop on entering a cell next to
    an enemy ground unit or under an enemy flying unit; flying units never enter flying units and
    stop next to an enemy flying unit or over an enemy ground unit. The start never stops a unit.
    Computed on row bitboards (``reach.reachable``).
    """
    out = np.zeros((st.batch, st.alive.shape[1], rules.board.grid.size), bool)
    games, slots, bits = reachable(rules, st)
    out[games, slots] = rules.board.bits.to_mask(bits)
    return out


def attack_mask(rules: Rules, st: State, atk: np.ndarray | None = None) -> np.ndarray:
    """``bool[B, U, U + 1]`` legal attacks by attacker slot and target slot (last column: the enemy miracle)."""
    cards = rules.cards
    atk = attack_now(rules, st) if atk is None else atk
    lv = st.level - 1
    lo, hi = cards.range_min[st.kind, lv], cards.range_max[st.kind, lv]
    attacker = st.alive & st.ready & (atk > 0) & (st.side == st.current[:, None]) & ~st.over[:, None]
    dist = pair_distance(rules, st)
    in_range = (dist >= lo[:, :, None]) & (dist <= hi[:, :, None])
    enemy = st.side[:, :, None] != st.side[:, None, :]
    reachable_layer = ~unit_flying(rules, st)[:, None, :] | hits_air(rules, st.kind)[:, :, None]
    units = attacker[:, :, None] & in_range & enemy & st.alive[:, None, :] & reachable_layer
    md = rules.board.miracle_distance[1 - st.current[:, None], st.cell]  # (B, U)
    miracle = attacker & (md >= lo) & (md <= hi)
    return np.concatenate([units, miracle[:, :, None]], -1)


def artifact_ready(rules: Rules, st: State) -> np.ndarray:
    """``bool[B]`` the current player's artifact is ready and affordable."""
    b = np.arange(st.batch)
    art = st.deck_artifact[b, st.current]
    affordable = rules.cards.artifact_cost[art] <= st.mana[b, st.current]
    return (st.artifact_state[b, st.current] == READY) & affordable & ~st.over


def use_mask(rules: Rules, st: State) -> tuple[np.ndarray, np.ndarray]:
    """``(cells bool[B, C], units bool[B, U])``: legal targets of the current player's artifact."""
    cards, board = rules.cards, rules.board
    b = np.arange(st.batch)
    effect = cards.artifact_effect[st.deck_artifact[b, st.current]]
    ok = artifact_ready(rules, st)
    c = board.grid.size
    cells = np.zeros((st.batch, c), bool)
    anywhere = ok & ((effect == HOLY_LIGHT) | (effect == WIND_BLESSING))
    cells[anywhere] = True
    inferno = ok & (effect == INFERNO_FLAME)
    if inferno.any():
        e = cards.effect["InfernoFlame"]
        ground, _ = occupancy(rules, st)
        near_miracle = board.miracle_distance[st.current] <= e["miracle_range"]
        gdist = board.grid.distance[board.garrisons]  # (G, C)
        owned = st.garrison_owner == st.current[:, None]
        near_garrison = (owned[:, :, None] & (gdist <= e["garrison_range"])[None]).any(1)
        target = ~board.abyss & (ground < 0) & (near_miracle | near_garrison)
        cells[inferno] = target[inferno]
    shield = ok & (effect == SALAMANDER_SHIELD)
    units = shield[:, None] & st.alive & (st.side == st.current[:, None])
    return cells, units


# ----------------------------------------------------------------------------------------------
# applying actions


def _hit(st: State, b: np.ndarray, u: np.ndarray, dmg: np.ndarray) -> None:
    """Deal ``dmg`` to units ``(b, u)`` (no pair twice); a holy shield cancels a non-zero hit."""
    dmg = np.broadcast_to(dmg, b.shape)
    shielded = st.shield[b, u] & (dmg > 0)
    st.shield[b[shielded], u[shielded]] = False
    take = (dmg > 0) & ~shielded
    st.hp[b[take], u[take]] -= dmg[take].astype(np.int16)


def _recycle(rules: Rules, st: State, b: np.ndarray, side: np.ndarray) -> None:
    """Send the artifacts of ``side`` in games ``b`` to cooling (ready at once if cooldown is 0)."""
    cd = rules.cards.artifact_cooldown[st.deck_artifact[b, side]]
    st.artifact_cooldown[b, side] = cd
    st.artifact_state[b, side] = np.where(cd > 0, COOLING, READY)


def _place_unit(rules: Rules, st: State, b, side, kind, level, deck_slot, cell) -> np.ndarray:
    """Put a new unit with full HP, not ready, in the first free slot of ``side``; returns the slots."""
    slots = _side_slots(rules, side)
    free = ~st.alive[b[:, None], slots]
    u = slots[np.arange(len(b)), np.argmax(free, 1)]
    hp = rules.cards.hp[kind, level - 1]
    for name, value in (
        ("alive", True), ("kind", kind), ("level", level), ("deck_slot", deck_slot), ("cell", cell),
        ("hp", hp), ("max_hp", hp), ("ready", False), ("shield", False), ("equipped", False), ("buff", 0),
        ("uid", st.next_uid[b]),
    ):
        getattr(st, name)[b, u] = value
    st.next_uid[b] += 1
    return u


def _summon(rules: Rules, st: State, b: np.ndarray, act: Actions) -> None:
    cur = st.current[b]
    slot, level, cell = act.a[b], act.b[b], act.c[b]
    kind = st.deck_kind[b, cur, slot]
    st.mana[b, cur] -= rules.cards.cost[kind, level - 1]
    st.available[b, cur, slot] -= 1
    _place_unit(rules, st, b, cur, kind, level, slot, cell)


def _move(st: State, b: np.ndarray, act: Actions) -> None:
    st.cell[b, act.a[b]] = act.c[b]
    st.ready[b, act.a[b]] = False


def _attack(rules: Rules, st: State, b: np.ndarray, act: Actions) -> None:
    cards = rules.cards
    u, t = act.a[b], act.b[b]
    sub = st.take(b)
    atk = attack_now(rules, sub)
    n = np.arange(len(b))
    power = atk[n, u]
    st.ready[b, u] = False
    at_miracle = t == TARGET_MIRACLE
    mb = b[at_miracle]
    st.miracle_hp[mb, 1 - st.current[mb]] -= power[at_miracle].astype(np.int16)

    ub, un, uu, ut = b[~at_miracle], n[~at_miracle], u[~at_miracle], t[~at_miracle]
    _hit(st, ub, ut, power[~at_miracle])
    # counter-attack: attacker within the target's range, target attack > 0, target can reach attacker's layer
    tk, tl = st.kind[ub, ut], st.level[ub, ut] - 1
    d = rules.board.grid.distance[st.cell[ub, uu], st.cell[ub, ut]]
    counter = (
        (d >= cards.range_min[tk, tl]) & (d <= cards.range_max[tk, tl]) & (atk[un, ut] > 0)
        & (~cards.flying[st.kind[ub, uu]] | hits_air(rules, tk))
    )
    _hit(st, ub[counter], uu[counter], atk[un[counter], ut[counter]])
    # splash: enemy ground units at distance 1 from a ground target and 2 from the attacker
    ak, al = st.kind[ub, uu], st.level[ub, uu] - 1
    splash = cards.splash[ak, al]
    sp = (splash > 0) & ~cards.flying[tk]
    if sp.any():
        sb, su, stt = ub[sp], uu[sp], ut[sp]
        grid = rules.board.grid
        cells = st.cell[sb]
        victims = (
            st.alive[sb] & (st.side[sb] != st.current[sb][:, None]) & ~cards.flying[st.kind[sb]]
            & (grid.distance[cells, st.cell[sb, stt][:, None]] == 1)
            & (grid.distance[cells, st.cell[sb, su][:, None]] == 2)
        )
        vb, vu = np.nonzero(victims)
        _hit(st, sb[vb], vu, splash[sp][vb])


def _use(rules: Rules, st: State, b: np.ndarray, act: Actions) -> None:
    cards, grid = rules.cards, rules.board.grid
    cur = st.current[b]
    art = st.deck_artifact[b, cur]
    effect = cards.artifact_effect[art]
    st.mana[b, cur] -= cards.artifact_cost[art]
    cell = act.c[b]
    near = grid.distance[st.cell[b], cell[:, None]]  # (n, U)
    friendly = st.alive[b] & (st.side[b] == cur[:, None])

    m = effect == HOLY_LIGHT
    if m.any():
        e = cards.effect["HolyLight"]
        hb, hu = np.nonzero(friendly[m] & (near[m] <= e["radius"]))
        rows = b[m][hb]
        st.hp[rows, hu] = st.max_hp[rows, hu]
        st.buff[rows, hu] = e["duration"]
        _recycle(rules, st, b[m], cur[m])
    m = effect == WIND_BLESSING
    if m.any():
        hb, hu = np.nonzero(friendly[m] & (near[m] <= cards.effect["WindBlessing"]["radius"]))
        st.ready[b[m][hb], hu] = True
        _recycle(rules, st, b[m], cur[m])
    m = effect == SALAMANDER_SHIELD
    if m.any():
        rows, u = b[m], act.b[b][m]
        bonus = cards.effect["SalamanderShield"]["hp"]
        st.max_hp[rows, u] += bonus
        st.hp[rows, u] += bonus
        st.shield[rows, u] = True
        st.equipped[rows, u] = True
        st.artifact_state[rows, cur[m]] = IN_USE
    m = effect == INFERNO_FLAME
    if m.any():
        e = cards.effect["InfernoFlame"]
        enemy = st.alive[b[m]] & (st.side[b[m]] != cur[m][:, None]) & (near[m] <= e["radius"])
        hb, hu = np.nonzero(enemy)
        _hit(st, b[m][hb], hu, np.full(len(hb), e["damage"]))
        rows = b[m]
        _place_unit(rules, st, rows, cur[m], np.full(len(rows), cards.inferno), np.ones(len(rows), np.int8),
                    np.full(len(rows), -1), cell[m])
        st.artifact_state[rows, cur[m]] = IN_USE


def resolve_deaths(rules: Rules, st: State) -> None:
    """Remove every unit at HP <= 0: its slot cools, its owner's dead stars grow, a bound artifact is recycled."""
    cards = rules.cards
    b, u = np.nonzero(st.alive & (st.hp <= 0))
    if len(b) == 0:
        return
    side, kind, lv, slot = st.side[b, u], st.kind[b, u], st.level[b, u] - 1, st.deck_slot[b, u]
    np.add.at(st.dead_stars, (b, side), cards.stars[kind, lv])
    creature = slot >= 0
    cd = cards.cooldown[kind, lv]
    cool = creature & (cd > 0)
    np.add.at(st.cooling, (b[cool], side[cool], slot[cool], cd[cool]), 1)
    back = creature & (cd == 0)
    np.add.at(st.available, (b[back], side[back], slot[back]), 1)
    bound = st.equipped[b, u] | (kind == cards.inferno)
    _recycle(rules, st, b[bound], side[bound])
    st.alive[b, u] = False
    st.ready[b, u] = st.shield[b, u] = st.equipped[b, u] = False
    st.buff[b, u] = 0


def decide_winner(rules: Rules, st: State, b: np.ndarray) -> np.ndarray:
    """``int8[n]`` winner of games ``b``: more miracle HP, then fewer dead stars, then ``full_tie``."""
    hp, stars = st.miracle_hp[b], st.dead_stars[b]
    tie = SECOND if rules.full_tie == "second" else DRAW
    by_stars = np.where(stars[:, 0] < stars[:, 1], FIRST, np.where(stars[:, 1] < stars[:, 0], SECOND, tie))
    return np.where(hp[:, 0] > hp[:, 1], FIRST, np.where(hp[:, 1] > hp[:, 0], SECOND, by_stars)).astype(np.int8)


def _check_miracles(rules: Rules, st: State, b: np.ndarray) -> None:
    fallen = b[(st.miracle_hp[b] <= 0).any(1)]
    st.over[fallen] = True
    st.end_reason[fallen] = MIRACLE
    st.winner[fallen] = decide_winner(rules, st, fallen)


def turn_start(rules: Rules, st: State, b: np.ndarray) -> None:
    """Turn start of the current player in games ``b``: mana, garrisons, shields, cooldowns, unit steps, ready."""
    cards = rules.cards
    cur = st.current[b]
    grow = (st.turn[b] % rules.mana_period) == np.array(rules.mana_phase)[cur]
    st.max_mana[b, cur] = np.minimum(st.max_mana[b, cur] + grow, rules.max_mana_cap)
    st.mana[b, cur] = st.max_mana[b, cur]
    # garrisons: a ground unit standing on one claims it for its side
    ground, _ = occupancy(rules, st.take(b))
    on = ground[:, rules.board.garrisons]  # (n, G)
    holder = np.take_along_axis(st.side[b], np.maximum(on, 0), 1)
    st.garrison_owner[b] = np.where(on >= 0, holder, st.garrison_owner[b])
    # turn-start effects: the SalamanderShield's holy shield returns
    mine = st.alive[b] & (st.side[b] == cur[:, None])
    st.shield[b] |= mine & st.equipped[b]
    # cooldown phase
    cool = st.cooling[b, cur]  # (n, 3, R)
    st.available[b, cur] += cool[:, :, 1]
    shifted = np.zeros_like(cool)
    shifted[:, :, 1:-1] = cool[:, :, 2:]
    st.cooling[b, cur] = shifted
    cooling = st.artifact_state[b, cur] == COOLING
    left = st.artifact_cooldown[b, cur] - cooling
    st.artifact_cooldown[b, cur] = left
    st.artifact_state[b, cur] = np.where(cooling & (left <= 0), READY, st.artifact_state[b, cur])
    # unit count steps
    for i, t in enumerate(rules.unit_steps):
        rows = b[st.turn[b] == t]
        if len(rows):
            kinds = st.deck_kind[rows]
            st.available[rows] += cards.units[kinds, i + 1] - cards.units[kinds, i]
    st.ready[b] = mine


def _end_turn(rules: Rules, st: State, b: np.ndarray) -> None:
    cards = rules.cards
    cur = st.current[b]
    sub = st.take(b)
    lv = sub.level - 1
    heal = np.where(sub.alive & (sub.side == cur[:, None]), cards.heal[sub.kind, lv], 0)
    if heal.any():
        dist = pair_distance(rules, sub)
        gets = (heal[:, None, :] > 0) & (dist <= cards.heal_range[sub.kind, lv][:, None, :])
        gets &= sub.alive[:, :, None] & (sub.side == cur[:, None])[:, :, None]
        amount = (gets * heal[:, None, :]).sum(-1)
        st.hp[b] = np.minimum(sub.hp + amount, sub.max_hp).astype(np.int16)
    st.buff[b] = np.maximum(st.buff[b] - 1, 0)
    last = st.turn[b] >= rules.turn_limit
    done = b[last]
    st.over[done] = True
    st.end_reason[done] = TURN_LIMIT
    st.winner[done] = decide_winner(rules, st, done)
    go = b[~last]
    st.turn[go] += 1
    st.current[go] = 1 - st.current[go]
    turn_start(rules, st, go)


def step(rules: Rules, st: State, act: Actions) -> None:
    """Apply one legal action per game, in place, then resolve deaths and the end of the game.

    Games that are over, or whose action is PASS, are left untouched.
    """
    live = ~st.over
    for kind, apply in ((SUMMON, _summon), (ATTACK, _attack), (USE, _use)):
        b = np.nonzero(live & (act.kind == kind))[0]
        if len(b):
            apply(rules, st, b, act)
    b = np.nonzero(live & (act.kind == MOVE))[0]
    if len(b):
        _move(st, b, act)
    acted = np.nonzero(live & (act.kind != END_TURN) & (act.kind != PASS))[0]
    if len(acted):
        resolve_deaths(rules, st)
        _check_miracles(rules, st, acted)
    b = np.nonzero(live & (act.kind == END_TURN))[0]
    if len(b):
        _end_turn(rules, st, b)


def new_games(rules: Rules, deck_artifact: np.ndarray, deck_kind: np.ndarray) -> State:
    """B games at the start of turn 1 (the first player's turn start already done)."""
    st = empty_state(rules, deck_artifact, deck_kind)
    turn_start(rules, st, np.arange(st.batch))
    return st
