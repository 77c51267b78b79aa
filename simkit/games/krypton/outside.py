"""Krypton Tower War facing outside bots (``docs/outside-bots.md``): what a seat sees, the scenario's bots
deciding one action at a time on a :class:`~simkit.games.krypton.match.Match`, and a match's record.

A seat sees the board, both sides' heroes, buildings, bases, energy and the discard pile, its own hand, and of
what is hidden only how much there is: the other side's hand as a number of cards, the magic pile as its size
(rules page section 5: hands are hidden; the pile is face down), never the dice stream's position.
"""

from __future__ import annotations

from collections.abc import Callable

from simkit.games.krypton import batch as KB
from simkit.games.krypton.bots import choose as bot_choose
from simkit.games.krypton.view import WINNERS

__all__ = ["inside_player", "match_record", "observe"]


def observe(match, seat: int) -> dict:
    """What ``seat`` sees: the match's snapshot with the other side's hand and the pile reduced to their sizes and
    the dice stream's counter left out."""
    seen = match.snapshot()
    seen.pop("ctr", None)
    hands = seen.pop("hands")
    seen["hand"] = list(hands[seat])
    seen["hand_sizes"] = [len(h) for h in hands]
    seen["pile_size"] = len(seen.pop("pile"))
    return seen


def inside_player(scenario, name: str, seat: int, seed: int) -> Callable:
    """The scenario's bot ``name`` (random, a personality or a search bot) choosing for ``seat`` of a match, its
    noise seeded by ``seed`` as in a batch."""
    bot = KB.make_bot(scenario, name, seat, seed)[0]
    return lambda match: bot_choose(bot, match.game)


def match_record(match) -> dict:
    """The winner, end reason, turns, side columns and counter columns of the match as it stands."""
    g = match.game
    over = g.over
    out = {"winner": WINNERS[g.winner] if over and g.winner is not None else "draw",
           "end_reason": g.end_reason if over else "", "turns": int(g.round)}
    out.update(KB.record_columns(g))
    out.update(KB.counter_values(g))
    return out
