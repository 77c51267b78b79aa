"""The "How the games play" pages of the balance report, and their sentence on the first page.

The pages read :func:`simkit.analysis.experience.experience_tables` (``tables["experience"]`` of
:func:`simkit.analysis.analyze`): the sentence of the first page (:func:`experience_words`, made by
:func:`simkit.core.words.experience_sentence`), what each figure means and whose each bar is (the designer's, simkit's
where the rules give none, or simkit's default), the length of the games against the target range, each deck's
comebacks and games decided early with their intervals, then the flags and the figures by deck and by matchup. Results
without the figures get no page; the first page says why in one line.
"""

from __future__ import annotations

from textwrap import wrap

import numpy as np
import pandas as pd
from matplotlib.axes import Axes

from simkit.analysis.experience import FIGURES, experience_estimate
from simkit.core.words import experience_sentence, plural
from simkit.report.document import PORTRAIT, ReportPdf

__all__ = ["EXPERIENCE_TABLES", "experience_csv", "experience_words", "more_lines", "bar_lines", "plot_length_target",
           "plot_deck_experience", "figure_lines", "experience_pages"]

#: the CSV tables the pages add beside the PDF
EXPERIENCE_TABLES = ("experience", "experience_flags")
DECKS_PLOTTED = 40   # decks drawn on the page at most (those with the fewest comebacks, then the most); all in the CSV
TABLE_ROWS = 70      # rows of the by-deck and by-matchup table on the pages at most; all in the CSV
WRAP = 125


def experience_csv(tables: dict) -> dict[str, pd.DataFrame]:
    """The pages' CSV tables (:data:`EXPERIENCE_TABLES`) when the results have the figures, else none."""
    exp = tables.get("experience") or {}
    if exp.get("missing", "none") is not None:
        return {}
    return {"experience": exp["figures"], "experience_flags": exp["flags"]}


def _overall(exp: dict) -> pd.Series:
    f = exp["figures"]
    return f[f["scope"] == "overall"].iloc[0]


def experience_words(tables: dict) -> str | None:
    """The first page's sentence on how the games play: the overall figures with their intervals and the flags
    (:func:`simkit.core.words.experience_sentence`), or the one line saying why the results have none; ``None`` when
    the tables were made without the experience analysis."""
    exp = tables.get("experience")
    if not exp:
        return None
    if exp["missing"] is not None:
        return exp["missing"]
    row = _overall(exp)
    settings = exp["settings"]
    figures = {name: experience_estimate(row, name) for name in FIGURES}
    flags = exp["flags"]
    flagged = list(zip(flags["kind"], flags["scope"], flags["subject"]))
    subjects = exp["subjects"]
    overall = subjects[(subjects["scope"] == "overall") & ~subjects["flagged"]]
    beyond = list(dict.fromkeys(overall.loc[overall["outside"], "kind"]))
    return experience_sentence(figures, flagged, beyond, settings.target_turns, exp["schema"].turn_words)


_SOURCE = {"designer": "the designer's", "authored": "simkit's choice: the rules give none",
           "default": "simkit's default"}


def more_lines(exp: dict) -> list[str]:
    """The overall figures the first page's sentence leaves out: lead changes, the decision factor, the uncertainty
    (each with its 95% interval, or why it has none), as sentences."""
    row = _overall(exp)

    def mean(name: str, digits: int = 2) -> str:
        e = experience_estimate(row, name)
        ci = f" (95% CI {e.low:.{digits}f}-{e.high:.{digits}f})" if np.isfinite(e.low) else ""
        return f"{e.value:.{digits}f}{ci}"

    out = [f"Lead changes: {mean('lead_changes')} per game."]
    out.append(f"Decision factor: {mean('choices', 1)} legal actions per decision on average." if row["choices_n"]
               else "Decision factor: not measured (no decision was recorded).")
    out.append(f"Uncertainty of the outcome: {mean('uncertainty')} (1: either side as likely to win, 0: certain)."
               if row["uncertainty_n"] else "Uncertainty of the outcome: not measured (no bot of these games "
               "estimated its chance to win).")
    return [" ".join(out)]


def bar_lines(settings, unit: str = "turn") -> list[str]:
    """What each figure means and whose each bar is, as sentences (unwrapped).

    Args:
        settings: the :class:`~simkit.scenario.ExperienceSettings` the figures were measured with.
        unit: what the game calls a turn.
    """
    s, u = settings, plural(unit)

    def who(key: str) -> str:
        return _SOURCE[s.source(key)]

    target = (f"Target length: {s.target_turns[0]:g}-{s.target_turns[1]:g} {u} ({who('target_turns')}); 'too long' "
              f"and 'too short' flag a subject where most games (more than half, tested) last longer than "
              f"{s.target_turns[1]:g} or shorter than {s.target_turns[0]:g}." if s.target_turns is not None else
              "Target length: none (the scenario's [experience] table gives no target_turns), so no length flag.")
    return [
        target,
        f"A comeback is a game won by a side once behind by more than a lead of {s.comeback:g} on the game's lead "
        f"signal (-1 to +1; {who('comeback')}); a game is decided early when its winner stayed ahead from "
        f"{100 * s.early:.0f}% of its {u} on ({who('early')}); a side is ahead when its lead exceeds "
        f"{s.level_band:g} ({who('level_band')}). Lead changes count the times the side ahead changed.",
        f"Flags: snowballing when comebacks are below {100 * s.comebacks:g}% of the games won ({who('comebacks')}) "
        f"and games decided early above {100 * s.decided_early:g}% ({who('decided_early')}); decided early above "
        f"that bar alone; drawish when draws are above {100 * s.draws:g}% of games ({who('draws')}). A flag needs "
        "its estimate beyond its bar and an exact binomial test that stays significant after a correction within "
        "its family (Holm over the overall and per-deck tests, Benjamini-Hochberg over the matchups), as the "
        "balance flags do; intervals are 95% (Wilson for shares, Student's t for means).",
    ]


def plot_length_target(ax: Axes, turns: pd.DataFrame, target: tuple[float, float] | None, unit: str = "turn",
                       bins: int = 30) -> None:
    """How long the games last (a histogram of :func:`simkit.analysis.turn_counts`), the target range shaded.

    Args:
        ax: where to draw.
        turns: games per length (``turns``, ``games``).
        target: the target range in turns, or ``None``.
        unit: what the game calls a turn.
        bins: bars at most.
    """
    hi = int(turns["turns"].max()) if len(turns) else 1
    edges = np.linspace(0.5, hi + 0.5, min(bins, hi) + 1)
    counts, _ = np.histogram(turns["turns"], bins=edges, weights=turns["games"])
    if target is not None:
        ax.axvspan(target[0] - 0.5, target[1] + 0.5, color="#e8f0e0", zorder=0,
                   label=f"target {target[0]:g}-{target[1]:g} {plural(unit)}")
    ax.bar(edges[:-1], counts, width=np.diff(edges), align="edge", color="#1f4e79", edgecolor="white", lw=0.3,
           zorder=2, label="games")
    ax.set_xlabel(f"{plural(unit)} played", fontsize=8)
    ax.set_ylabel("games", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=7, loc="upper right")
    ax.set_title("How long the games last", fontsize=9)


def plot_deck_experience(left: Axes, right: Axes, figures: pd.DataFrame, settings) -> None:
    """Comebacks (left) and games decided early (right), all games first then each deck, with 95% intervals; the
    side of each bar where no flag lies is shaded.

    Args:
        left, right: where to draw (they share the rows).
        figures: rows of :func:`simkit.analysis.experience.experience_figures` (overall and per deck), in the order
            drawn.
        settings: the bars.
    """
    from simkit.report.plots import _forest

    labels = ["all games" if s == "overall" else str(d) for s, d in zip(figures["scope"], figures["subject"])]
    colours = ["#000000" if s == "overall" else "#1f4e79" for s in figures["scope"]]
    _forest(left, labels, figures["comebacks"], figures["comebacks_low"], figures["comebacks_high"], colours,
            band=(settings.comebacks, 1.0), xlabel="share of the games won (95% CI)",
            title=f"Comebacks (bar {100 * settings.comebacks:g}%)")
    _forest(right, labels, figures["decided_early"], figures["decided_early_low"], figures["decided_early_high"],
            colours, band=(0.0, settings.decided_early), xlabel="share of the games won (95% CI)",
            title=f"Decided early (bar {100 * settings.decided_early:g}%)", show_labels=False)
    for ax in (left, right):
        ax.set_xlim(-0.02, 1.02)
        ax.xaxis.set_major_formatter(lambda x, _: f"{100 * x:.0f}%")


def _pct(x: float) -> str:
    return "" if not np.isfinite(x) else f"{100 * x:.0f}%"


def _share_ci(row, name: str) -> str:
    v, lo, hi = row[name], row[f"{name}_low"], row[f"{name}_high"]
    return "" if not np.isfinite(v) else f"{100 * v:.0f}% ({100 * lo:.0f}-{100 * hi:.0f})"


def figure_lines(figures: pd.DataFrame, target: bool, width: int = 60) -> list[str]:
    """The by-deck or by-matchup figures as monospace lines, a header first.

    Args:
        figures: rows of :func:`simkit.analysis.experience.experience_figures`.
        target: whether the scenario gives a target length (the in-target column).
        width: characters of the subject column (a longer name is cut, a matchup on both sides).
    """
    head = (f"{'':<{width}} {'games':>6} {'turns':>6} " + (f"{'in target':>9} " if target else "")
            + f"{'comebacks (95% CI)':>19} {'decided early':>15} {'lead ch.':>8} {'drawn':>6} {'choices':>7}")
    out = [head]
    for _, r in figures.iterrows():
        name = _cut(str(r["subject"]), width)
        out.append(f"{name:<{width}} {int(r['games']):>6} {r['turns']:>6.1f} "
                   + (f"{_pct(r['in_target']):>9} " if target else "")
                   + f"{_share_ci(r, 'comebacks'):>19} {_share_ci(r, 'decided_early'):>15} "
                   f"{r['lead_changes']:>8.2f} {_pct(r['draws']):>6} "
                   + (f"{r['choices']:>7.1f}" if np.isfinite(r["choices"]) else f"{'':>7}"))
    return out


def _cut(name: str, width: int) -> str:
    """``name`` within ``width`` characters: a matchup ``A vs B`` cuts each side (both decks stay told apart), any other
    name its end, with ``...``."""
    if len(name) <= width:
        return name
    a, sep, b = name.partition(" vs ")
    if sep:
        side = (width - len(sep)) // 2
        return f"{a if len(a) <= side else a[:side - 2] + '..'}{sep}{b if len(b) <= side else b[:side - 2] + '..'}"
    return name[:width - 3] + "..."


def _ordered(figures: pd.DataFrame, flags: pd.DataFrame) -> pd.DataFrame:
    """The deck rows then the matchup rows of ``figures``, in each the flagged subjects first (in the flags' order),
    then the others by name."""
    out = []
    for scope in ("deck", "matchup"):
        part = figures[figures["scope"] == scope]
        named = list(dict.fromkeys(flags.loc[flags["scope"] == scope, "subject"]))
        rank = {s: i for i, s in enumerate(named)}
        key = [rank.get(s, len(rank)) for s in part["subject"]]
        out.append(part.assign(_k=key).sort_values(["_k", "subject"], kind="stable").drop(columns="_k"))
    return pd.concat(out)


def _decks_drawn(figures: pd.DataFrame) -> tuple[pd.DataFrame, int]:
    """The overall row and the decks to draw (all up to :data:`DECKS_PLOTTED`, else those with the fewest and the
    most comebacks), and how many decks are left out."""
    overall = figures[figures["scope"] == "overall"]
    decks = figures[figures["scope"] == "deck"].sort_values("comebacks", kind="stable")
    if len(decks) <= DECKS_PLOTTED:
        return pd.concat([overall, decks]), 0
    half = DECKS_PLOTTED // 2
    return pd.concat([overall, decks.head(half), decks.tail(half)]), len(decks) - DECKS_PLOTTED


def experience_pages(pdf: ReportPdf, tables: dict) -> None:
    """Add the "How the games play" pages to a report being written (nothing when the results have no figures).

    Args:
        pdf: the report being written.
        tables: :func:`simkit.analysis.analyze` output (its ``experience`` and ``turns`` tables).
    """
    exp = tables.get("experience")
    if not exp or exp["missing"] is not None:
        return
    settings, schema = exp["settings"], exp["schema"]
    unit = schema.turn_words
    fig = pdf.new_page(PORTRAIT)
    height = fig.get_figheight()
    fig.text(0.02, 0.985, "How the games play", fontsize=12, weight="bold", va="top")
    lead = wrap(experience_words(tables), 100)
    fig.text(0.04, 0.955, "\n".join(lead), fontsize=9, weight="bold", va="top", linespacing=1.3)
    y = 0.955 - (len(lead) * 9 * 1.3 + 8) / (72 * height)
    notes = [line for s in more_lines(exp) + bar_lines(settings, unit) for line in wrap(s, WRAP)]
    fig.text(0.04, y, "\n".join(notes), fontsize=7.5, va="top", linespacing=1.3)
    y -= (len(notes) * 7.5 * 1.3 + 16) / (72 * height)
    plot_length_target(fig.add_axes([0.09, y - 0.17, 0.86, 0.15]), tables["turns"], settings.target_turns, unit)
    y -= 0.17 + 0.09  # room for the histogram's x label above the heading below
    drawn, left_out = _decks_drawn(exp["figures"])
    fig.text(0.02, y + 0.04, f"Comebacks and games decided early, all games then each {schema.deck_words}",
             fontsize=10, weight="bold", va="top")
    if left_out:
        fig.text(0.02, y + 0.02, f"{left_out} {plural(schema.deck_words)} with middling comebacks are left out (the "
                 f"{DECKS_PLOTTED // 2} with the fewest and the {DECKS_PLOTTED // 2} with the most are drawn); every "
                 f"{schema.deck_words} is in the experience CSV.", fontsize=7.5, va="top")
        y -= 0.02
    h = min(0.86, 0.03 + 0.0125 * len(drawn))
    h = min(h, y - 0.08)
    plot_deck_experience(fig.add_axes([0.42, y - h, 0.26, h]), fig.add_axes([0.71, y - h, 0.26, h]), drawn,
                         settings)
    pdf.add(fig, "how the games play", down_to=y - h - 0.05)

    flags = exp["flags"]
    figures = exp["figures"]
    target = settings.target_turns is not None
    fig = pdf.new_page(PORTRAIT)
    fig.text(0.02, 0.985, "How the games play: flags, and the figures by deck and by matchup", fontsize=12,
             weight="bold", va="top")
    lines = ([f"Experience flags (significant after correction): {len(flags)}"]
             + ([line for i, m in enumerate(flags["message"], 1)
                 for line in wrap(f"{i}. {m}", WRAP, subsequent_indent="    ")] if len(flags) else
                ["No experience flag: nothing lies significantly beyond its bar."]) + [""])
    rows = _ordered(figures, flags)
    shown = pd.concat([figures[figures["scope"] == "overall"], rows.head(TABLE_ROWS)])
    table = figure_lines(shown, target, width=min(50, max(12, int(shown["subject"].str.len().max()))))
    more = len(rows) - min(len(rows), TABLE_ROWS)
    lines += wrap("Figures by deck and by matchup: games, mean turns, the share inside the target length, comebacks "
                  "and games decided early (shares of the games won, with their 95% CI), lead changes per game, the "
                  "share drawn, legal actions per decision; decks, then matchups, each flagged one first, the rest by "
                  "name (every figure with its interval is in the experience CSV).",
                  WRAP)
    step = 9.2 / (72 * height)
    fig.text(0.03, 0.955, "\n".join(lines), fontsize=7.5, va="top", linespacing=1.3)
    top = 0.955 - len(lines) * 7.5 * 1.3 / (72 * height) - 0.01
    limit = int((top - 0.05) / step)
    cut = table[:limit]
    if more or len(table) > limit:
        cut.append(f"... {more + max(len(table) - limit, 0)} more rows in the experience CSV")
    fig.text(0.03, top, "\n".join(cut), fontsize=6.5, family="monospace", va="top", linespacing=1.35)
    pdf.add(fig, "how the games play: figures", down_to=top - len(cut) * step - 0.01)
