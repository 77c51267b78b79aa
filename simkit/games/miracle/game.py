"""Battle of Miracles declared as a simkit game.

The declaration holds what only the game can say (schema, the scenario tables it owns, capabilities);
the rest is found by convention in the package: ``tables.py``, ``batch.py``, ``match.py``.
"""

from __future__ import annotations

from simkit.games import Game, ResultSchema

GAME = Game(
    name="miracle",
    title="Battle of Miracles",
    schema=ResultSchema(
        end_reasons={"miracle": "a miracle fell", "turn_limit": "turn limit reached"},
        cap_reason="turn_limit",
        experience=True,
        side_columns={"miracle_hp": "miracle HP at the end", "dead_stars": "stars of own units killed"},
        card_categories={"artifact": "artifact", "creature": "creature kind"},
        card_counters={
            "artifact": {"used": "uses", "damage": "damage dealt (InfernoFlame's blast and its Inferno)"},
            "creature": {"summoned": "units summoned", "damage": "damage dealt (attacks, counters, splash)"},
        },
    ),
    tables=("rules", "map", "creatures", "artifacts", "decks", "bots", "lead"),
    picture_suffixes=(".gif", ".html", ".png"),
    capabilities={
        "narrate": "narrate:narrate",
        "draw": "render_replay:render_game",
        "key_turns": "render_replay:key_turns_figure",
        "check": "game:MiracleCheck",
        "compile_parts": "batch:compile_parts",
        "original_replay": "original_replay:replay_file",
    },
)


class MiracleCheck:
    """``simkit check`` for Battle of Miracles (its ``check`` capability): the hypothesis state machine over the
    scenario and its variants, every invariant after every action, shrinking and replay files
    (:mod:`simkit.games.miracle.checking`), and the words of its rule examples (``scenarios/miracle/examples.toml``)."""

    def __init__(self, scenario):
        self.scenario = scenario

    def _examples(self):
        from simkit.games.miracle.checking.examples import MiracleExamples

        return MiracleExamples(self.scenario)

    def example_match(self, given):
        """The position of a rule example (``MiracleExamples.example_match`` of the checking package)."""
        return self._examples().example_match(given)

    def example_values(self, match) -> dict:
        """A position in the examples' words (``MiracleExamples.example_values`` of the checking package)."""
        return self._examples().example_values(match)

    def run_check(self, examples_first: bool = True, **options):
        """The hypothesis run (:func:`simkit.games.miracle.checking.check.run_check`), its rule examples first
        unless ``examples_first`` is False."""
        from simkit.games.miracle.checking.check import run_check

        return run_check(self.scenario.path, examples_first=examples_first, **options)

    def replay_file(self, case_path):
        """Replay a case the hypothesis run wrote (:func:`simkit.games.miracle.checking.check.replay_file`)."""
        from simkit.games.miracle.checking.check import replay_file

        return replay_file(self.scenario.path, case_path)
