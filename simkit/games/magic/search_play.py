"""Whole Magic War games where a seat may be a search bot (the kit's search, :mod:`.search_loop`, over
:mod:`.search`'s hooks).

A search seat, in play and in the second player's deployment, searches at a decision with no plan left and
follows the chosen plan while it holds (each action still legal on the real game); a plan ends at its
turn's end or at the action that rolls dice or draws a card, so it never outlives the chance it did not
see. The first player deploys by its policy: the second player's army is hidden then, and a deployment
plan runs to the other seat's decision. A utility or random seat plays exactly as in
:func:`simkit.games.magic.bots.play_game`, from the same per-seat streams: a game with no search seat,
or with search seats of one plan, is that function's game action for action.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.kits.experience import note_choice
from simkit.games.kits.turn_search import budget
from simkit.games.magic import bots as B
from simkit.games.magic import engine as E
from simkit.games.magic.bots import WEIGHTS
from simkit.games.magic.lead import note_step
from simkit.games.magic.search import decode, encode, root_key, root_of
from simkit.games.magic.search_loop import search_plan
from simkit.games.magic.state import GAME, OVER, PLAY

BOT_SEARCH = 2
#: a plan reaching this many words (two per action) ends; a Magic War turn has far fewer actions
PLAN_CAP = 512


@njit(cache=True)
def play_game(g, kinds, policy, reply, params, values, keys, rules, record, stats, lead, band, x):
    """Play the game ``g`` to its end (:func:`simkit.games.magic.bots.play_game` with search seats).

    ``kinds[p]``: ``BOT_RANDOM``, ``BOT_UTILITY`` or :data:`BOT_SEARCH`; ``policy[p]``: seat ``p``'s utility
    weights (a search seat's policy), ``reply[p]``, ``params[p]`` (:mod:`.search_loop`'s budget) and
    ``values[p]`` (:data:`~.search.VALUES`) a search seat's; ``keys[p]``: seat ``p``'s bot stream; ``record``:
    rows of 5 when it has room; ``stats``: ``int64[2, 2]``, per seat the searches made and the actions a
    search seat played, added to; ``x``: the experience record, each decision (with the number of legal actions,
    a search seat's too) and the lead at each turn's end noted in it (:mod:`simkit.games.magic.lead`: ``lead``
    its weights, ``band`` the level band). Returns the actions played, -1 past the action cap, -2 on an illegal
    choice."""
    out = np.zeros((E.MAX_LEGAL, 5), np.int64)
    ctx = (rules, np.zeros(1, GAME), np.zeros(1, GAME), np.zeros((E.MAX_LEGAL, 5), np.int64), np.zeros(1, np.int64),
           np.zeros(1, WEIGHTS))
    streams = keys.astype(np.uint64)  # the kit's streams are uint64 words; the same words as the int64 keys
    counters = np.zeros(2, np.uint64)
    most = max(budget(params[0])[0], budget(params[1])[0], 1)  # the most candidate plans of a decision
    plan = np.zeros(PLAN_CAP + 2, np.int64)
    best = np.zeros(PLAN_CAP + 2, np.int64)
    seen = np.zeros(most, np.uint64)
    left, at = 0, 0
    k = 0
    while g.phase != OVER:
        p = g.to_act
        if kinds[p] == BOT_SEARCH:  # a utility or random seat counts its legal actions below, as it lists them
            note_choice(x, E.legal(g, out, rules, False))
        if kinds[p] == BOT_SEARCH and (g.phase == PLAY or p == 1):
            ok = False
            if at < left:
                kind, a, b, d = decode(best[at])
                c = best[at + 1]
                ok = E.check(g, kind, a, b, c, d, rules) == E.OK
            if not ok:
                root_of(g, root_key(streams[p], counters[p]), ctx[1])
                left = search_plan(ctx, p, p, policy[p], reply[p], params[p], values[p], streams, counters, PLAN_CAP,
                                   plan, best, seen)
                stats[p, 0] += 1
                at = 0
                if left == 0:
                    return -2
                kind, a, b, d = decode(best[0])
                c = best[1]
            at += 2
            stats[p, 1] += 1
        else:
            bot = B.BOT_UTILITY if kinds[p] == BOT_SEARCH else kinds[p]
            n = E.legal(g, out, rules, False)
            if kinds[p] != BOT_SEARCH:
                note_choice(x, n)
            n = min(n, out.shape[0])
            i = B.choose(g, out, n, bot, policy[p], streams[p], counters[p:p + 1], rules)
            kind, a, b, c, d = out[i, 0], out[i, 1], out[i, 2], out[i, 3], out[i, 4]
            left = 0
        if E.check(g, kind, a, b, c, d, rules) != E.OK:
            return -2
        if k < record.shape[0]:
            record[k, 0], record[k, 1], record[k, 2], record[k, 3], record[k, 4] = kind, a, b, c, d
        dice, cards, turn = g.dice_rolled, g.pile_drawn, g.turn
        E.step(g, kind, a, b, c, d, rules)
        if g.turn != turn or g.phase == OVER:  # a turn ended: its lead is noted
            note_step(x, g, turn, rules, lead, band)
        if g.dice_rolled != dice or g.pile_drawn != cards or g.turn != turn or g.to_act != p:
            left = 0
        k += 1
        if k > B.ACTION_CAP:
            return -1
    return k


__all__ = ["BOT_SEARCH", "PLAN_CAP", "encode", "play_game"]
