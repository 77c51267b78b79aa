"""The report's "Does the player matter?" pages: how far the bots of a panel agree on the balance.

A panel sweep plays every pairing under each bot of the panel, the same bot in both seats. The
report's main pages describe one bot, the panel's *reference* bot (by default the last of the
panel: a designer orders a panel weakest to strongest); these pages set the other bots beside it:

- per-deck win rates under each bot, decks ordered by the reference bot (:func:`plot_bot_rates`);
- the rank correlations between every two bots with their bootstrap intervals, and the top-k
  overlap (:func:`plot_rank_agreement`);
- every flag raised under some bot, labelled ``robust`` (same side of its band under every bot)
  or ``bot-dependent`` (:func:`plot_robust_flags`);
- the pilot view: each deck's win rate under each bot with the bot that wins most with it marked
  (:func:`plot_pilots`).

The ``plot_x(ax, table)`` functions draw the tables of :func:`simkit.analysis.robustness.robustness`
on a given Axes, like :mod:`simkit.report.plots`.
"""

from __future__ import annotations

from collections.abc import Sequence
from textwrap import wrap
from types import SimpleNamespace

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colors import TwoSlopeNorm

from simkit.analysis.robustness import panel_bots, robustness
from simkit.core.words import count

__all__ = [
    "ROBUST_TABLES",
    "reference_bot",
    "reference_view",
    "panel_tables",
    "agreement_words",
    "plot_bot_rates",
    "plot_rank_agreement",
    "plot_robust_flags",
    "plot_pilots",
    "robustness_pages",
    "robustness_csvs",
]

# CSV tables beside the PDF: NAME.<name>.csv
ROBUST_TABLES = ("robust_deck_rates", "robust_agreement", "robust_flags", "pilots")
_BOT_COLOURS = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf"]


def _order(df: pd.DataFrame) -> list[str]:
    """The panel bots of ``df`` in the panel's order (``meta["panel"]`` where recorded)."""
    found = panel_bots(df)
    declared = [b for b in (df.attrs.get("meta") or {}).get("panel") or [] if b in found]
    return declared + [b for b in found if b not in declared]


def reference_bot(df: pd.DataFrame, bot: str | None = None) -> str | None:
    """The bot whose games the report's main pages describe.

    Args:
        df: the results of a sweep (a panel or not).
        bot: the bot asked for (``--bot``); ``None``: the last bot of the panel.

    Returns:
        the bot's name, or ``None`` when ``df`` is not a panel (fewer than two bots each playing
        both seats) and no bot was asked for.

    Raises:
        ValueError: ``bot`` played no game of ``df`` in both seats (one line naming the bots that did).
    """
    bots = _order(df)
    if bot is None:
        return bots[-1] if len(bots) >= 2 else None
    if bot not in bots:
        have = ", ".join(bots) or "none (every game has two different bots)"
        raise ValueError(f"--bot {bot}: no games of this bot in both seats in these results; bots: {have}")
    return bot


def reference_view(df: pd.DataFrame, bot: str) -> pd.DataFrame:
    """The games of ``df`` that ``bot`` played in both seats, with the metadata saying so."""
    part = df[(df["first_bot"] == bot) & (df["second_bot"] == bot)].reset_index(drop=True)
    part.attrs["meta"] = {**(df.attrs.get("meta") or {}), "bots": [bot, bot]}
    return part


def panel_tables(df: pd.DataFrame, reference: str, bootstrap: int = 200, seed: int = 0) -> dict:
    """:func:`~simkit.analysis.robustness.robustness` of ``df``, keyed for the report.

    Returns:
        the robustness tables plus ``reference`` (the reference bot), ``bots`` in panel order, and
        the CSV tables of :data:`ROBUST_TABLES`.
    """
    r = robustness(df, bootstrap=bootstrap, seed=seed)
    bots = [b for b in _order(df) if b in r["bots"]]
    rates = r["deck_rates"][bots]
    rates = rates.loc[rates[reference].sort_values(ascending=False, kind="stable").index]
    pilots = r["pilots"].set_index("deck").loc[rates.index].reset_index()
    flags = r["flags"].copy()
    decks = flags["kind"] == "deck"
    for b in bots:  # a deck inside its band under a bot has no flag value there: its win rate is the same number
        col = f"value_{b}"
        flags.loc[decks, col] = flags.loc[decks, col].fillna(flags.loc[decks, "subject"].map(rates[b]))
    r["flags"] = flags
    return {
        **r, "bots": bots, "reference": reference, "deck_rates": rates, "pilots": pilots,
        "csv": {
            "robust_deck_rates": rates.reset_index(),
            "robust_agreement": r["agreement"],
            "robust_flags": r["flags"],
            "pilots": pilots,
        },
    }


def _range(values: pd.Series) -> str:
    lo, hi = float(values.min()), float(values.max())
    return f"{lo:.2f}" if abs(hi - lo) < 0.005 else f"{lo:.2f} to {hi:.2f}"


def agreement_words(robust: dict) -> list[str]:
    """How far the panel's bots agree, in words: the title page's sentence, then the robust conclusions.

    Args:
        robust: :func:`panel_tables` output.

    Returns:
        sentences (unwrapped); the first says the correlations and how many flags hold under every bot.
    """
    agree, flags, bots = robust["agreement"], robust["flags"], robust["bots"]
    ok = agree.dropna(subset=["spearman"])
    if ok.empty:
        corr = "the bots' deck rankings cannot be correlated (too few decks or no spread)"
    else:
        corr = (f"Spearman {_range(ok['spearman'])} between bots (Kendall {_range(ok['kendall'])}), "
                f"top-{int(ok['top_k'].iloc[0])} overlap {_range(ok['top_overlap'] * 100).replace('.00', '')}%")
    held = int(flags["robust"].sum())
    first = (f"The {len(bots)} bots of the panel ({', '.join(bots)}): {corr}; {held} of {len(flags)} "
             f"flag{'' if len(flags) == 1 else 's'} {'holds' if held == 1 else 'hold'} under every bot.")
    out = [first]
    if len(flags):
        kinds = {"deck": "deck", "matchup": "matchup", "first_player": "first player"}
        shown = flags[flags["robust"]]
        names = "; ".join(f"{kinds.get(k, k)} {s}" for k, s in zip(shown["kind"][:6], shown["subject"][:6]))
        more = f" and {held - 6} more" if held > 6 else ""
        out.append(f"Robust (the same side of its band under every bot): {names}{more}." if held else
                   "No flag holds under every bot: each describes the bot that raised it as much as the game.")
        ref = robust["reference"]
        own = flags[flags["flagged_by"].str.split(", ").apply(lambda bs: ref in bs)]
        held_own = int(own["robust"].sum())
        if own.empty:
            out.append(f"The reference bot {ref} raises no flag of its own"
                       + (f": {'the robust flag was' if held == 1 else 'the robust flags were'} raised under another "
                          f"bot (beyond the same edge under every bot, {ref} included, but significant only there)."
                          if held else "."))
        else:
            out.append(f"Of the {len(own)} flag{'' if len(own) == 1 else 's'} of the reference bot {ref}, {held_own} "
                       f"{'is' if held_own == 1 else 'are'} robust"
                       + ("." if held_own == len(own) else "; the others may describe the bot more than the game."))
    return out


LEGEND_COLUMNS = 4  # bots a row of the deck-rates legend holds
LEGEND_ROW = 0.5  # inches a further row of that legend takes (its row and its clearance of the footer)


def _bot_colours(bots: Sequence[str]) -> dict[str, str]:
    return {b: _BOT_COLOURS[i % len(_BOT_COLOURS)] for i, b in enumerate(bots)}


def _deck_axis(ax: Axes, decks: Sequence[str], show_labels: bool = True) -> float:
    from simkit.report.plots import _rows_font

    n = len(decks)
    size = _rows_font(ax, n, largest=7.5)
    ax.set_yticks(range(n), list(decks) if show_labels else [""] * n, fontsize=size)
    ax.set_ylim(n - 0.5, -0.5)
    ax.tick_params(axis="y", length=0)
    return size


def plot_bot_rates(ax: Axes, deck_rates: pd.DataFrame, reference: str | None = None) -> None:
    """Each deck's win rate under each bot, one dot per bot on the deck's row, in the table's order.

    Args:
        ax: where to draw.
        deck_rates: decks (index) by bots (columns), win rates 0-1 (``robustness(df)["deck_rates"]``).
        reference: the reference bot, drawn larger and joined by a line (default: the last column).
    """
    reference = reference or deck_rates.columns[-1]
    colours = _bot_colours(list(deck_rates.columns))
    y = np.arange(len(deck_rates))
    values = deck_rates.to_numpy(float) * 100
    ax.hlines(y, np.nanmin(values, axis=1), np.nanmax(values, axis=1), colors="#bbbbbb", lw=0.8, zorder=1)
    ax.axvline(50, color="#555555", lw=0.8, zorder=0)
    for b in deck_rates.columns:
        ref = b == reference
        ax.plot(deck_rates[b] * 100, y, "o", ms=4.2 if ref else 3, color=colours[b], mfc=colours[b] if ref else "white",
                zorder=3 if ref else 2, label=f"{b} (reference)" if ref else b)
    _deck_axis(ax, deck_rates.index)
    ax.tick_params(axis="x", labelsize=7)
    ax.grid(axis="x", color="#dddddd", lw=0.5)
    ax.set_axisbelow(True)
    ax.set_xlabel("win rate against the pool, % (non-mirror games, both seats)", fontsize=8)
    ax.set_title(f"Win rate of each deck under each bot (decks ordered by {reference};\n"
                 "grey line: the spread between bots)", fontsize=9)
    from matplotlib.transforms import offset_copy

    ax.legend(fontsize=7, loc="upper right", framealpha=0.9, title="bot (both seats)", title_fontsize=7,
              ncol=min(len(ax.get_legend_handles_labels()[0]), LEGEND_COLUMNS), bbox_to_anchor=(1, 0),
              bbox_transform=offset_copy(ax.transAxes, fig=ax.figure, y=-30, units="points"))  # covers no dot


def _pair_matrix(agreement: pd.DataFrame, bots: Sequence[str], col: str) -> np.ndarray:
    m = np.full((len(bots), len(bots)), np.nan)
    idx = {b: i for i, b in enumerate(bots)}
    for r in agreement.itertuples():
        if r.bot_a in idx and r.bot_b in idx:
            m[idx[r.bot_a], idx[r.bot_b]] = m[idx[r.bot_b], idx[r.bot_a]] = getattr(r, col)
    return m


def plot_rank_agreement(ax: Axes, agreement: pd.DataFrame, bots: Sequence[str] | None = None,
                        measure: str = "spearman") -> None:
    """The rank correlation of deck win rates between every two bots, each cell with its 95% interval.

    Args:
        ax: where to draw.
        agreement: :func:`simkit.analysis.robustness.rank_agreement`.
        bots: the bots in display order (default: as they first appear in ``agreement``).
        measure: ``spearman`` or ``kendall``.
    """
    from matplotlib import colormaps

    bots = list(bots or dict.fromkeys([*agreement["bot_a"], *agreement["bot_b"]]))
    value = _pair_matrix(agreement, bots, measure)
    low, high = _pair_matrix(agreement, bots, f"{measure}_low"), _pair_matrix(agreement, bots, f"{measure}_high")
    np.fill_diagonal(value, 1.0)
    norm = TwoSlopeNorm(vcenter=0.0, vmin=-1.0, vmax=1.0)
    ax.imshow(np.ma.masked_invalid(value), cmap=colormaps["RdBu"].with_extremes(bad="#d9d9d9"), norm=norm)
    n = len(bots)
    font = 8 if n <= 4 else 6.5 if n == 5 else 6
    for (i, j), v in np.ndenumerate(value):
        if i == j:
            text = "1"
        elif np.isfinite(v):
            ci = f"\n[{low[i, j]:.2f}, {high[i, j]:.2f}]" if np.isfinite(low[i, j]) else ""
            text = f"{v:.2f}{ci}"
        else:
            text = "n/a"
        ax.text(j, i, text, ha="center", va="center", fontsize=font,
                color="white" if np.isfinite(v) and abs(v) > 0.66 else "black")
    ax.set_xticks(range(n), bots, fontsize=8, rotation=30, ha="right", rotation_mode="anchor")
    ax.set_yticks(range(n), bots, fontsize=8)
    ax.tick_params(length=0)
    ax.set_title(f"{measure.capitalize()} rank correlation of deck win rates\n(95% bootstrap interval)", fontsize=9)


def plot_top_overlap(ax: Axes, agreement: pd.DataFrame, bots: Sequence[str] | None = None) -> None:
    """The share of one bot's top-k decks also in the other's top-k, for every two bots.

    Args:
        ax: where to draw.
        agreement: :func:`simkit.analysis.robustness.rank_agreement`.
        bots: the bots in display order.
    """
    from matplotlib import colormaps

    bots = list(bots or dict.fromkeys([*agreement["bot_a"], *agreement["bot_b"]]))
    value = _pair_matrix(agreement, bots, "top_overlap")
    np.fill_diagonal(value, 1.0)
    ax.imshow(value, cmap=colormaps["Greens"], vmin=0, vmax=1)
    for (i, j), v in np.ndenumerate(value):
        ax.text(j, i, f"{100 * v:.0f}%" if np.isfinite(v) else "n/a", ha="center", va="center", fontsize=8,
                color="white" if np.isfinite(v) and v > 0.6 else "black")
    n = len(bots)
    ax.set_xticks(range(n), bots, fontsize=8, rotation=30, ha="right", rotation_mode="anchor")
    ax.set_yticks(range(n), bots, fontsize=8)
    ax.tick_params(length=0)
    k = int(agreement["top_k"].iloc[0]) if len(agreement) else 0
    ax.set_title(f"Top-{k} overlap: share of the top {count(k, 'deck')}\nthe two bots have in common", fontsize=9)


def _column_head(bot: str, width: int = 9) -> list[str]:
    """A bot's name as the one or two lines of a 10-character column head: split after a hyphen when too long
    (``rush-search-3`` -> ``rush-``, ``search-3``), so that bots whose names share a long prefix stay apart."""
    if len(bot) <= width:
        return [bot]
    cuts = [i + 1 for i, c in enumerate(bot) if c == "-" and i + 1 <= width and len(bot) - i - 1 <= width]
    if cuts:
        return [bot[:cuts[-1]], bot[cuts[-1]:]]
    return [bot[:width], bot[width:2 * width]]


def robust_flag_lines(flags: pd.DataFrame, bots: Sequence[str], width: int = 128) -> list[str]:
    """The monospace lines of :func:`plot_robust_flags`'s table (its header first), or its one sentence."""
    if flags.empty:
        return ["No flags under any bot: nothing is significantly outside its band."]
    kinds = {"deck": "deck", "matchup": "matchup", "first_player": "first player"}
    heads = [_column_head(b) for b in bots]
    head = f"{'label':<14}{'kind':<13}{''.join(f'{h[-1]:>10}' for h in heads)}  subject (flagged by)"
    indent = len(head) - len("subject (flagged by)")
    lines = [" " * 27 + "".join(f"{h[0] if len(h) > 1 else '':>10}" for h in heads)] if any(
        len(h) > 1 for h in heads) else []
    lines += [head, "-" * min(width, indent + 40)]
    for row in flags.to_dict("records"):  # by name: a bot such as search-2 is no Python identifier
        r = SimpleNamespace(**{k: v for k, v in row.items() if k.isidentifier()})
        vals = "".join(f"{100 * v:>9.1f}%" if np.isfinite(v) else f"{'-':>10}"
                       for v in (float(row.get(f"value_{b}", np.nan)) for b in bots))
        body = wrap(f"{r.subject}  ({r.flagged_by})", max(20, width - indent)) or [""]
        lines.append(f"{r.label:<14}{kinds.get(r.kind, r.kind):<13}{vals}  {body[0]}")
        lines.extend(" " * indent + more for more in body[1:])
    return lines


def plot_robust_flags(ax: Axes, flags: pd.DataFrame, bots: Sequence[str], width: int = 128) -> None:
    """Every flag raised under some bot, with its label and its value under each bot, as a text table.

    Args:
        ax: where to draw.
        flags: :func:`simkit.analysis.robustness.flag_robustness` (or a slice of it).
        bots: the bots whose ``value_<bot>`` columns are shown.
        width: characters per line before the subject wraps.
    """
    ax.axis("off")
    lines = robust_flag_lines(flags, bots, width)
    if flags.empty:
        ax.text(0, 1, lines[0], va="top", fontsize=9, transform=ax.transAxes)
        return
    ax.text(0, 1, "\n".join(lines), va="top", ha="left", fontsize=7, family="monospace", transform=ax.transAxes,
            linespacing=1.35)


def plot_pilots(ax: Axes, pilots: pd.DataFrame, bots: Sequence[str], colorbar: bool = True) -> None:
    """Each deck's win rate under each bot as a deck-by-bot heatmap, the deck's best pilot boxed.

    Args:
        ax: where to draw.
        pilots: :func:`simkit.analysis.robustness.best_pilot` (``deck, pilot, win_rate,
            win_rate_<bot>``), rows in display order.
        bots: the bots (columns), in display order.
        colorbar: add a colour bar beside the Axes.
    """
    from matplotlib import colormaps
    from matplotlib.patches import Rectangle

    values = pilots[[f"win_rate_{b}" for b in bots]].to_numpy(float)
    half = max(0.1, float(np.ceil(np.nanmax(np.abs(values - 0.5), initial=0.1) / 0.05) * 0.05))
    norm = TwoSlopeNorm(vcenter=0.5, vmin=max(0.0, 0.5 - half), vmax=min(1.0, 0.5 + half))
    im = ax.imshow(np.ma.masked_invalid(values), cmap=colormaps["RdBu"].with_extremes(bad="#d9d9d9"), norm=norm,
                   aspect="auto", interpolation="nearest")
    size = _deck_axis(ax, pilots["deck"])
    col = {b: j for j, b in enumerate(bots)}
    for i, p in enumerate(pilots["pilot"]):
        if p in col:
            ax.add_patch(Rectangle((col[p] - 0.45, i - 0.45), 0.9, 0.9, fill=False, lw=1.6, ec="black"))
            if len(pilots) > 40:  # no numbers in the cells: a star marks the pilot
                ax.plot(col[p], i, marker="*", ms=min(5, size), color="black")
    if len(pilots) <= 40:
        for (i, j), v in np.ndenumerate(values):
            if np.isfinite(v):
                ax.text(j, i, f"{100 * v:.0f}", ha="center", va="center", fontsize=min(7, size),
                        color="white" if abs(float(norm(v)) - 0.5) > 0.33 else "black")
    column = ax.get_position().width * ax.figure.get_figwidth() * 72 / max(len(bots), 1)  # points
    slant = max(len(b) for b in bots) * 8 * 0.6 > column  # names wider than their column are slanted
    ax.set_xticks(range(len(bots)), list(bots), fontsize=8, rotation=35 if slant else 0,
                  ha="left" if slant else "center", rotation_mode="anchor")
    ax.xaxis.tick_top()
    ax.tick_params(axis="x", length=0)
    mark = "boxed" if len(pilots) <= 40 else "boxed, *"
    pad = 18 + (max(len(b) for b in bots) * 8 * 0.6 * 0.57 if slant else 0)  # sin 35: the slanted names' height
    ax.set_title(f"Win rate of each deck under each bot (%); {mark}: the deck's best pilot", fontsize=9, pad=pad)
    if colorbar:
        cb = ax.figure.colorbar(im, ax=ax, fraction=0.05, pad=0.02)
        cb.ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
        cb.ax.tick_params(labelsize=7)


FLAGS_SHOWN = 30
COMPACT_DECKS = 12  # pools up to this many decks show the deck rates and the pilots on one page


def robustness_pages(pdf, robust: dict) -> None:
    """Add the "Does the player matter?" pages to a report being written.

    Args:
        pdf: the :class:`~simkit.report.document.ReportPdf`.
        robust: :func:`panel_tables` output.
    """
    from simkit.report.document import PORTRAIT

    bots, ref, rates = robust["bots"], robust["reference"], robust["deck_rates"]
    n = len(rates)
    tall = (8.27, max(11.69, 0.16 * n + 2.5))

    intro = "\n".join(wrap(
        f"Every pairing was played under each bot of the panel, the same bot in both seats. The other pages of "
        f"this report describe {ref}'s games only. A deck whose dots spread widely is strong or weak because of "
        "how it is played, not only because of its cards.", 130))
    counts = robust["pilots"]["pilot"].value_counts()
    says = ", ".join(f"{b} pilots {counts.get(b, 0)}" for b in bots)
    pilots_words = "\n".join(wrap(
        f"Of {n} decks: {says}. Each cell is the deck's win rate against the pool when both seats are played by "
        "that bot. A panel sweep has one bot in both seats of every game, so the metagame of decks each played by "
        "its best pilot (pilot against pilot) is not measured here: it needs games between different bots. The "
        "table is also in the pilots CSV.", 130))
    width = min(0.4, 0.1 * len(bots) + 0.05)
    legend_rows = -(-len(bots) // LEGEND_COLUMNS)
    if n <= COMPACT_DECKS:  # a small pool: the deck rates and the pilots share one page
        fig = pdf.new_page(PORTRAIT)
        h = min(0.3, 0.05 + 0.03 * n)
        plot_bot_rates(fig.add_axes([0.42, 0.9 - h, 0.54, h]), rates, ref)
        fig.text(0.02, 0.985, "Does the player matter? Deck win rates under each bot", fontsize=12, weight="bold",
                 va="top")
        fig.text(0.02, 0.96, intro, fontsize=8, va="top")
        y = 0.9 - h - 0.09 - LEGEND_ROW * (legend_rows - 1) / PORTRAIT[1]
        fig.text(0.02, y, "Best pilot: each deck with the bot that wins most with it", fontsize=12, weight="bold",
                 va="top")
        fig.text(0.02, y - 0.025, pilots_words, fontsize=8, va="top")
        plot_pilots(fig.add_axes([0.42, y - 0.1 - h, width, h]), robust["pilots"], bots)
        bottom = y - 0.1 - h - 0.025  # below the pilots' lowest row (their labels are on top)
        packed = len(bots) == 2 and agreement_height(robust, matrices=False) <= bottom - 0.02
        if not packed:
            pdf.add(fig, "player: deck rates and pilots")
    else:
        packed = False
        fig = pdf.new_page(tall)
        top = 1 - 1.3 / tall[1]
        low = 0.75 + LEGEND_ROW * (legend_rows - 1)  # inches: the axis label and the legend below it
        plot_bot_rates(fig.add_axes([0.42, low / tall[1], 0.54, top - (low + 0.4) / tall[1]]), rates, ref)
        fig.text(0.02, 1 - 0.2 / tall[1], "Does the player matter? Deck win rates under each bot", fontsize=12,
                 weight="bold", va="top")
        fig.text(0.02, 1 - 0.5 / tall[1], intro, fontsize=8, va="top")
        pdf.add(fig, "player: deck rates")

    if packed:
        agreement_block(fig, robust, bottom, matrices=False)
        pdf.add(fig, "player: deck rates, pilots and agreement")
    else:  # a page of its own, cut below its flags (a two-bot panel's one pair needs no matrix: a sentence says it)
        fig = pdf.new_page(PORTRAIT)
        lowest = agreement_block(fig, robust, 0.985, matrices=len(bots) > 2)
        pdf.add(fig, "player: agreement", down_to=lowest)

    if n > COMPACT_DECKS:
        fig = pdf.new_page(tall)
        plot_pilots(fig.add_axes([0.42, 0.4 / tall[1], width, top - 1.1 / tall[1]]), robust["pilots"], bots)
        fig.text(0.02, 1 - 0.2 / tall[1], "Best pilot: each deck with the bot that wins most with it", fontsize=12,
                 weight="bold", va="top")
        fig.text(0.02, 1 - 0.5 / tall[1], pilots_words, fontsize=8, va="top")
        pdf.add(fig, "player: pilots")


def pair_words(agreement: pd.DataFrame) -> str:
    """The intervals of a two-bot panel's one pair in words (what its 2x2 matrices would show beside the figures)."""
    r = agreement.iloc[0]
    parts = [f"{name} {r[f'{col}_low']:.2f} to {r[f'{col}_high']:.2f}" for name, col in
             (("Spearman", "spearman"), ("Kendall", "kendall")) if np.isfinite(r[f"{col}_low"])]
    return f"95% bootstrap intervals of the correlations: {', '.join(parts)}." if parts else ""


def _flag_note(more: int) -> str:
    return ("Flags under any bot (value: the deck's win rate, the winning side's rate in a matchup, or the first "
            "seat's score rate, under each bot; -: inside its band under that bot). "
            "robust: beyond the same edge of its band under every bot; "
            "bot-dependent: some bot sees it inside the band or beyond the other edge. Intervals of the correlations "
            "resample games; they say nothing of bots outside the panel." + (
                f" {more} more flags in the robust_flags CSV." if more else ""))


def _agreement_parts(robust: dict, matrices: bool) -> tuple[list[str], float, list[str], pd.DataFrame]:
    """What the agreement block writes: its sentences, the matrices' side (0: none), the flags' note and flags."""
    bots = robust["bots"]
    words = " ".join(agreement_words(robust)) + ("" if matrices else " " + pair_words(robust["agreement"]))
    side = min(0.36 if len(bots) <= 4 else 0.42, 0.08 + 0.07 * len(bots)) if matrices else 0.0
    flags = robust["flags"].sort_values("robust", ascending=False, kind="stable")
    note = wrap(_flag_note(max(len(flags) - FLAGS_SHOWN, 0)), 128)
    return wrap(words, 128), side, note, flags.head(FLAGS_SHOWN)


def _matrix_columns(bots: Sequence[str], side: float) -> tuple[tuple[float, float], tuple[float, float]]:
    """Where the two agreement matrices sit across an A4 portrait page: (left, width) of the rank correlations and
    of the top-k overlap, so that each matrix's bot labels (8 pt, the longest name's length) clear the page's
    edge and the other matrix. The overlap's cells hold a percentage only and take less width."""
    label = 0.02 + 0.0082 * max(len(b) for b in bots)  # an 8 pt character is about 0.0082 of the page's width
    narrow = side * 0.9 if len(bots) <= 4 else min(side * 0.9, 0.045 * len(bots))
    left = max(0.08, label + 0.01)
    right = 0.96 - narrow
    return (left, min(side, right - label - 0.03 - left)), (right, narrow)


def _flag_lines_room(fig, top: float) -> int:
    """How many monospace lines of the flags' table fit between ``top`` and the page's foot (its footer line)."""
    return max(int((top - 0.03) * fig.get_figheight() * 72 / (7 * 1.35)), 0)


def _flags_that_fit(flags: pd.DataFrame, bots: Sequence[str], room: int) -> int:
    """The number of leading flags whose table (header included) takes at most ``room`` lines (at least one)."""
    for k in range(len(flags), 0, -1):
        if len(robust_flag_lines(flags.head(k), bots)) <= room:
            return k
    return min(len(flags), 1)


def agreement_height(robust: dict, matrices: bool) -> float:
    """The height (figure fraction of an A4 portrait page) :func:`agreement_block` takes, measured by drawing it on
    a scratch page."""
    from matplotlib.figure import Figure

    from simkit.report.document import PORTRAIT

    return 1.0 - agreement_block(Figure(figsize=PORTRAIT), robust, 1.0, matrices)


def agreement_block(fig, robust: dict, top: float, matrices: bool) -> float:
    """The agreement between the panel's bots and the robust flags, from ``top`` down (the flags to the page's foot).

    Args:
        fig: the page.
        robust: :func:`panel_tables` output.
        top: figure fraction where the block's heading starts.
        matrices: draw the rank-correlation and top-overlap matrices; without them (a two-bot panel, whose one
            pair a sentence says with its intervals) the block is text and the flags only.

    Returns:
        the figure fraction of the block's lowest line.
    """
    bots = robust["bots"]
    said, side, note, flags = _agreement_parts(robust, matrices)
    fig.text(0.02, top, "Does the player matter? Agreement between bots and robust flags", fontsize=12,
             weight="bold", va="top")
    fig.text(0.04, top - 0.03, "\n".join(said), fontsize=8, va="top")
    y = top - 0.03 - 0.0125 * len(said)
    if side:
        (left, width), (right, narrow) = _matrix_columns(bots, side)
        low = y - 0.06 - width * 0.7
        plot_rank_agreement(fig.add_axes([left, low, width, width * 0.7]), robust["agreement"], bots)
        plot_top_overlap(fig.add_axes([right, low, narrow, narrow * 0.7]), robust["agreement"], bots)
        y = low - 0.05  # the matrices' tick labels
    y -= 0.015
    # the page's foot comes first: the flags that do not fit are in the CSV, and the note says how many
    shown = _flags_that_fit(flags, bots, _flag_lines_room(fig, y - 0.0125 * (len(note) + 1) - 0.012))
    if shown < len(flags):
        note, flags = wrap(_flag_note(len(robust["flags"]) - shown), 128), flags.head(shown)
    fig.text(0.04, y, "\n".join(note), fontsize=8, va="top", style="italic")
    y -= 0.0125 * len(note) + 0.012
    plot_robust_flags(fig.add_axes([0.04, 0.03, 0.92, max(y - 0.03, 0.01)]), flags, bots)
    return y - len(robust_flag_lines(flags, bots)) * 7 * 1.35 / 72 / fig.get_figheight()


def robustness_csvs(robust: dict) -> dict[str, pd.DataFrame]:
    """The tables of :data:`ROBUST_TABLES` to write beside the PDF."""
    return robust["csv"]
