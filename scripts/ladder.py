"""Measure a game's skill ladder: each rung against the one below, the top against the bottom (any game).

    python scripts/ladder.py --scenario scenarios/miracle/base.toml --rungs balanced,search-1,search-2 --games 400
    python scripts/ladder.py --scenario scenarios/duel/base.toml --rungs aggro,search-1 --against control
    python scripts/ladder.py --scenario scenarios/magic/base.toml --rungs aggro,balanced --cost-games 10
    python scripts/ladder.py --scenario scenarios/krypton/base.toml --rungs balanced,search-1 --seeds-per-deal 4

The game is reached only through its interface (``scenario.game``): its bots, its seat pools and
``play_batch``, so the script works for every game simkit has. A match between an ``upper`` and a
``lower`` bot deals ``games / (2 * seeds-per-deal)`` deck pairings, each a random first-seat deck against a
random second-seat deck (:meth:`simkit.games.Ruleset.seat_decks`: Magic War's 12-gold against 13-gold armies;
every other game draws both from its one pool), and plays every deal with each of ``--seeds-per-deal`` seeds
twice, once with the upper bot in the first seat and once in the second (the same decks in the same seats,
the same seed): half the games in each seat, and the seat advantage cancels. Matches: each rung against the
rung below, the top rung against the bottom one, and the top rung against ``--against`` (the game's best
utility personality).

Printed per match: the upper bot's wins, draws and losses; its win rate (draws counted as not won) and its
score (draws counted half), each with a 95% Wilson interval; how often the lower bot won; and a verdict
line per target, on the win rate: ``PASS`` when it reaches the target (>= 60% over the rung below, >= 75%
for the top rung over ``--against``), ``short`` when it does not, with whether the interval's lower end
clears the target too. With ``--seeds-per-deal`` of 2 or more each match also gets its skill-or-luck
decomposition (:func:`simkit.analysis.luck.skill_or_luck`). For a game with the ``lock_round`` capability
(Krypton: :mod:`simkit.games.krypton.stalemate`) each match also says how many of its games became a
certain draw before their end and when: the draws no player could have won from there. ``--round-robin``
plays every pair of ``--rungs`` instead (no targets) and prints each bot's mean score: which personality is
the weakest and which the best.

With ``--cost-games N`` every rung also plays N mirror games in this process, after two warm-up games (so
no compilation is counted): CPU seconds per game and per decision (an action played, both seats), and the
estimated wall time of a sweep at one game per ordered pair of the pool (first-seat x second-seat decks)
played by that rung on ``--cores`` cores (CPU per game x pairs / cores, without the sweep's own overhead).

Every game is played from its own seed (:func:`simkit.runner.game_seeds` of the match's seed, which derives
from ``--seed`` and the two bots' names), so no result depends on ``--workers`` or the chunking; wall
times depend on what else the machine runs (CPU seconds are printed beside them). ``--json OUT`` writes
every figure and every game's outcome.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import simkit  # noqa: E402
from simkit.analysis.luck import skill_or_luck  # noqa: E402
from simkit.analysis.stats import wilson_interval  # noqa: E402
from simkit.core.rng import derive_seed  # noqa: E402
from simkit.runner import game_seeds  # noqa: E402

CHUNK = 10  # games per task handed to a worker
RUNG_TARGET = 0.60  # a rung's win rate over the rung below
TOP_TARGET = 0.75  # the top rung's win rate over the best utility personality
_loaded: dict[str, simkit.Scenario] = {}


def wilson(points: float, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a rate ``points / n`` (:func:`simkit.analysis.stats.wilson_interval`)."""
    lo, hi = wilson_interval(points, n)
    return (float(lo), float(hi))


def scenario(path: str) -> simkit.Scenario:
    """The scenario at ``path``, loaded once per process."""
    if path not in _loaded:
        _loaded[path] = simkit.load_scenario(path)
    return _loaded[path]


def deal(sc: simkit.Scenario, deals: int, seeds_per_deal: int, seed: int) -> list[tuple[str, str, list[int]]]:
    """``deals`` random deck pairings (first-seat deck, second-seat deck, its seeds), from ``seed`` alone.

    The first deck is drawn uniformly from the decks the first seat may hold, the second from the second
    seat's (the game's :meth:`simkit.games.Ruleset.seat_decks`); deal ``d`` plays the seeds
    ``game_seeds(seed, deals * seeds_per_deal)[d * seeds_per_deal:(d + 1) * seeds_per_deal]``."""
    firsts, seconds = sc.game.seat_decks()
    rng = np.random.default_rng(derive_seed(seed, "decks") % (1 << 63))
    a = rng.integers(0, len(firsts), deals)
    b = rng.integers(0, len(seconds), deals)
    seeds = game_seeds(seed, deals * seeds_per_deal)
    return [(firsts[a[d]], seconds[b[d]], seeds[d * seeds_per_deal:(d + 1) * seeds_per_deal]) for d in range(deals)]


def _play(task: tuple) -> tuple[dict, float]:
    """Play one chunk in a worker: ``(scenario path, first decks, second decks, seeds, bots)`` -> columns, CPU s.

    For a game with the ``lock_round`` capability the columns hold each game's lock round too (-1: never
    locked), found by replaying its actions here (CPU counted)."""
    path, first, second, seeds, bots = task
    sc = scenario(path)
    lock_round = sc.game.capability("lock_round")
    cpu = time.process_time()
    df = simkit.play_games(sc, first, second, bots=bots, seeds=seeds, batch_size=len(seeds),
                           record_actions=lock_round is not None)
    cols = {k: df[k].tolist() for k in ("winner", "actions", "turns", "end_reason")}
    if lock_round is not None:
        locks = [lock_round(f, s, seed, acts) for f, s, seed, acts in zip(first, second, seeds, df["action_list"])]
        cols["lock_round"] = [-1 if r is None else int(r) for r in locks]
    return cols, time.process_time() - cpu


def match(pool, path: str, upper: str, lower: str, games: int, seeds_per_deal: int, seed: int) -> dict:
    """``upper`` against ``lower``: every deal of :func:`deal`, each seed played in both seat orders.

    Returns the match's figures (see :func:`summary`) and its games (``rows``: deal, seed, bots, winner)."""
    sc = scenario(path)
    per_deal = 2 * seeds_per_deal
    deals = deal(sc, max(1, games // per_deal), seeds_per_deal, derive_seed(seed, upper, lower))
    games_list = [(d, first, second, s, bots) for d, (first, second, ss) in enumerate(deals)
                  for s in ss for bots in ((upper, lower), (lower, upper))]
    tasks, where = [], []
    for bots in ((upper, lower), (lower, upper)):  # a chunk plays one bot order
        mine = [k for k, g in enumerate(games_list) if g[4] == bots]
        for i in range(0, len(mine), CHUNK):
            ks = mine[i:i + CHUNK]
            where.append(ks)
            tasks.append((path, [games_list[k][1] for k in ks], [games_list[k][2] for k in ks],
                          [games_list[k][3] for k in ks], bots))
    wall = time.perf_counter()
    parts = list(pool.map(_play, tasks))
    wall = time.perf_counter() - wall
    rows: list[dict] = [{} for _ in games_list]
    for ks, (cols, _) in zip(where, parts):
        for i, k in enumerate(ks):
            d, first, second, s, bots = games_list[k]
            rows[k] = {"deal": d, "first_deck": first, "second_deck": second, "seed": s, "first_bot": bots[0],
                       "second_bot": bots[1], **{c: v[i] for c, v in cols.items()}}
    out = summary(rows, upper, lower)
    out.update(wall_s=wall, cpu_s=sum(p[1] for p in parts), deals=len(deals), seeds_per_deal=seeds_per_deal)
    if seeds_per_deal >= 2:
        out["skill_or_luck"] = skill_or_luck(pd.DataFrame(rows), upper, lower, seed=seed)
    out["rows"] = rows
    return out


def summary(rows: list[dict], upper: str, lower: str) -> dict:
    """Wins, draws and losses of ``upper`` over ``rows``, its win rate and score with 95% Wilson intervals,
    how often ``lower`` won, and the same per seat of ``upper``."""

    def tally(part: list[dict]) -> dict:
        n = len(part)
        won = sum(r["winner"] == ("first" if r["first_bot"] == upper else "second") for r in part)
        drawn = sum(r["winner"] == "draw" for r in part)
        lost = n - won - drawn
        score = won + drawn / 2
        nan = math.nan
        return {"games": n, "won": won, "drawn": drawn, "lost": lost,
                "win_rate": won / n if n else nan, "win_ci": wilson(won, n),
                "score": score / n if n else nan, "score_ci": wilson(score, n),
                "lower_win_rate": lost / n if n else nan, "lower_win_ci": wilson(lost, n)}

    out = {"upper": upper, "lower": lower, **tally(rows)}
    out["upper_first"] = tally([r for r in rows if r["first_bot"] == upper])
    out["upper_second"] = tally([r for r in rows if r["second_bot"] == upper])
    if rows and "lock_round" in rows[0]:
        out["locks"] = locks(rows)
    return out


def locks(rows: list[dict]) -> dict:
    """How many of the games locked (a certain draw by the game's ``lock_round``), how many of the draws that
    explains, the lock rounds' quartiles and how many locked games were still won (a lock that is not one)."""
    locked = [r for r in rows if r["lock_round"] >= 0]
    draws = [r for r in rows if r["winner"] == "draw"]
    rounds = sorted(r["lock_round"] for r in locked)
    q = [float(np.percentile(rounds, p)) for p in (25, 50, 75)] if rounds else [math.nan] * 3
    return {"games": len(rows), "locked": len(locked), "locked_ci": wilson(len(locked), len(rows)),
            "draws": len(draws), "draws_locked": sum(r["lock_round"] >= 0 for r in draws),
            "locked_won": sum(r["winner"] != "draw" for r in locked), "round_quartiles": q}


def lock_line(k: dict, turn_words: str) -> str:
    """The match's locks in one sentence."""
    if not k["locked"]:
        return f"    locked: none of the {k['games']} games ({k['draws']} drawn) locked before its end"
    lo, hi = k["locked_ci"]
    q1, med, q3 = k["round_quartiles"]
    won = ("none of them was won (a lock is a draw)" if not k["locked_won"]
           else f"{k['locked_won']} of them were still won: the lock test is too loose")
    share = k["locked"] / k["games"]
    return (f"    locked: {k['locked']} of {k['games']} games ({share:.1%}, 95% CI {lo:.1%}-{hi:.1%}) became a "
            f"certain draw, {k['draws_locked']} of the {k['draws']} draws, in {turn_words} {med:.0f} "
            f"(median; quartiles {q1:.0f}-{q3:.0f}); {won}")


def verdict(m: dict, target: float) -> dict:
    """Whether ``upper``'s win rate (draws not won) reaches ``target``, and whether its interval's lower end does."""
    return {"upper": m["upper"], "lower": m["lower"], "target": target, "win_rate": m["win_rate"],
            "win_ci": m["win_ci"], "passed": bool(m["win_rate"] >= target), "ci_clears": bool(m["win_ci"][0] >= target)}


def verdict_line(v: dict) -> str:
    """``PASS`` or ``short``, the rate, the target and what the interval says."""
    word = "PASS " if v["passed"] else "short"
    cmp = ">=" if v["passed"] else "<"
    lo, hi = v["win_ci"]
    tail = "its lower end clears the target too" if v["ci_clears"] else "its lower end is below the target"
    return (f"{word} {v['upper']} over {v['lower']}: won {v['win_rate']:.1%} {cmp} {v['target']:.0%} "
            f"(95% CI {lo:.1%}-{hi:.1%}; {tail})")


def cost(path: str, rung: str, games: int, seed: int, cores: int) -> dict:
    """``games`` mirror games of ``rung`` over random deals, in this process after two warm-up games (so no
    compilation is counted): CPU seconds per game and per decision (action played, both seats), and the
    estimated wall time of a one-game-per-pair sweep of the pool by this rung on ``cores`` cores."""
    sc = scenario(path)
    firsts, seconds = sc.game.seat_decks()
    dealt = deal(sc, games + 2, 1, derive_seed(seed, "cost", rung))
    first, second, seeds = [d[0] for d in dealt], [d[1] for d in dealt], [d[2][0] for d in dealt]
    simkit.play_games(sc, first[:2], second[:2], bots=(rung, rung), seeds=seeds[:2], batch_size=2)
    wall, cpu = time.perf_counter(), time.process_time()
    df = simkit.play_games(sc, first[2:], second[2:], bots=(rung, rung), seeds=seeds[2:], batch_size=CHUNK)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    actions = int(df.actions.sum())
    pairs = len(firsts) * len(seconds)
    per_game = cpu / games
    return {"rung": rung, "games": games, "cpu_s_per_game": per_game, "cpu_ms_per_decision": 1000 * cpu / actions,
            "actions_per_game": actions / games, "wall_s": wall, "cpu_s": cpu, "sweep_pairs": pairs,
            "sweep_cores": cores, "sweep_minutes": pairs * per_game / cores / 60}


def duration(seconds: float) -> str:
    """``seconds`` in words: seconds under two minutes, minutes under two hours, else hours."""
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.1f} min"
    return f"{seconds / 3600:.1f} h"


def round_robin_scores(matches: list[dict]) -> dict[str, dict]:
    """Each bot's score over all its games of ``matches`` (draws half), with its 95% Wilson interval."""
    points: dict[str, list[float]] = {}
    for m in matches:
        n, up = m["games"], m["score"] * m["games"]
        for bot, got in ((m["upper"], up), (m["lower"], n - up)):
            acc = points.setdefault(bot, [0.0, 0])
            acc[0] += got
            acc[1] += n
    return {b: {"games": n, "score": pts / n, "score_ci": wilson(pts, n)} for b, (pts, n) in points.items()}


def luck_lines(s: dict) -> list[str]:
    """The skill-or-luck decomposition of one match in words."""
    if not s["total"] > 0:
        return [f"    skill or luck ({s['games']} games): every game gave the first seat the same score, "
                "no variance to split"]
    out = [f"    skill or luck ({s['deals']} deals x 2 seat orders x {s['seeds_per_deal']} seeds = {s['games']} games; "
           f"variance of the first seat's score {s['total']:.4f}):"]
    for key, words in (("skill", "the players (which bot sits where, with its deck dependence)"),
                       ("decks", "the deck pairing and seats"), ("luck", "the seed (dice, shuffles, bots' own draws)")):
        lo, hi = s["share_ci"][key]
        out.append(f"      {words}: {s['share'][key]:.1%} (95% CI {lo:.1%}-{hi:.1%})")
    return out


def plan(rungs: list[str], against: str | None, top_vs_bottom: bool = True,
         round_robin: bool = False) -> dict[tuple[str, str], list[float]]:
    """The matches to play, ``(upper, lower)``, each with its targets: every rung over the rung below (60%), the
    top over the bottom (no target of its own), the top over ``against`` (75%); a match is played once.
    ``round_robin``: every pair of ``rungs`` instead (the later one as upper), without targets."""
    out: dict[tuple[str, str], list[float]] = {}
    if round_robin:
        return {(b, a): [] for i, a in enumerate(rungs) for b in rungs[i + 1:]}
    for upper, lower in zip(rungs[1:], rungs[:-1]):
        out.setdefault((upper, lower), []).append(RUNG_TARGET)
    if len(rungs) > 2 and top_vs_bottom:
        out.setdefault((rungs[-1], rungs[0]), [])
    if against and against != rungs[-1]:
        out.setdefault((rungs[-1], against), []).append(TOP_TARGET)
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", default=str(ROOT / "scenarios" / "miracle" / "base.toml"))
    p.add_argument("--rungs", default="balanced,search-1,search-2", help="bot names, weakest first")
    p.add_argument("--against", help="the game's best utility personality: the top rung plays it too (target 75%%)")
    p.add_argument("--games", type=int, default=400, help="games per match (a multiple of 2 x --seeds-per-deal)")
    p.add_argument("--seeds-per-deal", type=int, default=1,
                   help="seeds each deal is played with (2 or more: each match's skill-or-luck decomposition)")
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--cost-games", type=int, default=0, help="mirror games per rung for the cost figures")
    p.add_argument("--cores", type=int, default=2, help="cores of the estimated sweep wall time")
    p.add_argument("--round-robin", action="store_true",
                   help="every pair of --rungs instead, and each bot's mean score (to find the weakest and best)")
    p.add_argument("--skip-top", action="store_true", help="do not play the top rung against the bottom one")
    p.add_argument("--json", dest="json_out", help="write every figure and every game's outcome here")
    args = p.parse_args(argv)
    rungs = [r.strip() for r in args.rungs.split(",") if r.strip()]
    sc = scenario(args.scenario)
    known = sc.game.bot_names()
    for r in rungs + ([args.against] if args.against else []):
        if r not in known:
            p.error(f"unknown bot {r!r} (the scenario knows: {', '.join(known)})")
    if len(rungs) < 2 and not args.against:
        p.error("--rungs: name at least two bots, weakest first (or one and --against)")
    if args.seeds_per_deal < 1 or args.games < 2 * args.seeds_per_deal or args.games % (2 * args.seeds_per_deal):
        p.error(f"--games must be a positive multiple of 2 x --seeds-per-deal ({2 * args.seeds_per_deal})")
    if args.round_robin and args.against:
        p.error("--round-robin plays every pair of --rungs: list the --against bot among them")
    targets = plan(rungs, args.against, not args.skip_top, args.round_robin)
    sweep_pairs = len(sc.game.seat_decks()[0]) * len(sc.game.seat_decks()[1])
    print(f"# {sc.game.title} ladder: {' < '.join(rungs)}" + (f"; top against {args.against}" if args.against else "")
          + f"\n{args.games} games per match ({args.games // (2 * args.seeds_per_deal)} random deals x 2 seat orders x "
          f"{args.seeds_per_deal} seed(s)), seed {args.seed}; the pool: {sweep_pairs} ordered deck pairs", flush=True)
    matches, verdicts = [], []
    with ProcessPoolExecutor(max(1, args.workers)) as pool:
        for (upper, lower), goals in targets.items():
            m = match(pool, args.scenario, upper, lower, args.games, args.seeds_per_deal, args.seed)
            matches.append(m)
            lo, hi = m["win_ci"]
            slo, shi = m["score_ci"]
            llo, lhi = m["lower_win_ci"]
            print(f"{upper:>10} vs {lower:<10} won {m['won']}, drew {m['drawn']}, lost {m['lost']} of {m['games']}: "
                  f"win rate {m['win_rate']:.1%} (95% CI {lo:.1%}-{hi:.1%}), score {m['score']:.3f} "
                  f"({slo:.3f}-{shi:.3f}); {lower} won {m['lower_win_rate']:.1%} ({llo:.1%}-{lhi:.1%}); "
                  f"{upper} won {m['upper_first']['win_rate']:.1%} first, {m['upper_second']['win_rate']:.1%} second; "
                  f"{m['wall_s']:.0f} s wall, {m['cpu_s']:.0f} CPU s", flush=True)
            if "locks" in m:
                print(lock_line(m["locks"], sc.game.schema.turn_words), flush=True)
            if "skill_or_luck" in m:
                print("\n".join(luck_lines(m["skill_or_luck"])), flush=True)
            verdicts += [verdict(m, goal) for goal in goals]
    for v in verdicts:
        print(verdict_line(v))
    standing = {}
    if args.round_robin:
        standing = round_robin_scores(matches)
        print("mean score over its matches (draws half): " + ", ".join(
            f"{b} {v['score']:.3f} ({v['score_ci'][0]:.3f}-{v['score_ci'][1]:.3f})"
            for b, v in sorted(standing.items(), key=lambda kv: -kv[1]["score"])))
    costs = []
    if args.cost_games:
        for rung in dict.fromkeys(rungs + ([args.against] if args.against else [])):
            c = cost(args.scenario, rung, args.cost_games, args.seed, args.cores)
            costs.append(c)
            print(f"{rung:>10}: {c['cpu_s_per_game']:8.3f} CPU s/game, {c['cpu_ms_per_decision']:8.3f} CPU ms/decision "
                  f"({c['actions_per_game']:.0f} actions/game, both seats; {c['games']} mirror games); one game per "
                  f"pair of the pool ({c['sweep_pairs']:,} games) on {c['sweep_cores']} cores "
                  f"~{duration(60 * c['sweep_minutes'])}", flush=True)
    if args.json_out:
        cmd = "python scripts/ladder.py " + " ".join(argv if argv is not None else sys.argv[1:])
        doc = {"command": cmd, "scenario": args.scenario, "game": sc.game.name, "rungs": rungs,
               "against": args.against, "games": args.games, "seeds_per_deal": args.seeds_per_deal, "seed": args.seed,
               "sweep_pairs": sweep_pairs,
               "matches": matches, "verdicts": verdicts, "round_robin": standing, "costs": costs}
        out = Path(args.json_out)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(doc, indent=1, default=float))
        print(f"written: {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
