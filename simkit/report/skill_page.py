"""The "Does skill change the balance?" page of a panel report with search rungs.

It states first whether the ranking has converged with skill (the two strongest search rungs'
rank agreement, :func:`simkit.analysis.skill.convergence`), then draws each deck's win-rate gain
from the weakest utility personality to the top rung with its simultaneous interval
(:func:`simkit.analysis.skill.skill_depth`): which decks reward skilled play.
"""

from __future__ import annotations

from textwrap import wrap

import numpy as np
from matplotlib.axes import Axes

__all__ = ["SKILL_TABLES", "skill_words", "plot_skill_depth", "skill_pages"]

#: the CSV tables the page adds beside the PDF
SKILL_TABLES = ("skill_depth",)

_READING_COLOURS = {"rewards skill": "#2166ac", "loses with skill": "#b2182b", "within noise": "#999999"}


def skill_words(skill: dict) -> list[str]:
    """The page's sentences: convergence first, then which decks reward skill (unwrapped).

    Args:
        skill: :func:`simkit.analysis.skill.skill_tables` output.
    """
    depth, weakest, top = skill["depth"], skill["weakest"], skill["top"]
    conv = skill["convergence"]
    out = [conv["sentence"] if conv else
           f"The panel holds one search rung ({top}): convergence with skill needs two (e.g. --panel "
           f"{weakest},{top},<a stronger rung>)."]
    up = depth[depth["reading"] == "rewards skill"]
    down = depth[depth["reading"] == "loses with skill"]
    said = (f"From {weakest} to {top} (both seats played by the same bot), {len(up)} of {len(depth)} decks gain "
            f"win rate beyond noise and {len(down)} lose")
    if len(up):
        best = up.iloc[0]
        said += (f"; the most skill-rewarding is {best['deck']}, {100 * best['gain']:+.1f} points "
                 f"({100 * best['gain_low']:+.1f} to {100 * best['gain_high']:+.1f})")
    out.append(said + ".")
    return out


def plot_skill_depth(ax: Axes, depth, weakest: str, top: str) -> None:
    """Each deck's win-rate gain (points) with its simultaneous interval, coloured by its reading.

    Args:
        ax: where to draw.
        depth: :func:`simkit.analysis.skill.skill_depth` (rows in display order).
        weakest: the lower bot.
        top: the top rung.
    """
    from simkit.report.plots import _rows_font

    n = len(depth)
    y = np.arange(n)
    gain = depth["gain"].to_numpy(float) * 100
    lo, hi = depth["gain_low"].to_numpy(float) * 100, depth["gain_high"].to_numpy(float) * 100
    colours = [_READING_COLOURS.get(r, "#999999") for r in depth["reading"]]
    ax.hlines(y, lo, hi, colors=colours, lw=1.4)
    ax.scatter(gain, y, c=colours, s=14, zorder=3)
    ax.axvline(0, color="#555555", lw=0.8)
    ax.set_yticks(y, list(depth["deck"]), fontsize=_rows_font(ax, n, largest=7.5))
    ax.set_ylim(n - 0.5, -0.5)
    ax.tick_params(axis="y", length=0)
    ax.tick_params(axis="x", labelsize=7)
    ax.grid(axis="x", color="#dddddd", lw=0.5)
    ax.set_axisbelow(True)
    ax.set_xlabel(f"win rate under {top} minus under {weakest}, points (95% simultaneous interval)", fontsize=8)
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], color=c, marker="o", lw=1.4, ms=4, label=r) for r, c in _READING_COLOURS.items()]
    ax.legend(handles=handles, fontsize=7, loc="lower right", framealpha=0.9)


def skill_pages(pdf, skill: dict) -> None:
    """Add the "Does skill change the balance?" page to a report being written.

    Args:
        pdf: the :class:`~simkit.report.document.ReportPdf`.
        skill: :func:`simkit.analysis.skill.skill_tables` output.
    """
    depth = skill["depth"]
    n = len(depth)
    size = (8.27, max(11.69, 0.16 * n + 3.2))
    fig = pdf.new_page(size)
    fig.text(0.02, 1 - 0.2 / size[1], "Does skill change the balance? Convergence and skill depth", fontsize=12,
             weight="bold", va="top")
    rungs = ", ".join(skill["ladder"]["search"])
    words = skill_words(skill) + [
        f"The ladder is the panel in its order, weakest first: utility personalities "
        f"{', '.join(skill['ladder']['utility'])}; search rungs {rungs}. Each deck's gain is its win rate against "
        f"the pool with both seats played by {skill['top']} minus the same with both played by {skill['weakest']}; "
        "intervals hold for all decks together. A panel plays no games between different bots, so how often the "
        "weaker player wins (the share of the outcome the dice and cards decide) is measured by "
        "simkit ladder, not here."]
    fig.text(0.02, 1 - 0.5 / size[1], "\n".join(line for s in words for line in wrap(s, 125)), fontsize=8, va="top")
    top = 1 - 1.9 / size[1]
    height = min(top - 0.7 / size[1], (0.32 * n + 0.6) / size[1])  # a few decks get a short plot, not a page
    plot_skill_depth(fig.add_axes([0.42, top - height, 0.54, height]), depth, skill["weakest"], skill["top"])
    pdf.add(fig, "player: skill depth")
