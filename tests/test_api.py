"""The game interface's contract: every game passes ``api_test``; a game that breaks it is caught."""

from __future__ import annotations

import pytest

import simkit
from simkit.games import Game, ResultSchema, get_game
from simkit.games.miracle.game import Miracle
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
    """The quick scenario, its game replaced by ``game`` (a broken twin of Miracle)."""

    class Twin(type(quick)):
        @property
        def plugin(self):
            return game

    return Twin(path=quick.path, data=quick.data, game=quick.game, rules=quick.rules, decks=quick.decks)


def test_a_game_whose_batch_changes_its_games_fails(quick):
    """A game whose records depend on the batch they were played in is caught."""

    class BatchDependent(Miracle):
        def play_batch(self, scenario, first_decks, second_decks, seeds, bots, record_actions=False):
            cols = super().play_batch(scenario, first_decks, second_decks, seeds, bots, record_actions)
            if len(seeds) > 1:
                cols["turns"] = [t + 1 for t in cols["turns"]]
            return cols

    with pytest.raises(APITestFailure, match="in a batch but"):
        api_test(_scenario_with(quick, BatchDependent()), games=2)


def test_a_game_with_undeclared_columns_fails(quick):
    """A record with a column the schema does not declare is caught."""

    class Undeclared(Miracle):
        schema = ResultSchema(end_reasons=Miracle.schema.end_reasons, side_columns={"miracle_hp": "miracle HP"})

    with pytest.raises(APITestFailure, match="differ from the declared"):
        api_test(_scenario_with(quick, Undeclared()), games=1)


def test_a_match_accepting_an_illegal_action_fails(quick):
    """A match that takes an action it does not list as legal without raising is caught, naming the action."""
    from simkit.games.miracle.match import Match

    class Lax(Match):
        def do(self, action):
            if action not in self.legal_actions():
                return  # swallowed instead of refused
            super().do(action)

    class LaxGame(Miracle):
        def new_match(self, scenario, first_deck, second_deck, seed=0):
            return Lax(scenario, first_deck, second_deck, seed=seed)

    with pytest.raises(APITestFailure, match="was accepted"):
        api_test(_scenario_with(quick, LaxGame()), games=2)


def test_get_game_names_what_is_missing():
    """An unknown game is refused with the list of games simkit has."""
    with pytest.raises(LookupError, match="unknown game 'chess'.*miracle"):
        get_game("chess")
    assert get_game("miracle") is get_game("miracle")
