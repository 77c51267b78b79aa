"""Battle of Miracles facing outside bots (``docs/outside-bots.md``): what a seat sees, the scenario's bots deciding
one action at a time on a :class:`~simkit.games.miracle.match.Match`, and a match's record.

The game hides nothing (its rules use no randomness), so a seat sees the whole position: the match's snapshot. An
outside bot may also speak the original competition server's protocol (``protocol = "sdk"``: :mod:`.sdk`).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from simkit.core.rng import GameStreams
from simkit.core.seats import WINNERS
from simkit.games.miracle import batch as B
from simkit.games.miracle.bots import bot_settings
from simkit.games.miracle.cards import parse_deck
from simkit.games.miracle.sdk import LenientSdkSeat, SdkSeat
from simkit.games.miracle.state import END_REASONS

#: the protocols besides simkit's own: the original competition server's (an AI written against its SDK, unchanged);
#: ``sdk-lenient`` refuses an illegal operation and asks again, as that server did, where ``sdk`` forfeits
PROTOCOLS = {"sdk": SdkSeat, "sdk-lenient": LenientSdkSeat}


def observe(match, seat: int) -> dict:
    """What ``seat`` sees: the whole position (:meth:`Match.snapshot`), the game having no hidden information."""
    return match.snapshot()


def inside_player(scenario, name: str, seat: int, seed: int) -> Callable:
    """The scenario's bot ``name`` choosing for ``seat`` of a match, its randomness from ``seed``; after the
    scenario's ``max_actions_per_turn`` actions in one turn it ends the turn, as in a batch."""
    settings = bot_settings(scenario)
    bot = B.make_bot(scenario, name, settings)
    streams = GameStreams(np.array([seed], np.int64))
    cap = settings.max_actions_per_turn
    turn = [-1, 0]  # the turn of its last action and its actions in it

    def choose(match) -> tuple:
        st = match.state
        now = int(st.turn[0])
        turn[:] = [now, turn[1] + 1 if turn[0] == now else 1]
        if turn[1] > cap:
            return ("end_turn",)
        act = bot.act(match.rules, st, streams)
        return B._as_tuple(match.rules, B._record(match.rules, st, act)[0])

    return choose


def match_record(match) -> dict:
    """The winner, end reason, turns, side columns, experience figures (:meth:`Match.experience`) and counter columns
    of the match as it stands."""
    st, rules = match.state, match.rules
    r = B._results(st)
    parsed = [parse_deck(rules.cards, d) for d in match.decks]
    artifact = np.array([[a for a, _ in parsed]], np.int16)
    kinds = np.array([[list(k) for _, k in parsed]], np.int16)
    over = bool(st.over[0])
    out = {
        "winner": WINNERS[int(r["winner"][0])] if over else "draw",
        "end_reason": END_REASONS[int(r["end_reason"][0])] if over else "",
        "turns": int(r["turns"][0]),
        "first_miracle_hp": int(r["hp0"][0]), "second_miracle_hp": int(r["hp1"][0]),
        "first_dead_stars": int(r["stars0"][0]), "second_dead_stars": int(r["stars1"][0]),
    }
    out.update(match.experience())
    out.update({k: int(v[0]) for k, v in B._counter_columns(rules, artifact, kinds, r["tally"]).items()})
    return out


__all__ = ["PROTOCOLS", "inside_player", "match_record", "observe"]
