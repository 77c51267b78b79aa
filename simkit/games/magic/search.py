"""Magic War's search hooks, compiled: the acting seat's view, plans that stop at chance, replay, value.

The hooks follow the one search's contract (``copy_game``, ``play_turn``, ``replay``, ``game_over``,
``to_act``, ``value``; a ``ctx`` tuple of the game's arrays passed through unopened), over the engine's
declared state (:mod:`simkit.games.magic.state`):

``ctx = (rules, root, work, out, ctr, weights)``: the packed rules, the search's root (one game record: the
acting seat's view of the real game, made by :func:`root_of`), the simulated game (one record), the
legal-action buffer, the utility bot's draw counter and the weights it plays with (one record). :func:`new_context`
makes one.

**What the seat cannot see, re-drawn; nothing peeked.** :func:`root_of` copies the real game with its
dice key replaced by one drawn from the seat's own bot stream: the real dice tape never enters a
search. :func:`copy_game` then re-keys the dice by the salt (each determinization its own future dice)
and re-deals the hidden tactical cards: the opponent's hand and the face-down pile together are the
cards neither in the seat's hand nor used (used cards lie face up, 7.3), so their multiset is public;
which of them the opponent holds and the pile's order are shuffled from the salt. The armies are
public once deployed; the one thing still hidden during deployment, the second player's army while the
first player places, is never searched: the first player deploys by its policy (:mod:`.search_play`).

**Plans stop at chance.** A recorded plan (:func:`play_turn` with a ``record``) is the acting seat's run
of actions until its turn ends or an action rolls dice or draws a tactical card (an attack, a death), that
action included: so a plan replayed on the real game reaches exactly the position it was chosen from,
up to its last action. Without a record (the look-ahead) the turn is played to its end, dice and draws
included. Actions are recorded in two words each (:func:`encode`): ``n`` counts words.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.kits.mix import mix64
from simkit.games.kits.state import record
from simkit.games.magic import bots as B
from simkit.games.magic import engine as E
from simkit.games.magic.state import ALIVE, DRAW, GAME, OVER

F = np.float64
#: the value weights (scenario keys ``value_<name>``), in file order
VALUES = record("Values", [
    ("win", F),      # a won game (minus for a lost one; a draw 0)
    ("army", F),     # per gold of own units alive (non-leaders, each by its HP left over its HP) minus the enemy's
    ("leader", F),   # per HP of the own leader left minus the enemy leader's
    ("magic", F),    # per magic (active and stored) of own minus the enemy's
    ("cards", F),    # per tactical card in hand of own minus the enemy's
    ("threat", F),   # per expected enemy hit that can reach the own leader next turn, minus the same on the enemy
                     # leader (subtracted)
    ("advance", F),  # per cell the own units (leader aside) stand beyond their range from the enemy leader, minus
                     # the enemy's (subtracted)
], "A search bot's value weights: what a position is worth to a seat.")
VALUE_NAMES = tuple(f"value_{name}" for name in VALUES.names)

_DICE_SALT = np.uint64(0x6D61676963446963)
_CARD_SALT = np.uint64(0x6D61676963436172)
_ROOT_SALT = np.uint64(0x6D61676963526F6F)


def new_context(rules):
    """A search context over the packed ``rules`` (see the module's words)."""
    return (rules, np.zeros(1, GAME), np.zeros(1, GAME), np.zeros((E.MAX_LEGAL, 5), np.int64), np.zeros(1, np.int64),
            np.zeros(1, B.WEIGHTS))


@njit(cache=True)
def encode(kind, a, b, d):
    """The first word of an action ``(kind, a, b, c, d)``; the second is ``c`` itself (a joiner set): kind, a,
    b and d in 6 bits each (cells below 63, kinds below 8)."""
    return ((kind * 64 + a) * 64 + b) * 64 + d


@njit(cache=True)
def decode(word):
    """``(kind, a, b, d)`` of :func:`encode`."""
    d = word % 64
    word //= 64
    b = word % 64
    word //= 64
    return word // 64, word % 64, b, d


@njit(cache=True)
def root_key(key, counter):
    """A key for the search's view, from the acting seat's bot stream (key and draw count): never the dice'."""
    return np.int64(mix64(np.uint64(key) ^ mix64(np.uint64(counter) ^ _ROOT_SALT)) >> np.uint64(1))


@njit(cache=True)
def root_of(g, key, root):
    """Write into ``root[0]`` the search's start from real game ``g``: the game with its dice key replaced by
    ``key`` (see :func:`root_key`), so that no search reads the real dice."""
    root[0] = g
    root[0].dice_key = key


@njit(cache=True)
def redeal(g, seat, salt):
    """``seat``'s view of game ``g``, in place: the dice re-keyed by ``salt``, the opponent's hand and the pile
    (the cards ``seat`` cannot see, whose multiset is public: used cards lie face up, 7.3) dealt again from a
    shuffle keyed by it."""
    key = mix64(np.uint64(g.dice_key) ^ mix64(np.uint64(salt) ^ _DICE_SALT))
    g.dice_key = np.int64(key >> np.uint64(1))
    card_key = np.int64(mix64(key ^ _CARD_SALT) >> np.uint64(1))
    other = g.sides[1 - seat]
    h = other.held
    kp, nd = g.pile_drawn, g.pile_size
    n = h + nd - kp
    if n < 2:
        return
    pool = np.empty(n, np.int64)
    for i in range(h):
        pool[i] = other.hand[i]
    for i in range(nd - kp):
        pool[h + i] = g.pile[kp + i]
    pool.sort()  # from the multiset alone: the real order and split never matter
    for i in range(n - 1, 0, -1):
        j = E.below(card_key, n - 1 - i, i + 1)
        x = pool[i]
        pool[i] = pool[j]
        pool[j] = x
    for i in range(h):
        other.hand[i] = pool[i]
    for i in range(nd - kp):
        g.pile[kp + i] = pool[h + i]


@njit(cache=True)
def copy_game(ctx, g, seat, salt):
    """Copy the root into the work game as ``seat`` may see it (:func:`redeal`)."""
    root, work = ctx[1], ctx[2]
    work[0] = root[0]
    redeal(work[0], seat, salt)


@njit(cache=True)
def game_over(ctx):
    """The work game has ended."""
    return ctx[2][0].phase == OVER


@njit(cache=True)
def to_act(ctx):
    """The seat to act in the work game."""
    return np.int64(ctx[2][0].to_act)


@njit(cache=True)
def play_turn(ctx, bot, temperature, keys, counter, k, cap, record):
    """Play the work game's seat to act with the utility weights ``bot`` at noise ``temperature``, drawing
    from stream ``k`` of ``keys``/``counter`` exactly as :func:`~simkit.games.magic.bots.play_game` draws.

    With a non-empty ``record``: one plan, to the end of the turn or the first action that rolls dice or
    draws a card (that action included), its actions recorded two words each; without one: the rest of
    the turn. Stops at ``cap`` words. Returns the words played (``2 x`` actions)."""
    rules, g, out, ctr, weights = ctx[0], ctx[2][0], ctx[3], ctx[4], ctx[5]
    weights[0] = bot
    w = weights[0]
    w.noise = temperature
    ctr[0] = counter[k]
    plan = record.shape[0] > 0
    p, turn = g.to_act, g.turn
    n = 0
    while g.phase != OVER and g.to_act == p and g.turn == turn and n < cap:
        m = min(E.legal(g, out, rules, False), out.shape[0])
        i = B.choose(g, out, m, B.BOT_UTILITY, w, keys[k], ctr, rules)
        kind, a, b, c, d = out[i, 0], out[i, 1], out[i, 2], out[i, 3], out[i, 4]
        if n + 1 < record.shape[0]:
            record[n] = encode(kind, a, b, d)
            record[n + 1] = c
        n += 2
        dice, cards = g.dice_rolled, g.pile_drawn
        E.step(g, kind, a, b, c, d, rules)
        if plan and (g.dice_rolled != dice or g.pile_drawn != cards):
            break
    counter[k] = ctr[0]
    return n


@njit(cache=True)
def replay(ctx, plan, n):
    """Apply the ``n`` recorded words of ``plan`` to the work game; False when an action is not legal there."""
    rules, g = ctx[0], ctx[2][0]
    for i in range(0, n, 2):
        kind, a, b, d = decode(plan[i])
        c = plan[i + 1]
        if E.check(g, kind, a, b, c, d, rules) != E.OK:
            return False
        E.step(g, kind, a, b, c, d, rules)
    return True


@njit(cache=True)
def worth(g, seat, rules, weights):
    """Game ``g``'s worth to ``seat``: ``weights`` (:data:`VALUES`) times the differences they name; a finished
    game is worth ``± weights.win`` plus the army and leader terms."""
    army, advance = 0.0, 0.0
    cols = rules.cols
    lead0, lead1 = g.sides[0].leader, g.sides[1].leader
    for u in range(g.places):
        unit = g.units[u]
        if unit.status != ALIVE:
            continue
        card = rules.cards[unit.type]
        if card.leader == 1:
            continue
        q = unit.side
        sign = 1.0 if q == seat else -1.0
        army += sign * card.cost * E.hp_left(g, u, rules) / card.hp
        enemy = lead1 if q == 0 else lead0
        gap = E.mdist(unit.cell, g.units[enemy].cell, cols) - B.unit_range(g, u, rules)
        advance += sign * (gap if gap > 0 else 0)
    mine, theirs = (lead0, lead1) if seat == 0 else (lead1, lead0)
    x = weights.army * army + weights.leader * (E.hp_left(g, mine, rules) - E.hp_left(g, theirs, rules))
    if g.phase == OVER:
        if g.winner == seat:
            return x + weights.win
        if g.winner == DRAW:
            return x
        return x - weights.win
    own, other = g.sides[seat], g.sides[1 - seat]
    x += weights.magic * (own.active_magic + own.stored_magic - other.active_magic - other.stored_magic)
    x += weights.cards * (own.held - other.held)
    if weights.threat != 0.0:
        danger = B.threat_at(g, g.units[mine].cell, seat, rules) - \
            B.threat_at(g, g.units[theirs].cell, 1 - seat, rules)
        x -= weights.threat * danger
    x -= weights.advance * advance
    return x


@njit(cache=True)
def value(ctx, seat, bot, weights):
    """The work game's worth to ``seat`` (:func:`worth`)."""
    return worth(ctx[2][0], seat, ctx[0], weights)
