"""Do two sweep folders hold the same games, seed for seed? (a refactor must not change a game)

    python scripts/same_games.py DIR_A DIR_B

Reads both folders' chunks as they are (no plan check, so folders written by older simkit
versions can be compared), pairs games on (first_deck, second_deck, game) and compares every
column both have except the scenario hash (a value missing in both, such as a figure a game does not
give, counts as the same). Prints the verdict and the first differing game.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

KEY = ["first_deck", "second_deck", "game"]


def games(folder: str) -> pd.DataFrame:
    """Every game of a folder's chunks, sorted by pair and game."""
    parts = [pd.read_parquet(p) for p in sorted(Path(folder, "chunks").glob("chunk-*.parquet"))]
    return pd.concat(parts, ignore_index=True).sort_values(KEY, ignore_index=True)


def same(x: pd.Series, y: pd.Series) -> pd.Series:
    """Row by row: equal, or both missing (a figure a game does not give, e.g. NaN uncertainty, is the same)."""
    return pd.Series((x.to_numpy() == y.to_numpy()) | (x.isna().to_numpy() & y.isna().to_numpy()))


def main(a: str, b: str) -> int:
    x, y = games(a), games(b)
    cols = [c for c in x.columns if c in y.columns and c != "scenario_hash"]
    if len(x) != len(y) or not (x[KEY].to_numpy() == y[KEY].to_numpy()).all():
        print(f"different games: {len(x)} vs {len(y)} rows, or other pairs")
        return 1
    differ = [c for c in cols if not same(x[c], y[c]).all()]
    if differ:
        i = int(next(i for i in range(len(x)) if not all(same(x[c], y[c]).iloc[i] for c in differ)))
        print(f"{len(x)} games; columns that differ: {', '.join(differ)}; first at {x.loc[i, KEY].to_dict()}")
        return 1
    print(f"identical: {len(x)} games, {len(cols)} columns ({', '.join(cols)})")
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
