"""The ``simkit`` command: a thin group of sub-commands, each in ``simkit/commands/<name>.py``.

A command module defines ``register(subparsers)`` (a command named with a dash, ``import-games``, lives in
``import_games.py``) which adds its parser and sets
``func(args) -> int``. Only the command named on the line is imported: ``simkit --help`` reads every
command's one-line help from its module's source, so help and argument errors cost no engine, pandas or
matplotlib import. A misspelt flag prints the command's own usage with the nearest flags. Bad input (a
``ValueError`` such as ScenarioError or IllegalAction, or a missing file) ends with one line on stderr
and exit status 2, and so does a write the system refuses (a full or read-only disk); Ctrl-C and SIGTERM stop
a command in one line too, which for sweep, scan, explore and tune names the command that finishes the run
(:mod:`simkit.commands._stop`). A results folder's warnings (a stray file ignored, a chunk played again) print as
one line each. When a command that plays games starts compiling the game's engine (numba's on-disk cache
misses: the first run after installing, or changed sources), one line says so, then a progress line gives the share
done and the time left from measured figures (:mod:`simkit.commands._compile`).
"""

from __future__ import annotations

import argparse
import ast
import difflib
import json
import os
import pkgutil
import sys
import tomllib
from importlib import import_module
from pathlib import Path

import simkit.commands

#: the way of playing of each command (its kernels, and the measured compile figures it reads:
#: simkit/commands/compile_times.json); commands not named here play no compiled game
PLAYS = {"sweep": "sweep", "tune": "sweep", "explore": "sweep", "scan": "sweep", "ladder": "sweep", "play": "play",
         "demo": "play", "replay": "play", "check": "check",
         "report": "play", "import-games": "play"}  # a report replays games for its game pages and its HTML page; an
#: import replays a game's own replay files


#: the commands that may play an outside bot (a program: docs/outside-bots.md), and so take its flags
OUTSIDE_BOT_COMMANDS = ("play", "sweep", "ladder", "tune")


def add_outside_bot_flags(parser: argparse.ArgumentParser) -> None:
    """The flags that let a command start outside bots' programs (nothing runs without them)."""
    g = parser.add_argument_group("outside bots (programs speaking docs/outside-bots.md; none runs unless named here)")
    g.add_argument("--allow-bot", action="append", default=[], metavar="NAME",
                   help="let simkit start the program of the scenario's outside bot NAME ([bots.NAME] command = ...)")
    g.add_argument("--bot", action="append", default=[], metavar="NAME=COMMAND", dest="outside_bot",
                   help="play the program COMMAND as the bot NAME (e.g. --bot mine='python3 mine.py'; allowed by "
                        "being given)")
    g.add_argument("--bot-protocol", action="append", default=[], metavar="NAME=PROTOCOL",
                   help="the outside bot NAME speaks PROTOCOL instead of simkit's JSON lines (Battle of Miracles: "
                        "sdk, the original competition server's, or sdk-lenient, which refuses an illegal operation "
                        "and asks again as that server did; docs/outside-bots.md)")
    g.add_argument("--bot-time", type=float, metavar="SECONDS",
                   help="the longest one answer of an outside bot may take (default: its table's, else 5)")
    g.add_argument("--bot-game-time", type=float, metavar="SECONDS",
                   help="the most an outside bot may think in one game (default: its table's, else 300)")


def command_help() -> dict[str, str]:
    """Every command's name and one-line help, read from its module's source (no command module imported)."""
    here = Path(simkit.commands.__file__).parent
    out = {}
    for info in pkgutil.iter_modules(simkit.commands.__path__):
        if info.name.startswith("_"):
            continue
        tree = ast.parse((here / f"{info.name}.py").read_text(encoding="utf-8"))
        name, text = info.name, (ast.get_docstring(tree) or "").split("\n")[0]
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "add_parser" and node.args:
                if isinstance(node.args[0], ast.Constant):
                    name = node.args[0].value
                for kw in node.keywords:
                    if kw.arg == "help" and isinstance(kw.value, ast.Constant):
                        text = kw.value.value
                break
        out[name] = text
    return dict(sorted(out.items()))


def build_parser(only: str | None = "*") -> argparse.ArgumentParser:
    """The argument parser: the command ``only`` in full (``"*"``: every command), the others by name and help.

    Args:
        only: the command to import and register in full; ``None`` registers none (the top-level help).
    """
    parser = argparse.ArgumentParser(prog="simkit", description="Balance simulation for game designers.")
    parser.add_argument("--version", action="version", version=f"simkit {simkit.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name, text in command_help().items():
        if only == "*" or name == only:
            import_module(f"simkit.commands.{name.replace('-', '_')}").register(sub)  # import-games: import_games.py
            if name in OUTSIDE_BOT_COMMANDS:
                add_outside_bot_flags(sub.choices[name])
        else:
            sub.add_parser(name, help=text, add_help=False)
    return parser


def _command(argv: list[str]) -> str | None:
    """The command named on the line: its first word not an option (the top level's options take no value)."""
    return next((a for a in argv if not a.startswith("-")), None) if argv else None


def _unknown(sub: argparse.ArgumentParser, extra: list[str]) -> str:
    """The error for arguments a command does not know, with the nearest flags it has."""
    flags = [s for a in sub._actions for s in a.option_strings if s.startswith("--")]
    hints = []
    for word in extra:
        if word.startswith("--"):
            near = difflib.get_close_matches(word.split("=")[0], flags, n=2, cutoff=0.6)
            if near:
                hints.append(f"{word}: did you mean {' or '.join(near)}?")
    return f"unrecognized arguments: {' '.join(extra)}" + (f" ({'; '.join(hints)})" if hints else "")


def _game_of(path: str) -> str | None:
    """The ``game`` of a scenario file, following ``extends`` (``None`` when it cannot be read: the command
    then reports why)."""
    p, seen = Path(path), set()
    while p not in seen:
        seen.add(p)
        try:
            data = tomllib.loads(p.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        if isinstance(data.get("game"), str):
            return data["game"]
        if not isinstance(data.get("extends"), str):
            return None
        p = p.parent / data["extends"]
    return None


def _game_and_path(args: argparse.Namespace) -> tuple[str, str, str] | None:
    """``(game name, title, way of playing)`` of the game ``args``'s command plays, or ``None`` (it plays no
    compiled game, the JIT is off with ``NUMBA_DISABLE_JIT=1``, or the game cannot be told from its arguments)."""
    path = PLAYS.get(args.command)
    scenario = getattr(args, "scenario", None)
    results = getattr(args, "results", None) or getattr(args, "actions_json", None)
    if path is None or os.environ.get("NUMBA_DISABLE_JIT", "0") not in ("", "0"):
        return None
    game = None
    if isinstance(scenario, str):
        game = _game_of(scenario)
    elif isinstance(results, str):  # a results folder names its game in meta.json, a game record in its own JSON
        where = Path(results) / "meta.json" if Path(results).is_dir() else Path(results)
        try:
            data = json.loads(where.read_text(encoding="utf-8"))
            game = data.get("game") or (_game_of(data["scenario"]) if isinstance(data.get("scenario"), str) else None)
        except (OSError, ValueError, AttributeError):
            game = None
        game = game if isinstance(game, str) else None
    if game is None or not game.isidentifier():
        return None
    try:
        from simkit.games import get_game

        return game, get_game(game).title, path
    except (LookupError, ImportError):
        return None


def compile_notice(args: argparse.Namespace) -> str | None:
    """The line to print when ``args``'s command starts compiling its game's engine (``None``: the command plays
    no compiled game, or the JIT is off, ``NUMBA_DISABLE_JIT=1``). It states the measured compile CPU of that game
    and command when ``scripts/compile_times.py`` measured it, never a guess."""
    found = _game_and_path(args)
    if found is None:
        return None
    game, title, path = found
    from simkit.commands._compile import measured

    cpu = sum(measured(game, path).values())
    took = f"measured at {cpu:.0f} s of CPU" if cpu else "a one-time wait"
    return (f"simkit {args.command}: compiling the {title} engine once for this install ({took}; `simkit warmup` "
            "compiles every game ahead); later runs start at once")


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    names = command_help()
    command = _command(argv)
    parser = build_parser(command if command in names else None)
    args, extra = parser.parse_known_args(argv)
    if extra:
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[args.command]
        sub.error(_unknown(sub, extra))
    args.argv = argv  # the line as typed, for commands that record it beside their figures (simkit ladder)
    import warnings

    from simkit.sweep import ResultsFolderWarning

    show = warnings.showwarning

    from simkit.core.errors import ScenarioWarning

    named = str(getattr(args, "scenario", "") or "")

    def one_line(message, category, *rest, **kw):
        if issubclass(category, ResultsFolderWarning):
            print(f"simkit {args.command}: warning: {message}", file=sys.stderr)
        elif issubclass(category, ScenarioWarning):  # the designer's file only, not a check's own variants
            if named and str(message).startswith(named):
                print(f"simkit {args.command}: warning: {message}", file=sys.stderr)
        else:
            show(message, category, *rest, **kw)

    from simkit.commands._stop import cannot_go_on, sigterm_stops, stopped

    notice = compile_notice(args)
    listener = progress = None
    if notice:
        from simkit.commands._compile import announce_compiles, measured

        game, _, path = _game_and_path(args)
        listener, progress = announce_compiles(notice, measured(game, path))
    try:
        with warnings.catch_warnings(), sigterm_stops():
            warnings.showwarning = one_line
            if args.command in OUTSIDE_BOT_COMMANDS:
                from simkit.outside.bots import configure

                configure(args.allow_bot, args.outside_bot, args.bot_time, args.bot_game_time, args.bot_protocol)
            return int(args.func(args) or 0)
    except (ValueError, FileNotFoundError, PermissionError, NotADirectoryError, IsADirectoryError) as exc:
        print(f"simkit {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:  # Ctrl-C, or SIGTERM (sigterm_stops)
        line, status = stopped(args.command, exc, getattr(args, "resume_folder", None), argv)
        print(line, file=sys.stderr)
        return status
    except BrokenPipeError:  # the reader of the output went away (`simkit decks ... | head`): not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except OSError as exc:  # a full or read-only disk, a refused permission: one line, never a traceback
        print(cannot_go_on(args.command, exc, getattr(args, "resume_folder", None), argv), file=sys.stderr)
        return 2
    finally:
        if listener is not None:
            from numba.core import event

            event.unregister("numba:compile", listener)
            progress.close()


#: the exit statuses of a command stopped by Ctrl-C (130) or SIGTERM (143)
STOPPED = (130, 143)


def run() -> None:
    """The ``simkit`` program: :func:`main` on the command line, then exit with its status. A command stopped by
    Ctrl-C or SIGTERM has already kept what it finished, closed its files and said so: it then leaves at once,
    without the interpreter's teardown of the compiled engines (about 1.3 s of a 2-core machine's time, which made a
    stopped sweep take longer than 2 s to give the prompt back)."""
    status = main()
    if status in STOPPED:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(status)
    sys.exit(status)


if __name__ == "__main__":  # pragma: no cover
    run()
