"""Magic War's rules, once: plain functions over one game's state, compiled by numba.

Every rule and ruling of ``shared/rules/magic-war.md`` and the ten skill primitives of the roster page
(``magic-war-roster.md`` B.1) live here and only here, each primitive implemented once; a unit's skills
are rows of the skill table (cards as data). The same functions run compiled in sweeps
(:mod:`simkit.games.magic.batch`), behind the single-game facade (:mod:`simkit.games.magic.match`) and,
with ``NUMBA_DISABLE_JIT=1``, as plain Python (a test plays games both ways and finds them equal).

The state of one game is a flat ``int64[STATE_SIZE]`` array: globals ``G_*``, the shuffled tactical
pile, one block per player (``P_*``), one block of ``UF`` values per unit slot (``F_*``) and the board
(cell -> slot + 1). Slots: seat 0's leader, its army in canonical order, seat 1's leader, its army, then
summoned units in order. Cells are ``i = cols * r + c``.

Actions are five integers ``(kind, a, b, c, d)``:

* ``(A_PLACE, type, cell)``: deployment, put an unplaced unit of that type on a free cell of the own rows;
* ``(A_MOVE, from, to)``;
* ``(A_ATTACK, attacker, target, joiners, bearer)``: ``joiners`` a bitmask of cells of the units joining a
  combined attack (0: a single attack), ``bearer`` the cell of the participant who bears the target's
  per-attack dice reduction (the principal when there are no joiners or no reduction: the canonical form);
* ``(A_SKILL, source, target, cards)``: the source unit's active skill (heal, free_active, summon) at the
  target cell, ``cards`` tactical cards paying that much of its magic cost, the rest from active magic;
* ``(A_END,)``.

Randomness: the dice tape is the counter-based stream of ``G_DSEED`` (die ``k`` of the game is a pure
function of the seed and ``k``; the pointer ``G_DPTR`` counts the dice rolled, so the tape never runs
short and batch size cannot change results); the pile is shuffled once from ``G_KSEED``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.kits.mix import mix64
from simkit.games.magic.tables import (
    K_AMOUNT,
    K_D1,
    K_D2,
    K_DICE,
    K_GAIN,
    K_K,
    K_KIND,
    K_MAGIC,
    K_MINHP,
    K_MOVE,
    K_OFTYPE,
    K_PREC,
    K_RADIUS,
    K_RANGE,
    K_SELF,
    K_SELFDMG,
    K_TARGET,
    K_UNIT,
    MAX_SKILLS,
    OF_ANY,
    OF_MELEE,
    OF_RANGED,
    P_ATTACK_BONUS,
    P_ATTACK_MOD,
    P_DAMAGE_RED,
    P_FREE,
    P_HEAL,
    P_MOVE_BONUS,
    P_ON_DEATH,
    P_PRECISION,
    P_SPLASH,
    P_SUMMON,
    S_BANDS,
    S_BLOCKED,
    S_CAP,
    S_COLS,
    S_COPIES,
    S_D0HI,
    S_D0LO,
    S_D1HI,
    S_D1LO,
    S_IMMUNE,
    S_JOINERS,
    S_KINDS,
    S_LC0,
    S_LC1,
    S_MELEE_HIT,
    S_MELEE_RANGE,
    S_NBANDS,
    S_OBST,
    S_PER_KILL,
    S_RANGED_HIT,
    S_ROWS,
    S_SHAPE,
    S_SIDES,
    S_SUMMON_ACT,
    S_TB0,
    S_TURN_LIMIT,
    S_UNLOCK_CAP,
    S_UNLOCK_HP,
    TB_ARMY,
    TB_LEADER,
    U_ACTIVE,
    U_ATK,
    U_COST,
    U_FLY,
    U_HP,
    U_LEADER,
    U_MOVE,
    U_RACE,
    U_RANGE,
    U_RANGED,
    U_SK,
)

# ---- layout --------------------------------------------------------------------------------------------
G_TURN = 0      # global turn, 1.. (seat 0 plays the odd turns); 0 during deployment
G_CUR = 1       # seat to act
G_PHASE = 2     # PH_*
G_WINNER = 3    # -1 none yet, 0 / 1 the winning seat, 2 draw
G_REASON = 4    # END_*
G_DSEED = 5     # the dice stream's key
G_DPTR = 6      # dice rolled so far (the tape pointer)
G_KPTR = 7      # next card of the pile
G_NU = 8        # unit slots in use
G_NDECK = 9     # cards in the pile at the start
G_ORIGIN = 10   # cell of the acting (principal) unit of the last action, for the death order
G_ACTIONS = 11  # actions done
NG = 16
DECK = NG       # the pile's card ids (1..kinds), MAX_DECK slots
MAX_DECK = 64
PB0 = DECK + MAX_DECK
P_ACTIVE = 0      # active magic
P_STORED = 1      # stored magic (active from the owner's next turn)
P_DRAWN = 2       # tactical cards drawn (used ones included)
P_CAP = 3         # the draw cap
P_HAND = 4        # cards in hand
P_UNLOCK4 = 5     # unlock (4) fired
P_UNLOCK5 = 6     # unlock (5) fired
P_GAINED = 7      # magic gained, in all
P_SPENT = 8       # magic spent from the active pool
P_CARDS_USED = 9  # tactical cards spent as magic
P_ARMY = 10       # the bought army's gold
P_LEADER = 11     # the leader's slot
P_RACE = 12
P_TO_PLACE = 13   # units still to deploy
P_KILLS = 14      # units destroyed by this player's actions (own ones included)
P_LOST = 15       # own units (leader aside) that died
P_DICE = 16       # dice this player rolled
P_SUMMONS = 17    # units summoned
P_SKILLS = 18     # active skills used
P_COMBINED = 19   # combined attacks made
P_H = 24          # hand: card ids, P_H .. P_H + MAX_HAND - 1
MAX_HAND = 8
PBS = P_H + MAX_HAND
UB = PB0 + 2 * PBS
F_TYPE = 0
F_OWNER = 1
F_CELL = 2
F_DMG = 3
F_STATE = 4      # US_*
F_MOVED = 5
F_ATTACKED = 6   # attacked or used an active skill that uses the attack
F_SKILLED = 7    # a leader's skill used this turn
F_FREE = 8       # this unit's free_active used this turn
F_BDICE = 9      # free_active effects on this unit this turn
F_BPREC = 10
F_BMOVE = 11
F_BMASK = 12     # unit types whose free_active already affects this unit this turn
F_SUMMONED = 13
F_HITS = 14      # counter: dice hits this unit rolled on enemy units (attacks and splash, before reductions)
UF = 16
MAXU = 48
BD = UB + MAXU * UF
MAX_CELLS = 64
STATE_SIZE = BD + MAX_CELLS

US_UNPLACED, US_ALIVE, US_DEAD = 0, 1, 2
PH_DEPLOY, PH_PLAY, PH_OVER = 0, 1, 2
END_NONE, END_LEADER, END_TURN_LIMIT = 0, 1, 2
END_REASONS = ("none", "leader", "turn_limit")
DRAW = 2

A_PLACE, A_MOVE, A_ATTACK, A_SKILL, A_END = 0, 1, 2, 3, 4
KINDS = ("place", "move", "attack", "skill", "end")
MAX_LEGAL = 4096

REASONS = (
    "legal",
    "the game is over",
    "deployment is not over: place a unit",
    "not the deployment phase",
    "that unit type is not among the own units still to place",
    "not a free cell of the own deployment rows",
    "no own unit on that cell",
    "the unit has already moved this turn",
    "the unit has already attacked or used its skill: it may not move afterwards",
    "the destination is not reachable (walkers need a clear path; a move ends on an empty cell)",
    "the unit has already attacked this turn",
    "no unit on the target cell",
    "a unit may not attack itself or its own leader [R15]",
    "leaders are immune on the first turn(s) [R14]",
    "the target is out of range (melee: orthogonally adjacent; ranged: in line, unblocked, within range)",
    "a joiner is not an own unit able to join (not yet attacked, in range without moving) [R31]",
    "a combined attack targets an enemy unit",
    "the bearer must be the principal (no joiners, or no per-attack reduction) or one of the participants",
    "the unit has no active skill",
    "the skill was already used this turn",
    "not enough magic (active magic plus tactical cards spent as magic)",
    "tactical cards may not pay this: none in hand, more than the cost, or the Orc restriction [7.3]",
    "not a legal target of the skill",
    "the source's HP is below the skill's minimum",
    "no free unit slot for the summoned unit",
    "unknown action",
)
(R_OK, R_OVER, R_DEPLOYING, R_NOT_DEPLOY, R_NO_SUCH_TYPE, R_BAD_CELL, R_NO_UNIT, R_MOVED, R_ACTED, R_UNREACHABLE,
 R_ATTACKED, R_NO_TARGET, R_SELF_TARGET, R_IMMUNE, R_RANGE, R_JOINER, R_COMBINED_OWN, R_BEARER, R_NO_SKILL,
 R_SKILL_USED, R_MAGIC, R_CARDS, R_SKILL_TARGET, R_MIN_HP, R_SLOTS, R_BAD_KIND) = range(26)

# ---- random streams: simkit.core.rng's splitmix64 formula, one word at a time (kits/mix.py) ---------
_S11, _S53 = np.uint64(11), np.uint64(53)


@njit(cache=True)
def word(key, k):
    """Word ``k`` of the stream with ``key`` (:class:`simkit.core.rng.GameStreams`' formula)."""
    return mix64(np.uint64(key) ^ mix64(np.uint64(k)))


@njit(cache=True)
def below(key, k, n):
    """An integer uniform in ``0..n-1`` from word ``k`` of the stream ``key``."""
    return np.int64(((word(key, k) >> _S11) * np.uint64(n)) >> _S53)


@njit(cache=True)
def die(s, st):
    """The next die of the game's dice tape (1..sides); advances the tape pointer."""
    d = below(s[G_DSEED], s[G_DPTR], st[S_SIDES]) + 1
    s[G_DPTR] += 1
    return d


# ---- small helpers -----------------------------------------------------------------------------------------


@njit(cache=True)
def ub(u):
    return UB + u * UF


@njit(cache=True)
def pb(p):
    return PB0 + p * PBS


@njit(cache=True)
def occ(s, cell):
    """The slot on ``cell``, or -1."""
    return s[BD + cell] - 1


@njit(cache=True)
def mdist(a, b, cols):
    return abs(a % cols - b % cols) + abs(a // cols - b // cols)


@njit(cache=True)
def ncells(st):
    return st[S_COLS] * st[S_ROWS]


@njit(cache=True)
def is_obstacle(st, cell):
    return (st[S_OBST] >> cell) & 1 == 1


@njit(cache=True)
def alive(s, u):
    return s[ub(u) + F_STATE] == US_ALIVE


@njit(cache=True)
def hp_left(s, u, ut):
    h = ut[s[ub(u) + F_TYPE], U_HP] - s[ub(u) + F_DMG]
    return h if h > 0 else 0


@njit(cache=True)
def is_leader(s, u, ut):
    return ut[s[ub(u) + F_TYPE], U_LEADER] == 1


@njit(cache=True)
def immune(s, u, ut, st):
    """Section 5.5 [R14]: a leader during the first ``leader_immune_turns`` global turns."""
    return is_leader(s, u, ut) and s[G_TURN] >= 1 and s[G_TURN] <= st[S_IMMUNE]


@njit(cache=True)
def of_type_ok(ut, t, oft):
    if oft == OF_ANY:
        return True
    if oft == OF_MELEE:
        return ut[t, U_RANGED] == 0
    if oft == OF_RANGED:
        return ut[t, U_RANGED] == 1
    return t == oft


@njit(cache=True)
def aura(s, v, prim, ut, sk, st):
    """Sum of the ``prim`` auras covering unit ``v`` (B.1 primitives 1-5): the sources are ``v``'s own
    side's live units; a source covers ``v`` at Manhattan distance 1..radius, or itself with include_self;
    ``of_type`` filters ``v``'s type; each unit type's skill counts once (8.1 [R28])."""
    cols = st[S_COLS]
    p = s[ub(v) + F_OWNER]
    tv = s[ub(v) + F_TYPE]
    cv = s[ub(v) + F_CELL]
    total = 0
    seen = np.zeros(MAX_SKILLS, np.int64)  # per skill slot, a bitmask of unit types already counted
    for w in range(s[G_NU]):
        b = ub(w)
        if s[b + F_STATE] != US_ALIVE or s[b + F_OWNER] != p:
            continue
        t = s[b + F_TYPE]
        for j in range(MAX_SKILLS):
            k = ut[t, U_SK + j]
            if k < 0 or sk[k, K_KIND] != prim:
                continue
            if (seen[j] >> t) & 1:
                continue
            d = mdist(s[b + F_CELL], cv, cols)
            covers = (w == v and sk[k, K_SELF] == 1) or (w != v and d >= 1 and d <= sk[k, K_RADIUS])
            if not covers:
                continue
            if (prim == P_ATTACK_BONUS or prim == P_PRECISION or prim == P_MOVE_BONUS) and \
                    not of_type_ok(ut, tv, sk[k, K_OFTYPE]):
                continue
            seen[j] |= np.int64(1) << t
            total += sk[k, K_K]
    return total


@njit(cache=True)
def move_points(s, u, ut, sk, st):
    """The unit's move now: printed move + free_active effects + move_bonus auras (B.1 primitive 5)."""
    return ut[s[ub(u) + F_TYPE], U_MOVE] + s[ub(u) + F_BMOVE] + aura(s, u, P_MOVE_BONUS, ut, sk, st)


@njit(cache=True)
def attack_dice(s, u, ut, sk, st):
    """Dice of the unit's attack before the target's reductions (printed + attack_bonus auras + effects)."""
    return ut[s[ub(u) + F_TYPE], U_ATK] + aura(s, u, P_ATTACK_BONUS, ut, sk, st) + s[ub(u) + F_BDICE]


@njit(cache=True)
def threshold(s, u, ut, sk, st):
    """Section 6.2 [R9]: the unit's hit number ``T' = T - P`` (P: precision auras + effects)."""
    base = st[S_RANGED_HIT] if ut[s[ub(u) + F_TYPE], U_RANGED] == 1 else st[S_MELEE_HIT]
    return base - s[ub(u) + F_BPREC] - aura(s, u, P_PRECISION, ut, sk, st)


@njit(cache=True)
def reach(s, u, ut, sk, st):
    """Bitmask of the cells the unit may end a move on (5.4): walkers step orthogonally through empty
    cells, flyers pass over anything; both end on an empty cell, at least one step away [R5]."""
    cols, rows = st[S_COLS], st[S_ROWS]
    n = cols * rows
    m = move_points(s, u, ut, sk, st)
    start = s[ub(u) + F_CELL]
    out = np.int64(0)
    if ut[s[ub(u) + F_TYPE], U_FLY] == 1:
        for c in range(n):
            if c != start and mdist(c, start, cols) <= m and occ(s, c) < 0 and not is_obstacle(st, c):
                out |= np.int64(1) << c
        return out
    frontier = np.int64(1) << start
    seen = frontier
    for _ in range(m):
        nxt = np.int64(0)
        for c in range(n):
            if (frontier >> c) & 1 == 0:
                continue
            r, cc = c // cols, c % cols
            for k in range(4):
                if k == 0:
                    if cc == 0:
                        continue
                    d = c - 1
                elif k == 1:
                    if cc == cols - 1:
                        continue
                    d = c + 1
                elif k == 2:
                    if r == 0:
                        continue
                    d = c - cols
                else:
                    if r == rows - 1:
                        continue
                    d = c + cols
                if (seen >> d) & 1 or occ(s, d) >= 0 or is_obstacle(st, d):
                    continue
                nxt |= np.int64(1) << d
        seen |= nxt
        frontier = nxt
        if frontier == 0:
            break
    return seen & ~(np.int64(1) << start)


@njit(cache=True)
def in_range(s, u, cell, ut, st):
    """Section 6.1: whether unit ``u`` reaches ``cell`` from where it stands (melee: Manhattan <= melee
    range [R6]; ranged ``line``: same row or column within range, nothing between when blocked [R7];
    ranged ``manhattan``: within range)."""
    cols = st[S_COLS]
    a = s[ub(u) + F_CELL]
    d = mdist(a, cell, cols)
    if d < 1:
        return False
    t = s[ub(u) + F_TYPE]
    if ut[t, U_RANGED] == 0:
        return d <= st[S_MELEE_RANGE]
    if d > ut[t, U_RANGE]:
        return False
    if st[S_SHAPE] == 1:
        return True
    ar, ac, br, bc = a // cols, a % cols, cell // cols, cell % cols
    if ar != br and ac != bc:
        return False
    if st[S_BLOCKED] == 0:
        return True
    dr = 0 if br == ar else (1 if br > ar else -1)
    dc = 0 if bc == ac else (1 if bc > ac else -1)
    r, c = ar + dr, ac + dc
    while r != br or c != bc:
        x = r * cols + c
        if occ(s, x) >= 0 or is_obstacle(st, x):
            return False
        r += dr
        c += dc
    return True


@njit(cache=True)
def units_on_board(s, p):
    n = 0
    for w in range(s[G_NU]):
        if s[ub(w) + F_STATE] == US_ALIVE and s[ub(w) + F_OWNER] == p:
            n += 1
    return n


# ---- setup -------------------------------------------------------------------------------------------------


@njit(cache=True)
def place_unit(s, u, cell):
    s[ub(u) + F_CELL] = cell
    s[ub(u) + F_STATE] = US_ALIVE
    s[BD + cell] = u + 1


@njit(cache=True)
def setup(s, army0, army1, dseed, kseed, ut, st, rc):
    """A new game: leaders on their crowns, armies (unit type ids, canonical order) waiting to be placed,
    the pile shuffled from ``kseed``, the dice tape keyed by ``dseed``; seat 0 deploys first."""
    s[:] = 0
    s[BD:BD + MAX_CELLS] = 0
    s[G_WINNER] = -1
    s[G_DSEED] = dseed
    s[G_PHASE] = PH_DEPLOY
    s[G_CUR] = 0
    n = 0
    for p in range(2):
        army = army0 if p == 0 else army1
        race = ut[army[0], U_RACE]
        leader = -1
        for t in range(ut.shape[0]):
            if ut[t, U_RACE] == race and ut[t, U_LEADER] == 1:
                leader = t
        b = pb(p)
        s[b + P_LEADER] = n
        s[b + P_RACE] = race
        s[b + P_CAP] = st[S_CAP]
        s[ub(n) + F_TYPE] = leader
        s[ub(n) + F_OWNER] = p
        place_unit(s, n, st[S_LC0] if p == 0 else st[S_LC1])
        n += 1
        value = 0
        for i in range(army.shape[0]):
            s[ub(n) + F_TYPE] = army[i]
            s[ub(n) + F_OWNER] = p
            s[ub(n) + F_CELL] = -1
            s[ub(n) + F_STATE] = US_UNPLACED
            value += ut[army[i], U_COST]
            n += 1
        s[b + P_ARMY] = value
        s[b + P_TO_PLACE] = army.shape[0]
    s[G_NU] = n
    # the shared pile: kinds x copies card tokens, shuffled (Fisher-Yates) from the deck stream
    nd = st[S_KINDS] * st[S_COPIES]
    for i in range(nd):
        s[DECK + i] = i // st[S_COPIES] + 1
    for i in range(nd - 1, 0, -1):
        j = below(kseed, nd - 1 - i, i + 1)
        x = s[DECK + i]
        s[DECK + i] = s[DECK + j]
        s[DECK + j] = x
    s[G_NDECK] = nd


# ---- legality ----------------------------------------------------------------------------------------------


@njit(cache=True)
def in_own_rows(p, cell, st):
    r = cell // st[S_COLS]
    lo, hi = (st[S_D0LO], st[S_D0HI]) if p == 0 else (st[S_D1LO], st[S_D1HI])
    return r >= lo and r <= hi


@njit(cache=True)
def unplaced_of_type(s, p, t):
    for u in range(s[G_NU]):
        b = ub(u)
        if s[b + F_OWNER] == p and s[b + F_TYPE] == t and s[b + F_STATE] == US_UNPLACED:
            return u
    return -1


@njit(cache=True)
def can_move(s, u, ut):
    b = ub(u)
    if s[b + F_ATTACKED] == 1 or s[b + F_SKILLED] == 1:
        return R_ACTED
    if s[b + F_MOVED] == 1:
        return R_MOVED
    return R_OK


@njit(cache=True)
def attack_target_ok(s, u, cell, ut, st):
    """Whether unit ``u`` may attack the unit on ``cell`` now (``R_*``), joiners aside."""
    v = occ(s, cell)
    if v < 0:
        return R_NO_TARGET
    if v == u or (s[ub(v) + F_OWNER] == s[ub(u) + F_OWNER] and is_leader(s, v, ut)):
        return R_SELF_TARGET
    if immune(s, v, ut, st):
        return R_IMMUNE
    if not in_range(s, u, cell, ut, st):
        return R_RANGE
    return R_OK


@njit(cache=True)
def may_join(s, j, p, cell, ut, st):
    """Section 6.3 [R31]: own unit ``j`` may join an attack on ``cell`` without moving."""
    b = ub(j)
    if s[b + F_STATE] != US_ALIVE or s[b + F_OWNER] != p or s[b + F_ATTACKED] == 1:
        return False
    if st[S_JOINERS] == 1 and s[b + F_MOVED] == 1:
        return False
    return in_range(s, j, cell, ut, st)


@njit(cache=True)
def skill_cost_ok(s, p, m, cards, rc):
    if cards < 0 or cards > m or cards > s[pb(p) + P_HAND]:
        return R_CARDS
    if cards > 0 and rc[s[pb(p) + P_RACE]] == 1 and units_on_board(s, p) > units_on_board(s, 1 - p):
        return R_CARDS
    if m - cards > s[pb(p) + P_ACTIVE]:
        return R_MAGIC
    return R_OK


@njit(cache=True)
def free_slot(s):
    return s[G_NU] < MAXU


@njit(cache=True)
def check(s, kind, a, b, c, d, ut, sk, st, rc):
    """Why the action ``(kind, a, b, c, d)`` is illegal for the seat to act (``R_*``), or ``R_OK``."""
    if s[G_PHASE] == PH_OVER:
        return R_OVER
    p = s[G_CUR]
    n = ncells(st)
    if kind < 0 or kind > A_END:
        return R_BAD_KIND
    if s[G_PHASE] == PH_DEPLOY:
        if kind != A_PLACE:
            return R_DEPLOYING
        if a < 0 or a >= ut.shape[0] or unplaced_of_type(s, p, a) < 0:
            return R_NO_SUCH_TYPE
        if b < 0 or b >= n or not in_own_rows(p, b, st) or occ(s, b) >= 0 or is_obstacle(st, b):
            return R_BAD_CELL
        return R_OK
    if kind == A_PLACE:
        return R_NOT_DEPLOY
    if kind == A_END:
        return R_OK
    if a < 0 or a >= n:
        return R_NO_UNIT
    u = occ(s, a)
    if u < 0 or s[ub(u) + F_OWNER] != p:
        return R_NO_UNIT
    if kind == A_MOVE:
        r = can_move(s, u, ut)
        if r != R_OK:
            return r
        if b < 0 or b >= n or (reach(s, u, ut, sk, st) >> b) & 1 == 0:
            return R_UNREACHABLE
        return R_OK
    if kind == A_ATTACK:
        if s[ub(u) + F_ATTACKED] == 1:
            return R_ATTACKED
        if b < 0 or b >= n:
            return R_NO_TARGET
        r = attack_target_ok(s, u, b, ut, st)
        if r != R_OK:
            return r
        v = occ(s, b)
        if c != 0:
            if c < 0 or (c >> n) != 0 or (c >> a) & 1:
                return R_JOINER
            if s[ub(v) + F_OWNER] == p:
                return R_COMBINED_OWN
            for x in range(n):
                if (c >> x) & 1:
                    j = occ(s, x)
                    if j < 0 or not may_join(s, j, p, b, ut, st):
                        return R_JOINER
            if aura(s, v, P_ATTACK_MOD, ut, sk, st) == 0:
                if d != a:
                    return R_BEARER
            elif d != a and (d < 0 or d >= n or (c >> d) & 1 == 0):
                return R_BEARER
        elif d != a:
            return R_BEARER
        return R_OK
    if kind == A_SKILL:
        t = s[ub(u) + F_TYPE]
        k = ut[t, U_ACTIVE]
        if k < 0:
            return R_NO_SKILL
        prim = sk[k, K_KIND]
        leader = ut[t, U_LEADER] == 1
        if leader:
            if s[ub(u) + F_SKILLED] == 1:
                return R_SKILL_USED
        elif prim == P_FREE:
            if s[ub(u) + F_FREE] == 1:
                return R_SKILL_USED
        elif s[ub(u) + F_ATTACKED] == 1:
            return R_SKILL_USED
        r = skill_cost_ok(s, p, sk[k, K_MAGIC], c, rc)
        if r != R_OK:
            return r
        if b < 0 or b >= n:
            return R_SKILL_TARGET
        cols = st[S_COLS]
        if prim == P_SUMMON:
            if not free_slot(s):
                return R_SLOTS
            if occ(s, b) >= 0 or is_obstacle(st, b) or b == a:
                return R_SKILL_TARGET
            if abs(b % cols - a % cols) > 1 or abs(b // cols - a // cols) > 1:
                return R_SKILL_TARGET
            return R_OK
        v = occ(s, b)
        if v < 0 or s[ub(v) + F_OWNER] != p or immune(s, v, ut, st):
            return R_SKILL_TARGET
        dd = mdist(a, b, cols)
        if prim == P_HEAL:
            if dd > sk[k, K_RANGE] or s[ub(v) + F_DMG] == 0:
                return R_SKILL_TARGET
            return R_OK
        # free_active (B.1 primitive 7, [R37])
        if sk[k, K_TARGET] == 0:
            if v != u:
                return R_SKILL_TARGET
        elif dd > sk[k, K_RANGE]:
            return R_SKILL_TARGET
        if s[ub(v) + F_ATTACKED] == 1 or (s[ub(v) + F_BMASK] >> t) & 1:
            return R_SKILL_TARGET
        if hp_left(s, u, ut) < sk[k, K_MINHP]:
            return R_MIN_HP
        return R_OK
    return R_BAD_KIND


@njit(cache=True)
def _put(out, n, kind, a, b, c, d):
    if n < out.shape[0]:
        out[n, 0], out[n, 1], out[n, 2], out[n, 3], out[n, 4] = kind, a, b, c, d
    return n + 1


@njit(cache=True)
def legal(s, out, ut, sk, st, rc, first_only):
    """Fill ``out[:n, :5]`` with every legal action of the seat to act, in a fixed order; return n.

    Order: deployment (unit types ascending, cells ascending); in play, per unit slot: moves, attacks
    (single, then combined: joiner subsets ascending), skill uses; ``A_END`` last. With ``first_only``
    it stops at the first action other than ``A_END`` (does anything remain besides ending the turn?)."""
    if s[G_PHASE] == PH_OVER:
        return 0
    p = s[G_CUR]
    nc = ncells(st)
    n = 0
    if s[G_PHASE] == PH_DEPLOY:
        for t in range(ut.shape[0]):
            if unplaced_of_type(s, p, t) < 0:
                continue
            for cell in range(nc):
                if check(s, A_PLACE, t, cell, 0, 0, ut, sk, st, rc) == R_OK:
                    n = _put(out, n, A_PLACE, t, cell, 0, 0)
        return n
    parts = np.zeros(MAXU, np.int64)
    for u in range(s[G_NU]):
        bu = ub(u)
        if s[bu + F_STATE] != US_ALIVE or s[bu + F_OWNER] != p:
            continue
        a = s[bu + F_CELL]
        if can_move(s, u, ut) == R_OK:
            m = reach(s, u, ut, sk, st)
            for cell in range(nc):
                if (m >> cell) & 1:
                    n = _put(out, n, A_MOVE, a, cell, 0, 0)
                    if first_only:
                        return n
        if s[bu + F_ATTACKED] == 0:
            for cell in range(nc):
                if attack_target_ok(s, u, cell, ut, st) != R_OK:
                    continue
                n = _put(out, n, A_ATTACK, a, cell, 0, a)
                if first_only:
                    return n
                v = occ(s, cell)
                if s[ub(v) + F_OWNER] == p:
                    continue
                npart = 0
                for j in range(s[G_NU]):
                    if j != u and s[ub(j) + F_STATE] == US_ALIVE and may_join(s, j, p, cell, ut, st):
                        parts[npart] = s[ub(j) + F_CELL]
                        npart += 1
                if npart == 0 or npart > 12:
                    continue
                mod = aura(s, v, P_ATTACK_MOD, ut, sk, st)
                for sub in range(1, 1 << npart):
                    mask = np.int64(0)
                    for i in range(npart):
                        if (sub >> i) & 1:
                            mask |= np.int64(1) << parts[i]
                    n = _put(out, n, A_ATTACK, a, cell, mask, a)
                    if mod > 0:
                        for i in range(npart):
                            if (sub >> i) & 1:
                                n = _put(out, n, A_ATTACK, a, cell, mask, parts[i])
        k = ut[s[bu + F_TYPE], U_ACTIVE]
        if k >= 0:
            m = sk[k, K_MAGIC]
            for cell in range(nc):
                for cards in range(0, m + 1):
                    if check(s, A_SKILL, a, cell, cards, 0, ut, sk, st, rc) == R_OK:
                        n = _put(out, n, A_SKILL, a, cell, cards, 0)
                        if first_only:
                            return n
    n = _put(out, n, A_END, 0, 0, 0, 0)
    return n


# ---- resolution ----------------------------------------------------------------------------------------------


@njit(cache=True)
def roll(s, u, dice, thr, st):
    """Roll ``dice`` dice off the tape for unit ``u``; a die hits when it shows at least ``thr`` [R9]."""
    hits = 0
    for _ in range(dice):
        if die(s, st) >= thr:
            hits += 1
    s[pb(s[ub(u) + F_OWNER]) + P_DICE] += dice
    return hits


@njit(cache=True)
def damage(s, v, n, ut, st):
    """Put ``n`` markers on unit ``v`` (none on an immune leader)."""
    if n > 0 and not immune(s, v, ut, st):
        s[ub(v) + F_DMG] += n


@njit(cache=True)
def draw_cards(s, p, want):
    """Section 7.3: draw up to ``want`` cards from the shared pile, cut short at the cap."""
    b = pb(p)
    for _ in range(want):
        if s[b + P_DRAWN] >= s[b + P_CAP] or s[G_KPTR] >= s[G_NDECK] or s[b + P_HAND] >= MAX_HAND:
            return
        s[b + P_H + s[b + P_HAND]] = s[DECK + s[G_KPTR]]
        s[G_KPTR] += 1
        s[b + P_HAND] += 1
        s[b + P_DRAWN] += 1


@njit(cache=True)
def end_game(s, winner, reason):
    s[G_WINNER] = winner
    s[G_REASON] = reason
    s[G_PHASE] = PH_OVER


@njit(cache=True)
def resolve(s, pre, ut, sk, st):
    """After every action (5.2): deaths in the 7.1 order [R30] (nearest the acting unit first, then lower HP
    before the action, then ascending slot), each with its triggers (magic to the acting player [R22],
    on_death magic to the owner, tactical draws by cost [R25]); a dying leader ends the game at once [R33];
    then the draw unlocks [R26]."""
    cols = st[S_COLS]
    nu = s[G_NU]
    dying = np.zeros(MAXU, np.int64)
    keys = np.zeros(MAXU, np.int64)
    nd = 0
    for u in range(nu):
        b = ub(u)
        if s[b + F_STATE] == US_ALIVE and s[b + F_DMG] >= ut[s[b + F_TYPE], U_HP]:
            hp_before = ut[s[b + F_TYPE], U_HP] - pre[u]
            key = (mdist(s[b + F_CELL], s[G_ORIGIN], cols) * 4096 + hp_before) * MAXU + u
            i = nd
            while i > 0 and keys[i - 1] > key:
                keys[i] = keys[i - 1]
                dying[i] = dying[i - 1]
                i -= 1
            keys[i] = key
            dying[i] = u
            nd += 1
    actor = s[G_CUR]
    for i in range(nd):
        u = dying[i]
        b = ub(u)
        t = s[b + F_TYPE]
        q = s[b + F_OWNER]
        s[b + F_STATE] = US_DEAD
        s[BD + s[b + F_CELL]] = 0
        s[pb(actor) + P_STORED] += st[S_PER_KILL]
        s[pb(actor) + P_GAINED] += st[S_PER_KILL]
        s[pb(actor) + P_KILLS] += 1
        for j in range(MAX_SKILLS):
            k = ut[t, U_SK + j]
            if k >= 0 and sk[k, K_KIND] == P_ON_DEATH:
                s[pb(q) + P_STORED] += sk[k, K_GAIN]
                s[pb(q) + P_GAINED] += sk[k, K_GAIN]
        if ut[t, U_LEADER] == 1:
            end_game(s, 1 - q, END_LEADER)
            return
        s[pb(q) + P_LOST] += 1
        cost = ut[t, U_COST]
        for k in range(st[S_NBANDS]):
            lo, hi, cards = st[S_BANDS + 3 * k], st[S_BANDS + 3 * k + 1], st[S_BANDS + 3 * k + 2]
            if cost >= lo and cost <= hi:
                draw_cards(s, q, cards)
    for q in range(2):
        b = pb(q)
        lead = s[b + P_LEADER]
        if s[b + P_UNLOCK4] == 0 and units_on_board(s, q) == 1:
            s[b + P_UNLOCK4] = 1
            s[b + P_CAP] = st[S_UNLOCK_CAP]
            draw_cards(s, q, 1)
        if s[b + P_UNLOCK5] == 0 and hp_left(s, lead, ut) <= st[S_UNLOCK_HP]:
            s[b + P_UNLOCK5] = 1
            s[b + P_CAP] = st[S_UNLOCK_CAP]
            draw_cards(s, q, 1)


@njit(cache=True)
def start_turn(s, p, st):
    """Section 5.1: stored magic becomes active [R23]; the player's units may move and act again; effects
    of the last turn are gone (5.3)."""
    b = pb(p)
    s[b + P_ACTIVE] += s[b + P_STORED]
    s[b + P_STORED] = 0
    s[G_CUR] = p
    for u in range(s[G_NU]):
        x = ub(u)
        s[x + F_BDICE] = 0
        s[x + F_BPREC] = 0
        s[x + F_BMOVE] = 0
        s[x + F_BMASK] = 0
        if s[x + F_OWNER] == p:
            s[x + F_MOVED] = 0
            s[x + F_ATTACKED] = 0
            s[x + F_SKILLED] = 0
            s[x + F_FREE] = 0


@njit(cache=True)
def cmp_frac(a0, b0, a1, b1):
    """Sign of a0/b0 - a1/b1 (by cross-multiplying; b0, b1 > 0)."""
    x = a0 * b1 - a1 * b0
    return 1 if x > 0 else (-1 if x < 0 else 0)


@njit(cache=True)
def tiebreak(s, ut, st):
    """Section 1 [R34]: at the turn limit, the larger leader HP fraction wins, then the larger fraction of
    the bought army's gold still alive (summoned units aside), then a draw (``tiebreak`` sets the order)."""
    for i in range(3):
        rule = st[S_TB0 + i]
        if rule == TB_LEADER:
            l0, l1 = s[pb(0) + P_LEADER], s[pb(1) + P_LEADER]
            h0, h1 = ut[s[ub(l0) + F_TYPE], U_HP], ut[s[ub(l1) + F_TYPE], U_HP]
            c = cmp_frac(hp_left(s, l0, ut), h0, hp_left(s, l1, ut), h1)
        elif rule == TB_ARMY:
            a0, a1 = army_left(s, 0, ut), army_left(s, 1, ut)
            c = cmp_frac(a0, max(1, s[pb(0) + P_ARMY]), a1, max(1, s[pb(1) + P_ARMY]))
        else:
            return DRAW
        if c != 0:
            return 0 if c > 0 else 1
    return DRAW


@njit(cache=True)
def army_left(s, p, ut):
    """Gold of the player's bought units still alive (summoned units do not count)."""
    v = 0
    for u in range(s[G_NU]):
        b = ub(u)
        if s[b + F_OWNER] == p and s[b + F_STATE] == US_ALIVE and s[b + F_SUMMONED] == 0:
            v += ut[s[b + F_TYPE], U_COST]
    return v


@njit(cache=True)
def end_turn(s, ut, st):
    """Section 5.3: this turn's effects end; the next global turn begins, or the turn limit ends the game."""
    if s[G_TURN] >= st[S_TURN_LIMIT]:
        end_game(s, tiebreak(s, ut, st), END_TURN_LIMIT)
        return
    s[G_TURN] += 1
    start_turn(s, 1 - s[G_CUR], st)


@njit(cache=True)
def settle(s, ut, sk, st, rc):
    """The turn ends by itself when nothing but ending it is legal (5.2, [R12])."""
    probe = np.zeros((1, 5), np.int64)
    while s[G_PHASE] == PH_PLAY:
        if legal(s, probe, ut, sk, st, rc, True) > 1 or probe[0, 0] != A_END:
            return
        end_turn(s, ut, st)


@njit(cache=True)
def do_attack(s, a, b, joiners, bearer, ut, sk, st):
    """Sections 6.2-6.3 and B.1: one attack (or combined attack) on the unit on cell ``b``."""
    p = s[G_CUR]
    nc = ncells(st)
    u = occ(s, a)
    v = occ(s, b)
    parts = np.zeros(MAXU, np.int64)
    parts[0] = u
    npart = 1
    for j in range(s[G_NU]):  # joiners roll in ascending slot order
        if j != u and s[ub(j) + F_STATE] == US_ALIVE and s[ub(j) + F_CELL] >= 0 and \
                (joiners >> s[ub(j) + F_CELL]) & 1:
            parts[npart] = j
            npart += 1
    bear = occ(s, bearer)
    enemy = s[ub(v) + F_OWNER] != p
    mod = aura(s, v, P_ATTACK_MOD, ut, sk, st) if enemy else 0
    red = aura(s, v, P_DAMAGE_RED, ut, sk, st) if enemy else 0
    thr = np.zeros(MAXU, np.int64)
    hits = 0
    for i in range(npart):
        w = parts[i]
        dice = attack_dice(s, w, ut, sk, st) - (mod if w == bear else 0)
        thr[i] = threshold(s, w, ut, sk, st)
        h = roll(s, w, dice if dice > 0 else 0, thr[i], st)
        hits += h
        if enemy:
            s[ub(w) + F_HITS] += h
    hits -= red
    damage(s, v, hits, ut, st)
    # splash (B.1 primitive 9): each splashing participant in roll order, its targets by ascending cell
    for i in range(npart):
        w = parts[i]
        tw = s[ub(w) + F_TYPE]
        q = s[ub(w) + F_OWNER]
        for j in range(MAX_SKILLS):
            k = ut[tw, U_SK + j]
            if k < 0 or sk[k, K_KIND] != P_SPLASH:
                continue
            for cell in range(nc):
                x = occ(s, cell)
                if x < 0 or s[ub(x) + F_OWNER] == q or immune(s, x, ut, st):
                    continue
                dd = mdist(cell, b, st[S_COLS])
                if dd < sk[k, K_D1] or dd > sk[k, K_D2]:
                    continue
                h = roll(s, w, sk[k, K_DICE], thr[i], st)
                s[ub(w) + F_HITS] += h
                damage(s, x, h, ut, st)
    for i in range(npart):
        s[ub(parts[i]) + F_MOVED] = 1
        s[ub(parts[i]) + F_ATTACKED] = 1
    if npart > 1:
        s[pb(p) + P_COMBINED] += 1


@njit(cache=True)
def do_skill(s, a, b, cards, ut, sk, st):
    """B.1 primitives 6-8 (heal, free_active, summon): pay the magic (cards first), apply, mark the slot used."""
    p = s[G_CUR]
    u = occ(s, a)
    t = s[ub(u) + F_TYPE]
    k = ut[t, U_ACTIVE]
    prim = sk[k, K_KIND]
    bp = pb(p)
    m = sk[k, K_MAGIC]
    s[bp + P_HAND] -= cards
    s[bp + P_CARDS_USED] += cards
    s[bp + P_ACTIVE] -= m - cards
    s[bp + P_SPENT] += m - cards
    s[bp + P_SKILLS] += 1
    if ut[t, U_LEADER] == 1:
        s[ub(u) + F_SKILLED] = 1
        s[ub(u) + F_MOVED] = 1          # the leader's move comes first [R13]
    elif prim == P_FREE:
        s[ub(u) + F_FREE] = 1           # free: uses nothing, may come before the move [R37]
    else:
        s[ub(u) + F_ATTACKED] = 1       # an active skill uses the attack (7.2)
        s[ub(u) + F_MOVED] = 1
    if prim == P_HEAL:
        v = occ(s, b)
        h = sk[k, K_AMOUNT]
        s[ub(v) + F_DMG] = s[ub(v) + F_DMG] - h if s[ub(v) + F_DMG] > h else 0
    elif prim == P_SUMMON:
        w = s[G_NU]
        s[G_NU] += 1
        x = ub(w)
        s[x + F_TYPE] = sk[k, K_UNIT]
        s[x + F_OWNER] = p
        s[x + F_SUMMONED] = 1
        place_unit(s, w, b)
        if st[S_SUMMON_ACT] == 0:
            s[x + F_MOVED] = 1
            s[x + F_ATTACKED] = 1
        s[bp + P_SUMMONS] += 1
    else:
        v = occ(s, b)
        damage(s, u, sk[k, K_SELFDMG], ut, st)
        x = ub(v)
        s[x + F_BDICE] += sk[k, K_DICE]
        s[x + F_BPREC] += sk[k, K_PREC]
        s[x + F_BMOVE] += sk[k, K_MOVE]
        s[x + F_BMASK] |= np.int64(1) << t


@njit(cache=True)
def step(s, kind, a, b, c, d, ut, sk, st, rc):
    """Apply the legal action ``(kind, a, b, c, d)`` (check it first with :func:`check`), then resolve
    deaths and unlocks and end the turn if nothing else is legal."""
    p = s[G_CUR]
    s[G_ACTIONS] += 1
    if kind == A_PLACE:
        u = unplaced_of_type(s, p, a)
        place_unit(s, u, b)
        s[pb(p) + P_TO_PLACE] -= 1
        if s[pb(p) + P_TO_PLACE] == 0:
            if p == 0:
                s[G_CUR] = 1
            else:
                s[G_PHASE] = PH_PLAY
                s[G_TURN] = 1
                start_turn(s, 0, st)
                settle(s, ut, sk, st, rc)
        return
    if kind == A_END:
        end_turn(s, ut, st)
        settle(s, ut, sk, st, rc)
        return
    pre = np.zeros(MAXU, np.int64)
    for u in range(s[G_NU]):
        pre[u] = s[ub(u) + F_DMG]
    s[G_ORIGIN] = a
    if kind == A_MOVE:
        u = occ(s, a)
        s[BD + a] = 0
        s[ub(u) + F_CELL] = b
        s[BD + b] = u + 1
        s[ub(u) + F_MOVED] = 1
    elif kind == A_ATTACK:
        do_attack(s, a, b, c, d, ut, sk, st)
    elif kind == A_SKILL:
        do_skill(s, a, b, c, ut, sk, st)
    resolve(s, pre, ut, sk, st)
    settle(s, ut, sk, st, rc)
