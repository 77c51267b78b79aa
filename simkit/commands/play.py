"""``simkit play``: one game between two bots, told turn by turn; ``--json`` saves a replayable record."""

from __future__ import annotations

import argparse
from pathlib import Path

_NOT_RESULT = ("action_list", "first_deck", "second_deck", "seed", "first_bot", "second_bot")


def run(args: argparse.Namespace) -> int:
    """Play the game, print its log and result, and write the JSON record when asked."""
    from simkit.commands.sweep import names_option
    from simkit.core.files import atomic_write, cannot_write
    from simkit.core.records import write_game_record
    from simkit.core.rng import SEED_MAX
    from simkit.runner import play_games
    from simkit.scenario import default_bot, load_scenario

    if not 0 <= args.seed <= SEED_MAX:
        raise ValueError(f"--seed must be between 0 and {SEED_MAX} (2**63 - 1), got {args.seed}")
    sc = load_scenario(args.scenario, bots_from=args.bots_from)
    game = sc.game
    if args.render and Path(args.render).suffix.lower() not in game.picture_suffixes:
        kinds = ", ".join(game.picture_suffixes) or "none: use `simkit replay GAME.json -o game.txt` for a text log"
        raise ValueError(f"--render {args.render}: {game.title} draws {kinds}")
    for flag, out in (("--json", args.json), ("--render", args.render)):
        if out and not Path(out).resolve().parent.is_dir():
            raise ValueError(f"{flag} {out}: cannot write: the folder {Path(out).parent} does not exist (create it "
                             "first); nothing was played")
    bots = list(names_option("--bots", args.bots) or (default_bot(sc), "random"))
    for bot in bots:  # before anything is played
        if bot not in game.bot_names():
            raise ValueError(sc.unknown_bot(bot))
    from simkit.core.seats import SEATS
    from simkit.outside.play import own_decks

    decks = [args.first_deck, args.second_deck]
    for s, deck in own_decks(sc, bots).items():  # a program that chooses its own deck (the original SDK's protocol)
        print(f"the {SEATS[s]} player's deck is its program's own choice: {deck} (bot {bots[s]}; the deck given, "
              f"{decks[s]}, is not played)")
        decks[s] = deck
    row = play_games(sc, decks[0], decks[1], bots=bots, seeds=[args.seed], record_actions=True).iloc[0]
    actions = row["action_list"]
    pair = (row["first_bot"], row["second_bot"])
    print(f"{sc.name}: {row['first_deck']} (first, {pair[0]}) vs {row['second_deck']} (second, {pair[1]}),"
          f" seed {args.seed}")
    narrate = game.capability("narrate")
    log = None if narrate is None else narrate(row["first_deck"], row["second_deck"], actions, bots=pair,
                                               seed=args.seed)
    for line in log if log is not None else (repr(a) for a in actions):
        print(line)
    if row.get("end_reason") == "forfeit":  # an outside bot failed: the log stops where it did
        print(f"game over by forfeit: the {row['forfeit_seat']} player's bot forfeited ({row['forfeit_reason']}); "
              f"{row['winner']} wins")
    if args.json:
        result = {k: (v.item() if hasattr(v, "item") else v) for k, v in row.items() if k not in _NOT_RESULT}
        try:
            write_game_record(args.json, sc, (row["first_deck"], row["second_deck"]), args.seed, pair, actions, result)
        except OSError as exc:
            raise cannot_write(f"--json {args.json}", exc) from None
        print(f"actions written to {args.json}")
    if args.render:
        try:
            n = atomic_write(args.render, lambda tmp: game.capability("draw")(
                row["first_deck"], row["second_deck"], actions, tmp, seed=args.seed))
        except OSError as exc:
            raise cannot_write(f"--render {args.render}", exc) from None
        print(f"board drawn to {args.render} ({n} frame{'s' if n != 1 else ''})")
    return 0


def register(sub) -> None:
    """Add the ``play`` command."""
    p = sub.add_parser(
        "play",
        help="play one game between two bots and print it turn by turn",
        description="Play one game between two bots and print a turn-by-turn log and the result.",
    )
    p.add_argument("scenario", help="scenario TOML")
    p.add_argument("first_deck", help="the first player's deck, e.g. 'HolyLight:Archer,Priest,Swordsman' (a bot "
                                      "that chooses its own, such as the original SDK's, plays its own instead)")
    p.add_argument("second_deck", help="the second player's deck")
    p.add_argument("--bots", help="first,second bot names (default: the scenario's first personality against random)")
    p.add_argument("--bots-from", metavar="FILE",
                   help="play with the bots another scenario file of the game defines (as sweep --bots-from)")
    p.add_argument("--seed", type=int, default=0, help="the game's seed (default: 0)")
    p.add_argument("--json", metavar="FILE", help="write the game's actions (replayable) as JSON to FILE")
    p.add_argument("--render", metavar="FILE", help="draw the game (games that draw pictures): .gif (one frame per "
                   "turn), .html (turn slider) or .png (final board); more options with `simkit replay`")
    p.set_defaults(func=run)
