"""One game under watch: every action is checked against the invariants, and the record replays.

:class:`CheckedMatch` wraps a :class:`Match` (the single-match API): it plays legal actions,
probes illegal ones, keeps the states and engine actions it saw, and checks the state and
transition invariants of :mod:`simkit.games.miracle.checking.invariants` and the game's own (its check hooks,
``MiracleChecks(scenario)`` of :mod:`.hooks`) on them (as one batch). The utility bots must offer
exactly the actions the rules list as legal. At the end of a game it
replays ``m.actions`` and runs the game in a batch with shifted copies of itself and companion
games, which must give exactly the states each game reaches alone.

A broken invariant raises :class:`InvariantBroken` carrying a :class:`Case`: the scenario
(and patch), decks, seed and the steps up to the failure, which :func:`replay_case` re-runs.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

import numpy as np

from simkit.core.errors import IllegalAction
from simkit.core.rng import GameStreams
from simkit.games.miracle import actions as A
from simkit.games.miracle import rules as R
from simkit.games.miracle.cards import parse_deck
from simkit.games.miracle.checking.invariants import (
    STATE_INVARIANTS,
    TRANSITION_INVARIANTS,
    check_states,
    check_transitions,
    stack_actions,
    stack_states,
)
from simkit.games.miracle.state import END_REASONS, State
from simkit.scenario import Scenario

#: Checks a game runs besides the registered invariants (name: statement).
GAME_CHECKS = {
    "legal_actions_accepted": "every action legal_actions() lists is accepted",
    "engine_runs_without_error": "the engine starts games, lists and performs legal actions without raising",
    "illegal_action_refused": "an action not among the legal ones raises IllegalAction",
    "illegal_action_changes_nothing": "a refused action leaves the snapshot, the state and m.actions unchanged",
    "over_means_no_legal_action": "a game that is over has no legal action",
    "replay_reproduces_game": "replaying m.actions gives the same snapshot and state",
    "batch_equals_alone": "games run together in one batch reach the states they reach alone",
}
#: Most actions a companion game plays in the batch check.
COMPANION_ACTIONS = 60
#: Scenarios whose game hooks are kept (variants included).
HOOKS_KEPT = 64

_hooks: dict[tuple[str, str], Any] = {}


def game_hooks(scenario: Scenario):
    """The game's check hooks for ``scenario`` (:class:`~.hooks.MiracleChecks`, kept per file and hash).

    They carry the game's own invariants (``state_invariants``, ``transition_invariants``), the bots'
    listing of the legal actions (``legal_differences``, ``compiled_checks``) and its bots (``bots``, ``bot_action``).
    """
    key = (str(scenario.path), scenario.hash)
    if key not in _hooks:
        if len(_hooks) >= HOOKS_KEPT:
            _hooks.clear()
        from simkit.games.miracle.checking.hooks import MiracleChecks  # the bots' tables: only when checking

        _hooks[key] = MiracleChecks(scenario)
    return _hooks[key]


def invariant_count(scenario: Scenario) -> int:
    """How many invariants and checks a checked game of ``scenario`` runs."""
    hooks = game_hooks(scenario)
    return (len(STATE_INVARIANTS) + len(TRANSITION_INVARIANTS) + len(GAME_CHECKS) + len(hooks.state_invariants)
            + len(hooks.transition_invariants) + len(hooks.compiled_checks))


@dataclass
class CheckStats:
    """Counters of a check run (all examples, shrinking included)."""

    examples: int = 0
    variant_examples: int = 0
    games: int = 0
    actions: int = 0
    illegal_refused: int = 0
    invariant_checks: int = 0
    deaths: int = 0
    action_kinds: Counter = field(default_factory=Counter)
    ends: Counter = field(default_factory=Counter)
    on_example: Callable[[], None] | None = field(default=None, repr=False)


@dataclass
class Step:
    """One step of a case: an action tuple and whether it was played as legal or probed as illegal."""

    action: tuple
    legal: bool = True


@dataclass
class Case:
    """Everything needed to re-run a checked game.

    Attributes:
        scenario: the file of the scenario played (a variant file when ``patch`` is set).
        scenario_hash: the played scenario's hash.
        patch: the variant's patch of the base scenario, or None.
        decks: ``(first, second)`` deck ids.
        seed: the game's seed.
        steps: the steps played, in order.
        companions: ``(first deck, second deck, seed)`` of the batch check's companion games.
    """

    scenario: str
    scenario_hash: str
    decks: tuple[str, str]
    seed: int
    steps: list[Step] = field(default_factory=list)
    companions: list[tuple[str, str, int]] = field(default_factory=list)
    patch: dict | None = None

    def to_json(self) -> str:
        """The case as JSON text (cells and tuples become lists)."""
        data = asdict(self)
        data["steps"] = [{"action": list(s.action), "legal": s.legal} for s in self.steps]
        return json.dumps(data, indent=1, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> Case:
        """Read a case written by :meth:`to_json`.

        Raises:
            ValueError: the text is not a case.
        """
        try:
            data = json.loads(text)
            steps = [Step(_tuple(s["action"]), bool(s["legal"])) for s in data["steps"]]
            return cls(
                scenario=str(data["scenario"]),
                scenario_hash=str(data["scenario_hash"]),
                decks=(str(data["decks"][0]), str(data["decks"][1])),
                seed=int(data["seed"]),
                steps=steps,
                companions=[(str(a), str(b), int(s)) for a, b, s in data.get("companions", [])],
                patch=data.get("patch"),
            )
        except (KeyError, TypeError, IndexError, json.JSONDecodeError) as exc:
            raise ValueError(f"not a simkit check case: {exc}") from None


def _tuple(action: Any) -> tuple:
    """A JSON action (lists) back to the action tuple (cells as tuples)."""
    return tuple(tuple(x) if isinstance(x, list) else x for x in action)


class InvalidCase(ValueError):
    """A recorded step does not apply where it stands (a "legal" action that is not legal there, or an
    "illegal" probe that is legal there): the case does not describe a game of this scenario."""


class InvariantBroken(AssertionError):
    """An invariant failed in a checked game.

    Attributes:
        invariant: the invariant's name.
        message: what was found.
        case: the game up to and including the failing step (None if unknown).
        broken: every invariant broken at that step, ``{name: message}`` (this one included).
    """

    def __init__(self, invariant: str, message: str, case: Case | None = None, broken: dict[str, str] | None = None):
        super().__init__(f"{invariant}: {message}")
        self.invariant, self.message, self.case = invariant, message, case
        self.broken = dict(broken) if broken else {invariant: message}

    def about(self, invariant: str) -> InvariantBroken | None:
        """The same failure reported as a break of ``invariant``, or None when that one held."""
        if invariant not in self.broken:
            return None
        return InvariantBroken(invariant, self.broken[invariant], self.case, self.broken)


def _differences(a: State, b: State) -> list[str]:
    return [f.name for f in fields(State) if not np.array_equal(getattr(a, f.name), getattr(b, f.name))]


class CheckedMatch:
    """A :class:`Match` whose every step is recorded and checked.

    Args:
        scenario: the scenario to play (possibly a variant).
        first_deck, second_deck: deck ids.
        seed: the game's seed.
        companions: ``(first deck, second deck, seed)`` of games to batch with this one at the end.
        patch: the variant's patch, kept in the case.
        stats: counters to update (a fresh :class:`CheckStats` by default).
    """

    def __init__(
        self,
        scenario: Scenario,
        first_deck: str,
        second_deck: str,
        seed: int = 0,
        companions: list[tuple[str, str, int]] | tuple = (),
        patch: dict | None = None,
        stats: CheckStats | None = None,
    ):
        self.scenario = scenario
        self.rules = scenario.rules
        self.decks = (scenario.canonical_deck(first_deck), scenario.canonical_deck(second_deck))
        self.seed = seed
        self.companions = [(scenario.canonical_deck(a), scenario.canonical_deck(b), int(s)) for a, b, s in companions]
        self.patch = patch
        self.stats = stats if stats is not None else CheckStats()
        self.steps: list[Step] = []
        self.encoded: list[R.Actions] = []
        self.failed = False
        self.hooks = game_hooks(scenario)
        self.state_invariants = STATE_INVARIANTS + list(self.hooks.state_invariants)
        self.transition_invariants = TRANSITION_INVARIANTS + list(self.hooks.transition_invariants)
        self.match = self.engine("starting the game", lambda: scenario.new_match(*self.decks, seed=seed))
        self._states: list[tuple[int, State]] = [(-1, self.match.state.copy())]
        self._transitions: list[tuple[int, State, R.Actions, State]] = []

    # -- the record --------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return self.match.over

    def case(self, upto: int | None = None) -> Case:
        """The game as a :class:`Case`, its steps cut after step index ``upto`` when given."""
        steps = self.steps if upto is None else self.steps[: upto + 1]
        return Case(
            scenario=str(self.scenario.path),
            scenario_hash=self.scenario.hash,
            decks=self.decks,
            seed=self.seed,
            steps=list(steps),
            companions=list(self.companions),
            patch=self.patch,
        )

    def broken(
        self, invariant: str, message: str, upto: int | None = None, also: dict[str, str] | None = None
    ) -> InvariantBroken:
        """An :class:`InvariantBroken` for this game (marks the game failed)."""
        self.failed = True
        return InvariantBroken(invariant, message, self.case(upto), also)

    def engine(self, what: str, work: Callable[[], Any]) -> Any:
        """Run ``work`` (a call into the engine); an exception it raises is a finding.

        Raises:
            InvariantBroken: ``engine_runs_without_error``, naming ``what`` and the exception.
            IllegalAction: passed through (the engine's refusal, not a crash).
        """
        try:
            return work()
        except (InvariantBroken, InvalidCase, IllegalAction):
            raise
        except Exception as exc:  # an engine crash is a finding, not an error of the checker
            raise self.broken("engine_runs_without_error", f"{what} raised {type(exc).__name__}: {exc}") from exc

    # -- steps -------------------------------------------------------------------------------

    def play(self, action: tuple) -> None:
        """Perform a legal action through the single-match API and record it for the checks.

        Raises:
            InvariantBroken: the action is listed by ``legal_actions()`` but refused, or the engine raised.
            InvalidCase: the action is neither listed nor accepted (a replayed step that no longer applies).
        """
        m = self.match
        action = tuple(action)
        before = m.state.copy()
        self.steps.append(Step(action, True))
        try:
            act = self.engine(f"checking {action!r}", lambda: m.encode(action))
        except IllegalAction as exc:
            if action in self.engine("listing the legal actions", m.legal_actions):
                message = f"{action!r} is listed as legal but refused: {exc}"
                raise self.broken("legal_actions_accepted", message) from None
            self.steps.pop()
            raise InvalidCase(f"step {len(self.steps) + 1} {action!r} is not legal here: {exc}") from None
        self.engine(f"performing {action!r}", lambda: m.do(action))
        index = len(self.steps) - 1
        after = m.state.copy()
        self.encoded.append(act)
        self._states.append((index, after))
        self._transitions.append((index, before, act, after))
        s = self.stats
        s.actions += 1
        s.action_kinds[action[0]] += 1
        s.deaths += int((before.alive & ~(after.alive & (after.uid == before.uid))).sum())
        if after.over[0]:
            s.ends[END_REASONS[after.end_reason[0]]] += 1

    def try_illegal(self, action: tuple) -> None:
        """Probe an action that is not legal now: it must raise IllegalAction and change nothing.

        Raises:
            InvariantBroken: it was accepted, raised something else, or changed the game.
            InvalidCase: the action is listed by ``legal_actions()`` (not a probe here).
        """
        m = self.match
        action = tuple(action)
        if action in self.engine("listing the legal actions", m.legal_actions):
            raise InvalidCase(f"step {len(self.steps) + 1} {action!r} is legal here, not an illegal probe")
        snapshot, state, n = self.engine("taking a snapshot", m.snapshot), m.state.copy(), len(m.actions)
        self.steps.append(Step(action, False))
        try:
            m.do(action)
        except IllegalAction:
            pass
        except Exception as exc:
            raise self.broken(
                "illegal_action_refused", f"{action!r} raised {type(exc).__name__}: {exc} instead of IllegalAction"
            ) from exc
        else:
            raise self.broken("illegal_action_refused", f"{action!r} is not among the legal actions but was accepted")
        self.stats.illegal_refused += 1
        self.stats.invariant_checks += 2
        if self.engine("taking a snapshot", m.snapshot) != snapshot or not m.state.equals(state) or len(m.actions) != n:
            raise self.broken(
                "illegal_action_changes_nothing",
                f"refused {action!r} changed {_differences(state, m.state) or ['the snapshot']}",
            )

    # -- invariants ------------------------------------------------------------------------

    def check(self) -> None:
        """Check the state invariants on every position reached and the transition invariants on every
        action played since the last call (all of them as one batch each).

        Raises:
            InvariantBroken: at the earliest failing step, naming every invariant broken there, with
                the game cut after that step.
        """
        states, self._states = self._states, []
        transitions, self._transitions = self._transitions, []
        self.stats.invariant_checks += len(states) * (len(self.state_invariants) + 2) + len(transitions) * len(
            self.transition_invariants
        )
        found: list[tuple[int, str, str]] = []  # (step index, invariant, message)
        if states:
            stacked = stack_states([s for _, s in states])
            for v in check_states(self.rules, stacked, self.state_invariants):
                found.append((states[v.game][0], v.invariant.name, v.message))
            found += self._bot_differences(states, stacked)
        if transitions:
            for v in check_transitions(
                self.rules,
                stack_states([b for _, b, _, _ in transitions]),
                stack_actions([a for _, _, a, _ in transitions]),
                stack_states([s for _, _, _, s in transitions]),
                self.transition_invariants,
            ):
                found.append((transitions[v.game][0], v.invariant.name, v.message))
        if found:
            first = min(i for i, _, _ in found)
            broken = {name: message for i, name, message in found if i == first}
            name = next(iter(broken))
            raise self.broken(name, broken[name], first, broken)
        self.stats.invariant_checks += 1
        if self.over:
            listed = self.engine("listing the legal actions", self.match.legal_actions)
            if listed:
                raise self.broken("over_means_no_legal_action", f"the game is over but lists {listed}")

    def _bot_differences(self, states: list[tuple[int, State]], stacked: State) -> list[tuple[int, str, str]]:
        """``(step index, check, message)`` where the bots' offered actions differ from the legal mask."""
        listed = self.engine("listing the bots' legal actions", lambda: self.hooks.legal_differences(stacked))
        return [(states[g][0], "bots_offer_the_legal_actions", message) for g, message in listed]

    def finish(self) -> None:
        """End-of-game checks: replaying ``m.actions`` and running this game in a batch.

        Raises:
            InvariantBroken: the replay or the batch differs from the game played alone.
        """
        self.check()
        m = self.match
        again = self.engine(
            "replaying m.actions", lambda: self.scenario.game.replay(*m.decks, m.actions, seed=self.seed)
        )
        self.stats.invariant_checks += 2
        if again.snapshot() != m.snapshot() or not again.state.equals(m.state):
            raise self.broken(
                "replay_reproduces_game",
                f"replaying the {len(m.actions)} actions differs in "
                f"{_differences(m.state, again.state) or ['the snapshot']}",
            )
        self.engine("running the game in a batch", self._check_batch)

    def _check_batch(self) -> None:
        rules = self.rules
        games = []  # (artifacts [2], kinds [2, 3], actions list, offset, final state, label)
        mine = [parse_deck(rules.cards, d) for d in self.match.decks]
        arts, kinds = [p[0] for p in mine], [p[1] for p in mine]
        games.append((arts, kinds, self.encoded, 0, self.match.state, "this game"))
        if self.encoded:
            games.append((arts, kinds, self.encoded, 1 + len(self.encoded) // 3, self.match.state, "this game, later"))
        limit = min(COMPANION_ACTIONS, max(10, len(self.encoded)))
        for i, (first, second, seed) in enumerate(self.companions):
            parsed = [parse_deck(rules.cards, d) for d in (first, second)]
            acts, final = companion_game(rules, [p[0] for p in parsed], [p[1] for p in parsed], seed, limit)
            games.append(([p[0] for p in parsed], [p[1] for p in parsed], acts, 0, final, f"companion {i + 1}"))
        finals = run_batch(rules, [(g[0], g[1], g[2], g[3]) for g in games])
        self.stats.invariant_checks += len(games)
        for row, g in enumerate(games):
            alone = g[4]
            together = finals.take([row])
            if not together.equals(alone):
                raise self.broken(
                    "batch_equals_alone",
                    f"{g[5]} (row {row} of a batch of {len(games)}) differs from the game alone in "
                    f"{_differences(together, alone)}",
                )


def companion_game(rules, artifacts, kinds, seed: int, actions: int) -> tuple[list[R.Actions], State]:
    """Play one game alone with a seeded random policy: end the turn one time in five, else a uniform legal action.

    Args:
        rules: the scenario's rules.
        artifacts: ``[2]`` artifact index of each side; kinds: ``[2][3]`` kind indices.
        seed: the game's seed (its own :class:`GameStreams` stream).
        actions: how many actions at most.

    Returns:
        The engine actions played and the final state.
    """
    st = R.new_games(rules, np.array([artifacts]), np.array([kinds]))
    streams = GameStreams([seed])
    end = A.layout(rules)["end_turn"][0]
    out = []
    for _ in range(actions):
        if st.over.all():
            break
        u = streams.uniform(2)
        pick = np.where(u[:, 0] < 0.2, end, A.sample_uniform(R.legal_mask(rules, st), u[:, 1]))
        act = A.decode(rules, pick)
        R.step(rules, st, act)
        out.append(act)
    return out, st


def run_batch(rules, games: list[tuple]) -> State:
    """Run games together in one batch through ``rules.step`` and return the batch's final state.

    Args:
        rules: the scenario's rules.
        games: ``(artifacts [2], kinds [2][3], actions, offset)`` per game: its engine actions
            (batches of one), applied from batch step ``offset`` on (PASS before and after).
    """
    b = len(games)
    length = max((len(g[2]) + g[3] for g in games), default=0)
    plan = np.zeros((4, b, length), np.int32)
    plan[0] = R.PASS
    for row, (_, _, acts, offset) in enumerate(games):  # building the plan, not playing
        for i, act in enumerate(acts):
            plan[:, row, offset + i] = [act.kind[0], act.a[0], act.b[0], act.c[0]]
    st = R.new_games(rules, np.array([g[0] for g in games]), np.array([g[1] for g in games]))
    for t in range(length):
        R.step(rules, st, R.Actions(*(plan[k, :, t] for k in range(4))))
    return st


def replay_case(
    scenario: Scenario, case: Case, stats: CheckStats | None = None, finish: bool = True, every_step: bool = True
) -> InvariantBroken | None:
    """Re-run a case with every check; returns the invariant it breaks (earliest step first), or None.

    Args:
        scenario: the scenario to replay it on (normally ``load_scenario(case.scenario)``).
        case: the recorded game.
        stats: counters to update.
        finish: also run the end-of-game checks (replay, batch) when no step fails.
        every_step: check the invariants after each step; otherwise once, on all positions together
            (faster; the same verdict, since the earliest violation is reported either way).

    Raises:
        InvalidCase: a step does not apply where it stands.
        ScenarioError: a deck of the case is not legal in ``scenario``.
    """
    try:
        game = CheckedMatch(
            scenario, *case.decks, seed=case.seed, companions=case.companions, patch=case.patch, stats=stats
        )
        try:
            for step in case.steps:
                if step.legal:
                    game.play(step.action)
                else:
                    game.try_illegal(step.action)
                if every_step:
                    game.check()
        except (InvariantBroken, InvalidCase):
            game.check()  # a violation at an earlier step comes first
            raise
        game.check()
        if finish:
            game.finish()
    except InvariantBroken as exc:
        return exc
    return None


def write_case(case: Case, path: str | Path) -> Path:
    """Write ``case`` as JSON to ``path`` (folders created); returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(case.to_json(), encoding="utf-8")
    return path


def read_case(path: str | Path) -> Case:
    """Read a case file written by :func:`write_case`.

    Raises:
        FileNotFoundError: no such file.
        ValueError: the file is not a case.
    """
    return Case.from_json(Path(path).read_text(encoding="utf-8"))
