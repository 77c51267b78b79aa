"""Krypton Tower War facing outside bots (``docs/outside-bots.md``): what a seat sees, the scenario's bots
deciding one action at a time on a :class:`~simkit.games.krypton.match.Match`, and a match's record.

A seat sees the declared game record (:meth:`Match.snapshot`: heroes, buildings, bases, energy, the discard pile,
the open judgment) with its own hand; of what is hidden only how much there is: the other side's hand as its size
(``n_hand``; rules page section 5: hands are hidden), the face-down magic pile as its size (``n_pile``), never the
dice stream's key or position or the scripted dice.
"""

from __future__ import annotations

from collections.abc import Callable

from simkit.games.krypton import batch as KB
from simkit.games.krypton.bots import choose as bot_choose

__all__ = ["inside_player", "match_record", "observe"]

#: the fields of the game record a seat never sees (the dice stream and the pile's order)
HIDDEN = ("ctr", "key", "n_scripted", "next_scripted", "scripted", "script_overrun", "pile")


def observe(match, seat: int) -> dict:
    """What ``seat`` sees: the snapshot without the dice stream, the pile's order and the other side's hand (its
    ``n_hand`` stays), with ``deck``: its own loadout and ``hand``: its own cards by name."""
    seen = match.snapshot()
    for key in HIDDEN:
        seen.pop(key, None)
    seen["sides"][1 - seat]["hand"] = []
    return {"deck": match.decks[seat], "hand": list(match.hand(seat)), **seen}


def inside_player(scenario, name: str, seat: int, seed: int) -> Callable:
    """The scenario's bot ``name`` (random, a personality or a search bot) choosing for ``seat`` of a match, its
    noise seeded by ``seed`` as in a batch."""
    bot = KB.make_bot(scenario, name, seat, seed)[0]
    return lambda match: bot_choose(bot, match)


def match_record(match) -> dict:
    """The winner, end reason, turns, experience figures (:meth:`Match.experience_figures`), side columns and
    counter columns of the match as it stands."""
    over = match.over
    out = {"winner": match.winner if over and match.winner is not None else "draw",
           "end_reason": match.end_reason if over else "", "turns": int(match.round)}
    out.update(match.experience_figures())
    out.update(KB.record_columns(match))
    out.update(KB.counter_values(match))
    return out
