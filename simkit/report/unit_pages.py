"""Unit and race pages of the balance report, for games whose decks are bought (Magic War's armies).

Game-agnostic: the pages appear when the sweep's scenario is found again (:func:`simkit.report.games.find_scenario`)
and its game has the ``deck_counts`` capability (``deck -> {card: (copies, cost)}``). They read the results, the
game's ``deck_cards`` (recorded in the sweep's meta) and the schema's card categories, never a game module:

* **units**: each card's win rate when bought (the decks holding it, both seats, Wilson 95%) beside its
  marginal value per copy and per cost point from a regression of the first seat's score on the card counts
  (first deck's minus second's; HC1 95% intervals; :func:`simkit.analysis.unit_value.unit_values`);
* **races**: for every category with one card per deck (Magic War's race), the first seat's score by the first
  deck's card against the second's, Wilson 95% intervals (:func:`simkit.analysis.unit_value.seat_by_category`).

Their tables are written as CSV beside the report (``NAME.unit_value.csv``, ``NAME.race_seat.csv``).
"""

from __future__ import annotations

from pathlib import Path
from textwrap import wrap

import numpy as np
import pandas as pd

from simkit.analysis.results import deck_card_table, results_schema
from simkit.analysis.stats import wilson_interval
from simkit.analysis.unit_value import one_card_categories, seat_by_category, unit_values
from simkit.report.document import LANDSCAPE, PORTRAIT, ReportPdf
from simkit.report.games import find_scenario

__all__ = ["HOOK", "UNIT_TABLES", "unit_tables", "write_unit_pages"]

HOOK = "deck_counts"
#: the tables these pages add to the report's CSVs
UNIT_TABLES = ("unit_value", "race_seat")


def unit_tables(df: pd.DataFrame, tables: dict, results_dir: str | Path | None = None) -> dict[str, pd.DataFrame]:
    """The unit and race tables of ``df``, or ``{}`` when the game has no ``deck_counts`` capability or its
    scenario file is not found unchanged (the report then has no unit pages).

    Args:
        df: the results.
        tables: :func:`simkit.analysis.analyze` output (its ``cards`` give the win rate when bought).
        results_dir: the results folder (to find a scenario recorded with a relative path).

    Returns:
        ``{"unit_value": ..., "race_seat": ...}``: the first is :func:`unit_values` with the win rate when
        bought (``bought_games, bought_rate, bought_low, bought_high``); the second one row per (category,
        first card, second card) (:func:`seat_by_category` with a ``category`` column).
    """
    meta = df.attrs.get("meta") or tables.get("meta") or {}
    sc, _, _ = find_scenario(meta, results_dir)
    counts_of = sc.game.capability(HOOK) if sc is not None else None
    if counts_of is None:
        return {}
    cards = deck_card_table(df)
    decks = sorted(cards)
    counts = {d: counts_of(d) for d in decks}
    cats = one_card_categories(cards)
    group = {}
    if cats:
        for d in decks:
            for c in counts[d]:
                group.setdefault(c, cards[d][cats[0]][0])
    uv = unit_values(df, counts, group)
    bought = tables["cards"].drop_duplicates("card").set_index("card")
    uv["kind"] = uv["card"].map(bought["kind"]).fillna("")
    uv["bought_games"] = uv["card"].map(bought["games"]).fillna(0).astype(int)
    for src, dst in (("win_rate", "bought_rate"), ("low", "bought_low"), ("high", "bought_high")):
        uv[dst] = uv["card"].map(bought[src])
    races = [seat_by_category(df, cards, k).assign(category=k) for k in cats]
    race = pd.concat(races, ignore_index=True) if races else pd.DataFrame(
        columns=["first", "second", "games", "points", "first_rate", "low", "high", "category"])
    race = race[["category", "first", "second", "games", "points", "first_rate", "low", "high"]]
    return {"unit_value": uv, "race_seat": race}


ALL = "all"


def _rate(points: float, games: int) -> tuple[float, float, float, int]:
    low, high = wilson_interval(np.array([points]), np.array([games]))
    return points / games, float(low[0]), float(high[0]), int(games)


def plural(word: str) -> str:
    """``army`` -> ``armies``, ``deck`` -> ``decks``."""
    return word[:-1] + "ies" if word.endswith("y") and word[-2:-1] not in "aeiou" else word + "s"


def _pct(v: float) -> str:
    return "n/a" if not np.isfinite(v) else f"{100 * v:.1f}%"


def _forest(ax, labels, est, low, high, colour, xlabel: str, centre: float | None) -> None:
    y = np.arange(len(labels))[::-1]
    est, low, high = (np.asarray(v, dtype=float) for v in (est, low, high))
    ok = np.isfinite(est)
    ax.errorbar(est[ok], y[ok], xerr=[est[ok] - low[ok], high[ok] - est[ok]], fmt="o", color=colour, ms=3.5,
                elinewidth=1.1, capsize=2)
    if centre is not None:
        ax.axvline(centre, color="#888888", lw=0.8, ls="--")
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=7)
    ax.set_ylim(-0.7, len(labels) - 0.3)
    ax.set_xlabel(xlabel, fontsize=8)
    ax.tick_params(axis="x", labelsize=7)
    ax.grid(axis="x", color="#eeeeee")
    for yy, e, h in zip(y[ok], est[ok], high[ok]):
        ax.annotate(f"{e:+.1f}" if centre == 0 else f"{e:.1f}", (h, yy), xytext=(3, 0), textcoords="offset points",
                    va="center", fontsize=6)


def _unit_page(pdf: ReportPdf, uv: pd.DataFrame, words: dict, deck_word: str) -> None:
    fig = pdf.new_page(PORTRAIT)
    kinds = [k for k in dict.fromkeys(uv["kind"]) if k]
    unit = words.get(kinds[0], kinds[0]) if len(kinds) == 1 else "card"
    fig.text(0.03, 0.985, f"Each {unit}: win rate when bought, and value per cost point", fontsize=12,
             weight="bold", va="top")
    b0, lo0, hi0 = uv.attrs["intercept"]
    n = uv.attrs["games"]
    decks = plural(deck_word)
    relative = (f" Every game's two {decks} differ in cost by the same amount (each seat spends its whole budget), "
                f"so the values are measured only against each other: {uv['card'].iloc[-1]} is the reference (n/a) "
                "and a value's level is not its worth in wins." if uv.attrs.get("relative") else "")
    intercept = "" if uv.attrs.get("relative") else (
        f" Its intercept, the first seat's score between equal {decks}, is {_pct(b0)} [{_pct(lo0)}, {_pct(hi0)}].")
    text = (f"Left: the win rate of the {decks} holding the {unit} (both seats, mirrors left out; Wilson 95%). "
            f"Right: what one more copy is worth, divided by its cost: the coefficients of a linear regression of the "
            f"first seat's score (win 1, draw 1/2) on the {unit} counts, first {deck_word}'s minus second's, over "
            f"{n:,} games, in points of win rate per cost point (HC1 95% intervals).{intercept} A small pool ties "
            f"{plural(unit)} together, so the intervals are wide where few {decks} vary a {unit}; a {unit} whose "
            f"count never varies on its own has no value (n/a).{relative} Best value first.")
    fig.text(0.03, 0.955, "\n".join(wrap(text, 135)), fontsize=7.5, va="top")
    labels = [f"{c} ({g}, cost {k})" if g else f"{c} (cost {k})"
              for c, g, k in zip(uv["card"], uv["group"], uv["cost"])]
    top = 0.82
    height = min(0.74, 0.028 * len(uv) + 0.04)
    ax = fig.add_axes([0.25, top - height, 0.3, height])
    _forest(ax, labels, uv["bought_rate"] * 100, uv["bought_low"] * 100, uv["bought_high"] * 100, "#1f4e79",
            "win rate when bought, % (95% CI)", 50)
    ax.set_title(f"win rate of {decks} holding it", fontsize=8.5)
    ax2 = fig.add_axes([0.64, top - height, 0.33, height], sharey=ax)
    _forest(ax2, labels, uv["per_cost"] * 100, uv["per_cost_low"] * 100, uv["per_cost_high"] * 100, "#1e8449",
            "points of win rate per cost point (95% CI)", 0)
    ax2.tick_params(axis="y", labelleft=False)
    ax2.set_title("marginal value per cost point", fontsize=8.5)
    pdf.add(fig, "units")


def _race_page(pdf: ReportPdf, race: pd.DataFrame, category: str, words: dict, deck_word: str) -> None:
    part = race[race["category"] == category]
    order = list(dict.fromkeys(part["first"]))
    order += [c for c in dict.fromkeys(part["second"]) if c not in order]
    cells = {(r.first, r.second): (r.first_rate, r.low, r.high, r.games) for r in part.itertuples()}
    for c in order:  # the margins: each first-seat card against every second seat, and the reverse
        for key, rows in (((c, ALL), part[part["first"] == c]), ((ALL, c), part[part["second"] == c])):
            if len(rows):
                cells[key] = _rate(rows["points"].sum(), rows["games"].sum())
    cells[(ALL, ALL)] = _rate(part["points"].sum(), part["games"].sum())
    labels = order + [ALL]
    grid = np.full((len(labels), len(labels)), np.nan)
    for (a, b), (v, *_) in cells.items():
        grid[labels.index(a), labels.index(b)] = v
    fig = pdf.new_page(LANDSCAPE)
    word = words.get(category, category)
    fig.text(0.03, 0.97, f"First seat's score by {word}: first {deck_word}'s {word} (rows) against the second's "
             "(columns)", fontsize=12, weight="bold", va="top")
    games = part["games"]
    text = (f"Each cell: the first seat's score rate (win 1, draw 1/2) over every game between a first-seat "
            f"{deck_word} of that {word} and a second-seat {deck_word} of that {word}, with its Wilson 95% "
            f"interval and games ({int(games.min())} to {int(games.max())} a cell). Blue: the first seat does better, "
            f"red: the second. The last row and column ({ALL}) pool a {word}'s games in one seat against every "
            f"{word} in the other. The diagonal is the {word} mirror: there only the seat (and its budget) differs.")
    fig.text(0.03, 0.925, "\n".join(wrap(text, 170)), fontsize=8, va="top")
    k = len(labels)
    size = min(0.76, 0.12 * k + 0.06)
    width = size * LANDSCAPE[1] / LANDSCAPE[0]
    ax = fig.add_axes([0.5 - width / 2, 0.06, width, size])
    ax.imshow(grid * 100, cmap="RdBu", vmin=0, vmax=100, aspect="auto")
    for (a, b), (v, lo, hi, n) in cells.items():
        i, j = labels.index(a), labels.index(b)
        ax.text(j, i, f"{100 * v:.1f}%\n[{100 * lo:.1f}, {100 * hi:.1f}]\n{int(n):,} games", ha="center",
                va="center", fontsize=8 if k <= 6 else 6, color="white" if abs(v - 0.5) > 0.3 else "black",
                weight="bold" if ALL in (a, b) else "normal")
    ax.axhline(k - 1.5, color="black", lw=1.2)
    ax.axvline(k - 1.5, color="black", lw=1.2)
    ax.set_xticks(range(k))
    ax.set_xticklabels(labels, fontsize=9)
    ax.set_yticks(range(k))
    ax.set_yticklabels(labels, fontsize=9)
    ax.set_xlabel(f"second seat's {word}", fontsize=9)
    ax.set_ylabel(f"first seat's {word}", fontsize=9)
    ax.xaxis.set_label_position("top")
    ax.xaxis.tick_top()
    pdf.add(fig, f"{word}s")


def write_unit_pages(pdf: ReportPdf, tables: dict) -> None:
    """Add the unit page and one race page per one-card category (nothing without :func:`unit_tables`)."""
    if "unit_value" not in tables:
        return
    schema = tables.get("schema") or results_schema(pd.DataFrame())
    words = dict(schema.card_categories)
    deck_word = getattr(schema, "deck_words", "deck") or "deck"
    if len(tables["unit_value"]):
        _unit_page(pdf, tables["unit_value"], words, deck_word)
    race = tables["race_seat"]
    for category in dict.fromkeys(race["category"]):
        _race_page(pdf, race, category, words, deck_word)
