"""Deck strength: overall win rate and Bradley-Terry ratings (Elo scale) with bootstrap intervals."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simkit.analysis.results import deck_card_table, deck_games, deck_pool, results_schema
from simkit.analysis.stats import wilson_interval

__all__ = ["ELO_SCALE", "deck_strength", "bradley_terry", "rating_interval"]

ELO_SCALE = 400 / np.log(10)  # rating points per unit of log-strength: 400 points = 10-to-1 odds


def bradley_terry(points, games, prior_games: float = 1.0, tol: float = 1e-10, max_iter: int = 100) -> np.ndarray:
    """Bradley-Terry log-strengths from pooled pairwise results (maximum likelihood by Newton's method).

    Deck i beats deck j with probability ``1 / (1 + exp(theta_j - theta_i))``; a draw counts half
    a win. Each deck also plays ``prior_games`` virtual games scoring one half against a virtual
    deck of log-strength 0, which keeps a deck that never (or always) wins finite.

    Args:
        points: ``float[..., D, D]`` points of deck i against deck j (draws half), diagonal ignored;
            leading axes are independent problems (bootstrap replicas).
        games: ``float[D, D]`` games between i and j, symmetric.
        prior_games: weight of the virtual games (0 for the plain maximum-likelihood fit, which
            needs every deck to score something and to drop something).
        tol: stop when no log-strength moves more than this.
        max_iter: iteration cap.

    Returns:
        ``float[..., D]`` log-strengths, centred to mean 0 per problem.
    """
    w = np.asarray(points, dtype=float)
    d = w.shape[-1]
    off = ~np.eye(d, dtype=bool)
    w = np.where(off, w, 0.0)
    n = np.where(off, np.asarray(games, dtype=float), 0.0)
    won = w.sum(-1) + prior_games / 2
    theta = np.zeros(w.shape[:-1])
    for _ in range(max_iter):
        p = 1 / (1 + np.exp(theta[..., None, :] - theta[..., :, None]))   # p[i, j]: i beats j
        p0 = 1 / (1 + np.exp(-theta))                                       # against the virtual deck
        grad = won - (n * p).sum(-1) - prior_games * p0
        curv = n * p * (1 - p)
        hess = curv - np.eye(d) * (curv.sum(-1) + prior_games * p0 * (1 - p0))[..., None]
        if prior_games == 0:  # the likelihood ignores a common shift: pin it with a rank-one term
            hess = hess - 1.0
        step = np.linalg.solve(hess, grad[..., None])[..., 0]
        size = np.abs(step).max(-1, keepdims=True)
        theta = theta - step / np.maximum(size, 1.0)  # damped: never more than one unit at a time
        if size.max() < tol:
            break
    return theta - theta.mean(-1, keepdims=True)


def _pair_counts(df: pd.DataFrame, decks: list[str]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ordered-pair deck indices and ``[first wins, draws, second wins]`` counts."""
    w = df["winner"]
    c = pd.DataFrame({
        "f": pd.Categorical(df["first_deck"], categories=decks).codes,
        "s": pd.Categorical(df["second_deck"], categories=decks).codes,
        "fw": (w == "first").to_numpy(int), "dr": (w == "draw").to_numpy(int), "sw": (w == "second").to_numpy(int),
    }).groupby(["f", "s"], sort=True)[["fw", "dr", "sw"]].sum().reset_index()
    return c["f"].to_numpy(), c["s"].to_numpy(), c[["fw", "dr", "sw"]].to_numpy()


def _pooled(fi, si, counts, d: int) -> tuple[np.ndarray, np.ndarray]:
    """Points ``[..., D, D]`` and games ``[D, D]`` of each deck against each, both seats pooled.

    ``counts[..., P, 3]`` holds first wins, draws and second wins of the P ordered pairings
    ``(fi, si)`` (each pairing once); leading axes are replicas with the same game counts.
    """
    points = np.zeros((*counts.shape[:-2], d, d))
    points[..., fi, si] += counts[..., 0] + counts[..., 1] / 2
    points[..., si, fi] += counts[..., 2] + counts[..., 1] / 2
    games = np.zeros((d, d))
    games[fi, si] = counts.reshape(-1, *counts.shape[-2:])[0].sum(-1)
    return points, games + games.T


def rating_interval(fi, si, counts, d: int, bootstrap: int, seed: int = 0,
                    prior_games: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """Percentile-bootstrap 95% intervals of the Bradley-Terry ratings (Elo scale).

    Each replica draws as many games as were played, with replacement, from all the games between
    two different decks: how many games each pairing gets varies from replica to replica, as it
    would from sweep to sweep. (Resampling within each pairing instead gives an interval of no
    width whenever a pairing's games all ended alike, as a single game always does.) A deck whose
    rating does not move across the replicas gets ``NaN``: the games cannot say how uncertain it is.

    Args:
        fi, si, counts: :func:`_pair_counts` (ordered pairings and their first wins, draws, second wins).
        d: decks in the pool.
        bootstrap: replicas (0: no interval, all ``NaN``).
        seed: seed of the replicas' random generator.
        prior_games: as :func:`bradley_terry`.

    Returns:
        ``(low, high)``, ``float[D]`` each.
    """
    nan = np.full(d, np.nan)
    counts = np.where((fi != si)[:, None], counts, 0)  # mirrors tell nothing about strength
    total = int(counts.sum())
    if bootstrap <= 0 or total == 0:
        return nan, nan.copy()
    rng = np.random.default_rng(seed)
    cells = counts.reshape(-1)
    draws = rng.multinomial(total, cells / total, size=bootstrap).reshape(bootstrap, *counts.shape)  # [R, P, 3]
    b_points, _ = _pooled(fi, si, draws, d)
    b_games = np.zeros((bootstrap, d, d))
    b_games[:, fi, si] += draws.sum(-1)
    b_games = b_games + np.swapaxes(b_games, -1, -2)
    reps = bradley_terry(b_points, b_games, prior_games) * ELO_SCALE
    low, high = np.percentile(reps, [2.5, 97.5], axis=0)
    flat = (high - low) <= 1e-9 * np.maximum(1.0, np.abs(reps).max(0))
    return np.where(flat, np.nan, low), np.where(flat, np.nan, high)


def deck_strength(df: pd.DataFrame, bootstrap: int = 200, seed: int = 0, prior_games: float = 1.0) -> pd.DataFrame:
    """How strong each deck is: win rate against the rest of the pool and a Bradley-Terry rating.

    The win rate pools every non-mirror game of the deck (both seats), with a Wilson 95% interval.
    The rating is a Bradley-Terry fit on the pooled matchup results, on the Elo scale (a deck
    rated 400 above another is expected to score 10 to 1 against it) centred at 0; its 95%
    interval is a percentile bootstrap over the games (:func:`rating_interval`), ``NaN`` where
    the bootstrap cannot estimate one.

    Args:
        df: the results, one row per game.
        bootstrap: bootstrap replicas for the rating interval (0: no interval).
        seed: seed of the bootstrap's random generator.
        prior_games: virtual half-won games per deck that keep ratings finite (see :func:`bradley_terry`).

    Returns:
        DataFrame sorted strongest first: ``rank, deck``, one column per card category of the game
        (its cards in the deck, e.g. ``artifact``, ``creature``), ``group`` (the first category's
        cards, what plots colour decks by), ``games, points, win_rate, low, high, rating,
        rating_low, rating_high``.
    """
    decks = deck_pool(df)
    view = deck_games(df, mirrors=False)
    agg = view.groupby("deck").agg(games=("row", "size"), points=("points", "sum")).reindex(decks, fill_value=0)
    fi, si, counts = _pair_counts(df, decks)
    d = len(decks)
    points, games = _pooled(fi, si, counts, d)
    rating = bradley_terry(points, games, prior_games) * ELO_SCALE
    low, high = rating_interval(fi, si, counts, d, bootstrap, seed, prior_games)
    table = deck_card_table(df)
    categories = [c for c in results_schema(df).card_categories if any(c in table[d] for d in decks)] or ["deck"]
    cards = {c: [", ".join(table[d].get(c, ())) for d in decks] for c in categories}
    out = pd.DataFrame({
        "deck": decks,
        **cards,
        "group": cards[categories[0]],
        "games": agg["games"].to_numpy(int),
        "points": agg["points"].to_numpy(float),
    })
    out["win_rate"] = out["points"] / out["games"].where(out["games"] > 0)
    out["low"], out["high"] = wilson_interval(out["points"], out["games"])
    out["rating"], out["rating_low"], out["rating_high"] = rating, low, high
    out = out.sort_values(["rating", "win_rate", "deck"], ascending=[False, False, True], ignore_index=True)
    out.insert(0, "rank", np.arange(1, d + 1))
    out.attrs["group_title"] = results_schema(df).card_categories.get(categories[0], categories[0])
    return out
