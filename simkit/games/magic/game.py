"""Magic War declared as a simkit game: its schema, the scenario tables it owns, and its hooks."""

from __future__ import annotations

from simkit.games import Game, ResultSchema
from simkit.games.magic.batch import SIDE_COLUMNS
from simkit.games.magic.tables import TOP_LEVEL_KEYS

_ = "simkit.games.magic."

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
    ),
    tables=TOP_LEVEL_KEYS,
    build_rules=_ + "tables:build_rules",
    deck_pool=_ + "tables:deck_pool",
    canonical_deck=_ + "tables:canonical_deck",
    deck_cards=_ + "tables:deck_cards",
    all_decks=_ + "tables:all_decks",
    turn_limit=_ + "tables:turn_limit",
    counter_cards=_ + "batch:counter_cards",
    seat_pools=_ + "tables:seat_pools",
    bot_names=_ + "batch:bot_names",
    play_batch=_ + "batch:play_batch",
    new_match=_ + "match:Match",
    picture_suffixes=(".png",),
    capabilities={
        "narrate": _ + "narrate:narrate",
        "draw": _ + "render:draw_game",
        "checks": _ + "invariants:MagicInvariants",
        "deck_counts": _ + "tables:deck_counts",
    },
)
