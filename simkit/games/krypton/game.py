"""Krypton Tower War as a simkit :class:`~simkit.games.Game`: the hooks the generic layers call."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from simkit.games import Game, ResultSchema
from simkit.games.krypton import tables
from simkit.games.krypton.play import SIDE_COLUMNS


class Krypton(Game):
    """Krypton Tower War (氪金塔之战): heroes on a hex map, dice combat, veins, towers and magic cards."""

    name = "krypton"
    title = "Krypton Tower War"
    schema = ResultSchema(
        end_reasons={"base": "a base was destroyed", "turn_limit": "round limit reached"},
        cap_reason="turn_limit",
        side_columns=SIDE_COLUMNS,
        card_categories={"class": "hero class"},
        deck_words="loadout",
        turn_words="round",
    )
    tables = ("rules", "bases", "terrain", "classes", "towers", "veins", "magic", "map", "decks", "bots")

    def build_rules(self, top):
        return tables.build_rules(top)

    def deck_pool(self, rules, top) -> Sequence[str]:
        return tables.deck_pool(rules, top)

    def canonical_deck(self, rules, deck: str) -> str:
        return tables.canonical_deck(rules, deck)

    def deck_cards(self, rules, deck: str) -> Mapping[str, tuple[str, ...]]:
        # each class once (the generic card statistics count which cards a deck holds, not copies)
        return {"class": tuple(sorted(set(tables.parse_loadout(rules, deck))))}

    def all_decks(self, rules) -> list[str]:
        """Every legal loadout of the scenario (the pool when ``[decks] pool`` is not given)."""
        return tables.all_loadouts(rules)

    def turn_limit(self, rules) -> int:
        return int(rules.settings["max_rounds"])

    def bot_names(self, scenario) -> tuple[str, ...]:
        from simkit.games.krypton.play import bot_names

        return bot_names(scenario)

    def play_batch(self, scenario, first_decks, second_decks, seeds, bots, record_actions=False):
        from simkit.games.krypton.play import play_batch

        return play_batch(scenario, first_decks, second_decks, seeds, bots, record_actions=record_actions)

    def new_match(self, scenario, first_deck: str, second_deck: str, seed: int = 0):
        from simkit.games.krypton.match import Match

        return Match(scenario, first_deck, second_deck, seed=seed)

    def replay(self, scenario, first_deck: str, second_deck: str, actions: Iterable[tuple], seed: int = 0):
        from simkit.games.krypton.match import replay

        return replay(scenario, first_deck, second_deck, actions, seed=seed)

    def narrate(self, scenario, first_deck, second_deck, actions, bots=("?", "?"), seed=0):
        from simkit.games.krypton.narrate import narrate

        return narrate(scenario, first_deck, second_deck, actions, bots=bots, seed=seed)

    picture_suffixes = (".png", ".gif")

    def render_game(self, scenario, first_deck, second_deck, actions, out_path, per="turn", seed=None, **options):
        from simkit.games.krypton.render import render_game

        return render_game(scenario, first_deck, second_deck, actions, out_path, per=per,
                           seed=0 if seed is None else seed, **options)

    def check_spec(self, scenario):
        from simkit.games.krypton.invariants import KryptonInvariants

        return KryptonInvariants(scenario)

    def search_hooks(self, scenario):
        from simkit.games.krypton.search import KryptonSearch

        return KryptonSearch(scenario)
