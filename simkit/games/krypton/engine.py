"""The rules of Krypton Tower War, once: functions over one game's state that numba compiles.

Every rule of ``shared/rules/krypton-tower-war.md`` lives here and only here. The same functions run compiled
in sweeps (:mod:`simkit.games.krypton.batch`), behind the single-game view (the tests, ``Match``, ``narrate``,
``render``, ``check`` and the search bots' Python side) and, with ``NUMBA_DISABLE_JIT=1``, as plain Python (a
test plays games both ways and finds them equal). The bots predict what an action does
with the predicates below (:func:`enters_hit_range`, :func:`entry_allowed`, :func:`hero_bonus`...), never
with a rule of their own.

The state of one game is a :data:`~simkit.games.krypton.state.GAME` record ``s`` (``s.sides[side].heroes[k]``,
``s.this_turn``, ``s.judgment``...) and the scenario's numbers one :data:`~simkit.games.krypton.state.RULES`
record ``rules`` (both declared in :mod:`simkit.games.krypton.state`), plus the map's distance and neighbour
tables.

After each action :func:`do` runs everything automatic (draws, preparation, the movement roll, dice,
tower hits, deaths) up to the next decision, and :func:`to_act` names the seat that owes it: the side
whose hero turn it is, the defending side inside an attack judgment's counter windows (only while it
holds a counter card it may play there) or the side of a hero that just died (its revival choice).

Actions are integers ``kind * 1_000_000 + a * 1000 + (b + 1)`` (:func:`enc`); the Match names them as
tuples (``("step", x, y, z)``, ``("attack", x, y, z[, "tower"])``...; see ``docs/krypton.md``).

Randomness: one counter-based stream per game (``derive_seed(seed, "krypton")`` is the key, draw ``n``
is ``derive_seed(key, n)``, :func:`draw`), so a game depends only on its seed and its actions. Events
(for the text log and the pictures) go to a separate ``int64[N, EVW]`` buffer; a buffer with no rows
logs nothing (sweeps) but the events are still counted.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
from numba import njit

from simkit.games.kits.mix import mix64 as _mix
from simkit.games.kits.numba_cache import drop_stale_cache
from simkit.games.krypton.state import (
    C_BLOOD,
    C_CATACLYSM,
    C_CURSE,
    C_EARTHSPLIT,
    C_FIRESTORM,
    C_GRACE,
    C_IGNITE,
    C_INSPIRE,
    C_IRON,
    C_PACT,
    C_PURSUIT,
    C_SAME_END,
    C_SHUTTLE,
    C_SWAP,
    C_UNITY,
    C_WILL,
    CARDS,
    COUNTER_CARDS,
    DRAW,
    E_ATTACK,
    E_DICE,
    E_HAND,
    END_BASE,
    END_LOCK,
    END_SUDDEN_DEATH,
    END_TURN_LIMIT,
    HS_BOARD,
    HS_DEAD,
    HS_FLIPPED,
    LOSER_ATTACKER,
    LOSER_DEFENDER,
    LOSER_NONE,
    MAXBL,
    MAXC,
    MAXDICE,
    MAXH,
    MAXLEGAL,
    NCARDS,
    PLAYING,
    T_BASE,
    T_FOREST,
    T_HILL,
    T_PLAIN,
    T_VEIN,
    TK_BASE,
    TK_HERO,
    TK_TOWER,
    W_COMPARE,
    W_DAMAGE,
    W_DECLARE,
    W_UNITY,
)

# numba keys a function's cache on its own file only; the bots' kernels hold engine code, the state's
# declaration and the lead signal's experience figures, so the cache of the package goes whenever one of these
# sources changes
_HERE = Path(__file__).parent
drop_stale_cache(_HERE, [_HERE / "state.py", _HERE / "engine.py", _HERE / "bots.py", _HERE / "lead.py",
                         _HERE.parent / "kits" / "mix.py", _HERE.parent / "kits" / "state.py",
                         _HERE.parent / "kits" / "experience.py"])

# un-jitted (NUMBA_DISABLE_JIT=1) the stream's uint64 arithmetic wraps as compiled, but numpy warns
warnings.filterwarnings("ignore", message="overflow encountered in scalar", category=RuntimeWarning,
                        module=r"simkit\.games\.(krypton\.(engine|bots)|kits\.mix)")

IS_COUNTER = np.array([1 if c in COUNTER_CARDS else 0 for c in CARDS], np.int64)
#: card ids in the order of their names (the order normal plays are offered)
BY_NAME = np.array(sorted(range(NCARDS), key=lambda i: CARDS[i]), np.int64)

# ---- actions --------------------------------------------------------------------------------------
K_STEP, K_ATTACK, K_GATHER, K_BUILD, K_STANDBY, K_UPGRADE, K_PLAY, K_PASS, K_REVIVE, K_END = range(1, 11)
KIND_NAMES = (None, "step", "attack", "gather", "build", "standby", "upgrade", "play", "pass", "revive", "end")

# ---- events: row [turn, kind, a1..a8] (the dice event: side, counts, then both sides' dice) ---------------
EVW = 5 + 2 * MAXDICE
(EV_ROLL, EV_STEP, EV_DAMAGE, EV_DEATH, EV_REVIVE, EV_RETURN, EV_UNFLIP, EV_NO_SPAWN, EV_ATTACK, EV_DICE, EV_TOTALS,
 EV_COUNTER, EV_PLAY, EV_GATHER, EV_BUILD, EV_UPGRADE, EV_STANDBY, EV_DESTROYED, EV_IRON, EV_BASE_HIT,
 EV_BASE_DESTROYED, EV_CAP, EV_END, EV_LOCK, EV_SUDDEN_DEATH) = range(25)
EVENT_NAMES = ("roll", "step", "damage", "death", "revive", "return", "unflip", "no_spawn", "attack", "dice", "totals",
               "counter", "play", "gather", "build", "upgrade", "standby", "destroyed", "iron_wall", "base_hit",
               "base_destroyed", "cap", "end", "lock", "sudden_death")
# damage sources (a card: SRC_CARD + card id)
SRC_JUDGMENT, SRC_SAME_END, SRC_TOWER_MOVE, SRC_TOWER_END, SRC_CARD = 0, 1, 2, 3, 100

# why an action was refused
OK, ILLEGAL, OVER = 0, 1, 2


# ---- the random stream: simkit.core.rng.derive_seed on integers, one draw at a time ------------
_H0 = np.uint64(0x243F6A8885A308D3)
_LOW63 = np.uint64(0x7FFFFFFFFFFFFFFF)


@njit(cache=True)
def seed2(a, b):
    """``simkit.core.rng.derive_seed(a, b)`` for two non-negative integers."""
    h = _mix(_H0 ^ np.uint64(a))
    h = _mix(h ^ np.uint64(b))
    return np.int64(h & _LOW63)


@njit(cache=True)
def seed3(a, b, c):
    """``simkit.core.rng.derive_seed(a, b, c)`` for three non-negative integers."""
    h = _mix(_H0 ^ np.uint64(a))
    h = _mix(h ^ np.uint64(b))
    h = _mix(h ^ np.uint64(c))
    return np.int64(h & _LOW63)


@njit(cache=True)
def draw(s, n):
    """A number in ``0..n-1`` from the game's stream (the next draw)."""
    s.ctr += 1
    return seed2(s.key, s.ctr) % n


@njit(cache=True)
def die(s, rules):
    """One die: scripted (tests) while a script is set, else from the stream."""
    if s.n_scripted != 0:  # -1: scripted, no die at all
        if s.next_scripted >= max(s.n_scripted, 0):
            s.script_overrun = 1
            return 1
        s.next_scripted += 1
        return s.scripted[s.next_scripted - 1]
    return 1 + draw(s, rules.dice_sides)


@njit(cache=True, inline="always")  # small, called with many argument types: one compile each otherwise
def enc(kind, a, b):
    """The action code of ``(kind, a, b)``."""
    return kind * 1_000_000 + a * 1000 + (b + 1)


@njit(cache=True)
def dec(code):
    """``(kind, a, b)`` of an action code."""
    return code // 1_000_000, code // 1000 % 1000, code % 1000 - 1


@njit(cache=True, inline="always")  # small, called with many argument types: one compile each otherwise
def log(s, ev, kind, a1, a2, a3, a4, a5, a6, a7, a8):
    """Append one event row (counted even when the buffer has no room)."""
    n = s.n_events
    if n < ev.shape[0]:
        ev[n, 0] = s.turn
        ev[n, 1] = kind
        ev[n, 2] = a1
        ev[n, 3] = a2
        ev[n, 4] = a3
        ev[n, 5] = a4
        ev[n, 6] = a5
        ev[n, 7] = a6
        ev[n, 8] = a7
        ev[n, 9] = a8
        for i in range(10, ev.shape[1]):
            ev[n, i] = 0
    s.n_events = n + 1


# ---- reading the state --------------------------------------------------------------------------------

@njit(cache=True)
def hero(s, side, k):
    """Hero ``k`` of ``side`` (a record: writing it writes the game)."""
    return s.sides[side].heroes[k]


@njit(cache=True)
def cur_side(s):
    """The side whose hero turn it is."""
    return s.turn % 2


@njit(cache=True)
def cur_hero(s, rules):
    """The acting hero's index in its team."""
    return s.turn // 2 % rules.team


@njit(cache=True)
def is_over(s):
    """The game has ended (a base destroyed or the round cap)."""
    return s.winner >= 0


@njit(cache=True)
def on_board(s, side, k):
    """Hero ``k`` of ``side`` is on the board (alive, face up or flipped)."""
    return hero(s, side, k).state != HS_DEAD


@njit(cache=True)
def hero_at(s, rules, cell):
    """``side * MAXH + k`` of the hero on ``cell`` (alive), else -1."""
    for side in range(2):
        for k in range(rules.team):
            h = hero(s, side, k)
            if h.state != HS_DEAD and h.cell == cell:
                return side * MAXH + k
    return -1


@njit(cache=True)
def n_towers(s, rules, side, eff):
    """Towers of ``side`` with effect ``eff`` (-1: any)."""
    n = 0
    for c in range(rules.cells):
        if s.tower_side[c] == side and (eff < 0 or rules.towers[s.tower_kind[c]].effect == eff):
            n += 1
    return n


@njit(cache=True)
def dice_of_towers(rules, prayer_towers):
    """A side's dice in attack judgments with ``prayer_towers`` Prayer Towers: 1 + them, at most ``max_dice``."""
    return min(rules.max_dice, 1 + prayer_towers)


@njit(cache=True)
def dice_count(s, rules, side):
    """The side's dice in attack judgments (section 5)."""
    return dice_of_towers(rules, n_towers(s, rules, side, E_DICE))


@njit(cache=True)
def hand_limit(s, rules, side):
    """The side's magic hand limit: ``hand_limit`` + its Magic Towers."""
    return rules.hand_limit + n_towers(s, rules, side, E_HAND)


@njit(cache=True)
def terrain_points(s, rules, cell):
    """Terrain points of ``cell`` now (move cost and combat bonus)."""
    return rules.terrain_points[s.terrain[cell]]


@njit(cache=True)
def siege_defense(rules, tier, round_index):
    """A base's defence at ``tier`` in the 0-based round ``round_index``: its tier's, lowered under the authored
    siege (``siege_round`` N above 0) by ``siege_step`` for every round past N, never below 0."""
    d = rules.base_defense[tier - 1]
    past = round_index + 1 - rules.siege
    if rules.siege > 0 and past > 0:
        d = max(0, d - rules.siege_step * past)
    return d


@njit(cache=True)
def base_defense(s, rules, side):
    """The side's base defence at its tier (and, under the authored siege, in this round)."""
    return siege_defense(rules, s.sides[side].tier, s.turn // (2 * rules.team))


@njit(cache=True)
def base_cell(rules, side):
    """The cell of ``side``'s base."""
    return rules.bases[side]


@njit(cache=True)
def is_base_cell(s, cell):
    """``cell`` is a base (section 3: it has no terrain and nothing enters it)."""
    return s.terrain[cell] == T_BASE


@njit(cache=True)
def entry_allowed(s, cell, side):
    """Ground a hero of ``side`` may enter (section 3): not a base, no enemy building (heroes aside)."""
    if is_base_cell(s, cell):
        return False
    return s.tower_side[cell] < 0 or s.tower_side[cell] == side


@njit(cache=True)
def enterable(s, rules, cell, side):
    """A hero of ``side`` may enter ``cell``: not a base, no hero, no enemy building."""
    return entry_allowed(s, cell, side) and hero_at(s, rules, cell) < 0


@njit(cache=True)
def entry_cost(s, rules, cell, shuttle):
    """What entering ``cell`` costs (section 9): its terrain points, 1 under Shuttle (``shuttle``)."""
    return 1 if shuttle else terrain_points(s, rules, cell)


@njit(cache=True)
def step_cost(s, rules, cell):
    """What entering ``cell`` costs the acting hero now."""
    return entry_cost(s, rules, cell, s.this_turn.shuttle)


@njit(cache=True)
def buildable(s, rules, cell):
    """A tower may stand on ``cell``: plain (a spent vein included), no spawn point, no building."""
    return s.terrain[cell] == T_PLAIN and rules.spawn_point[cell] == 0 and s.tower_side[cell] < 0


@njit(cache=True)
def may_build_kind(s, rules, side, kind):
    """``side``'s base allows tower ``kind`` (section 5: a Prayer Tower needs the ``prayer_tier``)."""
    return rules.towers[kind].effect != E_DICE or s.sides[side].tier >= rules.prayer_tier


@njit(cache=True)
def can_gather(s, cell):
    """A hero on ``cell`` may gather (section 6): a vein with stock left."""
    return s.terrain[cell] == T_VEIN and s.stock[cell] > 0


@njit(cache=True)
def gather_yield(s, rules, cell):
    """What a gather on ``cell`` takes: ``min(yield, stock)``."""
    return min(rules.vein_yield[cell], s.stock[cell])


@njit(cache=True)
def in_attack_range(rules, dist, cls, cell, target):
    """A hero of class ``cls`` on ``cell`` reaches ``target`` (section 7: distance <= its range)."""
    return dist[cell, target] <= rules.classes[cls].range


@njit(cache=True)
def is_attacker_of(s, rules, side, c):
    """``c`` hits heroes of ``side`` (section 8): an enemy Attack Tower or the enemy base."""
    if c == base_cell(rules, 1 - side):
        return True
    return s.tower_side[c] == 1 - side and rules.towers[s.tower_kind[c]].effect == E_ATTACK


@njit(cache=True)
def hitters(s, rules, side, out):
    """The cells whose hits strike heroes of ``side`` (:func:`is_attacker_of`) into ``out``: the enemy Attack
    Towers in cell order, then the enemy base; returns how many."""
    n = 0
    base = base_cell(rules, 1 - side)
    for c in range(rules.cells):
        if c != base and is_attacker_of(s, rules, side, c):
            out[n] = c
            n += 1
    out[n] = base
    return n + 1


@njit(cache=True)
def in_hit_range(rules, dist, cell, c):
    """A hero on ``cell`` is within the hit range of the building on ``c`` (section 8)."""
    return dist[cell, c] <= rules.building_range


@njit(cache=True)
def enters_hit_range(rules, dist, old, new, c):
    """A step from ``old`` to ``new`` enters the hit range of the building on ``c`` (section 8.1)."""
    return dist[old, c] > rules.building_range >= dist[new, c]


@njit(cache=True)
def hit_entering(rules, dist, old, new, c):
    """The HP the building on ``c`` (one whose hits strike the hero: :func:`is_attacker_of`) takes from a hero
    stepping from ``old`` to ``new`` (section 8.1): ``building_attack`` when the step enters its hit range, else
    0. :func:`step` deals it and the bots predict it (:func:`damage_entering`)."""
    return rules.building_attack if enters_hit_range(rules, dist, old, new, c) else 0


@njit(cache=True)
def hit_standing(rules, dist, cell, c):
    """The HP the building on ``c`` (one whose hits strike the hero) takes in the end phase from the acting hero
    on ``cell`` (section 8.2): ``building_attack`` when ``cell`` is in its hit range, else 0.
    :func:`building_attack` deals it and the bots predict it (:func:`damage_standing`)."""
    return rules.building_attack if in_hit_range(rules, dist, cell, c) else 0


@njit(cache=True)
def damage_entering(rules, dist, hitting, n, old, new):
    """What a step from ``old`` to ``new`` costs a hero in HP from the ``n`` buildings ``hitting`` whose hits
    strike it (:func:`hitters`): the sum of their :func:`hit_entering` (section 8.1)."""
    hp = 0
    for j in range(n):
        hp += hit_entering(rules, dist, old, new, hitting[j])
    return hp


@njit(cache=True)
def damage_standing(rules, dist, hitting, n, cell):
    """What the end phase on ``cell`` costs the acting hero in HP from the ``n`` buildings ``hitting`` whose
    hits strike it: the sum of their :func:`hit_standing` (section 8.2)."""
    hp = 0
    for j in range(n):
        hp += hit_standing(rules, dist, cell, hitting[j])
    return hp


@njit(cache=True)
def storm_hits(s, rules, card, side, k):
    """Firestorm or Cataclysm (``card``) hits hero ``k`` of ``side``: on the board on a forest (Firestorm)
    or a hill (Cataclysm)."""
    h = hero(s, side, k)
    return h.state != HS_DEAD and s.terrain[h.cell] == (T_FOREST if card == C_FIRESTORM else T_HILL)


@njit(cache=True)
def hero_bonus(s, rules, side, k, cell):
    """What hero ``k`` of ``side`` standing on ``cell`` adds to its dice in a judgment (section 7): the
    cell's terrain points (1 under Earthsplit), + ``inspire`` per Inspire, - ``curse`` per Curse."""
    h = hero(s, side, k)
    terr = 1 if h.earthsplit else terrain_points(s, rules, cell)
    return terr + rules.inspire * h.inspire - rules.curse * s.sides[side].curse


@njit(cache=True)
def to_act(s, rules):
    """The seat whose decision is owed now."""
    if s.n_revivals_owed > 0:
        return s.revivals_owed[0].side
    if s.judgment.on:
        return s.judgment.defender
    return cur_side(s)


# ---- damage and death -----------------------------------------------------------------------------------

@njit(cache=True)
def die_hero(s, rules, ev, side, k):
    """Hero ``k`` of ``side`` dies: the death penalty, and its revival choice is owed."""
    h = hero(s, side, k)
    h.hp = 0
    h.state = HS_DEAD
    own, other = s.sides[side], s.sides[1 - side]
    give = own.energy // rules.death_divisor
    own.energy -= give
    other.energy += give
    own.lost += 1
    if s.judgment.on:
        s.judgment.dead |= 1 << (side * MAXH + k)
    log(s, ev, EV_DEATH, side, k, h.cell, give, 0, 0, 0, 0)
    owed = s.revivals_owed[s.n_revivals_owed]
    owed.side = side
    owed.hero = k
    owed.cell = h.cell
    s.n_revivals_owed += 1


@njit(cache=True)
def damage_hero(s, rules, ev, side, k, amount, source):
    """``amount`` damage to hero ``k`` of ``side``; returns the HP it actually lost. Death follows at once."""
    h = hero(s, side, k)
    if h.state == HS_DEAD or amount <= 0:
        return 0
    before = h.hp
    after = before - amount
    if h.floor1:
        after = max(after, min(1, before))
    h.hp = max(after, 0)
    lost = before - h.hp
    if source >= SRC_CARD:
        s.sides[1 - side].card_dealt[source - SRC_CARD] += lost
    log(s, ev, EV_DAMAGE, side, k, lost, source, 0, 0, 0, 0)
    if after <= 0:
        die_hero(s, rules, ev, side, k)
    return lost


@njit(cache=True)
def building_attack(s, rules, dist, ev, side, k, source):
    """Attack Towers and the base of the enemy hit hero ``k`` of ``side`` if it is in their range."""
    h = hero(s, side, k)
    for c in range(rules.cells):
        if is_attacker_of(s, rules, side, c) and h.state != HS_DEAD:
            hp = hit_standing(rules, dist, h.cell, c)
            if hp > 0:
                damage_hero(s, rules, ev, side, k, hp, source)


# ---- turn flow ---------------------------------------------------------------------------------------------

@njit(cache=True)
def shuffle_into_pile(s, n):
    """Fisher-Yates over the ``n`` first cards of the pile, from the game's stream."""
    for i in range(n - 1, 0, -1):
        j = draw(s, i + 1)
        a = s.pile[i]
        s.pile[i] = s.pile[j]
        s.pile[j] = a


@njit(cache=True)
def end_by_cap(s, rules, ev):
    """The round cap ends the game: a draw, or the higher base with ``turn_limit_result = "base_hp"`` (and,
    bases equal in HP, the higher base tier with the authored ``"base_hp_tier"``)."""
    s.turn = 2 * rules.team * rules.max_rounds - 1
    s.reason = END_TURN_LIMIT
    b0, b1 = s.sides[0].base_hp, s.sides[1].base_hp
    t0, t1 = s.sides[0].tier, s.sides[1].tier
    if rules.limit_by_hp and b0 != b1:
        s.winner = 0 if b0 > b1 else 1
    elif rules.limit_by_tier and t0 != t1:
        s.winner = 0 if t0 > t1 else 1
    else:
        s.winner = DRAW
    log(s, ev, EV_CAP, s.winner, 0, 0, 0, 0, 0, 0, 0)


# ---- the lock: a game no side can win any more without magic cards (simkit.games.krypton.stalemate) ----------

@njit(cache=True)
def best_attack(s, rules, dist, side):
    """The highest total ``side`` can bring against the enemy base without cards: its dice all on their top
    face, plus the most terrain points of a cell (not a base) within its longest class range of that base."""
    dice = dice_count(s, rules, side)
    top = rules.dice_sides if rules.combine_max else rules.dice_sides * dice
    base = rules.bases[1 - side]
    reach = 0
    for k in range(rules.team):
        reach = max(reach, rules.classes[hero(s, side, k).cls].range)
    points = 0
    for c in range(rules.cells):
        t = s.terrain[c]
        if c != base and t >= 0 and 1 <= dist[c, base] <= reach:
            points = max(points, rules.terrain_points[t])
    return top + points


@njit(cache=True)
def can_add_a_die(s, rules, side):
    """``side`` could still pay for a die: a dice tower or its next base tier now, or later from a vein with
    stock or from the other side's death penalty (``floor(energy / death_divisor) > 0``)."""
    for c in range(rules.cells):
        if s.stock[c] > 0:
            return True
    if rules.death_divisor > 0 and s.sides[1 - side].energy // rules.death_divisor > 0:
        return True
    cheapest = -1
    for i in range(rules.n_tower_kinds):
        if rules.towers[i].effect == E_DICE and (cheapest < 0 or rules.towers[i].cost < cheapest):
            cheapest = rules.towers[i].cost
    tier = s.sides[side].tier
    if tier < rules.n_tiers and (cheapest < 0 or rules.upgrade_cost[tier - 1] < cheapest):
        cheapest = rules.upgrade_cost[tier - 1]
    return cheapest >= 0 and s.sides[side].energy >= cheapest


@njit(cache=True)
def locked(s, rules, dist):
    """No base can lose an HP any more without magic cards: no side can add a die, and neither side's
    :func:`best_attack` beats the enemy base's defence (under the authored siege its lowest, in the last round)."""
    for side in range(2):
        if can_add_a_die(s, rules, side):
            return False
        if best_attack(s, rules, dist, side) > siege_defense(rules, s.sides[1 - side].tier, rules.max_rounds - 1):
            return False
    return True


@njit(cache=True)
def end_by_lock(s, ev):
    """The authored ``end_at_lock``: a locked game ends at once, drawn (it could only be drawn at the cap)."""
    s.reason = END_LOCK
    s.winner = DRAW
    log(s, ev, EV_LOCK, 0, 0, 0, 0, 0, 0, 0, 0)


@njit(cache=True)
def clear_this_turn(t):
    """A new hero turn: nothing rolled, played or owed yet."""
    t.roll = 0
    t.points = 0
    t.acted = 0
    t.shuttle = 0
    t.pact = 0
    t.blood = 0
    t.ending = 0
    t.n_blood_owed = 0


@njit(cache=True)
def draw_card(s, rules, side):
    """Section 10's draw: ``side`` draws one card while its hand is below its limit (an empty pile is the
    discard pile shuffled)."""
    own = s.sides[side]
    if own.n_hand < hand_limit(s, rules, side):
        if s.n_pile == 0 and s.n_discard > 0:
            n = s.n_discard
            for i in range(n):
                s.pile[i] = s.discard[i]
            s.n_pile = n
            s.n_discard = 0
            shuffle_into_pile(s, n)
        if s.n_pile > 0:
            s.n_pile -= 1
            card = s.pile[s.n_pile]
            own.hand[card] += 1
            own.n_hand += 1


@njit(cache=True)
def movement_points(s, rules, h, roll):
    """Section 4/9: the roll, or the Knight's roll + ``knight_plus`` when its move starts on plain or vein,
    - ``knight_minus`` otherwise (never below 0)."""
    if rules.classes[h.cls].knight:
        t = s.terrain[h.cell]
        if t == T_PLAIN or t == T_VEIN:
            return roll + rules.knight_plus
        return max(0, roll - rules.knight_minus)
    return roll


@njit(cache=True)
def next_turn(s, rules, dist, ev):
    """Start the next hero turn: draw, preparation, movement roll; skip turns that cannot be played. The round
    cap ends the game first; with ``end_at_lock`` a game standing locked at a turn's start ends there."""
    team = rules.team
    while True:
        s.turn += 1
        if s.turn >= 2 * team * rules.max_rounds:
            end_by_cap(s, rules, ev)
            return
        if rules.end_at_lock and locked(s, rules, dist):
            end_by_lock(s, ev)
            return
        side, k = cur_side(s), cur_hero(s, rules)
        h = hero(s, side, k)
        clear_this_turn(s.this_turn)
        # 0. draw
        draw_card(s, rules, side)
        # 1. preparation
        for c in range(rules.cells):
            if s.tower_side[c] == side:
                s.iron_wall[c] = 0
        if h.state == HS_DEAD:
            free = -1
            for i in range(rules.n_spawns[side]):
                c = rules.spawns[side, i]
                if hero_at(s, rules, c) < 0 and s.tower_side[c] < 0:
                    free = c
                    break
            if free < 0:
                log(s, ev, EV_NO_SPAWN, side, k, 0, 0, 0, 0, 0, 0)
                continue
            h.state = HS_BOARD
            h.cell = free
            h.hp = rules.classes[h.cls].hp
            log(s, ev, EV_RETURN, side, k, free, 0, 0, 0, 0, 0)
        elif h.state == HS_FLIPPED:
            h.state = HS_BOARD
            log(s, ev, EV_UNFLIP, side, k, 0, 0, 0, 0, 0, 0)
            continue
        # 2. move: the roll
        roll = die(s, rules)
        pts = movement_points(s, rules, h, roll)
        s.this_turn.roll = roll
        s.this_turn.points = pts
        log(s, ev, EV_ROLL, side, k, roll, pts, 0, 0, 0, 0)
        return


@njit(cache=True)
def end_turn_effects(s, rules):
    """"This turn" effects end: Inspire, Earthsplit, Unyielding Will, Curse."""
    for side in range(2):
        for k in range(rules.team):
            h = hero(s, side, k)
            h.inspire = 0
            h.earthsplit = 0
            h.floor1 = 0
        s.sides[side].curse = 0


@njit(cache=True)
def settle(s, rules, dist, ev):
    """Run what is automatic until a decision is owed (or the game is over)."""
    while not is_over(s):
        if s.n_revivals_owed > 0:
            return
        if s.judgment.on:
            if window_open(s, rules, dist):
                return
            advance_judgment(s, rules, dist, ev)
            continue
        h = hero(s, cur_side(s), cur_hero(s, rules))
        if s.this_turn.ending or h.state != HS_BOARD:
            end_turn_effects(s, rules)
            next_turn(s, rules, dist, ev)
            continue
        return


@njit(cache=True)
def new_game(s, rules, dist, classes, key, ev):
    """Set ``s`` (a zeroed game) to a game's first decision: ``classes[side, k]`` the heroes' class ids,
    ``key`` the stream's."""
    s.key = key
    s.winner = PLAYING
    s.judgment.loser = LOSER_NONE
    for side in range(2):
        own = s.sides[side]
        for k in range(rules.team):
            h = own.heroes[k]
            h.cls = classes[side, k]
            h.hp = rules.classes[classes[side, k]].hp
            h.cell = rules.spawns[side, k]
        for k in range(rules.team, MAXH):
            own.heroes[k].state = HS_DEAD
            own.heroes[k].cell = -1
        own.base_hp = rules.base_hp
        own.tier = 1
        own.energy = rules.start_energy
    for c in range(MAXC):
        s.tower_side[c] = -1
    for c in range(rules.cells):
        s.terrain[c] = rules.terrain[c]
        s.stock[c] = rules.stock[c]
    n = 0
    for card in range(NCARDS):
        for _ in range(rules.copies[card]):
            s.pile[n] = card
            n += 1
    s.n_pile = n
    shuffle_into_pile(s, n)
    s.turn = -1
    next_turn(s, rules, dist, ev)
    settle(s, rules, dist, ev)


# ---- legal actions ------------------------------------------------------------------------------------------

@njit(cache=True)
def enemy_targets(s, rules, side, out):
    """Everything an attack of ``side`` may target (section 7), at any distance, as target codes into ``out``
    (room for ``rules.cells + MAXH + 1``): the enemy heroes on the board in team order, the enemy towers in cell
    order, the enemy base; returns how many. A tower with its own hero standing on it is a target of its own (a
    cell can hold both)."""
    n = 0
    for e in range(rules.team):
        foe = hero(s, 1 - side, e)
        if foe.state != HS_DEAD:
            out[n] = TK_HERO * 1000 + foe.cell
            n += 1
    for c in range(rules.cells):
        if s.tower_side[c] == 1 - side:
            out[n] = TK_TOWER * 1000 + c
            n += 1
    out[n] = TK_BASE * 1000 + base_cell(rules, 1 - side)
    return n + 1


@njit(cache=True)
def attack_targets(s, rules, dist, side, k, out):
    """The :func:`enemy_targets` within hero ``k``'s range (:func:`in_attack_range`) as target codes into
    ``out``, in their order; returns how many."""
    h = hero(s, side, k)
    every = np.empty(rules.cells + MAXH + 1, np.int64)
    m = enemy_targets(s, rules, side, every)
    n = 0
    for i in range(m):
        if in_attack_range(rules, dist, h.cls, h.cell, every[i] % 1000):
            out[n] = every[i]
            n += 1
    return n


@njit(cache=True)
def window_card_ok(s, rules, card):
    """The defender may play ``card`` in the open window now."""
    j = s.judgment
    d = j.defender
    w = j.window
    if j.closed & (1 << w) or s.sides[d].hand[card] == 0:
        return False
    tk = j.target_kind
    if w == W_DECLARE:
        return card == C_SWAP and tk == TK_TOWER and n_towers(s, rules, d, -1) >= 2
    if w == W_COMPARE:
        return card == C_CURSE
    if w == W_UNITY:
        return card == C_UNITY and tk == TK_HERO
    if card == C_WILL:  # one friendly hero, whatever the judgment's target (a hero, a tower or the base)
        for k in range(rules.team):
            h = hero(s, d, k)
            if h.state != HS_DEAD and not h.floor1:
                return True
        return False
    if card == C_PURSUIT or card == C_SAME_END:
        if tk != TK_HERO or not on_board(s, d, j.target_hero):
            return False
        if card == C_PURSUIT:
            return hero(s, d, j.target_hero).hp >= 2
        return not j.same_end and j.loser == LOSER_DEFENDER
    return False


@njit(cache=True)
def window_open(s, rules, dist):
    """The defender holds a counter card it may play in the open window."""
    for card in (C_SWAP, C_CURSE, C_UNITY, C_WILL, C_PURSUIT, C_SAME_END):
        if window_card_ok(s, rules, card):
            return True
    return False


@njit(cache=True)
def normal_plays(s, rules, card, out, n):
    """Append the plays of normal ``card`` (in hand) for the acting side to ``out[n:]``; returns the new n."""
    side, k = cur_side(s), cur_hero(s, rules)
    t = s.this_turn
    hp = hero(s, side, k).hp
    if IS_COUNTER[card]:
        return n
    if card == C_IGNITE or card == C_EARTHSPLIT:
        for e in range(rules.team):
            if on_board(s, 1 - side, e):
                out[n] = enc(K_PLAY, card, hero(s, 1 - side, e).cell)
                n += 1
    elif card == C_INSPIRE or card == C_GRACE:
        if card == C_GRACE and s.sides[side].energy < rules.heal_energy:
            return n
        for e in range(rules.team):
            if on_board(s, side, e):
                out[n] = enc(K_PLAY, card, hero(s, side, e).cell)
                n += 1
    elif card == C_IRON:
        for c in range(rules.cells):
            if s.tower_side[c] == side:
                out[n] = enc(K_PLAY, card, c)
                n += 1
    elif card == C_BLOOD:
        if not t.acted and not t.blood and hp >= rules.hp_price_min:
            out[n] = enc(K_PLAY, card, -1)
            n += 1
    elif card == C_PACT:
        if not t.pact and hp >= rules.hp_price_min:
            out[n] = enc(K_PLAY, card, -1)
            n += 1
    elif card == C_SHUTTLE:
        if not t.acted and not t.shuttle:
            out[n] = enc(K_PLAY, card, -1)
            n += 1
    else:  # Firestorm, Cataclysm
        out[n] = enc(K_PLAY, card, -1)
        n += 1
    return n


@njit(cache=True)
def legal(s, rules, dist, nbr, out):
    """Every decision legal now for :func:`to_act` into ``out``; returns how many (0 once the game is over)."""
    if is_over(s):
        return 0
    if s.n_revivals_owed > 0:
        out[0] = enc(K_REVIVE, 0, -1)
        out[1] = enc(K_REVIVE, 1, -1)
        return 2
    n = 0
    if s.judgment.on:
        d = s.judgment.defender
        for card in (C_SWAP, C_CURSE, C_UNITY, C_WILL, C_PURSUIT, C_SAME_END):
            if not window_card_ok(s, rules, card):
                continue
            if card == C_SWAP:
                for c in range(rules.cells):
                    if s.tower_side[c] == d and c != s.judgment.cell:
                        out[n] = enc(K_PLAY, card, c)
                        n += 1
            elif card == C_WILL:
                for k in range(rules.team):
                    h = hero(s, d, k)
                    if h.state != HS_DEAD and not h.floor1:
                        out[n] = enc(K_PLAY, card, h.cell)
                        n += 1
            else:
                out[n] = enc(K_PLAY, card, -1)
                n += 1
        out[n] = enc(K_PASS, 0, -1)
        return n + 1
    side, k = cur_side(s), cur_hero(s, rules)
    own = s.sides[side]
    t = s.this_turn
    cell = hero(s, side, k).cell
    if t.n_blood_owed > 0:
        # Blood Battle's judgments still owed: between them only player actions (normal magic, upgrade)
        for i in range(t.n_blood_owed):
            tg = t.blood_owed[i]
            out[n] = enc(K_ATTACK, tg % 1000, tg // 1000)
            n += 1
    elif not t.acted:
        for i in range(nbr.shape[1]):
            c = nbr[cell, i]
            if c >= 0 and enterable(s, rules, c, side) and step_cost(s, rules, c) <= t.points:
                out[n] = enc(K_STEP, c, -1)
                n += 1
        tg = np.empty(MAXBL, np.int64)
        nt = attack_targets(s, rules, dist, side, k, tg)
        for i in range(nt):
            out[n] = enc(K_ATTACK, tg[i] % 1000, tg[i] // 1000)
            n += 1
        if can_gather(s, cell):
            out[n] = enc(K_GATHER, 0, -1)
            n += 1
        if buildable(s, rules, cell):
            for tk in range(rules.n_tower_kinds):
                if own.energy >= rules.towers[tk].cost and may_build_kind(s, rules, side, tk):
                    out[n] = enc(K_BUILD, tk, -1)
                    n += 1
        out[n] = enc(K_STANDBY, 0, -1)
        n += 1
    tier = own.tier
    if tier < rules.n_tiers and own.energy >= rules.upgrade_cost[tier - 1]:
        out[n] = enc(K_UPGRADE, 0, -1)
        n += 1
    for i in range(NCARDS):
        card = BY_NAME[i]
        if own.hand[card] > 0:
            n = normal_plays(s, rules, card, out, n)
    if t.n_blood_owed == 0:
        out[n] = enc(K_END, 0, -1)
        n += 1
    return n


# ---- attack judgments --------------------------------------------------------------------------------------

@njit(cache=True)
def start_attack(s, rules, ev, tkind, cell):
    """Open an attack judgment of the acting hero against ``tkind`` on ``cell`` (declaration window)."""
    side, k = cur_side(s), cur_hero(s, rules)
    j = s.judgment
    j.on = 1
    j.attacker = k
    j.side = side
    j.defender = 1 - side
    j.target_kind = tkind
    j.target_side = 1 - side
    j.target_hero = 0
    if tkind == TK_HERO:
        j.target_hero = hero_at(s, rules, cell) % MAXH
    j.cell = cell
    j.window = W_DECLARE
    j.n_attack_dice = 0
    j.n_defence_dice = 0
    j.unity = 0
    j.has_totals = 0
    j.attack_total = 0
    j.defence_total = 0
    j.same_end = 0
    j.closed = 0
    j.loser = LOSER_NONE
    j.d = 0
    j.dead = 0  # heroes that die during this judgment take none of its later damage
    s.sides[side].attacks += 1
    hero(s, side, k).attacks += 1
    log(s, ev, EV_ATTACK, side, k, cell, tkind, 0, 0, 0, 0)


@njit(cache=True)
def hero_total(s, rules, side, k, dice, nd, unity):
    """A hero's total in a judgment: its ``nd`` ``dice`` combined (summed, or the highest with
    ``combine_max``), plus :func:`hero_bonus` on its cell and Power of Unity's ``unity``."""
    comb = 0
    for i in range(nd):
        v = dice[i]
        if rules.combine_max:
            comb = max(comb, v)
        else:
            comb += v
    return comb + hero_bonus(s, rules, side, k, hero(s, side, k).cell) + unity


@njit(cache=True)
def tower_total(s, rules, c):
    """The total of the tower on ``c`` in a judgment (section 7: its defence, no dice, no terrain)."""
    return rules.towers[s.tower_kind[c]].defense


@njit(cache=True)
def tower_takes_damage(s, c):
    """The tower on ``c`` can lose HP (section 7: not under Iron Wall; a tower swapped away takes none)."""
    return s.tower_side[c] >= 0 and not s.iron_wall[c]


@njit(cache=True)
def building_total(s, rules, d):
    """The defending building's total: a tower's defence or the base's."""
    if s.judgment.target_kind == TK_TOWER:
        return tower_total(s, rules, s.judgment.cell)
    return base_defense(s, rules, d)


@njit(cache=True)
def advance_judgment(s, rules, dist, ev):
    """Close the open window and run the judgment to its next window (or its end)."""
    j = s.judgment
    side, d = j.side, j.defender
    att = j.attacker
    w = j.window
    if w == W_DECLARE and (not on_board(s, side, att) or j.dead & (1 << (side * MAXH + att))):
        # Space Swap's tower killed the attacker: the attack ends, even if it was revived in place (the page
        # goes on "if the attacker lives")
        finish_judgment(s, rules)
        return
    if w == W_DECLARE:
        n = dice_count(s, rules, side)
        na = 0
        if s.this_turn.pact:
            j.attack_dice[0] = rules.pact_die
            na = 1
            n -= 1
        for _ in range(n):
            j.attack_dice[na] = die(s, rules)
            na += 1
        j.n_attack_dice = na
        nd = 0
        if j.target_kind == TK_HERO:
            for _ in range(dice_count(s, rules, d)):
                j.defence_dice[nd] = die(s, rules)
                nd += 1
        j.n_defence_dice = nd
        e = s.n_events
        log(s, ev, EV_DICE, side, na, nd, 0, 0, 0, 0, 0)
        if e < ev.shape[0]:
            for i in range(na):
                ev[e, 5 + i] = j.attack_dice[i]
            for i in range(nd):
                ev[e, 5 + MAXDICE + i] = j.defence_dice[i]
        j.window = W_COMPARE
    elif w == W_COMPARE:
        j.window = W_UNITY
    elif w == W_UNITY:
        a_total = hero_total(s, rules, side, att, j.attack_dice, j.n_attack_dice, 0)
        if j.target_kind == TK_HERO:
            d_total = hero_total(s, rules, d, j.target_hero, j.defence_dice, j.n_defence_dice, j.unity)
        else:
            d_total = building_total(s, rules, d)
        j.has_totals = 1
        j.attack_total = a_total
        j.defence_total = d_total
        log(s, ev, EV_TOTALS, side, a_total, d_total, 0, 0, 0, 0, 0)
        if a_total == d_total:
            finish_judgment(s, rules)
            return
        j.loser = LOSER_DEFENDER if a_total > d_total else LOSER_ATTACKER
        j.d = abs(a_total - d_total)
        j.window = W_DAMAGE
    else:
        apply_damage(s, rules, ev)
        finish_judgment(s, rules)


@njit(cache=True)
def destroy_tower(s, rules, ev, d, c):
    """The tower of ``d`` on ``c`` leaves the board (section 12: a building at HP <= 0)."""
    kind = s.tower_kind[c]
    s.tower_side[c] = -1
    s.tower_kind[c] = 0
    s.tower_hp[c] = 0
    s.iron_wall[c] = 0
    s.sides[d].towers_lost += 1
    log(s, ev, EV_DESTROYED, d, c, kind, 0, 0, 0, 0, 0)


@njit(cache=True)
def apply_damage(s, rules, ev):
    """The judgment's damage step after the counter cards: the loser loses ``d`` (section 7)."""
    j = s.judgment
    side, d, amount = j.side, j.defender, j.d
    tk = j.target_kind
    attacker = hero(s, side, j.attacker)
    # a hero that already died in this judgment (Pursuit) takes none of its damage: the page resolves the
    # damage, then Same End, "then deaths", so a revival in place comes after them, at full HP
    att_dead = j.dead & (1 << (side * MAXH + j.attacker)) != 0
    if j.loser == LOSER_ATTACKER:
        if tk == TK_HERO and not att_dead:
            hero(s, d, j.target_hero).dealt += damage_hero(s, rules, ev, side, j.attacker, amount, SRC_JUDGMENT)
        return
    if tk == TK_HERO:
        lost = 0
        if not j.dead & (1 << (d * MAXH + j.target_hero)):
            lost = damage_hero(s, rules, ev, d, j.target_hero, amount, SRC_JUDGMENT)
            attacker.dealt += lost
        if j.same_end and not att_dead:
            damage_hero(s, rules, ev, side, j.attacker, lost, SRC_SAME_END)
    elif tk == TK_TOWER:
        c = j.cell
        if not tower_takes_damage(s, c):
            log(s, ev, EV_IRON, d, c, 0, 0, 0, 0, 0, 0)
            return
        s.tower_hp[c] -= amount
        attacker.dealt += amount
        if s.tower_hp[c] <= 0:
            destroy_tower(s, rules, ev, d, c)
    else:
        foe = s.sides[d]
        foe.base_hp -= amount
        s.sides[side].base_damage += amount
        attacker.dealt += amount
        log(s, ev, EV_BASE_HIT, d, amount, foe.base_hp, 0, 0, 0, 0, 0)
        if foe.base_hp <= 0:
            s.winner = side
            s.reason = END_BASE
            log(s, ev, EV_BASE_DESTROYED, d, 0, 0, 0, 0, 0, 0, 0)
        elif rules.sudden_death > 0 and s.turn // (2 * rules.team) >= rules.sudden_death:
            s.winner = side  # the authored sudden death: after round sudden_death, the first base HP taken wins
            s.reason = END_SUDDEN_DEATH
            log(s, ev, EV_SUDDEN_DEATH, d, 0, 0, 0, 0, 0, 0, 0)


@njit(cache=True)
def still_target(s, rules, t):
    """Target ``t`` of an owed Blood Battle judgment is still an enemy target."""
    side = cur_side(s)
    kind, cell = t // 1000, t % 1000
    if kind == TK_HERO:
        h = hero_at(s, rules, cell)
        return h >= 0 and h // MAXH != side
    if kind == TK_TOWER:
        return s.tower_side[cell] >= 0 and s.tower_side[cell] != side
    return cell == base_cell(rules, 1 - side)


@njit(cache=True)
def prune_blood(s, rules):
    """Drop Blood Battle's owed targets that are gone (or all of them if the attacker is)."""
    t = s.this_turn
    if is_over(s) or t.n_blood_owed == 0:
        return
    alive = on_board(s, cur_side(s), cur_hero(s, rules))
    n = 0
    for i in range(t.n_blood_owed):
        tg = t.blood_owed[i]
        if alive and still_target(s, rules, tg):
            t.blood_owed[n] = tg
            n += 1
    t.n_blood_owed = n


@njit(cache=True)
def finish_judgment(s, rules):
    """Close the judgment; Blood Battle keeps only the targets still there."""
    s.judgment.on = 0
    prune_blood(s, rules)


# ---- doing ----------------------------------------------------------------------------------------------------

@njit(cache=True)
def spend(s, side, card):
    """``side`` plays ``card``: out of its hand onto the discard pile, counted."""
    own = s.sides[side]
    own.hand[card] -= 1
    own.n_hand -= 1
    s.discard[s.n_discard] = card
    s.n_discard += 1
    own.cards_played += 1
    own.played[card] += 1


@njit(cache=True)
def play_normal(s, rules, ev, card, cell):
    """The effect of normal magic ``card`` played by the acting side (``cell``: its target, or -1)."""
    side, k = cur_side(s), cur_hero(s, rules)
    me = hero(s, side, k)
    spend(s, side, card)
    log(s, ev, EV_PLAY, side, card, cell, 0, 0, 0, 0, 0)
    if card == C_IGNITE or card == C_EARTHSPLIT or card == C_INSPIRE or card == C_GRACE:
        at = hero_at(s, rules, cell)
        hs, hk = at // MAXH, at % MAXH
        h = hero(s, hs, hk)
        if card == C_IGNITE:
            damage_hero(s, rules, ev, hs, hk, rules.effect_damage, SRC_CARD + card)
        elif card == C_EARTHSPLIT:
            h.earthsplit = 1
        elif card == C_INSPIRE:
            h.inspire += 1
        else:
            s.sides[side].energy -= rules.heal_energy
            h.hp = min(rules.classes[h.cls].hp, h.hp + rules.heal)
    elif card == C_IRON:
        s.iron_wall[cell] = 1
    elif card == C_BLOOD or card == C_PACT:
        me.hp -= rules.hp_price
        if card == C_BLOOD:
            s.this_turn.blood = 1
        else:
            s.this_turn.pact = 1
    elif card == C_SHUTTLE:
        s.this_turn.shuttle = 1
    elif card == C_FIRESTORM or card == C_CATACLYSM:
        for e in range(rules.team):
            if storm_hits(s, rules, card, 1 - side, e):
                damage_hero(s, rules, ev, 1 - side, e, rules.effect_damage, SRC_CARD + card)


@njit(cache=True)
def unity_bonus(s, rules, dist, side, k):
    """Power of Unity's bonus to hero ``k`` of ``side``: +1 per other friendly hero within ``unity_radius``,
    at most ``unity_max``."""
    mc = hero(s, side, k).cell
    near = 0
    for e in range(rules.team):
        h = hero(s, side, e)
        if e != k and h.state != HS_DEAD and dist[h.cell, mc] <= rules.unity_radius:
            near += 1
    return min(near, rules.unity_max)


@njit(cache=True)
def counter(s, rules, dist, ev, kind, card, cell):
    """The defender plays counter ``card`` in the open window (``cell``: its target) or passes."""
    j = s.judgment
    d, side = j.defender, j.side
    if kind == K_PASS:
        j.closed |= 1 << j.window
        return
    spend(s, d, card)
    log(s, ev, EV_COUNTER, d, card, 0, 0, 0, 0, 0, 0)
    if card == C_SWAP:
        a = j.cell
        for f in (s.tower_side, s.tower_kind, s.tower_hp, s.iron_wall):
            x = f[a]
            f[a] = f[cell]
            f[cell] = x
        for c in (a, cell):
            if rules.towers[s.tower_kind[c]].effect == E_ATTACK:
                for e in range(rules.team):
                    h = hero(s, side, e)
                    if h.state != HS_DEAD and in_hit_range(rules, dist, h.cell, c):
                        damage_hero(s, rules, ev, side, e, rules.swap_damage, SRC_CARD + card)
    elif card == C_CURSE:
        s.sides[side].curse += 1
    elif card == C_UNITY:
        j.unity += unity_bonus(s, rules, dist, d, j.target_hero)
    elif card == C_WILL:
        at = hero_at(s, rules, cell)
        hero(s, at // MAXH, at % MAXH).floor1 = 1
    elif card == C_PURSUIT:
        mine = hero(s, d, j.target_hero)
        lost = mine.hp - 1
        mine.hp = 1
        damage_hero(s, rules, ev, side, j.attacker, lost, SRC_CARD + card)
    elif card == C_SAME_END:
        j.same_end = 1


@njit(cache=True)
def do(s, rules, dist, nbr, ev, code):
    """Make one decision; returns ``OK``, or ``ILLEGAL`` / ``OVER`` (then nothing has changed)."""
    if is_over(s):
        return OVER
    buf = np.empty(MAXLEGAL, np.int64)
    n = legal(s, rules, dist, nbr, buf)
    for i in range(n):
        if buf[i] == code:
            apply(s, rules, dist, ev, code)
            return OK
    return ILLEGAL


@njit(cache=True)
def revive(s, rules, ev, in_place):
    """The first revival choice owed is made (section 12): in place (``in_place``) or back to the base."""
    first = s.revivals_owed[0]
    p_side, p_k, p_cell = first.side, first.hero, first.cell
    for i in range(s.n_revivals_owed - 1):
        later, earlier = s.revivals_owed[i + 1], s.revivals_owed[i]
        earlier.side, earlier.hero, earlier.cell = later.side, later.hero, later.cell
    s.n_revivals_owed -= 1
    h = hero(s, p_side, p_k)
    own = s.sides[p_side]
    own.revivals += 1
    if in_place:
        h.state = HS_FLIPPED
        h.cell = p_cell
        h.hp = rules.classes[h.cls].hp
        own.in_place += 1
    else:
        h.cell = -1
    log(s, ev, EV_REVIVE, p_side, p_k, in_place, 0, 0, 0, 0, 0)


@njit(cache=True)
def step(s, rules, dist, ev, side, k, to):
    """The acting hero steps onto ``to`` (section 9), paying its cost; each enemy Attack Tower and base whose
    hit range it enters hits it at once (section 8.1)."""
    h = hero(s, side, k)
    cost = step_cost(s, rules, to)
    s.this_turn.points -= cost
    old = h.cell
    h.cell = to
    log(s, ev, EV_STEP, side, k, old, to, cost, 0, 0, 0)
    for c in range(rules.cells):
        if is_attacker_of(s, rules, side, c) and h.state != HS_DEAD:
            hp = hit_entering(rules, dist, old, to, c)
            if hp > 0:
                damage_hero(s, rules, ev, side, k, hp, SRC_TOWER_MOVE)


@njit(cache=True)
def gather(s, rules, ev, side, k):
    """The acting hero gathers on its vein (section 6); a vein at stock 0 becomes plain."""
    c = hero(s, side, k).cell
    own = s.sides[side]
    got = gather_yield(s, rules, c)
    s.stock[c] -= got
    own.energy += got
    own.mined += got
    if s.stock[c] == 0:
        s.terrain[c] = T_PLAIN
    s.this_turn.acted = 1
    log(s, ev, EV_GATHER, side, k, c, got, 0, 0, 0, 0)


@njit(cache=True)
def build(s, rules, ev, side, k, kind):
    """The acting hero builds a tower of ``kind`` on its cell (section 5), paid from the side's energy."""
    c = hero(s, side, k).cell
    own = s.sides[side]
    own.energy -= rules.towers[kind].cost
    s.tower_side[c] = side
    s.tower_kind[c] = kind
    s.tower_hp[c] = rules.towers[kind].hp
    s.iron_wall[c] = 0
    own.built_n += 1
    own.built[kind] += 1
    s.this_turn.acted = 1
    log(s, ev, EV_BUILD, side, k, c, kind, 0, 0, 0, 0)


@njit(cache=True)
def attack(s, rules, dist, ev, side, k, tkind, cell):
    """The acting hero attacks (section 7); Blood Battle's first attack owes every other target in range."""
    t = s.this_turn
    target = tkind * 1000 + cell
    if t.blood and t.n_blood_owed == 0 and not t.acted:
        tg = np.empty(MAXBL, np.int64)
        nt = attack_targets(s, rules, dist, side, k, tg)
        for i in range(nt):
            t.blood_owed[i] = tg[i]
        t.n_blood_owed = nt
    m = 0
    for i in range(t.n_blood_owed):
        if t.blood_owed[i] != target:
            t.blood_owed[m] = t.blood_owed[i]
            m += 1
    t.n_blood_owed = m
    t.acted = 1
    start_attack(s, rules, ev, tkind, cell)


@njit(cache=True)
def upgrade(s, rules, ev, side):
    """The side upgrades its base one tier (section 5), paying the tier's cost."""
    own = s.sides[side]
    own.energy -= rules.upgrade_cost[own.tier - 1]
    own.tier += 1
    own.upgrades += 1
    log(s, ev, EV_UPGRADE, side, own.tier, 0, 0, 0, 0, 0, 0)


@njit(cache=True)
def apply(s, rules, dist, ev, code):
    """Make the decision ``code``, known to be legal, and run what is automatic after it."""
    kind, a, b = dec(code)
    side, k = cur_side(s), cur_hero(s, rules)
    if kind == K_REVIVE:
        revive(s, rules, ev, a)
    elif s.judgment.on:
        counter(s, rules, dist, ev, kind, a, b)
    elif kind == K_STEP:
        step(s, rules, dist, ev, side, k, a)
    elif kind == K_ATTACK:
        attack(s, rules, dist, ev, side, k, b, a)
    elif kind == K_GATHER:
        gather(s, rules, ev, side, k)
    elif kind == K_BUILD:
        build(s, rules, ev, side, k, a)
    elif kind == K_STANDBY:
        s.this_turn.acted = 1
        log(s, ev, EV_STANDBY, side, k, 0, 0, 0, 0, 0, 0)
    elif kind == K_UPGRADE:
        upgrade(s, rules, ev, side)
    elif kind == K_PLAY:
        play_normal(s, rules, ev, a, b)
        prune_blood(s, rules)  # Ignite, Firestorm, Cataclysm may remove a target Blood Battle still owes
    elif kind == K_END:
        log(s, ev, EV_END, side, k, 0, 0, 0, 0, 0, 0)
        building_attack(s, rules, dist, ev, side, k, SRC_TOWER_END)
        s.this_turn.ending = 1
    settle(s, rules, dist, ev)


def map_tables(tables) -> tuple[np.ndarray, np.ndarray]:
    """The map's ``int64[C, C]`` distances and ``int64[C, 6]`` neighbours (-1: none)."""
    return (np.ascontiguousarray(tables.grid.distance, dtype=np.int64),
            np.ascontiguousarray(tables.grid.neighbors, dtype=np.int64))
