"""Game shape: how long games last, how they end (each of the game's end reasons), draws."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simkit.analysis.results import results_schema

__all__ = ["game_shape", "side_numbers", "turn_counts"]


def game_shape(df: pd.DataFrame) -> pd.DataFrame:
    """Games, share, draws and turns played per end reason, plus a row for all games.

    Args:
        df: the results, one row per game.

    Returns:
        DataFrame, one row per end reason of the game's schema (in its order) and one ``all``:
        ``end_reason, label (the schema's words), games, share, draws, draw_share, first_wins,
        second_wins, mean_turns, median_turns, p10_turns, p90_turns, min_turns, max_turns``.
    """
    schema = results_schema(df)
    reasons = list(schema.end_reasons) + sorted(set(map(str, df["end_reason"].unique())) - set(schema.end_reasons))
    rows = []
    for reason, part in [(r, df[df["end_reason"] == r]) for r in reasons] + [("all", df)]:
        t = part["turns"]
        n = len(part)
        rows.append({
            "end_reason": reason,
            "label": "all games" if reason == "all" else schema.end_reasons.get(reason, reason),
            "games": n,
            "share": n / len(df),
            "draws": int((part["winner"] == "draw").sum()),
            "draw_share": (part["winner"] == "draw").mean() if n else float("nan"),
            "first_wins": int((part["winner"] == "first").sum()),
            "second_wins": int((part["winner"] == "second").sum()),
            "mean_turns": t.mean(),
            "median_turns": t.median(),
            "p10_turns": t.quantile(0.1),
            "p90_turns": t.quantile(0.9),
            "min_turns": t.min(),
            "max_turns": t.max(),
        })
    return pd.DataFrame(rows)


def turn_counts(df: pd.DataFrame) -> pd.DataFrame:
    """How many games ended on each turn, by end reason (the data of a game-length histogram).

    Args:
        df: the results, one row per game.

    Returns:
        DataFrame ``turns, end_reason, label (the schema's words), games`` (only turns with games),
        sorted by turns.
    """
    words = results_schema(df).end_reasons
    out = df.groupby(["turns", "end_reason"], sort=True).size().rename("games").reset_index()
    out["turns"] = out["turns"].astype(int)
    out.insert(2, "label", [words.get(r, r) for r in out["end_reason"]])
    return out


def side_numbers(df: pd.DataFrame) -> pd.DataFrame:
    """The game's per-side numbers (its schema's ``side_columns``) for the winners, the losers and all.

    Each game gives two sides: the first seat's ``first_<name>`` and the second's ``second_<name>``.
    Drawn games count in ``all`` only.

    Returns:
        DataFrame ``name, label, winners, losers, all, difference (winners - losers)``, one row per
        declared column present in ``df`` (empty when the game declares none).
    """
    schema = results_schema(df)
    first_won = (df["winner"] == "first").to_numpy()
    second_won = (df["winner"] == "second").to_numpy()
    rows = []
    for name, label in schema.side_columns.items():
        cols = (f"first_{name}", f"second_{name}")
        if not all(c in df.columns for c in cols):
            continue
        first, second = (df[c].to_numpy(float) for c in cols)
        won = np.concatenate([first[first_won], second[second_won]])
        lost = np.concatenate([second[first_won], first[second_won]])
        every = np.concatenate([first, second])
        winners = won.mean() if len(won) else float("nan")
        losers = lost.mean() if len(lost) else float("nan")
        rows.append({"name": name, "label": label, "winners": winners, "losers": losers,
                     "all": every.mean() if len(every) else float("nan"), "difference": winners - losers})
    return pd.DataFrame(rows, columns=["name", "label", "winners", "losers", "all", "difference"])
