"""The game interface's contract: every game passes ``api_test``; a game that breaks it is caught."""

from __future__ import annotations

import dataclasses
import importlib
import sys
import types

import pytest

import simkit
from simkit.games import Game, ResultSchema, get_game, register
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


def _twin(monkeypatch, **replaced) -> Game:
    """Miracle's declaration over a twin package (``twin``) whose conventional modules are Miracle's, with
    the functions ``replaced`` (by name, e.g. ``play_batch=...``, ``Match=...``) in place."""
    monkeypatch.setitem(sys.modules, "twin", types.ModuleType("twin"))
    for name in ("tables", "batch", "match"):
        module = types.ModuleType(f"twin.{name}")
        module.__dict__.update(vars(importlib.import_module(f"simkit.games.miracle.{name}")))
        module.__dict__.update({k: v for k, v in replaced.items() if k in module.__dict__})
        monkeypatch.setitem(sys.modules, f"twin.{name}", module)
    return dataclasses.replace(MIRACLE, package="twin")


def test_a_game_whose_batch_changes_its_games_fails(quick, monkeypatch):
    """A game whose records depend on the batch they were played in is caught."""

    def batch_dependent(scenario, first_decks, second_decks, seeds, bots, record_actions=False):
        cols = MIRACLE.hook("play_batch")(scenario, first_decks, second_decks, seeds, bots, record_actions)
        if len(seeds) > 1:
            cols["turns"] = [t + 1 for t in cols["turns"]]
        return cols

    with pytest.raises(APITestFailure, match="in a batch but"):
        api_test(_scenario_with(quick, _twin(monkeypatch, play_batch=batch_dependent)), games=2)


def test_a_game_with_undeclared_columns_fails(quick):
    """A record with a column the schema does not declare is caught."""
    schema = ResultSchema(end_reasons=MIRACLE.schema.end_reasons, side_columns={"miracle_hp": "miracle HP"})
    with pytest.raises(APITestFailure, match="differ from the declared"):
        api_test(_scenario_with(quick, dataclasses.replace(MIRACLE, schema=schema)), games=1)


def test_a_match_accepting_an_illegal_action_fails(quick, monkeypatch):
    """A match that takes an action it does not list as legal without raising is caught, naming the action."""
    from simkit.games.miracle.match import Match

    class Lax(Match):
        def do(self, action):
            if action not in self.legal_actions():
                return  # swallowed instead of refused
            super().do(action)

    with pytest.raises(APITestFailure, match="was accepted"):
        api_test(_scenario_with(quick, _twin(monkeypatch, Match=Lax)), games=2)


def test_a_match_whose_clone_shares_its_state_fails(quick, monkeypatch):
    """A clone() that is not independent (an action on it changes the match it came from) is caught."""
    from simkit.games.miracle.match import Match

    class Shallow(Match):
        def clone(self):
            other = Match.__new__(type(self))
            other.__dict__.update(self.__dict__)  # the same state arrays: not a copy
            other.actions = list(self.actions)
            return other

    with pytest.raises(APITestFailure, match="clone"):
        api_test(_scenario_with(quick, _twin(monkeypatch, Match=Shallow)), games=2)


def test_a_game_package_without_its_conventional_modules_is_refused(monkeypatch):
    """A package whose GAME is sound but which has no batch.py (play_batch, bot_names) is refused, naming it."""
    package = types.ModuleType("nogame")
    package.__path__ = []
    package.GAME = dataclasses.replace(MIRACLE, name="nogame", package="nogame")
    monkeypatch.setitem(sys.modules, "nogame", package)
    with pytest.raises(LookupError, match="nogame: no batch.py.*play_batch"):
        register(package)


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
    assert hasattr(game.capability("check"), "run_check") and game.turn_limit > 0 and game.counter_cards()
    with pytest.raises(KeyError, match="unknown capability"):
        game.capability("fly")
