"""Small statistics used by every balance table: intervals, tests and multiple-comparison corrections.

Rates here are *score rates*: a win counts 1, a draw 1/2, a loss 0, so ``points / games``.
Every function is vectorised over numpy arrays (or pandas Series) of counts.
"""

from __future__ import annotations

import numpy as np
from scipy import stats

__all__ = [
    "Z95",
    "wilson_interval",
    "p_beyond",
    "p_beyond_exact",
    "sign_test",
    "paired_delta",
    "adjust_p",
    "difference_interval",
]

Z95 = float(stats.norm.ppf(0.975))


def wilson_interval(points, games, z: float = Z95) -> tuple[np.ndarray, np.ndarray]:
    """Wilson score interval of a score rate (draws count half, so ``points`` may be fractional).

    Args:
        points: points scored (wins + draws / 2), array-like.
        games: games played, array-like of the same shape.
        z: the normal quantile (1.96 for 95%).

    Returns:
        ``(low, high)`` float arrays; NaN where ``games`` is 0.
    """
    s = np.asarray(points, dtype=float)
    n = np.asarray(games, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = s / n
        z2 = z * z
        centre = (p + z2 / (2 * n)) / (1 + z2 / n)
        half = z * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return np.clip(centre - half, 0.0, 1.0), np.clip(centre + half, 0.0, 1.0)


def p_beyond(rate, games, low: float, high: float) -> np.ndarray:
    """p-value that a true rate lies outside ``[low, high]`` (null: it lies inside).

    A one-sided normal test of the observed rate against the nearer bound, with the null's
    binomial variance (draws only shrink the variance, so this is conservative with draws).

    Args:
        rate: observed score rates.
        games: games behind each rate.
        low: lower bound of the acceptable band (e.g. 0.45).
        high: upper bound of the acceptable band (e.g. 0.55).

    Returns:
        float array of p-values in [0, 1]; NaN where ``games`` is 0.
    """
    r = np.asarray(rate, dtype=float)
    n = np.asarray(games, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p_high = stats.norm.sf((r - high) / np.sqrt(high * (1 - high) / n))
        p_low = stats.norm.cdf((r - low) / np.sqrt(low * (1 - low) / n))
    out = np.minimum(p_high, p_low)
    return np.where(n > 0, out, np.nan)


def p_beyond_exact(wins, draws, games, low: float, high: float) -> np.ndarray:
    """Exact p-value that a true score rate lies outside ``[low, high]`` (null: it lies inside).

    Two one-sided binomial tests, the smaller p kept as in :func:`p_beyond`: above ``high``,
    ``P(Binomial(games, high) >= wins)`` counting a draw as a loss; below ``low``,
    ``P(Binomial(games, low) <= wins + draws)`` counting a draw as a win. A score rate above
    ``high`` needs a win rate above ``high`` or draws, so moving each draw to the null's side
    keeps both tests valid (conservative with draws) at any sample size, where the normal
    approximation of :func:`p_beyond` is too generous for a dozen games.

    Args:
        wins: games won, integer array-like.
        draws: games drawn.
        games: games played (wins + draws + losses).
        low: lower bound of the acceptable band.
        high: upper bound of the acceptable band.

    Returns:
        float array of p-values in [0, 1]; NaN where ``games`` is 0.
    """
    w = np.asarray(wins, dtype=float)
    d = np.asarray(draws, dtype=float)
    n = np.asarray(games, dtype=float)
    p_high = stats.binom.sf(w - 1, n, high)
    p_low = stats.binom.cdf(w + d, n, low)
    return np.where(n > 0, np.minimum(p_high, p_low), np.nan)


def sign_test(wins, losses) -> np.ndarray:
    """Exact two-sided binomial test of ``wins`` against ``losses`` at 1/2 (draws left out).

    Args:
        wins: games won by one side, integer array-like.
        losses: games won by the other side.

    Returns:
        float array of p-values; 1 where there is no decisive game.
    """
    k = np.asarray(wins, dtype=float)
    n = k + np.asarray(losses, dtype=float)
    lo = stats.binom.cdf(np.minimum(k, n - k), n, 0.5)
    return np.where(n > 0, np.minimum(1.0, 2 * lo), 1.0)


def paired_delta(n, sum_d, sum_d2, z: float = Z95) -> dict[str, np.ndarray]:
    """Mean of paired differences with a normal interval and a two-sided t-test against 0.

    Args:
        n: pairs behind each mean.
        sum_d: sum of the differences (patch - base).
        sum_d2: sum of the squared differences.
        z: the normal quantile of the interval.

    Returns:
        dict of float arrays ``delta, low, high, p_value`` (p is 1 when every difference is 0,
        0 when they are all equal and non-zero).
    """
    n = np.asarray(n, dtype=float)
    sum_d = np.asarray(sum_d, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = sum_d / n
        var = np.maximum(np.asarray(sum_d2, dtype=float) - n * mean * mean, 0.0) / (n - 1)
        se = np.sqrt(var / n)
        t = mean / se
        p = 2 * stats.t.sf(np.abs(t), np.maximum(n - 1, 1))
    zero_spread = ~(se > 1e-12)
    p = np.where(zero_spread, np.where(np.abs(mean) > 1e-12, 0.0, 1.0), p)
    p = np.where(n > 1, p, np.nan)
    half = np.where(zero_spread, 0.0, z * se)
    return {"delta": mean, "low": mean - half, "high": mean + half, "p_value": p}


def adjust_p(p_values, method: str = "holm") -> np.ndarray:
    """p-values adjusted for multiple comparisons within one family of tests.

    Args:
        p_values: raw p-values (NaN ones are left out and stay NaN).
        method: ``"holm"`` (family-wise error, Holm-Bonferroni) or ``"bh"``
            (false discovery rate, Benjamini-Hochberg, by ``scipy.stats.false_discovery_control``).

    Returns:
        float array of adjusted p-values, in the input order.

    Raises:
        ValueError: for an unknown ``method``.
    """
    if method not in ("holm", "bh"):
        raise ValueError(f"multiple-comparison method must be 'holm' or 'bh', got {method!r}")
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = np.flatnonzero(~np.isnan(p))
    m = len(ok)
    if m == 0:
        return out
    if method == "bh":
        out[ok] = stats.false_discovery_control(p[ok], method="bh")
        return out
    order = ok[np.argsort(p[ok], kind="stable")]
    i = np.arange(1, m + 1)
    out[order] = np.maximum.accumulate(np.minimum(1.0, (m - i + 1) * p[order]))
    return out


def difference_interval(a, a_low, a_high, b, b_low, b_high) -> tuple[np.ndarray, np.ndarray]:
    """The 95% interval of ``a - b`` for two independent rates, from each rate's own interval (Newcombe's
    square-and-add, method 10 of Newcombe 1998 when the two are Wilson intervals): a rate near 0 or 1 keeps its
    interval's skew instead of a symmetric normal one.

    Args:
        a, a_low, a_high: the first rate and its interval (array-likes of one shape).
        b, b_low, b_high: the second rate and its interval.

    Returns:
        ``(low, high)`` float arrays of the difference's interval; NaN where a rate is NaN.
    """
    a, a_low, a_high, b, b_low, b_high = (np.asarray(x, dtype=float) for x in (a, a_low, a_high, b, b_low, b_high))
    d = a - b
    return d - np.sqrt((a - a_low) ** 2 + (b_high - b) ** 2), d + np.sqrt((a_high - a) ** 2 + (b - b_low) ** 2)
