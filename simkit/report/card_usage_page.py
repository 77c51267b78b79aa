"""The report pages of what each card did in the games (the engines' counters): per game in one sweep, and
before -> after in a comparison, with the sentences that sum them up.

The tables are :func:`simkit.analysis.card_usage` and :func:`simkit.analysis.card_usage_change`; results of
a sweep played before the engines counted (or of a game that counts nothing) get a page that says so.
"""

from __future__ import annotations

from textwrap import wrap

import numpy as np
import pandas as pd

from simkit.core.words import plural
from simkit.report.document import PORTRAIT, ReportPdf

__all__ = ["ABSENT", "change_sentence", "usage_change_pages", "usage_pages", "usage_sentences"]

#: what a page says when the results hold no counters
ABSENT = ("These results hold no card counters: the sweep was played before the engines counted what each card "
          "did, or the game counts nothing. Sweep again with this simkit to see how often each card was "
          "summoned, bought or played and its damage per game.")
LINES_PER_PAGE = 64
WRAP = 110


def _num(x: float) -> str:
    if not np.isfinite(x):
        return "-"
    return f"{x:.2f}" if abs(x) < 10 else f"{x:.1f}"


def _ci(low: float, high: float) -> str:
    return f"({_num(low)}-{_num(high)})" if np.isfinite(low) else ""


def _group(category: str, words: dict[str, str]) -> str:
    """A category in prose, plural: ``Creature kinds``; a category no deck holds (a shared pile): ``Magic cards``."""
    return plural(words[category]).capitalize() if category in words else f"{category.capitalize()} cards"


def usage_sentences(usage: pd.DataFrame, words: dict[str, str] | None = None) -> list[str]:
    """One sentence per category and counter: the card with the highest mean per game, with its interval.

    Args:
        usage: :func:`simkit.analysis.card_usage`.
        words: each category's words (the schema's ``card_categories``), for prose.
    """
    if not usage.attrs.get("counted", not usage.empty) or usage.empty:
        return [ABSENT]
    words = words or {}
    out = []
    for (category, _), part in usage.groupby(["category", "counter"], sort=False):
        part = part[part["games"] > 0]
        if part.empty or not (part["mean"] > 0).any():
            continue
        top = part.loc[part["mean"].idxmax()]
        out.append(f"{_group(category, words)}, {top['words']}: most by {top['card']}, "
                   f"{_num(top['mean'])} a game {_ci(top['low'], top['high'])}; least by "
                   f"{(low := part.loc[part['mean'].idxmin()])['card']}, {_num(low['mean'])}.")
    return out


def _lines(usage: pd.DataFrame, words: dict[str, str]) -> list[tuple[str, bool]]:
    """The monospace rows of the usage table, ``(text, is_heading)``."""
    out: list[tuple[str, bool]] = []
    for category, part in usage.groupby("category", sort=False):
        part = part[part["games"] > 0]  # a card no deck of the sweep held
        if part.empty:
            continue
        counters = list(dict.fromkeys(part["counter"]))
        head = f"{'':<18}{'games':>7}" + "".join(f"  {c[:24]:>24}" for c in counters)
        out.append((f"{_group(category, words)} (per game of a seat that "
                    f"{'held the card' if category in words else 'played'})", True))
        out.append((head, False))
        for card, rows in part.groupby("card", sort=False):
            rows = rows.set_index("counter")
            cells = "".join(f"  {_num(rows.loc[c, 'mean']) + ' ' + _ci(rows.loc[c, 'low'], rows.loc[c, 'high']):>24}"
                            for c in counters)
            out.append((f"{card[:18]:<18}{int(rows['games'].iloc[0]):>7}{cells}", False))
        legend = "; ".join(f"{c}: {w}" for c, w in dict(zip(part["counter"], part["words"])).items())
        out += [(line, False) for line in wrap(legend, WRAP)] + [("", False)]
    return out


def _write(pdf: ReportPdf, title: str, intro: list[str], lines: list[tuple[str, bool]], name: str) -> None:
    pages = [lines[i:i + LINES_PER_PAGE] for i in range(0, max(len(lines), 1), LINES_PER_PAGE)] or [[]]
    for k, part in enumerate(pages):
        fig = pdf.new_page(PORTRAIT)
        more = f" ({k + 1} of {len(pages)})" if len(pages) > 1 else ""
        fig.text(0.02, 0.985, title + more, fontsize=12, weight="bold", va="top")
        y = 0.95
        for line in (intro if k == 0 else []):
            fig.text(0.05, y, line, fontsize=8.5, va="top")
            y -= 0.0145
        y -= 0.008
        for text, heading in part:
            fig.text(0.05, y, text, fontsize=9 if heading else 7.5, va="top",
                     weight="bold" if heading else "normal", family=None if heading else "monospace")
            y -= 0.0135
        pdf.add(fig, f"{name} {k + 1}" if len(pages) > 1 else name, down_to=y)  # no half-empty page


def usage_pages(pdf: ReportPdf, usage: pd.DataFrame, words: dict[str, str]) -> None:
    """The balance report's page(s) of what each card did per game (mean and 95% interval).

    Args:
        pdf: the report.
        usage: :func:`simkit.analysis.card_usage`.
        words: each deck category's words (the schema's ``card_categories``).
    """
    title = "What the cards did: the engines' counts per game"
    if usage.empty:
        _write(pdf, title, wrap(ABSENT, WRAP), [], "card usage")
        return
    intro = [line for s in usage_sentences(usage, words) for line in wrap("- " + s, WRAP, subsequent_indent="  ")]
    intro += wrap("Each cell: the mean per game of one seat (a card of a deck counts in the games of the seats "
                  "whose deck held it), with its 95% interval; games: the seat-games counted. Counted by the "
                  "engine as it played; the table is also the card_usage CSV.", WRAP)
    _write(pdf, title, intro, _lines(usage, words), "card usage")


def change_sentence(change: pd.DataFrame, shown: int = 3) -> str:
    """The comparison's sentence on the card counts: how many changed significantly, the largest named."""
    if change.empty:
        base, patch = change.attrs.get("counted", (False, False))
        which = " and ".join(n for n, c in (("the base", base), ("the patch", patch)) if not c) or "one sweep"
        return (f"Card counts: {which} holds no card counters (swept before the engines counted), so what each "
                "card did cannot be compared; sweep it again.")
    sig = change[change["significant"]]
    n = int(change.attrs.get("compared", len(change)))
    if sig.empty:
        return (f"Card counts: none of {n} changed significantly (simultaneous 95% intervals): the patch did not "
                "measurably change how the cards were played.")
    named = "; ".join(f"{r.card} {r.counter} {_num(r.base)} -> {_num(r.patch)} a game ({_num(r.change)}, "
                      f"{_num(r.low)} to {_num(r.high)})" for r in sig.head(shown).itertuples())
    return f"Card counts: {len(sig)} of {n} changed significantly (simultaneous 95% intervals): {named}."


def usage_change_pages(pdf: ReportPdf, change: pd.DataFrame) -> None:
    """The comparison's page(s) of each card's counts per game, base -> patch, significant changes first.

    Args:
        pdf: the report.
        change: :func:`simkit.analysis.card_usage_change`.
    """
    title = "Why it moved: what the cards did, base -> patch"
    intro = wrap(change_sentence(change), WRAP)
    if change.empty:
        _write(pdf, title, intro, [], "card usage changes")
        return
    intro += wrap("Per game of a seat holding the card, mean and 95% interval in each sweep; the change's interval "
                  f"is simultaneous over the {change.attrs.get('compared')} counts compared (Bonferroni), so a change "
                  "is marked * (significant) exactly when its interval leaves out 0. Unmarked changes are noise. "
                  "Also the card_usage_changes CSV.", WRAP)
    head = f"  {'card':<16}{'count':<10}{'base':>18}{'patch':>18}{'change (interval)':>26}"
    lines = [(head, False)]
    for r in change.itertuples():
        mark = "*" if r.significant else " "
        base = f"{_num(r.base)} {_ci(r.base_low, r.base_high)}"
        patch = f"{_num(r.patch)} {_ci(r.patch_low, r.patch_high)}"
        delta = f"{_num(r.change)} ({_num(r.low)} to {_num(r.high)})" if np.isfinite(r.change) else "not in both"
        lines.append((f"{mark} {r.card[:16]:<16}{r.counter[:10]:<10}{base:>18}{patch:>18}{delta:>26}", False))
    _write(pdf, title, intro, lines, "card usage changes")
