"""Battle of Miracles' own invariants for ``simkit check``: artifact effects, garrisons, legal targets.

The generic suite (:mod:`simkit.games.miracle.checking.invariants`) states the turn, mana, combat and death
rules; this module adds the clauses a sweep's engine got wrong without the suite noticing:

* what each artifact does to whom, and for how long (transition invariant ``artifact_effects``);
* who owns each garrison after a turn start (``garrisons_follow_ground_units``);
* which summon cells, attack targets and artifact targets are legal
  (``legal_targets_follow_the_rules``), recomputed from the rules page's cube distances and
  compared with the engine's own masks (which ``Match.legal_actions`` lists);
* which cells each unit may move to (``moves_follow_the_page``): paths over the page's six neighbour
  offsets, layers blocking, stops next to enemies;
* what a death does to its slot and a bound artifact (``deaths_follow_the_page``), and what a summon,
  a move or an attack leaves alone (``actions_touch_only_their_units``).

Like the generic ones they work on whole batches with masks, take their numbers from the
scenario's ``Rules`` and recompute the expected values from the rules text, never from the
engine's helpers (a distance here is ``(|dx| + |dy| + |dz|) / 2`` of the cube coordinates).
:mod:`simkit.games.miracle.checking.hooks` hands them to the checker.
"""

from __future__ import annotations

import numpy as np

from simkit.games.miracle import rules as R
from simkit.games.miracle.cards import HOLY_LIGHT, INFERNO_FLAME, SALAMANDER_SHIELD, WIND_BLESSING
from simkit.games.miracle.checking.invariants import SIDES, Found, Invariant, current_attack, describe_unit
from simkit.games.miracle.rules import ATTACK, END_TURN, MOVE, SUMMON, USE, Actions
from simkit.games.miracle.state import COOLING, IN_USE, READY, State
from simkit.games.miracle.tables import Rules

STATE_INVARIANTS: list[Invariant] = []
TRANSITION_INVARIANTS: list[Invariant] = []


def _register(registry: list[Invariant], name: str, statement: str):
    def add(check):
        registry.append(Invariant(name, statement, check))
        return check

    return add


# ----------------------------------------------------------------------------------------------
# geometry from the rules page


def cube(rules: Rules) -> np.ndarray:
    """``int64[C, 3]`` cube coordinates of every board cell."""
    return rules.board.grid.cells.astype(np.int64)


def hex_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``(|dx| + |dy| + |dz|) / 2`` of cube coordinates ``a`` and ``b`` (``[..., 3]``, broadcast)."""
    return np.abs(a - b).sum(-1) // 2


#: The six neighbour offsets of the rules page, section 1.
NEIGHBOUR_OFFSETS = ((1, -1, 0), (1, 0, -1), (0, 1, -1), (-1, 1, 0), (-1, 0, 1), (0, -1, 1))
_NEIGHBOURS: dict[int, np.ndarray] = {}


def neighbours(rules: Rules) -> np.ndarray:
    """``int64[C, 6]`` the board cell at each of the page's six offsets of every cell, ``C`` (a padding
    index) where there is none (off the bounds, a miracle, a cell behind it)."""
    key = id(rules.board)
    if key not in _NEIGHBOURS:
        xyz = cube(rules)
        index = {tuple(c): i for i, c in enumerate(xyz.tolist())}
        c = len(xyz)
        _NEIGHBOURS[key] = np.array([[index.get((x + dx, y + dy, z + dz), c) for dx, dy, dz in NEIGHBOUR_OFFSETS]
                                     for x, y, z in xyz.tolist()], np.int64)
    return _NEIGHBOURS[key]


def unit_cube(rules: Rules, st: State) -> np.ndarray:
    """``int64[B, U, 3]`` the cube coordinates of each slot's cell (dead slots: any cell)."""
    return cube(rules)[np.clip(st.cell, 0, rules.board.grid.size - 1)]


def ground_on_cells(rules: Rules, st: State) -> np.ndarray:
    """``bool[B, C]`` a live ground unit stands on each cell."""
    ground = st.alive & ~rules.cards.flying[st.kind]
    out = np.zeros((st.batch, rules.board.grid.size), bool)
    b, u = np.nonzero(ground)
    out[b, st.cell[b, u]] = True
    return out


def flying_on_cells(rules: Rules, st: State) -> np.ndarray:
    """``bool[B, C]`` a live flying unit is over each cell."""
    flying = st.alive & rules.cards.flying[st.kind]
    out = np.zeros((st.batch, rules.board.grid.size), bool)
    b, u = np.nonzero(flying)
    out[b, st.cell[b, u]] = True
    return out


def _same_unit(before: State, after: State) -> np.ndarray:
    return before.alive & after.alive & (after.uid == before.uid)


def _cells(rules: Rules, mask: np.ndarray, most: int = 4) -> str:
    cells = [rules.board.grid.cell(int(c)) for c in np.nonzero(mask)[0][:most]]
    more = int(mask.sum()) - len(cells)
    return ", ".join(map(str, cells)) + (f" and {more} more" if more > 0 else "")


# ----------------------------------------------------------------------------------------------
# garrisons


def garrison_holders(rules: Rules, st: State) -> np.ndarray:
    """``int[B, G]`` side of the ground unit standing on each garrison, -1 if none."""
    garrisons = cube(rules)[rules.board.garrisons]  # (G, 3)
    on = (
        st.alive[:, :, None] & ~rules.cards.flying[st.kind][:, :, None]
        & (hex_distance(unit_cube(rules, st)[:, :, None, :], garrisons[None, None]) == 0)
    )  # (B, U, G)
    return np.where(on.any(1), (on * st.side[:, :, None]).max(1), -1)


@_register(
    TRANSITION_INVARIANTS,
    "garrisons_follow_ground_units",
    "at each turn start every garrison with a ground unit on it becomes that unit's side's, whichever side "
    "is to act; otherwise (and within a turn) ownership never changes",
)
def _garrisons(rules: Rules, before: State, act: Actions, after: State) -> Found:
    start = (act.kind == END_TURN) & (before.turn < rules.turn_limit) & ~before.over
    holder = garrison_holders(rules, after)
    want = np.where(start[:, None] & (holder >= 0), holder, before.garrison_owner)
    for g in np.nonzero((after.garrison_owner != want).any(1))[0]:
        where = "at the start of turn " + str(after.turn[g]) if start[g] else "within turn " + str(before.turn[g])
        yield g, (
            f"{where}: garrison owners {before.garrison_owner[g].tolist()} -> {after.garrison_owner[g].tolist()}, "
            f"ground units on them belong to {holder[g].tolist()} (-1: none), expected {want[g].tolist()}"
        )


# ----------------------------------------------------------------------------------------------
# artifacts


@_register(
    TRANSITION_INVARIANTS,
    "artifact_effects",
    "HolyLight heals friendly units within its radius to max HP and gives them its bonus for its duration; "
    "WindBlessing lets friendly units within its radius act again; SalamanderShield gives its target its HP and "
    "a holy shield; InfernoFlame deals its damage to enemy units within its radius and raises an Inferno; nobody "
    "else is touched, and the artifact is recycled (HolyLight, WindBlessing) or in use (the others)",
)
def _artifact_effects(rules: Rules, before: State, act: Actions, after: State) -> Found:
    rows = np.nonzero((act.kind == USE) & ~before.over)[0]
    if len(rows) == 0:
        return
    cards = rules.cards
    bf, af = before.take(rows), after.take(rows)
    n = np.arange(len(rows))
    cur = bf.current
    art = bf.deck_artifact[n, cur]
    effect = cards.artifact_effect[art]
    e = cards.effect
    target_unit = act.b[rows]
    target = cube(rules)[np.clip(act.c[rows], 0, rules.board.grid.size - 1)]
    near = hex_distance(unit_cube(rules, bf), target[:, None, :])  # (n, U)
    friendly = bf.alive & (bf.side == cur[:, None])
    enemy = bf.alive & (bf.side != cur[:, None])

    hp, max_hp, buff = bf.hp.astype(np.int64), bf.max_hp.astype(np.int64), bf.buff.astype(np.int64)
    ready, shield, equipped = bf.ready.copy(), bf.shield.copy(), bf.equipped.copy()
    if (effect == HOLY_LIGHT).any():
        h = e["HolyLight"]
        inside = (effect == HOLY_LIGHT)[:, None] & friendly & (near <= h["radius"])
        hp = np.where(inside, max_hp, hp)
        buff = np.where(inside, h["duration"], buff)
    if (effect == WIND_BLESSING).any():
        ready |= (effect == WIND_BLESSING)[:, None] & friendly & (near <= e["WindBlessing"]["radius"])
    shielded = effect == SALAMANDER_SHIELD
    if shielded.any():
        s, t = n[shielded], target_unit[shielded]
        bonus = e["SalamanderShield"]["hp"]
        max_hp[s, t] += bonus
        hp[s, t] += bonus
        shield[s, t] = equipped[s, t] = True
    inferno = effect == INFERNO_FLAME
    if inferno.any():
        f = e["InfernoFlame"]
        burnt = inferno[:, None] & enemy & (near <= f["radius"]) & (f["damage"] > 0)
        hp = np.where(burnt & ~shield, hp - f["damage"], hp)
        shield = shield & ~burnt
    should_stay = bf.alive & (hp > 0)
    stays = _same_unit(bf, af)
    bad_unit = bf.alive & (
        (stays != should_stay)
        | (stays & (
            (af.hp != hp) | (af.max_hp != max_hp) | (af.buff != buff) | (af.ready != ready)
            | (af.shield != shield) | (af.equipped != equipped) | (af.cell != bf.cell)
        ))
    )
    # new units: one Inferno for InfernoFlame on the target cell, none otherwise
    new = af.alive & ~_same_unit(bf, af)
    count = new.sum(1)
    u = np.argmax(new, 1)
    inf = cards.inferno
    good_inferno = (
        (count == 1) & (af.kind[n, u] == inf) & (af.level[n, u] == 1) & (af.side[n, u] == cur)
        & (af.cell[n, u] == act.c[rows]) & (af.hp[n, u] == cards.hp[inf, 0]) & (af.max_hp[n, u] == cards.hp[inf, 0])
        & ~af.ready[n, u] & ~af.shield[n, u] & ~af.equipped[n, u] & (af.buff[n, u] == 0) & (af.deck_slot[n, u] < 0)
    )
    bad_new = np.where(inferno, ~good_inferno, count != 0)
    # the artifact: recycled at once, or in use while its bearer or Inferno lives
    cd = cards.artifact_cooldown[art]
    recycled = (effect == HOLY_LIGHT) | (effect == WIND_BLESSING)
    want_state = np.where(recycled, np.where(cd > 0, COOLING, READY), IN_USE)
    want_cd = np.where(recycled, cd, bf.artifact_cooldown[n, cur])
    bad_art = (af.artifact_state[n, cur] != want_state) | (af.artifact_cooldown[n, cur] != want_cd)
    # the enemy's artifact: unchanged, unless the burn killed the unit it is bound to (its SalamanderShield
    # bearer or its Inferno), which sends it to cooling (ready at once with no cooldown), as any death does
    foe = 1 - cur
    bound_killed = (enemy & (bf.equipped | (bf.kind == cards.inferno)) & ~should_stay).any(1)
    foe_cd = cards.artifact_cooldown[bf.deck_artifact[n, foe]]
    foe_state = np.where(bound_killed, np.where(foe_cd > 0, COOLING, READY), bf.artifact_state[n, foe])
    foe_cool = np.where(bound_killed, foe_cd, bf.artifact_cooldown[n, foe])
    bad_art |= (af.artifact_state[n, foe] != foe_state) | (af.artifact_cooldown[n, foe] != foe_cool)
    for i in np.nonzero(bad_unit.any(1) | bad_new | bad_art)[0]:
        g = rows[i]
        name = cards.artifacts[art[i]]
        where = (f"unit {int(bf.uid[i, target_unit[i]])}" if shielded[i]
                 else str(rules.board.grid.cell(int(act.c[g]))))
        parts = [f"{SIDES[cur[i]]} player's {name} on {where}"]
        for x in np.nonzero(bad_unit[i])[0]:
            if not stays[i, x]:
                parts.append(f"{describe_unit(rules, bf, i, x)} is gone, expected HP {hp[i, x]}")
                continue
            parts.append(
                f"{describe_unit(rules, bf, i, x)} (distance {near[i, x]}): HP {bf.hp[i, x]}/{bf.max_hp[i, x]} -> "
                f"{af.hp[i, x]}/{af.max_hp[i, x]}, expected {hp[i, x]}/{max_hp[i, x]}; bonus {bf.buff[i, x]} -> "
                f"{af.buff[i, x]}, expected {buff[i, x]}; may act {bool(af.ready[i, x])}, expected {bool(ready[i, x])};"
                f" shield {bool(af.shield[i, x])}, expected {bool(shield[i, x])}"
            )
        if bad_new[i]:
            parts.append(f"{count[i]} new unit(s)" + (f", {describe_unit(rules, af, i, u[i])}" if count[i] else "")
                         + (", expected one Inferno on the target" if inferno[i] else ", expected none"))
        if bad_art[i]:
            parts.append(f"artifact state {af.artifact_state[i].tolist()} cooldown {af.artifact_cooldown[i].tolist()}"
                         f", expected {int(want_state[i])} with cooldown {int(want_cd[i])} for the user and "
                         f"{int(foe_state[i])} with cooldown {int(foe_cool[i])} for the enemy")
        yield g, "; ".join(parts)


# ----------------------------------------------------------------------------------------------
# what an action leaves alone

#: The fields of a unit no summon, move or attack changes but for the units the page names.
_UNIT_FIELDS = ("kind", "level", "side", "deck_slot", "cell", "hp", "max_hp", "ready", "shield", "equipped", "buff")


@_register(
    TRANSITION_INVARIANTS,
    "actions_touch_only_their_units",
    "a summon and a move change no unit already on the board but the mover (its cell, and it may not act again); "
    "an attack moves nobody, changes no max HP, bonus or bearer, and spends the attacker's turn only",
)
def _untouched(rules: Rules, before: State, act: Actions, after: State) -> Found:
    kind = act.kind
    rows = np.nonzero(((kind == SUMMON) | (kind == MOVE) | (kind == ATTACK)) & ~before.over)[0]
    if len(rows) == 0:
        return
    bf, af = before.take(rows), after.take(rows)
    n = np.arange(len(rows))
    k = kind[rows]
    actor = np.zeros(bf.alive.shape, bool)
    moving = (k == MOVE) | (k == ATTACK)
    actor[n[moving], act.a[rows][moving]] = True
    stays = _same_unit(bf, af)
    fields = {f: getattr(af, f) != getattr(bf, f) for f in _UNIT_FIELDS}
    changed = np.zeros(bf.alive.shape, bool)
    for f, diff in fields.items():
        if f in ("hp", "shield"):  # an attack's damage and shields: attack_damage_and_counter's
            diff = diff & (k != ATTACK)[:, None]
        if f in ("cell", "ready"):
            diff = diff & ~(actor & (k == MOVE)[:, None]) if f == "cell" else diff & ~actor
        changed |= diff
    changed |= actor & stays & af.ready  # the actor may not act again
    gone = bf.alive & ~stays & (k != ATTACK)[:, None]  # only an attack kills
    bad = stays & changed | gone
    for i in np.nonzero(bad.any(1))[0]:
        x = int(np.nonzero(bad[i])[0][0])
        which = [f for f, d in fields.items() if d[i, x]] if stays[i, x] else ["gone"]
        what = ("summon", "move", "attack")[[SUMMON, MOVE, ATTACK].index(int(k[i]))]
        yield rows[i], f"a {what} changed {describe_unit(rules, bf, i, x)}: {', '.join(which) or 'may act again'}"


# ----------------------------------------------------------------------------------------------
# deaths


@_register(
    TRANSITION_INVARIANTS,
    "deaths_follow_the_page",
    "after an action each unit that died starts its slot cooling for its level's cooldown (available at once with "
    "none), and a death of the SalamanderShield's bearer or the Inferno sends its side's artifact to cooling for "
    "its whole cooldown; nothing else cools, returns or is recycled within a turn",
)
def _deaths(rules: Rules, before: State, act: Actions, after: State) -> Found:
    rows = np.nonzero((act.kind != END_TURN) & ~before.over)[0]
    if len(rows) == 0:
        return
    cards = rules.cards
    bf, af = before.take(rows), after.take(rows)
    n = np.arange(len(rows))
    died = bf.alive & ~_same_unit(bf, af)
    want_cool = bf.cooling.astype(np.int64)
    want_avail = bf.available.astype(np.int64)
    summoned = act.kind[rows] == SUMMON
    want_avail[n[summoned], bf.current[summoned], act.a[rows][summoned]] -= 1
    g, u = np.nonzero(died & (bf.deck_slot >= 0))
    cd = cards.cooldown[bf.kind[g, u], bf.level[g, u] - 1].astype(np.int64)
    side, slot = bf.side[g, u], bf.deck_slot[g, u]
    back = cd <= 0
    np.add.at(want_avail, (g[back], side[back], slot[back]), 1)
    np.add.at(want_cool, (g[~back], side[~back], slot[~back], np.minimum(cd[~back], want_cool.shape[-1] - 1)), 1)
    bound = died & (bf.equipped | (bf.kind == cards.inferno))
    recycled = np.zeros((len(rows), 2), bool)
    g2, u2 = np.nonzero(bound)
    recycled[g2, bf.side[g2, u2]] = True
    full = cards.artifact_cooldown[bf.deck_artifact]
    want_state = np.where(recycled, np.where(full > 0, COOLING, READY), af.artifact_state)
    want_cd = np.where(recycled, full, af.artifact_cooldown)
    # an artifact used now is the artifact_effects check's; a recycle by a death is this one's
    bad = (
        (af.cooling != want_cool).any((1, 2, 3)) | (af.available != want_avail).any((1, 2))
        | (recycled & ((af.artifact_state != want_state) | (af.artifact_cooldown != want_cd))).any(1)
    )
    for i in np.nonzero(bad)[0]:
        dead = [describe_unit(rules, bf, i, x) for x in np.nonzero(died[i])[0]]
        yield rows[i], (
            f"after {', '.join(dead) or 'no death'}: cooling {bf.cooling[i].tolist()} -> {af.cooling[i].tolist()}, "
            f"expected {want_cool[i].tolist()}; available {bf.available[i].tolist()} -> {af.available[i].tolist()}, "
            f"expected {want_avail[i].tolist()}; artifacts {af.artifact_state[i].tolist()} cooldown "
            f"{af.artifact_cooldown[i].tolist()}"
        )


# ----------------------------------------------------------------------------------------------
# legal targets, independent of the engine's masks


def expected_use_targets(rules: Rules, st: State) -> tuple[np.ndarray, np.ndarray]:
    """``(cells bool[B, C], units bool[B, U])`` the artifact targets the rules page allows the side to act."""
    cards, board = rules.cards, rules.board
    b = np.arange(st.batch)
    cur = st.current
    art = st.deck_artifact[b, cur]
    effect = cards.artifact_effect[art]
    ok = (st.artifact_state[b, cur] == READY) & (cards.artifact_cost[art] <= st.mana[b, cur]) & ~st.over
    c = board.grid.size
    cells = np.zeros((st.batch, c), bool)
    cells[ok & ((effect == HOLY_LIGHT) | (effect == WIND_BLESSING))] = True
    inferno = ok & (effect == INFERNO_FLAME)
    if inferno.any():
        f = cards.effect["InfernoFlame"]
        xyz = cube(rules)
        miracle = np.array(board.miracles, np.int64)[cur]  # (B, 3)
        near_miracle = hex_distance(xyz[None], miracle[:, None]) <= f["miracle_range"]
        garrisons = xyz[board.garrisons]  # (G, 3)
        owned = st.garrison_owner == cur[:, None]  # (B, G)
        near_garrison = (owned[:, :, None] & (hex_distance(xyz[None], garrisons[:, None]) <= f["garrison_range"])[None])
        target = ~board.abyss[None] & ~ground_on_cells(rules, st) & (near_miracle | near_garrison.any(1))
        cells[inferno] = target[inferno]
    units = (ok & (effect == SALAMANDER_SHIELD))[:, None] & st.alive & (st.side == cur[:, None])
    return cells, units


def expected_attacks(rules: Rules, st: State) -> np.ndarray:
    """``bool[B, U, U + 1]`` attacks the rules page allows (last column: the enemy miracle)."""
    cards = rules.cards
    atk = current_attack(rules, st)
    lv = st.level - 1
    lo, hi = cards.range_min[st.kind, lv], cards.range_max[st.kind, lv]
    attacker = st.alive & st.ready & (atk > 0) & (st.side == st.current[:, None]) & ~st.over[:, None]
    where = unit_cube(rules, st)
    d = hex_distance(where[:, :, None], where[:, None, :])
    flying = cards.flying[st.kind]
    air = flying | cards.anti_air[st.kind]
    units = (
        attacker[:, :, None] & st.alive[:, None, :] & (st.side[:, :, None] != st.side[:, None, :])
        & (d >= lo[:, :, None]) & (d <= hi[:, :, None]) & (~flying[:, None, :] | air[:, :, None])
    )
    enemy_miracle = np.array(rules.board.miracles, np.int64)[1 - st.current]  # (B, 3)
    dm = hex_distance(where, enemy_miracle[:, None])
    return np.concatenate([units, (attacker & (dm >= lo) & (dm <= hi))[:, :, None]], -1)


def expected_summons(rules: Rules, st: State) -> np.ndarray:
    """``bool[B, 3, 3, C]`` summons the rules page allows, by deck slot, level index and cell."""
    cards, board = rules.cards, rules.board
    b = np.arange(st.batch)
    cur = st.current
    kinds = st.deck_kind[b, cur]  # (B, 3)
    spawn = board.spawn[cur] | ((st.garrison_owner == cur[:, None])[:, :, None] & board.garrison_spawn[None]).any(1)
    ground, flying = ground_on_cells(rules, st)[:, None], flying_on_cells(rules, st)[:, None]
    free = np.where(cards.flying[kinds][:, :, None], ~flying, ~ground)
    unit_ok = (st.available[b, cur] > 0)[:, :, None] & (cards.cost[kinds] <= st.mana[b, cur][:, None, None])
    unit_ok &= ~st.over[:, None, None]
    return unit_ok[:, :, :, None] & (free & spawn[:, None])[:, :, None, :]


def _near(nb: np.ndarray, on: np.ndarray) -> np.ndarray:
    """``bool[..., C]`` cells with a neighbour marked in ``on`` (``bool[..., C]``)."""
    padded = np.concatenate([on, np.zeros(on.shape[:-1] + (1,), bool)], -1)
    return padded[..., nb].any(-1)


def expected_moves(rules: Rules, st: State) -> np.ndarray:
    """``bool[B, U, C]`` the cells each unit may move to by the rules page (section 4): a unit of the side to
    act that may still act follows paths of at most its ``move`` steps over board cells; it never enters a
    cell holding a unit of its layer, nor (a ground unit) the abyss; it may stop on, but not pass, a cell next
    to an enemy of its layer or holding an enemy of the other layer; its start never stops it."""
    cards, board = rules.cards, rules.board
    nb = neighbours(rules)
    c = board.grid.size
    out = np.zeros(st.alive.shape + (c,), bool)
    g, u = np.nonzero(st.alive & st.ready & (st.side == st.current[:, None]) & ~st.over[:, None])
    if len(g) == 0:
        return out
    flying = cards.flying[st.kind]
    enemy = np.zeros((st.batch, 2, 2, c), bool)  # [game, side seen as enemy of, layer, cell]
    eg, eu = np.nonzero(st.alive)
    enemy[eg, 1 - st.side[eg, eu], flying[eg, eu].astype(np.int64), st.cell[eg, eu]] = True
    mine = np.zeros((st.batch, 2, c), bool)  # [game, layer, cell]: any unit of the layer there
    mine[eg, flying[eg, eu].astype(np.int64), st.cell[eg, eu]] = True
    side, layer = st.side[g, u], flying[g, u].astype(np.int64)  # the movers, (M,)
    enter = ~mine[g, layer] & (flying[g, u][:, None] | ~board.abyss[None])
    stop = _near(nb, enemy[g, side, layer]) | enemy[g, side, 1 - layer]
    steps = cards.move[st.kind[g, u], st.level[g, u] - 1]
    m = np.arange(len(g))
    reach = np.zeros((len(g), c), bool)
    front = np.zeros_like(reach)
    front[m, st.cell[g, u]] = True
    for k in range(int(steps.max())):
        new = _near(nb, front) & enter & ~reach & (k < steps)[:, None]
        reach |= new
        front = new & ~stop
    out[g, u] = reach
    return out


@_register(
    STATE_INVARIANTS,
    "moves_follow_the_page",
    "the engine offers exactly the moves the rules page allows: paths of at most move steps, layers blocking, "
    "stops next to enemies of the layer and on the other layer's enemies, never the abyss for ground units",
)
def _moves(rules: Rules, st: State) -> Found:
    got, want = R.move_mask(rules, st), expected_moves(rules, st)
    for g in np.nonzero((got != want).any((1, 2)))[0]:
        u = int(np.nonzero((got[g] != want[g]).any(1))[0][0])
        extra, missing = got[g, u] & ~want[g, u], want[g, u] & ~got[g, u]
        parts = [f"turn {st.turn[g]}: {describe_unit(rules, st, g, u)} (move "
                 f"{rules.cards.move[st.kind[g, u], st.level[g, u] - 1]})"]
        if extra.any():
            parts.append(f"may move to {_cells(rules, extra)} against the rules")
        if missing.any():
            parts.append(f"may not move to {_cells(rules, missing)}")
        yield g, ", ".join(parts)


@_register(
    STATE_INVARIANTS,
    "legal_targets_follow_the_rules",
    "the engine offers exactly the summon cells, attack targets and artifact targets the rules page allows "
    "(InfernoFlame: within its range of the own miracle or an owned garrison, no abyss, no ground unit)",
)
def _legal_targets(rules: Rules, st: State) -> Found:
    grid = rules.board.grid
    cells, units = R.use_mask(rules, st)
    want_cells, want_units = expected_use_targets(rules, st)
    attacks, want_attacks = R.attack_mask(rules, st), expected_attacks(rules, st)
    summons, want_summons = R.summon_mask(rules, st), expected_summons(rules, st)
    bad = (
        (cells != want_cells).any(1) | (units != want_units).any(1)
        | (attacks != want_attacks).any((1, 2)) | (summons != want_summons).any((1, 2, 3))
    )
    for g in np.nonzero(bad)[0]:
        art = rules.cards.artifacts[st.deck_artifact[g, st.current[g]]]
        parts = [f"turn {st.turn[g]} ({SIDES[st.current[g]]} player)"]
        extra, missing = cells[g] & ~want_cells[g], want_cells[g] & ~cells[g]
        if extra.any() or missing.any():
            parts.append(f"{art} may target {_cells(rules, extra)} against the rules" if extra.any() else "")
            parts.append(f"{art} may not target {_cells(rules, missing)}" if missing.any() else "")
        if (units[g] != want_units[g]).any():
            parts.append(f"{art} unit targets {np.nonzero(units[g])[0].tolist()}, "
                         f"expected {np.nonzero(want_units[g])[0].tolist()}")
        for u, t in np.argwhere(attacks[g] != want_attacks[g]):
            who = "the enemy miracle" if t == st.alive.shape[1] else describe_unit(rules, st, g, t)
            verb = "may attack" if attacks[g, u, t] else "may not attack"
            parts.append(f"{describe_unit(rules, st, g, u)} {verb} {who}")
            break
        for j, lv, c in np.argwhere(summons[g] != want_summons[g])[:1]:
            verb = "may summon" if summons[g, j, lv, c] else "may not summon"
            kind = rules.cards.kinds[st.deck_kind[g, st.current[g], j]]
            parts.append(f"{verb} {kind} L{lv + 1} on {grid.cell(int(c))}")
        yield g, "; ".join(p for p in parts if p)
