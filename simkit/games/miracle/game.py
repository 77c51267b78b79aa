"""Battle of Miracles as a simkit :class:`~simkit.games.Game`: the hooks the generic layers call."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from simkit.games import Game, ResultSchema
from simkit.games.miracle import tables
from simkit.games.miracle.cards import all_decks, canonical_deck, parse_deck


class Miracle(Game):
    """Battle of Miracles (神迹之战): 1 artifact and 3 creature kinds a deck, a miracle to destroy."""

    name = "miracle"
    title = "Battle of Miracles"
    schema = ResultSchema(
        end_reasons={"miracle": "a miracle fell", "turn_limit": "turn limit reached"},
        cap_reason="turn_limit",
        side_columns={"miracle_hp": "miracle HP at the end", "dead_stars": "stars of own units killed"},
        card_categories={"artifact": "artifact", "creature": "creature kind"},
    )
    tables = ("rules", "map", "creatures", "artifacts", "decks", "bots")

    def build_rules(self, top):
        return tables.build_rules(top)

    def deck_pool(self, rules, top) -> Sequence[str]:
        return tables.deck_pool(rules, top)

    def canonical_deck(self, rules, deck: str) -> str:
        return canonical_deck(rules.cards, deck)

    def deck_cards(self, rules, deck: str) -> Mapping[str, tuple[str, ...]]:
        artifact, kinds = parse_deck(rules.cards, deck)
        return {
            "artifact": (rules.cards.artifacts[artifact],),
            "creature": tuple(rules.cards.kinds[k] for k in kinds),
        }

    def all_decks(self, rules) -> list[str]:
        """Every legal deck of the scenario's cards (the pool when ``[decks] pool`` is not given)."""
        return all_decks(rules.cards)

    def turn_limit(self, rules) -> int:
        return rules.turn_limit

    def bot_names(self, scenario) -> tuple[str, ...]:
        from simkit.games.miracle.bots import bot_names

        return bot_names(scenario)

    def play_batch(self, scenario, first_decks, second_decks, seeds, bots, record_actions=False):
        from simkit.games.miracle.play import play_batch

        return play_batch(scenario, first_decks, second_decks, seeds, bots, record_actions=record_actions)

    def new_match(self, scenario, first_deck: str, second_deck: str, seed: int = 0):
        from simkit.games.miracle.match import Match

        return Match(scenario, first_deck, second_deck, seed=seed)

    def replay(self, scenario, first_deck: str, second_deck: str, actions: Iterable[tuple], seed: int = 0):
        from simkit.games.miracle.match import replay

        return replay(scenario, first_deck, second_deck, actions, seed=seed)

    def narrate(self, scenario, first_deck, second_deck, actions, bots=("?", "?"), seed=0):
        from simkit.games.miracle.narrate import narrate

        return narrate(scenario, first_deck, second_deck, actions, bots=bots, seed=seed)

    def key_turns_figure(self, *args, **kwargs):
        from simkit.games.miracle.render_replay import key_turns_figure

        return key_turns_figure(*args, **kwargs)

    def check_spec(self, scenario):
        return MiracleCheck(scenario)

    picture_suffixes = (".gif", ".html", ".png")

    def render_game(self, scenario, first_deck, second_deck, actions, out_path, per="turn", seed=None, **options):
        from simkit.games.miracle.render_replay import render_game

        return render_game(scenario, first_deck, second_deck, actions, out_path, per=per, seed=seed, **options)


class MiracleCheck:
    """``simkit check`` for Battle of Miracles: the hypothesis state machine over the scenario and its
    variants, every invariant after every action, shrinking and replay
    files (:mod:`simkit.games.miracle.checking`)."""

    def __init__(self, scenario):
        self.scenario = scenario

    def run_check(self, **options):
        from simkit.games.miracle.checking.check import run_check

        return run_check(self.scenario.path, **options)

    def replay_file(self, case_path):
        from simkit.games.miracle.checking.check import replay_file

        return replay_file(self.scenario.path, case_path)
