"""Anytime-valid statistics for adaptive sweeps: confidence sequences, e-values, stopping decisions.

An adaptive sweep chooses how many games to play from the games already played, so fixed-n
intervals (Wilson) and tests lose their error rates. Everything here stays valid at any
data-dependent stopping time.

**Confidence sequence.** For observations ``x_1, x_2, ...`` in [0, 1] (a win 1, a draw 1/2)
with mean ``p``, the beta-binomial mixture

    M_t(p) = B(a + S_t, b + t - S_t) / B(a, b) / (p^S_t (1 - p)^(t - S_t)),   S_t = x_1 + ... + x_t

is a nonnegative supermartingale (the likelihood ratio ``(q/p)^x ((1-q)/(1-p))^(1-x)`` is convex
in ``x``, so its mean is at most its value for a Bernoulli(p) draw, which is 1; the mixture over
``q ~ Beta(a, b)`` keeps that). By Ville's inequality ``P(exists t: M_t(p) >= 1/alpha) <= alpha``,
so ``{p : M_t(p) < 1/alpha}`` is a ``1 - alpha`` confidence sequence (Howard, Ramdas, McAuliffe
and Sekhon 2021, "Time-uniform, nonparametric, nonasymptotic confidence sequences", section 4).
``log M_t`` is convex in ``p`` with its minimum at ``S_t / t``, so the set is an interval; its ends
are found by vectorised bisection.

**Levels: every game counts, for every unit.** A unit's *level* g is a set of independent games
whose means average to the unit's rate: for a matchup {A, B}, game g of (A first, B second) and of
(B first, A second); for a deck A, game g of A against every other deck in both seatings (its rate
is the uniform sweep's: the average over opponents of the matchup rates); for the first seat
overall, game g of every ordered pair. Counting a level's k games as k trials keeps ``M`` a
supermartingale from level to level: the factors' means are ``1 + u_i`` with ``u_i = (m_i - p)(q - p)
/ (p (1 - p))``, which sum to 0, so their product is at most 1 (arithmetic-geometric means). So a
unit's sequence reads every *complete* level (g below the smallest count among its pairs): a deck
reads all its games, 2 (D - 1) trials per level, rather than a separate stream of games against
randomly drawn opponents. A confidence sequence holds at every level at once, so it holds at any random level,
stopping time or not (Howard et al. 2021, lemma 3): the levels a unit has when the sweep stops may
depend on every other unit's games.

**Two seat pools.** The units run over the pairings the two seats' pools make (every ordered pair when
the seats are alike; Magic War's 12-gold armies first against its 13-gold ones second): a matchup
{A, B}'s level g is game g of each seating the pools make (one seating when one of the decks may sit
only one seat); a deck's level g is game g of every pairing it sits in, as first or second, its mirror
aside (its rate the average over the opponents it has); the first seat overall's level g is game g of
every pairing. The argument above holds unchanged, each level's games being independent.

**Prior and level.** ``PRIOR = (1, 1)`` (a uniform mixing prior: among Beta(a, a) for a in
{1/2, 1, 2, 5, 10} its interval is within 5% of the narrowest from 20 to 2,000 trials and for rates
from 1/2 to 0.85); every reported interval is a 95% confidence sequence (``ALPHA``), valid for each
unit separately.

**Flags: a group-sequential test.** A unit's flag is tested at fixed *looks*, levels planned before
any game (:meth:`AdaptiveSettings.looks`: ``first_steps`` doubled up to ``horizon``, then ``horizon``),
with the report's own exact test on the games of its first ``L`` levels, and alpha spread over the
looks by the spending function ``(L / horizon) ** rho`` (the power family of Kim and DeMets; rho = 1.5
spends less early than late). The unit's p-value is ``min over looks of p_L / s_L`` (weighted Bonferroni:
valid at any stopping rule, because each look's games are fixed whatever the sweep played; see
:func:`look_p_values`); it goes through the report's correction within each family, the families
being the report's (:func:`simkit.analysis.flags.balance_flags`): deck rates and the first seat
overall and per deck with ``method`` (Holm); matchup rates and the first seat per matchup with
``matchup_method`` (Benjamini-Hochberg). A confidence sequence is wider than it need be for a test
whose looks are known in advance: it pays for every number of games at once. So intervals are
confidence sequences (valid however many games were played) and flags are the sharper planned
test, whose last look is the uniform sweep's test at ``horizon`` games up to the ``s_last`` share
of alpha. :func:`e_value_beyond` (the mixture's e-value against the band) stays for callers that
need a test at arbitrary times.

**Stopping** (:func:`unit_status`): a unit stops once the report flags it, its interval lies inside
its band, it reached the horizon, its flag would most likely not be reached by the horizon
(futility, which can only give flags up, never raise one) or its interval is narrower than the
precision asked for.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd
from scipy.special import betaln

from simkit.analysis.results import first_score, seat_pools
from simkit.analysis.stats import adjust_p, p_beyond_exact
from simkit.core.seats import SeatPools

__all__ = [
    "ALPHA",
    "PRIOR",
    "AdaptiveSettings",
    "log_mixture",
    "confidence_sequence",
    "e_value_beyond",
    "stream_table",
    "family_of",
    "look_p_values",
    "unit_status",
    "adaptive_tables",
]

ALPHA = 0.05
PRIOR = (1.0, 1.0)
_BISECT = 60  # halvings of [0, 1]: below 1e-15


@dataclass(frozen=True)
class AdaptiveSettings:
    """What an adaptive sweep stops on (recorded in ``meta.json``).

    Attributes:
        precision: a unit stops once its 95% confidence sequence is narrower than this (rate units).
        max_games: the sweep stops once it has played this many games (``0``: no limit).
        alpha: the level of every confidence sequence and of the flag families.
        deck: the deck band (a deck's rate inside it is balanced).
        matchup: a matchup beyond ``matchup`` / ``1 - matchup`` is lopsided.
        first_player: the first seat's rate should lie within 1/2 +- this.
        method: the correction of the deck family and of the first seat overall and per deck
            (``"holm"`` or ``"bh"``), as the report's.
        matchup_method: the correction of the matchup family and of the first seat per matchup, as
            the report's (e-BH by default, as the report's Benjamini-Hochberg).
        prior: the Beta(a, b) mixing prior of the confidence sequences.
        first_steps: games of every ordered pair in round 0: the first look.
        growth: each look is about ``1 + growth`` times the one before (:meth:`looks`).
        horizon: the most games an ordered pair plays, the last look (a unit's flag test is planned
            up to it).
        spending: the power ``rho`` of the alpha-spending function ``(level / horizon) ** rho``: the
            share of a flag test's error spent at each look (1.5: less early than late; 1: evenly by games).
        futility: a unit stops when the chance that its flag is reached by the horizon, were its
            rate at the optimistic end of a one-standard-error interval, falls below this.
    """

    precision: float = 0.2
    max_games: int = 0
    alpha: float = ALPHA
    deck: tuple[float, float] = (0.45, 0.55)
    matchup: float = 0.70
    first_player: float = 0.05
    method: str = "holm"
    matchup_method: str = "bh"
    prior: tuple[float, float] = PRIOR
    first_steps: int = 2
    growth: float = 0.25
    horizon: int = 100
    spending: float = 1.5
    futility: float = 0.05

    def to_dict(self) -> dict:
        """The settings as ``meta.json`` stores them (lists for tuples)."""
        d = asdict(self)
        d["deck"], d["prior"] = list(self.deck), list(self.prior)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> AdaptiveSettings:
        """Settings from :meth:`to_dict`'s form."""
        d = {k: v for k, v in d.items() if k in cls.__dataclass_fields__}
        d["deck"], d["prior"] = tuple(d["deck"]), tuple(d["prior"])
        return cls(**d)

    def looks(self) -> tuple[int, ...]:
        """The levels at which a unit's flag is tested, fixed before any game: ``first_steps``, then each
        ``max(level + 1, round(level * (1 + growth)))`` below ``horizon``, then ``horizon``."""
        out, level = [], self.first_steps
        while level < self.horizon:
            out.append(level)
            level = max(level + 1, round(level * (1 + self.growth)))
        return (*out, self.horizon)

    def spent(self) -> np.ndarray:
        """The share of alpha spent at each look (sums to 1): the increments of ``(level / horizon) ** rho``."""
        f = (np.asarray(self.looks(), float) / self.horizon) ** self.spending
        return np.diff(np.r_[0.0, f])

    def band(self, kind: str) -> tuple[float, float]:
        """The balanced band of a unit kind: ``deck``, ``matchup`` or ``first_player``."""
        if kind == "deck":
            return self.deck
        if kind == "matchup":
            return (1 - self.matchup, self.matchup)
        return (0.5 - self.first_player, 0.5 + self.first_player)


def log_mixture(p, points, trials, prior: tuple[float, float] = PRIOR) -> np.ndarray:
    """``log M_t(p)`` of the beta-binomial mixture, elementwise.

    Args:
        p: candidate means in (0, 1).
        points: ``S_t``, the sum of the observations (each in [0, 1]).
        trials: ``t``, the number of observations.
        prior: the mixing prior's ``(a, b)``.

    Returns:
        float array (broadcast shape).
    """
    a, b = prior
    p = np.asarray(p, float)
    s = np.asarray(points, float)
    t = np.asarray(trials, float)
    with np.errstate(divide="ignore", invalid="ignore"):
        lik = np.where(s > 0, s * np.log(p), 0.0) + np.where(t - s > 0, (t - s) * np.log1p(-p), 0.0)
    return betaln(a + s, b + t - s) - betaln(a, b) - lik


def confidence_sequence(points, trials, alpha: float = ALPHA,
                        prior: tuple[float, float] = PRIOR) -> tuple[np.ndarray, np.ndarray]:
    """The ``1 - alpha`` confidence sequence ``{p : M_t(p) < 1/alpha}`` at the current data.

    Args:
        points: ``S_t`` per unit (array-like).
        trials: ``t`` per unit.
        alpha: the error rate, uniform over time.
        prior: the mixing prior.

    Returns:
        ``(low, high)`` float arrays; ``(0, 1)`` where ``trials`` is 0.
    """
    s = np.atleast_1d(np.asarray(points, float))
    t = np.atleast_1d(np.asarray(trials, float))
    s, t = np.broadcast_arrays(s, t)
    level = np.log(1 / alpha)
    centre = np.where(t > 0, s / np.maximum(t, 1), 0.5)

    def inside(p):
        return log_mixture(p, s, t, prior) < level

    # low: the smallest p with M < 1/alpha; M decreases on [0, centre]
    lo_out, lo_in = np.zeros_like(centre), centre.copy()  # outside / inside the set
    hi_in, hi_out = centre.copy(), np.ones_like(centre)
    for _ in range(_BISECT):
        mid = (lo_out + lo_in) / 2
        ok = inside(mid)
        lo_in, lo_out = np.where(ok, mid, lo_in), np.where(ok, lo_out, mid)
        mid = (hi_in + hi_out) / 2
        ok = inside(mid)
        hi_in, hi_out = np.where(ok, mid, hi_in), np.where(ok, hi_out, mid)
    low = np.where(inside(np.full_like(centre, 1e-300)) | (s <= 0), 0.0, lo_out)
    high = np.where(inside(np.full_like(centre, 1 - 1e-16)) | (s >= t), 1.0, hi_out)
    return np.where(t > 0, low, 0.0), np.where(t > 0, high, 1.0)


def e_value_beyond(points, trials, band: tuple[float, float], prior: tuple[float, float] = PRIOR) -> np.ndarray:
    """The e-value against "the mean lies inside ``band``": ``min over p in band of M_t(p)``.

    ``log M_t`` is convex in ``p`` with its minimum at ``S_t / t``, so the minimum over the band is
    at the band point nearest ``S_t / t`` (at most 1 when ``S_t / t`` lies inside the band).
    """
    s = np.asarray(points, float)
    t = np.asarray(trials, float)
    centre = np.where(t > 0, s / np.maximum(t, 1), 0.5)
    nearest = np.clip(centre, band[0], band[1])
    return np.exp(np.minimum(log_mixture(nearest, s, t, prior), 700.0))


# ----------------------------------------------------------------------------------------------
# the streams of a results table


def stream_table(df: pd.DataFrame, pools: SeatPools | None = None) -> pd.DataFrame:
    """Every unit's complete levels (see the module notes): its points and trials.

    The units are the balance tables' rows, over the pairings the two seat pools make (every ordered
    pair when the seats are alike): ``matchup`` (A < B: A's points over games g of the seatings the two
    decks meet in, both where each may sit either seat, g below every such seating's count), ``deck`` (A's
    points over the games g of every pairing A sits in, as first or second, its mirror aside, g below the
    smallest of those counts: the rate over the opponents it has), ``first_player`` with scope ``matchup``
    (the first seat's points over a matchup's levels; a mirror's every game), ``deck`` (over a deck's
    levels) and ``overall`` (over the levels of every pairing).

    Args:
        df: results, one row per game (each pair's games numbered from 0).
        pools: the two seats' pools (default: :func:`~simkit.analysis.results.seat_pools` of ``df``).

    Returns:
        DataFrame ``kind, scope, subject, deck, opponent, points, trials, levels, games, draws, wins``
        (``games``: every game of the unit's pairs, complete levels or not; ``wins`` and ``draws`` of the
        subject within the complete levels), matchups (i < j), mirrors, decks, overall; decks sorted.
    """
    pools = seat_pools(df) if pools is None else pools
    pts = np.asarray(first_score(df), float)
    out = _stream_rows(df, pools, pts)
    # draws of each unit's games: every unit shares its games with the first-seat unit of its scope
    drawn = _stream_rows(df, pools, (pts == 0.5).astype(float))
    drawn = drawn[drawn["kind"] == "first_player"].set_index(["scope", "subject"])["points"]
    out["draws"] = drawn.reindex(pd.MultiIndex.from_arrays([out["scope"], out["subject"]])).to_numpy()
    out["wins"] = out["points"] - out["draws"] / 2
    return out


def _stream_rows(df: pd.DataFrame, pools: SeatPools, pts: np.ndarray) -> pd.DataFrame:
    """:func:`stream_table`'s units with ``points`` summed from ``pts``, each game's first-seat value.

    Every deck of either pool is indexed once (sorted); ``held[i, j]`` marks the pairings (i first, j second)
    the pools make, and every sum runs over those alone."""
    decks = sorted(set(pools.first) | set(pools.second))
    d = len(decks)
    code = {x: i for i, x in enumerate(decks)}
    held = np.zeros((d, d), bool)
    held[np.ix_([code[x] for x in pools.first], [code[x] for x in pools.second])] = True
    fi = df["first_deck"].map(code).to_numpy(np.int64)
    si = df["second_deck"].map(code).to_numpy(np.int64)
    g = df["game"].to_numpy(np.int64)
    n = np.zeros((d, d), np.int64)
    np.add.at(n, (fi, si), 1)
    # prefix sums of the first seat's points per ordered pair: cum[i, j, k] = points of games g < k
    cum = np.zeros((d, d, int(n.max(initial=0)) + 1))
    np.add.at(cum, (fi, si, g + 1), pts)
    cum = np.cumsum(cum, axis=2)
    names = np.asarray(decks, dtype=object)
    off = ~np.eye(d, dtype=bool)
    big = np.iinfo(np.int64).max
    rows = []

    i, j = np.triu_indices(d, 1)
    hij, hji = held[i, j], held[j, i]
    keep = hij | hji  # the pairs the pools seat at least one way
    i, j, hij, hji = i[keep], j[keep], hij[keep], hji[keep]
    lv = np.minimum(np.where(hij, n[i, j], big), np.where(hji, n[j, i], big))
    first_ij, first_ji = np.where(hij, cum[i, j, lv], 0.0), np.where(hji, cum[j, i, lv], 0.0)
    seatings = hij.astype(np.int64) + hji
    common = {"scope": "matchup", "subject": names[i] + " vs " + names[j], "deck": names[i], "opponent": names[j],
              "trials": seatings * lv, "levels": lv, "games": n[i, j] + n[j, i]}
    rows.append(pd.DataFrame({"kind": "matchup", "points": first_ij + np.where(hji, lv - first_ji, 0.0), **common}))
    rows.append(pd.DataFrame({"kind": "first_player", "points": first_ij + first_ji, **common}))
    m = np.flatnonzero(np.diag(held))
    rows.append(pd.DataFrame({"kind": "first_player", "scope": "matchup", "subject": names[m] + " vs " + names[m],
                              "deck": names[m], "opponent": names[m], "points": cum[m, m, n[m, m]],
                              "trials": n[m, m], "levels": n[m, m], "games": n[m, m]}))

    own, first, trials, levels, deck_games = [], [], [], [], []
    for a in range(d):
        as_first = np.flatnonzero(held[a] & off[a])  # the second-seat decks a meets sitting first
        as_second = np.flatnonzero(held[:, a] & off[a])  # the first-seat decks a meets sitting second
        cells = len(as_first) + len(as_second)
        level = int(min(n[a, as_first].min(initial=big), n[as_second, a].min(initial=big))) if cells else 0
        sat_first, sat_second = cum[a, as_first, level].sum(), cum[as_second, a, level].sum()
        own.append(sat_first + len(as_second) * level - sat_second)
        first.append(sat_first + sat_second)
        trials.append(cells * level)
        levels.append(level)
        deck_games.append(int(n[a, as_first].sum() + n[as_second, a].sum()))
    common = {"scope": "deck", "subject": decks, "deck": decks, "opponent": None, "trials": trials,
              "levels": levels, "games": deck_games}
    rows.append(pd.DataFrame({"kind": "deck", "points": own, **common}))
    rows.append(pd.DataFrame({"kind": "first_player", "points": first, **common}))

    level = int(n[held].min()) if held.any() else 0
    rows.append(pd.DataFrame({"kind": ["first_player"], "scope": ["overall"], "subject": ["all games"],
                              "deck": [None], "opponent": [None], "points": [cum[:, :, level][held].sum()],
                              "trials": [int(held.sum()) * level], "levels": [level], "games": [int(n.sum())]}))
    out = pd.concat(rows, ignore_index=True)
    out["trials"] = out["trials"].astype(float)
    return out


def family_of(units: pd.DataFrame) -> pd.Series:
    """Each unit's correction family, the report's: ``deck``, ``matchup/matchup``, ``first_player`` (overall
    and per deck) and ``first_player/matchup``; a family ending in ``/matchup`` takes ``matchup_method``."""
    return units["kind"].where(units["kind"] == "deck", units["kind"].where(
        (units["kind"] == "first_player") & (units["scope"] != "matchup"), units["kind"] + "/matchup"))


def look_p_values(df: pd.DataFrame, settings: AdaptiveSettings, pools: SeatPools | None = None) -> pd.DataFrame:
    """Each unit's group-sequential p-value that its rate lies outside its band.

    At every look ``L`` of :meth:`AdaptiveSettings.looks` the unit has reached (``L`` complete
    levels), the report's exact test (:func:`simkit.analysis.stats.p_beyond_exact`: draws on the
    null's side) is run on the unit's games of the first ``L`` levels, a fixed set of games whatever
    the sweep chose to play; the unit's p-value is ``min over looks of p_L / s_L``, ``s_L`` the share
    of alpha spent at look ``L`` (:meth:`AdaptiveSettings.spent`, summing to 1). By the union bound
    ``P(p <= u) <= sum of P(p_L <= u s_L) <= u`` under the null, at any stopping rule: the looks
    are fixed in advance, so stopping only removes looks, which can only raise ``p``. ``pools``: as
    :func:`stream_table`'s.

    Returns:
        DataFrame ``kind, scope, subject, look, p_look`` (``look``: the last look reached, 0 for
        none; ``p_look``: the unit's p-value, 1 without a look).
    """
    pools = seat_pools(df) if pools is None else pools
    base = stream_table(df, pools)
    key = ["kind", "scope", "subject"]
    best = pd.Series(1.0, index=pd.MultiIndex.from_frame(base[key]))
    last = pd.Series(0, index=best.index)
    for level, share in zip(settings.looks(), settings.spent(), strict=True):
        reached = base["levels"].to_numpy() >= level
        if not reached.any():
            break
        sub = df[df["game"].to_numpy() < level]
        t = stream_table(sub, pools).set_index(key).reindex(best.index)
        p = np.ones(len(t))
        for kind in ("deck", "matchup", "first_player"):
            rows = (t.index.get_level_values("kind") == kind) & reached
            lo, hi = settings.band(kind)
            p[rows] = p_beyond_exact(t["wins"].to_numpy()[rows], t["draws"].to_numpy()[rows],
                                     t["trials"].to_numpy()[rows], lo, hi)
        best = np.minimum(best, np.where(reached, p / share, 1.0))
        last = last.where(~reached, level)
    return pd.DataFrame({**{k: best.index.get_level_values(k) for k in key}, "look": last.to_numpy(),
                         "p_look": np.minimum(1.0, best.to_numpy())})


def _futile(units: pd.DataFrame, settings: AdaptiveSettings, bar: np.ndarray) -> np.ndarray:
    """Units whose flag would most likely not be reached by the horizon (stochastic curtailment).

    The last look's test rejects above ``c_hi`` points (or at most ``c_lo``) of the horizon's
    trials at level ``bar * s_last`` (``bar``: the unit's family's correction were one more unit
    flagged than now);
    the chance of getting there from the points so far is computed at the rate one standard error
    beyond the estimate, toward each edge. Stopping for futility never raises a flag, so it cannot
    inflate the error rate; it only costs the flags it gives up, which this keeps rare.
    """
    from scipy import stats

    per_level = units["trials"] / units["levels"].where(units["levels"] > 0)
    total = (per_level * settings.horizon).fillna(0).to_numpy()
    left = np.maximum(total - units["trials"].to_numpy(), 0)
    pts = units["points"].to_numpy()
    t = units["trials"].to_numpy()
    rate = np.where(t > 0, pts / np.maximum(t, 1), 0.5)
    se = np.sqrt(np.maximum(rate * (1 - rate), 0.25 / np.maximum(t, 1)) / np.maximum(t, 1))
    level = bar * settings.spent()[-1]
    chance = np.zeros(len(units))
    for kind in ("deck", "matchup", "first_player"):
        rows = (units["kind"] == kind).to_numpy() & (left > 0)
        lo, hi = settings.band(kind)
        n = total[rows]
        c_hi = stats.binom.isf(level[rows], n, hi) + 1  # P(X >= c_hi) <= level
        c_lo = stats.binom.ppf(level[rows], n, lo) - 1  # P(X <= c_lo) <= level
        up, down = np.minimum(rate[rows] + se[rows], 1.0), np.maximum(rate[rows] - se[rows], 0.0)
        chance[rows] = (stats.binom.sf(c_hi - pts[rows] - 1, left[rows], up)
                        + stats.binom.cdf(c_lo - pts[rows], left[rows], down))
    return (left > 0) & (chance < settings.futility)


def unit_status(df: pd.DataFrame, settings: AdaptiveSettings, pools: SeatPools | None = None) -> pd.DataFrame:
    """Each unit's interval, flag test and stopping decision.

    A unit is ``flagged`` (its group-sequential p-value, :func:`look_p_values`, stays below alpha
    after its family's correction, as the report will flag it), ``inside`` (its 95% confidence
    sequence lies wholly inside the band), ``done`` (it reached the horizon), ``futile`` (its flag
    would most likely not be reached by the horizon: :func:`_futile`), ``narrow`` (its confidence
    sequence is narrower than ``settings.precision`` with its estimate inside the band, or narrower
    than half of it wherever the estimate lies) or ``active``.
    Families (:func:`family_of`): deck rates; matchup rates; the first seat overall and per deck;
    the first seat per matchup.

    Args:
        df: the games played so far.
        settings: the bands, level, looks, precision and prior.
        pools: the two seats' pools (default: :func:`~simkit.analysis.results.seat_pools` of ``df``).

    Returns:
        :func:`stream_table` with ``rate, low, high, family, look, p_value, p_adjusted, status``
        added (``rate`` is the stream's mean, NaN without trials; ``low, high`` its confidence
        sequence).
    """
    pools = seat_pools(df) if pools is None else pools
    out = stream_table(df, pools)
    out["rate"] = out["points"] / out["trials"].where(out["trials"] > 0)
    out["low"], out["high"] = confidence_sequence(out["points"], out["trials"], settings.alpha, settings.prior)
    looks = look_p_values(df, settings, pools)
    out["look"], out["p_value"] = looks["look"].to_numpy(), looks["p_look"].to_numpy()
    out["family"] = family_of(out)
    out["p_adjusted"] = np.nan
    for fam, rows in out.groupby("family").groups.items():
        method = settings.matchup_method if fam.endswith("/matchup") else settings.method
        out.loc[rows, "p_adjusted"] = adjust_p(out.loc[rows, "p_value"].to_numpy(), method)
    band_lo = out["kind"].map(lambda k: settings.band(k)[0])
    band_hi = out["kind"].map(lambda k: settings.band(k)[1])
    flagged = out["p_adjusted"] < settings.alpha
    inside = (out["low"] >= band_lo) & (out["high"] <= band_hi)
    done = out["levels"] >= settings.horizon
    # the bar a unit's own p-value must pass were one more unit of its family flagged (Holm: alpha / (m - k);
    # Benjamini-Hochberg: alpha (k + 1) / m)
    m = out.groupby("family")["family"].transform("size")
    k = flagged.groupby(out["family"]).transform("sum")
    bh = out["family"].str.endswith("/matchup") if settings.matchup_method == "bh" else pd.Series(False, out.index)
    if settings.method == "bh":
        bh = bh | ~out["family"].str.endswith("/matchup")
    bar = settings.alpha * np.where(bh, (k + 1) / m, 1 / np.maximum(m - k, 1))
    futile = pd.Series(_futile(out, settings, bar), index=out.index)
    looks_balanced = (out["rate"] >= band_lo) & (out["rate"] <= band_hi)  # else more games may well flag it
    width = out["high"] - out["low"]
    narrow = (width < settings.precision) & looks_balanced | (width < settings.precision / 2)
    out["status"] = np.select([flagged, inside, done, futile, narrow],
                              ["flagged", "inside", "done", "futile", "narrow"], "active")
    return out


def adaptive_tables(df: pd.DataFrame, tables: dict, settings: AdaptiveSettings) -> dict:
    """The balance tables of an adaptive sweep: anytime-valid intervals and flags, per-opponent weights.

    ``decks``: the win rate is the average over opponents of the matchup rates (not pooled over
    unequal games), the interval is the deck stream's confidence sequence. ``matchups`` and
    ``first_player``: intervals are confidence sequences (``first_player``'s per-deck and overall
    rates are their streams' means). ``flags``: a unit is flagged when its corrected
    group-sequential p-value is below alpha (see the module notes). A ``units`` table holds every unit's
    stream and decision, over the seat pools' pairings (:func:`stream_table`): a matchup of two decks that
    meet in one seating only (Magic War's 12-gold army first against a 13-gold one) is that seating's
    stream, and its flag names each deck's seat.

    Args:
        df: results of an adaptive sweep.
        tables: :func:`simkit.analysis.analyze`'s tables of ``df``.
        settings: the sweep's adaptive settings.

    Returns:
        a new dict of tables.
    """
    from simkit.analysis.flags import FLAG_COLUMNS, _deck_words, _matchup_words, _seat_words

    out = dict(tables)
    pools = seat_pools(df)
    units = unit_status(df, settings, pools)
    pair = units[units["kind"] == "matchup"].set_index(["deck", "opponent"])
    fu = units[units["kind"] == "first_player"].set_index("subject")
    out["units"] = units

    m = tables["matchups"].copy()
    for a_col, b_col, flip in (("deck", "opponent", False), ("opponent", "deck", True)):
        key = pd.MultiIndex.from_arrays([m[a_col], m[b_col]])
        hit = key.isin(pair.index)
        lo = pair["low"].reindex(key[hit]).to_numpy()
        hi = pair["high"].reindex(key[hit]).to_numpy()
        m.loc[hit, "low"], m.loc[hit, "high"] = (1 - hi, 1 - lo) if flip else (lo, hi)
    out["matchups"] = m

    dk = tables["decks"].copy()
    nm = m[~m["mirror"]]
    avg = nm.groupby("deck")["win_rate"].mean()
    du = units[units["kind"] == "deck"].set_index("deck")
    dk["win_rate"] = dk["deck"].map(avg)
    dk["low"], dk["high"] = dk["deck"].map(du["low"]), dk["deck"].map(du["high"])
    out["decks"] = dk

    fp = tables["first_player"].copy()
    over = fp["scope"] == "overall"
    fu_over = units[(units["kind"] == "first_player") & (units["scope"] == "overall")].iloc[0]
    for col in ("low", "high"):
        fp[col] = fp["subject"].map(fu[col]) - 0.5
        fp.loc[over, col] = fu_over[col] - 0.5
    deck_scope = fp["scope"] == "deck"
    fp.loc[deck_scope, "first_rate"] = fp.loc[deck_scope, "subject"].map(fu["rate"])
    fp.loc[over, "first_rate"] = fu_over["rate"]
    fp["advantage"] = fp["first_rate"] - 0.5
    # "does going first matter at all?": the mixture's e-value against exactly 1/2, anytime-valid
    # (a fixed-n test on games whose number depended on the results would not be)
    even = np.minimum(1.0, 1.0 / e_value_beyond(fu["points"], fu["trials"], (0.5, 0.5), settings.prior))
    even = pd.Series(np.asarray(even), index=fu.index)
    fp["p_value"] = fp["subject"].map(even)
    fp.loc[over, "p_value"] = float(even[fu_over["subject"]]) if fu_over["subject"] in even.index else np.nan
    out["first_player"] = fp

    flags = []
    words = {"deck": _deck_words, "matchup": _matchup_words, "first_player": _seat_words}
    for kind in ("deck", "matchup", "first_player"):
        u = units[(units["kind"] == kind) & (units["p_adjusted"] < settings.alpha)]
        if u.empty:
            continue
        lo_b, hi_b = settings.band(kind)
        value, low, high, subject = u["rate"].to_numpy(), u["low"].to_numpy(), u["high"].to_numpy(), u["subject"]
        if kind == "deck":
            value = u["deck"].map(avg).to_numpy()
        if kind == "matchup":  # name the pairing from the side that wins it (each one's seat where it sat one)
            win = value >= 0.5
            a, b = _seated(u["deck"], u["opponent"], pools), _seated(u["opponent"], u["deck"], pools)
            subject = np.where(win, a + " vs " + b, b + " vs " + a)
            value, low, high = (np.where(win, value, 1 - value), np.where(win, low, 1 - high),
                                np.where(win, high, 1 - low))
        t = pd.DataFrame({"kind": kind, "subject": list(subject), "value": value, "low": low, "high": high,
                          "games": u["games"].to_numpy(int), "band_low": lo_b, "band_high": hi_b,
                          "p_value": u["p_value"].to_numpy(), "p_adjusted": u["p_adjusted"].to_numpy()})
        t["message"] = [words[kind](r) + " (group-sequential test)" for r in t.itertuples()]
        flags.append(t)
    if flags:
        f = pd.concat(flags, ignore_index=True)
        f["excess"] = np.maximum(f["value"] - f["band_high"], f["band_low"] - f["value"])
        f["k"] = f["kind"].map({"deck": 0, "matchup": 1, "first_player": 2})
        f = f.sort_values(["k", "excess"], ascending=[True, False], ignore_index=True)[FLAG_COLUMNS]
    else:
        f = pd.DataFrame(columns=FLAG_COLUMNS)
    out["flags"] = f
    return out


def _seated(decks: pd.Series, opponents: pd.Series, pools: SeatPools) -> np.ndarray:
    """Each deck's name, with its seat where the pools seat it against its opponent one way only."""
    out = []
    for a, b in zip(decks, opponents, strict=True):
        first, second = pools.holds(a, b), pools.holds(b, a)
        out.append(a if first == second else f"{a} ({'first' if first else 'second'})")
    return np.asarray(out, dtype=object)
