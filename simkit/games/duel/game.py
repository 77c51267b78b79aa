"""Card Duel declared as a simkit game: its schema, the scenario tables it owns, and its hooks."""

from __future__ import annotations

from simkit.games import Game, ResultSchema

_ = "simkit.games.duel."

GAME = Game(
    name="duel",
    title="Card Duel",
    schema=ResultSchema(
        end_reasons={"hp_zero": "a player's HP reached 0", "turn_limit": "turn limit reached"},
        cap_reason="turn_limit",
        side_columns={"hp": "HP at the end"},
        card_categories={"weapon": "weapon", "spell": "spell"},
        card_counters={
            "weapon": {"used": "uses (charging ones too)", "damage": "HP the opponent lost to it"},
            "spell": {"played": "times played, attached or set", "damage": "HP the opponent lost to it"},
            "core": {"played": "times played, attached or set", "damage": "HP the opponent lost to it"},
        },
    ),
    tables=("rules", "statuses", "cards", "decks", "bots"),
    build_rules=_ + "tables:build_rules",
    deck_pool=_ + "tables:deck_pool",
    canonical_deck=_ + "tables:canonical_deck",
    deck_cards=_ + "tables:deck_cards",
    all_decks=_ + "tables:all_decks",
    turn_limit=_ + "tables:turn_limit",
    counter_cards=_ + "batch:counter_cards",
    bot_names=_ + "batch:bot_names",
    play_batch=_ + "batch:play_batch",
    new_match=_ + "match:Match",
    capabilities={
        "narrate": _ + "narrate:narrate",
        "checks": _ + "invariants:DuelInvariants",
        "search": _ + "search_hooks:DuelSearch",
    },
)
