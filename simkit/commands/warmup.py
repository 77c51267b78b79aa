"""``simkit warmup``: compile every game's engine ahead, once for this install, so no later command waits."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

#: what each way of playing compiles: the sweep's batch kernels, or the step-by-step kernels of play/replay/report
WAYS = ("sweep", "play")


def scenario_of(game: str, given: str | None) -> Path:
    """The scenario to warm ``game`` with: ``given``, else ``scenarios/<game>/quick.toml`` of the working folder or
    of simkit's own checkout.

    Raises:
        FileNotFoundError: none found, naming where it looked.
    """
    if given:
        return Path(given)
    here = Path("scenarios") / game / "quick.toml"
    home = Path(__file__).resolve().parents[2] / "scenarios" / game / "quick.toml"
    for path in (here, home):
        if path.is_file():
            return path
    raise FileNotFoundError(f"no scenario to warm {game} with: looked for {here} and {home}; give --scenario FILE")


def warm(sc, ways: tuple[str, ...], bots: tuple[str, ...]) -> None:
    """Play one game of ``sc`` the way each of ``ways`` plays (its kernels compile or load), with ``bots`` too."""
    from simkit.runner import play_games
    from simkit.scenario import default_bot
    from simkit.sweep import sweep_defaults
    from simkit.sweep.execute import compile_side_by_side

    firsts, seconds = sc.game.seat_decks()
    parts = sc.game.capability("compile_parts")
    if "sweep" in ways:
        for pair in dict.fromkeys([tuple(sweep_defaults(sc)["bots"]), *((b, b) for b in bots)]):
            if parts is not None:
                compile_side_by_side(parts(pair))  # the engine's halves on two cores, as a sweep does
            play_games(sc, [firsts[0]], [seconds[0]], bots=pair, seeds=[0])
    if "play" in ways:
        pair = (default_bot(sc), "random")
        row = play_games(sc, firsts[0], seconds[0], bots=pair, seeds=[0], record_actions=True).iloc[0]
        narrate = sc.game.capability("narrate")
        if narrate is not None:
            narrate(row["first_deck"], row["second_deck"], row["action_list"], bots=pair, seed=0)


def run(args: argparse.Namespace) -> int:
    """Warm each game asked (every game by default), saying how long each took."""
    import os

    from simkit.commands._compile import announce_compiles, measured
    from simkit.commands.sweep import names_option
    from simkit.games import game_names, get_game
    from simkit.scenario import load_scenario

    if os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        raise ValueError("NUMBA_DISABLE_JIT is set: nothing is compiled, so there is nothing to warm")
    known = game_names()
    games = args.games or list(known)
    for g in games:
        if g not in known:
            raise ValueError(f"unknown game {g!r} (simkit knows: {', '.join(known)})")
    ways = names_option("--ways", args.ways) or WAYS
    for w in ways:
        if w not in WAYS:
            raise ValueError(f"--ways: {w!r} is not one of {', '.join(WAYS)}")
    bots = names_option("--bots", args.bots) or ()
    if args.scenario and len(games) != 1:
        raise ValueError("--scenario: name the one game it is a scenario of")
    scenarios = {g: scenario_of(g, args.scenario) for g in games}  # every scenario found before anything compiles
    from numba.core import event

    for g in games:
        sc = load_scenario(scenarios[g])
        for b in bots:
            if b not in sc.game.bot_names():
                raise ValueError(sc.unknown_bot(b))
        title = get_game(g).title
        figures = {k: v for w in ways for k, v in measured(g, w).items()}
        listener, progress = announce_compiles(f"{title}: compiling ({', '.join(ways)})", figures)
        wall, cpu = time.perf_counter(), time.process_time()
        try:
            warm(sc, ways, bots)
        finally:
            event.unregister("numba:compile", listener)
            progress.close()
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        did = (f"compiled {progress.count} kernels" if progress.count else "already compiled, loaded from the cache")
        print(f"{title}: {did} in {wall:.1f} s ({cpu:.1f} s of CPU)", flush=True)
    return 0


def register(sub) -> None:
    """Add the ``warmup`` command."""
    p = sub.add_parser(
        "warmup",
        help="compile the games' engines ahead, once for this install, so later commands start at once",
        description="Compile (or load from numba's cache) each game's kernels by playing one game of its quick "
        "scenario the way a sweep plays (batch kernels) and the way play, replay and report play (step by step, "
        "with the text log). Every later command, and every sweep worker, then loads them at once.",
    )
    p.add_argument("games", nargs="*", metavar="GAME", help="games to warm (default: every game)")
    p.add_argument("--ways", metavar="sweep,play", help="which kernels: sweep, play or both (default both)")
    p.add_argument("--bots", metavar="A,B", help="also warm these bots' kernels (search bots compile their own)")
    p.add_argument("--scenario", metavar="FILE", help="the scenario to warm one game with (default its quick.toml)")
    p.set_defaults(func=run)
