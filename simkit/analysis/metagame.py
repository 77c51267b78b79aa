"""Metagame: the Nash equilibrium of the deck-choice game, its support and the dominated decks.

Two players each pick a deck; the payoff is the pooled win rate minus one half, so the game is
symmetric and zero-sum and its value is 0. An equilibrium mix is a deck distribution no single
deck can beat on average: what a field of perfect adapters would settle on.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.linalg import null_space
from scipy.optimize import linprog, minimize

from simkit.analysis.matchups import matchup_matrix, win_rate_table
from simkit.analysis.results import seat_pools

__all__ = ["first_seat_rates", "nash_mix", "metagame", "pool_metagame", "seat_metagame"]

_CAP = 1e3  # largest scaled weight in the support LP (see nash_mix)


def _payoffs(rates: pd.DataFrame) -> np.ndarray:
    """The zero-sum payoff table ``rate - 1/2`` (mirrors 0), after checking the table is whole."""
    if list(rates.index) != list(rates.columns):
        raise ValueError("metagame: the win-rate table must have the same decks as rows and columns")
    a = rates.to_numpy(float) - 0.5
    np.fill_diagonal(a, 0.0)  # a mirror is even whether or not it was played
    if np.isnan(a).any():
        i, j = np.argwhere(np.isnan(a))[0]
        raise ValueError(f"metagame: no result for {rates.index[i]} against {rates.columns[j]}")
    return a


def nash_mix(rates: pd.DataFrame, tol: float = 1e-9) -> pd.Series:
    """The maximum-entropy equilibrium mix of the symmetric zero-sum game of a square win-rate table.

    A game can have many equilibria (a whole face of mixes); the one returned is the unique mix
    of greatest entropy among them, as in Nash averaging (Balduzzi et al. 2018, "Re-evaluating
    evaluation"): it gives every deck that can be part of some equilibrium a share, spreads
    weight as evenly as the equilibrium allows, and so does not depend on the order of the decks
    (a pool of equal decks gets the uniform mix, not 100% of the first one). Three steps, all
    with scipy: the game's value ``v`` by linear programming (HiGHS); the decks that have a
    share in some equilibrium (one LP over the cone of scaled equilibria, which also gives an
    equilibrium where every one of them has a share); the entropy maximised over the
    equilibrium mixes of those decks (SLSQP on the affine set they span, started from that
    interior equilibrium, which is kept if the optimiser fails).

    Args:
        rates: square table, rows and columns the same decks, ``rates[i, j]`` = how often deck i
            beats deck j (draws half); the diagonal is ignored (a mirror is even).
        tol: slack allowed on the equilibrium constraints (win-rate units).

    Returns:
        Series of weights indexed by deck, summing to 1.

    Raises:
        ValueError: when the table is not square or has a missing matchup.
    """
    a = _payoffs(rates)
    d = len(a)
    # value: max v s.t. x.A[:, j] >= v for all j; variables (x, v)
    res = linprog(np.append(np.zeros(d), -1.0), A_ub=np.hstack([-a.T, np.ones((d, 1))]), b_ub=np.zeros(d),
                  A_eq=np.append(np.ones(d), 0.0)[None], b_eq=[1.0], bounds=[(0, None)] * d + [(None, None)],
                  method="highs")
    if not res.success:  # pragma: no cover - a finite zero-sum game always has an equilibrium
        raise ValueError(f"metagame: linear program failed: {res.message}")
    v = res.x[-1]
    # decks of some equilibrium, in one LP over the cone of scaled equilibria y (x = y / sum y):
    # max sum z, z_i <= y_i, z_i <= 1, y.(A[:, j] - v) >= 0, y <= CAP; z_i = 1 where x_i can be > 0
    # (unless its largest share is below 1/CAP of the others': measured rates cannot tell that from 0)
    shifted = a - v
    eye = np.eye(d)
    res = linprog(np.append(np.zeros(d), -np.ones(d)),
                  A_ub=np.vstack([np.hstack([-shifted.T, np.zeros((d, d))]), np.hstack([-eye, eye])]),
                  b_ub=np.zeros(2 * d), bounds=[(0, _CAP)] * d + [(0, 1)] * d, method="highs")
    if not res.success:  # pragma: no cover - the cone always holds the equilibria found above
        raise ValueError(f"metagame: linear program failed: {res.message}")
    support = np.flatnonzero(res.x[d:] > 0.5)
    start = np.clip(res.x[:d][support], 0.0, None)
    start = start / start.sum()
    x = np.zeros(d)
    x[support] = _max_entropy(a[support], support, start, v, tol)
    return pd.Series(x, index=rates.index, name="weight")


def _neg_entropy(x: np.ndarray) -> float:
    x = np.clip(x, 1e-300, None)
    return float(np.sum(x * np.log(x)))


def _max_entropy(rows: np.ndarray, support: np.ndarray, start: np.ndarray, v: float, tol: float) -> np.ndarray:
    """The mix of greatest entropy over the equilibria with the given support.

    Every deck of some equilibrium scores exactly ``v`` against every equilibrium, so the
    equilibria lie on the affine set ``x . rows[:, support] = v``, ``sum x = 1``; the search
    runs over that set's own coordinates (usually few or none), with ``x >= 0`` and the decks
    outside the support held to at least ``v``.
    """
    k = len(support)
    uniform = np.full(k, 1.0 / k)
    if (uniform @ rows).min() >= v - tol:
        return uniform  # the uniform mix of the support is an equilibrium: nothing has more entropy
    basis = null_space(np.vstack([rows[:, support].T, np.ones(k)]), rcond=1e-9)
    if basis.shape[1] == 0:
        return start  # a single equilibrium on this support
    off = np.setdiff1d(np.arange(rows.shape[1]), support)
    outside = rows[:, off]

    def mix(z):
        return start + basis @ z

    best = minimize(lambda z: _neg_entropy(mix(z)), np.zeros(basis.shape[1]),
                    jac=lambda z: basis.T @ (np.log(np.clip(mix(z), 1e-300, None)) + 1.0), method="SLSQP",
                    constraints=[{"type": "ineq", "fun": mix, "jac": lambda z: basis},
                                 {"type": "ineq", "fun": lambda z: mix(z) @ outside - v + tol,
                                  "jac": lambda z: outside.T @ basis}],
                    options={"ftol": 1e-12, "maxiter": 300})
    x = np.clip(mix(best.x), 0.0, None)
    x = x / x.sum()
    if (x @ rows).min() < v - 10 * tol or _neg_entropy(x) > _neg_entropy(start):
        return start  # the optimiser strayed: keep the interior equilibrium it started from
    return x


def metagame(matchups: pd.DataFrame, support_tol: float = 1e-6, max_listed: int = 3) -> pd.DataFrame:
    """The Nash mix of the deck pool, each deck's score against it, and the dominated decks.

    A deck is dominated when another deck scores at least as well against every opponent
    (itself and the other included) and better against at least one, and the deck has no share
    in the mix: a weakly dominated deck can still be part of an equilibrium (its dominator does
    better only against decks nobody plays), and the report never calls a deck of the mix
    dominated. When every matchup is even, the mix is uniform and ``all_even`` says so.

    Args:
        matchups: the tidy matchup matrix (:func:`simkit.analysis.matchup_matrix`).
        support_tol: weight above which a deck is in the equilibrium's support.
        max_listed: how many dominating decks to name per dominated deck (strongest first).

    Returns:
        DataFrame ``deck, weight, in_support, vs_mix, dominated, dominated_by, all_even`` where ``vs_mix``
        is the deck's expected win rate against the mix (1/2 for every deck in the support) and
        ``dominated_by`` names dominating decks; sorted by weight, then ``vs_mix``.

    Raises:
        ValueError: when a matchup is missing.
    """
    rates = win_rate_table(matchups)
    weight = nash_mix(rates)
    a = rates.to_numpy(float) - 0.5
    np.fill_diagonal(a, 0.0)
    decks = list(rates.index)
    ge = (a[:, None, :] >= a[None, :, :] - 1e-12).all(-1)   # ge[k, i]: k does at least as well as i everywhere
    gt = (a[:, None, :] > a[None, :, :] + 1e-12).any(-1)
    dom = ge & gt
    np.fill_diagonal(dom, False)
    dom[:, weight.to_numpy() > support_tol] = False  # a deck of the mix is never called dominated
    strength = a.sum(1)
    by = [
        ", ".join(decks[k] for k in sorted(np.flatnonzero(dom[:, i]), key=lambda k: -strength[k])[:max_listed])
        for i in range(len(decks))
    ]
    out = pd.DataFrame({
        "deck": decks,
        "weight": weight.to_numpy(),
        "in_support": weight.to_numpy() > support_tol,
        "vs_mix": 0.5 + a @ weight.to_numpy(),
        "dominated": dom.any(0),
        "dominated_by": by,
        "all_even": bool(np.all(np.abs(a) < 1e-12)),
    })
    return out.sort_values(["weight", "vs_mix", "deck"], ascending=[False, False, True], ignore_index=True)


def _solve_rows(a: np.ndarray) -> tuple[np.ndarray, float]:
    """The row player's maximin mix of the zero-sum game ``a`` (row's payoff) and the game's value."""
    m, n = a.shape
    res = linprog(np.append(np.zeros(m), -1.0), A_ub=np.hstack([-a.T, np.ones((n, 1))]), b_ub=np.zeros(n),
                  A_eq=np.append(np.ones(m), 0.0)[None], b_eq=[1.0], bounds=[(0, None)] * m + [(None, None)],
                  method="highs")
    if not res.success:  # pragma: no cover - a finite zero-sum game always has an equilibrium
        raise ValueError(f"metagame: linear program failed: {res.message}")
    x = np.clip(res.x[:m], 0.0, None)
    return x / x.sum(), float(res.x[-1])


def seat_metagame(rates: pd.DataFrame, support_tol: float = 1e-6) -> pd.DataFrame:
    """The metagame when the seats have their own pools: the zero-sum game in which the first seat picks
    a deck of its pool and the second seat one of its own, the payoff being the first seat's score.

    Args:
        rates: rows the first seat's decks, columns the second seat's, the first seat's score (draws half).

    Returns:
        DataFrame ``seat, deck, weight, in_support, vs_mix, dominated, dominated_by, all_even``: each
        seat's equilibrium mix (a deck in both pools has a row per seat); ``vs_mix`` is the deck's score
        for its own seat against the other seat's mix; ``dominated`` as in :func:`metagame`, within a seat.

    Raises:
        ValueError: when a pairing has no result.
    """
    a = rates.to_numpy(float)
    if np.isnan(a).any():
        i, j = np.argwhere(np.isnan(a))[0]
        raise ValueError(f"metagame: no result for {rates.index[i]} (first) against {rates.columns[j]} (second)")
    x, _ = _solve_rows(a)
    y, _ = _solve_rows(1.0 - a.T)
    rows = []
    for seat, payoff, mix, other, names in (("first", a, x, y, list(rates.index)),
                                            ("second", 1.0 - a.T, y, x, list(rates.columns))):
        ge = (payoff[:, None, :] >= payoff[None, :, :] - 1e-12).all(-1)
        gt = (payoff[:, None, :] > payoff[None, :, :] + 1e-12).any(-1)
        dom = ge & gt
        np.fill_diagonal(dom, False)
        dom[:, mix > support_tol] = False
        for i, deck in enumerate(names):
            rows.append({"seat": seat, "deck": deck, "weight": float(mix[i]), "in_support": bool(mix[i] > support_tol),
                         "vs_mix": float(payoff[i] @ other), "dominated": bool(dom[:, i].any()),
                         "dominated_by": ", ".join(names[k] for k in np.flatnonzero(dom[:, i])[:3]),
                         "all_even": bool(np.all(np.abs(a - 0.5) < 1e-12))})
    out = pd.DataFrame(rows)
    return out.sort_values(["seat", "weight", "vs_mix", "deck"], ascending=[True, False, False, True],
                           ignore_index=True)


def first_seat_rates(df: pd.DataFrame) -> pd.DataFrame:
    """The first seat's score (win 1, draw 1/2) per pairing: rows first-seat decks, columns second-seat decks."""
    points = df["winner"].map({"first": 1.0, "draw": 0.5, "second": 0.0})
    wide = points.groupby([df["first_deck"].astype(str), df["second_deck"].astype(str)]).mean().unstack()
    return wide.reindex(index=sorted(wide.index), columns=sorted(wide.columns))


def pool_metagame(df: pd.DataFrame, matchups: pd.DataFrame | None = None) -> pd.DataFrame:
    """The metagame of the results' two seat pools (:func:`~simkit.analysis.results.seat_pools`).

    Which deck-choice game it is follows from the pools: when the seats hold the same decks, a deck is
    chosen before the seat is known and plays both, so the game is the symmetric one of pooled win rates
    (:func:`metagame`); when the pools differ (Magic War's 12-gold and 13-gold armies), each seat chooses
    from its own pool knowing its seat (:func:`seat_metagame`, with a ``seat`` column).

    Args:
        df: the results, one row per game.
        matchups: :func:`~simkit.analysis.matchups.matchup_matrix` of ``df``, if already computed.
    """
    if seat_pools(df).alike_seats:
        return metagame(matchup_matrix(df) if matchups is None else matchups)
    return seat_metagame(first_seat_rates(df))
