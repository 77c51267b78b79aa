"""Where an explore run's games and time go, and its games per second of CPU against plain ``play_games``.

Usage (from a checkout):

    PYTHONPATH=. python scripts/explore_bench.py SCENARIO --out DIR [--plain N] [--json FILE] -- [explore options]

Runs ``simkit explore SCENARIO --out DIR [explore options]`` in this process (a finished folder is only read:
pass ``--resume`` among the explore options to finish an interrupted one), timing every round: the planner's
time (the double oracle reading the games and choosing the next round, in this process while the workers
wait), the time playing the round's chunks, and the CPU of this process and of its workers. Then it plays
``--plain`` games (default 2,000) of the run's own pairings, drawn in proportion to their games, with the same
bots and seeds through :func:`simkit.play_games` in this process, and prints one JSON document:

- ``games``, ``wall_s``, ``cpu_s`` (this process and its workers), ``games_per_cpu_s`` of the explore, and
  ``plain_games_per_cpu_s``, ``slowdown`` (plain over explore, the issue's figure: at most 1.5);
- ``planning_s``, ``playing_s``, ``planning_share`` (the share of the run's wall time the workers waited for the
  planner), ``rounds``;
- where the games went (from the folder's last state): ``population_games`` (pairings of two population decks),
  ``candidate_games`` by each candidate's decision (``drop``, ``race``, ``horizon``, ``add``) and the games of
  candidates dropped at each level; the pairings played and the pairings of the space;
- for a run stopped early, ``undecided`` decks and the ``projected_games`` they would still need against the
  last mixture (:func:`projection`; ``undecided_beating`` of them score above it and would join the population).

With ``--json FILE`` the document is also written to FILE (e.g. ``docs/findings/data/magic-explore-bench.json``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd


def _cpu() -> float:
    """CPU seconds of this process and of its finished children (the sweep's workers)."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def run_timed(argv: list[str]) -> dict:
    """Run ``simkit explore`` with ``argv`` here, timing the planner's calls; the run's figures."""
    from simkit.cli import main
    from simkit.explore import oracle

    planning = []
    call = oracle.Planner.__call__

    def timed(self, layout, df):
        started = time.perf_counter()
        try:
            return call(self, layout, df)
        finally:
            planning.append(time.perf_counter() - started)

    oracle.Planner.__call__ = timed
    wall, cpu = time.perf_counter(), _cpu()
    try:
        code = main(["explore", *argv])
    finally:
        oracle.Planner.__call__ = call
    if code:
        raise SystemExit(code)
    wall, cpu = time.perf_counter() - wall, _cpu() - cpu
    return {"wall_s": round(wall, 2), "cpu_s": round(cpu, 2), "planning_s": round(sum(planning), 2),
            "rounds": len(planning)}


def where_games_go(out: Path) -> dict:
    """The folder's games by what they decided: population pairings, and each candidate's games by its decision
    (read from ``decks.csv``, the last state's races)."""
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    decks = pd.read_csv(out / "decks.csv")
    matchups = pd.read_csv(out / "matchups.csv")
    pops = {seat: set(p) for seat, p in summary["population"].items()}
    first_pop = pops.get("first", pops.get("both", set()))
    second_pop = pops.get("second", pops.get("both", set()))
    both_pop = matchups["first_deck"].isin(first_pop) & matchups["second_deck"].isin(second_pop)
    cand = decks[decks["searched"].astype(bool) & ~decks["in_population"].astype(bool)]
    by_decision = cand.groupby("decision")["games"].sum().astype(int).to_dict()
    dropped = cand[cand["decision"] == "drop"]
    by_level = dropped.groupby("vs_mix_level")["games"].agg(["size", "sum"]).astype(int)
    return {
        **projection(summary, decks),
        "population_games": int(matchups.loc[both_pop, "games"].sum()),
        "candidate_games": {str(k): int(v) for k, v in by_decision.items()},
        "candidates": {str(k): int(v) for k, v in cand.groupby("decision").size().items()},
        "dropped_at_level": {str(int(k)): {"decks": int(r["size"]), "games": int(r["sum"])}
                             for k, r in by_level.iterrows()},
        "pairs_played": int(summary["pairs_played"]), "pairs": int(summary["pairs"]),
        "guarantee": summary["guarantee"], "exploitability_interval": summary["exploitability_interval"],
        "stopped": summary["stopped"],
    }


def projection(summary: dict, decks: pd.DataFrame) -> dict:
    """The games a run stopped early would still need against its last mixture, projected deck by deck: an undecided
    deck's bound shrinks as one over the root of its games, so it is decided at ``level * (w / m) ** 2`` games a
    mixture deck, ``w`` its bound's half-width now and ``m`` its distance below the reference plus epsilon (capped at
    the horizon). A deck scoring above that (``beating``) would join the population instead, and a deck yet to meet
    the mixture (``unmet``) is counted at the median projection: a projection, assuming the mixture holds."""
    horizon = int(summary["settings"]["horizon"])
    eps, out, beating, unmet = float(summary["epsilon"]), [], 0, 0
    refs = {"first": summary["value"], "second": 1 - summary["value"], "both": 0.5}
    mix = {seat: len(m) for seat, m in summary["metagame"].items()}
    faced = {"first": mix.get("second", 0), "second": mix.get("first", 0), "both": mix.get("both", 0)}
    open_ = decks[decks["decision"].isin(["race", "new", "horizon"])]
    for r in open_.itertuples():
        margin = refs[r.seat] + eps - r.vs_mix
        if r.vs_mix_level == 0:
            unmet += 1
            continue
        if margin <= 0:
            beating += 1
            continue
        half = max(r.vs_mix_high - r.vs_mix, r.vs_mix - r.vs_mix_low)
        level = min(horizon, int(np.ceil(r.vs_mix_level * (half / margin) ** 2)))
        out.append(max(0, level - int(r.vs_mix_level)) * faced[r.seat])
    median = float(np.median(out)) if out else 0.0
    return {"undecided": int(len(open_)), "undecided_beating": beating, "undecided_unmet": unmet,
            "projected_games": int(sum(out) + median * unmet)}


def plain_rate(out: Path, games: int) -> dict:
    """Games per CPU second of plain :func:`simkit.play_games` on ``games`` of the folder's own games (the same
    pairings, seeds and bots), after one untimed batch that loads the kernels."""
    import simkit
    from simkit.sweep import read_meta

    columns = ["first_deck", "second_deck", "seed", "winner", "first_bot", "second_bot"]
    df = pd.concat([pd.read_parquet(f, columns=columns) for f in sorted((out / "chunks").glob("*.parquet"))],
                   ignore_index=True)  # the few columns needed: a large run's whole rows would not fit in memory
    meta = read_meta(out)
    sample = df.sample(n=min(games, len(df)), random_state=0)
    sc = simkit.load_scenario(meta["scenario_path"])
    bots = (sample["first_bot"].iloc[0], sample["second_bot"].iloc[0])
    simkit.play_games(sc, list(sample["first_deck"][:64]), list(sample["second_deck"][:64]), bots,
                      [int(s) for s in sample["seed"][:64]])
    started = time.process_time()
    again = simkit.play_games(sc, list(sample["first_deck"]), list(sample["second_deck"]), bots,
                              [int(s) for s in sample["seed"]])
    cpu = time.process_time() - started
    same = bool((again["winner"].to_numpy() == sample["winner"].to_numpy()).all())
    return {"plain_games": len(sample), "plain_cpu_s": round(cpu, 2),
            "plain_games_per_cpu_s": round(len(sample) / cpu, 1), "plain_same_winners": same}


def main(argv: list[str] | None = None) -> dict:
    """Run (or read) the explore, time it, measure plain play, print (and write) the figures."""
    argv = sys.argv[1:] if argv is None else argv
    ours, _, explore = (argv[: argv.index("--")], None, argv[argv.index("--") + 1:]) if "--" in argv else \
        (argv, None, [])
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("scenario")
    p.add_argument("--out", required=True)
    p.add_argument("--plain", type=int, default=2000)
    p.add_argument("--json")
    a = p.parse_args(ours)
    out = Path(a.out)
    from simkit.core.provenance import source_commit

    commit, dirty = source_commit()
    figures: dict = {"command": " ".join(["simkit explore", a.scenario, "--out", a.out, *explore]),
                     "run_commit": commit, "run_dirty": dirty, "load_before": round(os.getloadavg()[0], 2)}
    if not (out / "summary.json").exists() or "--resume" in explore:
        figures.update(run_timed([a.scenario, "--out", a.out, *explore]))
    figures["games"] = int(json.loads((out / "summary.json").read_text(encoding="utf-8"))["games"])
    if "cpu_s" in figures:
        figures["playing_s"] = round(figures["wall_s"] - figures["planning_s"], 2)
        figures["planning_share"] = round(figures["planning_s"] / figures["wall_s"], 3)
        figures["games_per_cpu_s"] = round(figures["games"] / figures["cpu_s"], 1)
    figures["load_after"] = round(os.getloadavg()[0], 2)
    figures.update(where_games_go(out))
    figures.update(plain_rate(out, a.plain))
    if "games_per_cpu_s" in figures:
        figures["slowdown"] = round(figures["plain_games_per_cpu_s"] / figures["games_per_cpu_s"], 3)
    text = json.dumps(figures, indent=2, default=lambda x: x.item() if isinstance(x, np.generic) else str(x))
    print(text)
    if a.json:
        Path(a.json).write_text(text + "\n", encoding="utf-8")
    return figures


if __name__ == "__main__":
    main()
