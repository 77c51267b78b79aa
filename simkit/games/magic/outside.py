"""Magic War facing outside bots (``docs/outside-bots.md``): what a seat sees, the scenario's bots deciding one
action at a time on a :class:`~simkit.games.magic.match.Match`, and a match's record.

A seat sees the declared game record (:meth:`Match.snapshot`: unit types, cells and sides by their numbers) with
its own army and hand; of what is hidden only how much there is: the other side's hand as the number it holds
(``held``), the face-down tactical pile as its size and cards drawn (rules page section 4.5), never the dice
tape's key, the pile's order, the other army's id or the game's seed.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from simkit.core.rng import derive_seed
from simkit.core.seats import WINNERS
from simkit.games.magic import batch as MB
from simkit.games.magic import bots as B
from simkit.games.magic import engine as E
from simkit.games.magic.match import decode, stream_seeds
from simkit.games.magic.search_play import BOT_SEARCH
from simkit.games.magic.state import END_REASONS

__all__ = ["inside_player", "match_record", "observe"]


def observe(match, seat: int) -> dict:
    """What ``seat`` sees: the snapshot without the seed, the dice key, the pile's order or the other side's hand
    (its ``held`` count stays), with ``deck``: its own army."""
    seen = match.snapshot()
    for key in ("decks", "seed", "dice_key", "dice_rolled", "pile"):
        seen.pop(key, None)
    other = seen["sides"][1 - seat]
    other["hand"] = []
    mine = seen["sides"][seat]
    mine["hand"] = [int(c) for c in mine["hand"][:int(mine["held"])]]
    return {"deck": match.decks[seat], **seen}


def inside_player(scenario, name: str, seat: int, seed: int) -> Callable:
    """The scenario's bot ``name`` (random or a personality) choosing for ``seat`` of a match, its noise from the
    seat's bot key as in a batch.

    Raises:
        ValueError: ``name`` is a search bot (they play only in the compiled batch) or unknown.
    """
    kinds, policy, _, _, _ = MB.bot_tables(scenario, (name, name))
    if kinds[0] == BOT_SEARCH:
        raise ValueError(f"bot {name!r} is a search bot; a Magic War search bot cannot face an outside bot yet "
                         "(play a utility personality or random against it)")
    rules = scenario.rules
    key = np.int64(derive_seed(stream_seeds(seed)[2], seat))
    ctr = np.zeros(1, np.int64)
    out = np.zeros((E.MAX_LEGAL, 5), np.int64)

    def choose(match) -> tuple:
        n = min(E.legal(match.state, out, rules.packed, False), E.MAX_LEGAL)
        i = B.choose(match.state, out, n, kinds[0], policy[0], key, ctr, rules.packed)
        return decode(rules, out[int(i)])

    return choose


def match_record(match) -> dict:
    """The winner, end reason, turns, experience figures (:meth:`~.match.Match.experience_figures`), side columns
    and counter columns of the match as it stands."""
    g, rules = match.state, match.rules
    over = match.over
    out = {"winner": WINNERS[int(g.winner)] if over else "draw",
           "end_reason": END_REASONS[int(g.reason)] if over else "", "turns": int(g.turn)}
    out.update(match.experience_figures())
    out.update(MB.side_values(rules, g))
    out.update(MB.counter_values(rules, g, match.decks))
    return out
