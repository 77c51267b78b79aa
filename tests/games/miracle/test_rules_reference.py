"""The engine's moves, attack values and targets against a plain reading of the rules page, on random positions.

The reference below is written straight from rules page section 4 over ``Match.snapshot()``
values, one unit at a time, with no numpy; the engine computes the same over whole batches.
"""

import random

import pytest
from miracle_positions import place

from simkit.games.kits.hexgrid import DIRECTIONS, distance

POSITIONS = 150


def neighbours(cell):
    return [(cell[0] + d[0], cell[1] + d[1], cell[2] + d[2]) for d in DIRECTIONS]


def reference_moves(m, me, units):
    """Cells ``me`` may move to: a path of at most ``move`` steps, blocked and stopped as section 4 says."""
    board, cards = m.rules.board, m.rules.cards
    grid = board.grid
    if not me["can_move"] or me["side"] != m.current:
        return set()
    k = cards.kind_index(me["kind"]) if me["kind"] != "Inferno" else cards.inferno
    budget = int(cards.move[k, me["level"] - 1])
    others = [u for u in units if u["id"] != me["id"]]
    enemies = [u for u in others if u["side"] != me["side"]]
    layer = me["flying"]
    blocked = {u["pos"] for u in others if u["flying"] == layer}
    if not layer:
        blocked |= {grid.cell(i) for i in range(grid.size) if board.abyss[i]}
    zone_layer = [u["pos"] for u in enemies if u["flying"] == layer]
    stop = {c for p in zone_layer for c in neighbours(p)} | {u["pos"] for u in enemies if u["flying"] != layer}
    reach, frontier = set(), {me["pos"]}
    for _ in range(budget):
        entered = {c for p in frontier for c in neighbours(p) if grid.index(c) >= 0 and c not in blocked}
        entered -= reach | {me["pos"]}
        reach |= entered
        frontier = entered - stop
    return reach


def reference_attack(m, me, units):
    """Current attack: base + 1 per other friendly priest within its aura range + HolyLight's bonus."""
    cards = m.rules.cards
    k = cards.kind_index(me["kind"]) if me["kind"] != "Inferno" else cards.inferno
    value = int(cards.attack[k, me["level"] - 1])
    for u in units:
        if u["side"] == me["side"] and u["id"] != me["id"] and u["kind"] == "Priest":
            pk = cards.kind_index("Priest")
            if distance(u["pos"], me["pos"]) <= cards.aura_range[pk, u["level"] - 1]:
                value += int(cards.aura[pk, u["level"] - 1])
    return value


def reference_targets(m, me, units):
    """What ``me`` may attack: enemies (flyers only for flying or anti-air units) and the miracle within range."""
    cards = m.rules.cards
    if not me["can_attack"] or me["side"] != m.current or me["atk"] <= 0:
        return set()
    k = cards.kind_index(me["kind"]) if me["kind"] != "Inferno" else cards.inferno
    lo, hi = int(cards.range_min[k, me["level"] - 1]), int(cards.range_max[k, me["level"] - 1])
    hits_air = bool(cards.flying[k] or cards.anti_air[k])
    out = {u["id"] for u in units
           if u["side"] != me["side"] and lo <= distance(u["pos"], me["pos"]) <= hi and (hits_air or not u["flying"])}
    if lo <= distance(m.rules.board.miracles[1 - me["side"]], me["pos"]) <= hi:
        out.add("miracle")
    return out


def random_position(base, seed: int):
    """A match with 6-16 units of random kinds, levels, sides, cells and readiness."""
    rng = random.Random(seed)
    decks = rng.sample(base.decks, 2)
    m = base.new_match(*decks, seed=seed)
    if rng.random() < 0.5:
        m.end_turn()
    grid, board, cards = base.rules.board.grid, base.rules.board, base.rules.cards
    cells = [grid.cell(i) for i in range(grid.size)]
    centre = rng.choice(cells)
    near = [c for c in cells if distance(c, centre) <= rng.choice([3, 5, 9])]
    taken = set()
    for _ in range(rng.randint(6, 16)):
        side = rng.randint(0, 1)
        kind = rng.choice(decks[side].split(":")[1].split(","))
        k = cards.kind_index(kind)
        if rng.random() < 0.1:
            kind, k = "Inferno", cards.inferno
        flying = bool(cards.flying[k])
        options = [c for c in near if (c, flying) not in taken and (flying or not board.abyss[grid.index(c)])]
        st = m.state
        if kind != "Inferno" and st.available[0, side, list(st.deck_kind[0, side]).index(k)] == 0:
            continue
        if not options:
            continue
        cell = rng.choice(options)
        taken.add((cell, flying))
        place(m, kind, cell, side=side, level=1 if kind == "Inferno" else rng.randint(1, 3),
              ready=rng.random() < 0.8)
    if rng.random() < 0.3:
        m.state.buff[0] = rng.randint(0, 4) * m.state.alive[0]
    return m


@pytest.mark.parametrize("seed", range(POSITIONS))
def test_engine_agrees_with_the_rules_reference(base, seed):
    """On a random position every unit's moves, current attack and targets are those the rules page gives."""
    m = random_position(base, seed)
    units = m.snapshot()["units"]
    legal = m.legal_actions()
    bonus = base.rules.cards.effect["HolyLight"]["attack"]
    buffed = {int(m.state.uid[0, u]) for u in range(m.state.alive.shape[1])
              if m.state.alive[0, u] and m.state.buff[0, u] > 0}
    for me in units:
        assert me["atk"] == reference_attack(m, me, units) + (bonus if me["id"] in buffed else 0), me
        moves = {a[2] for a in legal if a[0] == "move" and a[1] == me["id"]}
        assert moves == reference_moves(m, me, units), me
        targets = {a[2] for a in legal if a[0] == "attack" and a[1] == me["id"]}
        assert targets == reference_targets(m, me, units), me
