"""Measure Magic War's skill ladder (figures quoted in docs/magic.md "Search bots and the ladder").

    python scripts/magic_ladder.py --games 400 --workers 2                    # the default matches below
    python scripts/magic_ladder.py --match search-1:balanced --games 40       # one match
    python scripts/magic_ladder.py --ceiling search-2:balanced --doublings 3  # the top rung at 2x, 4x, 8x budget
    python scripts/magic_ladder.py --cost-games 10 --cost search-1,search-2   # cost per game and per decision

A match ``upper:lower`` plays ``--games`` games between random armies drawn uniformly from the seat pools
(``sc.game.seat_decks()``: the first seat's 12-gold armies, the second's), half with ``upper`` first and half
with it second, each game from its own seed; the rate is ``upper``'s wins over games (draws count as not
won, and are printed), with a 95% Wilson interval. By default: the utility personalities among themselves
(balanced, aggro, turtle), then ``search-1`` over the best of them, ``search-2`` over ``search-1`` and over
the best personality.

``--ceiling TOP:LOWER`` plays TOP with its ``plans`` and ``samples`` doubled ``--doublings`` times (bots
``TOP@2x``... added to the scenario in memory, ``like = TOP``) against LOWER. ``--cost`` plays
``--cost-games`` mirror games per rung in this process after two warm-up games (no compilation counted):
CPU seconds per game and per decision (action played, both seats), and the estimated wall time of a
1-game-per-pair sweep of the base pool (12 x 24 = 288 games) at that rung on ``--workers`` cores.

Results never depend on ``--workers`` or chunking; wall times depend on what else the machine runs.
"""

from __future__ import annotations

import argparse
import copy
import math
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

import simkit
from simkit.runner import game_seeds
from simkit.scenario import scenario_from_data

BASE = Path(__file__).resolve().parents[1] / "scenarios" / "magic" / "base.toml"
CHUNK = 10  # games per task handed to a worker
UTILITY = ("balanced", "aggro", "turtle")


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate ``wins / n``."""
    if n == 0:
        return (float("nan"), float("nan"))
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (mid - half, mid + half)


def scenario(path: str, extra: dict):
    """The scenario at ``path`` with the bot tables of ``extra`` added."""
    sc = simkit.load_scenario(path)
    if not extra:
        return sc
    data = copy.deepcopy(sc.data)
    data["bots"].update(extra)
    return scenario_from_data(data, str(path))


def _play(task: tuple) -> tuple[pd.DataFrame, float]:
    path, extra, first, second, bots, seeds = task
    sc = scenario(path, extra)
    cpu = time.process_time()
    df = simkit.play_games(sc, first, second, bots=bots, seeds=seeds, batch_size=len(seeds))
    return df, time.process_time() - cpu


def match(pool, path, extra, seats, upper: str, lower: str, games: int, seed: int) -> dict:
    """``upper`` against ``lower`` over random armies of the seat pools, half the games in each seat."""
    rng = np.random.default_rng(seed)
    first = [seats[0][i] for i in rng.integers(0, len(seats[0]), games)]
    second = [seats[1][i] for i in rng.integers(0, len(seats[1]), games)]
    seeds = game_seeds(seed, games)
    half = games // 2
    tasks = []
    for lo, hi, bots in ((0, half, (upper, lower)), (half, games, (lower, upper))):
        for i in range(lo, hi, CHUNK):
            j = min(i + CHUNK, hi)
            tasks.append((path, extra, first[i:j], second[i:j], bots, seeds[i:j]))
    start = time.perf_counter()
    parts = list(pool.map(_play, tasks))
    wall = time.perf_counter() - start
    df = pd.concat([p[0] for p in parts], ignore_index=True)
    up_first = (df.first_bot == upper).to_numpy() if upper != lower else np.arange(len(df)) < half
    won = np.where(up_first, df.winner == "first", df.winner == "second")
    wins, draws = int(won.sum()), int((df.winner == "draw").sum())
    lo, hi = wilson(wins, games)
    return {"upper": upper, "lower": lower, "games": games, "wins": wins, "draws": draws, "rate": wins / games,
            "lo": lo, "hi": hi, "wall_s": wall, "cpu_s": sum(p[1] for p in parts)}


def show(row: dict) -> None:
    print(f"{row['upper']:>14} vs {row['lower']:<10} {row['wins']:4d}/{row['games']} won ({row['rate']:.1%}, 95% CI "
          f"{row['lo']:.1%}-{row['hi']:.1%}), {row['draws']} draws; {row['wall_s']:.0f} s wall, "
          f"{row['cpu_s']:.0f} CPU s", flush=True)


def cost(path, extra, seats, rung: str, games: int, seed: int, workers: int) -> dict:
    """Mirror games of ``rung`` in this process after two warm-up games: CPU per game and per decision."""
    sc = scenario(path, extra)
    rng = np.random.default_rng(seed)
    first = [seats[0][i] for i in rng.integers(0, len(seats[0]), games + 2)]
    second = [seats[1][i] for i in rng.integers(0, len(seats[1]), games + 2)]
    seeds = game_seeds(seed, games + 2)
    simkit.play_games(sc, first[:2], second[:2], bots=(rung, rung), seeds=seeds[:2])
    cpu = time.process_time()
    df = simkit.play_games(sc, first[2:], second[2:], bots=(rung, rung), seeds=seeds[2:], batch_size=CHUNK)
    cpu = time.process_time() - cpu
    actions = int(df.actions.sum())
    pairs = len(seats[0]) * len(seats[1])
    return {"rung": rung, "games": games, "per_game": cpu / games, "ms_per_decision": 1000 * cpu / actions,
            "actions": actions / games, "pairs": pairs, "sweep_min": pairs * cpu / games / workers / 60}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", default=str(BASE))
    p.add_argument("--match", action="append", default=[], help="UPPER:LOWER (repeatable); default: the ladder")
    p.add_argument("--games", type=int, default=400, help="games per match (half in each seat)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--ceiling", default="", help="TOP:LOWER: TOP at doubled plans and samples against LOWER")
    p.add_argument("--doublings", type=int, default=3)
    p.add_argument("--cost", default="", help="rungs to time in mirror games (comma separated)")
    p.add_argument("--cost-games", type=int, default=10)
    args = p.parse_args(argv)
    sc = simkit.load_scenario(args.scenario)
    seats = sc.game.seat_decks()
    extra: dict = {}
    matches = [tuple(m.split(":")) for m in args.match]
    if args.ceiling:
        top, lower = args.ceiling.split(":")
        table = sc.data["bots"][top]
        for k in range(1, args.doublings + 1):
            name = f"{top}@{2 ** k}x"
            extra[name] = {"like": top, "plans": int(table.get("plans", 1)) * 2 ** k,
                           "samples": int(table.get("samples", 1)) * 2 ** k}
            matches.append((name, lower))
    known = set(sc.game.bot_names()) | set(extra)
    if not matches and not args.cost:
        matches = [("balanced", "aggro"), ("balanced", "turtle"), ("aggro", "turtle")]
    for m in matches:
        if len(m) != 2 or not set(m) <= known:
            p.error(f"--match {':'.join(m)}: need UPPER:LOWER among {', '.join(sorted(known))}")
    with ProcessPoolExecutor(args.workers) as pool:
        for i, (upper, lower) in enumerate(matches):
            show(match(pool, args.scenario, extra, seats, upper, lower, args.games, args.seed + 101 * i))
    for rung in [r for r in args.cost.split(",") if r]:
        c = cost(args.scenario, extra, seats, rung, args.cost_games, args.seed + 7, args.workers)
        print(f"{rung:>14}: {c['per_game']:8.2f} CPU s/game, {c['ms_per_decision']:7.2f} CPU ms/decision "
              f"({c['actions']:.0f} actions/game, both seats; {c['games']} mirror games); a 1-game-per-pair sweep "
              f"({c['pairs']} games) on {args.workers} cores ~{c['sweep_min']:.1f} min", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
