"""Duel bot personalities as data: the scenario's ``[bots]`` table.

One sub-table per personality, ``[bots.<name>]``, holding a ``temperature`` and one weight per
feature of :data:`~simkit.games.duel.state.WEIGHTS` (read into a ``PERSONALITY`` record); ``like = "<other>"``
starts from another personality's numbers and overrides only some. ``random`` (a uniformly random legal
action) is built in and needs no table.

A table with a ``policy`` key is a search bot (:class:`SearchSettings`, played by
:mod:`simkit.games.duel.fast_search`): it plans each turn by playing candidate turns with the
personality ``policy`` and valuing where they lead; its budget and value weights are data.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simkit.games.duel.state import PERSONALITY, VALUE, VALUES, WEIGHTS
from simkit.games.kits.bot_tables import RANDOM, bot_tables, is_search, search_roles
from simkit.games.kits.state import zeros
from simkit.scenario import Field

#: the keys of a personality table, in the order of :data:`~simkit.games.duel.state.PERSONALITY`
WEIGHT_NAMES = tuple(name for name, _ in WEIGHTS)


#: the value keys of a search table (``value_<name>``), in the order of :data:`~simkit.games.duel.state.VALUE`
VALUE_NAMES = tuple(f"value_{name}" for name, _ in VALUES)
SEARCH_KEYS = ("policy", "reply", "plans", "depth", "temperature", "reply_temperature", "policy_temperature",
               "samples", "margin", "hidden", *VALUE_NAMES)
#: what a search does with the cards its seat cannot see (key ``hidden``), see :mod:`simkit.games.duel.fast_search`
HIDDEN = ("absent", "sample")


@dataclass(frozen=True)
class SearchSettings:
    """A search bot: ``plans`` candidate turns played by ``policy`` (at ``temperature``, the first
    drawn as the policy would, at ``policy_temperature``), each replayed on ``samples`` worlds drawn
    from the seat's view (``hidden``: ``absent``, the hidden cards out of play, or ``sample``, dealt
    anew in each world) and followed by ``depth`` turns (the opponent's by ``reply``, both at
    ``reply_temperature``), the position valued by ``value`` (a :data:`~simkit.games.duel.state.VALUE` record), the
    mean over the worlds; another candidate replaces the policy's own only if it beats it by more than ``margin``."""

    policy: str
    reply: str
    plans: int
    depth: int
    temperature: float
    reply_temperature: float
    value: np.void  # a VALUE record
    policy_temperature: float = -1.0  # -1: the same as temperature
    samples: int = 1
    margin: float = 0.0
    hidden: str = "absent"


@dataclass(frozen=True)
class BotSettings:
    """Everything ``[bots]`` says: the utility personalities by name, in file order, each a
    :data:`~simkit.games.duel.state.PERSONALITY` record."""

    personalities: dict[str, np.void]
    searches: dict[str, SearchSettings] = field(default_factory=dict)

    @property
    def names(self) -> tuple[str, ...]:
        """Every known bot: ``random``, the personalities, then the search bots."""
        return (RANDOM, *self.personalities, *self.searches)


#: the largest weight (in size) a bot may give: scores sum weight x feature over features of at most
#: about 10**9 (the largest HP), which stays a finite float; far larger weights would overflow to inf
WEIGHT_MAX = 1e9
#: a search bot's budget: candidate turns per decision and turns looked ahead after each
MAX_PLANS, MAX_DEPTH = 1024, 16
#: worlds a search values each candidate on
MAX_SAMPLES = 64


def _number(f: Field, key: str) -> float:
    value = f.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise f.fail(f"must be a number, got {value!r}", key)
    if value != value or value in (float("inf"), float("-inf")):
        raise f.fail(f"must be a finite number, got {value!r}", key)
    if key == "temperature" and value < 0:
        raise f.fail(f"must be at least 0, got {value!r}", key)
    if abs(value) > WEIGHT_MAX:
        raise f.fail(f"must be from {-WEIGHT_MAX:g} to {WEIGHT_MAX:g} (scores must stay finite), got {value!r}", key)
    return float(value)


def read_bot_settings(source: str, data: dict) -> BotSettings:
    """Validate a duel scenario's ``[bots]`` table (every weight of a personality must be given,
    directly or through ``like``).

    Raises:
        ScenarioError: naming the file, the key and the problem.
    """
    top = Field(source, data)
    out: dict[str, np.void] = {}
    searches: dict[str, Field] = {}
    for name, merged in bot_tables(top):  # the kit reads the tables: like chains, random reserved
        if is_search(merged):
            searches[name] = merged
            continue
        merged.reject_unknown(WEIGHT_NAMES)
        out[name] = zeros(PERSONALITY)
        for key in WEIGHT_NAMES:
            setattr(out[name], key, _number(merged, key))
    if not out:
        raise top.table("bots").fail("defines no utility personality; add a [bots.<name>] table of weights")
    return BotSettings(personalities=out, searches={name: _search(m, out) for name, m in searches.items()})


def _count(f: Field, key: str, default: int, least: int, most: int) -> int:
    value = f.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise f.fail(f"must be a whole number from {least} to {most} (a search's budget, so that every decision "
                     f"ends), got {value!r}", key)
    return value


def _search(f: Field, personalities: dict[str, np.void]) -> SearchSettings:
    """The :class:`SearchSettings` of the merged search table ``f``."""
    f.reject_unknown(SEARCH_KEYS)
    bots = search_roles(f, personalities)
    policy_temperature = float(personalities[bots["policy"]].temperature)
    temperature = _number(f, "temperature") if f.has("temperature") else policy_temperature
    reply_temperature = _number(f, "reply_temperature") if f.has("reply_temperature") else 0.0
    if reply_temperature < 0:
        raise f.fail(f"must be at least 0, got {reply_temperature!r}", "reply_temperature")
    value = zeros(VALUE)
    for (name, _), key in zip(VALUES, VALUE_NAMES):
        setattr(value, name, _number(f, key) if f.has(key) else 0.0)
    first = _number(f, "policy_temperature") if f.has("policy_temperature") else temperature
    if first < 0:
        raise f.fail(f"must be at least 0, got {first!r}", "policy_temperature")
    margin = _number(f, "margin") if f.has("margin") else 0.0
    if margin < 0:
        raise f.fail(f"must be at least 0, got {margin!r}", "margin")
    hidden = f.get("hidden", "absent")
    if hidden not in HIDDEN:
        raise f.fail(f"must be one of {', '.join(HIDDEN)}, got {hidden!r}", "hidden")
    return SearchSettings(plans=_count(f, "plans", 1, 1, MAX_PLANS), depth=_count(f, "depth", 0, 0, MAX_DEPTH),
                          temperature=temperature, reply_temperature=reply_temperature, value=value,
                          policy_temperature=first, samples=_count(f, "samples", 1, 1, MAX_SAMPLES), margin=margin,
                          hidden=hidden, **bots)
