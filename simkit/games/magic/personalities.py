"""The bots a Magic War scenario defines (``[bots.<name>]``), read once: utility personalities as
:data:`~simkit.games.magic.bots.WEIGHTS` records, search bots as :class:`~.search_config.SearchBot`."""

from __future__ import annotations

from simkit.games.kits.bot_tables import bot_tables as read_tables
from simkit.games.kits.bot_tables import is_search, number
from simkit.games.kits.state import zeros
from simkit.games.magic import bots as B
from simkit.games.magic.search_config import SearchBot, read_search
from simkit.scenario import Field

_cache: list = [None, None]


def read_bots(source: str, data: dict) -> dict:
    """The ``[bots.<name>]`` tables, read by the kit (:mod:`simkit.games.kits.bot_tables`; ``like = "other"``
    starts from another's keys): a utility personality as its :data:`~simkit.games.magic.bots.WEIGHTS` record
    (every weight given, directly or inherited, as a finite number, ``noise`` at least 0), a search bot (a
    table with a ``policy``) as its :class:`~simkit.games.magic.search_config.SearchBot`; utility personalities
    first, then search bots."""
    out: dict = {}
    searches = []
    for name, merged in read_tables(Field(source, data), required=False):
        if is_search(merged):
            searches.append((name, merged))
            continue
        merged.reject_unknown(B.WEIGHT_NAMES)
        weights = zeros(B.WEIGHTS)
        for key in B.WEIGHT_NAMES:
            setattr(weights, key, number(merged, key, minimum=0 if key == "noise" else None))
        out[name] = weights
    utility = dict(out)
    for name, merged in searches:
        out[name] = read_search(merged, utility)
    return out


def personalities(scenario) -> dict:
    """The scenario's bots, utility personalities then search bots (kept for the last scenario read)."""
    if _cache[0] is not scenario:
        _cache[:] = [scenario, read_bots(str(scenario.path), scenario.data)]
    return _cache[1]


def search_bots(scenario) -> dict[str, SearchBot]:
    """The scenario's search bots by name."""
    return {k: v for k, v in personalities(scenario).items() if isinstance(v, SearchBot)}
