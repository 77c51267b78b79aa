"""A sweep compiles its engine once, in its main process, before its workers fork: one game per bot pairing is played
there first (its result thrown away), so on a cold numba cache the workers inherit the kernels instead of each
compiling them. The games the sweep writes are the very same."""

from __future__ import annotations

import pytest

import simkit
import simkit.runner
from simkit.sweep import RunOptions, SweepSettings, execute, plan_sweep, run_sweep

QUICK = "scenarios/miracle/quick.toml"


def test_warm_up_plays_one_game_per_bot_pairing_once_per_process(monkeypatch):
    sc = simkit.load_scenario(QUICK)
    plan = plan_sweep(sc, SweepSettings(games=1, decks=["HolyLight:*"], panel=("balanced", "rush"), chunk_size=1))
    chunks = [plan.chunk(k) for k in range(plan.chunk_count)]
    played = []
    real = simkit.runner.play_games

    def counting(*args, **kw):
        played.append(kw["bots"])
        return real(*args, **kw)

    monkeypatch.setattr(simkit.runner, "play_games", counting)
    monkeypatch.setattr(execute, "_WARM", set())
    execute.warm_up(chunks)
    assert played == [("balanced", "balanced"), ("rush", "rush")]  # 8 chunks, 2 pairings: 2 games
    execute.warm_up(chunks)
    assert len(played) == 2  # warmed already in this process


def test_a_sweep_on_two_workers_after_the_warm_up_writes_the_games_of_one_worker(tmp_path):
    sc = simkit.load_scenario(QUICK)
    plan = plan_sweep(sc, SweepSettings(games=1, decks=["HolyLight:*"], chunk_size=1))
    one = run_sweep(sc, plan, tmp_path / "one", RunOptions(workers=1, progress=False))
    two = run_sweep(sc, plan, tmp_path / "two", RunOptions(workers=2, progress=False))
    a, b = simkit.load_results(one), simkit.load_results(two)
    assert a.drop(columns=[c for c in a.columns if c.endswith("seconds")], errors="ignore").equals(
        b.drop(columns=[c for c in b.columns if c.endswith("seconds")], errors="ignore"))


def _mark(folder, name):
    """A part that leaves a file named ``name`` holding the id of the process that ran it."""
    import os

    def part():
        (folder / name).write_text(str(os.getpid()))

    return part


def test_compile_side_by_side_runs_every_part_once_the_first_here_the_others_in_forks(tmp_path):
    """Each part runs once; the first in this process, the second in a fork of its own on a machine of 2+ cores."""
    import os

    execute.compile_side_by_side([_mark(tmp_path, "a"), _mark(tmp_path, "b")])
    assert (tmp_path / "a").read_text() == str(os.getpid())
    ran_b = (tmp_path / "b").read_text()
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert (ran_b != str(os.getpid())) == (cores > 1)


def test_a_part_that_fails_in_a_fork_is_left_to_this_process_without_an_error(tmp_path):
    """A fork's failure is silent (this process compiles what it left when it plays); the other parts still run."""

    def broken():
        raise RuntimeError("no cache here")

    execute.compile_side_by_side([_mark(tmp_path, "a"), broken])
    assert (tmp_path / "a").exists()


CHILD = """
import collections, sys
from numba.core import event
import simkit
from simkit.sweep import SweepSettings, execute, plan_sweep
count = collections.Counter()
class L(event.Listener):
    def on_start(self, ev):
        pass
    def on_end(self, ev):
        count[ev.data["dispatcher"].py_func.__qualname__] += 1
event.register("numba:compile", L())
sc = simkit.load_scenario(sys.argv[1])
plan = plan_sweep(sc, SweepSettings(games=1, chunk_size=1))
execute.warm_up([plan.chunk(0)])
print(*(f"{k}={count[k]}" for k in sys.argv[2:]))
"""


@pytest.mark.slow
@pytest.mark.parametrize("scenario, compiled_here", [
    (QUICK, {"decide_one": 1, "step_one": 0, "turn_start": 0, "start_games": 0, "play": 1}),
    ("scenarios/krypton/quick.toml", {"legal": 1, "apply": 1, "choose_code": 0, "turn": 0, "play_loop": 1}),
])
def test_compile_parts_compile_what_the_sweep_plays_so_this_process_compiles_no_half_twice(tmp_path, scenario,
                                                                                            compiled_here):
    """On an empty numba cache, a sweep's warm-up compiles one half here once and loads the half the fork compiled:
    the parts give the kernels the very argument types the whole-game loop gives them (a mismatch would compile a
    second specialisation here)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "numba")}
    got = subprocess.run([sys.executable, "-c", CHILD, scenario, *compiled_here], env=env, capture_output=True,
                         text=True, check=True)
    assert got.stdout.split() == [f"{k}={n}" for k, n in compiled_here.items()]


def test_only_two_utility_bots_have_miracle_compile_parts():
    """A sweep between utility bots compiles in two halves; the random bot plays step by step and has none."""
    sc = simkit.load_scenario(QUICK)
    parts = sc.game.capability("compile_parts")
    assert len(parts(("balanced", "rush"))) == 2
    assert parts(("balanced", "random")) == []
