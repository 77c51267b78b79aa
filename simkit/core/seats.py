"""The two seats of every game and the three ways a game ends, as simkit's records spell them."""

from __future__ import annotations

__all__ = ["SEATS", "WINNERS"]

#: the seats, in the order a game's records and a deck pair name them (index 0 moves first)
SEATS = ("first", "second")
#: a finished game's winner column: a seat, or a draw (index 2)
WINNERS = ("first", "second", "draw")
