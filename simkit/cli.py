"""The ``simkit`` command: a thin group of sub-commands, each in ``simkit/commands/<name>.py``.

A command module defines ``register(subparsers)`` which adds its parser and sets
``func(args) -> int``. Bad input (a ``ValueError`` such as ScenarioError or IllegalAction, or a
missing file) ends with one line on stderr and exit status 2. A results folder's warnings (a
stray file ignored, a chunk played again) print as one line each.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
import warnings

import simkit.commands


def build_parser() -> argparse.ArgumentParser:
    """The argument parser with every command found in ``simkit.commands``."""
    parser = argparse.ArgumentParser(prog="simkit", description="Balance simulation for game designers.")
    parser.add_argument("--version", action="version", version=f"simkit {simkit.__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for info in sorted(pkgutil.iter_modules(simkit.commands.__path__), key=lambda m: m.name):
        importlib.import_module(f"simkit.commands.{info.name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; returns the exit status."""
    args = build_parser().parse_args(argv)
    from simkit.sweep import ResultsFolderWarning

    show = warnings.showwarning

    def one_line(message, category, *rest, **kw):
        if issubclass(category, ResultsFolderWarning):
            print(f"simkit {args.command}: warning: {message}", file=sys.stderr)
        else:
            show(message, category, *rest, **kw)

    try:
        with warnings.catch_warnings():
            warnings.showwarning = one_line
            return int(args.func(args) or 0)
    except (ValueError, FileNotFoundError, PermissionError, NotADirectoryError, IsADirectoryError) as exc:
        print(f"simkit {args.command}: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"simkit {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
