"""``simkit ladder``: does the player matter? Bots of rising strength against each other, and the outcome split."""

from __future__ import annotations

import argparse
import shlex
import sys


def run(args: argparse.Namespace) -> int:
    """Check the inputs, play the ladder's matches, print each match's answer and the ladder's."""
    from simkit.commands.sweep import names_option
    from simkit.ladder import LadderSettings, run_ladder
    from simkit.scenario import load_scenario
    from simkit.sweep import check_workers

    sc = load_scenario(args.scenario, bots_from=args.bots_from)
    workers = check_workers(args.workers, "--workers")
    rungs = names_option("--rungs", args.rungs) or ()
    settings = LadderSettings(rungs=rungs, against=args.against or "", games=args.games,
                              seeds_per_deal=args.seeds_per_deal, seed=args.seed, round_robin=args.round_robin,
                              top_vs_bottom=not args.skip_top, cost_games=args.cost_games,
                              cores=args.cores).check(sc.game.bot_names())
    out = args.out or f"results/ladder-{sc.path.stem}"
    firsts, seconds = sc.game.seat_decks()
    matches = settings.matches()
    print(f"ladder {sc.name}: {' < '.join(settings.rungs)}" + (f", the top also against {settings.against}"
                                                              if settings.against else "")
          + f"; {len(matches)} match(es) of {settings.games} games ({settings.deals} random deals x 2 seat orders x "
          f"{settings.seeds_per_deal} seed(s)) from {len(firsts) * len(seconds):,} ordered deck pairs", flush=True)
    command = "simkit " + " ".join(shlex.quote(a) for a in (args.argv or sys.argv[1:]))
    doc = run_ladder(sc, out, settings, workers=workers, progress=not args.quiet, command=command)
    for m in doc["matches"]:
        line = f"  {m['answer']}"
        split = m.get("skill_or_luck")
        if split and split["total"] > 0:
            sh, ci = split["share"], split["share_ci"]
            line += ("; outcome: " + ", ".join(f"{w} {sh[k]:.1%} ({ci[k][0]:.1%}-{ci[k][1]:.1%})" for k, w in
                                              (("skill", "players"), ("decks", "decks"), ("luck", "seed"))))
        print(line)
    for bot, v in doc["round_robin"].items():
        print(f"  round robin: {bot} scores {v['score']:.3f} ({v['score_ci'][0]:.3f}-{v['score_ci'][1]:.3f}) over "
              f"{v['games']} games")
    for c in doc["costs"]:
        print(f"  cost: {c['rung']} {c['cpu_s_per_game']:.3f} CPU s a game, {c['cpu_ms_per_decision']:.3f} ms a "
              f"decision; a one-game-per-pair sweep of the pool ({c['sweep_pairs']:,} games) about "
              f"{c['sweep_minutes']:.1f} min on {c['sweep_cores']} cores")
    print(doc["answer"])
    print(f"results: {out}  (ladder.json, games.csv, ladder.pdf and its tables)")
    return 0


def register(sub) -> None:
    """Add the ``ladder`` command."""
    p = sub.add_parser(
        "ladder",
        help="does the player matter? bots of rising strength against each other, and what decides the outcome",
        description="Play a skill ladder: each rung (bot names, weakest first) against the rung below, the top "
        "against the bottom and against --against, each match over random deals (a first-seat deck against a "
        "second-seat deck) played in both seat orders on the same seeds. Each match says which bot plays better "
        "(its score with a 95% interval) and, with two seeds a deal or more, how much of the outcome the players "
        "decide, how much the deck pairing and seats, and how much the seed (dice, shuffles, the bots' own "
        "draws). Writes OUT/ladder.json (every figure, with the command, date and commit), OUT/games.csv and "
        "OUT/ladder.pdf; `simkit report OUT` draws the page again.",
    )
    p.add_argument("scenario", metavar="SCENARIO", help="scenario TOML file (its bots are the rungs)")
    p.add_argument("--rungs", required=True, metavar="A,B,...", help="bot names, weakest first")
    p.add_argument("--against", metavar="BOT", help="a bot the top rung also plays (the best utility personality)")
    p.add_argument("--games", type=int, default=100,
                   help="games per match, a multiple of 2 x --seeds-per-deal (default 100)")
    p.add_argument("--seeds-per-deal", type=int, default=2,
                   help="seeds each deal is played with; 2 or more splits the outcome (default 2)")
    p.add_argument("--seed", type=int, default=2026, help="the run's seed (default 2026)")
    p.add_argument("--round-robin", action="store_true",
                   help="every pair of --rungs plays instead, and each bot's mean score is given (which is weakest)")
    p.add_argument("--skip-top", action="store_true", help="do not play the top rung against the bottom one")
    p.add_argument("--cost-games", type=int, default=0, metavar="N",
                   help="N mirror games per rung for its CPU cost per game and per decision (default 0: none)")
    p.add_argument("--cores", type=int, default=2, help="cores of the cost figures' sweep estimate (default 2)")
    p.add_argument("--workers", type=int, default=0, help="worker processes (default 0: one per core)")
    p.add_argument("--bots-from", metavar="FILE", help="play the bots of FILE's [bots] table (a patch's own bots)")
    p.add_argument("--out", metavar="DIR", help="the folder to write (default results/ladder-<scenario name>)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=run, argv=None)
