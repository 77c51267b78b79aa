"""Magic War's engine time per action, warm: the figure to compare two versions by.

Usage (from a checkout; to compare two, run it on each, side by side, several times):

    PYTHONPATH=. python scripts/magic_speed.py [GAMES] [RUNS] [BOTS]

Plays the same GAMES games (default 240: the base pool's first-seat armies against its second-seat ones in
turn, seeds 0..GAMES-1, BOTS default ``balanced,balanced``) through the game interface's ``play_batch``, once
untimed (the kernels load or compile), then RUNS times (default 5), and prints one JSON line: the fastest and the
median run in microseconds of this process's CPU per action (CPU, not wall: on a shared machine a run waits for a
core), and the actions played (which must not change between versions that play the same games). Uses only the
public game interface, so it runs on any checkout.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import simkit

BASE = Path(__file__).resolve().parents[1] / "scenarios" / "magic" / "base.toml"


def main(games: int = 240, runs: int = 5, bots: str = "balanced,balanced") -> dict:
    """The fastest and median of ``runs`` timed runs of ``games`` games, in us of CPU per action."""
    sc = simkit.load_scenario(BASE)
    a, b = sc.game.seat_decks()
    firsts = [a[i % len(a)] for i in range(games)]
    seconds = [b[(7 * i + 3) % len(b)] for i in range(games)]
    seeds = list(range(games))
    pair = tuple(bots.split(","))

    def run() -> tuple[float, int]:
        started = time.process_time()
        out = sc.game.play_batch(firsts, seconds, seeds, pair)
        return time.process_time() - started, int(sum(out["actions"]))

    run()  # load or compile the kernels
    timed = [run() for _ in range(runs)]
    seconds_ = sorted(s for s, _ in timed)
    actions = timed[0][1]
    return {"games": games, "runs": runs, "bots": bots, "actions": actions,
            "fastest_us_per_action": round(1e6 * seconds_[0] / actions, 3),
            "median_us_per_action": round(1e6 * seconds_[len(seconds_) // 2] / actions, 3)}


if __name__ == "__main__":
    args = sys.argv[1:]
    print(json.dumps(main(int(args[0]) if args else 240, int(args[1]) if len(args) > 1 else 5,
                          args[2] if len(args) > 2 else "balanced,balanced")))
