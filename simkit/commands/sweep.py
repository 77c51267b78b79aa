"""``simkit sweep``: every ordered deck pair, N games each, into a parquet results folder."""

from __future__ import annotations

import argparse


def names_option(option: str, text: str | None) -> tuple[str, ...] | None:
    """The names of a comma list option (``--bots a,b``), or None when it was not given.

    Raises:
        ValueError: an empty list or an empty name in it (``--panel ,``, ``--bots aggro,``), which
            would otherwise quietly mean "no panel" or an unknown bot.
    """
    if text is None:
        return None
    names = tuple(n.strip() for n in text.split(","))
    if not any(names) or not all(names):
        raise ValueError(f"{option}: every name of the comma list must be given, got {text!r}")
    return names


def settings_of(args: argparse.Namespace):
    """The :class:`~simkit.sweep.SweepSettings` the sweep's flags give, checked.

    Raises:
        ValueError: a flag out of range, named (adaptive flags without ``--adaptive``, ``--games`` with it, ...).
    """
    from simkit.analysis.sequential import AdaptiveSettings
    from simkit.sweep import SweepSettings

    adaptive = None
    if args.adaptive:
        adaptive = AdaptiveSettings(precision=0.2 if args.precision is None else args.precision,
                                    max_games=args.max_games or 0,
                                    horizon=100 if args.horizon is None else args.horizon)
    elif args.precision is not None or args.max_games is not None or args.horizon is not None:
        raise ValueError("--precision, --max-games and --horizon need --adaptive")
    return SweepSettings(games=args.games, decks=tuple(args.decks or ()), bots=names_option("--bots", args.bots),
                         panel=names_option("--panel", args.panel) or (), chunk_size=args.chunk_size, seed=args.seed,
                         adaptive=adaptive).check()


def run(args: argparse.Namespace) -> int:
    """Plan and play the sweep; print where the results are.

    Every input is checked before anything is written: the scenario, the plan (games, chunk
    size, seed, deck patterns, bots) and the worker count.
    """
    from simkit.scenario import load_scenario
    from simkit.sweep import RunOptions, check_workers, plan_sweep, run_sweep, sweep_defaults, uneven_share

    sc = load_scenario(args.scenario, bots_from=args.bots_from)
    defaults = sweep_defaults(sc)
    workers = check_workers(args.workers if args.workers is not None else defaults["workers"],
                            "--workers" if args.workers is not None else f"{sc.path}: sweep.workers")
    settings = settings_of(args)
    out = args.out or defaults["out"]
    if args.bots_from is None and (args.resume or not args.overwrite):
        _refuse_missing_bots_from(out)
    plan = plan_sweep(sc, settings)
    _say_plan(sc, plan)
    if args.scheduler is None:
        note = uneven_share(plan, workers, _searching(sc, {b for pair in plan.bot_pairs for b in pair}))
        if note:
            print(note)
    args.resume_folder = out  # Ctrl-C, SIGTERM or a full disk from here on: the chunks written whole are kept
    from pathlib import Path

    from simkit.sweep.store import SweepFinished

    try:
        run_sweep(sc, plan, out, RunOptions(workers=workers, resume=args.resume, overwrite=args.overwrite,
                                            scheduler=args.scheduler))
    except SweepFinished:  # run again once finished (the quick start's second step): nothing to do, not an error
        print(f"{out} already holds this sweep, finished: nothing to play. Read it: simkit report {out} -o "
              f"reports/{Path(out).name}.pdf (--overwrite plays it again)")
        return 0
    print(f"results: {out}  (log: {out}/sweep.log)")
    _say_forfeits(sc, plan, out)
    return 0


def _say_plan(sc, plan) -> None:
    """What the sweep plays, in one line, and a note for decks of the pool that fit no seat."""
    from simkit.core.words import count

    who = (f"under each bot of the panel {', '.join(plan.panel)} (the same bot in both seats)" if plan.panel
           else f"bots {plan.bots[0]} (first) vs {plan.bots[1]} (second)")
    if sc.bots_from is not None:
        who += f", every bot as {sc.bots_from} defines it"
    decks, adaptive = plan.pools.count(), plan.adaptive
    if adaptive:
        print(f"adaptive sweep {sc.name}: {decks}, {len(plan.pairs)} ordered pairs, rounds until "
              f"every interval is narrower than {adaptive.precision:g} or its flag is settled"
              f"{f', at most {adaptive.max_games} games' if adaptive.max_games else ''}, {who}")
    else:
        print(f"sweep {sc.name}: {decks}, {len(plan.pairs)} ordered pairs x {plan.games} games "
              f"x {len(plan.bot_pairs)} bot pairing(s) = {plan.total_games} games, {who}")
    from simkit.outside.play import choosing_own_deck

    for s, bot in enumerate(plan.bots if not plan.panel else ()):
        if choosing_own_deck(sc, [bot]):
            deck = (plan.pools.first, plan.pools.second)[s][0]
            print(f"the {('first', 'second')[s]} seat plays {deck}, the deck bot {bot}'s program chose at its start "
                  "(its protocol's: it chooses its own); each game asks again and holds it to that deck")
    seated = set(sc.game.seat_decks().decks)
    seatless = [d for d in sc.decks if d not in seated]  # e.g. an army no seat can afford at these budgets
    if seatless:
        print(f"note: {count(len(seatless), 'deck')} of the pool fit no seat at these rules and are not played "
              f"(e.g. {seatless[0]})")


def _say_forfeits(sc, plan, out) -> None:
    """One line after a sweep with an outside bot: how many games it forfeited, whose and why (none: nothing)."""
    from simkit.outside.bots import outside_bots

    if not {b for pair in plan.bot_pairs for b in pair} & set(outside_bots(sc)):
        return
    from simkit.analysis.forfeits import forfeit_parts, forfeit_table
    from simkit.sweep import load_results

    table = forfeit_table(load_results(out))
    if not table.empty:
        print(f"forfeits: {int(table['games'].sum())} of {table.attrs['of_games']} games ({forfeit_parts(table)}); "
              "every table counts them apart (simkit report names them)")


def _searching(sc, names: set[str]) -> list[str]:
    """Which of ``names`` are search bots in ``sc``: a ``[bots.<name>]`` table with a ``policy`` (``like`` followed)."""
    from simkit.core.errors import ScenarioError
    from simkit.scenario import Field, is_search_bot

    bots = Field(str(sc.path), sc.data.get("bots") or {}, "bots")
    found = []
    for name in sorted(names):
        try:
            if is_search_bot(bots, name):
                found.append(name)
        except ScenarioError:
            continue  # the plan has already accepted the bot; a bad chain is the game's to report
    return found


def _refuse_missing_bots_from(out: str) -> None:
    """Refuse, in one line saying what to add, to play into a folder swept with another file's bots without them."""
    import json
    from pathlib import Path

    try:
        plan = json.loads((Path(out) / "meta.json").read_text(encoding="utf-8")).get("plan") or {}
    except (OSError, ValueError, AttributeError):
        return
    theirs = plan.get("bots_from") if isinstance(plan, dict) else None
    if isinstance(theirs, str) and theirs:
        raise ValueError(f"{out} holds a sweep played with the bots of {theirs}: add --bots-from {theirs} to "
                         "resume it, or choose another --out")


def register(sub) -> None:
    """Add the ``sweep`` command."""
    p = sub.add_parser(
        "sweep",
        help="play every ordered deck pair N times into a parquet results folder",
        description="Play every ordered pair of the scenario's decks (mirrors included, each deck first "
        "and second), N games per pair. Defaults come from the scenario's [sweep] table.",
    )
    p.add_argument("scenario", help="scenario TOML")
    p.add_argument("--games", type=int, help="games per ordered pair")
    p.add_argument("--out", help="results folder (default: [sweep] out, else results/<scenario>)")
    p.add_argument("--workers", type=int, help="worker processes, up to 4 per core (default: 0, one per core)")
    p.add_argument(
        "--decks", nargs="+", metavar="PATTERN", help="only decks matching these patterns, e.g. 'HolyLight:*'"
    )
    p.add_argument("--bots", help="two bots, first seat and second seat, e.g. balanced,rush")
    p.add_argument("--bots-from", metavar="FILE",
                   help="play with the bots another scenario file of the game defines, e.g. a patch's [bots.mine] "
                   "on its base: FILE's [bots] replace the scenario's of the same names (default --out: beside the "
                   "scenario's own, results/<out>-with-<FILE>-bots); resume, report and compare read it from the "
                   "folder")
    p.add_argument("--panel", metavar="BOT,BOT,...", help="a bot panel: every pairing played under each bot, the "
                   "same bot in both seats (default: [sweep] panel); the report then shows whether the player matters")
    p.add_argument("--chunk-size", type=int, help="games per chunk (one parquet file each)")
    p.add_argument("--seed", type=int, help="the sweep seed, 0 to 2**63 - 1 (default: [sweep] seed, else 0)")
    p.add_argument("--adaptive", action="store_true",
                   help="play in rounds, spending games only where an answer of the report can still change "
                   "(95%% confidence sequences; flags by a group-sequential test)")
    p.add_argument("--precision", type=float, metavar="W",
                   help="adaptive: stop a unit once its interval is narrower than W (a rate, default 0.2)")
    p.add_argument("--max-games", type=int, metavar="N",
                   help="adaptive: play at most N games in all (default: no limit)")
    p.add_argument("--horizon", type=int, metavar="G",
                   help="adaptive: at most G games per ordered pair, the flag test's last look (default 100)")
    p.add_argument("--resume", action="store_true", help="finish a sweep that was interrupted")
    p.add_argument("--overwrite", action="store_true",
                   help="delete the results an earlier sweep wrote in --out (meta.json, chunks, log) and play again")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT", help="play on an existing Dask cluster")
    p.set_defaults(func=run)
