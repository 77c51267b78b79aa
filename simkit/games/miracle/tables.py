"""The fixed ``Rules`` of a Battle of Miracles scenario: every number the engine reads."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from simkit.games.kits.decks import deck_pool as read_pool
from simkit.games.miracle.board import Board, build_board
from simkit.games.miracle.bots_config import read_bot_settings
from simkit.games.miracle.capacity import check_capacity
from simkit.games.miracle.cards import Cards, build_cards, parse_deck
from simkit.games.miracle.cards import all_decks as _all_decks
from simkit.games.miracle.cards import canonical_deck as _canonical_deck
from simkit.scenario import Field


@dataclass(frozen=True)
class LeadWeights:
    """The scenario's ``[lead]`` table: how much each thing that decides a game weighs in a seat's strength, from
    which the lead signal is read (:func:`simkit.games.miracle.lead.lead`). The designer's document gives no such
    numbers: the defaults are simkit's (authored), the designer's to replace.

    Attributes:
        miracle_hp: per HP of the seat's miracle.
        units: per mana of the cost of each of its units on the board (the Inferno: InfernoFlame's cost), in
            proportion to the HP the unit has left.
        garrisons: per garrison the seat owns.
        given: the keys the scenario gave (the others are the defaults).
    """

    miracle_hp: float = 1.0
    units: float = 0.5
    garrisons: float = 1.0
    given: tuple[str, ...] = ()


#: Keys of the ``[lead]`` table (each a weight, a number of at least 0).
LEAD_KEYS = ("miracle_hp", "units", "garrisons")


def read_lead(top: Field) -> LeadWeights:
    """The scenario's ``[lead]`` table, checked: each of :data:`LEAD_KEYS` a number of at least 0 (missing ones take
    :class:`LeadWeights`' defaults), not all 0; an unknown key is refused."""
    f = top.table("lead", required=False)
    f.reject_unknown(LEAD_KEYS)
    defaults, weights = LeadWeights(), {}
    for key in LEAD_KEYS:
        value = f.get(key, getattr(defaults, key))
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < float("inf"):
            raise f.fail(f"must be a number of at least 0 (a weight), got {value!r}", key)
        weights[key] = float(value)
    if not any(weights.values()):
        raise f.fail("every weight is 0: the lead signal would read every position as level")
    return LeadWeights(**weights, given=tuple(k for k in LEAD_KEYS if f.has(k)))


@dataclass(frozen=True)
class Rules:
    """Tables and settings built once from a scenario; never part of the state.

    Attributes:
        board: the map.
        cards: creature and artifact tables.
        turn_limit: the game ends after this turn ends.
        start_max_mana: ``(first, second)`` max mana before each side's first turn start.
        max_mana_cap: max mana never rises above this.
        mana_period, mana_phase: max mana +1 at a turn start when ``turn % period == phase[side]``.
        unit_steps: turns at whose start unit counts rise to the next value.
        miracle_hp: starting HP of each miracle.
        full_tie: ``"draw"`` or ``"second"``: the winner when miracle HP and dead stars are equal.
        side_units: unit slots per side (most units a deck can field, plus one Inferno).
        cooling_len: length of the cooling histogram (longest creature cooldown + 1).
        lead: the weights of the lead signal (the scenario's ``[lead]`` table, :mod:`simkit.games.miracle.lead`).
    """

    board: Board
    cards: Cards
    turn_limit: int
    start_max_mana: tuple[int, int]
    max_mana_cap: int
    mana_period: int
    mana_phase: tuple[int, int]
    unit_steps: tuple[int, ...]
    miracle_hp: int
    full_tie: str
    side_units: int
    cooling_len: int
    lead: LeadWeights = field(default_factory=lambda: LeadWeights())

    @property
    def unit_slots(self) -> int:
        """U: unit slots per game, both sides."""
        return 2 * self.side_units


#: Keys of the ``[rules]`` table.
RULES_KEYS = (
    "turn_limit", "first_max_mana", "second_max_mana", "max_mana_cap", "mana_period", "mana_phase",
    "unit_steps", "miracle_hp", "full_tie",
)



def reachable_phases(period: int, side: int) -> list[int]:
    """The values ``turn % period`` takes on the turns of ``side`` (0: the first player, who plays the odd
    turns; 1: the second, the even ones): the ``mana_phase`` values at which that side gains max mana."""
    return sorted({t % period for t in range(1 + side, 2 * period + 1, 2)})


def _check_costs(top: Field, cards, cap: int) -> None:
    """A cost above ``max_mana_cap`` can never be paid: warn naming the key (a card no game will ever play)."""
    import warnings

    from simkit.core.errors import ScenarioWarning
    from simkit.games.miracle.cards import LEVELS

    never = [(top.table("creatures").table(kind).table(level), int(cards.cost[k, lv]))
             for k, kind in enumerate(cards.kinds) for lv, level in enumerate(LEVELS) if int(cards.cost[k, lv]) > cap]
    never += [(top.table("artifacts").table(name), int(cards.artifact_cost[a]))
              for a, name in enumerate(cards.artifacts) if int(cards.artifact_cost[a]) > cap]
    for table, cost in never:
        warnings.warn(ScenarioWarning(str(table.fail(
            f"{cost} is above rules.max_mana_cap {cap}: it can never be paid, so no game will play it", "cost"))),
            stacklevel=2)


def phase_reached(period: int, side: int, phase: int) -> bool:
    """True when ``turn % period == phase`` on some turn of ``side`` (``phase in reachable_phases(period, side)``,
    without listing them: a period of 10**18 is refused later by the capacity check, not by memory): the side's
    turns are one parity, so an odd period reaches every phase and an even one the phases of that parity."""
    return 0 <= phase < period and (period % 2 == 1 or phase % 2 == (1 + side) % 2)


def build_rules(top: Field) -> Rules:
    """Validate a scenario's ``[rules]``, ``[map]``, ``[creatures]`` and ``[artifacts]`` tables."""
    r = top.table("rules")
    turn_limit = r.int("turn_limit", minimum=1)
    steps = r.int_list("unit_steps", minimum=1)
    if sorted(set(steps)) != steps:
        raise r.fail(f"must be increasing turn numbers, got {steps}", "unit_steps")
    cap = r.int("max_mana_cap")
    first, second = r.int("first_max_mana"), r.int("second_max_mana")
    for key, v in (("first_max_mana", first), ("second_max_mana", second)):
        if v > cap:
            raise r.fail(f"{v} is above max_mana_cap {cap}", key)
    period = r.int("mana_period", minimum=1)
    phase = r.int_list("mana_phase", length=2)
    for side, (who, p) in enumerate(zip(("first", "second"), phase)):
        if p >= period:
            raise r.fail(
                f"the {who} player's phase {p} is never reached (turn % mana_period is 0..{period - 1}): "
                "that player would never gain max mana", "mana_phase",
            )
        if not phase_reached(period, side, p):
            raise r.fail(
                f"the {who} player's phase {p} is never reached: on its ({('odd', 'even')[side]}) turns, "
                f"turn % mana_period ({period}) is never {p}: that player would never gain max mana", "mana_phase",
            )
    full_tie = r.str("full_tie", "draw", choices=("draw", "second"))
    miracle_hp = r.int("miracle_hp", minimum=1)
    r.reject_unknown(RULES_KEYS)
    bots = read_bot_settings(top.source, top.data)  # a bad [bots] table is refused at load, not mid-sweep
    board = build_board(top)
    cards = build_cards(top, steps=len(steps) + 1)
    _check_costs(top, cards, cap)
    final = np.sort(cards.units[:, -1])[::-1]
    rules = Rules(
        board=board,
        cards=cards,
        turn_limit=turn_limit,
        start_max_mana=(first, second),
        max_mana_cap=cap,
        mana_period=period,
        mana_phase=(phase[0], phase[1]),
        unit_steps=tuple(steps),
        miracle_hp=miracle_hp,
        full_tie=full_tie,
        side_units=int(final[:3].sum()) + 1,
        cooling_len=max(2, int(cards.cooldown[:-1].max()) + 1),
        lead=read_lead(top),
    )
    check_capacity(top, rules, bots.max_actions_per_turn)
    return rules


def deck_pool(rules: Rules, top: Field) -> list[str]:
    """The scenario's deck pool: ``[decks] pool`` if given (each deck checked), else every legal deck.

    Read by the kit: :func:`simkit.games.kits.decks.deck_pool`.
    """
    return read_pool(top, lambda deck: _canonical_deck(rules.cards, deck), lambda: _all_decks(rules.cards))


def canonical_deck(rules: Rules, deck: str) -> str:
    """The canonical id of a legal deck (creatures alphabetical); raises ScenarioError naming an illegal one."""
    return _canonical_deck(rules.cards, deck)


def deck_cards(rules: Rules, deck: str) -> dict[str, tuple[str, ...]]:
    """The cards of ``deck``: its artifact and its three creature kinds, by name."""
    artifact, kinds = parse_deck(rules.cards, deck)
    return {"artifact": (rules.cards.artifacts[artifact],), "creature": tuple(rules.cards.kinds[k] for k in kinds)}


def all_decks(rules: Rules) -> list[str]:
    """Every legal deck of the scenario's cards (the pool when ``[decks] pool`` is not given)."""
    return _all_decks(rules.cards)


def turn_limit(rules: Rules) -> int:
    """The last turn a game can reach."""
    return int(rules.turn_limit)
