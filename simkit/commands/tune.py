"""``simkit tune``: search the numbers a designer allows for a small patch that balances the game."""

from __future__ import annotations

import argparse
import os
import sys
import warnings

from simkit.commands._source import field_defaults
from simkit.commands.sweep import names_option

#: the objective's default weights, read from its source: ``--help`` imports no tune machinery
_DEFAULT_WEIGHTS = field_defaults("simkit.tune.objective", "TuneWeights")


def run(args: argparse.Namespace) -> int:
    """Run (or resume) the tune; print the proposal, the fresh-seed check and where the evidence is (a warning
    that the budget or the games per pair cannot support a proposal comes first, as one line, before the search)."""
    from simkit.tune.preflight import TuneWarning

    with warnings.catch_warnings():
        warnings.simplefilter("always", TuneWarning)
        shown = warnings.showwarning

        def one_line(message, category, *rest, **kw):
            if issubclass(category, TuneWarning):
                print(f"simkit tune: warning: {message}", file=sys.stderr, flush=True)
            else:
                shown(message, category, *rest, **kw)

        warnings.showwarning = one_line
        result = _tune(args)
    _say(result)
    return 0


def _tune(args: argparse.Namespace):
    from pathlib import Path

    from simkit.tune import run_tune
    from simkit.tune.study import storage_refusals

    args.resume_folder = args.out or f"results/tune-{Path(args.scenario).stem}"  # a stop keeps the trials done
    with storage_refusals(Path(args.resume_folder)):
        return _run(args, run_tune)


def settings_of(args: argparse.Namespace):
    """The :class:`~simkit.tune.settings.TuneSettings` the tune's flags give, checked."""
    from simkit.tune.settings import TuneSettings

    return TuneSettings(
        knobs=tuple(args.knob), trials=args.trials, max_changes=args.max_changes, decks=tuple(args.decks or ()),
        bots=tuple(args.bots or ()), panel=names_option("--panel", args.panel) or (), games=args.games,
        seed=args.seed, screen=args.screen, combine=args.combine, rounds=args.rounds, rescreen=args.rescreen,
        stages=args.stages, seat_pairs=args.seat_pairs, confirm=args.confirm, confirm_games=args.confirm_games,
        check_games=args.check_games, check_seed=args.check_seed, weights=args.weights, bots_from=args.bots_from,
    ).check()


def _run(args: argparse.Namespace, run_tune):
    from simkit.sweep import RunOptions

    return run_tune(args.scenario, settings_of(args), args.out, RunOptions(workers=args.workers, resume=args.resume))


def _say(result) -> None:
    """The answer first (the proposal and its check, or why there is none), then the evidence that exists."""
    s = result.summary
    search = s["search"]
    print(f"tune: {s['trials']} candidates ({s['asked']} trials) on {search['decks']} decks x "
          f"{search['games_per_pair']} games per pair "
          f"(seed {search['seed']}); {s['games']['total']:,} games ({s['games']['played_this_run']:,} played now in "
          f"{s['seconds']['search_this_run']:.0f} s + {s['seconds']['check_this_run']:.0f} s check)")
    if not s["changes"]:
        print(s["verdict"])
    else:
        print(s["verdict"])  # "proposed (...)" or "no safe proposal: ...", with the figure that decides
        pr, c = s["proposed"], s["confirm"]
        line = (f"figures (objective, lower is better), trial {pr['trial']}: search seeds "
                f"{search['base_objective']:.4f} -> {pr['search_objective']:.4f}")
        if pr.get("confirm_objective") is not None:
            line += (f"; confirmation seeds {c['base_confirm_objective']:.4f} -> {pr['confirm_objective']:.4f} "
                     f"(decides); pooled {c['base_pooled_objective']:.4f} -> {pr['pooled_objective']:.4f} (ranks)")
        print(line)
        for key, ch in s["changes"].items():
            print(f"  {key}: {ch['before']} -> {ch['after']}")
        print(f"check (sweep seed {s['check']['seed']}): {s['check']['sentence']}")
        for p in s["check"]["pairings"]:
            for m in p["flags_vanished"]:
                print(f"  vanished [{p['bots']}]: {m}")
            for m in p["flags_appeared"]:
                print(f"  APPEARED [{p['bots']}]: {m}")
        print(f"patch: {result.out / 'patch.toml'}" if result.patch else
              f"candidate (not proposed): {result.out / 'candidate.toml'}")
    from simkit.tune.study import STUDY

    names = [STUDY] + [os.path.relpath(f, result.out) for f in result.files]
    print(f"evidence: {result.out}/ ({', '.join(n for n in names if (result.out / n).exists())})")


def register(sub) -> None:
    """Add the ``tune`` command."""
    p = sub.add_parser(
        "tune",
        help="search allowed numbers for a small patch that balances the game, and check it",
        description="Search the scenario numbers named by --knob for a patch of at most --max-changes changes "
        "that brings deck win rates into the report's band (small spread, no matchup beyond 70/30, small "
        "first-player advantage). Each trial sweeps a candidate on the base's own seeds: first the base, then each "
        "knob alone at its range ends, then the best predicted combinations of those, then an Optuna TPE study "
        "(stored in OUT/study.db; --resume continues a killed tune). The best candidate is written as "
        "OUT/candidate.toml and compared with the base on fresh seeds (OUT/compare.pdf, flags.csv, summary.json); "
        "it is proposed, as OUT/patch.toml, only when it beats the base on the confirmation seeds and the check "
        "finds the spread narrower with no new flag, else the tune says 'no safe proposal' and why.",
    )
    p.add_argument("scenario", help="base scenario TOML (a patch of another is fine)")
    p.add_argument("--knob", action="append", required=True, metavar="KEY[=LO..HI]",
                   help="a scenario number to tune, '*' matching within one key: 'creatures.*.L*.cost', "
                   "'creatures.Priest.L3.cost=5..8', a list element 'creatures.Archer.units[0]' or "
                   "'creatures.*.L*.range[*]', a share of today's value 'KEY=-50%%..+50%%' (default range: a "
                   "quarter of today's value either side, at least 1); repeat for more")
    p.add_argument("--trials", type=int, default=30, help="budget: distinct candidates in the whole study, the "
                   "base included; a candidate proposed again is looked up, not replayed (default 30)")
    p.add_argument("--max-changes", type=int, default=3, help="at most this many numbers change (default 3)")
    p.add_argument("--decks", nargs="+", metavar="PATTERN", help="only decks matching these patterns")
    p.add_argument("--bots", nargs="+", metavar="FIRST,SECOND",
                   help="bot pairing(s), e.g. balanced,balanced; several form a panel and a candidate counts by "
                   "its worst pairing")
    p.add_argument("--panel", metavar="BOT,BOT,...",
                   help="a bot panel, as for sweep (default: [sweep] panel): each bot plays every pairing in both "
                   "seats and a candidate counts by its worst bot")
    p.add_argument("--bots-from", metavar="FILE",
                   help="play every candidate with the bots another scenario file of the game defines (as sweep "
                   "--bots-from): FILE's [bots] replace the scenario's of the same names")
    p.add_argument("--games", type=int, help="games per ordered pair in each trial's sweep")
    p.add_argument("--workers", type=int, help="worker processes per sweep (default: all cores)")
    p.add_argument("--out", help="output folder (default: results/tune-<scenario>)")
    p.add_argument("--resume", action="store_true", help="continue the tune stored in --out (same options)")
    p.add_argument("--seed", type=int, default=0, help="sampler seed (default 0): same seed, same study")
    p.add_argument("--no-screen", dest="screen", action="store_false",
                   help="skip the screening: by default, after the base, every knob is played alone at both ends "
                   "of its range, then --rounds rounds of the --combine combinations an additive model of those "
                   "predicts best, before the sampler proposes (all of it spends --trials)")
    p.add_argument("--combine", type=int, default=10,
                   help="predicted combinations each round of the screening plays (default 10)")
    p.add_argument("--rounds", type=int, default=2,
                   help="rounds of predicted combinations: the first from the base, each later one re-anchored "
                   "on the best candidate so far (default 2)")
    p.add_argument("--rescreen", type=int, default=0, metavar="N",
                   help="a second stage: anchor on the first stage's best candidate (less its least useful "
                   "change when it has --max-changes), play N knobs on top of it, alternately the best predicted "
                   "there and the biggest levers (each at both range ends), then --rounds rounds of combinations "
                   "on top of the anchor (default 0: off)")
    p.add_argument("--stages", type=int, default=1,
                   help="with --rescreen, how many anchored stages follow one another, each anchored on the best "
                   "candidate so far less its least useful change (the next least useful when that anchor was an "
                   "earlier stage's) (default 1)")
    p.add_argument("--seat-pairs", type=int, default=0, metavar="N",
                   help="after the screening, play together each two of the N single changes that moved the "
                   "first seat's edge most that moved it opposite ways (different knobs), and let the model add "
                   "what each such pair did beyond its two effects (default 0: off)")
    p.add_argument("--confirm", type=int, default=5,
                   help="replay the best this many candidates on other seeds and propose the best of search and "
                   "confirmation games together that raises no new flag there, not the luckiest on the search "
                   "seeds (default 5; 0: off)")
    p.add_argument("--confirm-games", type=int,
                   help="games per ordered pair of the confirmation (default: --games)")
    p.add_argument("--check-games", type=int, help="games per ordered pair of the fresh-seed check (default: --games)")
    p.add_argument("--check-seed", type=int, help="sweep seed of the check (default: search seed + 1000003)")
    p.add_argument("--weights", metavar="NAME=W,...",
                   help="objective weights: " + ", ".join(_DEFAULT_WEIGHTS) + " (default "
                   + ",".join(f"{k}={v:g}" for k, v in _DEFAULT_WEIGHTS.items()) + "; seat: each deck's first-seat "
                   "score beyond 45-55%%, summed; pushed: decks the patch pushes further outside the band than "
                   "the base has them)")
    p.set_defaults(func=run)
