"""Magic War's rules, once: plain functions over one game's state, compiled by numba.

Every rule and ruling of ``shared/rules/magic-war.md`` and the ten skill primitives of the roster page
(``magic-war-roster.md`` B.1) live here and only here, each primitive implemented once; a unit's skills are
rows of the rules' skill table (cards as data). The same functions run compiled in sweeps
(:mod:`simkit.games.magic.batch`), behind the single-game facade (:mod:`simkit.games.magic.match`) and, with
``NUMBA_DISABLE_JIT=1``, as plain Python (a test plays games both ways and finds them equal). The bots call the
predicates below (who may attack what, how many dice, which hit number, where a unit may move, which enemies a
splash reaches) rather than restating them.

A game is a :data:`~simkit.games.magic.state.GAME` record ``g`` and the scenario's numbers one
:data:`~simkit.games.magic.state.RULES` record ``rules``, both declared in :mod:`simkit.games.magic.state`
with the encoding of every field. Unit places: seat 0's leader, its army in canonical order, seat 1's leader,
its army, then summoned units (in a dead unit's place once every place has been taken).

Actions are five integers ``(kind, a, b, c, d)``:

* ``(PLACE, card, cell)``: deployment, put an unplaced unit of that card on a free cell of the own rows;
* ``(MOVE, from, to)``;
* ``(ATTACK, attacker, target, joiners, bearer)``: ``joiners`` a set of cells (bit i: cell i) of the units
  joining a combined attack (0: a single attack), ``bearer`` the cell of the participant who bears the target's
  per-attack dice reduction (the principal when there are no joiners or no reduction: the canonical form);
* ``(SKILL, source, target, cards)``: the source unit's active skill (heal, free_active, summon) at the target
  cell, ``cards`` tactical cards paying that much of its magic cost, the rest from active magic;
* ``(END,)``.

Randomness: die ``k`` of a game is a pure function of ``g.dice_key`` and ``k`` (the counter-based stream of
:mod:`simkit.core.rng`; ``g.dice_rolled`` counts the dice rolled, so the tape never runs short and batch size
cannot change results); the pile is shuffled once from the deck stream's key.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.kits.mix import mix64
from simkit.games.magic.state import (
    ALIVE,
    ATTACK_BONUS,
    ATTACK_MODIFIER,
    BY_ARMY_VALUE,
    BY_LEADER_HP,
    CARD_SKILLS,
    DAMAGE_REDUCTION,
    DEAD,
    DEPLOY,
    DRAW,
    END_LEADER,
    END_TURN_LIMIT,
    FREE_ACTIVE,
    HEAL,
    LINE,
    MAX_UNITS,
    MOVE_BONUS,
    NOT_ACTED,
    OF_ANY,
    OF_MELEE,
    OF_RANGED,
    ON_DEATH,
    OVER,
    PLAY,
    PRECISION_AURA,
    SPLASH,
    SUMMON,
    TARGET_SELF,
    UNPLACED,
)

PLACE, MOVE, ATTACK, SKILL, END = 0, 1, 2, 3, 4
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
    "the leader's skill comes before its attack (leader_skill_after_attack = false) [S6]",
    "unknown action",
)
(OK, GAME_OVER, DEPLOYING, NOT_DEPLOYING, NO_SUCH_TYPE, BAD_CELL, NO_UNIT, MOVED, ACTED, UNREACHABLE, ATTACKED,
 NO_TARGET, SELF_TARGET, IMMUNE, OUT_OF_RANGE, BAD_JOINER, COMBINED_OWN, BAD_BEARER, NO_SKILL, SKILL_USED,
 NO_MAGIC, BAD_CARDS, BAD_SKILL_TARGET, LOW_HP, SKILL_AFTER_ATTACK, BAD_KIND) = range(26)

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
def die(g, rules):
    """The next die of the game's dice tape (1..sides); advances the tape pointer."""
    d = below(g.dice_key, g.dice_rolled, rules.die_sides) + 1
    g.dice_rolled += 1
    return d


# ---- the board and the units ---------------------------------------------------------------------------


@njit(cache=True)
def occ(g, cell):
    """The place of the unit on ``cell``, or -1."""
    return g.board[cell] - 1


@njit(cache=True)
def mdist(a, b, cols):
    """Manhattan distance between cells ``a`` and ``b`` (section 2)."""
    return abs(a % cols - b % cols) + abs(a // cols - b // cols)


@njit(cache=True)
def ncells(rules):
    return rules.cols * rules.rows


@njit(cache=True)
def is_obstacle(rules, cell):
    return (rules.obstacles >> cell) & 1 == 1


@njit(cache=True)
def alive(g, u):
    return g.units[u].status == ALIVE


@njit(cache=True)
def hp_left(g, u, rules):
    """Section 6.2: current HP, ``max(0, HP - markers)``."""
    unit = g.units[u]
    h = rules.cards[unit.type].hp - unit.markers
    return h if h > 0 else 0


@njit(cache=True)
def is_leader(g, u, rules):
    return rules.cards[g.units[u].type].leader == 1


@njit(cache=True)
def immune(g, u, rules):
    """Section 5.5 [R14]: a leader during the first ``leader_immune_turns`` global turns."""
    return is_leader(g, u, rules) and g.turn >= 1 and g.turn <= rules.leader_immune_turns


@njit(cache=True)
def attack_range(card, rules):
    """Section 6.1: how far a card's attack reaches (melee: the melee range [R6]; ranged: its printed range)."""
    return card.range if card.ranged == 1 else rules.melee_range


@njit(cache=True)
def of_type_ok(rules, t, of_type):
    """Whether card ``t`` is of an aura's ``of_type`` (any, melee, ranged, or that card)."""
    if of_type == OF_ANY:
        return True
    if of_type == OF_MELEE:
        return rules.cards[t].ranged == 0
    if of_type == OF_RANGED:
        return rules.cards[t].ranged == 1
    return t == of_type


@njit(cache=True)
def aura(g, v, primitive, rules):
    """Sum of the ``primitive`` auras covering unit ``v`` (B.1 primitives 1-5): the sources are ``v``'s own
    side's live units; a source covers ``v`` at Manhattan distance 1..radius, or itself with include_self;
    ``of_type`` filters ``v``'s card; each card's skill counts once (8.1 [R28])."""
    cols = rules.cols
    target = g.units[v]
    total = 0
    seen = np.zeros(CARD_SKILLS, np.int64)  # per skill slot of a card, the set of cards already counted
    for w in range(g.places):
        source = g.units[w]
        if source.status != ALIVE or source.side != target.side:
            continue
        t = source.type
        for j in range(CARD_SKILLS):
            k = rules.cards[t].skills[j]
            if k < 0 or rules.skills[k].kind != primitive:
                continue
            if (seen[j] >> t) & 1:
                continue
            skill = rules.skills[k]
            d = mdist(source.cell, target.cell, cols)
            covers = (w == v and skill.include_self == 1) or (w != v and d >= 1 and d <= skill.radius)
            if not covers:
                continue
            if (primitive == ATTACK_BONUS or primitive == PRECISION_AURA or primitive == MOVE_BONUS) and \
                    not of_type_ok(rules, target.type, skill.of_type):
                continue
            seen[j] |= np.int64(1) << t
            total += skill.k
    return total


@njit(cache=True)
def move_points(g, u, rules):
    """The unit's move now: printed move + free_active effects + move_bonus auras (B.1 primitive 5)."""
    unit = g.units[u]
    return rules.cards[unit.type].move + unit.bonus_move + aura(g, u, MOVE_BONUS, rules)


@njit(cache=True)
def attack_dice(g, u, rules):
    """Dice of the unit's attack before the target's reductions (printed + attack_bonus auras + effects)."""
    unit = g.units[u]
    return rules.cards[unit.type].attack + aura(g, u, ATTACK_BONUS, rules) + unit.bonus_dice


@njit(cache=True)
def threshold(g, u, rules):
    """Section 6.2 [R9]: the unit's hit number ``T' = T - P`` (P: precision auras + effects)."""
    unit = g.units[u]
    base = rules.ranged_hit_min if rules.cards[unit.type].ranged == 1 else rules.melee_hit_min
    return base - unit.bonus_precision - aura(g, u, PRECISION_AURA, rules)


@njit(cache=True)
def p_hit(thr, sides):
    """Section 6.2.3 [R9]: the chance that one die hits, ``clamp(sides + 1 - T', 0, sides) / sides``."""
    if thr <= 1:
        return 1.0
    if thr > sides:
        return 0.0
    return (sides - thr + 1) / sides


@njit(cache=True)
def dealt(hits, reduction):
    """B.1 primitive 2: the markers an attack's hits place once the target's damage reduction is taken off."""
    return hits - reduction if hits > reduction else 0


@njit(cache=True)
def in_ring(skill, cell, target_cell, cols):
    """B.1 primitive 9: whether ``cell`` lies in a splash skill's ring around the attack's target."""
    d = mdist(cell, target_cell, cols)
    return d >= skill.ring_near and d <= skill.ring_far


@njit(cache=True)
def reach(g, u, rules):
    """The set of cells (bit i: cell i) the unit may end a move on (5.4): walkers step orthogonally through
    empty cells, flyers pass over anything; both end on an empty cell, at least one step away [R5]."""
    cols, rows = rules.cols, rules.rows
    n = cols * rows
    m = move_points(g, u, rules)
    start = g.units[u].cell
    out = np.int64(0)
    if rules.cards[g.units[u].type].flies == 1:
        for c in range(n):
            if c != start and mdist(c, start, cols) <= m and occ(g, c) < 0 and not is_obstacle(rules, c):
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
                if (seen >> d) & 1 or occ(g, d) >= 0 or is_obstacle(rules, d):
                    continue
                nxt |= np.int64(1) << d
        seen |= nxt
        frontier = nxt
        if frontier == 0:
            break
    return seen & ~(np.int64(1) << start)


@njit(cache=True)
def in_range(g, u, cell, rules):
    """Section 6.1: whether unit ``u`` reaches ``cell`` from where it stands (melee: Manhattan <= melee
    range [R6]; ranged ``line``: same row or column within range, nothing between when blocked [R7];
    ranged ``manhattan``: within range)."""
    cols = rules.cols
    a = g.units[u].cell
    d = mdist(a, cell, cols)
    if d < 1:
        return False
    card = rules.cards[g.units[u].type]
    if card.ranged == 0:
        return d <= rules.melee_range
    if d > card.range:
        return False
    if rules.ranged_shape != LINE:
        return True
    ar, ac, br, bc = a // cols, a % cols, cell // cols, cell % cols
    if ar != br and ac != bc:
        return False
    if rules.ranged_blocked == 0:
        return True
    dr = 0 if br == ar else (1 if br > ar else -1)
    dc = 0 if bc == ac else (1 if bc > ac else -1)
    r, c = ar + dr, ac + dc
    while r != br or c != bc:
        x = r * cols + c
        if occ(g, x) >= 0 or is_obstacle(rules, x):
            return False
        r += dr
        c += dc
    return True


@njit(cache=True)
def units_on_board(g, p):
    n = 0
    for w in range(g.places):
        if g.units[w].status == ALIVE and g.units[w].side == p:
            n += 1
    return n


# ---- setup -------------------------------------------------------------------------------------------------


@njit(cache=True)
def place_unit(g, u, cell):
    """Put unit ``u`` on ``cell`` (deployment, summons, literal positions)."""
    g.units[u].cell = cell
    g.units[u].status = ALIVE
    g.board[cell] = u + 1


@njit(cache=True)
def relocate(g, u, cell):
    """Section 5.4: unit ``u`` leaves its cell for ``cell`` (the move's effect; whether it may is :func:`check`'s)."""
    g.board[g.units[u].cell] = 0
    g.units[u].cell = cell
    g.board[cell] = u + 1


@njit(cache=True)
def setup(g, army0, army1, dice_key, deck_key, rules):
    """A new game: leaders on their crowns, armies (card rows, canonical order) waiting to be placed, the pile
    shuffled from ``deck_key``, the dice tape keyed by ``dice_key``; seat 0 deploys first."""
    g.turn = 0
    g.winner = -1
    g.reason = 0
    g.dice_key = dice_key
    g.dice_rolled = 0
    g.phase = DEPLOY
    g.to_act = 0
    g.origin = 0
    g.actions = 0
    n = 0
    for p in range(2):
        army = army0 if p == 0 else army1
        race = rules.cards[army[0]].race
        leader = -1
        for t in range(rules.card_count):
            if rules.cards[t].race == race and rules.cards[t].leader == 1:
                leader = t
        side = g.sides[p]
        side.leader = n
        side.race = race
        side.cap = rules.cap
        g.units[n].type = leader
        g.units[n].side = p
        place_unit(g, n, rules.crown[p])
        n += 1
        value = 0
        for i in range(army.shape[0]):
            g.units[n].type = army[i]
            g.units[n].side = p
            g.units[n].cell = -1
            g.units[n].status = UNPLACED
            value += rules.cards[army[i]].cost
            n += 1
        side.army_value = value
        side.to_place = army.shape[0]
    g.places = n
    # the shared pile: kinds x copies card tokens, shuffled (Fisher-Yates) from the deck stream
    size = rules.tactic_kinds * rules.tactic_copies
    for i in range(size):
        g.pile[i] = i // rules.tactic_copies + 1
    for i in range(size - 1, 0, -1):
        j = below(deck_key, size - 1 - i, i + 1)
        x = g.pile[i]
        g.pile[i] = g.pile[j]
        g.pile[j] = x
    g.pile_size = size
    g.pile_drawn = 0


# ---- legality ----------------------------------------------------------------------------------------------


@njit(cache=True)
def in_own_rows(p, cell, rules):
    """Section 4.4 [R3]: whether ``cell`` lies in seat ``p``'s deployment rows."""
    r = cell // rules.cols
    return r >= rules.deploy_first_row[p] and r <= rules.deploy_last_row[p]


@njit(cache=True)
def unplaced_of_type(g, p, t):
    for u in range(g.places):
        unit = g.units[u]
        if unit.side == p and unit.type == t and unit.status == UNPLACED:
            return u
    return -1


@njit(cache=True)
def can_move(g, u):
    """Section 5.2: a unit moves at most once a turn, and never after attacking or using its skill."""
    unit = g.units[u]
    if unit.attacked == 1 or unit.skilled == 1:
        return ACTED
    if unit.moved == 1:
        return MOVED
    return OK


@njit(cache=True)
def attack_target_ok(g, u, cell, rules):
    """Whether unit ``u`` may attack the unit on ``cell`` now (a reason code), joiners aside."""
    v = occ(g, cell)
    if v < 0:
        return NO_TARGET
    if v == u or (g.units[v].side == g.units[u].side and is_leader(g, v, rules)):
        return SELF_TARGET
    if immune(g, v, rules):
        return IMMUNE
    if not in_range(g, u, cell, rules):
        return OUT_OF_RANGE
    return OK


@njit(cache=True)
def may_join(g, j, p, cell, rules):
    """Section 6.3 [R31]: own unit ``j`` may join an attack on ``cell`` without moving."""
    unit = g.units[j]
    if unit.status != ALIVE or unit.side != p or unit.attacked == 1:
        return False
    if rules.combined_joiners == NOT_ACTED and unit.moved == 1:
        return False
    return in_range(g, j, cell, rules)


@njit(cache=True)
def skill_cost_ok(g, p, magic, cards, rules):
    """Section 7.3 [R24]: ``cards`` tactical cards pay that much of a skill's ``magic``, active magic the rest
    (the Orcs' cards only while they have no more units on the board than the enemy)."""
    side = g.sides[p]
    if cards < 0 or cards > magic or cards > side.held:
        return BAD_CARDS
    if cards > 0 and rules.races[side.race].card_as_magic_if_units_le_enemy == 1 and \
            units_on_board(g, p) > units_on_board(g, 1 - p):
        return BAD_CARDS
    if magic - cards > side.active_magic:
        return NO_MAGIC
    return OK


@njit(cache=True)
def summon_cell_ok(g, source_cell, cell, rules):
    """Section 8.2: a summoned unit goes on an empty cell of its summoner's 3x3 square (diagonals included)."""
    cols = rules.cols
    if occ(g, cell) >= 0 or is_obstacle(rules, cell) or cell == source_cell:
        return False
    return abs(cell % cols - source_cell % cols) <= 1 and abs(cell // cols - source_cell // cols) <= 1


@njit(cache=True)
def check(g, kind, a, b, c, d, rules):
    """Why the action ``(kind, a, b, c, d)`` is illegal for the seat to act (a reason code), or ``OK``."""
    if g.phase == OVER:
        return GAME_OVER
    p = g.to_act
    n = ncells(rules)
    if kind < 0 or kind > END:
        return BAD_KIND
    if g.phase == DEPLOY:
        if kind != PLACE:
            return DEPLOYING
        if a < 0 or a >= rules.card_count or unplaced_of_type(g, p, a) < 0:
            return NO_SUCH_TYPE
        if b < 0 or b >= n or not in_own_rows(p, b, rules) or occ(g, b) >= 0 or is_obstacle(rules, b):
            return BAD_CELL
        return OK
    if kind == PLACE:
        return NOT_DEPLOYING
    if kind == END:
        return OK
    if a < 0 or a >= n:
        return NO_UNIT
    u = occ(g, a)
    if u < 0 or g.units[u].side != p:
        return NO_UNIT
    if kind == MOVE:
        r = can_move(g, u)
        if r != OK:
            return r
        if b < 0 or b >= n or (reach(g, u, rules) >> b) & 1 == 0:
            return UNREACHABLE
        return OK
    if kind == ATTACK:
        if g.units[u].attacked == 1:
            return ATTACKED
        if b < 0 or b >= n:
            return NO_TARGET
        r = attack_target_ok(g, u, b, rules)
        if r != OK:
            return r
        v = occ(g, b)
        if c != 0:
            if c < 0 or (c >> n) != 0 or (c >> a) & 1:
                return BAD_JOINER
            if g.units[v].side == p:
                return COMBINED_OWN
            for x in range(n):
                if (c >> x) & 1:
                    j = occ(g, x)
                    if j < 0 or not may_join(g, j, p, b, rules):
                        return BAD_JOINER
            if aura(g, v, ATTACK_MODIFIER, rules) == 0:
                if d != a:
                    return BAD_BEARER
            elif d != a and (d < 0 or d >= n or (c >> d) & 1 == 0):
                return BAD_BEARER
        elif d != a:
            return BAD_BEARER
        return OK
    if kind == SKILL:
        source = g.units[u]
        t = source.type
        k = rules.cards[t].active
        if k < 0:
            return NO_SKILL
        skill = rules.skills[k]
        if rules.cards[t].leader == 1:
            if source.skilled == 1:
                return SKILL_USED
            if source.attacked == 1 and rules.leader_skill_after_attack == 0:  # [S6]
                return SKILL_AFTER_ATTACK
        elif skill.kind == FREE_ACTIVE:
            if source.free_used == 1:
                return SKILL_USED
        elif source.attacked == 1:
            return SKILL_USED
        r = skill_cost_ok(g, p, skill.magic, c, rules)
        if r != OK:
            return r
        if b < 0 or b >= n:
            return BAD_SKILL_TARGET
        if skill.kind == SUMMON:
            return OK if summon_cell_ok(g, a, b, rules) else BAD_SKILL_TARGET
        v = occ(g, b)
        if v < 0 or g.units[v].side != p or immune(g, v, rules):
            return BAD_SKILL_TARGET
        dd = mdist(a, b, rules.cols)
        if skill.kind == HEAL:
            if dd > skill.range or g.units[v].markers == 0:  # a heal needs a marker to remove [S1]
                return BAD_SKILL_TARGET
            return OK
        # free_active (B.1 primitive 7, [R37])
        if skill.target == TARGET_SELF:
            if v != u:
                return BAD_SKILL_TARGET
        elif dd > skill.range or (v == u and rules.friend_includes_source == 0):  # a friend: the source too [S2]
            return BAD_SKILL_TARGET
        # its target has not attacked [S3] and no free_active of the source's card affects it yet [S4, R28]
        if g.units[v].attacked == 1 or (g.units[v].buffed_by >> t) & 1:
            return BAD_SKILL_TARGET
        if hp_left(g, u, rules) < skill.min_hp:
            return LOW_HP
        return OK
    return BAD_KIND


@njit(cache=True)
def _put(out, n, kind, a, b, c, d):
    if n < out.shape[0]:
        out[n, 0], out[n, 1], out[n, 2], out[n, 3], out[n, 4] = kind, a, b, c, d
    return n + 1


@njit(cache=True)
def legal(g, out, rules, first_only):
    """Fill ``out[:n, :5]`` with every legal action of the seat to act, in a fixed order; return n.

    Order: deployment (cards ascending, cells ascending); in play, per unit place: moves, attacks (single,
    then combined: joiner subsets ascending), skill uses; ``END`` last. With ``first_only`` it stops at the
    first action other than ``END`` (does anything remain besides ending the turn?)."""
    if g.phase == OVER:
        return 0
    p = g.to_act
    nc = ncells(rules)
    n = 0
    if g.phase == DEPLOY:
        for t in range(rules.card_count):
            if unplaced_of_type(g, p, t) < 0:
                continue
            for cell in range(nc):
                if check(g, PLACE, t, cell, 0, 0, rules) == OK:
                    n = _put(out, n, PLACE, t, cell, 0, 0)
        return n
    parts = np.zeros(MAX_UNITS, np.int64)
    for u in range(g.places):
        unit = g.units[u]
        if unit.status != ALIVE or unit.side != p:
            continue
        a = unit.cell
        if can_move(g, u) == OK:
            m = reach(g, u, rules)
            for cell in range(nc):
                if (m >> cell) & 1:
                    n = _put(out, n, MOVE, a, cell, 0, 0)
                    if first_only:
                        return n
        if unit.attacked == 0:
            for cell in range(nc):
                if attack_target_ok(g, u, cell, rules) != OK:
                    continue
                n = _put(out, n, ATTACK, a, cell, 0, a)
                if first_only:
                    return n
                v = occ(g, cell)
                if g.units[v].side == p:
                    continue
                npart = 0
                for j in range(g.places):
                    if j != u and g.units[j].status == ALIVE and may_join(g, j, p, cell, rules):
                        parts[npart] = g.units[j].cell
                        npart += 1
                if npart == 0 or npart > 12:
                    continue
                mod = aura(g, v, ATTACK_MODIFIER, rules)
                for sub in range(1, 1 << npart):
                    mask = np.int64(0)
                    for i in range(npart):
                        if (sub >> i) & 1:
                            mask |= np.int64(1) << parts[i]
                    n = _put(out, n, ATTACK, a, cell, mask, a)
                    if mod > 0:
                        for i in range(npart):
                            if (sub >> i) & 1:
                                n = _put(out, n, ATTACK, a, cell, mask, parts[i])
        k = rules.cards[unit.type].active
        if k >= 0:
            m = rules.skills[k].magic
            for cell in range(nc):
                for cards in range(0, m + 1):
                    if check(g, SKILL, a, cell, cards, 0, rules) == OK:
                        n = _put(out, n, SKILL, a, cell, cards, 0)
                        if first_only:
                            return n
    n = _put(out, n, END, 0, 0, 0, 0)
    return n


# ---- resolution ----------------------------------------------------------------------------------------------


@njit(cache=True)
def roll(g, u, dice, thr, rules):
    """Roll ``dice`` dice off the tape for unit ``u``; a die hits when it shows at least ``thr`` [R9]."""
    hits = 0
    for _ in range(dice):
        if die(g, rules) >= thr:
            hits += 1
    g.sides[g.units[u].side].dice += dice
    return hits


@njit(cache=True)
def count_hits(g, u, hits):
    """The record's counter: ``hits`` dice hits on enemy units by unit ``u``, counted for its card."""
    unit = g.units[u]
    g.sides[unit.side].hits[unit.type] += hits


@njit(cache=True)
def damage(g, v, n, rules):
    """Put ``n`` markers on unit ``v`` (none on an immune leader)."""
    if n > 0 and not immune(g, v, rules):
        g.units[v].markers += n


@njit(cache=True)
def draw_cards(g, p, want):
    """Section 7.3: draw up to ``want`` cards from the shared pile, cut short at the cap."""
    side = g.sides[p]
    for _ in range(want):
        if side.drawn >= side.cap or g.pile_drawn >= g.pile_size:
            return
        side.hand[side.held] = g.pile[g.pile_drawn]
        g.pile_drawn += 1
        side.held += 1
        side.drawn += 1


@njit(cache=True)
def end_game(g, winner, reason):
    g.winner = winner
    g.reason = reason
    g.phase = OVER


@njit(cache=True)
def resolve(g, pre, rules):
    """After every action (5.2): deaths in the 7.1 order [R30] (nearest the acting unit first, then lower HP
    before the action, then ascending place), each with its triggers (magic to the acting player [R22],
    on_death magic to the owner, tactical draws by cost [R25]); a dying leader ends the game at once [R33];
    then the draw unlocks [R26]."""
    cols = rules.cols
    dying = np.zeros(MAX_UNITS, np.int64)
    keys = np.zeros(MAX_UNITS, np.int64)
    nd = 0
    for u in range(g.places):
        unit = g.units[u]
        hp = rules.cards[unit.type].hp
        if unit.status == ALIVE and unit.markers >= hp:
            hp_before = hp - pre[u]
            key = (mdist(unit.cell, g.origin, cols) * 4096 + hp_before) * MAX_UNITS + u
            i = nd
            while i > 0 and keys[i - 1] > key:
                keys[i] = keys[i - 1]
                dying[i] = dying[i - 1]
                i -= 1
            keys[i] = key
            dying[i] = u
            nd += 1
    actor = g.sides[g.to_act]
    for i in range(nd):
        u = dying[i]
        unit = g.units[u]
        t = unit.type
        owner = g.sides[unit.side]
        unit.status = DEAD
        g.board[unit.cell] = 0
        actor.stored_magic += rules.per_kill
        actor.magic_gained += rules.per_kill
        actor.kills += 1
        owner.lost[t] += 1
        card = rules.cards[t]
        for j in range(CARD_SKILLS):
            k = card.skills[j]
            if k >= 0 and rules.skills[k].kind == ON_DEATH:
                owner.stored_magic += rules.skills[k].gain_magic
                owner.magic_gained += rules.skills[k].gain_magic
        if card.leader == 1:
            end_game(g, 1 - unit.side, END_LEADER)
            return
        owner.units_lost += 1
        for k in range(rules.band_count):
            band = rules.bands[k]
            if card.cost >= band.min_cost and card.cost <= band.max_cost:
                draw_cards(g, unit.side, band.cards)
    for q in range(2):
        side = g.sides[q]
        if side.unlocked_alone == 0 and units_on_board(g, q) == 1:
            side.unlocked_alone = 1
            side.cap = rules.unlocked_cap
            draw_cards(g, q, 1)
        if side.unlocked_leader_hp == 0 and hp_left(g, side.leader, rules) <= rules.unlock_leader_hp:
            side.unlocked_leader_hp = 1
            side.cap = rules.unlocked_cap
            draw_cards(g, q, 1)


@njit(cache=True)
def start_turn(g, p):
    """Section 5.1: stored magic becomes active [R23]; the player's units may move and act again; effects
    of the last turn are gone (5.3)."""
    side = g.sides[p]
    side.active_magic += side.stored_magic
    side.stored_magic = 0
    g.to_act = p
    for u in range(g.places):
        unit = g.units[u]
        unit.bonus_dice = 0
        unit.bonus_precision = 0
        unit.bonus_move = 0
        unit.buffed_by = 0
        if unit.side == p:
            unit.moved = 0
            unit.attacked = 0
            unit.skilled = 0
            unit.free_used = 0


@njit(cache=True)
def cmp_frac(a0, b0, a1, b1):
    """Sign of a0/b0 - a1/b1 (by cross-multiplying; b0, b1 > 0)."""
    x = a0 * b1 - a1 * b0
    return 1 if x > 0 else (-1 if x < 0 else 0)


@njit(cache=True)
def army_left(g, p, rules):
    """Gold of the player's bought units still alive (summoned units do not count)."""
    v = 0
    for u in range(g.places):
        unit = g.units[u]
        if unit.side == p and unit.status == ALIVE and unit.summoned == 0:
            v += rules.cards[unit.type].cost
    return v


@njit(cache=True)
def tiebreak(g, rules):
    """Section 1 [R34]: at the turn limit, the larger leader HP fraction wins, then the larger fraction of
    the bought army's gold still alive (summoned units aside), then a draw (``tiebreak`` sets the order)."""
    for i in range(3):
        rule = rules.tiebreak[i]
        if rule == BY_LEADER_HP:
            l0, l1 = g.sides[0].leader, g.sides[1].leader
            h0, h1 = rules.cards[g.units[l0].type].hp, rules.cards[g.units[l1].type].hp
            c = cmp_frac(hp_left(g, l0, rules), h0, hp_left(g, l1, rules), h1)
        elif rule == BY_ARMY_VALUE:
            a0, a1 = army_left(g, 0, rules), army_left(g, 1, rules)
            c = cmp_frac(a0, max(1, g.sides[0].army_value), a1, max(1, g.sides[1].army_value))
        else:
            return DRAW
        if c != 0:
            return 0 if c > 0 else 1
    return DRAW


@njit(cache=True)
def end_turn(g, rules):
    """Section 5.3: this turn's effects end; the next global turn begins, or the turn limit ends the game."""
    if g.turn >= rules.turn_limit:
        end_game(g, tiebreak(g, rules), END_TURN_LIMIT)
        return
    g.turn += 1
    start_turn(g, 1 - g.to_act)


@njit(cache=True)
def settle(g, rules):
    """The turn ends by itself when nothing but ending it is legal (5.2, [R12])."""
    probe = np.zeros((1, 5), np.int64)
    while g.phase == PLAY:
        if legal(g, probe, rules, True) > 1 or probe[0, 0] != END:
            return
        end_turn(g, rules)


@njit(cache=True)
def do_attack(g, a, b, joiners, bearer, rules):
    """Sections 6.2-6.3 and B.1: one attack (or combined attack) on the unit on cell ``b``."""
    p = g.to_act
    nc = ncells(rules)
    u = occ(g, a)
    v = occ(g, b)
    parts = np.zeros(MAX_UNITS, np.int64)
    parts[0] = u
    npart = 1
    for j in range(g.places):  # joiners roll in ascending place order
        if j != u and g.units[j].status == ALIVE and g.units[j].cell >= 0 and (joiners >> g.units[j].cell) & 1:
            parts[npart] = j
            npart += 1
    bear = occ(g, bearer)
    enemy = g.units[v].side != p
    mod = aura(g, v, ATTACK_MODIFIER, rules) if enemy else 0
    red = aura(g, v, DAMAGE_REDUCTION, rules) if enemy else 0
    thr = np.zeros(MAX_UNITS, np.int64)
    hits = 0
    for i in range(npart):
        w = parts[i]
        dice = attack_dice(g, w, rules) - (mod if w == bear else 0)
        thr[i] = threshold(g, w, rules)
        h = roll(g, w, dice if dice > 0 else 0, thr[i], rules)
        hits += h
        if enemy:
            count_hits(g, w, h)
    damage(g, v, dealt(hits, red), rules)
    # splash (B.1 primitive 9): each splashing participant in roll order, its targets by ascending cell
    for i in range(npart):
        w = parts[i]
        card = rules.cards[g.units[w].type]
        q = g.units[w].side
        for j in range(CARD_SKILLS):
            k = card.skills[j]
            if k < 0 or rules.skills[k].kind != SPLASH:
                continue
            skill = rules.skills[k]
            for cell in range(nc):
                x = occ(g, cell)
                if x < 0 or g.units[x].side == q or immune(g, x, rules):
                    continue
                if not in_ring(skill, cell, b, rules.cols):
                    continue
                h = roll(g, w, skill.dice, thr[i], rules)
                count_hits(g, w, h)
                damage(g, x, h, rules)
    for i in range(npart):
        g.units[parts[i]].moved = 1
        g.units[parts[i]].attacked = 1
    if npart > 1:
        g.sides[p].combined += 1


@njit(cache=True)
def summon_place(g):
    """Section 8.2: the place a summoned unit takes: the next unused place, or once every place has been
    taken the first dead unit's (one exists: fewer units are alive than places, see ``state.MAX_UNITS``)."""
    if g.places < MAX_UNITS:
        g.places += 1
        return g.places - 1
    for w in range(MAX_UNITS):
        if g.units[w].status == DEAD:
            return w
    return -1


@njit(cache=True)
def do_skill(g, a, b, cards, rules):
    """B.1 primitives 6-8 (heal, free_active, summon): pay the magic (cards first), apply, mark the slot used."""
    p = g.to_act
    u = occ(g, a)
    source = g.units[u]
    t = source.type
    skill = rules.skills[rules.cards[t].active]
    side = g.sides[p]
    m = skill.magic
    side.held -= cards
    side.cards_used += cards
    side.active_magic -= m - cards
    side.magic_spent += m - cards
    side.skills_used += 1
    if rules.cards[t].leader == 1:
        source.skilled = 1
        source.moved = 1             # the leader's move comes first [R13]
    elif skill.kind == FREE_ACTIVE:
        source.free_used = 1         # free: uses nothing, may come before the move [R37]
    else:
        source.attacked = 1          # an active skill uses the attack (7.2)
        source.moved = 1
    if skill.kind == HEAL:
        target = g.units[occ(g, b)]
        h = skill.amount
        target.markers = target.markers - h if target.markers > h else 0
    elif skill.kind == SUMMON:
        w = summon_place(g)
        new = g.units[w]
        new.type = skill.unit
        new.side = p
        new.markers = 0
        new.moved = 0
        new.attacked = 0
        new.skilled = 0
        new.free_used = 0
        new.bonus_dice = 0
        new.bonus_precision = 0
        new.bonus_move = 0
        new.buffed_by = 0
        new.summoned = 1
        place_unit(g, w, b)
        if rules.summoned_can_act == 0:
            new.moved = 1
            new.attacked = 1
        side.summons += 1
    else:
        target = g.units[occ(g, b)]
        damage(g, u, skill.self_damage, rules)
        target.bonus_dice += skill.dice
        target.bonus_precision += skill.precision
        target.bonus_move += skill.move
        target.buffed_by |= np.int64(1) << t


@njit(cache=True)
def step(g, kind, a, b, c, d, rules):
    """Apply the legal action ``(kind, a, b, c, d)`` (check it first with :func:`check`), then resolve
    deaths and unlocks and end the turn if nothing else is legal."""
    p = g.to_act
    g.actions += 1
    if kind == PLACE:
        u = unplaced_of_type(g, p, a)
        place_unit(g, u, b)
        g.sides[p].to_place -= 1
        if g.sides[p].to_place == 0:
            if p == 0:
                g.to_act = 1
            else:
                g.phase = PLAY
                g.turn = 1
                start_turn(g, 0)
                settle(g, rules)
        return
    if kind == END:
        end_turn(g, rules)
        settle(g, rules)
        return
    pre = np.zeros(MAX_UNITS, np.int64)
    for u in range(g.places):
        pre[u] = g.units[u].markers
    g.origin = a
    if kind == MOVE:
        u = occ(g, a)
        relocate(g, u, b)
        g.units[u].moved = 1
    elif kind == ATTACK:
        do_attack(g, a, b, c, d, rules)
    elif kind == SKILL:
        do_skill(g, a, b, c, rules)
    resolve(g, pre, rules)
    settle(g, rules)
