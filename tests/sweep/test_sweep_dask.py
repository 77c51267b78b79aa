"""The Dask executor: a chunk's key names what decides its games, and a result received is released at once.

(A worker lost mid-run, and workers that keep dying: tests/explore/test_explore_cluster.py, with worker processes.)
"""

from __future__ import annotations

import time

import pandas as pd
import pytest

import simkit
from simkit.sweep import RunOptions, SweepSettings, load_results, plan_sweep, run_sweep
from simkit.sweep.execute import _dask_key, _dask_results

distributed = pytest.importorskip("distributed")

TWO = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"]


def plan(sc):
    """Two decks, 4 ordered pairs x 2 games, in three chunks."""
    return plan_sweep(sc, SweepSettings(games=2, decks=TWO, chunk_size=3))


@pytest.fixture()
def cluster():
    """A LocalCluster of two worker threads in this process."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as cl:
        yield cl


def test_a_patch_sharing_the_scheduler_with_its_base_gets_its_own_games(quick, short_scenario, tmp_path, cluster):
    """A base sweep holds its chunks on the cluster (the same chunk indices and seeds as its patch's) while the patch
    (10 turns instead of 12) is swept there: the patch's folder holds the patch's games, as played in one process
    (keys of chunk index and first seed alone gave the patch the base's results)."""
    path = tmp_path / "patch.toml"
    path.write_text(f'extends = "{short_scenario}"\nname = "quick, 10 turns"\n[rules]\nturn_limit = 10\n')
    patch = simkit.load_scenario(path)
    base_chunks = [plan(quick).chunk(k) for k in range(plan(quick).chunk_count)]
    assert [c.seeds for c in base_chunks] == [plan(patch).chunk(k).seeds for k in range(plan(patch).chunk_count)]
    base = _dask_results(base_chunks, cluster.scheduler_address, quick.hash)
    try:
        next(base)  # the base run goes on holding its other chunks
        run_sweep(patch, plan(patch), tmp_path / "patch", RunOptions(scheduler=cluster.scheduler_address))
    finally:
        base.close()
    run_sweep(patch, plan(patch), tmp_path / "local", RunOptions(workers=1))
    pd.testing.assert_frame_equal(load_results(tmp_path / "patch"), load_results(tmp_path / "local"))
    assert _dask_key(base_chunks[1], quick.hash) != _dask_key(plan(patch).chunk(1), patch.hash)


def test_a_result_received_is_released_by_the_cluster_at_once(quick, cluster):
    """While the run goes on, the scheduler forgets a chunk as soon as its rows are received: workers do not hold a
    round's results till its end, and a worker lost later plays none of them again."""
    chunks = [plan(quick).chunk(k) for k in range(plan(quick).chunk_count)]
    results = _dask_results(chunks, cluster.scheduler_address, quick.hash)
    try:
        first = next(results)
        key = next(_dask_key(c, quick.hash) for c in chunks if c.seeds[0] == first["seed"].iloc[0])
        deadline = time.monotonic() + 10
        while key in cluster.scheduler.tasks and time.monotonic() < deadline:
            time.sleep(0.02)
        assert key not in cluster.scheduler.tasks
        assert len(list(results)) == len(chunks) - 1
    finally:
        results.close()
