"""The rule examples of every game (``scenarios/<game>/examples.toml``) as clause tests, one test per example,
and the loader's refusals of a malformed examples file (one line naming the file and the example)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import simkit
from simkit.core.errors import ScenarioError
from simkit.testing.examples import load_examples, run_examples, run_one

ROOT = Path(__file__).resolve().parents[2]
GAMES = ("miracle", "duel", "krypton", "magic")


def _examples():
    for game in GAMES:
        for ex in load_examples(ROOT / "scenarios" / game / "examples.toml"):
            yield pytest.param(game, ex, id=f"{game}: {ex.name}")


def _scenario(game):
    return simkit.load_scenario(ROOT / "scenarios" / game / "base.toml")


def _hook(sc):
    """The game's example words: its check capability."""
    return sc.game.capability("check")


def run_example(game: str, name: str) -> str | None:
    """The problem of the example ``name`` of ``game`` on its base scenario (None: it holds)."""
    sc = _scenario(game)
    ex = next(e for e in load_examples(ROOT / "scenarios" / game / "examples.toml") if e.name == name)
    return run_one(_hook(sc), ex)


@pytest.mark.parametrize("game, example", list(_examples()))
def test_rule_example_holds(game, example):
    """The example holds on the base scenario: the position, the actions, the values the page requires."""
    sc = _scenario(game)
    problem = run_one(_hook(sc), example)
    assert problem is None, f"{example.clause}: {problem}"


def test_every_game_has_at_least_fifteen_examples_and_run_examples_counts_them():
    """Each game's examples file holds at least 15 examples; run_examples runs them all and finds none failing."""
    for game in GAMES:
        sc = _scenario(game)
        count, failure = run_examples(sc, _hook(sc))
        assert count >= 15 and failure is None, (game, count, failure and failure.format())


def test_a_failing_example_is_named_with_its_file_clause_and_expected_against_got(tmp_path):
    """An example whose required value the game does not reach fails, naming file, example, clause, expected, got."""
    path = tmp_path / "examples.toml"
    path.write_text('[[example]]\nname = "Strike deals 3"\nclause = "1 damage"\n'
                    'given = { distance = 1, first = { hand = ["Strike"] } }\nwhen = [["play", "Strike"]]\n'
                    'then = { "second.hp" = 22 }\n', encoding="utf-8")
    count, failure = run_examples(_scenario("duel"), path=path)
    text = failure.format()
    assert count == 1 and str(path) in text and "'Strike deals 3'" in text and "clause    1 damage" in text
    assert "second.hp: expected 22, got 23" in text


@pytest.mark.parametrize("body, words", [
    ('[[example]]\nname = "x"\nclause = "c"\nthen = { a = 1 }\nwhen = [["end"]]\nwhy = 1\n', "unknown key 'why'"),
    ('[[example]]\nclause = "c"\nthen = { a = 1 }\n', "name: must be a non-empty string"),
    ('[[example]]\nname = "x"\nclause = "c"\n', "says nothing to check"),
    ('[[example]]\nname = "x"\nclause = "c"\nthen = { a = 1 }\n' * 2, "'x' is used twice"),
    ("x = 1\n", "no [[example]] tables"),
])
def test_a_malformed_examples_file_is_refused_in_one_line(tmp_path, body, words):
    """A malformed examples file is refused with one line naming the file and the example."""
    path = tmp_path / "examples.toml"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(ScenarioError, match=re.escape(words)) as err:
        load_examples(path)
    assert str(path) in str(err.value) and "\n" not in str(err.value)


def test_an_unknown_value_name_is_reported_with_what_is_there():
    """A `then` naming a value the game does not have says which part is missing and what is there."""
    sc = _scenario("duel")
    ex = load_examples(ROOT / "scenarios" / "duel" / "examples.toml")[0]
    ex = type(ex)(ex.name, ex.clause, ex.given, ex.when, {"second.hitpoints": 1})
    problem = run_one(sc.game.capability("check"), ex)
    assert "unknown value" in problem and "'hitpoints'" in problem and "hp" in problem
