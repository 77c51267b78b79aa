"""Krypton Tower War per game, two checkouts side by side in one run, one core each.

    PYTHONPATH=$PWD python scripts/krypton_speed.py --old /work/ref-krypton [--games 48] [--rounds 3]

``--old`` is a checkout of the engine to compare with (e.g. the plain-Python engine before issue 29:
``git worktree add /work/ref-krypton 3dc443a``); ``--new`` defaults to this checkout. Each timing runs in
a fresh process with that checkout first on ``PYTHONPATH`` (simkit is imported from it), plays the same
games (``--games`` balanced mirrors over the loadout pairs ``i % 6`` / ``(5 i + 1) % 6`` with seed ``i``,
and as many games of ``random`` bots) after one warm-up game (the compiled engine loads its numba cache
there), and reports CPU milliseconds per game (``time.process_time``: time waiting for a shared CPU is not
counted). The two checkouts alternate ``--rounds`` times; the figures are the medians. The mirrors'
winners, rounds and actions are printed too: the rule fixes of issue 29 change some games, the engines do
not otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, sys, time
from simkit.scenario import load_scenario
from simkit.games.krypton.batch import play_batch
from simkit.games.krypton.tables import all_decks
sc = load_scenario(sys.argv[1])
games, bots = int(sys.argv[2]), tuple(sys.argv[3].split(","))
L = all_decks(sc.rules)
first = [L[i % len(L)] for i in range(games)]
second = [L[(5 * i + 1) % len(L)] for i in range(games)]
play_batch(sc, first[:1], second[:1], [10 ** 6], bots)  # warm-up (the numba cache loads here)
t = time.process_time()
r = play_batch(sc, first, second, list(range(games)), bots)
cpu = time.process_time() - t
print(json.dumps({"cpu": cpu, "winner": r["winner"], "turns": r["turns"], "actions": r["actions"]}))
"""


def run(checkout: Path, scenario: Path, games: int, bots: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(checkout))
    out = subprocess.run([sys.executable, "-c", CHILD, str(scenario), str(games), bots], env=env, cwd=checkout,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--old", type=Path, required=True, help="checkout of the engine to compare with")
    ap.add_argument("--new", type=Path, default=ROOT, help="checkout measured against it (default: this one)")
    ap.add_argument("--games", type=int, default=48, help="games per timing (default 48)")
    ap.add_argument("--rounds", type=int, default=3, help="alternating timings per checkout (default 3)")
    a = ap.parse_args()
    scenario = ROOT / "scenarios" / "krypton" / "base.toml"
    for bots in ("balanced,balanced", "random,random"):
        times: dict[str, list[float]] = {"old": [], "new": []}
        last = {}
        for _ in range(a.rounds):
            for name, path in (("old", a.old), ("new", a.new)):
                r = run(path, scenario, a.games, bots)
                times[name].append(1000 * r["cpu"] / a.games)
                last[name] = r
        old, new = statistics.median(times["old"]), statistics.median(times["new"])
        same = sum(1 for i in range(a.games) if (last["old"]["winner"][i], last["old"]["turns"][i]) ==
                   (last["new"]["winner"][i], last["new"]["turns"][i]))
        print(f"{bots}: {a.games} games x {a.rounds} runs; old {old:.2f} ms/game CPU "
              f"(runs {', '.join(f'{t:.2f}' for t in times['old'])}), new {new:.3f} ms/game CPU "
              f"(runs {', '.join(f'{t:.3f}' for t in times['new'])}): {old / new:.1f}x faster; "
              f"actions/game old {statistics.mean(last['old']['actions']):.0f}, "
              f"new {statistics.mean(last['new']['actions']):.0f}; same winner and rounds in {same}/{a.games}")


if __name__ == "__main__":
    main()
