"""What the turn search (:mod:`simkit.games.kits.turn_search`) needs of Battle of Miracles, compiled:
copy a game, play a turn with a utility bot, replay a plan, see the game's end, value a position.

The search is written against these hooks only. ``ctx`` is a tuple the hooks share and the search
passes through unopened: ``(S, R, W, sit, L, cand_index, cand_score, cand_high, atk, legal)``, the real
games (:class:`~.pack.KState`), the rules, a one-game work state the simulations run on, the bot's
scratch, the action layout, the decision's scratch arrays and the legal actions each decision of the last
recorded plan chose among (``legal[i]``, 0 for an end of turn the cap forced).
"""

from __future__ import annotations

import numba
import numpy as np

from simkit.games.kits.mix import mix64
from simkit.games.kits.turn_search import compile_turn_search
from simkit.games.miracle.fast.decide import decide_one
from simkit.games.miracle.fast.game import decode_one
from simkit.games.miracle.fast.legal import LEGAL, reason_one
from simkit.games.miracle.fast.step import step_one
from simkit.games.miracle.state import DRAW, END_TURN

#: the value weights, in the order of :class:`simkit.games.miracle.bots_config.SearchValue`
VALUE_MIRACLE, VALUE_UNITS, VALUE_UNIT_HP, VALUE_REACH, VALUE_GARRISONS, VALUE_STARS, VALUE_WIN = range(7)


@numba.njit(cache=True, inline="always")
def copy_game(ctx, g, seat, salt):
    """Copy game ``g`` of the real games into the work state (its only game): the rules have no chance
    and no hidden cards, so every seat's view under every ``salt`` is the exact game."""
    S, W = ctx[0], ctx[2]
    W.turn[0] = S.turn[g]
    W.current[0] = S.current[g]
    W.over[0] = S.over[g]
    W.winner[0] = S.winner[g]
    W.end_reason[0] = S.end_reason[g]
    W.mana[0, :] = S.mana[g, :]
    W.max_mana[0, :] = S.max_mana[g, :]
    W.miracle_hp[0, :] = S.miracle_hp[g, :]
    W.dead_stars[0, :] = S.dead_stars[g, :]
    W.deck_artifact[0, :] = S.deck_artifact[g, :]
    W.deck_kind[0, :, :] = S.deck_kind[g, :, :]
    W.available[0, :, :] = S.available[g, :, :]
    W.cooling[0, :, :, :] = S.cooling[g, :, :, :]
    W.artifact_state[0, :] = S.artifact_state[g, :]
    W.artifact_cooldown[0, :] = S.artifact_cooldown[g, :]
    W.garrison_owner[0, :] = S.garrison_owner[g, :]
    W.alive[0, :] = S.alive[g, :]
    W.side[0, :] = S.side[g, :]
    W.kind[0, :] = S.kind[g, :]
    W.level[0, :] = S.level[g, :]
    W.deck_slot[0, :] = S.deck_slot[g, :]
    W.cell[0, :] = S.cell[g, :]
    W.hp[0, :] = S.hp[g, :]
    W.max_hp[0, :] = S.max_hp[g, :]
    W.ready[0, :] = S.ready[g, :]
    W.shield[0, :] = S.shield[g, :]
    W.equipped[0, :] = S.equipped[g, :]
    W.buff[0, :] = S.buff[g, :]
    W.uid[0, :] = S.uid[g, :]
    W.next_uid[0] = S.next_uid[g]


@numba.njit(cache=True, inline="always")
def game_over(ctx):
    """The work game has ended."""
    return ctx[2].over[0]


@numba.njit(cache=True, inline="always")
def to_act(ctx):
    """The side to act in the work game."""
    return np.int64(ctx[2].current[0])


@numba.njit(cache=True)
def play_turn(ctx, bot, temperature, keys, counter, k, cap, record):
    """Play the rest of the work game's turn with the utility bot ``bot`` at ``temperature``, to its
    end or the game's; returns the number of actions played.

    One word is drawn from stream ``k`` of ``keys``/``counter`` per decision when ``temperature``
    is above 0 (also for a turn ended at the ``cap``), as :func:`.game.play` draws for a utility
    bot; ``record[i]`` receives the i-th action's flat index when ``record`` is not empty, and then
    ``ctx[9][i]`` the number of legal actions it was chosen among (0 at the cap).
    """
    S, R, W, sit, L = ctx[0], ctx[1], ctx[2], ctx[3], ctx[4]
    cand_index, cand_score, cand_high, atk = ctx[5], ctx[6], ctx[7], ctx[8]
    cells, units = R.distance.shape[0], S.alive.shape[1]
    n = 0
    while not W.over[0]:
        word = np.uint64(0)
        if temperature > 0:
            word = mix64(keys[k] ^ mix64(counter[k]))
            counter[k] += np.uint64(1)
        if n >= cap:
            index, legal = L.end_turn, 0
        else:
            index, legal = decide_one(W, R, bot, L, sit, 0, word, temperature, cand_index, cand_score, cand_high)
        if record.shape[0] > 0:
            record[n] = index
            ctx[9][n] = legal
        n += 1
        kind, a, b, c = decode_one(L, cells, units, index)
        step_one(W, R, 0, kind, a, b, c, atk)
        if kind == END_TURN:
            break
    return n


@numba.njit(cache=True, inline="always")
def value(ctx, me, bot, weights):
    """The work game's worth to side ``me``: ``weights`` (``float64[7]``, see ``VALUE_*``) times
    its miracle HP, its units' worth (mana value, HP, and the attack of those that can reach the
    enemy miracle next turn), its garrisons and its dead stars, each counted as own minus the
    enemy's; a finished game is worth ``± weights[VALUE_WIN]`` plus the miracle term.
    ``bot``: a :class:`~.pack.KBot` whose unit values and approach tables are used."""
    R, W = ctx[1], ctx[2]
    foe = 1 - me
    v = weights[VALUE_MIRACLE] * (np.float64(W.miracle_hp[0, me]) - W.miracle_hp[0, foe])
    if W.over[0]:
        if W.winner[0] == me:
            return v + weights[VALUE_WIN]
        if W.winner[0] == DRAW:
            return v
        return v - weights[VALUE_WIN]
    v += weights[VALUE_STARS] * (np.float64(W.dead_stars[0, me]) - W.dead_stars[0, foe])
    for i in range(W.garrison_owner.shape[1]):
        owner = W.garrison_owner[0, i]
        if owner == me:
            v += weights[VALUE_GARRISONS]
        elif owner == foe:
            v -= weights[VALUE_GARRISONS]
    for u in range(W.alive.shape[1]):
        if not W.alive[0, u]:
            continue
        kind, lv, side = W.kind[0, u], W.level[0, u] - 1, W.side[0, u]
        worth = weights[VALUE_UNITS] * bot.value[kind, lv] + weights[VALUE_UNIT_HP] * W.hp[0, u]
        if bot.approach[kind, lv, 1 - side, W.cell[0, u]] <= R.move[kind, lv]:
            worth += weights[VALUE_REACH] * R.attack[kind, lv]
        v += worth if side == me else -worth
    return v


@numba.njit(cache=True)
def replay(ctx, plan, n):
    """Play the ``n`` flat actions of ``plan`` on the work game; False at the first that is not legal."""
    S, R, W, sit, L, atk = ctx[0], ctx[1], ctx[2], ctx[3], ctx[4], ctx[8]
    cells, units = R.distance.shape[0], S.alive.shape[1]
    for i in range(n):
        kind, a, b, c = decode_one(L, cells, units, plan[i])
        if reason_one(W, R, 0, kind, a, b, c, sit) != LEGAL:
            return False
        step_one(W, R, 0, kind, a, b, c, atk)
    return True


@numba.njit(cache=True)
def apply(ctx, g, index):
    """Play flat action ``index`` in real game ``g``; returns True when it ended the turn."""
    S, R, L, atk = ctx[0], ctx[1], ctx[4], ctx[8]
    kind, a, b, c = decode_one(L, R.distance.shape[0], S.alive.shape[1], index)
    step_one(S, R, g, kind, a, b, c, atk)
    return kind == END_TURN


#: the turn search of :mod:`simkit.games.kits.turn_search`, compiled against the hooks above
search_turn = compile_turn_search(
    {"copy_game": copy_game, "play_turn": play_turn, "replay": replay, "game_over": game_over, "to_act": to_act,
     "value": value},
    __file__,
)
