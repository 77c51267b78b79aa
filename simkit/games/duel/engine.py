"""The Card Duel's rules, once: plain functions over one game's state, compiled by numba.

Every rule of ``shared/rules/card-duel.md`` lives here and only here (``docs/duel-changing-a-rule.md``
says where each one is). The same functions run compiled in sweeps (:mod:`simkit.games.duel.batch`),
behind the single-game facade (:mod:`simkit.games.duel.match`) and, with ``NUMBA_DISABLE_JIT=1``, as plain
Python (a test plays games both ways and finds them equal).

A game is one :data:`~simkit.games.duel.state.STATE` record ``s``: ``s.distance``, ``s.players[p].hp``,
``s.players[p].zone[i]`` (slot ``i`` is the ``i``-th card of the player's deck list). The scenario's numbers
come as ``rules`` (a :data:`~simkit.games.duel.state.SETTINGS` record: ``rules.turn_draw``), ``cards`` (a
:data:`~simkit.games.duel.state.CARD` per card id: ``cards[x].range``) and ``effects`` (each card's effect
lists, :data:`~simkit.games.duel.state.EFFECT` records ``effects[card, slot, k]``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from simkit.games.duel.state import (
    DRAW,
    END_HP_ZERO,
    END_TURN_LIMIT,
    FRAME,
    K_ADVANCE,
    K_ATTACH,
    K_DISCARD,
    K_END_PLAY,
    K_END_TURN,
    K_EQUIP,
    K_PLAY,
    K_RETREAT,
    K_SET,
    K_USE,
    MAX_DECK,
    MAX_FRAMES,
    OP_DAMAGE,
    OP_MOVE,
    OP_NONE,
    OP_STATUS,
    PH_DISCARD,
    PH_OVER,
    PH_PLAY,
    POISON,
    R_AP,
    R_ATTACH_USED,
    R_BAD_KIND,
    R_COOLING,
    R_DISTANCE,
    R_EDGE,
    R_HAND_LIMIT,
    R_MANA,
    R_MOVED,
    R_NEW_WEAPON,
    R_NO_PICK,
    R_NO_WEAPON,
    R_NOT_DISCARD,
    R_NOT_IN_HAND,
    R_NOT_PLAY,
    R_OK,
    R_OVER,
    R_PICK,
    R_PICK_RANGE,
    R_SET_USED,
    R_WEAPON_USED,
    R_WRONG_TYPE,
    REGENERATION,
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
    Z_DISC,
    Z_EQUIP,
    Z_HAND,
    Z_HIDDEN,
    Z_NONE,
    Z_REMOVED,
    Z_SRC,
    Z_TRAP,
)
from simkit.games.kits.mix import mix64
from simkit.games.kits.numba_cache import drop_stale_cache
from simkit.games.kits.state import clear, copy

# numba keys its cache on each function's own file, not on the declarations and kernels it takes from the
# others: drop the folder's cache whenever any source of the game or of the kits its kernels use changes
_HERE = Path(__file__).parent
_KITS = _HERE.parent / "kits"
drop_stale_cache(_HERE, [*sorted(_HERE.glob("*.py")),
                         *(_KITS / name for name in ("turn_search.py", "mix.py", "state.py", "experience.py"))])

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


# ---- cards and zones (section 3) ---------------------------------------------------------------------------


@njit(cache=True)
def hand_slot(s, p, card):
    """Lowest slot of ``card`` in ``p``'s hand, or -1 (copies in a hand are interchangeable)."""
    me = s.players[p]
    for i in range(s.deck_size):
        if me.zone[i] == Z_HAND and me.card[i] == card:
            return i
    return -1


@njit(cache=True)
def move(s, p, i, zone):
    """Move ``p``'s card in slot ``i`` out of hand / equipment / trap zone into ``zone`` (the discard
    pile as its new top). Cards leave the source pile only by a draw and the discard pile only by a
    reshuffle, both handled where they happen."""
    me = s.players[p]
    me.counts[me.zone[i]] -= 1
    me.zone[i] = zone
    me.counts[zone] += 1
    if zone == Z_DISC:
        me.discard[me.counts[Z_DISC] - 1] = i
    if zone == Z_EQUIP or zone == Z_TRAP:
        s.stamp += 1
        me.stamp[i] = s.stamp


@njit(cache=True)
def shuffle_discard_into_source(s, p):
    """The whole discard pile, shuffled with the game's stream, becomes the source pile."""
    me = s.players[p]
    n = me.counts[Z_DISC]
    for k in range(n):
        me.source[k] = me.discard[k]
        me.zone[me.discard[k]] = Z_SRC
        me.discard[k] = -1
    for k in range(n - 1, 0, -1):
        j = below(s.shuffle, s.drawn, k + 1)
        s.drawn += 1
        t = me.source[k]
        me.source[k] = me.source[j]
        me.source[j] = t
    me.counts[Z_SRC] = n
    me.counts[Z_DISC] = 0


@njit(cache=True)
def draw(s, p, n):
    """Draw ``n`` cards; an empty source pile takes in the shuffled discard pile first ([ruling]
    checked when a card must be drawn); both empty: that draw does nothing."""
    me = s.players[p]
    for _ in range(n):
        if me.counts[Z_SRC] == 0:
            if me.counts[Z_DISC] == 0:
                continue
            shuffle_discard_into_source(s, p)
        me.counts[Z_SRC] -= 1
        top = me.counts[Z_SRC]
        i = me.source[top]
        me.source[top] = -1
        me.zone[i] = Z_HAND
        me.counts[Z_HAND] += 1


@njit(cache=True)
def end_game(s, winner, reason):
    """The game ends now; nothing further resolves."""
    s.phase = PH_OVER
    s.winner = winner
    s.reason = reason


@njit(cache=True)
def by_stamp(s, p, order, m):
    """Sort the slots ``order[:m]`` of ``p`` by the order they were put into their zone (insertion sort: a
    handful at most)."""
    me = s.players[p]
    for a in range(1, m):
        x = order[a]
        c = a - 1
        while c >= 0 and me.stamp[order[c]] > me.stamp[x]:
            order[c + 1] = order[c]
            c -= 1
        order[c + 1] = x


# ---- damage and effects (sections 1, 5.7, 6, 9) -------------------------------------------------------------


@njit(cache=True)
def deal(s, src, tgt, n, void, piercing, poison_tick, rules):
    """One damage instance (section 1, steps 1-4); returns the HP ``tgt`` lost."""
    amount = n
    if not poison_tick or rules.strength_on_own_poison:
        amount += s.players[src].statuses[STRENGTH]
    them = s.players[tgt]
    k = them.statuses[SHIELD]
    if not piercing and k > 0:
        a = min(k, amount)
        them.statuses[SHIELD] = k - a
        amount -= a
    them.hp -= amount
    if them.hp <= 0:
        end_game(s, 1 - tgt, END_HP_ZERO)
    return amount


@njit(cache=True)
def credit(s, p, card, lost):
    """Count ``lost`` HP dealt by ``card`` of seat ``p`` to the first slot of ``p``'s deck holding it."""
    me = s.players[p]
    for i in range(s.deck_size):
        if me.card[i] == card:
            s.dealt[p, i] += lost
            return


@njit(cache=True)
def push(frames, nf, owner, card, slot, pick):
    """Put the effect list ``slot`` of ``owner``'s ``card`` on top of the stack ``frames[:nf]``; returns the new
    height."""
    f = frames[nf]
    f.owner, f.card, f.slot, f.next, f.pick = owner, card, slot, 0, pick
    return nf + 1


@njit(cache=True)
def push_triggers(s, src, tgt, lost, void, frames, nf, cards):
    """Step 5: ``tgt``'s counter cards whose condition this instance met leave the trap zone for the
    discard pile at once (so no later event can trigger them again) and their effects are queued,
    the oldest set on top of the stack (it resolves first)."""
    if lost < 1 or void or src != 1 - tgt:
        return nf
    them = s.players[tgt]
    n = s.deck_size
    order = np.empty(n, np.int64)
    m = 0
    for i in range(n):
        if them.zone[i] == Z_TRAP and cards[them.card[i]].trigger == TR_DAMAGED_BY_OPPONENT:
            order[m] = i
            m += 1
    by_stamp(s, tgt, order, m)
    for a in range(m):
        move(s, tgt, order[a], Z_DISC)  # the oldest triggers first, so it is discarded first
    for a in range(m - 1, -1, -1):
        nf = push(frames, nf, tgt, them.card[order[a]], SLOT_USE, 0)
    return nf


@njit(cache=True)
def run(s, frames, nf, rules, cards, effects):
    """Resolve the stack of effect lists ``frames[:nf]``, the top first; a triggered counter's list goes on
    top and so resolves at once, before the rest of the list that triggered it. Stops when the game ends."""
    width = effects.shape[2]
    while nf > 0 and s.phase != PH_OVER:
        f = frames[nf - 1]
        if f.next >= width or effects[f.card, f.slot, f.next].op == OP_NONE:
            nf -= 1
            continue
        e = effects[f.card, f.slot, f.next]
        f.next += 1
        owner = f.owner
        target = owner if e.target == TGT_SELF else 1 - owner
        if e.op == OP_DAMAGE:
            lost = deal(s, owner, target, e.amount, e.void, e.piercing, False, rules)
            if target != owner and lost > 0:
                credit(s, owner, f.card, lost)
            if s.phase != PH_OVER:
                nf = push_triggers(s, owner, target, lost, e.void, frames, nf, cards)
        elif e.op == OP_STATUS:
            s.players[target].statuses[e.kind] += e.level
        elif e.op == OP_MOVE:
            s.distance = min(max(s.distance + f.pick, 0), rules.max_distance)
    return nf


@njit(cache=True)
def run_one(s, owner, card, slot, pick, rules, cards, effects):
    """Resolve one card's effect list ``slot`` (and whatever it triggers)."""
    frames = np.zeros(MAX_FRAMES, FRAME)
    run(s, frames, push(frames, 0, owner, card, slot, pick), rules, cards, effects)


# ---- turns (sections 4, 6, 7) ---------------------------------------------------------------------------------


@njit(cache=True)
def start_turn(s, p, rules, cards, effects):
    """Section 7.1: resources, persistent magic (equip order), Poison, Slow, Regeneration, draw."""
    me = s.players[p]
    s.to_act = p
    s.phase = PH_PLAY
    me.own_turns += 1
    me.ap = rules.action_points
    me.mana = rules.mana
    me.moved = 0
    me.weapon_used = 0
    me.attached = 0
    me.set = 0
    n = s.deck_size
    # persistent magic, in the order the cards were equipped
    frames = np.zeros(MAX_FRAMES, FRAME)
    order = np.empty(n, np.int64)
    m = 0
    for i in range(n):
        if me.zone[i] == Z_EQUIP and cards[me.card[i]].type == T_PERSISTENT:
            order[m] = i
            m += 1
    by_stamp(s, p, order, m)
    for a in range(m):
        run(s, frames, push(frames, 0, p, me.card[order[a]], SLOT_TURN_START, 0), rules, cards, effects)
        if s.phase == PH_OVER:
            return
    # Poison: ceil(L/2) piercing damage from oneself
    level = me.statuses[POISON]
    if level > 0:
        k = (level + 1) // 2
        me.statuses[POISON] = level - k
        lost = deal(s, p, p, k, False, True, True, rules)
        if s.phase == PH_OVER:
            return
        run(s, frames, push_triggers(s, p, p, lost, False, frames, 0, cards), rules, cards, effects)
        if s.phase == PH_OVER:
            return
    # Slow: one card fewer
    slowed = 0
    if me.statuses[SLOW] > 0:
        slowed = 1
        me.statuses[SLOW] -= 1
    # Regeneration: heal ceil(L/2), capped at max HP
    level = me.statuses[REGENERATION]
    if level > 0:
        k = (level + 1) // 2
        me.statuses[REGENERATION] = level - k
        me.hp = min(rules.max_hp, me.hp + k)
    draw(s, p, max(0, rules.turn_draw - slowed))


@njit(cache=True)
def setup(s, deck0, deck1, seed, rules, cards, effects):
    """A new game in ``s``: decks shuffled into the source piles, 4 and 5 cards drawn, turn 1 begun.

    Args:
        deck0, deck1: ``int64[n]`` card ids of each seat's deck (its deck list).
        seed: the shuffle stream's seed (63-bit, non-negative).
    """
    clear(s)
    n = deck0.shape[0]
    s.deck_size = n
    s.distance = rules.start_distance
    s.winner = -1
    s.shuffle = seed
    s.viewer = -1
    for p in range(2):
        me = s.players[p]
        deck = deck0 if p == 0 else deck1
        me.hp = rules.hp
        for i in range(MAX_DECK):
            me.on[i] = -1
            me.source[i] = -1
            me.discard[i] = -1
            if i < n:
                me.card[i] = deck[i]
                me.zone[i] = Z_DISC
                me.discard[i] = i
            else:
                me.card[i] = -1
                me.zone[i] = Z_NONE
        me.counts[Z_DISC] = n
        shuffle_discard_into_source(s, p)
    draw(s, 0, rules.first_draw)
    draw(s, 1, rules.second_draw)
    s.turn = 1
    start_turn(s, 0, rules, cards, effects)


# ---- legality (sections 2, 3, 5, 6, 8) ------------------------------------------------------------------------


@njit(cache=True)
def is_own_weapon(s, p, w, cards):
    """Slot ``w`` of ``p`` holds an equipped weapon."""
    me = s.players[p]
    return 0 <= w < s.deck_size and me.zone[w] == Z_EQUIP and cards[me.card[w]].type == T_WEAPON


@njit(cache=True)
def in_range(card, distance):
    """A weapon's attack effect happens only when its range is at least the distance (section 2)."""
    return card.range >= distance


@njit(cache=True)
def meets_distance(card, distance):
    """A non-weapon card is used only while the distance is within its requirement (section 5)."""
    return card.min_distance <= distance <= card.max_distance


@njit(cache=True)
def can_be_set(card):
    """Only a counter card goes into the trap zone (section 5.7)."""
    return card.type == T_COUNTER


@njit(cache=True)
def check(s, kind, x, y, rules, cards):
    """Why the action ``(kind, x, y)`` is illegal for the seat to act (``R_*``), or ``R_OK``."""
    if s.phase == PH_OVER:
        return R_OVER
    p = s.to_act
    me = s.players[p]
    dist = s.distance
    if kind == K_DISCARD or kind == K_END_TURN:
        if s.phase != PH_DISCARD:
            return R_NOT_DISCARD
        if kind == K_END_TURN:
            return R_HAND_LIMIT if me.counts[Z_HAND] > rules.hand_limit else R_OK
        if x < 0 or x >= cards.shape[0] or hand_slot(s, p, x) < 0:
            return R_NOT_IN_HAND
        return R_OK
    if kind < 0 or kind > K_END_PLAY:
        return R_BAD_KIND
    if s.phase != PH_PLAY:
        return R_NOT_PLAY
    if kind == K_END_PLAY:
        return R_OK
    if kind == K_ADVANCE or kind == K_RETREAT:
        if me.moved:
            return R_MOVED
        if (kind == K_ADVANCE and dist <= 0) or (kind == K_RETREAT and dist >= rules.max_distance):
            return R_EDGE
        return R_OK
    if kind == K_USE:
        if not is_own_weapon(s, p, x, cards):
            return R_NO_WEAPON
        if me.weapon_used:
            return R_WEAPON_USED
        if me.equipped_turn[x] >= s.turn:
            return R_NEW_WEAPON
        if me.own_turns < me.ready_on[x]:
            return R_COOLING
        return R_OK
    # a card from hand
    if x < 0 or x >= cards.shape[0] or hand_slot(s, p, x) < 0:
        return R_NOT_IN_HAND
    card = cards[x]
    t = card.type
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
        if me.attached:
            return R_ATTACH_USED
        if not is_own_weapon(s, p, y, cards):
            return R_NO_WEAPON
    elif kind == K_SET:
        if not can_be_set(card):
            return R_WRONG_TYPE
        if me.set:
            return R_SET_USED
        return R_OK
    if me.ap < card.cost_ap:
        return R_AP
    if me.mana < card.cost_mana:
        return R_MANA
    if kind == K_PLAY:
        if not meets_distance(card, dist):
            return R_DISTANCE
        if card.pick:
            if y < card.pick_min or y > card.pick_max:
                return R_PICK
            if dist + y < 0 or dist + y > rules.max_distance:
                return R_PICK_RANGE
        elif y != 0:
            return R_NO_PICK
    return R_OK


@njit(cache=True)
def offer(out, n, kind, x, y):
    """Write the action ``(kind, x, y)`` as row ``n`` of ``out``; returns ``n + 1``."""
    out[n, 0], out[n, 1], out[n, 2] = kind, x, y
    return n + 1


@njit(cache=True)
def legal(s, out, rules, cards):
    """Fill ``out[:n]`` (rows ``kind, x, y``) with every legal action of the seat to act, in a fixed order;
    return n. Copies in a hand are interchangeable, so a card is named by its id, once."""
    if s.phase == PH_OVER:
        return 0
    p = s.to_act
    me = s.players[p]
    n = 0
    seen = np.zeros(cards.shape[0], np.bool_)
    if s.phase == PH_DISCARD:
        for i in range(s.deck_size):
            c = me.card[i]
            if me.zone[i] == Z_HAND and not seen[c]:
                seen[c] = True
                n = offer(out, n, K_DISCARD, c, 0)
        if check(s, K_END_TURN, 0, 0, rules, cards) == R_OK:
            n = offer(out, n, K_END_TURN, 0, 0)
        return n
    for i in range(s.deck_size):
        c = me.card[i]
        if me.zone[i] != Z_HAND or seen[c]:
            continue
        seen[c] = True
        card = cards[c]
        if card.type == T_WEAPON:
            n = offer(out, n, K_EQUIP, c, 0)
        elif card.type == T_COUNTER:
            if check(s, K_SET, c, 0, rules, cards) == R_OK:
                n = offer(out, n, K_SET, c, 0)
        elif card.type == T_ATTACHMENT:
            for w in range(s.deck_size):
                if check(s, K_ATTACH, c, w, rules, cards) == R_OK:
                    n = offer(out, n, K_ATTACH, c, w)
        elif card.pick:
            for v in range(card.pick_min, card.pick_max + 1):
                if check(s, K_PLAY, c, v, rules, cards) == R_OK:
                    n = offer(out, n, K_PLAY, c, v)
        elif check(s, K_PLAY, c, 0, rules, cards) == R_OK:
            n = offer(out, n, K_PLAY, c, 0)
    for w in range(s.deck_size):
        if me.zone[w] == Z_EQUIP and check(s, K_USE, w, 0, rules, cards) == R_OK:
            n = offer(out, n, K_USE, w, 0)
    for k in (K_ADVANCE, K_RETREAT):
        if check(s, k, 0, 0, rules, cards) == R_OK:
            n = offer(out, n, k, 0, 0)
    return offer(out, n, K_END_PLAY, 0, 0)


# ---- the actions ---------------------------------------------------------------------------------------------


@njit(cache=True)
def use_weapon(s, p, w, rules, cards, effects):
    """Section 5.4: Charge decides whether the use may fire; in range it fires (with its
    attachments, in attach order); then the Cooldown starts. A use counts even when nothing fires."""
    me = s.players[p]
    me.weapon_used = 1
    s.played[p, w] += 1
    c = me.card[w]
    weapon = cards[c]
    fires = False
    if me.charge[w] < weapon.charge:
        me.charge[w] += 1          # only charges, even in range
    elif in_range(weapon, s.distance):
        fires = True
        if rules.charge_resets:
            me.charge[w] = 0
    # out of range with full charge: nothing happens and the charge is kept
    if fires:
        frames = np.zeros(MAX_FRAMES, FRAME)
        # the weapon's attack effect first, then its attachments in the order attached (stack: reversed)
        n = s.deck_size
        order = np.empty(n, np.int64)
        m = 0
        for i in range(n):
            if me.zone[i] == Z_EQUIP and me.on[i] == w:
                order[m] = i
                m += 1
        by_stamp(s, p, order, m)
        nf = 0
        for a in range(m - 1, -1, -1):
            nf = push(frames, nf, p, me.card[order[a]], SLOT_ATTACK, 0)
        run(s, frames, push(frames, nf, p, c, SLOT_ATTACK, 0), rules, cards, effects)
    if weapon.cooldown > 0:
        me.ready_on[w] = me.own_turns + weapon.cooldown + 1


@njit(cache=True)
def step(s, kind, x, y, rules, cards, effects):
    """Apply the legal action ``(kind, x, y)`` of the seat to act (check it first with :func:`check`)."""
    p = s.to_act
    me = s.players[p]
    if kind == K_PLAY:
        i = hand_slot(s, p, x)
        s.played[p, i] += 1
        me.ap -= cards[x].cost_ap
        me.mana -= cards[x].cost_mana
        if cards[x].type == T_PERSISTENT:
            move(s, p, i, Z_EQUIP)
        else:
            # the card goes to its destination first, then resolves (no effect of the pool reads the
            # piles, and the card is never in two places if the game ends mid-effect)
            move(s, p, i, Z_REMOVED if cards[x].remove else Z_DISC)
            run_one(s, p, x, SLOT_USE, y, rules, cards, effects)
    elif kind == K_EQUIP:
        i = hand_slot(s, p, x)
        move(s, p, i, Z_EQUIP)
        me.equipped_turn[i] = s.turn
        me.charge[i] = 0
        me.ready_on[i] = 0
    elif kind == K_ATTACH:
        i = hand_slot(s, p, x)
        s.played[p, i] += 1
        me.ap -= cards[x].cost_ap
        me.mana -= cards[x].cost_mana
        me.attached = 1
        move(s, p, i, Z_EQUIP)
        me.on[i] = y
    elif kind == K_SET:
        i = hand_slot(s, p, x)
        s.played[p, i] += 1
        me.set = 1
        move(s, p, i, Z_TRAP)
    elif kind == K_USE:
        use_weapon(s, p, x, rules, cards, effects)
    elif kind == K_ADVANCE:
        s.distance -= 1
        me.moved = 1
    elif kind == K_RETREAT:
        s.distance += 1
        me.moved = 1
    elif kind == K_END_PLAY:
        s.phase = PH_DISCARD
    elif kind == K_DISCARD:
        move(s, p, hand_slot(s, p, x), Z_DISC)
    elif kind == K_END_TURN:
        if s.turn >= rules.turn_limit:
            winner = DRAW
            if rules.limit_by_hp:
                h0, h1 = s.players[0].hp, s.players[1].hp
                winner = 0 if h0 > h1 else (1 if h1 > h0 else DRAW)
            end_game(s, winner, END_TURN_LIMIT)
        else:
            s.turn += 1
            start_turn(s, 1 - p, rules, cards, effects)


@njit(cache=True)
def write_tally(s, out):
    """Copy the counters of ``s`` into ``out`` (``int64[4 * MAX_DECK]``): seat 0's played and dealt slots, then
    seat 1's (what :mod:`simkit.games.duel.batch` turns into counter columns)."""
    for p in range(2):
        for i in range(MAX_DECK):
            out[2 * p * MAX_DECK + i] = s.played[p, i]
            out[(2 * p + 1) * MAX_DECK + i] = s.dealt[p, i]


# ---- the view of one seat (section 12) ----------------------------------------------------------------


@njit(cache=True)
def make_view(s, p, v):
    """Write into ``v`` what seat ``p`` may see of ``s``: every hidden card (both source piles, the
    opponent's hand, discard pile and trap zone) becomes ``Z_HIDDEN`` with card -1 and no order,
    only the zone sizes are kept, and the shuffle stream is blanked. Bots read nothing else; the counters
    are not copied: a view's stay as they were."""
    copy(v, s, "played")
    v.viewer = p
    v.shuffle = 0
    v.drawn = 0
    n = s.deck_size
    for q in range(2):
        real, seen = s.players[q], v.players[q]
        for i in range(n):
            z = real.zone[i]
            if z == Z_SRC or (q != p and (z == Z_HAND or z == Z_DISC or z == Z_TRAP)):
                seen.card[i] = -1
                seen.zone[i] = Z_HIDDEN
                seen.stamp[i] = 0
                seen.charge[i] = 0
                seen.ready_on[i] = 0
                seen.equipped_turn[i] = 0
                seen.on[i] = -1
        for k in range(MAX_DECK):
            seen.source[k] = -1
            if q != p:
                seen.discard[k] = -1
