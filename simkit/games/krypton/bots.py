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
the walk under way in its memory (``int64[MEM]``: the plan's key, path and action) so that it is not
planned again after every step.

Like the engine, every function here is compiled by numba and runs as plain Python under
``NUMBA_DISABLE_JIT=1``; :func:`play_loop` plays whole games of utility and random bots compiled.
A personality reaches the compiled code as ``float64[NW]`` (:data:`WEIGHTS` order).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numba import njit

from simkit.core.rng import derive_seed
from simkit.games.kits.bot_tables import bot_tables, is_search, number, switch
from simkit.games.krypton import engine as E
from simkit.games.krypton.engine import (
    B_IRON,
    B_KIND,
    B_SIDE,
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
    G_TURN,
    H_CELL,
    H_CLS,
    H_EARTH,
    H_FLOOR1,
    H_HP,
    H_INSPIRE,
    H_STATE,
    HS_DEAD,
    J_AD,
    J_ATT,
    J_CELL,
    J_D,
    J_DD,
    J_DEF,
    J_LOSER,
    J_NA,
    J_ND,
    J_ON,
    J_SIDE,
    J_TK,
    J_TKIND,
    J_UNITY,
    J_WIN,
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
    MAXBL,
    MAXC,
    MAXDICE,
    MAXLEGAL,
    PD,
    PD_N,
    R_BATTACK,
    R_BRANGE,
    R_C,
    R_CL_HP,
    R_CL_RANGE,
    R_CURSE,
    R_INSPIRE,
    R_NTIERS,
    R_NTK,
    R_PACT_DIE,
    R_PRAYER_TIER,
    R_TEAM,
    R_TW_COST,
    R_TW_DEF,
    R_TW_EFF,
    R_UPC,
    R_YIELD,
    S_CURSE,
    S_ENERGY,
    S_HAND,
    S_TIER,
    STOCK,
    T_ACTED,
    T_NBL,
    T_PACT,
    T_POINTS,
    T_SHUTTLE,
    TERR,
    TK_HERO,
    TK_TOWER,
    W_COMPARE,
    W_DAMAGE,
    W_DECLARE,
    W_UNITY,
    base_cell,
    base_defense,
    buildable,
    cur_hero,
    cur_side,
    dice_count,
    enc,
    hero_at,
    hero_total,
    ho,
    seed2,
    seed3,
    so,
    terrain_points,
)
from simkit.games.krypton.tables import T_BASE, T_FOREST, T_HILL, T_VEIN
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



(W_TEMPERATURE, W_ATTACK_BASE, W_ATTACK_HERO, W_KILL_HERO, W_ATTACK_TOWER, W_HURT, W_GATHER, W_BUILD, W_DEATH,
 W_ADVANCE, W_DANGER, W_UPGRADE, W_PRAYER_TOWERS, W_ATTACK_TOWERS, W_MAGIC_TOWERS, W_REVIVE_WITHIN, W_CARDS,
 W_ATTACKERS, W_GUARD_WITHIN, W_SIEGE_ODDS) = range(len(WEIGHTS))
NW = len(WEIGHTS)
assert WEIGHT_NAMES[W_ATTACKERS] == "attackers" and WEIGHT_NAMES[W_DANGER] == "danger"

# a bot's memory: its noise key, the random bot's draws, the walk under way (key, action, path)
M_KEY, M_RND, M_PLAN, M_KT, M_KS, M_KP, M_KC, M_KH, M_KPT, M_ACT, M_PN, M_CNEXT = range(12)
M_PATH = 16
# the last NCACHE move-cost maps (cost_to): each entry its side, its inputs per cell and its costs per cell
NCACHE = 3
M_CACHE = M_PATH + MAXC
CE = 2 + 2 * MAXC
MEM = M_CACHE + NCACHE * CE
BOT_RANDOM, BOT_UTILITY = 0, 1
NDV = 64  # values of a dice distribution at most


def weights_array(p: Personality, temperature: float | None = None) -> np.ndarray:
    """A personality's numbers as the compiled bot's ``float64[NW]`` (optionally another temperature)."""
    w = np.array([float(p.w[k]) for k in WEIGHT_NAMES], np.float64)
    if temperature is not None:
        w[W_TEMPERATURE] = float(temperature)
    return w


def new_memory(seat: int, seed: int) -> np.ndarray:
    """A bot's fresh memory for ``seat`` of the game with ``seed`` (its noise key, no walk under way)."""
    m = np.zeros(MEM, np.int64)
    m[M_KEY] = derive_seed(int(seed), "bots", seat)
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
def reach(s, R, nbr, side, start, points, shuttle, cost, parent, order):
    """Cells the hero of ``side`` on ``start`` can reach with ``points`` (Dijkstra): ``cost`` and ``parent``
    per cell (-1: not reached), ``order`` the cells in the order first reached; returns how many. The
    queue pops the least ``(cost, cell)``, as the first (heapq) version did, so ties resolve alike."""
    C = R[R_C]
    blocked = np.empty(C, np.bool_)  # not enterable (engine.enterable), computed once
    for c in range(C):
        cost[c] = -1
        parent[c] = -1
        blocked[c] = s[TERR + c] == T_BASE or (s[B_SIDE + c] >= 0 and s[B_SIDE + c] != side)
    for h in range(2):
        for e in range(R[R_TEAM]):
            oe = ho(h, e)
            if s[oe + H_STATE] != HS_DEAD:
                blocked[s[oe + H_CELL]] = True
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
            nc = cst + (1 if shuttle else terrain_points(s, R, m))
            if nc <= points and (cost[m] < 0 or nc < cost[m]):
                if cost[m] < 0:
                    order[n_order] = m
                    n_order += 1
                cost[m] = nc
                parent[m] = c
                nh = _push(heap, nh, nc * 4096 + m)
    return n_order


@njit(cache=True)
def cost_to(s, R, nbr, side, goal):
    """Cheapest move cost from every cell to any cell with ``goal[c]`` (heroes ignored, enemy buildings
    blocked); ``inf`` where none is reachable. Dijkstra with a bucket per cost (the costs are small)."""
    C = R[R_C]
    maxw = 1
    for t in range(5):
        maxw = max(maxw, R[E.R_TP + t])
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
            if s[TERR + v] == T_BASE or (s[B_SIDE + v] >= 0 and s[B_SIDE + v] != side):
                continue
            step = terrain_points(s, R, v)
            for i in range(nbr.shape[1]):
                u = nbr[v, i]
                if u >= 0 and s[TERR + u] != T_BASE and (di[u] < 0 or dc + step < di[u]):
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
def cost_to_kept(s, R, nbr, side, goal, mem):
    """:func:`cost_to`, kept in the bot's memory for the inputs it reads (terrain, enemy buildings, goals):
    the same inputs give the same costs, so the map is computed only when one of them changed."""
    C = R[R_C]
    key = np.empty(C, np.int64)
    for c in range(C):
        key[c] = (s[TERR + c] + 2) * 4 + (2 if s[B_SIDE + c] >= 0 and s[B_SIDE + c] != side else 0) \
            + (1 if goal[c] else 0)
    for e in range(NCACHE):
        o = M_CACHE + e * CE
        if mem[o] and mem[o + 1] == side:
            same = True
            for c in range(C):
                if mem[o + 2 + c] != key[c]:
                    same = False
                    break
            if same:
                d = np.empty(C)
                for c in range(C):
                    v = mem[o + 2 + MAXC + c]
                    d[c] = np.inf if v < 0 else v
                return d
    d = cost_to(s, R, nbr, side, goal)
    e = mem[M_CNEXT]
    mem[M_CNEXT] = (e + 1) % NCACHE
    o = M_CACHE + e * CE
    mem[o], mem[o + 1] = 1, side
    for c in range(C):
        mem[o + 2 + c] = key[c]
        mem[o + 2 + MAXC + c] = -1 if d[c] == np.inf else np.int64(d[c])
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


@njit(cache=True)
def end_damage(R, dist, atk, natk, cell):
    """HP the hero takes in its end phase on ``cell``."""
    n = 0
    for j in range(natk):
        if dist[cell, atk[j]] <= R[R_BRANGE]:
            n += 1
    return R[R_BATTACK] * n


# -- what the side wants -------------------------------------------------------------------------------

@njit(cache=True)
def towers_by_side(s, R):
    """``int64[2, 3]``: each side's towers by effect (attack, dice, hand)."""
    have = np.zeros((2, 3), np.int64)
    for c in range(R[R_C]):
        if s[B_SIDE + c] >= 0:
            have[s[B_SIDE + c], R[R_TW_EFF + s[B_KIND + c]]] += 1
    return have


@njit(cache=True)
def dice_of(R, have, side):
    """The side's dice (engine.dice_count) from its towers (:func:`towers_by_side`)."""
    return min(R[E.R_MAX_DICE], 1 + have[side, E_DICE])


@njit(cache=True)
def wanted_towers(s, R, W, side, out, have):
    """Tower kinds still wanted, in priority order, that the side could build now (tier allowing)."""
    n = 0
    for eff, key in ((E_DICE, W_PRAYER_TOWERS), (E_ATTACK, W_ATTACK_TOWERS), (E_HAND, W_MAGIC_TOWERS)):
        if have[side, eff] < W[key]:
            for tk in range(R[R_NTK]):
                if R[R_TW_EFF + tk] == eff and (eff != E_DICE or s[so(side) + S_TIER] >= R[R_PRAYER_TIER]):
                    out[n] = tk
                    n += 1
                    break
    return n


@njit(cache=True)
def energy_need(s, R, W, side, have):
    """Energy the side still needs for its plan (base upgrades, the towers it wants) beyond its store."""
    need = 0
    tier = s[so(side) + S_TIER]
    if W[W_UPGRADE] and tier < R[R_NTIERS]:
        for i in range(tier - 1, R[R_NTIERS] - 1):
            need += R[R_UPC + i]
    for eff, key in ((E_DICE, W_PRAYER_TOWERS), (E_ATTACK, W_ATTACK_TOWERS), (E_HAND, W_MAGIC_TOWERS)):
        missing = max(0, int(W[key]) - have[side, eff])
        cost = -1
        for tk in range(R[R_NTK]):
            if R[R_TW_EFF + tk] == eff and (cost < 0 or R[R_TW_COST + tk] < cost):
                cost = R[R_TW_COST + tk]
        need += missing * max(cost, 0)
    return max(0, need - s[so(side) + S_ENERGY])


@njit(cache=True)
def noise(W, mem, turn, c):
    """The Gumbel noise of destination ``c`` in hero turn ``turn`` from the bot's own stream."""
    t = W[W_TEMPERATURE]
    if t <= 0:
        return 0.0
    u = (seed3(mem[M_KEY], turn, c) % (1 << 52) + 0.5) / (1 << 52)
    return -t * math.log(-math.log(u))


@njit(cache=True)
def noise_max(W):
    """The largest value :func:`noise` can take (its uniform is at most ``1 - 2**-53``)."""
    t = W[W_TEMPERATURE]
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
def attack_value(s, R, W, DV, DP, DN, side, cell, t, na, nd):
    """Score of attacking target ``t`` (``kind * 1000 + cell``) from ``cell`` with the exact dice odds (``na``,
    ``nd``: the two sides' dice), and the attack's action code."""
    k = cur_hero(s, R)
    o = ho(side, k)
    f = 1 if s[T_PACT] and R[R_PACT_DIE] else 0
    a_bonus = (1 if s[o + H_EARTH] else terrain_points(s, R, cell)) + R[R_INSPIRE] * s[o + H_INSPIRE] \
        - R[R_CURSE] * s[so(side) + S_CURSE]
    if W[W_CARDS] and s[so(side) + S_HAND + C_INSPIRE] > 0:
        a_bonus += R[R_INSPIRE]
    kind, target = t // 1000, t % 1000
    act = enc(K_ATTACK, target, kind)
    av, ap, an = DV[na, f], DP[na, f], DN[na, f]
    if kind == TK_HERO:
        h = hero_at(s, R, target)
        oe = ho(h // E.MAXH, h % E.MAXH)
        dv, dp, dn = DV[nd, 0], DP[nd, 0], DN[nd, 0]
        d_bonus = 1 if s[oe + H_EARTH] else terrain_points(s, R, target)
        dealt, win, taken = duel_odds(av, ap, an, a_bonus, dv, dp, dn, d_bonus)
        ehp = s[oe + H_HP]
        kill = 0.0
        for i in range(an):
            for j in range(dn):
                if av[i] + a_bonus - dv[j] - d_bonus >= ehp:
                    kill += ap[i] * dp[j]
        return (W[W_ATTACK_HERO] * min(dealt, float(ehp)) + W[W_KILL_HERO] * kill + W[W_HURT] * taken), act
    if kind == TK_TOWER:
        dealt, win, taken = duel_odds(av, ap, an, a_bonus, av, ap, 0, R[R_TW_DEF + s[B_KIND + target]])
        return W[W_ATTACK_TOWER] * win * (0 if s[B_IRON + target] else 1), act
    bdef = base_defense(s, R, 1 - side)
    dealt, win, taken = duel_odds(av, ap, an, a_bonus, av, ap, 0, bdef)
    p = 0.0
    for i in range(an):
        if av[i] + a_bonus - bdef >= s[so(1 - side) + E.S_BASE_HP]:
            p += ap[i]
    return W[W_ATTACK_BASE] * dealt + 100.0 * p, act


@njit(cache=True)
def base_odds(s, R, W, DV, DP, DN, side, have):
    """Expected HP an attack on the enemy base takes off it now (Inspire in hand counted)."""
    f = 1 if s[T_PACT] and R[R_PACT_DIE] else 0
    na = dice_of(R, have, side)
    bonus = 1 + (R[R_INSPIRE] if W[W_CARDS] and s[so(side) + S_HAND + C_INSPIRE] > 0 else 0)
    av, ap, an = DV[na, f], DP[na, f], DN[na, f]
    return duel_odds(av, ap, an, bonus, av, ap, 0, base_defense(s, R, 1 - side))[0]


# -- decisions ----------------------------------------------------------------------------------------------

@njit(cache=True)
def _near_any(dist, mark, rng, g, C):
    """``g[c]``: ``c`` is within ``1..rng`` of a marked cell."""
    ts = np.nonzero(mark)[0]
    for c in range(C):
        for t in ts:
            if 1 <= dist[c, t] <= rng:
                g[c] = True
                break


@njit(cache=True)
def goals(s, R, dist, W, DV, DP, DN, side, k, rng, miner, have):
    """The cells this hero heads for: veins (a miner), a threatened own building's attacker (the nearest
    guard), the enemy base when an attack can hurt it, else the enemy towers."""
    C = R[R_C]
    g = np.zeros(C, np.bool_)
    if miner:
        for c in range(C):
            g[c] = s[TERR + c] == T_VEIN and s[STOCK + c] > 0
        return g
    own_base = base_cell(R, side)
    threat = np.zeros(C, np.bool_)
    nthreat = 0
    for e in range(R[R_TEAM]):
        oe = ho(1 - side, e)
        if s[oe + H_STATE] == HS_DEAD:
            continue
        ec = s[oe + H_CELL]
        near = dist[ec, own_base] <= W[W_GUARD_WITHIN]
        if not near:
            for b in range(C):
                if s[B_SIDE + b] == side and dist[ec, b] <= W[W_GUARD_WITHIN]:
                    near = True
                    break
        if near:
            threat[ec] = True
            nthreat += 1
    if nthreat > 0:
        closest, best = -1, 1 << 30
        for x in range(R[R_TEAM]):
            ox = ho(side, x)
            if s[ox + H_STATE] == HS_DEAD:
                continue
            m = 1 << 30
            for c in range(C):
                if threat[c]:
                    m = min(m, dist[s[ox + H_CELL], c])
            if m < best:
                closest, best = x, m
        if closest == k:
            _near_any(dist, threat, rng, g, C)
            return g
    if base_odds(s, R, W, DV, DP, DN, side, have) < W[W_SIEGE_ODDS]:
        ntw = 0
        for c in range(C):
            if s[B_SIDE + c] == 1 - side and R[R_TW_EFF + s[B_KIND + c]] == E_DICE:
                ntw += 1
        any_kind = ntw == 0
        tw = np.zeros(C, np.bool_)
        for c in range(C):
            if s[B_SIDE + c] == 1 - side and (any_kind or R[R_TW_EFF + s[B_KIND + c]] == E_DICE):
                tw[c] = True
                ntw += 1
        if ntw > 0:
            _near_any(dist, tw, rng, g, C)
            return g
    eb = base_cell(R, 1 - side)
    for c in range(C):
        g[c] = 1 <= dist[c, eb] <= rng
    return g


@njit(cache=True)
def plan_togo(s, R, dist, nbr, W, DV, DP, DN, side, mem, have):
    """The acting hero's move cost to its goal from every cell (:func:`goals`)."""
    C = R[R_C]
    k = cur_hero(s, R)
    o = ho(side, k)
    need = energy_need(s, R, W, side, have)
    veins = False
    for c in range(C):
        if s[TERR + c] == T_VEIN and s[STOCK + c] > 0:
            veins = True
            break
    miner = need > 0 and veins and k >= W[W_ATTACKERS]
    rng = R[R_CL_RANGE + s[o + H_CLS]]
    return cost_to_kept(s, R, nbr, side, goals(s, R, dist, W, DV, DP, DN, side, k, rng, miner, have), mem)


@njit(cache=True)
def plan(s, R, dist, nbr, W, DV, DP, DN, mem, side, shuttle, path_out, togo, have):
    """``(score, path length, hero action)`` of the best reachable cell; its path into ``path_out``
    (``togo``: :func:`plan_togo`; ``have``: :func:`towers_by_side`)."""
    C = R[R_C]
    k = cur_hero(s, R)
    o = ho(side, k)
    start = s[o + H_CELL]
    hp = s[o + H_HP]
    cost = np.empty(C, np.int64)
    parent = np.empty(C, np.int64)
    order = np.empty(C, np.int64)
    nreach = reach(s, R, nbr, side, start, s[T_POINTS], shuttle, cost, parent, order)
    need = energy_need(s, R, W, side, have)
    enemy_base = base_cell(R, 1 - side)
    rng = R[R_CL_RANGE + s[o + H_CLS]]
    wanted = np.empty(3, np.int64)
    nwanted = wanted_towers(s, R, W, side, wanted, have)
    top_score, top_n, top_act = -np.inf, 0, enc(K_STANDBY, 0, -1)
    energy = s[so(side) + S_ENERGY]
    tier = s[so(side) + S_TIER]
    na, nd = dice_of(R, have, side), dice_of(R, have, 1 - side)
    # the targets an attack from a cell may have, in the engine's order (attack_targets): enemy heroes, towers
    # (ascending), the base; and the cells whose attack hits this hero (enemy Attack Towers, the enemy base)
    cand = np.empty(C + 2 * E.MAXH, np.int64)
    atk = np.empty(C + 1, np.int64)
    ncand = natk = 0
    for e in range(R[R_TEAM]):
        oe = ho(1 - side, e)
        if s[oe + H_STATE] != HS_DEAD:
            cand[ncand] = TK_HERO * 1000 + s[oe + H_CELL]
            ncand += 1
    for c in range(C):
        if s[B_SIDE + c] == 1 - side:
            cand[ncand] = TK_TOWER * 1000 + c
            ncand += 1
            if R[R_TW_EFF + s[B_KIND + c]] == E_ATTACK:
                atk[natk] = c
                natk += 1
    cand[ncand] = E.TK_BASE * 1000 + enemy_base
    ncand += 1
    atk[natk] = enemy_base
    natk += 1
    # HP taken on the way to each cell from the enemy Attack Towers and base whose range it enters, summed
    # through its parent (the first version summed it over each whole path: the same numbers)
    pdmg = np.full(C, -1, np.int64)
    pdmg[start] = 0
    chain = np.empty(C, np.int64)
    rng_b, hit_b = R[R_BRANGE], R[R_BATTACK]
    memo_v = np.zeros(8 * ncand)
    memo_a = np.full(8 * ncand, -1, np.int64)
    nmax = noise_max(W)
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
            hits = 0
            for j in range(natk):
                if dist[p, atk[j]] > rng_b >= dist[y, atk[j]]:
                    hits += hit_b
            pdmg[y] = pdmg[p] + hits
        dmg = pdmg[c] + end_damage(R, dist, atk, natk, c)
        score = W[W_DANGER] * dmg
        if dmg >= hp:
            score += W[W_DEATH]
        if togo[start] < np.inf and togo[c] < np.inf:
            score += W[W_ADVANCE] * (togo[start] - togo[c])
        act, act_score = enc(K_STANDBY, 0, -1), 0.0
        tp = terrain_points(s, R, c)
        for i in range(ncand):
            if dist[c, cand[i] % 1000] <= rng:
                # an attack's value from c depends on c only through its terrain points: kept per target
                if tp < 8 and memo_a[i * 8 + tp] >= 0:
                    v, a = memo_v[i * 8 + tp], memo_a[i * 8 + tp]
                else:
                    v, a = attack_value(s, R, W, DV, DP, DN, side, c, cand[i], na, nd)
                    if tp < 8:
                        memo_v[i * 8 + tp], memo_a[i * 8 + tp] = v, a
                if v > act_score:
                    act, act_score = a, v
        if s[TERR + c] == T_VEIN and s[STOCK + c] > 0 and need > 0:
            v = W[W_GATHER] * min(R[R_YIELD + c], s[STOCK + c])
            if v > act_score:
                act, act_score = enc(K_GATHER, 0, -1), v
        if nwanted > 0 and buildable(s, R, c):
            for i in range(nwanted):
                tk = wanted[i]
                reserve = 0
                if R[R_TW_EFF + tk] != E_DICE and W[W_UPGRADE] and tier < R[R_NTIERS]:
                    reserve = R[R_UPC + tier - 1]
                if energy - reserve >= R[R_TW_COST + tk]:
                    home = dist[c, base_cell(R, side)]
                    if R[R_TW_EFF + tk] == E_ATTACK:  # on the way in: between the bases, own half
                        v = W[W_BUILD] * (1.0 if home < dist[c, enemy_base] else 0.3)
                    else:  # keep the others at home, out of reach
                        v = W[W_BUILD] * max(0.2, 1.0 - 0.15 * max(0, home - 2))
                    if v > act_score:
                        act, act_score = enc(K_BUILD, tk, -1), v
                    break
        if score + (act_score + nmax) < top_score - 1e-6:
            continue  # even the largest noise cannot make this cell the best
        score += act_score + noise(W, mem, s[G_TURN], c)
        if score > top_score:
            top_score, top_act = score, act
            top_n = path_of(parent, c, path_out)
    return top_score, top_n, top_act


@njit(cache=True)
def revive(s, R, dist, nbr, W, mem):
    """Revival choice: in place when the hero died near the enemy base with no enemy hero within 2."""
    side, cell = s[PD], s[PD + 2]
    C = R[R_C]
    eb = base_cell(R, 1 - side)
    goal = np.zeros(C, np.bool_)
    for c in range(C):
        goal[c] = dist[c, eb] == 1
    d = cost_to_kept(s, R, nbr, side, goal, mem)[cell]
    # a flipped hero takes no end-phase hits (it does not act): in place it keeps its siege position;
    # enemy heroes next to it would attack it while it cannot answer
    safe = True
    for e in range(R[R_TEAM]):
        oe = ho(1 - side, e)
        if s[oe + H_STATE] != HS_DEAD and dist[s[oe + H_CELL], cell] <= 2:
            safe = False
    return enc(K_REVIVE, 1 if d <= W[W_REVIVE_WITHIN] and safe else 0, -1)


@njit(cache=True)
def counter(s, R, dist, W, lg, nl):
    """A counter-window answer: Space Swap when a swap hits, Curse and Power of Unity when losing, Unyielding Will
    when dying, Pursuit, Same End; else pass."""
    passing = enc(K_PASS, 0, -1)
    if not W[W_CARDS]:
        return passing
    d, side = s[J_DEF], s[J_SIDE]
    tk = s[J_TKIND]
    w = s[J_WIN]
    if w == W_DECLARE and has_card_play(C_SWAP, lg, nl):
        best, hits_best = -1, 0
        for i in range(nl):
            if lg[i] // 1_000_000 != K_PLAY:
                continue
            other = lg[i] % 1000 - 1
            hits = 0
            for c_new, c_old in ((s[J_CELL], other), (other, s[J_CELL])):
                if R[R_TW_EFF + s[B_KIND + c_old]] == E_ATTACK:
                    for e in range(R[R_TEAM]):
                        oe = ho(side, e)
                        if s[oe + H_STATE] != HS_DEAD and dist[s[oe + H_CELL], c_new] <= 1:
                            hits += 1
            if hits > hits_best:
                best, hits_best = lg[i], hits
        if best >= 0:
            return best
    if w == W_COMPARE or w == W_UNITY:
        a_total = hero_total(s, R, side, s[J_ATT], J_AD, s[J_NA], 0)
        if tk == TK_HERO:
            d_total = hero_total(s, R, d, s[J_TK], J_DD, s[J_ND], s[J_UNITY])
        else:
            d_total = E.building_total(s, R, d)
        if a_total >= d_total:
            if has_card_play(C_CURSE, lg, nl):
                return enc(K_PLAY, C_CURSE, -1)
            if has_card_play(C_UNITY, lg, nl):
                return enc(K_PLAY, C_UNITY, -1)
    if w == W_DAMAGE and tk == TK_HERO:
        om = ho(d, s[J_TK])
        me_hp = s[om + H_HP]
        lost = s[J_LOSER] == 1
        dies = lost and s[J_D] >= me_hp and not s[om + H_FLOOR1]
        will = enc(K_PLAY, C_WILL, s[om + H_CELL])
        if dies and in_list(will, lg, nl):
            return will
        oa = ho(side, s[J_ATT])
        if has_card_play(C_PURSUIT, lg, nl) and s[oa + H_STATE] != HS_DEAD and me_hp >= 2:
            gain = me_hp - 1
            if (lost and (s[om + H_FLOOR1] or s[J_D] >= me_hp)) or gain >= s[oa + H_HP]:
                return enc(K_PLAY, C_PURSUIT, -1)
        if lost and has_card_play(C_SAME_END, lg, nl):
            return enc(K_PLAY, C_SAME_END, -1)
    return passing


@njit(cache=True)
def instant_card(s, R, dist, W, lg, nl):
    """A normal card worth playing now (Ignite, Firestorm, Cataclysm, Divine Grace, Iron Wall), or -1."""
    side = cur_side(s)
    for i in range(nl):
        a = lg[i]
        if a // 1_000_000 != K_PLAY:
            continue
        card, cell = a // 1000 % 1000, a % 1000 - 1
        if card == C_IGNITE:
            h = hero_at(s, R, cell)
            hs = h // E.MAXH
            low = 1 << 30
            for e in range(R[R_TEAM]):
                oe = ho(hs, e)
                if s[oe + H_STATE] != HS_DEAD:
                    low = min(low, s[oe + H_HP])
            if s[ho(hs, h % E.MAXH) + H_HP] == low:
                return a
        elif card == C_FIRESTORM or card == C_CATACLYSM:
            want = T_FOREST if card == C_FIRESTORM else T_HILL
            for e in range(R[R_TEAM]):
                oe = ho(1 - side, e)
                if s[oe + H_STATE] != HS_DEAD and s[TERR + s[oe + H_CELL]] == want:
                    return a
        elif card == C_GRACE:
            h = hero_at(s, R, cell)
            oh = ho(h // E.MAXH, h % E.MAXH)
            if R[R_CL_HP + s[oh + H_CLS]] - s[oh + H_HP] >= 2 and \
                    energy_need(s, R, W, side, towers_by_side(s, R)) == 0:
                return a
        elif card == C_IRON:
            if not s[B_IRON + cell]:
                for e in range(R[R_TEAM]):
                    oe = ho(1 - side, e)
                    if s[oe + H_STATE] != HS_DEAD and dist[s[oe + H_CELL], cell] <= 3:
                        return a
    return -1


@njit(cache=True)
def pre_attack_card(s, R, dist, lg, nl, side, t):
    """A card worth playing before attacking ``t`` (Blood Battle, Satan's Pact, Inspire, Earthsplit), or -1."""
    if s[T_ACTED]:
        return -1
    k = cur_hero(s, R)
    o = ho(side, k)
    hp = s[o + H_HP]
    if in_list(enc(K_PLAY, C_BLOOD, -1), lg, nl) and hp >= 5:
        tg = np.empty(MAXBL, np.int64)
        if E.attack_targets(s, R, dist, side, k, tg) >= 2:
            return enc(K_PLAY, C_BLOOD, -1)
    if in_list(enc(K_PLAY, C_PACT, -1), lg, nl) and hp >= 5:
        return enc(K_PLAY, C_PACT, -1)
    me = enc(K_PLAY, C_INSPIRE, s[o + H_CELL])
    if in_list(me, lg, nl):
        return me
    kind, cell = t // 1000, t % 1000
    if kind == TK_HERO and terrain_points(s, R, cell) > 1:
        h = hero_at(s, R, cell)
        es = enc(K_PLAY, C_EARTHSPLIT, cell)
        if h >= 0 and in_list(es, lg, nl) and not s[ho(h // E.MAXH, h % E.MAXH) + H_EARTH]:
            return es
    return -1


@njit(cache=True)
def turn(s, R, dist, nbr, W, DV, DP, DN, mem, lg, nl):
    """A decision of the bot's own hero turn: upgrade, cards, Blood Battle's targets, the planned walk and action."""
    side = cur_side(s)
    k = cur_hero(s, R)
    o = ho(side, k)
    cell = s[o + H_CELL]
    up = enc(K_UPGRADE, 0, -1)
    if W[W_UPGRADE] and in_list(up, lg, nl):
        return up
    if W[W_CARDS]:
        a = instant_card(s, R, dist, W, lg, nl)
        if a >= 0:
            return a
    if s[T_NBL] > 0:
        best, best_v = -1, 0.0
        for i in range(nl):
            if lg[i] // 1_000_000 == K_ATTACK:
                t = (lg[i] % 1000 - 1) * 1000 + lg[i] // 1000 % 1000
                v, _ = attack_value(s, R, W, DV, DP, DN, side, cell, t, dice_count(s, R, side),
                                    dice_count(s, R, 1 - side))
                if best < 0 or v > best_v:
                    best, best_v = lg[i], v
        if best >= 0:
            return best
    if s[T_ACTED]:
        return enc(K_END, 0, -1)
    shuttle = s[T_SHUTTLE]
    path = np.empty(R[R_C], np.int64)
    if (mem[M_PLAN] and mem[M_KT] == s[G_TURN] and mem[M_KS] == shuttle and mem[M_KP] == s[T_PACT]
            and mem[M_KC] == cell and mem[M_KH] == s[o + H_HP] and mem[M_KPT] == s[T_POINTS]):
        n = mem[M_PN]
        for i in range(n):
            path[i] = mem[M_PATH + i]
        act = mem[M_ACT]
    else:
        have = towers_by_side(s, R)
        togo = plan_togo(s, R, dist, nbr, W, DV, DP, DN, side, mem, have)
        score, n, act = plan(s, R, dist, nbr, W, DV, DP, DN, mem, side, shuttle, path, togo, have)
        if W[W_CARDS] and not shuttle and in_list(enc(K_PLAY, C_SHUTTLE, -1), lg, nl):
            alt = np.empty(R[R_C], np.int64)
            alt_score, _, _ = plan(s, R, dist, nbr, W, DV, DP, DN, mem, side, 1, alt, togo, have)
            if alt_score > score + 1.0:
                return enc(K_PLAY, C_SHUTTLE, -1)
    if n > 0:
        # the plan holds while the walk goes as planned (same turn, no hit taken on the way)
        nxt = path[0]
        cost = 1 if shuttle else terrain_points(s, R, nxt)
        mem[M_PLAN] = 1
        mem[M_KT], mem[M_KS], mem[M_KP] = s[G_TURN], shuttle, s[T_PACT]
        mem[M_KC], mem[M_KH], mem[M_KPT] = nxt, s[o + H_HP], s[T_POINTS] - cost
        mem[M_ACT] = act
        mem[M_PN] = n - 1
        for i in range(n - 1):
            mem[M_PATH + i] = path[i + 1]
        return enc(K_STEP, nxt, -1)
    mem[M_PLAN] = 0
    if act // 1_000_000 == K_ATTACK and W[W_CARDS]:
        t = (act % 1000 - 1) * 1000 + act // 1000 % 1000
        a = pre_attack_card(s, R, dist, lg, nl, side, t)
        if a >= 0:
            return a
    if in_list(act, lg, nl):
        return act
    standby = enc(K_STANDBY, 0, -1)
    return standby if in_list(standby, lg, nl) else enc(K_END, 0, -1)


@njit(cache=True)
def choose_code(s, R, dist, nbr, kind, W, DV, DP, DN, mem, lg, nl):
    """The bot's action code among the ``nl`` legal codes ``lg`` of the seat that owes the decision."""
    if kind == BOT_RANDOM:
        mem[M_RND] += 1
        return lg[seed2(mem[M_KEY], mem[M_RND]) % nl]
    if s[PD_N] > 0:
        return revive(s, R, dist, nbr, W, mem)
    if s[J_ON]:
        return counter(s, R, dist, W, lg, nl)
    return turn(s, R, dist, nbr, W, DV, DP, DN, mem, lg, nl)


@njit(cache=True)
def play_loop(s, R, dist, nbr, ev, kinds, W, DV, DP, DN, mems, acts, n):
    """Play on with the two seats' bots (``kinds``, weights ``W[seat]``, memories ``mems[seat]``) until the
    game is over or ``acts`` (the actions so far: ``n``) is full; returns the new ``n`` (-1 - n: a bot chose
    an illegal action, a bug)."""
    lg = np.empty(MAXLEGAL, np.int64)
    while s[E.G_WINNER] < 0 and n < acts.shape[0]:
        seat = E.to_act(s, R)
        nl = E.legal(s, R, dist, nbr, lg)
        code = choose_code(s, R, dist, nbr, kinds[seat], W[seat], DV, DP, DN, mems[seat], lg, nl)
        if not in_list(code, lg, nl):
            return -1 - n
        E.apply(s, R, dist, ev, code)
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

    def choose_code(self, g) -> int:
        """The code of the bot's action in game ``g`` (a :class:`~simkit.games.krypton.view.GameView`)."""
        lg = g.legal_codes()
        P = g.P
        return int(choose_code(g.s, P.R, P.dist, P.nbr, BOT_UTILITY, self.W, *P.dice, self.mem, lg, len(lg)))

    def choose(self, g, legal=None) -> tuple:
        """The bot's action (a tuple) in game ``g`` or its :class:`Match`; ``legal`` is not needed."""
        g = getattr(g, "game", g)
        return g.action_of(self.choose_code(g))


class RandomBot:
    """The ``random`` bot for one seat: a uniformly random legal action from its own noise stream."""

    kind = BOT_RANDOM

    def __init__(self, seat: int, seed: int):
        self.W = np.zeros(NW, np.float64)
        self.mem = new_memory(seat, seed)

    def choose_code(self, g) -> int:
        lg = g.legal_codes()
        P = g.P
        return int(choose_code(g.s, P.R, P.dist, P.nbr, BOT_RANDOM, self.W, *P.dice, self.mem, lg, len(lg)))

    def choose(self, g, legal=None) -> tuple:
        g = getattr(g, "game", g)
        return g.action_of(self.choose_code(g))


def choose(bot, g, rnd_state=None) -> tuple:
    """The action of the seat that owes the decision: ``bot`` is a :class:`Utility`, a :class:`RandomBot` or
    any bot with ``choose(game, legal)`` (a search bot)."""
    if isinstance(bot, (Utility, RandomBot)):
        return bot.choose(g)
    return bot.choose(g, g.legal_actions())


def cost_to_cells(g, side: int, goals) -> list[float]:
    """Cheapest move cost from every cell of game ``g`` to any of the cells ``goals`` (as the bots plan)."""
    goal = np.zeros(g.rules.grid.size, np.bool_)
    goal[list(goals)] = True
    return [float(v) for v in cost_to(g.s, g.P.R, g.P.nbr, side, goal)]
