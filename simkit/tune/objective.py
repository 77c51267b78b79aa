"""The objective of ``simkit tune``: how far one sweep is from balance, and the price of a patch.

Game-agnostic. Lower is better; rates are in win-rate units (0.01 = 1 point). :func:`balance_terms` reads
one sweep (spread of the deck win rates, distance outside the report's band, matchups beyond 70/30,
first-player advantage overall and per deck, and how far decks were pushed further outside the band than
the base game has them on the same seeds); :func:`score` weighs them with :class:`TuneWeights`;
:func:`change_cost` prices the changes. The additive model of :mod:`simkit.tune.screen` predicts the
same terms for combinations.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd

from simkit.analysis import FlagBands, deck_games, first_player_advantage, first_score, matchup_matrix

__all__ = ["TuneWeights", "balance_terms", "change_cost", "deck_rates", "length_outside", "outside_band",
           "parse_weights", "score", "seat_beyond"]



@dataclass(frozen=True)
class TuneWeights:
    """The objective's weights (lower objective is better; rates in win-rate units, 0.01 = 1 point).

    Attributes:
        spread: times the standard deviation of the deck win rates.
        band: times the mean distance of the deck win rates outside the report's band (45-55%).
        matchup: times the mean distance of the pairings beyond the matchup band (70/30).
        first_player: times the absolute overall first-player advantage (first seat's score - 1/2).
        seat: times the summed distance of the decks' first-seat score rates beyond the report's seat band
            (1/2 +- 5 points), the per-deck seat advantage the report flags: a patch that evens the decks
            but makes going first (or second) worth ten points to some of them has not balanced the game.
        pushed: times the summed distance by which the patch pushes decks further outside the band
            than the base game has them on the same seeds (a deck at 56% pushed to 66%: 0.10), so that
            balancing the field does not make a new outlier (a new flag) of a deck that was fine.
        change: per changed number.
        size: per changed number, times its relative change ``|after - before| / max(|before|, 1)``.
        length: times the share of games whose length lies outside the scenario's ``[experience] target_turns``
            (how the games play as part of the objective: "games between 15 and 25 turns"); 0 when the scenario
            gives no target. The screening's additive model predicts the balance terms only; the length term is
            measured on every candidate played.
    """

    spread: float = 1.0
    band: float = 2.0
    matchup: float = 1.0
    first_player: float = 0.5
    seat: float = 1.0
    pushed: float = 1.0
    change: float = 0.005
    size: float = 0.005
    length: float = 1.0


def parse_weights(text: str | None) -> TuneWeights:
    """Weights from ``'spread=1,band=2,...'`` (unnamed weights keep their default).

    Raises:
        ValueError: an unknown weight name or a value that is not a non-negative number.
    """
    if not text:
        return TuneWeights()
    known = list(asdict(TuneWeights()))
    values = {}
    for part in text.split(","):
        name, _, value = part.partition("=")
        name = name.strip()
        if name not in known:
            raise ValueError(f"--weights: unknown weight {name!r} (known: {', '.join(known)})")
        try:
            values[name] = float(value)
        except ValueError:
            raise ValueError(f"--weights: {name} must be a number, got {value.strip()!r}") from None
        if not values[name] >= 0:
            raise ValueError(f"--weights: {name} must be at least 0, got {value.strip()}")
    return TuneWeights(**values)


def outside_band(rates: np.ndarray, bands: FlagBands) -> np.ndarray:
    """The distance of each deck win rate outside the report's deck band (0 inside it)."""
    lo, hi = bands.deck
    return np.maximum(0.0, np.maximum(lo - rates, rates - hi))


def seat_beyond(first_rates: np.ndarray, bands: FlagBands) -> np.ndarray:
    """The distance of each first-seat score rate beyond the report's band, 1/2 +- ``bands.first_player``."""
    return np.maximum(0.0, np.abs(first_rates - 0.5) - bands.first_player)


def deck_rates(df: pd.DataFrame) -> pd.Series:
    """Each deck's mean points per non-mirror game of one sweep (its win rate, a draw half), by deck."""
    return deck_games(df, mirrors=False).groupby("deck")["points"].mean()


def balance_terms(df: pd.DataFrame, bands: FlagBands | None = None,
                  reference: pd.Series | None = None) -> dict[str, float]:
    """How far one sweep is from balance, term by term (each 0 for a perfectly balanced game).

    Args:
        df: the sweep's results, one row per game.
        bands: the report's bands (default :class:`simkit.analysis.FlagBands`).
        reference: the base game's :func:`deck_rates` on the same seeds, for ``pushed`` (none: 0).

    Returns:
        ``spread`` (standard deviation of the deck win rates, non-mirror games), ``band`` (mean
        distance of the deck win rates outside ``bands.deck``), ``matchup`` (mean distance of the
        pairings beyond ``bands.matchup``), ``first_player`` (absolute overall first-player
        advantage), ``seat`` (summed distance of the decks' first-seat score rates, over their
        non-mirror games, beyond 1/2 +- ``bands.first_player``), ``pushed`` (summed distance by which
        decks sit further outside the band than in ``reference``), ``worst_deck`` (the largest distance
        of a deck from 1/2), ``decks_outside`` (decks outside the band) and ``length`` (the share of games
        outside the ``[experience] target_turns`` of the scenario the games were swept from, kept in their
        ``meta``; 0 when it gives none: :func:`length_outside`).
    """
    bands = bands or FlagBands()
    by_deck = deck_rates(df)
    rates = by_deck.to_numpy(float)
    outside = outside_band(rates, bands)
    pushed = 0.0
    if reference is not None and len(rates):
        was = outside_band(reference.reindex(by_deck.index).to_numpy(float), bands)
        pushed = float(np.nansum(np.maximum(0.0, outside - was)))
    m = matchup_matrix(df)
    m = m[~m["mirror"] & (m["deck"] < m["opponent"])]
    beyond = np.maximum(0.0, np.abs(m["win_rate"].to_numpy(float) - 0.5) - (bands.matchup - 0.5))
    fp = first_player_advantage(df)
    deck_seat = 0.5 + fp.loc[fp["scope"] == "deck", "advantage"].to_numpy(float)
    return {
        "spread": float(rates.std()) if len(rates) else 0.0,
        "band": float(outside.mean()) if len(rates) else 0.0,
        "matchup": float(beyond.mean()) if len(beyond) else 0.0,
        "first_player": float(abs(first_score(df).mean() - 0.5)),
        "seat": float(seat_beyond(deck_seat, bands).sum()),
        "pushed": pushed,
        "worst_deck": float(np.abs(rates - 0.5).max()) if len(rates) else 0.0,
        "decks_outside": int((outside > 0).sum()),
        "length": length_outside(df),
    }


def length_outside(df: pd.DataFrame) -> float:
    """The share of ``df``'s games whose length lies outside the ``[experience] target_turns`` of the scenario they
    were swept from (0 when the scenario gives no target, or the results keep no scenario)."""
    from simkit.analysis.experience import experience_settings_of

    target = experience_settings_of(df).target_turns
    if target is None or not len(df):
        return 0.0
    turns = df["turns"].to_numpy(float)
    return float(((turns < target[0]) | (turns > target[1])).mean())


def change_cost(changes: dict[str, tuple], weights: TuneWeights) -> float:
    """The price of a patch: ``weights.change`` per change plus ``weights.size`` per relative change."""
    return sum(weights.change + weights.size * abs(after - before) / max(abs(before), 1)
               for before, after in changes.values())


def score(terms: dict[str, float], weights: TuneWeights) -> float:
    """The balance part of the objective for one sweep's :func:`balance_terms`."""
    return (weights.spread * terms["spread"] + weights.band * terms["band"] + weights.matchup * terms["matchup"]
            + weights.first_player * terms["first_player"] + weights.seat * terms["seat"]
            + weights.pushed * terms["pushed"] + weights.length * terms.get("length", 0.0))
