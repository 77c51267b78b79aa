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

**Prior and level.** ``PRIOR = (1, 1)`` (a uniform mixing prior: among Beta(a, a) for a in
{1/2, 1, 2, 5, 10} its interval is within 5% of the narrowest from 20 to 2,000 trials and for rates
from 1/2 to 0.85); every reported interval is a 95% confidence sequence (``ALPHA``), valid for each
unit separately.

**Flags.** The e-value that a rate lies *outside* its band is ``E = min over p in the band of
M_t(p)`` (at most ``M_t(p_true)`` under the null, so ``E[E] <= 1``, at any stopping time). Its
anytime-valid p-value ``min(1, 1/E)`` goes through the report's own correction within each family
(Holm: family-wise error under any dependence; Benjamini-Hochberg on ``1/E`` is the e-BH procedure
of Wang and Ramdas 2022, false discovery rate under any dependence). A unit's flag is *settled*
once ``E >= m / alpha`` (m the family's size): it is flagged whatever every other unit does.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import pandas as pd
from scipy.special import betaln

from simkit.analysis.results import deck_pool, first_score
from simkit.analysis.stats import adjust_p

__all__ = [
    "ALPHA",
    "PRIOR",
    "AdaptiveSettings",
    "log_mixture",
    "confidence_sequence",
    "e_value_beyond",
    "stream_table",
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
        method: the flag correction within a family (``"holm"`` or ``"bh"``), as the report's.
        prior: the Beta(a, b) mixing prior of the confidence sequences.
        first_steps: games of every ordered pair in round 0.
        growth: each later round adds ``max(2, ceil(growth * levels so far))`` levels to every active unit.
    """

    precision: float = 0.2
    max_games: int = 0
    alpha: float = ALPHA
    deck: tuple[float, float] = (0.45, 0.55)
    matchup: float = 0.70
    first_player: float = 0.05
    method: str = "holm"
    prior: tuple[float, float] = PRIOR
    first_steps: int = 2
    growth: float = 0.5

    def to_dict(self) -> dict:
        """The settings as ``meta.json`` stores them (lists for tuples)."""
        d = asdict(self)
        d["deck"], d["prior"] = list(self.deck), list(self.prior)
        return d

    @classmethod
    def from_dict(cls, d: dict) -> AdaptiveSettings:
        """Settings from :meth:`to_dict`'s form."""
        d = dict(d)
        d["deck"], d["prior"] = tuple(d["deck"]), tuple(d["prior"])
        return cls(**d)

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


def stream_table(df: pd.DataFrame, decks: list[str] | None = None) -> pd.DataFrame:
    """Every unit's complete levels (see the module notes): its points and trials.

    Units: ``matchup`` (A < B: A's points over games g of both seatings, g below both counts),
    ``deck`` (A's points over the games g of A against every other deck in both seatings, g below
    the smallest of those counts), ``first_player`` with scope ``matchup`` (the first seat's points
    over a matchup's levels; a mirror's every game), ``deck`` (over a deck's levels) and ``overall``
    (over the levels of every ordered pair).

    Args:
        df: results, one row per game (each pair's games numbered from 0).
        decks: the pool (default: every deck in ``df``, sorted).

    Returns:
        DataFrame ``kind, scope, subject, deck, opponent, points, trials, levels, games`` (``games``:
        every game of the unit's pairs, complete levels or not), matchups (i < j), mirrors, decks,
        overall; decks sorted.
    """
    decks = sorted(decks) if decks is not None else deck_pool(df)
    d = len(decks)
    code = {x: i for i, x in enumerate(decks)}
    fi = df["first_deck"].map(code).to_numpy(np.int64)
    si = df["second_deck"].map(code).to_numpy(np.int64)
    g = df["game"].to_numpy(np.int64)
    pts = first_score(df)
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


def unit_status(units: pd.DataFrame, settings: AdaptiveSettings) -> pd.DataFrame:
    """Each unit's interval, e-value and stopping decision.

    A unit is ``flagged`` (the report flags it now: its ``1/E`` stays below alpha after the family's
    correction; or its e-value reaches ``m / alpha``, m the size of its family, so that it is
    flagged whatever the others do), ``inside`` (its 95% confidence sequence lies wholly inside the
    band), ``narrow`` (narrower than ``settings.precision`` with its estimate inside the band: the
    report's answer, "not flagged", would take more games than the user asked to change; or
    narrower than half of it, wherever the estimate lies) or ``active``. A unit whose estimate lies
    beyond its band but is not yet flagged gets the finer precision: more games may well flag it.
    Families: deck rates; matchup rates; first-player rates (overall, per deck, per matchup).

    Args:
        units: :func:`stream_table`.
        settings: the bands, level, precision and prior.

    Returns:
        ``units`` with ``rate, low, high, e_value, p_value, p_adjusted, status`` added (``rate``
        is the stream's mean, NaN without trials).
    """
    out = units.copy()
    out["rate"] = out["points"] / out["trials"].where(out["trials"] > 0)
    out["low"], out["high"] = confidence_sequence(out["points"], out["trials"], settings.alpha, settings.prior)
    out["e_value"] = np.nan
    out["p_adjusted"] = np.nan
    for kind in ("deck", "matchup", "first_player"):
        rows = out["kind"] == kind
        e = e_value_beyond(out.loc[rows, "points"], out.loc[rows, "trials"], settings.band(kind), settings.prior)
        out.loc[rows, "e_value"] = e
        out.loc[rows, "p_adjusted"] = adjust_p(np.minimum(1.0, 1.0 / e), settings.method)
    out["p_value"] = np.minimum(1.0, 1.0 / out["e_value"])
    size = out.groupby("kind")["kind"].transform("size")
    band_lo = out["kind"].map(lambda k: settings.band(k)[0])
    band_hi = out["kind"].map(lambda k: settings.band(k)[1])
    flagged = (out["p_adjusted"] < settings.alpha) | (out["e_value"] >= size / settings.alpha)
    inside = (out["low"] >= band_lo) & (out["high"] <= band_hi)
    looks_balanced = (out["rate"] >= band_lo) & (out["rate"] <= band_hi)  # else more games may well flag it
    width = out["high"] - out["low"]
    narrow = (width < settings.precision) & looks_balanced | (width < settings.precision / 2)
    out["status"] = np.select([flagged, inside, narrow], ["flagged", "inside", "narrow"], "active")
    return out


def adaptive_tables(df: pd.DataFrame, tables: dict, settings: AdaptiveSettings) -> dict:
    """The balance tables of an adaptive sweep: anytime-valid intervals and flags, per-opponent weights.

    ``decks``: the win rate is the average over opponents of the matchup rates (not pooled over
    unequal games), the interval is the deck stream's confidence sequence. ``matchups`` and
    ``first_player``: intervals are confidence sequences (``first_player``'s per-deck and overall
    rates are their streams' means). ``flags``: a unit is flagged when its corrected anytime-valid
    p-value ``1/E`` is below alpha (see the module notes). A ``units`` table holds every unit's
    stream and decision.

    Args:
        df: results of an adaptive sweep.
        tables: :func:`simkit.analysis.analyze`'s tables of ``df``.
        settings: the sweep's adaptive settings.

    Returns:
        a new dict of tables.
    """
    from simkit.analysis.flags import FLAG_COLUMNS, _deck_words, _matchup_words, _seat_words

    out = dict(tables)
    decks = deck_pool(df)
    units = unit_status(stream_table(df, decks), settings)
    out["units"] = units

    m = tables["matchups"].copy()
    pair = units[units["kind"] == "matchup"].set_index(["deck", "opponent"])
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
    fu = units[units["kind"] == "first_player"].set_index("subject")
    over = fp["scope"] == "overall"
    fu_over = units[(units["kind"] == "first_player") & (units["scope"] == "overall")].iloc[0]
    for col in ("low", "high"):
        fp[col] = fp["subject"].map(fu[col]) - 0.5
        fp.loc[over, col] = fu_over[col] - 0.5
    deck_scope = fp["scope"] == "deck"
    fp.loc[deck_scope, "first_rate"] = fp.loc[deck_scope, "subject"].map(fu["rate"])
    fp.loc[over, "first_rate"] = fu_over["rate"]
    fp["advantage"] = fp["first_rate"] - 0.5
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
        if kind == "matchup":  # name the pairing from the side that wins it
            win = value >= 0.5
            subject = np.where(win, u["deck"] + " vs " + u["opponent"], u["opponent"] + " vs " + u["deck"])
            value, low, high = (np.where(win, value, 1 - value), np.where(win, low, 1 - high),
                                np.where(win, high, 1 - low))
        t = pd.DataFrame({"kind": kind, "subject": list(subject), "value": value, "low": low, "high": high,
                          "games": u["games"].to_numpy(int), "band_low": lo_b, "band_high": hi_b,
                          "p_value": u["p_value"].to_numpy(), "p_adjusted": u["p_adjusted"].to_numpy()})
        t["message"] = [words[kind](r) + " (anytime-valid)" for r in t.itertuples()]
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
