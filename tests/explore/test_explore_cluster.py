"""An explore on a Dask cluster (issue 51): the whole-space settings (every deck raced, family-wise bounds, the
mixture's pairings from 2 games) give the one-process run's answer files, and a worker process killed (SIGKILL) with
chunks in flight costs no game and changes no result; workers that keep dying, or a scheduler lost mid-run, stop the
run with one line, and a resume finishes it with the same answers.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter

import dask
import pytest
from test_explore import outputs
from test_explore_whole_space import WHOLE, magic  # noqa: F401 - the small Magic War pool's fixture, reused

from simkit.explore import run_explore
from simkit.sweep import RunOptions, done_chunks, load_results, read_meta

distributed = pytest.importorskip("distributed")

#: the whole-space settings in two-game chunks: a round of 14 games is 7 chunks, several in flight on each worker
CLUSTER = dataclasses.replace(WHOLE, chunk_size=2)


@pytest.fixture(scope="module")
def local(magic, tmp_path_factory):  # noqa: F811 - the imported fixture, asked for by name
    """The whole-space explore of the small pool in two-game chunks, played in one process."""
    out = tmp_path_factory.mktemp("explore-local")
    run_explore(magic, out, CLUSTER, RunOptions(workers=1))
    return out


class LoseAWorker(distributed.diagnostics.plugin.SchedulerPlugin):
    """A scheduler plugin that kills (SIGKILL) one worker process of ``pids`` once: the first worker that finishes a
    chunk while it holds another (so that one is being played) and is given a third. It keeps what the scheduler did:
    the chunks in flight on the lost worker, the workers removed, and where every chunk was played."""

    def __init__(self, scheduler, pids: set[int]) -> None:
        self.scheduler, self.pids = scheduler, pids
        self.lost: dict | None = None
        self.removed: list[str] = []
        self.played: list[tuple[str, str]] = []  # (key, worker) of every chunk played, replays included

    def transition(self, key, start, finish, *args, stimulus_id: str = "", **kwargs) -> None:
        """Record a played chunk; kill the worker as said above, from the scheduler's own loop (so at that instant)."""
        if (start, finish) == ("processing", "memory"):
            self.played.append((key, kwargs["worker"]))
        if finish != "processing" or self.lost is not None or not stimulus_id.startswith("task-finished"):
            return
        ws = self.scheduler.tasks[key].processing_on
        if len(ws.processing) >= 2 and ws.pid in self.pids:
            self.lost = {"worker": ws.address, "pid": ws.pid, "in_flight": {t.key for t in ws.processing},
                         "held": {t.key for t in ws.has_what}, "played_before": len(self.played)}
            os.kill(ws.pid, signal.SIGKILL)

    def remove_worker(self, scheduler, worker: str, **kwargs) -> None:
        """Record a worker the scheduler removed."""
        self.removed.append(worker)


@contextlib.contextmanager
def two_worker_processes(tmp_path, **config):
    """A scheduler in this process (``config``: Dask settings for it) and two ``dask worker`` processes of one thread,
    without a nanny (a killed worker stays dead); yields (address, scheduler, worker processes) and ends the workers."""
    with dask.config.set(config), distributed.LocalCluster(
            n_workers=0, processes=False, protocol="tcp://", host="127.0.0.1", dashboard_address=":0") as cluster:
        workers = [subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", cluster.scheduler_address,
                                     "--no-nanny", "--nthreads", "1", "--no-dashboard", "--death-timeout", "60",
                                     "--local-directory", str(tmp_path / "dask")],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) for _ in range(2)]
        try:
            with distributed.Client(cluster.scheduler_address) as client:
                client.wait_for_workers(2, timeout=120)
            yield cluster.scheduler_address, cluster.scheduler, workers
        finally:
            for w in workers:
                if w.poll() is None:
                    w.kill()
                w.wait()


def test_the_whole_space_settings_on_a_dask_cluster_give_the_same_answers(magic, local, tmp_path):  # noqa: F811
    """``--search all --alpha 0.2 --population-games 2`` on a LocalCluster of two workers: the same rounds and
    byte-identical answer files as one process."""
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0") as cl:
        run_explore(magic, tmp_path, CLUSTER, RunOptions(scheduler=cl.scheduler_address))
    assert outputs(tmp_path) == outputs(local)
    assert [r["counts"] for r in read_meta(tmp_path)["rounds"]] == [r["counts"] for r in read_meta(local)["rounds"]]


def test_a_worker_killed_mid_run_costs_no_game_and_changes_no_result(magic, local, tmp_path):  # noqa: F811
    """Two worker processes; one is killed (SIGKILL) as it is given a chunk while it plays another. The scheduler
    removes it and plays its chunks in flight on the other worker; a chunk is played twice only when the lost worker
    had it in flight or held its result unreceived; the run finishes with every chunk on disk once, no game twice,
    and byte-identical answer files."""
    with two_worker_processes(tmp_path) as (address, scheduler, workers):
        spy = LoseAWorker(scheduler, {w.pid for w in workers})
        scheduler.add_plugin(spy)
        run_explore(magic, tmp_path / "out", CLUSTER, RunOptions(scheduler=address))
        left, removed, ended = set(scheduler.workers), list(spy.removed), {w.pid: w.poll() for w in workers}
    out = tmp_path / "out"
    lost = spy.lost
    assert lost is not None and lost["in_flight"], "no worker was killed"
    assert removed == [lost["worker"]] and left == {w for _, w in spy.played} - {lost["worker"]}
    assert sorted(ended.values(), key=str) == [-signal.SIGKILL, None] and ended[lost["pid"]] == -signal.SIGKILL
    (survivor,) = left
    after = spy.played[lost["played_before"]:]
    # a chunk the lost worker finished just before it died (its message already on its way) counts as played there,
    # its result lost with the worker: the worker left plays it again, as it plays the chunks that were in flight
    late = {k for k, w in after if w == lost["worker"]}
    assert lost["in_flight"] | late <= {k for k, w in after if w == survivor}
    twice = {k for k, n in Counter(k for k, _ in spy.played).items() if n > 1}
    assert twice <= lost["in_flight"] | lost["held"]  # only chunks the lost worker had in flight or held
    assert outputs(out) == outputs(local)
    assert done_chunks(out) == done_chunks(local)
    df = load_results(out)
    assert not df.duplicated(["first_deck", "second_deck", "game"]).any()
    meta = read_meta(out)
    assert len(df) == meta["adaptive_result"]["games"] == meta["runs"][-1]["games"]


def test_workers_that_keep_dying_stop_the_run_in_one_line_and_a_resume_finishes_it(magic, local, tmp_path):  # noqa: F811
    """A scheduler allowing no worker death per chunk (``allowed-failures`` 0): the killed worker's chunk in flight
    stops the run with one line naming the chunk and --resume; the chunks received are kept, and a resume in one
    process writes the unbroken run's answer files."""
    out = tmp_path / "out"
    with two_worker_processes(tmp_path, **{"distributed.scheduler.allowed-failures": 0}) as (address, scheduler,
                                                                                           workers):
        spy = LoseAWorker(scheduler, {w.pid for w in workers})
        scheduler.add_plugin(spy)
        with pytest.raises(ValueError, match=r"^chunk \d+: 1 Dask worker\(s\) died playing it .* --resume"):
            run_explore(magic, out, CLUSTER, RunOptions(scheduler=address))
    assert spy.lost is not None and "adaptive_result" not in read_meta(out)
    kept = done_chunks(out)
    assert kept and kept < done_chunks(local)
    run_explore(magic, out, CLUSTER, RunOptions(workers=1, resume=True))
    assert outputs(out) == outputs(local)


#: a scheduler preload: the scheduler kills itself (SIGKILL) as a chunk finishes while others of its round are still to
#: be played, after the first chunk
DIE_MID_ROUND = """
import os, signal
from distributed.diagnostics.plugin import SchedulerPlugin

class DieMidRound(SchedulerPlugin):
    def __init__(self, scheduler):
        self.scheduler, self.finished = scheduler, 0

    def transition(self, key, start, finish, *args, **kwargs):
        if (start, finish) == ("processing", "memory"):
            self.finished += 1
            if self.finished > 1 and any(ts.state in ("queued", "processing", "waiting")
                                         for ts in self.scheduler.tasks.values()):
                os.kill(os.getpid(), signal.SIGKILL)

def dask_setup(scheduler):
    scheduler.add_plugin(DieMidRound(scheduler))
"""


def test_a_scheduler_lost_mid_round_stops_the_run_in_one_line_and_a_resume_finishes_it(magic, local, tmp_path):  # noqa: F811
    """A ``dask scheduler`` process killed (SIGKILL) mid-round: the run stops with one line naming the scheduler and
    --resume (not Dask's CommClosedError or CancelledError); the chunks received are kept, and a resume in one process
    writes the unbroken run's answer files."""
    (tmp_path / "die_mid_round.py").write_text(DIE_MID_ROUND)
    address_file = tmp_path / "scheduler.json"
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", "0", "--no-dashboard", "--scheduler-file", str(address_file),
                                  "--preload", str(tmp_path / "die_mid_round.py")],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    worker = None
    out = tmp_path / "out"
    try:
        deadline = time.monotonic() + 120
        while not address_file.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        address = json.loads(address_file.read_text())["address"]
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--no-nanny",
                                   "--nthreads", "1", "--no-dashboard", "--death-timeout", "60",
                                   "--local-directory", str(tmp_path / "dask")],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with distributed.Client(address) as client:
            client.wait_for_workers(1, timeout=120)
        with pytest.raises(ValueError, match=rf"^lost the Dask scheduler at {address} mid-run \(.*\); the chunks "
                                             "played are kept: run again with --resume to play the rest$"):
            run_explore(magic, out, CLUSTER, RunOptions(scheduler=address))
        assert scheduler.wait(timeout=60) == -signal.SIGKILL
    finally:
        for p in (scheduler, worker):
            if p is not None and p.poll() is None:
                p.kill()
            if p is not None:
                p.wait()
    kept = done_chunks(out)
    assert kept and kept < done_chunks(local) and "adaptive_result" not in read_meta(out)
    run_explore(magic, out, CLUSTER, RunOptions(workers=1, resume=True))
    assert outputs(out) == outputs(local)
