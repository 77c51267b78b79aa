"""Balance flags: the decks, matchups and seat advantages a designer should look at first.

A flag is raised only when the estimate is outside its band *and* the test that the true value
is outside the band stays significant after a multiple-comparison correction over its family
(all decks; all matchups; all first-player advantages), so a big sweep does not cry wolf.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from simkit.analysis.first_player import first_player_advantage
from simkit.analysis.matchups import matchup_matrix
from simkit.analysis.results import deck_games
from simkit.analysis.stats import adjust_p, p_beyond, wilson_interval

__all__ = ["FlagBands", "balance_flags", "FLAG_COLUMNS"]

FLAG_COLUMNS = [
    "kind", "subject", "value", "low", "high", "games", "band_low", "band_high",
    "p_value", "p_adjusted", "message",
]


@dataclass(frozen=True)
class FlagBands:
    """What counts as balanced, and how sure a flag must be.

    Attributes:
        deck: a deck's overall win rate should lie in this band.
        matchup: a matchup should lie between ``1 - matchup`` and ``matchup`` (0.70: beyond 70/30).
        first_player: the first seat's score rate should lie within 1/2 plus or minus this.
        alpha: significance level after correction.
        method: ``"holm"`` (family-wise) or ``"bh"`` (false discovery rate).
    """

    deck: tuple[float, float] = (0.45, 0.55)
    matchup: float = 0.70
    first_player: float = 0.05
    alpha: float = 0.05
    method: str = "holm"


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _family(kind, subject, value, low, high, games, band, bands: FlagBands, words) -> pd.DataFrame:
    value = np.asarray(value, dtype=float)
    p = p_beyond(value, games, *band)
    t = pd.DataFrame({
        "kind": kind, "subject": list(subject), "value": value, "low": np.asarray(low, float),
        "high": np.asarray(high, float), "games": np.asarray(games, int), "band_low": band[0],
        "band_high": band[1], "p_value": p, "p_adjusted": adjust_p(p, bands.method),
    })
    outside = (t["value"] < band[0]) | (t["value"] > band[1])
    t = t[outside & (t["p_adjusted"] < bands.alpha)].copy()
    t["message"] = [words(r) for r in t.itertuples()]
    return t


def _deck_words(r) -> str:
    side = "above" if r.value > r.band_high else "below"
    return (f"{r.subject} wins {_pct(r.value)} of its games (95% CI {_pct(r.low)}-{_pct(r.high)}), "
            f"{side} the {100 * r.band_low:g}-{100 * r.band_high:g}% band")


def _matchup_words(r) -> str:
    a, b = r.subject.split(" vs ")
    return (f"{a} beats {b} {_pct(r.value)} of the time (95% CI {_pct(r.low)}-{_pct(r.high)}), "
            f"beyond {100 * r.band_high:.0f}/{100 * r.band_low:.0f}")


def _seat_words(r) -> str:
    pts = 100 * (r.value - 0.5)
    who = "the first player" if r.subject == "all games" else r.subject
    return (f"going first is worth {pts:+.1f} points for {who} (first seat scores {_pct(r.value)}, "
            f"95% CI {_pct(r.low)}-{_pct(r.high)}), beyond +-{100 * (r.band_high - 0.5):.0f}")


def balance_flags(
    df: pd.DataFrame,
    bands: FlagBands | None = None,
    matchups: pd.DataFrame | None = None,
    first_player: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Flags for decks outside their band, lopsided matchups and seat advantages, if significant.

    Kinds: ``deck`` (overall non-mirror win rate outside ``bands.deck``), ``matchup`` (a
    non-mirror pairing beyond ``bands.matchup``, named from the winning deck's side) and
    ``first_player`` (overall, per deck or per matchup, first-seat score rate beyond
    1/2 +- ``bands.first_player``). Each test is one-sided against the nearer band edge;
    p-values are corrected within each kind.

    Args:
        df: the results, one row per game.
        bands: thresholds and correction (default :class:`FlagBands`).
        matchups: the matchup matrix, if already computed.
        first_player: the first-player table, if already computed.

    Returns:
        DataFrame with :data:`FLAG_COLUMNS`, one row per flag (``value``, ``low``, ``high`` are
        rates; ``message`` says it in words), sorted by kind then by how far outside the band.
    """
    bands = bands or FlagBands()
    matchups = matchup_matrix(df) if matchups is None else matchups
    first_player = first_player_advantage(df) if first_player is None else first_player

    view = deck_games(df, mirrors=False)
    decks = view.groupby("deck").agg(games=("row", "size"), points=("points", "sum")).reset_index()
    decks = decks[decks["games"] > 0]
    rate = decks["points"] / decks["games"]
    low, high = wilson_interval(decks["points"], decks["games"])
    deck_flags = _family("deck", decks["deck"], rate, low, high, decks["games"], bands.deck, bands, _deck_words)

    m = matchups[~matchups["mirror"] & (matchups["deck"] < matchups["opponent"])]
    winner_side = m["win_rate"] >= 0.5
    # name each flagged pairing from the side that wins it
    subject = np.where(winner_side, m["deck"] + " vs " + m["opponent"], m["opponent"] + " vs " + m["deck"])
    value = np.where(winner_side, m["win_rate"], 1 - m["win_rate"])
    low = np.where(winner_side, m["low"], 1 - m["high"])
    high = np.where(winner_side, m["high"], 1 - m["low"])
    band = (1 - bands.matchup, bands.matchup)
    matchup_flags = _family("matchup", subject, value, low, high, m["games"], band, bands, _matchup_words)

    fp = first_player
    band = (0.5 - bands.first_player, 0.5 + bands.first_player)
    seat_flags = _family("first_player", fp["subject"], fp["first_rate"], fp["low"] + 0.5, fp["high"] + 0.5,
                         fp["games"], band, bands, _seat_words)

    out = pd.concat([deck_flags, matchup_flags, seat_flags], ignore_index=True)
    if out.empty:
        return pd.DataFrame(columns=FLAG_COLUMNS)
    out["excess"] = np.maximum(out["value"] - out["band_high"], out["band_low"] - out["value"])
    order = {"deck": 0, "matchup": 1, "first_player": 2}
    out["k"] = out["kind"].map(order)
    out = out.sort_values(["k", "excess"], ascending=[True, False], ignore_index=True)
    return out[FLAG_COLUMNS]
