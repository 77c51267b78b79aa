"""Time Card Duel games per core: `PYTHONPATH=$PWD python scripts/duel_speed.py [games] [bots] [runs]`.

Plays ``games`` games (default 2000) over random ordered deck pairs of the base scenario in one
process, after a warm-up that compiles (or loads) the kernels, ``runs`` times (default 1), and prints
milliseconds per game, microseconds of CPU per action (the fastest and the median run: the figure to
compare two versions by, side by side), mean turns, share of games at the turn cap and the win split.
Wall time includes waiting for the CPU on a shared machine; CPU time does not. Uses only
``simkit.games.duel.batch.play_batch`` and the scenario, so it runs on any checkout since the Duel had a
batch engine.
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
    runs = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    sc = simkit.load_scenario(ROOT / "scenarios" / "duel" / "base.toml")
    rng = np.random.default_rng(0)
    decks = list(sc.decks)
    first = [decks[i] for i in rng.integers(0, len(decks), games)]
    second = [decks[i] for i in rng.integers(0, len(decks), games)]
    play_batch(sc, first[:4], second[:4], list(range(4)), bots)  # compile
    timed = []
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        out = play_batch(sc, first, second, list(range(games)), bots)
        timed.append((time.process_time() - c, time.perf_counter() - t))
    cpu = sorted(c for c, _ in timed)
    dt = sorted(w for _, w in timed)[len(timed) // 2]
    actions = int(np.sum(out["actions"]))
    turns = np.array(out["turns"])
    cap = np.mean(np.array(out["end_reason"]) == "turn_limit")
    wins = {w: out["winner"].count(w) for w in ("first", "second", "draw")}
    print(f"{games} games {bots[0]} vs {bots[1]}: {1000 * dt / games:.3f} ms/game wall, "
          f"{1000 * cpu[len(cpu) // 2] / games:.3f} ms/game CPU, "
          f"{1e6 * cpu[0] / actions:.3f} us/action CPU fastest, {1e6 * cpu[len(cpu) // 2] / actions:.3f} median "
          f"of {runs}, mean turns {turns.mean():.1f}, at cap {cap:.1%}, actions/game {actions / games:.0f}, {wins}")


if __name__ == "__main__":
    main()
