"""The compiled utility bot: every legal action of each game scored and the best one chosen.

One pass per game: the situation (:mod:`.situation`), then summons, moves, attacks, artifact uses
and ending the turn, each part offering its legal actions in flat-layout order (:func:`.choice.offer`),
then :func:`.choice.choose`. Which actions are legal is :mod:`.legal`'s.
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.miracle.fast.attacks import attacks
from simkit.games.miracle.fast.choice import choose, offer
from simkit.games.miracle.fast.moves import moves
from simkit.games.miracle.fast.pack import KBotRef, KRulesRef, KSitRef, KStateRef
from simkit.games.miracle.fast.situation import situate
from simkit.games.miracle.fast.summons import summons
from simkit.games.miracle.fast.uses import uses

F32 = np.float32


@numba.njit(cache=True)
def decide_one(S, R, T, L, sit, g, word, temperature, cand_index, cand_score, cand_high):
    """The chosen flat action of game ``g`` (not over); ``cand_index``/``cand_score``/``cand_high``
    are scratch of the layout's size (int64, float32, float64) and the first two hold the
    candidates and their scores before noise afterwards.

    Returns ``(choice, number of candidates)``.
    """
    situate(S, R, T, g, sit)
    n = summons(S, R, T, L, g, sit, cand_index, cand_score, 0)
    n = moves(S, R, T, L, g, sit, cand_index, cand_score, n)
    n = attacks(S, R, T, L, g, sit, cand_index, cand_score, n)
    n = uses(S, R, T, L, g, sit, cand_index, cand_score, n)
    n = offer(cand_index, cand_score, n, L.end_turn, F32(T.weights.end_turn))
    return choose(cand_index, cand_score, n, word, T.action_keys, temperature, cand_high), n


@numba.njit(cache=True)
def decide(state, rules, bot, L, scratch, word, temperature, best, dense):
    """``best[g]``: the chosen flat action of every game of ``state`` (-1 for games that are over).

    ``state``, ``rules``, ``bot``, ``scratch``: the packed :class:`~.pack.KState`, :class:`~.pack.KRules`,
    :class:`~.pack.KBot` and :class:`~.pack.KSit`; ``L``: the :class:`~.pack.Layout`.
    ``word``: ``uint64[B]`` each game's random word; ``dense``: ``float32[B, N]`` filled with every
    candidate's score before noise (for tests), or an empty array to skip.
    """
    S, R, T, sit = KStateRef(*state), KRulesRef(*rules), KBotRef(*bot), KSitRef(*scratch)
    cand_index = np.empty(L.size, np.int64)
    cand_score = np.empty(L.size, F32)
    cand_high = np.empty(L.size, np.float64)
    for g in range(S.turn.shape[0]):
        best[g] = -1
        if S.over[g]:
            continue
        best[g], n = decide_one(S, R, T, L, sit, g, word[g], temperature, cand_index, cand_score, cand_high)
        if dense.shape[0] > 0:
            for i in range(n):
                dense[g, cand_index[i]] = cand_score[i]
