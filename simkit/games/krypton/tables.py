"""The fixed ``Rules`` of a Krypton Tower War scenario: every number the engine reads, checked at load.

The map is data (``[map]``: radius, bases, spawn points, veins, terrain lists) laid on a
:class:`simkit.games.kits.hexgrid.HexGrid`; classes, towers, base tiers, veins and magic cards are tables. Errors
read ``file: key: problem``.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from simkit.core.errors import ScenarioError
from simkit.games.kits.decks import deck_pool as read_pool
from simkit.games.kits.hexgrid import HexGrid, hexagon_cells
from simkit.games.krypton.bots import NDV, dice_dist, read_bots
from simkit.games.krypton.lead import LEAD_TERMS
from simkit.games.krypton.search_bot import read_searches
from simkit.games.krypton.state import (  # noqa: F401  (the game's words, read here and re-exported)
    CARDS,
    COUNTER_CARDS,
    MAXC,
    MAXCLASSES,
    MAXDICE,
    MAXH,
    MAXPILE,
    MAXTIERS,
    MAXTK,
    MOVE_RULES,
    NORMAL_CARDS,
    SIDE_NAMES,
    T_BASE,
    T_FOREST,
    T_HILL,
    T_PLAIN,
    T_RIVER,
    T_VEIN,
    TERRAINS,
    TOWER_EFFECTS,
)
from simkit.scenario import Field

# ---- bounds: every number of a scenario is refused at load beyond what the engine can hold ----------
#: the largest HP, cost, defense, energy, damage, range or price. The engine keeps a game in int64; what a
#: game adds up (energy from veins over every round, damage over a game) stays far inside int64's 9.2e18
#: at 10**9 per number, MAX_ROUNDS rounds and MAXC cells.
VALUE_MAX = 10**9
#: the most rounds: a game of MAXH heroes a side may take ~16 actions a hero turn, and a game is
#: stopped past 200,000 actions (``play.ACTION_CAP``); 1000 rounds of 12 heroes at 16 is 192,000
MAX_ROUNDS = 1000
_WHY = "the most simkit plays, so that what a game adds up stays inside the engine's int64"

RULES_KEYS = (
    "team_size", "max_per_class", "random_first", "max_rounds", "turn_limit_result", "start_energy", "max_dice",
    "dice_sides", "dice_combine", "knight_bonus", "knight_plain_bonus", "knight_other_malus", "base_hp",
    "building_attack", "building_attack_range", "hand_limit", "death_penalty_divisor", "hp_price_min", "base_tiers",
    "sudden_death_round", "end_at_lock", "siege_round", "siege_step",
)
MAGIC_KEYS = ("piles", "hp_price", "effect_damage", "inspire_bonus", "curse_malus", "heal", "heal_energy", "pact_die",
              "unity_radius", "unity_max", "swap_damage", "copies")
TOP_LEVEL_KEYS = ("game", "name", "description", "rules_version", "extends", "rules", "bases", "terrain", "classes",
                  "towers", "veins", "magic", "map", "decks", "bots", "lead", "sweep", "experience")


@dataclass(frozen=True)
class HeroClass:
    """A hero class: ``name``, max ``hp``, attack ``range``, ``move`` rule, variant names per side."""

    name: str
    hp: int
    range: int
    move: str
    variants: tuple[tuple[str, ...], tuple[str, ...]]


@dataclass(frozen=True)
class Tower:
    """A tower kind: ``name``, ``cost``, ``defense``, ``hp`` and ``effect`` (attack, dice or hand)."""

    name: str
    cost: int
    defense: int
    hp: int
    effect: str


@dataclass(frozen=True)
class Rules:
    """Tables built once from a scenario; never part of a game's state.

    Attributes:
        settings: the ``[rules]`` and ``[magic]`` numbers by key.
        grid: the board's cells (:class:`~simkit.games.kits.hexgrid.HexGrid`).
        terrain: ``int[C]`` terrain of each cell at the start (``T_*``; ``T_BASE`` on a base).
        stock: ``int[C]`` vein stock at the start (0 off veins); ``vein_yield`` per cell.
        bases: the two base cell indices; spawns: each side's spawn cell indices, in order.
        classes: hero classes by name (alphabetical); towers: tower kinds by name (file order).
        base_defense, upgrade_cost, prayer_tier: the chosen base tiers (``base_tiers``).
        copies: magic card name -> copies in the pile (card order of :data:`CARDS`).
        lead: the lead signal's weights by term (``[lead]``, :mod:`simkit.games.krypton.lead`).
    """

    settings: dict
    grid: HexGrid
    terrain: np.ndarray
    stock: np.ndarray
    vein_yield: np.ndarray
    bases: tuple[int, int]
    spawns: tuple[tuple[int, ...], tuple[int, ...]]
    classes: dict
    towers: dict
    base_defense: tuple[int, ...]
    upgrade_cost: tuple[int, ...]
    prayer_tier: int
    copies: dict
    terrain_points: tuple[int, ...]
    lead: dict

    @property
    def team_size(self) -> int:
        return int(self.settings["team_size"])

    def cost_of(self, terrain: int) -> int:
        """Terrain points of a terrain code (move cost, combat bonus)."""
        return self.terrain_points[terrain]


#: the largest terrain points (a move cost): the bots' path search keeps a bucket per cost up to it x cells
TERRAIN_MAX = 64


def _bounded(f: Field, key: str, default=..., minimum: int | None = 0, maximum: int = VALUE_MAX,
             why: str = _WHY) -> int:
    """An integer of ``f`` at ``key`` from ``minimum`` to ``maximum``; refused naming file and key beyond."""
    value = f.int(key, default, minimum=minimum)
    if value > maximum:
        raise f.fail(f"must be at most {maximum} ({why}), got {value}", key)
    if minimum is None and value < -maximum:
        raise f.fail(f"must be at least {-maximum} ({why}), got {value}", key)
    return value


def _bounded_list(f: Field, key: str, length: int | None = None) -> list[int]:
    """A list of integers from 0 to VALUE_MAX; refused naming file and key beyond."""
    values = f.int_list(key, length=length, minimum=0)
    for v in values:
        if v > VALUE_MAX:
            raise f.fail(f"must hold numbers of at most {VALUE_MAX} ({_WHY}), got {v}", key)
    return values


def _cell(f: Field, key: str, value, grid_cells: set) -> tuple[int, int, int]:
    if not (isinstance(value, list) and len(value) == 3 and all(isinstance(v, int) and not isinstance(v, bool)
                                                                for v in value) and sum(value) == 0):
        raise f.fail(f"must hold cube cells [x, y, z] with x + y + z = 0, got {value!r}", key)
    c = tuple(value)
    if c not in grid_cells:
        raise f.fail(f"cell {list(c)} is off the board", key)
    return c


def _cells(f: Field, key: str, grid_cells: set) -> list[tuple[int, int, int]]:
    value = f.get(key, [])
    if not isinstance(value, list):
        raise f.fail(f"must be a list of cube cells, got {value!r}", key)
    return [_cell(f, key, v, grid_cells) for v in value]


def _read_map(top: Field, terrain_points: dict):
    m = top.table("map")
    m.reject_unknown(("radius", "bases", "spawns", "poor_veins", "rich_veins", "river", "hill", "forest"))
    largest = next(r for r in range(1, 64) if 3 * (r + 1) * (r + 2) + 1 > MAXC)  # cells: 3r(r+1) + 1
    radius = _bounded(m, "radius", minimum=1, maximum=largest, why=f"the engine holds {MAXC} cells at most")
    cells = hexagon_cells((radius, radius, radius))
    grid = HexGrid.from_cells(cells)
    cell_set = set(cells)
    terrain = np.full(grid.size, T_PLAIN, np.int64)
    kinds = np.zeros(grid.size, np.int64)  # 0 plain, 1 poor, 2 rich
    used: dict[int, str] = {}

    def claim(key, c, what):
        i = grid.index(c)
        if i in used:
            raise m.fail(f"cell {list(c)} is both {used[i]} and {what}", key)
        used[i] = what
        return i

    bases = _cells(m, "bases", cell_set)
    if len(bases) != 2:
        raise m.fail(f"must hold 2 cells (side 0's base, side 1's), got {len(bases)}", "bases")
    base_idx = tuple(claim("bases", c, "a base") for c in bases)
    for i in base_idx:
        terrain[i] = T_BASE
    spawns_raw = m.get("spawns")
    if not (isinstance(spawns_raw, list) and len(spawns_raw) == 2):
        raise m.fail("must be two lists of cells (side 0's spawn points, side 1's)", "spawns")
    spawns = []
    for side, lst in enumerate(spawns_raw):
        if not isinstance(lst, list):
            raise m.fail(f"side {side}: must be a list of cube cells", "spawns")
        spawns.append(tuple(claim("spawns", _cell(m, "spawns", c, cell_set), "a spawn point") for c in lst))
    for key, t in (("river", T_RIVER), ("hill", T_HILL), ("forest", T_FOREST)):
        for c in _cells(m, key, cell_set):
            terrain[claim(key, c, key)] = t
    for key, kind in (("poor_veins", 1), ("rich_veins", 2)):
        for c in _cells(m, key, cell_set):
            i = claim(key, c, key)
            terrain[i] = T_VEIN
            kinds[i] = kind
    return grid, terrain, kinds, base_idx, (spawns[0], spawns[1])


def _check_sizes(top: Field, s: dict, classes: dict, towers: dict, defense: tuple, copies: dict, spawns) -> None:
    """The engine's fixed sizes (kinds of towers, tiers, classes, the magic pile, spawn points) and the dice
    totals a bot weighs, checked at load rather than when the first game is packed."""
    for table, n, most, what in (("towers", len(towers), MAXTK, "tower kinds"),
                                 (f"bases.{s['base_tiers']}", len(defense), MAXTIERS, "base tiers"),
                                 ("classes", len(classes), MAXCLASSES, "hero classes"),
                                 ("magic.copies", sum(copies.values()), MAXPILE, "magic cards in the pile")):
        if n > most:
            raise top.fail(f"{n} {what}: the engine holds at most {most}", table)
    for side in (0, 1):
        if len(spawns[side]) > 2 * MAXH:
            raise top.table("map").fail(f"side {side}: {len(spawns[side])} spawn points, the engine holds at most "
                                        f"{2 * MAXH}", "spawns")
    r = top.table("rules")
    for n in range(1, s["max_dice"] + 1):
        for fixed in (0, s["pact_die"]):
            totals = len(dice_dist(n, s["dice_sides"], s["dice_combine"], fixed))
            if totals > NDV:
                raise r.fail(f"{n} dice of {s['dice_sides']} sides ({s['dice_combine']}) make {totals} totals, "
                             f"more than the {NDV} a bot weighs: fewer sides or dice", "dice_sides")


def read_lead(top: Field) -> dict[str, float]:
    """The ``[lead]`` table: the lead signal's weight of each term of
    :data:`~simkit.games.krypton.lead.LEAD_TERMS` (a number from 0 to 1; a term not given takes simkit's default),
    at least one of them above 0."""
    f = top.table("lead", required=False)
    f.reject_unknown(tuple(name for name, _, _ in LEAD_TERMS))
    out = {}
    for name, _, default in LEAD_TERMS:
        value = f.get(name, default)
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
            raise f.fail(f"must be a number from 0 to 1, got {value!r}", name)
        out[name] = float(value)
    if not sum(out.values()) > 0:
        raise f.fail(f"at least one weight ({', '.join(out)}) must be above 0")
    return out


def build_rules(top: Field) -> Rules:
    """Validate the Krypton tables of a merged scenario and build its :class:`Rules`."""
    top.reject_unknown(TOP_LEVEL_KEYS)
    r = top.table("rules")
    r.reject_unknown(RULES_KEYS)
    s: dict = {}
    s["team_size"] = _bounded(r, "team_size", 2, minimum=1, maximum=MAXH, why="the engine's heroes a side")
    s["max_per_class"] = _bounded(r, "max_per_class", 2, minimum=1, maximum=MAXH, why="the engine's heroes a side")
    if r.bool("random_first", False):
        raise r.fail("true is not supported: seat 0 acts first, sweeps play both orders", "random_first")
    s["max_rounds"] = _bounded(r, "max_rounds", minimum=1, maximum=MAX_ROUNDS,
                                 why="the rounds a game fits in the 200,000 actions simkit lets it take")
    s["turn_limit_result"] = r.str("turn_limit_result", "draw", ("draw", "base_hp", "base_hp_tier"))
    # [authored] end rules simkit proposes against the lock (docs/krypton.md, "End rules to choose from")
    s["sudden_death_round"] = _bounded(r, "sudden_death_round", 0, maximum=s["max_rounds"] - 1,
                                       why="a round before max_rounds; 0: no sudden death")
    s["end_at_lock"] = r.bool("end_at_lock", False)
    s["siege_round"] = _bounded(r, "siege_round", 0, maximum=s["max_rounds"] - 1,
                                why="a round before max_rounds; 0: no siege")
    s["siege_step"] = _bounded(r, "siege_step", 1, minimum=1)
    s["start_energy"] = _bounded(r, "start_energy", 0)
    s["max_dice"] = _bounded(r, "max_dice", minimum=1, maximum=MAXDICE, why="the engine's dice a side")
    s["dice_sides"] = _bounded(r, "dice_sides", minimum=1, maximum=NDV, why="the totals a bot weighs")
    s["dice_combine"] = r.str("dice_combine", "sum", ("sum", "max"))
    s["knight_bonus"] = r.str("knight_bonus", "start_cell", ("start_cell",))
    s["knight_plain_bonus"] = _bounded(r, "knight_plain_bonus")
    s["knight_other_malus"] = _bounded(r, "knight_other_malus")
    s["base_hp"] = _bounded(r, "base_hp", minimum=1)
    s["building_attack"] = _bounded(r, "building_attack")
    s["building_attack_range"] = _bounded(r, "building_attack_range")
    s["hand_limit"] = _bounded(r, "hand_limit")
    s["death_penalty_divisor"] = _bounded(r, "death_penalty_divisor", minimum=1)
    s["hp_price_min"] = _bounded(r, "hp_price_min", minimum=1)
    tiers = r.str("base_tiers", "table", ("table", "text"))
    s["base_tiers"] = tiers

    bt = top.table("bases").table(tiers)
    bt.reject_unknown(("defense", "upgrade_cost", "prayer_tier"))
    defense = tuple(_bounded_list(bt, "defense"))
    if not defense:
        raise bt.fail("must hold at least one tier", "defense")
    upgrade = tuple(_bounded_list(bt, "upgrade_cost", length=len(defense) - 1))
    prayer_tier = _bounded(bt, "prayer_tier", minimum=1)
    if prayer_tier > len(defense):
        raise bt.fail(f"must be at most {len(defense)} (the tiers), got {prayer_tier}", "prayer_tier")
    for name in top.table("bases").keys():
        if name not in ("table", "text"):
            raise top.table("bases").fail("unknown key (known: table, text)", name)

    t = top.table("terrain")
    t.reject_unknown(TERRAINS)
    tp = tuple(_bounded(t, k, maximum=TERRAIN_MAX, why="the move costs the bots' path search holds") for k in TERRAINS)

    cf = top.table("classes")
    classes = {}
    for name in sorted(cf.keys()):
        c = cf.table(name)
        c.reject_unknown(("hp", "range", "move", "variants"))
        if "+" in name or not name:
            raise cf.fail("a class name must not contain '+'", name)
        variants = c.get("variants")
        if not (isinstance(variants, list) and len(variants) == 2 and all(
                isinstance(v, list) and v and all(isinstance(x, str) for x in v) for v in variants)):
            raise c.fail("must be two lists of names (Settan's variants, Pandaria's)", "variants")
        classes[name] = HeroClass(name, _bounded(c, "hp", minimum=1), _bounded(c, "range", minimum=1),
                                  c.str("move", choices=MOVE_RULES), (tuple(variants[0]), tuple(variants[1])))
    if not classes:
        raise cf.fail("must define at least one class")

    tf = top.table("towers")
    towers = {}
    for name in tf.keys():
        w = tf.table(name)
        w.reject_unknown(("cost", "defense", "hp", "effect"))
        towers[name] = Tower(name, _bounded(w, "cost"), _bounded(w, "defense"), _bounded(w, "hp", minimum=1),
                             w.str("effect", choices=TOWER_EFFECTS))

    v = top.table("veins")
    v.reject_unknown(("poor_yield", "rich_yield", "poor_stock", "rich_stock"))
    grid, terrain, kinds, bases, spawns = _read_map(top, dict(zip(TERRAINS, tp)))
    stock = np.zeros(grid.size, np.int64)
    yld = np.zeros(grid.size, np.int64)
    stock[kinds == 1], yld[kinds == 1] = _bounded(v, "poor_stock"), _bounded(v, "poor_yield", minimum=1)
    stock[kinds == 2], yld[kinds == 2] = _bounded(v, "rich_stock"), _bounded(v, "rich_yield", minimum=1)

    mg = top.table("magic")
    mg.reject_unknown(MAGIC_KEYS)
    s["piles"] = mg.str("piles", "single", ("single",))
    for k in MAGIC_KEYS[1:-1]:
        s[k] = _bounded(mg, k)
    cp = mg.table("copies")
    cp.reject_unknown(CARDS)
    copies = {c: _bounded(cp, c, 0, maximum=MAXPILE, why="the engine's magic pile") for c in CARDS}

    team = s["team_size"]
    if team > len(spawns[0]) or team > len(spawns[1]):
        raise r.fail(f"must be at most the spawn points of each side ({len(spawns[0])}, {len(spawns[1])}), got {team}",
                     "team_size")
    if team > s["max_per_class"] * len(classes):
        raise r.fail(f"must be at most {s['max_per_class'] * len(classes)} (max_per_class times the classes), "
                     f"got {team}", "team_size")
    for name, hc in classes.items():
        for side in (0, 1):
            if len(hc.variants[side]) < s["max_per_class"]:
                raise cf.fail(f"side {side} names {len(hc.variants[side])} variants, fewer than max_per_class",
                              f"{name}.variants")
    _check_sizes(top, s, classes, towers, defense, copies, spawns)
    # the bots are scenario data too: checked now, not when the first game is played
    read_searches(top.source, top.data, read_bots(top.source, top.data))
    return Rules(settings=s, grid=grid, terrain=terrain, stock=stock, vein_yield=yld, bases=bases, spawns=spawns,
                 classes=classes, towers=towers, base_defense=defense, upgrade_cost=upgrade, prayer_tier=prayer_tier,
                 copies=copies, terrain_points=tp, lead=read_lead(top))


def all_decks(rules: Rules) -> list[str]:
    """Every legal loadout: multisets of ``team_size`` classes, at most ``max_per_class`` of one class."""
    names = sorted(rules.classes)
    cap = rules.settings["max_per_class"]
    out = []
    for combo in itertools.combinations_with_replacement(names, rules.team_size):
        if all(combo.count(n) <= cap for n in names):
            out.append("+".join(combo))
    return out


def parse_loadout(rules: Rules, deck: str) -> tuple[str, ...]:
    """The classes of a loadout id in canonical (alphabetical, turn) order; raises naming an illegal one."""
    if not isinstance(deck, str):
        raise ScenarioError(f"loadout must be a string, got {deck!r}")
    parts = [p.strip() for p in deck.split("+")]
    for p in parts:
        if p not in rules.classes:
            raise ScenarioError(f"loadout {deck!r}: unknown class {p!r} (known: {', '.join(sorted(rules.classes))})")
    if len(parts) != rules.team_size:
        raise ScenarioError(f"loadout {deck!r}: {len(parts)} heroes, the team size is {rules.team_size}")
    for p in set(parts):
        if parts.count(p) > rules.settings["max_per_class"]:
            raise ScenarioError(f"loadout {deck!r}: {parts.count(p)} {p}s, at most {rules.settings['max_per_class']}")
    return tuple(sorted(parts))


def canonical_deck(rules: Rules, deck: str) -> str:
    """The canonical loadout id (classes in alphabetical order joined by ``+``)."""
    return "+".join(parse_loadout(rules, deck))


def deck_pool(rules: Rules, top: Field) -> list[str]:
    """``[decks] pool`` (canonical ids) when given, else every legal loadout.

    Read by the kit: :func:`simkit.games.kits.decks.deck_pool`.
    """
    return read_pool(top, lambda deck: canonical_deck(rules, deck), lambda: all_decks(rules), words="loadout")


def deck_cards(rules: Rules, deck: str) -> dict[str, tuple[str, ...]]:
    """The hero classes of a loadout, each once (the card statistics count which cards a deck holds, not copies)."""
    return {"class": tuple(sorted(set(parse_loadout(rules, deck))))}


def turn_limit(rules: Rules) -> int:
    """The last round a game can reach."""
    return int(rules.settings["max_rounds"])
