"""Rollout search for games with chance and hidden information, written against a game's search hooks.

A :class:`RolloutSearch` plays one seat. It never looks at the real game beyond what the seat may see:
every simulation starts from ``hooks.root(state, seat, salt)``, the seat's view with what it cannot know
guessed afresh (the other side's hidden cards dealt again from the unseen ones, the dice re-keyed) — a
*determinization*; each ``salt`` gives another guess.

**A decision of the seat's own turn** (``hooks.in_turn``): the search draws ``plans`` candidate *plans*
and keeps the one worth most. A plan is what a policy bot does from here until chance or the other side
intervenes: the run of the seat's own decisions while the turn counter (``hooks.turn_count``) and the
chance counter (``hooks.chance``: grows when dice are drawn or hidden cards may answer) stay put and the
seat keeps the move. The first candidate is drawn by the policy exactly as it would play the real game
(its own noise); then one by each of the
``others`` bots (other personalities: other ideas of what the turn is for), the rest by the policy at
``temperature``. Identical plans count once; if only one is left it is played without a look-ahead.
Otherwise each plan is valued by ``samples`` rollouts: a determinization of the position, the plan's
actions, then the rest of the turn and ``depth`` further turns, each decision made by whichever side owes
it (the seat's by the policy, the other side's by the reply bot, both at ``reply_temperature``), and the
position valued by ``value(state, seat)``. Every plan is rolled out on the same ``samples``
determinizations with the same bots' noise (common random numbers; with a ``reseed`` hook the dice too
are keyed by turn and action, see :class:`_Luck`), so plans are compared on the same luck. The chosen
plan's actions are then followed one by one while the game stays where the plan expected (same turn, no
chance draw, the action still legal); when chance intervenes (an attack's dice, the next
turn's roll) the plan is spent and the next decision is searched again.

**A decision owed outside the seat's own moves** (an answer inside the other side's action, a choice
forced by an event: ``not hooks.in_turn``): every legal option is valued by the same kind of rollouts
(``samples`` determinizations, the option, then ``depth`` turns past the current one) and the best is
played.

A few rollouts are a noisy measure and the policy's own choice is usually good: another plan or answer
replaces the policy's only when its mean value beats the policy's by more than ``margin`` (ties and
near-ties keep the policy's).

Randomness: every draw is derived from the bot's key (the game's seed and the seat) and the moment of the
decision (``hooks.moment``: the position's public counters), so a game replays from its seed and actions
whatever the batch, and two positions that differ only in what the seat cannot see get the same choice.

Hooks (a game's ``search`` capability): ``root(state, seat, salt)``, ``copy``, ``legal``, ``step``, ``over``,
``to_act``, ``in_turn``, ``turn_count``, ``chance``, ``moment``, and optionally ``reseed(state, key)`` (the
rollouts' chance keyed by what happens: see :class:`_Luck`). Bots are made by factories
``(seat, seed, temperature) -> bot`` with ``bot(state, legal) -> action`` (``temperature=None``: the
bot's own). This module imports no game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from simkit.games.kits.rng import derive_seed

#: a bot: ``(state, legal actions) -> action``
Bot = Callable[[Any, Sequence], Any]
#: a bot factory: ``(seat, seed, temperature or None) -> Bot``
BotFactory = Callable[[int, int, "float | None"], Bot]

#: most actions one rollout may take (the rules end far sooner; reaching it is a bug)
ROLLOUT_CAP = 50_000


@dataclass(frozen=True)
class Budget:
    """How much a search thinks: ``plans`` candidate plans (the first the policy's own), ``samples``
    determinized rollouts per plan or option, ``depth`` turns after the current one, the noise of the
    candidates (``temperature``) and of the rollouts' bots (``reply_temperature``), and the ``margin`` by
    which another plan or answer must beat the policy's own to replace it."""

    plans: int
    samples: int
    depth: int
    temperature: float
    reply_temperature: float
    margin: float = 0.0


class RolloutSearch:
    """A search bot for one seat of one game (it keeps only the plan it is following).

    Args:
        hooks: the game's search hooks (see the module docstring).
        budget: the :class:`Budget`.
        policy: factory of the bot that draws the plans and plays the seat in rollouts.
        reply: factory of the bot that plays the other side in rollouts.
        value: ``(state, seat) -> float`` the worth of a position for ``seat`` (higher is better).
        seat: the seat played.
        seed: the game's seed (the first candidate plan is drawn with the policy's noise for this game).
        others: factories of further bots whose own plans are candidates 2, 3, ... (before the noisy
            policy's; ``plans`` must leave room for them).
    """

    def __init__(self, hooks, budget: Budget, policy: BotFactory, reply: BotFactory,
                 value: Callable[[Any, int], float], seat: int, seed: int, others: Sequence[BotFactory] = ()):
        self.hooks, self.budget, self.policy, self.reply, self.value = hooks, budget, policy, reply, value
        self.others = tuple(others)
        if budget.plans < 1 + len(self.others):
            raise ValueError(f"{budget.plans} plans cannot hold the policy's and {len(self.others)} other bots' plans")
        self.seat, self.seed = int(seat), int(seed)
        self.key = derive_seed(self.seed, "search", self.seat)
        self._plan: list = []
        self._plan_at: tuple | None = None
        self.decisions = 0  #: decisions asked of the bot
        self.searches = 0  #: decisions that ran rollouts
        self.rollouts = 0  #: rollouts played
        self.last: list[tuple] = []  #: the last search's (plan or option, mean value) pairs

    # -- deciding ------------------------------------------------------------------------------

    def choose(self, state, legal: Sequence) -> Any:
        """The seat's action in ``state`` (it must owe the decision); ``legal`` its legal actions."""
        h = self.hooks
        self.decisions += 1
        legal = list(legal)
        if h.to_act(state) != self.seat:
            raise ValueError(f"the search bot plays seat {self.seat}, but seat {h.to_act(state)} owes the decision")
        if h.in_turn(state):
            return self._own_move(state, legal)
        self._plan = []
        return self._answer(state, legal)

    def _own_move(self, state, legal: list) -> Any:
        h = self.hooks
        at = (h.turn_count(state), h.chance(state))
        if self._plan and self._plan_at == at and self._plan[0] in legal:
            return self._plan.pop(0)
        key = derive_seed(self.key, *h.moment(state))
        plans: list[tuple] = []
        for i in range(max(1, self.budget.plans)):
            s = h.root(state, self.seat, derive_seed(key, "plan", i))
            if i == 0:
                bot = self.policy(self.seat, self.seed, None)
            elif i <= len(self.others):  # another personality's own plan, at its own noise
                bot = self.others[i - 1](self.seat, derive_seed(key, "candidate", i), None)
            else:
                bot = self.policy(self.seat, derive_seed(key, "candidate", i), self.budget.temperature)
            plan = self._draw_plan(s, bot)
            if plan not in plans:
                plans.append(plan)
        best = plans[0]
        if len(plans) > 1 and self.budget.samples > 0:
            self.searches += 1
            values = [self._worth(state, key, plan) for plan in plans]
            self.last = list(zip(plans, values))
            best = plans[self._pick(values)]
        if best[0] not in legal:  # a plan drawn on the view must be legal in the game: a hooks bug
            raise RuntimeError(f"search: planned action {best[0]!r} is not legal")
        self._plan, self._plan_at = list(best[1:]), at
        return best[0]

    def _answer(self, state, legal: list) -> Any:
        h = self.hooks
        if len(legal) == 1:
            return legal[0]
        key = derive_seed(self.key, *h.moment(state))
        s = h.root(state, self.seat, derive_seed(key, "plan", 0))
        own = self.policy(self.seat, self.seed, None)(s, h.legal(s))
        if own not in legal:  # the view offers what the game offers: a hooks bug
            raise RuntimeError(f"search: the policy's answer {own!r} is not legal")
        options = [own] + [a for a in legal if a != own]
        if self.budget.samples <= 0:
            return own
        self.searches += 1
        values = [self._worth(state, key, (a,)) for a in options]
        self.last = list(zip(options, values))
        return options[self._pick(values)]

    def _pick(self, values: list[float]) -> int:
        """The index of the best value; the first (the policy's own) unless another beats it by ``margin``."""
        i = max(range(len(values)), key=values.__getitem__)
        return i if values[i] > values[0] + self.budget.margin else 0

    # -- simulating ----------------------------------------------------------------------------

    def _draw_plan(self, s, bot: Bot) -> tuple:
        """The seat's run of decisions by ``bot`` from view ``s`` until chance or the other side intervenes."""
        h = self.hooks
        t0, d0 = h.turn_count(s), h.chance(s)
        plan = []
        while (not h.over(s) and h.to_act(s) == self.seat and h.in_turn(s) and h.turn_count(s) == t0
               and h.chance(s) == d0):
            a = bot(s, h.legal(s))
            h.step(s, a)
            plan.append(a)
            if len(plan) > ROLLOUT_CAP:
                raise RuntimeError("search: a plan passed the rollout cap")
        return tuple(plan)

    def _worth(self, state, key: int, prefix: tuple) -> float:
        """Mean value for the seat of ``prefix`` played from ``state``, over the determinized rollouts."""
        h, b = self.hooks, self.budget
        horizon = h.turn_count(state) + 1 + b.depth
        total = 0.0
        for r in range(b.samples):
            sample = derive_seed(key, "sample", r)
            s = h.root(state, self.seat, sample)
            t0, c0 = h.turn_count(s), h.chance(s)
            luck = _Luck(h, sample)
            for i, a in enumerate(prefix):
                if i and not (h.to_act(s) == self.seat and h.in_turn(s) and h.turn_count(s) == t0
                              and h.chance(s) == c0):
                    raise RuntimeError("search: a plan drawn on one view went another way on another: the hooks' "
                                       "chance counter misses a source of chance or hidden information")
                luck.step(s, a)
            bots = [None, None]
            bots[self.seat] = self.policy(self.seat, derive_seed(key, "roll", r, self.seat), b.reply_temperature)
            other = 1 - self.seat
            bots[other] = self.reply(other, derive_seed(key, "roll", r, other), b.reply_temperature)
            n = 0
            while not h.over(s) and h.turn_count(s) < horizon:
                luck.step(s, bots[h.to_act(s)](s, h.legal(s)))
                n += 1
                if n > ROLLOUT_CAP:
                    raise RuntimeError("search: a rollout passed the rollout cap")
            total += self.value(s, self.seat)
            self.rollouts += 1
        return total / max(1, b.samples)


class _Luck:
    """Steps a rollout with its chance keyed by what happens, not by how many draws came before.

    With a ``reseed`` hook, the stream is re-keyed before every action by the sample, the turn, the
    action and how often that action was taken in the turn: an attack on the same target in the same
    turn rolls the same dice whichever plan led to it, and the next turn's movement roll (drawn by
    ``end``) is the same whether or not the plan attacked. Plans compared on one sample then meet the
    same luck (common random numbers), not luck shifted by an extra draw. Without the hook, steps are
    plain.
    """

    def __init__(self, hooks, sample: int):
        self.hooks, self.sample = hooks, sample
        self.reseed = getattr(hooks, "reseed", None)
        self.seen: dict = {}

    def step(self, s, action) -> None:
        h = self.hooks
        if self.reseed is not None:
            a = tuple(action)
            turn = h.turn_count(s)
            n = self.seen.get((turn, a), 0)
            self.seen[(turn, a)] = n + 1
            self.reseed(s, derive_seed(self.sample, turn, n, *a))
        h.step(s, action)
