"""``simkit bench``: measure games per second by batch size, whole quick sweeps by worker count, or
the throughput targets (a full sweep on every core)."""

from __future__ import annotations

import argparse
import json

DEFAULT_BATCHES = {"targets": "1,512"}  # batch 1 against one batch, then a whole sweep on every core


def run(args: argparse.Namespace) -> int:
    """Run the chosen measurements, printing one JSON line per run and a summary."""
    from simkit.sweep.bench import bench_games, bench_sweep, speedup, targets

    if args.games is not None and args.games < 1:
        raise ValueError(f"--games must be at least 1, got {args.games}")
    if args.games_per_pair < 1:
        raise ValueError(f"--games-per-pair must be at least 1, got {args.games_per_pair}")
    runs = []
    if args.mode in ("games", "all", "targets"):
        spelled = args.batches or DEFAULT_BATCHES.get(args.mode, "1,64,512,4096")
        batches = [int(b) for b in spelled.split(",")]
        if any(b < 1 for b in batches):
            raise ValueError(f"--batches must be positive integers, got {spelled}")
        bots = tuple(args.bots.split(","))
        for b in batches:
            r = bench_games(args.scenario, batches=(b,), games=args.games, bots=bots)[0]
            print(json.dumps(r), flush=True)
            runs.append(r)
        s = speedup(runs)
        if s:
            print(json.dumps(s), flush=True)
    if args.mode in ("sweep", "all"):
        for w in (1, None):
            r = bench_sweep(args.sweep_scenario, workers=(w,))[0]
            print(json.dumps(r), flush=True)
    if args.mode == "targets":
        sweep = bench_sweep(args.scenario, workers=(None,), games_per_pair=args.games_per_pair)[0]
        print(json.dumps(sweep), flush=True)
        print(json.dumps(targets(runs, sweep)), flush=True)
    return 0


def register(sub) -> None:
    """Add the ``bench`` command."""
    p = sub.add_parser(
        "bench", help="measure throughput: games/s by batch size, quick sweep by workers, or the targets"
    )
    p.add_argument(
        "mode", nargs="?", choices=("games", "sweep", "all", "targets"), default="games",
        help="targets: batches 1 and 512, then a full sweep of --scenario on every core, and each target met or not",
    )
    p.add_argument("--scenario", default="scenarios/miracle/base.toml", help="scenario for the games mode")
    p.add_argument("--batches", help="comma-separated batch sizes (default 1,64,512,4096; targets: 1,512)")
    p.add_argument("--games-per-pair", type=int, default=1, help="targets: games per ordered pair of the full sweep")
    p.add_argument("--games", type=int, help="games per run (default: the batch size, at least 8)")
    p.add_argument("--bots", default="balanced,balanced", help="first and second seat bots")
    p.add_argument("--sweep-scenario", default="scenarios/miracle/quick.toml", help="scenario for the sweep mode")
    p.set_defaults(func=run)
