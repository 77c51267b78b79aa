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

from simkit.games.magic import bots as B
from simkit.games.magic import engine as E
from simkit.games.magic.search import decode, encode, root_key, root_of
from simkit.games.magic.search_loop import PLANS, search_plan

BOT_SEARCH = 2
#: a plan reaching this many words (two per action) ends; a Magic War turn has far fewer actions
PLAN_CAP = 512
#: ``stats`` columns: per seat, the searches made and the actions a search seat played
ST_SEARCHES, ST_ACTIONS = 0, 2


@njit(cache=True)
def play_game(s, kinds, policy, reply, params, values, keys, ut, sk, st, rc, record, stats):
    """Play the game in ``s`` to its end (:func:`simkit.games.magic.bots.play_game` with search seats).

    ``kinds[p]``: ``BOT_RANDOM``, ``BOT_UTILITY`` or :data:`BOT_SEARCH`; ``policy[p]``: seat ``p``'s utility
    weights (a search seat's policy), ``reply[p]``, ``params[p]`` (:mod:`.search_loop`'s budget) and
    ``values[p]`` (:data:`~.search.VALUES` weights) a search seat's; ``keys[p]``: seat ``p``'s bot stream;
    ``record``: rows of 5 when it has room; ``stats``: ``int64[4]`` (:data:`ST_SEARCHES` + seat, :data:`ST_ACTIONS`
    + seat) added to. Returns the actions played, -1 past the action cap, -2 on an illegal choice."""
    out = np.zeros((E.MAX_LEGAL, 5), np.int64)
    scratch = np.zeros(s.shape[0], np.int64)
    ctx = (ut, sk, st, rc, np.zeros(s.shape[0], np.int64), np.zeros(s.shape[0], np.int64),
           np.zeros((E.MAX_LEGAL, 5), np.int64), np.zeros(s.shape[0], np.int64), np.zeros(1, np.int64),
           np.zeros(policy.shape[1], np.float64))
    streams = keys.astype(np.uint64)  # the kit's streams are uint64 words; the same words as the int64 keys
    counters = np.zeros(2, np.uint64)
    most = max(int(params[0, PLANS]), int(params[1, PLANS]), 1)
    plan = np.zeros(PLAN_CAP + 2, np.int64)
    best = np.zeros(PLAN_CAP + 2, np.int64)
    seen = np.zeros(most, np.uint64)
    left, at = 0, 0
    k = 0
    while s[E.G_PHASE] != E.PH_OVER:
        p = s[E.G_CUR]
        if kinds[p] == BOT_SEARCH and (s[E.G_PHASE] == E.PH_PLAY or p == 1):
            ok = False
            if at < left:
                kind, a, b, d = decode(best[at])
                c = best[at + 1]
                ok = E.check(s, kind, a, b, c, d, ut, sk, st, rc) == E.R_OK
            if not ok:
                root_of(s, root_key(streams[p], counters[p]), ctx[4])
                left = search_plan(ctx, p, p, policy[p], reply[p], params[p], values[p], streams, counters, PLAN_CAP,
                                   plan, best, seen)
                stats[ST_SEARCHES + p] += 1
                at = 0
                if left == 0:
                    return -2
                kind, a, b, d = decode(best[0])
                c = best[1]
            at += 2
            stats[ST_ACTIONS + p] += 1
        else:
            bot = B.BOT_UTILITY if kinds[p] == BOT_SEARCH else kinds[p]
            n = min(E.legal(s, out, ut, sk, st, rc, False), out.shape[0])
            i = B.choose(s, out, n, bot, policy[p], streams[p], counters[p:p + 1], ut, sk, st, rc, scratch)
            kind, a, b, c, d = out[i, 0], out[i, 1], out[i, 2], out[i, 3], out[i, 4]
            left = 0
        if E.check(s, kind, a, b, c, d, ut, sk, st, rc) != E.R_OK:
            return -2
        if k < record.shape[0]:
            record[k, 0], record[k, 1], record[k, 2], record[k, 3], record[k, 4] = kind, a, b, c, d
        dice, cards, turn = s[E.G_DPTR], s[E.G_KPTR], s[E.G_TURN]
        E.step(s, kind, a, b, c, d, ut, sk, st, rc)
        if s[E.G_DPTR] != dice or s[E.G_KPTR] != cards or s[E.G_TURN] != turn or s[E.G_CUR] != p:
            left = 0
        k += 1
        if k > B.ACTION_CAP:
            return -1
    return k


__all__ = ["BOT_SEARCH", "PLAN_CAP", "encode", "play_game"]
