"""The template game's scenario tables -> fixed ``Rules`` (the records :mod:`.state` declares, for the
compiled rules), the decks and the bots, every table checked with :class:`simkit.scenario.Field`
(``file: key: problem``). The top of the game's package: it may use everything below it.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from simkit.core.errors import ScenarioError
from simkit.games._template.state import CARD, LEAD, LEADS, MAX_SLOTS, PERSONALITY, SETTINGS, WEIGHTS
from simkit.games.kits.bot_tables import bot_tables, number
from simkit.games.kits.decks import deck_pool as read_pool
from simkit.games.kits.state import zeros
from simkit.scenario import Field

RULES_KEYS = ("hp", "energy_per_turn", "max_energy", "turn_limit", "cards_per_deck")
CARD_KEYS = ("cost", "damage", "heal", "uses")
DECK_KEYS = ("pool",)


@dataclass(frozen=True)
class Rules:
    """Tables built once from a scenario; never part of a game's state.

    Attributes:
        names: card names; a card's id is its index.
        settings: the ``[rules]`` numbers, a :data:`~.state.SETTINGS` record.
        cards: one :data:`~.state.CARD` record per card.
        bots: the utility bots, name -> a :data:`~.state.PERSONALITY` record, in file order.
        lead: the lead signal's weights (``[lead]``, :mod:`.lead`), a :data:`~.state.LEAD` record.
    """

    names: tuple[str, ...]
    settings: np.void
    cards: np.ndarray
    bots: dict
    lead: np.void

    @property
    def slots(self) -> int:
        """Cards in every deck."""
        return int(self.settings.cards_per_deck)

    @property
    def max_rolls(self) -> int:
        """Most damage rolls one game can use: every use of both decks' cards."""
        return 2 * self.slots * int(self.cards["uses"].max())

    @property
    def action_cap(self) -> int:
        """Most actions one game can take: one ``end`` per turn plus every use of both decks."""
        return int(self.settings.turn_limit) + self.max_rolls


def _bots(top: Field) -> dict:
    """Each utility personality's weights, a PERSONALITY record (the kit reads the tables)."""
    out = {}
    for name, t in bot_tables(top):
        t.reject_unknown(WEIGHTS)
        out[name] = zeros(PERSONALITY)
        for key in WEIGHTS:
            setattr(out[name], key, number(t, key, minimum=0 if key == "temperature" else None))
    return out


def _lead(top: Field) -> np.void:
    """The ``[lead]`` weights (optional; a missing key takes :data:`~.state.LEADS`' default), each a number from 0,
    ``hp`` above 0."""
    f = top.table("lead", required=False)
    f.reject_unknown(tuple(name for name, _ in LEADS))
    w = zeros(LEAD)
    for name, default in LEADS:
        setattr(w, name, number(f, name, default, minimum=0.0))
    if w.hp <= 0:
        raise f.fail("must be above 0 (the standing is counted in HP)", "hp")
    return w


def build_rules(top: Field) -> Rules:
    """Validate the ``[rules]``, ``[cards]``, ``[decks]``, ``[bots]`` and ``[lead]`` tables.

    Raises:
        ScenarioError: ``file: key: problem`` for the first thing wrong.
    """
    r = top.table("rules")
    r.reject_unknown(RULES_KEYS)
    rules = zeros(SETTINGS)
    rules.hp = r.int("hp", minimum=1)
    rules.energy_per_turn = r.int("energy_per_turn")
    rules.max_energy = r.int("max_energy")
    rules.turn_limit = r.int("turn_limit", minimum=1)
    rules.cards_per_deck = r.int("cards_per_deck", minimum=1)
    if rules.cards_per_deck > MAX_SLOTS:
        raise r.fail(f"must be at most {MAX_SLOTS} (the state's slots per player), got {rules.cards_per_deck}",
                     "cards_per_deck")
    c = top.table("cards")
    names = tuple(c.keys())
    if len(names) < rules.cards_per_deck:
        raise c.fail(f"defines {len(names)} cards, fewer than rules.cards_per_deck ({rules.cards_per_deck})")
    cards = zeros(CARD, len(names))
    for card, name in zip(cards, names):
        f = c.table(name)
        f.reject_unknown(CARD_KEYS)
        lo, hi = f.int_list("damage", length=2, default=[0, 0])
        if lo > hi:
            raise f.fail(f"min {lo} is above max {hi}", "damage")
        card.cost, card.min_damage, card.max_damage = f.int("cost"), lo, hi
        card.heal, card.uses = f.int("heal", 0), f.int("uses", minimum=1)
    return Rules(names=names, settings=rules, cards=cards, bots=_bots(top), lead=_lead(top))


def all_decks(rules: Rules) -> list[str]:
    """Every legal deck id: ``cards_per_deck`` different cards joined by ``+``, alphabetical."""
    return ["+".join(d) for d in itertools.combinations(sorted(rules.names), rules.slots)]


def parse_deck(rules: Rules, deck: str) -> tuple[str, ...]:
    """The cards of a deck id, sorted; raises :class:`ScenarioError` naming an illegal deck."""
    if not isinstance(deck, str):
        raise ScenarioError(f"deck {deck!r}: expected card names joined by '+'")
    cards = tuple(sorted(c.strip() for c in deck.split("+") if c.strip()))
    for card in cards:
        if card not in rules.names:
            raise ScenarioError(f"deck {deck!r}: unknown card {card!r} (cards: {', '.join(rules.names)})")
    if len(cards) != rules.slots or len(set(cards)) != len(cards):
        raise ScenarioError(f"deck {deck!r}: needs {rules.slots} different cards")
    return cards


def canonical_deck(rules: Rules, deck: str) -> str:
    """The canonical id of a legal deck: its cards in alphabetical order."""
    return "+".join(parse_deck(rules, deck))


def deck_list(rules: Rules, deck: str) -> np.ndarray:
    """``int64[cards_per_deck]`` the card ids of a deck, in its slot order (alphabetical)."""
    return np.array([rules.names.index(c) for c in parse_deck(rules, deck)], np.int64)


def deck_pool(rules: Rules, top: Field) -> list[str]:
    """``[decks] pool`` if given (each deck checked), else every legal deck.

    Read by the kit: :func:`simkit.games.kits.decks.deck_pool`.
    """
    return read_pool(top, lambda deck: canonical_deck(rules, deck), lambda: all_decks(rules), keys=DECK_KEYS)


def deck_cards(rules: Rules, deck: str) -> dict[str, tuple[str, ...]]:
    """The cards of ``deck`` (one category: ``card``)."""
    return {"card": parse_deck(rules, deck)}


def turn_limit(rules: Rules) -> int:
    """The last turn a game can reach."""
    return int(rules.settings.turn_limit)

