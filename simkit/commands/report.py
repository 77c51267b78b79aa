"""``simkit report``: a sweep's results folder -> a balance-report PDF with its tables as CSV."""

from __future__ import annotations

import argparse
from pathlib import Path

from simkit.report import balance_report


def run(args: argparse.Namespace) -> int:
    """Analyse the results folder and write the report; print what was written."""
    if args.bootstrap < 0:
        raise ValueError(f"--bootstrap must be 0 (no rating intervals) or more, got {args.bootstrap}")
    if args.seed < 0:
        raise ValueError(f"--seed must be 0 or more, got {args.seed}")
    out = args.out or f"reports/{Path(args.results).resolve().name}.pdf"
    from simkit.explore.report import explore_report, is_explore_folder

    if is_explore_folder(args.results):  # an explore run's folder: its own pages
        files = explore_report(args.results, out)
    else:
        files = balance_report(args.results, out, bootstrap=args.bootstrap, seed=args.seed,
                               game_pages=args.game_pages, bot=args.bot)
    print(f"report: {files[0]}")
    print(f"tables: {len(files) - 1} CSV files beside it ({files[1].name}, ...)")
    return 0


def register(sub) -> None:
    """Add the ``report`` command."""
    p = sub.add_parser(
        "report",
        help="write a balance-report PDF (and CSV tables) from a sweep's results folder",
        description="Analyse a sweep (matchups, first-player advantage, deck ratings, cards, Nash metagame, "
        "game shape, flags) and write a multi-page PDF; the same tables go to NAME.<table>.csv beside it. "
        "Each flagged matchup gets a page with one representative game on the board, its seed and the "
        "command that replays it (the sweep's scenario file must be unchanged). "
        "A folder holding a bot panel is described under one bot (--bot), with pages on how far the "
        "panel's bots agree.",
    )
    p.add_argument("results", metavar="RESULTS_DIR", help="a folder written by simkit sweep")
    p.add_argument("-o", "--out", metavar="NAME.pdf", help="the PDF to write (default: reports/<RESULTS_DIR name>.pdf)")
    p.add_argument("--bootstrap", type=int, default=200, help="bootstrap replicas of rating intervals (default 200)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap (default 0)")
    p.add_argument("--game-pages", type=int, default=0, metavar="N",
                   help="show a game of at least N matchups: the flagged ones, then the most lopsided others "
                   "(default 0: flagged matchups only; at most 12 pages)")
    p.add_argument("--bot", metavar="NAME",
                   help="for a folder holding a bot panel (simkit sweep --panel): the bot whose games the report "
                   "describes (default: the panel's last bot); the others are compared on the 'Does the player "
                   "matter?' pages")
    p.set_defaults(func=run)
