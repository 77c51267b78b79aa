"""Measure the skill ladder of the Battle of Miracles bots (figures quoted in README "Bots").

    python scripts/ladder.py                                  # balanced < search-1 < search-2 < search-3
    python scripts/ladder.py --rungs balanced,search-1 --games 400 --workers 2
    python scripts/ladder.py --cost-games 20                  # also: cost of each rung (mirror games)

Each rung plays the rung below it ``--games`` games over random decks (drawn uniformly from the
scenario's pool), half of them in each seat, and the top rung plays the bottom one as many games.
A rung "beats" the one below when it wins at least 60% of their games (draws count as not won);
the figures are printed with a 95% Wilson interval. With ``--cost-games``, each rung also plays that
many mirror games in the main process (after two warm-up games, so no compilation is counted) to
give its cost per decision (action) and per game, and the cost of a full 80-deck sweep at one game
per ordered pair (6,400 games) on ``--workers`` cores.

Every game is played from its own seed, so the results never depend on ``--workers`` or chunking;
wall times do depend on what else the machine runs (CPU seconds are printed beside them).
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

import simkit
from simkit.games.miracle.bots import bot_names
from simkit.runner import game_seeds

BASE = Path(__file__).resolve().parents[1] / "scenarios" / "miracle" / "base.toml"
CHUNK = 10  # games per task handed to a worker


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a rate ``wins / n``."""
    if n == 0:
        return (float("nan"), float("nan"))
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (mid - half, mid + half)


def _play(task: tuple) -> tuple[pd.DataFrame, float, float]:
    """Play one chunk (in a worker): returns its rows, wall and CPU seconds."""
    scenario, first, second, bots, seeds = task
    sc = simkit.load_scenario(scenario)
    wall, cpu = time.perf_counter(), time.process_time()
    df = simkit.play_games(sc, first, second, bots=bots, seeds=seeds, batch_size=len(seeds))
    return df, time.perf_counter() - wall, time.process_time() - cpu


def play_many(pool, scenario, first, second, bots, seeds) -> tuple[pd.DataFrame, float, float]:
    """Play listed games in chunks over ``pool``; rows in the order given, wall and summed CPU seconds."""
    tasks = [
        (str(scenario), first[i : i + CHUNK], second[i : i + CHUNK], bots, seeds[i : i + CHUNK])
        for i in range(0, len(seeds), CHUNK)
    ]
    start = time.perf_counter()
    parts = list(pool.map(_play, tasks))
    wall = time.perf_counter() - start
    return pd.concat([p[0] for p in parts], ignore_index=True), wall, sum(p[2] for p in parts)


def match(pool, scenario, decks, upper: str, lower: str, games: int, seed: int) -> dict:
    """``upper`` against ``lower`` over random decks, half the games in each seat."""
    rng = np.random.default_rng(seed)
    pick = rng.integers(0, len(decks), (2, games))
    first, second = [decks[i] for i in pick[0]], [decks[i] for i in pick[1]]
    seeds = game_seeds(seed, games)
    half = games // 2
    a, wall_a, cpu_a = play_many(pool, scenario, first[:half], second[:half], (upper, lower), seeds[:half])
    b, wall_b, cpu_b = play_many(pool, scenario, first[half:], second[half:], (lower, upper), seeds[half:])
    wins = int((a.winner == "first").sum() + (b.winner == "second").sum())
    draws = int((a.winner == "draw").sum() + (b.winner == "draw").sum())
    lo, hi = wilson(wins, games)
    return {
        "upper": upper,
        "lower": lower,
        "games": games,
        "upper_wins": wins,
        "draws": draws,
        "win_rate": wins / games,
        "ci_low": lo,
        "ci_high": hi,
        "wall_s": wall_a + wall_b,
        "cpu_s": cpu_a + cpu_b,
    }


def cost(scenario, decks, rung: str, games: int, seed: int, workers: int) -> dict:
    """Mirror games of ``rung`` over random decks, in this process after two warm-up games (so no
    compilation is counted): CPU seconds per game and per decision (action played)."""
    sc = simkit.load_scenario(scenario)
    rng = np.random.default_rng(seed)
    pick = rng.integers(0, len(decks), (2, games + 2))
    first, second = [decks[i] for i in pick[0]], [decks[i] for i in pick[1]]
    seeds = game_seeds(seed, games + 2)
    simkit.play_games(sc, first[:2], second[:2], bots=(rung, rung), seeds=seeds[:2])
    wall, cpu = time.perf_counter(), time.process_time()
    df = simkit.play_games(sc, first[2:], second[2:], bots=(rung, rung), seeds=seeds[2:], batch_size=CHUNK)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    actions = int(df.actions.sum())
    per_game = cpu / games
    return {
        "rung": rung,
        "games": games,
        "cpu_s_per_game": per_game,
        "cpu_ms_per_decision": 1000 * cpu / actions,
        "actions_per_game": actions / games,
        "wall_s": wall,
        "sweep_6400_minutes": 6400 * per_game / workers / 60,
    }


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", default=str(BASE))
    p.add_argument("--rungs", default="balanced,search-1,search-2,search-3", help="bot names, weakest first")
    p.add_argument("--games", type=int, default=400, help="games per match (half in each seat)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--cost-games", type=int, default=0, help="mirror games per rung for the cost figures")
    p.add_argument("--skip-top", action="store_true", help="do not play the top rung against the bottom one")
    args = p.parse_args(argv)
    rungs = [r.strip() for r in args.rungs.split(",") if r.strip()]
    sc = simkit.load_scenario(args.scenario)
    known = bot_names(sc)
    for r in rungs:
        if r not in known:
            p.error(f"--rungs: unknown bot {r!r} (known: {', '.join(known)})")
    decks = list(sc.decks)
    pairs = list(zip(rungs[1:], rungs[:-1]))
    if len(rungs) > 2 and not args.skip_top:
        pairs.append((rungs[-1], rungs[0]))
    rows = []
    with ProcessPoolExecutor(args.workers) as pool:
        for i, (upper, lower) in enumerate(pairs):
            row = match(pool, args.scenario, decks, upper, lower, args.games, args.seed + 101 * i)
            rows.append(row)
            print(
                f"{upper:>10} vs {lower:<10} {row['upper_wins']:4d}/{row['games']} won ({row['win_rate']:.1%}, "
                f"95% CI {row['ci_low']:.1%}-{row['ci_high']:.1%}), {row['draws']} draws; "
                f"{row['wall_s']:.0f} s wall, {row['cpu_s']:.0f} CPU s",
                flush=True,
            )
    if args.cost_games:
        for rung in rungs:
            c = cost(args.scenario, decks, rung, args.cost_games, args.seed + 7, args.workers)
            print(
                f"{rung:>10}: {c['cpu_s_per_game'] * 1000:8.1f} CPU ms/game, {c['cpu_ms_per_decision']:7.3f} CPU ms/"
                f"decision ({c['actions_per_game']:.0f} actions/game, both seats); 6,400-game sweep on "
                f"{args.workers} cores ~{c['sweep_6400_minutes']:.1f} min",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
