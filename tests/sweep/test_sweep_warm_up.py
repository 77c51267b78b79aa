"""A sweep compiles its engine once, in its main process, before its workers fork: one game per bot pairing is played
there first (its result thrown away), so on a cold numba cache the workers inherit the kernels instead of each
compiling them. The games the sweep writes are the very same."""

from __future__ import annotations

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
