"""``simkit check`` for any game: the game's invariants after every action of many legal games.

A game answers :meth:`simkit.games.Game.check_spec` with an object that either runs its own check
(a ``run_check(...)`` method returning a report with ``passed`` and ``format()``, as Battle of
Miracles does with its hypothesis state machine and scenario variants), or
simply declares its invariants: ``names`` and ``invariants(before, action, after)`` returning
the names of those a step broke, over :meth:`~simkit.games.Match.snapshot` values. For the latter,
:func:`run_invariant_games` plays games here: random legal actions and games played by the
scenario's bots, each action checked; illegal actions probed (refused, nothing changed); and the
game interface's own contract (:func:`~simkit.testing.api.api_test`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from simkit.errors import IllegalAction
from simkit.runner import game_seeds
from simkit.scenario import Scenario, load_scenario
from simkit.testing.api import APITestFailure, api_test
from simkit.testing.profiles import PROFILES

__all__ = ["InvariantReport", "format_report", "replay_file", "run_check", "run_invariant_games"]


@dataclass
class InvariantReport:
    """The outcome of :func:`run_invariant_games`.

    Attributes:
        scenario: the scenario checked.
        profile: the profile that set the budget.
        seed: the seed of the games.
        seconds: wall time.
        games: games played (random and bot games).
        actions: actions checked.
        illegal_refused: illegal actions tried and refused.
        failure: what broke (the invariant, the game and the actions up to it), or None.
    """

    scenario: Scenario
    profile: str
    seed: int
    seconds: float = 0.0
    games: int = 0
    actions: int = 0
    illegal_refused: int = 0
    failure: str | None = None
    invariants: tuple[str, ...] = field(default_factory=tuple)

    @property
    def passed(self) -> bool:
        """True when no invariant broke."""
        return self.failure is None

    def format(self) -> str:
        """A short text report."""
        sc = self.scenario
        lines = [f"simkit check: {sc.name}", f"  scenario   {sc.path} (hash {sc.hash}, rules {sc.rules_version})",
                 f"  games      {self.games} ({self.actions} actions checked, {self.illegal_refused} illegal actions "
                 f"refused; profile {self.profile}, seed {self.seed})",
                 f"  invariants {len(self.invariants)}: {', '.join(self.invariants)}, and the game interface's "
                 "contract (api_test)"]
        if self.passed:
            lines.append(f"PASSED in {self.seconds:.1f} s")
        else:
            lines += ["FAILED", *("  " + line for line in self.failure.splitlines())]
        return "\n".join(lines)


def _check_step(spec, before: dict, action, after: dict, where: str, history: list) -> str | None:
    broken = spec.invariants(before, action, after)
    if broken:
        steps = "\n".join(f"  {i + 1:4}. {a!r}" for i, a in enumerate(history[-30:]))
        return (f"broken: {', '.join(broken)}\n{where}, after action {len(history)} {action!r}\n"
                f"the last actions:\n{steps}")
    return None


def run_invariant_games(sc: Scenario, spec, games: int, seed: int = 0, on_example=None,
                        profile: str = "custom") -> InvariantReport:
    """Play ``games`` games of ``sc`` checking ``spec``'s invariants after every action.

    Half the games take uniformly random legal actions (drawn from ``seed``), half replay games
    the scenario's first two bots played (so checked games reach what real games reach). At a few
    moments of each game an action legal at some other moment but not now is tried: it must raise
    :class:`simkit.IllegalAction` and change nothing.
    """
    game = sc.plugin
    report = InvariantReport(sc, profile, seed, invariants=tuple(getattr(spec, "names", ())))
    start = time.perf_counter()
    rng = np.random.default_rng(seed)
    seeds = game_seeds(seed, games)
    bots = [b for b in game.bot_names(sc) if b != "random"][:2] or ["random"]
    bot_games = games // 2
    firsts = [sc.decks[int(i)] for i in rng.integers(0, len(sc.decks), games)]
    seconds = [sc.decks[int(i)] for i in rng.integers(0, len(sc.decks), games)]
    played = game.play_batch(sc, firsts[:bot_games], seconds[:bot_games], seeds[:bot_games],
                             (bots[0], bots[-1]), record_actions=True) if bot_games else {"action_list": []}
    seen: dict[str, tuple] = {}
    for g in range(games):
        m = game.new_match(sc, firsts[g], seconds[g], seed=seeds[g])
        script = list(played["action_list"][g]) if g < bot_games else None
        where = (f"game {g} ({firsts[g]} vs {seconds[g]}, seed {seeds[g]}, "
                 f"{'bots ' + bots[0] + ',' + bots[-1] if script is not None else 'random legal actions'})")
        history: list = []
        before = m.snapshot()
        while not m.over:
            legal = m.legal_actions()
            for a in legal[:8]:
                seen.setdefault(repr(a), a)
            if len(history) % 11 == 5:
                keys = set(map(repr, legal))
                for probe in [a for k, a in list(seen.items())[-40:] if k not in keys][:2]:
                    try:
                        m.do(probe)
                    except IllegalAction:
                        report.illegal_refused += 1
                    else:
                        report.failure = f"illegal action {probe!r} accepted\n{where}, after action {len(history)}"
                        break
                    if m.snapshot() != before:
                        report.failure = f"the refused action {probe!r} changed the game\n{where}"
                        break
                if report.failure:
                    break
            if script is not None:
                if len(history) >= len(script):
                    report.failure = f"{where}: the bots' recorded game ended but the match is not over"
                    break
                action = script[len(history)]
            else:
                action = legal[int(rng.integers(len(legal)))]
            m.do(action)
            history.append(action)
            after = m.snapshot()
            report.actions += 1
            report.failure = _check_step(spec, before, action, after, where, history)
            if report.failure:
                break
            before = after
        report.games += 1
        if on_example is not None:
            on_example()
        if report.failure:
            break
    if report.passed:
        try:
            api_test(sc, games=min(6, max(2, games // 5)), seed=seed)
        except APITestFailure as exc:
            report.failure = f"game interface contract: {exc}"
    report.seconds = time.perf_counter() - start
    return report


def run_check(scenario: str | Path, examples: int | None = None, seed: int | None = 0, profile: str = "thorough",
              variants: bool = True, out_dir: str | Path = "reports/check", on_example=None, **options):
    """Check a scenario's rules through its game's :meth:`~simkit.games.Game.check_spec`.

    Args:
        scenario: the scenario file (a designer's patch, for instance).
        examples: games (or state-machine runs) to play (default: the profile's budget).
        seed: the seed (None: random, where the game's check supports it).
        profile: ``ci``, ``dev`` or ``thorough``: the budget.
        variants: also play variants of the scenario (games whose check supports it).
        out_dir: where a failing case is written (games whose check writes cases).
        on_example: called once per game played (progress).

    Returns:
        A report with ``passed`` and ``format()``.

    Raises:
        ScenarioError: the scenario is invalid.
        ValueError: bad arguments, or the game declares no checks.
    """
    sc = load_scenario(scenario)
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r} (simkit registers: {', '.join(PROFILES)})")
    spec = sc.plugin.check_spec(sc)
    if spec is None:
        raise ValueError(f"{sc.path}: {sc.plugin.title} declares no invariants (its check_spec hook)")
    if hasattr(spec, "run_check"):
        return spec.run_check(examples=examples, seed=seed, profile=profile, variants=variants, out_dir=out_dir,
                              on_example=on_example, **options)
    budget = examples if examples is not None else max(10, PROFILES[profile] // 5)
    return run_invariant_games(sc, spec, budget, seed=0 if seed is None else seed, on_example=on_example,
                               profile=profile)


def replay_file(scenario: str | Path, case_path: str | Path):
    """Replay a failing case written by an earlier check (games whose check writes cases).

    Raises:
        ValueError: the game's check does not record cases.
    """
    sc = load_scenario(scenario)
    spec = sc.plugin.check_spec(sc)
    if spec is None or not hasattr(spec, "replay_file"):
        raise ValueError(f"{sc.plugin.title}: its check records no cases to replay")
    return spec.replay_file(case_path)


def format_report(report) -> str:
    """The report as text (each game's report formats itself)."""
    return report.format()
