"""The explored matchup matrix: games and points per ordered pair, and the estimates read from it.

Every estimate is stratified by opponent: a deck's rate against a mixture is the mixture's
weighted sum of its matchup rates (both seats pooled), and its rate against a field is the plain
mean of its matchup rates over the field, so opponents played more often never weigh more. The
standard error uses each matchup's rate shrunk by one virtual win and one virtual loss (never 0).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simkit.analysis.results import first_score


class Tally:
    """Games and points of every ordered pair of a deck space.

    Attributes:
        n: ``int[D, D]`` games with deck i first and deck j second.
        pts: ``float[D, D]`` the first deck's points in those games (a draw half).
        games: ``float[D, D]`` games between i and j, both seats (symmetric).
        won: ``float[D, D]`` deck i's points against deck j, both seats.
    """

    def __init__(self, decks, df: pd.DataFrame | None):
        d = len(decks)
        self.decks = list(decks)
        self.n = np.zeros((d, d), np.int64)
        self.pts = np.zeros((d, d))
        self.add(df)

    def add(self, df: pd.DataFrame | None) -> Tally:
        """Count the games of ``df`` too (a round's new games; every count is a sum of whole and half points, so
        the order games are added in never changes a figure); returns the tally."""
        if df is not None and len(df):
            f = pd.Categorical(df["first_deck"], categories=self.decks).codes
            s = pd.Categorical(df["second_deck"], categories=self.decks).codes
            cells, size = f.astype(np.int64) * len(self.decks) + s, self.n.size
            self.n += np.bincount(cells, minlength=size).reshape(self.n.shape)
            self.pts += np.bincount(cells, weights=first_score(df), minlength=size).reshape(self.pts.shape)
        self.games = (self.n + self.n.T).astype(float)
        self.won = self.pts + (self.n.T - self.pts.T)
        return self

    def level(self, i: int, opponents) -> int:
        """The fewest games deck ``i`` has in either seat against any of ``opponents`` (itself skipped)."""
        opp = [j for j in opponents if j != i]
        if not opp:
            return 0
        return int(min(self.n[i, opp].min(), self.n[opp, i].min()))

    def rate(self, i: int, j: int) -> float:
        """Deck i's win rate against deck j, both seats pooled (1/2 for a mirror or an unplayed pair)."""
        return 0.5 if i == j or self.games[i, j] == 0 else float(self.won[i, j] / self.games[i, j])

    def against(self, i: int, opponents, weights) -> tuple[float, float]:
        """Deck i's expected rate against the mixture ``weights`` over ``opponents``, and its standard error.

        A mirror counts one half with no error; an unplayed matchup makes the error infinite.
        """
        est, var = 0.0, 0.0
        for j, w in zip(opponents, weights, strict=True):
            if j == i:
                est += 0.5 * w
                continue
            g = self.games[i, j]
            if g == 0:
                return 0.5, float("inf")
            est += w * self.won[i, j] / g
            p = (self.won[i, j] + 1) / (g + 2)
            var += w * w * p * (1 - p) / g
        return float(est), float(np.sqrt(var))

    def seat_score(self, i: int, seat: int, opponents, weights) -> tuple[float, float, int]:
        """Deck ``i``'s expected score in ``seat`` (0 first, 1 second) against a mixture of the other seat's decks.

        Returns:
            ``(estimate, standard error, level)``: the level is the fewest games against any opponent;
            an unplayed pairing makes the error infinite (estimate 1/2). The error shrinks each rate by
            one virtual win and one virtual loss, as :meth:`against`.
        """
        est, var, level = 0.0, 0.0, None
        for j, w in zip(opponents, weights, strict=True):
            g = self.n[i, j] if seat == 0 else self.n[j, i]
            level = int(g) if level is None else min(level, int(g))
            if g == 0:
                return 0.5, float("inf"), 0
            won = self.pts[i, j] if seat == 0 else g - self.pts[j, i]
            est += w * won / g
            p = (won + 1) / (g + 2)
            var += w * w * p * (1 - p) / g
        return float(est), float(np.sqrt(var)), level or 0

    def rate_table(self, idx, decks) -> pd.DataFrame:
        """The square win-rate table of the decks ``idx`` (mirrors 1/2), labelled by name."""
        names = [decks[i] for i in idx]
        r = np.array([[self.rate(i, j) for j in idx] for i in idx])
        return pd.DataFrame(r, index=names, columns=names)

    def field_rate(self, i: int, field) -> tuple[float, float]:
        """Deck i's rate against the field (the plain mean of its matchup rates over ``field`` less itself)."""
        opp = [j for j in field if j != i]
        return self.against(i, opp, np.full(len(opp), 1.0 / len(opp)))

    def strength(self, prior_games: float = 1.0) -> np.ndarray:
        """Bradley-Terry log-strengths of every deck from every game played (a virtual even game each)."""
        from simkit.analysis.strength import bradley_terry

        return bradley_terry(self.won, self.games, prior_games=prior_games)

    def predicted_field_rate(self, field) -> np.ndarray:
        """Every deck's rate against the field as the Bradley-Terry strengths predict it."""
        theta = self.strength()
        f = np.asarray(list(field))
        p = 1 / (1 + np.exp(theta[f][None, :] - theta[:, None]))
        mask = f[None, :] != np.arange(len(theta))[:, None]
        return (p * mask).sum(1) / mask.sum(1)
