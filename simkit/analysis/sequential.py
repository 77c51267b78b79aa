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

**Seats with their own pools** (Magic War: an army costing 13 sits only second): the seat is part of
the unit. Each ordered pairing (A first, B second) is a unit whose level g is its game g alone; a
deck's level g is game g of every pairing it sits in, as first or second, its mirror aside (its rate
the average over the opponents it has); the first seat overall's level g is game g of every pairing.
The argument above holds unchanged, each level's games being independent.

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

from simkit.analysis.results import deck_pool, first_score
from simkit.analysis.stats import adjust_p, p_beyond_exact

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
    "seat_pools_of",
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


def stream_table(df: pd.DataFrame, decks: list[str] | None = None, seconds: list[str] | None = None) -> pd.DataFrame:
    """Every unit's complete levels (see the module notes): its points and trials.

    Units: ``matchup`` (A < B: A's points over games g of both seatings, g below both counts),
    ``deck`` (A's points over the games g of A against every other deck in both seatings, g below
    the smallest of those counts), ``first_player`` with scope ``matchup`` (the first seat's points
    over a matchup's levels; a mirror's every game), ``deck`` (over a deck's levels) and ``overall``
    (over the levels of every ordered pair).

    With ``seconds`` (seats with their own pools: ``decks`` sit first, ``seconds`` second, every
    first deck against every second deck), the seat is part of the unit, never pooled: each ordered
    pairing (A first, B second) is a ``matchup`` unit of its own (subject ``"A vs B"``, A's points over
    all its games; a pairing of a deck with itself is a ``first_player`` unit of scope ``matchup``), a
    ``deck`` unit reads the complete levels of every pairing the deck is part of (its mirror aside),
    in whichever seat (the rate over the opponents it has), and ``first_player`` ``overall`` the
    levels of every pairing; there are no per-deck first-seat units (a deck sitting one seat only
    has its first-seat rate in its deck rate).

    Args:
        df: results, one row per game (each pair's games numbered from 0).
        decks: the pool (default: every deck in ``df``, sorted); with ``seconds``, the first seat's decks.
        seconds: the second seat's decks when the seats have their own pools (``None``: one pool).

    Returns:
        DataFrame ``kind, scope, subject, deck, opponent, points, trials, levels, games, draws, wins``
        (``games``: every game of the unit's pairs, complete levels or not; ``wins`` and ``draws``
        of the subject within the complete levels), matchups (i < j), mirrors, decks, overall;
        decks sorted.
    """
    pts = np.asarray(first_score(df), float)
    if seconds is not None:
        firsts, seconds = sorted(decks), sorted(seconds)
        out = _seat_stream_rows(df, firsts, seconds, pts)
        out["draws"] = _seat_stream_rows(df, firsts, seconds, (pts == 0.5).astype(float))["first"].to_numpy()
        out = out.drop(columns="first")
        out["wins"] = out["points"] - out["draws"] / 2
        return out
    decks = sorted(decks) if decks is not None else deck_pool(df)
    out = _stream_rows(df, decks, pts)
    # draws of each unit's games: every unit shares its games with the first-seat unit of its scope
    drawn = _stream_rows(df, decks, (pts == 0.5).astype(float))
    drawn = drawn[drawn["kind"] == "first_player"].set_index(["scope", "subject"])["points"]
    out["draws"] = drawn.reindex(pd.MultiIndex.from_arrays([out["scope"], out["subject"]])).to_numpy()
    out["wins"] = out["points"] - out["draws"] / 2
    return out


def _stream_rows(df: pd.DataFrame, decks: list[str], pts: np.ndarray) -> pd.DataFrame:
    """:func:`stream_table`'s units with ``points`` summed from ``pts``, each game's first-seat value."""
    d = len(decks)
    code = {x: i for i, x in enumerate(decks)}
    fi = df["first_deck"].map(code).to_numpy(np.int64)
    si = df["second_deck"].map(code).to_numpy(np.int64)
    g = df["game"].to_numpy(np.int64)
    n = np.zeros((d, d), np.int64)
    np.add.at(n, (fi, si), 1)
    # prefix sums of the first seat's points per ordered pair: cum[i, j, k] = points of games g < k
    width = int(n.max()) + 1
    cum = np.zeros((d, d, width))
    np.add.at(cum, (fi, si, g + 1), pts)
    cum = np.cumsum(cum, axis=2)
    names = np.asarray(decks, dtype=object)
    off = ~np.eye(d, dtype=bool)
    rows = []

    i, j = np.triu_indices(d, 1)
    lv = np.minimum(n[i, j], n[j, i])
    first_ij, first_ji = cum[i, j, lv], cum[j, i, lv]
    games = n[i, j] + n[j, i]
    subject = names[i] + " vs " + names[j]
    common = {"scope": "matchup", "subject": subject, "deck": names[i], "opponent": names[j], "trials": 2 * lv,
              "levels": lv, "games": games}
    rows.append(pd.DataFrame({"kind": "matchup", "points": first_ij + (lv - first_ji), **common}))
    rows.append(pd.DataFrame({"kind": "first_player", "points": first_ij + first_ji, **common}))
    m = np.arange(d)
    rows.append(pd.DataFrame({"kind": "first_player", "scope": "matchup", "subject": names + " vs " + names,
                              "deck": names, "opponent": names, "points": cum[m, m, n[m, m]], "trials": n[m, m],
                              "levels": n[m, m], "games": n[m, m]}))

    own, first, trials, levels, deck_games = [], [], [], [], []
    for a in range(d):
        others = np.flatnonzero(off[a])
        level = int(min(n[a, others].min(), n[others, a].min())) if len(others) else 0
        as_first, as_second = cum[a, others, level].sum(), cum[others, a, level].sum()
        own.append(as_first + len(others) * level - as_second)
        first.append(as_first + as_second)
        trials.append(2 * len(others) * level)
        levels.append(level)
        deck_games.append(int(n[a, others].sum() + n[others, a].sum()))
    common = {"scope": "deck", "subject": decks, "deck": decks, "opponent": None, "trials": trials,
              "levels": levels, "games": deck_games}
    rows.append(pd.DataFrame({"kind": "deck", "points": own, **common}))
    rows.append(pd.DataFrame({"kind": "first_player", "points": first, **common}))

    level = int(n.min())
    rows.append(pd.DataFrame({"kind": ["first_player"], "scope": ["overall"], "subject": ["all games"],
                              "deck": [None], "opponent": [None], "points": [cum[:, :, level].sum()],
                              "trials": [d * d * level], "levels": [level], "games": [int(n.sum())]}))
    out = pd.concat(rows, ignore_index=True)
    out["trials"] = out["trials"].astype(float)
    return out


def _seat_stream_rows(df: pd.DataFrame, firsts: list[str], seconds: list[str], pts: np.ndarray) -> pd.DataFrame:
    """:func:`stream_table`'s seat-pool units with ``points`` (the subject's) and ``first`` (the first seat's)
    summed from ``pts``, each game's first-seat value."""
    d1, d2 = len(firsts), len(seconds)
    fi = df["first_deck"].map({x: i for i, x in enumerate(firsts)}).to_numpy(np.int64)
    si = df["second_deck"].map({x: j for j, x in enumerate(seconds)}).to_numpy(np.int64)
    g = df["game"].to_numpy(np.int64)
    n = np.zeros((d1, d2), np.int64)
    np.add.at(n, (fi, si), 1)
    cum = np.zeros((d1, d2, int(n.max()) + 1))
    np.add.at(cum, (fi, si, g + 1), pts)
    cum = np.cumsum(cum, axis=2)
    first_names, second_names = np.asarray(firsts, dtype=object), np.asarray(seconds, dtype=object)
    i, j = np.divmod(np.arange(d1 * d2), d2)
    lv = n[i, j]
    mirror = first_names[i] == second_names[j]
    rows = [pd.DataFrame({"kind": np.where(mirror, "first_player", "matchup"), "scope": "matchup",
                          "subject": first_names[i] + " vs " + second_names[j], "deck": first_names[i],
                          "opponent": second_names[j], "points": cum[i, j, lv], "first": cum[i, j, lv],
                          "trials": lv, "levels": lv, "games": lv})]
    pool = sorted(set(firsts) | set(seconds))
    own, first, trials, levels, deck_games = [], [], [], [], []
    not_mirror = first_names[:, None] != second_names[None, :]
    for x in pool:
        as_first = (first_names == x)[:, None] & not_mirror
        as_second = (second_names == x)[None, :] & not_mirror
        both = as_first | as_second
        level = int(n[both].min()) if both.any() else 0
        at = cum[:, :, level]
        own.append(at[as_first].sum() + level * int(as_second.sum()) - at[as_second].sum())
        first.append(at[both].sum())
        trials.append(level * int(both.sum()))
        levels.append(level)
        deck_games.append(int(n[both].sum()))
    rows.append(pd.DataFrame({"kind": "deck", "scope": "deck", "subject": pool, "deck": pool, "opponent": None,
                              "points": own, "first": first, "trials": trials, "levels": levels,
                              "games": deck_games}))
    level = int(n.min())
    rows.append(pd.DataFrame({"kind": ["first_player"], "scope": ["overall"], "subject": ["all games"],
                              "deck": [None], "opponent": [None], "points": [cum[:, :, level].sum()],
                              "first": [cum[:, :, level].sum()], "trials": [d1 * d2 * level], "levels": [level],
                              "games": [int(n.sum())]}))
    out = pd.concat(rows, ignore_index=True)
    out["trials"] = out["trials"].astype(float)
    return out


def seat_pools_of(df: pd.DataFrame) -> tuple[list[str], list[str]] | None:
    """The first seat's and the second seat's decks (sorted) of results whose seats had their own pools
    (``meta["second_decks"]``), else ``None``."""
    if not (df.attrs.get("meta") or {}).get("second_decks"):
        return None
    return sorted(set(df["first_deck"].astype(str))), sorted(set(df["second_deck"].astype(str)))


def family_of(units: pd.DataFrame) -> pd.Series:
    """Each unit's correction family, the report's: ``deck``, ``matchup/matchup``, ``first_player`` (overall
    and per deck) and ``first_player/matchup``; a family ending in ``/matchup`` takes ``matchup_method``."""
    return units["kind"].where(units["kind"] == "deck", units["kind"].where(
        (units["kind"] == "first_player") & (units["scope"] != "matchup"), units["kind"] + "/matchup"))


def look_p_values(df: pd.DataFrame, settings: AdaptiveSettings, decks: list[str] | None = None,
                  seconds: list[str] | None = None) -> pd.DataFrame:
    """Each unit's group-sequential p-value that its rate lies outside its band.

    At every look ``L`` of :meth:`AdaptiveSettings.looks` the unit has reached (``L`` complete
    levels), the report's exact test (:func:`simkit.analysis.stats.p_beyond_exact`: draws on the
    null's side) is run on the unit's games of the first ``L`` levels, a fixed set of games whatever
    the sweep chose to play; the unit's p-value is ``min over looks of p_L / s_L``, ``s_L`` the share
    of alpha spent at look ``L`` (:meth:`AdaptiveSettings.spent`, summing to 1). By the union bound
    ``P(p <= u) <= sum of P(p_L <= u s_L) <= u`` under the null, at any stopping rule: the looks
    are fixed in advance, so stopping only removes looks, which can only raise ``p``. ``seconds``: as
    :func:`stream_table`'s (seats with their own pools).

    Returns:
        DataFrame ``kind, scope, subject, look, p_look`` (``look``: the last look reached, 0 for
        none; ``p_look``: the unit's p-value, 1 without a look).
    """
    decks = sorted(decks) if decks is not None else deck_pool(df)
    base = stream_table(df, decks, seconds)
    key = ["kind", "scope", "subject"]
    best = pd.Series(1.0, index=pd.MultiIndex.from_frame(base[key]))
    last = pd.Series(0, index=best.index)
    for level, share in zip(settings.looks(), settings.spent(), strict=True):
        reached = base["levels"].to_numpy() >= level
        if not reached.any():
            break
        sub = df[df["game"].to_numpy() < level]
        t = stream_table(sub, decks, seconds).set_index(key).reindex(best.index)
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


def unit_status(df: pd.DataFrame, settings: AdaptiveSettings, decks: list[str] | None = None,
                seconds: list[str] | None = None) -> pd.DataFrame:
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
        decks: the pool (default: every deck in ``df``); with ``seconds``, the first seat's decks.
        seconds: the second seat's decks when the seats have their own pools (:func:`stream_table`).

    Returns:
        :func:`stream_table` with ``rate, low, high, family, look, p_value, p_adjusted, status``
        added (``rate`` is the stream's mean, NaN without trials; ``low, high`` its confidence
        sequence).
    """
    decks = sorted(decks) if decks is not None else deck_pool(df)
    out = stream_table(df, decks, seconds)
    out["rate"] = out["points"] / out["trials"].where(out["trials"] > 0)
    out["low"], out["high"] = confidence_sequence(out["points"], out["trials"], settings.alpha, settings.prior)
    looks = look_p_values(df, settings, decks, seconds)
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
    stream and decision. With seat pools (:func:`seat_pools_of`), the units are :func:`stream_table`'s
    seat-pool units; a matchup table row of two decks that met in one seating only takes that
    pairing's interval, of two that met in both the interval of their complete levels of both seatings
    (as with one pool); a per-deck first-seat row takes the deck's own stream where the deck sat one
    seat only (NaN where it sat both, its opponents differing by seat).

    Args:
        df: results of an adaptive sweep.
        tables: :func:`simkit.analysis.analyze`'s tables of ``df``.
        settings: the sweep's adaptive settings.

    Returns:
        a new dict of tables.
    """
    from simkit.analysis.flags import FLAG_COLUMNS, _deck_words, _matchup_words, _seat_words

    out = dict(tables)
    pools = seat_pools_of(df)
    if pools is None:
        units = unit_status(df, settings, deck_pool(df))
        pair = units[units["kind"] == "matchup"].set_index(["deck", "opponent"])
        fu = units[units["kind"] == "first_player"].set_index("subject")
    else:
        units = unit_status(df, settings, pools[0], seconds=pools[1])
        pair, fu = _seat_pair_streams(df, units, pools, settings)
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
    deck_rate = fp.loc[deck_scope, "subject"].map(fu["rate"])
    if pools is not None:  # a deck that sat both seats keeps its measured rate (no stream of its own)
        deck_rate = deck_rate.fillna(fp.loc[deck_scope, "first_rate"])
    fp.loc[deck_scope, "first_rate"] = deck_rate
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
        if kind == "matchup":  # name the pairing from the side that wins it (with seat pools, each one's seat)
            win = value >= 0.5
            a, b = (u["deck"] + " (first)", u["opponent"] + " (second)") if pools else (u["deck"], u["opponent"])
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


def _seat_pair_streams(df: pd.DataFrame, units: pd.DataFrame, pools: tuple[list[str], list[str]],
                       settings: AdaptiveSettings) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The intervals :func:`adaptive_tables` reads with seat pools: ``pair`` (by deck and opponent: the deck's
    rate) and ``fu`` (by subject: the first seat's rate, ``points``, ``trials``), from the units and, for two
    decks that met in both seatings, their complete levels of both (:func:`_stream_rows`, display only)."""
    firsts, seconds = pools
    ordered = set(zip(units["deck"], units["opponent"], strict=True))
    pairing = units[units["kind"] == "matchup"]
    single = pairing[[(b, a) not in ordered for a, b in zip(pairing["deck"], pairing["opponent"], strict=True)]]
    pooled = _stream_rows(df, sorted(set(firsts) | set(seconds)), np.asarray(first_score(df), float))
    pooled = pooled[(pooled["scope"] == "matchup") & (pooled["levels"] > 0) & (pooled["deck"] != pooled["opponent"])]
    pooled = pooled.assign(rate=pooled["points"] / pooled["trials"])
    pooled["low"], pooled["high"] = confidence_sequence(pooled["points"], pooled["trials"], settings.alpha,
                                                        settings.prior)
    cols = ["deck", "opponent", "subject", "rate", "low", "high", "points", "trials"]
    pair = pd.concat([single[cols], pooled.loc[pooled["kind"] == "matchup", cols]], ignore_index=True)
    pair = pair.set_index(["deck", "opponent"])
    # the first seat's rate: a one-seating pairing's is its own; both seatings' is their first seats' points
    one = single[cols].assign(subject=[" vs ".join(sorted((a, b))) for a, b in
                                       zip(single["deck"], single["opponent"], strict=True)])
    both = pooled.loc[pooled["kind"] == "first_player", cols]
    rows = [one, both, units[units["kind"] == "first_player"][cols]]
    deck_units = units[units["kind"] == "deck"]
    for seat, pool, other in (("first", firsts, seconds), ("second", seconds, firsts)):
        only = deck_units[deck_units["deck"].isin(pool) & ~deck_units["deck"].isin(other)]
        if seat == "second":  # the first seat's rate against a second-seat-only deck is one minus the deck's
            only = only.assign(rate=1 - only["rate"], low=1 - only["high"], high=1 - only["low"],
                               points=only["trials"] - only["points"])
        rows.append(only[cols])
    fu = pd.concat(rows, ignore_index=True).drop_duplicates("subject").set_index("subject")
    return pair, fu
