"""The "Real play against simulation" page: real games' rates beside a sweep's, the answer in its first sentence.

``simkit report REAL_DIR --against SWEEP_DIR`` adds it after the title page of the real games' report, and its
table as ``NAME.against.csv``; the HTML page gets the same sentences and table. The figures come from
:func:`simkit.real.against.against_simulation`, the words from :func:`simkit.real.against.against_words`.
"""

from __future__ import annotations

from pathlib import Path
from textwrap import wrap

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from simkit.core.words import pct, pts

__all__ = ["against_tables", "plot_real_against", "against_page"]

REAL, SIM, MEASURED = "#1f4e79", "#b9770e", "#b03a2e"
MOST_ROWS = 40  # decks drawn on the page; the CSV holds every one


def against_tables(real: pd.DataFrame, against: str | Path, bot: str | None = None) -> dict:
    """The comparison of real games with the sweep in ``against``, keyed for the report.

    Args:
        real: the real games (:func:`simkit.load_results` of an imported folder).
        against: a sweep's results folder of the same game.
        bot: the sweep's bot whose games are the simulation when it holds a panel (default: the panel's last).

    Returns:
        ``{"table": against_simulation(...), "words": sentences, "bot": the simulation's bot, "sweep": against}``.

    Raises:
        ValueError: ``real`` holds no real games, the sweep is of another game, or no pairing is in both.
    """
    from simkit.real.against import against_simulation, against_words
    from simkit.real.store import is_real
    from simkit.report.balance import load_checked_results
    from simkit.report.robustness_page import reference_bot, reference_view

    meta = real.attrs.get("meta") or {}
    if not is_real(meta):
        raise ValueError("--against compares imported real games with a sweep: give a folder written by simkit "
                         "import-games first, then the sweep's folder")
    sim = load_checked_results(against)
    theirs = sim.attrs.get("meta") or {}
    if is_real(theirs):
        raise ValueError(f"--against {against}: holds real games too; give a sweep's folder")
    if theirs.get("game") != meta.get("game"):
        raise ValueError(f"--against {against}: a sweep of {theirs.get('game')!r}, the real games are of "
                         f"{meta.get('game')!r}")
    ref = reference_bot(sim, bot)
    if ref is not None:
        sim = reference_view(sim, ref)
    bots = list(dict.fromkeys(sim["first_bot"].astype(str))) + list(dict.fromkeys(sim["second_bot"].astype(str)))
    name = ref or (bots[0] if len(set(bots)) == 1 else f"{bots[0]} (first seat) and {bots[-1]} (second seat)")
    table = against_simulation(real, sim)
    words = (meta.get("schema") or {}).get("deck_words", "deck")
    return {"table": table, "words": against_words(table, name, words), "bot": name, "sweep": str(against),
            "sweep_scenario": theirs.get("scenario_name"), "sweep_hash": theirs.get("scenario_hash")}


def plot_real_against(ax: Axes, table: pd.DataFrame) -> None:
    """Each row's real rate (filled) above its simulated rate (hollow), 95% intervals, and the difference in points
    at the right (red where its interval leaves 0 out).

    Args:
        ax: where to draw.
        table: :func:`simkit.real.against.against_simulation` (or its first rows).
    """
    n = len(table)
    y = np.arange(n, dtype=float)
    ax.axvline(50, color="#555555", lw=0.8, zorder=1)
    for off, (col, lo, hi), colour, fill in ((-0.17, ("real_rate", "real_low", "real_high"), REAL, True),
                                              (0.17, ("sim_rate", "sim_low", "sim_high"), SIM, False)):
        yy = y + off
        ax.hlines(yy, table[lo] * 100, table[hi] * 100, colors=colour, lw=1.1, zorder=2)
        ax.plot(table[col] * 100, yy, "o", ms=3.4, color=colour, mfc=colour if fill else "white", zorder=3,
                ls="none", label="real games" if fill else "simulation")
    size = float(np.clip(0.7 * ax.get_position().height * ax.figure.get_figheight() * 72 / max(n, 1), 4, 8))
    labels = [("ALL GAMES: the first seat" if r.scope == "first seat" else r.subject) for r in table.itertuples()]
    ax.set_yticks(y, labels, fontsize=size)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlim(0, 100)
    ax.tick_params(axis="y", length=0)
    ax.tick_params(axis="x", labelsize=7)
    ax.grid(axis="x", color="#dddddd", lw=0.5)
    ax.set_axisbelow(True)
    ax.set_xlabel("score, % (a draw half; 95% CI):\nthe first seat's in the top row, each deck's against other decks",
                  fontsize=7.5)
    for yy, r in zip(y, table.itertuples()):
        ax.annotate(f"{pts(r.difference)} ({pts(r.low)} to {pts(r.high)})", (1.01, yy), xycoords=("axes fraction",
                    "data"), va="center", fontsize=size, color=MEASURED if r.measured else "#333333",
                    weight="bold" if r.measured else "normal")
    ax.annotate("real - simulated,\npoints (95% CI)", (1.01, -0.5), xycoords=("axes fraction", "data"),
                va="bottom", fontsize=7, weight="bold")
    ax.legend(loc="lower left", bbox_to_anchor=(0, 1.0), ncol=2, fontsize=7, frameon=False)


def against_page(pdf, against: dict) -> None:
    """Add the page: the answer (first sentence, large), the rows drawn, the sample's limits below.

    Args:
        pdf: the :class:`simkit.report.document.ReportPdf` being written.
        against: :func:`against_tables`.
    """
    from simkit.report.document import PORTRAIT

    table = against["table"]
    shown = table.iloc[:MOST_ROWS + 1]
    fig = pdf.new_page(PORTRAIT)
    fig.text(0.07, 0.965, "Real play against simulation", fontsize=17, weight="bold", va="top")
    answer = wrap(against["words"][0], 88)
    fig.text(0.07, 0.925, "\n".join(answer), fontsize=10.5, weight="bold", va="top", linespacing=1.3)
    top = 0.925 - (len(answer) * 10.5 * 1.3 + 24) / (fig.get_figheight() * 72)
    rows = len(shown)
    h = min(top - 0.30, 0.05 + 0.028 * rows)
    ax = fig.add_axes([0.44, top - h, 0.33, h])
    plot_real_against(ax, shown)
    more = (f" ({len(table) - len(shown)} more decks in the against CSV)" if len(table) > len(shown) else "")
    notes = against["words"][1:] + [
        f"Simulation: {against['bot']}'s games in {against['sweep']} ({against.get('sweep_scenario')}, hash "
        f"{against.get('sweep_hash')}), on the same ordered pairings as the real games, each pairing weighted as "
        f"often as the real games met it{more}. First seat overall: {pct(table['real_rate'].iloc[0])} real, "
        f"{pct(table['sim_rate'].iloc[0])} simulated."]
    lines = [line for s in notes for line in wrap(s, 120) + [""]]
    fig.text(0.07, top - h - 0.06, "\n".join(lines), fontsize=8, va="top", linespacing=1.35)
    lowest = top - h - 0.06 - len(lines) * 8 * 1.35 / (fig.get_figheight() * 72)
    pdf.add(fig, "real against simulation", down_to=max(lowest, 0.03))
