"""One benchmark on two checkouts, side by side: how much slower or faster the new one plays.

    python scripts/bench_vs.py --old ../old [--new .] [--runs 5] [--json FILE] -- BENCH_ARGS

``BENCH_ARGS`` are those of ``python scripts/bench.py`` (``simkit bench``) in its games mode with one batch, e.g.
``games --scenario scenarios/miracle/quick.toml --bots search-1,rush --batches 256 --games 256``. Each checkout runs
its own ``scripts/bench.py`` from its own folder with itself first on ``PYTHONPATH`` (make the old one with
``git worktree add ../old REV``): one warm-up run each first, not counted (numba compiles or loads its cache), then
``--runs`` runs each, new and old in turn, so a drift of the machine's speed meets both. Of each run: the games'
own seconds as the benchmark prints them (its ``seconds``: the games alone, process start, loading and the
warm-up game apart) and the CPU seconds of the whole process with its children. The ratio new/old is taken pair
by pair; every figure is given as median, min and max, with the machine's load average (1 minute) before and
after. ``--json`` writes them with their provenance (:func:`simkit.core.provenance.provenance`) for a findings
page (``python scripts/findings.py`` renders its ``bench_vs`` block).
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


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_once(checkout: Path, bench_args: list[str]) -> dict:
    """One run of ``scripts/bench.py BENCH_ARGS`` in ``checkout``: its games line's ``seconds`` and the process's CPU.

    Raises:
        RuntimeError: the benchmark failed or printed no games line.
    """
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    before = _children_cpu()
    done = subprocess.run([sys.executable, "scripts/bench.py", *bench_args], cwd=checkout, env=env,
                          capture_output=True, text=True)
    cpu = _children_cpu() - before
    if done.returncode != 0:
        raise RuntimeError(f"{checkout}: scripts/bench.py failed: {done.stderr.strip().splitlines()[-1:]}")
    lines = [json.loads(x) for x in done.stdout.splitlines() if x.startswith("{")]
    games = [x for x in lines if x.get("mode") == "games"]
    if len(games) != 1:
        raise RuntimeError(f"{checkout}: scripts/bench.py printed {len(games)} games lines (give one batch)")
    return {"seconds": games[0]["seconds"], "cpu_s": round(cpu, 3), "actions_per_game": games[0]["actions_per_game"]}


def spread(values: list[float]) -> dict:
    """``{"median", "min", "max"}`` of ``values``."""
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def compare(new: Path, old: Path, bench_args: list[str], runs: int) -> dict:
    """Warm both checkouts, then ``runs`` pairs of runs, new then old; the figures of each and new/old per pair."""
    for checkout in (new, old):
        run_once(checkout, bench_args)
    load_before = os.getloadavg()[0]
    pairs = [{"new": run_once(new, bench_args), "old": run_once(old, bench_args)} for _ in range(runs)]
    load_after = os.getloadavg()[0]
    figures = {}
    for name in ("seconds", "cpu_s"):
        figures[name] = {side: spread([p[side][name] for p in pairs]) for side in ("new", "old")}
        figures[name]["ratio"] = spread([p["new"][name] / p["old"][name] for p in pairs])
    same = all(p["new"]["actions_per_game"] == p["old"]["actions_per_game"] for p in pairs)
    return {"bench": shlex.join(["python", "scripts/bench.py", *bench_args]), "runs": runs, "pairs": pairs,
            "figures": figures, "same_actions": same, "load_before": round(load_before, 2),
            "load_after": round(load_after, 2), "cores": os.cpu_count()}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    cut = argv.index("--") if "--" in argv else len(argv)
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--old", required=True, type=Path, help="the checkout to compare with")
    p.add_argument("--new", type=Path, default=ROOT, help="the checkout measured (default: this one)")
    p.add_argument("--runs", type=int, default=5, help="runs of each checkout after its warm-up (default 5)")
    p.add_argument("--json", type=Path, help="write the figures with their provenance here")
    a = p.parse_args(argv[:cut])
    bench_args = argv[cut + 1:]
    if not bench_args:
        p.error("give the benchmark's arguments after --, e.g. -- games --batches 256 --games 256")
    if a.runs < 1:
        p.error(f"--runs must be at least 1, got {a.runs}")
    for checkout in (a.new, a.old):
        if not (checkout / "scripts" / "bench.py").is_file():
            p.error(f"{checkout}: no scripts/bench.py (give a checkout of simkit)")
    result = compare(a.new.resolve(), a.old.resolve(), bench_args, a.runs)
    old_commit, old_dirty = source_commit(a.old.resolve())
    new_commit, new_dirty = source_commit(a.new.resolve())
    result.update(old_commit=old_commit, old_dirty=old_dirty, new_commit=new_commit, new_dirty=new_dirty)
    print(json.dumps(result["figures"]))
    if a.json:
        command = shlex.join(["python", "scripts/bench_vs.py", *argv])
        doc = {**provenance("scripts/bench_vs.py", command), **result}
        a.json.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
