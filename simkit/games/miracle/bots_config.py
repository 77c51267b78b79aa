"""Bot personalities as data: the scenario's ``[bots]`` table read into :class:`BotSettings`.

``[bots]`` holds settings shared by every bot (``max_actions_per_turn``) and one sub-table per
personality, ``[bots.<name>]``, with a ``temperature`` and one weight per feature of
:class:`Weights`. A personality may say ``like = "<other>"`` to start from another one's numbers
and override only some. ``random`` is built in and needs no table.

A table with a ``policy`` key is a search bot (:class:`SearchConfig`): it plans each turn by playing
candidate turns with the utility bot ``policy`` and valuing where they lead. Its budget (``plans``,
``depth``) and value weights (``value_*``) are data, so ``search-1``, ``search-2``, ... are entries of
the scenario; ``like`` works between search tables too.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from simkit.games.kits.bot_tables import RANDOM, bot_tables, is_search
from simkit.scenario import Field


@dataclass(frozen=True)
class Weights:
    """How much a utility bot values each feature of a candidate action (per unit of the feature).

    A score is the sum of weight times feature; features are counted as they come (HP taken,
    units lost, value at risk), so weights of bad things are negative.

    Attack features: ``damage`` (HP taken off enemy units, splash included), ``kill`` (per point of
    value of each enemy unit killed; a unit's value is its mana cost, the Inferno's its artifact's),
    ``shield_break`` (per enemy holy shield popped), ``counter_damage`` (HP the attacker takes back),
    ``loss`` (per point of value of the attacker if the counter kills it), ``miracle_damage`` (HP off
    the enemy miracle), ``miracle_kill`` (the blow that destroys it), ``defend`` (per point of
    attack removed from enemy units that can reach the own miracle next turn).

    Move features: ``advance`` (steps gained toward the unit's goal: a cell from which it can hit
    the enemy miracle, or a garrison it does not own, counted ``garrison_detour`` steps further),
    ``exposure`` (change of value at risk: the unit's value times the share of its HP enemy units
    could take next turn), ``garrison_capture`` (a ground unit standing on a garrison its side does
    not own), ``garrison_denial`` (extra when the enemy owns it), ``home_return`` (steps toward the
    own miracle, times the share of its HP the enemy could take next turn), ``keep_defender``
    (leaving the ``home_radius`` of the own miracle while at most ``home_guard`` units are there),
    ``support`` (per friendly unit brought within a priest's aura range, times the aura).

    Summon features (the new unit's stats): ``unit_attack``, ``unit_hp``, ``unit_support`` (heal,
    aura and splash), ``unit_move``; ``mana`` (per mana spent, summons and artifacts alike); the
    spawn point is judged by ``advance`` (steps behind the best free spawn point) and ``exposure``.

    Artifact features: ``heal`` (HP restored by HolyLight), ``buff`` (attack granted by HolyLight per
    unit, doubled for units still to act), ``shield`` (SalamanderShield: the unit's value, doubled
    on a unit enemies can reach), ``refresh`` (WindBlessing: per unit that acted and may act again,
    minus per unit in reach that has not acted yet); InfernoFlame is judged by ``damage`` and
    ``kill`` on the units it burns plus the Inferno as a summon.

    ``end_turn`` is the score of ending the turn: an action is only played when it scores more.
    """

    end_turn: float
    damage: float
    kill: float
    shield_break: float
    counter_damage: float
    loss: float
    miracle_damage: float
    miracle_kill: float
    defend: float
    advance: float
    exposure: float
    garrison_capture: float
    garrison_denial: float
    home_return: float
    keep_defender: float
    support: float
    unit_attack: float
    unit_hp: float
    unit_support: float
    unit_move: float
    mana: float
    heal: float
    buff: float
    shield: float
    refresh: float


#: Settings of a personality that are not weights: (name, kind, minimum).
TUNABLES: tuple[tuple[str, type, float], ...] = (
    ("temperature", float, 0.0),
    ("garrison_detour", int, 0),
    ("home_radius", int, 0),
    ("home_guard", int, 0),
)
WEIGHT_NAMES = tuple(f.name for f in fields(Weights))


@dataclass(frozen=True)
class BotConfig:
    """One personality.

    Attributes:
        name: its name in ``[bots.<name>]``.
        temperature: scale of the Gumbel noise added to every score (0: always the best action).
        garrison_detour: extra steps a garrison goal counts against the enemy miracle.
        home_radius: cells within this of the own miracle are "home".
        home_guard: how many units ``keep_defender`` wants to keep at home.
        weights: the feature weights.
    """

    name: str
    temperature: float
    garrison_detour: int
    home_radius: int
    home_guard: int
    weights: Weights


@dataclass(frozen=True)
class SearchValue:
    """How a search bot values a position, each feature counted as its own side's minus the enemy's.

    ``miracle`` per HP of miracle; ``units`` per mana of value of units on the board (the Inferno:
    its artifact's cost); ``unit_hp`` per HP of units; ``reach`` per attack point of units that can
    reach a cell from which to hit the enemy miracle next turn; ``garrisons`` per garrison owned;
    ``stars`` per dead star; ``win`` a finished game won (lost: minus it, drawn: 0), to which the
    miracle term is added.
    """

    miracle: float
    units: float
    unit_hp: float
    reach: float
    garrisons: float
    stars: float
    win: float


VALUE_NAMES = tuple(f"value_{f.name}" for f in fields(SearchValue))


@dataclass(frozen=True)
class SearchConfig:
    """A search bot: plans each turn over simulated turns (:mod:`simkit.games.miracle.fast.search`).

    Attributes:
        name: its name in ``[bots.<name>]``.
        policy: the utility personality that plays the candidate turns (and the bot's own later
            turns in the look-ahead).
        reply: the utility personality that plays the opponent's turns in the look-ahead.
        plans: candidate turns sampled per turn (1: the policy's own turn, no search).
        depth: turns played after each candidate before its position is valued (0: none).
        temperature: the Gumbel noise of the candidates (the first is drawn as the policy would).
        reply_temperature: the noise of the look-ahead turns.
        value: the value weights.
    """

    name: str
    policy: str
    reply: str
    plans: int
    depth: int
    temperature: float
    reply_temperature: float
    value: SearchValue


#: keys of a search table that are numbers: (name, kind, minimum)
SEARCH_NUMBERS: tuple[tuple[str, type, float], ...] = (
    ("plans", int, 1),
    ("depth", int, 0),
    ("temperature", float, 0.0),
    ("reply_temperature", float, 0.0),
)
SEARCH_KEYS = ("policy", "reply", *(t[0] for t in SEARCH_NUMBERS), *VALUE_NAMES)


@dataclass(frozen=True)
class BotSettings:
    """Everything ``[bots]`` says.

    Attributes:
        max_actions_per_turn: safety cap; a game that reaches it has its turn ended for it.
        personalities: the utility bots by name, in file order.
        searches: the search bots by name, in file order.
    """

    max_actions_per_turn: int
    personalities: dict[str, BotConfig]
    searches: dict[str, SearchConfig] = field(default_factory=dict)

    @property
    def names(self) -> tuple[str, ...]:
        """Every known bot name: ``random``, the personalities, then the search bots."""
        return (RANDOM, *self.personalities, *self.searches)


def _number(f: Field, key: str, kind: type, minimum: float | None) -> Any:
    value = f.get(key)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (kind is int and not isinstance(value, int)):
        what = "an integer" if kind is int else "a number"
        raise f.fail(f"must be {what}, got {value!r}", key)
    if value != value or value in (float("inf"), float("-inf")):
        raise f.fail(f"must be a finite number, got {value!r}", key)
    if minimum is not None and value < minimum:
        raise f.fail(f"must be at least {minimum:g}, got {value!r}", key)
    return kind(value)


def read_bot_settings(source: str, data: dict) -> BotSettings:
    """Validate a scenario's ``[bots]`` table.

    Args:
        source: the scenario file, for messages.
        data: the merged scenario data (``Scenario.data``).

    Returns:
        The shared settings and every personality.

    Raises:
        ScenarioError: naming the file, the key and the problem.
    """
    top = Field(source, data)
    f = top.table("bots")
    cap = f.int("max_actions_per_turn", minimum=1)
    known = {"max_actions_per_turn"}
    personalities: dict[str, BotConfig] = {}
    searches: dict[str, Field] = {}
    for name, merged in bot_tables(top, shared=tuple(known)):  # the kit reads the tables (like, random)
        if is_search(merged):
            searches[name] = merged
            continue
        for key in merged.keys():
            if key not in WEIGHT_NAMES and key not in (t[0] for t in TUNABLES):
                raise merged.fail(f"unknown key (known: {', '.join((*(t[0] for t in TUNABLES), *WEIGHT_NAMES))})", key)
        tunables = {key: _number(merged, key, kind, minimum) for key, kind, minimum in TUNABLES}
        weights = Weights(**{key: _number(merged, key, float, None) for key in WEIGHT_NAMES})
        personalities[name] = BotConfig(name=name, weights=weights, **tunables)
    if not personalities:
        raise f.fail("defines no bot; add a [bots.<name>] table")
    return BotSettings(
        max_actions_per_turn=cap,
        personalities=personalities,
        searches={name: _search(merged, name, personalities) for name, merged in searches.items()},
    )


def _search(f: Field, name: str, personalities: dict[str, BotConfig]) -> SearchConfig:
    """The :class:`SearchConfig` of the merged search table ``f``."""
    f.reject_unknown(SEARCH_KEYS)
    known = ", ".join(personalities)
    bots = {}
    for key in ("policy", "reply"):
        bots[key] = f.str(key)
        if bots[key] not in personalities:
            raise f.fail(f"must name a utility personality (known: {known}), got {bots[key]!r}", key)
    numbers = {key: _number(f, key, kind, minimum) for key, kind, minimum in SEARCH_NUMBERS}
    value = SearchValue(**{key[len("value_") :]: _number(f, key, float, None) for key in VALUE_NAMES})
    return SearchConfig(name=name, value=value, **bots, **numbers)
