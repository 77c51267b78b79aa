"""Run the whole invariant suite against a scenario, or replay a recorded failure (``simkit check``).

:func:`run_check` runs the :class:`~simkit.games.miracle.checking.machine.MatchMachine` of a scenario under a
hypothesis profile and returns a :class:`CheckReport`: counts of examples, actions and checks,
or the minimal failing case (written as JSON, with its variant file when a variant failed) and
the command that replays it. :func:`replay_file` re-runs such a case.
"""

from __future__ import annotations

import hashlib
import shlex
import time
from dataclasses import dataclass, field
from pathlib import Path

from hypothesis import HealthCheck, Phase, Verbosity, settings
from hypothesis import seed as hypothesis_seed
from hypothesis.stateful import run_state_machine_as_test

from simkit.games.miracle.checking.checker import (
    Case,
    CheckStats,
    InvalidCase,
    InvariantBroken,
    invariant_count,
    read_case,
    replay_case,
    write_case,
)
from simkit.games.miracle.checking.machine import match_machine
from simkit.games.miracle.checking.minimize import minimize_case
from simkit.games.miracle.checking.strategies import load_variant
from simkit.scenario import Scenario, load_scenario
from simkit.testing.profiles import profile as get_profile

#: Rules a machine runs per example at most (hypothesis' ``stateful_step_count``).
STEPS = 100


@dataclass
class CheckReport:
    """The outcome of a check or a replay.

    Attributes:
        scenario: the scenario checked.
        profile: the hypothesis profile (``"replay"`` for a replay).
        seed: the hypothesis seed (None: random).
        seconds: wall time.
        stats: the counters.
        failure: the broken invariant (its ``case`` is the minimal failing game), or None.
        budget: hypothesis' example budget (it counts valid examples; ``stats.examples`` counts every run).
        found_steps: steps of the failing game as first found, before shrinking.
        shrink_tries: replays the shrinking took.
        case_path: where the failing case was written.
        replay_command: the shell command that replays it.
        diverged: for a replay, why the recorded game stopped being legal (then nothing reproduces).
        note: a remark to print (a replay on a scenario whose numbers changed).
    """

    scenario: Scenario
    profile: str
    seed: int | None
    seconds: float
    stats: CheckStats = field(default_factory=CheckStats)
    failure: InvariantBroken | None = None
    budget: int = 0
    found_steps: int = 0
    shrink_tries: int = 0
    case_path: Path | None = None
    replay_command: str | None = None
    diverged: str | None = None
    note: str | None = None
    rule_examples: int = 0
    example_failure: str | None = None

    @property
    def passed(self) -> bool:
        """True when every rule example and every invariant held."""
        return self.failure is None and self.example_failure is None

    def format(self) -> str:
        """The report as text (:func:`format_report`)."""
        return format_report(self)


def _find_broken(exc: BaseException) -> InvariantBroken | None:
    if isinstance(exc, InvariantBroken):
        return exc
    for inner in getattr(exc, "exceptions", ()):
        found = _find_broken(inner)
        if found is not None:
            return found
    return None


def check_settings(profile: str = "thorough", examples: int | None = None, steps: int = STEPS) -> settings:
    """Settings for a check run: the profile's example budget, no database, quiet, and no hypothesis
    shrinking (the failing case is shrunk by :func:`~simkit.games.miracle.checking.minimize.minimize_case` instead).

    Raises:
        ValueError: unknown profile or a non-positive example count.
    """
    base = get_profile(profile)
    if examples is not None and examples < 1:
        raise ValueError(f"--examples must be at least 1, got {examples}")
    return settings(
        base,
        max_examples=examples if examples is not None else base.max_examples,
        stateful_step_count=steps,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        report_multiple_bugs=False,
        verbosity=Verbosity.quiet,
        print_blob=False,
        phases=[Phase.explicit, Phase.generate],
    )


def run_machine(machine, run_settings: settings, seed: int | None = None) -> InvariantBroken | None:
    """Run a machine class under ``run_settings`` (and hypothesis ``seed``); returns the minimal failure or None.

    Exceptions other than :class:`InvariantBroken` (errors of the checker itself) propagate.
    """
    if seed is not None:
        machine = hypothesis_seed(seed)(machine)
    try:
        run_state_machine_as_test(machine, settings=run_settings)
    except BaseException as exc:
        found = _find_broken(exc)
        if found is None:
            raise
        return found
    return None


def _save_failure(report: CheckReport, base: Scenario, out_dir: Path) -> None:
    case = report.failure.case
    if case is None:
        return
    stem = Path(base.path).stem
    scenario_file = Path(base.path)
    if case.patch is not None:
        scenario_file = Path(load_variant(base, case.patch, folder=out_dir).path)
        case.scenario = str(scenario_file)
    digest = hashlib.sha256(case.to_json().encode()).hexdigest()[:8]
    path = write_case(case, out_dir / f"{stem}-{report.failure.invariant}-{digest}.json")
    report.case_path = path
    report.replay_command = f"simkit check {shlex.quote(str(scenario_file))} --replay {shlex.quote(str(path))}"


def run_check(
    scenario: str | Path,
    examples: int | None = None,
    seed: int | None = 0,
    profile: str = "thorough",
    variants: bool = True,
    out_dir: str | Path = "reports/check",
    steps: int = STEPS,
    shrink_seconds: float = 60.0,
    on_example=None,
    examples_first: bool = True,
) -> CheckReport:
    """Run the invariant suite on a scenario.

    Args:
        scenario: the scenario file (a designer's patch, for instance).
        examples: games to play (default: the profile's ``max_examples``).
        seed: hypothesis seed (None: random).
        profile: hypothesis profile name (``ci``, ``dev``, ``thorough``).
        variants: also play variants of the scenario.
        out_dir: where a failing case (and its variant file) is written.
        steps: rules per example at most.
        shrink_seconds: time budget for shrinking a failing case.
        on_example: called once per example played (progress bars).
        examples_first: run the rule examples (``examples.toml`` beside the scenario) before the state machine;
            a failing one is the answer (False: the state machine alone, what the invariants catch by themselves).

    Returns:
        The :class:`CheckReport`.

    Raises:
        ScenarioError: the scenario is invalid.
        ValueError: bad arguments or not a Battle of Miracles scenario.
    """
    from simkit.games.miracle.checking.examples import run_examples_first

    sc = load_scenario(scenario)
    stats = CheckStats(on_example=on_example)
    machine = match_machine(sc, variants=variants, stats=stats)
    run_settings = check_settings(profile, examples, steps)
    start = time.perf_counter()
    ran, example_failure = run_examples_first(sc) if examples_first else (0, None)
    if example_failure is not None:  # the rule examples run first; a failing one is the answer
        report = CheckReport(sc, profile, seed, 0.0, stats, None, budget=run_settings.max_examples,
                             rule_examples=ran, example_failure=example_failure)
        report.seconds = time.perf_counter() - start
        return report
    failure = run_machine(machine, run_settings, seed)
    report = CheckReport(sc, profile, seed, 0.0, stats, failure, budget=run_settings.max_examples,
                         rule_examples=ran)
    if failure is not None:
        report.found_steps = len(failure.case.steps) if failure.case is not None else 0
        report.failure, report.shrink_tries = minimize_case(sc, failure, shrink_seconds)
        _save_failure(report, sc, Path(out_dir))
    report.seconds = time.perf_counter() - start
    return report


def replay_file(scenario: str | Path, case_path: str | Path) -> CheckReport:
    """Replay a recorded case on ``scenario`` with every check.

    A case whose steps stop being legal (the rule it caught was fixed, for instance) is reported
    as not reproducing, with the step where the game diverges in ``diverged``.

    Raises:
        FileNotFoundError: no such case file.
        ValueError: the file is not a case, or a deck of it is not legal in the scenario.
    """
    sc = load_scenario(scenario)
    case = read_case(case_path)
    stats = CheckStats()
    start = time.perf_counter()
    try:
        failure, diverged = replay_case(sc, case, stats), None
    except InvalidCase as exc:
        failure, diverged = None, str(exc)
    report = CheckReport(sc, "replay", None, time.perf_counter() - start, stats, failure)
    report.diverged = diverged
    if case.scenario_hash != sc.hash:
        report.note = f"the case was recorded on a scenario with hash {case.scenario_hash}, this one is {sc.hash}"
    return report


# ----------------------------------------------------------------------------------------------
# text


def format_action(action: tuple) -> str:
    """An action tuple as Python literal text."""
    return repr(tuple(action))


def format_case(case: Case) -> list[str]:
    """The lines describing a case: decks, seed, numbered steps."""
    lines = [f"  decks: first {case.decks[0]}, second {case.decks[1]}; seed {case.seed}"]
    if case.patch:
        lines.append(f"  scenario variant: {case.scenario}")
    legal = sum(s.legal for s in case.steps)
    lines.append(f"  minimal failing sequence ({legal} actions, {len(case.steps) - legal} illegal probes):")
    i = 0
    while i < len(case.steps):
        step = case.steps[i]
        run = 1
        while i + run < len(case.steps) and case.steps[i + run] == step:
            run += 1
        note = "" if step.legal else "   # illegal: must be refused"
        if run > 2:
            lines.append(f"    {i + 1:3}-{i + run}. {format_action(step.action)} x {run}{note}")
        else:
            run = 1
            lines.append(f"    {i + 1:3}. {format_action(step.action)}{note}")
        i += run
    return lines


def format_report(report: CheckReport) -> str:
    """A short text report: pass summary, or the broken invariant, the failing sequence and the replay command."""
    sc, s = report.scenario, report.stats
    n_checks = invariant_count(sc)
    lines = [f"simkit check: {sc.name}", f"  scenario   {sc.path} (hash {sc.hash}, rules {sc.rules_version})"]
    if report.profile == "replay":
        lines.append(f"  replayed   {s.actions} actions, {s.illegal_refused} illegal actions refused")
    else:
        seed = "random" if report.seed is None else report.seed
        lines.append(f"  examples   {s.examples} state-machine runs, {s.variant_examples} of them on scenario variants "
                     f"(budget {report.budget} examples: profile {report.profile}, seed {seed})")
        kinds = ", ".join(f"{k} {v}" for k, v in sorted(s.action_kinds.items()))
        lines.append(f"  actions    {s.actions} legal actions ({kinds}); {s.illegal_refused} illegal actions refused")
        open_games = s.games - sum(s.ends.values())  # a run's actions end before its game does
        lines.append(f"  games      {s.games}: {s.ends.get('miracle', 0)} ended by a fallen miracle, "
                     f"{s.ends.get('turn_limit', 0)} by the turn limit, {open_games} still going when their run "
                     f"ended; {s.deaths} units died")
    if report.profile != "replay":
        lines.append(f"  rules      {report.rule_examples} rule examples run first (examples.toml beside the scenario)")
    lines.append(f"  checks     {s.invariant_checks} invariant checks ({n_checks} invariants)")
    lines.append(f"  time       {report.seconds:.1f} s")
    if report.example_failure:
        lines.append("FAILED: " + report.example_failure)
        lines.append(f"replay: simkit check {sc.path} --profile ci (the examples run first)")
        return "\n".join(lines)
    if report.note:
        lines.append(f"  note       {report.note}")
    if report.diverged:
        lines.append(f"the failure no longer reproduces: the recorded game diverges, {report.diverged}")
        return "\n".join(lines)
    if report.passed:
        lines.append("passed: every invariant held")
        return "\n".join(lines)
    f = report.failure
    lines.append(f"FAILED: invariant {f.invariant} broken: {f.message}")
    if f.case is not None:
        lines += format_case(f.case)
        if report.found_steps:
            lines.append(f"  (shrunk from {report.found_steps} steps in {report.shrink_tries} replays)")
    if report.replay_command:
        lines.append(f"  replay: {report.replay_command}")
    return "\n".join(lines)
