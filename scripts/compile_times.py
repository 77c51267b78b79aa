"""Where a fresh install's first run spends its time: numba's compile, per game and per command, kernel by kernel.

    python scripts/compile_times.py                       # every game's quick sweep, cold then warm
    python scripts/compile_times.py krypton --commands sweep,play
    python scripts/compile_times.py --write               # also refresh simkit/commands/compile_times.json

For each game and command, in fresh processes: once with ``NUMBA_CACHE_DIR`` pointed at an empty folder (a fresh
install: every kernel compiles), then again on the cache that run left (what every later run pays). Each run
records its wall and CPU time (the process and its children) and numba's compile events (``numba:compile``: a
kernel compiled because its on-disk cache missed), each kernel's own compile time (its nested compiles taken
out) and whether numba can cache it at all. The commands: ``sweep`` (``simkit sweep scenarios/<game>/quick.toml
--workers 1``, the first answer a newcomer waits for), ``play`` (one game step by step, with its text log), and
``check`` (``simkit check ... --profile ci``). One JSON line per run, with the machine's load average beside it
(the figures are of the load: on a busy machine the wall time is mostly waiting).

Forks a sweep's warm-up starts to compile an engine's other half (a game's ``compile_parts``) are counted in
``cpu_s`` (the children's CPU), not in ``compile_cpu_s`` nor the kernels (this process's compile events only,
which is what the progress line counts).

``--write`` stores, per game and command, every kernel's own compile CPU seconds of the cold run into
``simkit/commands/compile_times.json``: the figures the compile progress line reads (its share done and time
left come from them and from the pace of the run in progress, never from a guess).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("miracle", "duel", "krypton", "magic")
TABLE = ROOT / "simkit" / "commands" / "compile_times.json"
PLAY = {"miracle": ("HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"),
        "duel": ("Dagger+Longbow:Frost,Mend,Rage", "Greataxe+Spear:Reflect,ShadowBolt,Venom"),
        "krypton": ("Archer+Knight", "Knight+Warrior"),
        "magic": ("Orc:Goblin*6,OrcInfantry*3", "Elf:Archer*4,Sprite*5")}

#: runs in the child: records numba's compile events around one simkit command
CHILD = r'''
import json, sys, time
from numba.core import event
events, stack = [], []
class L(event.Listener):
    def on_start(self, ev):
        d = ev.data["dispatcher"]
        stack.append([f"{d.py_func.__module__}:{d.py_func.__qualname__}", type(d._cache).__name__,
                      time.perf_counter(), time.process_time(), 0.0])
    def on_end(self, ev):
        name, cache, w0, c0, inner = stack.pop()
        cpu = time.process_time() - c0
        if stack:
            stack[-1][4] += cpu
        events.append({"kernel": name, "cache": cache, "cpu_s": cpu, "own_cpu_s": cpu - inner,
                       "wall_s": time.perf_counter() - w0, "depth": len(stack)})
event.register("numba:compile", L())
from simkit.cli import main
status = main(sys.argv[2:])
json.dump({"status": status, "events": events}, open(sys.argv[1], "w"))
'''


def argv_of(game: str, command: str, out: Path) -> list[str]:
    """The simkit command line of ``command`` for ``game``."""
    scenario = f"scenarios/{game}/quick.toml"
    if command == "sweep":
        return ["sweep", scenario, "--workers", "1", "--out", str(out / "sweep"), "--overwrite"]
    if command == "play":
        return ["play", scenario, *PLAY[game], "--seed", "1", "--json", str(out / "game.json")]
    if command == "check":
        return ["check", scenario, "--profile", "ci"]
    raise ValueError(command)


def run(game: str, command: str, cache: Path, out: Path) -> dict:
    """One run of the command in a fresh process on the numba cache ``cache``: wall, CPU, compile events."""
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    record = out / "events.json"
    before = os.times()
    wall = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", CHILD, str(record), *argv_of(game, command, out)], cwd=ROOT, env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - wall
    after = os.times()
    if done.returncode != 0:
        raise SystemExit(f"{game} {command}: exit {done.returncode}: {done.stderr.strip()[-400:]}")
    got = json.loads(record.read_text())
    ev = got["events"]
    kernels: dict[str, float] = {}
    for e in ev:
        kernels[e["kernel"]] = kernels.get(e["kernel"], 0.0) + e["own_cpu_s"]
    return {"wall_s": wall, "cpu_s": (after.children_user + after.children_system)
            - (before.children_user + before.children_system),
            "compile_cpu_s": sum(e["own_cpu_s"] for e in ev), "compiles": len(ev),
            "uncachable": sorted({e["kernel"] for e in ev if e["cache"] == "NullCache"}),
            "kernels": dict(sorted(kernels.items(), key=lambda kv: -kv[1]))}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games", nargs="*", default=list(GAMES))
    p.add_argument("--commands", default="sweep", help="comma list of sweep, play, check (default sweep)")
    p.add_argument("--write", action="store_true", help="store the cold runs' kernel figures for the progress line")
    p.add_argument("--json", dest="json_out", help="also write every run's figures here")
    a = p.parse_args(argv)
    table = json.loads(TABLE.read_text()) if TABLE.exists() else {}
    stamp = None
    if a.json_out:  # the provenance of the sources measured, taken before --write changes the table in simkit/
        sys.path.insert(0, str(ROOT))
        from simkit.core.provenance import provenance

        stamp = provenance("scripts/compile_times.py", "python scripts/compile_times.py "
                           + " ".join(argv if argv is not None else sys.argv[1:]))
    rows = []
    for game in a.games:
        for command in a.commands.split(","):
            with tempfile.TemporaryDirectory() as tmp:
                cache, out = Path(tmp) / "numba", Path(tmp) / "out"
                cache.mkdir()
                out.mkdir()
                load = os.getloadavg()[0]
                cold = run(game, command, cache, out)
                warm = run(game, command, cache, out)
            row = {"game": game, "command": command, "load_before": round(load, 1),
                   "load_after": round(os.getloadavg()[0], 1), "cores": os.cpu_count(),
                   "cold": {k: v for k, v in cold.items() if k != "kernels"}, "warm": warm,
                   "top_kernels": dict(list(cold["kernels"].items())[:8])}
            rows.append(row)
            print(json.dumps(row), flush=True)
            table.setdefault(game, {})[command] = {k: round(v, 3) for k, v in cold["kernels"].items()}
    if a.write:
        TABLE.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n")
        print(f"written: {TABLE.relative_to(ROOT)}")
    if a.json_out:
        Path(a.json_out).write_text(json.dumps({**stamp, "runs": rows}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
