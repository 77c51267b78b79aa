"""A picture of a Magic War game: the 5x6 board (deployment rows, crowns, obstacles) with every unit (its
side's colour, its name, its HP), as a PNG of the position after the game's actions, written whole or not
at all (a temporary file is renamed)."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from simkit.games.magic.match import Match
from simkit.games.magic.transitions import MagicPage

SIDE_COLOURS = ("#c0392b", "#2471a3")
ZONE_COLOURS = ("#f6dcd8", "#d6e6f3")


def draw(ax, m: Match, caption: str = "") -> None:
    """Draw the position of match ``m`` on the matplotlib axes ``ax``; row 0 (the first player's back row) at
    the bottom, as on the rules page."""
    from matplotlib.patches import Circle, Rectangle

    r = m.rules
    st = r.packed
    ax.clear()
    ax.set_aspect("equal")
    ax.axis("off")
    crowns = {r.coords(int(st.crown[0])), r.coords(int(st.crown[1]))}
    for row in range(r.rows):
        for col in range(r.cols):
            colour = "#fbfaf3"
            if st.deploy_first_row[0] <= row <= st.deploy_last_row[0]:
                colour = ZONE_COLOURS[0]
            elif st.deploy_first_row[1] <= row <= st.deploy_last_row[1]:
                colour = ZONE_COLOURS[1]
            if (int(st.obstacles) >> r.cell(col, row)) & 1:
                colour = "#777777"
            ax.add_patch(Rectangle((col, row), 1, 1, facecolor=colour, edgecolor="#999999"))
            if (col, row) in crowns:
                ax.text(col + 0.08, row + 0.82, "♛", fontsize=9, color="#b7950b")
            ax.text(col + 0.93, row + 0.06, f"{col},{row}", fontsize=6, color="#999999", ha="right")
    for u in MagicPage(m.scenario.data).words(m.snapshot())["units"]:
        if u["state"] != "alive":
            continue
        c, row = u["cell"]
        leader = u["type"] == r.leaders[m.decks[u["side"]].split(":")[0]]
        ax.add_patch(Circle((c + 0.5, row + 0.52), 0.36, facecolor=SIDE_COLOURS[u["side"]],
                            edgecolor="#f1c40f" if leader else "white", linewidth=3 if leader else 1.5))
        name = u["type"]
        ax.text(c + 0.5, row + 0.6, name, ha="center", va="center", fontsize=6.5 if len(name) <= 9 else 5.0,
                color="white", weight="bold")
        ax.text(c + 0.5, row + 0.38, f"{u['hp']}/{u['max_hp']}", ha="center", va="center", fontsize=8,
                color="white")
    ax.set_xlim(-0.05, r.cols + 0.05)
    ax.set_ylim(-0.05, r.rows + 0.05)
    ax.set_title(caption, fontsize=7.5, loc="left")


def draw_game(scenario, first_deck: str, second_deck: str, actions: Iterable[tuple], out_path, per: str = "turn",
              seed: int = 0, *, fps: float | None = None, max_frames: int | None = None, coordinates: bool = True,
              progress=None) -> int:
    """Replay a game and draw the board after its actions as a ``.png``; returns the frames drawn (1).

    ``fps``, ``max_frames`` and ``progress`` concern animations, which Magic War does not draw; cells always
    carry their ``c,r`` (``coordinates``).

    Raises:
        ValueError: a suffix other than ``.png`` or an unknown ``per``; IllegalAction on a bad action.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    out_path = Path(out_path)
    if out_path.suffix.lower() != ".png":
        raise ValueError(f"{out_path}: Magic War draws .png pictures, not {out_path.suffix or 'no suffix'}")
    if per not in ("turn", "action"):
        raise ValueError(f"per must be 'turn' or 'action', got {per!r}")
    m = Match(scenario, first_deck, second_deck, seed=seed)
    for a in actions:
        m.do(tuple(a))
    caption = (f"first (red): {m.decks[0]}\nsecond (blue): {m.decks[1]}\nseed {seed}, turn {m.turn}"
               + (f", {m.winner} wins ({m.end_reason})" if m.over else "") + "; authored roster, not the designer's")
    fig, ax = plt.subplots(figsize=(5.0, 6.6), dpi=110)
    fig.subplots_adjust(left=0.03, right=0.97, bottom=0.02, top=0.88)
    tmp = out_path.with_name(out_path.name + ".part")
    try:
        draw(ax, m, caption)
        fig.savefig(tmp, format="png")
        os.replace(tmp, out_path)
    finally:
        plt.close(fig)
        if tmp.exists():
            tmp.unlink()
    return 1
