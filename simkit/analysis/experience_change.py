"""What a patch did to how the games play: paired changes of the experience figures between two sweeps.

``simkit compare`` pairs the games both sweeps played (same decks, seats, game number and bots:
:func:`simkit.analysis.paired.pair_results`). Each game's experience figures
(:func:`simkit.analysis.experience.game_figures`: its length, whether it was a comeback, its lead changes, whether it
was decided early, drawn, ended by the turn limit or a lock, its decision factor) are differenced game by game, and
each figure's mean change gets a paired t interval and test. The figures form one family: their p-values are
corrected together (Holm, or the comparison's :class:`~simkit.analysis.flags.FlagBands` method), and the interval a
sentence quotes is the one at the corrected level (:func:`simkit.analysis.paired.corrected_interval`), so a change
called significant always has an interval that misses 0.

A share counted over games won (comebacks, decided early) pairs only the games both sweeps' games were won; a
figure counted where present (decision factor, uncertainty) only the games where both have it.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simkit.analysis.experience import FIGURES, experience_missing, experience_settings_of, game_figures
from simkit.analysis.flags import FlagBands
from simkit.analysis.forfeits import ordinary_games
from simkit.analysis.paired import KEYS, corrected_interval
from simkit.analysis.stats import adjust_p, paired_delta

__all__ = ["EXPERIENCE_DELTA_COLUMNS", "experience_deltas"]

EXPERIENCE_DELTA_COLUMNS = ["figure", "words", "kind", "games", "base", "patch", "delta", "low", "high", "p_value",
                            "p_adjusted", "significant", "adj_low", "adj_high"]


def experience_deltas(base: pd.DataFrame, patch: pd.DataFrame, bands: FlagBands | None = None) -> pd.DataFrame:
    """The paired change of every experience figure from ``base`` to ``patch``.

    Args:
        base, patch: the two sweeps' results (the games both played are paired on their decks, seats, game number
            and, when the rows name them, bots).
        bands: the significance level and correction (default :class:`FlagBands`: level 0.05, Holm).

    Returns:
        One row per figure of :data:`simkit.analysis.experience.FIGURES` that both sweeps measured on at least two
        paired games and that is not 0 in every game of both (a lock share where neither rule has a lock):
        ``figure, words, kind`` (``share`` or ``mean``), ``games`` (pairs counted), ``base, patch``
        (the figure on those pairs), ``delta`` (patch - base), ``low, high`` (95% paired interval), ``p_value``,
        ``p_adjusted`` (corrected over the figures), ``significant``, ``adj_low, adj_high`` (the interval at the
        corrected level). When either sweep lacks the experience columns the table is empty and
        ``attrs["missing"]`` says why in one line.
    """
    bands = bands or FlagBands()
    empty = pd.DataFrame(columns=EXPERIENCE_DELTA_COLUMNS)
    for name, df in (("base", base), ("patch", patch)):
        why = experience_missing(df)
        if why is not None:
            empty.attrs["missing"] = f"the {name} sweep: {why}"
            return empty
    keys = KEYS + [c for c in ("first_bot", "second_bot") if c in base.columns and c in patch.columns]
    b, p = ordinary_games(base), ordinary_games(patch)
    fb = pd.concat([b[keys].reset_index(drop=True),
                    game_figures(b, experience_settings_of(base)).reset_index(drop=True)], axis=1)
    fp = pd.concat([p[keys].reset_index(drop=True),
                    game_figures(p, experience_settings_of(base)).reset_index(drop=True)], axis=1)
    both = fb.merge(fp, on=keys, suffixes=("_base", "_patch"))  # the base's bars judge both sweeps' games
    rows = []
    for figure, (words, kind, _) in FIGURES.items():
        x, y = both[f"{figure}_base"].to_numpy(float), both[f"{figure}_patch"].to_numpy(float)
        keep = np.isfinite(x) & np.isfinite(y)
        n = int(keep.sum())
        if n < 2 or not (x[keep].any() or y[keep].any()):  # too few pairs, or it never happened in either (a lock
            continue                                        # in a game whose rules have none)
        d = y[keep] - x[keep]
        est = paired_delta(n, d.sum(), (d * d).sum())
        rows.append({"figure": figure, "words": words, "kind": kind, "games": n, "base": float(x[keep].mean()),
                     "patch": float(y[keep].mean()), **{k: float(v) for k, v in est.items()}})
    if not rows:
        empty.attrs["missing"] = "the two sweeps share fewer than two paired games with experience figures"
        return empty
    t = pd.DataFrame(rows)
    t["p_adjusted"] = adjust_p(t["p_value"].to_numpy(float), bands.method)
    t["significant"] = t["p_adjusted"] < bands.alpha
    t = corrected_interval(t, bands.alpha)
    return t[EXPERIENCE_DELTA_COLUMNS]
