"""The games of one benchmark on two checkouts, side by side: how much slower or faster the new one plays them.

    python scripts/bench_vs.py --old ../old [--new .] [--runs 5] [--json FILE] [--scenario S] [--bots A,B]
                               [--batch B] [--games N]

Each run is a fresh process with the checkout first on ``PYTHONPATH`` and its folder as the working folder, which
plays the games of ``python scripts/bench.py games --scenario S --bots A,B --batches B --games N`` (the same deck
pairs and seeds: ``simkit.sweep.bench``'s choice from seed 0, through the public ``play_games``): one game first,
untimed (numba loads its cache, or compiles), then the ``N`` games, timed by the wall clock (what ``bench.py``
prints as ``seconds``) and by the process's own CPU clock (``time.process_time``: time spent waiting for a shared
core is not counted, so it is the figure that compares on a busy machine). The whole process's CPU (start,
imports and loading included) is read from the operating system too. One warm-up run of each checkout first, not
counted; then ``--runs`` runs each, new and old in turn, so a drift of the machine's speed meets both. The ratio
new/old is taken pair by pair; every figure is given as median, min and max, with the load average (1 minute)
before and after. ``--json`` writes them with their provenance (:func:`simkit.core.provenance.provenance`) for a
findings page (``python scripts/findings.py`` renders its ``bench_vs`` block).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shlex
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from simkit.core.provenance import provenance, source_commit  # noqa: E402

CHILD = r"""
import json, sys, time
from simkit.core.rng import derive_seed
from simkit.runner import play_games
from simkit.scenario import load_scenario

path, bots, batch, games = sys.argv[1], tuple(sys.argv[2].split(",")), int(sys.argv[3]), int(sys.argv[4])
sc = load_scenario(path)
pick = [derive_seed(0, "deck", i) % len(sc.decks) for i in range(2 * games)]  # as simkit.sweep.bench chooses
first, second = [sc.decks[i] for i in pick[:games]], [sc.decks[i] for i in pick[games:]]
seeds = [derive_seed(0, "game", i) for i in range(games)]
play_games(sc, first[:1], second[:1], bots=bots, seeds=[derive_seed(0, "warm-up")], batch_size=1)
wall, cpu = time.perf_counter(), time.process_time()
df = play_games(sc, first, second, bots=bots, seeds=seeds, batch_size=batch)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
print(json.dumps({"seconds": round(wall, 3), "games_cpu_s": round(cpu, 3),
                  "actions": int(df["actions"].sum()), "turns": int(df["turns"].sum())}))
"""

FIGURES = ("seconds", "games_cpu_s", "process_cpu_s")


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_once(checkout: Path, game: list[str]) -> dict:
    """One run of the games in a fresh process of ``checkout`` (``game``: scenario, bots, batch, games).

    Raises:
        RuntimeError: the process failed.
    """
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    before = _children_cpu()
    done = subprocess.run([sys.executable, "-c", CHILD, *game], cwd=checkout, env=env, capture_output=True,
                          text=True)
    cpu = _children_cpu() - before
    if done.returncode != 0:
        raise RuntimeError(f"{checkout}: the games failed: {done.stderr.strip().splitlines()[-1:]}")
    return {**json.loads(done.stdout.splitlines()[-1]), "process_cpu_s": round(cpu, 3)}


def spread(values: list[float]) -> dict:
    """``{"median", "min", "max"}`` of ``values``."""
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def compare(new: Path, old: Path, game: list[str], runs: int) -> dict:
    """Warm both checkouts, then ``runs`` pairs of runs, new then old; the figures of each and new/old per pair."""
    for checkout in (new, old):
        run_once(checkout, game)
    load_before = os.getloadavg()[0]
    pairs = [{"new": run_once(new, game), "old": run_once(old, game)} for _ in range(runs)]
    load_after = os.getloadavg()[0]
    figures = {}
    for name in FIGURES:
        figures[name] = {side: spread([p[side][name] for p in pairs]) for side in ("new", "old")}
        figures[name]["ratio"] = spread([p["new"][name] / p["old"][name] for p in pairs])
    same = all((p["new"]["actions"], p["new"]["turns"]) == (p["old"]["actions"], p["old"]["turns"]) for p in pairs)
    scenario, bots, batch, games = game
    bench = shlex.join(["python", "scripts/bench.py", "games", "--scenario", scenario, "--bots", bots, "--batches",
                        batch, "--games", games])
    return {"bench": bench, "runs": runs, "pairs": pairs, "figures": figures, "same_games": same,
            "load_before": round(load_before, 2), "load_after": round(load_after, 2), "cores": os.cpu_count()}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--old", required=True, type=Path, help="the checkout to compare with")
    p.add_argument("--new", type=Path, default=ROOT, help="the checkout measured (default: this one)")
    p.add_argument("--runs", type=int, default=5, help="runs of each checkout after its warm-up (default 5)")
    p.add_argument("--scenario", default="scenarios/miracle/quick.toml", help="the scenario, from each checkout")
    p.add_argument("--bots", default="search-1,rush", help="the first and second seat's bots")
    p.add_argument("--batch", type=int, default=256, help="the batch size (default 256)")
    p.add_argument("--games", type=int, default=256, help="the games timed in each run (default 256)")
    p.add_argument("--json", type=Path, help="write the figures with their provenance here")
    a = p.parse_args(argv)
    if min(a.runs, a.batch, a.games) < 1:
        p.error(f"--runs, --batch and --games must be at least 1, got {a.runs}, {a.batch}, {a.games}")
    for checkout in (a.new, a.old):
        if not (checkout / a.scenario).is_file():
            p.error(f"{checkout}: no {a.scenario} (give a checkout of simkit and a scenario file in it)")
    game = [a.scenario, a.bots, str(a.batch), str(a.games)]
    result = compare(a.new.resolve(), a.old.resolve(), game, a.runs)
    old_commit, old_dirty = source_commit(a.old.resolve())
    new_commit, new_dirty = source_commit(a.new.resolve())
    result.update(old_commit=old_commit, old_dirty=old_dirty, new_commit=new_commit, new_dirty=new_dirty)
    print(json.dumps(result["figures"]))
    if a.json:
        doc = {**provenance("scripts/bench_vs.py", shlex.join(["python", "scripts/bench_vs.py", *argv])), **result}
        a.json.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
