"""How the games play, not only who wins: the experience figures of a results table, their intervals and flags.

A game that records the experience columns (:data:`simkit.games.EXPERIENCE_COLUMNS`, defined in
:mod:`simkit.games.kits.experience`) gives each game's lead changes, the winner's deepest deficit, the turn from
which the winner stayed ahead, the decisions taken and their mean legal actions, and the uncertainty of its
outcome. This module turns them, with the scenario's ``[experience]`` table (:class:`~simkit.scenario.
ExperienceSettings`), into the figures a designer reads, overall, by deck and by matchup, each with its 95%
interval (Wilson for shares, Student's t for means; lead changes, a count, never narrower than the exact Poisson
interval, so a sweep without any lead change still has an upper bound), and into flags:

========================  ==========================================================================================
figure                    what it is (:data:`FIGURES`)
========================  ==========================================================================================
``turns``                 mean length in the game's turns
``in_target``             share of games whose length lies inside ``target_turns`` (only when the scenario gives it)
``comebacks``             share of the games won whose winner was once behind by more than ``comeback``
``lead_changes``          mean times per game the side ahead changed
``decided_early``         share of the games won whose winner stayed ahead from ``early`` of the game's turns on
``draws``                 share of games drawn
``turn_limit``            share of games ended by the turn limit (the schema's ``cap_reason``)
``locks``                 share of games ended by a lock (the schema's ``lock_reasons``)
``choices``               mean legal actions per decision (Ludii's decision factor), over games with a decision
``uncertainty``           mean uncertainty of the outcome over a game, where a search bot estimated it
========================  ==========================================================================================

Flags (:data:`FLAG_KINDS`) follow the balance flags' discipline (:mod:`simkit.analysis.flags`): a subject is
flagged only when its estimate lies beyond its bar *and* an exact one-sided binomial test that the true share lies
beyond it stays significant after a correction within its family (Holm over the overall and per-deck tests,
Benjamini-Hochberg over the matchups, as :class:`~simkit.analysis.flags.FlagBands` says), so noise raises no flag.
``snowballing`` needs both of its tests (comebacks below their bar, decided early above its): the larger p-value
of the two is its test (an intersection-union test, valid at its level). ``too_long`` and ``too_short`` test
whether most games (more than half) last longer than the target's longest, or shorter than its shortest.

The public functions, stable for the report and for ``compare``, ``scan``, ``tune`` and ``explore``:
:func:`experience_figures` (every figure, by scope), :func:`experience_figure` (one named figure, one row per
subject: a scan's curve or a tune's objective), :func:`experience_estimate` (one figure of one row as an
:class:`~simkit.core.words.Estimate`), :func:`game_figures` (each game's values, for paired comparisons on shared
seeds), :func:`experience_flag_subjects` / :func:`experience_flags`, and :func:`experience_tables` (all of it for a
report, or the line saying why there is nothing).

A results table without the experience columns (a sweep made before the games recorded them, a game that
records none, imported games) has no figures: :func:`experience_missing` says why in one line, and
:func:`experience_tables` returns that line instead of tables; nothing raises.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

import numpy as np
import pandas as pd
from scipy import stats

from simkit.analysis.flags import FlagBands
from simkit.analysis.results import results_schema
from simkit.analysis.stats import adjust_p, wilson_interval
from simkit.core.words import Estimate, experience_flag_message
from simkit.games import EXPERIENCE_COLUMNS
from simkit.scenario import ExperienceSettings, experience_settings_from

__all__ = [
    "FIGURES", "FLAG_KINDS", "EXPERIENCE_FLAG_COLUMNS", "SCOPES", "experience_missing", "experience_settings_of",
    "game_figures", "experience_figures", "experience_figure", "experience_estimate", "experience_flag_subjects",
    "experience_flags", "experience_tables",
]

#: each figure: (words, ``share`` or ``mean``, what it is counted over: ``games``, ``won`` or ``present``)
FIGURES: dict[str, tuple[str, str, str]] = {
    "turns": ("mean length", "mean", "games"),
    "in_target": ("inside the target length", "share", "games"),
    "comebacks": ("comebacks", "share", "won"),
    "lead_changes": ("lead changes per game", "mean", "games"),
    "decided_early": ("decided early", "share", "won"),
    "draws": ("drawn", "share", "games"),
    "turn_limit": ("ended by the turn limit", "share", "games"),
    "locks": ("ended by a lock", "share", "games"),
    "choices": ("legal actions per decision", "mean", "present"),
    "uncertainty": ("uncertainty of the outcome", "mean", "present"),
}
#: the flags' kinds, in the order they are listed
FLAG_KINDS = ("snowballing", "decided_early", "too_long", "too_short", "drawish")
#: the scopes of :func:`experience_figures`, in order
SCOPES = ("overall", "deck", "matchup")
EXPERIENCE_FLAG_COLUMNS = ["kind", "scope", "subject", "value", "low", "high", "games", "bar", "p_value", "p_adjusted",
                           "message"]
_EXTRA = ("longer", "shorter")  # the per-game indicators beside the figures (the length flags' shares)


def experience_missing(results: pd.DataFrame) -> str | None:
    """Why ``results`` have no experience figures, in one line, or ``None`` when they have them.

    Results have them when every column of :data:`~simkit.games.EXPERIENCE_COLUMNS` is present (the game's schema
    declares ``experience`` and the sweep recorded it).
    """
    absent = [c for c in EXPERIENCE_COLUMNS if c not in results.columns]
    if not absent:
        return None
    meta = results.attrs.get("meta") or {}
    game = meta.get("game") or "the game"
    from simkit.real.store import is_real

    if is_real(meta):  # imported games between people: their records hold the outcome, not the lead turn by turn
        return ("How the games play is not measured: these are imported real games, whose records hold how each game "
                "ended, not how the lead went turn by turn (lead changes, comebacks, the deciding turn).")
    if results_schema(results).experience:
        return (f"How the games play is not measured: the results lack the column(s) {', '.join(absent)} that "
                f"{game} records (a sweep made before it recorded them): sweep again to measure it.")
    return (f"How the games play is not measured: these results hold no experience figures (lead changes, "
            f"comebacks, the deciding turn): {game} did not record them when they were played (an older sweep, or "
            "imported games); a sweep with a game that records them gives the page.")


def experience_settings_of(results: pd.DataFrame) -> ExperienceSettings:
    """The ``[experience]`` table of the scenario a results table was swept from (kept in ``meta["scenario_text"]``);
    simkit's defaults when the folder keeps no scenario or its table cannot be read."""
    meta = results.attrs.get("meta") or {}
    text = meta.get("scenario_text")
    if not text:
        return ExperienceSettings()
    try:
        data = json.loads(text)
        return experience_settings_from(data, str(meta.get("scenario_path") or "results"))
    except (ValueError, TypeError):  # an old or foreign scenario text: the defaults, as for none
        return ExperienceSettings()


def game_figures(results: pd.DataFrame, settings: ExperienceSettings | None = None) -> pd.DataFrame:
    """Each game's experience figures, one row per game of ``results`` (same index): the values that
    :func:`experience_figures` averages, for a scan or tune objective that needs them game by game.

    Args:
        results: the results, with the experience columns.
        settings: the ``[experience]`` table (default: :func:`experience_settings_of`).

    Returns:
        DataFrame with the figures of :data:`FIGURES` (a share's figure is 1 or 0 for each game it counts, NaN
        for the games it does not: ``comebacks`` and ``decided_early`` on draws, ``in_target`` without a target,
        ``choices`` without a decision, ``uncertainty`` without an estimate) and ``longer``/``shorter`` (the game
        lasted longer than the target's longest, shorter than its shortest; NaN without a target).

    Raises:
        ValueError: the results lack the experience columns (:func:`experience_missing`).
    """
    why = experience_missing(results)
    if why is not None:
        raise ValueError(why)
    settings = settings or experience_settings_of(results)
    schema = results_schema(results)
    turns = results["turns"].to_numpy(float)
    won = (results["winner"] != "draw").to_numpy()
    deficit = results["winner_deficit"].to_numpy(float)
    decided = results["decided_turn"].to_numpy(float)
    reason = results["end_reason"].astype(str).to_numpy()
    out = pd.DataFrame(index=results.index)
    out["turns"] = turns
    nan = np.full(len(results), np.nan)
    if settings.target_turns is not None:
        a, b = settings.target_turns
        out["in_target"] = ((turns >= a) & (turns <= b)).astype(float)
        out["longer"] = (turns > b).astype(float)
        out["shorter"] = (turns < a).astype(float)
    else:
        out["in_target"], out["longer"], out["shorter"] = nan, nan, nan
    out["comebacks"] = np.where(won, (deficit > settings.comeback).astype(float), np.nan)
    out["lead_changes"] = results["lead_changes"].to_numpy(float)
    out["decided_early"] = np.where(won, (decided <= settings.early * turns).astype(float), np.nan)
    out["draws"] = (~won).astype(float)
    out["turn_limit"] = (reason == schema.cap_reason).astype(float) if schema.cap_reason else 0.0
    out["locks"] = np.isin(reason, list(schema.lock_reasons)).astype(float)
    decisions = results["decisions"].to_numpy(float)
    out["choices"] = np.where(decisions > 0, results["choices"].to_numpy(float), np.nan)
    out["uncertainty"] = results["uncertainty"].to_numpy(float)
    return out


def _t_interval(n: np.ndarray, total: np.ndarray, squares: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Mean and 95% Student-t interval from counts, sums and sums of squares (NaN interval below 2 values; a
    zero-width one when every value is equal)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        mean = total / n
        var = np.maximum(squares - n * mean * mean, 0.0) / (n - 1)
        half = stats.t.ppf(0.975, np.maximum(n - 1, 1)) * np.sqrt(var / n)
    half = np.where(n >= 2, half, np.nan)
    return mean, mean - half, mean + half


def _poisson_interval(n: np.ndarray, total: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Exact (Garwood) 95% interval of a Poisson mean from ``total`` counts over ``n`` games (NaN without games)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        low = np.where(total > 0, stats.chi2.ppf(0.025, 2 * total) / (2 * n), 0.0)
        high = stats.chi2.ppf(0.975, 2 * total + 2) / (2 * n)
    return np.where(n > 0, low, np.nan), np.where(n > 0, high, np.nan)


def _summarise(frame: pd.DataFrame, keys: list[str]) -> pd.DataFrame:
    """Every figure of ``frame`` (per-game figures with ``keys`` columns) per group: value, 95% interval, and the
    games it is counted over (``<figure>_n``)."""
    columns = [*FIGURES, *_EXTRA]
    present = frame[columns].notna()
    values = frame[columns].fillna(0.0)
    grouped = pd.concat([values, present.add_suffix("_n"), (values ** 2).add_suffix("_sq"), frame[keys]], axis=1) \
        .groupby(keys, sort=True, observed=True)
    sums = grouped.sum()
    out = pd.DataFrame(index=sums.index)
    out["games"] = grouped.size()
    out["won"] = sums["comebacks_n"].astype(int)
    for name in columns:
        n = sums[f"{name}_n"].to_numpy(float)
        total = sums[name].to_numpy(float)
        kind = FIGURES[name][1] if name in FIGURES else "share"
        if kind == "share":
            with np.errstate(invalid="ignore", divide="ignore"):
                value = total / n
            low, high = wilson_interval(total, n)
            value = np.where(n > 0, value, np.nan)
        else:
            value, low, high = _t_interval(n, total, sums[f"{name}_sq"].to_numpy(float))
            if name == "lead_changes":  # a count: never narrower than its exact Poisson interval (all zeros included)
                p_low, p_high = _poisson_interval(n, total)
                low, high = np.fmin(low, p_low), np.fmax(high, p_high)
        out[name], out[f"{name}_low"], out[f"{name}_high"] = value, low, high
        out[f"{name}_n"] = n.astype(int)
    return out.reset_index()


def experience_figures(results: pd.DataFrame, settings: ExperienceSettings | None = None,
                       by: str | None = None) -> pd.DataFrame:
    """The experience figures of ``results`` with their 95% intervals, overall, by deck or by matchup.

    Args:
        results: the results, one row per game, with the experience columns.
        settings: the ``[experience]`` table (default: :func:`experience_settings_of`).
        by: ``None`` or ``"overall"`` (one row, subject ``all games``), ``"deck"`` (one row per deck: the games it
            played in either seat, a mirror counted once), ``"matchup"`` (one row per pairing of two decks,
            ``"A vs B"`` with the names in order, both seatings together, mirrors included), or ``"all"`` (the
            three, in that order).

    Returns:
        DataFrame ``scope, subject, games, won`` (games not drawn), then for every figure of :data:`FIGURES` and
        for ``longer``/``shorter``: ``<figure>``, ``<figure>_low``, ``<figure>_high`` (95%: Wilson for a share,
        Student's t for a mean; NaN where it has no game) and ``<figure>_n`` (the games it is counted over).

    Raises:
        ValueError: the results lack the experience columns, or ``by`` is not one of those.
    """
    if by == "all":
        return pd.concat([experience_figures(results, settings, s) for s in SCOPES], ignore_index=True)
    scope = by or "overall"
    if scope not in SCOPES:
        raise ValueError(f"by must be one of None, {', '.join(SCOPES)} or 'all', got {by!r}")
    g = game_figures(results, settings)
    first = results["first_deck"].astype(str).to_numpy()
    second = results["second_deck"].astype(str).to_numpy()
    if scope == "overall":
        frame = g.assign(subject="all games")
    elif scope == "deck":
        other = second != first
        frame = pd.concat([g.assign(subject=first), g[other].assign(subject=second[other])], ignore_index=True)
    else:
        lo, hi = np.where(first <= second, first, second), np.where(first <= second, second, first)
        frame = g.assign(subject=[f"{a} vs {b}" for a, b in zip(lo, hi)])
    out = _summarise(frame, ["subject"])
    out.insert(0, "scope", scope)
    return out


def experience_figure(results: pd.DataFrame, name: str, settings: ExperienceSettings | None = None,
                      by: str | None = None) -> pd.DataFrame:
    """One named figure, one row per subject: what a scan plots against a rule number or a tune aims at.

    Args:
        results: the results, with the experience columns.
        name: a figure of :data:`FIGURES` (or ``longer``/``shorter``: the shares of games beyond the target).
        settings: the ``[experience]`` table (default: :func:`experience_settings_of`).
        by: the scope, as :func:`experience_figures` takes it (``None``: one row, all games).

    Returns:
        DataFrame ``scope, subject, value, low, high, games`` (``games``: the games the figure is counted over;
        ``value`` NaN where it has none).

    Raises:
        KeyError: ``name`` is not a figure; ValueError: the results lack the experience columns.
    """
    if name not in FIGURES and name not in _EXTRA:
        raise KeyError(f"no experience figure {name!r} (figures: {', '.join([*FIGURES, *_EXTRA])})")
    f = experience_figures(results, settings, by)
    return pd.DataFrame({"scope": f["scope"], "subject": f["subject"], "value": f[name], "low": f[f"{name}_low"],
                         "high": f[f"{name}_high"], "games": f[f"{name}_n"]})


def experience_estimate(figures: pd.DataFrame | Mapping, name: str) -> Estimate:
    """One figure of one row of :func:`experience_figures` (a row, or a one-row table) as an
    :class:`~simkit.core.words.Estimate` with its interval and games: a scan's or a tune's objective reads it.

    Raises:
        KeyError: ``name`` is not a figure of :data:`FIGURES` (or ``longer``/``shorter``).
    """
    if name not in FIGURES and name not in _EXTRA:
        raise KeyError(f"no experience figure {name!r} (figures: {', '.join([*FIGURES, *_EXTRA])})")
    row = figures.iloc[0] if isinstance(figures, pd.DataFrame) else figures
    return Estimate(float(row[name]), float(row[f"{name}_low"]), float(row[f"{name}_high"]), int(row[f"{name}_n"]),
                    str(row.get("subject", "")))


def _beyond(k: np.ndarray, n: np.ndarray, bar: float, above: bool) -> np.ndarray:
    """Exact one-sided binomial p-value that the true share lies above (below) ``bar`` given ``k`` of ``n``."""
    k, n = np.asarray(k, float), np.asarray(n, float)
    p = stats.binom.sf(k - 1, n, bar) if above else stats.binom.cdf(k, n, bar)
    return np.where(n > 0, p, np.nan)


def experience_flag_subjects(figures: pd.DataFrame, settings: ExperienceSettings,
                             bands: FlagBands | None = None, turn_words: str = "turn") -> pd.DataFrame:
    """Every subject an experience flag could name, its figure, bar and test, and whether it is flagged.

    Args:
        figures: :func:`experience_figures` (``by="all"``, or any scopes).
        settings: the ``[experience]`` table (its bars and target range).
        bands: the significance level and corrections (``alpha``; ``method`` over the overall and per-deck tests,
            ``matchup_method`` over the matchups; default :class:`~simkit.analysis.flags.FlagBands`).
        turn_words: what the game calls a turn, for the messages.

    Returns:
        DataFrame :data:`EXPERIENCE_FLAG_COLUMNS` plus ``outside`` (the estimate lies beyond the bar: for snowballing,
        comebacks below theirs and decided early above its) and ``flagged`` (outside and significant after the
        correction), one row per (kind, subject) with games to test:
        ``snowballing`` (``value``: the comeback share, below ``bar``; its test also needs decided early above
        ``settings.decided_early``), ``decided_early``, ``too_long``/``too_short`` (``value``: the share of games
        longer than the target's longest, shorter than its shortest; ``bar`` 1/2; only with a target) and
        ``drawish``. Sorted by kind, scope, then how far beyond the bar.
    """
    bands = bands or FlagBands()
    f = figures.reset_index(drop=True)
    rows = []

    def add(kind, value, low, high, n, bar, p, outside, message):
        rows.append(pd.DataFrame({
            "kind": kind, "scope": f["scope"], "subject": f["subject"], "value": value, "low": low, "high": high,
            "games": n.astype(int), "bar": bar, "p_value": p, "outside": outside, "message": message}))

    def count(name):
        return np.rint(f[name].fillna(0).to_numpy(float) * f[f"{name}_n"].to_numpy(float)), f[f"{name}_n"].to_numpy()

    k_back, n_won = count("comebacks")
    k_early, _ = count("decided_early")
    p_back = _beyond(k_back, n_won, settings.comebacks, above=False)
    p_early = _beyond(k_early, n_won, settings.decided_early, above=True)
    back = f["comebacks"].to_numpy(float)
    early = f["decided_early"].to_numpy(float)
    est = [Estimate(*r) for r in zip(back, f["comebacks_low"], f["comebacks_high"], n_won.astype(int), f["subject"])]
    est_early = [Estimate(*r) for r in zip(early, f["decided_early_low"], f["decided_early_high"], n_won.astype(int),
                                            f["subject"])]
    add("snowballing", back, f["comebacks_low"], f["comebacks_high"], n_won, settings.comebacks,
        np.fmax(p_back, p_early), (back < settings.comebacks) & (early > settings.decided_early),
        [experience_flag_message("snowballing", e, settings.comebacks, e2, settings.decided_early)
         for e, e2 in zip(est, est_early)])
    add("decided_early", early, f["decided_early_low"], f["decided_early_high"], n_won, settings.decided_early,
        p_early, early > settings.decided_early,
        [experience_flag_message("decided_early", e, settings.decided_early) for e in est_early])
    if settings.target_turns is not None:
        a, b = settings.target_turns
        for kind, name, edge in (("too_long", "longer", b), ("too_short", "shorter", a)):
            k, n = count(name)
            value = f[name].to_numpy(float)
            e = [Estimate(*r) for r in zip(value, f[f"{name}_low"], f[f"{name}_high"], n.astype(int), f["subject"])]
            add(kind, value, f[f"{name}_low"], f[f"{name}_high"], n, 0.5, _beyond(k, n, 0.5, above=True),
                value > 0.5, [experience_flag_message(kind, x, 0.5, edge=edge, unit=turn_words) for x in e])
    k_draw, n_games = count("draws")
    draws = f["draws"].to_numpy(float)
    e = [Estimate(*r) for r in zip(draws, f["draws_low"], f["draws_high"], n_games.astype(int), f["subject"])]
    add("drawish", draws, f["draws_low"], f["draws_high"], n_games, settings.draws,
        _beyond(k_draw, n_games, settings.draws, above=True), draws > settings.draws,
        [experience_flag_message("drawish", x, settings.draws) for x in e])
    out = pd.concat(rows, ignore_index=True)
    out = out[out["games"] > 0].reset_index(drop=True)
    out["p_adjusted"] = np.nan
    for kind in FLAG_KINDS:
        for scopes, method in ((("overall", "deck"), bands.method), (("matchup",), bands.matchup_method)):
            part = (out["kind"] == kind) & out["scope"].isin(scopes)
            if part.any():
                out.loc[part, "p_adjusted"] = adjust_p(out.loc[part, "p_value"].to_numpy(float), method)
    out["flagged"] = out["outside"] & (out["p_adjusted"] < bands.alpha)
    out["excess"] = np.abs(out["value"] - out["bar"])
    out["k"] = out["kind"].map({k: i for i, k in enumerate(FLAG_KINDS)})
    out["s"] = out["scope"].map({k: i for i, k in enumerate(SCOPES)})
    out = out.sort_values(["k", "s", "excess"], ascending=[True, True, False], ignore_index=True)
    return out[[*EXPERIENCE_FLAG_COLUMNS, "outside", "flagged"]]


def experience_flags(figures: pd.DataFrame, settings: ExperienceSettings, bands: FlagBands | None = None,
                     turn_words: str = "turn") -> pd.DataFrame:
    """The experience flags: the rows of :func:`experience_flag_subjects` beyond their bar and significant after
    correction (columns :data:`EXPERIENCE_FLAG_COLUMNS`)."""
    subjects = experience_flag_subjects(figures, settings, bands, turn_words)
    return subjects[subjects["flagged"]].reset_index(drop=True)[EXPERIENCE_FLAG_COLUMNS]


def experience_tables(results: pd.DataFrame, bands: FlagBands | None = None,
                      settings: ExperienceSettings | None = None) -> dict:
    """Everything the "How the games play" page and its first-page sentence need, or why there is nothing.

    Args:
        results: the results (the games played to their end).
        bands: significance level and corrections of the flags (default :class:`~simkit.analysis.flags.FlagBands`).
        settings: the ``[experience]`` table (default: :func:`experience_settings_of`).

    Returns:
        ``{"missing": None, "settings", "figures" (every scope, :func:`experience_figures`), "subjects"
        (:func:`experience_flag_subjects`), "flags" (:func:`experience_flags`), "schema"}``, or
        ``{"missing": "<one line saying why>"}`` when the results lack the experience columns.
    """
    why = experience_missing(results)
    if why is not None:
        return {"missing": why}
    settings = settings or experience_settings_of(results)
    schema = results_schema(results)
    figures = experience_figures(results, settings, by="all")
    subjects = experience_flag_subjects(figures, settings, bands, schema.turn_words)
    flags = subjects[subjects["flagged"]].reset_index(drop=True)[EXPERIENCE_FLAG_COLUMNS]
    return {"missing": None, "settings": settings, "figures": figures, "subjects": subjects, "flags": flags,
            "schema": schema}

