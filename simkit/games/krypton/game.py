"""Krypton Tower War declared as a simkit game.

The declaration holds what only the game can say (schema, the scenario tables it owns, capabilities);
the rest is found by convention in the package: ``tables.py``, ``batch.py``, ``match.py``.
"""

from __future__ import annotations

from simkit.games import Game, ResultSchema
from simkit.games.krypton.batch import SIDE_COLUMNS

GAME = Game(
    name="krypton",
    title="Krypton Tower War",
    schema=ResultSchema(
        end_reasons={"base": "a base was destroyed", "turn_limit": "round limit reached",
                     "sudden_death": "a base HP taken after the sudden-death round",
                     "lock": "locked: no base could be hurt any more without cards"},
        cap_reason="turn_limit",
        lock_reasons=("lock",),
        side_columns=SIDE_COLUMNS,
        card_categories={"class": "hero class"},
        card_counters={
            "class": {"attacks": "attack judgments started", "damage": "HP its won judgments took"},
            "magic": {"played": "times played", "damage": "HP enemy heroes lost to it"},
        },
        deck_words="loadout",
        turn_words="round",
        experience=True,
    ),
    tables=("rules", "bases", "terrain", "classes", "towers", "veins", "magic", "map", "decks", "bots", "lead"),
    picture_suffixes=(".png", ".gif"),
    capabilities={
        "narrate": "narrate:narrate",
        "draw": "render:render_game",
        "check": "invariants:KryptonInvariants",
        "compile_parts": "batch:compile_parts",
    },
)
