"""Pictures of a Krypton Tower War game: the hex map (terrain, veins with their stock, bases, spawn
points, towers, heroes with their HP) as a PNG of one moment or a GIF with one frame per hero turn
(or per action). Drawn with matplotlib, written whole or not at all (a temporary file is renamed).
"""

from __future__ import annotations

import io
import math
import os
from collections.abc import Iterable
from pathlib import Path

from simkit.games.krypton.match import Match
from simkit.games.krypton.state import HS_BOARD, HS_DEAD, SIDE_NAMES, T_BASE, T_FOREST, T_HILL, T_PLAIN, T_RIVER, T_VEIN

SUFFIXES = (".png", ".gif")
TERRAIN_COLOURS = {T_PLAIN: "#e8e4c9", T_FOREST: "#6b9e5a", T_HILL: "#b08d5a", T_RIVER: "#7fb2de",
                   T_VEIN: "#c9a0dc", T_BASE: "#555555"}
SIDE_COLOURS = ("#c0392b", "#2471a3")
TOWER_MARKS = {"attack": "^", "dice": "s", "hand": "D"}


def _xy(cell) -> tuple[float, float]:
    x, y, z = cell
    return math.sqrt(3) * (x + z / 2), -1.5 * z


def draw(ax, g, caption: str = "", coordinates: bool = False) -> None:
    """Draw the game of ``g`` (a :class:`~simkit.games.krypton.match.Match`) on the matplotlib axes ``ax``."""
    from matplotlib.patches import Circle, RegularPolygon

    r = g.rules
    s = g.state
    towers = g.towers()
    ax.clear()
    ax.set_aspect("equal")
    ax.axis("off")
    for i in range(r.grid.size):
        cell = g.cell_of(i)
        px, py = _xy(cell)
        t = int(s.terrain[i])
        ax.add_patch(RegularPolygon((px, py), 6, radius=0.98, orientation=0, facecolor=TERRAIN_COLOURS[t],
                                    edgecolor="#888888", linewidth=0.5))
        if i in r.bases:
            side = r.bases.index(i)
            ax.text(px, py, f"{s.sides[side].base_hp}", ha="center", va="center", color="white", fontsize=9,
                    weight="bold")
            ax.add_patch(RegularPolygon((px, py), 6, radius=0.98, facecolor="none", edgecolor=SIDE_COLOURS[side],
                                        linewidth=2.5))
        elif t == T_VEIN:
            ax.text(px, py - 0.55, f"{s.stock[i]}", ha="center", va="center", fontsize=6, color="#4a235a")
        for side in (0, 1):
            if i in r.spawns[side]:
                ax.add_patch(RegularPolygon((px, py), 6, radius=0.8, facecolor="none", edgecolor=SIDE_COLOURS[side],
                                            linewidth=0.8, linestyle=":"))
        if i in towers:
            eff = r.towers[towers[i]].effect
            ax.plot(px, py + 0.35, marker=TOWER_MARKS.get(eff, "o"), markersize=7,
                    color=SIDE_COLOURS[int(s.tower_side[i])],
                    markeredgecolor="black" if not s.iron_wall[i] else "gold", markeredgewidth=1.2)
        if coordinates:
            ax.text(px, py + 0.6, "{},{},{}".format(*cell), ha="center", fontsize=4, color="#555555")
    for side in (0, 1):
        for k in range(g.team):
            h = g.hero(side, k)
            if h.state == HS_DEAD:
                continue
            px, py = _xy(g.cell_of(int(h.cell)))
            face = SIDE_COLOURS[side] if h.state == HS_BOARD else "white"
            ax.add_patch(Circle(
                (px, py - 0.1), 0.45, facecolor=face, edgecolor=SIDE_COLOURS[side], linewidth=1.5))
            ax.text(px, py - 0.1, f"{g.packed.classes[h.cls][0]}{h.hp}", ha="center", va="center", fontsize=7,
                    color="white" if h.state == HS_BOARD else SIDE_COLOURS[side], weight="bold")
    xs = [_xy(g.cell_of(i))[0] for i in range(r.grid.size)]
    ys = [_xy(g.cell_of(i))[1] for i in range(r.grid.size)]
    ax.set_xlim(min(xs) - 1.2, max(xs) + 1.2)
    ax.set_ylim(min(ys) - 1.2, max(ys) + 1.6)
    side_text = "   ".join(
        f"{SIDE_NAMES[i]}: base {s.sides[i].base_hp} HP tier {s.sides[i].tier}, energy {s.sides[i].energy}, "
        f"{g.dice_count(i)} dice, {s.sides[i].n_hand} cards" for i in (0, 1))
    ax.set_title((caption + "\n" if caption else "") + side_text, fontsize=7)
    _legend(ax)


def _legend(ax) -> None:
    """What the picture's colours and marks mean, in a band under the map."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    hexes = [("plain", T_PLAIN), ("forest", T_FOREST), ("hill", T_HILL), ("river", T_RIVER),
             ("vein (number: stock left)", T_VEIN), ("base (number: HP)", T_BASE)]
    handles = [Patch(facecolor=TERRAIN_COLOURS[t], edgecolor="#888888", label=name) for name, t in hexes]
    handles += [Line2D([], [], marker="o", ls="", markersize=8, color=c, label=f"{SIDE_NAMES[s]} hero (class initial, "
                       "HP; white: off the board)") for s, c in enumerate(SIDE_COLOURS)]
    handles += [Patch(facecolor="none", edgecolor="#555555", linestyle=":", label="spawn point (side's colour)")]
    handles += [Line2D([], [], marker=m, ls="", markersize=6, color="#777777", markeredgecolor="black",
                       label=f"{effect} tower (gold edge: iron)") for effect, m in TOWER_MARKS.items()]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=3, fontsize=5.5, frameon=False)


def render_game(scenario, first_deck: str, second_deck: str, actions: Iterable[tuple], out_path, per: str = "turn",
                seed: int = 0, *, fps: float | None = None, max_frames: int | None = None, coordinates: bool = False,
                progress=None) -> int:
    """Replay a game and draw it: ``.png`` the final board, ``.gif`` one frame per hero turn or action.

    Returns:
        The number of frames written.

    Raises:
        ValueError: an unknown suffix or ``per``, bad ``fps``/``max_frames``; IllegalAction on a bad action.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from PIL import Image

    out_path = Path(out_path)
    suffix = out_path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"{out_path}: Krypton draws {', '.join(SUFFIXES)} pictures, not {suffix or 'no suffix'}")
    if per not in ("turn", "action"):
        raise ValueError(f"per must be 'turn' or 'action', got {per!r}")
    if fps is not None and not fps > 0:
        raise ValueError(f"fps must be positive, got {fps}")
    if max_frames is not None and max_frames < 1:
        raise ValueError(f"max_frames must be at least 1, got {max_frames}")
    m = g = Match(scenario, first_deck, second_deck, seed=seed)
    title = f"{SIDE_NAMES[0]} {m.decks[0]} vs {SIDE_NAMES[1]} {m.decks[1]}, seed {seed}"
    fig, ax = plt.subplots(figsize=(7, 6.5), dpi=90)
    tmp = out_path.with_name(out_path.name + ".part")
    try:
        if suffix == ".png":
            for a in actions:
                m.do(tuple(a))
            caption = title + (f" — {m.winner} ({m.end_reason}) after {g.round} rounds" if m.over else "")
            draw(ax, g, caption, coordinates)
            fig.savefig(tmp, format="png")
            os.replace(tmp, out_path)
            return 1
        moments = []  # frames as PNG bytes
        states = [g.clone(log=False)]
        last_turn = g.state.turn
        for a in actions:
            m.do(tuple(a))
            if per == "action" or g.state.turn != last_turn or m.over:
                states.append(g.clone(log=False))
                last_turn = g.state.turn
        if max_frames is not None and len(states) > max_frames:
            k = max_frames
            pick = sorted({round(i * (len(states) - 1) / max(1, k - 1)) for i in range(k)})
            states = [states[i] for i in pick]
        it = progress(states) if progress else states
        for st in it:
            draw(ax, st, f"{title} — round {st.round}", coordinates)
            buf = io.BytesIO()
            fig.savefig(buf, format="png")
            moments.append(Image.open(io.BytesIO(buf.getvalue())).convert("P", palette=Image.ADAPTIVE))
        ms = int(1000 / (fps or 2))
        durations = [ms] * (len(moments) - 1) + [ms * 4]
        moments[0].save(tmp, format="gif", save_all=True, append_images=moments[1:], duration=durations, loop=0)
        os.replace(tmp, out_path)
        return len(moments)
    finally:
        plt.close(fig)
        if tmp.exists():
            tmp.unlink()
