"""Magic War's whole space of armies explored: the figures of docs/findings/magic.md "The whole space".

    PYTHONPATH=$PWD python scripts/explore_bench.py scenarios/magic/base.toml \
        --out results/findings/magic-explore-before --json results/findings/magic-explore-before.json -- \
        --space all --neighbours 8 --cell-starts 1 --horizon 8 --max-games 10000 --epsilon 0.05 --workers 2
    PYTHONPATH=$PWD python scripts/explore_bench.py scenarios/magic/base.toml --out results/findings/magic-explore \
        --json results/findings/magic-explore-bench.json -- --space all --search all --alpha 0.05 --horizon 2048 \
        --population-games 32 --focus 128 --epsilon 0.05 --chunk-size 512 --workers 2 --max-games N
    PYTHONPATH=$PWD python lab/magic_explore.py results/findings/magic-explore-before.json \
        results/findings/magic-explore-bench.json results/findings/magic-explore \
        --json docs/findings/data/magic-explore.json

The first run is the explore as it was (one-edit neighbours, deck-by-deck bounds) at the issue's budget; the second
races every army of both seats with family-wise bounds. Both benchmark files are
:mod:`scripts.explore_bench`'s (games, wall and CPU time, the planner's share, where the games went, the games
per CPU second of plain ``play_games`` on the same pairings). From the second run's folder it reads each seat's
metagame, its five strongest armies against the mixture they meet (with the race's family-wise bounds), each
race's best army and standing per seat, and every unit's standing (``dead_cards.csv``), and the first seat's
expected score with its 95% interval (the value's standard error, ``summary.json``). It writes them as one JSON
file with the command, date and commit (:func:`simkit.core.provenance.provenance`).
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pandas as pd  # noqa: E402

from simkit.core.provenance import provenance  # noqa: E402

RUN_KEYS = ("command", "run_commit", "load_before", "load_after", "games", "wall_s", "cpu_s", "planning_share",
            "games_per_cpu_s", "plain_games_per_cpu_s", "slowdown", "population_games", "candidate_games", "candidates",
            "undecided", "undecided_beating", "undecided_unmet", "projected_games", "pairs_played", "pairs",
            "guarantee", "exploitability_interval", "stopped")


def _run(bench: dict) -> dict:
    """A benchmark file's figures, the ones the page shows."""
    return {k: bench[k] for k in RUN_KEYS if k in bench}


def answers(folder: Path, top: int = 5) -> dict:
    """The whole-space run's answers: value, metagames, strongest armies, races and units, per seat."""
    s = json.loads((folder / "summary.json").read_text(encoding="utf-8"))
    decks = pd.read_csv(folder / "decks.csv")
    cards = pd.read_csv(folder / "dead_cards.csv")
    se = float(s["bounds"]["value_se"])
    seats = {}
    for seat in s["seats"]:
        d = decks[(decks["seat"] == seat) & (decks["vs_mix_level"] > 0)].sort_values(["vs_mix", "deck"],
                                                                                   ascending=[False, True])
        races = []
        for race, part in d.groupby("race", sort=True):
            best = part.iloc[0]
            races.append({"race": race, "armies": int((decks["seat"].eq(seat) & decks["race"].eq(race)).sum()),
                          "best": best["deck"], "vs_mix": float(best["vs_mix"]), "high": float(best["vs_mix_high"]),
                          "decision": best["decision"]})
        seats[seat] = {
            "decks": int(s["decks"][seat]),
            "metagame": s["metagame"][seat],
            "exploitability": s["exploitability"][seat],
            "exploitability_interval": s["exploitability_interval"][seat],
            "strongest": [{"deck": r.deck, "vs_mix": float(r.vs_mix), "low": float(r.vs_mix_low),
                           "high": float(r.vs_mix_high), "decision": r.decision, "games": int(r.games)}
                          for r in d.head(top).itertuples()],
            "decisions": {str(k): int(v) for k, v in decks[decks["seat"] == seat]["decision"].value_counts().items()},
            "races": races,
        }
    return {
        "guarantee": s["guarantee"], "guarantee_met": s["guarantee_met"], "epsilon": s["epsilon"],
        "bounds": s["bounds"], "value": s["value"], "value_low": s["value"] - 1.96 * se,
        "value_high": s["value"] + 1.96 * se, "seats": seats,
        "cards": [{"category": r.category, "card": r.card, "status": r.status, "searched_decks": int(r.searched_decks)}
                  for r in cards.itertuples()],
    }


def main(argv: list[str] | None = None) -> int:
    """Read the two benchmark files and the run's folder; write the page's JSON."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("before", help="scripts/explore_bench.py's JSON of the explore as it was")
    p.add_argument("after", help="scripts/explore_bench.py's JSON of the whole-space explore")
    p.add_argument("folder", help="the whole-space explore's folder")
    p.add_argument("--json", required=True)
    p.add_argument("--run-commit", help="the commit the whole-space run played at, when its benchmark file predates "
                   "recording it")
    a = p.parse_args(argv)
    before, after = (json.loads(Path(x).read_text(encoding="utf-8")) for x in (a.before, a.after))
    if a.run_commit:
        after.setdefault("run_commit", a.run_commit)
    command = "PYTHONPATH=$PWD python lab/magic_explore.py " + shlex.join(
        [a.before, a.after, a.folder, "--json", a.json] + (["--run-commit", a.run_commit] if a.run_commit else []))
    doc = {**provenance("lab/magic_explore.py", command), "before": _run(before), "after": _run(after),
           **answers(Path(a.folder))}
    Path(a.json).write_text(json.dumps(doc, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    print(doc["guarantee"])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
