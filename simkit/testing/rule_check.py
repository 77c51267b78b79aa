"""``simkit check`` for any game: one protocol, the game's ``check`` capability.

A game declares ``check`` (:data:`simkit.games.CAPABILITIES`): an object built from the scenario with
``run_check(**options)`` and ``replay_file(case_path)``, each returning a report with ``passed`` and
``format()``. Most games simply declare their invariants by subclassing :class:`InvariantCheck`: ``names``
and ``invariants(before, action, after)`` returning the names of those a step broke, over
:meth:`~simkit.games.Match.snapshot` values (and, optionally, their rule examples' words, positions at
the clauses' edges, the legal actions the page allows); :func:`run_invariant_games` then plays games
here: random legal actions and games played by the scenario's bots, each action checked; illegal
actions probed (refused, nothing changed); and the game interface's own contract
(:func:`~simkit.testing.api.api_test`). A game with a check of its own (Battle of Miracles: a hypothesis
state machine over the scenario and its variants) writes ``run_check`` and ``replay_file`` itself.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from simkit.core.errors import IllegalAction
from simkit.runner import game_seeds
from simkit.scenario import Scenario, load_scenario
from simkit.testing.api import APITestFailure, api_test
from simkit.testing.profiles import PROFILES

__all__ = ["InvariantCheck", "InvariantReport", "format_report", "replay_file", "run_check", "run_invariant_games"]


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
    examples: int = 0
    probes: int = 0
    case: object = None
    case_path: Path | None = None

    @property
    def passed(self) -> bool:
        """True when no invariant broke."""
        return self.failure is None

    def format(self) -> str:
        """A short text report."""
        sc = self.scenario
        lines = [f"simkit check: {sc.name}", f"  scenario   {sc.path} (hash {sc.hash}, rules {sc.rules_version})",
                 f"  examples   {self.examples} rule examples run first; {self.probes} positions at the clauses' edges",
                 f"  games      {self.games} ({self.actions} actions checked, {self.illegal_refused} illegal actions "
                 f"refused; profile {self.profile}, seed {self.seed})",
                 f"  invariants {len(self.invariants)}: {', '.join(self.invariants)}, and the game interface's "
                 "contract (api_test)"]
        if self.passed:
            lines.append(f"PASSED in {self.seconds:.1f} s")
        else:
            lines += ["FAILED", *("  " + line for line in self.failure.splitlines())]
        return "\n".join(lines)


def _broken(spec, before: dict, action, after: dict) -> list[str]:
    return list(spec.invariants(before, action, after))


def _legal_broken(spec, m) -> list[str]:
    check = getattr(spec, "legal_problems", None)
    return list(check(m.snapshot(), m.legal_actions())) if check is not None and not m.over else []


@dataclass
class Case:
    """A failing case: where it starts (a game's decks and seed, or an example-words position), the
    actions up to the step that broke, and the clauses broken."""

    broken: list[str]
    actions: list
    first_deck: str | None = None
    second_deck: str | None = None
    seed: int = 0
    given: dict | None = None
    where: str = ""
    note: str = ""

    def start(self, sc, spec):
        """A match at the case's start."""
        if self.given is not None:
            return spec.example_match(self.given)
        return sc.game.new_match(self.first_deck, self.second_deck, seed=self.seed)

    def to_json(self) -> dict:
        """The case as JSON values."""
        return {"kind": "simkit-check-case", "broken": self.broken, "actions": [list(a) for a in self.actions],
                "first_deck": self.first_deck, "second_deck": self.second_deck, "seed": self.seed,
                "given": self.given, "where": self.where}


def replay_case(sc, spec, case: Case) -> list[str]:
    """Replay ``case``: the clauses broken by its last step (empty: it no longer fails).

    Raises:
        IllegalAction: an action of the case is refused.
    """
    m = case.start(sc, spec)
    broken: list[str] = []
    for action in case.actions:
        before = m.snapshot()
        broken = _legal_broken(spec, m)
        if broken:
            return broken
        m.do(tuple(action))
        broken = _broken(spec, before, tuple(action), m.snapshot())
        if broken:
            return broken
    return _legal_broken(spec, m)


def shrink(sc, spec, case: Case, attempts: int = 300) -> Case:
    """The case with as many actions removed as still leave a legal sequence breaking a clause it broke."""
    actions = list(case.actions)
    i = 0
    while i < len(actions) - 1 and attempts > 0:
        trial = actions[:i] + actions[i + 1:]
        attempts -= 1
        try:
            broken = replay_case(sc, spec, Case(case.broken, trial, case.first_deck, case.second_deck, case.seed,
                                                case.given))
        except IllegalAction:
            broken = []
        if set(broken) & set(case.broken):
            actions = trial
        else:
            i += 1
    return Case(case.broken, actions, case.first_deck, case.second_deck, case.seed, case.given, case.where, case.note)


def _describe(spec, sc, case: Case, detail: str = "") -> str:
    clauses = getattr(spec, "clauses", {})
    lines = [f"broken: {', '.join(case.broken)}"]
    lines += [f"  clause {b}: {clauses[b]}" for b in case.broken if b in clauses]
    lines.append(case.where)
    if detail:
        lines.append(detail)
    lines.append(f"the shortest sequence found ({len(case.actions)} action{'s' * (len(case.actions) != 1)}):")
    lines += [f"  {i + 1:4}. {tuple(a)!r}" for i, a in enumerate(case.actions)]
    return "\n".join(lines)


def _probe_edges(sc, spec, report, rng, count: int) -> Case | None:
    """Every legal action from positions at the clauses' edges, each step checked."""
    make = getattr(spec, "edge_positions", None)
    if make is None:
        return None
    for k, given in enumerate(make(rng, count)):
        try:
            m = spec.example_match(given)
        except (ValueError, KeyError):
            continue
        report.probes += 1
        where = f"edge position {k + 1} (seed {report.seed})"
        broken = _legal_broken(spec, m)
        if broken:
            return Case(broken, [], given=given, where=where,
                        note=spec.legal_difference(m.snapshot(), m.legal_actions())
                        if hasattr(spec, "legal_difference") else "")
        before = m.snapshot()
        for action in m.legal_actions():
            trial = m.clone()
            trial.do(action)
            report.actions += 1
            broken = _broken(spec, before, action, trial.snapshot())
            if broken:
                return Case(broken, [action], given=given, where=where)
        meta = getattr(spec, "metamorphic_problems", None)  # the game's metamorphic clauses, on a few positions
        if meta is not None and k < 10:
            broken = list(meta(given))
            if broken:
                return Case(broken, [], given=given, where=where + ": its image parts from it")
    return None


def run_invariant_games(sc: Scenario, spec, games: int, seed: int = 0, on_example=None,
                        profile: str = "custom", edge_positions: int | None = None,
                        out_dir: str | Path | None = None, examples_first: bool = True) -> InvariantReport:
    """Play ``games`` games of ``sc`` checking ``spec``'s invariants after every action.

    First the scenario's rule examples (:mod:`simkit.testing.examples`), then every legal action from
    ``edge_positions`` positions at the clauses' edges (when the spec makes them), then the games:
    half take uniformly random legal actions (drawn from ``seed``), half replay games the scenario's
    first two bots played in a batch (so checked games reach what real games reach; the batch and
    the game played alone must agree). At every position the legal actions are held to the page
    (when the spec restates them), and at a few moments an action legal at some other moment but not
    now is tried: it must raise :class:`simkit.IllegalAction` and change nothing. Each finished game
    is replayed from its actions and must end the same. A failure is shrunk to the shortest action
    sequence that still breaks the clause and written to ``out_dir`` for ``simkit check --replay``.
    """
    from simkit.testing.examples import run_examples

    game = sc.game
    report = InvariantReport(sc, profile, seed, invariants=tuple(getattr(spec, "names", ())))
    start = time.perf_counter()
    report.examples, failed = run_examples(sc, spec) if examples_first else (0, None)
    if failed is not None:
        report.failure = failed.format() + f"\nreplay: simkit check {sc.path} --profile ci (the examples run first)"
        report.seconds = time.perf_counter() - start
        return report
    rng = np.random.default_rng(seed)
    case = _probe_edges(sc, spec, report, rng, games * 10 if edge_positions is None else edge_positions)
    divergence = None
    if case is None:
        case, divergence = _play_games(sc, spec, report, rng, games, seed, on_example)
    if case is not None:
        if case.given is None:
            case = shrink(sc, spec, case)
        report.failure = _describe(spec, sc, case, case.note)
        report.case = case
        if out_dir is not None:
            from simkit.core.files import atomic_write

            path = Path(out_dir) / f"{game.name}-case-seed{seed}.json"
            text = json.dumps(case.to_json(), indent=1)
            atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"), make_folders=True)
            report.case_path = path
            report.failure += f"\nreplay: simkit check {sc.path} --replay {path}"
    elif divergence is not None:
        report.failure = divergence
    if report.passed:
        try:
            api_test(sc, games=min(6, max(2, games // 5)), seed=seed)
        except APITestFailure as exc:
            report.failure = f"game interface contract: {exc}"
    report.seconds = time.perf_counter() - start
    return report


def _play_games(sc, spec, report, rng, games, seed, on_example):
    """The random and bot-played games; ``(the first failing case or None, a divergence text or None)``."""
    game = sc.game
    seeds = game_seeds(seed, games)
    bots = [b for b in game.bot_names() if b != "random"][:2] or ["random"]
    bot_games = games // 2
    pool0, pool1 = game.seat_decks()  # each seat's pool (the same one unless the game's seats differ)
    firsts = [pool0[int(i)] for i in rng.integers(0, len(pool0), games)]
    seconds = [pool1[int(i)] for i in rng.integers(0, len(pool1), games)]
    played = game.play_batch(firsts[:bot_games], seconds[:bot_games], seeds[:bot_games],
                             (bots[0], bots[-1]), record_actions=True) if bot_games else {"action_list": []}
    seen: dict[str, tuple] = {}
    divergence = None
    for g in range(games):
        m = game.new_match(firsts[g], seconds[g], seed=seeds[g])
        script = list(played["action_list"][g]) if g < bot_games else None
        where = (f"game {g} ({firsts[g]} vs {seconds[g]}, seed {seeds[g]}, "
                 f"{'bots ' + bots[0] + ',' + bots[-1] if script is not None else 'random legal actions'})")
        history: list = []
        before = m.snapshot()

        def case_of(broken, note="", g=g, history=history, where=where):
            return Case(broken, list(history), firsts[g], seconds[g], int(seeds[g]), where=where, note=note)

        while not m.over:
            legal = m.legal_actions()
            broken = _legal_broken(spec, m)
            if broken:
                note = spec.legal_difference(m.snapshot(), legal) if hasattr(spec, "legal_difference") else ""
                return case_of(broken, note), None
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
                        return case_of(["illegal_action_refused"], f"illegal action {probe!r} accepted"), None
                    if m.snapshot() != before:
                        return case_of(["illegal_action_refused"], f"refused {probe!r} changed the game"), None
            offered = set(map(tuple, legal))
            if script is not None and len(history) < len(script) and tuple(script[len(history)]) in offered:
                action = script[len(history)]
            else:
                if script is not None and divergence is None:
                    divergence = (f"broken: batch_equals_games_alone\n{where}: the batch's game and the same game "
                                  f"played alone part at action {len(history) + 1}")
                script = None
                action = legal[int(rng.integers(len(legal)))]
            m.do(action)
            history.append(action)
            after = m.snapshot()
            report.actions += 1
            broken = _broken(spec, before, action, after)
            if broken:
                return case_of(broken), None
            before = after
        if script is not None and len(history) != len(script) and divergence is None:
            divergence = f"broken: batch_equals_games_alone\n{where}: the batch's game had {len(script)} actions"
        again = game.replay(firsts[g], seconds[g], history, seed=seeds[g])
        if again.snapshot() != m.snapshot():
            return case_of(["replay_gives_the_same_game"]), None
        report.games += 1
        if on_example is not None:
            on_example()
    return None, divergence


class InvariantCheck:
    """The ``check`` capability of a game that declares its invariants: :func:`run_invariant_games` runs them.

    A subclass sets ``names`` and writes ``invariants(before, action, after) -> list[str]`` over two
    :meth:`~simkit.games.Match.snapshot` values; optionally ``example_match(given)`` and
    ``example_values(match)`` (the words of ``scenarios/<game>/examples.toml``, :mod:`simkit.testing.examples`),
    ``edge_positions(rng, count)``, ``legal_problems(snapshot, legal)`` and ``legal_difference``.

    Args:
        scenario: the loaded scenario it checks.
    """

    names: tuple[str, ...] = ()

    def __init__(self, scenario: Scenario):
        self.scenario = scenario

    def invariants(self, before: dict, action, after: dict) -> list[str]:
        """Names of the invariants broken by the step ``before`` -> ``action`` -> ``after`` (a subclass's)."""
        raise NotImplementedError

    def run_check(self, examples: int | None = None, seed: int | None = 0, profile: str = "thorough",
                  variants: bool = True, out_dir: str | Path | None = "reports/check", on_example=None,
                  examples_first: bool = True, **options) -> InvariantReport:
        """The invariants after every action of the profile's budget of games (see :func:`run_check`)."""
        budget = examples if examples is not None else max(10, PROFILES[profile] // 5)
        return run_invariant_games(self.scenario, self, budget, seed=0 if seed is None else seed,
                                   on_example=on_example, profile=profile, out_dir=out_dir,
                                   examples_first=examples_first)

    def replay_file(self, case_path: str | Path) -> InvariantReport:
        """Replay a case written by :func:`run_invariant_games`: the clauses its last step breaks now.

        Raises:
            ValueError: the file is not such a case, or an action of it is refused now.
        """
        path = Path(case_path)
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("kind") != "simkit-check-case":
            raise ValueError(f"{path}: not a case written by simkit check for {self.scenario.game.title}")
        return _replay_generic(self.scenario, self, path, data)


def run_check(scenario: str | Path, examples: int | None = None, seed: int | None = 0, profile: str = "thorough",
              variants: bool = True, out_dir: str | Path = "reports/check", on_example=None,
              examples_first: bool = True, **options):
    """Check a scenario's rules through its game's ``check`` capability.

    Args:
        scenario: the scenario file (a designer's patch, for instance).
        examples: games (or state-machine runs) to play (default: the profile's budget).
        seed: the seed (None: random, where the game's check supports it).
        profile: ``ci``, ``dev`` or ``thorough``: the budget.
        variants: also play variants of the scenario (games whose check supports it).
        out_dir: where a failing case is written.
        on_example: called once per game played (progress).
        examples_first: run the scenario's rule examples first (games whose check gives their words).

    Returns:
        A report with ``passed`` and ``format()``.

    Raises:
        ScenarioError: the scenario is invalid.
        ValueError: bad arguments, or the game declares no check.
    """
    sc = load_scenario(scenario)
    if profile not in PROFILES:
        raise ValueError(f"unknown profile {profile!r} (simkit registers: {', '.join(PROFILES)})")
    check = sc.game.capability("check")
    if check is None:
        raise ValueError(f"{sc.path}: {sc.game.title} declares no check (its check capability)")
    return check.run_check(examples=examples, seed=seed, profile=profile, variants=variants, out_dir=out_dir,
                           on_example=on_example, examples_first=examples_first, **options)


def replay_file(scenario: str | Path, case_path: str | Path):
    """Replay a failing case written by an earlier check.

    Raises:
        ValueError: one line naming the case file: it is missing, unreadable, not UTF-8 or not JSON,
            it is not such a case, or the game declares no check.
    """
    path = Path(case_path)
    try:
        json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{path}: no such file (a case is written by a failing simkit check)") from None
    except IsADirectoryError:
        raise ValueError(f"{path}: is a folder, not a case file written by simkit check") from None
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text (byte 0x{exc.object[exc.start]:02x} at offset {exc.start}): "
                         "not a case written by simkit check") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not valid JSON ({exc}): not a case written by simkit check") from None
    except OSError as exc:
        raise ValueError(f"{path}: cannot read: {exc.strerror or exc}") from None
    sc = load_scenario(scenario)
    check = sc.game.capability("check")
    if check is None:
        raise ValueError(f"{path}: {sc.game.title} declares no check to replay the case with")
    try:
        return check.replay_file(path)
    except (ValueError, KeyError, TypeError) as exc:
        text = str(exc) if not isinstance(exc, KeyError) else f"missing key {exc}"
        if str(path) in text:
            raise
        raise ValueError(f"{path}: {text}") from None


def _replay_generic(sc, spec, path: Path, data: dict) -> InvariantReport:
    """Replay a case written by :func:`run_invariant_games`: the clauses its last step breaks now."""
    try:
        case = Case(list(data["broken"]), [tuple(a) for a in data["actions"]], data["first_deck"],
                    data["second_deck"], int(data["seed"]), data["given"], data.get("where", ""))
    except (KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"{path}: not a case written by simkit check ({exc})") from None
    report = InvariantReport(sc, "replay", case.seed, invariants=tuple(getattr(spec, "names", ())))
    start = time.perf_counter()
    try:
        broken = replay_case(sc, spec, case)
    except IllegalAction as exc:
        raise ValueError(f"{path}: an action of the case is refused now: {exc}") from None
    report.games, report.actions = 1, len(case.actions)
    if broken:
        report.failure = _describe(spec, sc, Case(broken, case.actions, case.first_deck, case.second_deck,
                                                  case.seed, case.given, case.where or str(path)))
    report.seconds = time.perf_counter() - start
    return report


def format_report(report) -> str:
    """The report as text (each game's report formats itself)."""
    return report.format()
