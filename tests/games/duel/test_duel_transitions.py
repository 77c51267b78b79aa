"""The Card Duel's second home, transitions.DuelPage.predict: it recomputes each action's whole effect from the
rules page, agrees with the engine over played games, and names the clause of a step that went otherwise."""

from __future__ import annotations

import copy

import numpy as np
import pytest
from duel_positions import A, B, duel, page, position

from simkit.games.duel.match import Match
from simkit.games.duel.transitions import DuelPage, legal_by_the_page

#: deck A's twenty cards
DECK_A = ["Strike"] * 4 + ["Step"] * 3 + ["Guard"] * 3 + ["VenomCoating", "Barrier", "Dagger", "Greataxe"] + [
    "Rage", "Rage", "Reflect", "Reflect", "ShadowBolt", "ShadowBolt"]


def the_page() -> DuelPage:
    return DuelPage(duel().data)


def test_predict_agrees_with_the_engine_over_random_games():
    """Over random legal games from the setup, the page's prediction of every action is what the engine did, and
    the legal actions are those the page allows."""
    dp = the_page()
    rng = np.random.default_rng(5)
    steps = 0
    for seed in range(3):
        m = Match(duel(), A, B, seed=seed)
        while not m.over and steps < 1200:
            before = page(m)
            legal = m.legal_actions()
            assert set(legal) == legal_by_the_page(dp, before)
            action = legal[int(rng.integers(len(legal)))]
            m.do(action)
            after = page(m)
            assert dp.differences(dp.predict(before, action), after) == [], (action, before, after)
            steps += 1
    assert steps > 200


def test_predict_restates_a_turn_start_with_a_reshuffle():
    """A turn start that draws past the source pile takes in the discard pile: what is drawn and what stays are
    the discard pile's cards, in the stream's order."""
    dp = the_page()
    rest = list(DECK_A)
    for card in ("Guard", "Strike", "Step", "Rage"):
        rest.remove(card)
    m = position(turn=2, phase="discard", p0={"hand": rest, "source": ["Guard"], "discard": ["Strike", "Step", "Rage"]})
    before = page(m)
    m.do(("end_turn",))
    after = page(m)
    want = dp.predict(before, ("end_turn",))
    assert want["reshuffled"] == (0, 1)
    assert dp.differences(want, after) == []
    assert "Guard" in after["players"][0]["hand"] and after["players"][0]["discard"] == []


def _tampered(m, action, change):
    """``(before, action, after)`` with ``after`` changed by ``change(page)``."""
    before = page(m)
    m.do(action)
    after = copy.deepcopy(page(m))
    change(after)
    return before, action, after


def _set(path, value):
    def change(p):
        *head, last = path
        node = p
        for k in head:
            node = node[k]
        node[last] = value
    return change


@pytest.mark.parametrize("make, action, path, value, clause", [
    (lambda: position(distance=1, p0={"hand": ["Strike"]}, p1={"statuses": {"shield": 3}}), ("play", "Strike"),
     ("players", 1, "statuses", "shield"), 0, "card_effects_resolve"),
    (lambda: position(distance=1, p0={"hand": ["Strike"]}, p1={"traps": ["Reflect"]}), ("play", "Strike"),
     ("players", 0, "hp"), 25, "card_effects_resolve"),
    (lambda: position(p0={"hand": ["Guard"]}), ("play", "Guard"), ("players", 0, "ap"), 2,
     "card_costs_and_destination"),
    (lambda: position(distance=2, p0={"equipment": ["Greataxe"]}), ("use", "Greataxe"),
     ("players", 0, "equipment", 0, "charge"), 0, "weapon_use_charge_range_cooldown"),
    (lambda: position(distance=3, p0={"equipment": [{"card": "Greataxe", "charge": 1}]}), ("use", "Greataxe"),
     ("players", 1, "hp"), 19, "weapon_use_charge_range_cooldown"),
    (lambda: position(turn=2, phase="discard", p0={"hp": 20, "statuses": {"poison": 3}}), ("end_turn",),
     ("players", 0, "statuses", "poison"), 0, "turn_start_order"),
    (lambda: position(turn=2, phase="discard", p0={"mana": 1}), ("end_turn",), ("players", 0, "hand"), [],
     "turn_start_order"),
    (lambda: position(turn=2, phase="discard", p0={"moved": True}), ("end_turn",), ("players", 0, "moved"), True,
     "turn_start_order"),
    (lambda: position(turn=60, phase="discard"), ("end_turn",), ("winner",), "first", "turn_limit_ends_the_game"),
    (lambda: position(), ("advance",), ("players", 1, "moved"), True, "move_changes_distance_by_one"),
    (lambda: position(phase="discard", p0={"hand": ["Strike", "Guard"]}), ("discard", "Guard"),
     ("players", 0, "discard"), ["Strike"], "discard_moves_one_card_to_the_pile"),
    (lambda: position(p0={"hand": ["Reflect"]}), ("set", "Reflect"), ("players", 0, "set"), False,
     "equip_set_attach_follow_their_type"),
    (lambda: position(), ("end_play",), ("distance",), 4, "end_play_only_starts_the_discard_phase"),
])
def test_a_step_that_goes_otherwise_is_named_by_its_clause(make, action, path, value, clause):
    """A step whose result differs from the page's in one value (a status, HP, a cost, a charge, the turn start,
    the cap's winner, a flag, a pile) is reported under the clause of its action."""
    dp = the_page()
    before, action, after = _tampered(make(), action, _set(path, value))
    assert clause in dp.transition_problems(before, action, after)
    m = make()
    m.do(action)
    assert dp.transition_problems(before, action, page(m)) == []
