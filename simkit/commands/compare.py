"""``simkit compare``: two sweeps of the same deck pool -> a PDF of what the patch changed."""

from __future__ import annotations

import argparse
from pathlib import Path

from simkit.report.comparison import compare_report


def run(args: argparse.Namespace) -> int:
    """Compare the two results folders and write the report; print what was written."""
    base, patch = Path(args.base).resolve().name, Path(args.patch).resolve().name
    files = compare_report(args.base, args.patch, args.out or f"reports/{base}-vs-{patch}.pdf")
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
