"""Real play against simulation: the real games' win rates beside a sweep's on the same pairings.

For every deck of the real games (its games against other decks, a draw half) and for the first seat (every
game), the real rate is set beside the simulated rate of the same ordered pairings, each pairing weighted as often
as the real games met it, so a deck that people mostly played into its bad matchup is compared with the bots in
that same matchup. The real rate's interval is Wilson's; the simulated rate's is the normal interval of a weighted
mean of independent pairings; the difference's is Newcombe's square-and-add of the two
(:func:`simkit.analysis.stats.difference_interval`). The words are :func:`simkit.core.words.real_against_words`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simkit.analysis.forfeits import ordinary_games
from simkit.analysis.results import first_score
from simkit.analysis.stats import Z95, difference_interval, wilson_interval
from simkit.core.words import Estimate, real_against_words

__all__ = ["AGAINST_COLUMNS", "against_simulation", "against_words"]

AGAINST_COLUMNS = ["scope", "subject", "real_games", "real_rate", "real_low", "real_high", "sim_games", "sim_rate",
                   "sim_low", "sim_high", "difference", "low", "high", "measured"]


def _pairings(df: pd.DataFrame) -> pd.DataFrame:
    """Games and the first seat's points of every ordered pairing, indexed by ``(first_deck, second_deck)``."""
    return pd.DataFrame({"first_deck": df["first_deck"].to_numpy(), "second_deck": df["second_deck"].to_numpy(),
                         "points": first_score(df)}).groupby(["first_deck", "second_deck"])["points"].agg(
        games="size", points="sum")


def _weighted(weights: np.ndarray, points: np.ndarray, games: np.ndarray) -> tuple[float, float, float, int]:
    """The weighted mean of pairing rates ``points / games`` (weights: the real games of each pairing) with its
    normal 95% interval, and the simulated games behind it. A pairing's variance uses ``(points + 1/2) / (games + 1)``
    so a pairing won every time still has some."""
    w = weights / weights.sum()
    rate = float(np.sum(w * points / games))
    shrunk = (points + 0.5) / (games + 1.0)
    half = Z95 * float(np.sqrt(np.sum(w * w * shrunk * (1 - shrunk) / games)))
    return rate, max(0.0, rate - half), min(1.0, rate + half), int(games.sum())


def against_simulation(real: pd.DataFrame, sim: pd.DataFrame) -> pd.DataFrame:
    """The real games' rates beside the simulated ones, for the first seat and deck by deck.

    Args:
        real: real games (:func:`simkit.load_results` of an imported folder); forfeits are left out.
        sim: a sweep's games of the same game (one bot in both seats, or the reference bot's view of a panel).

    Returns:
        DataFrame of :data:`AGAINST_COLUMNS`: a ``first seat`` row (every compared game, the first seat's score)
        then one ``deck`` row per deck (its games against other decks), rates in [0, 1], ``difference`` real minus
        simulated with its 95% interval, ``measured`` when that interval leaves 0 out. Only the real games of
        ordered pairings the sweep played are compared: ``attrs`` holds ``real_games`` (all), ``compared`` (the
        games compared) and ``pairings`` (the pairings compared).

    Raises:
        ValueError: no real game is of a pairing the sweep played.
    """
    real, sim = ordinary_games(real), ordinary_games(sim)
    have = _pairings(sim)
    mine = _pairings(real)
    both = mine.index.intersection(have.index)
    if not len(both):
        raise ValueError("no real game is of a deck pairing the sweep played: sweep the real games' decks "
                         "(simkit sweep SCENARIO --decks ...) and compare again")
    kept = real.set_index(["first_deck", "second_deck"]).index.isin(both)
    part = real[kept]
    rows = []

    def row(scope: str, subject: str, points: float, games: int, pairs: list[tuple], flip: list[bool]) -> None:
        lo, hi = wilson_interval(points, games)
        n = mine.loc[pairs, "games"].to_numpy(float)
        m = have.loc[pairs, "games"].to_numpy(float)
        s = have.loc[pairs, "points"].to_numpy(float)
        s = np.where(flip, m - s, s)  # the deck's points where it sat second
        rate, slo, shi, sg = _weighted(n, s, m)
        real_rate = points / games
        dlo, dhi = difference_interval(real_rate, lo, hi, rate, slo, shi)
        rows.append({"scope": scope, "subject": subject, "real_games": int(games), "real_rate": real_rate,
                     "real_low": float(lo), "real_high": float(hi), "sim_games": sg, "sim_rate": rate, "sim_low": slo,
                     "sim_high": shi, "difference": real_rate - rate, "low": float(dlo), "high": float(dhi),
                     "measured": bool(dlo > 0 or dhi < 0)})

    pairs = list(both)
    row("first seat", "the first seat", float(first_score(part).sum()), len(part), pairs, [False] * len(pairs))
    decks = sorted(set(part["first_deck"]) | set(part["second_deck"]))
    for d in decks:
        mine_pairs = [p for p in pairs if d in p and p[0] != p[1]]
        if not mine_pairs:
            continue
        games = int(mine.loc[mine_pairs, "games"].sum())
        first_pts = mine.loc[mine_pairs, "points"].to_numpy(float)
        flip = [p[0] != d for p in mine_pairs]
        points = float(np.sum(np.where(flip, mine.loc[mine_pairs, "games"].to_numpy(float) - first_pts, first_pts)))
        row("deck", d, points, games, mine_pairs, flip)
    out = pd.DataFrame(rows, columns=AGAINST_COLUMNS)
    out.attrs.update(real_games=len(real), compared=len(part), pairings=len(both))
    return out


def against_words(table: pd.DataFrame, bot: str, deck_words: str = "deck") -> list[str]:
    """The page's sentences (the first is the answer, read first): :func:`simkit.core.words.real_against_words` over
    ``table``'s rows."""
    def est(r) -> tuple[Estimate, float, float]:
        return Estimate(r.difference, r.low, r.high, int(r.real_games), r.subject), r.real_rate, r.sim_rate

    seat = table[table["scope"] == "first seat"]
    decks = table[table["scope"] == "deck"]
    return real_against_words(est(next(seat.itertuples())), [est(r) for r in decks.itertuples()], bot,
                              games=int(table.attrs.get("compared", 0)),
                              all_games=int(table.attrs.get("real_games", 0)),
                              pairings=int(table.attrs.get("pairings", 0)), deck_words=deck_words)
