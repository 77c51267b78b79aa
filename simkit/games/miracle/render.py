"""Draw one Battle of Miracles position on a matplotlib Axes.

``plot_board(ax, snapshot, board)`` draws a :meth:`Match.snapshot` on the scenario's map: hex
cells, abyss, spawn points, garrisons coloured by owner, both miracles with their HP, and every
unit as a glyph (circle: ground, diamond: flying) in its side's colour, marked with its kind's
initials and level (``S2`` = Swordsman level 2), its HP below, a gold ring for a holy shield.
Above the board: an optional title, the turn and who acts (or how the game ended) and the last
action; below it, one line per side in its colour: deck, miracle HP, mana, dead stars, artifact.

The layout is flat-topped hexes with the cube ``z`` axis horizontal, so the long axis of the map
runs left to right and the first player's miracle sits at the bottom. Only the given Axes is
touched (no pyplot); the replay writers in ``render_replay`` own their figures.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from matplotlib.axes import Axes
from matplotlib.collections import PolyCollection
from matplotlib.lines import Line2D
from matplotlib.patches import Circle, FancyArrowPatch, Patch, Polygon, RegularPolygon
from matplotlib.patheffects import withStroke

from simkit.games.miracle.board import Board
from simkit.games.miracle.cards import INFERNO

#: Side colours (first player, second player): blue and orange, told apart by colour-blind readers.
SIDE_COLORS = ("#2166ac", "#e66101")
#: Pale tints of the side colours, for spawn points and owned garrisons.
SIDE_TINTS = ("#c9dcf0", "#fbd5b5")
SIDE_NAMES = ("first", "second")
NEUTRAL = "#bdbdbd"
CELL_FACE, CELL_EDGE = "#f1ece0", "#b9af9b"
ABYSS_FACE, ABYSS_EDGE = "#3a3346", "#27222f"
SHIELD_COLOR = "#f0b400"
DAMAGED_COLOR = "#b2182b"
SQRT3 = math.sqrt(3.0)


# -- geometry -------------------------------------------------------------------------------------


def cell_xy(cells: np.ndarray | Sequence[Sequence[int]]) -> np.ndarray:
    """Pixel centres of cube cells (flat-topped hexes of radius 1, cube ``z`` horizontal).

    Args:
        cells: ``int[N, 3]`` cube coordinates (or one cell ``[3]``).

    Returns:
        ``float[N, 2]`` (or ``[2]``) x, y centres; neighbouring centres are ``sqrt(3)`` apart.
    """
    c = np.asarray(cells, dtype=float)
    x, z = c[..., 0], c[..., 2]
    return np.stack([1.5 * z, SQRT3 * (x + z / 2.0)], axis=-1)


def hex_corners(centres: np.ndarray, radius: float = 1.0) -> np.ndarray:
    """``float[N, 6, 2]`` corners of flat-topped hexes of ``radius`` around ``centres [N, 2]``."""
    angles = np.deg2rad(np.arange(6) * 60.0)
    ring = np.stack([np.cos(angles), np.sin(angles)], axis=-1) * radius
    return np.asarray(centres, dtype=float)[:, None, :] + ring[None, :, :]


# -- kind marks -----------------------------------------------------------------------------------


def kind_marks(names: Iterable[str]) -> dict[str, str]:
    """Short, unique marks for creature kinds: their capitals (``VolcanoDragon`` -> ``VD``).

    A clash (``Swordsman``, ``Shaman``) is broken by adding the next letters of the later name
    in alphabetical order (``S``, ``Sh``), so the marks of one game never collide.

    Args:
        names: kind names.

    Returns:
        ``{name: mark}``.
    """
    marks: dict[str, str] = {}
    used: set[str] = set()
    for name in sorted(set(names)):
        caps = "".join(ch for ch in name if ch.isupper()) or name[:1].upper()
        mark, extra = caps, 1
        while mark in used and extra < len(name):
            mark = name[: extra + 1].capitalize()
            extra += 1
        if mark in used:
            mark = name
        marks[name] = mark
        used.add(mark)
    return marks


def deck_kinds(deck: str) -> list[str]:
    """The creature kinds of a deck id ``"Artifact:KindA,KindB,KindC"``."""
    _, _, rest = deck.partition(":")
    return [k.strip() for k in rest.split(",") if k.strip()]


def snapshot_marks(snapshot: Mapping) -> dict[str, str]:
    """Kind marks for every kind a snapshot's game can show: both decks' kinds, the Inferno when a
    deck holds InfernoFlame, and any other unit kind on the board (the same for every position of a game)."""
    names = [k for p in snapshot["players"] for k in deck_kinds(p["deck"])]
    if any(p["deck"].partition(":")[0] == "InfernoFlame" for p in snapshot["players"]):
        names.append(INFERNO)
    names += [u["kind"] for u in snapshot["units"]]
    return kind_marks(names)


# -- highlighting the last action -----------------------------------------------------------------


@dataclass(frozen=True)
class Highlight:
    """The action that led to a drawn position, shown as an arrow or a ring.

    Attributes:
        kind: ``"summon"``, ``"move"``, ``"attack"``, ``"use"`` or ``"end_turn"``.
        side: the acting side (0 first, 1 second).
        start: the acting unit's cell before the action (move, attack), else ``None``.
        end: the destination, target unit's or target miracle's cell, or the summon/artifact cell.
        text: a one-line description for the caption.
    """

    kind: str
    side: int
    start: tuple[int, int, int] | None
    end: tuple[int, int, int] | None
    text: str


# -- drawing --------------------------------------------------------------------------------------


def _cell_faces(snapshot: Mapping, board: Board) -> tuple[list, list, list, list]:
    """Face colour, edge colour, edge width and line style of every board cell."""
    n = board.grid.size
    face = np.where(board.abyss, ABYSS_FACE, CELL_FACE).astype(object)
    edge = np.where(board.abyss, ABYSS_EDGE, CELL_EDGE).astype(object)
    width = np.full(n, 0.6)
    style: list = ["solid"] * n
    owners = [snapshot["garrisons"].get(board.grid.cell(int(c))) for c in board.garrisons]
    for g, owner in enumerate(owners):
        spawn = np.nonzero(board.garrison_spawn[g])[0]
        for i in spawn:
            face[i] = NEUTRAL if owner is None else SIDE_TINTS[owner]
            edge[i] = "#7a7a7a" if owner is None else SIDE_COLORS[owner]
            width[i] = 1.4
            style[i] = (0, (2.0, 1.5))
        c = int(board.garrisons[g])
        face[c] = "#9e9e9e" if owner is None else SIDE_COLORS[owner]
        edge[c] = "#222222"
        width[c] = 2.2
    for s in range(2):
        for i in np.nonzero(board.spawn[s])[0]:
            face[i] = SIDE_TINTS[s]
            edge[i] = SIDE_COLORS[s]
            width[i] = 1.4
    return list(face), list(edge), list(width), style


def _points_per_unit(ax: Axes, lo: np.ndarray, hi: np.ndarray) -> float:
    """Typographic points per data unit once ``ax`` shows ``lo..hi`` at equal aspect."""
    box = ax.get_position()
    w_in, h_in = ax.figure.get_size_inches()
    return 72.0 * min(box.width * w_in / (hi[0] - lo[0]), box.height * h_in / (hi[1] - lo[1]))


def _draw_unit(ax: Axes, unit: Mapping, centre: np.ndarray, scale: float, mark: str, pt: float) -> None:
    """One unit glyph: side-coloured circle (ground) or diamond (flying), mark, level, HP.

    ``scale`` shrinks a glyph that shares its cell; ``pt`` is points per data unit, for type sizes.
    """
    side = int(unit["side"])
    colour = SIDE_COLORS[side]
    shield = bool(unit.get("holy_shield", False))
    r = 0.56 * scale

    def shape(edge: str, lw: float, face: str, z: float):
        if unit["flying"]:
            return RegularPolygon(centre, 4, radius=r * 1.22, facecolor=face, edgecolor=edge, linewidth=lw, zorder=z)
        return Circle(centre, r, facecolor=face, edgecolor=edge, linewidth=lw, zorder=z)

    z = 5 if unit["flying"] else 4
    if shield:  # a gold ring with a dark rim, visible on both side colours
        ax.add_patch(shape("#222222", 0.34 * pt * scale, "none", z - 0.1))
    ax.add_patch(shape(SHIELD_COLOR if shield else "white", 0.2 * pt * scale if shield else 0.8, colour, z))
    label = f"{mark}{unit['level']}"
    size = (0.56 if len(label) <= 2 else 0.44) * scale * pt
    ax.text(centre[0], centre[1] + 0.02 * scale, label, ha="center", va="center", fontsize=size,
            fontweight="bold", color="white", zorder=6)
    hp, max_hp = int(unit["hp"]), int(unit["max_hp"])
    ax.text(centre[0], centre[1] - r - 0.01, f"{hp}/{max_hp}", ha="center", va="top", fontsize=0.38 * pt * scale,
            color=DAMAGED_COLOR if hp < max_hp else "#333333", fontweight="bold", zorder=6,
            path_effects=[withStroke(linewidth=1.6, foreground="white")])


def _draw_miracles(ax: Axes, snapshot: Mapping, board: Board, pt: float) -> None:
    centres = cell_xy(np.array(board.miracles))
    for s, (cx, cy) in enumerate(centres):
        hp = int(snapshot["players"][s]["miracle_hp"])
        ax.add_patch(RegularPolygon((cx, cy), 6, radius=1.05, orientation=math.pi / 6, facecolor=SIDE_COLORS[s],
                                    edgecolor="#111111", linewidth=2.4, zorder=3))
        ax.add_patch(RegularPolygon((cx, cy), 6, radius=0.72, orientation=math.pi / 6, facecolor="none",
                                    edgecolor="white", linewidth=1.0, zorder=3))
        ax.text(cx, cy, str(max(hp, 0)) if hp > 0 else "✕", ha="center", va="center", fontsize=0.7 * pt,
                fontweight="bold", color="white", zorder=6)
        ax.text(cx, cy + (-1.15 if s == 0 else 1.15), f"{SIDE_NAMES[s]} miracle", ha="center",
                va="top" if s == 0 else "bottom", fontsize=0.45 * pt, color=SIDE_COLORS[s], fontweight="bold", zorder=6)


def _draw_highlight(ax: Axes, hl: Highlight, pt: float) -> None:
    colour = SIDE_COLORS[hl.side]
    if hl.end is None:
        return
    end = cell_xy(hl.end)
    if hl.start is not None and hl.kind in ("move", "attack"):
        start = cell_xy(hl.start)
        arrow = FancyArrowPatch(start, end, arrowstyle="-|>", mutation_scale=1.1 * pt,
                                color=colour if hl.kind == "move" else DAMAGED_COLOR,
                                linewidth=2.0, linestyle="-" if hl.kind == "move" else (0, (3, 2)),
                                shrinkA=0.3 * pt, shrinkB=0.62 * pt, zorder=7, alpha=0.9)
        ax.add_patch(arrow)
    ax.add_patch(RegularPolygon(end, 6, radius=1.0, orientation=math.pi / 6, facecolor="none",
                                edgecolor=DAMAGED_COLOR if hl.kind == "attack" else colour, linewidth=2.2,
                                zorder=7))


def _player_line(snapshot: Mapping, s: int, deck: bool) -> str:
    p = snapshot["players"][s]
    art = p["artifact"]
    state = art["state"].replace("_", " ")
    if art["state"] == "cooling":
        state += f" {art['cooldown']}"
    who = f"{SIDE_NAMES[s]}: {p['deck']}  " if deck else f"{SIDE_NAMES[s]}:"
    return (f"{who} miracle {p['miracle_hp']} HP · mana {p['mana']}/{p['max_mana']} · "
            f"dead stars {p['dead_stars']} · {art['name']} {state}")


def caption(snapshot: Mapping) -> str:
    """The first caption line: the turn and who acts, or how the game ended."""
    turn = snapshot["turn"]
    if snapshot["over"]:
        w = snapshot["winner"]
        who = "draw" if w == "draw" else f"{SIDE_NAMES[w]} player wins"
        how = "a miracle destroyed" if snapshot["end_reason"] == "miracle" else "turn limit"
        return f"Game over on turn {turn} ({how}): {who}"
    return f"Turn {turn} · {SIDE_NAMES[snapshot['current']]} player to act"


def legend_handles(marks: Mapping[str, str]) -> tuple[list, list[str]]:
    """Legend entries: side colours, ground/flying glyphs, shield, terrain, then kind marks."""
    handles: list = [
        Line2D([], [], marker="o", ls="", color=SIDE_COLORS[0], markersize=8),
        Line2D([], [], marker="o", ls="", color=SIDE_COLORS[1], markersize=8),
        Line2D([], [], marker="o", ls="", color="#777777", markersize=8),
        Line2D([], [], marker="D", ls="", color="#777777", markersize=7),
        (Line2D([], [], marker="o", ls="", color="#222222", markersize=10),
         Line2D([], [], marker="o", ls="", color="#777777", markeredgecolor=SHIELD_COLOR, markeredgewidth=2.0,
                markersize=8)),
        Patch(facecolor=ABYSS_FACE, edgecolor=ABYSS_EDGE),
        Patch(facecolor=SIDE_TINTS[0], edgecolor=SIDE_COLORS[0], linewidth=1.4),
        (Patch(facecolor="#9e9e9e", edgecolor="#222222", linewidth=2.0),
         Line2D([], [], marker="^", ls="", color="white", markeredgecolor="#222222", markersize=5)),
        Patch(facecolor=NEUTRAL, edgecolor="#7a7a7a", linewidth=1.2, linestyle="--"),
    ]
    labels = [
        "first player", "second player", "ground unit", "flying unit", "holy shield",
        "abyss (flying only)", "spawn point", "garrison (owner colour)", "garrison spawn point",
    ]
    handles += [Line2D([], [], ls="", marker=r"$\mathrm{S2}$", color="#333333", markersize=12),
                Line2D([], [], ls="", marker=r"$\mathrm{4/6}$", color=DAMAGED_COLOR, markersize=14)]
    labels += ["kind mark + level", "HP / max HP"]
    for name, mark in sorted(marks.items(), key=lambda kv: kv[1]):
        handles.append(Line2D([], [], ls="", marker=f"$\\mathrm{{{mark}}}$", color="#333333",
                              markersize=6 + 3 * len(mark)))
        labels.append(name)
    return handles, labels


def plot_board(
    ax: Axes,
    snapshot: Mapping,
    board: Board,
    *,
    highlight: Highlight | None = None,
    title: str | None = None,
    legend: bool = True,
    decks: bool = True,
    coordinates: bool = False,
) -> None:
    """Draw one position of a game on ``ax``.

    Args:
        ax: the Axes to draw on (cleared of nothing; call on a fresh Axes).
        snapshot: :meth:`simkit.games.miracle.Match.snapshot` of the position.
        board: the scenario's map (``scenario.rules.board``), for cells, abyss, spawns and garrisons.
        highlight: the action that led here, drawn as an arrow (move, attack) or ring, named in the caption.
        title: an extra first caption line (for example the matchup and seed).
        legend: draw the legend (sides, ground/flying, shield, terrain, kind marks) right of the board.
        decks: name each side's deck in the player lines under the board (off when a title names them).
        coordinates: print each cell's cube coordinates in small grey type.

    Raises:
        KeyError: ``snapshot`` lacks a key of the snapshot format.
    """
    grid = board.grid
    centres = cell_xy(grid.cells)
    lo = centres.min(axis=0) - 1.3
    hi = centres.max(axis=0) + 1.3
    ax.set_xlim(lo[0], hi[0])
    ax.set_ylim(lo[1], hi[1])
    ax.set_aspect("equal")
    ax.set_axis_off()
    pt = _points_per_unit(ax, lo, hi)
    face, edge, width, style = _cell_faces(snapshot, board)
    ax.add_collection(PolyCollection(hex_corners(centres, 0.97), facecolors=face, edgecolors=edge,
                                     linewidths=width, linestyles=style, zorder=1))
    for c in board.garrisons:
        x, y = centres[int(c)]
        ax.add_patch(Polygon([(x - 0.28, y + 0.6), (x + 0.28, y + 0.6), (x, y + 0.86)], closed=True,
                             facecolor="white", edgecolor="#222222", linewidth=0.6, zorder=2))
    if coordinates:
        for i, (x, y) in enumerate(centres):
            cx, cy, cz = grid.cell(i)
            ax.text(x, y - 0.72, f"{cx},{cy},{cz}", ha="center", va="center", fontsize=0.24 * pt,
                    color="#8a8a8a" if not board.abyss[i] else "#b0a8c0", zorder=2)
    _draw_miracles(ax, snapshot, board, pt)

    marks = snapshot_marks(snapshot)
    layers: dict[tuple, list] = {}
    for unit in snapshot["units"]:
        layers.setdefault(tuple(unit["pos"]), []).append(unit)
    for pos, units in layers.items():
        centre = cell_xy(pos)
        if len(units) == 1:
            _draw_unit(ax, units[0], centre, 1.0, marks[units[0]["kind"]], pt)
            continue
        for unit in units:  # a ground and a flying unit share the cell: ground lower left, flyer upper right
            off = np.array([0.4, 0.3]) if unit["flying"] else np.array([-0.34, -0.12])
            _draw_unit(ax, unit, centre + off, 0.85, marks[unit["kind"]], pt)
    if highlight is not None:
        _draw_highlight(ax, highlight, pt)

    lines = ([title] if title else []) + [caption(snapshot)]
    if highlight is not None:
        lines.append(f"last action: {highlight.text}")
    ax.text(0.0, 1.0 + 0.012, "\n".join(lines), transform=ax.transAxes, ha="left", va="bottom",
            fontsize=float(np.clip(0.68 * pt, 5.5, 8.5)), fontweight="bold", color="#222222", linespacing=1.35)
    size = float(np.clip(0.6 * pt, 5.0, 7.5))
    for s in range(2):  # one text per line in its side's colour; a blank first line puts the second below
        ax.text(0.0, -0.005, " \n" * s + _player_line(snapshot, s, decks), transform=ax.transAxes, ha="left",
                va="top", fontsize=size, fontweight="bold", color=SIDE_COLORS[s], linespacing=1.5)
    if legend:
        add_legend(ax, marks, loc="upper left", bbox_to_anchor=(1.0, 1.0))


def add_legend(target, marks: Mapping[str, str], **where):
    """Put the board legend (:func:`legend_handles`) on an Axes or Figure.

    Args:
        target: a matplotlib Axes or Figure.
        marks: ``{kind: mark}`` of the game, as :func:`snapshot_marks` gives.
        **where: placement (``loc``, ``bbox_to_anchor``) passed to ``target.legend``.

    Returns:
        The Legend.
    """
    handles, labels = legend_handles(marks)
    return target.legend(handles, labels, fontsize=7, frameon=False, handlelength=1.4, borderaxespad=0.2,
                         labelspacing=0.7, title="legend", title_fontsize=7.5, **where)


__all__ = [
    "Highlight",
    "add_legend",
    "SIDE_COLORS",
    "SIDE_NAMES",
    "caption",
    "cell_xy",
    "hex_corners",
    "kind_marks",
    "legend_handles",
    "plot_board",
    "snapshot_marks",
]
