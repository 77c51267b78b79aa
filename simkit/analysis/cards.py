"""Cards: win rates of the decks holding each artifact, each creature kind and each creature pair."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from simkit.analysis.results import card_membership, deck_games, deck_pool
from simkit.analysis.stats import wilson_interval

__all__ = ["card_win_rates", "creature_pair_synergy"]


def _deck_totals(df: pd.DataFrame) -> pd.DataFrame:
    """Games and points of each deck over its non-mirror games, indexed by deck."""
    decks = deck_pool(df)
    view = deck_games(df, mirrors=False)
    return view.groupby("deck").agg(games=("row", "size"), points=("points", "sum")).reindex(decks, fill_value=0)


def _rates(games, points) -> dict[str, np.ndarray]:
    games = np.asarray(games, dtype=float)
    points = np.asarray(points, dtype=float)
    low, high = wilson_interval(points, games)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = points / games
    return {"games": games.astype(int), "points": points, "win_rate": rate, "low": low, "high": high}


def card_win_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Marginal win rate of the decks holding each card, with a Wilson 95% interval.

    Every non-mirror game counts once for each deck in it that holds the card (a game between two
    holders counts for both, a win and a loss). The interval treats those deck-games as
    independent, which is close while few games have the card on both sides.

    Args:
        df: the results, one row per game.

    Returns:
        DataFrame ``card, kind ("artifact"/"creature"), decks, games, points, win_rate, low,
        high``, artifacts first, each group strongest first.
    """
    totals = _deck_totals(df)
    member = card_membership(list(totals.index))
    m = member.to_numpy(float)
    out = pd.DataFrame({
        "card": member.columns,
        "kind": [member.attrs["kind"][c] for c in member.columns],
        "decks": m.sum(0).astype(int),
        **_rates(m.T @ totals["games"].to_numpy(float), m.T @ totals["points"].to_numpy(float)),
    })
    out["group"] = out["kind"].map({"artifact": 0, "creature": 1})
    out = out.sort_values(["group", "win_rate", "card"], ascending=[True, False, True], ignore_index=True)
    return out.drop(columns="group")


def _main_effects_fit(member: pd.DataFrame, games: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Each deck's win rate as predicted by an additive model of its cards (weighted least squares).

    ``rate(deck) ~ intercept + sum of its cards' effects``, weighted by the deck's games; the
    prediction is unique even though the effects are not (every deck holds one artifact and
    three creatures), so the minimum-norm solution serves.
    """
    x = np.hstack([np.ones((len(member), 1)), member.to_numpy(float)])
    ok = games > 0
    rate = np.divide(points, games, out=np.full(len(games), 0.5), where=ok)
    root = np.sqrt(games)
    coef, *_ = np.linalg.lstsq(x[ok] * root[ok, None], rate[ok] * root[ok], rcond=None)
    return x @ coef


def creature_pair_synergy(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate of decks holding each pair of creature kinds, against what the two alone predict.

    "What the two alone predict" is an additive model: every deck's win rate is fitted (weighted
    by games) as a sum of one effect per card it holds, artifact included; ``expected`` is that
    fit averaged over the decks holding the pair, and ``synergy = win_rate - expected`` is what
    the pair does beyond its cards' separate effects (positive: better together). Fitting the
    effects jointly keeps a strong card from lending its strength to the kinds it is often
    paired with. ``low``/``high`` bound the pair's win rate (Wilson 95%);
    ``synergy_low``/``synergy_high`` shift that interval by ``expected``, so they carry the
    pair's own sampling noise only.

    Args:
        df: the results, one row per game.

    Returns:
        DataFrame ``creature_a, creature_b, decks, games, points, win_rate, low, high, expected,
        synergy, synergy_low, synergy_high``, sorted by synergy, largest first.
    """
    totals = _deck_totals(df)
    member = card_membership(list(totals.index))
    kinds = [c for c in member.columns if member.attrs["kind"][c] == "creature"]
    games = totals["games"].to_numpy(float)
    points = totals["points"].to_numpy(float)
    fitted_points = _main_effects_fit(member, games, points) * games
    rows = []
    for a, b in combinations(kinds, 2):
        both = (member[a] & member[b]).to_numpy(float)
        rows.append({"creature_a": a, "creature_b": b, "decks": int(both.sum()),
                     "games": games @ both, "points": points @ both, "fitted": fitted_points @ both})
    out = pd.DataFrame(rows, columns=["creature_a", "creature_b", "decks", "games", "points", "fitted"])
    out = out[out["games"] > 0].reset_index(drop=True)
    out = out.assign(**_rates(out["games"], out["points"]))
    out["expected"] = out["fitted"] / out["games"]
    out["synergy"] = out["win_rate"] - out["expected"]
    out["synergy_low"] = out["low"] - out["expected"]
    out["synergy_high"] = out["high"] - out["expected"]
    out = out.drop(columns="fitted")
    return out.sort_values(["synergy", "creature_a", "creature_b"], ascending=[False, True, True], ignore_index=True)
