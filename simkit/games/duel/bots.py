"""The duel's bots, compiled: ``random`` and the utility personalities of ``[bots]``.

A bot is handed only its seat's view (:func:`~simkit.games.duel.engine.make_view`, rules page
section 12) and decides from it alone; its randomness comes from its game's bot stream (word
``counter`` of the stream of the game's bot seed), so a game's decisions depend on nothing but the
game. A utility bot scores each legal action by the change it makes to ``sum(weight * feature)``
of the view (the action applied to a copy of the view by the engine's own ``step``), plus Gumbel
noise of ``temperature``; ending the play phase or the turn scores ``end_turn``. Its weights are a
:data:`~simkit.games.duel.state.PERSONALITY` record: ``w.hp``, ``w.poison``.

A whole game (:func:`play_one`) also keeps its experience record (:mod:`simkit.games.kits.experience`): every
decision with its number of legal actions, and the lead (:mod:`simkit.games.duel.lead`) at each turn's end and on
the final state; the bots never read it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.duel import engine as E
from simkit.games.duel import lead as L
from simkit.games.duel.state import (
    K_END_PLAY,
    K_END_TURN,
    MAX_LEGAL,
    PH_OVER,
    POISON,
    REGENERATION,
    SHIELD,
    SLOW,
    STATE,
    STRENGTH,
    T_ATTACHMENT,
    T_PERSISTENT,
    T_WEAPON,
    Z_EQUIP,
    Z_HAND,
    Z_TRAP,
)
from simkit.games.kits import experience as X
from simkit.games.kits.experience import EXPERIENCE
from simkit.games.kits.state import copy

BOT_RANDOM, BOT_UTILITY, BOT_SEARCH = 0, 1, 2  # search: simkit.games.duel.fast_search
_S11 = np.uint64(11)


@njit(cache=True)
def utility(v, p, w, cards):
    """``sum(weight * feature)`` of seat ``p``'s view ``v``."""
    me, them = v.players[p], v.players[1 - p]
    dist = v.distance
    u = w.hp * me.hp - w.damage * them.hp
    u += w.shield * min(me.statuses[SHIELD], w.shield_cap) + w.enemy_shield * them.statuses[SHIELD]
    u += w.poison * them.statuses[POISON] + w.own_poison * me.statuses[POISON]
    u += w.slow * them.statuses[SLOW] + w.regeneration * me.statuses[REGENERATION]
    u += w.strength * me.statuses[STRENGTH]
    u += w.trap * me.counts[Z_TRAP] + w.card * me.counts[Z_HAND]
    if them.hp <= 0:
        u += w.win
    seen = np.zeros(cards.shape[0], np.bool_)
    distinct = 0
    longest = -1  # the longest range among own equipped weapons
    for i in range(v.deck_size):
        z = me.zone[i]
        c = me.card[i]
        if z == Z_HAND:
            if not seen[c]:
                seen[c] = True
                distinct += 1
        elif z == Z_EQUIP:
            t = cards[c].type
            if t == T_WEAPON:
                u += w.weapon + w.charge * me.charge[i]
                longest = max(longest, cards[c].range)
                if E.in_range(cards[c], dist):
                    u += w.reach
            elif t == T_ATTACHMENT:
                u += w.attachment
            elif t == T_PERSISTENT:
                u += w.persistent
        c = them.card[i]
        if them.zone[i] == Z_EQUIP and cards[c].type == T_WEAPON and E.in_range(cards[c], dist):
            u += w.threat
    prefer = w.prefer_distance if longest < 0 else min(w.prefer_distance, longest)
    u += w.distance * abs(dist - prefer)
    return u + w.variety * distinct


@njit(cache=True)
def gumbel(seed, counter):
    """Standard Gumbel noise from word ``counter`` of the stream of ``seed``."""
    u = np.float64(E.stream_bits(seed, counter) >> _S11) * (1.0 / 9007199254740992.0)
    u = min(max(u, 1e-300), 1.0 - 1e-16)
    return -np.log(-np.log(u))


@njit(cache=True)
def decide(v, kind, w, seed, counter, out, scratch, rules, cards, effects):
    """The action of the bot of the seat whose view ``v`` is (``v.viewer``), from the view alone.

    Args:
        kind: ``BOT_RANDOM`` or ``BOT_UTILITY``.
        w: the personality's weights (a :data:`~simkit.games.duel.state.PERSONALITY` record).
        seed, counter: the bot stream and the next word to take.
        out, scratch: work space (``int64[MAX_LEGAL, 3]``, a :data:`~simkit.games.duel.state.STATE` record).

    Returns:
        ``(kind, x, y, counter)``: the action and the stream position after it.
    """
    return choose(v, E.legal(v, out, rules, cards), kind, w, seed, counter, out, scratch, rules, cards, effects)


@njit(cache=True)
def choose(v, n, kind, w, seed, counter, out, scratch, rules, cards, effects):
    """:func:`decide` among the ``n`` legal actions ``out[:n]`` already listed (``engine.legal`` of ``v``)."""
    if kind == BOT_RANDOM:
        j = E.below(seed, counter, n)
        return out[j, 0], out[j, 1], out[j, 2], counter + 1
    p = v.viewer
    here = utility(v, p, w, cards)
    best, best_score = 0, -np.inf
    temp = w.temperature
    for j in range(n):
        k = out[j, 0]
        if k == K_END_PLAY or k == K_END_TURN:
            score = w.end_turn
        else:
            copy(scratch, v, "played")  # the counters aside: the bot reads none
            E.step(scratch, k, out[j, 1], out[j, 2], rules, cards, effects)
            score = utility(scratch, p, w, cards) - here
        if temp > 0:
            score += temp * gumbel(seed, counter)
            counter += 1
        if score > best_score:
            best, best_score = j, score
    return out[best, 0], out[best, 1], out[best, 2], counter


@njit(cache=True)
def note_turn_end(s, xp, lead_w, band, cards):
    """Note in the experience record ``xp`` the lead of ``s`` (:func:`simkit.games.duel.lead.lead` with the
    ``[lead]`` weights ``lead_w``) at the end of its turn ``s.turn``; ``band``: ``[experience] level_band``."""
    X.note_lead(xp, s.turn, L.lead(s, lead_w, cards), band)


@njit(cache=True)
def note_before(s, xp, n, kind, lead_w, band, cards):
    """What the experience record ``xp`` notes before a decided action ``kind`` is applied to ``s``: the
    decision among ``n`` legal actions, and, when the action ends the turn, the lead at the turn's end (the
    state before ``end_turn`` is applied is the turn's last: applying it starts the next turn). The compiled
    loops write these lines out themselves, so that no call hands the card pool over (and counts its
    references) at every action; the Match calls it."""
    X.note_choice(xp, n)
    if kind == K_END_TURN:
        note_turn_end(s, xp, lead_w, band, cards)


@njit(cache=True)
def play_one(s, work, deck0, deck1, seed, bot_seed, kinds, weights, rules, cards, effects, log, cap, lead_w, band,
             xp):
    """Play one game in ``s`` to its end; returns the number of actions (recorded in ``log`` when it
    has rows; raises when a game exceeds ``cap`` actions, which the rules make impossible). ``work``: two
    :data:`~simkit.games.duel.state.STATE` records of room (a bot's view, its scratch). ``xp``: the game's
    :data:`~simkit.games.kits.experience.EXPERIENCE` record, noted as it plays (:func:`note_before`, and the
    lead of the final state) with the ``[lead]`` weights ``lead_w`` and the level band ``band``."""
    E.setup(s, deck0, deck1, seed, rules, cards, effects)
    X.begin(xp)
    out = np.empty((MAX_LEGAL, 3), np.int64)
    counter = 0
    played = 0
    while s.phase != PH_OVER:
        p = s.to_act
        E.make_view(s, p, work[0])
        n = E.legal(work[0], out, rules, cards)
        k, x, y, counter = choose(work[0], n, kinds[p], weights[p], bot_seed, counter, out, work[1], rules, cards,
                                  effects)
        if played < log.shape[0]:
            log[played, 0], log[played, 1], log[played, 2] = k, x, y
        X.note_choice(xp, n)  # note_before, written out
        if k == K_END_TURN:
            note_turn_end(s, xp, lead_w, band, cards)
        E.step(s, k, x, y, rules, cards, effects)
        played += 1
        if played >= cap:
            raise RuntimeError("a duel game exceeded the action cap")
    note_turn_end(s, xp, lead_w, band, cards)
    return played


@njit(cache=True)
def record_result(s, played, row):
    """``row``: (winner, end reason, turns, HP of seat 0, HP of seat 1, actions), then the game's counters
    (:func:`~simkit.games.duel.engine.write_tally`)."""
    row[0] = s.winner
    row[1] = s.reason
    row[2] = s.turn
    row[3] = s.players[0].hp
    row[4] = s.players[1].hp
    row[5] = played
    E.write_tally(s, row[6:])


@njit(cache=True)
def record_figures(s, xp, row):
    """``row`` (``float64[6]``): the experience figures of the finished game ``s`` from its record ``xp``
    (:func:`simkit.games.kits.experience.write`)."""
    X.write(xp, s.winner, s.turn, row)


@njit(cache=True)
def play_many(decks0, decks1, seeds, bot_seeds, kinds, weights, rules, cards, effects, result, cap, lead_w, band,
              figures):
    """Play game ``g`` between ``decks0[g]`` and ``decks1[g]`` for every row; ``result[g]`` gets its
    :func:`record_result`, ``figures[g]`` its experience figures (:func:`record_figures`). Games are
    independent."""
    states = np.zeros(3, STATE)  # the game, a bot's view, its scratch
    xps = np.zeros(1, EXPERIENCE)
    log = np.empty((0, 3), np.int64)
    for g in range(decks0.shape[0]):
        n = play_one(states[0], states[1:], decks0[g], decks1[g], seeds[g], bot_seeds[g], kinds, weights, rules,
                     cards, effects, log, cap, lead_w, band, xps[0])
        record_result(states[0], n, result[g])
        record_figures(states[0], xps[0], figures[g])
