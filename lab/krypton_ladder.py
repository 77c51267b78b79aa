"""Krypton Tower War: a search bot against a utility bot over random loadouts, both seats (issue 18, point 2).

Game ``i`` draws two loadouts and a seed from ``derive_seed(seed, "krypton-ladder", i)`` and is played
twice, the search bot first then second (same loadouts, same seed): a paired design, so the first-side
advantage cancels. Printed: wins, draws and losses of the search bot, its win share and its score
(win 1, draw 1/2) with 95% Wilson intervals, per seat and overall; seconds per game (search games
against the same pairs played by the utility bot alone, for scale) and per decision of the search bot;
searched decisions per game. The bots may be any two (utility personalities too: ``--bot rush --against
balanced``); the search bot's figures are those of ``--bot``.

Every game depends only on its seed (never on ``--workers``).

Usage::

    PYTHONPATH=$PWD nice -n 5 python lab/krypton_ladder.py --bot search-1 --against balanced --games 40 --workers 2
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from simkit.analysis.stats import wilson_interval  # noqa: E402
from simkit.core.rng import derive_seed  # noqa: E402
from simkit.games.krypton.batch import make_bot, play_compiled  # noqa: E402
from simkit.scenario import load_scenario  # noqa: E402

_scenarios: dict = {}


def wilson(k: float, n: int) -> tuple[float, float]:
    """95% Wilson interval of a share ``k / n`` (:func:`simkit.analysis.stats.wilson_interval`)."""
    lo, hi = wilson_interval(k, n)
    return (float(lo), float(hi))


def play_game(job: tuple) -> dict:
    """One game ``(scenario path, first loadout, second loadout, seed, bots)``, played compiled: its result
    and costs (CPU seconds; each seat's decisions and searches)."""
    path, first, second, seed, bots = job
    if path not in _scenarios:
        _scenarios[path] = load_scenario(path)
    sc = _scenarios[path]
    t = time.process_time()
    players = [make_bot(sc, bots[s], s, seed)[0] for s in (0, 1)]
    stats: dict = {}
    g, _ = play_compiled(sc, sc.canonical_deck(first), sc.canonical_deck(second), seed, players, stats)
    out = {"first": first, "second": second, "seed": seed, "bots": list(bots), "winner": g.winner,
           "end_reason": g.end_reason, "rounds": g.round, "seconds": time.process_time() - t}
    out.update(seat_decisions=stats["decisions"], seat_searches=stats["searches"])
    return out


def jobs(path: str, bot: str, against: str, games: int, seed: int) -> list[tuple]:
    """Two jobs per game (the search bot first, then second) over random loadouts."""
    decks = list(load_scenario(path).decks)
    out = []
    for i in range(games):
        key = derive_seed(seed, "krypton-ladder", i)
        a, b = decks[derive_seed(key, "first") % len(decks)], decks[derive_seed(key, "second") % len(decks)]
        s = derive_seed(key, "seed") % (1 << 31)
        out.append((path, a, b, s, (bot, against)))
        out.append((path, a, b, s, (against, bot)))
    return out


def summary(rows: list[dict], bot: str) -> dict:
    """Wins, draws, losses, win share and score of ``bot`` with their Wilson intervals."""
    won = sum((r["winner"] == "first") == (r["bots"][0] == bot) and r["winner"] != "draw" for r in rows)
    drawn = sum(r["winner"] == "draw" for r in rows)
    n = len(rows)
    score = won + drawn / 2
    return {"games": n, "won": won, "drawn": drawn, "lost": n - won - drawn,
            "win_share": won / n if n else math.nan, "win_ci": wilson(won, n),
            "score": score / n if n else math.nan, "score_ci": wilson(score, n),
            "base_ends": sum(r["end_reason"] == "base" for r in rows)}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenario", default=str(ROOT / "scenarios/krypton/base.toml"))
    ap.add_argument("--bot", default="search-1", help="the search bot (default search-1)")
    ap.add_argument("--against", default="balanced", help="its opponent (default balanced)")
    ap.add_argument("--games", type=int, default=40, help="loadout pairs, each played in both seat orders")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--baseline", action="store_true", help="also time the same games with --against in both seats")
    ap.add_argument("--out", help="write every game and the figures as JSON here")
    args = ap.parse_args(argv)
    cmd = "PYTHONPATH=$PWD python lab/krypton_ladder.py " + " ".join(argv if argv is not None else sys.argv[1:])
    todo = jobs(args.scenario, args.bot, args.against, args.games, args.seed)
    wall = time.time()
    with ProcessPoolExecutor(max_workers=max(1, args.workers)) as pool:
        rows = list(pool.map(play_game, todo))
        base = []
        if args.baseline:
            mirror = [(p, a, b, s, (args.against, args.against)) for p, a, b, s, _ in todo[::2]]
            base = list(pool.map(play_game, mirror))
    wall = time.time() - wall
    print(f"# {args.bot} against {args.against}\n\ncommand: `{cmd}`\n")
    figures = {"command": cmd, "wall_seconds": wall}
    print("| seat of the search bot | games | won | drawn | lost | win share (95% CI) | score (95% CI) | "
          "ended by a base |\n|---|---|---|---|---|---|---|---|")
    for label, part in (("first", [r for r in rows if r["bots"][0] == args.bot]),
                        ("second", [r for r in rows if r["bots"][1] == args.bot]), ("both", rows)):
        f = summary(part, args.bot)
        figures[label] = f
        print(f"| {label} | {f['games']} | {f['won']} | {f['drawn']} | {f['lost']} | {f['win_share']:.1%} "
              f"({f['win_ci'][0]:.1%}-{f['win_ci'][1]:.1%}) | {f['score']:.3f} ({f['score_ci'][0]:.3f}-"
              f"{f['score_ci'][1]:.3f}) | {f['base_ends']} |")
    secs = sum(r["seconds"] for r in rows)
    seats = [r["bots"].index(args.bot) for r in rows]
    decisions = sum(r["seat_decisions"][s] for r, s in zip(rows, seats))
    searched = sum(r["seat_searches"][s] for r, s in zip(rows, seats))
    n = len(rows)
    cost = {"seconds_per_game": secs / n, "max_seconds_per_game": max(r["seconds"] for r in rows),
            "seconds_per_decision": secs / max(1, decisions), "seconds_per_searched_decision": secs / max(1, searched),
            "decisions_per_game": decisions / n, "searched_per_game": searched / n,
            "mean_rounds": sum(r["rounds"] for r in rows) / n}
    if base:
        cost["baseline_seconds_per_game"] = sum(r["seconds"] for r in base) / len(base)
    figures["cost"] = cost
    print(f"\nCPU seconds per game {cost['seconds_per_game']:.2f} (max {cost['max_seconds_per_game']:.2f}; "
          f"mean rounds {cost['mean_rounds']:.1f}); per decision of the search bot "
          f"{1000 * cost['seconds_per_decision']:.1f} ms, per searched decision "
          f"{1000 * cost['seconds_per_searched_decision']:.1f} ms; per game {cost['decisions_per_game']:.0f} "
          f"decisions of the search bot, {cost['searched_per_game']:.0f} searched"
          + (f"; {args.against} mirror on the same games {cost['baseline_seconds_per_game']:.2f} s" if base else "")
          + f". Wall {wall:.0f} s with {args.workers} worker(s).")
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps({"figures": figures, "games": rows}, indent=1, default=float))
        print(f"written: {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
