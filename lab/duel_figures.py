"""The Card Duel's figures (issue 17.6): bots against random, game length, a full sweep's time and memory.

    PYTHONPATH=$PWD python lab/duel_figures.py [--games N] [--sweep-games G] [--workers W] [--no-sweep]

1. Each utility bot against ``random``, ``N`` games with the bot first and ``N`` with it second, on
   random ordered deck pairs of the base scenario: the utility bot's win share (aim: >= 95%).
2. Mean turns and the share of games reaching the turn cap, per pairing.
3. A full sweep of the base scenario (all 120 decks, every ordered pair, ``G`` games each: 144,000
   at G = 10) through the generic ``simkit sweep`` command with ``W`` worker processes: wall time,
   CPU time and peak memory (resident memory of the whole process tree, sampled every 0.2 s; needs
   psutil, else only the largest process's peak is shown). The machine's load average is printed
   beside it, since other work on the machine slows the wall time.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

import simkit
from simkit.games.duel.batch import play_batch
from simkit.sweep import load_results

ROOT = Path(__file__).resolve().parents[1]
BASE = ROOT / "scenarios" / "duel" / "base.toml"


def _games(sc, bots, n, seed):
    rng = np.random.default_rng(seed)
    decks = list(sc.decks)
    first = [decks[i] for i in rng.integers(0, len(decks), n)]
    second = [decks[i] for i in rng.integers(0, len(decks), n)]
    return pd.DataFrame(play_batch(sc, first, second, [seed * 1_000_003 + i for i in range(n)], bots))


def bots_against_random(sc, n: int) -> None:
    """Print each utility bot's win share against random (both seats) and the games' length."""
    print(f"## utility bots against random ({n} games per seat order, random deck pairs)")
    for bot in sc.game.bot_names()[1:]:
        one = _games(sc, (bot, "random"), n, 1)
        two = _games(sc, ("random", bot), n, 2)
        wins = (one.winner == "first").sum() + (two.winner == "second").sum()
        draws = (one.winner == "draw").sum() + (two.winner == "draw").sum()
        both = pd.concat([one, two])
        print(f"- {bot} vs random: {bot} wins {wins / (2 * n):.1%} (draws {draws / (2 * n):.1%}); "
              f"mean turns {both.turns.mean():.1f}, at the turn cap {(both.end_reason == 'turn_limit').mean():.1%}")


def game_length(sc, n: int) -> None:
    """Print mean turns and the share of games reaching the cap per pairing."""
    print(f"## game length ({n} games per pairing, random deck pairs; turn cap {sc.data['rules']['turn_limit']})")
    names = sc.game.bot_names()
    pairs = [(a, b) for a in names[1:] for b in names[1:]] + [("random", "random")]
    for bots in pairs:
        df = _games(sc, bots, n, 3)
        print(f"- {bots[0]} vs {bots[1]}: mean turns {df.turns.mean():.1f} (median {df.turns.median():.0f}), "
              f"at the turn cap {(df.end_reason == 'turn_limit').mean():.1%}, first seat wins "
              f"{(df.winner == 'first').mean():.1%}, draws {(df.winner == 'draw').mean():.1%}, "
              f"actions per game {df.actions.mean():.0f}")


def _tree_rss(proc) -> int:
    import psutil

    total = 0
    try:
        root = psutil.Process(proc.pid)
        for p in [root, *root.children(recursive=True)]:
            try:
                total += p.memory_info().rss
            except psutil.Error:
                pass
    except psutil.Error:
        pass
    return total


def full_sweep(games: int, workers: int) -> None:
    """Run ``simkit sweep`` over the whole base scenario and print time and memory."""
    sc = simkit.load_scenario(BASE)
    n = len(sc.decks) ** 2 * games
    try:
        import psutil  # noqa: F401

        sample = True
    except ImportError:
        sample = False
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "sweep"
        cmd = [sys.executable, "-m", "simkit", "sweep", str(BASE), "--games", str(games), "--workers", str(workers),
               "--out", str(out)]
        print(f"## full sweep: {len(sc.decks)} decks, {len(sc.decks) ** 2} ordered pairs x {games} = {n} games, "
              f"{workers} workers, bots {sc.data['sweep']['bots']}")
        print(f"- command: PYTHONPATH=$PWD python {' '.join(cmd[1:]).replace(str(ROOT) + '/', '')}")
        load = os.getloadavg()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t = time.perf_counter()
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        peak = 0
        while proc.poll() is None:
            if sample:
                peak = max(peak, _tree_rss(proc))
            time.sleep(0.2)
        wall = time.perf_counter() - t
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        err = proc.stderr.read()
        if proc.returncode != 0:
            print(f"- sweep failed ({proc.returncode}): {err[-500:]}")
            return
        rows = len(load_results(out))
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        print(f"- wall time {wall:.1f} s ({wall / 60:.2f} min) for {rows} result rows; "
              f"CPU time {cpu:.1f} s ({1000 * cpu / n:.2f} ms per game); load average before "
              f"{load[0]:.1f} on {os.cpu_count()} cores")
        if sample:
            print(f"- peak resident memory of the process tree {peak / 2**20:.0f} MiB")
        print(f"- largest single process peak {after.ru_maxrss / 1024:.0f} MiB")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1000, help="games per seat order / pairing (default 1000)")
    ap.add_argument("--sweep-games", type=int, default=10, help="games per ordered pair in the sweep (default 10)")
    ap.add_argument("--workers", type=int, default=2, help="sweep worker processes (default 2)")
    ap.add_argument("--no-sweep", action="store_true", help="skip the full sweep")
    args = ap.parse_args()
    sc = simkit.load_scenario(BASE)
    bots_against_random(sc, args.games)
    game_length(sc, args.games)
    if not args.no_sweep:
        full_sweep(args.sweep_games, args.workers)


if __name__ == "__main__":
    main()
