"""Krypton search bots: ``[bots.<name>]`` tables with a ``policy``, played by the kit's compiled search.

A search bot plays its hero turns by plans and its answers (counter windows, revival choices) as plans
of one decision: the kit's search (:mod:`simkit.games.kits.turn_search`) over Krypton's compiled hooks
(:mod:`simkit.games.krypton.fast_search`), with utility personalities as its policy (the candidate plans
and the own look-ahead plays) and reply (the enemy's look-ahead plays). How the hooks meet the dice and
the hidden cards: :mod:`simkit.games.krypton.fast_search.hooks`.

Every key is checked when the scenario's bots are read (``file: bots.<name>.<key>: problem``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simkit.core.rng import derive_seed
from simkit.games.kits import turn_search as K
from simkit.games.kits.bot_tables import switch
from simkit.games.kits.state import zeros
from simkit.games.krypton.bots import Personality, is_search_table, weights_array
from simkit.games.krypton.fast_search.hooks import VALUE_NAMES, VALUE_WEIGHTS
from simkit.games.krypton.fast_search.play import BOT_SEARCH, MARKS, PLAN_CAP, context, decide
from simkit.scenario import Field, resolve_like

#: a search table's keys besides the value weights: (name, meaning)
SEARCH_KEYS = (
    ("policy", "the utility personality that draws the candidate plans and plays the own side in the look-ahead"),
    ("reply", "the utility personality that plays the enemy in the look-ahead (default: policy)"),
    ("plans", "candidate plans per decision: the policy's own, the rest the policy's at temperature "
              "(1: play the policy's plan)"),
    ("samples", "determinizations every distinct plan is valued on (fresh unseen cards and dice each)"),
    ("depth", "plays after the plan before the position is valued (a play: one seat's decisions until the "
              "other seat owes one or the hero turn ends)"),
    ("policy_temperature", "noise of the first candidate, the policy's own plan (default: the policy's own "
                           "temperature)"),
    ("temperature", "noise of the candidate plans after the first (the policy's destination noise)"),
    ("reply_temperature", "noise of both bots in the look-ahead"),
    ("margin", "value by which another plan must beat the policy's own to replace it"),
    ("peek", "true: an oracle, not a player: the search sees the real game, the future dice and the enemy's hand "
             "included (a measure of how much knowing the dice is worth; default false)"),
    ("halving", "true: the same rollouts (plans x samples) spent by rounds of sequential halving, the worse half "
                "of the candidates dropped after each round (default false: every plan on every sample)"),
)
KEYS = tuple(k for k, _ in SEARCH_KEYS) + VALUE_NAMES
#: the kit's params of a search bot, in order (the kit's six, the first candidate's noise, halving)
PARAMS = K.HALVING + 1


@dataclass(frozen=True)
class SearchSettings:
    """One search bot's table: policy and reply personalities, budget (:attr:`params`, the kit's order)
    and value weights."""

    name: str
    policy: str
    reply: str
    plans: int
    samples: int
    depth: int
    policy_temperature: float
    temperature: float
    reply_temperature: float
    margin: float
    value: dict
    halving: bool = False
    peek: bool = False

    @property
    def params(self) -> np.ndarray:
        """The kit's ``float64`` budget: plans, depth, temperature, reply temperature, samples, margin,
        the first candidate's temperature, halving."""
        return K.budget_params(self.plans, self.depth, self.temperature, self.reply_temperature, self.samples,
                               self.margin, self.policy_temperature, self.halving)

    @property
    def values(self) -> np.void:
        """The value weights as the compiled value reads them (a
        :data:`~simkit.games.krypton.fast_search.hooks.VALUE_WEIGHTS` record)."""
        v = zeros(VALUE_WEIGHTS)
        for k in VALUE_NAMES:
            setattr(v, k, self.value[k])
        return v


def _number(f: Field, key: str, least: float | None = None) -> float:
    v = f.get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or v in (float("inf"), float("-inf")):
        raise f.fail(f"must be a finite number, got {v!r}", key)
    if least is not None and v < least:
        raise f.fail(f"must be at least {least}, got {v!r}", key)
    return float(v)


#: the largest search budgets: plans and samples a decision, plays looked ahead (a decision's cost grows
#: as their product: 1024 x 1024 x 64 plays is hours, never a hang)
BUDGET_MAX = {"plans": 1024, "samples": 1024, "depth": 64}


def _count(f: Field, key: str, default: int, least: int) -> int:
    v = f.get(key, default)
    most = BUDGET_MAX[key]
    if isinstance(v, bool) or not isinstance(v, int) or v < least:
        raise f.fail(f"must be a whole number of at least {least}, got {v!r}", key)
    if v > most:
        raise f.fail(f"must be a whole number of at most {most}, got {v!r}", key)
    return v


def read_searches(source: str, data: dict, personalities: dict[str, Personality]) -> dict[str, SearchSettings]:
    """The scenario's search bots by name (file order), ``like`` chains merged.

    Raises:
        ScenarioError: an unknown key, a policy or reply that names no personality, a budget that is not
        a whole number (plans and samples at least 1, depth at least 0), a weight that is not a number,
        a negative temperature or margin.
    """
    f = Field(source, data).table("bots", required=False)
    out = {}
    for name in f.keys():
        if not is_search_table(f, name):
            continue
        m = Field(source, resolve_like(f, name), f"bots.{name}")
        m.reject_unknown(KEYS)
        bots = {}
        for key in ("policy", "reply"):
            who = m.get(key, m.get("policy"))
            if who not in personalities:
                raise m.fail(f"must name a utility personality ({', '.join(personalities)}), got {who!r}", key)
            bots[key] = who
        own = float(personalities[bots["policy"]].w["temperature"])
        out[name] = SearchSettings(
            name=name, plans=_count(m, "plans", 1, 1), samples=_count(m, "samples", 1, 1),
            depth=_count(m, "depth", 1, 0),
            policy_temperature=_number(m, "policy_temperature", 0) if m.has("policy_temperature") else own,
            temperature=_number(m, "temperature", 0) if m.has("temperature") else own,
            reply_temperature=_number(m, "reply_temperature", 0) if m.has("reply_temperature") else 0.0,
            margin=_number(m, "margin", 0) if m.has("margin") else 0.0,
            halving=bool(switch(m, "halving", False)), peek=bool(switch(m, "peek", False)),
            value={k: _number(m, k) if m.has(k) else 0.0 for k in VALUE_NAMES}, **bots)
    return out


def search_key(seed: int, seat: int) -> np.uint64:
    """Seat ``seat``'s search stream key in the game with ``seed``."""
    return np.uint64(derive_seed(int(seed), "search", seat))


def view_key(seed: int, peek: tuple[bool, bool] = (False, False)) -> np.ndarray:
    """The key of the game's determinizations and whether each seat's search peeks (``int64[3]``: the key,
    then 1 for a seat whose search sees the real game instead of determinizing it)."""
    return np.array([derive_seed(int(seed), "view"), int(peek[0]), int(peek[1])], np.int64)


class SearchBot:
    """A search bot for one seat of one game, deciding through the compiled search (see the module docstring).

    Args:
        scenario: the Krypton scenario.
        settings: the bot's :class:`SearchSettings`.
        personalities: the scenario's utility personalities.
        seat: the seat played.
        seed: the game's seed (the bot's streams are keyed by it and the seat).
    """

    kind = BOT_SEARCH

    def __init__(self, scenario, settings: SearchSettings, personalities: dict[str, Personality], seat: int,
                 seed: int):
        self.settings, self.seat = settings, int(seat)
        self.policy = weights_array(personalities[settings.policy])
        self.reply = weights_array(personalities[settings.reply])
        self.params, self.values = settings.params, settings.values
        self.keys = np.array([search_key(seed, 0), search_key(seed, 1)], np.uint64)
        self.counter = np.zeros(2, np.uint64)
        self.view_key = view_key(seed, (settings.peek and seat == 0, settings.peek and seat == 1))
        self.plans = np.zeros((2, PLAN_CAP + 1), np.int64)
        self.marks = zeros(MARKS, 2)

    @property
    def searches(self) -> int:
        """Decisions that ran a search (the others followed a plan)."""
        return int(self.marks[self.seat].searches)

    @property
    def decisions(self) -> int:
        """Decisions asked of the bot."""
        return int(self.marks[self.seat].decisions)

    def choose_code(self, m) -> int:
        """The code of the bot's action in the game of ``m`` (a :class:`~simkit.games.krypton.match.Match`)."""
        if m.to_act != self.seat:
            raise ValueError(f"the search bot plays seat {self.seat}, but seat {m.to_act} owes the decision")
        P = m.packed
        ctx = context(m.games, P.rules_array, P.dist, P.nbr, *P.dice, self.view_key)
        scratch = np.empty(PLAN_CAP + 1, np.int64)
        seen = np.empty(max(self.settings.plans, 1), np.uint64)
        return int(decide(ctx, self.seat, self.policy, self.reply, self.params, self.values, self.keys,
                          self.counter, self.plans, self.marks, scratch, seen))

    def choose(self, m, legal=None) -> tuple:
        """The seat's action (a tuple) in the game of ``m`` (a Match); ``legal`` is not needed."""
        return m.action_of(self.choose_code(m))
