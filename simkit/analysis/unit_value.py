"""What a card is worth when decks are bought: a regression of the first seat's score on card counts, and the
first seat's score by the card of a one-card category (a race) on each side.

For games whose decks are bought with a budget (Magic War's armies), a card can come in several copies and
has a price. The regression reads each game once: the first seat's score (1 win, 1/2 draw, 0 loss) against
the counts of every card in the first deck minus those in the second, plus an intercept (the first seat's
score between equal decks). Its coefficient of a card is the points one more copy brings; divided by the
card's cost, its value per gold. The intervals are heteroskedasticity-robust (HC1) 95% intervals. A card
whose count difference never varies (or varies only in step with others) cannot be told apart: it gets NaN
and ``identified = False``.

Game-agnostic: the counts and costs come as a mapping ``deck -> {card: (copies, cost)}`` (the game's
``deck_counts`` capability, :data:`simkit.games.CAPABILITIES`).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd

from simkit.analysis.results import first_score
from simkit.analysis.stats import Z95, wilson_interval

__all__ = ["count_regression", "one_card_categories", "seat_by_category", "unit_values"]


def count_regression(y, x, z: float = Z95) -> dict[str, np.ndarray]:
    """OLS of ``y`` on ``x`` (with an intercept column first) and HC1 standard errors.

    Args:
        y: ``float[n]`` responses.
        x: ``float[n, k]`` regressors, the intercept column included.
        z: the normal quantile of the intervals.

    Returns:
        ``beta, se, low, high`` (``float[k]`` each) and ``identified`` (``bool[k]``: the column is not a
        linear combination of the others; NaN everywhere else).
    """
    y = np.asarray(y, dtype=float)
    x = np.asarray(x, dtype=float)
    n, k = x.shape
    identified = _identified(x)
    beta = np.full(k, np.nan)
    se = np.full(k, np.nan)
    if n > identified.sum() and identified.any():
        xi = x[:, identified]
        b, *_ = np.linalg.lstsq(xi, y, rcond=None)
        resid = y - xi @ b
        bread = np.linalg.pinv(xi.T @ xi)
        meat = (xi * resid[:, None] ** 2).T @ xi
        cov = bread @ meat @ bread * n / (n - xi.shape[1])
        beta[identified] = b
        se[identified] = np.sqrt(np.clip(np.diag(cov), 0, None))
    return {"beta": beta, "se": se, "low": beta - z * se, "high": beta + z * se, "identified": identified}


def _identified(x: np.ndarray, tol: float = 1e-9) -> np.ndarray:
    """Columns kept greedily while each adds rank: a column in the span of those before it is not identified."""
    keep = np.zeros(x.shape[1], bool)
    rank = 0
    for j in range(x.shape[1]):
        trial = keep.copy()
        trial[j] = True
        r = np.linalg.matrix_rank(x[:, trial], tol=tol * max(1.0, np.abs(x).max())) if x.size else 0
        if r > rank:
            keep, rank = trial, r
    return keep


def unit_values(df: pd.DataFrame, counts: Mapping[str, Mapping[str, tuple[int, int]]],
                kind: Mapping[str, str] | None = None) -> pd.DataFrame:
    """Each card's marginal points per copy and per unit of cost, from the games of ``df``.

    Args:
        df: the results, one row per game (``first_deck``, ``second_deck``, ``winner``).
        counts: ``deck -> {card: (copies, cost)}`` for every deck of ``df``.
        kind: card -> its category (e.g. a unit's race), copied into the table when given.

    Returns:
        DataFrame, one row per card seen, best value per cost first (unidentified cards last):
        ``card, group, cost, decks, per_copy, low, high, per_cost, per_cost_low, per_cost_high, identified``
        (points of the first seat's score, 0..1); ``attrs`` holds ``intercept`` (``(estimate, low, high)``:
        the first seat's score between equal decks), ``games`` and ``relative`` (True when every game's two
        decks differ in cost by the same amount, e.g. both seats always spend their whole budgets: the level of
        the values is then not measured, only their differences, and one card is left unidentified as the
        reference).

    Raises:
        ValueError: a deck of ``df`` missing from ``counts``.
    """
    decks = sorted(set(df["first_deck"]) | set(df["second_deck"]))
    missing = [d for d in decks if d not in counts]
    if missing:
        raise ValueError(f"no card counts for the deck {missing[0]!r}")
    cards = sorted({c for d in decks for c in counts[d]})
    cost = {c: next(counts[d][c][1] for d in decks if c in counts[d]) for c in cards}
    col = {c: j for j, c in enumerate(cards)}
    vec = {}
    for d in decks:
        v = np.zeros(len(cards))
        for c, (n, _) in counts[d].items():
            v[col[c]] = n
        vec[d] = v
    first = np.stack([vec[d] for d in df["first_deck"]]) if len(df) else np.zeros((0, len(cards)))
    second = np.stack([vec[d] for d in df["second_deck"]]) if len(df) else np.zeros((0, len(cards)))
    x = np.column_stack([np.ones(len(df)), first - second])
    fit = count_regression(first_score(df), x)
    spent = (first - second) @ np.array([float(cost[c]) for c in cards]) if len(df) else np.zeros(0)
    held = {c: sum(1 for d in decks if c in counts[d]) for c in cards}
    rows = []
    for c in cards:
        j = col[c] + 1
        price = float(cost[c]) if cost[c] else np.nan
        rows.append({"card": c, "group": (kind or {}).get(c, ""), "cost": cost[c], "decks": held[c],
                     "per_copy": fit["beta"][j], "low": fit["low"][j], "high": fit["high"][j],
                     "per_cost": fit["beta"][j] / price, "per_cost_low": fit["low"][j] / price,
                     "per_cost_high": fit["high"][j] / price, "identified": bool(fit["identified"][j])})
    out = pd.DataFrame(rows, columns=["card", "group", "cost", "decks", "per_copy", "low", "high", "per_cost",
                                      "per_cost_low", "per_cost_high", "identified"])
    out = out.sort_values(["identified", "per_cost", "card"], ascending=[False, False, True],
                          na_position="last").reset_index(drop=True)
    out.attrs["intercept"] = (float(fit["beta"][0]), float(fit["low"][0]), float(fit["high"][0]))
    out.attrs["games"] = len(df)
    # every game's two decks differ in cost by the same amount (each seat spends its whole budget): the
    # costs then add up to the intercept's column, and only differences between cards' values are measured
    out.attrs["relative"] = bool(len(df) and np.ptp(spent) < 1e-9)
    return out


def one_card_categories(cards: Mapping[str, Mapping[str, tuple[str, ...]]]) -> list[str]:
    """The categories in which every deck holds exactly one card, and not all the same one (Magic War's race)."""
    if not cards:
        return []
    cats = set.intersection(*(set(cs) for cs in cards.values()))
    return sorted(k for k in cats if all(len(cs[k]) == 1 for cs in cards.values())
                  and len({cs[k][0] for cs in cards.values()}) > 1)


def seat_by_category(df: pd.DataFrame, cards: Mapping[str, Mapping[str, tuple[str, ...]]],
                     category: str) -> pd.DataFrame:
    """The first seat's score by the first deck's card and the second deck's card of ``category``.

    Args:
        df: the results.
        cards: each deck's cards by category (:func:`simkit.analysis.results.deck_card_table`).
        category: a category with one card per deck (:func:`one_card_categories`).

    Returns:
        DataFrame, one row per (first, second) pair played: ``first, second, games, points, first_rate, low,
        high`` (Wilson 95%), in the order the cards first appear in sorted deck order.
    """
    one = {d: cs[category][0] for d, cs in cards.items()}
    a = df["first_deck"].map(one).to_numpy()
    b = df["second_deck"].map(one).to_numpy()
    frame = pd.DataFrame({"first": a, "second": b, "points": first_score(df)})
    g = frame.groupby(["first", "second"], sort=False).agg(games=("points", "size"), points=("points", "sum"))
    order = list(dict.fromkeys(one[d] for d in sorted(one)))
    g = g.reindex(pd.MultiIndex.from_product([order, order], names=["first", "second"])).dropna().reset_index()
    g["games"] = g["games"].astype(int)
    low, high = wilson_interval(g["points"].to_numpy(), g["games"].to_numpy())
    g["first_rate"] = g["points"] / g["games"]
    g["low"], g["high"] = low, high
    return g[["first", "second", "games", "points", "first_rate", "low", "high"]]
