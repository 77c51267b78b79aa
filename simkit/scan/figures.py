"""The figures a scan can follow, measured on one value's games and on bootstrap resamples of them.

Three figures are built in, each read straight from the results' core columns so they hold for
every game:

- ``first_seat``: the first seat's score rate (a win 1, a draw 1/2), with a Wilson 95% interval;
  its target is 1/2;
- ``spread``: the standard deviation of the deck win rates (each deck's mean points over its
  non-mirror games, both seats), the number ``simkit tune`` minimises (:func:`simkit.tune.deck_rates`);
- ``length``: the mean number of turns.

Any numeric column of a report table is a figure too, ``TABLE.COLUMN`` (the tables of
:func:`simkit.analysis.analyze`: ``first_player.advantage``, ``game_shape.draw_share``,
``decks.win_rate@HolyLight:Archer,Priest,Swordsman``). The row is named after ``@``: a value of the
table's label column (its first text column: ``subject``, ``deck``, ``card``, ``end_reason``,
``name``...), or ``COLUMN=VALUE`` pairs joined by ``&`` (``matchups.win_rate@deck=A&opponent=B``).
Without ``@`` a one-row table gives its row and a table with an aggregate row (``overall``,
``all``, ``all games``) gives that one; anything else must name its row.

How the games play is a table too, ``experience.FIGURE[@ROW]`` (:func:`simkit.analysis.experience.
experience_figures`: ``experience.comebacks``, ``experience.turns``, ``experience.decided_early``,
``experience.lead_changes``, ``experience.in_target``, ``experience.draws``, ``experience.locks``...; overall without
``@``, a deck or ``A vs B`` after it), for a game that records the experience columns.

Intervals come from a bootstrap over games (percentiles of the figure recomputed on resampled
games), except the first seat's, which is Wilson's. A resample on which a table cannot be computed
(it lost every game of a pairing the metagame needs) gives no figure and is left out; the table of
:func:`simkit.scan.run.read_scan` says how many were. The resamples are *paired* when every value
played the very same games (same pairings, same seeds): one draw of game indices serves every
value, so a replica is a whole resampled curve and the crossing of each replica can be read.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simkit.analysis import (
    TABLES,
    balance_flags,
    card_pair_synergy,
    card_win_rates,
    deck_strength,
    first_player_advantage,
    game_shape,
    matchup_matrix,
    metagame,
    side_numbers,
    turn_counts,
    wilson_interval,
)
from simkit.analysis.results import deck_games, first_score

__all__ = ["BUILT_IN", "GAME_KEY", "TABLE_FUNCTIONS", "Figure", "bootstrap_curve", "check_figure", "figure_point",
           "figure_replicas", "paired", "parse_figure", "percentile_interval", "resample_counts",
           "row_hint", "table_value"]

#: the columns that name one game of a sweep: the same key under two values is the same game (same seed)
GAME_KEY = ("first_deck", "second_deck", "game")

#: built-in figures: name -> (label, target, is a rate)
BUILT_IN = {
    "first_seat": ("first-seat win rate", 0.5, True),
    "spread": ("deck spread (std of deck win rates)", None, True),
    "length": ("game length (mean turns)", None, False),
}

#: the report's tables a figure can read, each recomputed from one value's games
TABLE_FUNCTIONS: dict[str, Callable[[pd.DataFrame], pd.DataFrame]] = {
    "decks": lambda df: deck_strength(df, bootstrap=0),
    "matchups": matchup_matrix,
    "first_player": first_player_advantage,
    "cards": card_win_rates,
    "card_pairs": card_pair_synergy,
    "metagame": lambda df: metagame(matchup_matrix(df)),
    "game_shape": game_shape,
    "turns": turn_counts,
    "side_numbers": side_numbers,
    "flags": balance_flags,
    "experience": lambda df: _experience_table(df),
}

_AGGREGATE = ("overall", "all", "all games")
#: the experience figures that are shares (:data:`simkit.analysis.experience.FIGURES`)
_EXPERIENCE_SHARES = ("in_target", "comebacks", "decided_early", "draws", "turn_limit", "locks", "longer", "shorter")


def _experience_table(df: pd.DataFrame) -> pd.DataFrame:
    """How the games play overall, by deck and by matchup (:func:`simkit.analysis.experience.experience_figures`)."""
    from simkit.analysis.experience import experience_figures

    return experience_figures(df, by="all")

#: table columns that are shares (shown in percent) and the columns with a natural target
_RATES = ("win_rate", "first_rate", "advantage", "share", "draw_share", "weight", "vs_mix", "low", "high", "expected",
          "synergy", "synergy_low", "synergy_high")
_TARGETS = {"win_rate": 0.5, "first_rate": 0.5, "advantage": 0.0}
_LABELS = ("subject", "deck", "card", "end_reason", "name", "kind", "card_a", "turns")


@dataclass(frozen=True)
class Figure:
    """What a scan measures at each value.

    Attributes:
        name: the spec as given (``first_seat``, ``spread``, ``length``, ``TABLE.COLUMN[@ROW]``).
        label: the words for it on the page.
        target: its default target (``None``: a crossing is read only when a target is given): 1/2 for
            the first seat and a ``win_rate`` or ``first_rate`` column, 0 for an ``advantage`` column.
        rate: it is a share (shown in percent).
        table: for a table column, the table (``""`` for a built-in figure).
        column: for a table column, the column.
        row: for a table column, the row spec after ``@`` (``""``: the only or the aggregate row).
    """

    name: str
    label: str
    target: float | None
    rate: bool
    table: str = ""
    column: str = ""
    row: str = ""

    def fmt(self, v: float) -> str:
        """``v`` as the page writes it (a rate in percent)."""
        if v is None or not np.isfinite(v):
            return "n/a"
        return f"{100 * v:.1f}%" if self.rate else f"{v:.3g}"


def parse_figure(spec: str | None) -> Figure:
    """The figure named by ``spec`` (``None``: ``first_seat``).

    Raises:
        ValueError: (one line) an unknown figure or table.
    """
    spec = (spec or "first_seat").strip()
    if spec in BUILT_IN:
        label, target, rate = BUILT_IN[spec]
        return Figure(spec, label, target, rate)
    head, _, row = spec.partition("@")
    table, dot, column = head.partition(".")
    if not dot or not column or table not in TABLE_FUNCTIONS:
        raise ValueError(f"--figure {spec!r}: not a figure; use first_seat, spread, length or TABLE.COLUMN[@ROW] "
                         f"with TABLE one of {', '.join([*TABLES, 'experience'])} (e.g. first_player.advantage, "
                         "experience.comebacks)")
    rate = column in _RATES or (table == "experience" and column in _EXPERIENCE_SHARES)
    label = f"{table}.{column}" + (f" ({row})" if row else "")
    if table == "experience":
        from simkit.analysis.experience import FIGURES

        words = FIGURES.get(column, (column,))[0]
        label = f"how the games play: {words}" + (f" ({row})" if row else "")
    return Figure(spec, label, _TARGETS.get(column), rate, table, column, row)


# ----------------------------------------------------------------------------------------------
# table columns


def _row_mask(t: pd.DataFrame, fig: Figure) -> np.ndarray:
    texts = [c for c in t.columns if not (pd.api.types.is_numeric_dtype(t[c]) or pd.api.types.is_bool_dtype(t[c]))]
    if fig.row:
        mask = np.ones(len(t), bool)
        for part in fig.row.split("&"):
            col, eq, want = part.partition("=")
            if not eq:  # a label: the table's first label column
                col, want = next((c for c in _LABELS if c in t.columns), texts[0] if texts else ""), part
            if col not in t.columns:
                raise ValueError(f"--figure {fig.name!r}: the table {fig.table} has no column {col!r} to pick the "
                                 f"row by (columns: {', '.join(map(str, t.columns))})")
            mask &= t[col].astype(str).to_numpy() == want.strip()
        return mask
    if len(t) == 1:
        return np.ones(1, bool)
    agg = np.zeros(len(t), bool)
    for c in texts:
        agg |= t[c].isin(_AGGREGATE).to_numpy()
    if agg.sum() == 1:
        return agg
    label = next((c for c in _LABELS if c in t.columns), texts[0] if texts else None)
    some = ", ".join(map(str, t[label].astype(str).head(3))) if label is not None else ""
    first = t[label].astype(str).iloc[0] if label is not None else "..."
    raise ValueError(f"--figure {fig.name!r}: the table {fig.table} has {len(t)} rows; name one after @, e.g. "
                     f"{fig.table}.{fig.column}@{first} ({label}: {some}, ...)")


def row_hint(df: pd.DataFrame, fig: Figure) -> str:
    """A few rows of the figure's table on ``df`` by their label column, for a message."""
    t = TABLE_FUNCTIONS[fig.table](df)
    texts = [c for c in t.columns if not (pd.api.types.is_numeric_dtype(t[c]) or pd.api.types.is_bool_dtype(t[c]))]
    label = next((c for c in _LABELS if c in t.columns), texts[0] if texts else None)
    if label is None or not len(t):
        return f"the table {fig.table} has no rows"
    return f"{label} reads e.g. " + ", ".join(map(repr, t[label].astype(str).drop_duplicates().head(3)))


def table_value(df: pd.DataFrame, fig: Figure) -> float:
    """The figure's table column at its row, computed on the games ``df`` (NaN when the row is absent).

    Raises:
        ValueError: the table has no such column, the column is not a number, or the row spec
            does not pick one row out of several.
    """
    t = TABLE_FUNCTIONS[fig.table](df)
    if fig.column not in t.columns:
        raise ValueError(f"--figure {fig.name!r}: the table {fig.table} has no column {fig.column!r} "
                         f"(columns: {', '.join(map(str, t.columns))})")
    if len(t) and not (pd.api.types.is_numeric_dtype(t[fig.column]) or pd.api.types.is_bool_dtype(t[fig.column])):
        raise ValueError(f"--figure {fig.name!r}: {fig.table}.{fig.column} is not a number")
    if not len(t):
        return float("nan")
    mask = _row_mask(t, fig)
    if mask.sum() == 0:
        return float("nan")
    if mask.sum() > 1:
        raise ValueError(f"--figure {fig.name!r}: @{fig.row} picks {int(mask.sum())} rows of {fig.table}; add "
                         "COLUMN=VALUE pairs joined by & to pick one")
    return float(t.loc[mask, fig.column].iloc[0])


def check_figure(fig: Figure) -> Figure:
    """``fig`` if its table has its column as a number, checked on a tiny synthetic sweep before any game is
    played (the numeric columns of the report's tables are the same for every game; the row is checked on
    the scan's own games).

    Raises:
        ValueError: (one line) the table has no such column, or it is not a number.
    """
    if fig.table:
        from simkit.testing.synthetic import synthetic_results

        probe = synthetic_results(["A:x,y,z", "B:x,y,w"], 1)
        if fig.table == "experience":
            from simkit.testing.synthetic import with_experience

            probe = with_experience(probe)
        t = TABLE_FUNCTIONS[fig.table](probe)
        if fig.column not in t.columns:
            raise ValueError(f"--figure {fig.name!r}: the table {fig.table} has no column {fig.column!r} "
                             f"(columns: {', '.join(map(str, t.columns))})")
        numeric = pd.api.types.is_numeric_dtype(t[fig.column]) or pd.api.types.is_bool_dtype(t[fig.column])
        if len(t) and not numeric:
            raise ValueError(f"--figure {fig.name!r}: {fig.table}.{fig.column} is not a number")
    return fig


# ----------------------------------------------------------------------------------------------
# measuring


def figure_point(df: pd.DataFrame, fig: Figure) -> dict:
    """The figure on one value's games, with its 95% interval when it has a closed form.

    Returns:
        ``{"figure", "low", "high", "games", "method"}``; ``low``/``high`` are NaN when only the
        bootstrap gives them (:func:`figure_replicas`).
    """
    n = len(df)
    nan = float("nan")
    if fig.name == "first_seat":
        points = first_score(df).sum()
        low, high = wilson_interval(points, n)
        return {"figure": points / n if n else nan, "low": float(low), "high": float(high), "games": n,
                "method": "Wilson"}
    if fig.name == "length":
        value = float(df["turns"].mean()) if n else nan
    elif fig.name == "spread":
        rates = deck_games(df, mirrors=False).groupby("deck")["points"].mean()
        value = float(rates.std()) if len(rates) > 1 else nan
    else:
        value = table_value(df, fig)
    return {"figure": value, "low": nan, "high": nan, "games": n, "method": "bootstrap"}


def resample_counts(rng: np.random.Generator, n: int, replicas: int) -> np.ndarray:
    """``replicas`` bootstrap resamples of ``n`` games as counts (replicas x n, each row sums to ``n``).

    A plain bootstrap over games: a resample may hold a pairing more or less often than the sweep did (or
    not at all), which keeps its spread honest however few games each pairing has (resampling within
    pairings would make one game per pairing look certain)."""
    if n == 0:
        return np.zeros((replicas, 0))
    return rng.multinomial(n, np.full(n, 1.0 / n), size=replicas).astype(float)


def figure_replicas(df: pd.DataFrame, fig: Figure, counts: np.ndarray) -> np.ndarray:
    """The figure on each resample of ``df``'s games: ``counts[r, g]`` copies of game ``g`` in replica ``r``.

    Returns:
        float array, one figure per replica.
    """
    if fig.name in ("first_seat", "length"):
        x = first_score(df) if fig.name == "first_seat" else df["turns"].to_numpy(float)
        return counts @ x / max(len(df), 1)
    if fig.name == "spread":
        return _spread_replicas(df, counts)
    if fig.table == "experience" and not fig.row and fig.column in _per_game_figures():
        from simkit.analysis.experience import game_figures

        x = game_figures(df)[fig.column].to_numpy(float)  # one value per game; NaN where a game does not count
        present = np.isfinite(x)
        with np.errstate(invalid="ignore", divide="ignore"):
            return (counts @ np.where(present, x, 0.0)) / (counts @ present.astype(float))
    out = np.empty(len(counts))
    rows = np.arange(len(df))
    light = df.copy(deep=False)  # pandas copies attrs at every step: keep only what the tables read
    meta = df.attrs.get("meta") or {}
    light.attrs = {"meta": {k: meta[k] for k in ("schema", "deck_cards") if k in meta}}
    for r, c in enumerate(counts):
        try:
            out[r] = table_value(light.iloc[np.repeat(rows, c.astype(int))], fig)
        except ValueError:  # a table this resample cannot give (it lost a pairing the table needs): no figure
            out[r] = np.nan
    return out


def _per_game_figures() -> tuple[str, ...]:
    """The experience figures that are a mean of one value per game (all of them: a share's value is 1 or 0)."""
    from simkit.analysis.experience import FIGURES

    return (*FIGURES, "longer", "shorter")


def _spread_replicas(df: pd.DataFrame, counts: np.ndarray) -> np.ndarray:
    decks = sorted(set(df["first_deck"]) | set(df["second_deck"]))
    index = {d: i for i, d in enumerate(decks)}
    first = df["first_deck"].map(index).to_numpy()
    second = df["second_deck"].map(index).to_numpy()
    keep = (first != second).astype(float)
    p = first_score(df)
    g = np.arange(len(df))
    points = np.zeros((len(df), len(decks)))
    games = np.zeros((len(df), len(decks)))
    points[g, first] += keep * p
    points[g, second] += keep * (1 - p)
    games[g, first] += keep
    games[g, second] += keep
    with np.errstate(invalid="ignore", divide="ignore"):
        rates = (counts @ points) / (counts @ games)  # replicas x decks; NaN: a deck absent from a resample
    ok = np.isfinite(rates)
    out = np.full(len(counts), np.nan)
    for r in range(len(counts)):
        v = rates[r, ok[r]]
        if len(v) > 1:
            out[r] = v.std(ddof=1)
    return out


def paired(frames: Sequence[pd.DataFrame]) -> bool:
    """True when every frame holds the very same games (same pairings, game numbers and seeds), in order."""
    cols = [c for c in (*GAME_KEY, "seed") if all(c in f.columns for f in frames)]
    first = frames[0][cols].reset_index(drop=True)
    return all(len(f) == len(first) and f[cols].reset_index(drop=True).equals(first) for f in frames[1:])


def replica_chunks(n: int, replicas: int, budget: float = 4e6) -> list[int]:
    """Replica counts per block so that a block's resample matrix stays under ``budget`` cells."""
    step = max(1, int(budget // max(n, 1)))
    return [min(step, replicas - i) for i in range(0, replicas, step)] if replicas else []


def bootstrap_curve(frames: Sequence[pd.DataFrame], fig: Figure, replicas: int, seed: int) -> tuple[np.ndarray, bool]:
    """The figure at every value on ``replicas`` bootstrap resamples (replicas x values), and whether the
    resamples were paired (one draw of games for every value, :func:`paired`) or drawn per value."""
    rng = np.random.default_rng([seed, 31])
    same = paired(frames)
    out = np.empty((replicas, len(frames)))
    done = 0
    for block in replica_chunks(max(len(f) for f in frames), replicas):
        if same:
            counts = resample_counts(rng, len(frames[0]), block)
            for v, df in enumerate(frames):
                out[done:done + block, v] = figure_replicas(df, fig, counts)
        else:
            for v, df in enumerate(frames):
                out[done:done + block, v] = figure_replicas(df, fig, resample_counts(rng, len(df), block))
        done += block
    return out, same


def percentile_interval(reps: np.ndarray, level: float = 0.95) -> tuple[float, float]:
    """The central ``level`` percentile interval of finite replicas (NaN, NaN when none is finite)."""
    v = reps[np.isfinite(reps)]
    if not len(v):
        return math.nan, math.nan
    tail = (1 - level) / 2 * 100
    lo, hi = np.percentile(v, [tail, 100 - tail])
    return float(lo), float(hi)
