"""Deck-matchup sweeps: every ordered deck pair, N games each, in chunks, into a parquet dataset.

Game-agnostic. A sweep is planned (pairs, seeds, chunks), its chunks are played by an executor
(local worker processes or a Dask cluster) through :func:`simkit.runner.play_games`, and every
chunk is written atomically as ``DIR/chunks/chunk-XXXXX.parquet``; ``DIR/meta.json`` holds the
plan and provenance. A killed sweep resumes by playing only the chunks not on disk.

Seeds: game ``g`` of the ordered pair ``(A, B)`` plays with seed
``derive_seed(sweep_seed, A, B, g)``, where ``sweep_seed`` is the scenario's ``[sweep] seed``.
The seed does not depend on the scenario's other numbers, so a base scenario and a patch of it
play the very same seeds and can be compared game by game.
"""

from __future__ import annotations

import fnmatch
import json
import logging
import os
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

import simkit
from simkit.rng import derive_seed
from simkit.scenario import Field, Scenario, load_scenario

log = logging.getLogger("simkit.sweep")

META = "meta.json"
CHUNKS = "chunks"
LOG = "sweep.log"


@dataclass(frozen=True)
class SweepPlan:
    """What a sweep plays; it fixes every game's seed and every chunk's content.

    Attributes:
        scenario_path: the scenario file (workers load it themselves).
        scenario_hash: the loaded scenario's hash (results of another scenario are refused).
        decks: the decks swept, canonical ids; every ordered pair is played, mirrors included.
        games: games per ordered pair.
        bots: the two bots, (first seat, second seat).
        seed: the sweep seed from which every game's seed derives.
        chunk_size: games per chunk.
    """

    scenario_path: str
    scenario_hash: str
    decks: tuple[str, ...]
    games: int
    bots: tuple[str, str]
    seed: int
    chunk_size: int

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """Every ordered pair of decks, in plan order."""
        return [(a, b) for a in self.decks for b in self.decks]

    @property
    def total_games(self) -> int:
        """Games in the whole sweep."""
        return len(self.decks) ** 2 * self.games

    @property
    def chunk_count(self) -> int:
        """Number of chunks."""
        return -(-self.total_games // self.chunk_size)

    def chunk(self, k: int) -> Chunk:
        """The games of chunk ``k``: a contiguous slice of (pair, game) in plan order."""
        n = len(self.decks)
        lo, hi = k * self.chunk_size, min((k + 1) * self.chunk_size, self.total_games)
        first, second, games, seeds = [], [], [], []
        for i in range(lo, hi):
            pair, g = divmod(i, self.games)
            a, b = self.decks[pair // n], self.decks[pair % n]
            first.append(a)
            second.append(b)
            games.append(g)
            seeds.append(derive_seed(self.seed, a, b, g))
        return Chunk(k, self.scenario_path, self.bots, tuple(first), tuple(second), tuple(games), tuple(seeds))


@dataclass(frozen=True)
class Chunk:
    """A batch of games that one worker plays and one parquet file holds."""

    index: int
    scenario_path: str
    bots: tuple[str, str]
    first_decks: tuple[str, ...]
    second_decks: tuple[str, ...]
    games: tuple[int, ...]
    seeds: tuple[int, ...] = field(repr=False)


_SCENARIOS: dict[str, Scenario] = {}


def play_chunk(chunk: Chunk) -> pd.DataFrame:
    """Play one chunk and return its rows (runs in a worker; the scenario is loaded once per process)."""
    from simkit.runner import play_games

    sc = _SCENARIOS.get(chunk.scenario_path)
    if sc is None:
        sc = _SCENARIOS[chunk.scenario_path] = load_scenario(chunk.scenario_path)
    started = time.perf_counter()
    df = play_games(sc, list(chunk.first_decks), list(chunk.second_decks), bots=chunk.bots, seeds=list(chunk.seeds))
    df.insert(2, "game", list(chunk.games))
    df["scenario_hash"] = sc.hash
    df["rules_version"] = sc.rules_version
    log.info("chunk %d: %d games in %.1f s (pid %d)", chunk.index, len(df), time.perf_counter() - started, os.getpid())
    return df


# ----------------------------------------------------------------------------------------------
# planning


def select_decks(pool: Iterable[str], patterns: Iterable[str] | None) -> tuple[str, ...]:
    """The decks of ``pool`` matching any of ``patterns`` (shell-style, e.g. ``'HolyLight:*'``), pool order.

    Raises:
        ValueError: a pattern matches no deck of the pool.
    """
    pool = tuple(pool)
    if not patterns:
        return pool
    chosen = set()
    for pattern in patterns:
        hits = [d for d in pool if fnmatch.fnmatchcase(d, pattern)]
        if not hits:
            raise ValueError(f"deck pattern {pattern!r} matches no deck of the scenario's pool ({len(pool)} decks)")
        chosen.update(hits)
    return tuple(d for d in pool if d in chosen)


def sweep_defaults(sc: Scenario) -> dict:
    """The scenario's ``[sweep]`` table, checked: games, workers, chunk_size, seed, bots, decks, out."""
    f = Field(str(sc.path), sc.data).table("sweep", required=False)
    f.reject_unknown(("games", "workers", "chunk_size", "seed", "bots", "decks", "out"))
    bots = f.get("bots", ["balanced", "balanced"])
    if not (isinstance(bots, list) and len(bots) == 2 and all(isinstance(b, str) for b in bots)):
        raise f.fail(f"must be two bot names, got {bots!r}", "bots")
    decks = f.get("decks", [])
    if not (isinstance(decks, list) and all(isinstance(d, str) for d in decks)):
        raise f.fail(f"must be a list of deck patterns, got {decks!r}", "decks")
    workers = f.get("workers", 0)
    return {
        "games": f.int("games", 10, minimum=1),
        "workers": f.check_int(workers, "workers", minimum=0),
        "chunk_size": f.int("chunk_size", 256, minimum=1),
        "seed": f.int("seed", 0),
        "bots": tuple(bots),
        "decks": decks,
        "out": f.str("out", f"results/{sc.path.stem}"),
    }


def plan_sweep(
    sc: Scenario,
    games: int | None = None,
    decks: Iterable[str] | None = None,
    bots: tuple[str, str] | None = None,
    chunk_size: int | None = None,
    seed: int | None = None,
) -> SweepPlan:
    """Plan a sweep of ``sc``; arguments left ``None`` come from the scenario's ``[sweep]`` table.

    Raises:
        ValueError: games < 1, chunk size < 1, a deck pattern matching nothing, or an unknown bot.
    """
    d = sweep_defaults(sc)
    games = d["games"] if games is None else games
    if games < 1:
        raise ValueError(f"games per pair must be at least 1, got {games}")
    chunk_size = d["chunk_size"] if chunk_size is None else chunk_size
    if chunk_size < 1:
        raise ValueError(f"chunk size must be at least 1, got {chunk_size}")
    bots = tuple(bots) if bots else d["bots"]
    if len(bots) != 2:
        raise ValueError(f"--bots takes two bot names (first seat, second seat), got {','.join(bots)}")
    known = sc.module.bot_names(sc) if hasattr(sc.module, "bot_names") else None
    if known is not None:
        for b in bots:
            if b not in known:
                raise ValueError(f"unknown bot {b!r} (the scenario knows: {', '.join(known)})")
    chosen = select_decks(sc.decks, list(decks) if decks else d["decks"])
    return SweepPlan(
        scenario_path=str(sc.path.resolve()),
        scenario_hash=sc.hash,
        decks=chosen,
        games=games,
        bots=(bots[0], bots[1]),
        seed=d["seed"] if seed is None else seed,
        chunk_size=chunk_size,
    )


# ----------------------------------------------------------------------------------------------
# the store


def _atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """Write through a temporary file in the same folder, then rename over ``path``."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        write(Path(tmp))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _write_meta(out: Path, meta: dict) -> None:
    _atomic_write(out / META, lambda p: p.write_text(json.dumps(meta, indent=2, ensure_ascii=False)))


def chunk_path(out: Path, k: int) -> Path:
    """The parquet file of chunk ``k``."""
    return out / CHUNKS / f"chunk-{k:05d}.parquet"


def done_chunks(out: Path) -> set[int]:
    """Chunks already on disk (complete files only: they are renamed into place when written)."""
    folder = out / CHUNKS
    if not folder.is_dir():
        return set()
    return {int(p.stem.split("-")[1]) for p in folder.glob("chunk-*.parquet")}


def read_meta(out: Path) -> dict:
    """The sweep's ``meta.json``.

    Raises:
        ValueError: DIR is missing or holds no sweep.
    """
    out = Path(out)
    if not out.is_dir():
        raise ValueError(f"{out}: no such results folder")
    try:
        return json.loads((out / META).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{out}: not a simkit results folder (no {META})") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{out}/{META}: unreadable: {exc}") from None


def prepare_store(out: Path, plan: SweepPlan, sc: Scenario, resume: bool) -> set[int]:
    """Create or check the results folder; returns the chunks already done.

    Raises:
        ValueError: DIR is not writable, holds another scenario's results, holds a different plan,
            or already holds results and ``resume`` is false.
    """
    out = Path(out)
    try:
        (out / CHUNKS).mkdir(parents=True, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=out, prefix=".probe", delete=True)
        probe.close()
    except OSError as exc:
        raise ValueError(f"{out}: results folder is not writable ({exc.strerror})") from None
    plan_dict = _plan_dict(plan)
    if (out / META).exists():
        meta = read_meta(out)
        if meta.get("scenario_hash") != sc.hash:
            raise ValueError(
                f"{out} holds results of another scenario ({meta.get('scenario_name')!r}, hash "
                f"{meta.get('scenario_hash')}); this one is {sc.name!r} (hash {sc.hash}): choose another --out"
            )
        if meta.get("plan") != plan_dict:
            diff = [k for k in plan_dict if meta.get("plan", {}).get(k) != plan_dict[k]]
            raise ValueError(f"{out} holds a sweep with a different plan ({', '.join(diff)}): choose another --out")
        done = done_chunks(out)
        if done and not resume:
            state = "complete" if len(done) >= plan.chunk_count else f"{len(done)}/{plan.chunk_count} chunks done"
            raise ValueError(f"{out} already holds this sweep ({state}): pass --resume to finish it, or another --out")
        return done
    meta = {
        "scenario_name": sc.name,
        "scenario_path": str(sc.path),
        "scenario_hash": sc.hash,
        "rules_version": sc.rules_version,
        "scenario_text": sc.text,
        "simkit_version": simkit.__version__,
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "finished": None,
        "games_per_pair": plan.games,
        "decks": list(plan.decks),
        "bots": list(plan.bots),
        "plan": plan_dict,
    }
    _write_meta(out, meta)
    return set()


def _plan_dict(plan: SweepPlan) -> dict:
    d = asdict(plan)
    d.pop("scenario_path")
    d["decks"], d["bots"] = list(plan.decks), list(plan.bots)
    d["chunk_count"] = plan.chunk_count
    return d


def write_chunk(out: Path, k: int, df: pd.DataFrame) -> None:
    """Write chunk ``k`` atomically."""
    _atomic_write(chunk_path(out, k), lambda p: df.to_parquet(p, index=False))


def load_results(out: str | Path) -> pd.DataFrame:
    """All games of a results folder, one row each, sorted by (first_deck, second_deck, game).

    ``df.attrs["meta"]`` holds the sweep's metadata (scenario name, path, hash and text, rules
    version, simkit version, started/finished, games per pair, decks, bots, plan).

    Raises:
        ValueError: the folder is missing, holds no sweep, or no games yet.
    """
    out = Path(out)
    meta = read_meta(out)
    files = sorted((out / CHUNKS).glob("chunk-*.parquet"))
    if not files:
        raise ValueError(f"{out}: the sweep has no finished games yet")
    df = pd.concat([pd.read_parquet(p) for p in files], ignore_index=True)
    df = df.sort_values(["first_deck", "second_deck", "game"], kind="stable").reset_index(drop=True)
    meta["complete"] = len(files) >= meta["plan"]["chunk_count"]
    df.attrs["meta"] = meta
    return df


# ----------------------------------------------------------------------------------------------
# executors


def _local_results(chunks: list[Chunk], workers: int) -> Iterator[pd.DataFrame]:
    if workers <= 1:
        for c in chunks:
            yield play_chunk(c)
        return
    import multiprocessing as mp
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    ctx = mp.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
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


def _dask_results(chunks: list[Chunk], scheduler: str) -> Iterator[pd.DataFrame]:
    from distributed import Client, as_completed

    try:
        client = Client(scheduler, timeout="10s")
    except OSError as exc:
        raise ValueError(f"cannot reach the Dask scheduler at {scheduler}: {exc}") from None
    with client:
        futures = client.map(play_chunk, chunks, key=[f"simkit-chunk-{c.index}-{c.seeds[0]}" for c in chunks])
        for fut in as_completed(futures):
            yield fut.result()


def run_sweep(
    sc: Scenario,
    plan: SweepPlan,
    out: str | Path,
    workers: int | None = None,
    resume: bool = False,
    scheduler: str | None = None,
    progress: bool | None = None,
) -> Path:
    """Play every chunk of ``plan`` not yet on disk and write it to ``out``.

    Args:
        sc: the scenario (its hash must match ``plan``).
        plan: from :func:`plan_sweep`.
        out: the results folder.
        workers: local worker processes (default: all cores); ignored with ``scheduler``.
        resume: continue a sweep whose folder already holds chunks.
        scheduler: a Dask scheduler address ``tcp://HOST:PORT`` to play the chunks on a cluster.
        progress: show a progress bar (default: only when stderr is a terminal).

    Returns:
        The results folder.

    Raises:
        ValueError: see :func:`prepare_store`; an unreachable scheduler.
    """
    out = Path(out)
    done = prepare_store(out, plan, sc, resume)
    if not workers or workers <= 0:
        workers = os.cpu_count() or 1
    handler = _start_logging(out)
    try:
        return _play(sc, plan, out, workers, scheduler, progress, done)
    finally:
        _stop_logging(handler)


def _play(sc, plan, out, workers, scheduler, progress, done) -> Path:
    todo = [plan.chunk(k) for k in range(plan.chunk_count) if k not in done]
    total_todo = sum(len(c.games) for c in todo)
    log.info(
        "sweep %s: %d decks, %d games per pair, %d chunks to play (%d done), %s",
        sc.name, len(plan.decks), plan.games, len(todo), len(done),
        f"dask scheduler {scheduler}" if scheduler else f"{workers} worker(s)",
    )
    from tqdm import tqdm

    show = sys.stderr.isatty() if progress is None else progress
    bar = tqdm(total=total_todo, unit="game", disable=not show, smoothing=0.1, desc="sweep")
    started = time.perf_counter()
    results = _dask_results(todo, scheduler) if scheduler else _local_results(todo, workers)
    try:
        for df in results:
            k = _chunk_index(plan, df)
            write_chunk(out, k, df)
            bar.update(len(df))
    finally:
        bar.close()
    elapsed = time.perf_counter() - started
    meta = read_meta(out)
    meta["finished"] = datetime.now(UTC).isoformat(timespec="seconds")
    meta.setdefault("runs", []).append(
        {"games": total_todo, "seconds": round(elapsed, 2), "workers": None if scheduler else workers,
         "scheduler": scheduler}
    )
    _write_meta(out, meta)
    log.info("sweep done: %d games in %.1f s (%.0f games/s)", total_todo, elapsed, total_todo / max(elapsed, 1e-9))
    return out


def _chunk_index(plan: SweepPlan, df: pd.DataFrame) -> int:
    first = df.iloc[0]
    pair = plan.decks.index(first["first_deck"]) * len(plan.decks) + plan.decks.index(first["second_deck"])
    return (pair * plan.games + int(first["game"])) // plan.chunk_size


def _start_logging(out: Path) -> logging.Handler:
    """Send this process's and every worker's ``simkit`` log records to ``DIR/sweep.log``.

    Workers are forked, so their records travel through ``multiprocessing-logging``'s queue to
    one file handler in this process. Returns the handler, to be closed when the sweep ends.
    """
    from multiprocessing_logging import MultiProcessingHandler

    logger = logging.getLogger("simkit")
    logger.setLevel(logging.INFO)
    file_handler = logging.FileHandler(str((out / LOG).resolve()), encoding="utf-8")
    file_handler.setFormatter(logging.Formatter("%(asctime)s %(processName)s %(levelname)s %(message)s"))
    handler = MultiProcessingHandler("simkit-sweep-log", sub_handler=file_handler)
    logger.addHandler(handler)
    return handler


def _stop_logging(handler: logging.Handler) -> None:
    logging.getLogger("simkit").removeHandler(handler)
    handler.close()
    handler.sub_handler.close()  # type: ignore[attr-defined]
