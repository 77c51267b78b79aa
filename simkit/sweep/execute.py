"""Playing a sweep: its chunks on local worker processes or a Dask cluster, uniform or round by round.

Executors never decide a game: every chunk is played by :func:`play_chunk` from its planned seeds,
so the worker count and the executor never change a result.
"""

from __future__ import annotations

import hashlib
import logging
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from simkit.core.files import open_own
from simkit.scenario import Scenario, load_scenario
from simkit.sweep.adaptive import layout_of, next_round
from simkit.sweep.plan import LOG, Chunk, SweepPlan, check_workers
from simkit.sweep.settings import RunOptions
from simkit.sweep.store import (
    check_chunk,
    chunk_path,
    folder_lock,
    make_folder,
    prepare_store,
    read_chunk,
    read_meta,
    refuse_other_sweep,
    write_chunk,
    write_meta,
)

log = logging.getLogger("simkit.sweep")

_SCENARIOS: dict[tuple[str, str], Scenario] = {}


#: (game, bots) whose kernels this process has compiled or loaded: warmed once per process, not once per sweep
_WARM: set[tuple[str, tuple[str, str]]] = set()


def _scenario_of(chunk: Chunk) -> Scenario:
    """The chunk's scenario, loaded once per process (with the bots of the file the plan names, ``--bots-from``)."""
    key = (chunk.scenario_path, chunk.bots_from)
    sc = _SCENARIOS.get(key)
    if sc is None:
        sc = _SCENARIOS[key] = load_scenario(chunk.scenario_path, bots_from=chunk.bots_from or None)
    return sc


def compile_side_by_side(parts: list) -> None:
    """Call each of ``parts`` (parts of an engine that share no compiled kernel, a game's ``compile_parts``), the
    first here and each other in a forked process of its own while this one works, at most one process per core;
    then wait for them. Each part compiles into numba's on-disk cache (or loads from it), so what a fork compiled
    this process then loads. A part that fails in a fork is left to this process, which compiles what is missing
    when it plays; without fork (or with one core) every part runs here in turn.
    """
    import multiprocessing as mp

    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    forks = []
    if len(parts) > 1 and cores > 1 and "fork" in mp.get_all_start_methods():
        ctx = mp.get_context("fork")
        for part in parts[1:cores]:
            forks.append(ctx.Process(target=_quietly, args=(part,), daemon=True))
            forks[-1].start()
    for part in [parts[0], *parts[1 + len(forks):]] if parts else []:
        part()
    for fork in forks:
        fork.join()


def _quietly(part) -> None:
    """Run ``part`` in a fork, silent on failure (the parent compiles what it left)."""
    try:
        part()
    except Exception:  # noqa: BLE001 - the parent compiles whatever this left undone, and says why if it fails too
        os._exit(1)


def warm_up(chunks: list[Chunk]) -> None:
    """Compile (or load from numba's cache) the kernels the chunks play, once, in this process: one game of the
    first chunk of each bot pairing, its result thrown away; a game's ``compile_parts`` first, side by side on the
    machine's cores (:func:`compile_side_by_side`).

    Called before local workers are forked, so they inherit the compiled kernels and the loaded scenario: on a cold
    cache the engine compiles once for the sweep (the compile notice says so), not once in every worker.
    """
    from simkit.outside.bots import outside_bots
    from simkit.runner import play_games

    for c in chunks:
        if not c.games:
            continue
        sc = _scenario_of(c)
        key = (sc.game_name, c.bots)
        if key in _WARM:
            continue
        parts = sc.game.capability("compile_parts")
        if parts is not None and not set(c.bots) & set(outside_bots(sc)):  # an outside seat plays the Python loop
            compile_side_by_side(parts(c.bots))
        play_games(sc, [c.first_decks[0]], [c.second_decks[0]], bots=c.bots, seeds=[c.seeds[0]])
        _WARM.add(key)


def play_chunk(chunk: Chunk) -> pd.DataFrame:
    """Play one chunk and return its rows (runs in a worker; the scenario is loaded once per process, with the bots
    of the file the plan names, ``--bots-from``)."""
    from simkit.runner import play_games

    sc = _scenario_of(chunk)
    started = time.perf_counter()
    df = play_games(sc, list(chunk.first_decks), list(chunk.second_decks), bots=chunk.bots, seeds=list(chunk.seeds))
    df.insert(2, "game", list(chunk.games))
    df["scenario_hash"] = sc.hash
    df["rules_version"] = sc.rules_version
    log.info("chunk %d: %d games in %.1f s (pid %d)", chunk.index, len(df), time.perf_counter() - started, os.getpid())
    return df


def _end_with_parent(parent: int) -> None:
    """Make this worker end when the sweep's process ``parent`` ends, however it ends.

    On Linux the kernel sends the worker SIGKILL when its parent dies (``prctl(PR_SET_PDEATHSIG)``);
    everywhere a watch thread also ends it within a second of being orphaned (its parent id changes).
    """
    import threading

    if sys.platform.startswith("linux"):
        try:
            import ctypes
            import signal

            ctypes.CDLL(None, use_errno=True).prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):  # pragma: no cover - a libc without prctl: the thread alone
            pass
    if os.getppid() != parent:  # the parent died before the watch was set
        os._exit(1)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, name="simkit-parent-watch", daemon=True).start()


def _start_worker(fd: int | None, parent: int) -> None:
    """A forked worker's start: close its copy of the folder lock (so the lock ends with the sweep's
    process), end with its parent (:func:`_end_with_parent`), and leave Ctrl-C to the parent: a terminal sends
    it to every process of the group, and the parent ends its workers itself (no worker's traceback on the
    designer's screen)."""
    import signal

    if fd is not None:
        os.close(fd)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _end_with_parent(parent)


def _stop_workers(pool) -> None:
    """End a pool's workers now (the sweep is stopping: an error, Ctrl-C or SIGTERM): the chunks they
    were playing are not written, and a resume plays them."""
    for proc in list((getattr(pool, "_processes", None) or {}).values()):
        try:
            proc.kill()
        except (OSError, ValueError, AttributeError):  # pragma: no cover - already gone
            pass
    pool.shutdown(wait=True, cancel_futures=True)


def _local_results(chunks: list[Chunk], workers: int, lock_fd: int | None = None) -> Iterator[pd.DataFrame]:
    if workers <= 1:
        warm_up(chunks)  # the compile side by side on the machine's cores (a game's compile_parts)
        for c in chunks:
            yield play_chunk(c)
        return
    import multiprocessing as mp
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    warm_up(chunks)  # compiled once here, inherited by every forked worker
    ctx = mp.get_context("fork")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_start_worker,
                               initargs=(lock_fd, os.getpid()))
    finished_all = False
    try:
        pending = set()
        todo = iter(chunks)
        for c in todo:
            pending.add(pool.submit(play_chunk, c))
            if len(pending) >= 2 * workers:
                break
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in finished:
                yield fut.result()
                nxt = next(todo, None)
                if nxt is not None:
                    pending.add(pool.submit(play_chunk, nxt))
        finished_all = True
    finally:
        if finished_all:
            pool.shutdown(wait=True)
        else:
            _stop_workers(pool)


def _dask_key(chunk: Chunk, scenario_hash: str) -> str:
    """The chunk's Dask key: its index (for a person reading the scheduler's logs) and a digest of everything that
    decides its games (the scenario's hash, its file and bots file, the bots, decks, game indices and seeds).

    Dask gives every holder of a key the one result: two runs sharing a scheduler (a base and its patch, with the same
    seed, so the same chunk index and seeds) must never share a key, while the very same chunk may.
    """
    what = (scenario_hash, chunk.scenario_path, chunk.bots_from, chunk.bots, chunk.first_decks, chunk.second_decks,
            chunk.games, chunk.seeds)
    return f"simkit-chunk-{chunk.index}-{hashlib.sha256(repr(what).encode()).hexdigest()[:16]}"


def _dask_results(chunks: list[Chunk], scheduler: str, scenario_hash: str = "") -> Iterator[pd.DataFrame]:
    """The played chunks, as they finish on the Dask cluster at ``scheduler``, each once.

    A worker lost mid-run costs no game: the scheduler plays its unfinished chunks again elsewhere, and a result it held
    that was not yet received is played again before it is received (Dask's own rescheduling, measured in
    tests/explore/test_explore_cluster.py). Each result is released as soon as it is received, so the workers do not
    hold a round's results till its end and a lost worker's finished chunks are not played twice.

    Raises:
        ValueError: the scheduler cannot be reached, or is lost mid-run; a chunk's workers died more often than the
            scheduler allows (``distributed.scheduler.allowed-failures``). The chunks received are kept: ``--resume``
            plays the rest.
    """
    from concurrent.futures import CancelledError

    from distributed import Client, KilledWorker, as_completed
    from distributed.comm import CommClosedError

    try:
        client = Client(scheduler, timeout="10s")
    except OSError as exc:
        raise ValueError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    with client:
        index = {_dask_key(c, scenario_hash): c.index for c in chunks}
        finished = as_completed(client.map(play_chunk, chunks, key=list(index)))  # holds each future till it yields
        try:
            for fut in finished:
                try:
                    df = fut.result()
                except KilledWorker as exc:  # one line, not Dask's paragraph
                    raise ValueError(f"chunk {index[fut.key]}: {exc.allowed_failures + 1} Dask worker(s) died playing "
                                     f"it (the last {exc.last_worker.address}), more than the scheduler allows "
                                     "(distributed.scheduler.allowed-failures); the chunks played are kept: run again "
                                     "with --resume to play the rest") from None
                fut.release()  # the worker lets the result go: a lost worker's received chunks are not played again
                yield df
        except (CommClosedError, CancelledError) as exc:  # the scheduler went away: its futures are cancelled
            why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            raise ValueError(f"lost the Dask scheduler at {scheduler} mid-run ({why}); the chunks played are kept: "
                             "run again with --resume to play the rest") from None


def run_sweep(sc: Scenario, plan: SweepPlan, out: str | Path, run: RunOptions | None = None,
              planner=None) -> Path:
    """Play every chunk of ``plan`` not yet on disk and write it to ``out``.

    Args:
        sc: the scenario (its hash must match ``plan``).
        plan: from :func:`plan_sweep` (what the folder records and a resume must repeat).
        out: the results folder.
        run: how to play it (:class:`~simkit.sweep.settings.RunOptions`: workers, 1 to :func:`max_workers`, ``None``
            or 0 one per core, not used with a scheduler; resume, which checks the chunks kept and plays a truncated
            or corrupt one again; overwrite, which deletes what an earlier sweep wrote in ``out`` first,
            :func:`~simkit.sweep.store.clear_store`; a Dask scheduler; a progress bar).
        planner: for a plan played in rounds (``plan.adaptive`` set), the function that plans each
            next round from the layout and the games played so far, ``(layout, games) -> (counts,
            status, reason)`` as :func:`~simkit.sweep.adaptive.next_round` (the default); it must
            depend on nothing else, so a resumed run plans the very same rounds (``simkit explore``
            passes its own).

    Returns:
        The results folder.

    Raises:
        ValueError: workers out of range; another sweep writing to ``out`` (see
            :func:`folder_lock`); see :func:`prepare_store`; an unreachable scheduler; a played
            chunk that is not its planned games (e.g. the scenario file changed mid-sweep).
    """
    run = run or RunOptions()
    out = Path(out)
    workers = check_workers(run.workers)
    if sc.hash != plan.scenario_hash:
        raise ValueError(f"the plan is for scenario hash {plan.scenario_hash}, not {sc.name!r} ({sc.hash})")
    _SCENARIOS[(plan.scenario_path, plan.bots_from)] = sc  # the very scenario planned: played here and in forks
    if not run.overwrite:  # another sweep there: refused before any file is touched
        refuse_other_sweep(out, plan, sc)
    make_folder(out)
    with folder_lock(out) as lock_fd:
        done = prepare_store(out, plan, sc, run.resume, run.overwrite)
        handler = _start_logging(out)
        finished = False
        try:
            playing = _Playing(sc, out, workers, run.scheduler, run.progress, lock_fd)
            if plan.adaptive is not None:
                played = _play_adaptive(playing, plan, done, planner or next_round)
            else:
                played = _play(playing, plan, done)
            finished = True
            return played
        finally:
            _stop_logging(handler, stopping=not finished)


@dataclass(frozen=True)
class _Playing:
    """What playing a sweep's chunks needs beside its plan: the scenario, the folder, the workers resolved (or a
    Dask scheduler), the progress bar's choice, and the folder lock's descriptor (closed in forked workers)."""

    sc: Scenario
    out: Path
    workers: int
    scheduler: str | None
    progress: bool | None
    lock_fd: int

    def results(self, todo: list[Chunk]):
        """The played chunks of ``todo``, as they finish (on the scheduler, else on local workers)."""
        if self.scheduler:
            return _dask_results(todo, self.scheduler, self.sc.hash)
        return _local_results(todo, self.workers, self.lock_fd)

    def bar(self, total: int, desc: str):
        from tqdm import tqdm

        show = sys.stderr.isatty() if self.progress is None else self.progress
        return tqdm(total=total, unit="game", disable=not show, smoothing=0.1, desc=desc)


def _play(p: _Playing, plan: SweepPlan, done: set[int]) -> Path:
    """Play a uniform sweep's chunks not on disk, each checked against the plan before it is written."""
    todo = [plan.chunk(k) for k in range(plan.chunk_count) if k not in done]
    total_todo = sum(len(c.games) for c in todo)
    log.info(
        "sweep %s: %s, %d games per pair, %d chunks to play (%d done), %s",
        p.sc.name, plan.pools.count(), plan.games, len(todo), len(done),
        f"dask scheduler {p.scheduler}" if p.scheduler else f"{p.workers} worker(s)",
    )
    bar = p.bar(total_todo, "sweep")
    started = time.perf_counter()
    results = p.results(todo)
    try:
        for df in results:
            k = _chunk_index(plan, df)
            problem = check_chunk(plan, k, df)
            if problem:  # never on disk: e.g. a worker loaded the scenario file after it was edited
                raise ValueError(f"chunk {k} as played is not the planned games: {problem}")
            write_chunk(p.out, k, df)
            bar.update(len(df))
    finally:
        _close(results)
        bar.close()
    elapsed = time.perf_counter() - started
    _record_run(p, total_todo, elapsed)
    log.info("sweep done: %d games in %.1f s (%.0f games/s)", total_todo, elapsed, total_todo / max(elapsed, 1e-9))
    return p.out


def _record_run(p: _Playing, played: int, elapsed: float, meta: dict | None = None) -> None:
    """Stamp ``meta.json`` finished, with this run's games, time and workers."""
    meta = read_meta(p.out) if meta is None else meta
    meta["finished"] = datetime.now(UTC).isoformat(timespec="seconds")
    meta.setdefault("runs", []).append(
        {"games": played, "seconds": round(elapsed, 2), "workers": None if p.scheduler else p.workers,
         "scheduler": p.scheduler}
    )
    write_meta(p.out, meta)


def _close(results) -> None:
    """Close a results generator now (ending its workers when the sweep stops early), not when the
    traceback holding it is freed."""
    close = getattr(results, "close", None)
    if close is not None:
        close()


def _chunk_index(plan: SweepPlan, df: pd.DataFrame) -> int:
    first = df.iloc[0]
    block = plan.bot_pairs.index((first["first_bot"], first["second_bot"]))
    firsts, seconds = plan.pools
    pair = firsts.index(first["first_deck"]) * len(seconds) + seconds.index(first["second_deck"])
    return block * plan.block_chunks + (pair * plan.games + int(first["game"])) // plan.chunk_size


class _LogFile(logging.FileHandler):
    """``sweep.log``, appended to but never through a symlink (:func:`simkit.core.files.open_own`)."""

    def _open(self):
        fd = open_own(self.baseFilename, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        return open(fd, "a", encoding=self.encoding, errors=self.errors)


def _start_logging(out: Path) -> logging.Handler:
    """Send this process's and every worker's ``simkit`` log records to ``DIR/sweep.log``.

    Workers are forked, so their records travel through ``multiprocessing-logging``'s queue to
    one file handler in this process. Returns the handler, to be closed when the sweep ends.
    """
    from multiprocessing_logging import MultiProcessingHandler

    class Handler(MultiProcessingHandler):
        """The queue's handler, whose close waits ``wait`` seconds at most for the records still on their way:
        a worker killed mid-record (Ctrl-C) leaves a half message that would hold the reader for its 5 s."""

        wait = 5.0

        def close(self) -> None:
            if not self._is_closed:
                self._is_closed = True
                self._receive_thread.join(self.wait)
                self.sub_handler.close()

    logger = logging.getLogger("simkit")
    logger.setLevel(logging.INFO)
    file_handler = _LogFile(str((out / LOG).absolute()), encoding="utf-8")
    file_handler.setFormatter(logging.Formatter("%(asctime)s %(processName)s %(levelname)s %(message)s"))
    handler = Handler("simkit-sweep-log", sub_handler=file_handler)
    logger.addHandler(handler)
    return handler


def _stop_logging(handler: logging.Handler, stopping: bool = False) -> None:
    """Close the sweep's log: wait for the workers' last records, or, when the sweep is stopping (Ctrl-C,
    SIGTERM, an error), for at most a fraction of a second (its workers are gone: what they had not sent is lost
    with their unfinished chunks)."""
    logging.getLogger("simkit").removeHandler(handler)
    if stopping:
        handler.wait = 0.2  # type: ignore[attr-defined]
    handler.close()
    handler.sub_handler.close()  # type: ignore[attr-defined]


def _play_adaptive(p: _Playing, plan: SweepPlan, done: set[int], planner=next_round) -> Path:
    """Play an adaptive sweep round by round, recording each round in ``meta.json`` before playing it."""
    started = time.perf_counter()
    played = 0
    layout = layout_of(plan, read_meta(p.out))
    frames: dict[int, pd.DataFrame] = {}
    keep = getattr(planner, "columns", None)  # a planner that reads a few columns: the rest is not held
    for k in sorted(done):
        frames[k], problem = read_chunk(layout, k, chunk_path(p.out, k))
        if problem:  # checked a moment ago by prepare_store
            raise ValueError(f"{chunk_path(p.out, k)}: {problem}")
        if keep:
            frames[k] = frames[k][list(keep)]
    while True:
        played += _play_round(p, layout, frames, keep)
        games = pd.concat([frames[k] for k in sorted(frames)], ignore_index=True) if frames else None
        target, status, reason = planner(layout, games)
        meta = read_meta(p.out)
        if target is None:
            meta["adaptive_result"] = {"stopped": reason, "rounds": len(layout.rounds),
                                       "games": layout.total_games, "units": status}
            break
        rnd = layout.add_round(target, status)
        meta["rounds"] = layout.rounds
        write_meta(p.out, meta)
        log.info("adaptive sweep: round %d planned, %d games (%s)", rnd["round"], rnd["games"], status)
    _record_run(p, played, time.perf_counter() - started, meta)
    log.info("adaptive sweep done (%s): %d games played now, %d in all, %d rounds", reason, played,
             layout.total_games, len(layout.rounds))
    return p.out


def _play_round(p: _Playing, layout, frames: dict[int, pd.DataFrame], keep=None) -> int:
    """Play the chunks of the layout's rounds not yet in ``frames`` (adding them, only the columns ``keep`` when
    given); returns the games played."""
    todo = [layout.chunk(k) for k in range(layout.chunk_count) if k not in frames]
    if not todo:
        return 0
    n_games = sum(len(c.games) for c in todo)
    log.info("adaptive sweep %s: round %d, %d games in %d chunks", p.sc.name, len(layout.rounds) - 1,
             n_games, len(todo))
    bar = p.bar(n_games, f"round {len(layout.rounds) - 1}")
    results = p.results(todo)
    played = 0
    try:
        for df in results:
            k = layout.chunk_index(df)
            problem = check_chunk(layout, k, df)
            if problem:
                raise ValueError(f"chunk {k} as played is not the planned games: {problem}")
            write_chunk(p.out, k, df)
            frames[k] = df[list(keep)] if keep else df
            bar.update(len(df))
            played += len(df)
    finally:
        _close(results)
        bar.close()
    return played
