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

import dataclasses
import json
import math
import re
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.analysis.results import seat_pools
from simkit.core.files import atomic_write
from simkit.core.settings import refuse_other_settings
from simkit.scan.crossing import Crossing, crossing_interval
from simkit.scan.figures import (
    GAME_KEY,
    Figure,
    bootstrap_curve,
    figure_point,
    parse_figure,
    percentile_interval,
    row_hint,
)
from simkit.scan.settings import ScanSettings
from simkit.scan.values import check_values, parse_values, scan_knob, value_name
from simkit.scenario import Scenario, load_scenario
from simkit.sweep import (
    RunOptions,
    SweepPlan,
    SweepSettings,
    check_workers,
    load_results,
    plan_sweep,
    run_sweep,
    sweep_defaults,
)

__all__ = ["CROSSING", "PAGE", "SPEC", "SUMMARY", "TABLE", "VALUES", "ScanSettings", "read_scan", "run_scan"]

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
    """Refuse a folder that holds no scan but other files, or another scan (naming the first setting that differs)."""
    path = out / SPEC
    if not path.exists():
        if any(out.iterdir()):
            raise ValueError(f"{out} is not empty and holds no {SPEC}: choose another --out")
        return
    old = json.loads(path.read_text(encoding="utf-8"))
    refuse_other_settings(str(out), "a scan", old, spec, keys=list(spec), names=SPEC_FLAGS)


#: how the command line names each setting of a scan's spec
SPEC_FLAGS = {"key": "--key", "values": "--values", "games": "--games", "deck_patterns": "--decks",
              "decks": "the first seat's pool", "bots": "--bots", "seed": "--seed", "chunk_size": "--chunk-size",
              "bots_from": "--bots-from", "base": "the scenario", "base_hash": "the scenario",
              "base_value": "the scenario's value"}


def _write_text(path: Path, text: str) -> None:
    if path.exists() and path.read_text(encoding="utf-8") == text:
        return
    atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def run_scan(scenario: str | Path, settings: ScanSettings, out: str | Path | None = None,
             run: RunOptions | None = None, page: bool = True, log: Callable[[str], None] | None = None
             ) -> pd.DataFrame:
    """Sweep the scenario at each value of one key, on the same seeds, and read a figure against the value.

    Args:
        scenario: the base scenario file.
        settings: the scan (:class:`ScanSettings`).
        out: the scan folder (default: the base's ``[sweep] out`` + ``-scan-<key>``).
        run: how to play it (:class:`~simkit.sweep.RunOptions`: workers, default the base's ``[sweep] workers``;
            resume, which finishes or re-reads a scan already in ``out``, the same scan; progress bars).
        page: draw ``scan.pdf``.
        log: called with one line per value played.

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
    run = run or RunOptions()
    scan = _prepare(scenario, settings.check(), out, run)
    frames, played, play_seconds = _play_values(scan, log or (lambda _line: None))
    table, crossing, same = read_scan(frames, scan.values, scan.figure, scan.target, scan.knob.key,
                                      (scan.replicas, scan.probe.seed))
    tgt, fig = scan.target, scan.figure
    holding = int(((table["low"] <= tgt) & (tgt <= table["high"])).sum()) if crossing else None
    sentence = crossing.sentence(scan.knob.key, fig.label, fig.fmt, int(scan.spec["games"]), holding, len(table)) \
        if crossing else f"No verdict: no target for {fig.label}; give --target to read a crossing"
    pools = [seat_pools(df) for df in frames]
    table.attrs.update(crossing=crossing.as_dict() if crossing else None, sentence=sentence,
                       figure=scan.figure.name, label=scan.figure.label, target=scan.target, paired=same,
                       out=str(scan.out), seconds=round(time.perf_counter() - started, 2), games_played=played,
                       play_seconds=round(play_seconds, 2), replicas=scan.replicas,
                       decks=[len(p.decks) for p in pools], seat_decks=[tuple(map(len, p)) for p in pools],
                       alike_seats=all(p.alike_seats for p in pools))
    _write_outputs(scan.out, table, crossing, scan, page)
    return table


@dataclass(frozen=True)
class _Scan:
    """A scan made ready to play: its base, key, values (with each value's patch text), figure, target, replicas,
    the sweep planned for the base (every setting checked), the recorded spec and the folder."""

    base: Scenario
    knob: object
    values: list
    texts: dict
    figure: Figure
    target: float | None
    replicas: int
    probe: SweepPlan
    spec: dict
    out: Path
    run: RunOptions

    def plan_of(self, sc: Scenario) -> SweepPlan:
        """A value's sweep: the deck patterns, not the base's decks (a key that changes the pools, a budget, gets each
        value's own), every other setting the base's."""
        p = self.probe
        return plan_sweep(sc, SweepSettings(games=p.games, decks=self.spec_patterns, bots=None if p.panel else p.bots,
                                            panel=p.panel, chunk_size=p.chunk_size, seed=p.seed))

    @property
    def spec_patterns(self) -> tuple[str, ...]:
        return tuple(self.spec["deck_patterns"] or ())


def _prepare(scenario: str | Path, s: ScanSettings, out: str | Path | None, run: RunOptions) -> _Scan:
    """Every check before anything is written: the key and its values (each value's scenario loaded and its sweep
    planned), the figure and its target, the sweep settings; then the folder with its ``scan.json``."""
    base = load_scenario(scenario, bots_from=s.bots_from)
    knob = scan_knob(base.data, s.key)
    vals = parse_values(s.values, knob)
    fig = parse_figure(s.figure)
    tgt = fig.target if s.target is None else float(s.target)
    replicas = DEFAULT_REPLICAS["table" if fig.table else "built_in"] if s.bootstrap is None else int(s.bootstrap)
    defaults = sweep_defaults(base)
    workers = check_workers(defaults["workers"] if run.workers is None else run.workers, "--workers")
    probe = plan_sweep(base, s.sweep())  # every sweep setting checked once, before anything is written
    spec = {"base": str(base.path.resolve()), "base_hash": base.hash, "key": knob.key, "base_value": knob.current,
            "values": vals, "games": probe.games, "deck_patterns": list(s.decks) or None,
            "decks": list(probe.pools.first), "bots": list(probe.bots), "seed": probe.seed,
            "chunk_size": probe.chunk_size}
    if base.bots_from is not None:  # a scan of the scenario's own bots keeps the spec it had before --bots-from
        spec["bots_from"] = str(base.bots_from.resolve())
    folder = Path(out or _default_out(defaults["out"], knob.key))
    each = dataclasses.replace(run, workers=workers, overwrite=False)  # every value's sweep: resumed, never replaced
    scan = _Scan(base, knob, vals, {}, fig, tgt, replicas, probe, spec, folder, each)
    texts = check_values(base, knob, vals, check=scan.plan_of)  # each value's sweep planned before anything is written
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"{folder}: not a folder")
    if folder.exists():
        if not run.resume and any(folder.iterdir()):
            raise ValueError(f"{folder} already holds a scan or other files: pass --resume to finish it, or another "
                             "--out")
        _same_scan(folder, spec)
    folder.mkdir(parents=True, exist_ok=True)
    _write_text(folder / SPEC, json.dumps(spec, indent=2) + "\n")
    return dataclasses.replace(scan, texts=texts)


def _play_values(scan: _Scan, say: Callable[[str], None]) -> tuple[list[pd.DataFrame], int, float]:
    """Sweep (or resume) each value in its folder, on the same seeds; returns each value's games, the games played
    now and the seconds spent playing."""
    frames, played, play_seconds = [], 0, 0.0
    for value in scan.values:
        folder = scan.out / VALUES / value_name(value)
        folder.mkdir(parents=True, exist_ok=True)
        patch = folder / "patch.toml"
        _write_text(patch, scan.texts[value])
        sc = load_scenario(patch, bots_from=scan.base.bots_from)
        before = _games_on_disk(folder)
        t0 = time.perf_counter()
        run_sweep(sc, scan.plan_of(sc), folder, scan.run)
        seconds = time.perf_counter() - t0
        df = load_results(folder)
        new = len(df) - before
        played += new
        play_seconds += seconds if new else 0.0
        say(f"{scan.knob.key} = {value}: {len(df):,} games" + (f" ({new:,} played in {seconds:.1f} s)" if new else
                                                               " (on disk)"))
        frames.append(df.sort_values(list(GAME_KEY), kind="stable").reset_index(drop=True))
    return frames, played, play_seconds


def _games_on_disk(folder: Path) -> int:
    try:
        return len(load_results(folder)) if (folder / "meta.json").exists() else 0
    except (ValueError, FileNotFoundError):
        return 0


def read_scan(frames: Sequence[pd.DataFrame], values: Sequence[float], fig: Figure, target: float | None,
              key: str = "key", bootstrap: tuple[int, int] = (1000, 0)) -> tuple[pd.DataFrame, Crossing | None, bool]:
    """The figure at each value (one results frame per value, in ``values`` order) and its crossing.

    Args:
        frames: each value's games.
        values: the values.
        fig: the figure read.
        target: where its crossing is read (``None``: no crossing).
        key: the key scanned, for the table.
        bootstrap: ``(replicas, seed)`` of the bootstrap over games (0 replicas: none).

    Returns:
        ``(table, crossing, paired)``: the table as :func:`scan` returns it (without its attrs), the
        :class:`Crossing` (``None`` without a target) and whether the bootstrap was paired.
    """
    replicas, seed = bootstrap
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


def _write_outputs(out: Path, table: pd.DataFrame, crossing: Crossing | None, scan: _Scan, page: bool) -> None:
    """Write ``scan.csv``, ``crossing.csv``, ``summary.json`` and (with ``page``) ``scan.pdf``."""
    fig, spec, name = scan.figure, scan.spec, scan.base.name
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
