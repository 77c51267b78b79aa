"""Krypton bots: ``random`` and utility personalities read from the scenario's ``[bots]`` table, compiled.

A bot is asked by seat: :func:`choose` returns the action of the seat that owes the decision
(:func:`simkit.games.krypton.engine.to_act`), whether it is that side's hero turn, a counter window
inside the enemy's attack judgment or a revival choice. Bots read the board, the energy, the base
tiers and their own hand, never the other side's hand or the pile's order (rules page section 10:
hands are hidden). Their noise comes from the bot stream of the game's seed
(``derive_seed(seed, "bots", seat)``), never from the dice stream.

The utility bot plans each move phase: the cheapest paths from its hero's cell within its movement
points (terrain costs, Shuttle, the hits of enemy Attack Towers and base on the way), a score for
every reachable cell (what the hero can do there: attack with the exact dice odds, gather, build,
plus progress toward its goal and the damage it takes), then walks the best path and acts. It keeps
the walk under way in its memory (a :data:`MEMORY` record: the plan's key, path and action) so that it is not
planned again after every step.

Like the engine, every function here is compiled by numba and runs as plain Python under
``NUMBA_DISABLE_JIT=1``; :func:`play_loop` plays whole games of utility and random bots compiled.
A personality reaches the compiled code as a :data:`WEIGHTS_RECORD` (``w.temperature``...). What an action
would do (a step's tower hits, the cells a hero may enter, a judgment's totals, a gather) the bots ask the
engine's own predicates (:func:`~simkit.games.krypton.engine.enters_hit_range`,
:func:`~simkit.games.krypton.engine.entry_allowed`, :func:`~simkit.games.krypton.engine.hero_bonus`...);
the rest of a score is their judgement (weights, odds).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from simkit.core.rng import derive_seed
from simkit.games.kits import experience as X
from simkit.games.kits.bot_tables import bot_tables, is_search, number, switch
from simkit.games.kits.state import record, zeros
from simkit.games.krypton import engine as E
from simkit.games.krypton import lead as L
from simkit.games.krypton.engine import (
    K_ATTACK,
    K_BUILD,
    K_END,
    K_GATHER,
    K_PASS,
    K_PLAY,
    K_REVIVE,
    K_STANDBY,
    K_STEP,
    K_UPGRADE,
    base_cell,
    base_defense,
    buildable,
    cur_hero,
    cur_side,
    dice_count,
    enc,
    hero,
    hero_at,
    hero_total,
    seed2,
    seed3,
    terrain_points,
)
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
    E_ATTACK,
    E_DICE,
    E_HAND,
    HS_DEAD,
    LOSER_DEFENDER,
    MAXBL,
    MAXC,
    MAXDICE,
    MAXH,
    MAXLEGAL,
    TK_HERO,
    TK_TOWER,
    W_COMPARE,
    W_DAMAGE,
    W_DECLARE,
    W_UNITY,
)
from simkit.scenario import Field

#: A utility personality's numbers: (name, default, meaning).
WEIGHTS = (
    ("temperature", 0.1, "scale of the Gumbel noise on every destination score (0: always the best)"),
    ("attack_base", 6.0, "per expected HP taken off the enemy base"),
    ("attack_hero", 3.0, "per expected HP taken off an enemy hero"),
    ("kill_hero", 4.0, "times the chance an attack kills the enemy hero"),
    ("attack_tower", 3.0, "times the chance an attack destroys an enemy tower"),
    ("hurt", -1.5, "per expected HP the own hero loses in its attack"),
    ("gather", 1.5, "per energy gathered"),
    ("build", 6.0, "building a tower the plan wants"),
    ("death", -8.0, "the hero would die on the way or in its end phase"),
    ("advance", 0.35, "per point of move cost closer to the hero's goal"),
    ("danger", -1.2, "per HP the hero takes from enemy Attack Towers and base on the way and in its end phase"),
    ("upgrade", 1.0, "1: upgrade the base as soon as the side can pay; 0: never"),
    ("prayer_towers", 2, "Prayer Towers the side builds (needs the upgraded base)"),
    ("attack_towers", 1, "Attack Towers the side builds"),
    ("magic_towers", 0, "Magic Towers the side builds"),
    ("revive_in_place_within", 6, "revive in place when the hero died within this move cost of the enemy base"),
    ("cards", 1.0, "1: play magic cards (normal and counter); 0: never"),
    ("attackers", 1, "heroes (in team order) that go for the enemy base while the side still needs energy"),
    ("guard_within", 2, "an enemy hero this near the own base or building draws the nearest own hero (0: never)"),
    ("siege_odds", 0.3, "expected base HP an attack must take for the heroes to go for the enemy base, not its towers"),
)
WEIGHT_NAMES = tuple(w[0] for w in WEIGHTS)
INT_WEIGHTS = ("prayer_towers", "attack_towers", "magic_towers", "revive_in_place_within", "attackers", "guard_within")
SWITCHES = ("upgrade", "cards")
#: the largest count a personality may ask for (towers, heroes, move cost): beyond any board simkit holds
MAX_COUNT = 1000


@dataclass(frozen=True)
class Personality:
    """One utility bot's numbers (see :data:`WEIGHTS`)."""

    name: str
    w: dict


def read_bots(source: str, data: dict) -> dict[str, Personality]:
    """The scenario's ``[bots]`` personalities by name (file order); ``like`` copies another's numbers.

    The tables are read by the kit (:mod:`simkit.games.kits.bot_tables`): every weight a finite number
    (``temperature`` at least 0, the counts whole numbers from 0 to :data:`MAX_COUNT`), ``upgrade`` and
    ``cards`` on/off switches. Search bots (tables with a ``policy``, directly or through ``like``) are left
    to :func:`simkit.games.krypton.search_bot.read_searches`.

    Raises:
        ScenarioError: an unknown key, a non-number, NaN or an infinity, a value out of range, an unknown
            or circular ``like``.
    """
    out: dict[str, Personality] = {}
    for name, t in bot_tables(Field(source, data), required=False):
        if is_search(t):
            continue  # a search bot (simkit.games.krypton.search_bot)
        t.reject_unknown(WEIGHT_NAMES)
        w = {}
        for k, default, _ in WEIGHTS:
            if k in SWITCHES:
                w[k] = switch(t, k, default=bool(default))
            elif k in INT_WEIGHTS:
                w[k] = number(t, k, default=default, kind=int, minimum=0, maximum=MAX_COUNT)
            else:
                w[k] = number(t, k, default=default, minimum=0 if k == "temperature" else None)
        out[name] = Personality(name, w)
    return out


def is_search_table(bots: Field, name: str) -> bool:
    """True when ``[bots.<name>]`` is a search bot: it, or a table its ``like`` chain reaches, has ``policy``."""
    seen = set()
    while isinstance(name, str) and name not in seen and isinstance(bots.data.get(name), dict):
        seen.add(name)
        table = bots.data[name]
        if "policy" in table:
            return True
        name = table.get("like")
    return False



#: a utility personality's numbers as the compiled bot reads them (``w.temperature``, ``w.attack_base``...)
WEIGHTS_RECORD = record("Weights", [(name, np.float64) for name in WEIGHT_NAMES],
                        "A utility personality's numbers (WEIGHTS: name, default, meaning).")

#: how many move-cost maps (cost_to) a bot keeps
NCACHE = 3
COST_MAP = record("CostMap", [
    ("used", np.int64),           # 1: this entry holds a map
    ("side", np.int64),           # the side it was made for
    ("inputs", np.int64, MAXC),   # per cell: what cost_to read there (terrain, enemy building, goal)
    ("costs", np.int64, MAXC),    # per cell: the move cost to the goal, -1: none
], "One move-cost map a bot keeps (cost_to_kept).")

MEMORY = record("BotMemory", [
    ("key", np.int64),            # the bot's noise key
    ("draws", np.int64),          # the random bot's draws so far
    ("planned", np.int64),        # 1: a walk is under way (the fields below)
    ("plan_turn", np.int64),      # the hero turn, Shuttle, Satan's Pact, cell, HP and movement points the walk
    ("plan_shuttle", np.int64),   # expects at its next step
    ("plan_pact", np.int64),
    ("plan_cell", np.int64),
    ("plan_hp", np.int64),
    ("plan_points", np.int64),
    ("plan_action", np.int64),    # the hero action at the walk's end (an action code)
    ("path_n", np.int64),         # steps left in the walk
    ("cache_next", np.int64),     # the cost map replaced next
    ("path", np.int64, MAXC),     # the walk's cells left, in order
    ("cache", COST_MAP, NCACHE),  # the last move-cost maps
], "A utility or random bot's memory for one seat of one game.")

BOT_RANDOM, BOT_UTILITY = 0, 1
NDV = 64  # values of a dice distribution at most


def weights_array(p: Personality, temperature: float | None = None) -> np.void:
    """A personality's numbers as the compiled bot's :data:`WEIGHTS_RECORD` (optionally another temperature)."""
    w = zeros(WEIGHTS_RECORD)
    for k in WEIGHT_NAMES:
        setattr(w, k, float(p.w[k]))
    if temperature is not None:
        w.temperature = float(temperature)
    return w


def new_memory(seat: int, seed: int) -> np.void:
    """A bot's fresh memory for ``seat`` of the game with ``seed`` (its noise key, no walk under way)."""
    m = zeros(MEMORY)
    m.key = derive_seed(int(seed), "bots", seat)
    return m


# -- dice odds ----------------------------------------------------------------------------------------

def dice_dist(n: int, sides: int, combine: str, fixed: int = 0) -> tuple[tuple[int, float], ...]:
    """Distribution of ``n`` combined dice, one of them showing ``fixed`` when ``fixed`` (Satan's Pact)."""
    rolled = max(0, n - (1 if fixed else 0))
    # exact counts die by die (a convolution: sides x totals steps a die, never sides ** n outcomes)
    counts: dict[int, int] = {fixed: 1} if fixed else {}
    for _ in range(rolled):
        nxt: dict[int, int] = {}
        for v, c in (counts.items() if counts else [(None, 1)]):
            for face in range(1, sides + 1):
                w = face if v is None else (v + face if combine == "sum" else max(v, face))
                nxt[w] = nxt.get(w, 0) + c
        counts = nxt
    total = sides ** rolled
    return tuple(sorted((v, c / total) for v, c in counts.items()))


def dice_tables(rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(values, chances, counts)`` of every dice distribution a bot weighs: ``[n dice, pact 0/1, i]``."""
    st = rules.settings
    dv = np.zeros((MAXDICE + 1, 2, NDV), np.int64)
    dp = np.zeros((MAXDICE + 1, 2, NDV), np.float64)
    dn = np.zeros((MAXDICE + 1, 2), np.int64)
    for n in range(1, st["max_dice"] + 1):
        for f, fixed in ((0, 0), (1, st["pact_die"])):
            dist = dice_dist(n, st["dice_sides"], st["dice_combine"], fixed)
            if len(dist) > NDV:
                raise ValueError(f"krypton bots: {n} dice of {st['dice_sides']} sides have too many totals")
            dn[n, f] = len(dist)
            for i, (v, p) in enumerate(dist):
                dv[n, f, i], dp[n, f, i] = v, p
    return dv, dp, dn


@njit(cache=True)
def duel_odds(dv, dp, na, a_bonus, ev_, ep, ne, d_bonus):
    """``(expected damage dealt, chance of winning, expected damage taken)`` of an attack judgment; a
    building defends with ``ne = 0`` (its total is ``d_bonus``)."""
    dealt = 0.0
    win = 0.0
    taken = 0.0
    for i in range(na):
        av, ap = dv[i], dp[i]
        for j in range(max(ne, 1)):
            dvv = ev_[j] if ne > 0 else 0
            p = ap * ep[j] if ne > 0 else ap * 1.0
            diff = (av + a_bonus) - (dvv + d_bonus)
            if diff > 0:
                dealt += p * diff
                win += p
            elif diff < 0:
                taken += p * -diff
    return dealt, win, taken


# -- path finding -------------------------------------------------------------------------------------

@njit(cache=True)
def _push(heap, n, key):
    heap[n] = key
    i = n
    while i > 0:
        p = (i - 1) // 2
        if heap[p] <= heap[i]:
            break
        heap[p], heap[i] = heap[i], heap[p]
        i = p
    return n + 1


@njit(cache=True)
def _pop(heap, n):
    top = heap[0]
    n -= 1
    heap[0] = heap[n]
    i = 0
    while True:
        l, r, m = 2 * i + 1, 2 * i + 2, i
        if l < n and heap[l] < heap[m]:
            m = l
        if r < n and heap[r] < heap[m]:
            m = r
        if m == i:
            break
        heap[m], heap[i] = heap[i], heap[m]
        i = m
    return top, n


@njit(cache=True)
def reach(s, rules, nbr, side, start, points, shuttle, cost, parent, order):
    """Cells the hero of ``side`` on ``start`` can reach with ``points`` (Dijkstra over the engine's
    :func:`~simkit.games.krypton.engine.enterable` cells and :func:`~simkit.games.krypton.engine.entry_cost`):
    ``cost`` and ``parent`` per cell (-1: not reached), ``order`` the cells in the order first reached; returns
    how many. The queue pops the least ``(cost, cell)``, as the first (heapq) version did, so ties resolve
    alike."""
    C = rules.cells
    blocked = np.empty(C, np.bool_)  # not enterable now (engine.enterable), computed once per cell
    for c in range(C):
        cost[c] = -1
        parent[c] = -1
        blocked[c] = not E.enterable(s, rules, c, side)
    cost[start] = 0
    order[0] = start
    n_order = 1
    heap = np.empty(8 * C + 8, np.int64)
    nh = _push(heap, 0, start)
    while nh > 0:
        key, nh = _pop(heap, nh)
        cst, c = key // 4096, key % 4096
        if cst > cost[c]:
            continue
        for i in range(nbr.shape[1]):
            m = nbr[c, i]
            if m < 0 or blocked[m]:
                continue
            nc = cst + E.entry_cost(s, rules, m, shuttle)
            if nc <= points and (cost[m] < 0 or nc < cost[m]):
                if cost[m] < 0:
                    order[n_order] = m
                    n_order += 1
                cost[m] = nc
                parent[m] = c
                nh = _push(heap, nh, nc * 4096 + m)
    return n_order


@njit(cache=True)
def cost_to(s, rules, nbr, side, goal):
    """Cheapest move cost from every cell to any cell with ``goal[c]`` (heroes ignored, the engine's
    :func:`~simkit.games.krypton.engine.entry_allowed` ground); ``inf`` where none is reachable. Dijkstra with
    a bucket per cost (the costs are small)."""
    C = rules.cells
    maxw = 1
    for t in range(5):
        maxw = max(maxw, rules.terrain_points[t])
    nb = maxw * C + 1
    head = np.full(nb, -1, np.int64)  # bucket d: a linked list of cells
    nxt = np.empty(8 * C + 8, np.int64)  # a cell is pushed once as a goal and at most once per neighbour
    val = np.empty(8 * C + 8, np.int64)
    ne = 0
    di = np.full(C, -1, np.int64)  # -1: unreached
    for c in range(C):
        if goal[c]:
            di[c] = 0
            val[ne], nxt[ne], head[0] = c, head[0], ne
            ne += 1
    for dc in range(nb):
        while head[dc] >= 0:
            e = head[dc]
            head[dc] = nxt[e]
            v = val[e]
            if dc > di[v]:
                continue
            if not E.entry_allowed(s, v, side):
                continue
            step = E.entry_cost(s, rules, v, 0)
            for i in range(nbr.shape[1]):
                u = nbr[v, i]
                if u >= 0 and not E.is_base_cell(s, u) and (di[u] < 0 or dc + step < di[u]):
                    di[u] = dc + step
                    b = dc + step
                    val[ne], nxt[ne], head[b] = u, head[b], ne
                    ne += 1
    d = np.full(C, np.inf)
    for c in range(C):
        if di[c] >= 0:
            d[c] = di[c]
    return d


@njit(cache=True)
def cost_to_kept(s, rules, nbr, side, goal, mem):
    """:func:`cost_to`, kept in the bot's memory for the inputs it reads (terrain, enemy buildings, goals):
    the same inputs give the same costs, so the map is computed only when one of them changed."""
    C = rules.cells
    key = np.empty(C, np.int64)
    for c in range(C):
        key[c] = (s.terrain[c] + 2) * 4 + (2 if s.tower_side[c] >= 0 and s.tower_side[c] != side else 0) \
            + (1 if goal[c] else 0)
    for e in range(NCACHE):
        entry = mem.cache[e]
        if entry.used and entry.side == side:
            same = True
            for c in range(C):
                if entry.inputs[c] != key[c]:
                    same = False
                    break
            if same:
                d = np.empty(C)
                for c in range(C):
                    v = entry.costs[c]
                    d[c] = np.inf if v < 0 else v
                return d
    d = cost_to(s, rules, nbr, side, goal)
    e = mem.cache_next
    mem.cache_next = (e + 1) % NCACHE
    entry = mem.cache[e]
    entry.used, entry.side = 1, side
    for c in range(C):
        entry.inputs[c] = key[c]
        entry.costs[c] = -1 if d[c] == np.inf else np.int64(d[c])
    return d


@njit(cache=True)
def path_of(parent, dest, out):
    """The path to ``dest`` (the start excluded) into ``out``; returns its length."""
    n = 0
    c = dest
    while c != -1 and parent[c] != -1:
        n += 1
        c = parent[c]
    c = dest
    for i in range(n - 1, -1, -1):
        out[i] = c
        c = parent[c]
    return n


# -- what the side wants -------------------------------------------------------------------------------

@njit(cache=True)
def towers_by_side(s, rules):
    """``int64[2, 3]``: each side's towers by effect (attack, dice, hand)."""
    have = np.zeros((2, 3), np.int64)
    for c in range(rules.cells):
        if s.tower_side[c] >= 0:
            have[s.tower_side[c], rules.towers[s.tower_kind[c]].effect] += 1
    return have


@njit(cache=True)
def dice_of(rules, have, side):
    """The side's dice (engine.dice_count) from its towers (:func:`towers_by_side`)."""
    return E.dice_of_towers(rules, have[side, E_DICE])


@njit(cache=True)
def wanted_towers(s, rules, w, side, out, have):
    """Tower kinds still wanted, in priority order, that the side could build now (tier allowing)."""
    n = 0
    for eff, want in ((E_DICE, w.prayer_towers), (E_ATTACK, w.attack_towers), (E_HAND, w.magic_towers)):
        if have[side, eff] < want:
            for tk in range(rules.n_tower_kinds):
                if rules.towers[tk].effect == eff and E.may_build_kind(s, rules, side, tk):
                    out[n] = tk
                    n += 1
                    break
    return n


@njit(cache=True)
def energy_need(s, rules, w, side, have):
    """Energy the side still needs for its plan (base upgrades, the towers it wants) beyond its store."""
    need = 0
    own = s.sides[side]
    tier = own.tier
    if w.upgrade and tier < rules.n_tiers:
        for i in range(tier - 1, rules.n_tiers - 1):
            need += rules.upgrade_cost[i]
    for eff, want in ((E_DICE, w.prayer_towers), (E_ATTACK, w.attack_towers), (E_HAND, w.magic_towers)):
        missing = max(0, int(want) - have[side, eff])
        cost = -1
        for tk in range(rules.n_tower_kinds):
            if rules.towers[tk].effect == eff and (cost < 0 or rules.towers[tk].cost < cost):
                cost = rules.towers[tk].cost
        need += missing * max(cost, 0)
    return max(0, need - own.energy)


@njit(cache=True)
def noise(w, mem, turn, c):
    """The Gumbel noise of destination ``c`` in hero turn ``turn`` from the bot's own stream."""
    t = w.temperature
    if t <= 0:
        return 0.0
    u = (seed3(mem.key, turn, c) % (1 << 52) + 0.5) / (1 << 52)
    return -t * math.log(-math.log(u))


@njit(cache=True)
def noise_max(w):
    """The largest value :func:`noise` can take (its uniform is at most ``1 - 2**-53``)."""
    t = w.temperature
    if t <= 0:
        return 0.0
    u = ((1 << 52) - 1 + 0.5) / (1 << 52)
    return -t * math.log(-math.log(u)) + 1e-9


@njit(cache=True)
def in_list(code, lg, nl):
    """``code`` is among the ``nl`` legal codes ``lg``."""
    for i in range(nl):
        if lg[i] == code:
            return True
    return False


@njit(cache=True)
def has_card_play(card, lg, nl):
    """A legal action plays ``card`` (any target)."""
    for i in range(nl):
        if lg[i] // 1_000_000 == K_PLAY and lg[i] // 1000 % 1000 == card:
            return True
    return False


# -- attack odds --------------------------------------------------------------------------------------------

@njit(cache=True)
def attack_value(s, rules, w, DV, DP, DN, side, cell, t, na, nd):
    """Score of attacking target ``t`` (``kind * 1000 + cell``) from ``cell`` with the exact dice odds (``na``,
    ``nd``: the two sides' dice; the totals' other parts from the engine's
    :func:`~simkit.games.krypton.engine.hero_bonus` and :func:`~simkit.games.krypton.engine.tower_total`), and
    the attack's action code."""
    k = cur_hero(s, rules)
    f = 1 if s.this_turn.pact and rules.pact_die else 0
    a_bonus = E.hero_bonus(s, rules, side, k, cell)
    if w.cards and s.sides[side].hand[C_INSPIRE] > 0:
        a_bonus += rules.inspire
    kind, target = t // 1000, t % 1000
    act = enc(K_ATTACK, target, kind)
    av, ap, an = DV[na, f], DP[na, f], DN[na, f]
    if kind == TK_HERO:
        h = hero_at(s, rules, target)
        foe = hero(s, h // MAXH, h % MAXH)
        dv, dp, dn = DV[nd, 0], DP[nd, 0], DN[nd, 0]
        d_bonus = E.hero_bonus(s, rules, h // MAXH, h % MAXH, target)
        dealt, win, taken = duel_odds(av, ap, an, a_bonus, dv, dp, dn, d_bonus)
        ehp = foe.hp
        kill = 0.0
        for i in range(an):
            for j in range(dn):
                if av[i] + a_bonus - dv[j] - d_bonus >= ehp:
                    kill += ap[i] * dp[j]
        return (w.attack_hero * min(dealt, float(ehp)) + w.kill_hero * kill + w.hurt * taken), act
    if kind == TK_TOWER:
        dealt, win, taken = duel_odds(av, ap, an, a_bonus, av, ap, 0, E.tower_total(s, rules, target))
        return w.attack_tower * win * (1 if E.tower_takes_damage(s, target) else 0), act
    bdef = base_defense(s, rules, 1 - side)
    dealt, win, taken = duel_odds(av, ap, an, a_bonus, av, ap, 0, bdef)
    p = 0.0
    for i in range(an):
        if av[i] + a_bonus - bdef >= s.sides[1 - side].base_hp:
            p += ap[i]
    return w.attack_base * dealt + 100.0 * p, act


@njit(cache=True)
def base_odds(s, rules, w, DV, DP, DN, side, have):
    """Expected HP an attack on the enemy base takes off it now (Inspire in hand counted)."""
    f = 1 if s.this_turn.pact and rules.pact_die else 0
    na = dice_of(rules, have, side)
    bonus = 1 + (rules.inspire if w.cards and s.sides[side].hand[C_INSPIRE] > 0 else 0)
    av, ap, an = DV[na, f], DP[na, f], DN[na, f]
    return duel_odds(av, ap, an, bonus, av, ap, 0, base_defense(s, rules, 1 - side))[0]


# -- decisions ----------------------------------------------------------------------------------------------

@njit(cache=True)
def _near_any(rules, dist, mark, cls, g):
    """``g[c]``: a hero of class ``cls`` on ``c`` reaches a marked cell (not its own)."""
    ts = np.nonzero(mark)[0]
    for c in range(rules.cells):
        for t in ts:
            if dist[c, t] >= 1 and E.in_attack_range(rules, dist, cls, c, t):
                g[c] = True
                break


@njit(cache=True)
def goals(s, rules, dist, w, DV, DP, DN, side, k, cls, miner, have):
    """The cells this hero heads for: veins (a miner), a threatened own building's attacker (the nearest
    guard), the enemy base when an attack can hurt it, else the enemy towers."""
    C = rules.cells
    g = np.zeros(C, np.bool_)
    if miner:
        for c in range(C):
            g[c] = E.can_gather(s, c)
        return g
    own_base = base_cell(rules, side)
    threat = np.zeros(C, np.bool_)
    nthreat = 0
    for e in range(rules.team):
        foe = hero(s, 1 - side, e)
        if foe.state == HS_DEAD:
            continue
        ec = foe.cell
        near = dist[ec, own_base] <= w.guard_within
        if not near:
            for b in range(C):
                if s.tower_side[b] == side and dist[ec, b] <= w.guard_within:
                    near = True
                    break
        if near:
            threat[ec] = True
            nthreat += 1
    if nthreat > 0:
        closest, best = -1, 1 << 30
        for x in range(rules.team):
            mine = hero(s, side, x)
            if mine.state == HS_DEAD:
                continue
            m = 1 << 30
            for c in range(C):
                if threat[c]:
                    m = min(m, dist[mine.cell, c])
            if m < best:
                closest, best = x, m
        if closest == k:
            _near_any(rules, dist, threat, cls, g)
            return g
    if base_odds(s, rules, w, DV, DP, DN, side, have) < w.siege_odds:
        ntw = 0
        for c in range(C):
            if s.tower_side[c] == 1 - side and rules.towers[s.tower_kind[c]].effect == E_DICE:
                ntw += 1
        any_kind = ntw == 0
        tw = np.zeros(C, np.bool_)
        for c in range(C):
            if s.tower_side[c] == 1 - side and (any_kind or rules.towers[s.tower_kind[c]].effect == E_DICE):
                tw[c] = True
                ntw += 1
        if ntw > 0:
            _near_any(rules, dist, tw, cls, g)
            return g
    eb = base_cell(rules, 1 - side)
    for c in range(C):
        g[c] = dist[c, eb] >= 1 and E.in_attack_range(rules, dist, cls, c, eb)
    return g


@njit(cache=True)
def plan_togo(s, rules, dist, nbr, w, DV, DP, DN, side, mem, have):
    """The acting hero's move cost to its goal from every cell (:func:`goals`)."""
    C = rules.cells
    k = cur_hero(s, rules)
    need = energy_need(s, rules, w, side, have)
    veins = False
    for c in range(C):
        if E.can_gather(s, c):
            veins = True
            break
    miner = need > 0 and veins and k >= w.attackers
    g = goals(s, rules, dist, w, DV, DP, DN, side, k, hero(s, side, k).cls, miner, have)
    return cost_to_kept(s, rules, nbr, side, g, mem)


@njit(cache=True)
def plan(s, rules, dist, nbr, w, DV, DP, DN, mem, side, shuttle, path_out, togo, have):
    """``(score, path length, hero action)`` of the best reachable cell; its path into ``path_out``
    (``togo``: :func:`plan_togo`; ``have``: :func:`towers_by_side`)."""
    C = rules.cells
    k = cur_hero(s, rules)
    me = hero(s, side, k)
    start = me.cell
    hp = me.hp
    cls = me.cls
    cost = np.empty(C, np.int64)
    parent = np.empty(C, np.int64)
    order = np.empty(C, np.int64)
    nreach = reach(s, rules, nbr, side, start, s.this_turn.points, shuttle, cost, parent, order)
    need = energy_need(s, rules, w, side, have)
    enemy_base = base_cell(rules, 1 - side)
    wanted = np.empty(3, np.int64)
    nwanted = wanted_towers(s, rules, w, side, wanted, have)
    top_score, top_n, top_act = -np.inf, 0, enc(K_STANDBY, 0, -1)
    own = s.sides[side]
    energy = own.energy
    tier = own.tier
    na, nd = dice_of(rules, have, side), dice_of(rules, have, 1 - side)
    # the targets an attack may have (engine.enemy_targets, filtered per cell by engine.in_attack_range as
    # engine.attack_targets does), and the cells whose hits strike this hero (engine.hitters)
    cand = np.empty(C + MAXH + 1, np.int64)
    atk = np.empty(C + 1, np.int64)
    ncand = E.enemy_targets(s, rules, side, cand)
    natk = E.hitters(s, rules, side, atk)
    # HP taken on the way to each cell from the enemy Attack Towers and base whose range it enters, summed
    # through its parent (the first version summed it over each whole path: the same numbers)
    pdmg = np.full(C, -1, np.int64)
    pdmg[start] = 0
    chain = np.empty(C, np.int64)
    memo_v = np.zeros(8 * ncand)
    memo_a = np.full(8 * ncand, -1, np.int64)
    nmax = noise_max(w)
    for idx in range(nreach):
        c = order[idx]
        nch = 0
        x = c
        while pdmg[x] < 0:
            chain[nch] = x
            nch += 1
            x = parent[x]
        for i in range(nch - 1, -1, -1):
            y = chain[i]
            p = parent[y]
            pdmg[y] = pdmg[p] + E.damage_entering(rules, dist, atk, natk, p, y)
        dmg = pdmg[c] + E.damage_standing(rules, dist, atk, natk, c)
        score = w.danger * dmg
        if dmg >= hp:
            score += w.death
        if togo[start] < np.inf and togo[c] < np.inf:
            score += w.advance * (togo[start] - togo[c])
        act, act_score = enc(K_STANDBY, 0, -1), 0.0
        tp = terrain_points(s, rules, c)
        for i in range(ncand):
            if E.in_attack_range(rules, dist, cls, c, cand[i] % 1000):
                # an attack's value from c depends on c only through its terrain points: kept per target
                if tp < 8 and memo_a[i * 8 + tp] >= 0:
                    v, a = memo_v[i * 8 + tp], memo_a[i * 8 + tp]
                else:
                    v, a = attack_value(s, rules, w, DV, DP, DN, side, c, cand[i], na, nd)
                    if tp < 8:
                        memo_v[i * 8 + tp], memo_a[i * 8 + tp] = v, a
                if v > act_score:
                    act, act_score = a, v
        if E.can_gather(s, c) and need > 0:
            v = w.gather * E.gather_yield(s, rules, c)
            if v > act_score:
                act, act_score = enc(K_GATHER, 0, -1), v
        if nwanted > 0 and buildable(s, rules, c):
            for i in range(nwanted):
                tk = wanted[i]
                reserve = 0
                if rules.towers[tk].effect != E_DICE and w.upgrade and tier < rules.n_tiers:
                    reserve = rules.upgrade_cost[tier - 1]
                if energy - reserve >= rules.towers[tk].cost:
                    home = dist[c, base_cell(rules, side)]
                    if rules.towers[tk].effect == E_ATTACK:  # on the way in: between the bases, own half
                        v = w.build * (1.0 if home < dist[c, enemy_base] else 0.3)
                    else:  # keep the others at home, out of reach
                        v = w.build * max(0.2, 1.0 - 0.15 * max(0, home - 2))
                    if v > act_score:
                        act, act_score = enc(K_BUILD, tk, -1), v
                    break
        if score + (act_score + nmax) < top_score - 1e-6:
            continue  # even the largest noise cannot make this cell the best
        score += act_score + noise(w, mem, s.turn, c)
        if score > top_score:
            top_score, top_act = score, act
            top_n = path_of(parent, c, path_out)
    return top_score, top_n, top_act


@njit(cache=True)
def revive(s, rules, dist, nbr, w, mem):
    """Revival choice: in place when the hero died near the enemy base with no enemy hero within 2."""
    owed = s.revivals_owed[0]
    side, cell = owed.side, owed.cell
    C = rules.cells
    eb = base_cell(rules, 1 - side)
    goal = np.zeros(C, np.bool_)
    for c in range(C):
        goal[c] = dist[c, eb] == 1
    d = cost_to_kept(s, rules, nbr, side, goal, mem)[cell]
    # a flipped hero takes no end-phase hits (it does not act): in place it keeps its siege position;
    # enemy heroes next to it would attack it while it cannot answer
    safe = True
    for e in range(rules.team):
        foe = hero(s, 1 - side, e)
        if foe.state != HS_DEAD and dist[foe.cell, cell] <= 2:
            safe = False
    return enc(K_REVIVE, 1 if d <= w.revive_in_place_within and safe else 0, -1)


@njit(cache=True)
def counter(s, rules, dist, w, lg, nl):
    """A counter-window answer: Space Swap when a swap hits, Curse and Power of Unity when losing, Unyielding Will
    when dying, Pursuit, Same End; else pass."""
    passing = enc(K_PASS, 0, -1)
    if not w.cards:
        return passing
    j = s.judgment
    d, side = j.defender, j.side
    tk = j.target_kind
    win = j.window
    if win == W_DECLARE and has_card_play(C_SWAP, lg, nl):
        best, hits_best = -1, 0
        for i in range(nl):
            if lg[i] // 1_000_000 != K_PLAY:
                continue
            other = lg[i] % 1000 - 1
            hits = 0
            for c_new, c_old in ((j.cell, other), (other, j.cell)):
                if rules.towers[s.tower_kind[c_old]].effect == E_ATTACK:
                    for e in range(rules.team):
                        foe = hero(s, side, e)
                        if foe.state != HS_DEAD and E.in_hit_range(rules, dist, foe.cell, c_new):
                            hits += 1
            if hits > hits_best:
                best, hits_best = lg[i], hits
        if best >= 0:
            return best
    if win == W_COMPARE or win == W_UNITY:
        a_total = hero_total(s, rules, side, j.attacker, j.attack_dice, j.n_attack_dice, 0)
        if tk == TK_HERO:
            d_total = hero_total(s, rules, d, j.target_hero, j.defence_dice, j.n_defence_dice, j.unity)
        else:
            d_total = E.building_total(s, rules, d)
        if a_total >= d_total:
            if has_card_play(C_CURSE, lg, nl):
                return enc(K_PLAY, C_CURSE, -1)
            if has_card_play(C_UNITY, lg, nl):
                return enc(K_PLAY, C_UNITY, -1)
    if win == W_DAMAGE and tk == TK_HERO:
        mine = hero(s, d, j.target_hero)
        me_hp = mine.hp
        lost = j.loser == LOSER_DEFENDER
        dies = lost and j.d >= me_hp and not mine.floor1
        will = enc(K_PLAY, C_WILL, mine.cell)
        if dies and in_list(will, lg, nl):
            return will
        foe = hero(s, side, j.attacker)
        if has_card_play(C_PURSUIT, lg, nl) and foe.state != HS_DEAD and me_hp >= 2:
            gain = me_hp - 1
            if (lost and (mine.floor1 or j.d >= me_hp)) or gain >= foe.hp:
                return enc(K_PLAY, C_PURSUIT, -1)
        if lost and has_card_play(C_SAME_END, lg, nl):
            return enc(K_PLAY, C_SAME_END, -1)
    return passing


@njit(cache=True)
def instant_card(s, rules, dist, w, lg, nl):
    """A normal card worth playing now (Ignite, Firestorm, Cataclysm, Divine Grace, Iron Wall), or -1."""
    side = cur_side(s)
    for i in range(nl):
        a = lg[i]
        if a // 1_000_000 != K_PLAY:
            continue
        card, cell = a // 1000 % 1000, a % 1000 - 1
        if card == C_IGNITE:
            h = hero_at(s, rules, cell)
            hs = h // MAXH
            low = 1 << 30
            for e in range(rules.team):
                x = hero(s, hs, e)
                if x.state != HS_DEAD:
                    low = min(low, x.hp)
            if hero(s, hs, h % MAXH).hp == low:
                return a
        elif card == C_FIRESTORM or card == C_CATACLYSM:
            for e in range(rules.team):
                if E.storm_hits(s, rules, card, 1 - side, e):
                    return a
        elif card == C_GRACE:
            h = hero_at(s, rules, cell)
            x = hero(s, h // MAXH, h % MAXH)
            if rules.classes[x.cls].hp - x.hp >= 2 and energy_need(s, rules, w, side, towers_by_side(s, rules)) == 0:
                return a
        elif card == C_IRON:
            if not s.iron_wall[cell]:
                for e in range(rules.team):
                    foe = hero(s, 1 - side, e)
                    if foe.state != HS_DEAD and dist[foe.cell, cell] <= 3:
                        return a
    return -1


@njit(cache=True)
def pre_attack_card(s, rules, dist, lg, nl, side, t):
    """A card worth playing before attacking ``t`` (Blood Battle, Satan's Pact, Inspire, Earthsplit), or -1."""
    if s.this_turn.acted:
        return -1
    k = cur_hero(s, rules)
    me = hero(s, side, k)
    hp = me.hp
    if in_list(enc(K_PLAY, C_BLOOD, -1), lg, nl) and hp >= 5:
        tg = np.empty(MAXBL, np.int64)
        if E.attack_targets(s, rules, dist, side, k, tg) >= 2:
            return enc(K_PLAY, C_BLOOD, -1)
    if in_list(enc(K_PLAY, C_PACT, -1), lg, nl) and hp >= 5:
        return enc(K_PLAY, C_PACT, -1)
    inspire = enc(K_PLAY, C_INSPIRE, me.cell)
    if in_list(inspire, lg, nl):
        return inspire
    kind, cell = t // 1000, t % 1000
    if kind == TK_HERO and terrain_points(s, rules, cell) > 1:
        h = hero_at(s, rules, cell)
        es = enc(K_PLAY, C_EARTHSPLIT, cell)
        if h >= 0 and in_list(es, lg, nl) and not hero(s, h // MAXH, h % MAXH).earthsplit:
            return es
    return -1


@njit(cache=True)
def turn(s, rules, dist, nbr, w, DV, DP, DN, mem, lg, nl):
    """A decision of the bot's own hero turn: upgrade, cards, Blood Battle's targets, the planned walk and action."""
    side = cur_side(s)
    k = cur_hero(s, rules)
    me = hero(s, side, k)
    t = s.this_turn
    cell = me.cell
    up = enc(K_UPGRADE, 0, -1)
    if w.upgrade and in_list(up, lg, nl):
        return up
    if w.cards:
        a = instant_card(s, rules, dist, w, lg, nl)
        if a >= 0:
            return a
    if t.n_blood_owed > 0:
        best, best_v = -1, 0.0
        for i in range(nl):
            if lg[i] // 1_000_000 == K_ATTACK:
                tg = (lg[i] % 1000 - 1) * 1000 + lg[i] // 1000 % 1000
                v, _ = attack_value(s, rules, w, DV, DP, DN, side, cell, tg, dice_count(s, rules, side),
                                    dice_count(s, rules, 1 - side))
                if best < 0 or v > best_v:
                    best, best_v = lg[i], v
        if best >= 0:
            return best
    if t.acted:
        return enc(K_END, 0, -1)
    shuttle = t.shuttle
    path = np.empty(rules.cells, np.int64)
    if (mem.planned and mem.plan_turn == s.turn and mem.plan_shuttle == shuttle and mem.plan_pact == t.pact
            and mem.plan_cell == cell and mem.plan_hp == me.hp and mem.plan_points == t.points):
        n = mem.path_n
        for i in range(n):
            path[i] = mem.path[i]
        act = mem.plan_action
    else:
        have = towers_by_side(s, rules)
        togo = plan_togo(s, rules, dist, nbr, w, DV, DP, DN, side, mem, have)
        score, n, act = plan(s, rules, dist, nbr, w, DV, DP, DN, mem, side, shuttle, path, togo, have)
        if w.cards and not shuttle and in_list(enc(K_PLAY, C_SHUTTLE, -1), lg, nl):
            alt = np.empty(rules.cells, np.int64)
            alt_score, _, _ = plan(s, rules, dist, nbr, w, DV, DP, DN, mem, side, 1, alt, togo, have)
            if alt_score > score + 1.0:
                return enc(K_PLAY, C_SHUTTLE, -1)
    if n > 0:
        # the plan holds while the walk goes as planned (same turn, no hit taken on the way)
        nxt = path[0]
        cost = E.step_cost(s, rules, nxt)
        mem.planned = 1
        mem.plan_turn, mem.plan_shuttle, mem.plan_pact = s.turn, shuttle, t.pact
        mem.plan_cell, mem.plan_hp, mem.plan_points = nxt, me.hp, t.points - cost
        mem.plan_action = act
        mem.path_n = n - 1
        for i in range(n - 1):
            mem.path[i] = path[i + 1]
        return enc(K_STEP, nxt, -1)
    mem.planned = 0
    if act // 1_000_000 == K_ATTACK and w.cards:
        tg = (act % 1000 - 1) * 1000 + act // 1000 % 1000
        a = pre_attack_card(s, rules, dist, lg, nl, side, tg)
        if a >= 0:
            return a
    if in_list(act, lg, nl):
        return act
    standby = enc(K_STANDBY, 0, -1)
    return standby if in_list(standby, lg, nl) else enc(K_END, 0, -1)


@njit(cache=True)
def choose_code(s, rules, dist, nbr, kind, w, DV, DP, DN, mem, lg, nl):
    """The bot's action code among the ``nl`` legal codes ``lg`` of the seat that owes the decision."""
    if kind == BOT_RANDOM:
        mem.draws += 1
        return lg[seed2(mem.key, mem.draws) % nl]
    if s.n_revivals_owed > 0:
        return revive(s, rules, dist, nbr, w, mem)
    if s.judgment.on:
        return counter(s, rules, dist, w, lg, nl)
    return turn(s, rules, dist, nbr, w, DV, DP, DN, mem, lg, nl)


@njit(cache=True)
def play_loop(s, rules, dist, nbr, ev, kinds, weights, DV, DP, DN, mems, acts, n, lws, xs):
    """Play on with the two seats' bots (``kinds``, weights ``weights[seat]``, memories ``mems[seat]``) until
    the game is over or ``acts`` (the actions so far: ``n``) is full; returns the new ``n`` (-1 - n: a bot
    chose an illegal action, a bug). Each decision and the lead at each round's end (weights ``lws[0]``) are
    noted into the experience record ``xs[0]`` (:func:`simkit.games.krypton.lead.note_turn`)."""
    lg = np.empty(MAXLEGAL, np.int64)
    while s.winner < 0 and n < acts.shape[0]:
        seat = E.to_act(s, rules)
        nl = E.legal(s, rules, dist, nbr, lg)
        code = choose_code(s, rules, dist, nbr, kinds[seat], weights[seat], DV, DP, DN, mems[seat], lg, nl)
        if not in_list(code, lg, nl):
            return -1 - n
        turn = s.turn
        E.apply(s, rules, dist, ev, code)
        X.note_choice(xs[0], nl)
        if s.turn != turn or s.winner >= 0:  # a hero turn ended (a round may have) or the game did
            L.note_turn(s, rules, lws[0], xs[0], turn)
        acts[n] = code
        n += 1
    return n


# -- the Python side -----------------------------------------------------------------------------------------

class Utility:
    """A utility bot for one seat of one game: its numbers and its memory, deciding through the compiled code.

    Args:
        personality: the bot's :class:`Personality`.
        seat: the seat played.
        seed: the game's seed (the bot's noise stream is ``derive_seed(seed, "bots", seat)``).
    """

    kind = BOT_UTILITY

    def __init__(self, personality: Personality, seat: int, seed: int):
        self.w = personality.w
        self.W = weights_array(personality)
        self.seat = seat
        self.mem = new_memory(seat, seed)

    def choose_code(self, m) -> int:
        """The code of the bot's action in the game of ``m`` (a :class:`~simkit.games.krypton.match.Match`)."""
        lg = m.legal_codes()
        P = m.packed
        return int(choose_code(m.state, P.rules, P.dist, P.nbr, self.kind, self.W, *P.dice, self.mem, lg, len(lg)))

    def choose(self, m, legal=None) -> tuple:
        """The bot's action (a tuple) in the game of ``m`` (a Match); ``legal`` is not needed."""
        return m.action_of(self.choose_code(m))


class RandomBot(Utility):
    """The ``random`` bot for one seat: a uniformly random legal action from its own noise stream."""

    kind = BOT_RANDOM

    def __init__(self, seat: int, seed: int):
        self.w = {}
        self.W = zeros(WEIGHTS_RECORD)
        self.seat = seat
        self.mem = new_memory(seat, seed)


def choose(bot, m) -> tuple:
    """The action of the seat that owes the decision in the game of ``m`` (a Match): ``bot`` is a
    :class:`Utility`, a :class:`RandomBot` or a search bot."""
    return bot.choose(m, m.legal_actions())


def cost_to_cells(m, side: int, goals) -> list[float]:
    """Cheapest move cost from every cell of the game of ``m`` to any of the cells ``goals`` (as the bots plan)."""
    goal = np.zeros(m.rules.grid.size, np.bool_)
    goal[list(goals)] = True
    return [float(v) for v in cost_to(m.state, m.packed.rules, m.packed.nbr, side, goal)]
