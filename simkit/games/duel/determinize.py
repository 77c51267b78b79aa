"""Determinization for the Card Duel's search: a whole game drawn from what one seat can see.

A seat's view (:func:`simkit.games.duel.engine.make_view`, rules page section 12) hides both source
piles, the opponent's hand, discard pile and trap zone: those slots read ``Z_HIDDEN`` with card -1,
and only the zone sizes (``player.counts``) are kept. :func:`determinize` fills them in, drawing every unknown from a
stream keyed by ``salt`` and using only what the seat knows:

- its own deck list (slot ``i`` of a player's block is the ``i``-th card of the deck list, so the
  own hidden slots, which are all in the source pile, get their cards from it); their order in the
  pile is drawn;
- the opponent's deck: drawn uniformly among the ``decks`` (every legal deck list of the rules) that
  agree with every card the view shows in the opponent's slots and hold enough counter cards for the
  opponent's trap zone;
- which hidden card of the opponent is in the hand, the trap zone (counter cards only), the discard
  pile or the source pile, and the order of both piles: drawn with the zone sizes of the view;
- the shuffle stream of later reshuffles: a seed drawn from ``salt``.

The result is a whole state (``viewer`` -1) whose view for the seat equals the view it was drawn
from: the search plays it as a possible real game, never the real one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.duel.engine import can_be_set
from simkit.games.duel.state import Z_DISC, Z_HAND, Z_HIDDEN, Z_SRC, Z_TRAP
from simkit.games.kits.mix import mix64
from simkit.games.kits.state import copy

_SEED_MASK = np.uint64(0x7FFFFFFFFFFFFFFF)


@njit(cache=True, inline="always")
def _below(key, counter, n):
    """An integer in ``0..n-1`` from word ``counter`` of the stream of ``key``."""
    return np.int64(mix64(key ^ mix64(np.uint64(counter))) % np.uint64(n))


@njit(cache=True)
def _shuffle(a, n, key, counter):
    """Shuffle ``a[:n]`` in place (Fisher-Yates) from the stream of ``key``; returns the next counter."""
    for k in range(n - 1, 0, -1):
        j = _below(key, counter, k + 1)
        counter += 1
        t = a[k]
        a[k] = a[j]
        a[j] = t
    return counter


@njit(cache=True)
def consistent(v, q, deck, cards):
    """Deck list ``deck`` agrees with seat ``q``'s slots in view ``v``: every shown card is the deck's
    card of its slot, and the hidden slots hold at least as many counter cards as ``q``'s trap zone."""
    seen = v.players[q]
    counters = 0
    for i in range(v.deck_size):
        if seen.zone[i] == Z_HIDDEN:
            if can_be_set(cards[deck[i]]):
                counters += 1
        elif seen.card[i] != deck[i]:
            return False
    return counters >= seen.counts[Z_TRAP]


@njit(cache=True)
def determinize(v, own, decks, salt, cards, out):
    """Write into ``out`` a whole game drawn from the view ``v`` of seat ``v.viewer`` (see the module
    docstring); returns False, leaving ``out`` unspecified, when no deck of ``decks`` agrees with what
    the view shows of the opponent (a deck outside the rules' lists).

    Args:
        v: the seat's view (a :data:`~simkit.games.duel.state.STATE` record).
        own: ``int64[n]`` the seat's own deck list.
        decks: ``int64[D, n]`` the candidate deck lists of the opponent.
        salt: the determinization's key (``uint64``); equal salts give equal games.
        cards: the card table.
    """
    seat = v.viewer
    n = v.deck_size
    key = mix64(np.uint64(salt) ^ np.uint64(0xD1CE5A17D1CE5A17))
    counter = 0
    copy(out, v)
    out.viewer = -1
    out.shuffle = np.int64(mix64(key ^ np.uint64(0x5EED)) & _SEED_MASK)
    out.drawn = 0
    slots = np.empty(n, np.int64)
    # own: the hidden slots are the source pile, their cards known from the deck list, their order drawn
    mine, seen = out.players[seat], v.players[seat]
    k = 0
    for i in range(n):
        if seen.zone[i] == Z_HIDDEN:
            mine.card[i] = own[i]
            mine.zone[i] = Z_SRC
            slots[k] = i
            k += 1
    counter = _shuffle(slots, k, key, counter)
    for j in range(k):
        mine.source[j] = slots[j]
    # opponent: a deck that agrees with the view, then its hidden cards dealt to the hidden zones
    theirs, shown = out.players[1 - seat], v.players[1 - seat]
    agree = 0
    for d in range(decks.shape[0]):
        if consistent(v, 1 - seat, decks[d], cards):
            agree += 1
    if agree == 0:
        return False
    pick = _below(key, counter, agree)
    counter += 1
    deck = decks[0]
    for d in range(decks.shape[0]):
        if consistent(v, 1 - seat, decks[d], cards):
            if pick == 0:
                deck = decks[d]
                break
            pick -= 1
    traps = np.empty(n, np.int64)
    t, k = 0, 0
    for i in range(n):
        if shown.zone[i] == Z_HIDDEN:
            theirs.card[i] = deck[i]
            if can_be_set(cards[deck[i]]):  # only a counter card can be in the trap zone
                traps[t] = i
                t += 1
            else:
                slots[k] = i
                k += 1
    counter = _shuffle(traps, t, key, counter)
    nt = shown.counts[Z_TRAP]
    for j in range(nt):
        theirs.zone[traps[j]] = Z_TRAP
        theirs.stamp[traps[j]] = 0  # older than any card set since (order among them: slot order)
    for j in range(nt, t):
        slots[k] = traps[j]
        k += 1
    counter = _shuffle(slots, k, key, counter)
    nh, nd = shown.counts[Z_HAND], shown.counts[Z_DISC]
    for j in range(k):
        i = slots[j]
        if j < nh:
            theirs.zone[i] = Z_HAND
        elif j < nh + nd:
            theirs.zone[i] = Z_DISC
            theirs.discard[j - nh] = i
        else:
            theirs.zone[i] = Z_SRC
            theirs.source[j - nh - nd] = i
    return True
