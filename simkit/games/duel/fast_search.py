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

from pathlib import Path

import numba
import numpy as np

from simkit.games.duel import bots as B
from simkit.games.duel import determinize as D
from simkit.games.duel import engine as E
from simkit.games.duel.bots_config import W
from simkit.games.duel.tables import F_TYPE, POISON, REGENERATION, SHIELD, STRENGTH, T_WEAPON
from simkit.games.kits import turn_search as loop
from simkit.games.kits.mix import mix64
from simkit.games.kits.numba_cache import drop_stale_cache

# the search budget, in the order of the loop's params (all seven: POLICY_TEMPERATURE is always given)
PLANS, DEPTH, TEMPERATURE, REPLY_TEMPERATURE = loop.PLANS, loop.DEPTH, loop.TEMPERATURE, loop.REPLY_TEMPERATURE
SAMPLES, MARGIN, POLICY_TEMPERATURE = loop.SAMPLES, loop.MARGIN, loop.POLICY_TEMPERATURE
PARAMS = loop.POLICY_TEMPERATURE + 1
#: what a search does with the hidden cards (``hidden`` of a search table), by its code
HIDDEN = ("absent", "sample")
ABSENT, SAMPLE = range(2)
#: the value weights, in the order of :data:`simkit.games.duel.bots_config.VALUE_NAMES`
VALUE_HP, VALUE_SHIELD, VALUE_POISON, VALUE_STRENGTH, VALUE_WEAPONS, VALUE_POLICY, VALUE_WIN = range(7)
#: a turn reaching this many actions in a simulation ends its play phase
TURN_CAP = 64
_TEMP = W["temperature"]
_SHIFT = np.int64(1024)
_WORLD_SALT = np.uint64(0x0D37E2A11CE5D0E1)  # keys a search's drawn worlds apart from its candidates' stream


_HERE = Path(__file__).parent
_KITS = _HERE.parent / "kits"
# today's duel sources and the kits': this folder's cache is dropped when any of them changes
drop_stale_cache(_HERE, [*sorted(_HERE.glob("*.py")), _KITS / "turn_search.py", _KITS / "mix.py"])


# ---- the hooks -----------------------------------------------------------------------------------
# ctx = (st, cd, ef, worlds, work, view, scratch, out, w): the rules, the search's worlds (one per
# sample, written by prepare), the simulated game, a view and a step scratch for the bots, their
# legal-action buffer, and a weight vector the bots play with.


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
        b = E.base(q)
        root[b + E.P_NSRC] = 0
        if q != seat:
            root[b + E.P_NHAND] = 0
            root[b + E.P_NDISC] = 0
            root[b + E.P_NTRAP] = 0


def make_ctx(st, cd, ef, samples, bot_weights):
    """A search context for games of these rules: room for ``samples`` worlds, a weight vector of
    ``bot_weights`` entries."""
    s = np.empty(E.STATE_SIZE, np.int64)
    return (st, cd, ef, np.empty((max(1, samples), E.STATE_SIZE), np.int64), np.empty_like(s), np.empty_like(s),
            np.empty_like(s), np.empty((E.MAX_LEGAL, 3), np.int64), np.empty(bot_weights, np.float64))


@numba.njit(cache=True)
def prepare(ctx, s, seat, own, decks, hidden, samples, key):
    """Write the worlds of a search by ``seat`` of real game ``s`` into ``ctx``: ``samples`` of them.

    ``hidden``: ``ABSENT`` (every world is :func:`root_of`) or ``SAMPLE`` (world ``j`` drawn from the
    seat's view by :func:`~simkit.games.duel.determinize.determinize` with salt ``mix64(key ^ j)``, from
    ``own`` (the seat's deck list) and ``decks`` (the candidate deck lists of the opponent); the
    :func:`root_of` world where no deck agrees with the view)."""
    worlds = ctx[3]
    root_of(s, seat, worlds[0])
    if hidden == SAMPLE:
        v = ctx[5]
        E.make_view(s, seat, v)
        for j in range(samples):
            if not D.determinize(v, own, decks, mix64(key ^ mix64(np.uint64(j) ^ _WORLD_SALT)), ctx[1], worlds[j]):
                root_of(s, seat, worlds[j])
    else:
        for j in range(1, samples):
            worlds[j, :] = worlds[0]


@numba.njit(cache=True, inline="always")
def copy_game(ctx, g, seat, salt):
    """Copy world ``salt`` of the search (written by :func:`prepare` from ``seat``'s view; never the
    real game's hidden cards) into the work game."""
    ctx[4][:] = ctx[3][salt]


@numba.njit(cache=True, inline="always")
def game_over(ctx):
    """The work game has ended."""
    return ctx[4][E.G_PHASE] == E.PH_OVER


@numba.njit(cache=True, inline="always")
def to_act(ctx):
    """The seat to act in the work game."""
    return np.int64(ctx[4][E.G_CUR])


@numba.njit(cache=True)
def play_turn(ctx, bot, temperature, keys, counter, k, cap, record):
    """Play the rest of the work game's turn with the utility weights ``bot`` at ``temperature``
    (each decision from the acting seat's view of the work game, as :func:`.bots.play_one` plays),
    to its end or the game's; returns the actions played, ``record[i]`` the i-th (encoded) when
    ``record`` is not empty. Words come from stream ``k`` of ``keys``/``counter``."""
    st, cd, ef, s, v, scratch, out, w = ctx[0], ctx[1], ctx[2], ctx[4], ctx[5], ctx[6], ctx[7], ctx[8]
    w[:] = bot
    w[_TEMP] = temperature
    n = 0
    while s[E.G_PHASE] != E.PH_OVER:
        if n >= cap and s[E.G_PHASE] == E.PH_PLAY:
            kind, x, y = E.K_END_PLAY, np.int64(0), np.int64(0)
        else:
            E.make_view(s, s[E.G_CUR], v)
            kind, x, y, c = B.decide(v, B.BOT_UTILITY, w, keys[k], np.int64(counter[k]), out, scratch, st, cd, ef)
            counter[k] = np.uint64(c)
        if n < record.shape[0]:
            record[n] = encode(kind, x, y)
        n += 1
        E.step(s, kind, x, y, st, cd, ef)
        if kind == E.K_END_TURN:
            break
    return min(n, record.shape[0]) if record.shape[0] > 0 else n


@numba.njit(cache=True)
def replay(ctx, plan, n):
    """Play the ``n`` encoded actions of ``plan`` on the work game; False at the first that is not legal.
    A game that ends on the way (an opponent's counter card in a drawn world) stops the plan there: the
    candidate is valued at that end."""
    st, cd, ef, s = ctx[0], ctx[1], ctx[2], ctx[4]
    for i in range(n):
        if s[E.G_PHASE] == E.PH_OVER:
            return True
        kind, x, y = decode(plan[i])
        if E.check(s, kind, x, y, st, cd) != E.R_OK:
            return False
        E.step(s, kind, x, y, st, cd, ef)
    return True


@numba.njit(cache=True)
def value(ctx, me, bot, weights):
    """The work game's worth to seat ``me``: ``weights`` (see ``VALUE_*``) times the HP, Shield,
    Poison (on the opponent) and Strength differences, the equipped weapons' difference and the
    policy ``bot``'s utility of ``me``'s view; a finished game is worth ``± weights[VALUE_WIN]``
    plus the HP term."""
    cd, s, v = ctx[1], ctx[4], ctx[5]
    b, o = E.base(me), E.base(1 - me)
    x = weights[VALUE_HP] * np.float64(s[b + E.P_HP] - s[o + E.P_HP])
    if s[E.G_PHASE] == E.PH_OVER:
        if s[E.G_WINNER] == me:
            return x + weights[VALUE_WIN]
        if s[E.G_WINNER] == E.DRAW:
            return x
        return x - weights[VALUE_WIN]
    x += weights[VALUE_SHIELD] * np.float64(s[b + E.P_ST + SHIELD] - s[o + E.P_ST + SHIELD])
    x += weights[VALUE_POISON] * np.float64(s[o + E.P_ST + POISON] - s[b + E.P_ST + POISON])
    own = s[b + E.P_ST + STRENGTH] + s[b + E.P_ST + REGENERATION]
    x += weights[VALUE_STRENGTH] * np.float64(own - s[o + E.P_ST + STRENGTH] - s[o + E.P_ST + REGENERATION])
    for i in range(s[E.G_N]):
        for q, sign in ((b, 1.0), (o, -1.0)):
            if s[q + E.A_ZONE + i] == E.Z_EQUIP and cd[s[q + E.A_CARD + i], F_TYPE] == T_WEAPON:
                x += sign * weights[VALUE_WEAPONS]
    if weights[VALUE_POLICY] != 0.0:
        E.make_view(s, me, v)
        x += weights[VALUE_POLICY] * B.utility(v, me, bot, cd)
    return x


# ---- the loop, compiled against the hooks above -----------------------------------------------------


search_turn = loop.compile_turn_search(
    {"copy_game": copy_game, "play_turn": play_turn, "replay": replay, "game_over": game_over, "to_act": to_act,
     "value": value},
    __file__,
)


# ---- whole games ---------------------------------------------------------------------------------------


@numba.njit(cache=True)
def play_one(s, deck0, deck1, seed, bot_seed, kinds, policy, reply, params, weights, hidden, decks, st, cd, ef, log,
             cap):
    """:func:`simkit.games.duel.bots.play_one` where a seat of kind ``BOT_SEARCH`` plans its turns.

    ``policy[p]``/``reply[p]``: seat ``p``'s utility weights (its own for a utility bot);
    ``params[p]``: the budget (``float64[PARAMS]``, the loop's order); ``weights[p]``: the value
    weights; ``hidden[p]``: ``ABSENT`` or ``SAMPLE``; ``decks``: the opponent deck lists a ``SAMPLE``
    search draws from (every legal deck of the rules). A search seat plans at a decision with no plan
    left and plays the plan while it holds; it re-plans when a planned action is not legal on the real
    game or an opponent's counter card fired (the only hidden cards a turn meets)."""
    E.setup(s, deck0, deck1, seed, st, cd, ef)
    v = np.zeros_like(s)
    scratch = np.zeros_like(s)
    out = np.empty((E.MAX_LEGAL, 3), np.int64)
    samples = max(1, int(params[0, SAMPLES]), int(params[1, SAMPLES]))
    ctx = (st, cd, ef, np.empty((samples, s.shape[0]), np.int64), np.empty_like(s), np.empty_like(s),
           np.empty_like(s), out, np.empty(policy.shape[1], np.float64))
    keys = np.array([np.uint64(bot_seed)])
    counter = np.zeros(1, np.uint64)
    plan = np.empty(TURN_CAP + 1, np.int64)
    best = np.empty(TURN_CAP + 1, np.int64)
    seen = np.empty(max(int(params[0, PLANS]), int(params[1, PLANS]), 1), np.uint64)
    left, at = 0, 0
    played = 0
    while s[E.G_PHASE] != E.PH_OVER:
        p = s[E.G_CUR]
        if kinds[p] == B.BOT_SEARCH:
            ok = False
            if at < left:
                k, x, y = decode(best[at])
                ok = E.check(s, k, x, y, st, cd) == E.R_OK
            if not ok:
                key = mix64(keys[0] ^ mix64(counter[0] ^ _WORLD_SALT))
                prepare(ctx, s, p, deck0 if p == 0 else deck1, decks, hidden[p], max(1, int(params[p, SAMPLES])), key)
                left = search_turn(ctx, 0, p, policy[p], reply[p], params[p], weights[p], keys, counter, TURN_CAP,
                                   plan, best, seen)
                at = 0
                k, x, y = decode(best[0])
                if left == 0 or E.check(s, k, x, y, st, cd) != E.R_OK:  # never expected: the policy decides
                    E.make_view(s, p, v)
                    k, x, y, c = B.decide(v, B.BOT_UTILITY, policy[p], keys[0], np.int64(counter[0]), out, scratch,
                                          st, cd, ef)
                    counter[0] = np.uint64(c)
                    left = 0
            at += 1
        else:
            E.make_view(s, p, v)
            k, x, y, c = B.decide(v, kinds[p], policy[p], keys[0], np.int64(counter[0]), out, scratch, st, cd, ef)
            counter[0] = np.uint64(c)
            left = 0
        traps = s[E.base(1 - p) + E.P_NTRAP]
        if played < log.shape[0]:
            log[played, 0], log[played, 1], log[played, 2] = k, x, y
        E.step(s, k, x, y, st, cd, ef)
        if s[E.base(1 - p) + E.P_NTRAP] < traps or k == E.K_END_TURN:
            left = 0
        played += 1
        if played >= cap:
            raise RuntimeError("a duel game exceeded the action cap")
    return played


@numba.njit(cache=True)
def play_many(decks0, decks1, seeds, bot_seeds, kinds, policy, reply, params, weights, hidden, decks, st, cd, ef,
              result, cap):
    """:func:`simkit.games.duel.bots.play_many` with :func:`play_one`'s players."""
    s = np.empty(E.STATE_SIZE, np.int64)
    log = np.empty((0, 3), np.int64)
    for g in range(decks0.shape[0]):
        n = play_one(s, decks0[g], decks1[g], seeds[g], bot_seeds[g], kinds, policy, reply, params, weights, hidden,
                     decks, st, cd, ef, log, cap)
        result[g, 0] = s[E.G_WINNER]
        result[g, 1] = s[E.G_REASON]
        result[g, 2] = s[E.G_TURN]
        result[g, 3] = s[E.base(0) + E.P_HP]
        result[g, 4] = s[E.base(1) + E.P_HP]
        result[g, 5] = n
        E.write_tally(s, result[g, 6:])
