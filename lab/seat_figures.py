"""The seat's worth and how games end, from a sweep played with one bot in both seats.

    simkit sweep scenarios/duel/base.toml --games 1 --bots aggro,aggro --out results/seat-duel
    PYTHONPATH=$PWD python lab/seat_figures.py results/seat-duel --json docs/findings/data/duel-seat.json

Reads the sweep folder (``simkit.load_results``) and writes, with the command, date and commit
(:func:`simkit.core.provenance.provenance`) and the sweep's own settings: the first seat's score over all games
(draws half) with its 95% Wilson interval and the sign test (:func:`simkit.analysis.first_player_advantage`), and
the games' end reasons and mean length (:func:`simkit.analysis.shape.game_shape`). The sweep must have one bot in
both seats: otherwise the first seat's edge is a bot-and-seat effect, not the seat's.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import simkit  # noqa: E402
from simkit.analysis.first_player import first_player_advantage, seat_measured  # noqa: E402
from simkit.analysis.shape import game_shape  # noqa: E402
from simkit.core.provenance import provenance  # noqa: E402
from simkit.games import get_game  # noqa: E402


def figures(folder: str) -> dict:
    """The seat and shape figures of the sweep in ``folder``."""
    df = simkit.load_results(folder)
    meta = df.attrs["meta"]
    why = seat_measured(df)
    if why:
        raise SystemExit(f"{folder}: {why}")
    row = first_player_advantage(df).iloc[0]
    shape = game_shape(df)
    plan = meta.get("plan", {})
    game = meta.get("game")
    ends = [{"end_reason": r.end_reason, "label": r.label, "games": int(r.games), "share": float(r.share)}
            for r in shape.itertuples() if r.end_reason != "all" and r.games]
    return {"sweep": {"folder": str(folder), "scenario": meta.get("scenario_path") or meta.get("scenario"),
                      "game": game, "games_per_pair": plan.get("games"), "bots": list(df.first_bot.unique()[:1]) * 2,
                      "seed": plan.get("seed"), "sweep_commit": meta.get("versions", {}).get("commit")},
            "seat": {k: (int(row[k]) if k in ("games", "first_wins", "second_wins", "draws") else float(row[k]))
                     for k in ("games", "first_wins", "second_wins", "draws", "first_rate", "advantage", "p_value")}
            | {"low": float(row["low"]) + 0.5, "high": float(row["high"]) + 0.5},
            "shape": {"mean_turns": float(df.turns.mean()), "ends": ends,
                      "turn_words": get_game(game).schema.turn_words if game else "turns"}}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folder", help="a sweep folder played with one bot in both seats")
    p.add_argument("--sweep-command", help="the simkit sweep line that played the folder (recorded beside the figures)")
    p.add_argument("--json", dest="json_out", help="write the figures here")
    a = p.parse_args(argv)
    doc = {**provenance("lab/seat_figures.py", "PYTHONPATH=$PWD python lab/seat_figures.py "
                        + shlex.join(argv if argv is not None else sys.argv[1:])), **figures(a.folder)}
    if a.sweep_command:
        doc["sweep"]["command"] = a.sweep_command
    s = doc["seat"]
    print(f"{s['games']} games: the first seat scores {s['first_rate']:.1%} (95% CI {s['low']:.1%}-{s['high']:.1%}), "
          f"sign test p {s['p_value']:.3f}; mean length {doc['shape']['mean_turns']:.1f} {doc['shape']['turn_words']}")
    if a.json_out:
        Path(a.json_out).parent.mkdir(parents=True, exist_ok=True)
        Path(a.json_out).write_text(json.dumps(doc, indent=1, default=float) + "\n")
        print(f"written: {a.json_out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
