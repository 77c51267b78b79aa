"""Krypton Tower War declared as a simkit game: its schema, the scenario tables it owns, and its hooks."""

from __future__ import annotations

from simkit.games import Game, ResultSchema
from simkit.games.krypton.play import SIDE_COLUMNS

_ = "simkit.games.krypton."

GAME = Game(
    name="krypton",
    title="Krypton Tower War",
    schema=ResultSchema(
        end_reasons={"base": "a base was destroyed", "turn_limit": "round limit reached"},
        cap_reason="turn_limit",
        side_columns=SIDE_COLUMNS,
        card_categories={"class": "hero class"},
        card_counters={
            "class": {"attacks": "attack judgments started", "damage": "HP its won judgments took"},
            "magic": {"played": "times played", "damage": "HP enemy heroes lost to it"},
        },
        deck_words="loadout",
        turn_words="round",
    ),
    tables=("rules", "bases", "terrain", "classes", "towers", "veins", "magic", "map", "decks", "bots"),
    build_rules=_ + "tables:build_rules",
    deck_pool=_ + "tables:deck_pool",
    canonical_deck=_ + "tables:canonical_deck",
    deck_cards=_ + "tables:deck_cards",
    all_decks=_ + "tables:all_loadouts",
    turn_limit=_ + "tables:turn_limit",
    counter_cards=_ + "play:counter_cards",
    bot_names=_ + "play:bot_names",
    play_batch=_ + "play:play_batch",
    new_match=_ + "match:Match",
    picture_suffixes=(".png", ".gif"),
    capabilities={
        "narrate": _ + "narrate:narrate",
        "draw": _ + "render:render_game",
        "checks": _ + "invariants:KryptonInvariants",
        "search": _ + "search:KryptonSearch",
    },
)
