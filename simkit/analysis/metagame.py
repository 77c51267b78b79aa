"""Metagame: the Nash equilibrium of the deck-choice game, its support and the dominated decks.

Two players each pick a deck; the payoff is the pooled win rate minus one half, so the game is
symmetric and zero-sum and its value is 0. An equilibrium mix is a deck distribution no single
deck can beat on average: what a field of perfect adapters would settle on.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy.optimize import linprog

from simkit.analysis.matchups import win_rate_table

__all__ = ["nash_mix", "metagame"]


def nash_mix(rates: pd.DataFrame) -> pd.Series:
    """An equilibrium mix of the symmetric zero-sum game given by a square win-rate table.

    Solved by linear programming (scipy HiGHS): maximise v subject to
    ``sum_i x_i (rate[i, j] - 1/2) >= v`` for every deck j, ``x >= 0``, ``sum x = 1``.
    When several equilibria exist, one of them (a vertex) is returned.

    Args:
        rates: square table, rows and columns the same decks, ``rates[i, j]`` = how often deck i
            beats deck j (draws half).

    Returns:
        Series of weights indexed by deck, summing to 1.

    Raises:
        ValueError: when the table is not square or has a missing matchup.
    """
    if list(rates.index) != list(rates.columns):
        raise ValueError("metagame: the win-rate table must have the same decks as rows and columns")
    if rates.isna().to_numpy().any():
        i, j = np.argwhere(rates.isna().to_numpy())[0]
        raise ValueError(f"metagame: no result for {rates.index[i]} against {rates.columns[j]}")
    a = rates.to_numpy(float) - 0.5
    np.fill_diagonal(a, 0.0)
    d = len(a)
    c = np.zeros(d + 1)
    c[-1] = -1.0                                          # maximise v
    a_ub = np.hstack([-a.T, np.ones((d, 1))])             # v - sum_i x_i a[i, j] <= 0
    a_eq = np.append(np.ones(d), 0.0)[None]
    res = linprog(c, A_ub=a_ub, b_ub=np.zeros(d), A_eq=a_eq, b_eq=[1.0],
                  bounds=[(0, None)] * d + [(None, None)], method="highs")
    if not res.success:  # pragma: no cover - a finite zero-sum game always has an equilibrium
        raise ValueError(f"metagame: linear program failed: {res.message}")
    x = np.clip(res.x[:d], 0.0, None)
    return pd.Series(x / x.sum(), index=rates.index, name="weight")


def metagame(matchups: pd.DataFrame, support_tol: float = 1e-6, max_listed: int = 3) -> pd.DataFrame:
    """The Nash mix of the deck pool, each deck's score against it, and the dominated decks.

    A deck is dominated when another deck scores at least as well against every opponent
    (itself and the other included) and better against at least one.

    Args:
        matchups: the tidy matchup matrix (:func:`simkit.analysis.matchup_matrix`).
        support_tol: weight above which a deck is in the equilibrium's support.
        max_listed: how many dominating decks to name per dominated deck (strongest first).

    Returns:
        DataFrame ``deck, weight, in_support, vs_mix, dominated, dominated_by`` where ``vs_mix``
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
    })
    return out.sort_values(["weight", "vs_mix", "deck"], ascending=[False, False, True], ignore_index=True)
