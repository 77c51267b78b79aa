"""Card Duel as a simkit :class:`~simkit.games.Game`: the hooks the generic layers call."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from simkit.games import Game, ResultSchema
from simkit.games.duel import tables


class Duel(Game):
    """Card Duel (from a designer's note): weapons, spells and statuses over a shared distance."""

    name = "duel"
    title = "Card Duel"
    schema = ResultSchema(
        end_reasons={"hp_zero": "a player's HP reached 0", "turn_limit": "turn limit reached"},
        cap_reason="turn_limit",
        side_columns={"hp": "HP at the end"},
        card_categories={"weapon": "weapon", "spell": "spell"},
    )
    tables = ("rules", "statuses", "cards", "decks", "bots")

    def build_rules(self, top):
        return tables.build_rules(top)

    def deck_pool(self, rules, top) -> Sequence[str]:
        return tables.deck_pool(rules, top)

    def canonical_deck(self, rules, deck: str) -> str:
        return tables.canonical_deck(rules, deck)

    def deck_cards(self, rules, deck: str) -> Mapping[str, tuple[str, ...]]:
        weapons, spells = tables.parse_deck(rules, deck)
        return {"weapon": weapons, "spell": spells}

    def all_decks(self, rules) -> list[str]:
        """Every legal deck of the scenario's cards (the pool when ``[decks] pool`` is not given)."""
        return tables.all_decks(rules)

    def bot_names(self, scenario) -> tuple[str, ...]:
        from simkit.games.duel.play import bot_names

        return bot_names(scenario)

    def play_batch(self, scenario, first_decks, second_decks, seeds, bots, record_actions=False):
        from simkit.games.duel.play import play_batch

        return play_batch(scenario, first_decks, second_decks, seeds, bots, record_actions=record_actions)

    def new_match(self, scenario, first_deck: str, second_deck: str, seed: int = 0):
        from simkit.games.duel.match import Match

        return Match(scenario, first_deck, second_deck, seed=seed)

    def replay(self, scenario, first_deck: str, second_deck: str, actions: Iterable[tuple], seed: int = 0):
        from simkit.games.duel.match import replay

        return replay(scenario, first_deck, second_deck, actions, seed=seed)

    def turn_limit(self, rules) -> int:
        return int(rules.settings[tables.S_TURN_LIMIT])

    def narrate(self, scenario, first_deck, second_deck, actions, bots=("?", "?"), seed=0):
        from simkit.games.duel.narrate import narrate

        return narrate(scenario, first_deck, second_deck, actions, bots=bots, seed=seed)

    def check_spec(self, scenario):
        from simkit.games.duel.invariants import DuelInvariants

        return DuelInvariants(scenario)

    def search_hooks(self, scenario):
        from simkit.games.duel.search import DuelSearch

        return DuelSearch(scenario)
