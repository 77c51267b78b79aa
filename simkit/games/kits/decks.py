"""A scenario's deck pool, read once for every game: the listed decks (each checked) or every legal deck."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from simkit.core.errors import ScenarioError
from simkit.scenario import Field

__all__ = ["deck_pool"]


def deck_pool(top: Field, canonical: Callable[[str], str], every: Callable[[], Sequence[str]], table: str = "decks",
              words: str = "deck", keys: tuple[str, ...] | None = ("pool",)) -> list[str]:
    """``[<table>] pool``, each entry as its canonical id, in file order, when given; else every legal deck.

    Args:
        top: the scenario's top level.
        canonical: the game's ``canonical_deck`` for one deck (raises :class:`ScenarioError` naming an
            illegal one).
        every: every legal deck of the scenario, in the game's fixed order.
        table: the table holding ``pool`` (``decks``; Magic War's ``armies``).
        words: what the game calls a deck, for the messages (``deck``, ``loadout``, ``army``).
        keys: the keys the table may hold (``None``: the game checks the table's other keys itself).

    Raises:
        ScenarioError: an unknown key, a pool that is not a non-empty list, an illegal deck (naming its
            index), or a deck listed twice.
    """
    d = top.table(table, required=False)
    if keys is not None:
        d.reject_unknown(keys)
    if not d.has("pool"):
        return list(every())
    pool = d.get("pool")
    if not isinstance(pool, list) or not pool:
        raise d.fail(f"must be a non-empty list of {words} ids", "pool")
    out: list[str] = []
    for i, deck in enumerate(pool):
        try:
            name = canonical(deck)
        except ScenarioError as exc:
            raise d.fail(str(exc), f"pool[{i}]") from None
        if name in out:
            raise d.fail(f"lists the {words} {name!r} twice", f"pool[{i}]")
        out.append(name)
    return out
