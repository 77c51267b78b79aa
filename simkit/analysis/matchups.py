"""The matchup matrix: how often each deck beats each other deck, pooled over both seats."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simkit.analysis.results import deck_games
from simkit.analysis.stats import wilson_interval

__all__ = ["matchup_matrix", "win_rate_table"]


def matchup_matrix(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate of every deck against every deck, both seats pooled, with a Wilson 95% interval.

    A draw counts half a win. A mirror (a deck against itself) is 1/2 by construction and is
    given as exactly that, with a zero-width interval.

    Args:
        df: the results, one row per game.

    Returns:
        tidy DataFrame, one row per ordered (deck, opponent): ``deck, opponent, games, points,
        wins, draws, win_rate, low, high, mirror``. ``games`` counts the games the two decks
        played (both seats); (deck, opponent) and (opponent, deck) are complementary. A mirror's
        ``wins`` is half its decisive games.
    """
    view = deck_games(df, mirrors=True)
    view = view.assign(win=(view["points"] == 1.0).astype(int), draw=(view["points"] == 0.5).astype(int))
    out = view.groupby(["deck", "opponent"], sort=True).agg(games=("row", "size"), points=("points", "sum"),
                                                            wins=("win", "sum"), draws=("draw", "sum"))
    out = out.reset_index()
    mirror = (out["deck"] == out["opponent"]).to_numpy()
    games = out["games"].to_numpy(dtype=float)
    # a mirror game shows up twice in the deck view (once per seat); count it once
    out["games"] = np.where(mirror, games / 2, games).astype(int)
    out["points"] = np.where(mirror, out["games"] / 2, out["points"])
    out["draws"] = np.where(mirror, out["draws"] // 2, out["draws"])
    out["wins"] = np.where(mirror, (out["games"] - out["draws"]) / 2, out["wins"])  # a mirror is even
    out["win_rate"] = out["points"] / out["games"]
    low, high = wilson_interval(out["points"], out["games"])
    out["low"] = np.where(mirror, 0.5, low)
    out["high"] = np.where(mirror, 0.5, high)
    out["mirror"] = mirror
    return out


def win_rate_table(matchups: pd.DataFrame, order: list[str] | None = None, value: str = "win_rate") -> pd.DataFrame:
    """The matchup matrix as a square table: rows are decks, columns their opponents.

    Args:
        matchups: the tidy output of :func:`matchup_matrix` (or any table with
            ``deck, opponent`` and ``value`` columns).
        order: decks in the order wanted for both rows and columns (default: sorted).
        value: the column to spread.

    Returns:
        DataFrame ``[deck, opponent]`` of ``value`` (NaN where a pairing is absent).
    """
    wide = matchups.pivot(index="deck", columns="opponent", values=value)
    order = list(order) if order is not None else sorted(set(wide.index) | set(wide.columns))
    return wide.reindex(index=order, columns=order)
