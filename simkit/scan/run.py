"""``simkit.scan``: one scenario key over a list of values, each swept on the same seeds, and the
chosen figure against the value with where it crosses its target.

The output folder holds ``scan.json`` (what the scan plays: base, key, values, games, decks, bots,
seed; a resumed scan must be the same scan), one sweep per value in ``values/<value>/`` (its
``patch.toml`` and an ordinary results folder beside it), and what is read from them: ``scan.csv``
(the figure at each value with its 95% interval), ``crossing.csv`` (the crossing and its interval),
``scan.pdf`` (the page) and ``summary.json``. A killed scan resumes value by value and chunk by
chunk; the figure is not part of the scan, so another figure of the same games is read with
``resume=True`` without playing a game.
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.analysis.results import seat_pools
from simkit.core.files import atomic_write
from simkit.scan.crossing import Crossing, crossing_interval
from simkit.scan.figures import (
    GAME_KEY,
    Figure,
    bootstrap_curve,
    check_figure,
    figure_point,
    parse_figure,
    percentile_interval,
    row_hint,
)
from simkit.scan.values import check_values, parse_values, scan_knob, value_name
from simkit.scenario import load_scenario
from simkit.sweep import check_workers, load_results, plan_sweep, run_sweep, sweep_defaults

__all__ = ["CROSSING", "PAGE", "SPEC", "SUMMARY", "TABLE", "VALUES", "read_scan", "run_scan"]

SPEC = "scan.json"
TABLE = "scan.csv"
CROSSING = "crossing.csv"
PAGE = "scan.pdf"
SUMMARY = "summary.json"
VALUES = "values"

#: bootstrap replicas by default: built-in figures are vectorised, a table column recomputes its table
DEFAULT_REPLICAS = {"built_in": 1000, "table": 200}


def _default_out(base_out: str, key: str) -> str:
    return f"{base_out}-scan-{re.sub(r'[^A-Za-z0-9_.-]+', '_', key).strip('_')}"


def _same_scan(out: Path, spec: dict) -> None:
    path = out / SPEC
    if not path.exists():
        if any(out.iterdir()):
            raise ValueError(f"{out} is not empty and holds no {SPEC}: choose another --out")
        return
    old = json.loads(path.read_text(encoding="utf-8"))
    diff = [k for k in spec if old.get(k) != spec[k]]
    if diff:
        raise ValueError(f"{out} holds another scan (its {', '.join(diff)} differ): choose another --out")


def _write_text(path: Path, text: str) -> None:
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def run_scan(
    scenario: str | Path,
    key: str,
    values: str | Sequence,
    figure: str | None = None,
    target: float | None = None,
    games: int | None = None,
    decks: Sequence[str] | None = None,
    bots: Sequence[str] | str | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    workers: int | None = None,
    seed: int | None = None,
    chunk_size: int | None = None,
    bootstrap: int | None = None,
    page: bool = True,
    progress: bool | None = None,
    log: Callable[[str], None] | None = None,
    bots_from: str | Path | None = None,
) -> pd.DataFrame:
    """Sweep the scenario at each value of one key, on the same seeds, and read a figure against the value.

    Args:
        scenario: the base scenario file.
        key: the number to move, a dotted key of the merged scenario (``rules.mana_period``,
            ``rules.mana_phase[1]``).
        values: the values, ``"2,3,4,5"`` or a sequence of numbers.
        figure: ``first_seat`` (default), ``spread``, ``length`` or ``TABLE.COLUMN[@ROW]``
            (:mod:`simkit.scan.figures`).
        target: where the figure's crossing is read (default: 1/2 for ``first_seat`` and a
            ``win_rate``/``first_rate`` column; other figures read one only when given).
        games: games per ordered deck pair at each value (default: the base's ``[sweep] games``).
        decks: deck patterns, matched in each value's pool (default: the ``[sweep] decks`` of each value's
            scenario, else its whole pool); when a value changes the pool, its sweep has its own decks and
            the bootstrap resamples each value on its own.
        bots: two bots, first seat and second seat (``"a,b"`` or a pair).
        out: the scan folder (default: the base's ``[sweep] out`` + ``-scan-<key>``).
        resume: finish (or re-read) a scan already in ``out``; it must be the same scan.
        workers: local worker processes per sweep (default: the base's ``[sweep] workers``).
        seed: the sweep seed every value plays (default: the base's ``[sweep] seed``).
        chunk_size: games per chunk file.
        bootstrap: replicas of the bootstrap over games (default 1000; 200 for a table column).
        page: draw ``scan.pdf``.
        progress: a progress bar per sweep (default: only on a terminal).
        log: called with one line per value played.
        bots_from: another scenario file of the game whose ``[bots]`` every value plays with (``simkit scan
            --bots-from FILE``, as for sweep); ``None``: the scenario's own.

    Returns:
        the table, one row per value: ``key, value, figure, estimate, low, high, games, interval``;
        ``attrs`` holds ``crossing`` (:meth:`Crossing.as_dict`, or ``None`` without a target),
        ``sentence``, ``figure``, ``label``, ``target``, ``paired``, ``out`` and ``seconds``, ``decks`` (each
        value's decks), ``seat_decks`` (each value's first-seat and second-seat deck counts) and ``alike_seats``
        (every value's seats hold the same decks).

    Raises:
        ValueError: (one line, nothing written) an unknown key, a value that is not a number where one
            is needed or that the scenario refuses, an unknown figure, bad sweep settings, or an ``out``
            holding something else (another scan, or a scan without ``resume``).
    """
    started = time.perf_counter()
    say = log or (lambda _line: None)
    base = load_scenario(scenario, bots_from=bots_from)
    knob = scan_knob(base.data, key)
    vals = parse_values(values, knob)
    fig = parse_figure(figure)
    tgt = fig.target if target is None else float(target)
    if tgt is not None and not math.isfinite(tgt):
        raise ValueError(f"--target: must be a finite number, got {target!r}")
    replicas = DEFAULT_REPLICAS["table" if fig.table else "built_in"] if bootstrap is None else int(bootstrap)
    if replicas < 0:
        raise ValueError(f"--bootstrap: must be at least 0 replicas, got {bootstrap!r}")
    check_figure(fig)
    defaults = sweep_defaults(base)
    workers = check_workers(defaults["workers"] if workers is None else workers, "--workers")
    if isinstance(bots, str):
        bots = [b.strip() for b in bots.split(",")]
    probe = plan_sweep(base, games=games, decks=decks, bots=tuple(bots) if bots else None, chunk_size=chunk_size,
                       seed=seed)  # every sweep setting checked once, before anything is written

    def plan_of(sc):
        # the patterns, not the base's decks: a key that changes the pool (a budget) gets each value's own decks
        return plan_sweep(sc, games=probe.games, decks=decks, bots=None if probe.panel else probe.bots,
                          panel=probe.panel or None, chunk_size=probe.chunk_size, seed=probe.seed)

    texts = check_values(base, knob, vals, check=plan_of)  # each value's sweep planned before anything is written
    out = Path(out or _default_out(defaults["out"], knob.key))
    spec = {"base": str(base.path.resolve()), "base_hash": base.hash, "key": knob.key, "base_value": knob.current,
            "values": vals, "games": probe.games, "deck_patterns": list(decks) if decks else None,
            "decks": list(probe.pools.first), "bots": list(probe.bots),
            "seed": probe.seed, "chunk_size": probe.chunk_size}
    if base.bots_from is not None:  # a scan of the scenario's own bots keeps the spec it had before --bots-from
        spec["bots_from"] = str(base.bots_from.resolve())
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out}: not a folder")
    if out.exists():
        if not resume and any(out.iterdir()):
            raise ValueError(f"{out} already holds a scan or other files: pass --resume to finish it, or another --out")
        _same_scan(out, spec)
    out.mkdir(parents=True, exist_ok=True)
    _write_text(out / SPEC, json.dumps(spec, indent=2) + "\n")

    frames, played, play_seconds = [], 0, 0.0
    for value in vals:
        folder = out / VALUES / value_name(value)
        folder.mkdir(parents=True, exist_ok=True)
        patch = folder / "patch.toml"
        _write_text(patch, texts[value])
        sc = load_scenario(patch, bots_from=base.bots_from)
        plan = plan_of(sc)
        before = _games_on_disk(folder)
        t0 = time.perf_counter()
        run_sweep(sc, plan, folder, workers=workers, resume=resume, progress=progress)
        seconds = time.perf_counter() - t0
        df = load_results(folder)
        new = len(df) - before
        played += new
        play_seconds += seconds if new else 0.0
        say(f"{knob.key} = {value}: {len(df):,} games" + (f" ({new:,} played in {seconds:.1f} s)" if new else
                                                          " (on disk)"))
        frames.append(df.sort_values(list(GAME_KEY), kind="stable").reset_index(drop=True))
    table, crossing, same = read_scan(frames, vals, fig, tgt, knob.key, replicas, probe.seed)
    seconds = time.perf_counter() - started
    holding = int(((table["low"] <= tgt) & (tgt <= table["high"])).sum()) if crossing else None
    sentence = crossing.sentence(knob.key, fig.label, fig.fmt, int(spec["games"]), holding, len(table)) if crossing \
        else (
        f"No verdict: no target for {fig.label}; give --target to read a crossing")
    table.attrs.update(crossing=crossing.as_dict() if crossing else None, sentence=sentence, figure=fig.name,
                       label=fig.label, target=tgt, paired=same, out=str(out), seconds=round(seconds, 2),
                       games_played=played, play_seconds=round(play_seconds, 2), replicas=replicas,
                       decks=[len(seat_pools(df).decks) for df in frames],
                       seat_decks=[tuple(map(len, seat_pools(df))) for df in frames],
                       alike_seats=all(seat_pools(df).alike_seats for df in frames))
    _write_outputs(out, table, crossing, fig, spec, base.name, page)
    return table


def _games_on_disk(folder: Path) -> int:
    try:
        return len(load_results(folder)) if (folder / "meta.json").exists() else 0
    except (ValueError, FileNotFoundError):
        return 0


def read_scan(frames: Sequence[pd.DataFrame], values: Sequence[float], fig: Figure, target: float | None,
              key: str = "key", replicas: int = 1000, seed: int = 0) -> tuple[pd.DataFrame, Crossing | None, bool]:
    """The figure at each value (one results frame per value, in ``values`` order) and its crossing.

    Returns:
        ``(table, crossing, paired)``: the table as :func:`scan` returns it (without its attrs), the
        :class:`Crossing` (``None`` without a target) and whether the bootstrap was paired.
    """
    rows = [figure_point(df, fig) for df in frames]
    if fig.row and not any(np.isfinite(r["figure"]) for r in rows):
        raise ValueError(f"--figure {fig.name!r}: @{fig.row} names no row of the table {fig.table} at any value "
                         f"({row_hint(frames[0], fig)})")
    reps, same = (bootstrap_curve(frames, fig, replicas, seed) if replicas else
                  (np.empty((0, len(frames))), False))
    for v, row in enumerate(rows):
        if row["method"] == "bootstrap":
            row["low"], row["high"] = percentile_interval(reps[:, v]) if replicas else (math.nan, math.nan)
            missing = int((~np.isfinite(reps[:, v])).sum())
            row["method"] = f"bootstrap over games ({replicas} resamples" + (
                f", {missing} without a figure left out)" if missing else ")")
        else:
            row["method"] = "Wilson 95%"
    table = pd.DataFrame({
        "key": key, "value": list(values), "figure": fig.name,
        "estimate": [r["figure"] for r in rows], "low": [r["low"] for r in rows], "high": [r["high"] for r in rows],
        "games": [r["games"] for r in rows], "interval": [r["method"] for r in rows],
    })
    crossing = None
    if target is not None:
        crossing = crossing_interval(table["value"], table["estimate"], reps, target)
    return table, crossing, same


def _write_outputs(out: Path, table: pd.DataFrame, crossing: Crossing | None, fig: Figure, spec: dict,
                   name: str, page: bool) -> None:
    atomic_write(out / TABLE, lambda tmp: table.to_csv(tmp, index=False))
    row = {"key": spec["key"], "figure": fig.name, **(crossing.as_dict() if crossing else {"target": None}),
           "paired": table.attrs["paired"], "sentence": table.attrs["sentence"]}
    atomic_write(out / CROSSING, lambda tmp: pd.DataFrame([row]).to_csv(tmp, index=False))
    summary = {"scenario": name, **spec, "figure": fig.name, "label": fig.label, "target": table.attrs["target"],
               "crossing": _jsonable(crossing.as_dict()) if crossing else None, "sentence": table.attrs["sentence"],
               "paired": table.attrs["paired"], "replicas": table.attrs["replicas"],
               "seconds": table.attrs["seconds"], "games_played": table.attrs["games_played"],
               "play_seconds": table.attrs["play_seconds"], "decks_per_value": table.attrs["decks"],
               "table": _jsonable(table.drop(columns=["key", "figure"]).to_dict(orient="records"))}
    _write_text(out / SUMMARY, json.dumps(summary, indent=2, ensure_ascii=False) + "\n")
    if page:
        from simkit.scan.page import draw_page

        draw_page(out / PAGE, table, crossing, fig, spec, name)


def _jsonable(x):
    if isinstance(x, dict):
        return {k: _jsonable(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_jsonable(v) for v in x]
    if isinstance(x, float | np.floating):
        x = float(x)
        return x if math.isfinite(x) else ("inf" if x > 0 else "-inf" if x < 0 else None)
    if isinstance(x, np.integer):
        return int(x)
    return x
