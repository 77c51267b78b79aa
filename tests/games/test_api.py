"""The game interface's contract: every game passes ``api_test``; a game that breaks it is caught."""

from __future__ import annotations

import dataclasses

import pytest

import simkit
from simkit.games import Game, ResultSchema, get_game
from simkit.games.miracle.game import GAME as MIRACLE
from simkit.testing.api import APITestFailure, api_test

QUICK = "scenarios/miracle/quick.toml"


@pytest.fixture(scope="module")
def quick():
    return simkit.load_scenario(QUICK)


def test_miracle_passes_api_test(quick):
    """Battle of Miracles keeps every promise of the game interface over random legal games."""
    done = api_test(quick, games=4)
    assert done["games"] == 4 and done["actions"] > 0 and done["illegal_probes"] > 0


def _scenario_with(quick, game: Game):
    """The quick scenario bound to ``game`` (a broken twin of Miracle's declaration) instead of Miracle."""
    sc = dataclasses.replace(quick)
    object.__setattr__(sc, "game", game.load(sc))
    return sc


def test_a_game_whose_batch_changes_its_games_fails(quick):
    """A game whose records depend on the batch they were played in is caught."""

    def batch_dependent(scenario, first_decks, second_decks, seeds, bots, record_actions=False):
        cols = MIRACLE.hook("play_batch")(scenario, first_decks, second_decks, seeds, bots, record_actions)
        if len(seeds) > 1:
            cols["turns"] = [t + 1 for t in cols["turns"]]
        return cols

    with pytest.raises(APITestFailure, match="in a batch but"):
        api_test(_scenario_with(quick, dataclasses.replace(MIRACLE, play_batch=batch_dependent)), games=2)


def test_a_game_with_undeclared_columns_fails(quick):
    """A record with a column the schema does not declare is caught."""
    schema = ResultSchema(end_reasons=MIRACLE.schema.end_reasons, side_columns={"miracle_hp": "miracle HP"})
    with pytest.raises(APITestFailure, match="differ from the declared"):
        api_test(_scenario_with(quick, dataclasses.replace(MIRACLE, schema=schema)), games=1)


def test_a_match_accepting_an_illegal_action_fails(quick):
    """A match that takes an action it does not list as legal without raising is caught, naming the action."""
    from simkit.games.miracle.match import Match

    class Lax(Match):
        def do(self, action):
            if action not in self.legal_actions():
                return  # swallowed instead of refused
            super().do(action)

    with pytest.raises(APITestFailure, match="was accepted"):
        api_test(_scenario_with(quick, dataclasses.replace(MIRACLE, new_match=Lax)), games=2)


def test_get_game_names_what_is_missing():
    """An unknown game is refused with the list of games simkit has."""
    with pytest.raises(LookupError, match="unknown game 'chess'.*miracle"):
        get_game("chess")
    assert get_game("miracle") is get_game("miracle")


def test_a_declaration_with_an_unknown_capability_is_refused():
    """A game declaring a capability simkit does not know is refused when declared, naming it."""
    with pytest.raises(LookupError, match="unknown capabilities.*'narate'"):
        dataclasses.replace(MIRACLE, capabilities={"narate": "x:y"})


def test_a_ruleset_answers_every_hook_without_the_scenario(quick):
    """``scenario.game`` binds the game once: decks, cards, bots, a match and its replay, and capabilities by name."""
    game = quick.game
    deck = quick.decks[0]
    assert game.decks == quick.decks and game.canonical_deck(deck) == deck
    assert set(game.deck_cards(deck)) == {"artifact", "creature"} and "balanced" in game.bot_names()
    m = game.new_match(deck, quick.decks[1], seed=3)
    m.do(m.legal_actions()[0])
    assert game.replay(deck, quick.decks[1], [list(a) for a in m.actions], seed=3).snapshot() == m.snapshot()
    assert game.capability("search") is None and callable(game.capability("narrate"))
    with pytest.raises(KeyError, match="unknown capability"):
        game.capability("fly")
