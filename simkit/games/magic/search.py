"""Magic War's search hooks, compiled: the acting seat's view, plans that stop at chance, replay, value.

The hooks follow the one search's contract (``copy_game``, ``play_turn``, ``replay``, ``game_over``,
``to_act``, ``value``; a ``ctx`` tuple of the game's arrays passed through unopened), over the engine's
flat state (:mod:`simkit.games.magic.engine`):

``ctx = (ut, sk, st, rc, root, work, out, scratch, ctr, w)``: the rules' four tables, the search's root
(the acting seat's view of the real game, made by :func:`root_of`), the simulated game, the legal-action
buffer, a scratch state for the utility bot, its draw counter and the weight vector it plays with.

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
from simkit.games.magic import bots as B
from simkit.games.magic import engine as E
from simkit.games.magic.tables import U_COST, U_HP, U_LEADER

#: the value weights, in the order of the compiled vector (scenario keys ``value_<name>``)
VALUES = (
    ("win", "a won game (minus for a lost one; a draw 0)"),
    ("army", "per gold of own units alive (non-leaders, each by its HP left over its HP) minus the enemy's"),
    ("leader", "per HP of the own leader left minus the enemy leader's"),
    ("magic", "per magic (active and stored) of own minus the enemy's"),
    ("cards", "per tactical card in hand of own minus the enemy's"),
    ("threat", "per expected enemy hit that can reach the own leader next turn, minus the same on the enemy "
               "leader (subtracted)"),
    ("advance", "per cell the own units (leader aside) stand beyond their range from the enemy leader, minus "
                "the enemy's (subtracted)"),
)
VALUE_NAMES = tuple(f"value_{name}" for name, _ in VALUES)
V_WIN, V_ARMY, V_LEADER, V_MAGIC, V_CARDS, V_THREAT, V_ADVANCE = range(len(VALUES))

_HI = np.int64(1) << 15  # an action's first word: kind, a, b, d in 6 bits each (cells < 63, kinds < 8)
_DICE_SALT = np.uint64(0x6D61676963446963)
_CARD_SALT = np.uint64(0x6D61676963436172)
_ROOT_SALT = np.uint64(0x6D61676963526F6F)


@njit(cache=True)
def encode(kind, a, b, d):
    """The first word of an action ``(kind, a, b, c, d)``; the second is ``c`` itself (a joiner mask)."""
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
def root_of(s, key, root):
    """Write into ``root`` the search's start from real game ``s``: the game with its dice key replaced by
    ``key`` (see :func:`root_key`), so that no search reads the real dice."""
    root[:] = s
    root[E.G_DSEED] = key


@njit(cache=True)
def copy_game(ctx, g, seat, salt):
    """Copy the root into the work game as ``seat`` may see it: its dice re-keyed by ``salt``, the
    opponent's hand and the pile (the cards ``seat`` cannot see) dealt again from a shuffle keyed by it."""
    root, s = ctx[4], ctx[5]
    s[:] = root
    key = mix64(np.uint64(root[E.G_DSEED]) ^ mix64(np.uint64(salt) ^ _DICE_SALT))
    s[E.G_DSEED] = np.int64(key >> np.uint64(1))
    ckey = np.int64(mix64(key ^ _CARD_SALT) >> np.uint64(1))
    b = E.pb(1 - seat)
    h = s[b + E.P_HAND]
    kp, nd = s[E.G_KPTR], s[E.G_NDECK]
    n = h + nd - kp
    if n < 2:
        return
    pool = np.empty(n, np.int64)
    for i in range(h):
        pool[i] = s[b + E.P_H + i]
    for i in range(nd - kp):
        pool[h + i] = s[E.DECK + kp + i]
    pool.sort()  # from the multiset alone: the real order and split never matter
    for i in range(n - 1, 0, -1):
        j = E.below(ckey, n - 1 - i, i + 1)
        x = pool[i]
        pool[i] = pool[j]
        pool[j] = x
    for i in range(h):
        s[b + E.P_H + i] = pool[i]
    for i in range(nd - kp):
        s[E.DECK + kp + i] = pool[h + i]


@njit(cache=True)
def game_over(ctx):
    """The work game has ended."""
    return ctx[5][E.G_PHASE] == E.PH_OVER


@njit(cache=True)
def to_act(ctx):
    """The seat to act in the work game."""
    return np.int64(ctx[5][E.G_CUR])


@njit(cache=True)
def play_turn(ctx, bot, temperature, keys, counter, k, cap, record):
    """Play the work game's seat to act with the utility weights ``bot`` at noise ``temperature``, drawing
    from stream ``k`` of ``keys``/``counter`` exactly as :func:`~simkit.games.magic.bots.play_game` draws.

    With a non-empty ``record``: one plan, to the end of the turn or the first action that rolls dice or
    draws a card (that action included), its actions recorded two words each; without one: the rest of
    the turn. Stops at ``cap`` words. Returns the words played (``2 x`` actions)."""
    ut, sk, st, rc, s, out, scratch, ctr, w = ctx[0], ctx[1], ctx[2], ctx[3], ctx[5], ctx[6], ctx[7], ctx[8], ctx[9]
    w[:] = bot
    w[B.W_NOISE] = temperature
    ctr[0] = counter[k]
    plan = record.shape[0] > 0
    p, turn = s[E.G_CUR], s[E.G_TURN]
    n = 0
    while s[E.G_PHASE] != E.PH_OVER and s[E.G_CUR] == p and s[E.G_TURN] == turn and n < cap:
        m = min(E.legal(s, out, ut, sk, st, rc, False), out.shape[0])
        i = B.choose(s, out, m, B.BOT_UTILITY, w, keys[k], ctr, ut, sk, st, rc, scratch)
        kind, a, b, c, d = out[i, 0], out[i, 1], out[i, 2], out[i, 3], out[i, 4]
        if n + 1 < record.shape[0]:
            record[n] = encode(kind, a, b, d)
            record[n + 1] = c
        n += 2
        dice, cards = s[E.G_DPTR], s[E.G_KPTR]
        E.step(s, kind, a, b, c, d, ut, sk, st, rc)
        if plan and (s[E.G_DPTR] != dice or s[E.G_KPTR] != cards):
            break
    counter[k] = ctr[0]
    return n


@njit(cache=True)
def replay(ctx, plan, n):
    """Apply the ``n`` recorded words of ``plan`` to the work game; False when an action is not legal there."""
    ut, sk, st, rc, s = ctx[0], ctx[1], ctx[2], ctx[3], ctx[5]
    for i in range(0, n, 2):
        kind, a, b, d = decode(plan[i])
        c = plan[i + 1]
        if E.check(s, kind, a, b, c, d, ut, sk, st, rc) != E.R_OK:
            return False
        E.step(s, kind, a, b, c, d, ut, sk, st, rc)
    return True


@njit(cache=True)
def value(ctx, seat, bot, weights):
    """The work game's worth to ``seat``: ``weights`` (``V_*``) times the differences of :data:`VALUES`;
    a finished game is worth ``± weights[V_WIN]`` plus the army and leader terms."""
    ut, sk, st, s = ctx[0], ctx[1], ctx[2], ctx[5]
    army, advance = 0.0, 0.0
    cols = st[E.S_COLS]
    lead = (s[E.pb(0) + E.P_LEADER], s[E.pb(1) + E.P_LEADER])
    for u in range(s[E.G_NU]):
        x = E.ub(u)
        if s[x + E.F_STATE] != E.US_ALIVE:
            continue
        t = s[x + E.F_TYPE]
        if ut[t, U_LEADER] == 1:
            continue
        q = s[x + E.F_OWNER]
        sign = 1.0 if q == seat else -1.0
        army += sign * ut[t, U_COST] * E.hp_left(s, u, ut) / ut[t, U_HP]
        enemy = lead[1 - q]
        gap = E.mdist(s[x + E.F_CELL], s[E.ub(enemy) + E.F_CELL], cols) - B.unit_range(s, u, ut, st)
        advance += sign * (gap if gap > 0 else 0)
    mine, theirs = lead[seat], lead[1 - seat]
    x = weights[V_ARMY] * army + weights[V_LEADER] * (E.hp_left(s, mine, ut) - E.hp_left(s, theirs, ut))
    if s[E.G_PHASE] == E.PH_OVER:
        w = s[E.G_WINNER]
        if w == seat:
            return x + weights[V_WIN]
        if w == E.DRAW:
            return x
        return x - weights[V_WIN]
    bm, bt = E.pb(seat), E.pb(1 - seat)
    x += weights[V_MAGIC] * (s[bm + E.P_ACTIVE] + s[bm + E.P_STORED] - s[bt + E.P_ACTIVE] - s[bt + E.P_STORED])
    x += weights[V_CARDS] * (s[bm + E.P_HAND] - s[bt + E.P_HAND])
    if weights[V_THREAT] != 0.0:
        danger = B.threat_at(s, s[E.ub(mine) + E.F_CELL], seat, ut, sk, st) - \
            B.threat_at(s, s[E.ub(theirs) + E.F_CELL], 1 - seat, ut, sk, st)
        x -= weights[V_THREAT] * danger
    x -= weights[V_ADVANCE] * advance
    return x

