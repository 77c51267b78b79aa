"""The rules of Krypton Tower War, once: functions over one game's state that numba compiles.

Every rule of ``shared/rules/krypton-tower-war.md`` lives here and only here. The same functions run
compiled in sweeps (:mod:`simkit.games.krypton.play`), behind the single-game view
(:class:`simkit.games.krypton.view.GameView`, which ``Match``, the tests, ``narrate``, ``render``, ``check``
and the search bots use) and, with ``NUMBA_DISABLE_JIT=1``, as plain Python (a test plays games both
ways and finds them equal).

The state of one game is a flat ``int64[STATE_SIZE]`` array with named offsets (below): globals ``G_*``,
the hero turn ``T_*``, the attack judgment ``J_*``, the revival choices owed ``PD_*``, the pile and the
discard pile, one block per side (``SB`` values at ``SIDE0 + side * SB``: ``S_*``), one block per hero
(``HB`` values at ``HERO0 + (side * MAXH + k) * HB``: ``H_*``) and the per-cell arrays (terrain, vein
stock, buildings). The scenario's numbers reach the engine as one ``int64`` array ``R`` (offsets
``R_*``, built by :func:`pack_rules`) plus the map's distance and neighbour tables.

After each action :func:`do` runs everything automatic (draws, preparation, the movement roll, dice,
tower hits, deaths) up to the next decision, and :func:`to_act` names the seat that owes it: the side
whose hero turn it is, the defending side inside an attack judgment's counter windows (only while it
holds a counter card it may play there) or the side of a hero that just died (its revival choice).

Actions are integers ``kind * 1_000_000 + a * 1000 + (b + 1)`` (:func:`enc`); the view names them as
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
from simkit.games.krypton.tables import CARDS, COUNTER_CARDS, T_BASE, T_FOREST, T_HILL, T_PLAIN, T_VEIN, TOWER_EFFECTS

# numba keys a function's cache on its own file only; the bots' kernels hold engine code and the tables'
# constants, so the cache of the package goes whenever one of these sources changes
_HERE = Path(__file__).parent
drop_stale_cache(_HERE, [_HERE / "engine.py", _HERE / "bots.py", _HERE / "tables.py",
                         _HERE.parent / "kits" / "mix.py"])

# un-jitted (NUMBA_DISABLE_JIT=1) the stream's uint64 arithmetic wraps as compiled, but numpy warns
warnings.filterwarnings("ignore", message="overflow encountered in scalar", category=RuntimeWarning,
                        module=r"simkit\.games\.(krypton\.(engine|bots)|kits\.mix)")


# ---- sizes -----------------------------------------------------------------------------------------
MAXC = 400       # cells of the map at most (radius 11)
MAXH = 6         # heroes per side at most
NCARDS = len(CARDS)
MAXTK = 8        # tower kinds at most
MAXTIERS = 6     # base tiers at most
MAXDICE = 6      # dice per side at most
MAXPILE = 256    # magic cards in the game at most
MAXBL = 64       # Blood Battle targets at most
MAXLEGAL = 512

# ---- card ids (CARDS order) and card kinds ---------------------------------------------------------
(C_IGNITE, C_EARTHSPLIT, C_INSPIRE, C_BLOOD, C_SHUTTLE, C_FIRESTORM, C_CATACLYSM, C_PACT, C_GRACE, C_IRON,
 C_SWAP, C_CURSE, C_UNITY, C_WILL, C_SAME_END, C_PURSUIT) = range(NCARDS)
assert CARDS[C_PURSUIT] == "Pursuit" and CARDS[C_IRON] == "Iron Wall"
IS_COUNTER = np.array([1 if c in COUNTER_CARDS else 0 for c in CARDS], np.int64)
#: card ids in the order of their names (the order normal plays are offered)
BY_NAME = np.array(sorted(range(NCARDS), key=lambda i: CARDS[i]), np.int64)

# tower effects
E_ATTACK, E_DICE, E_HAND = (TOWER_EFFECTS.index(e) for e in ("attack", "dice", "hand"))
# hero states
HS_BOARD, HS_FLIPPED, HS_DEAD = 0, 1, 2
HERO_STATES = ("board", "flipped", "dead")
# attack target kinds; a target is coded tkind * 1000 + cell
TK_HERO, TK_TOWER, TK_BASE = 0, 1, 2
TARGET_KINDS = ("hero", "tower", "base")
# counter windows of an attack judgment, in order
W_DECLARE, W_COMPARE, W_UNITY, W_DAMAGE = 0, 1, 2, 3
WINDOWS = ("declare", "compare", "unity", "damage")
# end reasons
END_NONE, END_BASE, END_TURN_LIMIT = 0, 1, 2
END_REASONS = (None, "base", "turn_limit")

# ---- actions --------------------------------------------------------------------------------------
K_STEP, K_ATTACK, K_GATHER, K_BUILD, K_STANDBY, K_UPGRADE, K_PLAY, K_PASS, K_REVIVE, K_END = range(1, 11)
KIND_NAMES = (None, "step", "attack", "gather", "build", "standby", "upgrade", "play", "pass", "revive", "end")

# ---- events: row [turn, kind, a1..a8] -------------------------------------------------------------
EVW = 5 + 2 * MAXDICE  # the dice event is the widest: side, counts, both sides' dice
(EV_ROLL, EV_STEP, EV_DAMAGE, EV_DEATH, EV_REVIVE, EV_RETURN, EV_UNFLIP, EV_NO_SPAWN, EV_ATTACK, EV_DICE, EV_TOTALS,
 EV_COUNTER, EV_PLAY, EV_GATHER, EV_BUILD, EV_UPGRADE, EV_STANDBY, EV_DESTROYED, EV_IRON, EV_BASE_HIT,
 EV_BASE_DESTROYED, EV_CAP, EV_END) = range(23)
EVENT_NAMES = ("roll", "step", "damage", "death", "revive", "return", "unflip", "no_spawn", "attack", "dice", "totals",
               "counter", "play", "gather", "build", "upgrade", "standby", "destroyed", "iron_wall", "base_hit",
               "base_destroyed", "cap", "end")
# damage sources (a card: SRC_CARD + card id)
SRC_JUDGMENT, SRC_SAME_END, SRC_TOWER_MOVE, SRC_TOWER_END, SRC_CARD = 0, 1, 2, 3, 100

# ---- the rules array R ------------------------------------------------------------------------------
(R_C, R_TEAM, R_MAX_ROUNDS, R_LIMIT_BY_HP, R_MAX_DICE, R_SIDES, R_COMBINE_MAX, R_KNIGHT_PLUS, R_KNIGHT_MINUS,
 R_BASE_HP, R_BATTACK, R_BRANGE, R_HAND_LIMIT, R_DEATH_DIV, R_HP_MIN, R_HP_PRICE, R_EFFECT_DMG, R_INSPIRE,
 R_CURSE, R_HEAL, R_HEAL_ENERGY, R_PACT_DIE, R_UNITY_RADIUS, R_UNITY_MAX, R_SWAP_DMG, R_NTIERS, R_PRAYER_TIER,
 R_BASE0, R_BASE1, R_NTK, R_NSPAWN0, R_NSPAWN1, R_START_ENERGY) = range(33)
R_TP = 40                      # terrain points by terrain code (5)
R_DEF = R_TP + 8               # base defence by tier
R_UPC = R_DEF + MAXTIERS       # upgrade cost from tier i + 1
R_TW_COST = R_UPC + MAXTIERS   # tower kinds (file order)
R_TW_DEF = R_TW_COST + MAXTK
R_TW_HP = R_TW_DEF + MAXTK
R_TW_EFF = R_TW_HP + MAXTK
R_CL_HP = R_TW_EFF + MAXTK     # hero classes (alphabetical)
R_CL_RANGE = R_CL_HP + 16
R_CL_KNIGHT = R_CL_RANGE + 16
R_SPAWN0 = R_CL_KNIGHT + 16
R_SPAWN1 = R_SPAWN0 + MAXH * 2
R_COPIES = R_SPAWN1 + MAXH * 2
R_TERRAIN = R_COPIES + NCARDS  # per cell at the start
R_STOCK = R_TERRAIN + MAXC
R_YIELD = R_STOCK + MAXC
R_SPAWNCELL = R_YIELD + MAXC   # 1 on a spawn point of either side
R_SIZE = R_SPAWNCELL + MAXC

# ---- the state ------------------------------------------------------------------------------------
G_TURN = 0      # hero turn counter (0-based): side = turn % 2, hero = turn // 2 % team
G_CTR = 1       # draws taken from the game's stream
G_KEY = 2       # the stream's key (63-bit)
G_WINNER = 3    # -1 while playing; 0 / 1 the winning seat; 2 a draw
G_REASON = 4    # END_*
G_NEV = 5       # events so far (also counted when not logged)
G_ERR = 6       # 1: a scripted die was asked for beyond the script (tests)
G_FORCE_N = 7   # scripted dice (tests): count, next, values
G_FORCE_I = 8
G_FORCE = 9
T0 = G_FORCE + 32
T_ROLL = T0
T_POINTS = T0 + 1
T_ACTED = T0 + 2
T_SHUTTLE = T0 + 3
T_PACT = T0 + 4
T_BLOOD = T0 + 5
T_ENDING = T0 + 6
T_NBL = T0 + 7          # Blood Battle targets still owed (codes at T_BL)
T_BL = T0 + 8
J0 = T_BL + MAXBL
J_ON = J0               # 1 while an attack judgment is open
J_ATT = J0 + 1          # attacker's hero index (in the acting side)
J_SIDE = J0 + 2
J_DEF = J0 + 3
J_TKIND = J0 + 4        # TK_*
J_TSIDE = J0 + 5
J_TK = J0 + 6           # the target hero's index
J_CELL = J0 + 7
J_WIN = J0 + 8          # W_*
J_NA = J0 + 9
J_AD = J0 + 10
J_ND = J_AD + MAXDICE
J_DD = J_ND + 1
J_UNITY = J_DD + MAXDICE
J_HASTOT = J_UNITY + 1
J_TA = J_UNITY + 2
J_TD = J_UNITY + 3
J_SAME = J_UNITY + 4
J_CLOSED = J_UNITY + 5  # bit per window passed
J_LOSER = J_UNITY + 6   # -1 none, 0 attacker, 1 defender
J_D = J_UNITY + 7
J_DEAD = J_UNITY + 8    # bit side * MAXH + k: heroes that died in this judgment
PD_N = J_UNITY + 10     # revival choices owed: (side, hero, cell) triples
PD = PD_N + 1
PILE_N = PD + 3 * 2 * MAXH
PILE = PILE_N + 1       # the pile, top = PILE + PILE_N - 1
DISC_N = PILE + MAXPILE
DISC = DISC_N + 1
SIDE0 = DISC + MAXPILE
S_BASE_HP = 0
S_TIER = 1
S_ENERGY = 2
S_CURSE = 3             # Curse plays against this side's heroes this turn
S_NHAND = 4
S_HAND = 5              # copies of each card in hand (NCARDS)
S_MINED = S_HAND + NCARDS
S_LOST = S_MINED + 1
S_REVIVALS = S_MINED + 2
S_IN_PLACE = S_MINED + 3
S_BUILT_N = S_MINED + 4
S_TOWERS_LOST = S_MINED + 5
S_CARDS_PLAYED = S_MINED + 6
S_UPGRADES = S_MINED + 7
S_ATTACKS = S_MINED + 8
S_BASE_DAMAGE = S_MINED + 9
S_BUILT = S_MINED + 10  # per tower kind
S_PLAYED = S_BUILT + MAXTK  # per card
S_CARD_DEALT = S_PLAYED + NCARDS  # per card: HP enemy heroes lost to its effects (a counter)
SB = S_CARD_DEALT + NCARDS
HERO0 = SIDE0 + 2 * SB
H_CLS = 0
H_HP = 1
H_CELL = 2
H_STATE = 3
H_INSPIRE = 4
H_EARTH = 5
H_FLOOR1 = 6
H_DEALT = 7             # counter: HP (heroes, towers, base) this hero's won judgments took
H_ATTACKS = 8           # counter: attack judgments this hero started
HB = 10
CELL0 = HERO0 + 2 * MAXH * HB
TERR = CELL0            # current terrain (a spent vein is plain)
STOCK = TERR + MAXC
B_SIDE = STOCK + MAXC   # building: side (-1: none), kind, hp, Iron Wall
B_KIND = B_SIDE + MAXC
B_HP = B_KIND + MAXC
B_IRON = B_HP + MAXC
STATE_SIZE = B_IRON + MAXC

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
    s[G_CTR] += 1
    return seed2(s[G_KEY], s[G_CTR]) % n


@njit(cache=True)
def die(s, R):
    """One die: scripted (tests) while a script is set, else from the stream."""
    if s[G_FORCE_N] != 0:  # -1: scripted, no die at all
        if s[G_FORCE_I] >= max(s[G_FORCE_N], 0):
            s[G_ERR] = 1
            return 1
        s[G_FORCE_I] += 1
        return s[G_FORCE + s[G_FORCE_I] - 1]
    return 1 + draw(s, R[R_SIDES])


@njit(cache=True)
def enc(kind, a, b):
    """The action code of ``(kind, a, b)``."""
    return kind * 1_000_000 + a * 1000 + (b + 1)


@njit(cache=True)
def dec(code):
    """``(kind, a, b)`` of an action code."""
    return code // 1_000_000, code // 1000 % 1000, code % 1000 - 1


@njit(cache=True)
def log(s, ev, kind, a1, a2, a3, a4, a5, a6, a7, a8):
    """Append one event row (counted even when the buffer has no room)."""
    n = s[G_NEV]
    if n < ev.shape[0]:
        ev[n, 0] = s[G_TURN]
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
    s[G_NEV] = n + 1


# ---- reading the state --------------------------------------------------------------------------------

@njit(cache=True)
def ho(side, k):
    """Offset of hero ``k`` of ``side``."""
    return HERO0 + (side * MAXH + k) * HB


@njit(cache=True)
def so(side):
    """Offset of ``side``'s block."""
    return SIDE0 + side * SB


@njit(cache=True)
def cur_side(s):
    """The side whose hero turn it is."""
    return s[G_TURN] % 2


@njit(cache=True)
def cur_hero(s, R):
    """The acting hero's index in its team."""
    return s[G_TURN] // 2 % R[R_TEAM]


@njit(cache=True)
def is_over(s):
    """The game has ended (a base destroyed or the round cap)."""
    return s[G_WINNER] >= 0


@njit(cache=True)
def on_board(s, side, k):
    """Hero ``k`` of ``side`` is on the board (alive, face up or flipped)."""
    return s[ho(side, k) + H_STATE] != HS_DEAD


@njit(cache=True)
def hero_at(s, R, cell):
    """``side * MAXH + k`` of the hero on ``cell`` (alive), else -1."""
    for side in range(2):
        for k in range(R[R_TEAM]):
            o = ho(side, k)
            if s[o + H_STATE] != HS_DEAD and s[o + H_CELL] == cell:
                return side * MAXH + k
    return -1


@njit(cache=True)
def n_towers(s, R, side, eff):
    """Towers of ``side`` with effect ``eff`` (-1: any)."""
    n = 0
    for c in range(R[R_C]):
        if s[B_SIDE + c] == side and (eff < 0 or R[R_TW_EFF + s[B_KIND + c]] == eff):
            n += 1
    return n


@njit(cache=True)
def dice_count(s, R, side):
    """The side's dice in attack judgments: 1 + its Prayer Towers, at most ``max_dice``."""
    return min(R[R_MAX_DICE], 1 + n_towers(s, R, side, E_DICE))


@njit(cache=True)
def hand_limit(s, R, side):
    """The side's magic hand limit: ``hand_limit`` + its Magic Towers."""
    return R[R_HAND_LIMIT] + n_towers(s, R, side, E_HAND)


@njit(cache=True)
def terrain_points(s, R, cell):
    """Terrain points of ``cell`` now (move cost and combat bonus)."""
    return R[R_TP + s[TERR + cell]]


@njit(cache=True)
def base_defense(s, R, side):
    """The side's base defence at its tier."""
    return R[R_DEF + s[so(side) + S_TIER] - 1]


@njit(cache=True)
def base_cell(R, side):
    """The cell of ``side``'s base."""
    return R[R_BASE0 + side]


@njit(cache=True)
def enterable(s, R, cell, side):
    """A hero of ``side`` may enter ``cell``: not a base, no hero, no enemy building."""
    if s[TERR + cell] == T_BASE or hero_at(s, R, cell) >= 0:
        return False
    return s[B_SIDE + cell] < 0 or s[B_SIDE + cell] == side


@njit(cache=True)
def buildable(s, R, cell):
    """A tower may stand on ``cell``: plain (a spent vein included), no spawn point, no building."""
    return s[TERR + cell] == T_PLAIN and R[R_SPAWNCELL + cell] == 0 and s[B_SIDE + cell] < 0


@njit(cache=True)
def is_attacker_of(s, R, side, c):
    """``c`` hits heroes of ``side``: an enemy Attack Tower or the enemy base."""
    if c == base_cell(R, 1 - side):
        return True
    return s[B_SIDE + c] == 1 - side and R[R_TW_EFF + s[B_KIND + c]] == E_ATTACK


@njit(cache=True)
def step_cost(s, R, cell):
    """What entering ``cell`` costs the acting hero (1 under Shuttle)."""
    return 1 if s[T_SHUTTLE] else terrain_points(s, R, cell)


@njit(cache=True)
def to_act(s, R):
    """The seat whose decision is owed now."""
    if s[PD_N] > 0:
        return s[PD]
    if s[J_ON]:
        return s[J_DEF]
    return cur_side(s)


# ---- damage and death -----------------------------------------------------------------------------------

@njit(cache=True)
def die_hero(s, R, ev, side, k):
    """Hero ``k`` of ``side`` dies: the death penalty, and its revival choice is owed."""
    o = ho(side, k)
    s[o + H_HP] = 0
    s[o + H_STATE] = HS_DEAD
    give = s[so(side) + S_ENERGY] // R[R_DEATH_DIV]
    s[so(side) + S_ENERGY] -= give
    s[so(1 - side) + S_ENERGY] += give
    s[so(side) + S_LOST] += 1
    if s[J_ON]:
        s[J_DEAD] |= 1 << (side * MAXH + k)
    log(s, ev, EV_DEATH, side, k, s[o + H_CELL], give, 0, 0, 0, 0)
    n = s[PD_N]
    s[PD + 3 * n] = side
    s[PD + 3 * n + 1] = k
    s[PD + 3 * n + 2] = s[o + H_CELL]
    s[PD_N] = n + 1


@njit(cache=True)
def damage_hero(s, R, ev, side, k, amount, source):
    """``amount`` damage to hero ``k`` of ``side``; returns the HP it actually lost. Death follows at once."""
    o = ho(side, k)
    if s[o + H_STATE] == HS_DEAD or amount <= 0:
        return 0
    before = s[o + H_HP]
    after = before - amount
    if s[o + H_FLOOR1]:
        after = max(after, min(1, before))
    s[o + H_HP] = max(after, 0)
    lost = before - s[o + H_HP]
    if source >= SRC_CARD:
        s[so(1 - side) + S_CARD_DEALT + source - SRC_CARD] += lost
    log(s, ev, EV_DAMAGE, side, k, lost, source, 0, 0, 0, 0)
    if after <= 0:
        die_hero(s, R, ev, side, k)
    return lost


@njit(cache=True)
def building_attack(s, R, dist, ev, side, k, source):
    """Attack Towers and the base of the enemy hit hero ``k`` of ``side`` if it is in their range."""
    o = ho(side, k)
    rng = R[R_BRANGE]
    for c in range(R[R_C]):
        if is_attacker_of(s, R, side, c) and s[o + H_STATE] != HS_DEAD and dist[s[o + H_CELL], c] <= rng:
            damage_hero(s, R, ev, side, k, R[R_BATTACK], source)


# ---- turn flow ---------------------------------------------------------------------------------------------

@njit(cache=True)
def shuffle_into_pile(s, n):
    """Fisher-Yates over the ``n`` cards at PILE, from the game's stream."""
    for i in range(n - 1, 0, -1):
        j = draw(s, i + 1)
        a = s[PILE + i]
        s[PILE + i] = s[PILE + j]
        s[PILE + j] = a


@njit(cache=True)
def end_by_cap(s, R, ev):
    """The round cap ends the game: a draw, or the higher base with ``turn_limit_result = "base_hp"``."""
    s[G_TURN] = 2 * R[R_TEAM] * R[R_MAX_ROUNDS] - 1
    s[G_REASON] = END_TURN_LIMIT
    b0, b1 = s[so(0) + S_BASE_HP], s[so(1) + S_BASE_HP]
    if R[R_LIMIT_BY_HP] and b0 != b1:
        s[G_WINNER] = 0 if b0 > b1 else 1
    else:
        s[G_WINNER] = 2
    log(s, ev, EV_CAP, s[G_WINNER], 0, 0, 0, 0, 0, 0, 0)


@njit(cache=True)
def next_turn(s, R, ev):
    """Start the next hero turn: draw, preparation, movement roll; skip turns that cannot be played."""
    team = R[R_TEAM]
    while True:
        s[G_TURN] += 1
        if s[G_TURN] >= 2 * team * R[R_MAX_ROUNDS]:
            end_by_cap(s, R, ev)
            return
        side, k = cur_side(s), cur_hero(s, R)
        o, sb = ho(side, k), so(side)
        for i in range(T_ROLL, T_NBL + 1):
            s[i] = 0
        # 0. draw
        if s[sb + S_NHAND] < hand_limit(s, R, side):
            if s[PILE_N] == 0 and s[DISC_N] > 0:
                n = s[DISC_N]
                for i in range(n):
                    s[PILE + i] = s[DISC + i]
                s[PILE_N] = n
                s[DISC_N] = 0
                shuffle_into_pile(s, n)
            if s[PILE_N] > 0:
                s[PILE_N] -= 1
                card = s[PILE + s[PILE_N]]
                s[sb + S_HAND + card] += 1
                s[sb + S_NHAND] += 1
        # 1. preparation
        for c in range(R[R_C]):
            if s[B_SIDE + c] == side:
                s[B_IRON + c] = 0
        if s[o + H_STATE] == HS_DEAD:
            free = -1
            for i in range(R[R_NSPAWN0 + side]):
                c = R[R_SPAWN0 + side * 2 * MAXH + i]
                if hero_at(s, R, c) < 0 and s[B_SIDE + c] < 0:
                    free = c
                    break
            if free < 0:
                log(s, ev, EV_NO_SPAWN, side, k, 0, 0, 0, 0, 0, 0)
                continue
            s[o + H_STATE] = HS_BOARD
            s[o + H_CELL] = free
            s[o + H_HP] = R[R_CL_HP + s[o + H_CLS]]
            log(s, ev, EV_RETURN, side, k, free, 0, 0, 0, 0, 0)
        elif s[o + H_STATE] == HS_FLIPPED:
            s[o + H_STATE] = HS_BOARD
            log(s, ev, EV_UNFLIP, side, k, 0, 0, 0, 0, 0, 0)
            continue
        # 2. move: the roll
        roll = die(s, R)
        pts = roll
        if R[R_CL_KNIGHT + s[o + H_CLS]]:
            t = s[TERR + s[o + H_CELL]]
            if t == T_PLAIN or t == T_VEIN:
                pts = roll + R[R_KNIGHT_PLUS]
            else:
                pts = max(0, roll - R[R_KNIGHT_MINUS])
        s[T_ROLL] = roll
        s[T_POINTS] = pts
        log(s, ev, EV_ROLL, side, k, roll, pts, 0, 0, 0, 0)
        return


@njit(cache=True)
def end_turn_effects(s, R):
    """"This turn" effects end: Inspire, Earthsplit, Unyielding Will, Curse."""
    for side in range(2):
        for k in range(R[R_TEAM]):
            o = ho(side, k)
            s[o + H_INSPIRE] = 0
            s[o + H_EARTH] = 0
            s[o + H_FLOOR1] = 0
        s[so(side) + S_CURSE] = 0


@njit(cache=True)
def settle(s, R, dist, ev):
    """Run what is automatic until a decision is owed (or the game is over)."""
    while not is_over(s):
        if s[PD_N] > 0:
            return
        if s[J_ON]:
            if window_open(s, R, dist):
                return
            advance_judgment(s, R, dist, ev)
            continue
        o = ho(cur_side(s), cur_hero(s, R))
        if s[T_ENDING] or s[o + H_STATE] != HS_BOARD:
            end_turn_effects(s, R)
            next_turn(s, R, ev)
            continue
        return


@njit(cache=True)
def new_game(R, dist, classes, key, ev):
    """A game's state at its first decision: ``classes[side, k]`` the heroes' class ids, ``key`` the stream's."""
    s = np.zeros(STATE_SIZE, np.int64)
    s[G_KEY] = key
    s[G_WINNER] = -1
    s[J_LOSER] = -1
    for side in range(2):
        for k in range(R[R_TEAM]):
            o = ho(side, k)
            s[o + H_CLS] = classes[side, k]
            s[o + H_HP] = R[R_CL_HP + classes[side, k]]
            s[o + H_CELL] = R[R_SPAWN0 + side * 2 * MAXH + k]
        for k in range(R[R_TEAM], MAXH):
            s[ho(side, k) + H_STATE] = HS_DEAD
            s[ho(side, k) + H_CELL] = -1
        sb = so(side)
        s[sb + S_BASE_HP] = R[R_BASE_HP]
        s[sb + S_TIER] = 1
        s[sb + S_ENERGY] = R[R_START_ENERGY]
    for c in range(MAXC):
        s[B_SIDE + c] = -1
    for c in range(R[R_C]):
        s[TERR + c] = R[R_TERRAIN + c]
        s[STOCK + c] = R[R_STOCK + c]
    n = 0
    for card in range(NCARDS):
        for _ in range(R[R_COPIES + card]):
            s[PILE + n] = card
            n += 1
    s[PILE_N] = n
    shuffle_into_pile(s, n)
    s[G_TURN] = -1
    next_turn(s, R, ev)
    settle(s, R, dist, ev)
    return s


# ---- legal actions ------------------------------------------------------------------------------------------

@njit(cache=True)
def attack_targets(s, R, dist, side, k, out):
    """The enemy heroes, towers and base within hero ``k``'s range as target codes into ``out``; returns how
    many. A tower with its own hero standing on it is a target of its own (a cell can hold both)."""
    o = ho(side, k)
    cell = s[o + H_CELL]
    rng = R[R_CL_RANGE + s[o + H_CLS]]
    n = 0
    for e in range(R[R_TEAM]):
        oe = ho(1 - side, e)
        if s[oe + H_STATE] != HS_DEAD and dist[cell, s[oe + H_CELL]] <= rng:
            out[n] = TK_HERO * 1000 + s[oe + H_CELL]
            n += 1
    for c in range(R[R_C]):
        if s[B_SIDE + c] == 1 - side and dist[cell, c] <= rng:
            out[n] = TK_TOWER * 1000 + c
            n += 1
    base = base_cell(R, 1 - side)
    if dist[cell, base] <= rng:
        out[n] = TK_BASE * 1000 + base
        n += 1
    return n


@njit(cache=True)
def window_card_ok(s, R, card):
    """The defender may play ``card`` in the open window now."""
    d = s[J_DEF]
    w = s[J_WIN]
    if s[J_CLOSED] & (1 << w) or s[so(d) + S_HAND + card] == 0:
        return False
    tk = s[J_TKIND]
    if w == W_DECLARE:
        return card == C_SWAP and tk == TK_TOWER and n_towers(s, R, d, -1) >= 2
    if w == W_COMPARE:
        return card == C_CURSE
    if w == W_UNITY:
        return card == C_UNITY and tk == TK_HERO
    if card == C_WILL:  # one friendly hero, whatever the judgment's target (a hero, a tower or the base)
        for k in range(R[R_TEAM]):
            o = ho(d, k)
            if s[o + H_STATE] != HS_DEAD and not s[o + H_FLOOR1]:
                return True
        return False
    if card == C_PURSUIT or card == C_SAME_END:
        if tk != TK_HERO or not on_board(s, d, s[J_TK]):
            return False
        if card == C_PURSUIT:
            return s[ho(d, s[J_TK]) + H_HP] >= 2
        return not s[J_SAME] and s[J_LOSER] == 1
    return False


@njit(cache=True)
def window_open(s, R, dist):
    """The defender holds a counter card it may play in the open window."""
    for card in (C_SWAP, C_CURSE, C_UNITY, C_WILL, C_PURSUIT, C_SAME_END):
        if window_card_ok(s, R, card):
            return True
    return False


@njit(cache=True)
def normal_plays(s, R, card, out, n):
    """Append the plays of normal ``card`` (in hand) for the acting side to ``out[n:]``; returns the new n."""
    side, k = cur_side(s), cur_hero(s, R)
    hp = s[ho(side, k) + H_HP]
    if IS_COUNTER[card]:
        return n
    if card == C_IGNITE or card == C_EARTHSPLIT:
        for e in range(R[R_TEAM]):
            if on_board(s, 1 - side, e):
                out[n] = enc(K_PLAY, card, s[ho(1 - side, e) + H_CELL])
                n += 1
    elif card == C_INSPIRE or card == C_GRACE:
        if card == C_GRACE and s[so(side) + S_ENERGY] < R[R_HEAL_ENERGY]:
            return n
        for e in range(R[R_TEAM]):
            if on_board(s, side, e):
                out[n] = enc(K_PLAY, card, s[ho(side, e) + H_CELL])
                n += 1
    elif card == C_IRON:
        for c in range(R[R_C]):
            if s[B_SIDE + c] == side:
                out[n] = enc(K_PLAY, card, c)
                n += 1
    elif card == C_BLOOD:
        if not s[T_ACTED] and not s[T_BLOOD] and hp >= R[R_HP_MIN]:
            out[n] = enc(K_PLAY, card, -1)
            n += 1
    elif card == C_PACT:
        if not s[T_PACT] and hp >= R[R_HP_MIN]:
            out[n] = enc(K_PLAY, card, -1)
            n += 1
    elif card == C_SHUTTLE:
        if not s[T_ACTED] and not s[T_SHUTTLE]:
            out[n] = enc(K_PLAY, card, -1)
            n += 1
    else:  # Firestorm, Cataclysm
        out[n] = enc(K_PLAY, card, -1)
        n += 1
    return n


@njit(cache=True)
def legal(s, R, dist, nbr, out):
    """Every decision legal now for :func:`to_act` into ``out``; returns how many (0 once the game is over)."""
    if is_over(s):
        return 0
    if s[PD_N] > 0:
        out[0] = enc(K_REVIVE, 0, -1)
        out[1] = enc(K_REVIVE, 1, -1)
        return 2
    n = 0
    if s[J_ON]:
        d = s[J_DEF]
        for card in (C_SWAP, C_CURSE, C_UNITY, C_WILL, C_PURSUIT, C_SAME_END):
            if not window_card_ok(s, R, card):
                continue
            if card == C_SWAP:
                for c in range(R[R_C]):
                    if s[B_SIDE + c] == d and c != s[J_CELL]:
                        out[n] = enc(K_PLAY, card, c)
                        n += 1
            elif card == C_WILL:
                for k in range(R[R_TEAM]):
                    o = ho(d, k)
                    if s[o + H_STATE] != HS_DEAD and not s[o + H_FLOOR1]:
                        out[n] = enc(K_PLAY, card, s[o + H_CELL])
                        n += 1
            else:
                out[n] = enc(K_PLAY, card, -1)
                n += 1
        out[n] = enc(K_PASS, 0, -1)
        return n + 1
    side, k = cur_side(s), cur_hero(s, R)
    o, sb = ho(side, k), so(side)
    cell = s[o + H_CELL]
    if s[T_NBL] > 0:
        # Blood Battle's judgments still owed: between them only player actions (normal magic, upgrade)
        for i in range(s[T_NBL]):
            t = s[T_BL + i]
            out[n] = enc(K_ATTACK, t % 1000, t // 1000)
            n += 1
    elif not s[T_ACTED]:
        for i in range(nbr.shape[1]):
            c = nbr[cell, i]
            if c >= 0 and enterable(s, R, c, side) and step_cost(s, R, c) <= s[T_POINTS]:
                out[n] = enc(K_STEP, c, -1)
                n += 1
        tg = np.empty(MAXBL, np.int64)
        nt = attack_targets(s, R, dist, side, k, tg)
        for i in range(nt):
            out[n] = enc(K_ATTACK, tg[i] % 1000, tg[i] // 1000)
            n += 1
        if s[TERR + cell] == T_VEIN and s[STOCK + cell] > 0:
            out[n] = enc(K_GATHER, 0, -1)
            n += 1
        if buildable(s, R, cell):
            for tk in range(R[R_NTK]):
                if s[sb + S_ENERGY] >= R[R_TW_COST + tk] and (R[R_TW_EFF + tk] != E_DICE or
                                                              s[sb + S_TIER] >= R[R_PRAYER_TIER]):
                    out[n] = enc(K_BUILD, tk, -1)
                    n += 1
        out[n] = enc(K_STANDBY, 0, -1)
        n += 1
    tier = s[sb + S_TIER]
    if tier < R[R_NTIERS] and s[sb + S_ENERGY] >= R[R_UPC + tier - 1]:
        out[n] = enc(K_UPGRADE, 0, -1)
        n += 1
    for i in range(NCARDS):
        card = BY_NAME[i]
        if s[sb + S_HAND + card] > 0:
            n = normal_plays(s, R, card, out, n)
    if s[T_NBL] == 0:
        out[n] = enc(K_END, 0, -1)
        n += 1
    return n


# ---- attack judgments --------------------------------------------------------------------------------------

@njit(cache=True)
def start_attack(s, R, ev, tkind, cell):
    """Open an attack judgment of the acting hero against ``tkind`` on ``cell`` (declaration window)."""
    side, k = cur_side(s), cur_hero(s, R)
    s[J_ON] = 1
    s[J_ATT] = k
    s[J_SIDE] = side
    s[J_DEF] = 1 - side
    s[J_TKIND] = tkind
    s[J_TSIDE] = 1 - side
    s[J_TK] = 0
    if tkind == TK_HERO:
        s[J_TK] = hero_at(s, R, cell) % MAXH
    s[J_CELL] = cell
    s[J_WIN] = W_DECLARE
    s[J_NA] = 0
    s[J_ND] = 0
    s[J_UNITY] = 0
    s[J_HASTOT] = 0
    s[J_TA] = 0
    s[J_TD] = 0
    s[J_SAME] = 0
    s[J_CLOSED] = 0
    s[J_LOSER] = -1
    s[J_D] = 0
    s[J_DEAD] = 0  # heroes that die during this judgment take none of its later damage
    s[so(side) + S_ATTACKS] += 1
    s[ho(side, k) + H_ATTACKS] += 1
    log(s, ev, EV_ATTACK, side, k, cell, tkind, 0, 0, 0, 0)


@njit(cache=True)
def hero_total(s, R, side, k, at, nd, unity):
    """A hero's total in a judgment: its ``nd`` dice at ``s[at:]`` combined, terrain, Inspire, Curse, Unity."""
    o = ho(side, k)
    comb = 0
    for i in range(nd):
        v = s[at + i]
        if R[R_COMBINE_MAX]:
            comb = max(comb, v)
        else:
            comb += v
    terr = 1 if s[o + H_EARTH] else terrain_points(s, R, s[o + H_CELL])
    return comb + terr + R[R_INSPIRE] * s[o + H_INSPIRE] - R[R_CURSE] * s[so(side) + S_CURSE] + unity


@njit(cache=True)
def building_total(s, R, d):
    """The defending building's total: a tower's defence or the base's."""
    if s[J_TKIND] == TK_TOWER:
        return R[R_TW_DEF + s[B_KIND + s[J_CELL]]]
    return base_defense(s, R, d)


@njit(cache=True)
def advance_judgment(s, R, dist, ev):
    """Close the open window and run the judgment to its next window (or its end)."""
    side, d = s[J_SIDE], s[J_DEF]
    att = s[J_ATT]
    w = s[J_WIN]
    if w == W_DECLARE and (not on_board(s, side, att) or s[J_DEAD] & (1 << (side * MAXH + att))):
        # Space Swap's tower killed the attacker: the attack ends, even if it was revived in place (the page
        # goes on "if the attacker lives")
        finish_judgment(s, R)
        return
    if w == W_DECLARE:
        n = dice_count(s, R, side)
        na = 0
        if s[T_PACT]:
            s[J_AD] = R[R_PACT_DIE]
            na = 1
            n -= 1
        for _ in range(n):
            s[J_AD + na] = die(s, R)
            na += 1
        s[J_NA] = na
        nd = 0
        if s[J_TKIND] == TK_HERO:
            for _ in range(dice_count(s, R, d)):
                s[J_DD + nd] = die(s, R)
                nd += 1
        s[J_ND] = nd
        e = s[G_NEV]
        log(s, ev, EV_DICE, side, na, nd, 0, 0, 0, 0, 0)
        if e < ev.shape[0]:
            for i in range(na):
                ev[e, 5 + i] = s[J_AD + i]
            for i in range(nd):
                ev[e, 5 + MAXDICE + i] = s[J_DD + i]
        s[J_WIN] = W_COMPARE
    elif w == W_COMPARE:
        s[J_WIN] = W_UNITY
    elif w == W_UNITY:
        a_total = hero_total(s, R, side, att, J_AD, s[J_NA], 0)
        if s[J_TKIND] == TK_HERO:
            d_total = hero_total(s, R, d, s[J_TK], J_DD, s[J_ND], s[J_UNITY])
        else:
            d_total = building_total(s, R, d)
        s[J_HASTOT] = 1
        s[J_TA] = a_total
        s[J_TD] = d_total
        log(s, ev, EV_TOTALS, side, a_total, d_total, 0, 0, 0, 0, 0)
        if a_total == d_total:
            finish_judgment(s, R)
            return
        s[J_LOSER] = 1 if a_total > d_total else 0
        s[J_D] = abs(a_total - d_total)
        s[J_WIN] = W_DAMAGE
    else:
        apply_damage(s, R, ev)
        finish_judgment(s, R)


@njit(cache=True)
def apply_damage(s, R, ev):
    """The judgment's damage step after the counter cards: the loser loses ``d`` (section 7)."""
    side, d, amount = s[J_SIDE], s[J_DEF], s[J_D]
    tk = s[J_TKIND]
    # a hero that already died in this judgment (Pursuit) takes none of its damage: the page resolves the
    # damage, then Same End, "then deaths", so a revival in place comes after them, at full HP
    att_dead = s[J_DEAD] & (1 << (side * MAXH + s[J_ATT])) != 0
    if s[J_LOSER] == 0:
        if tk == TK_HERO and not att_dead:
            s[ho(d, s[J_TK]) + H_DEALT] += damage_hero(s, R, ev, side, s[J_ATT], amount, SRC_JUDGMENT)
        return
    if tk == TK_HERO:
        lost = 0
        if not s[J_DEAD] & (1 << (d * MAXH + s[J_TK])):
            lost = damage_hero(s, R, ev, d, s[J_TK], amount, SRC_JUDGMENT)
            s[ho(side, s[J_ATT]) + H_DEALT] += lost
        if s[J_SAME] and not att_dead:
            damage_hero(s, R, ev, side, s[J_ATT], lost, SRC_SAME_END)
    elif tk == TK_TOWER:
        c = s[J_CELL]
        if s[B_SIDE + c] < 0 or s[B_IRON + c]:
            log(s, ev, EV_IRON, d, c, 0, 0, 0, 0, 0, 0)
            return
        s[B_HP + c] -= amount
        s[ho(side, s[J_ATT]) + H_DEALT] += amount
        if s[B_HP + c] <= 0:
            kind = s[B_KIND + c]
            s[B_SIDE + c] = -1
            s[B_KIND + c] = 0
            s[B_HP + c] = 0
            s[B_IRON + c] = 0
            s[so(d) + S_TOWERS_LOST] += 1
            log(s, ev, EV_DESTROYED, d, c, kind, 0, 0, 0, 0, 0)
    else:
        s[so(d) + S_BASE_HP] -= amount
        s[so(side) + S_BASE_DAMAGE] += amount
        s[ho(side, s[J_ATT]) + H_DEALT] += amount
        log(s, ev, EV_BASE_HIT, d, amount, s[so(d) + S_BASE_HP], 0, 0, 0, 0, 0)
        if s[so(d) + S_BASE_HP] <= 0:
            s[G_WINNER] = side
            s[G_REASON] = END_BASE
            log(s, ev, EV_BASE_DESTROYED, d, 0, 0, 0, 0, 0, 0, 0)


@njit(cache=True)
def still_target(s, R, t):
    """Target ``t`` of an owed Blood Battle judgment is still an enemy target."""
    side = cur_side(s)
    kind, cell = t // 1000, t % 1000
    if kind == TK_HERO:
        h = hero_at(s, R, cell)
        return h >= 0 and h // MAXH != side
    if kind == TK_TOWER:
        return s[B_SIDE + cell] >= 0 and s[B_SIDE + cell] != side
    return cell == base_cell(R, 1 - side)


@njit(cache=True)
def prune_blood(s, R):
    """Drop Blood Battle's owed targets that are gone (or all of them if the attacker is)."""
    if is_over(s) or s[T_NBL] == 0:
        return
    alive = on_board(s, cur_side(s), cur_hero(s, R))
    n = 0
    for i in range(s[T_NBL]):
        t = s[T_BL + i]
        if alive and still_target(s, R, t):
            s[T_BL + n] = t
            n += 1
    s[T_NBL] = n


@njit(cache=True)
def finish_judgment(s, R):
    """Close the judgment; Blood Battle keeps only the targets still there."""
    s[J_ON] = 0
    prune_blood(s, R)


# ---- doing ----------------------------------------------------------------------------------------------------

@njit(cache=True)
def spend(s, side, card):
    """``side`` plays ``card``: out of its hand onto the discard pile, counted."""
    sb = so(side)
    s[sb + S_HAND + card] -= 1
    s[sb + S_NHAND] -= 1
    s[DISC + s[DISC_N]] = card
    s[DISC_N] += 1
    s[sb + S_CARDS_PLAYED] += 1
    s[sb + S_PLAYED + card] += 1


@njit(cache=True)
def play_normal(s, R, ev, card, cell):
    """The effect of normal magic ``card`` played by the acting side (``cell``: its target, or -1)."""
    side, k = cur_side(s), cur_hero(s, R)
    o = ho(side, k)
    spend(s, side, card)
    log(s, ev, EV_PLAY, side, card, cell, 0, 0, 0, 0, 0)
    if card == C_IGNITE or card == C_EARTHSPLIT or card == C_INSPIRE or card == C_GRACE:
        h = hero_at(s, R, cell)
        hs, hk = h // MAXH, h % MAXH
        oh = ho(hs, hk)
        if card == C_IGNITE:
            damage_hero(s, R, ev, hs, hk, R[R_EFFECT_DMG], SRC_CARD + card)
        elif card == C_EARTHSPLIT:
            s[oh + H_EARTH] = 1
        elif card == C_INSPIRE:
            s[oh + H_INSPIRE] += 1
        else:
            s[so(side) + S_ENERGY] -= R[R_HEAL_ENERGY]
            s[oh + H_HP] = min(R[R_CL_HP + s[oh + H_CLS]], s[oh + H_HP] + R[R_HEAL])
    elif card == C_IRON:
        s[B_IRON + cell] = 1
    elif card == C_BLOOD or card == C_PACT:
        s[o + H_HP] -= R[R_HP_PRICE]
        if card == C_BLOOD:
            s[T_BLOOD] = 1
        else:
            s[T_PACT] = 1
    elif card == C_SHUTTLE:
        s[T_SHUTTLE] = 1
    elif card == C_FIRESTORM or card == C_CATACLYSM:
        want = T_FOREST if card == C_FIRESTORM else T_HILL
        for e in range(R[R_TEAM]):
            oe = ho(1 - side, e)
            if s[oe + H_STATE] != HS_DEAD and s[TERR + s[oe + H_CELL]] == want:
                damage_hero(s, R, ev, 1 - side, e, R[R_EFFECT_DMG], SRC_CARD + card)


@njit(cache=True)
def counter(s, R, dist, ev, kind, card, cell):
    """The defender plays counter ``card`` in the open window (``cell``: its target) or passes."""
    d, side = s[J_DEF], s[J_SIDE]
    if kind == K_PASS:
        s[J_CLOSED] |= 1 << s[J_WIN]
        return
    spend(s, d, card)
    log(s, ev, EV_COUNTER, d, card, 0, 0, 0, 0, 0, 0)
    if card == C_SWAP:
        a = s[J_CELL]
        for f in (B_SIDE, B_KIND, B_HP, B_IRON):
            x = s[f + a]
            s[f + a] = s[f + cell]
            s[f + cell] = x
        rng = R[R_BRANGE]
        for c in (a, cell):
            if R[R_TW_EFF + s[B_KIND + c]] == E_ATTACK:
                for e in range(R[R_TEAM]):
                    oe = ho(side, e)
                    if s[oe + H_STATE] != HS_DEAD and dist[s[oe + H_CELL], c] <= rng:
                        damage_hero(s, R, ev, side, e, R[R_SWAP_DMG], SRC_CARD + card)
    elif card == C_CURSE:
        s[so(side) + S_CURSE] += 1
    elif card == C_UNITY:
        me = s[J_TK]
        mc = s[ho(d, me) + H_CELL]
        near = 0
        for e in range(R[R_TEAM]):
            oe = ho(d, e)
            if e != me and s[oe + H_STATE] != HS_DEAD and dist[s[oe + H_CELL], mc] <= R[R_UNITY_RADIUS]:
                near += 1
        s[J_UNITY] += min(near, R[R_UNITY_MAX])
    elif card == C_WILL:
        h = hero_at(s, R, cell)
        s[ho(h // MAXH, h % MAXH) + H_FLOOR1] = 1
    elif card == C_PURSUIT:
        om = ho(d, s[J_TK])
        lost = s[om + H_HP] - 1
        s[om + H_HP] = 1
        damage_hero(s, R, ev, side, s[J_ATT], lost, SRC_CARD + card)
    elif card == C_SAME_END:
        s[J_SAME] = 1


@njit(cache=True)
def do(s, R, dist, nbr, ev, code):
    """Make one decision; returns ``OK``, or ``ILLEGAL`` / ``OVER`` (then nothing has changed)."""
    if is_over(s):
        return OVER
    buf = np.empty(MAXLEGAL, np.int64)
    n = legal(s, R, dist, nbr, buf)
    for i in range(n):
        if buf[i] == code:
            apply(s, R, dist, ev, code)
            return OK
    return ILLEGAL


@njit(cache=True)
def apply(s, R, dist, ev, code):
    """Make the decision ``code``, known to be legal, and run what is automatic after it."""
    kind, a, b = dec(code)
    side, k = cur_side(s), cur_hero(s, R)
    o, sb = ho(side, k), so(side)
    if kind == K_REVIVE:
        p_side, p_k, p_cell = s[PD], s[PD + 1], s[PD + 2]
        for i in range(3 * (s[PD_N] - 1)):
            s[PD + i] = s[PD + 3 + i]
        s[PD_N] -= 1
        op = ho(p_side, p_k)
        s[so(p_side) + S_REVIVALS] += 1
        if a == 1:
            s[op + H_STATE] = HS_FLIPPED
            s[op + H_CELL] = p_cell
            s[op + H_HP] = R[R_CL_HP + s[op + H_CLS]]
            s[so(p_side) + S_IN_PLACE] += 1
        else:
            s[op + H_CELL] = -1
        log(s, ev, EV_REVIVE, p_side, p_k, a, 0, 0, 0, 0, 0)
    elif s[J_ON]:
        counter(s, R, dist, ev, kind, a, b)
    elif kind == K_STEP:
        cost = step_cost(s, R, a)
        s[T_POINTS] -= cost
        old = s[o + H_CELL]
        s[o + H_CELL] = a
        log(s, ev, EV_STEP, side, k, old, a, cost, 0, 0, 0)
        rng = R[R_BRANGE]
        for c in range(R[R_C]):
            if is_attacker_of(s, R, side, c) and s[o + H_STATE] != HS_DEAD and dist[old, c] > rng >= dist[a, c]:
                damage_hero(s, R, ev, side, k, R[R_BATTACK], SRC_TOWER_MOVE)
    elif kind == K_ATTACK:
        t = b * 1000 + a
        if s[T_BLOOD] and s[T_NBL] == 0 and not s[T_ACTED]:
            tg = np.empty(MAXBL, np.int64)
            nt = attack_targets(s, R, dist, side, k, tg)
            for i in range(nt):
                s[T_BL + i] = tg[i]
            s[T_NBL] = nt
        m = 0
        for i in range(s[T_NBL]):
            if s[T_BL + i] != t:
                s[T_BL + m] = s[T_BL + i]
                m += 1
        s[T_NBL] = m
        s[T_ACTED] = 1
        start_attack(s, R, ev, b, a)
    elif kind == K_GATHER:
        c = s[o + H_CELL]
        got = min(R[R_YIELD + c], s[STOCK + c])
        s[STOCK + c] -= got
        s[sb + S_ENERGY] += got
        s[sb + S_MINED] += got
        if s[STOCK + c] == 0:
            s[TERR + c] = T_PLAIN
        s[T_ACTED] = 1
        log(s, ev, EV_GATHER, side, k, c, got, 0, 0, 0, 0)
    elif kind == K_BUILD:
        c = s[o + H_CELL]
        s[sb + S_ENERGY] -= R[R_TW_COST + a]
        s[B_SIDE + c] = side
        s[B_KIND + c] = a
        s[B_HP + c] = R[R_TW_HP + a]
        s[B_IRON + c] = 0
        s[sb + S_BUILT_N] += 1
        s[sb + S_BUILT + a] += 1
        s[T_ACTED] = 1
        log(s, ev, EV_BUILD, side, k, c, a, 0, 0, 0, 0)
    elif kind == K_STANDBY:
        s[T_ACTED] = 1
        log(s, ev, EV_STANDBY, side, k, 0, 0, 0, 0, 0, 0)
    elif kind == K_UPGRADE:
        s[sb + S_ENERGY] -= R[R_UPC + s[sb + S_TIER] - 1]
        s[sb + S_TIER] += 1
        s[sb + S_UPGRADES] += 1
        log(s, ev, EV_UPGRADE, side, s[sb + S_TIER], 0, 0, 0, 0, 0, 0)
    elif kind == K_PLAY:
        play_normal(s, R, ev, a, b)
        prune_blood(s, R)  # Ignite, Firestorm, Cataclysm may remove a target Blood Battle still owes
    elif kind == K_END:
        log(s, ev, EV_END, side, k, 0, 0, 0, 0, 0, 0)
        building_attack(s, R, dist, ev, side, k, SRC_TOWER_END)
        s[T_ENDING] = 1
    settle(s, R, dist, ev)


# ---- the rules array ----------------------------------------------------------------------------------------

def pack_rules(rules) -> np.ndarray:
    """The scenario's :class:`~simkit.games.krypton.tables.Rules` as the engine's ``int64[R_SIZE]`` array."""
    st = rules.settings
    C = rules.grid.size
    if C > MAXC or rules.team_size > MAXH or len(rules.towers) > MAXTK or len(rules.base_defense) > MAXTIERS \
            or st["max_dice"] > MAXDICE or sum(rules.copies.values()) > MAXPILE or len(rules.classes) > 16 \
            or max(len(rules.spawns[0]), len(rules.spawns[1])) > 2 * MAXH:
        raise ValueError(f"krypton: the scenario exceeds the engine's sizes (cells <= {MAXC}, team <= {MAXH}, "
                         f"tower kinds <= {MAXTK}, tiers <= {MAXTIERS}, dice <= {MAXDICE}, cards <= {MAXPILE})")
    R = np.zeros(R_SIZE, np.int64)
    R[R_C] = C
    R[R_TEAM] = rules.team_size
    R[R_MAX_ROUNDS] = st["max_rounds"]
    R[R_LIMIT_BY_HP] = st["turn_limit_result"] == "base_hp"
    R[R_MAX_DICE] = st["max_dice"]
    R[R_SIDES] = st["dice_sides"]
    R[R_COMBINE_MAX] = st["dice_combine"] == "max"
    R[R_KNIGHT_PLUS] = st["knight_plain_bonus"]
    R[R_KNIGHT_MINUS] = st["knight_other_malus"]
    R[R_BASE_HP] = st["base_hp"]
    R[R_BATTACK] = st["building_attack"]
    R[R_BRANGE] = st["building_attack_range"]
    R[R_HAND_LIMIT] = st["hand_limit"]
    R[R_DEATH_DIV] = st["death_penalty_divisor"]
    R[R_HP_MIN] = st["hp_price_min"]
    R[R_HP_PRICE] = st["hp_price"]
    R[R_EFFECT_DMG] = st["effect_damage"]
    R[R_INSPIRE] = st["inspire_bonus"]
    R[R_CURSE] = st["curse_malus"]
    R[R_HEAL] = st["heal"]
    R[R_HEAL_ENERGY] = st["heal_energy"]
    R[R_PACT_DIE] = st["pact_die"]
    R[R_UNITY_RADIUS] = st["unity_radius"]
    R[R_UNITY_MAX] = st["unity_max"]
    R[R_SWAP_DMG] = st["swap_damage"]
    R[R_NTIERS] = len(rules.base_defense)
    R[R_PRAYER_TIER] = rules.prayer_tier
    R[R_BASE0], R[R_BASE1] = rules.bases
    R[R_NTK] = len(rules.towers)
    R[R_NSPAWN0], R[R_NSPAWN1] = len(rules.spawns[0]), len(rules.spawns[1])
    R[R_START_ENERGY] = st["start_energy"]
    R[R_TP:R_TP + 5] = rules.terrain_points
    R[R_DEF:R_DEF + len(rules.base_defense)] = rules.base_defense
    R[R_UPC:R_UPC + len(rules.upgrade_cost)] = rules.upgrade_cost
    for i, tw in enumerate(rules.towers.values()):
        R[R_TW_COST + i], R[R_TW_DEF + i], R[R_TW_HP + i] = tw.cost, tw.defense, tw.hp
        R[R_TW_EFF + i] = TOWER_EFFECTS.index(tw.effect)
    for i, hc in enumerate(rules.classes.values()):
        R[R_CL_HP + i], R[R_CL_RANGE + i], R[R_CL_KNIGHT + i] = hc.hp, hc.range, hc.move == "knight"
    for side in (0, 1):
        for i, c in enumerate(rules.spawns[side]):
            R[R_SPAWN0 + side * 2 * MAXH + i] = c
            R[R_SPAWNCELL + c] = 1
    for i, card in enumerate(CARDS):
        R[R_COPIES + i] = rules.copies[card]
    R[R_TERRAIN:R_TERRAIN + C] = rules.terrain
    R[R_STOCK:R_STOCK + C] = rules.stock
    R[R_YIELD:R_YIELD + C] = rules.vein_yield
    return R


def map_tables(rules) -> tuple[np.ndarray, np.ndarray]:
    """The map's ``int64[C, C]`` distances and ``int64[C, 6]`` neighbours (-1: none)."""
    return (np.ascontiguousarray(rules.grid.distance, dtype=np.int64),
            np.ascontiguousarray(rules.grid.neighbors, dtype=np.int64))
