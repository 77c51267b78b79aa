"""The first seat under two end rules: the rules page's draw and the original server's full tie to the second player.

    simkit sweep scenarios/miracle/base.toml --games 1 --panel balanced,rush,control --workers 2 \
        --out results/findings/seat-rules-draw
    simkit sweep scenarios/miracle/original-end.toml --games 1 --panel balanced,rush,control --workers 2 \
        --out results/findings/seat-rules-second
    PYTHONPATH=$PWD python lab/seat_rules.py results/findings/seat-rules-draw results/findings/seat-rules-second \
        --json docs/findings/data/miracle-seat-rules.json

The two sweeps play the same games (the same decks, bots and seeds: a scenario's other numbers do not change a
game's seed, and the two scenarios differ only in ``full_tie``), so they must agree on every game's length and end
reason, and differ only where a game ended in a full tie at the turn limit; the script checks both and refuses
otherwise. For each panel bot (the same bot in both seats) and for the whole panel it writes, under each rule, the
first seat's wins, draws and losses, its score (a draw half) with the 95% Wilson interval, and the share of games
decided at the turn limit (:func:`simkit.analysis.stats.wilson_interval`), with the command, date and commit
(:func:`simkit.core.provenance.provenance`).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import simkit  # noqa: E402
from simkit.analysis.results import first_score  # noqa: E402
from simkit.analysis.stats import wilson_interval  # noqa: E402
from simkit.core.provenance import provenance  # noqa: E402
from simkit.sweep import read_meta  # noqa: E402


def _rule(folder: str) -> str:
    """The ``full_tie`` rule of a sweep folder's scenario (from the merged scenario text it keeps)."""
    data = json.loads(read_meta(folder).get("scenario_text") or "{}")
    return str((data.get("rules") or {}).get("full_tie", "draw"))


def _figures(df) -> dict:
    """The first seat's record and score, and the share of games decided at the turn limit, of ``df``'s games."""
    score = first_score(df)
    n = len(df)
    lo, hi = wilson_interval(score.sum(), n)
    limit = int((df["end_reason"] == "turn_limit").sum())
    lim_lo, lim_hi = wilson_interval(limit, n)
    return {"games": n, "first_wins": int((df["winner"] == "first").sum()),
            "draws": int((df["winner"] == "draw").sum()), "second_wins": int((df["winner"] == "second").sum()),
            "first_rate": float(score.mean()),
            "low": float(lo), "high": float(hi), "turn_limit": limit, "turn_limit_share": limit / n,
            "turn_limit_low": float(lim_lo), "turn_limit_high": float(lim_hi)}


def figures(draw_folder: str, second_folder: str) -> dict:
    """The seat figures of both sweeps, bot by bot and for the whole panel, after checking they play the same games.

    Raises:
        SystemExit: the folders are not the draw rule and the second-player rule, or their games differ other than
            in the winner of full ties.
    """
    rules = (_rule(draw_folder), _rule(second_folder))
    if rules != ("draw", "second"):
        raise SystemExit(f"{draw_folder}, {second_folder}: full_tie is {rules}, not ('draw', 'second')")
    a, b = simkit.load_results(draw_folder), simkit.load_results(second_folder)
    keys = ["first_bot", "second_bot", "first_deck", "second_deck", "game", "seed", "turns", "end_reason"]
    if len(a) != len(b) or not a[keys].reset_index(drop=True).equals(b[keys].reset_index(drop=True)):
        raise SystemExit(f"{draw_folder}, {second_folder}: the two sweeps do not play the same games (sweep both with "
                         "the same --games, --panel, --decks and seed)")
    changed = (a["winner"].to_numpy() != b["winner"].to_numpy())
    tie = (a["winner"].to_numpy() == "draw") & (a["end_reason"].to_numpy() == "turn_limit")
    if (changed & ~tie).any() or (b["winner"].to_numpy()[tie] != "second").any():
        raise SystemExit("the rules change a game that was not a full tie: the engine's end rule is not what the "
                         "scenario says")
    bots = list(dict.fromkeys(a["first_bot"]))
    if (a["first_bot"] != a["second_bot"]).any():
        raise SystemExit(f"{draw_folder}: a bot panel (the same bot in both seats) is needed: the seat is measured "
                         "only where one bot plays both seats")
    rows = []
    for bot in bots + ["the panel"]:
        mask = np.ones(len(a), bool) if bot == "the panel" else (a["first_bot"] == bot).to_numpy()
        rows.append({"bots": bot, "draw": _figures(a[mask]), "second": _figures(b[mask]),
                     "full_ties": int((tie & mask).sum())})
    meta = a.attrs["meta"]
    return {"sweeps": {"draw": {"folder": draw_folder, "scenario": meta.get("scenario_path")},
                       "second": {"folder": second_folder, "scenario": b.attrs["meta"].get("scenario_path")},
                       "panel": bots, "games_per_pair": meta["plan"]["games"], "decks": len(meta["decks"]),
                       "seed": meta["plan"]["seed"]},
            "rows": rows}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("draw_folder", help="a panel sweep under the rules page's end rule (full_tie = \"draw\")")
    p.add_argument("second_folder", help="the same sweep under the original server's (full_tie = \"second\")")
    p.add_argument("--json", dest="json_out", help="write the figures here")
    a = p.parse_args(argv)
    doc = {**provenance("lab/seat_rules.py", "PYTHONPATH=$PWD python lab/seat_rules.py "
                        + shlex.join(argv if argv is not None else sys.argv[1:])),
           **figures(a.draw_folder, a.second_folder)}
    for r in doc["rows"]:
        d, s = r["draw"], r["second"]
        print(f"{r['bots']}: {d['games']} games, the first seat scores {d['first_rate']:.1%} under the draw rule and "
              f"{s['first_rate']:.1%} under the original server's; {d['turn_limit_share']:.1%} decided at the turn "
              f"limit, {r['full_ties']} full ties")
    if a.json_out:
        Path(a.json_out).parent.mkdir(parents=True, exist_ok=True)
        Path(a.json_out).write_text(json.dumps(doc, indent=1, default=float) + "\n")
        print(f"written: {a.json_out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
