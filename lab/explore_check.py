"""Explore against the truth: an explore folder checked on the full sweep of every pairing (issue 33, item 4).

    simkit sweep scenarios/miracle/base.toml --games 20 --out /tmp/full20
    simkit explore scenarios/miracle/base.toml --out /tmp/explore-base \\
        --axis artifact=artifact --axis cheap=creature:Swordsman,Archer,BlackBat,Priest
    python lab/explore_check.py /tmp/full20 /tmp/explore-base

Prints both sides: the explored metagame's exploitability measured on the full sweep's matrix (the best
rate any deck of the pool gets against the explored mixture, minus 1/2; target at most 0.04), how many
of the full sweep's 10 strongest decks (rate against the field) explore names among its 10 strongest
(target at least 8), and the games each used (target: explore at most one fifth). For scale, it also
scores the Nash mixture of the full sweep's first 10 games per ordered pair on the 20-game matrix, and
checks game by game that every explored game is the full sweep's game with the same seed and winner.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.analysis.metagame import nash_mix
from simkit.analysis.results import first_score
from simkit.sweep import load_results


def rate_matrix(df: pd.DataFrame, decks: list[str]) -> pd.DataFrame:
    """Win rate of every deck against every other, both seats pooled (mirrors 1/2)."""
    d = len(decks)
    f = pd.Categorical(df["first_deck"], categories=decks).codes
    s = pd.Categorical(df["second_deck"], categories=decks).codes
    n, pts = np.zeros((d, d)), np.zeros((d, d))
    np.add.at(n, (f, s), 1)
    np.add.at(pts, (f, s), first_score(df))
    games, won = n + n.T, pts + (n.T - pts.T)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = np.where(games > 0, won / games, np.nan)
    np.fill_diagonal(r, 0.5)
    return pd.DataFrame(r, index=decks, columns=decks)


def exploitability(rates: pd.DataFrame, mix: dict[str, float]) -> tuple[float, str]:
    """The best rate any deck of ``rates`` gets against ``mix``, minus 1/2, and that deck."""
    w = pd.Series(0.0, index=rates.columns)
    for deck, x in mix.items():
        w[deck] = x
    score = rates.to_numpy() @ w.to_numpy()
    best = int(np.argmax(score))
    return float(score[best] - 0.5), str(rates.index[best])


def field_rates(rates: pd.DataFrame) -> pd.Series:
    """Every deck's rate against the field: the mean of its matchup rates over every other deck."""
    r = rates.to_numpy().copy()
    np.fill_diagonal(r, np.nan)
    return pd.Series(np.nanmean(r, axis=1), index=rates.index).sort_values(ascending=False, kind="stable")


def simulate(full: pd.DataFrame, scenario: str, out: Path, settings) -> None:
    """Write the explore folder's answers as the real planner plans them, each game read from the full sweep.

    For choosing settings only: no game is played, every planned game (A, B, g) is taken from ``full``
    (the same seed, so the same game, as the game-by-game check of a real run shows). Writes
    ``summary.json`` and the csv files into ``out`` (no chunks), with ``sim_games.parquet``.
    """
    from simkit.explore.oracle import Planner
    from simkit.explore.outputs import analyse
    from simkit.explore.run import plan_explore
    from simkit.explore.space import DeckSpace
    from simkit.scenario import load_scenario
    from simkit.sweep.adaptive import AdaptiveLayout

    sc = load_scenario(scenario)
    space = DeckSpace(sc, settings.axis_list())
    planner = Planner(space, settings)
    layout = AdaptiveLayout(plan_explore(sc, settings))
    code = {x: i for i, x in enumerate(space.decks)}
    fi, si = full["first_deck"].map(code).to_numpy(), full["second_deck"].map(code).to_numpy()
    g = full["game"].to_numpy()
    games = None
    while True:
        target, state, reason = planner(layout, games)
        if target is None:
            break
        layout.add_round(target, state)
        counts = layout.counts[0]
        games = full[g < counts[fi, si]].reset_index(drop=True)
    answers = analyse(space, settings, games, state, reason)
    out.mkdir(parents=True, exist_ok=True)
    for name in ("metagame", "decks", "strongest", "archive", "dead_cards", "matchups"):
        answers[name].to_csv(out / f"{name}.csv", index=False)
    (out / "summary.json").write_text(json.dumps(answers["summary"], indent=2, default=float))
    games.to_parquet(out / "sim_games.parquet")


def main(argv: list[str] | None = None) -> int:
    """Print the check; exit 0 when every target is met."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("full", help="the full sweep's folder (every ordered pair, 20 games)")
    ap.add_argument("explore", help="the explore folder")
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--simulate", metavar="SCENARIO", help="for choosing settings: write into EXPLORE what the "
                    "planner would do, every game read from the full sweep (no game played; see simulate())")
    ap.add_argument("--settings", default="{}", help="with --simulate: ExploreSettings fields as JSON")
    args = ap.parse_args(argv)
    full = load_results(args.full)
    if args.simulate:
        from simkit.explore import ExploreSettings

        simulate(full, args.simulate, Path(args.explore), ExploreSettings(**json.loads(args.settings)).check())
    if not full.attrs["meta"].get("complete"):
        print(f"note: {args.full} is not complete ({full.attrs['meta'].get('missing_chunks')} chunks missing)")
    decks = list(full.attrs["meta"]["decks"])
    truth = rate_matrix(full, decks)
    from simkit.explore.game import by_side

    summary = by_side(json.loads((Path(args.explore) / "summary.json").read_text()))
    summary = {**summary, **{k: summary[k]["both"] for k in ("metagame", "exploitability", "exploitability_interval",
                                                             "strongest")}}  # the one side of alike seats
    explored = (pd.read_parquet(Path(args.explore) / "sim_games.parquet") if args.simulate
                else load_results(args.explore))

    print(f"full sweep: {len(full):,} games ({len(decks)} decks, every ordered pair)")
    print(f"explore:    {len(explored):,} games ({summary['pairs_played']:,} of {len(decks) ** 2:,} ordered pairs), "
          f"{len(explored) / len(full):.1%} of the full sweep's; stopped: {summary['stopped']}, guarantee "
          f"{'met' if summary['guarantee_met'] else 'NOT met'}")

    key = ["first_deck", "second_deck", "game"]
    both = explored[[*key, "seed", "winner"]].merge(full[[*key, "seed", "winner"]], on=key, how="left",
                                                    suffixes=("", "_full"))
    same = int(((both["seed"] == both["seed_full"]) & (both["winner"] == both["winner_full"])).sum())
    print(f"game by game: {same:,} of {len(explored):,} explored games are the full sweep's game (same seed, winner)")

    mix = summary["metagame"]
    e, best = exploitability(truth, mix)
    lo, hi = summary["exploitability_interval"]
    print("\nmetagame (explore's mixture):")
    for deck, x in mix.items():
        print(f"  {x:6.1%}  {deck}")
    print(f"exploitability measured on the full matrix: {e:+.4f} (best response {best})  target <= 0.04")
    print(f"  explore's own estimate: {summary['exploitability']:+.4f} [{lo:+.4f}, {hi:+.4f}] over the decks "
          "it searched")
    nash_full = nash_mix(truth)
    e_full, _ = exploitability(truth, nash_full[nash_full > 1e-6].to_dict())
    half = full[full["game"] < 10]
    nash_half = nash_mix(rate_matrix(half, decks))
    e_half, _ = exploitability(truth, nash_half[nash_half > 1e-6].to_dict())
    print(f"  for scale: the Nash mixture of the full sweep's first 10 games per pair ({len(half):,} games) scores "
          f"{e_half:+.4f}; the 20-game matrix's own Nash {e_full:+.4f} (support {int((nash_full > 1e-6).sum())} decks)")

    strong = field_rates(truth)
    top_true = list(strong.index[: args.top])
    top_explore = summary["strongest"][: args.top]
    found = [d for d in top_true if d in top_explore]
    print(f"\nthe full sweep's {args.top} strongest decks (rate against the field) and whether explore names them "
          f"among its {args.top} strongest:")
    for rank, deck in enumerate(top_true, 1):
        print(f"  {rank:2d}. {strong[deck]:.3f}  {'found ' if deck in top_explore else 'missed'}  {deck}")
    extra = [d for d in top_explore if d not in top_true]
    if extra:
        print("  explore's others: " + ", ".join(f"{d} (true rank {list(strong.index).index(d) + 1})" for d in extra))
    print(f"found {len(found)} of {args.top}  target >= 8")

    ok = e <= 0.04 and len(found) >= 8 and len(explored) <= len(full) / 5 and same == len(explored)
    print(f"\n{'PASS' if ok else 'FAIL'}: exploitability {e:+.4f} (<= 0.04), strongest found {len(found)}/{args.top} "
          f"(>= 8), games {len(explored):,} <= {len(full) // 5:,} (one fifth), every game the full sweep's: "
          f"{same == len(explored)}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
