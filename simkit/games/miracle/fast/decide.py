"""The compiled utility bot: every legal action of each game scored and the best one chosen.

One pass per game: the situation (:mod:`.situation`), then summons, moves, attacks, artifact uses
and ending the turn, each part offering its legal actions in flat-layout order to :func:`.choice.emit`.
The numpy bot (:mod:`simkit.games.miracle.bots_score`) is the reference; this one plays the same
games, only faster.
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.miracle.fast.attacks import attacks
from simkit.games.miracle.fast.choice import emit
from simkit.games.miracle.fast.moves import moves
from simkit.games.miracle.fast.situation import situate
from simkit.games.miracle.fast.summons import summons
from simkit.games.miracle.fast.uses import uses

F32 = np.float32


@numba.njit(cache=True)
def decide(S, R, T, L, sit, out):
    """Score every legal action of every game of ``S`` into ``out`` (games that are over are skipped)."""
    for g in range(S.turn.shape[0]):
        out.best[g] = -np.inf
        out.best_index[g] = -1
        if S.over[g]:
            continue
        situate(S, R, T, g, sit)
        summons(S, R, T, L, g, sit, out)
        moves(S, R, T, L, g, sit, out)
        attacks(S, R, T, L, g, sit, out)
        uses(S, R, T, L, g, sit, out)
        emit(out, g, L.end_turn, F32(T.weights.end_turn))
