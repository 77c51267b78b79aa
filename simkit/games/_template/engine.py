"""The template game's rules, once: plain functions over one game's state, compiled by numba.

The same functions run compiled (sweeps, the bots) and as plain Python under ``NUMBA_DISABLE_JIT=1``
(a test plays games both ways and finds them equal). A game is one :data:`~.state.STATE` record ``s``
(``s.turn``, ``s.players[p].hp``); the scenario's numbers come as ``rules`` (``rules.max_energy``) and
``cards`` (``cards[c].cost``), as :mod:`.state` declares them. The rules never draw random numbers: a
game's chance is an array of uniforms ``rolls`` pre-drawn from :mod:`simkit.core.rng` for the game's seed
(:func:`simkit.games._template.batch.game_rolls`), read in order (``s.rolls_used`` counts those used).

The rules (example rules, not a designer's game): two players with ``hp`` HP each. A turn: the
player to act gains ``energy_per_turn`` energy (at most ``max_energy``), then plays any number of
the cards of their deck, each costing its ``cost`` energy and one of its ``uses``; a card deals a
damage drawn evenly from its ``damage = [min, max]`` to the opponent and heals its ``heal`` to its
player (never above ``hp``). ``end`` ends the turn. A player at 0 HP or less loses at once. After
turn ``turn_limit`` the player with more HP wins; equal HP is a draw.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from simkit.games._template.state import (
    DRAW,
    END_HP_ZERO,
    END_NONE,
    END_TURN_LIMIT,
    K_END,
    K_PLAY,
    MAX_SLOTS,
    NO_WINNER,
    R_ENERGY,
    R_KIND,
    R_OK,
    R_OVER,
    R_SLOT,
    R_USED,
)
from simkit.games.kits.numba_cache import drop_stale_cache
from simkit.games.kits.state import clear

# numba keys its cache on each function's own file, not on the declarations and kernels it takes from the
# others: drop the folder's cache whenever any of them changes
_HERE = Path(__file__).parent
drop_stale_cache(_HERE, [_HERE / "state.py", _HERE / "engine.py", _HERE / "lead.py", _HERE / "bots.py",
                         _HERE.parent / "kits" / "state.py", _HERE.parent / "kits" / "experience.py"])


@njit(cache=True)
def start_turn(s, rules):
    """The player to act gains their energy for the turn."""
    me = s.players[s.to_act]
    me.energy = min(me.energy + rules.energy_per_turn, rules.max_energy)


@njit(cache=True)
def setup(s, deck0, deck1, rules, cards):
    """A new game in ``s``: both players at full HP holding their decks' cards (card ids), turn 1."""
    clear(s)
    s.turn, s.to_act, s.winner, s.reason = 1, 0, NO_WINNER, END_NONE
    for p in range(2):
        me = s.players[p]
        deck = deck0 if p == 0 else deck1
        me.hp = rules.hp
        for i in range(MAX_SLOTS):
            me.card[i] = deck[i] if i < rules.cards_per_deck else -1
            me.uses[i] = cards[deck[i]].uses if i < rules.cards_per_deck else 0
    start_turn(s, rules)


@njit(cache=True)
def check(s, kind, x, rules, cards):
    """``R_OK`` when action ``(kind, x)`` is legal for the player to act, else the reason's code."""
    if s.winner != NO_WINNER:
        return R_OVER
    if kind == K_END:
        return R_OK
    if kind != K_PLAY:
        return R_KIND
    if x < 0 or x >= rules.cards_per_deck:
        return R_SLOT
    me = s.players[s.to_act]
    if me.uses[x] <= 0:
        return R_USED
    if me.energy < cards[me.card[x]].cost:
        return R_ENERGY
    return R_OK


@njit(cache=True)
def legal(s, out, rules, cards):
    """The legal actions of the player to act into ``out`` (``int64[MAX_LEGAL, 2]``: kind, x), in slot order,
    ``end`` last; returns how many (0 once the game is over)."""
    if s.winner != NO_WINNER:
        return 0
    n = 0
    for x in range(rules.cards_per_deck):
        if check(s, K_PLAY, x, rules, cards) == R_OK:
            out[n, 0], out[n, 1] = K_PLAY, x
            n += 1
    out[n, 0], out[n, 1] = K_END, 0
    return n + 1


@njit(cache=True)
def damage_roll(card, u):
    """The damage of ``card`` (a CARD record) for the uniform ``u`` in [0, 1): each of min..max equally likely."""
    lo, hi = card.min_damage, card.max_damage
    return lo + min(np.int64(u * (hi - lo + 1)), hi - lo)


@njit(cache=True)
def step(s, kind, x, rules, cards, rolls):
    """Do the legal action ``(kind, x)`` of the player to act (check it first: step does not)."""
    p = s.to_act
    me, them = s.players[p], s.players[1 - p]
    if kind == K_PLAY:
        card = cards[me.card[x]]
        me.energy -= card.cost
        me.uses[x] -= 1
        them.hp -= damage_roll(card, rolls[s.rolls_used])
        s.rolls_used += 1
        me.hp = min(me.hp + card.heal, rules.hp)
        if them.hp <= 0:
            s.winner, s.reason = p, END_HP_ZERO
        return
    if s.turn >= rules.turn_limit:
        hp0, hp1 = s.players[0].hp, s.players[1].hp
        s.winner = 0 if hp0 > hp1 else (1 if hp1 > hp0 else DRAW)
        s.reason = END_TURN_LIMIT
        return
    s.turn += 1
    s.to_act = 1 - p
    start_turn(s, rules)
