"""The page of a scan: the figure against the value with its intervals, the target and the crossing."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from simkit.scan.crossing import Crossing
from simkit.scan.figures import Figure

__all__ = ["draw_page"]

_BLUE, _RED, _GREY = "#1f5fa8", "#c0392b", "#666666"


def draw_page(path: Path, table: pd.DataFrame, crossing: Crossing | None, fig: Figure, spec: dict,
              scenario_name: str) -> Path:
    """Write the one-page PDF of a scan to ``path``.

    The plot shows the figure at each value (dots, 95% intervals as bars), the target as a dashed
    line and, when the curve crosses it, the crossing as a red line with its interval shaded; below
    it the answer in a sentence and the values as a table.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.backends.backend_pdf import PdfPages

    scale = 100.0 if fig.rate else 1.0
    x = table["value"].to_numpy(float)
    y = table["estimate"].to_numpy(float) * scale
    lo = table["low"].to_numpy(float) * scale
    hi = table["high"].to_numpy(float) * scale
    page = plt.figure(figsize=(11.69, 8.27))
    page.text(0.06, 0.95, f"{fig.label.capitalize()} against {spec['key']}", fontsize=17, weight="bold")
    page.text(0.06, 0.925, f"{scenario_name}. In the base game {spec['key']} is {spec['base_value']}.", fontsize=10,
              color=_GREY)
    page.text(0.06, 0.9, f"Every value played on the same seeds: {int(table['games'].iloc[0]):,} games per value "
              f"({len(spec['decks'])} decks, every ordered pair x {spec['games']} games; bots {spec['bots'][0]} "
              f"first, {spec['bots'][1]} second; sweep seed {spec['seed']}).", fontsize=10, color=_GREY)
    ax = page.add_axes([0.08, 0.36, 0.86, 0.46])
    err = np.vstack([np.where(np.isfinite(lo), y - lo, 0), np.where(np.isfinite(hi), hi - y, 0)])
    ax.errorbar(x, y, yerr=err, fmt="o-", color=_BLUE, ecolor=_BLUE, elinewidth=1.4, capsize=5, markersize=7,
                lw=1.6, label=f"{fig.label} (95% interval)")
    base = spec["base_value"]
    if np.any(np.isclose(x, base)):
        i = int(np.flatnonzero(np.isclose(x, base))[0])
        ax.plot([x[i]], [y[i]], "o", ms=14, mfc="none", mec=_GREY, mew=1.2, label=f"base game ({base})")
    if crossing is not None:
        t = crossing.target * scale
        ax.axhline(t, ls="--", color=_GREY, lw=1.2, label=f"target {fig.fmt(crossing.target)}")
        if np.isfinite(crossing.value):
            left = x[0] if crossing.low == -np.inf else crossing.low
            right = x[-1] if crossing.high == np.inf else crossing.high
            ax.axvspan(left, right, color=_RED, alpha=0.12, lw=0, label="95% interval of the crossing")
            ax.axvline(crossing.value, color=_RED, lw=1.6, label=f"crossing {crossing.value:.3g}")
    ax.set_xticks(x)
    ax.set_xticklabels([f"{v:g}" for v in x])
    ax.set_xlabel(spec["key"], fontsize=11)
    ax.set_ylabel(fig.label + (" (%)" if fig.rate else ""), fontsize=11)
    ax.grid(alpha=0.3)
    pad = 0.06 * (x[-1] - x[0] or 1)
    ax.set_xlim(x[0] - pad, x[-1] + pad)
    ax.legend(loc="lower left", bbox_to_anchor=(0, 1.01, 1, 0.1), ncol=4, fontsize=9, frameon=False,
              mode="expand")
    sentence = table.attrs.get("sentence", "")
    page.text(0.06, 0.285, sentence[:1].upper() + sentence[1:] + ".", fontsize=12, weight="bold", wrap=True)
    how = ("Intervals: " + table["interval"].iloc[0] + "; the crossing's interval bootstraps the games "
           + ("(the same resample at every value, since every value played the same games)" if
              table.attrs.get("paired") else "(each value resampled on its own)")
           + ", reads each resampled curve's first crossing by straight lines between neighbouring values, and "
           "counts a resampled curve that never crosses as crossing beyond the range.")
    page.text(0.06, 0.245, how, fontsize=8.5, color=_GREY, wrap=True)
    cells = [[f"{v:g}", fig.fmt(e), f"{fig.fmt(a)} to {fig.fmt(b)}", f"{g:,}"]
             for v, e, a, b, g in zip(x, table["estimate"], table["low"], table["high"], table["games"])]
    tab_ax = page.add_axes([0.06, 0.03, 0.55, 0.17])
    tab_ax.axis("off")
    t = tab_ax.table(cellText=cells, colLabels=[spec["key"], fig.label, "95% interval", "games"], loc="upper left",
                     cellLoc="center", colLoc="center")
    t.auto_set_font_size(False)
    t.set_fontsize(8.5)
    t.scale(1, 1.25)
    page.text(0.65, 0.18, "Files: scan.csv (this table), crossing.csv, summary.json;\none sweep per value under "
              "values/<value>/ (patch.toml + results).", fontsize=8.5, color=_GREY, va="top")
    path = Path(path)
    tmp = path.with_name(f".{path.name}.tmp")
    with PdfPages(tmp) as pdf:
        pdf.savefig(page)
    plt.close(page)
    tmp.replace(path)
    return path
