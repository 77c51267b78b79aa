"""``simkit compare``: two sweeps of the same deck pool -> a PDF of what the patch changed."""

from __future__ import annotations

import argparse
from pathlib import Path


def run(args: argparse.Namespace) -> int:
    """Compare the two results folders, print the verdict and what the patch changed, write the report."""
    from simkit.analysis.paired import compare_results
    from simkit.report.balance import load_checked_results
    from simkit.report.comparison import write_compare_report
    from simkit.report.document import output_paths

    if Path(args.base).resolve() == Path(args.patch).resolve():
        raise ValueError(f"{args.base}: compared with itself: give the base's folder and the patch's")
    base, patch = Path(args.base).resolve().name, Path(args.patch).resolve().name
    out = args.out or f"reports/{base}-vs-{patch}.pdf"
    output_paths(out, [])
    from simkit.explore.report import is_explore_folder

    if is_explore_folder(args.base) or is_explore_folder(args.patch):  # two explore runs: did the metagame move?
        from simkit.explore.compare import compare_runs

        return compare_runs(args.base, args.patch, out)
    tables = compare_results(load_checked_results(args.base), load_checked_results(args.patch))
    v = tables["verdict"]
    print(f"verdict: {v['sentence']}")
    for key, before, after in v["changes"]:
        print(f"  changed: {key}: {before!r} -> {after!r}")
    files = write_compare_report(tables, out)
    print(f"comparison: {files[0]}")
    print(f"tables: {len(files) - 1} CSV files beside it ({files[1].name}, ...)")
    return 0


def register(sub) -> None:
    """Add the ``compare`` command."""
    p = sub.add_parser(
        "compare",
        help="write a PDF of what a patch changed, from a base and a patch sweep",
        description="Pair the games of two sweeps of the same deck pool (same decks, seats, game numbers and "
        "seeds) and report per-deck, per-card, first-player and matchup changes with paired intervals, the "
        "Nash mix before and after, and the flags that appeared or vanished.",
    )
    p.add_argument("base", metavar="BASE_DIR", help="results folder of the base sweep")
    p.add_argument("patch", metavar="PATCH_DIR", help="results folder of the patched sweep")
    p.add_argument("-o", "--out", metavar="NAME.pdf", help="the PDF to write (default: reports/BASE-vs-PATCH.pdf)")
    p.set_defaults(func=run)
