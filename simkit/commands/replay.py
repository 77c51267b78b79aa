"""``simkit replay``: a recorded game as a text log, or drawn as the game's pictures (GIF, HTML, PNG)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

#: What a frame stands for: one per turn or one per action.
PER = ("turn", "action")
TEXT = ".txt"


def run(args: argparse.Namespace) -> int:
    """Read the record, replay it and write the log or picture; print what was written."""
    from tqdm import tqdm

    from simkit.core.files import atomic_write, cannot_write
    from simkit.core.records import check_scenario, read_game_record
    from simkit.scenario import load_scenario

    out = Path(args.output)
    if args.max_frames is not None and args.max_frames < 1:
        raise ValueError(f"--max-frames must be at least 1, got {args.max_frames}")
    if args.fps is not None and not args.fps > 0:
        raise ValueError(f"--fps must be positive, got {args.fps}")
    record = read_game_record(args.actions_json)
    sc = load_scenario(args.scenario or record.scenario, bots_from=record.bots_from)
    warning = check_scenario(record, sc)
    if warning:
        print(f"simkit replay: warning: {warning}", file=sys.stderr)
    game = sc.game
    suffix = out.suffix.lower()
    if suffix not in (TEXT, *game.picture_suffixes):  # picture_suffixes is () for a game without "draw"
        raise ValueError(f"{out}: output must end in {', '.join((TEXT, *game.picture_suffixes))} for {game.title}")
    if suffix == TEXT:
        match = game.replay(record.first_deck, record.second_deck, record.actions, seed=record.seed)
        narrate = game.capability("narrate")
        lines = ([repr(a) for a in record.actions] if narrate is None else
                 narrate(record.first_deck, record.second_deck, record.actions, bots=record.bots or ("?", "?"),
                         seed=record.seed))
        text = "\n".join([*lines, f"result: {match.winner or 'unfinished'}"]) + "\n"
        try:
            atomic_write(out, lambda tmp: tmp.write_text(text, encoding="utf-8"))
        except OSError as exc:
            raise cannot_write(f"-o {out}", exc) from None
        print(f"wrote {out}: {len(lines)} lines, {len(record.actions)} actions, "
              f"{record.first_deck} vs {record.second_deck}, seed {record.seed}")
        return 0
    label = f"frames per {args.per}" if suffix != ".png" else "final board"

    def progress(frames):
        return tqdm(frames, desc=f"drawing {out.name}", unit="frame", disable=args.quiet, file=sys.stderr)

    draw = game.capability("draw")
    try:
        n = atomic_write(out, lambda tmp: draw(
            record.first_deck, record.second_deck, record.actions, tmp, per=args.per, seed=record.seed,
            fps=args.fps, max_frames=args.max_frames, coordinates=args.coords, progress=progress))
    except OSError as exc:
        raise cannot_write(f"-o {out}", exc) from None
    print(f"wrote {out}: {n} frame{'s' if n != 1 else ''} ({label}), {len(record.actions)} actions, "
          f"{record.first_deck} vs {record.second_deck}, seed {record.seed}")
    return 0


def register(sub) -> None:
    """Add the ``replay`` command."""
    p = sub.add_parser(
        "replay",
        help="replay a recorded game as a text log (.txt) or, for games that draw, a GIF, HTML page or PNG",
        description="Replay ACTIONS_JSON (written by `simkit play --json`). The output's suffix picks the kind: "
        ".txt (the game told action by action, every game), and for games that draw pictures (Battle of "
        "Miracles): .gif (animation), .html (page with a turn slider, opens without network), .png (final board).",
    )
    p.add_argument("actions_json", metavar="ACTIONS_JSON", help="recorded game: scenario, decks, seed, actions")
    p.add_argument("-o", "--output", required=True, metavar="OUT", help="out.txt, or out.gif, out.html, out.png")
    p.add_argument("--per", choices=PER, default="turn", help="one frame per turn (default) or per action")
    p.add_argument("--fps", type=float, help="frames per second of the animation (default: the game's, about "
                   "1.25 per turn and 3.3 per action)")
    p.add_argument("--max-frames", type=int, metavar="N",
                   help="draw at most N frames, evenly spread, first and last kept")
    p.add_argument("--scenario", help="scenario TOML to replay under (default: the one the record names)")
    p.add_argument("--coords", action="store_true", help="print cell coordinates on the board")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run)
