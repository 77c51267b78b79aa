"""Skill or luck: how much of a game's outcome the players decide, how much the deck pairing, how much the seed.

The design (what :func:`skill_or_luck` reads, and what ``simkit ladder --seeds-per-deal R`` plays): a
stronger bot ``A`` and a weaker bot ``B``; ``P`` random deals (a first-seat deck against a second-seat deck);
every deal played with ``R`` seeds, each seed twice, once with ``A`` in the first seat and once with ``B``
there. The outcome of a game is the first seat's score ``Y`` (1 won, 1/2 drawn, 0 lost). Its variance over the
games splits exactly (the law of total variance, the bot order balanced within every deal) into four parts:

- **bots**: ``(Delta / 2)^2``, ``Delta`` the mean over deals of ``E[Y | A first] - E[Y | B first]`` (which bot
  sits where: the players' skill, on average);
- **bots x decks**: the variance over deals of half that difference (a deal where skill matters more or less);
- **decks**: the variance over deals of ``E[Y]`` with the bots balanced (the deck pairing and the seats: a
  strong deck, a first-seat advantage that differs from deal to deal);
- **luck**: the mean variance of ``Y`` within one (deal, bot order), i.e. over the seeds: the dice, the
  shuffles and the bots' own random choices (a utility bot's Gumbel noise, a search bot's sampled plans),
  everything the seed draws.

*Skill* is bots plus bots x decks (what changes when the players change seats), *decks* and *luck* the rest.
Each part is a method-of-moments estimate, unbiased under the design (the noise of cell means is taken
out of the between-deal parts), clipped at zero before the shares are taken; the 95% intervals come from a
bootstrap over deals (a deal drawn with all its games). The deals are a random sample of the pool's
pairings, so the decks part is that of the pool's pairings as the deal draws them.

Beside it, the plainer figures: the stronger bot's win rate against the weaker, and how often the weaker
player wins, with 95% Wilson intervals.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

from simkit.analysis.stats import wilson_interval

__all__ = ["PARTS", "components", "skill_or_luck", "first_seat_score"]

#: the parts of the outcome's variance, in the order they are reported
PARTS = ("bots", "bots_x_decks", "decks", "luck")


def first_seat_score(winner: pd.Series) -> np.ndarray:
    """The first seat's score of each game: 1 when it won, 1/2 for a draw, 0 when it lost."""
    w = np.asarray(winner)
    return np.where(w == "first", 1.0, np.where(w == "draw", 0.5, 0.0))


def components(y: np.ndarray) -> dict[str, float]:
    """The variance parts of first-seat scores ``y[deal, order, seed]`` (order 0: the strong bot first).

    Args:
        y: a ``(P, 2, R)`` array, ``P >= 2`` deals, both bot orders, ``R >= 2`` seeds per (deal, order).

    Returns:
        ``{"bots", "bots_x_decks", "decks", "luck"}`` (unclipped estimates, each may dip below 0 by noise)
        and ``"delta"``: the strong bot's mean first-seat edge ``E[Y | strong first] - E[Y | weak first]``.
    """
    y = np.asarray(y, dtype=float)
    p, orders, r = y.shape
    if orders != 2 or p < 2 or r < 2:
        raise ValueError(f"need (deals >= 2, 2 orders, seeds >= 2), got shape {y.shape}")
    cell = y.mean(axis=2)  # (P, 2)
    luck = float(y.var(axis=2, ddof=1).mean())  # unbiased per cell, averaged
    diff = cell[:, 0] - cell[:, 1]  # per deal: strong first minus weak first
    delta = float(diff.mean())
    s2_diff = float(diff.var(ddof=1))  # Var(true diff) + 2 luck / R
    deal_mean = cell.mean(axis=1)
    s2_deal = float(deal_mean.var(ddof=1))  # Var(true deal mean) + luck / (2R)
    bots = (delta * delta - s2_diff / p) / 4
    inter = (s2_diff - 2 * luck / r) / 4
    decks = s2_deal - luck / (2 * r)
    return {"bots": bots, "bots_x_decks": inter, "decks": decks, "luck": luck, "delta": delta}


def _shares(c: dict[str, float]) -> dict[str, float]:
    parts = {k: max(0.0, c[k]) for k in PARTS}
    total = sum(parts.values())
    if total <= 0:
        return {k: float("nan") for k in ("skill", "decks", "luck", *PARTS)}
    out = {k: v / total for k, v in parts.items()}
    out["skill"] = out["bots"] + out["bots_x_decks"]
    return out


def cube(games: pd.DataFrame, strong: str, weak: str) -> np.ndarray:
    """The ``(deal, order, seed)`` array of first-seat scores of ``games`` (columns ``deal``, ``first_bot``,
    ``second_bot``, ``winner``; games of one deal and order in the order given are its seeds).

    Raises:
        ValueError: a game between other bots, or deals with unequal numbers of games per order.
    """
    g = games.reset_index(drop=True)
    strong_first = (g.first_bot == strong) & (g.second_bot == weak)
    weak_first = (g.first_bot == weak) & (g.second_bot == strong)
    if not (strong_first | weak_first).all():
        raise ValueError(f"every game must be between {strong!r} and {weak!r}")
    order = np.where(strong_first, 0, 1)
    y = first_seat_score(g.winner)
    deals = pd.unique(g.deal)
    counts = pd.crosstab(g.deal, order)
    if counts.shape[1] != 2 or counts.to_numpy().min() != counts.to_numpy().max():
        raise ValueError("every deal needs the same number of games in each bot order")
    r = int(counts.to_numpy()[0, 0])
    out = np.empty((len(deals), 2, r))
    index = {d: i for i, d in enumerate(deals)}
    fill = np.zeros((len(deals), 2), dtype=int)
    for d, o, v in zip(g.deal, order, y):
        i = index[d]
        out[i, o, fill[i, o]] = v
        fill[i, o] += 1
    return out


def skill_or_luck(games: pd.DataFrame, strong: str, weak: str, bootstrap: int = 1000, seed: int = 0) -> dict:
    """The skill-or-luck decomposition of a match between ``strong`` and ``weak`` played in the design above.

    Args:
        games: one row per game: ``deal`` (the deal's id), ``first_bot``, ``second_bot``, ``winner``; each
            deal with the same number (at least 2) of games in each bot order.
        strong: the bot expected to win.
        weak: the other bot.
        bootstrap: resamples of deals for the intervals.
        seed: the bootstrap's seed.

    Returns:
        ``games``, ``deals``, ``seeds_per_deal``; ``total`` (the variance of the first seat's score, the sum of
        the parts); ``parts`` (:data:`PARTS`, unclipped estimates) and ``delta``; ``share`` and ``share_ci``
        (95% bootstrap percentile interval; NaN when no game's outcome differs from another's, as when the
        first seat always wins) of ``skill`` (bots + bots x decks), ``decks``, ``luck`` and of each
        part; ``strong_win_rate`` / ``weak_win_rate`` with ``_ci`` (95% Wilson, draws as not won) and
        ``draws``.
    """
    y = cube(games, strong, weak)
    c = components(y)
    share = _shares(c)
    rng = np.random.default_rng(seed)
    p = y.shape[0]
    boot = []
    for _ in range(bootstrap):
        boot.append(_shares(components(y[rng.integers(0, p, p)])))
    keys = list(share)
    arr = np.array([[b[k] for k in keys] for b in boot]) if boot else np.full((1, len(keys)), np.nan)
    with warnings.catch_warnings():  # a resample without variance has no shares (NaN), ignored
        warnings.simplefilter("ignore", RuntimeWarning)
        lo, hi = np.nanpercentile(arr, [2.5, 97.5], axis=0)
    n = y.size
    strong_won = float((y[:, 0] == 1).sum() + (y[:, 1] == 0).sum())
    draws = float((y == 0.5).sum())
    weak_won = n - strong_won - draws
    return {
        "strong": strong, "weak": weak, "games": int(n), "deals": int(p), "seeds_per_deal": int(y.shape[2]),
        "total": float(sum(max(0.0, c[k]) for k in PARTS)), "parts": {k: c[k] for k in PARTS}, "delta": c["delta"],
        "share": share, "share_ci": {k: (float(lo[i]), float(hi[i])) for i, k in enumerate(keys)},
        "strong_win_rate": strong_won / n, "strong_win_ci": tuple(float(v) for v in wilson_interval(strong_won, n)),
        "weak_win_rate": weak_won / n, "weak_win_ci": tuple(float(v) for v in wilson_interval(weak_won, n)),
        "draws": int(draws),
    }
