"""The results folder: ``meta.json``, atomic parquet chunks, the writer lock, and :func:`load_results`.

The folder's guarantee: :func:`load_results` returns exactly the planned games on disk, each
once, with its planned seed. Only the plan's chunk names are read (any other file in
``DIR/chunks`` is ignored with a :class:`ResultsFolderWarning` naming it; hidden files are
skipped silently), and every chunk read must hold exactly its planned rows (decks, game
indices, seeds, bots, scenario hash), else the load is refused naming the file. One sweep
writes to a folder at a time (``DIR/.sweep.lock``, an ``flock`` released when its process
dies); a resumed sweep checks the chunks it keeps and plays again any that are not whole.
"""

from __future__ import annotations

import json
import shlex
import tempfile
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.analysis.sequential import AdaptiveSettings
from simkit.core import __version__, files
from simkit.core.files import held_lock
from simkit.core.seats import SeatPools
from simkit.core.settings import refuse_other_settings
from simkit.scenario import Scenario
from simkit.sweep.adaptive import AdaptiveLayout, layout_of
from simkit.sweep.plan import CHUNKS, LOCK, LOG, META, SweepPlan

#: the keys of ``meta.json``'s plan
PLAN_KEYS = ("scenario_hash", "decks", "games", "bots", "seed", "chunk_size", "chunk_count")


class ResultsFolderWarning(UserWarning):
    """A results folder holds something that is not part of its plan (ignored), or a chunk played again."""



def atomic_write(path: Path, write: Callable[[Path], None], remove_stale: bool = True) -> None:
    """Write through a temporary file of this process in the same folder, then rename over ``path``
    (:func:`simkit.core.files.atomic_write`: created exclusively, never through a symlink, removed on failure)."""
    files.atomic_write(path, write, remove_stale=remove_stale)


def write_meta(out: Path, meta: dict) -> None:
    atomic_write(out / META, lambda p: p.write_text(json.dumps(meta, indent=2, ensure_ascii=False)))


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
    d.pop("pools")
    d = {"scenario_hash": d.pop("scenario_hash"), "decks": list(plan.pools.first),
         "second_decks": list(plan.pools.second), **d}  # the two seats' pools, equal when the seats are alike
    d["bots"] = list(plan.bots)
    if plan.panel:
        d["panel"] = list(plan.panel)
    else:
        d.pop("panel")  # a plan without a panel is stored as before panels existed
    if not plan.bots_from:
        d.pop("bots_from")  # the scenario's own bots: stored as before --bots-from existed
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
    seconds = d.get("second_decks", d["decks"])  # a folder written before both pools were stored: alike seats
    bots_from = d.get("bots_from", "")
    if bad or not isinstance(d["decks"], list) or not isinstance(d["bots"], list) or not isinstance(panel, list) \
            or not isinstance(seconds, list) or not isinstance(bots_from, str):
        raise ValueError(f"{where}: malformed ({', '.join(bad) or 'decks, bots, panel, second_decks, bots_from'})")
    plan = SweepPlan(
        scenario_path=str(meta.get("scenario_path", "")),
        scenario_hash=str(d["scenario_hash"]),
        pools=SeatPools(tuple(map(str, d["decks"])), tuple(map(str, seconds))),
        games=ints["games"],
        bots=tuple(map(str, d["bots"])),  # type: ignore[arg-type]
        seed=ints["seed"],
        chunk_size=ints["chunk_size"],
        panel=tuple(map(str, panel)),
        adaptive=adaptive,
        bots_from=bots_from,
    )
    if not plan.pools.first or not plan.pools.second or plan.games < 1 or plan.chunk_size < 1 or len(plan.bots) != 2:
        raise ValueError(f"{where}: malformed (decks, second_decks, games, chunk_size or bots)")
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


def make_folder(out: Path) -> None:
    """Create DIR and DIR/chunks and check that DIR is writable."""
    for inside in (out / CHUNKS, out / META, out / LOG):  # a symlink planted in the folder is never followed
        files.refuse_symlink(inside)
    try:
        (out / CHUNKS).mkdir(parents=True, exist_ok=True)
        probe = tempfile.NamedTemporaryFile(dir=out, prefix=".probe", delete=True)
        probe.close()
    except OSError as exc:
        raise ValueError(f"{out}: results folder is not writable ({exc.strerror})") from None


@contextmanager
def folder_lock(out: str | Path) -> Iterator[int]:
    """Hold the results folder's writer lock: one sweep writes to a folder at a time.

    An ``flock`` on ``DIR/.sweep.lock`` (:func:`simkit.core.files.held_lock`): the kernel releases it when
    the holder's process ends, however it ends (SIGKILL included), so a killed sweep never leaves the
    folder locked. Yields the lock file's descriptor (forked workers close their copy, see
    :func:`_local_results`).

    Raises:
        ValueError: another process holds the lock (the message gives its pid), or the file
            system cannot lock.
    """

    def busy(pid: str) -> str:
        return (f"{out}: another sweep (pid {pid}) is writing to this folder: wait for it to end, "
                "or choose another --out")

    with held_lock(Path(out) / LOCK, busy, "the results folder") as fd:
        yield fd


def clear_store(out: Path) -> int:
    """Delete what a sweep wrote in ``out`` (``meta.json``, its chunk files and temporaries, ``sweep.log``);
    every other file stays. Call it holding :func:`folder_lock`. Returns the files deleted."""
    out = Path(out)
    gone = [out / META, out / LOG]
    folder = out / CHUNKS
    if folder.is_dir():
        gone += [p for p in folder.iterdir() if _chunk_number(p.name) is not None
                 or (p.name.startswith(".chunk-") and (p.name.endswith(".tmp") or p.name.endswith(".tmp.parquet")))]
    n = 0
    for path in gone:
        if path.is_file() and not path.is_symlink():
            path.unlink()
            n += 1
    return n


class SweepFinished(ValueError):
    """The folder already holds this very sweep, finished: there is nothing to play (``simkit sweep`` says so and
    exits 0; ``--overwrite`` plays it again)."""

    def __init__(self, out: Path):
        self.out = Path(out)
        super().__init__(f"{out} already holds this sweep, finished: nothing to play (pass --overwrite to play it "
                         "again, or choose another --out)")


def prepare_store(out: Path, plan: SweepPlan, sc: Scenario, resume: bool, overwrite: bool = False) -> set[int]:
    """Create or check the results folder; returns the chunks already done (checked, when resuming).

    Call it holding :func:`folder_lock`. A new folder gets its ``meta.json``; an existing one must
    hold this very plan. When resuming, every chunk on disk is read and checked against the plan
    (:func:`check_chunk`); a truncated, unreadable or foreign chunk is not done and will be played
    again (a :class:`ResultsFolderWarning` names it), and any other file in ``DIR/chunks`` is
    ignored with a warning naming it.

    With ``overwrite``, what an earlier sweep wrote there (any scenario, any plan) is deleted first
    (:func:`clear_store`) and the sweep starts again.

    Raises:
        SweepFinished: DIR already holds this very sweep, finished, and neither ``resume`` nor ``overwrite``
            is given (a :class:`ValueError`).
        ValueError: DIR is not writable; holds chunks but no ``meta.json``; holds another
            scenario's results or other settings (the first named with both its values); or already holds
            part of this sweep and neither ``resume`` nor ``overwrite`` is given.
    """
    out = Path(out)
    if resume and overwrite:
        raise ValueError("--resume and --overwrite: give one (finish the sweep in the folder, or start it again)")
    make_folder(out)
    if overwrite:
        clear_store(out)
    files.remove_stale_temps_in(out / CHUNKS)  # chunks a killed sweep was writing (their writes skip the listing)
    if (out / META).exists():
        return _kept_chunks(out, plan, sc, resume)
    leftovers = _visible_entries(out / CHUNKS)
    if leftovers:
        raise ValueError(f"{out}: {CHUNKS}/ holds {len(leftovers)} file(s) (e.g. {leftovers[0].name}) but there is "
                         f"no {META} saying which sweep they belong to: choose another --out")
    write_meta(out, new_meta(sc, plan))
    return set()


#: how the command line names each setting of a plan (what a resume must repeat)
PLAN_FLAGS = {"decks": "--decks (the first seat's pool)", "second_decks": "--decks (the second seat's pool)",
              "games": "--games", "bots": "--bots", "seed": "--seed", "chunk_size": "--chunk-size",
              "panel": "--panel", "adaptive": "the adaptive settings (--precision, --max-games, --horizon)",
              "bots_from": "--bots-from", "scenario_hash": "the scenario", "chunk_count": "the chunk count"}


def refuse_other_sweep(out: Path, plan: SweepPlan, sc: Scenario, meta: dict | None = None) -> None:
    """Refuse, in one line, a folder whose ``meta.json`` holds another sweep than ``plan`` of ``sc``: another
    scenario or bots file, or other settings (the first named, as its flag, with both its values). Without ``meta``
    it reads ``meta.json`` only when that is a plain, readable file (else it leaves the refusal to
    :func:`prepare_store`), and it writes nothing, so a resume is refused before the lock or any file is touched.

    Raises:
        ValueError: the refusal.
    """
    if meta is None:  # before the lock: only a plain, readable meta.json (prepare_store says what else is wrong)
        path = Path(out) / META
        if not path.is_file() or path.is_symlink():
            return
        try:
            meta = read_meta(out)
        except ValueError:
            return
    theirs = str((meta.get("plan") or {}).get("bots_from") or "") if isinstance(meta.get("plan"), dict) else ""
    if meta.get("scenario_hash") != sc.hash and theirs != plan.bots_from and str(sc.path) == meta.get("scenario_path"):
        raise ValueError(
            f"{out} holds a sweep of {sc.path} played with "
            + (f"the bots of {theirs}" if theirs else "its own bots") + ", this one plays "
            + (f"the bots of {plan.bots_from}" if plan.bots_from else "its own bots") + ": "
            + (f"add --bots-from {theirs}" if theirs else "drop --bots-from")
            + ", choose another --out, or pass --overwrite to replace them")
    if meta.get("scenario_hash") != sc.hash:
        raise ValueError(
            f"{out} holds results of another scenario ({meta.get('scenario_name')!r}, hash "
            f"{meta.get('scenario_hash')}); this one is {sc.name!r} (hash {sc.hash}): choose another --out, "
            "or pass --overwrite to replace them"
        )
    _refuse_other_programs(out, plan, sc, meta)
    # the folder's plan as this simkit stores it (an older folder's read the same way), against this one's
    refuse_other_settings(str(out), "a sweep", plan_dict(plan_of(out, meta)), plan_dict(plan), names=PLAN_FLAGS)


def outside_programs(sc: Scenario, plan: SweepPlan) -> dict[str, dict]:
    """The programs the plan's outside bots run (``docs/outside-bots.md``), by bot name: the command's words and the
    protocol spoken (``meta.json``'s ``outside_bots``: what a resume must run again)."""
    from simkit.outside.bots import outside_bots

    found = outside_bots(sc)
    names = dict.fromkeys(b for pair in plan.bot_pairs for b in pair)
    return {n: {"command": list(found[n].command), "protocol": found[n].protocol} for n in names if n in found}


def _refuse_other_programs(out: Path, plan: SweepPlan, sc: Scenario, meta: dict) -> None:
    """Refuse, in one line, to resume a sweep whose outside bot ran another program (or spoke another protocol)
    than this command gives it: its games so far are that program's. A folder from before ``outside_bots`` was
    recorded is not checked.

    Raises:
        ValueError: the refusal, naming the bot, both commands and the flag that resumes it.
    """
    theirs = meta.get("outside_bots")
    if not isinstance(theirs, dict):
        return
    ours = outside_programs(sc, plan)
    for name in sorted(set(theirs) | set(ours)):
        was, now = theirs.get(name), ours.get(name)
        if was == now:
            continue
        if isinstance(was, dict):
            hint = f"give --bot {name}={shlex.quote(_words(was))}" + (
                "" if was.get("protocol", "simkit") == "simkit" else f" --bot-protocol {name}={was['protocol']}")
        else:
            hint = f"play {name} as the scenario's own bot"
        raise ValueError(f"{out} holds a sweep whose bot {name!r} ran {_program_words(was)}; this one runs "
                         f"{_program_words(now)}: {hint} to finish it, choose another --out, or pass --overwrite to "
                         "replace them")


def _words(program: dict) -> str:
    """A recorded program's command as a shell would read it."""
    return shlex.join(map(str, program.get("command") or []))


def _program_words(program: dict | None) -> str:
    """A recorded program in words: its command, and its protocol when not simkit's."""
    if not isinstance(program, dict):
        return "no program (a bot of the scenario's own)"
    protocol = program.get("protocol", "simkit")
    return f"`{_words(program)}`" + ("" if protocol == "simkit" else f" (protocol {protocol})")


def _kept_chunks(out: Path, plan: SweepPlan, sc: Scenario, resume: bool) -> set[int]:
    """The chunks of this very sweep that a folder already holds (checked), or a one-line refusal: another
    sweep there (:func:`refuse_other_sweep`), or this one without ``resume``."""
    meta = read_meta(out)
    refuse_other_sweep(out, plan, sc, meta)
    named = done_chunks(out)
    layout = layout_of(plan, meta)
    if named and not resume:
        if len(named) >= layout.chunk_count and (plan.adaptive is None or meta.get("finished")):
            raise SweepFinished(out)
        raise ValueError(f"{out} already holds this sweep ({len(named)}/{layout.chunk_count} chunks done): "
                         "pass --resume to finish it, --overwrite to start again, or another --out")
    return _verified_chunks(out, layout)


def new_meta(sc: Scenario, plan: SweepPlan) -> dict:
    """A new folder's ``meta.json``: the scenario (name, path, hash, text), the plan, both seat pools and what the
    game says of its seats, the result schema and every deck's cards."""
    return {
        "scenario_name": sc.name,
        "scenario_path": str(sc.path),
        "scenario_hash": sc.hash,
        "rules_version": sc.rules_version,
        "scenario_text": sc.text,
        "simkit_version": __version__,
        "started": datetime.now(UTC).isoformat(timespec="seconds"),
        "finished": None,
        "games_per_pair": plan.games,
        "decks": list(plan.pools.first),
        "second_decks": list(plan.pools.second),
        **({"seat_terms": list(terms)} if (terms := sc.game.seat_terms()) else {}),
        "bots": list(plan.bots),
        "panel": list(plan.panel),
        **({"bots_from": plan.bots_from} if plan.bots_from else {}),
        "plan": plan_dict(plan),
        **({"outside_bots": programs} if (programs := outside_programs(sc, plan)) else {}),
        **({"rounds": []} if plan.adaptive is not None else {}),
        "game": sc.game_name,
        "schema": sc.game.schema.as_meta(),
        "deck_cards": {d: {k: list(v) for k, v in sc.game.deck_cards(d).items()} for d in plan.pools.decks},
    }


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
    # a killed sweep's chunk temporaries are removed once, by prepare_store, not by listing the folder per chunk
    atomic_write(chunk_path(out, k), lambda p: df.to_parquet(p, index=False), remove_stale=False)


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
    if meta.get("source") == "real games":  # games people played (simkit import-games): no plan, one rows file
        from simkit.real.store import load_real_results

        return load_real_results(out, meta)
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
