"""Balance plots, Axes first: every ``plot_x(ax, table)`` draws one analysis table on a given Axes.

They take the tidy tables of :mod:`simkit.analysis` (or of :mod:`simkit.analysis.paired`) and never touch
pyplot's global state, so a designer can reuse them in a notebook::

    fig, ax = plt.subplots(figsize=(8, 8))
    plot_matchup_heatmap(ax, tables["matchups"], order=tables["decks"]["deck"])

Rates are shown as percentages; advantages and deltas in points (one point = 1% of games).
"""

from __future__ import annotations

from collections.abc import Sequence
from textwrap import wrap

import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.colors import ListedColormap, TwoSlopeNorm
from matplotlib.lines import Line2D

from simkit.analysis.matchups import win_rate_table

__all__ = [
    "FLAG_LINE",
    "FULL_LABELS_UP_TO",
    "flag_lines",
    "group_colours",
    "plot_matchup_heatmap",
    "plot_delta_heatmap",
    "plot_deck_win_rates",
    "plot_deck_ratings",
    "plot_first_player",
    "plot_first_player_matchups",
    "plot_card_win_rates",
    "plot_pair_synergy",
    "plot_nash_mix",
    "plot_nash_shift",
    "plot_game_length",
    "plot_end_reasons",
    "plot_deltas",
    "plot_flags",
]

FULL_LABELS_UP_TO = 24  # heatmaps name column decks in full up to this many; beyond, by rank number
_MISSING = "#d9d9d9"
_CMAP = "RdBu"           # red: the row deck loses, blue: it wins; white: even


def _rows_font(ax: Axes, n: int, largest: float = 9.0, smallest: float = 3.5) -> float:
    """A font size (points) that fits ``n`` rows of labels in the height of ``ax``."""
    height_pt = ax.get_position().height * ax.figure.get_figheight() * 72
    return float(np.clip(0.78 * height_pt / max(n, 1), smallest, largest))


def group_colours(groups: Sequence[str]) -> dict[str, tuple]:
    """A colour per deck group (the cards of a deck's first category, e.g. its artifact): tab10 in
    alphabetical order, for consistent legends."""
    from matplotlib import colormaps

    cmap = colormaps["tab10"]
    return {g: cmap(i % 10) for i, g in enumerate(sorted(set(groups)))}


def _group_legend(ax: Axes, colours: dict, title: str, fontsize: float = 7, loc: str = "lower right",
                  below: bool = False, right: bool = False) -> None:
    """The groups' colours; ``below``: in a row under the Axes' x label, ``right``: beside the Axes, where it
    covers no data."""
    if len(colours) > 12:  # a legend longer than the plot helps no one
        return
    handles = [Line2D([], [], marker="o", ls="", color=c, label=a) for a, c in colours.items()]
    if below:
        from matplotlib.transforms import offset_copy

        ax.legend(handles=handles, fontsize=fontsize, loc="upper right", title=title or None,
                  title_fontsize=fontsize, framealpha=0.9, ncol=min(len(handles), 4), bbox_to_anchor=(1, 0),
                  bbox_transform=offset_copy(ax.transAxes, fig=ax.figure, y=-30, units="points"))
        return
    if right:
        ax.legend(handles=handles, fontsize=fontsize, loc="upper left", bbox_to_anchor=(1.01, 1), title=title or None,
                  title_fontsize=fontsize, framealpha=0.9)
        return
    ax.legend(handles=handles, fontsize=fontsize, loc=loc, title=title or None, title_fontsize=fontsize,
              framealpha=0.9)


def _square(ax: Axes, values: pd.DataFrame, norm, ranked_labels: bool, title: str, cbar_label: str,
            colorbar: bool, annotate_fmt: str | None):
    """Draw a square deck-by-deck table as a heatmap; missing cells (mirrors) in grey."""
    d = len(values)
    data = np.ma.masked_invalid(values.to_numpy(float))
    from matplotlib import colormaps

    cmap = colormaps[_CMAP].with_extremes(bad=_MISSING)
    im = ax.imshow(data, cmap=cmap, norm=norm, interpolation="nearest", aspect="equal")
    size = _rows_font(ax, d, largest=8)
    numbers = [str(i + 1) for i in range(d)]
    full = ranked_labels and (d > FULL_LABELS_UP_TO or not _columns_fit(ax, d, size))
    rows = [f"{deck}  {n}" for n, deck in zip(numbers, values.index)] if full else list(values.index)
    ax.set_yticks(range(d), rows, fontsize=size)
    if full:
        ax.set_xticks(range(d), numbers, fontsize=size, rotation=90)
    else:
        ax.set_xticks(range(d), list(values.columns), fontsize=size, rotation=35, ha="right", rotation_mode="anchor")
    ax.tick_params(length=0, pad=1)
    ax.set_xlabel("opponent (by the row number of the same deck)" if full else "opponent", fontsize=8)
    ax.set_title(title, fontsize=10)
    if annotate_fmt and d <= 16:
        for (i, j), v in np.ndenumerate(values.to_numpy(float)):
            if np.isfinite(v):
                ax.text(j, i, annotate_fmt.format(v), ha="center", va="center", fontsize=min(8, size),
                        color=_ink(norm, v))
    if colorbar:
        cb = ax.figure.colorbar(im, ax=ax, fraction=0.035, pad=0.02)
        cb.set_label(cbar_label, fontsize=8)
        cb.ax.tick_params(labelsize=7)
    return im


def _columns_fit(ax: Axes, columns: int, size: float) -> bool:
    """Whether ``columns`` labels set at 35 degrees in ``size`` points keep apart across the width of ``ax``: the
    gap between two neighbours, measured across the text, must hold a line of it."""
    pitch = ax.get_position().width * ax.figure.get_figwidth() * 72 / max(columns, 1)
    return pitch * np.sin(np.radians(35)) >= 1.6 * size  # a line of text and a little air


def _ink(norm, value: float) -> str:
    """Black text on light cells, white on dark ones (far from the colour map's centre)."""
    return "white" if abs(float(norm(value)) - 0.5) > 0.33 else "black"


#: colour scales shared by every report, so the same colour means the same number in any two reports
CHANGE_SCALE = 30.0      # points of a matchup's change (compare), either way
SEAT_SCALE = 30.0        # points of the first seat's advantage in a matchup, either way
SYNERGY_SCALE = 10.0     # points of a card pair's synergy, either way
SYNERGY_MIN_DECKS = 2    # a pair held by fewer decks is drawn as noise (white)


def plot_matchup_heatmap(ax: Axes, matchups: pd.DataFrame, order: Sequence[str] | None = None,
                         colorbar: bool = True):
    """Win rate of each row deck against each column deck, coloured around an even 50%.

    Args:
        ax: where to draw.
        matchups: :func:`simkit.analysis.matchup_matrix`.
        order: decks in display order, strongest first (default: alphabetical); with many decks the
            columns are numbered like the rows.
        colorbar: add a colour bar beside the Axes.

    Returns:
        the image (for a custom colour bar).
    """
    table = win_rate_table(matchups, order)
    mirror = np.eye(len(table), dtype=bool)
    unmet = table.isna().to_numpy() & ~mirror  # two decks the seat pools never pair (each sits one seat only)
    table = table.mask(mirror)
    half = 0.5  # the same scale in every report: 0-100%
    norm = TwoSlopeNorm(vcenter=0.5, vmin=max(0.0, 0.5 - half), vmax=min(1.0, 0.5 + half))
    grey = "grey: mirror, or two decks the seat pools never pair" if unmet.any() else "grey: mirror"
    im = _square(ax, table * 1.0, norm, True, "Win rate of the row deck against the column deck\n"
                 f"(both seats pooled, a draw counts half; {grey})", "row deck's win rate", colorbar, "{:.0%}")
    if colorbar:
        cb = im.colorbar
        cb.ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
    return im


def plot_delta_heatmap(ax: Axes, matchup_deltas: pd.DataFrame, order: Sequence[str] | None = None,
                       colorbar: bool = True):
    """Change of each matchup's win rate from base to patch, in points, coloured around no change.

    Args:
        ax: where to draw.
        matchup_deltas: :func:`simkit.analysis.paired.matchup_deltas` (``deck, opponent, delta``).
        order: decks in display order (default: alphabetical).
        colorbar: add a colour bar beside the Axes.

    Returns:
        the image.
    """
    table = win_rate_table(matchup_deltas, order, value="delta") * 100
    table = table.mask(np.eye(len(table), dtype=bool))
    noise = None
    if "significant" in matchup_deltas.columns:
        sig = win_rate_table(matchup_deltas.assign(sig=matchup_deltas["significant"].astype(float)), order,
                             value="sig")
        noise = (sig.to_numpy(float) < 0.5) & np.isfinite(table.to_numpy(float))
    shown = table.mask(noise) if noise is not None else table
    finite = shown.to_numpy(float)
    half = CHANGE_SCALE
    norm = TwoSlopeNorm(vcenter=0.0, vmin=-half, vmax=half)
    title = ("Change in the row deck's win rate against the column deck\n(patch minus base, points; blue: the "
             "row deck gained" + ("; white, grey number: not significant, noise)" if noise is not None else ")"))
    im = _square(ax, shown, norm, True, title, "points (patch - base), significant cells", colorbar, "{:+.0f}")
    if noise is not None:
        ax.imshow(np.ma.masked_where(~noise, np.ones_like(finite)), cmap=ListedColormap(["#ffffff"]),
                  interpolation="nearest", aspect="equal")
        if len(table) <= 16:
            for (i, j), v in np.ndenumerate(table.to_numpy(float)):
                if noise[i, j]:
                    ax.text(j, i, f"{v:+.0f}", ha="center", va="center", fontsize=7, color="#9e9e9e")
    return im


def _forest(ax: Axes, labels, value, low, high, colours=None, marker_fill=None, xlabel: str = "",
            title: str = "", band: tuple[float, float] | None = None, centre: float | None = None,
            show_labels: bool = True) -> None:
    """Points with interval whiskers, one row per label, first label on top."""
    n = len(labels)
    y = np.arange(n)
    value, low, high = (np.asarray(a, dtype=float) for a in (value, low, high))
    colours = colours if colours is not None else ["#1f4e79"] * n
    if band is not None:
        ax.axvspan(*band, color="#e8f0e0", zorder=0)
    if centre is not None:
        ax.axvline(centre, color="#555555", lw=0.8, zorder=1)
    ax.hlines(y, low, high, colors=colours, lw=1.1, zorder=2)
    fill = marker_fill if marker_fill is not None else [True] * n
    for yy, v, c, f in zip(y, value, colours, fill):
        ax.plot([v], [yy], "o", ms=3.2, color=c, mfc=c if f else "white", zorder=3)
    size = _rows_font(ax, n, largest=7.5)
    ax.set_yticks(y, list(labels), fontsize=size)
    if not show_labels:
        ax.tick_params(axis="y", labelleft=False)
    ax.set_ylim(n - 0.5, -0.5)
    ax.tick_params(axis="y", length=0)
    ax.tick_params(axis="x", labelsize=7)
    ax.grid(axis="x", color="#dddddd", lw=0.5)
    ax.set_axisbelow(True)
    ax.set_xlabel(xlabel, fontsize=8)
    if title:
        ax.set_title(title, fontsize=9)


def plot_deck_win_rates(ax: Axes, decks: pd.DataFrame, band: tuple[float, float] = (0.45, 0.55),
                        show_labels: bool = True) -> None:
    """Each deck's win rate against the rest of the pool with its 95% interval, in table order.

    Args:
        ax: where to draw.
        decks: :func:`simkit.analysis.deck_strength` (or a slice of it).
        band: the balanced band, shaded.
        show_labels: name the decks on the y axis.
    """
    colours = group_colours(decks["group"])
    _forest(ax, decks["deck"], decks["win_rate"] * 100, decks["low"] * 100, decks["high"] * 100,
            [colours[g] for g in decks["group"]], xlabel="win rate, % (95% CI)",
            title=f"Win rate against the pool\n(shaded: the {band[0] * 100:g}-{band[1] * 100:g}% band)",
            band=(band[0] * 100, band[1] * 100), centre=50,
            show_labels=show_labels)


def plot_deck_ratings(ax: Axes, decks: pd.DataFrame, show_labels: bool = True) -> None:
    """Each deck's Bradley-Terry rating (Elo scale, 0 = pool average) with its bootstrap 95% interval
    (a deck without one, ``NaN``, gets no whisker, and the axis label says so).

    Args:
        ax: where to draw.
        decks: :func:`simkit.analysis.deck_strength` (or a slice of it).
        show_labels: name the decks on the y axis.
    """
    colours = group_colours(decks["group"])
    low = decks["rating_low"].fillna(decks["rating"])
    high = decks["rating_high"].fillna(decks["rating"])
    unknown = int((decks["rating_low"].isna() | decks["rating_high"].isna()).sum())
    what = "95% bootstrap CI" if not unknown else (
        "no interval: the games cannot estimate one" if unknown == len(decks) else
        f"95% bootstrap CI; {unknown} without: the games cannot estimate one")
    _forest(ax, decks["deck"], decks["rating"], low, high, [colours[g] for g in decks["group"]],
            xlabel=f"rating, Elo points ({what})",
            title="Bradley-Terry rating\n(0: pool average; +100: 64% vs a 0)", centre=0, show_labels=show_labels)
    _group_legend(ax, colours, decks.attrs.get("group_title", ""), fontsize=6, below=True)


def plot_first_player(ax: Axes, first_player: pd.DataFrame, order: Sequence[str] | None = None,
                      limit: float = 0.05, show_labels: bool = True) -> None:
    """First-player advantage in points with 95% intervals: overall on top, then each deck.

    Args:
        ax: where to draw.
        first_player: :func:`simkit.analysis.first_player_advantage`.
        order: decks to show, in order (default: every deck, alphabetical).
        limit: the tolerated advantage, shaded (0.05 = five points either way).
        show_labels: name the rows on the y axis.
    """
    overall = first_player[first_player["scope"] == "overall"]
    per_deck = first_player[first_player["scope"] == "deck"].set_index("deck")
    per_deck = per_deck.reindex(list(order)) if order is not None else per_deck.sort_index()
    labels = ["ALL GAMES"] + list(per_deck.index)
    rows = pd.concat([overall.set_index(pd.Index(["ALL GAMES"])), per_deck])
    colours = ["#b03a2e"] + ["#1f4e79"] * len(per_deck)
    _forest(ax, labels, rows["advantage"] * 100, rows["low"] * 100, rows["high"] * 100, colours,
            xlabel=f"points above 50% for the player moving first (95% CI; shaded: +-{limit * 100:g} points)",
            title="First-player advantage", band=(-limit * 100, limit * 100), centre=0, show_labels=show_labels)


def plot_first_player_matchups(ax: Axes, first_player: pd.DataFrame, order: Sequence[str] | None = None,
                               colorbar: bool = True):
    """First-player advantage in each matchup, in points, as a symmetric deck-by-deck heatmap.

    Cell (A, B) and cell (B, A) are the same number: the first seat's score rate minus 50% over
    the games of A and B in both seatings; the diagonal holds the mirrors.

    Args:
        ax: where to draw.
        first_player: :func:`simkit.analysis.first_player_advantage` (its ``matchup`` rows).
        order: decks in display order, strongest first (default: alphabetical).
        colorbar: add a colour bar beside the Axes.

    Returns:
        the image.
    """
    rows = first_player[first_player["scope"] == "matchup"]
    both = pd.concat([rows, rows.rename(columns={"deck": "opponent", "opponent": "deck"})])
    both = both.drop_duplicates(["deck", "opponent"])
    table = win_rate_table(both, order, value="advantage") * 100
    half = SEAT_SCALE
    norm = TwoSlopeNorm(vcenter=0.0, vmin=-half, vmax=half)
    im = _square(ax, table, norm, True, "First-player advantage in the matchup of the row and column decks\n"
                 "(points above 50% for the player moving first; both seatings pooled; diagonal: mirrors)",
                 "points for the first player", colorbar, "{:+.0f}")
    return im


def plot_card_win_rates(ax: Axes, cards: pd.DataFrame, words: dict[str, str] | None = None) -> None:
    """Win rate of the decks holding each card, by category, with 95% intervals.

    Args:
        ax: where to draw.
        cards: :func:`simkit.analysis.card_win_rates`.
        words: each category's words (the game's ``card_categories``), for labels and title.
    """
    words = words or {}
    palette = ["#8e44ad", "#1f4e79", "#1e8449", "#b9770e", "#7b241c"]
    order = list(dict.fromkeys(cards["kind"]))
    colours = [palette[order.index(k) % len(palette)] for k in cards["kind"]]
    from simkit.core.words import count, plural

    labels = [f"{c}  ({words.get(k, k)}, {count(int(d), 'deck')})"
              for c, k, d in zip(cards["card"], cards["kind"], cards["decks"])]
    names = " and ".join(plural(words.get(k, k)) for k in order)
    _forest(ax, labels, cards["win_rate"] * 100, cards["low"] * 100, cards["high"] * 100, colours,
            xlabel="win rate of decks holding the card, % (95% CI)", title=f"Cards: {names}", centre=50)
    for y, v in enumerate(cards["win_rate"] * 100):
        ax.annotate(f"{v:.1f}%", (v, y), xytext=(0, 4), textcoords="offset points", ha="center", fontsize=6)


def plot_pair_synergy(ax: Axes, card_pairs: pd.DataFrame, colorbar: bool = True, category: str | None = None,
                      word: str = ""):
    """Synergy of each pair of cards of one category (points beyond what the two alone predict).

    Args:
        ax: where to draw.
        card_pairs: :func:`simkit.analysis.card_pair_synergy`.
        colorbar: add a colour bar beside the Axes.
        category: the category drawn (default: the first in the table).
        word: the category's words for the title (e.g. "creature kind").

    Returns:
        the image.
    """
    if category is None and len(card_pairs):
        category = card_pairs["category"].iloc[0]
    card_pairs = card_pairs[card_pairs["category"] == category]
    kinds = sorted(set(card_pairs["card_a"]) | set(card_pairs["card_b"]))
    if not kinds:
        ax.axis("off")
        ax.text(0.5, 0.5, "Card pairs: no deck played another deck, so no pair has a win rate.", ha="center",
                va="center", fontsize=9, transform=ax.transAxes)
        return None
    grid = pd.DataFrame(np.nan, index=kinds, columns=kinds)
    decks = pd.DataFrame(0, index=kinds, columns=kinds)
    for a, b, s, n in zip(card_pairs["card_a"], card_pairs["card_b"], card_pairs["synergy"] * 100,
                          card_pairs["decks"]):
        grid.loc[a, b] = grid.loc[b, a] = s if abs(s) >= 0.05 else 0.0  # no "-0.0"
        decks.loc[a, b] = decks.loc[b, a] = n
    few = (decks.to_numpy() < SYNERGY_MIN_DECKS) & np.isfinite(grid.to_numpy(float))
    norm = TwoSlopeNorm(vcenter=0, vmin=-SYNERGY_SCALE, vmax=SYNERGY_SCALE)
    from matplotlib import colormaps

    cmap = colormaps[_CMAP].with_extremes(bad=_MISSING)
    im = ax.imshow(np.ma.masked_invalid(grid.to_numpy(float)), cmap=cmap, norm=norm)
    if few.any():  # one deck's pair: its luck, not a synergy; drawn white
        ax.imshow(np.ma.masked_where(~few, np.ones(few.shape)), cmap=ListedColormap(["#ffffff"]),
                  interpolation="nearest")
    ax.set_xticks(range(len(kinds)), kinds, rotation=45, ha="right", fontsize=7)
    ax.set_yticks(range(len(kinds)), kinds, fontsize=7)
    for (i, j), v in np.ndenumerate(grid.to_numpy(float)):
        if np.isfinite(v):
            n = decks.iloc[i, j]
            ax.text(j, i, f"{v:+.1f}\n{n} deck{'s' if n != 1 else ''}", ha="center", va="center", fontsize=6.5,
                    color="#9e9e9e" if few[i, j] else _ink(norm, v))
    from simkit.core.words import plural

    ax.set_title(f"Pairs of {plural(word or category)}: synergy, points\n(the pair's decks' win rate minus an "
                 f"additive\nmodel of their cards; grey: no deck holds the pair;\nwhite: fewer than "
                 f"{SYNERGY_MIN_DECKS} decks, noise)", fontsize=8)
    if colorbar:
        cb = ax.figure.colorbar(im, ax=ax, fraction=0.046, pad=0.03)
        cb.set_label("points", fontsize=7)
        cb.ax.tick_params(labelsize=6)
    return im


def plot_nash_mix(ax: Axes, metagame: pd.DataFrame, max_rows: int = 30, groups: dict[str, str] | None = None,
                  group_title: str = "") -> None:
    """The decks of the Nash equilibrium mix and their weights.

    Args:
        ax: where to draw.
        metagame: :func:`simkit.analysis.metagame`.
        max_rows: most decks shown (the heaviest).
        groups: each deck's group (``deck_strength``'s ``group``), for the colours (default: one colour).
        group_title: what the groups are, for the legend.
    """
    seats = metagame["seat"] if "seat" in metagame.columns else pd.Series("", index=metagame.index)
    mix = metagame[metagame["in_support"]].assign(seat=seats).sort_values(["seat", "weight"], ascending=[True, False])
    mix = mix.head(max_rows)
    groups = groups or {d: "" for d in metagame["deck"]}
    colours = group_colours([groups[d] for d in metagame["deck"]])
    y = np.arange(len(mix))
    ax.barh(y, mix["weight"] * 100, color=[colours[groups[d]] for d in mix["deck"]], height=0.7)
    size = _rows_font(ax, max(len(mix), 3), largest=7.5)
    labels = [f"{d} ({s} seat)" if s else d for d, s in zip(mix["deck"], mix["seat"], strict=True)]
    ax.set_yticks(y, labels, fontsize=size)
    ax.set_ylim(max(len(mix), 3) - 0.5, -0.5)
    for yy, w in zip(y, mix["weight"] * 100):
        ax.annotate(f"{w:.1f}%", (w, yy), xytext=(3, 0), textcoords="offset points", va="center", fontsize=size)
    ax.set_xlabel("share of the equilibrium metagame, %", fontsize=8)
    ax.tick_params(axis="x", labelsize=7)
    ax.set_xlim(0, max(5.0, float(mix["weight"].max() * 100 * 1.18)) if len(mix) else 1)
    counts = [f"{s + ' seat ' if s else ''}{int((mix['seat'] == s).sum())} of {int((seats == s).sum())} decks"
              for s in dict.fromkeys(seats)]  # each seat's mix of its own pool when each seat has one
    ax.set_title(f"Nash equilibrium mix: {', '.join(counts)}", fontsize=9)
    if group_title:
        _group_legend(ax, colours, group_title, fontsize=6, right=True)  # beside the bars: it covers none


def plot_nash_shift(ax: Axes, nash: pd.DataFrame, max_rows: int = 30) -> None:
    """Nash weights before and after a patch for every deck in either mix.

    Args:
        ax: where to draw.
        nash: :func:`simkit.analysis.paired.nash_shift` (``deck, weight_base, weight_patch``).
        max_rows: most decks shown (the heaviest in either mix).
    """
    rows = nash[(nash["weight_base"] > 1e-6) | (nash["weight_patch"] > 1e-6)]
    rows = rows.assign(top=np.maximum(rows["weight_base"], rows["weight_patch"]))
    rows = rows.sort_values("top", ascending=False).head(max_rows)
    y = np.arange(len(rows))
    ax.barh(y - 0.2, rows["weight_base"] * 100, height=0.4, color="#9e9e9e", label="base")
    ax.barh(y + 0.2, rows["weight_patch"] * 100, height=0.4, color="#1f4e79", label="patch")
    size = _rows_font(ax, max(len(rows), 12), largest=7.5)
    ax.set_yticks(y, list(rows["deck"]), fontsize=size)
    ax.set_ylim(max(len(rows), 12) - 0.5, -0.5)
    ax.set_xlabel("share of the equilibrium metagame, %", fontsize=8)
    ax.tick_params(axis="x", labelsize=7)
    ax.legend(fontsize=7, loc="lower right")
    ax.set_title("Nash equilibrium mix, base and patch", fontsize=9)


def plot_game_length(ax: Axes, turns: pd.DataFrame, bins: int = 25, unit: str = "turn") -> None:
    """Histogram of game length in turns (or the game's ``unit``, e.g. rounds), stacked by how the game ended.

    Args:
        ax: where to draw.
        turns: :func:`simkit.analysis.turn_counts`.
        bins: number of bars.
    """
    hi = int(turns["turns"].max()) if len(turns) else 1
    edges = np.linspace(0.5, hi + 0.5, min(bins, hi) + 1)
    palette = ["#1f4e79", "#c0392b", "#1e8449", "#b9770e", "#7d3c98"]
    bottom = np.zeros(len(edges) - 1)
    for i, (reason, part) in enumerate(turns.groupby("end_reason", sort=False)):
        counts, _ = np.histogram(part["turns"], bins=edges, weights=part["games"])
        label = part["label"].iloc[0] if "label" in part.columns else reason
        ax.bar(edges[:-1], counts, width=np.diff(edges), bottom=bottom, align="edge",
               color=palette[i % len(palette)], label=label, edgecolor="white", lw=0.3)
        bottom += counts
    ax.set_xlabel(f"{unit}s played", fontsize=8)
    ax.set_ylabel("games", fontsize=8)
    ax.tick_params(labelsize=7)
    ax.legend(fontsize=7)
    ax.set_title("Game length", fontsize=9)


def plot_end_reasons(ax: Axes, game_shape: pd.DataFrame) -> None:
    """How games end: the share of each end reason of the game, decided and drawn apart.

    Args:
        ax: where to draw.
        game_shape: :func:`simkit.analysis.game_shape`.
    """
    shape = game_shape.set_index("end_reason")
    total = shape.loc["all", "games"]
    labels, counts = [], []
    for reason, row in shape.drop(index="all").iterrows():
        label = row["label"] if "label" in row.index else reason
        if row["draws"]:
            labels += [f"{label}, decided", f"{label}, draw"]
            counts += [row["games"] - row["draws"], row["draws"]]
        else:
            labels.append(label)
            counts.append(row["games"])
    shares = np.asarray(counts, dtype=float) / max(total, 1) * 100
    y = np.arange(len(labels))
    palette = ["#1f4e79", "#c0392b", "#e6a23c", "#1e8449", "#7d3c98", "#b9770e"]
    ax.barh(y, shares, color=[palette[i % len(palette)] for i in y], height=0.6)
    for yy, s, c in zip(y, shares, counts):
        ax.annotate(f"{s:.1f}%  ({int(c)} games)", (s, yy), xytext=(3, 0), textcoords="offset points",
                    va="center", fontsize=7)
    ax.set_yticks(y, labels, fontsize=8)
    ax.set_ylim(len(labels) - 0.5, -0.5)
    ax.set_xlim(0, 118)
    ax.set_xlabel("share of games, %", fontsize=8)
    ax.tick_params(axis="x", labelsize=7)
    ax.set_title("How games end", fontsize=9)


def plot_deltas(ax: Axes, deltas: pd.DataFrame, label: str = "subject", title: str = "",
                alpha: float = 0.05, show_labels: bool = True) -> None:
    """Paired changes (patch minus base) in points with 95% intervals; filled dots are significant.

    Args:
        ax: where to draw.
        deltas: a table of :mod:`simkit.analysis.paired` with ``delta, low, high, p_adjusted`` and ``label``.
        label: the column naming each row.
        title: the Axes title.
        alpha: significance level for the filled markers (after correction).
        show_labels: name the rows on the y axis.
    """
    significant = (deltas["p_adjusted"] < alpha).to_list()
    colours = ["#b03a2e" if s and d < 0 else "#1f4e79" if s else "#7f7f7f"
               for s, d in zip(significant, deltas["delta"])]
    corrected = {"adj_low", "adj_high"} <= set(deltas.columns)
    low, high = (deltas["adj_low"], deltas["adj_high"]) if corrected else (deltas["low"], deltas["high"])
    _forest(ax, deltas[label], deltas["delta"] * 100, low * 100, high * 100, colours,
            marker_fill=significant, centre=0, title=title, show_labels=show_labels,
            xlabel="change, points (patch - base); interval at the corrected level:\nit misses 0 exactly when "
            "the dot is filled (significant)" if corrected else
            "change, points (patch - base; 95% paired CI; filled: significant after correction)")


def plot_flags(ax: Axes, flags: pd.DataFrame, width: int = 128) -> None:
    """The balance flags as a table: kind, value, 95% interval, band, corrected p, subject.

    ``value`` is a deck's win rate, the winning side's rate in a matchup, or the first seat's
    score rate. An empty table says so.

    Args:
        ax: where to draw.
        flags: :func:`simkit.analysis.balance_flags` (or a slice of it); an optional ``status``
            column (appeared/vanished, from a comparison) is shown first, an optional ``number``
            column numbers the rows (default 1, 2, ...).
        width: characters per line before the subject wraps.
    """
    ax.axis("off")
    if flags.empty:
        ax.text(0, 1, "No flags: nothing is significantly outside its band.", va="top", fontsize=9,
                transform=ax.transAxes)
        return
    ax.text(0, 1, "\n".join(flag_lines(flags, width)), va="top", ha="left", fontsize=7, family="monospace",
            transform=ax.transAxes, linespacing=1.35)


#: the height of a line of :func:`plot_flags`'s table, in inches (7 pt at line spacing 1.35)
FLAG_LINE = 7 * 1.35 / 72


def flag_lines(flags: pd.DataFrame, width: int = 128) -> list[str]:
    """The monospace lines of :func:`plot_flags`'s table, its header first (one line when there is no flag)."""
    if flags.empty:
        return ["No flags: nothing is significantly outside its band."]
    kinds = {"deck": "deck", "matchup": "matchup", "first_player": "first player"}
    has_status = "status" in flags.columns
    head = f"{'#':>4}  " + (f"{'status':<9} " if has_status else "") + \
        f"{'kind':<13}{'value':>7}  {'95% CI':<13}{'band':<9}{'adj. p':<9}subject"
    indent = len(head) - len("subject")
    lines = [head, "-" * min(width, indent + 40)]
    numbers = flags["number"] if "number" in flags.columns else range(1, len(flags) + 1)
    for n, r in zip(numbers, flags.itertuples()):
        p = "<0.001" if r.p_adjusted < 0.001 else f"{r.p_adjusted:.3f}"
        band = f"{100 * r.band_low:g}-{100 * r.band_high:g}%"
        ci = f"{100 * r.low:.1f}-{100 * r.high:.1f}%"
        row = f"{n:>4}  " + (f"{r.status:<9} " if has_status else "") + \
            f"{kinds.get(r.kind, r.kind):<13}{100 * r.value:>6.1f}%  {ci:<13}{band:<9}{p:<9}"
        body = wrap(str(r.subject), max(20, width - indent)) or [""]
        lines.append(row + body[0])
        lines.extend(" " * indent + more for more in body[1:])
    return lines
