"""The Card Duel's determinization (issue 32 point 1): a whole game drawn from one seat's view, for the
search's samples. It shows the seat exactly its view, deals the opponent a legal deck that agrees with
every shown card, puts only counter cards in the trap zone, and reads nothing the seat cannot see."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.games.duel import engine as E
from simkit.games.duel.determinize import consistent, determinize
from simkit.games.duel.invariants import scramble_hidden
from simkit.games.duel.match import Match
from simkit.games.duel.state import MAX_LEGAL, STATE, T_COUNTER, Z_DISC, Z_HAND, Z_HIDDEN, Z_SRC, Z_TRAP
from simkit.games.duel.tables import all_decks, deck_list
from simkit.games.kits.state import copy, zeros
from tests.duel_positions import A, B, duel


@pytest.fixture(scope="module")
def game():
    """Every state of one literal game (decks A and B, seed 5) played by random legal actions."""
    sc = duel()
    r = sc.rules
    m = Match(sc, A, B, seed=5)
    legal = np.zeros((MAX_LEGAL, 3), np.int64)
    rng = np.random.default_rng(0)
    states = []
    while not m.over:
        states.append(zeros(STATE))
        copy(states[-1], m.state)
        n = E.legal(m.state, legal, r.settings, r.cards)
        E.step(m.state, *legal[rng.integers(n)], r.settings, r.cards, r.effects)
    return r, states


def _decks(r):
    return np.array([deck_list(r, d) for d in all_decks(r)], np.int64)


def _view(s, seat):
    v = zeros(STATE)
    E.make_view(s, seat, v)
    return v


def test_the_drawn_game_shows_the_seat_its_view_and_deals_legal_decks(game):
    """At every state of a game, for both seats and three salts: the drawn game's view is the view it was drawn
    from, each player holds a legal deck list (the own one exactly), trap zones hold counter cards only, and
    the real opponent deck is among those the view allows."""
    r, states = game
    decks = _decks(r)
    lists = [deck_list(r, A), deck_list(r, B)]
    legal_lists = {tuple(sorted(d)) for d in decks.tolist()}
    out = zeros(STATE)
    traps_seen = 0
    for s in states[::3]:
        for seat in (0, 1):
            v = _view(s, seat)
            assert consistent(v, 1 - seat, lists[1 - seat], r.cards)
            for salt in (1, 2, 3):
                assert determinize(v, lists[seat], decks, np.uint64(salt), r.cards, out)
                again = _view(out, seat)
                again.played[...], again.dealt[...] = v.played, v.dealt  # a view leaves the counters as they were
                assert again.tobytes() == v.tobytes()
                assert out.viewer == -1
                n = int(out.deck_size)
                for q in (0, 1):
                    player = out.players[q]
                    cards, zones = player.card[:n], player.zone[:n]
                    assert tuple(sorted(cards.tolist())) in legal_lists
                    assert Z_HIDDEN not in zones.tolist()
                    assert all(r.cards[c].type == T_COUNTER for c in cards[zones == Z_TRAP])
                    for zone in (Z_HAND, Z_SRC, Z_DISC):
                        assert (zones == zone).sum() == player.counts[zone]
                    pile = player.source[:player.counts[Z_SRC]]
                    assert sorted(pile.tolist()) == np.flatnonzero(zones == Z_SRC).tolist()
                assert (out.players[seat].card[:n] == lists[seat]).all()
                traps_seen += int(out.players[1 - seat].counts[Z_TRAP] > 0)
    assert traps_seen > 0  # the game reached hidden traps


def test_the_drawn_game_depends_on_the_view_and_the_salt_only(game):
    """Scrambling what the seat cannot see changes nothing drawn; equal salts draw equal games, and the salt
    moves the opponent's hidden hand."""
    r, states = game
    decks = _decks(r)
    lists = [deck_list(r, A), deck_list(r, B)]
    s = states[len(states) // 2]
    out, again = zeros(STATE), zeros(STATE)
    hands = set()
    for salt in range(1, 9):
        determinize(_view(s, 0), lists[0], decks, np.uint64(salt), r.cards, out)
        determinize(_view(scramble_hidden(s, 0), 0), lists[0], decks, np.uint64(salt), r.cards, again)
        assert out.tobytes() == again.tobytes()
        them = out.players[1]
        hand = them.card[:20][them.zone[:20] == Z_HAND]
        hands.add(tuple(sorted(hand.tolist())))
    assert len(hands) > 1


def test_no_listed_deck_agrees_with_what_the_opponent_shows():
    """An opponent who has equipped a weapon no candidate deck holds: determinize says so (False)."""
    sc = duel()
    r = sc.rules
    m = Match(sc, A, B, seed=1)
    m.arrange(players=({"hand": ["Strike"]}, {"equipment": [{"card": "Longbow"}]}))
    only_a = np.array([deck_list(r, A)], np.int64)  # Dagger+Greataxe: no Longbow
    out = zeros(STATE)
    assert not determinize(_view(m.state, 0), deck_list(r, A), only_a, np.uint64(1), r.cards, out)
    assert determinize(_view(m.state, 0), deck_list(r, A), _decks(r), np.uint64(1), r.cards, out)
