"""Determinization for the Card Duel's search: a whole game drawn from what one seat can see.

A seat's view (:func:`simkit.games.duel.engine.make_view`, rules page section 12) hides both source
piles, the opponent's hand, discard pile and trap zone: those slots read ``Z_HIDDEN`` with card -1,
and only the zone sizes are kept. :func:`determinize` fills them in, drawing every unknown from a
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

The result is a whole state (``G_VIEW`` -1) whose view for the seat equals the view it was drawn
from: the search plays it as a possible real game, never the real one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from simkit.games.duel import engine as E
from simkit.games.duel.tables import F_TYPE, T_COUNTER
from simkit.games.kits.mix import mix64

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
def consistent(v, q, deck, cd):
    """Deck list ``deck`` agrees with seat ``q``'s slots in view ``v``: every shown card is the deck's
    card of its slot, and the hidden slots hold at least as many counter cards as ``q``'s trap zone."""
    b = E.base(q)
    counters = 0
    for i in range(v[E.G_N]):
        c = v[b + E.A_CARD + i]
        if v[b + E.A_ZONE + i] == E.Z_HIDDEN:
            if cd[deck[i], F_TYPE] == T_COUNTER:
                counters += 1
        elif c != deck[i]:
            return False
    return counters >= v[b + E.P_NTRAP]


@njit(cache=True)
def determinize(v, own, decks, salt, cd, out):
    """Write into ``out`` a whole game drawn from the view ``v`` of seat ``v[G_VIEW]`` (see the module
    docstring); returns False, leaving ``out`` unspecified, when no deck of ``decks`` agrees with what
    the view shows of the opponent (a deck outside the rules' lists).

    Args:
        v: the seat's view (``int64[STATE_SIZE]``).
        own: ``int64[n]`` the seat's own deck list.
        decks: ``int64[D, n]`` the candidate deck lists of the opponent.
        salt: the determinization's key (``uint64``); equal salts give equal games.
        cd: the card table.
    """
    seat = v[E.G_VIEW]
    n = v[E.G_N]
    key = mix64(np.uint64(salt) ^ np.uint64(0xD1CE5A17D1CE5A17))
    counter = 0
    out[:] = v
    out[E.G_VIEW] = -1
    out[E.G_SEED] = np.int64(mix64(key ^ np.uint64(0x5EED)) & _SEED_MASK)
    out[E.G_CTR] = 0
    slots = np.empty(n, np.int64)
    # own: the hidden slots are the source pile, their cards known from the deck list, their order drawn
    b = E.base(seat)
    k = 0
    for i in range(n):
        if v[b + E.A_ZONE + i] == E.Z_HIDDEN:
            out[b + E.A_CARD + i] = own[i]
            out[b + E.A_ZONE + i] = E.Z_SRC
            slots[k] = i
            k += 1
    counter = _shuffle(slots, k, key, counter)
    for j in range(k):
        out[b + E.A_SRC + j] = slots[j]
    # opponent: a deck that agrees with the view, then its hidden cards dealt to the hidden zones
    o = E.base(1 - seat)
    agree = 0
    for d in range(decks.shape[0]):
        if consistent(v, 1 - seat, decks[d], cd):
            agree += 1
    if agree == 0:
        return False
    pick = _below(key, counter, agree)
    counter += 1
    deck = decks[0]
    for d in range(decks.shape[0]):
        if consistent(v, 1 - seat, decks[d], cd):
            if pick == 0:
                deck = decks[d]
                break
            pick -= 1
    traps = np.empty(n, np.int64)
    t, k = 0, 0
    for i in range(n):
        if v[o + E.A_ZONE + i] == E.Z_HIDDEN:
            out[o + E.A_CARD + i] = deck[i]
            if cd[deck[i], F_TYPE] == T_COUNTER:
                traps[t] = i
                t += 1
            else:
                slots[k] = i
                k += 1
    counter = _shuffle(traps, t, key, counter)
    nt = v[o + E.P_NTRAP]
    for j in range(nt):
        out[o + E.A_ZONE + traps[j]] = E.Z_TRAP
        out[o + E.A_STAMP + traps[j]] = 0  # older than any card set since (order among them: slot order)
    for j in range(nt, t):
        slots[k] = traps[j]
        k += 1
    counter = _shuffle(slots, k, key, counter)
    nh, nd = v[o + E.P_NHAND], v[o + E.P_NDISC]
    for j in range(k):
        i = slots[j]
        if j < nh:
            out[o + E.A_ZONE + i] = E.Z_HAND
        elif j < nh + nd:
            out[o + E.A_ZONE + i] = E.Z_DISC
            out[o + E.A_DISC + j - nh] = i
        else:
            out[o + E.A_ZONE + i] = E.Z_SRC
            out[o + E.A_SRC + j - nh - nd] = i
    return True
