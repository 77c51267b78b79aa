"""The deck space explore searches: the scenario's decks, their cards, one-card neighbours and style axes.

Everything is read through the game interface (``sc.game.deck_cards``), never by importing a game:
a deck is the multiset of its ``(category, card)`` pairs, two decks are neighbours when one edit
turns one into the other: one card swapped for another of the same category (decks of one size),
one card added or removed (decks whose sizes differ), or no card changed at all (two decks the
game tells apart by counts its ``deck_cards`` lists once, e.g. Magic War's armies: the same unit
types, other counts). A style axis maps a deck to a value (which card of a one-card category, how
many cards of a chosen list it holds, or how many cards of the category). When the game's seats
have their own pools (:meth:`simkit.games.Ruleset.seat_decks`), the space knows each seat's decks and that
each seat chooses knowing its seat (``own_seats``, true even when a scenario makes the two pools equal).
Every space has two seat pools (equal ones when the seats are alike).
"""

from __future__ import annotations

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
        if self.cards == ("*",):
            return len(held)
        if self.cards:
            return sum(1 for c in held if c in self.cards)
        return ",".join(held)

    def spec(self) -> str:
        """The axis as ``--axis`` takes it."""
        return f"{self.name}={self.category}" + (f":{','.join(self.cards)}" if self.cards else "")


def parse_axis(text: str) -> Axis:
    """An axis from ``NAME=CATEGORY`` (which card), ``NAME=CATEGORY:CARD,CARD`` (how many of these) or
    ``NAME=CATEGORY:*`` (how many cards of the category).

    Raises:
        ValueError: the text is not of either form (an empty card name included: ``CAT:a,,b``).
    """
    name, eq, rest = text.partition("=")
    category, colon, cards = rest.partition(":")
    if not eq or not name.strip() or not category.strip() or (colon and not all(c.strip() for c in cards.split(","))):
        raise ValueError(f"--axis {text!r}: write NAME=CATEGORY, NAME=CATEGORY:CARD,CARD,... or NAME=CATEGORY:*")
    return Axis(name.strip(), category.strip(), tuple(c.strip() for c in cards.split(",") if c.strip()))


class DeckSpace:
    """The decks of a scenario's pool (or of a given list) with their cards, neighbours, seats and style axes.

    Attributes:
        decks: the decks, pool order (indices everywhere else refer to this order).
        cards: per deck, its cards by category.
        neighbours: per deck, the indices of the decks one edit away (at most ``max_neighbours``
            of them, drawn by the seed, when that is set).
        seats: the indices of the decks the first and the second seat may hold.
        own_seats: whether the game gives each seat its own pool (:attr:`simkit.games.Ruleset.own_seat_pools`):
            each seat then chooses knowing its seat, even when the two pools hold the same decks.
        axes: the style axes of the archive.
    """

    def __init__(self, sc, axes: tuple[Axis, ...] | None = None, decks=None, max_neighbours: int = 0,
                 seed: int = 0):
        self.decks: tuple[str, ...] = tuple(sc.decks if decks is None else decks)
        self.cards = [{k: tuple(v) for k, v in sc.game.deck_cards(d).items()} for d in self.decks]
        keys = sorted({(k, c) for cards in self.cards for k, v in cards.items() for c in v})
        col = {key: i for i, key in enumerate(keys)}
        bag = np.zeros((len(self.decks), len(keys)), np.int16)
        for i, cards in enumerate(self.cards):
            for k, v in cards.items():
                for c in v:
                    bag[i, col[(k, c)]] += 1
        cat = np.array([k for k, _ in keys])
        size = bag.sum(1)
        self.neighbours: list[tuple[int, ...]] = []
        for i in range(len(self.decks)):
            diff = bag - bag[i]
            l1 = np.abs(diff).sum(1)
            near = (l1 == 0) | ((l1 == 1) & (size != size[i]))
            swap = np.flatnonzero((l1 == 2) & (size == size[i]))
            if len(swap):  # one card out, one in: the same category
                gone, came = diff[swap].argmin(1), diff[swap].argmax(1)
                near[swap[cat[gone] == cat[came]]] = True
            near[i] = False
            found = np.flatnonzero(near)
            if max_neighbours and len(found) > max_neighbours:
                from simkit.core.rng import derive_seed

                keys_ = [derive_seed(seed, "explore-near", self.decks[i], self.decks[j]) for j in found]
                found = np.sort(found[np.argsort(np.array(keys_, dtype=np.uint64), kind="stable")[:max_neighbours]])
            self.neighbours.append(tuple(int(j) for j in found))
        first, second = sc.game.seat_decks(self.decks)
        pos = {d: i for i, d in enumerate(self.decks)}
        self.seats = (tuple(pos[d] for d in first), tuple(pos[d] for d in second))
        self.own_seats = bool(sc.game.own_seat_pools)
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
        from simkit.core.rng import derive_seed

        keys = np.array([derive_seed(seed, "explore-start", draw, d) for d in self.decks], dtype=np.uint64)
        return sorted(int(i) for i in np.argsort(keys, kind="stable")[:max(1, min(k, len(self.decks)))])
