"""Test helper: store a synthetic results DataFrame as a finished sweep's results folder."""

import json
from pathlib import Path

import pandas as pd

from simkit.sweep import write_chunk


def write_sweep_folder(df: pd.DataFrame, folder: Path) -> Path:
    """Store ``df`` as a finished sweep's results folder (meta.json + one parquet chunk)."""
    (folder / "chunks").mkdir(parents=True)
    write_chunk(folder, 0, df)
    meta = {**df.attrs["meta"], "finished": "2026-01-01T00:00:00+00:00", "plan": {"chunk_count": 1}}
    (folder / "meta.json").write_text(json.dumps(meta))
    return folder
