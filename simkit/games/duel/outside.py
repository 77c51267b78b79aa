"""Card Duel facing outside bots (``docs/outside-bots.md``): what a seat sees, the scenario's bots deciding one
action at a time on a :class:`~simkit.games.duel.match.Match`, and a match's record.

A seat sees what its own bots see: the engine's view of the game for that seat (rules page section 12: every
hidden card scrubbed, the shuffle stream left out), its own deck, never the opponent's deck list or the game's seed.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from simkit.games import WINNERS
from simkit.games.duel import batch as DB
from simkit.games.duel import bots as B
from simkit.games.duel import engine as E
from simkit.games.duel.state import END_REASONS, MAX_DECK, MAX_LEGAL, STATE
from simkit.games.kits.state import zeros

__all__ = ["inside_player", "match_record", "observe"]


def observe(match, seat: int) -> dict:
    """What ``seat`` sees: the snapshot of its view (:meth:`Match.view`), with its own deck and without the decks'
    ids, the seed and the shuffle stream."""
    seen = match.view(seat).snapshot()
    for key in ("decks", "seed", "shuffle", "drawn"):
        seen.pop(key, None)
    return {"deck": match.decks[seat], **seen}


def inside_player(scenario, name: str, seat: int, seed: int) -> Callable:
    """The scenario's bot ``name`` choosing for ``seat`` of a match from that seat's view alone, its noise from the
    game's bot stream (``derive_seed(seed, "bots")``) as in a batch.

    Raises:
        ValueError: ``name`` is a search bot (they play only in the compiled batch) or unknown.
    """
    if name in DB.bot_settings(scenario).searches:
        raise ValueError(f"bot {name!r} is a search bot; a Card Duel search bot cannot face an outside bot yet "
                         "(play a utility personality or random against it)")
    kinds, weights = DB.bot_tables(scenario, (name, name))
    rules = scenario.rules
    bot_seed = DB.game_seeds(seed)[1]
    view, scratch = zeros(STATE), zeros(STATE)
    out = np.empty((MAX_LEGAL, 3), np.int64)
    counter = [0]

    def choose(match) -> tuple:
        E.make_view(match.state, seat, view)
        k, x, y, counter[0] = B.decide(view, kinds[0], weights[0], bot_seed, counter[0], out, scratch, rules.settings,
                                       rules.cards, rules.effects)
        return DB.action_tuple(rules, match.lists[seat], int(k), int(x), int(y))

    return choose


def match_record(match) -> dict:
    """The winner, end reason, turns, experience figures (:meth:`Match.figures
    <simkit.games.duel.match.Match.figures>`), side columns and counter columns of the match as it stands."""
    row = np.zeros(6 + 4 * MAX_DECK, np.int64)
    B.record_result(match.state, len(match.actions), row)
    over = match.over
    out = {"winner": WINNERS[int(row[0])] if over else "draw", "end_reason": END_REASONS[int(row[1])] if over else "",
           "turns": int(row[2]), **match.figures(), "first_hp": int(row[3]), "second_hp": int(row[4])}
    d0, d1 = (np.array([match.lists[s]], np.int64) for s in (0, 1))
    out.update({k: int(v[0]) for k, v in DB._counter_columns(match.rules, d0, d1, row[None, 6:]).items()})
    return out
