"""``simkit report``: a sweep's results folder -> a balance-report PDF with its tables as CSV."""

from __future__ import annotations

import argparse
from pathlib import Path


def run(args: argparse.Namespace) -> int:
    """Analyse the results folder and write the report; print what was written."""
    from simkit.report import balance_report

    if Path(args.results).suffix.lower() == ".toml" and Path(args.results).is_file():
        raise ValueError(_scenario_not_results(args.results))
    if args.bootstrap < 0:
        raise ValueError(f"--bootstrap must be 0 (no rating intervals) or more, got {args.bootstrap}")
    if args.seed < 0:
        raise ValueError(f"--seed must be 0 or more, got {args.seed}")
    out = args.out or f"reports/{Path(args.results).resolve().name}.pdf"
    from simkit.explore.report import explore_report, is_explore_folder
    from simkit.ladder.run import is_ladder_folder

    explore = is_explore_folder(args.results)
    ladder = is_ladder_folder(args.results)
    page = args.html or (out if Path(out).suffix.lower() == ".html" else None)
    if page is not None:  # the HTML page (simkit.report.html); its path and --html-replays checked first
        from simkit.report.html import html_report

        if explore or ladder:
            kind = "an explore" if explore else "a ladder"
            raise ValueError(f"{args.results}: {kind} folder's report is a PDF with its tables, not an HTML page; "
                             "give -o NAME.pdf and no --html")
        if Path(page).suffix.lower() != ".html" or args.html_replays < 0:
            raise ValueError(f"--html {page}: must end in .html" if Path(page).suffix.lower() != ".html" else
                             f"--html-replays must be 0 or more, got {args.html_replays}")
        if not args.html:
            written = html_report(args.results, page, args.bootstrap, args.seed, args.bot, args.html_replays,
                                  args.against)
            print(f"report: {written}")
            return 0
    if args.against and (explore or ladder):
        raise ValueError(f"--against {args.against}: compares a folder of real games (simkit import-games) with a "
                         f"sweep; {args.results} is {'an explore' if explore else 'a ladder'} folder")
    if explore:  # an explore run's folder: its own pages
        files = explore_report(args.results, out)
    elif ladder:  # a ladder's folder (simkit ladder): its page
        from simkit.report.ladder_page import ladder_report

        files = ladder_report(args.results, out)
    else:
        files = balance_report(args.results, out, bootstrap=args.bootstrap, seed=args.seed, game_pages=args.game_pages,
                               bot=args.bot, against=args.against)
    print(f"report: {files[0]}")
    print(f"tables: {len(files) - 1} CSV files beside it ({files[1].name}, ...)")
    if args.html:
        written = html_report(args.results, page, args.bootstrap, args.seed, args.bot, args.html_replays, args.against)
        print(f"html: {written}")
    return 0


def _scenario_not_results(path: str) -> str:
    """The one line for ``simkit report SCENARIO.toml``: a scenario is swept first, then its folder reported."""
    try:
        from simkit.scenario import load_scenario
        from simkit.sweep import sweep_defaults

        folder = sweep_defaults(load_scenario(path))["out"]
    except (ValueError, OSError):
        folder = "RESULTS_DIR"
    return (f"{path}: this is a scenario, not a results folder: sweep it first (simkit sweep {path}), then "
            f"report its folder (simkit report {folder} -o reports/{Path(folder).name}.pdf)")


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
    p.add_argument("results", metavar="RESULTS_DIR",
                   help="a folder written by simkit sweep (or by simkit explore or simkit ladder: their own pages)")
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
    p.add_argument("--against", metavar="SWEEP_DIR",
                   help="for a folder of real games (simkit import-games): a sweep of the same decks; a 'Real play "
                   "against simulation' page compares, deck by deck and for the first seat, the real win rates with "
                   "the simulated ones (--bot: the sweep's panel bot)")
    p.add_argument("--html", metavar="NAME.html",
                   help="also write the report as one self-contained HTML page (sortable tables, heatmaps with hover "
                   "values, a replay behind each matchup cell); -o NAME.html writes only the page")
    p.add_argument("--html-replays", type=int, default=40, metavar="N",
                   help="matchups whose game the HTML page tells turn by turn (default 40: flagged first, then the "
                   "most lopsided); every other cell gives its seed and replay command")
    p.set_defaults(func=run)
