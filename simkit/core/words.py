"""English words for simkit's messages and pages: plurals of the games' own nouns."""

from __future__ import annotations

__all__ = ["count", "plural"]


def plural(noun: str) -> str:
    """The plural of an English noun of a game's words: ``deck`` -> ``decks``, ``hero class`` -> ``hero classes``,
    ``army`` -> ``armies``."""
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in tuple("aeiou"):
        return noun[:-1] + "ies"
    return noun + "s"


def count(n: int, noun: str) -> str:
    """``1 deck``, ``2 decks``, ``3 hero classes``."""
    return f"{n} {noun}" if n == 1 else f"{n} {plural(noun)}"
