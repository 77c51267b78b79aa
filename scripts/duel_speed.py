"""Time Card Duel games per core: `PYTHONPATH=$PWD python scripts/duel_speed.py [games] [bots]`.

Plays ``games`` games (default 2000) over random ordered deck pairs of the base scenario in one
process, after a warm-up that compiles the kernels, and prints milliseconds per game, mean turns,
share of games at the turn cap and the win split. Wall time includes waiting for the CPU on
a shared machine; CPU time does not.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

import simkit
from simkit.games.duel.batch import play_batch

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    bots = tuple(sys.argv[2].split(",")) if len(sys.argv) > 2 else ("aggro", "control")
    sc = simkit.load_scenario(ROOT / "scenarios" / "duel" / "base.toml")
    rng = np.random.default_rng(0)
    decks = list(sc.decks)
    first = [decks[i] for i in rng.integers(0, len(decks), games)]
    second = [decks[i] for i in rng.integers(0, len(decks), games)]
    play_batch(sc, first[:4], second[:4], list(range(4)), bots)  # compile
    t, c = time.perf_counter(), time.process_time()
    out = play_batch(sc, first, second, list(range(games)), bots)
    dt, cpu = time.perf_counter() - t, time.process_time() - c
    turns = np.array(out["turns"])
    cap = np.mean(np.array(out["end_reason"]) == "turn_limit")
    wins = {w: out["winner"].count(w) for w in ("first", "second", "draw")}
    print(f"{games} games {bots[0]} vs {bots[1]}: {1000 * dt / games:.3f} ms/game wall, "
          f"{1000 * cpu / games:.3f} ms/game CPU, "
          f"mean turns {turns.mean():.1f}, at cap {cap:.1%}, actions/game {np.mean(out['actions']):.0f}, {wins}")


if __name__ == "__main__":
    main()
