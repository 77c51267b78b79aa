"""Does the balance settle as the players get better? Convergence and skill depth along a panel's ladder.

A panel sweep plays every pairing under each bot of its panel, the same bot in both seats. When the
panel holds utility personalities and search rungs (a ``[bots.<name>]`` table with a ``policy``),
listed weakest first as a ladder is (``--panel balanced,search-1,search-2``), two questions follow:

- **convergence with skill**: do the two strongest rungs rank the decks alike? When the lower end
  of their rank agreement's interval reaches :data:`CONVERGED` the ranking has settled; otherwise a
  stronger player could still move it ("this game's balance still depends on skill");
- **skill depth**: which decks gain (or lose) when both seats are played by the top rung instead of
  the weakest utility personality, each gain with a bootstrap interval over games.

Both read the panel's order and its bots' tables from the sweep's metadata, never a game's code.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
from scipy.stats import norm

from simkit.analysis.robustness import deck_points, panel_parts, rank_agreement
from simkit.scenario import Field, is_search_bot

__all__ = ["CONVERGED", "ladder_of", "convergence", "skill_depth", "skill_tables"]

#: the lower end of the top rungs' Spearman interval at which a ranking counts as converged
CONVERGED = 0.9


def ladder_of(meta: dict) -> dict[str, list[str]]:
    """The panel's bots in panel order (weakest first), split into search rungs and utility personalities.

    Args:
        meta: a sweep's metadata (``panel`` and the merged ``scenario_text``).

    Returns:
        ``{"panel": [...], "search": [...], "utility": [...]}``, each in panel order; ``random`` is in
        neither list.
    """
    panel = list(meta.get("panel") or [])
    try:
        data = json.loads(meta.get("scenario_text") or "{}")
    except ValueError:
        data = {}
    bots = Field(str(meta.get("scenario_path") or "scenario"), data.get("bots") or {}, "bots")
    search, utility = [], []
    for name in panel:
        if not isinstance(bots.data.get(name), dict):
            continue  # random, or a bot the merged scenario does not name
        (search if is_search_bot(bots, name) else utility).append(name)
    return {"panel": panel, "search": search, "utility": utility}


def convergence(agreement: pd.DataFrame, rungs: list[str], threshold: float = CONVERGED) -> dict | None:
    """Whether the two strongest search rungs rank the decks alike, in numbers and in a sentence.

    Args:
        agreement: :func:`simkit.analysis.robustness.rank_agreement` of the panel.
        rungs: the search rungs, weakest first (at least two for an answer).
        threshold: the lower end of the Spearman interval that counts as converged.

    Returns:
        ``{"lower_rung", "top_rung", "spearman", "spearman_low", "spearman_high", "converged", "sentence"}``,
        or ``None`` with fewer than two rungs.
    """
    if len(rungs) < 2:
        return None
    a, b = rungs[-2], rungs[-1]
    row = agreement[((agreement["bot_a"] == a) & (agreement["bot_b"] == b))
                    | ((agreement["bot_a"] == b) & (agreement["bot_b"] == a))]
    rho, lo, hi = (float(row[c].iloc[0]) if len(row) else float("nan")
                   for c in ("spearman", "spearman_low", "spearman_high"))
    converged = bool(np.isfinite(lo) and lo >= threshold)
    if not np.isfinite(rho):
        sentence = (f"The top two rungs {a} and {b} cannot be compared (too few decks or no spread in their "
                    "win rates): whether the balance still depends on skill is not known.")
    elif not np.isfinite(lo):
        sentence = (f"The top two rungs {a} and {b} agree at Spearman {rho:.2f} with no interval (the report ran "
                    "without bootstrap): whether the ranking has converged is not known.")
    elif converged:
        sentence = (f"Converged with skill: the top two rungs {a} and {b} rank the decks alike, Spearman {rho:.2f} "
                    f"(95% CI {lo:.2f}-{hi:.2f}, lower end at least {threshold:.2f}); a stronger player is unlikely "
                    "to change the ranking much.")
    elif rho >= threshold:
        sentence = (f"Not yet shown to converge: the top two rungs {a} and {b} agree at Spearman {rho:.2f} but the "
                    f"95% CI {lo:.2f}-{hi:.2f} reaches below {threshold:.2f}; more games per pairing are needed to "
                    "say whether this game's balance still depends on skill.")
    else:
        sentence = (f"This game's balance still depends on skill: the top two rungs {a} and {b} agree at Spearman "
                    f"{rho:.2f} (95% CI {lo:.2f}-{hi:.2f}), the lower end below {threshold:.2f}; a stronger player "
                    "could still move the ranking.")
    return {"lower_rung": a, "top_rung": b, "spearman": rho, "spearman_low": lo, "spearman_high": hi,
            "converged": converged, "sentence": sentence}


def skill_depth(df: pd.DataFrame, weakest: str, top: str, bootstrap: int = 200, seed: int = 0,
                level: float = 0.95) -> pd.DataFrame:
    """Each deck's win-rate gain from the weakest rung to the top rung, with a bootstrap interval.

    Under each bot a deck's rate is its mean matchup rate against the pool (non-mirror games, both
    seats, both seats played by that bot). The intervals are simultaneous over the decks (Bonferroni:
    each at ``1 - (1 - level) / decks``), normal intervals from a Poisson bootstrap over games, each
    bot's games resampled independently; so at ``level`` 0.95 all of them hold together 95% of the
    time, and a ``reading`` of "within noise" means the interval holds 0.

    Args:
        df: results of a panel sweep holding both bots.
        weakest: the bot of the lower end (the weakest utility personality).
        top: the top rung.
        bootstrap: resamples (0: no intervals).
        seed: the resampling seed.
        level: the intervals' joint coverage.

    Returns:
        DataFrame ``deck, rate_<weakest>, rate_<top>, gain, gain_low, gain_high, reading`` (reading:
        ``rewards skill``, ``loses with skill`` or ``within noise``), the largest gain first.

    Raises:
        ValueError: a bot that played no panel games in ``df``.
    """
    parts = panel_parts(df)
    for b in (weakest, top):
        if b not in parts:
            raise ValueError(f"skill depth needs panel games of {b}; the panel holds {', '.join(parts) or 'none'}")
    decks = sorted(set(df["first_deck"]) | set(df["second_deck"]))
    low_rate, top_rate = deck_points(parts[weakest], decks), deck_points(parts[top], decks)
    gain = top_rate - low_rate
    rng = np.random.default_rng(seed)
    reps = np.array([deck_points(parts[top], decks, rng.poisson(1.0, len(parts[top])).astype(float))
                     - deck_points(parts[weakest], decks, rng.poisson(1.0, len(parts[weakest])).astype(float))
                     for _ in range(bootstrap)]).reshape(bootstrap, len(decks))
    if bootstrap > 1:
        z = norm.ppf(1 - (1 - level) / (2 * len(decks)))  # simultaneous over the decks (Bonferroni)
        with np.errstate(all="ignore"):
            sd = np.nanstd(reps, axis=0, ddof=1)
        lo, hi = gain - z * sd, gain + z * sd
    else:
        lo = hi = np.full(len(decks), np.nan)
    reading = np.where(lo > 0, "rewards skill", np.where(hi < 0, "loses with skill", "within noise"))
    out = pd.DataFrame({"deck": decks, f"rate_{weakest}": low_rate, f"rate_{top}": top_rate, "gain": gain,
                        "gain_low": lo, "gain_high": hi, "reading": reading})
    return out.sort_values("gain", ascending=False, kind="stable", ignore_index=True)


def skill_tables(df: pd.DataFrame, agreement: pd.DataFrame | None = None, bootstrap: int = 200,
                 seed: int = 0) -> dict | None:
    """The convergence sentence and the skill-depth table of a panel sweep, or ``None`` without a ladder.

    A ladder needs a search rung and a utility personality in the panel; convergence needs two rungs.

    Args:
        df: results of a panel sweep (its ``attrs["meta"]`` names the panel and its bots).
        agreement: the panel's :func:`~simkit.analysis.robustness.rank_agreement` (computed when ``None``).
        bootstrap: resamples of the intervals.
        seed: the resampling seed.

    Returns:
        ``{"ladder": ladder_of(meta), "convergence": convergence(...) or None, "depth": skill_depth(...),
        "weakest": bot, "top": bot}``.
    """
    lad = ladder_of(df.attrs.get("meta") or {})
    played = set(panel_parts(df))
    search = [b for b in lad["search"] if b in played]
    utility = [b for b in lad["utility"] if b in played]
    if not search or not utility:
        return None
    if agreement is None and len(search) >= 2:
        agreement = rank_agreement(df, bootstrap=bootstrap, seed=seed)
    conv = convergence(agreement, search) if len(search) >= 2 else None
    weakest, top = utility[0], search[-1]
    return {"ladder": {**lad, "search": search, "utility": utility}, "convergence": conv,
            "depth": skill_depth(df, weakest, top, bootstrap=bootstrap, seed=seed), "weakest": weakest, "top": top}
