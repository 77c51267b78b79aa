"""Deck-matchup sweeps: every ordered deck pair, N games each, in chunks, into a parquet dataset.

Game-agnostic. A sweep is planned (pairs, seeds, chunks), its chunks are played by an executor
(local worker processes or a Dask cluster) through :func:`simkit.runner.play_games`, and every
chunk is written atomically as ``DIR/chunks/chunk-XXXXX.parquet``; ``DIR/meta.json`` holds the
plan and provenance. A killed sweep resumes by playing only the chunks not on disk.

The folder's guarantee: :func:`load_results` returns exactly the planned games on disk, each
once, with its planned seed. Only the plan's chunk names are read (any other file in
``DIR/chunks`` is ignored with a :class:`ResultsFolderWarning` naming it; hidden files are
skipped silently), and every chunk read must hold exactly its planned rows (decks, game
indices, seeds, bots, scenario hash), else the load is refused naming the file. One sweep
writes to a folder at a time (``DIR/.sweep.lock``, an ``flock`` released when its process
dies); a resumed sweep checks the chunks it keeps and plays again any that are not whole.

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
import secrets
import sys
import tempfile
import time
import warnings
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

import simkit
from simkit.analysis.sequential import AdaptiveSettings
from simkit.rng import SEED_MAX, derive_seed
from simkit.scenario import Scenario, load_scenario
from simkit.scenario import sweep_settings as sweep_defaults

log = logging.getLogger("simkit.sweep")

META = "meta.json"
CHUNKS = "chunks"
LOG = "sweep.log"
LOCK = ".sweep.lock"

#: workers allowed per core (``0`` means one per core)
WORKERS_PER_CORE = 4
#: the keys of ``meta.json``'s plan
PLAN_KEYS = ("scenario_hash", "decks", "games", "bots", "seed", "chunk_size", "chunk_count")


class ResultsFolderWarning(UserWarning):
    """A results folder holds something that is not part of its plan (ignored), or a chunk played again."""


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
        panel: a bot panel: every pairing is played under each of these bots, the same bot in both
            seats, on the same seeds (``()``: no panel, ``bots`` play every game).
        adaptive: for an adaptive sweep, its settings (``games`` is then round 0's games per
            ordered pair); the games are planned round by round (:class:`AdaptiveLayout`).
    """

    scenario_path: str
    scenario_hash: str
    decks: tuple[str, ...]
    games: int
    bots: tuple[str, str]
    seed: int
    chunk_size: int
    panel: tuple[str, ...] = ()
    adaptive: AdaptiveSettings | None = None

    @property
    def bot_pairs(self) -> tuple[tuple[str, str], ...]:
        """The (first seat, second seat) bots of each block of the plan: one per panel bot, else ``bots``."""
        return tuple((b, b) for b in self.panel) if self.panel else (self.bots,)

    @property
    def block_games(self) -> int:
        """Games of one bot pair (every ordered pair of decks, ``games`` each)."""
        return len(self.decks) ** 2 * self.games

    @property
    def block_chunks(self) -> int:
        """Chunks of one bot pair (a chunk never mixes two bot pairs)."""
        return -(-self.block_games // self.chunk_size)

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """Every ordered pair of decks, in plan order."""
        return [(a, b) for a in self.decks for b in self.decks]

    @property
    def total_games(self) -> int:
        """Games in the whole sweep."""
        return len(self.bot_pairs) * self.block_games

    @property
    def chunk_count(self) -> int:
        """Number of chunks."""
        return len(self.bot_pairs) * self.block_chunks

    def chunk(self, k: int) -> Chunk:
        """The games of chunk ``k``: a contiguous slice of (pair, game) in plan order, within one bot pair."""
        n = len(self.decks)
        block, k_in = divmod(k, self.block_chunks)
        lo, hi = k_in * self.chunk_size, min((k_in + 1) * self.chunk_size, self.block_games)
        first, second, games, seeds = [], [], [], []
        for i in range(lo, hi):
            pair, g = divmod(i, self.games)
            a, b = self.decks[pair // n], self.decks[pair % n]
            first.append(a)
            second.append(b)
            games.append(g)
            seeds.append(derive_seed(self.seed, a, b, g))
        return Chunk(k, self.scenario_path, self.bot_pairs[block], tuple(first), tuple(second), tuple(games),
                     tuple(seeds))


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


def max_workers() -> int:
    """The most local worker processes a sweep may ask for: four per core."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


def check_workers(workers: int | None, where: str = "workers") -> int:
    """The number of local worker processes to start for ``workers`` (``None`` or 0: one per core).

    Args:
        workers: the number asked for.
        where: what asked, for the message (``--workers``, ``FILE: sweep.workers``).

    Raises:
        ValueError: ``workers`` is not an integer from 0 to :func:`max_workers`.
    """
    cores = os.cpu_count() or 1
    if workers is None:
        return cores
    if isinstance(workers, bool) or not isinstance(workers, int) or not 0 <= workers <= max_workers():
        raise ValueError(
            f"{where}: must be from 0 (one per core) to {max_workers()} ({WORKERS_PER_CORE} x {cores} cores), "
            f"got {workers!r}"
        )
    return workers or cores


def check_adaptive(settings: AdaptiveSettings) -> AdaptiveSettings:
    """``settings`` if every number is in range.

    Raises:
        ValueError: ``--precision`` not in (0, 1], ``--max-games`` negative, alpha not in (0, 1),
            bands out of order, a prior or round-0 step count not positive, a horizon below round 0's
            games, a spending power not positive, a futility chance outside [0, 1).
    """
    s = settings
    if not 0 < s.precision <= 1:
        raise ValueError(f"--precision: must be a width of rate in (0, 1], got {s.precision!r}")
    if isinstance(s.max_games, bool) or not isinstance(s.max_games, int) or s.max_games < 0:
        raise ValueError(f"--max-games: must be 0 (no limit) or a positive number of games, got {s.max_games!r}")
    if not 0 < s.alpha < 1:
        raise ValueError(f"alpha: must lie in (0, 1), got {s.alpha!r}")
    if not (0 <= s.deck[0] < s.deck[1] <= 1 and 0.5 < s.matchup < 1 and 0 < s.first_player < 0.5):
        raise ValueError("flag bands: deck (low < high in [0, 1]), matchup in (0.5, 1), first_player in (0, 0.5)")
    if min(s.prior) <= 0 or s.first_steps < 1 or s.spending <= 0 or s.growth <= 0:
        raise ValueError("adaptive: prior, first_steps, growth and spending must be positive")
    if isinstance(s.horizon, bool) or not isinstance(s.horizon, int) or s.horizon < s.first_steps:
        raise ValueError(f"--horizon: must be a number of games per ordered pair, at least {s.first_steps}, "
                         f"got {s.horizon!r}")
    if not 0 <= s.futility < 1:
        raise ValueError(f"adaptive: futility must lie in [0, 1), got {s.futility!r}")
    for name in ("method", "matchup_method"):
        if getattr(s, name) not in ("holm", "bh"):
            raise ValueError(f"adaptive: {name} must be 'holm' or 'bh', got {getattr(s, name)!r}")
    return s


def check_seed(seed: int, where: str = "seed") -> int:
    """``seed`` if it is a sweep seed (0 to 2**63 - 1), never wrapped into range.

    Raises:
        ValueError: naming ``where``, for a non-integer or out-of-range seed.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        raise ValueError(f"{where}: must be an integer from 0 to {SEED_MAX} (2**63 - 1), got {seed!r}")
    return seed


def plan_sweep(
    sc: Scenario,
    games: int | None = None,
    decks: Iterable[str] | None = None,
    bots: tuple[str, str] | None = None,
    chunk_size: int | None = None,
    seed: int | None = None,
    panel: Iterable[str] | None = None,
    adaptive: AdaptiveSettings | None = None,
) -> SweepPlan:
    """Plan a sweep of ``sc``; arguments left ``None`` come from the scenario's ``[sweep]`` table.

    With a ``panel`` (here or ``[sweep] panel``), every pairing is played under each panel bot in
    both seats, on the same seeds, and ``bots`` is not used.

    Raises:
        ValueError: games < 1, chunk size < 1, a seed out of range, a deck pattern matching
            nothing, a panel naming a bot twice, or a bot the scenario's game does not know (its
            ``bot_names`` hook).
    """
    d = sweep_defaults(sc)
    games = d["games"] if games is None else games
    if adaptive is not None:  # round 0's games per ordered pair; the rest is planned from results
        check_adaptive(adaptive)
        games = adaptive.first_steps
    if games < 1:
        raise ValueError(f"games per pair must be at least 1, got {games}")
    chunk_size = d["chunk_size"] if chunk_size is None else chunk_size
    if chunk_size < 1:
        raise ValueError(f"chunk size must be at least 1, got {chunk_size}")
    bots = tuple(bots) if bots else d["bots"]
    if len(bots) != 2:
        raise ValueError(f"--bots takes two bot names (first seat, second seat), got {','.join(bots)}")
    panel = tuple(panel) if panel else tuple(d["panel"])
    if len(set(panel)) != len(panel):
        raise ValueError(f"--panel names a bot twice: {','.join(panel)}")
    if panel:
        bots = (panel[0], panel[0])
    known = tuple(sc.plugin.bot_names(sc))  # checked here, before anything is written
    for b in (*bots, *panel):
        if b not in known:
            raise ValueError(f"unknown bot {b!r} (the scenario knows: {', '.join(known)})")
    chosen = select_decks(sc.decks, list(decks) if decks else d["decks"])
    return SweepPlan(
        scenario_path=str(sc.path.resolve()),
        scenario_hash=sc.hash,
        decks=chosen,
        games=games,
        bots=(bots[0], bots[1]),
        seed=d["seed"] if seed is None else check_seed(seed),
        chunk_size=chunk_size,
        panel=panel,
        adaptive=adaptive,
    )


# ----------------------------------------------------------------------------------------------
# the store


def _atomic_write(path: Path, write: Callable[[Path], None]) -> None:
    """Write through a temporary file in the same folder, then rename over ``path``.

    The temporary file is created with mode 0666 less the user's umask (as ``open`` would), so
    the file renamed into place has the permissions any other file the user writes has.
    """
    tmp = path.parent / f".{path.name}.{secrets.token_hex(6)}.tmp"
    os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    try:
        write(tmp)
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


def _write_meta(out: Path, meta: dict) -> None:
    _atomic_write(out / META, lambda p: p.write_text(json.dumps(meta, indent=2, ensure_ascii=False)))


def chunk_path(out: Path, k: int) -> Path:
    """The parquet file of chunk ``k``."""
    return out / CHUNKS / f"chunk-{k:05d}.parquet"


def _chunk_number(name: str) -> int | None:
    """``k`` when ``name`` is exactly chunk ``k``'s file name, else None."""
    stem, _, ext = name.partition(".")
    prefix, dash, digits = stem.partition("-")
    if prefix != "chunk" or not dash or ext != "parquet" or not (digits.isascii() and digits.isdigit()):
        return None
    k = int(digits)
    return k if name == f"chunk-{k:05d}.parquet" else None


def done_chunks(out: Path) -> set[int]:
    """Chunks whose files are on disk, by name (files are renamed into place whole when written).

    Any other name (``chunk-00003 (1).parquet``, a temporary file) is not a chunk. The contents are
    not checked here; :func:`load_results` and a resumed sweep check them against the plan.
    """
    folder = Path(out) / CHUNKS
    if not folder.is_dir():
        return set()
    return {k for p in folder.iterdir() if (k := _chunk_number(p.name)) is not None}


def read_meta(out: Path) -> dict:
    """The sweep's ``meta.json``.

    Raises:
        ValueError: DIR is missing or holds no sweep.
    """
    out = Path(out)
    if not out.is_dir():
        raise ValueError(f"{out}: no such results folder")
    try:
        meta = json.loads((out / META).read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"{out}: not a simkit results folder (no {META})") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"{out / META}: unreadable: {exc}") from None
    if not isinstance(meta, dict):
        raise ValueError(f"{out / META}: unreadable: not a JSON object")
    return meta


def plan_dict(plan: SweepPlan) -> dict:
    """The plan as ``meta.json`` stores it (without the scenario's path, with the chunk count)."""
    d = asdict(plan)
    d.pop("scenario_path")
    d["decks"], d["bots"] = list(plan.decks), list(plan.bots)
    if plan.panel:
        d["panel"] = list(plan.panel)
    else:
        d.pop("panel")  # a plan without a panel is stored as before panels existed
    d["chunk_count"] = plan.chunk_count
    if plan.adaptive is None:
        d.pop("adaptive")
    else:  # planned round by round: meta.json's "rounds" lay out the chunks
        d["adaptive"], d["chunk_count"] = plan.adaptive.to_dict(), None
    return d


def plan_of(out: str | Path, meta: dict | None = None) -> SweepPlan:
    """The plan a results folder was written for, read from its ``meta.json`` and checked.

    Args:
        out: the results folder.
        meta: its ``meta.json`` when already read.

    Raises:
        ValueError: ``DIR/meta.json: plan: problem`` when the plan is missing, incomplete or
            inconsistent (e.g. a chunk count that does not fit its games and chunk size).
    """
    out = Path(out)
    meta = read_meta(out) if meta is None else meta
    where = f"{out / META}: plan"
    d = meta.get("plan")
    if not isinstance(d, dict):
        raise ValueError(f"{where}: missing (not a folder written by simkit sweep)")
    missing = [k for k in PLAN_KEYS if k not in d]
    if missing:
        raise ValueError(f"{where}: missing {', '.join(missing)} (not a folder written by simkit sweep)")
    adaptive = d.get("adaptive")
    if adaptive is not None:
        try:
            adaptive = AdaptiveSettings.from_dict(adaptive)
        except (TypeError, ValueError, KeyError) as exc:
            raise ValueError(f"{where}: adaptive: malformed ({exc})") from None
    ints = {k: d[k] for k in ("games", "seed", "chunk_size", "chunk_count") if k != "chunk_count" or not adaptive}
    bad = [k for k, v in ints.items() if isinstance(v, bool) or not isinstance(v, int)]
    panel = d.get("panel", [])
    if bad or not isinstance(d["decks"], list) or not isinstance(d["bots"], list) or not isinstance(panel, list):
        raise ValueError(f"{where}: malformed ({', '.join(bad) or 'decks, bots, panel'})")
    plan = SweepPlan(
        scenario_path=str(meta.get("scenario_path", "")),
        scenario_hash=str(d["scenario_hash"]),
        decks=tuple(map(str, d["decks"])),
        games=ints["games"],
        bots=tuple(map(str, d["bots"])),  # type: ignore[arg-type]
        seed=ints["seed"],
        chunk_size=ints["chunk_size"],
        panel=tuple(map(str, panel)),
        adaptive=adaptive,
    )
    if not plan.decks or plan.games < 1 or plan.chunk_size < 1 or len(plan.bots) != 2:
        raise ValueError(f"{where}: malformed (decks, games, chunk_size or bots)")
    if not adaptive and ints["chunk_count"] != plan.chunk_count:
        raise ValueError(
            f"{where}: chunk_count is {ints['chunk_count']}, but {plan.total_games} games in chunks of "
            f"{plan.chunk_size} make {plan.chunk_count}"
        )
    if meta.get("scenario_hash", plan.scenario_hash) != plan.scenario_hash:
        raise ValueError(f"{where}: scenario_hash {plan.scenario_hash} differs from the folder's "
                         f"{meta.get('scenario_hash')}")
    return plan


def check_chunk(plan: SweepPlan, k: int, df: pd.DataFrame) -> str | None:
    """How chunk ``k``'s rows differ from the plan, or None when they are exactly its games.

    The rows must be the chunk's games in plan order: first and second deck, game index and seed
    of each, and (where the columns exist) the plan's bots and scenario hash.
    """
    c = plan.chunk(k)
    missing = [col for col in ("first_deck", "second_deck", "game", "seed") if col not in df.columns]
    if missing:
        return f"missing column(s) {', '.join(missing)}"
    if len(df) != len(c.games):
        return f"holds {len(df)} games where the plan puts {len(c.games)}"
    planned = {"first_deck": c.first_decks, "second_deck": c.second_decks, "game": c.games, "seed": c.seeds}
    first_bad = None  # (row, column, found, planned) of the earliest row that differs
    for col, want in planned.items():
        got = df[col].to_numpy()
        differs = np.flatnonzero(got != np.asarray(want, dtype=object if got.dtype == object else None))
        if len(differs) and (first_bad is None or differs[0] < first_bad[0]):
            i = int(differs[0])
            first_bad = (i, col, got[i].item() if hasattr(got[i], "item") else got[i], want[i])
    if first_bad is not None:
        i, col, found, plan_value = first_bad
        return f"row {i}: {col} is {found!r} where the plan has {plan_value!r}"
    expected = {"first_bot": c.bots[0], "second_bot": c.bots[1], "scenario_hash": plan.scenario_hash}
    for col, want in expected.items():
        values = df[col].to_numpy() if col in df.columns else None
        if values is not None and (values != want).any():
            return f"{col} is {values[values != want][0]!r} where the plan has {want!r}"
    return None


def read_chunk(plan: SweepPlan, k: int, path: Path) -> tuple[pd.DataFrame | None, str | None]:
    """Chunk ``k``'s rows from ``path`` and ``None``, or ``None`` and what is wrong with the file."""
    try:
        df = pd.read_parquet(path)
    except Exception as exc:  # a truncated or foreign file: pyarrow raises several kinds
        first = str(exc).strip().splitlines()
        return None, f"unreadable ({first[0] if first else type(exc).__name__})"
    problem = check_chunk(plan, k, df)
    return (None, problem) if problem else (df, None)


def scan_chunks(out: Path, plan: SweepPlan) -> tuple[dict[int, Path], list[Path]]:
    """The plan's chunk files present in ``DIR/chunks``, and every other entry there (not hidden).

    Returns:
        ``({k: path}, strays)``: a stray is anything but a file named as one of the plan's chunks.
    """
    folder = Path(out) / CHUNKS
    found: dict[int, Path] = {}
    strays: list[Path] = []
    if not folder.is_dir():
        return found, strays
    for p in sorted(folder.iterdir()):
        if p.name.startswith("."):  # hidden: a chunk being written, or a desktop's own file
            continue
        k = _chunk_number(p.name)
        if k is None or k >= plan.chunk_count or not p.is_file():
            strays.append(p)
        else:
            found[k] = p
    return found, strays


def _warn(message: str) -> None:
    warnings.warn(message, ResultsFolderWarning, stacklevel=3)


def _visible_entries(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if not p.name.startswith(".")) if folder.is_dir() else []


def _make_folder(out: Path) -> None:
    """Create DIR and DIR/chunks and check that DIR is writable."""
    try:
        (out / CHUNKS).mkdir(parents=True, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=out, prefix=".probe", delete=True)
        probe.close()
    except OSError as exc:
        raise ValueError(f"{out}: results folder is not writable ({exc.strerror})") from None


@contextmanager
def folder_lock(out: str | Path) -> Iterator[int]:
    """Hold the results folder's writer lock: one sweep writes to a folder at a time.

    An ``flock`` on ``DIR/.sweep.lock``: the kernel releases it when the holder's process ends,
    however it ends (SIGKILL included), so a killed sweep never leaves the folder locked. Yields
    the lock file's descriptor (forked workers close their copy, see :func:`_local_results`).

    Raises:
        ValueError: another process holds the lock (the message gives its pid), or the file
            system cannot lock.
    """
    import fcntl

    path = Path(out) / LOCK
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            raise ValueError(
                f"{out}: another sweep (pid {holder}) is writing to this folder: wait for it to end, "
                "or choose another --out"
            ) from None
        except OSError as exc:  # a file system without locks: refuse rather than risk two writers
            raise ValueError(f"{path}: cannot lock the results folder ({exc.strerror})") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        yield fd
    finally:
        os.close(fd)  # releases the lock


def prepare_store(out: Path, plan: SweepPlan, sc: Scenario, resume: bool) -> set[int]:
    """Create or check the results folder; returns the chunks already done (checked, when resuming).

    Call it holding :func:`folder_lock`. A new folder gets its ``meta.json``; an existing one must
    hold this very plan. When resuming, every chunk on disk is read and checked against the plan
    (:func:`check_chunk`); a truncated, unreadable or foreign chunk is not done and will be played
    again (a :class:`ResultsFolderWarning` names it), and any other file in ``DIR/chunks`` is
    ignored with a warning naming it.

    Raises:
        ValueError: DIR is not writable; holds chunks but no ``meta.json``; holds another
            scenario's results or a different plan; or already holds results and ``resume`` is false.
    """
    out = Path(out)
    _make_folder(out)
    plan_d = plan_dict(plan)
    if not (out / META).exists():
        leftovers = _visible_entries(out / CHUNKS)
        if leftovers:
            raise ValueError(
                f"{out}: {CHUNKS}/ holds {len(leftovers)} file(s) (e.g. {leftovers[0].name}) but there is no "
                f"{META} saying which sweep they belong to: choose another --out"
            )
    else:
        meta = read_meta(out)
        if meta.get("scenario_hash") != sc.hash:
            raise ValueError(
                f"{out} holds results of another scenario ({meta.get('scenario_name')!r}, hash "
                f"{meta.get('scenario_hash')}); this one is {sc.name!r} (hash {sc.hash}): choose another --out"
            )
        if meta.get("plan") != plan_d:
            old = meta.get("plan") if isinstance(meta.get("plan"), dict) else {}
            diff = [k for k in plan_d if old.get(k) != plan_d[k]]
            raise ValueError(f"{out} holds a sweep with a different plan ({', '.join(diff)}): choose another --out")
        named = done_chunks(out)
        layout = layout_of(plan, meta)
        if named and not resume:
            state = ("complete" if len(named) >= layout.chunk_count and (plan.adaptive is None or meta.get("finished"))
                     else f"{len(named)}/{layout.chunk_count} chunks done")
            raise ValueError(f"{out} already holds this sweep ({state}): pass --resume to finish it, or another --out")
        return _verified_chunks(out, layout)
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
        "panel": list(plan.panel),
        "plan": plan_d,
        **({"rounds": []} if plan.adaptive is not None else {}),
        "game": sc.game,
        "schema": sc.plugin.schema.as_meta(),
        "deck_cards": {d: {k: list(v) for k, v in sc.plugin.deck_cards(sc.rules, d).items()} for d in plan.decks},
    }
    _write_meta(out, meta)
    return set()


def _verified_chunks(out: Path, plan: SweepPlan) -> set[int]:
    """The chunks on disk that hold exactly their planned games; warns about every other file."""
    for tmp in (out / CHUNKS).glob(".chunk-*.tmp"):  # a write cut short; no one else writes (locked)
        tmp.unlink(missing_ok=True)
    found, strays = scan_chunks(out, plan)
    for p in strays:
        _warn(f"{p}: not a chunk of this sweep's plan, ignored")
    done = set()
    for k, p in found.items():
        _, problem = read_chunk(plan, k, p)
        if problem:
            _warn(f"{p}: {problem}: it will be played again")
        else:
            done.add(k)
    return done


def write_chunk(out: Path, k: int, df: pd.DataFrame) -> None:
    """Write chunk ``k`` atomically."""
    _atomic_write(chunk_path(out, k), lambda p: df.to_parquet(p, index=False))


def load_results(out: str | Path) -> pd.DataFrame:
    """All games of a results folder, one row each, sorted by (first_deck, second_deck, game).

    Exactly the planned games on disk, each once with its planned seed: only the plan's chunk
    names are read, any other file in ``DIR/chunks`` is ignored with a
    :class:`ResultsFolderWarning` naming it, and every chunk must hold exactly its planned rows
    (see :func:`check_chunk`). An unfinished sweep gives the games of its finished chunks.

    ``df.attrs["meta"]`` holds the sweep's metadata (scenario name, path, hash and text, rules
    version, simkit version, started/finished, games per pair, decks, bots, plan), plus
    ``complete`` (every planned chunk is on disk), ``missing_chunks`` and ``ignored_files``.

    Raises:
        ValueError: one line: the folder is missing, holds no sweep or no games yet, its plan is
            malformed, or a chunk is unreadable or does not hold its planned games (naming the
            file; ``simkit sweep --resume`` plays it again).
    """
    out = Path(out)
    meta = read_meta(out)
    if not _visible_entries(out / CHUNKS):
        raise ValueError(f"{out}: the sweep has no finished games yet")
    plan = layout_of(plan_of(out, meta), meta)
    found, strays = scan_chunks(out, plan)
    for p in strays:
        _warn(f"{p}: not a chunk of this sweep's plan, ignored")
    if not found:
        raise ValueError(f"{out}: the sweep has no finished games yet")
    frames = []
    for k, p in sorted(found.items()):
        df, problem = read_chunk(plan, k, p)
        if problem:
            raise ValueError(f"{p}: {problem}: run simkit sweep with --resume on this folder to play it again")
        frames.append(df)
    df = pd.concat(frames, ignore_index=True)
    if plan.panel:  # panel order, then pairs and games
        rank = {b: i for i, b in enumerate(plan.panel)}
        df = df.sort_values(["first_bot", "first_deck", "second_deck", "game"], kind="stable",
                            key=lambda col: col.map(rank) if col.name == "first_bot" else col)
    else:
        df = df.sort_values(["first_deck", "second_deck", "game"], kind="stable")
    df = df.reset_index(drop=True)
    per_pair = df.groupby(["first_bot", "second_bot", "first_deck", "second_deck"], sort=False).size()
    if (per_pair > plan.games).any() or (len(found) == plan.chunk_count and len(df) != plan.total_games):
        raise ValueError(f"{out}: games per pair differ from the plan's {plan.games}")  # impossible by the checks
    meta["complete"] = len(found) == plan.chunk_count and (meta.get("adaptive_result") is not None
                                                            or not isinstance(plan, AdaptiveLayout))
    meta["missing_chunks"] = plan.chunk_count - len(found)
    meta["ignored_files"] = [p.name for p in strays]
    if isinstance(plan, AdaptiveLayout):
        meta["games_per_pair"] = f"{int(per_pair.min())}-{int(per_pair.max())} (adaptive)"
    df.attrs["meta"] = meta
    return df


# ----------------------------------------------------------------------------------------------
# executors


def _close_in_worker(fd: int | None) -> None:
    """Close a forked worker's copy of the folder lock, so the lock ends with the sweep's process."""
    if fd is not None:
        os.close(fd)


def _local_results(chunks: list[Chunk], workers: int, lock_fd: int | None = None) -> Iterator[pd.DataFrame]:
    if workers <= 1:
        for c in chunks:
            yield play_chunk(c)
        return
    import multiprocessing as mp
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    ctx = mp.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx, initializer=_close_in_worker,
                             initargs=(lock_fd,)) as pool:
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
        workers: local worker processes, 1 to :func:`max_workers` (``None`` or 0: one per core);
            not used with ``scheduler``.
        resume: continue a sweep whose folder already holds chunks (the chunks kept are checked
            first; a truncated or corrupt one is played again).
        scheduler: a Dask scheduler address ``tcp://HOST:PORT`` to play the chunks on a cluster.
        progress: show a progress bar (default: only when stderr is a terminal).

    Returns:
        The results folder.

    Raises:
        ValueError: workers out of range; another sweep writing to ``out`` (see
            :func:`folder_lock`); see :func:`prepare_store`; an unreachable scheduler; a played
            chunk that is not its planned games (e.g. the scenario file changed mid-sweep).
    """
    out = Path(out)
    workers = check_workers(workers)
    if sc.hash != plan.scenario_hash:
        raise ValueError(f"the plan is for scenario hash {plan.scenario_hash}, not {sc.name!r} ({sc.hash})")
    _make_folder(out)
    with folder_lock(out) as lock_fd:
        done = prepare_store(out, plan, sc, resume)
        handler = _start_logging(out)
        try:
            if plan.adaptive is not None:
                return _play_adaptive(sc, plan, out, workers, scheduler, progress, done, lock_fd)
            return _play(sc, plan, out, workers, scheduler, progress, done, lock_fd)
        finally:
            _stop_logging(handler)


def _play(sc, plan, out, workers, scheduler, progress, done, lock_fd) -> Path:
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
    results = _dask_results(todo, scheduler) if scheduler else _local_results(todo, workers, lock_fd)
    try:
        for df in results:
            k = _chunk_index(plan, df)
            problem = check_chunk(plan, k, df)
            if problem:  # never on disk: e.g. a worker loaded the scenario file after it was edited
                raise ValueError(f"chunk {k} as played is not the planned games: {problem}")
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
    block = plan.bot_pairs.index((first["first_bot"], first["second_bot"]))
    pair = plan.decks.index(first["first_deck"]) * len(plan.decks) + plan.decks.index(first["second_deck"])
    return block * plan.block_chunks + (pair * plan.games + int(first["game"])) // plan.chunk_size


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


# ----------------------------------------------------------------------------------------------
# adaptive sweeps: rounds planned from the games already played


class AdaptiveLayout:
    """The games and chunks of an adaptive sweep, replayed from the rounds in ``meta.json``.

    Each round records ``counts``: the games every ordered pair (i first, j second; plan order,
    row by row) has once the round is played; with a bot panel, one such table per panel bot
    (panel order). A round plays games ``before..counts - 1`` of each pair, every game with its
    uniform seed ``derive_seed(seed, A, B, g)``; its games are sorted by (bot, first deck, second
    deck, game) in plan order and cut into chunks numbered on from the previous round's, a chunk
    never mixing two bots. So every pair's games are always a prefix 0..n-1, as in a uniform sweep.

    Attributes (as :class:`SweepPlan`'s, for the folder checks): ``decks``, ``bots``, ``panel``,
    ``bot_pairs``, ``scenario_hash``, ``chunk_count``, ``total_games``, ``games`` (the most games of
    a pair), plus ``counts`` (games per bot and ordered pair, ``int[B, D, D]``, B = 1 without a
    panel) and ``rounds`` (the records).
    """

    def __init__(self, plan: SweepPlan, rounds: list[dict] | None = None):
        self.plan = plan
        self.decks, self.bots, self.scenario_hash = plan.decks, plan.bots, plan.scenario_hash
        self.panel, self.bot_pairs = plan.panel, plan.bot_pairs
        d, blocks = len(plan.decks), len(plan.bot_pairs)
        self.counts = np.zeros((blocks, d, d), np.int64)
        self._chunks: list[list[tuple[int, int, int, int]]] = []
        self.rounds: list[dict] = []
        shape = f"{blocks} x {d} x {d}" if plan.panel else f"{d} x {d}"
        for r, rnd in enumerate(rounds or []):
            where = f"{META}: rounds[{r}]"
            try:
                target = np.asarray(rnd["counts"], dtype=np.int64).reshape(blocks, d, d)
            except (KeyError, TypeError, ValueError):
                raise ValueError(f"{where}: counts: malformed (not {shape} games per ordered pair)") from None
            first = len(self._chunks)
            games = self._lay_out(target, where)
            if rnd.get("first_chunk") != first or rnd.get("games") != games \
                    or rnd.get("chunk_count") != len(self._chunks) - first:
                raise ValueError(f"{where}: first_chunk, chunk_count or games do not fit the rounds before it")
            self.rounds.append(rnd)

    def _lay_out(self, target: np.ndarray, where: str) -> int:
        """Add the chunks that take every pair from its count to ``target``; returns the games added."""
        target = np.asarray(target, np.int64).reshape(self.counts.shape)
        if (target < self.counts).any():
            raise ValueError(f"{where}: counts: a pair would lose games")
        d, added = len(self.decks), 0
        for b in range(len(self.bot_pairs)):
            games = [(b, i, j, g) for i in range(d) for j in range(d) for g in range(self.counts[b, i, j],
                                                                                    target[b, i, j])]
            for lo in range(0, len(games), self.plan.chunk_size):
                self._chunks.append(games[lo:lo + self.plan.chunk_size])
            added += len(games)
        self.counts = target.copy()
        return added

    @property
    def chunk_count(self) -> int:
        """Chunks of every recorded round."""
        return len(self._chunks)

    @property
    def total_games(self) -> int:
        """Games of every recorded round."""
        return int(self.counts.sum())

    @property
    def games(self) -> int:
        """The most games any ordered pair has."""
        return int(self.counts.max())

    def chunk(self, k: int) -> Chunk:
        """The games of chunk ``k``."""
        games, dk, seed = self._chunks[k], self.decks, self.plan.seed
        return Chunk(
            k, self.plan.scenario_path, self.bot_pairs[games[0][0]] if games else self.bots,
            tuple(dk[i] for _, i, _, _ in games), tuple(dk[j] for _, _, j, _ in games),
            tuple(g for *_, g in games), tuple(derive_seed(seed, dk[i], dk[j], g) for _, i, j, g in games),
        )

    def add_round(self, target: np.ndarray, status: dict) -> dict:
        """Lay out a new round that brings every pair to ``target`` games; returns its ``meta.json`` record."""
        first = len(self._chunks)
        games = self._lay_out(np.asarray(target, np.int64), "new round")
        counts = self.counts if self.panel else self.counts[0]  # a one-bot sweep stores D x D, as before panels
        rnd = {"round": len(self.rounds), "first_chunk": first, "chunk_count": len(self._chunks) - first,
               "games": games, "units": status, "counts": counts.tolist()}
        self.rounds.append(rnd)
        return rnd

    def chunk_index(self, df: pd.DataFrame) -> int:
        """The chunk whose games ``df`` holds (from its first row)."""
        first = df.iloc[0]
        block = self.bot_pairs.index((first["first_bot"], first["second_bot"])) if "first_bot" in df.columns else 0
        key = (block, self.decks.index(first["first_deck"]), self.decks.index(first["second_deck"]),
               int(first["game"]))
        for k, games in enumerate(self._chunks):
            if games and games[0] == key:
                return k
        raise ValueError(f"no chunk of the adaptive plan starts with {key}")


def layout_of(plan: SweepPlan, meta: dict) -> SweepPlan | AdaptiveLayout:
    """``plan`` itself for a uniform sweep; the :class:`AdaptiveLayout` of ``meta``'s rounds for an adaptive one."""
    if plan.adaptive is None:
        return plan
    rounds = meta.get("rounds", [])
    if not isinstance(rounds, list) or not all(isinstance(r, dict) for r in rounds):
        raise ValueError(f"{META}: rounds: malformed")
    return AdaptiveLayout(plan, rounds)


def next_round(layout: AdaptiveLayout, df: pd.DataFrame | None) -> tuple[np.ndarray | None, dict, str]:
    """The games per ordered pair after the next round of an adaptive sweep, from the games played so far.

    Round 0 (no games yet) plays ``first_steps`` games of every ordered pair. Later rounds take
    every *active* unit (see :func:`simkit.analysis.sequential.unit_status`) to its next look
    (:meth:`~simkit.analysis.sequential.AdaptiveSettings.looks`, up to ``horizon``): a matchup
    (active while its rate or its first-seat rate is) plays games of both seatings, a mirror more
    games, a deck (active while its rate or its first-seat rate is) more complete levels against
    every opponent in both seatings, the overall first seat more levels of every pair. Pair units
    come first: decks and the overall first seat grow once no pair unit is active. With a bot
    panel, each panel bot's games are units of their own, planned the same way.
    When the round would pass ``max_games``, the pairs' units are served first (scaled down,
    rounding down, if even they do not fit), then the decks that fit, cheapest first.
    Depends only on the games, so a resumed sweep plans the very same rounds.

    Returns:
        ``(counts, status, reason)``: ``counts`` (``int[B, D, D]``) None when the sweep stops;
        ``status`` counts units by kind and decision (``bot/kind/decision`` with a panel);
        ``reason`` says why it stops (``settled``, ``max_games``) or is ``""``.
    """
    s = layout.plan.adaptive
    n = layout.counts
    wider: list[np.ndarray] = []
    status: dict = {}
    pairs_target = n.copy()
    df = pd.DataFrame() if df is None else df
    for b, (first_bot, second_bot) in enumerate(layout.bot_pairs):
        part = df
        if "first_bot" in df.columns and len(layout.bot_pairs) > 1:
            part = df[(df["first_bot"] == first_bot) & (df["second_bot"] == second_bot)]
        block_status, pairs_target[b], wider_b = _plan_block(layout, n[b], part)
        prefix = f"{first_bot}/" if layout.panel else ""
        status.update({prefix + k: v for k, v in block_status.items()})
        for t in wider_b:
            full = n.copy()
            full[b] = t
            wider.append(full)
    target = pairs_target
    if not (pairs_target > n).any():  # the cheapest answers first: decks once every pair's units stop
        for t in wider:
            target = np.maximum(target, t)
    added = target - n
    if added.sum() == 0:
        return None, status, "settled"
    if s.max_games:
        left = max(s.max_games - layout.total_games, 0)
        if added.sum() > left:  # pairs' units first, then decks by the games they add
            target = pairs_target
            if (target - n).sum() > left:
                target = n + np.floor((target - n) * (left / (target - n).sum())).astype(np.int64)
            for t in sorted(wider, key=lambda t: int((np.maximum(target, t) - target).sum())):
                if (np.maximum(target, t) - n).sum() <= left:
                    target = np.maximum(target, t)
            added = target - n
            if added.sum() == 0:
                return None, status, "max_games"
    return n + added, status, ""


def _plan_block(layout: AdaptiveLayout, n: np.ndarray, df: pd.DataFrame) -> tuple[dict, np.ndarray, list]:
    """One bot's part of :func:`next_round`: its units' status, the pairs' targets, the wider units' targets
    (round 0, without games: ``first_steps`` games of every pair)."""
    from simkit.analysis.sequential import unit_status

    s = layout.plan.adaptive
    d = len(layout.decks)
    if len(df) == 0:
        return {}, np.minimum(np.maximum(n, s.first_steps), s.horizon), []
    units = unit_status(df, s, list(layout.decks))
    status = {f"{k}/{st}": int(v) for (k, st), v in units.groupby(["kind", "status"]).size().items()}
    active = units[units["status"] == "active"]
    code = {x: i for i, x in enumerate(layout.decks)}
    looks = np.asarray(s.looks(), np.int64)

    def next_look(level: int) -> int:
        return int(looks[np.searchsorted(looks, level, side="right")]) if level < s.horizon else level

    pairs_target = n.copy()
    pairs = active[active["scope"] == "matchup"]
    for a, b in zip(pairs["deck"].map(code), pairs["opponent"].map(code), strict=True):
        goal = next_look(min(n[a, b], n[b, a]))
        pairs_target[a, b] = pairs_target[b, a] = max(pairs_target[a, b], goal)
    wider = []  # the units that grow many pairs at once: each deck, then the overall first seat
    off = ~np.eye(d, dtype=bool)
    for a in sorted(set(active.loc[active["scope"] == "deck", "deck"].map(code))):
        goal = next_look(min(n[a][off[a]].min(), n[:, a][off[a]].min()))
        t = n.copy()
        t[a, off[a]] = np.maximum(t[a, off[a]], goal)
        t[off[a], a] = np.maximum(t[off[a], a], goal)
        wider.append(t)
    if (active["scope"] == "overall").any():
        wider.append(np.maximum(n, next_look(int(n.min()))))
    cap = np.full_like(n, s.horizon)
    return (status, np.maximum(np.minimum(pairs_target, cap), n),
            [np.maximum(np.minimum(t, cap), n) for t in wider])


def _play_adaptive(sc, plan, out, workers, scheduler, progress, done, lock_fd) -> Path:
    """Play an adaptive sweep round by round, recording each round in ``meta.json`` before playing it."""
    from tqdm import tqdm

    show = sys.stderr.isatty() if progress is None else progress
    started = time.perf_counter()
    played = 0
    meta = read_meta(out)
    layout = layout_of(plan, meta)
    frames: dict[int, pd.DataFrame] = {}
    for k in sorted(done):
        frames[k], problem = read_chunk(layout, k, chunk_path(out, k))
        if problem:  # checked a moment ago by prepare_store
            raise ValueError(f"{chunk_path(out, k)}: {problem}")
    while True:
        todo = [layout.chunk(k) for k in range(layout.chunk_count) if k not in frames]
        if todo:
            n_games = sum(len(c.games) for c in todo)
            log.info("adaptive sweep %s: round %d, %d games in %d chunks", sc.name, len(layout.rounds) - 1,
                     n_games, len(todo))
            bar = tqdm(total=n_games, unit="game", disable=not show, smoothing=0.1,
                       desc=f"round {len(layout.rounds) - 1}")
            results = _dask_results(todo, scheduler) if scheduler else _local_results(todo, workers, lock_fd)
            try:
                for df in results:
                    k = layout.chunk_index(df)
                    problem = check_chunk(layout, k, df)
                    if problem:
                        raise ValueError(f"chunk {k} as played is not the planned games: {problem}")
                    write_chunk(out, k, df)
                    frames[k] = df
                    bar.update(len(df))
                    played += len(df)
            finally:
                bar.close()
        games = pd.concat([frames[k] for k in sorted(frames)], ignore_index=True) if frames else None
        target, status, reason = next_round(layout, games)
        meta = read_meta(out)
        if target is None:
            meta["adaptive_result"] = {"stopped": reason, "rounds": len(layout.rounds),
                                       "games": layout.total_games, "units": status}
            break
        rnd = layout.add_round(target, status)
        meta["rounds"] = layout.rounds
        _write_meta(out, meta)
        log.info("adaptive sweep: round %d planned, %d games (%s)", rnd["round"], rnd["games"], status)
    elapsed = time.perf_counter() - started
    meta["finished"] = datetime.now(UTC).isoformat(timespec="seconds")
    meta.setdefault("runs", []).append(
        {"games": played, "seconds": round(elapsed, 2), "workers": None if scheduler else workers,
         "scheduler": scheduler}
    )
    _write_meta(out, meta)
    log.info("adaptive sweep done (%s): %d games played now, %d in all, %d rounds", reason, played,
             layout.total_games, len(layout.rounds))
    return out
