"""The search bot for the Card Duel: the kit's turn search (:mod:`simkit.games.kits.turn_search`)
compiled against the duel's six hooks (``copy_game``, ``play_turn``, ``replay``, ``game_over``,
``to_act``, ``value``), and whole games with search bots.

The search starts from the acting seat's *view* (rules page section 12), never from the whole
state. What it does with the hidden cards is data (``hidden`` of the search table, :data:`HIDDEN`):

- ``absent``: the hidden cards are out of play in the world it simulates: the opponent's hand,
  discard pile and trap zone and both source piles count 0 cards, so the opponent draws nothing and
  holds no counter, and an own reshuffle uses the view's blank stream (seed 0); every sample is that
  one world;
- ``sample``: every sample ``j`` (0 included, the world the candidates are drawn on) is a whole game
  drawn from the view by :func:`simkit.games.duel.determinize.determinize`: the opponent's deck among
  the legal ones agreeing with every card shown, its hidden cards dealt to its hand, traps, discard and
  source piles, the own source pile in a drawn order; drawn once per search, keyed by the game's bot
  stream and position, so the candidates meet the same worlds.

The own turn is simulated exactly as the real game plays it except for the opponent's set counter
cards, which only the real game knows: the play loop re-plans whenever one fires, or a planned
action is no longer legal.

Randomness: a game's one bot stream (``derive_seed(seed, "bots")``), shared by both seats as in
:func:`simkit.games.duel.bots.play_one`; the loop draws the first candidate from it and the rest
from a stream keyed by it, so a game depends only on its seed.
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.duel import bots as B
from simkit.games.duel import determinize as D
from simkit.games.duel import engine as E
from simkit.games.duel.state import (
    DRAW,
    K_END_PLAY,
    K_END_TURN,
    MAX_LEGAL,
    PERSONALITY,
    PH_OVER,
    PH_PLAY,
    POISON,
    R_OK,
    REGENERATION,
    SHIELD,
    STATE,
    STRENGTH,
    T_WEAPON,
    Z_DISC,
    Z_EQUIP,
    Z_HAND,
    Z_SRC,
    Z_TRAP,
)
from simkit.games.kits import experience as X
from simkit.games.kits import turn_search as loop
from simkit.games.kits.experience import EXPERIENCE
from simkit.games.kits.mix import mix64
from simkit.games.kits.state import copy

#: what a search does with the hidden cards (``hidden`` of a search table), by its code
HIDDEN = ("absent", "sample")
ABSENT, SAMPLE = range(2)
#: a turn reaching this many actions in a simulation ends its play phase
TURN_CAP = 64
_SHIFT = np.int64(1024)
_WORLD_SALT = np.uint64(0x0D37E2A11CE5D0E1)  # keys a search's drawn worlds apart from its candidates' stream



# ---- the hooks -----------------------------------------------------------------------------------
# ctx = (rules, cards, effects, worlds, work, out, w): the rules; the search's worlds (one per sample, written
# by prepare); the work records (the simulated game, a view and a step scratch for the bots); the bots'
# legal-action buffer; a weight record (one PERSONALITY) the bots play with.


@numba.njit(cache=True)
def encode(kind, x, y):
    """One int64 for the action ``(kind, x, y)`` (``|y| < 512``)."""
    return (kind * _SHIFT + x) * _SHIFT + (y + 512)


@numba.njit(cache=True)
def decode(a):
    """The action ``(kind, x, y)`` of :func:`encode`."""
    y = a % _SHIFT - 512
    a //= _SHIFT
    return a // _SHIFT, a % _SHIFT, y


@numba.njit(cache=True)
def root_of(s, seat, root):
    """Write into ``root`` the search's start: ``seat``'s view of ``s`` with every hidden zone
    counted empty (the hidden cards are out of the simulated game)."""
    E.make_view(s, seat, root)
    for q in range(2):
        seen = root.players[q]
        seen.counts[Z_SRC] = 0
        if q != seat:
            seen.counts[Z_HAND] = 0
            seen.counts[Z_DISC] = 0
            seen.counts[Z_TRAP] = 0


def make_ctx(rules, cards, effects, samples):
    """A search context for games of these rules, with room for ``samples`` worlds."""
    return (rules, cards, effects, np.zeros(max(1, samples), STATE), np.zeros(3, STATE),
            np.empty((MAX_LEGAL, 3), np.int64), np.zeros(1, PERSONALITY))


@numba.njit(cache=True)
def prepare(ctx, s, seat, own, decks, hidden, samples, key):
    """Write the worlds of a search by ``seat`` of real game ``s`` into ``ctx``: ``samples`` of them.

    ``hidden``: ``ABSENT`` (every world is :func:`root_of`) or ``SAMPLE`` (world ``j`` drawn from the
    seat's view by :func:`~simkit.games.duel.determinize.determinize` with salt ``mix64(key ^ j)``, from
    ``own`` (the seat's deck list) and ``decks`` (the candidate deck lists of the opponent); the
    :func:`root_of` world where no deck agrees with the view)."""
    worlds, work = ctx[3], ctx[4]
    root_of(s, seat, worlds[0])
    if hidden == SAMPLE:
        E.make_view(s, seat, work[1])
        for j in range(samples):
            if not D.determinize(work[1], own, decks, mix64(key ^ mix64(np.uint64(j) ^ _WORLD_SALT)), ctx[1],
                                 worlds[j]):
                root_of(s, seat, worlds[j])
    else:
        for j in range(1, samples):
            copy(worlds[j], worlds[0])


@numba.njit(cache=True, inline="always")
def copy_game(ctx, g, seat, salt):
    """Copy world ``salt`` of the search (written by :func:`prepare` from ``seat``'s view; never the
    real game's hidden cards) into the work game."""
    copy(ctx[4][0], ctx[3][salt])


@numba.njit(cache=True, inline="always")
def game_over(ctx):
    """The work game has ended."""
    return ctx[4][0].phase == PH_OVER


@numba.njit(cache=True, inline="always")
def to_act(ctx):
    """The seat to act in the work game."""
    return np.int64(ctx[4][0].to_act)


@numba.njit(cache=True)
def play_turn(ctx, bot, temperature, keys, counter, k, cap, record):
    """Play the rest of the work game's turn with the utility weights ``bot`` at ``temperature``
    (each decision from the acting seat's view of the work game, as :func:`.bots.play_one` plays),
    to its end or the game's; returns the actions played, ``record[i]`` the i-th (encoded) when
    ``record`` is not empty. Words come from stream ``k`` of ``keys``/``counter``."""
    rules, cards, effects, work, out, w = ctx[0], ctx[1], ctx[2], ctx[4], ctx[5], ctx[6]
    copy(w[0], bot)
    w[0].temperature = temperature
    s = work[0]
    n = 0
    while s.phase != PH_OVER:
        if n >= cap and s.phase == PH_PLAY:
            kind, x, y = K_END_PLAY, np.int64(0), np.int64(0)
        else:
            E.make_view(s, s.to_act, work[1])
            kind, x, y, c = B.decide(work[1], B.BOT_UTILITY, w[0], keys[k], np.int64(counter[k]), out, work[2], rules,
                                     cards, effects)
            counter[k] = np.uint64(c)
        if n < record.shape[0]:
            record[n] = encode(kind, x, y)
        n += 1
        E.step(s, kind, x, y, rules, cards, effects)
        if kind == K_END_TURN:
            break
    return min(n, record.shape[0]) if record.shape[0] > 0 else n


@numba.njit(cache=True)
def replay(ctx, plan, n):
    """Play the ``n`` encoded actions of ``plan`` on the work game; False at the first that is not legal.
    A game that ends on the way (an opponent's counter card in a drawn world) stops the plan there: the
    candidate is valued at that end."""
    rules, cards, effects, s = ctx[0], ctx[1], ctx[2], ctx[4][0]
    for i in range(n):
        if s.phase == PH_OVER:
            return True
        kind, x, y = decode(plan[i])
        if E.check(s, kind, x, y, rules, cards) != R_OK:
            return False
        E.step(s, kind, x, y, rules, cards, effects)
    return True


@numba.njit(cache=True)
def value(ctx, me, bot, weights):
    """The work game's worth to seat ``me``: ``weights`` (a :data:`~simkit.games.duel.state.VALUE` record)
    times the HP, Shield, Poison (on the opponent) and Strength differences, the equipped weapons' difference
    and the policy ``bot``'s utility of ``me``'s view; a finished game is worth ``± weights.win`` plus the HP
    term."""
    cards, work = ctx[1], ctx[4]
    s = work[0]
    mine, theirs = s.players[me], s.players[1 - me]
    x = weights.hp * np.float64(mine.hp - theirs.hp)
    if s.phase == PH_OVER:
        if s.winner == me:
            return x + weights.win
        if s.winner == DRAW:
            return x
        return x - weights.win
    x += weights.shield * np.float64(mine.statuses[SHIELD] - theirs.statuses[SHIELD])
    x += weights.poison * np.float64(theirs.statuses[POISON] - mine.statuses[POISON])
    own = mine.statuses[STRENGTH] + mine.statuses[REGENERATION]
    x += weights.strength * np.float64(own - theirs.statuses[STRENGTH] - theirs.statuses[REGENERATION])
    for i in range(s.deck_size):
        for q, sign in ((mine, 1.0), (theirs, -1.0)):
            if q.zone[i] == Z_EQUIP and cards[q.card[i]].type == T_WEAPON:
                x += sign * weights.weapons
    if weights.policy != 0.0:
        E.make_view(s, me, work[1])
        x += weights.policy * B.utility(work[1], me, bot, cards)
    return x


# ---- the loop, compiled against the hooks above -----------------------------------------------------


search_turn = loop.compile_turn_search(
    {"copy_game": copy_game, "play_turn": play_turn, "replay": replay, "game_over": game_over, "to_act": to_act,
     "value": value},
    __file__,
)


# ---- whole games ---------------------------------------------------------------------------------------


@numba.njit(cache=True)
def play_one(s, work, deck0, deck1, seed, bot_seed, kinds, policy, reply, params, weights, hidden, decks, rules,
             cards, effects, log, cap, lead_w, band, xp):
    """:func:`simkit.games.duel.bots.play_one` where a seat of kind ``BOT_SEARCH`` plans its turns.

    ``policy[p]``/``reply[p]``: seat ``p``'s utility weights (its own for a utility bot);
    ``params[p]``: the budget (the kit's ``float64[PARAMS]``); ``weights[p]``: the value
    weights; ``hidden[p]``: ``ABSENT`` or ``SAMPLE``; ``decks``: the opponent deck lists a ``SAMPLE``
    search draws from (every legal deck of the rules). A search seat plans at a decision with no plan
    left and plays the plan while it holds; it re-plans when a planned action is not legal on the real
    game or an opponent's counter card fired (the only hidden cards a turn meets). ``work``: two
    :data:`~simkit.games.duel.state.STATE` records of room for the utility seats' decisions. ``xp``: the
    game's experience record, noted as :func:`simkit.games.duel.bots.play_one` notes it (every action of a
    search seat's plan is a decision among the real game's legal actions). The search's value is a weighed
    score, not a chance to win, so no estimate is noted (the game's ``uncertainty`` stays NaN)."""
    E.setup(s, deck0, deck1, seed, rules, cards, effects)
    X.begin(xp)
    listed = np.empty((MAX_LEGAL, 3), np.int64)  # the real game's legal actions at a search seat's decision
    out = np.empty((MAX_LEGAL, 3), np.int64)
    plans0, _, _, _, samples0, _, _, _ = loop.budget(params[0])
    plans1, _, _, _, samples1, _, _, _ = loop.budget(params[1])
    samples = max(samples0, samples1)
    ctx = (rules, cards, effects, np.zeros(samples, STATE), np.zeros(3, STATE), out, np.zeros(1, PERSONALITY))
    keys = np.array([np.uint64(bot_seed)])
    counter = np.zeros(1, np.uint64)
    plan = np.empty(TURN_CAP + 1, np.int64)
    best = np.empty(TURN_CAP + 1, np.int64)
    seen = np.empty(max(plans0, plans1, 1), np.uint64)
    left, at = 0, 0
    played = 0
    while s.phase != PH_OVER:
        p = s.to_act
        if kinds[p] == B.BOT_SEARCH:
            n = E.legal(s, listed, rules, cards)
            ok = False
            if at < left:
                k, x, y = decode(best[at])
                ok = E.check(s, k, x, y, rules, cards) == R_OK
            if not ok:
                key = mix64(keys[0] ^ mix64(counter[0] ^ _WORLD_SALT))
                prepare(ctx, s, p, deck0 if p == 0 else deck1, decks, hidden[p], samples1 if p else samples0, key)
                left = search_turn(ctx, 0, p, policy[p], reply[p], params[p], weights[p], keys, counter, TURN_CAP,
                                   plan, best, seen)
                at = 0
                k, x, y = decode(best[0])
                if left == 0 or E.check(s, k, x, y, rules, cards) != R_OK:  # never expected: the policy decides
                    E.make_view(s, p, work[0])
                    k, x, y, c = B.decide(work[0], B.BOT_UTILITY, policy[p], keys[0], np.int64(counter[0]), out,
                                          work[1], rules, cards, effects)
                    counter[0] = np.uint64(c)
                    left = 0
            at += 1
        else:
            E.make_view(s, p, work[0])
            n = E.legal(work[0], out, rules, cards)
            k, x, y, c = B.choose(work[0], n, kinds[p], policy[p], keys[0], np.int64(counter[0]), out, work[1], rules,
                                  cards, effects)
            counter[0] = np.uint64(c)
            left = 0
        traps = s.players[1 - p].counts[Z_TRAP]
        if played < log.shape[0]:
            log[played, 0], log[played, 1], log[played, 2] = k, x, y
        X.note_choice(xp, n)  # bots.note_before, written out
        if k == K_END_TURN:
            B.note_turn_end(s, xp, lead_w, band, cards)
        E.step(s, k, x, y, rules, cards, effects)
        if s.players[1 - p].counts[Z_TRAP] < traps or k == K_END_TURN:
            left = 0
        played += 1
        if played >= cap:
            raise RuntimeError("a duel game exceeded the action cap")
    B.note_turn_end(s, xp, lead_w, band, cards)
    return played


@numba.njit(cache=True)
def play_many(decks0, decks1, seeds, bot_seeds, kinds, policy, reply, params, weights, hidden, decks, rules, cards,
              effects, result, cap, lead_w, band, figures):
    """:func:`simkit.games.duel.bots.play_many` with :func:`play_one`'s players."""
    states = np.zeros(3, STATE)  # the game, a bot's view, its scratch
    xps = np.zeros(1, EXPERIENCE)
    log = np.empty((0, 3), np.int64)
    for g in range(decks0.shape[0]):
        n = play_one(states[0], states[1:], decks0[g], decks1[g], seeds[g], bot_seeds[g], kinds, policy, reply,
                     params, weights, hidden, decks, rules, cards, effects, log, cap, lead_w, band, xps[0])
        B.record_result(states[0], n, result[g])
        B.record_figures(states[0], xps[0], figures[g])
