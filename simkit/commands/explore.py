"""``simkit explore``: the metagame of the deck pool without playing every pairing (double oracle)."""

from __future__ import annotations

import argparse


def run(args: argparse.Namespace) -> int:
    """Check the inputs, run (or resume) the explore, print the metagame and the guarantee."""
    from simkit.commands.sweep import names_option
    from simkit.explore import ExploreSettings, run_explore
    from simkit.scenario import load_scenario
    from simkit.sweep import RunOptions, check_seed, check_workers, sweep_defaults

    sc = load_scenario(args.scenario, bots_from=args.bots_from)
    d = sweep_defaults(sc)
    workers = check_workers(args.workers if args.workers is not None else d["workers"], "--workers")
    base = ExploreSettings()
    settings = ExploreSettings(
        epsilon=base.epsilon if args.epsilon is None else args.epsilon,
        horizon=base.horizon if args.horizon is None else args.horizon,
        start=base.start if args.start is None else args.start,
        draw=args.draw or 0,
        top=base.top if args.top is None else args.top,
        contenders=max(base.contenders, 0 if args.top is None else 2 * args.top) if args.contenders is None
        else args.contenders,
        band=base.band if args.band is None else args.band,
        field_looks=_looks(args.field_looks) if args.field_looks else
        tuple(k for k in base.field_looks if k <= (args.horizon or base.horizon)),
        max_games=args.max_games or 0,
        chunk_size=base.chunk_size if args.chunk_size is None else args.chunk_size,
        seed=check_seed(args.seed, "--seed") if args.seed is not None else d["seed"],
        bots=names_option("--bots", args.bots) or tuple(d["bots"]),
        axes=tuple(args.axis or ()),
        start_decks=tuple(_population(args.start_from)[0]) if args.start_from else (),
        start_second=tuple(_population(args.start_from)[1]) if args.start_from else (),
        space=args.space or "pool",
        neighbours=args.neighbours or 0,
        cell_starts=args.cell_starts or 0,
        search=args.search or "grow",
        alpha=args.alpha or 0.0,
        population_games=args.population_games or 0,
        focus=args.focus or 0,
    ).check()
    out = args.out or f"results/explore-{sc.path.stem}"
    args.resume_folder = out  # a stop from here on keeps the rounds played
    what = "every legal deck" if settings.space == "all" else f"{len(sc.decks)} decks"
    print(f"explore {sc.name}: {what}, epsilon {settings.epsilon:g}, at most {settings.horizon} games "
          f"per ordered pair, bots {settings.bots[0]} (first) vs {settings.bots[1]} (second)")
    answers = run_explore(sc, out, settings, RunOptions(workers=workers, resume=args.resume, scheduler=args.scheduler))
    s = answers["summary"]
    text = s["guarantee"]
    print(text[:1].upper() + text[1:] + ".")  # the answer first, as strong as its interval allows
    _print_sides(s)
    untested = s.get("untested_cards") or []
    print(f"dead cards: {', '.join(s['dead_cards']) or 'none'}"
          + (f"; untested (no searched deck holds it): {', '.join(untested)}" if untested else ""))
    print(f"results: {out}  (metagame.csv, decks.csv, strongest.csv, archive.csv, dead_cards.csv, matchups.csv, "
          "summary.json, explore.pdf; simkit report " + str(out) + " -o NAME.pdf for the full report)")
    return 0


def _print_sides(s: dict) -> None:
    """Each side's metagame and exploitability (one side for alike seats, one per seat when each has its own pool),
    then why the run stopped."""
    seats = s["seats"]
    if seats == ["both"]:
        print(f"metagame ({s['games']:,} games, {s['pairs_played']:,} of {s['pairs']:,} ordered pairs played):")
    else:
        print(f"each seat its own metagame ({s['games']:,} games, {s['pairs_played']:,} of {s['pairs']:,} pairings "
              f"played; the first seat's expected score {s['value']:.3f}):")
    for seat in seats:
        lo, hi = s["exploitability_interval"][seat]
        if seat != "both":
            print(f"{seat} seat ({s['decks'][seat]:,} decks, {s['searched'][seat]:,} searched):")
        for deck, w in s["metagame"][seat].items():
            print(f"  {w:6.1%}  {deck}")
        who = "best response" if seat == "both" else "the other seat's best response"
        print(f"{'' if seat == 'both' else '  '}exploitability {s['exploitability'][seat]:+.3f} (interval {lo:+.3f} "
              f"to {hi:+.3f}), {who} {s['best_response'][seat]}")
    print(f"the run stopped: {s['stopped']}")
    if seats == ["both"]:
        print(f"strongest: {', '.join(s['strongest']['both'])}")


def _population(folder: str) -> tuple[list[str], list[str]]:
    import json
    from pathlib import Path

    from simkit.explore.game import by_side

    path = Path(folder) / "summary.json"
    try:
        pop = by_side(json.loads(path.read_text(encoding="utf-8")))["population"]
        if "both" in pop:  # alike seats: one population for both seats
            return list(pop["both"]), []
        return list(pop["first"]), list(pop["second"])  # each seat starts from its own population
    except (OSError, ValueError, KeyError) as exc:
        raise ValueError(f"--start-from: {path}: not a finished explore run ({exc})") from None


def _looks(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(k) for k in text.split(","))
    except ValueError:
        raise ValueError(f"--field-looks: write rising games per pair, e.g. 1,2,4; got {text!r}") from None


def register(sub) -> None:
    """Add the ``explore`` command."""
    p = sub.add_parser(
        "explore",
        help="find the metagame (Nash mixture), the strongest decks, an archive and dead cards without every pairing",
        description="Grow a population of decks by double oracle: the Nash mixture of the decks so far, then a "
        "race of one-card-swap candidates against it (sequential tests drop hopeless ones early), the best one "
        "added while it beats the mixture, until no searched deck beats it by more than --epsilon with "
        "confidence. Games use the sweep's seeds and bots, so they are a subset of the full sweep's games. When the "
        "game's seats have their own pools (Magic War), each seat gets its own mixture and exploitability.",
    )
    p.add_argument("scenario", help="scenario TOML")
    p.add_argument("--out", help="results folder (default: results/explore-<scenario>)")
    p.add_argument("--epsilon", type=float, help="the guarantee's margin over 1/2 (default 0.02)")
    p.add_argument("--horizon", type=int, help="most games per ordered pair (default 20)")
    p.add_argument("--start", type=int, help="decks of the first population (default 4)")
    p.add_argument("--draw", type=int, help="which draw of starting decks (default 0): another draw starts "
                   "elsewhere in the pool")
    p.add_argument("--start-from", metavar="DIR", help="start from the population of another explore run "
                   "(e.g. the base's, for a patch: then simkit.explore.compare.metagame_shift scores the move)")
    p.add_argument("--top", type=int, help="strongest decks to name, by rate against the field (default 10)")
    p.add_argument("--contenders", type=int, help="decks measured against the whole field (default 25)")
    p.add_argument("--field-looks", metavar="G,G,...",
                   help="games per ordered pair against the field at which the strongest-deck race looks "
                   "(default 1,2,3,4,6)")
    p.add_argument("--band", type=float, help="within this of 1/2 against the mixture a deck is in the band "
                   "(its cards are not dead; default 0.05)")
    p.add_argument("--axis", action="append", metavar="NAME=CATEGORY[:CARD,...]",
                   help="a style axis of the archive: which card of a category, or how many of the listed cards "
                   "(repeatable; default: every one-card category)")
    p.add_argument("--space", choices=("pool", "all"), help="the decks searched: the scenario's pool (default) "
                   "or every legal deck of its rules")
    p.add_argument("--neighbours", type=int, metavar="K", help="at most K neighbours of a deck join the search, "
                   "drawn by the seed (default: every one)")
    p.add_argument("--cell-starts", type=int, metavar="K", help="with seat pools: K decks of every style cell "
                   "of each seat's pool join the search at the start (default 0)")
    p.add_argument("--search", choices=("grow", "all"), help="the decks raced: the population's one-edit "
                   "neighbours, growing (default), or every deck of each seat's pool from the start (the guarantee "
                   "then covers the whole space)")
    p.add_argument("--alpha", type=float, metavar="A", help="make every bound hold at once, over all decks and "
                   "looks, with chance at least 1 - A (e.g. 0.05; default: deck by deck at z = 2)")
    p.add_argument("--population-games", type=int, metavar="G", help="games of each pairing of two population "
                   "decks (default: the horizon); the mixture's decks then play on against each other, up to the "
                   "horizon, only while their bounds need it")
    p.add_argument("--focus", type=int, metavar="K", help="while the metagame still changes, race only each seat's K "
                   "most promising undecided decks; every deck is raced against the final mixture before the run "
                   "settles (default: every deck each round)")
    p.add_argument("--max-games", type=int, metavar="N", help="stop after N games (the guarantee is then not met)")
    p.add_argument("--bots", help="two bots, first seat and second seat (default: [sweep] bots)")
    p.add_argument("--bots-from", metavar="FILE",
                   help="play with the bots another scenario file of the game defines (as sweep --bots-from): "
                   "FILE's [bots] replace the scenario's of the same names")
    p.add_argument("--seed", type=int, help="the sweep seed (default: [sweep] seed)")
    p.add_argument("--chunk-size", type=int, help="games per chunk file (default 64)")
    p.add_argument("--workers", type=int, help="worker processes, up to 4 per core (default: one per core)")
    p.add_argument("--resume", action="store_true", help="finish a run that was interrupted")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="play on an existing Dask cluster")
    p.set_defaults(func=run)
