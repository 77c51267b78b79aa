"""Deck-matchup sweeps: every ordered deck pair, N games each, in chunks, into a parquet dataset.

Game-agnostic, in four steps that read in the order a sweep runs:

- :mod:`~simkit.sweep.settings`: what a sweep plays as a designer gives it (:class:`SweepSettings`) and how any
  run is played (:class:`RunOptions`);
- :mod:`~simkit.sweep.plan`: which games (pairs, seeds, chunks): :func:`plan_sweep` -> :class:`SweepPlan`;
- :mod:`~simkit.sweep.store`: the results folder (``DIR/meta.json``, atomic chunk files
  ``DIR/chunks/chunk-XXXXX.parquet``, the writer lock) and :func:`load_results`, where every later
  stage starts;
- :mod:`~simkit.sweep.execute`: :func:`run_sweep` plays the chunks not yet on disk through
  :func:`simkit.runner.play_games`, on local worker processes or a Dask cluster;
- :mod:`~simkit.sweep.adaptive`: the rounds of an adaptive sweep, planned from the games played.

A killed sweep resumes by playing only the chunks not on disk. Seeds: game ``g`` of the ordered pair
``(A, B)`` plays with seed ``derive_seed(sweep_seed, A, B, g)``, where ``sweep_seed`` is the scenario's
``[sweep] seed``. The seed does not depend on the scenario's other numbers, so a base scenario and a
patch of it play the very same seeds and can be compared game by game.
"""

from simkit.scenario import sweep_settings as sweep_defaults
from simkit.sweep.adaptive import AdaptiveLayout, layout_of, next_round
from simkit.sweep.execute import play_chunk, run_sweep
from simkit.sweep.plan import (
    CHUNKS,
    LOCK,
    LOG,
    META,
    WORKERS_PER_CORE,
    Chunk,
    SweepPlan,
    check_adaptive,
    check_seed,
    check_workers,
    max_workers,
    plan_sweep,
    select_decks,
    uneven_share,
)
from simkit.sweep.settings import RunOptions, SweepSettings
from simkit.sweep.store import (
    PLAN_KEYS,
    ResultsFolderWarning,
    check_chunk,
    chunk_path,
    clear_store,
    done_chunks,
    folder_lock,
    load_results,
    plan_dict,
    plan_of,
    prepare_store,
    read_chunk,
    read_meta,
    scan_chunks,
    write_chunk,
)

__all__ = [
    "CHUNKS", "LOCK", "LOG", "META", "PLAN_KEYS", "WORKERS_PER_CORE", "AdaptiveLayout", "Chunk",
    "ResultsFolderWarning", "RunOptions", "SweepPlan", "SweepSettings", "check_adaptive", "check_chunk",
    "check_seed", "check_workers",
    "chunk_path", "clear_store", "done_chunks", "folder_lock", "layout_of", "load_results", "max_workers", "next_round",
    "plan_dict", "plan_of", "plan_sweep", "play_chunk", "prepare_store", "read_chunk", "read_meta",
    "run_sweep", "scan_chunks", "select_decks", "sweep_defaults", "uneven_share", "write_chunk",
]
