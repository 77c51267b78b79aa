"""The deck space explore searches: the scenario's decks, their cards, one-card neighbours and style axes.

Everything is read through the game interface (``sc.game.deck_cards``), never by importing a game:
a deck is the multiset of its ``(category, card)`` pairs, two decks are neighbours when one card
swapped for another (same category) turns one into the other, and a style axis maps a deck to a
value (which card of a one-card category, or how many cards of a chosen list it holds).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Axis:
    """A style axis of the diversity archive.

    Attributes:
        name: the column name in ``archive.csv``.
        category: the card category it reads.
        cards: empty: the value is the deck's card of ``category`` (a one-card category, e.g. the
            artifact); else the value is how many of these cards the deck holds (e.g. cheap creatures).
    """

    name: str
    category: str
    cards: tuple[str, ...] = ()

    def value(self, cards: dict[str, tuple[str, ...]]) -> str | int:
        """The axis value of a deck with these cards by category."""
        held = cards.get(self.category, ())
        if self.cards:
            return sum(1 for c in held if c in self.cards)
        return ",".join(held)

    def spec(self) -> str:
        """The axis as ``--axis`` takes it."""
        return f"{self.name}={self.category}" + (f":{','.join(self.cards)}" if self.cards else "")


def parse_axis(text: str) -> Axis:
    """An axis from ``NAME=CATEGORY`` (which card) or ``NAME=CATEGORY:CARD,CARD`` (how many of these).

    Raises:
        ValueError: the text is not of either form.
    """
    name, eq, rest = text.partition("=")
    category, colon, cards = rest.partition(":")
    if not eq or not name.strip() or not category.strip() or (colon and not cards.strip()):
        raise ValueError(f"--axis {text!r}: write NAME=CATEGORY or NAME=CATEGORY:CARD,CARD,...")
    return Axis(name.strip(), category.strip(), tuple(c.strip() for c in cards.split(",") if c.strip()))


class DeckSpace:
    """The decks of a scenario's pool with their cards, neighbours and style axes.

    Attributes:
        decks: the decks, pool order (indices everywhere else refer to this order).
        cards: per deck, its cards by category.
        neighbours: per deck, the indices of the decks one card swap away.
        axes: the style axes of the archive.
    """

    def __init__(self, sc, axes: tuple[Axis, ...] | None = None):
        self.decks: tuple[str, ...] = tuple(sc.decks)
        self.cards = [{k: tuple(v) for k, v in sc.game.deck_cards(d).items()} for d in self.decks]
        bags = [Counter((k, c) for k, v in cards.items() for c in v) for cards in self.cards]
        self.neighbours: list[tuple[int, ...]] = []
        for i, bag in enumerate(bags):
            size = sum(bag.values())
            near = []
            for j, other in enumerate(bags):
                if i == j or sum(other.values()) != size:
                    continue
                gone = bag - other
                if sum(gone.values()) == 1 and next(iter(gone))[0] == next(iter(other - bag))[0]:
                    near.append(j)
            self.neighbours.append(tuple(near))
        categories = sorted({k for cards in self.cards for k in cards})
        if axes is None:  # default: the categories of which every deck holds exactly one card
            axes = tuple(Axis(k, k) for k in categories if all(len(c.get(k, ())) == 1 for c in self.cards))
        for ax in axes:
            if ax.category not in categories:
                raise ValueError(f"axis {ax.name!r}: no card category {ax.category!r} "
                                 f"(the game's: {', '.join(categories)})")
        self.axes = tuple(axes)

    def __len__(self) -> int:
        return len(self.decks)

    def index(self, deck: str) -> int:
        """The index of ``deck``.

        Raises:
            ValueError: the deck is not in the space.
        """
        try:
            return self.decks.index(deck)
        except ValueError:
            raise ValueError(f"deck {deck!r} is not in the scenario's pool") from None

    def cell(self, i: int) -> tuple:
        """The archive cell of deck ``i``: its value on every axis."""
        return tuple(ax.value(self.cards[i]) for ax in self.axes)

    def all_cards(self) -> list[tuple[str, str]]:
        """Every ``(category, card)`` some deck of the space holds, sorted."""
        return sorted({(k, c) for cards in self.cards for k, v in cards.items() for c in v})

    def uses(self, i: int, card: tuple[str, str]) -> bool:
        """Whether deck ``i`` holds ``card``."""
        return card[1] in self.cards[i].get(card[0], ())

    def start(self, seed: int, k: int, draw: int = 0) -> list[int]:
        """``k`` decks drawn from the pool by ``seed`` and ``draw`` alone (pool order kept)."""
        from simkit.games.kits.rng import derive_seed

        keys = np.array([derive_seed(seed, "explore-start", draw, d) for d in self.decks], dtype=np.uint64)
        return sorted(int(i) for i in np.argsort(keys, kind="stable")[:max(1, min(k, len(self.decks)))])
