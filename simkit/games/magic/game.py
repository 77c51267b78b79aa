"""Magic War declared as a simkit game.

The declaration holds what only the game can say (schema, the scenario tables it owns, capabilities);
the rest is found by convention in the package: ``tables.py``, ``batch.py``, ``match.py``.
"""

from __future__ import annotations

from simkit.games import Game, ResultSchema
from simkit.games.magic.batch import SIDE_COLUMNS
from simkit.games.magic.tables import TOP_LEVEL_KEYS

GAME = Game(
    name="magic",
    title="Magic War",
    schema=ResultSchema(
        end_reasons={"leader": "a leader was destroyed", "turn_limit": "turn limit reached"},
        cap_reason="turn_limit",
        side_columns=SIDE_COLUMNS,
        card_categories={"race": "race", "unit": "unit type"},
        card_counters={
            "race": {"hits": "the leader's dice hits on enemy units"},
            "unit": {"bought": "units bought", "lost": "units lost",
                     "hits": "dice hits on enemy units (attacks and splash, before reductions)"},
        },
        deck_words="army",
        turn_words="turn",
        experience=True,
    ),
    tables=TOP_LEVEL_KEYS,
    picture_suffixes=(".png",),
    capabilities={
        "narrate": "narrate:narrate",
        "draw": "render:draw_game",
        "check": "invariants:MagicInvariants",
        "deck_counts": "tables:deck_counts",
    },
)
