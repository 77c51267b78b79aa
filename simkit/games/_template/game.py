"""The template game declared as a simkit game.

The declaration holds what only the game can say (schema, the scenario tables it owns, capabilities);
the rest is found by convention in the package: ``tables.py``, ``batch.py``, ``match.py``.
"""

from __future__ import annotations

from simkit.games import Game, ResultSchema

GAME = Game(
    name="_template",
    title="Template game",
    schema=ResultSchema(
        end_reasons={"hp_zero": "a player's HP reached 0", "turn_limit": "turn limit reached"},
        cap_reason="turn_limit",
        side_columns={"hp": "HP at the end"},
        card_categories={"card": "card"},
        experience=True,
    ),
    tables=("rules", "cards", "decks", "bots", "lead"),
    capabilities={
        "narrate": "narrate:narrate",
        "check": "invariants:TemplateInvariants",
    },
)
