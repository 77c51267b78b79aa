"""What the kit's search (:mod:`simkit.games.kits.turn_search`) needs of Krypton Tower War, compiled.

``ctx`` (a :class:`Context`): the real game (a one-game array of :data:`~simkit.games.krypton.state.GAME`),
the packed rules (a one-record array: a tuple holds records by value) and map tables, the dice tables of the
utility bots, the one-game work state the simulations run on, the two seats' utility-bot memories there, a
legal-action buffer, the bot's weight scratch (a one-record array), an event buffer that logs nothing, the
game's view key and the seats' peek flags (``int64[3]``) and a card scratch.

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
from collections import namedtuple

import numba
import numpy as np

from simkit.games.kits.mix import mix64
from simkit.games.kits.state import record
from simkit.games.kits.turn_search import compile_turn_search
from simkit.games.krypton import bots as B
from simkit.games.krypton import engine as E
from simkit.games.krypton.state import DRAW, E_ATTACK, E_DICE, E_HAND, HS_DEAD, NCARDS

_LOW63 = np.uint64(0x7FFFFFFFFFFFFFFF)

#: the value weights of a search bot (``value_<name>`` in its ``[bots.<name>]`` table): (name, meaning)
VALUES = (
    ("win", "a won game (a lost one: minus it; a draw: 0)"),
    ("base", "per base HP, own minus the enemy's"),
    ("hero_hp", "per HP of heroes on the board, own minus the enemy's"),
    ("energy", "per energy in store, own minus the enemy's"),
    ("tier", "per base tier, own minus the enemy's"),
    ("prayer_towers", "per Prayer Tower (dice tower), own minus the enemy's"),
    ("attack_towers", "per Attack Tower, own minus the enemy's"),
    ("magic_towers", "per Magic Tower (hand tower), own minus the enemy's"),
    ("cards", "per magic card in hand, own minus the enemy's"),
    ("deaths", "per hero death so far, own minus the enemy's (a dead hero comes back whole: its HP alone would "
               "make dying look cheap)"),
    ("advance", "per cell the own heroes stand closer to the enemy base than the enemy's heroes to the own "
                "(mean over heroes; a dead hero counts from its spawn point)"),
)
VALUE_NAMES = tuple(f"value_{name}" for name, _ in VALUES)
#: a search bot's value weights as the compiled value reads them (``weights.value_base``...)
VALUE_WEIGHTS = record("ValueWeights", [(name, np.float64) for name in VALUE_NAMES],
                       "A search bot's value weights (VALUES: value_<name>).")
#: the own-minus-enemy features the value weighs (``f.base_diff``...: every name of VALUES but win)
FEATURES = record("Features", [(f"{name}_diff", np.float64) for name, _ in VALUES[1:]],
                  "A position's own-minus-enemy features for one seat.")

#: the hooks' context, passed through the kit's search unopened
Context = namedtuple("Context", ["real", "rules", "dist", "nbr", "DV", "DP", "DN", "work", "wmem", "lg", "wb", "ev",
                                 "view_key", "unseen"])


@numba.njit(cache=True)
def chance(s):
    """A count that grows whenever chance or hidden cards may enter: draws on the stream plus attack
    judgments begun."""
    return s.ctr + s.sides[0].attacks + s.sides[1].attacks


@numba.njit(cache=True)
def in_turn(s):
    """The decision owed is a move of the side whose hero turn it is (no revival choice, no judgment)."""
    return s.n_revivals_owed == 0 and s.judgment.on == 0


@numba.njit(cache=True)
def determinize(s, w, seat, key, unseen):
    """Write into ``w`` ``seat``'s view of ``s`` (``w`` already a copy of ``s``): the other side's hand and
    the pile dealt again from the cards ``seat`` cannot see (in card order, shuffled by ``key``), the stream
    keyed by ``key``, no scripted dice."""
    other = w.sides[1 - seat]
    n = 0
    for card in range(NCARDS):
        copies = other.hand[card]
        for i in range(w.n_pile):
            if w.pile[i] == card:
                copies += 1
        for _ in range(copies):
            unseen[n] = card
            n += 1
    for i in range(n - 1, 0, -1):
        j = E.seed2(key, i) % (i + 1)
        a = unseen[i]
        unseen[i] = unseen[j]
        unseen[j] = a
    k = other.n_hand
    for card in range(NCARDS):
        other.hand[card] = 0
    for i in range(k):
        other.hand[unseen[i]] += 1
    for i in range(n - k):
        w.pile[i] = unseen[k + i]
    w.key = E.seed2(key, n + 1)
    w.ctr = 0
    w.n_scripted = 0
    w.next_scripted = 0
    w.script_overrun = 0


@numba.njit(cache=True, inline="always")
def copy_game(ctx, g, seat, salt):
    """Copy ``seat``'s determinized view of the real game (salt ``salt``) into the work state; a peeking
    seat's (``view_key[1 + seat]``, an oracle) gets the real game itself, its future dice and hidden cards."""
    s, view_key = ctx.real[0], ctx.view_key
    ctx.work[0] = s
    if view_key[1 + seat] == 0:
        key = E.seed3(E.seed3(view_key[0], seat, salt), s.turn, E.seed2(s.ctr, s.n_events))
        determinize(s, ctx.work[0], seat, key, ctx.unseen)
    ctx.wmem[0].planned = 0
    ctx.wmem[1].planned = 0


@numba.njit(cache=True, inline="always")
def game_over(ctx):
    """The work game has ended."""
    return ctx.work[0].winner >= 0


@numba.njit(cache=True, inline="always")
def to_act(ctx):
    """The seat that owes the work game's decision."""
    return np.int64(E.to_act(ctx.work[0], ctx.rules[0]))


@numba.njit(cache=True)
def answer(s, rules, dist, nbr, w, DV, DP, DN, mem, lg, nl, temperature):
    """A decision outside the own moves (counter window, revival): the policy's answer scored 1, every
    other option 0, each plus Gumbel noise at ``temperature`` keyed by the bot's key and the moment."""
    own = B.choose_code(s, rules, dist, nbr, B.BOT_UTILITY, w, DV, DP, DN, mem, lg, nl)
    if temperature <= 0 or nl < 2:
        return own
    best, best_v = own, -np.inf
    moment = E.seed2(s.n_events, s.turn)
    for i in range(nl):
        u = (E.seed3(mem.key, moment, lg[i]) % (1 << 52) + 0.5) / (1 << 52)
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
    rules, dist, nbr, DV, DP, DN, lg, ev = ctx.rules[0], ctx.dist, ctx.nbr, ctx.DV, ctx.DP, ctx.DN, ctx.lg, ctx.ev
    w = ctx.work[0]
    word = mix64(keys[k] ^ mix64(counter[k]))
    counter[k] += np.uint64(1)
    seat = E.to_act(w, rules)
    turn, luck, own = w.turn, chance(w), in_turn(w)
    mem = ctx.wmem[seat]
    mem.key = np.int64(word & _LOW63)
    mem.planned = 0
    ctx.wb[0] = bot
    wb = ctx.wb[0]
    wb.temperature = temperature
    recording = record.shape[0] > 0
    n = 0
    while w.winner < 0 and n < cap:
        if n > 0:
            if E.to_act(w, rules) != seat or w.turn != turn:
                break
            if recording and (chance(w) != luck or in_turn(w) != own):
                break
        nl = E.legal(w, rules, dist, nbr, lg)
        if in_turn(w):
            code = B.choose_code(w, rules, dist, nbr, B.BOT_UTILITY, wb, DV, DP, DN, mem, lg, nl)
        else:
            code = answer(w, rules, dist, nbr, wb, DV, DP, DN, mem, lg, nl, temperature)
        if recording:
            record[n] = code
        n += 1
        E.apply(w, rules, dist, ev, code)
    return n


@numba.njit(cache=True)
def replay(ctx, plan, n):
    """Play the ``n`` action codes of ``plan`` on the work game; False at the first that is not legal."""
    rules, dist, nbr, lg, ev = ctx.rules[0], ctx.dist, ctx.nbr, ctx.lg, ctx.ev
    w = ctx.work[0]
    for i in range(n):
        if w.winner >= 0:
            return False
        nl = E.legal(w, rules, dist, nbr, lg)
        if not B.in_list(plan[i], lg, nl):
            return False
        E.apply(w, rules, dist, ev, plan[i])
    return True


@numba.njit(cache=True)
def closeness(s, rules, dist, side):
    """Minus the mean distance of ``side``'s heroes to the enemy base (a dead hero: from its first spawn
    point)."""
    base = E.base_cell(rules, 1 - side)
    home = rules.spawns[side, 0]
    total = 0.0
    team = rules.team
    for k in range(team):
        h = E.hero(s, side, k)
        c = h.cell if h.state != HS_DEAD else home
        total += dist[c, base]
    return -total / team


@numba.njit(cache=True)
def features(s, rules, dist, seat, f):
    """The own-minus-enemy :data:`FEATURES` of game ``s`` for ``seat`` into ``f``."""
    other = 1 - seat
    a, b = s.sides[seat], s.sides[other]
    f.base_diff = a.base_hp - b.base_hp
    hp = 0
    for k in range(rules.team):
        if E.hero(s, seat, k).state != HS_DEAD:
            hp += E.hero(s, seat, k).hp
        if E.hero(s, other, k).state != HS_DEAD:
            hp -= E.hero(s, other, k).hp
    f.hero_hp_diff = hp
    f.energy_diff = a.energy - b.energy
    f.tier_diff = a.tier - b.tier
    prayer, attack, magic = 0.0, 0.0, 0.0
    for c in range(rules.cells):
        side = s.tower_side[c]
        if side < 0:
            continue
        sign = 1.0 if side == seat else -1.0
        eff = rules.towers[s.tower_kind[c]].effect
        if eff == E_DICE:
            prayer += sign
        elif eff == E_ATTACK:
            attack += sign
        elif eff == E_HAND:
            magic += sign
    f.prayer_towers_diff = prayer
    f.attack_towers_diff = attack
    f.magic_towers_diff = magic
    f.cards_diff = a.n_hand - b.n_hand
    f.deaths_diff = a.lost - b.lost
    f.advance_diff = closeness(s, rules, dist, seat) - closeness(s, rules, dist, other)


@numba.njit(cache=True)
def value_of(s, rules, dist, seat, weights):
    """``seat``'s worth of game ``s``: ``± weights.value_win`` once over (a draw 0), else the weighted sum
    of :func:`features` (in :data:`VALUES` order)."""
    if s.winner >= 0:
        if s.winner == DRAW:
            return 0.0
        return weights.value_win if s.winner == seat else -weights.value_win
    fs = np.zeros(1, FEATURES)
    f = fs[0]
    features(s, rules, dist, seat, f)
    v = 0.0
    v += weights.value_base * f.base_diff
    v += weights.value_hero_hp * f.hero_hp_diff
    v += weights.value_energy * f.energy_diff
    v += weights.value_tier * f.tier_diff
    v += weights.value_prayer_towers * f.prayer_towers_diff
    v += weights.value_attack_towers * f.attack_towers_diff
    v += weights.value_magic_towers * f.magic_towers_diff
    v += weights.value_cards * f.cards_diff
    v += weights.value_deaths * f.deaths_diff
    v += weights.value_advance * f.advance_diff
    return v


@numba.njit(cache=True, inline="always")
def value(ctx, seat, bot, weights):
    """The work game's worth to ``seat`` (:func:`value_of`)."""
    return value_of(ctx.work[0], ctx.rules[0], ctx.dist, seat, weights)


#: the kit's search compiled against the hooks above
search_turn = compile_turn_search(
    {"copy_game": copy_game, "play_turn": play_turn, "replay": replay, "game_over": game_over, "to_act": to_act,
     "value": value},
    __file__,
)
