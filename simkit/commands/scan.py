"""``simkit scan``: one scenario key over a list of values, each swept on the same seeds; a figure against
the value, with where it crosses its target."""

from __future__ import annotations

import argparse
import sys


def run(args: argparse.Namespace) -> int:
    """Play (or resume) the scan; print the figure at each value, the crossing and where the files are."""
    from simkit.commands.sweep import names_option
    from simkit.scan import ScanSettings, run_scan
    from simkit.sweep import RunOptions

    settings = ScanSettings(key=args.key, values=args.values, figure=args.figure, target=args.target, games=args.games,
                            decks=tuple(args.decks or ()), bots=names_option("--bots", args.bots), seed=args.seed,
                            chunk_size=args.chunk_size, bootstrap=args.bootstrap, bots_from=args.bots_from)
    args.resume_folder = args.out or "its results folder (named above)"  # a stop from here on keeps its sweeps
    table = run_scan(args.scenario, settings, args.out, RunOptions(workers=args.workers, resume=args.resume),
                     log=lambda line: print(line, file=sys.stderr))
    a = table.attrs
    from simkit.scan import parse_figure

    fig = parse_figure(a["figure"])
    lo, hi = int(table["games"].min()), int(table["games"].max())
    games = f"{lo:,} games" if lo == hi else f"{lo:,} to {hi:,} games (the pool changes with the value)"
    print(f"scan {table['key'].iloc[0]}: {fig.label}, {len(table)} values x {games} "
          f"({a['games_played']:,} played now in {a['play_seconds']:.1f} s; {a['seconds']:.1f} s in all)")
    for _, r in table.iterrows():
        print(f"  {r['value']:>8g}  {fig.fmt(r['estimate']):>8}  [{fig.fmt(r['low'])} to {fig.fmt(r['high'])}]")
    print(a["sentence"])
    print(f"files: {a['out']}/ (scan.pdf, scan.csv, crossing.csv, summary.json, values/<value>/)")
    return 0


def register(sub) -> None:
    """Add the ``scan`` command (nothing heavy is imported until it runs)."""
    p = sub.add_parser(
        "scan",
        help="one scenario key over a list of values: a figure against the value, and where it crosses its target",
        description="Sweep the scenario at each value of one key (a patch per value that extends the base), every "
        "value on the same seeds; draw the chosen figure against the value with 95%% intervals, and read where it "
        "crosses its target (50%% for the first seat) with an interval for the crossing. Resumable.",
    )
    p.add_argument("scenario", help="the base scenario TOML")
    p.add_argument("--key", required=True, help="the number to move, e.g. 'rules.mana_period' or 'rules.mana_phase[1]'")
    p.add_argument("--values", required=True, help="comma-separated values, e.g. 2,3,4,5")
    p.add_argument("--figure", help="first_seat (default: first-seat win rate, draws half), spread (std of deck win "
                   "rates), length (mean turns), or TABLE.COLUMN[@ROW] of a report table, e.g. "
                   "first_player.advantage, game_shape.share@turn_limit, or how the games play: "
                   "experience.FIGURE[@ROW], e.g. experience.comebacks, experience.lead_changes")
    p.add_argument("--target", type=float, help="the figure's target (default 0.5 for first_seat and win rates)")
    p.add_argument("--games", type=int, help="games per ordered deck pair at each value (default: [sweep] games)")
    p.add_argument("--decks", nargs="+", metavar="PATTERN", help="only decks matching these patterns")
    p.add_argument("--bots", help="two bots, first seat and second seat, e.g. balanced,balanced")
    p.add_argument("--bots-from", metavar="FILE",
                   help="play every value with the bots another scenario file of the game defines (as sweep "
                   "--bots-from): FILE's [bots] replace the scenario's of the same names")
    p.add_argument("--out", help="scan folder (default: [sweep] out + -scan-KEY)")
    p.add_argument("--resume", action="store_true", help="finish a scan that was interrupted, or re-read it "
                   "(e.g. with another --figure, no game replayed)")
    p.add_argument("--workers", type=int, help="worker processes per sweep (default: [sweep] workers)")
    p.add_argument("--seed", type=int, help="the sweep seed every value plays (default: [sweep] seed)")
    p.add_argument("--chunk-size", type=int, help="games per chunk file of each sweep (default: [sweep] chunk_size)")
    p.add_argument("--bootstrap", type=int, metavar="R", help="bootstrap replicas (default 1000; 200 for a table "
                   "column)")
    p.set_defaults(func=run)
