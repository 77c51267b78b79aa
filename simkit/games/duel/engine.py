"""The Card Duel's rules, once: plain functions over one game's state, compiled by numba.

Every rule of ``shared/rules/card-duel.md`` lives here and only here. The same functions run
compiled in sweeps (:mod:`simkit.games.duel.batch`), behind the single-game facade
(:mod:`simkit.games.duel.match`) and, with ``NUMBA_DISABLE_JIT=1``, as plain Python (a test plays
games both ways and finds them equal).

The state of one game is a flat ``int64[STATE_SIZE]`` array (a batch is ``int64[B, STATE_SIZE]``,
one row per game). Layout: the globals ``G_*``, then one block of ``PB`` values per player at
``NG + p * PB``: scalars ``P_*`` and per-card arrays ``A_*`` of ``MAX_DECK`` slots, slot ``i`` being
the ``i``-th card of the player's deck list (:func:`simkit.games.duel.tables.deck_list`).

The rules reach the engine as the three arrays of :class:`~simkit.games.duel.tables.Rules`:
``st`` (settings), ``cd`` (card table) and ``ef`` (effects).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.duel.tables import (
    F_AP,
    F_CHARGE,
    F_COOLDOWN,
    F_MANA,
    F_MAX_D,
    F_MIN_D,
    F_PICK,
    F_PICK_MAX,
    F_PICK_MIN,
    F_RANGE,
    F_REMOVE,
    F_TRIGGER,
    F_TYPE,
    MAX_DECK,
    OP_DAMAGE,
    OP_MOVE,
    OP_STATUS,
    POISON,
    REGENERATION,
    S_AP,
    S_CHARGE_RESETS,
    S_FIRST_DRAW,
    S_HAND_LIMIT,
    S_HP,
    S_LIMIT_BY_HP,
    S_MANA,
    S_MAX_DIST,
    S_MAX_HP,
    S_SECOND_DRAW,
    S_START_DIST,
    S_STRENGTH_OWN_POISON,
    S_TURN_DRAW,
    S_TURN_LIMIT,
    SHIELD,
    SLOT_ATTACK,
    SLOT_TURN_START,
    SLOT_USE,
    SLOW,
    STRENGTH,
    T_ACTION,
    T_ACTION_MAGIC,
    T_ATTACHMENT,
    T_COUNTER,
    T_MAGIC,
    T_PERSISTENT,
    T_WEAPON,
    TGT_SELF,
    TR_DAMAGED_BY_OPPONENT,
)
from simkit.games.kits.mix import mix64

M = MAX_DECK

# ---- globals -------------------------------------------------------------------------------------
G_TURN = 0      # turn number, 1.. (seat 0 plays the odd turns)
G_CUR = 1       # seat whose turn it is
G_PHASE = 2     # PH_PLAY, PH_DISCARD or PH_OVER
G_DIST = 3      # the shared distance, 0..max_distance
G_WINNER = 4    # -1 none yet, 0 / 1 the winning seat, 2 draw
G_REASON = 5    # END_NONE, END_HP_ZERO or END_TURN_LIMIT
G_STAMP = 6     # counter giving every card put into an equipment or trap zone its order
G_SEED = 7      # the shuffle stream's seed (63-bit); 0 in a bot's view
G_CTR = 8       # draws taken from the shuffle stream; 0 in a bot's view
G_VIEW = 9      # -1: the whole state; 0 / 1: the view of that seat (hidden parts scrubbed)
G_N = 10        # cards per deck (slots 0..G_N-1 are used)
NG = 12

# ---- per player: scalars -------------------------------------------------------------------------
P_HP = 0
P_AP = 1
P_MANA = 2
P_OWN = 3       # own turns started so far (1 during the first own turn)
P_MOVED = 4     # advanced or retreated this turn
P_WUSED = 5     # used a weapon this turn
P_ATTACHED = 6  # used an attachment card this turn
P_SET = 7       # set a counter card this turn
P_ST = 8        # statuses P_ST + POISON .. P_ST + STRENGTH (levels >= 0)
P_NHAND = 13    # number of cards per zone (kept in the view, where the cards themselves may be hidden)
P_NSRC = 14
P_NDISC = 15
P_NTRAP = 16
P_NEQUIP = 17
P_NREMOVED = 18
# ---- per player: arrays of M slots ----------------------------------------------------------------
A_CARD = 20            # card id of slot i (-1 in a view where the card is hidden)
A_ZONE = A_CARD + M    # Z_*
A_STAMP = A_CARD + 2 * M  # order put into the equipment / trap zone
A_CHARGE = A_CARD + 3 * M  # weapon: stored Charge
A_READY = A_CARD + 4 * M   # weapon: usable when P_OWN >= this (Cooldown)
A_EQTURN = A_CARD + 5 * M  # weapon: turn it was equipped
A_ATT = A_CARD + 6 * M     # attachment: slot of the weapon it is on (-1 otherwise)
A_SRC = A_CARD + 7 * M     # source pile as a stack of slots, top = A_SRC + P_NSRC - 1
A_DISC = A_CARD + 8 * M    # discard pile as a stack of slots, top = A_DISC + P_NDISC - 1
PB = A_CARD + 9 * M
RULES_SIZE = NG + 2 * PB  # what the rules and the bots read; the counters follow
# ---- counters (after both players' blocks, so a bot's copies of a state leave them out) -------------------
T_PLAYED = RULES_SIZE      # + 2 * p * M + i: times seat p's slot i was played, attached or set (a weapon: used)
T_DEALT = RULES_SIZE + M   # + 2 * p * M + i: HP the opponent lost to its effects (the first slot holding the card)
STATE_SIZE = RULES_SIZE + 4 * M

# zones
Z_SRC, Z_HAND, Z_DISC, Z_EQUIP, Z_TRAP, Z_REMOVED, Z_HIDDEN, Z_NONE = range(8)
ZONES = ("source", "hand", "discard", "equipment", "trap", "removed", "hidden", "none")
# phases
PH_PLAY, PH_DISCARD, PH_OVER = range(3)
# end reasons
END_NONE, END_HP_ZERO, END_TURN_LIMIT = range(3)
DRAW = 2

# actions (kind, x, y)
K_PLAY = 0      # x card id in hand (action, magic, action_magic, persistent), y the [a, b] pick (0 if none)
K_EQUIP = 1     # x weapon card id in hand
K_ATTACH = 2    # x attachment card id in hand, y slot of an own equipped weapon
K_SET = 3       # x counter card id in hand
K_USE = 4       # x slot of an own equipped weapon
K_ADVANCE = 5
K_RETREAT = 6
K_END_PLAY = 7
K_DISCARD = 8   # x card id in hand (discard phase)
K_END_TURN = 9  # ends the discard phase and the turn
KINDS = ("play", "equip", "attach", "set", "use", "advance", "retreat", "end_play", "discard", "end_turn")

# why an action is illegal (0: it is legal)
REASONS = (
    "legal",
    "the game is over",
    "not in the play phase",
    "not in the discard phase",
    "no such card in hand",
    "that card's type is not used this way",
    "not enough action points",
    "not enough mana",
    "the distance does not meet the card's requirement",
    "the value is outside the card's [a, b]",
    "the distance would leave 0..max_distance",
    "an attachment card was already used this turn",
    "not an own equipped weapon",
    "a counter card was already set this turn",
    "a weapon was already used this turn",
    "the weapon was equipped this turn",
    "the weapon is cooling down",
    "already advanced or retreated this turn",
    "the distance is already at its limit",
    "the hand is over the limit: discard first",
    "unknown action",
    "the card takes no value",
)
(R_OK, R_OVER, R_NOT_PLAY, R_NOT_DISCARD, R_NOT_IN_HAND, R_WRONG_TYPE, R_AP, R_MANA, R_DISTANCE, R_PICK,
 R_PICK_RANGE, R_ATTACH_USED, R_NO_WEAPON, R_SET_USED, R_WEAPON_USED, R_NEW_WEAPON, R_COOLING, R_MOVED, R_EDGE,
 R_HAND_LIMIT, R_BAD_KIND, R_NO_PICK) = range(22)

MAX_LEGAL = 512
MAX_FRAMES = 4 * M + 8

# ---- the random stream: simkit.core.rng.GameStreams' formula, one word at a time ----------------------
_S11 = np.uint64(11)


@njit(cache=True)
def stream_bits(seed, counter):
    """Word number ``counter`` of the stream of ``seed``: ``GameStreams([seed]).bits`` bit for bit."""
    return mix64(mix64(np.uint64(seed)) ^ mix64(np.uint64(counter)))


@njit(cache=True)
def below(seed, counter, n):
    """An integer in ``0..n-1`` from word ``counter`` of the stream of ``seed``."""
    return np.int64(stream_bits(seed, counter) % np.uint64(n))


# ---- small helpers --------------------------------------------------------------------------------


@njit(cache=True)
def base(p):
    """Offset of seat ``p``'s block."""
    return NG + p * PB


@njit(cache=True)
def hand_slot(s, p, card):
    """Lowest slot of ``card`` in ``p``'s hand, or -1 (copies in a hand are interchangeable)."""
    b = base(p)
    for i in range(s[G_N]):
        if s[b + A_ZONE + i] == Z_HAND and s[b + A_CARD + i] == card:
            return i
    return -1


@njit(cache=True)
def _count_field(zone):
    if zone == Z_SRC:
        return P_NSRC
    if zone == Z_HAND:
        return P_NHAND
    if zone == Z_DISC:
        return P_NDISC
    if zone == Z_EQUIP:
        return P_NEQUIP
    if zone == Z_TRAP:
        return P_NTRAP
    return P_NREMOVED


@njit(cache=True)
def move(s, p, i, zone):
    """Move ``p``'s card in slot ``i`` out of hand / equipment / trap zone into ``zone`` (the discard
    pile as its new top). Cards leave the source pile only by a draw and the discard pile only by a
    reshuffle, both handled where they happen."""
    b = base(p)
    s[b + _count_field(s[b + A_ZONE + i])] -= 1
    s[b + A_ZONE + i] = zone
    s[b + _count_field(zone)] += 1
    if zone == Z_DISC:
        s[b + A_DISC + s[b + P_NDISC] - 1] = i
    if zone == Z_EQUIP or zone == Z_TRAP:
        s[G_STAMP] += 1
        s[b + A_STAMP + i] = s[G_STAMP]


@njit(cache=True)
def shuffle_discard_into_source(s, p):
    """The whole discard pile, shuffled with the game's stream, becomes the source pile."""
    b = base(p)
    n = s[b + P_NDISC]
    for k in range(n):
        s[b + A_SRC + k] = s[b + A_DISC + k]
        s[b + A_ZONE + s[b + A_DISC + k]] = Z_SRC
        s[b + A_DISC + k] = -1
    for k in range(n - 1, 0, -1):
        j = below(s[G_SEED], s[G_CTR], k + 1)
        s[G_CTR] += 1
        t = s[b + A_SRC + k]
        s[b + A_SRC + k] = s[b + A_SRC + j]
        s[b + A_SRC + j] = t
    s[b + P_NSRC] = n
    s[b + P_NDISC] = 0


@njit(cache=True)
def draw(s, p, n):
    """Draw ``n`` cards; an empty source pile takes in the shuffled discard pile first ([ruling]
    checked when a card must be drawn); both empty: that draw does nothing."""
    b = base(p)
    for _ in range(n):
        if s[b + P_NSRC] == 0:
            if s[b + P_NDISC] == 0:
                continue
            shuffle_discard_into_source(s, p)
        s[b + P_NSRC] -= 1
        i = s[b + A_SRC + s[b + P_NSRC]]
        s[b + A_SRC + s[b + P_NSRC]] = -1
        s[b + A_ZONE + i] = Z_HAND
        s[b + P_NHAND] += 1


@njit(cache=True)
def end_game(s, winner, reason):
    """The game ends now; nothing further resolves."""
    s[G_PHASE] = PH_OVER
    s[G_WINNER] = winner
    s[G_REASON] = reason


# ---- damage and effects -----------------------------------------------------------------------------


@njit(cache=True)
def deal(s, src, tgt, n, void, piercing, poison_tick, st):
    """One damage instance (section 1, steps 1-4); returns the HP ``tgt`` lost."""
    amount = n
    if not poison_tick or st[S_STRENGTH_OWN_POISON]:
        amount += s[base(src) + P_ST + STRENGTH]
    bt = base(tgt)
    k = s[bt + P_ST + SHIELD]
    if not piercing and k > 0:
        a = min(k, amount)
        s[bt + P_ST + SHIELD] = k - a
        amount -= a
    s[bt + P_HP] -= amount
    if s[bt + P_HP] <= 0:
        end_game(s, 1 - tgt, END_HP_ZERO)
    return amount


@njit(cache=True)
def credit(s, p, card, lost):
    """Count ``lost`` HP dealt by ``card`` of seat ``p`` to the first slot of ``p``'s deck holding it."""
    b = base(p)
    for i in range(s[G_N]):
        if s[b + A_CARD + i] == card:
            s[T_DEALT + 2 * p * M + i] += lost
            return


@njit(cache=True)
def push_triggers(s, src, tgt, lost, void, frames, nf, cd):
    """Step 5: ``tgt``'s counter cards whose condition this instance met leave the trap zone for the
    discard pile at once (so no later event can trigger them again) and their effects are queued,
    the oldest set on top of the stack (it resolves first)."""
    if lost < 1 or void or src != 1 - tgt:
        return nf
    b = base(tgt)
    n = s[G_N]
    order = np.empty(n, np.int64)
    m = 0
    for i in range(n):
        if s[b + A_ZONE + i] == Z_TRAP and cd[s[b + A_CARD + i], F_TRIGGER] == TR_DAMAGED_BY_OPPONENT:
            order[m] = i
            m += 1
    # sort the met traps by the order they were set (insertion sort: a handful at most)
    for a in range(1, m):
        x = order[a]
        c = a - 1
        while c >= 0 and s[b + A_STAMP + order[c]] > s[b + A_STAMP + x]:
            order[c + 1] = order[c]
            c -= 1
        order[c + 1] = x
    for a in range(m):
        move(s, tgt, order[a], Z_DISC)  # the oldest triggers first, so it is discarded first
    for a in range(m - 1, -1, -1):
        i = order[a]
        frames[nf, 0] = tgt
        frames[nf, 1] = s[b + A_CARD + i]
        frames[nf, 2] = SLOT_USE
        frames[nf, 3] = 0
        frames[nf, 4] = 0
        nf += 1
    return nf


@njit(cache=True)
def run(s, frames, nf, st, cd, ef):
    """Resolve the stack of effect lists ``frames[:nf]`` (rows: owner, card, slot, next effect,
    pick), the top first; a triggered counter's list goes on top and so resolves at once, before
    the rest of the list that triggered it. Stops when the game ends."""
    width = ef.shape[2]
    while nf > 0 and s[G_PHASE] != PH_OVER:
        top = nf - 1
        owner, card, slot, k = frames[top, 0], frames[top, 1], frames[top, 2], frames[top, 3]
        if k >= width or ef[card, slot, k, 0] == 0:
            nf -= 1
            continue
        frames[top, 3] = k + 1
        op, a, bb, c, d = ef[card, slot, k, 0], ef[card, slot, k, 1], ef[card, slot, k, 2], ef[card, slot, k, 3], \
            ef[card, slot, k, 4]
        target = owner if d == TGT_SELF else 1 - owner
        if op == OP_DAMAGE:
            lost = deal(s, owner, target, a, bb, c, False, st)
            if target != owner and lost > 0:
                credit(s, owner, card, lost)
            if s[G_PHASE] != PH_OVER:
                nf = push_triggers(s, owner, target, lost, bb, frames, nf, cd)
        elif op == OP_STATUS:
            s[base(target) + P_ST + a] += bb
        elif op == OP_MOVE:
            s[G_DIST] = min(max(s[G_DIST] + frames[top, 4], 0), st[S_MAX_DIST])
    return nf


@njit(cache=True)
def run_one(s, owner, card, slot, pick, st, cd, ef):
    """Resolve one card's effect list ``slot`` (and whatever it triggers)."""
    frames = np.zeros((MAX_FRAMES, 5), np.int64)
    frames[0, 0], frames[0, 1], frames[0, 2], frames[0, 4] = owner, card, slot, pick
    run(s, frames, 1, st, cd, ef)


# ---- turns --------------------------------------------------------------------------------------------


@njit(cache=True)
def start_turn(s, p, st, cd, ef):
    """Section 7.1: resources, persistent magic (equip order), Poison, Slow, Regeneration, draw."""
    b = base(p)
    s[G_CUR] = p
    s[G_PHASE] = PH_PLAY
    s[b + P_OWN] += 1
    s[b + P_AP] = st[S_AP]
    s[b + P_MANA] = st[S_MANA]
    s[b + P_MOVED] = 0
    s[b + P_WUSED] = 0
    s[b + P_ATTACHED] = 0
    s[b + P_SET] = 0
    n = s[G_N]
    # persistent magic, in the order the cards were equipped
    frames = np.zeros((MAX_FRAMES, 5), np.int64)
    order = np.empty(n, np.int64)
    m = 0
    for i in range(n):
        if s[b + A_ZONE + i] == Z_EQUIP and cd[s[b + A_CARD + i], F_TYPE] == T_PERSISTENT:
            order[m] = i
            m += 1
    for a in range(1, m):
        x = order[a]
        c = a - 1
        while c >= 0 and s[b + A_STAMP + order[c]] > s[b + A_STAMP + x]:
            order[c + 1] = order[c]
            c -= 1
        order[c + 1] = x
    for a in range(m):
        frames[0, 0], frames[0, 1], frames[0, 2], frames[0, 3] = p, s[b + A_CARD + order[a]], SLOT_TURN_START, 0
        run(s, frames, 1, st, cd, ef)
        if s[G_PHASE] == PH_OVER:
            return
    # Poison: ceil(L/2) piercing damage from oneself
    level = s[b + P_ST + POISON]
    if level > 0:
        k = (level + 1) // 2
        s[b + P_ST + POISON] = level - k
        lost = deal(s, p, p, k, False, True, True, st)
        if s[G_PHASE] == PH_OVER:
            return
        nf = push_triggers(s, p, p, lost, False, frames, 0, cd)
        run(s, frames, nf, st, cd, ef)
        if s[G_PHASE] == PH_OVER:
            return
    # Slow: one card fewer
    slowed = 0
    if s[b + P_ST + SLOW] > 0:
        slowed = 1
        s[b + P_ST + SLOW] -= 1
    # Regeneration: heal ceil(L/2), capped at max HP
    level = s[b + P_ST + REGENERATION]
    if level > 0:
        k = (level + 1) // 2
        s[b + P_ST + REGENERATION] = level - k
        s[b + P_HP] = min(st[S_MAX_HP], s[b + P_HP] + k)
    draw(s, p, max(0, st[S_TURN_DRAW] - slowed))


@njit(cache=True)
def setup(s, deck0, deck1, seed, st, cd, ef):
    """A new game in ``s``: decks shuffled into the source piles, 4 and 5 cards drawn, turn 1 begun.

    Args:
        deck0, deck1: ``int64[n]`` card ids of each seat's deck (its deck list).
        seed: the shuffle stream's seed (63-bit, non-negative).
    """
    s[:] = 0
    n = deck0.shape[0]
    s[G_N] = n
    s[G_DIST] = st[S_START_DIST]
    s[G_WINNER] = -1
    s[G_SEED] = seed
    s[G_VIEW] = -1
    for p in range(2):
        b = base(p)
        deck = deck0 if p == 0 else deck1
        s[b + P_HP] = st[S_HP]
        for i in range(M):
            s[b + A_ATT + i] = -1
            s[b + A_SRC + i] = -1
            s[b + A_DISC + i] = -1
            if i < n:
                s[b + A_CARD + i] = deck[i]
                s[b + A_ZONE + i] = Z_DISC
                s[b + A_DISC + i] = i
            else:
                s[b + A_CARD + i] = -1
                s[b + A_ZONE + i] = Z_NONE
        s[b + P_NDISC] = n
        shuffle_discard_into_source(s, p)
    draw(s, 0, st[S_FIRST_DRAW])
    draw(s, 1, st[S_SECOND_DRAW])
    s[G_TURN] = 1
    start_turn(s, 0, st, cd, ef)


# ---- legality and steps ---------------------------------------------------------------------------------


@njit(cache=True)
def check(s, kind, x, y, st, cd):
    """Why the action ``(kind, x, y)`` is illegal for the seat to act (``R_*``), or ``R_OK``."""
    if s[G_PHASE] == PH_OVER:
        return R_OVER
    p = s[G_CUR]
    b = base(p)
    dist = s[G_DIST]
    if kind == K_DISCARD or kind == K_END_TURN:
        if s[G_PHASE] != PH_DISCARD:
            return R_NOT_DISCARD
        if kind == K_END_TURN:
            return R_HAND_LIMIT if s[b + P_NHAND] > st[S_HAND_LIMIT] else R_OK
        if x < 0 or x >= cd.shape[0] or hand_slot(s, p, x) < 0:
            return R_NOT_IN_HAND
        return R_OK
    if kind < 0 or kind > K_END_PLAY:
        return R_BAD_KIND
    if s[G_PHASE] != PH_PLAY:
        return R_NOT_PLAY
    if kind == K_END_PLAY:
        return R_OK
    if kind == K_ADVANCE or kind == K_RETREAT:
        if s[b + P_MOVED]:
            return R_MOVED
        if (kind == K_ADVANCE and dist <= 0) or (kind == K_RETREAT and dist >= st[S_MAX_DIST]):
            return R_EDGE
        return R_OK
    if kind == K_USE:
        if x < 0 or x >= s[G_N] or s[b + A_ZONE + x] != Z_EQUIP or cd[s[b + A_CARD + x], F_TYPE] != T_WEAPON:
            return R_NO_WEAPON
        if s[b + P_WUSED]:
            return R_WEAPON_USED
        if s[b + A_EQTURN + x] >= s[G_TURN]:
            return R_NEW_WEAPON
        if s[b + P_OWN] < s[b + A_READY + x]:
            return R_COOLING
        return R_OK
    # a card from hand
    if x < 0 or x >= cd.shape[0] or hand_slot(s, p, x) < 0:
        return R_NOT_IN_HAND
    t = cd[x, F_TYPE]
    if kind == K_PLAY:
        if t != T_ACTION and t != T_MAGIC and t != T_ACTION_MAGIC and t != T_PERSISTENT:
            return R_WRONG_TYPE
    elif kind == K_EQUIP:
        if t != T_WEAPON:
            return R_WRONG_TYPE
        return R_OK
    elif kind == K_ATTACH:
        if t != T_ATTACHMENT:
            return R_WRONG_TYPE
        if s[b + P_ATTACHED]:
            return R_ATTACH_USED
        if y < 0 or y >= s[G_N] or s[b + A_ZONE + y] != Z_EQUIP or cd[s[b + A_CARD + y], F_TYPE] != T_WEAPON:
            return R_NO_WEAPON
    elif kind == K_SET:
        if t != T_COUNTER:
            return R_WRONG_TYPE
        if s[b + P_SET]:
            return R_SET_USED
        return R_OK
    if s[b + P_AP] < cd[x, F_AP]:
        return R_AP
    if s[b + P_MANA] < cd[x, F_MANA]:
        return R_MANA
    if kind == K_PLAY:
        if dist < cd[x, F_MIN_D] or dist > cd[x, F_MAX_D]:
            return R_DISTANCE
        if cd[x, F_PICK]:
            if y < cd[x, F_PICK_MIN] or y > cd[x, F_PICK_MAX]:
                return R_PICK
            if dist + y < 0 or dist + y > st[S_MAX_DIST]:
                return R_PICK_RANGE
        elif y != 0:
            return R_NO_PICK
    return R_OK


@njit(cache=True)
def legal(s, out, st, cd):
    """Fill ``out[:n, :3]`` with every legal action of the seat to act, in a fixed order; return n.

    Copies in a hand are interchangeable, so a card is named by its id, once."""
    if s[G_PHASE] == PH_OVER:
        return 0
    p = s[G_CUR]
    b = base(p)
    n = 0
    seen = np.zeros(cd.shape[0], np.bool_)
    if s[G_PHASE] == PH_DISCARD:
        for i in range(s[G_N]):
            c = s[b + A_CARD + i]
            if s[b + A_ZONE + i] == Z_HAND and not seen[c]:
                seen[c] = True
                out[n, 0], out[n, 1], out[n, 2] = K_DISCARD, c, 0
                n += 1
        if check(s, K_END_TURN, 0, 0, st, cd) == R_OK:
            out[n, 0], out[n, 1], out[n, 2] = K_END_TURN, 0, 0
            n += 1
        return n
    for i in range(s[G_N]):
        c = s[b + A_CARD + i]
        if s[b + A_ZONE + i] != Z_HAND or seen[c]:
            continue
        seen[c] = True
        t = cd[c, F_TYPE]
        if t == T_WEAPON:
            out[n, 0], out[n, 1], out[n, 2] = K_EQUIP, c, 0
            n += 1
        elif t == T_COUNTER:
            if check(s, K_SET, c, 0, st, cd) == R_OK:
                out[n, 0], out[n, 1], out[n, 2] = K_SET, c, 0
                n += 1
        elif t == T_ATTACHMENT:
            for w in range(s[G_N]):
                if check(s, K_ATTACH, c, w, st, cd) == R_OK:
                    out[n, 0], out[n, 1], out[n, 2] = K_ATTACH, c, w
                    n += 1
        elif cd[c, F_PICK]:
            for v in range(cd[c, F_PICK_MIN], cd[c, F_PICK_MAX] + 1):
                if check(s, K_PLAY, c, v, st, cd) == R_OK:
                    out[n, 0], out[n, 1], out[n, 2] = K_PLAY, c, v
                    n += 1
        elif check(s, K_PLAY, c, 0, st, cd) == R_OK:
            out[n, 0], out[n, 1], out[n, 2] = K_PLAY, c, 0
            n += 1
    for w in range(s[G_N]):
        if s[b + A_ZONE + w] == Z_EQUIP and check(s, K_USE, w, 0, st, cd) == R_OK:
            out[n, 0], out[n, 1], out[n, 2] = K_USE, w, 0
            n += 1
    for k in (K_ADVANCE, K_RETREAT):
        if check(s, k, 0, 0, st, cd) == R_OK:
            out[n, 0], out[n, 1], out[n, 2] = k, 0, 0
            n += 1
    out[n, 0], out[n, 1], out[n, 2] = K_END_PLAY, 0, 0
    return n + 1


@njit(cache=True)
def use_weapon(s, p, w, st, cd, ef):
    """Section 5.4: Charge decides whether the use may fire; in range it fires (with its
    attachments, in attach order); then the Cooldown starts. A use counts even when nothing fires."""
    b = base(p)
    s[b + P_WUSED] = 1
    s[T_PLAYED + 2 * p * M + w] += 1
    c = s[b + A_CARD + w]
    charge = cd[c, F_CHARGE]
    fires = False
    in_range = cd[c, F_RANGE] >= s[G_DIST]
    if s[b + A_CHARGE + w] < charge:
        s[b + A_CHARGE + w] += 1          # only charges, even in range
    elif in_range:
        fires = True
        if st[S_CHARGE_RESETS]:
            s[b + A_CHARGE + w] = 0
    # out of range with full charge: nothing happens and the charge is kept
    if fires:
        frames = np.zeros((MAX_FRAMES, 5), np.int64)
        # the weapon's attack effect first, then its attachments in the order attached (stack: reversed)
        n = s[G_N]
        order = np.empty(n, np.int64)
        m = 0
        for i in range(n):
            if s[b + A_ZONE + i] == Z_EQUIP and s[b + A_ATT + i] == w:
                order[m] = i
                m += 1
        for a in range(1, m):
            x = order[a]
            k = a - 1
            while k >= 0 and s[b + A_STAMP + order[k]] > s[b + A_STAMP + x]:
                order[k + 1] = order[k]
                k -= 1
            order[k + 1] = x
        nf = 0
        for a in range(m - 1, -1, -1):
            frames[nf, 0], frames[nf, 1], frames[nf, 2], frames[nf, 3] = p, s[b + A_CARD + order[a]], SLOT_ATTACK, 0
            nf += 1
        frames[nf, 0], frames[nf, 1], frames[nf, 2], frames[nf, 3] = p, c, SLOT_ATTACK, 0
        run(s, frames, nf + 1, st, cd, ef)
    if cd[c, F_COOLDOWN] > 0:
        s[b + A_READY + w] = s[b + P_OWN] + cd[c, F_COOLDOWN] + 1


@njit(cache=True)
def step(s, kind, x, y, st, cd, ef):
    """Apply the legal action ``(kind, x, y)`` of the seat to act (check it first with :func:`check`)."""
    p = s[G_CUR]
    b = base(p)
    if kind == K_PLAY:
        i = hand_slot(s, p, x)
        s[T_PLAYED + 2 * p * M + i] += 1
        s[b + P_AP] -= cd[x, F_AP]
        s[b + P_MANA] -= cd[x, F_MANA]
        if cd[x, F_TYPE] == T_PERSISTENT:
            move(s, p, i, Z_EQUIP)
        else:
            # the card goes to its destination first, then resolves (no effect of the pool reads the
            # piles, and the card is never in two places if the game ends mid-effect)
            move(s, p, i, Z_REMOVED if cd[x, F_REMOVE] else Z_DISC)
            run_one(s, p, x, SLOT_USE, y, st, cd, ef)
    elif kind == K_EQUIP:
        i = hand_slot(s, p, x)
        move(s, p, i, Z_EQUIP)
        s[b + A_EQTURN + i] = s[G_TURN]
        s[b + A_CHARGE + i] = 0
        s[b + A_READY + i] = 0
    elif kind == K_ATTACH:
        i = hand_slot(s, p, x)
        s[T_PLAYED + 2 * p * M + i] += 1
        s[b + P_AP] -= cd[x, F_AP]
        s[b + P_MANA] -= cd[x, F_MANA]
        s[b + P_ATTACHED] = 1
        move(s, p, i, Z_EQUIP)
        s[b + A_ATT + i] = y
    elif kind == K_SET:
        i = hand_slot(s, p, x)
        s[T_PLAYED + 2 * p * M + i] += 1
        s[b + P_SET] = 1
        move(s, p, i, Z_TRAP)
    elif kind == K_USE:
        use_weapon(s, p, x, st, cd, ef)
    elif kind == K_ADVANCE:
        s[G_DIST] -= 1
        s[b + P_MOVED] = 1
    elif kind == K_RETREAT:
        s[G_DIST] += 1
        s[b + P_MOVED] = 1
    elif kind == K_END_PLAY:
        s[G_PHASE] = PH_DISCARD
    elif kind == K_DISCARD:
        move(s, p, hand_slot(s, p, x), Z_DISC)
    elif kind == K_END_TURN:
        if s[G_TURN] >= st[S_TURN_LIMIT]:
            winner = DRAW
            if st[S_LIMIT_BY_HP]:
                h0, h1 = s[base(0) + P_HP], s[base(1) + P_HP]
                winner = 0 if h0 > h1 else (1 if h1 > h0 else DRAW)
            end_game(s, winner, END_TURN_LIMIT)
        else:
            s[G_TURN] += 1
            start_turn(s, 1 - p, st, cd, ef)


@njit(cache=True)
def write_tally(s, out):
    """Copy the counters of ``s`` into ``out`` (``int64[4 * MAX_DECK]``): seat 0's played and dealt slots, then
    seat 1's (``T_PLAYED``, ``T_DEALT``; what :mod:`simkit.games.duel.batch` turns into counter columns)."""
    for k in range(4 * M):
        out[k] = s[RULES_SIZE + k]


# ---- the view of one seat (section 12) ----------------------------------------------------------------


@njit(cache=True)
def make_view(s, p, v):
    """Write into ``v`` what seat ``p`` may see of ``s``: every hidden card (both source piles, the
    opponent's hand, discard pile and trap zone) becomes ``Z_HIDDEN`` with card -1 and no order,
    only the zone sizes are kept, and the shuffle stream is blanked. Bots read nothing else; the counters
    (after ``RULES_SIZE``) are not copied: a view's stay as they were."""
    v[:RULES_SIZE] = s[:RULES_SIZE]
    v[G_VIEW] = p
    v[G_SEED] = 0
    v[G_CTR] = 0
    n = s[G_N]
    for q in range(2):
        b = base(q)
        for i in range(n):
            z = s[b + A_ZONE + i]
            if z == Z_SRC or (q != p and (z == Z_HAND or z == Z_DISC or z == Z_TRAP)):
                v[b + A_CARD + i] = -1
                v[b + A_ZONE + i] = Z_HIDDEN
                v[b + A_STAMP + i] = 0
                v[b + A_CHARGE + i] = 0
                v[b + A_READY + i] = 0
                v[b + A_EQTURN + i] = 0
                v[b + A_ATT + i] = -1
        for k in range(M):
            v[b + A_SRC + k] = -1
            if q != p:
                v[b + A_DISC + k] = -1
