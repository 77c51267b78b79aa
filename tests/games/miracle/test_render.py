"""Board rendering and replays: plot_board, frames, GIF / HTML / PNG writers, key turns, ``simkit replay``."""

from __future__ import annotations

import base64
import json
import math
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure
from matplotlib.patches import Circle, RegularPolygon
from PIL import Image

from simkit.cli import main
from simkit.commands.demo import scripted_action
from simkit.games.miracle.render import SHIELD_COLOR, SIDE_COLORS, cell_xy, kind_marks, plot_board
from simkit.games.miracle.render_gif import write_gif
from simkit.games.miracle.render_html import html_page
from simkit.games.miracle.render_replay import (
    FRAME_DPI,
    FRAME_INCHES,
    game_frames,
    key_turn_snapshots,
    key_turns,
    key_turns_figure,
    read_game_record,
    render_game,
    thin,
    turn_snapshots,
)
from simkit.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[3]
BASE = ROOT / "scenarios" / "miracle" / "base.toml"
FIRST = "HolyLight:Archer,BlackBat,FrostDragon"
SECOND = "WindBlessing:Priest,Swordsman,VolcanoDragon"
SHORT_TURNS = 6  # the default suite draws the first turns of the game only


@pytest.fixture(scope="module")
def game(base):
    """A whole scripted game (the demo policy) as action tuples."""
    m = base.new_match(FIRST, SECOND, seed=7)
    while not m.over:
        m.do(scripted_action(m))
    return m.actions


@pytest.fixture(scope="module")
def short(game):
    """The game's actions up to the end of turn ``SHORT_TURNS``."""
    ends = [i for i, a in enumerate(game) if a[0] == "end_turn"]
    return game[: ends[SHORT_TURNS - 1] + 1]


def _json_actions(actions):
    return [[list(x) if isinstance(x, tuple) else x for x in a] for a in actions]


def _record(tmp_path: Path, actions, scenario=str(BASE), **extra) -> Path:
    data = {"scenario": scenario, "scenario_hash": load_scenario(BASE).hash, "first_deck": FIRST,
            "second_deck": SECOND, "seed": 7, "bots": ["scripted", "scripted"], "actions": _json_actions(actions),
            **extra}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def _axes(width=12.0, height=8.0):
    fig = Figure(figsize=(width, height))
    FigureCanvasAgg(fig)
    return fig, fig.add_axes((0.02, 0.08, 0.78, 0.84))


def _mid_game(base, game, n=120):
    m = base.new_match(FIRST, SECOND, seed=7)
    for a in game[:n]:
        m.do(a)
    return m.snapshot()


# -- geometry and marks ---------------------------------------------------------------------------


def test_cell_centres_are_a_hex_tiling_and_point_symmetric(base):
    """Neighbouring cells are sqrt(3) apart, no two cells closer, and p -> -p maps a centre to its negation."""
    grid = base.rules.board.grid
    xy = cell_xy(grid.cells)
    d = np.linalg.norm(xy[:, None, :] - xy[None, :, :], axis=-1)
    np.fill_diagonal(d, np.inf)
    assert d.min() == pytest.approx(math.sqrt(3))
    nb = grid.neighbors
    i, k = np.nonzero(nb >= 0)
    assert np.allclose(np.linalg.norm(xy[i] - xy[nb[i, k]], axis=-1), math.sqrt(3))
    assert np.allclose(cell_xy(-grid.cells.astype(int)), -xy)
    first, second = cell_xy(np.array(base.rules.board.miracles))
    assert first[1] < second[1]  # the first player's miracle is drawn at the bottom


def test_kind_marks_are_capitals_and_unique():
    """Each kind's mark is its capitals; clashing names still get distinct marks."""
    marks = kind_marks(["Swordsman", "Archer", "BlackBat", "Priest", "VolcanoDragon", "FrostDragon", "Inferno"])
    assert marks == {"Swordsman": "S", "Archer": "A", "BlackBat": "BB", "Priest": "P", "VolcanoDragon": "VD",
                     "FrostDragon": "FD", "Inferno": "I"}
    clash = kind_marks(["Swordsman", "Shaman", "Sage"])
    assert len(set(clash.values())) == 3


# -- plot_board -----------------------------------------------------------------------------------


def test_plot_board_draws_every_unit_with_mark_level_and_hp(base, game):
    """Every unit gets a glyph at its cell (circle: ground, diamond: flying), its mark+level and HP text."""
    snap = _mid_game(base, game)
    assert snap["units"], "the position should have units"
    fig, ax = _axes()
    plot_board(ax, snap, base.rules.board)
    marks = kind_marks([u["kind"] for u in snap["units"]] + ["Archer", "BlackBat", "FrostDragon", "Priest",
                                                               "Swordsman", "VolcanoDragon"])
    filled = [p for p in ax.patches if p.get_facecolor()[3] > 0]
    circles = [p for p in filled if isinstance(p, Circle)]
    diamonds = [p for p in filled if isinstance(p, RegularPolygon) and p.numvertices == 4]
    assert len(circles) == sum(not u["flying"] for u in snap["units"])
    assert len(diamonds) == sum(u["flying"] for u in snap["units"])
    texts = [(t.get_text(), np.array(t.get_position())) for t in ax.texts]
    for u in snap["units"]:
        centre = cell_xy(u["pos"])
        near = [s for s, xy in texts if np.linalg.norm(xy - centre) < 1.0]
        assert f"{marks[u['kind']]}{u['level']}" in near
        assert f"{u['hp']}/{u['max_hp']}" in near
    for side in (0, 1):
        coloured = [g for g in circles + diamonds if np.allclose(g.get_facecolor()[:3], _rgb(SIDE_COLORS[side]))]
        assert len(coloured) == sum(u["side"] == side for u in snap["units"])
    words = " ".join(s for s, _ in texts)
    assert f"Turn {snap['turn']}" in words
    assert f"mana {snap['players'][0]['mana']}/{snap['players'][0]['max_mana']}" in words
    hp = [s for s, xy in texts if np.linalg.norm(xy - cell_xy(base.rules.board.miracles[1])) < 0.5]
    assert str(snap["players"][1]["miracle_hp"]) in hp


def _rgb(colour: str) -> tuple[float, float, float]:
    return tuple(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))  # type: ignore[return-value]


def test_plot_board_colours_garrisons_by_owner_and_rings_shields(base, game):
    """An owned garrison is filled with its owner's colour, a neutral one is not; a holy shield gets a gold ring."""
    snap = _mid_game(base, game)
    board = base.rules.board
    cells = list(snap["garrisons"])
    snap["garrisons"] = {c: (0 if g == 0 else 1 if g == 1 else None) for g, c in enumerate(cells)}
    shielded = snap["units"][0]
    shielded["holy_shield"] = True
    for u in snap["units"][1:]:
        u["holy_shield"] = False
    fig, ax = _axes()
    plot_board(ax, snap, board)
    faces = next(c for c in ax.collections if isinstance(c, PolyCollection)).get_facecolors()
    g = board.garrisons
    assert np.allclose(faces[g[0], :3], _rgb(SIDE_COLORS[0]))
    assert np.allclose(faces[g[1], :3], _rgb(SIDE_COLORS[1]))
    assert not any(np.allclose(faces[g[2], :3], _rgb(c)) for c in SIDE_COLORS)
    ringed = [p for p in ax.patches if isinstance(p, (Circle, RegularPolygon)) and p.get_zorder() >= 4
              and np.allclose(p.get_edgecolor()[:3], _rgb(SHIELD_COLOR))]
    assert len(ringed) == 1
    assert np.allclose(ringed[0].center if isinstance(ringed[0], Circle) else ringed[0].xy,
                       cell_xy(shielded["pos"]), atol=0.5)


# -- frames ---------------------------------------------------------------------------------------


def test_frames_per_action_and_per_turn(base, game):
    """Per action: the start plus one frame per action; per turn: the start plus one per turn end (and the end)."""
    per_action = game_frames(base, FIRST, SECOND, game, per="action")
    assert len(per_action) == len(game) + 1
    assert [f.actions for f in per_action] == list(range(len(game) + 1))
    per_turn = game_frames(base, FIRST, SECOND, game, per="turn")
    ends = sum(a[0] == "end_turn" for a in game)
    assert per_action[-1].snapshot["over"]
    assert len(per_turn) == 1 + ends + (game[-1][0] != "end_turn")
    assert per_turn[-1].snapshot == per_action[-1].snapshot
    assert "attack" in {f.highlight.kind for f in per_action[1:]}
    miracle_hits = [f for f in per_action[1:] if f.highlight.kind == "attack" and "miracle" in f.highlight.text]
    assert miracle_hits and all(f.highlight.end == tuple(base.rules.board.miracles[1 - f.highlight.side])
                                for f in miracle_hits)
    with pytest.raises(ValueError, match="per must be one of"):
        game_frames(base, FIRST, SECOND, game, per="round")


def test_thin_keeps_first_and_last():
    """Thinning spreads frames evenly and keeps both ends."""
    frames = list(range(100))
    kept = thin(frames, 7)
    assert len(kept) == 7 and kept[0] == 0 and kept[-1] == 99
    assert thin(frames, 200) == frames
    with pytest.raises(ValueError):
        thin(frames, 1)


def test_illegal_action_names_its_index(base, short):
    """A record whose action is illegal where it stands fails naming the action's index."""
    bad = list(short) + [("move", 999, (0, 0, 0))]
    with pytest.raises(ValueError, match=rf"action {len(short)} "):
        game_frames(base, FIRST, SECOND, bad)


# -- writers --------------------------------------------------------------------------------------


def _expected_size(suffix: str) -> tuple[int, int]:
    return (round(FRAME_INCHES[0] * FRAME_DPI[suffix]), round(FRAME_INCHES[1] * FRAME_DPI[suffix]))


@pytest.mark.parametrize("per", ["turn", "action"])
def test_gif_has_one_frame_per_turn_or_action(base, short, tmp_path, per):
    """Every frame of the game's first turns draws without error into an animated GIF of the expected length."""
    actions = short if per == "turn" else short[:12]
    expected = len(game_frames(base, FIRST, SECOND, actions, per=per))
    out = tmp_path / f"game-{per}.gif"
    n = render_game(base, FIRST, SECOND, actions, out, per=per, seed=7)
    assert n == expected == (SHORT_TURNS + 1 if per == "turn" else 13)
    with Image.open(out) as im:
        assert im.format == "GIF" and im.is_animated and im.n_frames == n
        assert im.size == _expected_size(".gif")


def test_png_is_the_final_board(base, short, tmp_path):
    """A .png output is one image of the final position."""
    out = tmp_path / "final.png"
    assert render_game(base, FIRST, SECOND, short, out) == 1
    with Image.open(out) as im:
        assert im.format == "PNG" and im.size == _expected_size(".png")


def test_gif_writer_round_trips_frames_and_durations(tmp_path):
    """Frames written one by one (only the changed rectangle after the first) read back pixel for pixel."""
    rng = np.random.default_rng(0)
    colours = rng.integers(0, 256, size=(12, 3), dtype=np.uint8)
    frames = []
    pixels = colours[rng.integers(0, 12, size=(40, 60))]
    for k in range(4):
        pixels = pixels.copy()
        pixels[5 * k:5 * k + 7, 10 + 3 * k:30 + 3 * k] = colours[k]  # a moving patch
        frames.append(Image.fromarray(pixels, "RGB"))
    frames.append(frames[-1].copy())  # an unchanged frame still counts
    out = tmp_path / "patches.gif"
    assert write_gif(out, iter(frames), [100, 200, 300, 400, 500]) == 5
    with Image.open(out) as im:
        assert im.n_frames == 5 and im.info["loop"] == 0
        for k, expected in enumerate(frames):
            im.seek(k)
            assert im.info["duration"] == 100 * (k + 1)
            assert np.array_equal(np.asarray(im.convert("RGB")), np.asarray(expected))


def test_gif_writer_refuses_bad_input_and_leaves_no_file(tmp_path):
    """No frames, mixed sizes or missing durations raise ValueError and leave no half-written file."""
    out = tmp_path / "bad.gif"
    a, b = Image.new("RGB", (10, 10), "red"), Image.new("RGB", (12, 10), "blue")
    cases = [([], [], "at least one"), ([a, b], [10, 10], "first was"), ([a, a], [10], "durations")]
    for frames, durations, message in cases:
        with pytest.raises(ValueError, match=message):
            write_gif(out, frames, durations)
        assert not out.exists()


def _page_frames(page: str) -> list[bytes]:
    raw = re.search(r"const FRAMES = (\[.*?\]);", page, re.S)
    assert raw, "the page embeds its frames"
    return [base64.b64decode(f) for f in json.loads(raw.group(1))]


def test_html_is_self_contained_with_one_png_per_frame(base, short, tmp_path):
    """The page embeds every frame as a PNG, has a slider and play button, and names no network resource."""
    out = tmp_path / "game.html"
    n = render_game(base, FIRST, SECOND, short, out, per="turn", seed=7)
    page = out.read_text(encoding="utf-8")
    frames = _page_frames(page)
    assert len(frames) == n == SHORT_TURNS + 1
    assert all(f.startswith(b"\x89PNG\r\n\x1a\n") for f in frames)
    assert 'type="range"' in page and 'id="play"' in page
    assert not re.search(r"(https?:)?//[a-z0-9.-]+\.[a-z]{2,}", page, re.I)
    assert not re.search(r"<(link|iframe)|src=\"[^\"d]", page, re.I)


def test_html_page_escapes_its_title_and_labels():
    """A title or label with markup cannot break out of the page."""
    png = b"\x89PNG\r\n\x1a\nfake"
    page = html_page([png], ["</script><b>x"], title="<i>t</i>", seconds=0.5, turns=[1])
    assert "<i>t</i>" not in page and "&lt;i&gt;" in page
    assert "</script><b>" not in page
    with pytest.raises(ValueError):
        html_page([png], [], title="t", seconds=0.5, turns=[1])


def test_bad_output_suffix_and_fps(base, short, tmp_path):
    """Unknown suffixes and non-positive fps are refused with a clear message."""
    with pytest.raises(ValueError, match="must end in"):
        render_game(base, FIRST, SECOND, short, tmp_path / "x.mp4")
    with pytest.raises(ValueError, match="fps"):
        render_game(base, FIRST, SECOND, short, tmp_path / "x.gif", fps=0)


# -- headless browser -----------------------------------------------------------------------------


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


def _open_in_chromium(page: Path, tmp_path: Path) -> tuple[str, list[str]]:
    """The DOM after the page's script ran, and the console errors the browser reported."""
    profile = tmp_path / "chromium-profile"
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={profile}", "--enable-logging=stderr", "--v=0", "--dump-dom", page.resolve().as_uri()]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    errors = [line for line in done.stderr.splitlines() if "CONSOLE" in line and ("Uncaught" in line or "rror" in line)]
    return done.stdout, errors


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
def test_html_opens_in_headless_browser_without_errors(base, short, tmp_path):
    """Chromium opens the page offline, its script sets the frame counter, and the console shows no error;
    the same check catches a page whose script fails."""
    out = tmp_path / "game.html"
    n = render_game(base, FIRST, SECOND, short, out, per="turn", seed=7, max_frames=3)
    dom, errors = _open_in_chromium(out, tmp_path)
    assert errors == []
    assert f'<span id="counter">frame 1 / {n}</span>' in dom
    assert 'src="data:image/png;base64,' in dom

    broken = tmp_path / "broken.html"
    broken.write_text(out.read_text(encoding="utf-8").replace("show(0);\n</script>", "noSuchFunction();\nshow(0);"
                                                              "\n</script>"), encoding="utf-8")
    dom, errors = _open_in_chromium(broken, tmp_path)
    assert errors and "frame 1 /" not in dom


# -- key turns for the report ---------------------------------------------------------------------


def test_key_turns_pick_the_end_and_the_worst_turn(base, game):
    """The picked turns include the last turn and the turn that cost the miracles most HP, in order."""
    by_turn = turn_snapshots(base, FIRST, SECOND, game, seed=7)
    assert by_turn[0]["turn"] == 1 and max(by_turn) == by_turn[max(by_turn)]["turn"]
    picked = key_turns(by_turn, 4)
    turns = sorted(by_turn)
    hp = [sum(p["miracle_hp"] for p in by_turn[t]["players"]) for t in turns]
    worst = turns[1 + int(np.argmax(-np.diff(hp)))]
    assert picked == sorted(picked) and len(picked) == 4 and 0 not in picked
    assert max(by_turn) in picked and worst in picked


def test_key_turns_figure_goes_into_a_pdf(base, game, tmp_path):
    """The report page draws the asked turns with the seed in its title and saves into PdfPages."""
    fig = key_turns_figure(base, FIRST, SECOND, game, turns=[2, 5], seed=7)
    boards = [ax for ax in fig.axes if ax.collections]
    assert len(boards) == 2
    assert "seed 7" in fig._suptitle.get_text()
    with PdfPages(tmp_path / "page.pdf") as pdf:
        pdf.savefig(fig)
    assert (tmp_path / "page.pdf").stat().st_size > 0
    with pytest.raises(ValueError, match="not played"):
        key_turn_snapshots(base, FIRST, SECOND, game[:10], turns=[40])


# -- the command ----------------------------------------------------------------------------------


def test_replay_command_writes_gif(base, short, tmp_path, capsys):
    """``simkit replay game.json -o out.gif --max-frames 4`` writes a 4-frame GIF and says so."""
    record = _record(tmp_path, short)
    out = tmp_path / "out.gif"
    assert main(["replay", str(record), "-o", str(out), "--max-frames", "4", "-q"]) == 0
    assert "4 frames" in capsys.readouterr().out
    with Image.open(out) as im:
        assert im.n_frames == 4


def test_record_finds_its_scenario_beside_itself(tmp_path, short):
    """A relative scenario path that does not exist from here is looked up beside the record."""
    (tmp_path / "base.toml").write_text(BASE.read_text(encoding="utf-8"), encoding="utf-8")
    record = read_game_record(_record(tmp_path, short, scenario="base.toml"))
    assert record.scenario == tmp_path / "base.toml"
    assert record.seed == 7 and record.bots == ("scripted", "scripted")
    assert record.actions[0] == tuple(short[0])


@pytest.mark.parametrize(
    "change, message",
    [
        ({"first_deck": None}, "first_deck"),
        ({"actions": [["summon"], "end_turn"]}, "actions"),
        ({"seed": "seven"}, "seed"),
        ({"actions": [["move", 999, [0, 0, 0]]]}, "action 0"),
    ],
)
def test_replay_command_refuses_bad_records(tmp_path, capsys, short, change, message):
    """A malformed record or an illegal action ends with exit 2 and one line naming the problem."""
    record = _record(tmp_path, short)
    data = json.loads(record.read_text(encoding="utf-8"))
    data.update(change)
    record.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(record), "-o", str(tmp_path / "x.gif"), "-q"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and message in err


def test_replay_command_refuses_unknown_suffix(tmp_path, capsys, short):
    """An output that is not .gif/.html/.png is refused before any work."""
    assert main(["replay", str(_record(tmp_path, short)), "-o", str(tmp_path / "x.mp4")]) == 2
    assert "must end in" in capsys.readouterr().err


@pytest.mark.slow
@pytest.mark.parametrize("suffix, per", [(".gif", "turn"), (".html", "action")])
def test_whole_game_renders(base, game, tmp_path, suffix, per):
    """Every frame of a whole game draws without error, one frame per turn or per action."""
    out = tmp_path / f"whole{suffix}"
    n = render_game(base, FIRST, SECOND, game, out, per=per, seed=7)
    assert n == len(game_frames(base, FIRST, SECOND, game, per=per))
    if suffix == ".gif":
        with Image.open(out) as im:
            assert im.n_frames == n
    else:
        assert len(_page_frames(out.read_text(encoding="utf-8"))) == n


def test_play_render_and_its_record_replay(tmp_path, capsys):
    """``simkit play --json --render`` draws the final board, and its record replays with ``simkit replay``."""
    record, final, gif = tmp_path / "game.json", tmp_path / "final.png", tmp_path / "game.gif"
    assert main(["play", str(BASE), FIRST, SECOND, "--seed", "3", "--json", str(record), "--render", str(final)]) == 0
    assert f"board drawn to {final} (1 frame)" in capsys.readouterr().out
    with Image.open(final) as im:
        assert im.format == "PNG"
    game = read_game_record(record)
    assert (game.first_deck, game.second_deck, game.seed) == (FIRST, SECOND, 3)
    assert main(["replay", str(record), "-o", str(gif), "--max-frames", "3", "-q"]) == 0
    with Image.open(gif) as im:
        assert im.n_frames == 3
