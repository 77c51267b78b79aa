"""Game shape: how long games last, how they end (each of the game's end reasons), draws."""

from __future__ import annotations

import pandas as pd

from simkit.analysis.results import results_schema

__all__ = ["game_shape", "turn_counts"]


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
