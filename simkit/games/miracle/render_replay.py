"""Replays as pictures: the frames of a recorded game, written as PNG, animated GIF or HTML.

A recorded game is a scenario, two decks and the single-match action tuples (the ``ACTIONS_JSON``
file ``simkit play`` writes, read by :func:`read_game_record`). :func:`game_frames` replays it
through :class:`~simkit.games.miracle.Match` and keeps a snapshot after every action or every
turn; :func:`render_game` draws them with :func:`~simkit.games.miracle.render.plot_board` and
writes a file chosen by its suffix. :func:`key_turns_figure` draws a few key turns of one game on
one figure for the balance report.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

from simkit.core.errors import IllegalAction
from simkit.core.records import GameRecord, as_action, read_game_record  # noqa: F401 (re-exported)
from simkit.games.miracle.board import Board
from simkit.games.miracle.match import Match
from simkit.games.miracle.render import SIDE_NAMES, Highlight, add_legend, plot_board, snapshot_marks
from simkit.games.miracle.render_gif import paletted, write_gif
from simkit.games.miracle.render_html import html_page
from simkit.scenario import Scenario, load_scenario

#: What a frame stands for: one per action or one per turn.
PER = ("turn", "action")
#: Output kinds by file suffix.
SUFFIXES = (".gif", ".html", ".png")
#: Seconds each frame shows in a GIF or HTML player, by ``per``.
FRAME_SECONDS = {"turn": 0.8, "action": 0.3}
#: Figure size in inches and resolution of one frame, by output kind.
FRAME_INCHES = (12.0, 8.0)
FRAME_DPI = {".gif": 90, ".html": 100, ".png": 120}


@dataclass(frozen=True)
class Frame:
    """One drawn position of a replay.

    Attributes:
        snapshot: :meth:`Match.snapshot` of the position.
        actions: how many actions of the game had been played.
        turn: the turn the last of them was played in (1 for the start).
        label: a short name for the frame (player controls, slider): ``"turn 3: summon ..."``.
        highlight: the action that led here, for per-action frames.
    """

    snapshot: dict
    actions: int
    turn: int
    label: str
    highlight: Highlight | None = None


# -- frames ---------------------------------------------------------------------------------------


def _unit_name(unit: dict) -> str:
    return f"{unit['kind']} L{unit['level']} at {tuple(unit['pos'])}"


def describe(snapshot: dict, action: tuple, board: Board) -> Highlight:
    """The :class:`Highlight` of ``action`` played from the position ``snapshot``.

    Args:
        snapshot: the position before the action.
        action: a single-match action tuple (already known to be legal there).
        board: the map, for the enemy miracle's cell.

    Returns:
        Its arrow/ring endpoints and a one-line description in the game's words.
    """
    side = int(snapshot["current"])
    who = SIDE_NAMES[side]
    units = {u["id"]: u for u in snapshot["units"]}
    name = action[0]
    if name == "summon":
        _, kind, level, cell = action
        return Highlight("summon", side, None, tuple(cell), f"{who} summons {kind} L{level} at {tuple(cell)}")
    if name == "move":
        u = units[action[1]]
        return Highlight("move", side, tuple(u["pos"]), tuple(action[2]),
                         f"{who} moves {_unit_name(u)} to {tuple(action[2])}")
    if name == "attack":
        u = units[action[1]]
        if action[2] == "miracle":
            target, what = tuple(board.miracles[1 - side]), f"the {SIDE_NAMES[1 - side]} miracle"
        else:
            t = units[action[2]]
            target, what = tuple(t["pos"]), _unit_name(t)
        return Highlight("attack", side, tuple(u["pos"]), target, f"{who}: {_unit_name(u)} attacks {what}")
    if name == "use":
        art = snapshot["players"][side]["artifact"]["name"]
        target = action[1]
        if isinstance(target, tuple):
            return Highlight("use", side, None, target, f"{who} uses {art} on {target}")
        u = units[target]
        return Highlight("use", side, None, tuple(u["pos"]), f"{who} uses {art} on {_unit_name(u)}")
    return Highlight("end_turn", side, None, None, f"{who} ends turn {snapshot['turn']}")


def game_frames(
    scenario: Scenario,
    first_deck: str,
    second_deck: str,
    actions: Iterable[Sequence],
    per: str = "turn",
    seed: int = 0,
) -> list[Frame]:
    """Replay a game and keep the positions to draw.

    Args:
        scenario: the loaded scenario the game was played under.
        first_deck, second_deck: the decks; the first moves first.
        actions: single-match action tuples (or JSON lists), in order.
        per: ``"action"``: the start and the position after every action; ``"turn"``: the start,
            the position after every turn end, and the final position when the game ended mid-turn.
        seed: the game's seed (kept on the match).

    Returns:
        The frames, in order.

    Raises:
        ValueError: ``per`` is unknown.
        IllegalAction: an action is not legal where it stands (its index is named).
    """
    if per not in PER:
        raise ValueError(f"per must be one of {', '.join(PER)}, got {per!r}")
    board = scenario.rules.board
    m = Match(scenario, first_deck, second_deck, seed=seed)
    before = m.snapshot()
    frames = [Frame(before, 0, before["turn"], f"turn {before['turn']}: start")]
    for i, raw in enumerate(actions):
        action = as_action(raw)
        try:
            m.do(action)
        except IllegalAction as exc:
            raise IllegalAction(f"action {i} {action!r}: {exc}") from None
        after = m.snapshot()
        if per == "action":
            hl = describe(before, action, board)
            frames.append(Frame(after, i + 1, before["turn"], f"turn {before['turn']}: {hl.text}", hl))
        elif action[0] == "end_turn" or after["over"]:
            frames.append(Frame(after, i + 1, before["turn"], _turn_label(before, after)))
        before = after
    return frames


def _turn_label(before: dict, after: dict) -> str:
    if after["over"]:
        return f"turn {before['turn']}: game over"
    return f"turn {before['turn']}: end of {SIDE_NAMES[before['current']]} player's turn"


def thin(frames: Sequence[Frame], max_frames: int | None) -> list[Frame]:
    """At most ``max_frames`` frames evenly spread over ``frames``, the first and last kept.

    Raises:
        ValueError: ``max_frames`` is below 2.
    """
    if max_frames is None or len(frames) <= max_frames:
        return list(frames)
    if max_frames < 2:
        raise ValueError(f"max_frames must be at least 2 (first and last position), got {max_frames}")
    keep = np.unique(np.round(np.linspace(0, len(frames) - 1, max_frames)).astype(int))
    return [frames[i] for i in keep]


# -- drawing frames -------------------------------------------------------------------------------


def game_title(first_deck: str, second_deck: str, seed: int | None) -> str:
    """The matchup line above every frame: both decks, and the seed when known."""
    text = f"{first_deck} (first)  vs  {second_deck} (second)"
    return text if seed is None else f"{text} · seed {seed}"


class FramePainter:
    """Draws frames one after another on one reused figure and returns them as images.

    The legend is the same for every position of a game, so it is drawn once and pasted into
    each frame (drawing it takes about half the time of a frame).

    Args:
        board: the map.
        title: the first caption line of every frame.
        dpi: resolution; the figure is :data:`FRAME_INCHES`.
        coordinates: print cube coordinates in each cell.
    """

    BOARD_BOX = (0.015, 0.085, 0.79, 0.835)  # figure fraction: left, bottom, width, height

    def __init__(self, board: Board, title: str, dpi: int, coordinates: bool = False):
        self.board, self.title, self.coordinates, self.dpi = board, title, coordinates, dpi
        self.figure = Figure(figsize=FRAME_INCHES, dpi=dpi)
        self.canvas = FigureCanvasAgg(self.figure)
        self._legends: dict[tuple, Image.Image] = {}

    def _legend(self, marks: dict[str, str]) -> Image.Image:
        key = tuple(sorted(marks.items()))
        if key not in self._legends:
            left, _, width, height = self.BOARD_BOX
            fig = Figure(figsize=(FRAME_INCHES[0] * (1 - left - width), FRAME_INCHES[1] * height), dpi=self.dpi)
            canvas = FigureCanvasAgg(fig)
            add_legend(fig, marks, loc="upper left", bbox_to_anchor=(0.0, 1.0))
            canvas.draw()
            self._legends[key] = _image(canvas)
        return self._legends[key]

    def draw(self, frame: Frame, counter: str = "") -> Image.Image:
        """The frame as an RGB image; ``counter`` (``"frame 3/40"``) is printed in a corner."""
        fig = self.figure
        fig.clear()
        ax = fig.add_axes(self.BOARD_BOX)
        plot_board(ax, frame.snapshot, self.board, highlight=frame.highlight, title=self.title, legend=False,
                   coordinates=self.coordinates)
        if counter:
            fig.text(0.985, 0.012, counter, ha="right", va="bottom", fontsize=7, color="#666666")
        self.canvas.draw()
        image = _image(self.canvas)
        left, bottom, width, height = self.BOARD_BOX
        w, h = image.size
        corner = (round((left + width) * w), round((1 - bottom - height) * h))
        image.paste(self._legend(snapshot_marks(frame.snapshot)), corner)
        return image


def _image(canvas: FigureCanvasAgg) -> Image.Image:
    w, h = canvas.get_width_height()
    return Image.frombuffer("RGBA", (w, h), canvas.buffer_rgba(), "raw", "RGBA", 0, 1).convert("RGB")


def _png_bytes(image: Image.Image) -> bytes:
    out = io.BytesIO()
    paletted(image).save(out, format="PNG")
    return out.getvalue()


def render_game(
    scenario: Scenario | str | Path,
    first_deck: str,
    second_deck: str,
    actions: Iterable[Sequence],
    out_path: str | Path,
    per: str = "turn",
    seed: int | None = None,
    *,
    fps: float | None = None,
    max_frames: int | None = None,
    coordinates: bool = False,
    progress: Callable[[Iterable], Iterable] | None = None,
) -> int:
    """Replay a game and write it as a picture chosen by ``out_path``'s suffix.

    ``.gif``: an animated GIF, one frame per turn or action, the last one held longer;
    ``.html``: a self-contained page (frames embedded as PNG, a turn slider, play button, no
    network needed); ``.png``: the final board.

    Args:
        scenario: the loaded scenario, or its file.
        first_deck, second_deck: the decks; the first moves first.
        actions: single-match action tuples (or JSON lists), in order.
        out_path: the file to write; its suffix picks the kind.
        per: ``"turn"`` or ``"action"``: what one frame stands for.
        seed: the game's seed, shown in the caption (``None``: not shown, match seed 0).
        fps: frames per second of the GIF / HTML player (default from :data:`FRAME_SECONDS`).
        max_frames: draw at most this many frames, evenly spread, first and last kept.
        coordinates: print cube coordinates in each cell.
        progress: wraps the frame iterator (for example ``tqdm``).

    Returns:
        The number of frames written (1 for a PNG).

    Raises:
        ValueError: unknown suffix or ``per``, bad ``fps``/``max_frames``, or an illegal action.
    """
    out_path = Path(out_path)
    suffix = out_path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"{out_path}: output must end in {', '.join(SUFFIXES)}")
    if fps is not None and not fps > 0:
        raise ValueError(f"fps must be positive, got {fps}")
    if max_frames is not None and max_frames < 2:
        raise ValueError(f"max_frames must be at least 2 (first and last position), got {max_frames}")
    sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    frames = game_frames(sc, first_deck, second_deck, actions, per=per, seed=0 if seed is None else seed)
    painter = FramePainter(sc.rules.board, game_title(frames[0].snapshot["players"][0]["deck"],
                                                      frames[0].snapshot["players"][1]["deck"], seed),
                           FRAME_DPI[suffix], coordinates)
    if suffix == ".png":
        painter.draw(frames[-1]).save(out_path, format="PNG", optimize=True)
        return 1
    frames = thin(frames, max_frames)
    seconds = 1.0 / fps if fps is not None else FRAME_SECONDS[per]
    n = len(frames)
    it = progress(frames) if progress is not None else frames
    images = (painter.draw(f, f"frame {i + 1}/{n} · {per}") for i, f in enumerate(it))
    if suffix == ".gif":
        durations = [round(seconds * 1000)] * n
        durations[-1] = max(durations[-1], 2500)  # hold the final position
        return write_gif(out_path, images, durations)
    pngs = [_png_bytes(im) for im in images]
    page = html_page(pngs, [f.label for f in frames], title=painter.title, seconds=seconds,
                     turns=[f.turn for f in frames], per=per)
    out_path.write_text(page, encoding="utf-8")
    return n


# -- key turns for the report ---------------------------------------------------------------------


def turn_snapshots(
    scenario: Scenario, first_deck: str, second_deck: str, actions: Iterable[Sequence], seed: int = 0
) -> dict[int, dict]:
    """The position after each turn of a game: ``{turn: snapshot}``, ``0`` the start.

    The last turn's position is the final one, also when the game ended during that turn.

    Raises:
        IllegalAction: an action is not legal where it stands.
    """
    frames = game_frames(scenario, first_deck, second_deck, actions, per="turn", seed=seed)
    out: dict[int, dict] = {0: frames[0].snapshot}
    for frame in frames[1:]:
        out[frame.turn] = frame.snapshot
    return out


def key_turns(by_turn: dict[int, dict], count: int = 4) -> list[int]:
    """Pick up to ``count`` telling turns of one game, in order.

    By priority: the last turn; the turn that cost the miracles most HP; the first turn a
    miracle was hit; the turn with the most units on the board; then turns evenly spread.

    Args:
        by_turn: :func:`turn_snapshots` of the game (``0``, the start, is never picked).
        count: how many turns to pick.

    Returns:
        Sorted distinct turn numbers.
    """
    turns = sorted(by_turn)
    played = [t for t in turns if t > 0]
    if not played or count <= 0:
        return []
    hp = np.array([sum(p["miracle_hp"] for p in by_turn[t]["players"]) for t in turns])
    loss = -np.diff(hp)[-len(played):]  # miracle HP lost during each played turn
    units = np.array([len(by_turn[t]["units"]) for t in played])
    picks = [played[-1]]
    if loss.max() > 0:
        picks += [played[int(np.argmax(loss))], played[int(np.argmax(loss > 0))]]
    picks.append(played[int(np.argmax(units))])
    picks += [played[int(i)] for i in np.round(np.linspace(0, len(played) - 1, count + 2))[1:-1]]
    out: list[int] = []
    for t in picks:
        if t not in out:
            out.append(t)
    return sorted(out[:count])


def key_turn_snapshots(
    scenario: Scenario,
    first_deck: str,
    second_deck: str,
    actions: Iterable[Sequence],
    turns: Sequence[int] | None = None,
    count: int = 4,
    seed: int = 0,
) -> list[tuple[int, dict]]:
    """The positions after a few turns of one game.

    Args:
        scenario, first_deck, second_deck, actions, seed: the game, as for :func:`render_game`.
        turns: which turns (position after each one ends, ``0`` the start); ``None``: :func:`key_turns`
            picks ``count``.
        count: how many turns to pick when ``turns`` is ``None``.

    Returns:
        ``[(turn, snapshot), ...]`` in the order of ``turns`` (sorted when picked).

    Raises:
        ValueError: a turn was not played in this game.
    """
    by_turn = turn_snapshots(scenario, first_deck, second_deck, actions, seed=seed)
    chosen = key_turns(by_turn, count) if turns is None else list(turns)
    missing = [t for t in chosen if t not in by_turn]
    if missing:
        last = max(by_turn)
        raise ValueError(f"turn(s) {', '.join(map(str, missing))} not played (the game has turns 0..{last})")
    return [(t, by_turn[t]) for t in chosen]


def plot_key_turns(
    axes: Sequence[Axes], board: Board, snapshots: Sequence[tuple[int, dict]], legend_on: int = -1
) -> None:
    """Draw each ``(turn, snapshot)`` on its Axes, the legend beside one of them only.

    Args:
        axes: one Axes per snapshot (spare ones are blanked).
        board: the map.
        snapshots: ``(turn, snapshot)`` pairs, as :func:`key_turn_snapshots` gives.
        legend_on: index of the board that carries the legend (right of it).

    Raises:
        ValueError: fewer Axes than snapshots.
    """
    if len(axes) < len(snapshots):
        raise ValueError(f"{len(snapshots)} boards need as many Axes, got {len(axes)}")
    legend_on = legend_on % len(snapshots) if snapshots else 0
    for i, (ax, (turn, snap)) in enumerate(zip(axes, snapshots)):
        plot_board(ax, snap, board, title="start" if turn == 0 else f"after turn {turn}", legend=(i == legend_on),
                   decks=False)
    for ax in axes[len(snapshots):]:
        ax.set_axis_off()


def key_turns_figure(
    scenario: Scenario,
    first_deck: str,
    second_deck: str,
    actions: Iterable[Sequence],
    turns: Sequence[int] | None = None,
    seed: int | None = None,
    count: int = 4,
    title: str | None = None,
) -> Figure:
    """One report page: the board after a few key turns of a game, with its decks and seed.

    Args:
        scenario, first_deck, second_deck, actions: the game.
        turns: the turns to show; ``None``: :func:`key_turns` picks ``count`` of them.
        seed: the game's seed, printed so the game can be replayed (``None``: not printed).
        count: how many turns to pick when ``turns`` is ``None`` (at most 4 fit a page).
        title: the page title (default: both decks and the seed).

    Returns:
        A :class:`matplotlib.figure.Figure` (A4 landscape, not registered with pyplot): save it
        into a ``PdfPages`` with ``pdf.savefig(fig)``.

    Example:
        A representative game of a flagged matchup, played again from its seed::

            row = play_games(sc, first, second, bots=bots, seeds=[seed], record_actions=True).iloc[0]
            fig = key_turns_figure(sc, row["first_deck"], row["second_deck"], row["action_list"], seed=seed)

    Raises:
        ValueError: a turn was not played, or more than 4 turns are asked for.
    """
    snaps = key_turn_snapshots(scenario, first_deck, second_deck, actions, turns, count,
                               seed=0 if seed is None else seed)
    if len(snaps) > 4:
        raise ValueError(f"at most 4 boards fit one page, got {len(snaps)} turns")
    fig = Figure(figsize=(11.69, 8.27))
    FigureCanvasAgg(fig)
    d0, d1 = snaps[0][1]["players"][0]["deck"], snaps[0][1]["players"][1]["deck"]
    fig.suptitle(title or game_title(d0, d1, seed), fontsize=10, fontweight="bold", x=0.01, ha="left")
    boxes = [(0.01, 0.52, 0.40, 0.37), (0.43, 0.52, 0.40, 0.37), (0.01, 0.06, 0.40, 0.37), (0.43, 0.06, 0.40, 0.37)]
    axes = [fig.add_axes(b) for b in boxes[: max(len(snaps), 1)]]
    plot_key_turns(axes, scenario.rules.board, snaps, legend_on=min(1, len(snaps) - 1))
    return fig


__all__ = [
    "FRAME_SECONDS",
    "Frame",
    "FramePainter",
    "GameRecord",
    "PER",
    "describe",
    "game_frames",
    "game_title",
    "key_turn_snapshots",
    "key_turns",
    "key_turns_figure",
    "plot_key_turns",
    "read_game_record",
    "render_game",
    "thin",
    "turn_snapshots",
]
