"""Figures for the note on Krypton Tower War (issue 18, points 4 and 6), computed from ``play_batch``.

* the utility bot (``balanced``) against ``random``: share of games won, both seat orders, every pairing;
* utility mirrors: share of games ending by a destroyed base, rounds played;
* first-side advantage: the first side's share of decisive games, with its 95% Wilson interval;
* each loadout's score (win 1, draw 1/2) over both seats, mirrors left out, with its interval;
* tower and card usage under the bots: share of side-games using each, and the score of side-games
  that used it against those that did not ("never worth its price" candidates: used, yet scoring below
  the games without it);
* the same mirror figures under the text's base tiers (``base-text-defence.toml``) beside the
  table's (``base-table-defence.toml``): the sensitivity to the contradictory base rules.

Every game's seed is ``derive_seed(seed, scenario name, i)``: results never depend on ``--workers``.

Usage::

    PYTHONPATH=$PWD python lab/krypton_figures.py --games 4 --workers 2 --out results/krypton-figures
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
from simkit.games.krypton.batch import SIDE_COLUMNS, TOWER_COLUMNS, card_column, play_batch  # noqa: E402
from simkit.games.krypton.tables import CARDS  # noqa: E402
from simkit.scenario import load_scenario  # noqa: E402

SCENARIOS = {"table": ROOT / "scenarios/krypton/base-table-defence.toml",
             "text": ROOT / "scenarios/krypton/base-text-defence.toml"}


def wilson(k: float, n: int) -> tuple[float, float]:
    """95% Wilson interval of a share ``k / n`` (:func:`simkit.analysis.stats.wilson_interval`)."""
    lo, hi = wilson_interval(k, n)
    return (float(lo), float(hi))


def _play(args):
    path, first, second, seeds, bots = args
    sc = load_scenario(path)
    return play_batch(sc, first, second, seeds, bots)


def play(path: Path, games: int, bots: tuple[str, str], seed: int, workers: int, swap: bool = False) -> list[dict]:
    """Every ordered pairing of the scenario's loadouts ``games`` times; one dict per game."""
    sc = load_scenario(path)
    decks = list(sc.decks)
    jobs = []
    tag = f"{path.stem}:{bots[0]}:{bots[1]}"
    for i, (a, b) in enumerate((a, b) for a in decks for b in decks):
        seeds = [derive_seed(seed, tag, i, g) for g in range(games)]
        jobs.append((str(path), [a] * games, [b] * games, seeds, bots))
    rows = []
    with ProcessPoolExecutor(max_workers=max(1, workers)) as pool:
        for cols in pool.map(_play, jobs):
            n = len(cols["seed"])
            rows.extend({k: v[j] for k, v in cols.items()} for j in range(n))
    return rows


def side_rows(rows: list[dict]) -> list[dict]:
    """One row per side of each game: its loadout, seat, score (1 win, 1/2 draw, 0 loss) and usage columns."""
    out = []
    for r in rows:
        for seat, other in (("first", "second"), ("second", "first")):
            score = 1.0 if r["winner"] == seat else 0.5 if r["winner"] == "draw" else 0.0
            row = {"deck": r[f"{seat}_deck"], "opponent": r[f"{other}_deck"], "seat": seat, "score": score}
            row.update({name: r[f"{seat}_{name}"] for name in SIDE_COLUMNS})
            out.append(row)
    return out


def mirror_figures(rows: list[dict]) -> dict:
    n = len(rows)
    base = sum(r["end_reason"] == "base" for r in rows)
    first = sum(r["winner"] == "first" for r in rows)
    second = sum(r["winner"] == "second" for r in rows)
    decisive = first + second
    sides = side_rows(rows)
    loadouts = {}
    for deck in sorted({s["deck"] for s in sides}):
        mine = [s for s in sides if s["deck"] == deck and s["opponent"] != deck]
        k = sum(s["score"] for s in mine)
        loadouts[deck] = {"games": len(mine), "score": k / len(mine), "ci": wilson(k, len(mine))}
    usage = {}
    things = [(kind, col) for kind, col in TOWER_COLUMNS.items()] + [(c, card_column(c)) for c in CARDS]
    things.append(("base upgrade", "upgrades"))
    things.append(("revival in place", "revivals_in_place"))
    for name, col in things:
        used = [s for s in sides if s[col] > 0]
        unused = [s for s in sides if s[col] == 0]
        usage[name] = {
            "share_used": len(used) / len(sides), "mean_uses": sum(s[col] for s in sides) / len(sides),
            "score_used": sum(s["score"] for s in used) / len(used) if used else math.nan,
            "score_unused": sum(s["score"] for s in unused) / len(unused) if unused else math.nan,
        }
    return {
        "games": n, "base_end_share": base / n, "base_end_ci": wilson(base, n),
        "mean_rounds": sum(r["turns"] for r in rows) / n,
        "draw_share": (n - decisive) / n,
        "first_share_of_decisive": first / decisive if decisive else math.nan,
        "first_ci": wilson(first, decisive),
        "loadouts": loadouts, "usage": usage,
    }


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=4, help="games per ordered loadout pairing (default 4)")
    ap.add_argument("--random-games", type=int, default=2, help="games per pairing and seat order against random")
    ap.add_argument("--league-games", type=int, default=1,
                    help="games per pairing for every ordered pair of different personalities (usage table)")
    ap.add_argument("--league", default="balanced,builder,hunter,rush", help="personalities of the usage league")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--out", default="results/krypton-figures")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    cmd = "PYTHONPATH=$PWD python lab/krypton_figures.py " + " ".join(argv if argv is not None else sys.argv[1:])
    print(f"# Krypton Tower War figures\n\ncommand: `{cmd}`\n")
    figures = {"command": cmd}
    t = time.time()
    vs = play(SCENARIOS["table"], args.random_games, ("balanced", "random"), args.seed, args.workers)
    sv = play(SCENARIOS["table"], args.random_games, ("random", "balanced"), args.seed, args.workers)
    won = sum(r["winner"] == "first" for r in vs) + sum(r["winner"] == "second" for r in sv)
    n = len(vs) + len(sv)
    lo, hi = wilson(won, n)
    figures["balanced_vs_random"] = {"games": n, "won": won, "share": won / n, "ci": (lo, hi)}
    print(f"## balanced against random (table tiers)\n\n{won}/{n} won = {won / n:.1%} (95% CI {lo:.1%}-{hi:.1%}); "
          f"{time.time() - t:.0f} s\n")
    for name, path in SCENARIOS.items():
        t = time.time()
        rows = play(path, args.games, ("balanced", "balanced"), args.seed, args.workers)
        f = mirror_figures(rows)
        figures[name] = f
        (out / f"mirror-{name}.json").write_text(json.dumps(rows))
        lo, hi = f["base_end_ci"]
        flo, fhi = f["first_ci"]
        print(f"## balanced mirror, base tiers = {name} ({f['games']} games, {time.time() - t:.0f} s)\n")
        print(f"- ended by a destroyed base: {f['base_end_share']:.1%} (95% CI {lo:.1%}-{hi:.1%}); draws at the "
              f"round cap {f['draw_share']:.1%}; mean rounds {f['mean_rounds']:.1f}")
        print(f"- first side's share of decisive games: {f['first_share_of_decisive']:.1%} "
              f"(95% CI {flo:.1%}-{fhi:.1%})\n")
        print("| loadout | side-games | score | 95% CI |\n|---|---|---|---|")
        for deck, d in sorted(f["loadouts"].items(), key=lambda kv: -kv[1]["score"]):
            print(f"| {deck} | {d['games']} | {d['score']:.3f} | {d['ci'][0]:.3f}-{d['ci'][1]:.3f} |")
        print("\n| tower / card | share of side-games using it | mean uses | score when used | score when not |")
        print("|---|---|---|---|---|")
        for thing, u in f["usage"].items():
            print(f"| {thing} | {u['share_used']:.1%} | {u['mean_uses']:.2f} | {u['score_used']:.3f} | "
                  f"{u['score_unused']:.3f} |")
        print()
    t = time.time()
    league = [b for b in args.league.split(",") if b]
    rows = []
    for a in league:
        for b in league:
            if a != b:
                rows += play(SCENARIOS["table"], args.league_games, (a, b), args.seed, args.workers)
    if rows:
        f = mirror_figures(rows)
        figures["league"] = {"bots": league, "usage": f["usage"], "games": f["games"]}
        print(f"## tower and card usage in a league of {', '.join(league)} (every ordered pair of different "
              f"personalities, table tiers, {f['games']} games, {time.time() - t:.0f} s)\n")
        print("| tower / card | share of side-games using it | mean uses | score when used | score when not |")
        print("|---|---|---|---|---|")
        for thing, u in f["usage"].items():
            print(f"| {thing} | {u['share_used']:.1%} | {u['mean_uses']:.2f} | {u['score_used']:.3f} | "
                  f"{u['score_unused']:.3f} |")
        print()
        bots = {}
        for r in rows:
            for seat in ("first", "second"):
                b = r[f"{seat}_bot"]
                sc = 1.0 if r["winner"] == seat else 0.5 if r["winner"] == "draw" else 0.0
                bots.setdefault(b, []).append(sc)
        print("| personality | side-games | score |\n|---|---|---|")
        for b, v in sorted(bots.items(), key=lambda kv: -sum(kv[1]) / len(kv[1])):
            print(f"| {b} | {len(v)} | {sum(v) / len(v):.3f} |")
        figures["league"]["scores"] = {b: sum(v) / len(v) for b, v in bots.items()}
        print()
    (out / "figures.json").write_text(json.dumps(figures, indent=1, default=float))
    print(f"written: {out / 'figures.json'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
