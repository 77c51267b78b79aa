"""Figures for Magic War (issue 31) on the AUTHORED roster, computed from ``play_batch``; none is the designer's.

* the utility bot against ``random``: share of games the utility bot wins, both seat orders (target >= 95%);
* utility mirrors (the same personality in both seats): share of games ended by a destroyed leader rather
  than the turn limit (target >= 80%), turns played;
* the first seat's win rate (draws half) under the scenario's budgets (12 / 13), overall and per race pair;
* whether the 13th gold is spent: per race, the second-seat army of the pool scoring best, and its cost.

Pairings: every first-seat army of the scenario's pool against every second-seat army (an army costing 13
sits only second), ``--games`` games each. Every game's seed is ``derive_seed(seed, tag, i)``; results never
depend on ``--workers``. Intervals are 95% Wilson intervals.

Usage::

    PYTHONPATH=$PWD python scripts/magic_figures.py --games 2 --workers 2
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simkit.analysis.stats import wilson_interval  # noqa: E402
from simkit.games.magic.tables import army_cost, parse_army  # noqa: E402
from simkit.rng import derive_seed  # noqa: E402
from simkit.scenario import load_scenario  # noqa: E402

BASE = ROOT / "scenarios/magic/base.toml"


def wilson(k: float, n: int) -> str:
    """``share [low, high]`` in percent."""
    lo, hi = wilson_interval(k, n)
    return f"{100 * k / n:5.1f}% [{100 * float(lo):.1f}, {100 * float(hi):.1f}] of {n}"


def _play(args):
    path, first, second, seeds, bots = args
    sc = load_scenario(path)
    return sc.game.play_batch(first, second, seeds, bots)


def play(path: Path, games: int, bots: tuple[str, str], seed: int, workers: int) -> list[dict]:
    """Every first-seat army against every second-seat army, ``games`` games each; one dict per game."""
    sc = load_scenario(path)
    firsts, seconds = sc.game.seat_decks()
    tag = f"{path.stem}:{bots[0]}:{bots[1]}"
    games_list = [(a, b, derive_seed(seed, tag, a, b, g)) for a in firsts for b in seconds for g in range(games)]
    step = max(1, len(games_list) // (4 * max(1, workers)))
    jobs = [(str(path), [x[0] for x in games_list[i:i + step]], [x[1] for x in games_list[i:i + step]],
             [x[2] for x in games_list[i:i + step]], bots) for i in range(0, len(games_list), step)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            parts = list(ex.map(_play, jobs))
    else:
        parts = [_play(j) for j in jobs]
    rows = []
    for cols in parts:
        for i in range(len(cols["seed"])):
            rows.append({k: v[i] for k, v in cols.items()})
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2, help="games per ordered pairing of armies")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--bot", default="balanced", help="the utility personality")
    ap.add_argument("--scenario", default=str(BASE))
    a = ap.parse_args(argv)
    path = Path(a.scenario)
    sc = load_scenario(path)
    t0 = time.perf_counter()
    print(f"Magic War figures on {path.name} (AUTHORED roster, not the designer's numbers); budgets "
          f"{list(sc.rules.budgets)}, {a.games} games per pairing, seed {a.seed}")
    won = n = 0
    for bots in ((a.bot, "random"), ("random", a.bot)):
        rows = play(path, a.games, bots, a.seed, a.workers)
        seat = "first" if bots[0] == a.bot else "second"
        won += sum(r["winner"] == seat for r in rows)
        n += len(rows)
    print(f"utility ({a.bot}) beats random, both seat orders:     {wilson(won, n)}")
    rows = play(path, a.games, (a.bot, a.bot), a.seed, a.workers)
    leader = sum(r["end_reason"] == "leader" for r in rows)
    print(f"utility mirrors ended by a destroyed leader:          {wilson(leader, len(rows))}; "
          f"mean {sum(r['turns'] for r in rows) / len(rows):.1f} turns")
    pts = sum(1.0 if r["winner"] == "first" else 0.5 if r["winner"] == "draw" else 0.0 for r in rows)
    print(f"first seat's win rate (draws half), budgets 12/13:    {wilson(pts, len(rows))}")
    by_pair: dict = defaultdict(lambda: [0.0, 0])
    by_second: dict = defaultdict(lambda: [0.0, 0])
    for r in rows:
        key = (r["first_deck"].split(":")[0], r["second_deck"].split(":")[0])
        p = 1.0 if r["winner"] == "first" else 0.5 if r["winner"] == "draw" else 0.0
        by_pair[key][0] += p
        by_pair[key][1] += 1
        by_second[r["second_deck"]][0] += 1 - p
        by_second[r["second_deck"]][1] += 1
    print("first seat's win rate per race pair (first vs second):")
    for (x, y), (p, m) in sorted(by_pair.items()):
        print(f"  {x:>9} vs {y:<9} {wilson(p, m)}")
    print("second seat: the pool's best army per race and its cost (is the 13th gold spent?):")
    best: dict = {}
    for deck, (p, m) in by_second.items():
        race = deck.split(":")[0]
        if race not in best or p / m > best[race][1]:
            best[race] = (deck, p / m, m, p)
    thirteen = 0
    for race, (deck, _, m, p) in sorted(best.items()):
        cost = army_cost(sc.rules, parse_army(sc.rules, deck)[1])
        thirteen += cost == max(sc.rules.budgets)
        print(f"  {race:>9}: {deck} costs {cost}, scores {wilson(p, m)} as second seat")
    print(f"  races whose best second-seat army costs {max(sc.rules.budgets)}: {thirteen} of {len(best)}")
    print(f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
