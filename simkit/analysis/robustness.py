"""Does the player matter? Deck rankings and flags compared across the bots of a panel.

A panel sweep plays every pairing under each bot of the panel, the same bot in both seats. These
functions split its results by bot and say how far the bots agree: each deck's win rate under
every bot, rank correlations between bots (Spearman and Kendall, with bootstrap intervals over
games), the overlap of their top-k decks, and for every flag raised under any bot whether it
holds in the same direction under every bot (``robust``) or not (``bot-dependent``).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

import numpy as np
import pandas as pd
from scipy.stats import kendalltau, spearmanr

from simkit.analysis.flags import FlagBands, balance_flags
from simkit.analysis.results import deck_games

__all__ = ["panel_bots", "panel_parts", "deck_points", "robustness", "deck_rates_by_bot", "rank_agreement",
           "flag_robustness", "best_pilot"]


def panel_bots(df: pd.DataFrame) -> list[str]:
    """The bots that played both seats of some games (the panel), in order of first appearance.

    Games between two different bots belong to no panel bot and are ignored by this module.
    """
    same = df[df["first_bot"] == df["second_bot"]]
    return list(dict.fromkeys(same["first_bot"].tolist()))


def panel_parts(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Each panel bot's games (both seats played by that bot), by bot in panel order."""
    same = df[df["first_bot"] == df["second_bot"]]
    return {b: same[same["first_bot"] == b] for b in panel_bots(df)}


def deck_points(part: pd.DataFrame, decks: list[str], weights: np.ndarray | None = None) -> np.ndarray:
    """Win rate of each deck (non-mirror games, both seats), optionally with a weight per game: the mean over
    its opponents of its matchup rates, which is the pooled rate when every pair played as many games and
    stays unbiased when they did not (an adaptive sweep)."""
    view = deck_games(part, mirrors=False)
    w = np.ones(len(part)) if weights is None else weights
    gw = w[view["row"].to_numpy()]
    d = len(decks)
    idx = pd.Index(decks).get_indexer(view["deck"])
    opp = pd.Index(decks).get_indexer(view["opponent"])
    games = np.bincount(idx * d + opp, weights=gw, minlength=d * d).reshape(d, d)
    points = np.bincount(idx * d + opp, weights=gw * view["points"].to_numpy(), minlength=d * d).reshape(d, d)
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = np.where(games > 0, points / games, np.nan)
        met = np.isfinite(rates).sum(axis=1)
        return np.where(met > 0, np.nansum(rates, axis=1) / np.maximum(met, 1), np.nan)


def deck_rates_by_bot(df: pd.DataFrame) -> pd.DataFrame:
    """Each deck's win rate under each panel bot (non-mirror games, both seats; the mean over opponents).

    Returns:
        DataFrame indexed by deck, one column per bot, ordered by the mean over bots (strongest first).
    """
    parts = panel_parts(df)
    decks = sorted(set(df["first_deck"]) | set(df["second_deck"]))
    table = pd.DataFrame({b: deck_points(p, decks) for b, p in parts.items()}, index=pd.Index(decks, name="deck"))
    return table.loc[table.mean(axis=1).sort_values(ascending=False).index]


def _corr(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    ok = np.isfinite(a) & np.isfinite(b)
    if ok.sum() < 3 or np.ptp(a[ok]) == 0 or np.ptp(b[ok]) == 0:
        return float("nan"), float("nan")
    return float(spearmanr(a[ok], b[ok]).statistic), float(kendalltau(a[ok], b[ok]).statistic)


def rank_agreement(df: pd.DataFrame, bootstrap: int = 200, seed: int = 0, top_k: int = 10,
                   level: float = 0.95) -> pd.DataFrame:
    """Rank correlation of deck win rates between every two panel bots, with bootstrap intervals.

    Deck win rates measured from a finite sweep carry sampling noise, which pulls any correlation
    between two bots' rates toward zero: the measured correlation understates how far the bots
    agree on the decks' true rates. The bootstrap (a Poisson bootstrap over games: each game
    weighted by a Poisson(1) draw, independently under each bot) adds that noise once more, so its
    replicates fall short of the measured value by about as much as the measured value falls short
    of the true one. The reported ``spearman``/``kendall`` are therefore bias-corrected
    (``2 x measured - mean of the replicates``) and their intervals are basic bootstrap intervals
    (``2 x measured - the replicates' upper and lower quantiles``), both clipped to [-1, 1]; the
    measured values are kept in ``spearman_measured``/``kendall_measured``. The intervals measure
    how much the agreement could move with other games of the same sweep; they say nothing of bots
    outside the panel. Without bootstrap the measured values are reported and the intervals are NaN.

    Args:
        df: results of a panel sweep.
        bootstrap: resamples for the intervals (0: no intervals).
        seed: the resampling seed.
        top_k: the size of the top lists compared (at most a quarter of the pool, at least 1).
        level: the intervals' coverage.

    Returns:
        DataFrame ``bot_a, bot_b, decks, spearman, spearman_low, spearman_high, kendall,
        kendall_low, kendall_high, top_k, top_overlap, spearman_measured, kendall_measured``
        (top_overlap: the share of ``bot_a``'s top-k decks also in ``bot_b``'s top-k).
    """
    parts = panel_parts(df)
    decks = sorted(set(df["first_deck"]) | set(df["second_deck"]))
    rates = {b: deck_points(p, decks) for b, p in parts.items()}
    k = max(1, min(top_k, len(decks) // 4 or 1))
    rng = np.random.default_rng(seed)
    boot = {b: [] for b in parts}
    for _ in range(bootstrap):
        for b, p in parts.items():
            boot[b].append(deck_points(p, decks, rng.poisson(1.0, len(p)).astype(float)))
    tail = (1 - level) / 2
    rows = []
    for a, b in combinations(parts, 2):
        measured = np.array(_corr(rates[a], rates[b]))
        samples = np.array([_corr(x, y) for x, y in zip(boot[a], boot[b])]) if bootstrap else np.empty((0, 2))
        if len(samples) and np.isfinite(samples).any():
            est = np.clip(2 * measured - np.nanmean(samples, axis=0), -1, 1)
            lo = np.clip(2 * measured - np.nanquantile(samples, 1 - tail, axis=0), -1, 1)
            hi = np.clip(2 * measured - np.nanquantile(samples, tail, axis=0), -1, 1)
        else:
            est, lo, hi = measured, np.full(2, np.nan), np.full(2, np.nan)
        rho, tau = est
        top_a = set(np.array(decks)[np.argsort(-np.nan_to_num(rates[a], nan=-1), kind="stable")[:k]])
        top_b = set(np.array(decks)[np.argsort(-np.nan_to_num(rates[b], nan=-1), kind="stable")[:k]])
        rows.append({
            "bot_a": a, "bot_b": b, "decks": len(decks),
            "spearman": rho, "spearman_low": lo[0], "spearman_high": hi[0],
            "kendall": tau, "kendall_low": lo[1], "kendall_high": hi[1],
            "top_k": k, "top_overlap": len(top_a & top_b) / k,
            "spearman_measured": measured[0], "kendall_measured": measured[1],
        })
    return pd.DataFrame(rows, columns=["bot_a", "bot_b", "decks", "spearman", "spearman_low", "spearman_high",
                                       "kendall", "kendall_low", "kendall_high", "top_k", "top_overlap",
                                       "spearman_measured", "kendall_measured"])


def _direction(value: float, low: float, high: float) -> int:
    return 1 if value > high else (-1 if value < low else 0)


def _flags(part: pd.DataFrame, bands: FlagBands) -> pd.DataFrame:
    """One bot's flags, as its report raises them (an adaptive sweep's are its group-sequential flags)."""
    if ((part.attrs.get("meta") or {}).get("plan") or {}).get("adaptive"):
        from simkit.analysis import analyze

        return analyze(part, bootstrap=0, bands=bands)["flags"]
    return balance_flags(part, bands)


def flag_robustness(df: pd.DataFrame, bands: FlagBands | None = None) -> pd.DataFrame:
    """Every flag raised under some panel bot, and whether it holds under every bot of the panel.

    A flag is ``robust`` when, under every bot of the panel, the estimate lies beyond the same edge
    of its band (significance is required of the bots that raised it, as for any flag); otherwise it
    is ``bot-dependent``: some bot sees the deck, matchup or seat inside its band or beyond the other edge.

    Returns:
        DataFrame ``kind, subject, flagged_by, robust, label`` plus one ``value_<bot>`` column per bot.
    """
    bands = bands or FlagBands()
    parts = panel_parts(df)
    flags = {b: _flags(p, bands) for b, p in parts.items()}
    # every estimate (flagged or not) under each bot, to judge the direction where a bot did not flag
    loose = replace(bands, alpha=1.0 + 1e-9)
    values = {b: balance_flags(p, loose) for b, p in parts.items()}
    keys = list(dict.fromkeys((r.kind, r.subject) for f in flags.values() for r in f.itertuples()))
    rows = []
    for kind, subject in keys:
        row = {"kind": kind, "subject": subject,
               "flagged_by": ", ".join(b for b, f in flags.items()
                                       if ((f["kind"] == kind) & (f["subject"] == subject)).any())}
        directions = []
        for b, v in values.items():
            hit = v[(v["kind"] == kind) & (v["subject"] == subject)]
            if kind == "matchup" and hit.empty:  # named from the other side under this bot
                a, _, c = subject.partition(" vs ")
                other = v[(v["kind"] == kind) & (v["subject"] == f"{c} vs {a}")]
                row[f"value_{b}"] = float(1 - other["value"].iloc[0]) if len(other) else float("nan")
                directions.append(-1 if len(other) and _direction(*other[["value", "band_low", "band_high"]]
                                                                   .iloc[0]) == 1 else 0)
                continue
            row[f"value_{b}"] = float(hit["value"].iloc[0]) if len(hit) else float("nan")
            directions.append(_direction(*hit[["value", "band_low", "band_high"]].iloc[0]) if len(hit) else 0)
        row["robust"] = bool(directions) and directions[0] != 0 and all(d == directions[0] for d in directions)
        row["label"] = "robust" if row["robust"] else "bot-dependent"
        rows.append(row)
    cols = ["kind", "subject", "flagged_by", "robust", "label"] + [f"value_{b}" for b in parts]
    return pd.DataFrame(rows, columns=cols)


def best_pilot(df: pd.DataFrame) -> pd.DataFrame:
    """Each deck with the panel bot that wins most with it (the deck's best pilot).

    Returns:
        DataFrame ``deck, pilot, win_rate`` plus ``win_rate_<bot>`` per bot, strongest deck first.
    """
    rates = deck_rates_by_bot(df)
    out = pd.DataFrame({"deck": rates.index, "pilot": rates.idxmax(axis=1).to_numpy(),
                        "win_rate": rates.max(axis=1).to_numpy()})
    for b in rates.columns:
        out[f"win_rate_{b}"] = rates[b].to_numpy()
    return out.sort_values("win_rate", ascending=False, ignore_index=True)


def robustness(df: pd.DataFrame, bootstrap: int = 200, seed: int = 0, bands: FlagBands | None = None) -> dict:
    """How far a panel's bots agree on the balance of the game.

    Args:
        df: results holding games of two or more panel bots (each bot in both seats).
        bootstrap: resamples for the rank-correlation intervals.
        seed: the resampling seed.
        bands: the flag bands (default :class:`FlagBands`).

    Returns:
        ``{"bots": [...], "deck_rates": deck_rates_by_bot, "agreement": rank_agreement,
        "flags": flag_robustness, "pilots": best_pilot}``.

    Raises:
        ValueError: fewer than two panel bots in ``df``.
    """
    bots = panel_bots(df)
    if len(bots) < 2:
        raise ValueError(f"robustness needs games of at least two bots each playing both seats; found {bots}")
    return {
        "bots": bots,
        "deck_rates": deck_rates_by_bot(df),
        "agreement": rank_agreement(df, bootstrap=bootstrap, seed=seed),
        "flags": flag_robustness(df, bands),
        "pilots": best_pilot(df),
    }
