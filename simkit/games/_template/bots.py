"""The template game's bots and game loop, compiled: ``random`` and the utility bots of ``[bots]``.

A bot's noise is pre-drawn like the game's rolls (``noise[k, j]``: a uniform for legal action ``j``
of decision ``k``, from the game's bot stream), so a decision depends on nothing but its game. A
utility bot scores each legal action by its expected effect, weight times feature (``damage``: the
mean damage, ``heal``: the HP it would really heal, ``energy``: its cost, ``win``: when even its
least damage takes the opponent to 0), ``end_turn`` for ending the turn, plus Gumbel noise of
``temperature``; it never reads the rolls to come. A bot's weights are a :data:`~.state.PERSONALITY` record
(``w.damage``).

The game loop also keeps each game's experience record (:mod:`simkit.games.kits.experience`): every decision with
its number of legal actions, and the lead (:mod:`.lead`) at each turn's end and on the final state.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games._template import engine as E
from simkit.games._template import lead as L
from simkit.games._template.state import K_END, MAX_LEGAL, NO_WINNER, STATE
from simkit.games.kits import experience as X
from simkit.games.kits.experience import EXPERIENCE

BOT_RANDOM, BOT_UTILITY = 0, 1


@njit(cache=True)
def score(s, x, w, rules, cards):
    """A utility bot's score of playing the card of slot ``x`` (without the noise)."""
    me, them = s.players[s.to_act], s.players[1 - s.to_act]
    card = cards[me.card[x]]
    mean = 0.5 * (card.min_damage + card.max_damage)
    healed = min(card.heal, rules.hp - me.hp)
    u = w.damage * mean + w.heal * healed + w.energy * card.cost
    if card.min_damage >= them.hp:
        u += w.win
    return u


@njit(cache=True)
def decide(s, kind, w, noise, out, rules, cards):
    """The ``(kind, x)`` the bot of the player to act chooses, from the legal actions and ``noise``
    (``float64[MAX_LEGAL]`` uniforms) alone."""
    return choose(s, E.legal(s, out, rules, cards), kind, w, noise, out, rules, cards)


@njit(cache=True)
def choose(s, n, kind, w, noise, out, rules, cards):
    """:func:`decide` among the ``n`` legal actions ``out[:n]`` already listed (``engine.legal``)."""
    if kind == BOT_RANDOM:
        j = min(np.int64(noise[0] * n), n - 1)
        return out[j, 0], out[j, 1]
    best, best_score = 0, -np.inf
    for j in range(n):
        u = w.end_turn if out[j, 0] == K_END else score(s, out[j, 1], w, rules, cards)
        if w.temperature > 0:
            u -= w.temperature * np.log(-np.log(min(max(noise[j], 1e-300), 1.0 - 1e-16)))
        if u > best_score:
            best, best_score = j, u
    return out[best, 0], out[best, 1]


@njit(cache=True)
def note_before(s, xp, n, kind, lead_w, band):
    """What the experience record ``xp`` notes before the decided action ``kind`` is done: a decision among ``n``
    legal actions and, when it ends the turn, the lead (``[lead]`` weights ``lead_w``) at the turn's end (doing
    ``end`` starts the next turn); ``band``: the scenario's ``[experience] level_band``."""
    X.note_choice(xp, n)
    if kind == K_END:
        X.note_lead(xp, s.turn, L.lead(s, lead_w), band)


@njit(cache=True)
def play_one(s, deck0, deck1, rolls, noise, kinds, weights, rules, cards, log, lead_w, band, xp):
    """Play one game in ``s`` to its end; returns its number of actions, each logged in ``log``
    (``int64[cap, 3]``: kind, x, seat) when it has rows. ``xp``: the game's experience record, noted as it plays
    (:func:`note_before`, and the lead of the final state)."""
    E.setup(s, deck0, deck1, rules, cards)
    X.begin(xp)
    out = np.empty((MAX_LEGAL, 2), np.int64)
    played = 0
    while s.winner == NO_WINNER:
        if played >= noise.shape[0]:
            raise RuntimeError("a template game exceeded its action cap")
        p = s.to_act
        n = E.legal(s, out, rules, cards)
        k, x = choose(s, n, kinds[p], weights[p], noise[played], out, rules, cards)
        if played < log.shape[0]:
            log[played, 0], log[played, 1], log[played, 2] = k, x, p
        note_before(s, xp, n, k, lead_w, band)
        E.step(s, k, x, rules, cards, rolls)
        played += 1
    X.note_lead(xp, s.turn, L.lead(s, lead_w), band)
    return played


@njit(cache=True)
def play_many(decks0, decks1, rolls, noise, kinds, weights, rules, cards, result, logs, lead_w, band, figures):
    """Play game ``g`` between ``decks0[g]`` and ``decks1[g]`` with its ``rolls[g]`` and ``noise[g]``
    for every row; ``result[g]`` gets (winner, end reason, turns, HP of seat 0, HP of seat 1,
    actions), ``figures[g]`` its experience figures and ``logs[g]`` its actions (when ``logs`` has rows). Games
    are independent."""
    games = np.zeros(1, STATE)
    xps = np.zeros(1, EXPERIENCE)
    empty = np.empty((0, 3), np.int64)
    for g in range(decks0.shape[0]):
        log = logs[g] if logs.shape[0] > 0 else empty
        n = play_one(games[0], decks0[g], decks1[g], rolls[g], noise[g], kinds, weights, rules, cards, log, lead_w,
                     band, xps[0])
        s = games[0]
        result[g, 0], result[g, 1], result[g, 2] = s.winner, s.reason, s.turn
        result[g, 3], result[g, 4], result[g, 5] = s.players[0].hp, s.players[1].hp, n
        X.write(xps[0], s.winner, s.turn, figures[g])
