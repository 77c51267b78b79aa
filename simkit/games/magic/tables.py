"""The fixed ``Rules`` of a Magic War scenario: every number the engine reads, checked at load.

A scenario (``scenarios/magic/base.toml``) holds the rules (``[rules]``, ``[combat]``, ``[magic]``,
``[tactics]``), the skills as data (``[skills]``: each one of the ten primitives of the roster page,
B.1, with its parameters), the races and their units (``[races.<Race>]``), the sweep pool of armies
(``[armies] pool``, or ``[armies] draw``: armies drawn at each seat's budget) and the bots (``[bots.*]``).
Errors read ``file: key: problem``.

The engine reads three integer tables built here: ``st`` (settings, ``S_*``), ``ut`` (one row per unit
type, ``U_*`` columns) and ``sk`` (one row per skill, ``K_*`` columns), plus ``rc`` (per race: the Orc
card-as-magic restriction). An army is a multiset of a race's non-leader units, written canonically
as ``Race:Unit*n,Unit`` (:func:`canonical_deck`); :func:`armies` enumerates every legal one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

import numpy as np

from simkit.core.errors import ScenarioError
from simkit.core.rng import derive_seed
from simkit.games.kits.decks import deck_pool as read_pool
from simkit.scenario import Field

TOP_LEVEL_KEYS = ("rules", "combat", "magic", "tactics", "skills", "races", "armies", "bots")
#: the keys of ``[armies]``: a listed pool, or a draw at each seat's budget (``draw`` armies per race and seat)
ARMIES_KEYS = ("pool", "draw", "seed", "spend")
SPENDS = ("all", "any")
#: what a refused listed pool adds: the way to a pool that follows the budgets
FIXED_POOL = ("a listed pool is fixed: give [armies] draw = N to draw N armies per race at each seat's budget "
              "(scenarios/magic/budget-scan.toml)")

# ---- settings: st[S_*] ----------------------------------------------------------------------------------
(S_COLS, S_ROWS, S_LC0, S_LC1, S_D0LO, S_D0HI, S_D1LO, S_D1HI, S_MIN_UNITS, S_MAX_UNITS, S_B0, S_B1, S_EXACT,
 S_IMMUNE, S_TURN_LIMIT, S_TB0, S_TB1, S_TB2, S_SIDES, S_MELEE_RANGE, S_MELEE_HIT, S_RANGED_HIT, S_SHAPE,
 S_BLOCKED, S_JOINERS, S_SUMMON_ACT, S_PER_KILL, S_KINDS, S_COPIES, S_CAP, S_UNLOCK_CAP, S_UNLOCK_HP, S_NBANDS,
 S_BANDS) = range(34)
MAX_BANDS = 4
S_OBST = S_BANDS + 3 * MAX_BANDS        # obstacle bitmask (cell i -> bit i)
S_SIZE = S_OBST + 1

TIEBREAKS = ("leader_hp_fraction", "army_value_fraction", "draw")
TB_LEADER, TB_ARMY, TB_DRAW = range(3)
SHAPES = ("line", "manhattan")
JOINERS = ("not_attacked", "not_acted")

# ---- unit types: ut[t, U_*] -----------------------------------------------------------------------------
MAX_SKILLS = 4
(U_COST, U_ATK, U_RANGED, U_RANGE, U_HP, U_FLY, U_MOVE, U_LEADER, U_HERO, U_RACE, U_MAXC, U_ACTIVE) = range(12)
U_SK = 12                               # U_SK .. U_SK + MAX_SKILLS - 1: every skill of the unit (-1: none)
U_SIZE = U_SK + MAX_SKILLS
CARD_TYPES = ("leader", "hero", "troop")
ATTACK_TYPES = ("melee", "ranged")
MOVE_TYPES = ("walk", "fly")

# ---- skills: sk[k, K_*] ---------------------------------------------------------------------------------
PRIMITIVES = ("attack_modifier_aura", "damage_reduction", "attack_bonus_aura", "precision_aura", "move_bonus_aura",
              "heal", "free_active", "summon", "splash_on_clustered", "on_death")
(P_ATTACK_MOD, P_DAMAGE_RED, P_ATTACK_BONUS, P_PRECISION, P_MOVE_BONUS, P_HEAL, P_FREE, P_SUMMON, P_SPLASH,
 P_ON_DEATH) = range(10)
ACTIVE_PRIMITIVES = (P_HEAL, P_FREE, P_SUMMON)
(K_KIND, K_K, K_RADIUS, K_SELF, K_OFTYPE, K_RANGE, K_AMOUNT, K_MAGIC, K_TARGET, K_SELFDMG, K_MINHP, K_DICE, K_PREC,
 K_MOVE, K_UNIT, K_D1, K_D2, K_GAIN) = range(18)
K_SIZE = 18
OF_ANY, OF_MELEE, OF_RANGED = -1, -2, -3
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
_INT_PARAMS = {"k": K_K, "radius": K_RADIUS, "range": K_RANGE, "amount": K_AMOUNT, "magic": K_MAGIC,
               "self_damage": K_SELFDMG, "min_hp": K_MINHP, "dice": K_DICE, "precision": K_PREC, "move": K_MOVE,
               "gain_magic": K_GAIN}
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
#: the most steps the listing of every army may take at load (when no ``[armies] pool`` names them)
MAX_ARMY_STEPS = 100_000
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


ARMY_RE = re.compile(r"^[A-Za-z]+:[A-Za-z]+(\*[2-9])?(,[A-Za-z]+(\*[2-9])?)*$")


@dataclass(frozen=True)
class Rules:
    """Tables built once from a scenario; never part of a game's state.

    Attributes:
        st: ``int64[S_SIZE]`` settings; ut: ``int64[T, U_SIZE]`` unit types; sk: ``int64[K, K_SIZE]`` skills;
            rc: ``int64[R]`` per race, 1 when its tactical cards pay magic only while it has no more units
            on the board than the enemy.
        types: unit type names (row order of ``ut``); skills: skill names (row order of ``sk``).
        races: race names (in file order); race_units: per race, its non-leader unit names (ASCII order);
            leaders: per race, its leader's type name.
        zh: Chinese names by unit or race name (where the scenario gives one).
        authored: races whose numbers are marked ``authored = true``.
        draws: with ``[armies] draw``, the armies drawn for each seat at its own budget (first seat's,
            second seat's; :func:`draw_armies`), which then are the pool; ``None``: the pool is listed.
    """

    st: np.ndarray
    ut: np.ndarray
    sk: np.ndarray
    rc: np.ndarray
    types: tuple[str, ...]
    skills: tuple[str, ...]
    races: tuple[str, ...]
    race_units: dict
    leaders: dict
    zh: dict
    authored: tuple[str, ...]
    draws: tuple[tuple[str, ...], tuple[str, ...]] | None = None

    @property
    def cols(self) -> int:
        return int(self.st[S_COLS])

    @property
    def rows(self) -> int:
        return int(self.st[S_ROWS])

    @property
    def budgets(self) -> tuple[int, int]:
        return int(self.st[S_B0]), int(self.st[S_B1])

    def type_id(self, name: str) -> int:
        """The row of unit type ``name`` in ``ut``."""
        return self.types.index(name)

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


def _read_skill(f: Field, name: str, types_later: list) -> list[int]:
    s = f.table(name)
    kind = s.str("kind", choices=PRIMITIVES)
    s.reject_unknown(("kind",) + PARAMS[kind])
    row = [0] * K_SIZE
    row[K_KIND] = PRIMITIVES.index(kind)
    row[K_OFTYPE] = OF_ANY
    row[K_UNIT] = -1
    for p in PARAMS[kind]:
        if p in _INT_PARAMS:
            row[_INT_PARAMS[p]] = (_small if p in _SMALL_PARAMS else _bounded)(s, p, 0, minimum=0)
        elif p == "include_self":
            row[K_SELF] = int(s.bool(p, False))
        elif p == "target":
            row[K_TARGET] = ("self", "friend").index(s.str(p, "self", ("self", "friend")))
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
            row[K_D1], row[K_D2] = ring
    if kind in ("attack_modifier_aura", "damage_reduction", "precision_aura") and row[K_RADIUS] == 0 \
            and not row[K_SELF]:
        raise s.fail("covers no unit: radius 0 without include_self", "radius")
    return row


def build_rules(top: Field) -> Rules:
    """Validate the Magic War tables of a merged scenario and build its :class:`Rules`."""
    st = np.zeros(S_SIZE, np.int64)
    r = top.table("rules")
    r.reject_unknown(("cols", "rows", "leader_cells", "deploy_rows", "obstacles", "min_units", "max_units", "budgets",
                      "budget_exact", "leader_immune_turns", "turn_limit", "tiebreak"))
    cols, rows = _small(r, "cols", minimum=1), _small(r, "rows", minimum=2)
    if cols * rows > 63:
        raise r.fail(f"the board must have at most 63 cells (cols x rows), got {cols * rows}", "rows")
    st[S_COLS], st[S_ROWS] = cols, rows
    lc = r.get("leader_cells")
    if not (isinstance(lc, list) and len(lc) == 2):
        raise r.fail("must be two cells [[c, r], [c, r]] (first player's crown, second's)", "leader_cells")
    crowns = [_cell(r, "leader_cells", v, cols, rows) for v in lc]
    st[S_LC0], st[S_LC1] = (cr[1] * cols + cr[0] for cr in crowns)
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
    st[S_D0LO], st[S_D0HI], st[S_D1LO], st[S_D1HI] = dr[0][0], dr[0][1], dr[1][0], dr[1][1]
    obst = r.get("obstacles", [])
    if not isinstance(obst, list):
        raise r.fail("must be a list of cells [c, r]", "obstacles")
    mask = 0
    for v in obst:
        c, rr = _cell(r, "obstacles", v, cols, rows)
        i = rr * cols + c
        if i in (st[S_LC0], st[S_LC1]):
            raise r.fail(f"cell {v} is a crown", "obstacles")
        mask |= 1 << i
    st[S_OBST] = mask
    st[S_MIN_UNITS] = _small(r, "min_units", 1, minimum=1)
    from simkit.games.magic.engine import MAXU  # the engine's unit slots (it reads these tables' layout)

    st[S_MAX_UNITS] = _bounded(r, "max_units", 9, minimum=1, maximum=MAXU // 2 - 1,
                               why=f"both armies and their leaders fill the engine's {MAXU} unit slots")
    if st[S_MIN_UNITS] > st[S_MAX_UNITS]:
        raise r.fail("must be at most max_units", "min_units")
    for s in (0, 1):
        lo, hi = (st[S_D0LO], st[S_D0HI]) if s == 0 else (st[S_D1LO], st[S_D1HI])
        free = (hi - lo + 1) * cols - 1 - sum(1 for i in range(lo * cols, (hi + 1) * cols) if mask >> i & 1)
        if st[S_MAX_UNITS] > free:
            raise r.fail(f"must be at most the {free} free deployment cells of side {s}", "max_units")
    b = r.int_list("budgets", length=2, minimum=0)
    if max(b) > VALUE_MAX:
        raise r.fail(f"must be at most {VALUE_MAX} ({_WHY}), got {b}", "budgets")
    st[S_B0], st[S_B1] = b
    st[S_EXACT] = int(r.bool("budget_exact", False))
    st[S_IMMUNE] = _bounded(r, "leader_immune_turns", 1, minimum=0)
    st[S_TURN_LIMIT] = r.int("turn_limit", 60, minimum=1, dtype=np.int16)
    tb = r.get("tiebreak", list(TIEBREAKS))
    if not (isinstance(tb, list) and 1 <= len(tb) <= 3 and all(t in TIEBREAKS for t in tb) and len(set(tb)) == len(tb)
            and tb[-1] == "draw"):
        raise r.fail(f"must be distinct names of {', '.join(TIEBREAKS)} ending with 'draw', got {tb!r}", "tiebreak")
    tb = tb + ["draw"] * (3 - len(tb))
    st[S_TB0], st[S_TB1], st[S_TB2] = (TIEBREAKS.index(t) for t in tb)

    c = top.table("combat")
    c.reject_unknown(("die_sides", "melee_range", "melee_hit_min", "ranged_hit_min", "ranged_shape", "ranged_blocked",
                      "combined_joiners", "summoned_can_act"))
    st[S_SIDES] = _bounded(c, "die_sides", 6, minimum=2)
    st[S_MELEE_RANGE] = _small(c, "melee_range", 1, minimum=1)
    st[S_MELEE_HIT] = _bounded(c, "melee_hit_min", 3, minimum=1)
    st[S_RANGED_HIT] = _bounded(c, "ranged_hit_min", 4, minimum=1)
    st[S_SHAPE] = SHAPES.index(c.str("ranged_shape", "line", SHAPES))
    st[S_BLOCKED] = int(c.bool("ranged_blocked", True))
    st[S_JOINERS] = JOINERS.index(c.str("combined_joiners", "not_attacked", JOINERS))
    st[S_SUMMON_ACT] = int(c.bool("summoned_can_act", True))

    m = top.table("magic")
    m.reject_unknown(("per_kill", "activation"))
    st[S_PER_KILL] = _bounded(m, "per_kill", 1)
    m.str("activation", "owner_next_turn", ("owner_next_turn",))

    t = top.table("tactics")
    t.reject_unknown(("kinds", "copies", "draw_by_cost", "cap", "unlocked_cap", "unlock_leader_hp", "effect"))
    st[S_KINDS] = _small(t, "kinds", 14, minimum=1)
    st[S_COPIES] = _small(t, "copies", 2, minimum=1)
    if st[S_KINDS] * st[S_COPIES] > 64:
        raise t.fail("the tactical deck holds at most 64 cards (kinds x copies)", "copies")
    bands = t.get("draw_by_cost", [])
    if not (isinstance(bands, list) and len(bands) <= MAX_BANDS and all(isinstance(x, list) and len(x) == 3
                                                                       for x in bands)):
        raise t.fail(f"must be at most {MAX_BANDS} bands [min cost, max cost, cards]", "draw_by_cost")
    st[S_NBANDS] = len(bands)
    for k, band in enumerate(bands):
        lo, hi, n = (t.check_int(v, "draw_by_cost", minimum=0) for v in band)
        if max(lo, hi) > VALUE_MAX or n > SMALL_MAX:
            raise t.fail(f"band {band}: costs at most {VALUE_MAX}, cards at most {SMALL_MAX} ({_SMALL_WHY})",
                         "draw_by_cost")
        if lo > hi or lo == 0:
            raise t.fail(f"band {band}: must have 1 <= min cost <= max cost", "draw_by_cost")
        st[S_BANDS + 3 * k: S_BANDS + 3 * k + 3] = lo, hi, n
    st[S_CAP] = _small(t, "cap", 4)
    st[S_UNLOCK_CAP] = _small(t, "unlocked_cap", 5)
    st[S_UNLOCK_HP] = _bounded(t, "unlock_leader_hp", 2)
    if st[S_UNLOCK_CAP] < st[S_CAP]:
        raise t.fail("must be at least cap", "unlocked_cap")
    from simkit.games.magic.bots import ACTION_CAP

    per_turn = 3 * (int(st[S_MAX_UNITS]) + 1) + int(st[S_UNLOCK_CAP]) + 1  # moves, attacks, skills, cards, end
    if st[S_TURN_LIMIT] * per_turn > ACTION_CAP:
        raise r.fail(f"must be at most {ACTION_CAP // per_turn} with max_units {st[S_MAX_UNITS]} (a turn may take "
                     f"{per_turn} actions and the engine plays at most {ACTION_CAP} a game), got {st[S_TURN_LIMIT]}",
                     "turn_limit")
    t.str("effect", "none", ("none",))

    # skills, then races and units (a skill's of_type / unit names a unit type, checked once all are read)
    sf = top.table("skills")
    later: list = []
    skill_names = tuple(sf.keys())
    sk_rows = [_read_skill(sf, name, later) for name in skill_names]
    rf = top.table("races")
    races = tuple(rf.keys())
    if not races:
        raise rf.fail("must define at least one race")
    types: list[str] = []
    ut_rows: list[list[int]] = []
    race_units, leaders, zh, authored = {}, {}, {}, []
    rc = np.zeros(len(races), np.int64)
    for ri, race in enumerate(races):
        if not re.fullmatch(r"[A-Za-z]+", race):
            raise rf.fail("a race name must be letters only (it starts an army id)", race)
        rt = rf.table(race)
        rt.reject_unknown(("zh", "authored", "leader", "units", "card_as_magic_if_units_le_enemy"))
        if rt.has("zh"):
            zh[race] = rt.str("zh")
        if rt.bool("authored", False):
            authored.append(race)
        rc[ri] = int(rt.bool("card_as_magic_if_units_le_enemy", False))
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
            u = uf.table(name)
            u.reject_unknown(("zh", "type", "cost", "attack", "attack_type", "range", "hp", "move_type", "move",
                              "max_copies", "skills"))
            if u.has("zh"):
                zh[name] = u.str("zh")
            card = u.str("type", choices=CARD_TYPES)
            if (card == "leader") != (name == leader):
                raise u.fail(f"the race's leader is {leader!r}; exactly it has type 'leader'", "type")
            row = [0] * U_SIZE
            row[U_COST] = _bounded(u, "cost", minimum=0)
            if card == "leader" and row[U_COST] != 0:
                raise u.fail("a leader is free [R17]: cost must be 0", "cost")
            if card != "leader" and row[U_COST] == 0:
                raise u.fail("a bought unit costs at least 1", "cost")
            row[U_ATK] = _small(u, "attack", minimum=0)
            row[U_RANGED] = ATTACK_TYPES.index(u.str("attack_type", choices=ATTACK_TYPES))
            if row[U_RANGED]:
                row[U_RANGE] = _small(u, "range", minimum=1)  # required for ranged units [R36]
            elif u.has("range"):
                raise u.fail("a melee unit has no range (melee_range applies)", "range")
            row[U_HP] = _bounded(u, "hp", minimum=1)
            row[U_FLY] = MOVE_TYPES.index(u.str("move_type", choices=MOVE_TYPES))
            row[U_MOVE] = _small(u, "move", minimum=1)
            row[U_LEADER] = int(card == "leader")
            row[U_HERO] = int(card == "hero")
            row[U_RACE] = ri
            row[U_MAXC] = _bounded(u, "max_copies", 1 if card == "hero" else min(int(st[S_MAX_UNITS]), COPIES_MAX),
                                    minimum=1, maximum=COPIES_MAX, why="an army id writes Unit*2 to Unit*9")
            if card == "hero" and row[U_MAXC] != 1:
                raise u.fail("a hero is unique [R18]: max_copies must be 1", "max_copies")
            sks = u.get("skills", [])
            if not (isinstance(sks, list) and len(sks) <= MAX_SKILLS and all(isinstance(x, str) for x in sks)):
                raise u.fail(f"must be a list of at most {MAX_SKILLS} skill names", "skills")
            row[U_ACTIVE] = -1
            for j in range(MAX_SKILLS):
                row[U_SK + j] = -1
            for j, sname in enumerate(sks):
                if sname not in skill_names:
                    raise u.fail(f"unknown skill {sname!r} (known: {', '.join(skill_names)})", "skills")
                k = skill_names.index(sname)
                row[U_SK + j] = k
                if sk_rows[k][K_KIND] in ACTIVE_PRIMITIVES:
                    if row[U_ACTIVE] >= 0:
                        raise u.fail("at most one active skill (heal, free_active, summon) per unit", "skills")
                    row[U_ACTIVE] = k
            types.append(name)
            ut_rows.append(row)
            if card != "leader":
                own.append(name)
        leaders[race] = leader
        race_units[race] = tuple(sorted(own))
    for name, s, value in later:
        if value.startswith("unit:"):
            unit = value[5:]
            if unit not in types:
                raise s.fail(f"unknown unit {unit!r}", "unit")
            if ut_rows[types.index(unit)][U_LEADER]:
                raise s.fail(f"cannot summon a leader ({unit!r})", "unit")
            sk_rows[skill_names.index(name)][K_UNIT] = types.index(unit)
        else:
            special = {"any": OF_ANY, "melee": OF_MELEE, "ranged": OF_RANGED}
            if value not in special and value not in types:
                raise s.fail(f"must be 'any', 'melee', 'ranged' or a unit name, got {value!r}", "of_type")
            sk_rows[skill_names.index(name)][K_OFTYPE] = special.get(value, types.index(value) if value in types else 0)
    if not types:
        raise rf.fail("no units")
    ut = np.array(ut_rows, np.int64)
    sk = np.array(sk_rows, np.int64).reshape(len(sk_rows), K_SIZE)
    for race in races:
        if not race_units[race]:
            raise rf.fail("has no unit to buy besides its leader", race)
    from simkit.games.magic.batch import read_bots  # the bots are checked at load, not at the first game

    read_bots(top.source, top.data)
    rules = Rules(st=st, ut=ut, sk=sk, rc=rc, types=tuple(types), skills=skill_names, races=races,
                  race_units=race_units, leaders=leaders, zh=zh, authored=tuple(authored))
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


# ---- armies ----------------------------------------------------------------------------------------------


def count_vectors(costs, caps, budget: int, min_units: int, max_units: int, exact: bool = False,
                  limit: int | None = None) -> list[tuple]:
    """Every vector ``k`` with ``0 <= k_j <= caps[j]``, ``min_units <= sum(k) <= max_units`` and
    ``sum(k_j * costs[j]) <= budget`` (``== budget`` when ``exact``), by direct recursion (the page's 3.3).

    Raises:
        ValueError: the recursion passes ``limit`` steps (too many armies to list).
    """
    out: list[tuple] = []
    n = len(costs)
    k = [0] * n
    steps = [0]

    def rec(j: int, gold: int, units: int) -> None:
        steps[0] += 1
        if limit is not None and steps[0] > limit:
            raise ValueError(f"more than {limit} armies to look through")
        if j == n:
            if units >= min_units and (gold == budget if exact else True):
                out.append(tuple(k))
            return
        for x in range(0, caps[j] + 1):
            g, u = gold + x * costs[j], units + x
            if g > budget or u > max_units:
                break
            k[j] = x
            rec(j + 1, g, u)
        k[j] = 0

    rec(0, 0, 0)
    return out


def army_id(race: str, counts: dict[str, int]) -> str:
    """The canonical id ``Race:Unit*n,Unit`` (units in ASCII order, ``*n`` only for n >= 2)."""
    parts = [u if n == 1 else f"{u}*{n}" for u, n in sorted(counts.items()) if n > 0]
    return f"{race}:" + ",".join(parts)


def armies(rules: Rules, race: str, budget: int) -> list[str]:
    """Every legal army of ``race`` at ``budget`` (1..max units, each within max_copies), ids sorted by ASCII."""
    names = rules.race_units[race]
    costs = [int(rules.ut[rules.type_id(u), U_COST]) for u in names]
    caps = [int(rules.ut[rules.type_id(u), U_MAXC]) for u in names]
    vecs = count_vectors(costs, caps, budget, int(rules.st[S_MIN_UNITS]), int(rules.st[S_MAX_UNITS]),
                         bool(rules.st[S_EXACT]), limit=MAX_ARMY_STEPS)
    return sorted(army_id(race, dict(zip(names, v))) for v in vecs)


def draw_armies(rules: Rules, budget: int, n: int, seed: int, spend: str = "all") -> list[str]:
    """``n`` armies per race drawn at ``budget``, without replacement, race by race (file order), ids sorted.

    ``spend = "all"``: among the legal armies costing exactly ``budget`` (a player spends his gold);
    ``"any"``: among every legal army within it. The draw of a race depends only on ``(seed, race, budget,
    spend)``, so two seats with the same budget draw the same armies and a seat's draw does not move when the
    other seat's budget does (``simkit scan`` over ``rules.budgets[1]`` keeps the first seat's armies). A race
    with fewer than ``n`` such armies gives them all.
    """
    out: list[str] = []
    for race in rules.races:
        pool = armies(rules, race, budget)
        if spend == "all":
            pool = [d for d in pool if army_cost(rules, parse_army_counts(rules, d)) == budget]
        if not pool:
            continue
        rng = np.random.default_rng(derive_seed(seed, "magic-armies", race, budget, spend))
        out.extend(pool[i] for i in sorted(rng.choice(len(pool), size=min(n, len(pool)), replace=False)))
    return out


def parse_army_counts(rules: Rules, deck: str) -> dict[str, int]:
    """``{unit: count}`` of a canonical army id (no checks: for ids :func:`armies` made)."""
    counts = {}
    for part in deck.partition(":")[2].split(","):
        name, _, k = part.partition("*")
        counts[name] = int(k) if k else 1
    return counts


def parse_army(rules: Rules, deck: str) -> tuple[str, dict[str, int]]:
    """``(race, {unit: count})`` of an army id; raises :class:`ScenarioError` naming the army and the rule broken.

    The units may come in any order and repeat; the counts must keep 1..max units, each unit's
    max_copies and the larger budget (seat budgets are checked when a game is set up: :func:`check_seat`).
    """
    if not isinstance(deck, str) or not ARMY_RE.match(deck.replace(" ", "")):
        raise ScenarioError(f"army {deck!r}: not of the form Race:Unit*n,Unit (regex {ARMY_RE.pattern})")
    race, _, rest = deck.replace(" ", "").partition(":")
    if race not in rules.races:
        raise ScenarioError(f"army {deck!r}: unknown race {race!r} (known: {', '.join(rules.races)})")
    counts: dict[str, int] = {}
    for part in rest.split(","):
        name, _, n = part.partition("*")
        if name == rules.leaders[race]:
            raise ScenarioError(f"army {deck!r}: the leader {name} is not bought [R17]")
        if name not in rules.race_units[race]:
            raise ScenarioError(f"army {deck!r}: {name!r} is not a {race} unit "
                                f"(known: {', '.join(rules.race_units[race])})")
        counts[name] = counts.get(name, 0) + (int(n) if n else 1)
    total = sum(counts.values())
    lo, hi = int(rules.st[S_MIN_UNITS]), int(rules.st[S_MAX_UNITS])
    if not lo <= total <= hi:
        raise ScenarioError(f"army {deck!r}: {total} units, an army has {lo} to {hi} [R19]")
    for name, n in counts.items():
        cap = int(rules.ut[rules.type_id(name), U_MAXC])
        if n > cap:
            raise ScenarioError(f"army {deck!r}: {n} x {name}, at most {cap} [R18]")
    cost = army_cost(rules, counts)
    top = max(rules.budgets)
    if cost > top:
        raise ScenarioError(f"army {deck!r}: costs {cost} gold, more than either budget {list(rules.budgets)} [R16]")
    if rules.st[S_EXACT] and cost not in rules.budgets:
        raise ScenarioError(f"army {deck!r}: costs {cost} gold; budget_exact needs one of {list(rules.budgets)}")
    return race, counts


def army_cost(rules: Rules, counts: dict[str, int]) -> int:
    """The gold an army's units cost."""
    return sum(int(rules.ut[rules.type_id(u), U_COST]) * n for u, n in counts.items())


def check_seat(rules: Rules, deck: str, seat: int) -> None:
    """Raise :class:`ScenarioError` when army ``deck`` may not sit in ``seat`` (its cost against that seat's budget)."""
    _, counts = parse_army(rules, deck)
    cost, budget = army_cost(rules, counts), rules.budgets[seat]
    if cost > budget or (rules.st[S_EXACT] and cost != budget):
        word = "exactly" if rules.st[S_EXACT] else "at most"
        raise ScenarioError(f"army {deck!r} costs {cost} gold: seat {seat} ({('first', 'second')[seat]} player) "
                            f"buys with {word} {budget} [R16]")


def seat_ok(rules: Rules, deck: str, seat: int) -> bool:
    """True when army ``deck`` may sit in ``seat``."""
    try:
        check_seat(rules, deck, seat)
    except ScenarioError:
        return False
    return True


def canonical_deck(rules: Rules, deck: str) -> str:
    """The canonical id of a legal army; raises :class:`ScenarioError` naming an illegal one."""
    race, counts = parse_army(rules, deck)
    return army_id(race, counts)


def army_units(rules: Rules, deck: str) -> list[str]:
    """The units of an army, one name per unit, in canonical order (the engine's slot order)."""
    race, counts = parse_army(rules, deck)
    return [u for u, n in sorted(counts.items()) for _ in range(n)]


def all_decks(rules: Rules) -> list[str]:
    """Every legal army of every race at the larger budget (those within the smaller one may sit in either seat)."""
    top = max(rules.budgets)
    return [a for race in rules.races for a in armies(rules, race, top) if any(seat_ok(rules, a, s) for s in (0, 1))]


def deck_pool(rules: Rules, top: Field) -> list[str]:
    """With ``[armies] draw``, the armies drawn for the first seat then the second's new ones; else ``[armies]
    pool`` (canonical ids, file order) when given, else every legal army.

    A listed pool is fixed: a scenario moving a budget keeps its armies (those a seat cannot afford leave that
    seat). A draw follows the budgets. Read by the kit: :func:`simkit.games.kits.decks.deck_pool`.
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

    try:
        return read_pool(top, lambda deck: canonical_deck(rules, deck), every_army, table="armies", words="army",
                         keys=ARMIES_KEYS)
    except ScenarioError as exc:
        if "[R16]" not in str(exc):
            raise
        raise ScenarioError(f"{exc}; {FIXED_POOL}") from None


def deck_cards(rules: Rules, deck: str) -> dict[str, tuple[str, ...]]:
    """The race and the unit types of an army, each once."""
    race, counts = parse_army(rules, deck)
    return {"race": (race,), "unit": tuple(sorted(counts))}


def deck_counts(scenario, deck: str) -> dict[str, tuple[int, int]]:
    """The ``deck_counts`` capability: ``{unit: (copies, cost in gold)}`` of an army."""
    rules = scenario.game.rules
    _, counts = parse_army(rules, deck)
    return {u: (n, int(rules.ut[rules.type_id(u), U_COST])) for u, n in sorted(counts.items())}


def turn_limit(rules: Rules) -> int:
    """The last global turn a game can reach."""
    return int(rules.st[S_TURN_LIMIT])


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
