"""Cards: win rates of the decks holding each card, and of each pair of cards of one category (synergy).

A deck's cards and their categories come from the results' metadata (the game's ``deck_cards`` hook,
recorded by the sweep), so the same functions serve every game."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from simkit.analysis.results import card_membership, deck_card_table, deck_games, deck_pool, results_schema
from simkit.analysis.stats import wilson_interval

__all__ = ["card_win_rates", "card_pair_synergy", "deck_membership"]


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


def deck_membership(df: pd.DataFrame) -> pd.DataFrame:
    """Which cards each deck of ``df`` holds (:func:`~simkit.analysis.results.card_membership` of its
    decks in :func:`~simkit.analysis.results.deck_pool` order, categories in the game's order)."""
    member = card_membership(deck_card_table(df), tuple(results_schema(df).card_categories))
    kind = member.attrs["kind"]
    member = member.loc[deck_pool(df)]
    member.attrs["kind"] = kind
    return member


def card_win_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Marginal win rate of the decks holding each card, with a Wilson 95% interval.

    Every non-mirror game counts once for each deck in it that holds the card (a game between two
    holders counts for both, a win and a loss). The interval treats those deck-games as
    independent, which is close while few games have the card on both sides.

    Args:
        df: the results, one row per game.

    Returns:
        DataFrame ``card, kind (its category, e.g. "artifact"), decks, games, points, win_rate, low,
        high``, by category in the game's order, each group strongest first.
    """
    totals = _deck_totals(df)
    member = deck_membership(df)
    m = member.to_numpy(float)
    out = pd.DataFrame({
        "card": member.columns,
        "kind": [member.attrs["kind"][c] for c in member.columns],
        "decks": m.sum(0).astype(int),
        **_rates(m.T @ totals["games"].to_numpy(float), m.T @ totals["points"].to_numpy(float)),
    })
    out["group"] = out["kind"].map({k: i for i, k in enumerate(dict.fromkeys(member.attrs["kind"].values()))})
    out = out.sort_values(["group", "win_rate", "card"], ascending=[True, False, True], ignore_index=True)
    return out.drop(columns="group")


def _main_effects_fit(member: pd.DataFrame, games: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Each deck's win rate as predicted by an additive model of its cards (weighted least squares).

    ``rate(deck) ~ intercept + sum of its cards' effects``, weighted by the deck's games; the
    prediction is unique even though the effects are not (every deck holds a fixed number of
    cards of each category), so the minimum-norm solution serves.
    """
    x = np.hstack([np.ones((len(member), 1)), member.to_numpy(float)])
    ok = games > 0
    rate = np.divide(points, games, out=np.full(len(games), 0.5), where=ok)
    root = np.sqrt(games)
    coef, *_ = np.linalg.lstsq(x[ok] * root[ok, None], rate[ok] * root[ok], rcond=None)
    return x @ coef


def card_pair_synergy(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate of decks holding each pair of cards of one category, against what the two alone predict.

    Pairs are formed within every category whose decks hold two or more of its cards (Battle of
    Miracles: creature kinds; the Card Duel: weapons and spells). "What the two alone predict" is
    an additive model: every deck's win rate is fitted (weighted by games) as a sum of one effect
    per card it holds, of every category; ``expected`` is that fit averaged over the decks holding
    the pair, and ``synergy = win_rate - expected`` is what the pair does beyond its cards'
    separate effects (positive: better together). Fitting the effects jointly keeps a strong card
    from lending its strength to the cards it is often paired with. ``low``/``high`` bound the
    pair's win rate (Wilson 95%); ``synergy_low``/``synergy_high`` shift that interval by
    ``expected``, so they carry the pair's own sampling noise only.

    Args:
        df: the results, one row per game.

    Returns:
        DataFrame ``category, card_a, card_b, decks, games, points, win_rate, low, high, expected,
        synergy, synergy_low, synergy_high``, sorted by synergy, largest first.
    """
    totals = _deck_totals(df)
    member = deck_membership(df)
    games = totals["games"].to_numpy(float)
    points = totals["points"].to_numpy(float)
    fitted_points = _main_effects_fit(member, games, points) * games
    rows = []
    for category in dict.fromkeys(member.attrs["kind"].values()):
        cards = [c for c in member.columns if member.attrs["kind"][c] == category]
        if member[cards].sum(axis=1).max() < 2:
            continue
        for a, b in combinations(cards, 2):
            both = (member[a] & member[b]).to_numpy(float)
            rows.append({"category": category, "card_a": a, "card_b": b, "decks": int(both.sum()),
                         "games": games @ both, "points": points @ both, "fitted": fitted_points @ both})
    out = pd.DataFrame(rows, columns=["category", "card_a", "card_b", "decks", "games", "points", "fitted"])
    out = out[out["games"] > 0].reset_index(drop=True)
    out = out.assign(**_rates(out["games"], out["points"]))
    out["expected"] = out["fitted"] / out["games"]
    out["synergy"] = out["win_rate"] - out["expected"]
    out["synergy_low"] = out["low"] - out["expected"]
    out["synergy_high"] = out["high"] - out["expected"]
    out = out.drop(columns="fitted")
    return out.sort_values(["synergy", "card_a", "card_b"], ascending=[False, True, True], ignore_index=True)
