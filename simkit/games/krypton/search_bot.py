"""Krypton search bots: ``[bots.<name>]`` tables with a ``policy``, played by :mod:`simkit.games.kits.rollout_search`.

A search bot plays its own hero turns by plans and its answers (counter windows, revival choices) by
valuing every option; the loop is the generic :class:`simkit.games.kits.rollout_search.RolloutSearch` over
:class:`~simkit.games.krypton.search.KryptonSearch`'s hooks, with utility personalities as its policy
(the seat's plans and own look-ahead moves) and reply (the enemy's moves in the look-ahead).

Where chance lives in Krypton and how the search meets it:

* the movement roll at the start of every hero turn: the search starts after it (the roll is known) and
  stops its look-ahead at later rolls only by sampling them (each rollout re-keys the dice);
* attack and defence dice: a plan ends with the attack that starts a judgment; the rollouts sample the
  dice; the rest of the hero turn (an upgrade, a card, ``end``) is searched again once the dice are known;
* the enemy's hand and the pile: every rollout deals them again from the unseen cards (``root``), so
  Ignite, Curse or Pursuit in the enemy's hand are guessed, never read;
* counter windows and revival choices owed by the search bot (outside its own moves): each legal option
  is valued by the same determinized rollouts, and the best played.

Every key is checked when the scenario's bots are read (``file: bots.<name>.<key>: problem``).
"""

from __future__ import annotations

from dataclasses import dataclass

from simkit.games.kits.rollout_search import Budget, RolloutSearch
from simkit.games.krypton.bots import Personality, Utility, is_search_table
from simkit.games.krypton.search import VALUE_NAMES, KryptonSearch
from simkit.scenario import Field, resolve_like

#: a search table's keys besides the value weights: (name, meaning)
SEARCH_KEYS = (
    ("policy", "the utility personality that draws the candidate plans and plays the own side in the look-ahead"),
    ("reply", "the utility personality that plays the enemy in the look-ahead (default: policy)"),
    ("candidates", "further utility personalities whose own plans are candidates 2, 3, ... (a list, default none)"),
    ("plans", "candidate plans per own decision: the policy's own, one per candidates personality, the rest the "
              "policy's at temperature (1: play the policy's plan)"),
    ("samples", "determinized rollouts per plan or option (fresh unseen cards and dice each; 0: no look-ahead)"),
    ("depth", "hero turns played after the current one before the position is valued"),
    ("temperature", "noise of the candidate plans after the first (the policy's destination noise)"),
    ("reply_temperature", "noise of both bots in the look-ahead"),
    ("margin", "value by which another plan or answer must beat the policy's own to replace it"),
)
KEYS = tuple(k for k, _ in SEARCH_KEYS) + VALUE_NAMES


@dataclass(frozen=True)
class SearchSettings:
    """One search bot's table: policy and reply personalities, budget and value weights."""

    name: str
    policy: str
    reply: str
    budget: Budget
    value: dict
    candidates: tuple[str, ...] = ()


def _number(f: Field, key: str, least: float | None = None) -> float:
    v = f.get(key)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v != v or v in (float("inf"), float("-inf")):
        raise f.fail(f"must be a finite number, got {v!r}", key)
    if least is not None and v < least:
        raise f.fail(f"must be at least {least}, got {v!r}", key)
    return float(v)


#: the largest search budgets: plans and samples a decision, hero turns looked ahead (a decision's cost grows
#: as their product: 1024 x 1024 x 16 rollouts is hours, never a hang)
BUDGET_MAX = {"plans": 1024, "samples": 1024, "depth": 16}


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
        a whole number (plans at least 1, samples and depth at least 0), a weight that is not a number.
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
        others = m.get("candidates", [])
        if not isinstance(others, list) or any(o not in personalities for o in others):
            raise m.fail(f"must be a list of utility personalities ({', '.join(personalities)}), got {others!r}",
                         "candidates")
        temperature = (_number(m, "temperature", 0) if m.has("temperature")
                       else float(personalities[bots["policy"]].w["temperature"]))
        budget = Budget(plans=_count(m, "plans", 1, 1), samples=_count(m, "samples", 1, 0),
                        depth=_count(m, "depth", 1, 0), temperature=temperature,
                        reply_temperature=_number(m, "reply_temperature", 0) if m.has("reply_temperature") else 0.0,
                        margin=_number(m, "margin", 0) if m.has("margin") else 0.0)
        if budget.plans < 1 + len(others):
            raise m.fail(f"must leave room for the policy's and the {len(others)} candidates' plans (at least "
                         f"{1 + len(others)}), got {budget.plans}", "plans")
        value = {k: _number(m, k) if m.has(k) else 0.0 for k in VALUE_NAMES}
        out[name] = SearchSettings(name=name, budget=budget, value=value, candidates=tuple(others), **bots)
    return out


def utility_factory(personality: Personality):
    """``(seat, seed, temperature) -> bot``: a fresh :class:`Utility` of ``personality`` (its own
    temperature when ``None``), as the :class:`~simkit.games.kits.rollout_search.RolloutSearch` calls it."""
    by_t: dict = {}

    def make(seat: int, seed: int, temperature: float | None):
        if temperature is None:
            p = personality
        else:
            p = by_t.get(temperature)
            if p is None:
                p = by_t[temperature] = Personality(personality.name, {**personality.w, "temperature": temperature})
        return Utility(p, seat, seed).choose

    return make


class SearchBot:
    """A search bot for one seat of one game (see the module docstring).

    Args:
        scenario: the Krypton scenario.
        settings: the bot's :class:`SearchSettings`.
        personalities: the scenario's utility personalities.
        seat: the seat played.
        seed: the game's seed.
    """

    def __init__(self, scenario, settings: SearchSettings, personalities: dict[str, Personality], seat: int,
                 seed: int):
        self.settings = settings
        hooks = KryptonSearch(scenario)
        weights = settings.value

        def value(state, side):
            return hooks.value(state, side, weights)

        self.search = RolloutSearch(hooks, settings.budget, utility_factory(personalities[settings.policy]),
                                    utility_factory(personalities[settings.reply]), value, seat, seed,
                                    others=[utility_factory(personalities[o]) for o in settings.candidates])

    def choose(self, g, legal: list[tuple]) -> tuple:
        """The seat's action in game ``g`` (an engine game or a :class:`Match`)."""
        return self.search.choose(g, legal)
