"""``simkit check``: run the rule-invariant suite against a scenario, or replay a recorded failure."""

from __future__ import annotations

import argparse
import sys

from simkit.commands._source import constant

#: the hypothesis profiles, read from their source: ``--help`` imports neither hypothesis nor the engines
PROFILES = constant("simkit.testing.profiles", "PROFILES")


def run(args: argparse.Namespace) -> int:
    """Check (or replay) and print the report; 0 when every invariant held, 1 otherwise."""
    from tqdm import tqdm

    from simkit.testing.rule_check import format_report, replay_file, run_check

    if args.replay:
        try:
            report = replay_file(args.scenario, args.replay)
        except ValueError as exc:
            if str(exc).startswith(f"{args.replay}: "):  # the case file's fault: say which option named it
                raise ValueError(f"--replay {exc}") from None
            raise
        print(format_report(report))
        return 0 if report.passed else 1
    if args.seed < 0:
        raise ValueError(f"--seed must be 0 or more, got {args.seed}")
    if args.examples is not None and args.examples < 1:
        raise ValueError(f"--examples must be at least 1, got {args.examples}")
    # a counter, not a bar: hypothesis runs more examples than its budget counts
    with tqdm(desc="games checked", unit="game", file=sys.stderr, disable=None, leave=False) as bar:
        report = run_check(
            args.scenario,
            examples=args.examples,
            seed=args.seed,
            profile=args.profile,
            variants=not args.no_variants,
            out_dir=args.out,
            on_example=lambda: bar.update(1),
        )
    print(format_report(report))
    return 0 if report.passed else 1


def register(sub) -> None:
    """Add the ``check`` command."""
    p = sub.add_parser(
        "check",
        help="property-test the rule invariants against a scenario",
        description="Run the scenario's rule examples first (examples.toml beside it: given a position, when "
        "actions, then what the rules page requires), then play legal games (random actions and games played by "
        "the scenario's bots; for Battle of Miracles with hypothesis, on the scenario and variants of it) and "
        "positions at the clauses' edges, checking every rule clause and invariant after every action; print a "
        "pass summary, or the failing example (file, name, clause, expected against got), or the shortest "
        "failing action sequence, the clause broken and a command that replays it. Exit status 1 when a rule "
        "breaks, 2 on bad input.",
    )
    p.add_argument("scenario", help="scenario TOML (a designer's patch, for instance)")
    p.add_argument("--examples", type=int, help="hypothesis examples to run (default: the profile's budget)")
    p.add_argument("--seed", type=int, default=0, help="hypothesis seed (default 0)")
    p.add_argument(
        "--profile", default="thorough", choices=sorted(PROFILES), help="hypothesis profile (default thorough)"
    )
    p.add_argument("--no-variants", action="store_true", help="play the scenario only, no patched variants of it")
    p.add_argument("--out", default="reports/check", help="folder for a failing case (default reports/check)")
    p.add_argument("--replay", metavar="CASE", help="replay a failing case (JSON written by an earlier check)")
    p.set_defaults(func=run)
