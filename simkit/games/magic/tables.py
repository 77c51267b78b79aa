"""The fixed ``Rules`` of a Magic War scenario: every number the engine reads, checked at load.

A scenario (``scenarios/magic/base.toml``) holds the rules (``[rules]``, ``[combat]``, ``[magic]``,
``[tactics]``), the skills as data (``[skills]``: each one of the ten primitives of the roster page,
B.1, with its parameters), the races and their units (``[races.<Race>]``), the sweep pool of armies
(``[armies] pool``, or ``[armies] draw``: armies drawn at each seat's budget) and the bots (``[bots.*]``).
Errors read ``file: key: problem``.

The engine reads one record built here, :attr:`Rules.packed` (:data:`~simkit.games.magic.state.RULES`: the
settings by name, one card per unit type, one skill per skill, one race per race). This module is the top of
the game's package: it reads the scenario with everything below it (the declaration, the engine's bounds, the
bots' tables, the armies of :mod:`.armies`), and nothing below imports it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np

from simkit.core.errors import ScenarioError
from simkit.games.kits.bot_tables import number
from simkit.games.kits.decks import deck_pool as read_pool
from simkit.games.kits.state import zeros
from simkit.games.magic.armies import (
    ARMY_RE,
    MAX_ARMY_STEPS,
    all_decks,
    armies,
    army_cost,
    army_id,
    army_units,
    canonical_deck,
    check_seat,
    count_vectors,
    draw_armies,
    parse_army,
    parse_army_counts,
    seat_ok,
)
from simkit.games.magic.bots import ACTION_CAP
from simkit.games.magic.lead import LEAD_KEYS, LEAD_WEIGHTS
from simkit.games.magic.personalities import read_bots
from simkit.games.magic.state import (
    ACTIVE_PRIMITIVES,
    CARD_SKILLS,
    JOINERS,
    MAX_BANDS,
    MAX_CARDS,
    MAX_CELLS,
    MAX_PILE,
    MAX_RACES,
    MAX_SKILLS,
    MAX_UNITS,
    OF_ANY,
    OF_MELEE,
    OF_RANGED,
    PRIMITIVES,
    RULES,
    SHAPES,
    TARGETS,
    TIEBREAKS,
)
from simkit.scenario import Field

__all__ = ["ARMY_RE", "MAX_ARMY_STEPS", "Rules", "TOP_LEVEL_KEYS", "all_decks", "armies", "army_cost", "army_id",
           "army_units", "build_rules", "canonical_deck", "check_seat", "count_vectors", "deck_cards", "deck_counts",
           "deck_pool", "draw_armies", "parse_army", "parse_army_counts", "seat_ok", "seat_pools", "turn_limit"]

TOP_LEVEL_KEYS = ("rules", "combat", "magic", "tactics", "skills", "races", "armies", "bots", "lead")
#: the keys of ``[armies]``: a listed pool, or a draw at each seat's budget (``draw`` armies per race and seat)
ARMIES_KEYS = ("pool", "draw", "seed", "spend")
SPENDS = ("all", "any")
#: what a refused listed pool adds: the way to a pool that follows the budgets
FIXED_POOL = ("a listed pool is fixed: give [armies] draw = N to draw N armies per race at each seat's budget "
              "(scenarios/magic/budget-scan.toml)")
CARD_TYPES = ("leader", "hero", "troop")
ATTACK_TYPES = ("melee", "ranged")
MOVE_TYPES = ("walk", "fly")
#: the parameters each primitive takes (B.1), besides ``kind``
PARAMS = {
    "attack_modifier_aura": ("k", "radius", "include_self"),
    "damage_reduction": ("k", "radius", "include_self"),
    "attack_bonus_aura": ("k", "radius", "of_type"),
    "precision_aura": ("k", "radius", "include_self", "of_type"),
    "move_bonus_aura": ("k", "radius", "of_type"),
    "heal": ("range", "amount", "magic"),
    "free_active": ("target", "range", "magic", "self_damage", "min_hp", "dice", "precision", "move"),
    "summon": ("unit", "magic"),
    "splash_on_clustered": ("dice", "ring"),
    "on_death": ("gain_magic",),
}
#: the integer parameters, each a field of the same name of the packed skill (``gain_magic`` too)
_INT_PARAMS = ("k", "radius", "range", "amount", "magic", "self_damage", "min_hp", "dice", "precision", "move",
               "gain_magic")
#: the skill numbers a game rolls, steps or counts one at a time (the rest are HP, magic and costs)
_SMALL_PARAMS = ("radius", "range", "dice", "precision", "move", "k")

# ---- bounds: every number of a scenario is refused at load beyond what the engine can hold ----------
#: the largest HP, cost, budget, magic or die: the engine keeps a game in int64 and adds such numbers
#: up over at most a game's 20,000 actions, far inside int64's 9.2e18
VALUE_MAX = 10**9
#: the most dice one attack or skill rolls, cards a draw takes, or steps a move or range spans: the
#: board has at most 63 cells, the pile 64 cards; the engine rolls and steps one at a time
SMALL_MAX = 64
#: the most copies of a unit in an army: an army id writes them ``Unit*n`` with n from 2 to 9
COPIES_MAX = 9
_WHY = "the most simkit plays, so that what a game adds up stays inside the engine's int64"
_SMALL_WHY = "more than the board's cells or the pile's cards: the engine rolls, draws and steps one at a time"


def _bounded(f: Field, key: str, default=..., minimum: int | None = 0, maximum: int = VALUE_MAX,
             why: str = _WHY) -> int:
    """An integer of ``f`` at ``key`` from ``minimum`` to ``maximum``; refused naming file and key beyond."""
    value = f.int(key, default, minimum=minimum)
    if value > maximum:
        raise f.fail(f"must be at most {maximum} ({why}), got {value}", key)
    return value


def _small(f: Field, key: str, default=..., minimum: int | None = 0) -> int:
    return _bounded(f, key, default, minimum, SMALL_MAX, _SMALL_WHY)


@dataclass(frozen=True)
class Rules:
    """Tables built once from a scenario; never part of a game's state.

    Attributes:
        packed: the :data:`~simkit.games.magic.state.RULES` record the engine reads (settings, cards, skills,
            races by name).
        types: unit type names (the order of ``packed.cards``); skills: skill names (of ``packed.skills``).
        races: race names (in file order); race_units: per race, its non-leader unit names (ASCII order);
            leaders: per race, its leader's type name.
        zh: Chinese names by unit or race name (where the scenario gives one).
        authored: races whose numbers are marked ``authored = true``.
        lead: the weights of the lead signal (``[lead]``, :data:`~simkit.games.magic.lead.LEAD_WEIGHTS`).
        draws: with ``[armies] draw``, the armies drawn for each seat at its own budget (first seat's,
            second seat's; :func:`draw_armies`), which then are the pool; ``None``: the pool is listed.
    """

    packed: np.void
    types: tuple[str, ...]
    skills: tuple[str, ...]
    races: tuple[str, ...]
    race_units: dict
    leaders: dict
    zh: dict
    authored: tuple[str, ...]
    lead: np.void
    draws: tuple[tuple[str, ...], tuple[str, ...]] | None = None

    @property
    def cols(self) -> int:
        return int(self.packed.cols)

    @property
    def rows(self) -> int:
        return int(self.packed.rows)

    @property
    def budgets(self) -> tuple[int, int]:
        return int(self.packed.budgets[0]), int(self.packed.budgets[1])

    def type_id(self, name: str) -> int:
        """The row of unit type ``name`` in ``packed.cards``."""
        return self.types.index(name)

    def card(self, name: str) -> np.void:
        """The packed card of unit type ``name`` (``rules.card("Ogre").hp``)."""
        return self.packed.cards[self.type_id(name)]

    def cell(self, c: int, r: int) -> int:
        """Cell index ``5r + c`` (``cols * r + c``) of ``(c, r)``."""
        return r * self.cols + c

    def coords(self, i: int) -> tuple[int, int]:
        """``(c, r)`` of cell index ``i``."""
        return int(i) % self.cols, int(i) // self.cols


def _cell(f: Field, key: str, value, cols: int, rows: int) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                                for v in value)):
        raise f.fail(f"must hold cells [c, r], got {value!r}", key)
    c, r = value
    if not (0 <= c < cols and 0 <= r < rows):
        raise f.fail(f"cell {value} is off the {cols}x{rows} board", key)
    return c, r


def _read_skill(f: Field, name: str, skill: np.void, types_later: list) -> None:
    """Read skill ``name`` of ``[skills]`` into the packed ``skill``; its unit names wait in ``types_later``."""
    s = f.table(name)
    kind = s.str("kind", choices=PRIMITIVES)
    s.reject_unknown(("kind",) + PARAMS[kind])
    skill.kind = PRIMITIVES.index(kind)
    skill.of_type = OF_ANY
    skill.unit = -1
    for p in PARAMS[kind]:
        if p in _INT_PARAMS:
            setattr(skill, p, (_small if p in _SMALL_PARAMS else _bounded)(s, p, 0, minimum=0))
        elif p == "include_self":
            skill.include_self = int(s.bool(p, False))
        elif p == "target":
            skill.target = TARGETS.index(s.str(p, "self", TARGETS))
        elif p == "of_type":
            types_later.append((name, s, s.str(p, "any")))
        elif p == "unit":
            types_later.append((name, s, "unit:" + s.str(p)))
        elif p == "ring":
            ring = s.int_list(p, length=2, minimum=0)
            if max(ring) > SMALL_MAX:
                raise s.fail(f"must be at most {SMALL_MAX} ({_SMALL_WHY}), got {ring}", p)
            if ring[0] > ring[1]:
                raise s.fail(f"must be [d1, d2] with d1 <= d2, got {ring}", p)
            skill.ring_near, skill.ring_far = ring
    if kind in ("attack_modifier_aura", "damage_reduction", "precision_aura") and skill.radius == 0 \
            and not skill.include_self:
        raise s.fail("covers no unit: radius 0 without include_self", "radius")


def build_rules(top: Field) -> Rules:
    """Validate the Magic War tables of a merged scenario and build its :class:`Rules`."""
    st = zeros(RULES)
    r = top.table("rules")
    r.reject_unknown(("cols", "rows", "leader_cells", "deploy_rows", "obstacles", "min_units", "max_units", "budgets",
                      "budget_exact", "leader_immune_turns", "turn_limit", "tiebreak"))
    cols, rows = _small(r, "cols", minimum=1), _small(r, "rows", minimum=2)
    if cols * rows > MAX_CELLS - 1:
        raise r.fail(f"the board must have at most {MAX_CELLS - 1} cells (cols x rows), got {cols * rows}", "rows")
    st.cols, st.rows = cols, rows
    lc = r.get("leader_cells")
    if not (isinstance(lc, list) and len(lc) == 2):
        raise r.fail("must be two cells [[c, r], [c, r]] (first player's crown, second's)", "leader_cells")
    crowns = [_cell(r, "leader_cells", v, cols, rows) for v in lc]
    st.crown[:] = [cr[1] * cols + cr[0] for cr in crowns]
    dr = r.get("deploy_rows")
    if not (isinstance(dr, list) and len(dr) == 2 and all(isinstance(x, list) and len(x) == 2 for x in dr)):
        raise r.fail("must be two row ranges [[lo, hi], [lo, hi]] (first player's, second's)", "deploy_rows")
    for s, (lo, hi) in enumerate(dr):
        for v in (lo, hi):
            r.check_int(v, "deploy_rows", minimum=0)
        if not lo <= hi < rows:
            raise r.fail(f"side {s}: rows [{lo}, {hi}] must satisfy lo <= hi < {rows}", "deploy_rows")
        if not lo <= crowns[s][1] <= hi:
            raise r.fail(f"side {s}: the crown {list(crowns[s])} lies outside its deployment rows", "deploy_rows")
    if not dr[0][1] < dr[1][0]:
        raise r.fail("the first player's rows must lie below the second's", "deploy_rows")
    st.deploy_first_row[:] = dr[0][0], dr[1][0]
    st.deploy_last_row[:] = dr[0][1], dr[1][1]
    obst = r.get("obstacles", [])
    if not isinstance(obst, list):
        raise r.fail("must be a list of cells [c, r]", "obstacles")
    mask = 0
    for v in obst:
        c, rr = _cell(r, "obstacles", v, cols, rows)
        i = rr * cols + c
        if i in (st.crown[0], st.crown[1]):
            raise r.fail(f"cell {v} is a crown", "obstacles")
        mask |= 1 << i
    st.obstacles = mask
    st.min_units = _small(r, "min_units", 1, minimum=1)
    # both leaders and armies fit in the unit places (state.MAX_UNITS): each army lies in its own rows, on at
    # most 62 cells, as the free-cells check below makes sure
    st.max_units = _bounded(r, "max_units", 9, minimum=1, maximum=MAX_UNITS // 2 - 1,
                            why=f"both armies and their leaders fill the engine's {MAX_UNITS} unit places")
    if st.min_units > st.max_units:
        raise r.fail("must be at most max_units", "min_units")
    for s in (0, 1):
        lo, hi = int(st.deploy_first_row[s]), int(st.deploy_last_row[s])
        free = (hi - lo + 1) * cols - 1 - sum(1 for i in range(lo * cols, (hi + 1) * cols) if mask >> i & 1)
        if st.max_units > free:
            raise r.fail(f"must be at most the {free} free deployment cells of side {s}", "max_units")
    b = r.int_list("budgets", length=2, minimum=0)
    if max(b) > VALUE_MAX:
        raise r.fail(f"must be at most {VALUE_MAX} ({_WHY}), got {b}", "budgets")
    st.budgets[:] = b
    st.budget_exact = int(r.bool("budget_exact", False))
    st.leader_immune_turns = _bounded(r, "leader_immune_turns", 1, minimum=0)
    st.turn_limit = r.int("turn_limit", 60, minimum=1, dtype=np.int16)
    tb = r.get("tiebreak", list(TIEBREAKS))
    if not (isinstance(tb, list) and 1 <= len(tb) <= 3 and all(t in TIEBREAKS for t in tb) and len(set(tb)) == len(tb)
            and tb[-1] == "draw"):
        raise r.fail(f"must be distinct names of {', '.join(TIEBREAKS)} ending with 'draw', got {tb!r}", "tiebreak")
    tb = tb + ["draw"] * (3 - len(tb))
    st.tiebreak[:] = [TIEBREAKS.index(t) for t in tb]

    c = top.table("combat")
    c.reject_unknown(("die_sides", "melee_range", "melee_hit_min", "ranged_hit_min", "ranged_shape", "ranged_blocked",
                      "combined_joiners", "summoned_can_act", "friend_includes_source", "leader_skill_after_attack"))
    st.die_sides = _bounded(c, "die_sides", 6, minimum=2)
    st.melee_range = _small(c, "melee_range", 1, minimum=1)
    st.melee_hit_min = _bounded(c, "melee_hit_min", 3, minimum=1)
    st.ranged_hit_min = _bounded(c, "ranged_hit_min", 4, minimum=1)
    st.ranged_shape = SHAPES.index(c.str("ranged_shape", "line", SHAPES))
    st.ranged_blocked = int(c.bool("ranged_blocked", True))
    st.combined_joiners = JOINERS.index(c.str("combined_joiners", "not_attacked", JOINERS))
    st.summoned_can_act = int(c.bool("summoned_can_act", True))
    st.friend_includes_source = int(c.bool("friend_includes_source", True))
    st.leader_skill_after_attack = int(c.bool("leader_skill_after_attack", True))

    m = top.table("magic")
    m.reject_unknown(("per_kill", "activation"))
    st.per_kill = _bounded(m, "per_kill", 1)
    m.str("activation", "owner_next_turn", ("owner_next_turn",))

    t = top.table("tactics")
    t.reject_unknown(("kinds", "copies", "draw_by_cost", "cap", "unlocked_cap", "unlock_leader_hp", "effect"))
    st.tactic_kinds = _small(t, "kinds", 14, minimum=1)
    st.tactic_copies = _small(t, "copies", 2, minimum=1)
    if st.tactic_kinds * st.tactic_copies > MAX_PILE:
        raise t.fail(f"the tactical deck holds at most {MAX_PILE} cards (kinds x copies)", "copies")
    bands = t.get("draw_by_cost", [])
    if not (isinstance(bands, list) and len(bands) <= MAX_BANDS and all(isinstance(x, list) and len(x) == 3
                                                                       for x in bands)):
        raise t.fail(f"must be at most {MAX_BANDS} bands [min cost, max cost, cards]", "draw_by_cost")
    st.band_count = len(bands)
    for k, band in enumerate(bands):
        lo, hi, n = (t.check_int(v, "draw_by_cost", minimum=0) for v in band)
        if max(lo, hi) > VALUE_MAX or n > SMALL_MAX:
            raise t.fail(f"band {band}: costs at most {VALUE_MAX}, cards at most {SMALL_MAX} ({_SMALL_WHY})",
                         "draw_by_cost")
        if lo > hi or lo == 0:
            raise t.fail(f"band {band}: must have 1 <= min cost <= max cost", "draw_by_cost")
        st.bands[k].min_cost, st.bands[k].max_cost, st.bands[k].cards = lo, hi, n
    st.cap = _small(t, "cap", 4)
    st.unlocked_cap = _small(t, "unlocked_cap", 5)
    st.unlock_leader_hp = _bounded(t, "unlock_leader_hp", 2)
    if st.unlocked_cap < st.cap:
        raise t.fail("must be at least cap", "unlocked_cap")
    per_turn = 3 * (int(st.max_units) + 1) + int(st.unlocked_cap) + 1  # moves, attacks, skills, cards, end
    if st.turn_limit * per_turn > ACTION_CAP:
        raise r.fail(f"must be at most {ACTION_CAP // per_turn} with max_units {st.max_units} (a turn may take "
                     f"{per_turn} actions and the engine plays at most {ACTION_CAP} a game), got {st.turn_limit}",
                     "turn_limit")
    t.str("effect", "none", ("none",))

    # skills, then races and units (a skill's of_type / unit names a unit type, checked once all are read)
    sf = top.table("skills")
    later: list = []
    skill_names = tuple(sf.keys())
    if len(skill_names) > MAX_SKILLS:
        raise sf.fail(f"at most {MAX_SKILLS} skills (the engine's skill table), got {len(skill_names)}")
    st.skill_count = len(skill_names)
    for k, name in enumerate(skill_names):
        _read_skill(sf, name, st.skills[k], later)
    rf = top.table("races")
    races = tuple(rf.keys())
    if not races:
        raise rf.fail("must define at least one race")
    if len(races) > MAX_RACES:
        raise rf.fail(f"at most {MAX_RACES} races (the engine's race table), got {len(races)}")
    st.race_count = len(races)
    types: list[str] = []
    race_units, leaders, zh, authored = {}, {}, {}, []
    for ri, race in enumerate(races):
        if not re.fullmatch(r"[A-Za-z]+", race):
            raise rf.fail("a race name must be letters only (it starts an army id)", race)
        rt = rf.table(race)
        rt.reject_unknown(("zh", "authored", "leader", "units", "card_as_magic_if_units_le_enemy"))
        if rt.has("zh"):
            zh[race] = rt.str("zh")
        if rt.bool("authored", False):
            authored.append(race)
        st.races[ri].card_as_magic_if_units_le_enemy = int(rt.bool("card_as_magic_if_units_le_enemy", False))
        leader = rt.str("leader")
        uf = rt.table("units")
        if leader not in uf.keys():
            raise rt.fail(f"names {leader!r}, which is not one of its units", "leader")
        own = []
        for name in uf.keys():
            if not re.fullmatch(r"[A-Za-z]+", name):
                raise uf.fail("a unit name must be letters only (it appears in army ids)", name)
            if name in types:
                raise uf.fail(f"unit {name!r} is defined by two races", name)
            if len(types) == MAX_CARDS:
                raise uf.fail(f"at most {MAX_CARDS} unit types in a scenario (the engine's card table)", name)
            u = uf.table(name)
            u.reject_unknown(("zh", "type", "cost", "attack", "attack_type", "range", "hp", "move_type", "move",
                              "max_copies", "skills"))
            if u.has("zh"):
                zh[name] = u.str("zh")
            card = u.str("type", choices=CARD_TYPES)
            if (card == "leader") != (name == leader):
                raise u.fail(f"the race's leader is {leader!r}; exactly it has type 'leader'", "type")
            row = st.cards[len(types)]
            row.cost = _bounded(u, "cost", minimum=0)
            if card == "leader" and row.cost != 0:
                raise u.fail("a leader is free [R17]: cost must be 0", "cost")
            if card != "leader" and row.cost == 0:
                raise u.fail("a bought unit costs at least 1", "cost")
            row.attack = _small(u, "attack", minimum=0)
            row.ranged = ATTACK_TYPES.index(u.str("attack_type", choices=ATTACK_TYPES))
            if row.ranged:
                row.range = _small(u, "range", minimum=1)  # required for ranged units [R36]
            elif u.has("range"):
                raise u.fail("a melee unit has no range (melee_range applies)", "range")
            row.hp = _bounded(u, "hp", minimum=1)
            row.flies = MOVE_TYPES.index(u.str("move_type", choices=MOVE_TYPES))
            row.move = _small(u, "move", minimum=1)
            row.leader = int(card == "leader")
            row.hero = int(card == "hero")
            row.race = ri
            row.max_copies = _bounded(u, "max_copies", 1 if card == "hero" else min(int(st.max_units), COPIES_MAX),
                                      minimum=1, maximum=COPIES_MAX, why="an army id writes Unit*2 to Unit*9")
            if card == "hero" and row.max_copies != 1:
                raise u.fail("a hero is unique [R18]: max_copies must be 1", "max_copies")
            sks = u.get("skills", [])
            if not (isinstance(sks, list) and len(sks) <= CARD_SKILLS and all(isinstance(x, str) for x in sks)):
                raise u.fail(f"must be a list of at most {CARD_SKILLS} skill names", "skills")
            row.active = -1
            row.skills[:] = -1
            for j, sname in enumerate(sks):
                if sname not in skill_names:
                    raise u.fail(f"unknown skill {sname!r} (known: {', '.join(skill_names)})", "skills")
                k = skill_names.index(sname)
                row.skills[j] = k
                if st.skills[k].kind in ACTIVE_PRIMITIVES:
                    if row.active >= 0:
                        raise u.fail("at most one active skill (heal, free_active, summon) per unit", "skills")
                    row.active = k
            types.append(name)
            if card != "leader":
                own.append(name)
        leaders[race] = leader
        race_units[race] = tuple(sorted(own))
    for name, s, value in later:
        skill = st.skills[skill_names.index(name)]
        if value.startswith("unit:"):
            unit = value[5:]
            if unit not in types:
                raise s.fail(f"unknown unit {unit!r}", "unit")
            if st.cards[types.index(unit)].leader:
                raise s.fail(f"cannot summon a leader ({unit!r})", "unit")
            skill.unit = types.index(unit)
        else:
            special = {"any": OF_ANY, "melee": OF_MELEE, "ranged": OF_RANGED}
            if value not in special and value not in types:
                raise s.fail(f"must be 'any', 'melee', 'ranged' or a unit name, got {value!r}", "of_type")
            skill.of_type = special.get(value, types.index(value) if value in types else 0)
    if not types:
        raise rf.fail("no units")
    st.card_count = len(types)
    for race in races:
        if not race_units[race]:
            raise rf.fail("has no unit to buy besides its leader", race)
    read_bots(top.source, top.data)  # the bots are checked at load, not at the first game
    rules = Rules(packed=st, types=tuple(types), skills=skill_names, races=races, race_units=race_units,
                  leaders=leaders, zh=zh, authored=tuple(authored), lead=read_lead(top))
    a = top.table("armies", required=False)
    a.reject_unknown(ARMIES_KEYS)
    n = a.int("draw", 0, minimum=0)
    if not n:
        for key in ("seed", "spend"):
            if a.has(key):
                raise a.fail("only with draw (armies drawn per race and seat); give draw = N", key)
        return rules
    seed, spend = a.int("seed", 0, minimum=0), a.str("spend", "all", choices=SPENDS)
    draws = tuple(tuple(draw_armies(rules, b, n, seed, spend)) for b in rules.budgets)
    for s, armies_s in enumerate(draws):
        if not armies_s:
            raise a.fail(f"no {('first', 'second')[s]}-seat army costs {'exactly ' if spend == 'all' else 'at most '}"
                         f"{rules.budgets[s]} gold (rules.budgets[{s}]) in any race", "draw")
    return replace(rules, draws=draws)


def read_lead(top: Field) -> np.void:
    """The lead signal's weights of ``[lead]`` (:mod:`simkit.games.magic.lead`): ``leader`` and ``army``, numbers
    of at least 0 that are not both 0; a missing key (or table) takes simkit's default, 1.

    Raises:
        ScenarioError: ``file: lead.<key>: problem`` for an unknown key, a weight that is no number or below 0, or
            both weights 0.
    """
    f = top.table("lead", required=False)
    f.reject_unknown(tuple(LEAD_KEYS))
    weights = zeros(LEAD_WEIGHTS)
    for key, default in LEAD_KEYS.items():
        setattr(weights, key, number(f, key, default, minimum=0))
    if weights.leader + weights.army <= 0:
        raise f.fail("the weights leader and army must not both be 0 (the lead would say nothing)", "army")
    return weights


def deck_pool(rules: Rules, top: Field) -> list[str]:
    """With ``[armies] draw``, the armies drawn for the first seat then the second's new ones; else ``[armies]
    pool`` (canonical ids, file order) when given, else every legal army.

    A listed pool is fixed: a scenario moving a budget keeps its armies (those a seat cannot afford leave that
    seat, and one no seat can afford sits in none: :func:`seat_pools`). A draw follows the budgets. Read by the
    kit: :func:`simkit.games.kits.decks.deck_pool`.
    """
    if rules.draws is not None:
        return list(dict.fromkeys(rules.draws[0] + rules.draws[1]))

    def every_army() -> list[str]:
        try:
            return all_decks(rules)
        except ScenarioError:
            raise
        except ValueError as exc:  # too many to list at load
            raise top.table("rules").fail(f"the budgets, max_units and units' max_copies make {exc}; give an "
                                          "[armies] pool", "budgets") from None

    return read_pool(top, lambda deck: canonical_deck(rules, deck), every_army, table="armies", words="army",
                     keys=ARMIES_KEYS)


def deck_cards(rules: Rules, deck: str) -> dict[str, tuple[str, ...]]:
    """The race and the unit types of an army, each once."""
    race, counts = parse_army(rules, deck)
    return {"race": (race,), "unit": tuple(sorted(counts))}


def deck_counts(scenario, deck: str) -> dict[str, tuple[int, int]]:
    """The ``deck_counts`` capability: ``{unit: (copies, cost in gold)}`` of an army."""
    rules = scenario.game.rules
    _, counts = parse_army(rules, deck)
    return {u: (n, int(rules.packed.cards[rules.type_id(u)].cost)) for u, n in sorted(counts.items())}


def turn_limit(rules: Rules) -> int:
    """The last global turn a game can reach."""
    return int(rules.packed.turn_limit)


def seat_terms(rules: Rules) -> tuple[str, str]:
    """What each seat buys its army with, in words (the report's seat sentence): ``("12 gold", "13 gold")``."""
    return f"{rules.budgets[0]} gold", f"{rules.budgets[1]} gold"


def seat_pools(rules: Rules, decks) -> tuple[list[str], list[str]]:
    """The armies of ``decks`` each seat can afford (4.1: an army costing 13 sits only second); with ``[armies]
    draw``, those drawn for that seat at its budget."""
    if rules.draws is not None:
        return [d for d in decks if d in rules.draws[0]], [d for d in decks if d in rules.draws[1]]
    seats = [d for d in decks if seat_ok(rules, d, 0)], [d for d in decks if seat_ok(rules, d, 1)]
    for s in (0, 1):
        if decks and not seats[s]:
            raise ScenarioError(f"armies.pool: no listed army fits the {('first', 'second')[s]} seat's "
                                f"{rules.budgets[s]} gold (rules.budgets[{s}]); {FIXED_POOL}")
    return seats
