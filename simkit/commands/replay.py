"""``simkit replay``: draw a recorded game (ACTIONS_JSON) as an animated GIF, an HTML page or a PNG."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tqdm import tqdm

from simkit.games.miracle.render_replay import FRAME_SECONDS, PER, SUFFIXES, read_game_record, render_game
from simkit.scenario import load_scenario


def run(args: argparse.Namespace) -> int:
    """Read the record, replay it and write the picture; print what was written."""
    out = Path(args.output)
    if out.suffix.lower() not in SUFFIXES:
        raise ValueError(f"{out}: output must end in {', '.join(SUFFIXES)}")
    record = read_game_record(args.actions_json)
    sc = load_scenario(args.scenario or record.scenario)
    label = f"frames per {args.per}" if out.suffix.lower() != ".png" else "final board"

    def progress(frames):
        return tqdm(frames, desc=f"drawing {out.name}", unit="frame", disable=args.quiet, file=sys.stderr)

    n = render_game(sc, record.first_deck, record.second_deck, record.actions, out, per=args.per, seed=record.seed,
                    fps=args.fps, max_frames=args.max_frames, coordinates=args.coords, progress=progress)
    print(f"wrote {out}: {n} frame{'s' if n != 1 else ''} ({label}), {len(record.actions)} actions, "
          f"{record.first_deck} vs {record.second_deck}, seed {record.seed}")
    return 0


def register(sub) -> None:
    """Add the ``replay`` command."""
    p = sub.add_parser(
        "replay",
        help="draw a recorded game as an animated GIF, a self-contained HTML page or the final board as PNG",
        description="Replay ACTIONS_JSON (written by `simkit play`) and draw it. The output's suffix picks the "
        "kind: .gif (animation), .html (page with a turn slider, opens without network), .png (final board).",
    )
    p.add_argument("actions_json", metavar="ACTIONS_JSON", help="recorded game: scenario, decks, seed, actions")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="out.gif, out.html or out.png")
    p.add_argument("--per", choices=PER, default="turn", help="one frame per turn (default) or per action")
    p.add_argument("--fps", type=float, help=f"frames per second of the animation (default "
                   f"{1 / FRAME_SECONDS['turn']:.3g} per turn, {1 / FRAME_SECONDS['action']:.3g} per action)")
    p.add_argument("--max-frames", type=int, metavar="N",
                   help="draw at most N frames, evenly spread, first and last kept")
    p.add_argument("--scenario", help="scenario TOML to replay under (default: the one the record names)")
    p.add_argument("--coords", action="store_true", help="print cube coordinates in every cell")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)
