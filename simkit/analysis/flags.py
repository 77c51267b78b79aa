"""Balance flags: the decks, matchups and seat advantages a designer should look at first.

A flag is raised only when the estimate is outside its band *and* an exact binomial test that the
true value is outside the band stays significant after a multiple-comparison correction over its
family, so a big sweep does not cry wolf. The families and their corrections:

- decks, and the first-player advantage overall and per deck: Holm (family-wise error): these
  are few and each is measured on many games, so any flag is almost surely real;
- matchups, and the first-player advantage per matchup: Benjamini-Hochberg (false discovery
  rate: at most ``alpha`` of the flags are expected to be wrong). An 80-deck pool has 3,160
  matchups of a few dozen games each; under Holm a matchup would need a clean sweep of about
  32 games to be flagged at all, however many matchups are lopsided.

:func:`matchup_flag_reach` says how many games per pair a matchup needs before it *can* be
flagged, and how likely a clearly lopsided one is to be flagged at the sweep's size.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from simkit.analysis.first_player import first_player_advantage
from simkit.analysis.matchups import matchup_matrix
from simkit.analysis.results import deck_games
from simkit.analysis.stats import adjust_p, p_beyond_exact, wilson_interval
from simkit.core.words import flag_message

__all__ = ["FlagBands", "balance_flags", "flag_subjects", "FLAG_COLUMNS", "matchup_flag_reach", "min_games_to_flag"]

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
        method: correction of the deck family and of the first-player advantage overall and per
            deck: ``"holm"`` (family-wise) or ``"bh"`` (false discovery rate).
        matchup_method: correction of the matchup family and of the first-player advantage per
            matchup (thousands of tests): ``"bh"`` by default, ``"holm"`` possible.
    """

    deck: tuple[float, float] = (0.45, 0.55)
    matchup: float = 0.70
    first_player: float = 0.05
    alpha: float = 0.05
    method: str = "holm"
    matchup_method: str = "bh"


def _family(kind, subject, wins, draws, games, low, high, band, method: str, bands: FlagBands,
            words) -> pd.DataFrame:
    wins, draws, games = (np.asarray(x, dtype=float) for x in (wins, draws, games))
    with np.errstate(invalid="ignore", divide="ignore"):
        value = (wins + draws / 2) / games
    p = p_beyond_exact(wins, draws, games, *band)
    t = pd.DataFrame({
        "kind": kind, "subject": list(subject), "value": value, "low": np.asarray(low, float),
        "high": np.asarray(high, float), "games": games.astype(int), "band_low": band[0],
        "band_high": band[1], "p_value": p, "p_adjusted": adjust_p(p, method),
    })
    outside = (t["value"] < band[0]) | (t["value"] > band[1])
    t["flagged"] = outside & (t["p_adjusted"] < bands.alpha)
    t["message"] = [words(r) for r in t.itertuples()]
    return t


def _deck_words(r) -> str:
    return flag_message("deck", r.subject, r.value, r.low, r.high, (r.band_low, r.band_high))


def _matchup_words(r) -> str:
    return flag_message("matchup", r.subject, r.value, r.low, r.high, (r.band_low, r.band_high))


def _seat_words(r) -> str:
    return flag_message("first_player", r.subject, r.value, r.low, r.high, (r.band_low, r.band_high))


def balance_flags(
    df: pd.DataFrame,
    bands: FlagBands | None = None,
    matchups: pd.DataFrame | None = None,
    first_player: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Flags for decks outside their band, lopsided matchups and seat advantages, if significant.

    The rows of :func:`flag_subjects` that are outside their band and significant; see there.
    """
    subjects = flag_subjects(df, bands, matchups, first_player)
    return subjects[subjects["flagged"]].reset_index(drop=True)[FLAG_COLUMNS]


def flag_subjects(
    df: pd.DataFrame,
    bands: FlagBands | None = None,
    matchups: pd.DataFrame | None = None,
    first_player: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Every subject a flag could name, its value and band, and whether it is flagged (outside and significant).

    Kinds: ``deck`` (overall non-mirror win rate outside ``bands.deck``), ``matchup`` (a
    non-mirror pairing beyond ``bands.matchup``, named from the winning deck's side) and
    ``first_player`` (overall, per deck or per matchup, first-seat score rate beyond
    1/2 +- ``bands.first_player``). Each test is an exact one-sided binomial test against the
    nearer band edge (:func:`simkit.analysis.stats.p_beyond_exact`); p-values are corrected
    within each family: decks with ``bands.method``, matchups with ``bands.matchup_method``,
    the first-player advantage overall and per deck with ``bands.method`` and per matchup with
    ``bands.matchup_method``.

    Args:
        df: the results, one row per game.
        bands: thresholds and correction (default :class:`FlagBands`).
        matchups: the matchup matrix, if already computed.
        first_player: the first-player table, if already computed.

    Returns:
        DataFrame with :data:`FLAG_COLUMNS` plus ``flagged``: one row per subject that could be flagged
        (every deck, non-mirror pairing and seat scope; ``value``, ``low``, ``high`` are rates;
        ``message`` says it in words), sorted by kind then by how far outside the band.
    """
    bands = bands or FlagBands()
    matchups = matchup_matrix(df) if matchups is None else matchups
    first_player = first_player_advantage(df) if first_player is None else first_player

    view = deck_games(df, mirrors=False)
    view = view.assign(win=(view["points"] == 1.0).astype(int), draw=(view["points"] == 0.5).astype(int))
    decks = view.groupby("deck").agg(games=("row", "size"), points=("points", "sum"), wins=("win", "sum"),
                                     draws=("draw", "sum")).reset_index()
    decks = decks[decks["games"] > 0]
    low, high = wilson_interval(decks["points"], decks["games"])
    deck_flags = _family("deck", decks["deck"], decks["wins"], decks["draws"], decks["games"], low, high,
                         bands.deck, bands.method, bands, _deck_words)

    m = _pairings(matchups)
    winner_side = (m["win_rate"] >= 0.5).to_numpy()
    # name each flagged pairing from the side that wins it
    subject = np.where(winner_side, m["deck"] + " vs " + m["opponent"], m["opponent"] + " vs " + m["deck"])
    wins = np.where(winner_side, m["wins"], m["games"] - m["wins"] - m["draws"])
    low = np.where(winner_side, m["low"], 1 - m["high"])
    high = np.where(winner_side, m["high"], 1 - m["low"])
    band = (1 - bands.matchup, bands.matchup)
    matchup_flags = _family("matchup", subject, wins, m["draws"], m["games"], low, high, band,
                            bands.matchup_method, bands, _matchup_words)

    band = (0.5 - bands.first_player, 0.5 + bands.first_player)
    seat_flags = []
    for scopes, method in ((("overall", "deck"), bands.method), (("matchup",), bands.matchup_method)):
        fp = first_player[first_player["scope"].isin(scopes)]
        if "same_bots" in fp.columns:  # a seat is flagged only where one bot played both seats
            fp = fp[fp["same_bots"]]
        seat_flags.append(_family("first_player", fp["subject"], fp["first_wins"], fp["draws"], fp["games"],
                                  fp["low"] + 0.5, fp["high"] + 0.5, band, method, bands, _seat_words))
    seat_flags = pd.concat(seat_flags, ignore_index=True)

    out = pd.concat([deck_flags, matchup_flags, seat_flags], ignore_index=True)
    if out.empty:
        return pd.DataFrame(columns=[*FLAG_COLUMNS, "flagged"])
    out["excess"] = np.maximum(out["value"] - out["band_high"], out["band_low"] - out["value"])
    order = {"deck": 0, "matchup": 1, "first_player": 2}
    out["k"] = out["kind"].map(order)
    out = out.sort_values(["k", "excess"], ascending=[True, False], ignore_index=True)
    return out[[*FLAG_COLUMNS, "flagged"]]


def _pairings(matchups: pd.DataFrame) -> pd.DataFrame:
    """Each non-mirror pairing once (the row with ``deck < opponent``)."""
    return matchups[~matchups["mirror"] & (matchups["deck"] < matchups["opponent"])]


def _lone_adjusted(p: float, family: int, method: str) -> float:
    """The adjusted p-value of one test of a family whose other tests are all at p = 1."""
    return float(adjust_p(np.r_[p, np.ones(family - 1)], method)[0])


def min_games_to_flag(matchups: int, bands: FlagBands | None = None, limit: int = 10_000,
                      seatings: int = 2) -> int | None:
    """The fewest games per pair at which a matchup can be flagged beyond the matchup band.

    "Can" in the most favourable case for a single matchup: one deck wins every game of it
    (in its ``seatings``: both, so ``2 x games per pair`` games, when either deck may sit either seat; one
    where the seat pools pair the two decks one way only), and the matchup must pass the flags' test
    and correction (``bands.matchup_method`` over ``matchups`` tests) on its own, the other
    matchups being unremarkable. Below it no matchup can be flagged, however lopsided. (With
    Benjamini-Hochberg, many lopsided matchups together lower the bar for each other.)

    Args:
        matchups: the number of matchups (non-mirror pairings) the correction runs over.
        bands: the band and the correction (default :class:`FlagBands`).
        limit: give up beyond this many games per pair.
        seatings: the seatings a matchup is played in (2, or 1 where the seat pools pair two decks one way only).

    Returns:
        games per pair (each seating), or ``None`` when there is no matchup or no count up to
        ``limit`` suffices (a band of 100%).
    """
    bands = bands or FlagBands()
    if matchups < 1 or bands.matchup >= 1.0:
        return None
    band = (1 - bands.matchup, bands.matchup)
    for g in range(1, limit + 1):
        n = seatings * g
        p = float(p_beyond_exact([n], [0], [n], *band)[0])
        if _lone_adjusted(p, matchups, bands.matchup_method) < bands.alpha:
            return g
        if p == 0.0:
            return None
    return None


def matchup_flag_reach(matchups: pd.DataFrame, bands: FlagBands | None = None, true_rate: float = 0.9,
                       seatings: int = 2) -> dict:
    """What the matchup flags can see at this sweep's size.

    Args:
        matchups: :func:`simkit.analysis.matchup_matrix`.
        bands: the band and the correction (default :class:`FlagBands`).
        true_rate: a clearly lopsided matchup's true rate, for the power figure.
        seatings: the fewest seatings a matchup is played in: 2 when either deck may sit either seat, 1 when the
            seat pools pair some two decks one way only (Magic War's 12-gold army first, 13-gold second).

    Returns:
        dict: ``matchups`` (pairings tested), ``seatings``, ``games_per_pair`` (the fewest games of a pairing,
        per seating), ``pairing_games`` (the fewest games of a pairing, its seatings together),
        ``min_games_per_pair`` (:func:`min_games_to_flag`), ``enough`` (the
        sweep has at least that many), ``true_rate`` and ``power``: the chance that a matchup
        truly at ``true_rate`` (no draws) is flagged when it is the only lopsided one (a lower
        bound: with Benjamini-Hochberg other lopsided matchups raise it).
    """
    bands = bands or FlagBands()
    m = _pairings(matchups)
    count = len(m)
    games = int(m["games"].min()) if count else 0
    need = min_games_to_flag(count, bands, seatings=seatings)
    power = 0.0
    if count and games:
        k = np.arange(games + 1)
        p = p_beyond_exact(k, np.zeros_like(k), np.full_like(k, games), 1 - bands.matchup, bands.matchup)
        ok = np.flatnonzero([(_lone_adjusted(x, count, bands.matchup_method) < bands.alpha) and w > games / 2
                             for x, w in zip(p, k)])
        if len(ok):
            power = float(stats.binom.sf(ok[0] - 1, games, true_rate))
    return {"matchups": count, "seatings": seatings, "games_per_pair": games // seatings, "pairing_games": games,
            "min_games_per_pair": need, "enough": need is not None and games // seatings >= need,
            "true_rate": true_rate, "power": power}
