"""Figures for Magic War (issue 31) on the AUTHORED roster, computed from ``play_batch``; none is the designer's.

* the utility bot against ``random``: share of games the utility bot wins, both seat orders (target >= 95%);
* utility mirrors (the same personality in both seats): share of games ended by a destroyed leader rather
  than the turn limit (target >= 80%), turns played;
* the first seat's win rate (draws half) under the scenario's budgets (12 / 13), overall and per race pair;
* whether the 13th gold is spent: per race, the second-seat army of the pool scoring best, and its cost;
* value per gold: ``--value-games`` games between random legal armies (a random race pair, the first army
  drawn from every legal 12-gold army of its race, the second from every 13-gold one); a linear regression
  of the first seat's score on the unit counts (first army's minus second's) gives each unit's marginal
  win rate per copy and per gold, with heteroskedasticity-robust (HC1) 95% intervals; the same games give
  the first seat's score by its army's size (swarm or elite) and the second seat's score when it spends
  all 13 gold against less.

Pairings: every first-seat army of the scenario's pool against every second-seat army (an army costing 13
sits only second), ``--games`` games each. Every game's seed is ``derive_seed(seed, tag, i)``; results never
depend on ``--workers``. Intervals are 95% Wilson intervals.

Usage::

    PYTHONPATH=$PWD python lab/magic_figures.py --games 2 --workers 2
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

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from simkit.analysis.stats import wilson_interval  # noqa: E402
from simkit.analysis.unit_value import unit_values  # noqa: E402
from simkit.core.rng import derive_seed  # noqa: E402
from simkit.games.magic.tables import armies, army_cost, deck_counts, parse_army  # noqa: E402
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


def random_armies(path: Path, games: int, seed: int) -> tuple[list[str], list[str], list[int]]:
    """``games`` random pairings of legal armies (uniform race pair, then uniform army of that budget)."""
    sc = load_scenario(path)
    r = sc.rules
    b0, b1 = r.budgets
    pools = {(race, b): armies(r, race, b) for race in r.races for b in (b0, b1)}
    firsts, seconds, seeds = [], [], []
    for g in range(games):
        rng = np.random.default_rng(derive_seed(seed, "value", g))
        x, y = r.races[rng.integers(len(r.races))], r.races[rng.integers(len(r.races))]
        firsts.append(pools[(x, b0)][rng.integers(len(pools[(x, b0)]))])
        seconds.append(pools[(y, b1)][rng.integers(len(pools[(y, b1)]))])
        seeds.append(derive_seed(seed, "value-game", g))
    return firsts, seconds, seeds


def value_per_gold(path: Path, games: int, bot: str, seed: int, workers: int) -> None:
    """Print each unit's marginal win rate per copy and per gold, swarm against elite, the 13th gold."""
    sc = load_scenario(path)
    r = sc.rules
    firsts, seconds, seeds = random_armies(path, games, seed)
    step = max(1, games // (4 * max(1, workers)))
    jobs = [(str(path), firsts[i:i + step], seconds[i:i + step], seeds[i:i + step], (bot, bot))
            for i in range(0, games, step)]
    if workers > 1:
        with ProcessPoolExecutor(workers) as ex:
            parts = list(ex.map(_play, jobs))
    else:
        parts = [_play(j) for j in jobs]
    winners = [w for p in parts for w in p["winner"]]
    y = np.array([1.0 if w == "first" else 0.5 if w == "draw" else 0.0 for w in winners])
    df = pd.DataFrame({"first_deck": firsts, "second_deck": seconds, "winner": winners})
    counts = {d: deck_counts(sc, d) for d in set(firsts) | set(seconds)}
    race_of = {u: race for race in r.races for u in r.race_units[race]}
    values = unit_values(df, counts, race_of)  # OLS on unit counts (first's minus second's), HC1 intervals
    sizes = [sum(n for n, _ in counts[d].values()) for d in firsts]
    spend = [sum(n * c for n, c in counts[d].values()) for d in seconds]
    pts = float(y.sum())
    b0, lo0, hi0 = values.attrs["intercept"]
    print(f"first seat's score, random legal armies (budgets {list(r.budgets)}): {wilson(pts, games)}")
    print(f"value per gold ({games} games between random legal armies, {bot} mirrors; OLS of the first seat's "
          "score on unit counts, HC1 95% intervals: simkit.analysis.unit_value):")
    print(f"  intercept (first seat, equal armies): {b0:+.3f} [{lo0:+.3f}, {hi0:+.3f}]")
    for v in values.itertuples():
        print(f"  {v.group:>9} {v.card:<15} cost {v.cost}: {100 * v.per_copy:+5.1f} points per copy "
              f"[{100 * v.low:+5.1f}, {100 * v.high:+5.1f}], {100 * v.per_cost:+5.1f} per gold "
              f"[{100 * v.per_cost_low:+5.1f}, {100 * v.per_cost_high:+5.1f}]")
    print("  first seat's score by its army's size (same games):")
    sizes = np.array(sizes)
    for lo, hi, word in ((1, 3, "elite (1-3 units)"), (4, 6, "middle (4-6)"), (7, 9, "swarm (7-9)")):
        sel = (sizes >= lo) & (sizes <= hi)
        if sel.any():
            print(f"    {word:<18} {wilson(float(y[sel].sum()), int(sel.sum()))}")
    spend = np.array(spend)
    top = max(r.budgets)
    for sel, word in ((spend == top, f"spends all {top}"), (spend < top, f"spends under {top}")):
        if sel.any():
            print(f"  second seat's score when its army {word:<16} {wilson(float((1 - y[sel]).sum()), int(sel.sum()))}")


def pool_figures(path: Path, sc, a) -> None:
    """The figures over the pool's pairings (bot targets, first-seat rates, best second-seat armies)."""
    won = n = 0
    for bots in ((a.bot, "random"), ("random", a.bot)):
        rows = play(path, a.games, bots, a.seed, a.workers)
        seat = "first" if bots[0] == a.bot else "second"
        won += sum(r["winner"] == seat for r in rows)
        n += len(rows)
    print(f"utility ({a.bot}) beats random, both seat orders:     {wilson(won, n)}")
    t = time.perf_counter()
    rows = play(path, a.games, (a.bot, a.bot), a.seed, a.workers)
    t = time.perf_counter() - t
    print(f"speed: {len(rows)} utility mirrors in {t:.1f} s wall on {a.workers} worker(s), "
          f"{len(rows) / t:.0f} games/s (scenario loading included)")
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2, help="games per ordered pairing of armies")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--bot", default="balanced", help="the utility personality")
    ap.add_argument("--scenario", default=str(BASE))
    ap.add_argument("--value-games", type=int, default=2000, help="games between random armies (0: skip)")
    a = ap.parse_args(argv)
    path = Path(a.scenario)
    sc = load_scenario(path)
    t0 = time.perf_counter()
    print(f"Magic War figures on {path.name} (AUTHORED roster, not the designer's numbers); budgets "
          f"{list(sc.rules.budgets)}, {a.games} games per pairing, seed {a.seed}")
    if a.games:
        pool_figures(path, sc, a)
    if a.value_games:
        value_per_gold(path, a.value_games, a.bot, a.seed, a.workers)
    print(f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
