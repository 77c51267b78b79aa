"""Test helper: store a synthetic results DataFrame as a finished sweep's results folder."""

import json
from pathlib import Path

import pandas as pd

from simkit.core.seats import SeatPools
from simkit.sweep import SweepPlan, plan_dict, write_chunk


def write_sweep_folder(df: pd.DataFrame, folder: Path) -> Path:
    """Store ``df`` as the folder ``simkit sweep`` would write for it: ``meta.json`` with a plan of
    one chunk per ordered pair of ``meta["decks"]`` (sweep seed 0), each game given its planned seed.

    With a non-empty ``meta["panel"]`` the plan is a bot panel (one block of chunks per panel bot,
    that bot in both seats) and each chunk takes the rows of its bot.
    A pair absent from ``df`` leaves its chunk missing, as in an unfinished sweep.
    """
    meta = df.attrs["meta"]
    games = int(meta["games_per_pair"])
    pools = SeatPools(tuple(meta["decks"]), tuple(meta.get("second_decks") or meta["decks"]))
    plan = SweepPlan(scenario_path="", scenario_hash=meta["scenario_hash"], pools=pools, games=games,
                     bots=tuple(meta["bots"]), seed=0, chunk_size=games, panel=tuple(meta.get("panel") or ()))
    (folder / "chunks").mkdir(parents=True)
    for k in range(plan.chunk_count):
        c = plan.chunk(k)
        rows = df[(df["first_deck"] == c.first_decks[0]) & (df["second_deck"] == c.second_decks[0])
                  & (df["first_bot"] == c.bots[0]) & (df["second_bot"] == c.bots[1])]
        if len(rows):
            write_chunk(folder, k, rows.sort_values("game").assign(seed=list(c.seeds)).reset_index(drop=True))
    meta = {**meta, "finished": "2026-01-01T00:00:00+00:00", "plan": plan_dict(plan)}
    (folder / "meta.json").write_text(json.dumps(meta))
    return folder


def folder_snapshot(folder: Path) -> dict[str, bytes | None]:
    """Every entry below ``folder`` (hidden ones and lock files included): a file's bytes, a folder as ``None``; two
    snapshots are equal only when nothing was written, created or removed in between."""
    return {str(p.relative_to(folder)): None if p.is_dir() else p.read_bytes() for p in sorted(folder.rglob("*"))}
