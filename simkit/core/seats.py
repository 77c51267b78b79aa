"""The two seats of every game, the three ways a game ends, and the decks each seat may hold.

simkit has one seat model: a first-seat pool and a second-seat pool (:class:`SeatPools`). A game whose
seats are alike has equal pools; a game whose seats differ (Magic War: the first player buys with 12 gold,
the second with 13) has its own pool per seat. A sweep plays every first-seat deck against every
second-seat deck, and every layer above counts pairings, decks and games from these two pools, so a
symmetric game is never a special case.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

__all__ = ["SEATS", "WINNERS", "SeatPools"]

#: the seats, in the order a game's records and a deck pair name them (index 0 moves first)
SEATS = ("first", "second")
#: a finished game's winner column: a seat, or a draw (index 2)
WINNERS = ("first", "second", "draw")


@dataclass(frozen=True)
class SeatPools:
    """The decks the first seat and the second seat may hold, each in pool order.

    Unpacks as ``first, second = pools``. Every pairing is a first-seat deck against a second-seat deck;
    a deck of both pools meets itself (a mirror) once.

    Attributes:
        first: the first seat's decks.
        second: the second seat's decks (the same as ``first`` when the seats are alike).
    """

    first: tuple[str, ...]
    second: tuple[str, ...]

    def __post_init__(self):
        object.__setattr__(self, "first", tuple(map(str, self.first)))
        object.__setattr__(self, "second", tuple(map(str, self.second)))

    @classmethod
    def alike(cls, decks: Iterable[str]) -> SeatPools:
        """Both seats hold every deck of ``decks``."""
        decks = tuple(decks)
        return cls(decks, decks)

    def __iter__(self) -> Iterator[tuple[str, ...]]:
        yield self.first
        yield self.second

    def __getitem__(self, seat: int) -> tuple[str, ...]:
        """The pool of seat ``seat`` (0 first, 1 second)."""
        return (self.first, self.second)[seat]

    @property
    def decks(self) -> tuple[str, ...]:
        """Every deck of either pool: the first seat's, then the second seat's others, each in pool order."""
        return tuple(dict.fromkeys(self.first + self.second))

    @property
    def alike_seats(self) -> bool:
        """True when both seats hold the same decks (any deck sits in either seat)."""
        return set(self.first) == set(self.second)

    @property
    def pairings(self) -> int:
        """How many ordered pairings the pools make (first-seat decks x second-seat decks)."""
        return len(self.first) * len(self.second)

    def pairs(self) -> list[tuple[str, str]]:
        """Every pairing (first-seat deck, second-seat deck), first seat's pool order, then the second's."""
        return [(a, b) for a in self.first for b in self.second]

    def holds(self, first: str, second: str) -> bool:
        """Whether ``first`` may sit first and ``second`` second."""
        return first in self.first and second in self.second

    def seatings(self, a: str, b: str) -> int:
        """In how many seatings the pools pair decks ``a`` and ``b``: 2 (either may sit first), 1 or 0."""
        return int(self.holds(a, b)) + int(self.holds(b, a))

    def fewest_seatings(self) -> int:
        """The fewest seatings any two different decks of the pools meet in (2 when the seats are alike; 2 also
        for a pool of one deck, which has no matchup)."""
        if self.alike_seats:
            return 2
        first, second = set(self.first), set(self.second)
        return min((self.seatings(a, b) for a in first for b in second if a != b), default=2)

    def count(self, noun: str = "deck") -> str:
        """The pools counted in words: ``6 decks x 6 decks`` or ``12 first-seat x 24 second-seat decks``."""
        n1, n2 = len(self.first), len(self.second)
        if self.alike_seats:
            word = noun if n1 == 1 else f"{noun}s"
            return f"{n1} {word} x {n2} {word}"
        return f"{n1} first-seat x {n2} second-seat {noun if n2 == 1 else noun + 's'}"
