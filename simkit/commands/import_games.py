"""``simkit import-games``: records of real games (a CSV, or a game's own replays) -> a results folder."""

from __future__ import annotations

import argparse
import sys


def run(args: argparse.Namespace) -> int:
    """Read and check every file, write the folder, say what was imported and how to report it."""
    from simkit.real.store import import_games
    from simkit.scenario import load_scenario

    sc = load_scenario(args.scenario)
    out = args.out or f"results/real-{sc.path.stem}"
    df = import_games(args.files, sc, out, overwrite=args.overwrite,
                      report=lambda line: print(f"simkit import-games: {line}", file=sys.stderr))
    notes = df.attrs["meta"]["notes"]
    pairs = df.groupby(["first_deck", "second_deck"]).ngroups
    print(f"imported {len(df)} real game{'s' if len(df) != 1 else ''} of {sc.name} ({pairs} deck pairing"
          f"{'s' if pairs != 1 else ''}) from {len(args.files)} file{'s' if len(args.files) != 1 else ''} into {out}"
          + (f"; {len(notes)} replayed action(s) or state(s) differed from simkit's engine (said above, kept in "
             "meta.json)" if notes else ""))
    print(f"report: simkit report {out}   against a sweep of the same decks: simkit report {out} --against "
          "RESULTS_DIR")
    return 0


def register(sub) -> None:
    """Add the ``import-games`` command."""
    p = sub.add_parser(
        "import-games",
        help="import real games (a CSV of decks, winner, length, end reason; Miracle replays) as a results folder",
        description="Read records of games people played and write them as a results folder that report and "
        "report --against read like a sweep's. A CSV has a header and one game a row: first_deck, second_deck, "
        "winner (first, second or draw), turns, end_reason, and optionally date, first_player, second_player, "
        "seed, note (docs/real-games.md). Every deck is checked against the scenario and every end reason "
        "against its game; a bad value stops the import in one line naming the file, line, column and value, "
        "and nothing is written. For Battle of Miracles a file that is not .csv is read as the original "
        "server's replay and replayed action by action through simkit's engine; every refused action or "
        "differing state is said, one line each.",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="CSV files of games (or a game's replay files)")
    p.add_argument("--scenario", required=True, metavar="SCENARIO.toml",
                   help="the scenario the games were played under (its decks, turn limit and end reasons)")
    p.add_argument("-o", "--out", metavar="DIR", help="the results folder to write (default: results/real-<scenario>)")
    p.add_argument("--overwrite", action="store_true", help="replace the games of a real-games folder already there")
    p.set_defaults(func=run)
