"""The page of a scan: the figure against the value with its intervals, the target and the crossing."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.core.files import atomic_write
from simkit.report.document import VERDICT_COLOURS
from simkit.scan.crossing import Crossing
from simkit.scan.figures import Figure

__all__ = ["draw_page", "plot_scan"]

_BLUE, _RED, _GREY = "#1f5fa8", "#c0392b", "#666666"


def plot_scan(ax, table: pd.DataFrame, crossing: Crossing | None, fig: Figure, key: str, base_value) -> None:
    """Draw a scan on ``ax``: the figure at each value (dots, 95% intervals as bars), the base game's value
    ringed, the target as a dashed line and the crossing as a red line with its interval shaded (an end
    beyond the range is shaded to the edge and labelled so)."""
    scale = 100.0 if fig.rate else 1.0
    x = table["value"].to_numpy(float)
    y = table["estimate"].to_numpy(float) * scale
    lo = table["low"].to_numpy(float) * scale
    hi = table["high"].to_numpy(float) * scale
    err = np.vstack([np.where(np.isfinite(lo), y - lo, 0), np.where(np.isfinite(hi), hi - y, 0)])
    ax.errorbar(x, y, yerr=err, fmt="o-", color=_BLUE, ecolor=_BLUE, elinewidth=1.4, capsize=5, markersize=7,
                lw=1.6, label=f"{fig.label} (95% interval)")
    if np.any(np.isclose(x, base_value)):
        i = int(np.flatnonzero(np.isclose(x, base_value))[0])
        ax.plot([x[i]], [y[i]], "o", ms=14, mfc="none", mec=_GREY, mew=1.2, label=f"base game ({base_value})")
    pad = 0.06 * (x[-1] - x[0] or 1)
    ax.set_xlim(x[0] - pad, x[-1] + pad)
    if crossing is not None:
        ax.axhline(crossing.target * scale, ls="--", color=_GREY, lw=1.2, label=f"target {fig.fmt(crossing.target)}")
        if np.isfinite(crossing.value):
            left = x[0] - pad if crossing.low == -np.inf else crossing.low
            right = x[-1] + pad if crossing.high == np.inf else crossing.high
            ax.axvspan(left, right, color=_RED, alpha=0.12, lw=0, label="95% interval of the crossing")
            ax.axvline(crossing.value, color=_RED, lw=1.6, label=f"crossing {crossing.value:.3g}")
            for end, where, ha, shift, words in ((crossing.low, left, "left", 4, f"\u2190 continues below {x[0]:g}"),
                                                 (crossing.high, right, "right", -4,
                                                  f"continues above {x[-1]:g} \u2192")):
                if np.isinf(end):
                    ax.annotate(words, xy=(where, 0.03), xycoords=("data", "axes fraction"), xytext=(shift, 0),
                                textcoords="offset points", ha=ha, fontsize=9, color=_RED)
    ax.set_xticks(x)
    ax.set_xticklabels([f"{v:g}" for v in x])
    ax.set_xlabel(key, fontsize=11)
    ax.set_ylabel(fig.label + (" (%)" if fig.rate else ""), fontsize=11)
    ax.grid(alpha=0.3)
    handles = ax.get_legend_handles_labels()[0]
    ax.legend(loc="lower left", bbox_to_anchor=(0, 1.01, 1, 0.1), ncol=len(handles), fontsize=9, frameon=False,
              mode="expand")


def _span(values) -> str:
    lo, hi = min(values), max(values)
    return f"{lo}" if lo == hi else f"{lo}-{hi}"


def _pool_words(table: pd.DataFrame, spec: dict) -> tuple[str, str]:
    """Each value's two seat pools counted (the same words at every value): ``("6 decks", "every ordered pair")``
    when every value's seats hold the same decks, else ``("3 first-seat x 3-6 second-seat decks by value",
    "every pairing")``."""
    seats = [tuple(p) for p in table.attrs.get("seat_decks") or [(len(spec["decks"]),) * 2]]
    by_value = " by value" if len(set(seats)) > 1 else ""
    if table.attrs.get("alike_seats", True):
        return f"{_span([a for a, _ in seats])} decks{by_value}", "every ordered pair"
    return (f"{_span([a for a, _ in seats])} first-seat x {_span([b for _, b in seats])} second-seat decks{by_value}",
            "every pairing")


def draw_page(path: Path, table: pd.DataFrame, crossing: Crossing | None, fig: Figure, spec: dict,
              scenario_name: str) -> Path:
    """Write the one-page PDF of a scan to ``path``: :func:`plot_scan`, the answer in a sentence, how the
    intervals were made and the values as a table."""
    from matplotlib.backends.backend_pdf import PdfPages
    from matplotlib.figure import Figure as Page

    x = table["value"].to_numpy(float)
    page = Page(figsize=(11.69, 8.27))
    page.text(0.06, 0.955, f"{fig.label[:1].upper()}{fig.label[1:]} against {spec['key']}", fontsize=17,
              weight="bold")
    decks, pairs = _pool_words(table, spec)
    games = sorted(set(table["games"]))
    per_value = f"{games[0]:,} games per value" if len(games) == 1 else f"{games[0]:,} to {games[-1]:,} games by value"
    same = ("on the same seeds" if table.attrs.get("paired", True) else
            "on seeds derived the same way (the deck pool changes with the value)")
    lines = [f"{scenario_name}. In the base game {spec['key']} is {spec['base_value']}.",
             *textwrap.wrap(f"Every value played {same}: {per_value} ({decks}, {pairs} x {spec['games']} "
                            f"games; bots {spec['bots'][0]} first, {spec['bots'][1]} second; sweep seed "
                            f"{spec['seed']}).", 150)]
    sentence = table.attrs.get("sentence", "")
    answer = textwrap.wrap(sentence[:1].upper() + sentence[1:] + ".", 120)
    state = "balanced" if sentence.startswith("Settled") else "not settled"
    page.text(0.06, 0.925, "\n".join(answer), fontsize=12, weight="bold", va="top", linespacing=1.3,
              color=VERDICT_COLOURS[state])  # the answer first, as strong as its interval allows
    y = 0.925 - 0.028 * len(answer) - 0.01
    for i, line in enumerate(lines[:3]):
        page.text(0.06, y - 0.022 * i, line, fontsize=10, color=_GREY, va="top")
    plot_scan(page.add_axes([0.08, 0.34, 0.86, 0.37]), table, crossing, fig, spec["key"], spec["base_value"])
    how = ("Intervals: " + table["interval"].iloc[0] + ". The crossing's interval bootstraps the games "
           + ("(the same resample at every value, since every value played the same games)" if
              table.attrs.get("paired") else "(each value resampled on its own)")
           + ", reads each resampled curve's first crossing by straight lines between neighbouring values, and "
           "counts a resampled curve that never crosses as crossing beyond the range.")
    page.text(0.06, 0.245, how, fontsize=8.5, color=_GREY, wrap=True)
    cells = [[f"{v:g}", fig.fmt(e), f"{fig.fmt(a)} to {fig.fmt(b)}", f"{g:,}"]
             for v, e, a, b, g in zip(x, table["estimate"], table["low"], table["high"], table["games"])]
    tab_ax = page.add_axes([0.06, 0.02, 0.55, 0.16])
    tab_ax.axis("off")
    t = tab_ax.table(cellText=cells, colLabels=[spec["key"], fig.label, "95% interval", "games"], loc="upper left",
                     cellLoc="center", colLoc="center")
    t.auto_set_font_size(False)
    t.set_fontsize(8.5 if len(cells) <= 8 else 7)
    t.scale(1, 1.25 if len(cells) <= 8 else 0.9)
    page.text(0.65, 0.18, "Files: scan.csv (this table), crossing.csv, summary.json;\none sweep per value under "
              "values/<value>/ (patch.toml + results).", fontsize=8.5, color=_GREY, va="top")
    path = Path(path)

    def write(tmp: Path) -> None:
        with PdfPages(tmp, metadata={"Title": f"simkit scan: {fig.label} against {spec['key']}",
                                     "Subject": scenario_name}) as pdf:
            pdf.savefig(page)

    atomic_write(path, write)
    return path
