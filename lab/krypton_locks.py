"""Krypton's locks in a ladder's games: how many became a certain draw before their end, and when.

    simkit ladder scenarios/krypton/ladder-tuned.toml --rungs tuned,tuned-fit-2 --skip-top --games 40 --out results/kl
    PYTHONPATH=$PWD python lab/krypton_locks.py results/kl --json docs/findings/data/krypton-locks.json

Every game of the ladder folder's ``games.csv`` is played again from its decks, bots and seed with its actions
recorded, and :func:`simkit.games.krypton.stalemate.lock_round` (imported from Krypton's own module: the lock is
the lab's question, not part of the game interface) says the round it first stood locked, if it did. Per match:
the games locked (with a 95% Wilson interval), how many of the draws that explains, the lock rounds' quartiles, and
how many locked games were still won (a lock that is not one: 0 when the test is sound). The JSON carries the
command, date and commit (:func:`simkit.core.provenance.provenance`).
"""

from __future__ import annotations

import argparse
import json
import math
import shlex
import sys
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import simkit  # noqa: E402
from simkit.analysis.stats import wilson_interval  # noqa: E402
from simkit.core.provenance import provenance  # noqa: E402
from simkit.games.krypton.stalemate import lock_round  # noqa: E402
from simkit.ladder import read_ladder  # noqa: E402


def lock_rounds(sc: simkit.Scenario, games: pd.DataFrame) -> list[int]:
    """Each game's lock round (-1: it never locked), its actions recorded by playing it again."""
    out = []
    for bots, part in games.groupby(["first_bot", "second_bot"], sort=False):
        df = simkit.play_games(sc, list(part.first_deck), list(part.second_deck), bots=bots, seeds=list(part.seed),
                               record_actions=True)
        assert list(df.winner) == list(part.winner), "the ladder's games did not replay: another commit or scenario"
        for f, s, seed, acts, i in zip(part.first_deck, part.second_deck, part.seed, df.action_list, part.index):
            r = lock_round(sc, (f, s), int(seed), acts)
            out.append((i, -1 if r is None else int(r)))
    return [r for _, r in sorted(out)]


def locks(rows: pd.DataFrame) -> dict:
    """How many of ``rows`` locked, how many of the draws that explains, the rounds' quartiles, locked but won."""
    locked = rows[rows.lock_round >= 0]
    draws = rows[rows.winner == "draw"]
    q = [float(np.percentile(locked.lock_round, p)) for p in (25, 50, 75)] if len(locked) else [math.nan] * 3
    lo, hi = wilson_interval(len(locked), len(rows))
    return {"games": len(rows), "locked": len(locked), "locked_share": len(locked) / len(rows),
            "locked_ci": [float(lo), float(hi)], "draws": len(draws),
            "draws_locked": int((draws.lock_round >= 0).sum()),
            "locked_won": int((locked.winner != "draw").sum()), "round_quartiles": q}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("folder", help="a folder written by simkit ladder on a Krypton scenario")
    p.add_argument("--json", dest="json_out", help="write the figures here")
    a = p.parse_args(argv)
    doc = read_ladder(a.folder)
    if doc["game"] != "krypton":
        p.error(f"{a.folder}: a ladder of {doc['game']}, not Krypton")
    sc = simkit.load_scenario(ROOT / doc["scenario"] if not Path(doc["scenario"]).is_absolute() else doc["scenario"])
    made = provenance("lab/krypton_locks.py", "PYTHONPATH=$PWD python lab/krypton_locks.py "
                      + shlex.join(argv if argv is not None else sys.argv[1:]))  # the commit that replays
    games = pd.read_csv(Path(a.folder) / "games.csv")
    games["lock_round"] = lock_rounds(sc, games)
    out = {**made, "ladder": {k: doc[k] for k in ("command", "date", "commit", "scenario")}, "matches": []}
    for (upper, lower), part in games.groupby(["upper", "lower"], sort=False):
        k = {"upper": upper, "lower": lower, **locks(part)}
        out["matches"].append(k)
        q1, med, q3 = k["round_quartiles"]
        print(f"{upper} vs {lower}: {k['locked']} of {k['games']} games locked ({k['locked_share']:.1%}, 95% CI "
              f"{k['locked_ci'][0]:.1%}-{k['locked_ci'][1]:.1%}), {k['draws_locked']} of the {k['draws']} draws, in "
              f"round {med:.0f} (median; quartiles {q1:.0f}-{q3:.0f}); locked games won: {k['locked_won']}")
    if a.json_out:
        Path(a.json_out).parent.mkdir(parents=True, exist_ok=True)
        Path(a.json_out).write_text(json.dumps(out, indent=1, default=float) + "\n")
        print(f"written: {a.json_out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
