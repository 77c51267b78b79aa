"""Throughput benchmarks: full games per second by batch size, and whole quick sweeps by workers.

Each measurement runs in a fresh child process so its peak memory (``ru_maxrss``) is its own.
Results are plain dicts, one per run, printed by ``simkit bench`` as JSON lines.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from simkit.core.rng import derive_seed
from simkit.scenario import load_scenario
from simkit.sweep import SweepSettings


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _games_run(scenario_path: str, batch: int, games: int, bots: tuple[str, str], seed: int) -> dict:
    from simkit.runner import play_games

    sc = load_scenario(scenario_path)
    pick = np.array([derive_seed(seed, "deck", i) % len(sc.decks) for i in range(2 * games)])
    first = [sc.decks[i] for i in pick[:games]]
    second = [sc.decks[i] for i in pick[games:]]
    seeds = [derive_seed(seed, "game", i) for i in range(games)]
    started = time.perf_counter()  # the first game loads (or compiles) the kernels: timed apart
    play_games(sc, first[:1], second[:1], bots=bots, seeds=[derive_seed(seed, "warm-up")], batch_size=1)
    warm_up = time.perf_counter() - started
    started = time.perf_counter()
    df = play_games(sc, first, second, bots=bots, seeds=seeds, batch_size=batch)
    seconds = time.perf_counter() - started
    return {
        "mode": "games",
        "batch": batch,
        "games": games,
        "warm_up_s": round(warm_up, 3),
        "seconds": round(seconds, 3),
        "games_per_s": round(games / seconds, 3),
        "actions_per_game": round(float(df["actions"].mean()), 1) if "actions" in df else None,
        "peak_rss_mb": round(_peak_rss_mb(), 1),
    }


def _sweep_run(scenario_path: str, workers: int, games_per_pair: int | None = None) -> dict:
    """Time ``simkit sweep`` of the scenario's whole plan (``games_per_pair`` when set) as a command,
    in a fresh results folder."""
    sc = load_scenario(scenario_path)
    from simkit.sweep import plan_sweep

    games = plan_sweep(sc, SweepSettings(games=games_per_pair)).total_games
    out = Path(tempfile.mkdtemp(prefix="simkit-bench-")) / "results"
    cmd = [sys.executable, "-m", "simkit", "sweep", scenario_path, "--workers", str(workers), "--out", str(out)]
    if games_per_pair is not None:
        cmd += ["--games", str(games_per_pair)]
    try:
        started = time.perf_counter()
        done = subprocess.run(cmd, capture_output=True, text=True)
        seconds = time.perf_counter() - started
    finally:
        shutil.rmtree(out.parent, ignore_errors=True)
    if done.returncode != 0:
        raise RuntimeError(f"simkit sweep failed: {done.stderr.strip()}")
    return {
        "mode": "sweep",
        "scenario": sc.name,
        "workers": workers,
        "games": games,
        "seconds": round(seconds, 3),
        "games_per_s": round(games / seconds, 3),
        "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1),
    }


def _in_child(func, *args) -> dict:
    """Run ``func(*args)`` in a fresh process and return its result (peak memory is the child's alone)."""
    ctx = mp.get_context("spawn")
    with ctx.Pool(1) as pool:
        return pool.apply(func, args)


def bench_games(scenario_path: str, batches=(1, 64, 512, 4096), games: int | None = None,
                bots=("balanced", "balanced"), seed: int = 0) -> list[dict]:
    """Full games per second at each batch size (``games`` per run; default: the batch size, at least 8).

    Each run first plays one game untimed but for ``warm_up_s``: the process loads the compiled
    kernels from numba's cache then (about 0.5 s), or compiles them after an install or a change.

    Args:
        scenario_path: the scenario file.
        batches: batch sizes to measure.
        games: games per run; default ``max(batch, 8)``.
        bots: the bots of the first and second seat.
        seed: chooses the random deck pairs and game seeds (the same for every run).
    """
    return [_in_child(_games_run, str(scenario_path), b, games or max(b, 8), tuple(bots), seed) for b in batches]


def bench_sweep(scenario_path: str, workers=(1, None), games_per_pair: int | None = None) -> list[dict]:
    """Seconds for the scenario's whole sweep with each worker count (``None``: all cores), at
    ``games_per_pair`` games per ordered pair when set (else the scenario's own)."""
    return [_in_child(_sweep_run, str(scenario_path), w or os.cpu_count() or 1, games_per_pair) for w in workers]


# The targets for this 2-core machine (docs: scripts/README.md, "Against the targets").
TARGET_GAMES_PER_S = 3000
TARGET_SPEEDUP = 50
TARGET_MEMORY_MB = 2048
TARGET_BIG_SWEEP = (640_000, 600)  # games, seconds


def targets(games_runs: list[dict], sweep: dict) -> dict:
    """Each target against what was measured: games/s of a full sweep on every core, batched over
    single, the sweep's peak memory, and the time a sweep of 640,000 games would take at that rate."""
    s = speedup(games_runs)
    rate = sweep["games_per_s"]
    big_games, big_limit = TARGET_BIG_SWEEP
    big_seconds = big_games / rate
    return {
        "summary": "targets",
        "sweep_games": sweep["games"],
        "workers": sweep["workers"],
        "games_per_s": rate,
        "games_per_s_met": rate >= TARGET_GAMES_PER_S,
        "batched_over_single": s.get("speedup"),
        "batched_over_single_met": bool(s) and s["speedup"] >= TARGET_SPEEDUP,
        "peak_rss_mb": sweep["peak_rss_mb"],
        "memory_met": sweep["peak_rss_mb"] < TARGET_MEMORY_MB,
        "sweep_640000_minutes": round(big_seconds / 60, 1),
        "sweep_640000_met": big_seconds < big_limit,
    }


def speedup(runs: list[dict]) -> dict:
    """Batched-over-single speed-up: games/s of the best batch divided by games/s at batch 1."""
    single = [r for r in runs if r.get("mode") == "games" and r["batch"] == 1]
    batched = [r for r in runs if r.get("mode") == "games" and r["batch"] > 1]
    if not single or not batched:
        return {}
    best = max(batched, key=lambda r: r["games_per_s"])
    return {
        "summary": "batched over single",
        "best_batch": best["batch"],
        "best_games_per_s": best["games_per_s"],
        "single_games_per_s": single[0]["games_per_s"],
        "speedup": round(best["games_per_s"] / single[0]["games_per_s"], 2),
    }
