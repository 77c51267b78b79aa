"""Battle of Miracles declared as a simkit game: its schema, the scenario tables it owns, and its hooks."""

from __future__ import annotations

from simkit.games import Game, ResultSchema

_ = "simkit.games.miracle."

GAME = Game(
    name="miracle",
    title="Battle of Miracles",
    schema=ResultSchema(
        end_reasons={"miracle": "a miracle fell", "turn_limit": "turn limit reached"},
        cap_reason="turn_limit",
        side_columns={"miracle_hp": "miracle HP at the end", "dead_stars": "stars of own units killed"},
        card_categories={"artifact": "artifact", "creature": "creature kind"},
        card_counters={
            "artifact": {"used": "uses", "damage": "damage dealt (InfernoFlame's blast and its Inferno)"},
            "creature": {"summoned": "units summoned", "damage": "damage dealt (attacks, counters, splash)"},
        },
    ),
    tables=("rules", "map", "creatures", "artifacts", "decks", "bots"),
    build_rules=_ + "tables:build_rules",
    deck_pool=_ + "tables:deck_pool",
    canonical_deck=_ + "tables:canonical_deck",
    deck_cards=_ + "tables:deck_cards",
    all_decks=_ + "tables:all_decks",
    turn_limit=_ + "tables:turn_limit",
    counter_cards=_ + "tables:counter_cards",
    bot_names=_ + "bots:bot_names",
    play_batch=_ + "play:play_batch",
    new_match=_ + "match:Match",
    picture_suffixes=(".gif", ".html", ".png"),
    capabilities={
        "narrate": _ + "narrate:narrate",
        "draw": _ + "render_replay:render_game",
        "key_turns": _ + "render_replay:key_turns_figure",
        "check_runner": _ + "game:MiracleCheck",
    },
)


class MiracleCheck:
    """``simkit check`` for Battle of Miracles: the hypothesis state machine over the scenario and its
    variants, every invariant after every action, shrinking and replay files (:mod:`simkit.games.miracle.checking`)."""

    def __init__(self, scenario):
        self.scenario = scenario

    def run_check(self, **options):
        from simkit.games.miracle.checking.check import run_check

        return run_check(self.scenario.path, **options)

    def replay_file(self, case_path):
        from simkit.games.miracle.checking.check import replay_file

        return replay_file(self.scenario.path, case_path)
