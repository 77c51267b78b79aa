"""What the kit's search (:mod:`simkit.games.kits.turn_search`) needs of Krypton Tower War, compiled.

``ctx = (s, R, dist, nbr, DV, DP, DN, w, wmem, lg, wb, ev, view_key, unseen)``: the real game, the rules
and map tables, the dice tables of the utility bots, the one-game work state the simulations run on,
the two seats' utility-bot memories there, a legal-action buffer, the bot's weight scratch, an event
buffer that logs nothing, the game's view key and the seats' peek flags (``int64[3]``) and a card scratch.

Where chance and hidden cards live in Krypton and how the hooks meet them:

* the enemy's hand and the pile: :func:`copy_game` deals them again from the cards the seat cannot see
  (the enemy's hand and the pile, counted by card, their sizes kept), shuffled by a key made of the view
  key, the seat, the salt and the public counters (hero turn, draws, events); the search never reads
  the real hidden cards, and two games that differ only in them give the same searches;
* the dice: the work game's stream is keyed afresh for every salt (the real future dice stay unknown);
* an **oracle** (a search table with ``peek = true``) is the one exception: its copy is the real game, the
  future dice and the enemy's hand included. It is a measuring instrument, not a player: how much of a
  search's result knowing the dice would add (issue 32's "how much the dice decide");
* a *plan* (:func:`play_turn` recording) is the seat's run of decisions while its hero turn, the chance
  counter (draws on the stream plus attack judgments begun: the defender's hidden counter cards may
  answer a judgment even when no die is rolled) and the seat to act stay put: it ends with the attack
  that starts a judgment, the end of the turn or a decision owed by the other seat. A decision owed
  outside the own moves (a counter window, a revival choice) is a plan of one decision. A look-ahead
  play (no record) goes on through the dice to the end of the hero turn or until the other seat owes
  a decision.

The utility bots' noise is a key hashed with the hero turn and the destination (:func:`.bots.noise`):
each play draws one word from its stream and makes it the bot's key, with the play's temperature. A
decision outside the own moves has no score of its own: the policy's answer counts 1, every other
option 0, each plus Gumbel noise at the temperature.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from simkit.games.kits.mix import mix64
from simkit.games.kits.turn_search import compile_turn_search
from simkit.games.krypton import bots as B
from simkit.games.krypton import engine as E

_LOW63 = np.uint64(0x7FFFFFFFFFFFFFFF)
#: the value weights, in the order of :data:`simkit.games.krypton.search.VALUES`
(VALUE_WIN, VALUE_BASE, VALUE_HERO_HP, VALUE_ENERGY, VALUE_TIER, VALUE_PRAYER, VALUE_ATTACK, VALUE_MAGIC, VALUE_CARDS,
 VALUE_DEATHS, VALUE_ADVANCE) = range(11)
NVALUES = 11


@numba.njit(cache=True)
def chance(s):
    """A count that grows whenever chance or hidden cards may enter: draws on the stream plus attack
    judgments begun."""
    return s[E.G_CTR] + s[E.so(0) + E.S_ATTACKS] + s[E.so(1) + E.S_ATTACKS]


@numba.njit(cache=True)
def in_turn(s):
    """The decision owed is a move of the side whose hero turn it is (no revival choice, no judgment)."""
    return s[E.PD_N] == 0 and s[E.J_ON] == 0


@numba.njit(cache=True)
def determinize(s, w, seat, key, unseen):
    """Write into ``w`` ``seat``'s view of ``s``: the other side's hand and the pile dealt again from the
    cards ``seat`` cannot see (in card order, shuffled by ``key``), the stream keyed by ``key``, no
    scripted dice."""
    w[:] = s
    other = 1 - seat
    h = E.so(other) + E.S_HAND
    n = 0
    for card in range(E.NCARDS):
        copies = w[h + card]
        for i in range(w[E.PILE_N]):
            if w[E.PILE + i] == card:
                copies += 1
        for _ in range(copies):
            unseen[n] = card
            n += 1
    for i in range(n - 1, 0, -1):
        j = E.seed2(key, i) % (i + 1)
        a = unseen[i]
        unseen[i] = unseen[j]
        unseen[j] = a
    k = w[E.so(other) + E.S_NHAND]
    for card in range(E.NCARDS):
        w[h + card] = 0
    for i in range(k):
        w[h + unseen[i]] += 1
    for i in range(n - k):
        w[E.PILE + i] = unseen[k + i]
    w[E.G_KEY] = E.seed2(key, n + 1)
    w[E.G_CTR] = 0
    w[E.G_FORCE_N] = 0
    w[E.G_FORCE_I] = 0
    w[E.G_ERR] = 0


@numba.njit(cache=True, inline="always")
def copy_game(ctx, g, seat, salt):
    """Copy ``seat``'s determinized view of the real game (salt ``salt``) into the work state; a peeking
    seat's (``view_key[1 + seat]``, an oracle) gets the real game itself, its future dice and hidden cards."""
    s, w, wmem, view_key, unseen = ctx[0], ctx[7], ctx[8], ctx[12], ctx[13]
    if view_key[1 + seat] != 0:
        w[:] = s
    else:
        key = E.seed3(E.seed3(view_key[0], seat, salt), s[E.G_TURN], E.seed2(s[E.G_CTR], s[E.G_NEV]))
        determinize(s, w, seat, key, unseen)
    wmem[0, B.M_PLAN] = 0
    wmem[1, B.M_PLAN] = 0


@numba.njit(cache=True, inline="always")
def game_over(ctx):
    """The work game has ended."""
    return ctx[7][E.G_WINNER] >= 0


@numba.njit(cache=True, inline="always")
def to_act(ctx):
    """The seat that owes the work game's decision."""
    return np.int64(E.to_act(ctx[7], ctx[1]))


@numba.njit(cache=True)
def answer(s, R, dist, nbr, W, DV, DP, DN, mem, lg, nl, temperature):
    """A decision outside the own moves (counter window, revival): the policy's answer scored 1, every
    other option 0, each plus Gumbel noise at ``temperature`` keyed by the bot's key and the moment."""
    own = B.choose_code(s, R, dist, nbr, B.BOT_UTILITY, W, DV, DP, DN, mem, lg, nl)
    if temperature <= 0 or nl < 2:
        return own
    best, best_v = own, -np.inf
    moment = E.seed2(s[E.G_NEV], s[E.G_TURN])
    for i in range(nl):
        u = (E.seed3(mem[B.M_KEY], moment, lg[i]) % (1 << 52) + 0.5) / (1 << 52)
        v = (1.0 if lg[i] == own else 0.0) - temperature * math.log(-math.log(u))
        if v > best_v:
            best, best_v = lg[i], v
    return best


@numba.njit(cache=True)
def play_turn(ctx, bot, temperature, keys, counter, k, cap, record):
    """Play one plan of the seat to act in the work game with the utility weights ``bot`` at
    ``temperature`` (see the module docstring); returns the decisions played, ``record[i]`` the i-th
    action code when ``record`` is not empty. One word is drawn from stream ``k`` of ``keys``/``counter``:
    the bot's noise key for this play."""
    R, dist, nbr, DV, DP, DN, w, wmem, lg, wb, ev = (ctx[1], ctx[2], ctx[3], ctx[4], ctx[5], ctx[6], ctx[7], ctx[8],
                                                     ctx[9], ctx[10], ctx[11])
    word = mix64(keys[k] ^ mix64(counter[k]))
    counter[k] += np.uint64(1)
    seat = E.to_act(w, R)
    turn, luck, own = w[E.G_TURN], chance(w), in_turn(w)
    mem = wmem[seat]
    mem[B.M_KEY] = np.int64(word & _LOW63)
    mem[B.M_PLAN] = 0
    wb[:] = bot
    wb[B.W_TEMPERATURE] = temperature
    recording = record.shape[0] > 0
    n = 0
    while w[E.G_WINNER] < 0 and n < cap:
        if n > 0:
            if E.to_act(w, R) != seat or w[E.G_TURN] != turn:
                break
            if recording and (chance(w) != luck or in_turn(w) != own):
                break
        nl = E.legal(w, R, dist, nbr, lg)
        if in_turn(w):
            code = B.choose_code(w, R, dist, nbr, B.BOT_UTILITY, wb, DV, DP, DN, mem, lg, nl)
        else:
            code = answer(w, R, dist, nbr, wb, DV, DP, DN, mem, lg, nl, temperature)
        if recording:
            record[n] = code
        n += 1
        E.apply(w, R, dist, ev, code)
    return n


@numba.njit(cache=True)
def replay(ctx, plan, n):
    """Play the ``n`` action codes of ``plan`` on the work game; False at the first that is not legal."""
    R, dist, nbr, w, lg, ev = ctx[1], ctx[2], ctx[3], ctx[7], ctx[9], ctx[11]
    for i in range(n):
        if w[E.G_WINNER] >= 0:
            return False
        nl = E.legal(w, R, dist, nbr, lg)
        if not B.in_list(plan[i], lg, nl):
            return False
        E.apply(w, R, dist, ev, plan[i])
    return True


@numba.njit(cache=True)
def closeness(s, R, dist, side):
    """Minus the mean distance of ``side``'s heroes to the enemy base (a dead hero: from its first spawn
    point)."""
    base = E.base_cell(R, 1 - side)
    home = R[E.R_SPAWN0 + side * 2 * E.MAXH]
    total = 0.0
    team = R[E.R_TEAM]
    for k in range(team):
        o = E.ho(side, k)
        c = s[o + E.H_CELL] if s[o + E.H_STATE] != E.HS_DEAD else home
        total += dist[c, base]
    return -total / team


@numba.njit(cache=True)
def features(s, R, dist, seat, out):
    """The own-minus-enemy features the value weighs, ``out[VALUE_BASE:]`` (``out[VALUE_WIN]`` is 0)."""
    other = 1 - seat
    a, b = E.so(seat), E.so(other)
    out[VALUE_WIN] = 0.0
    out[VALUE_BASE] = s[a + E.S_BASE_HP] - s[b + E.S_BASE_HP]
    hp = 0
    for k in range(R[E.R_TEAM]):
        if s[E.ho(seat, k) + E.H_STATE] != E.HS_DEAD:
            hp += s[E.ho(seat, k) + E.H_HP]
        if s[E.ho(other, k) + E.H_STATE] != E.HS_DEAD:
            hp -= s[E.ho(other, k) + E.H_HP]
    out[VALUE_HERO_HP] = hp
    out[VALUE_ENERGY] = s[a + E.S_ENERGY] - s[b + E.S_ENERGY]
    out[VALUE_TIER] = s[a + E.S_TIER] - s[b + E.S_TIER]
    out[VALUE_PRAYER] = 0.0
    out[VALUE_ATTACK] = 0.0
    out[VALUE_MAGIC] = 0.0
    for c in range(R[E.R_C]):
        side = s[E.B_SIDE + c]
        if side < 0:
            continue
        sign = 1.0 if side == seat else -1.0
        eff = R[E.R_TW_EFF + s[E.B_KIND + c]]
        if eff == E.E_DICE:
            out[VALUE_PRAYER] += sign
        elif eff == E.E_ATTACK:
            out[VALUE_ATTACK] += sign
        elif eff == E.E_HAND:
            out[VALUE_MAGIC] += sign
    out[VALUE_CARDS] = s[a + E.S_NHAND] - s[b + E.S_NHAND]
    out[VALUE_DEATHS] = s[a + E.S_LOST] - s[b + E.S_LOST]
    out[VALUE_ADVANCE] = closeness(s, R, dist, seat) - closeness(s, R, dist, other)


@numba.njit(cache=True)
def value_of(s, R, dist, seat, weights):
    """``seat``'s worth of game ``s``: ``± weights[VALUE_WIN]`` once over (a draw 0), else the weighted sum
    of :func:`features`."""
    if s[E.G_WINNER] >= 0:
        if s[E.G_WINNER] == 2:
            return 0.0
        return weights[VALUE_WIN] if s[E.G_WINNER] == seat else -weights[VALUE_WIN]
    f = np.empty(NVALUES, np.float64)
    features(s, R, dist, seat, f)
    v = 0.0
    for i in range(1, NVALUES):
        v += weights[i] * f[i]
    return v


@numba.njit(cache=True, inline="always")
def value(ctx, seat, bot, weights):
    """The work game's worth to ``seat`` (:func:`value_of`)."""
    return value_of(ctx[7], ctx[1], ctx[2], seat, weights)


#: the kit's search compiled against the hooks above
search_turn = compile_turn_search(
    {"copy_game": copy_game, "play_turn": play_turn, "replay": replay, "game_over": game_over, "to_act": to_act,
     "value": value},
    __file__,
)
