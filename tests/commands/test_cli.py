"""The command line as a whole: every command explains itself."""

from __future__ import annotations

import sys

import pytest

from simkit.cli import build_parser, main

COMMANDS = sorted(next(a for a in build_parser()._actions if a.dest == "command").choices)


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_prints_its_help(command, capsys):
    """``simkit COMMAND --help`` prints the command's usage and exits 0: a help text with a bare ``%`` (argparse
    formats help with ``%``) would crash it instead."""
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: simkit {command}")
    assert "options:" in out


def test_help_and_argument_errors_import_no_engine_no_pandas_and_no_matplotlib():
    """``simkit --help``, every ``simkit COMMAND --help`` and an argument error of every command (a flag it does not
    have) run in a fresh interpreter without importing numba, numpy, pandas, scipy, matplotlib, hypothesis or optuna
    (they cost seconds of CPU: ``tune --help`` took 1.2 s when it imported the tune machinery)."""
    import subprocess
    import sys

    argvs = [["--help"]] + [[c, "--help"] for c in COMMANDS] + [[c, "x.toml", "--no-such-flag"] for c in COMMANDS]
    code = (f"import sys\nfrom simkit.cli import main\nfor argv in {argvs!r}:"
            "\n    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
            "heavy = {'numba', 'numpy', 'pandas', 'scipy', 'matplotlib', 'hypothesis', 'optuna'}\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


def test_the_defaults_help_reads_from_source_are_the_modules_own():
    """``check --help``'s profiles and ``tune --help``'s weights, read from the modules' source so that help imports
    neither hypothesis nor the tune machinery, are what those modules hold when imported."""
    from dataclasses import asdict

    from simkit.commands._source import constant, field_defaults
    from simkit.testing.profiles import PROFILES
    from simkit.tune.objective import TuneWeights

    assert constant("simkit.testing.profiles", "PROFILES") == PROFILES
    assert field_defaults("simkit.tune.objective", "TuneWeights") == asdict(TuneWeights())
    with pytest.raises(LookupError):
        constant("simkit.testing.profiles", "NO_SUCH_NAME")


def test_a_misspelt_flag_prints_the_commands_usage_and_the_nearest_flag(capsys):
    """``simkit sweep x.toml --gmaes 3`` exits 2 with sweep's usage (not the top level's) and names --games."""
    with pytest.raises(SystemExit) as done:
        main(["sweep", "x.toml", "--gmaes", "3"])
    assert done.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: simkit sweep ")
    assert "simkit sweep: error: unrecognized arguments: --gmaes 3 (--gmaes: did you mean --games" in err


def test_an_unknown_command_lists_the_commands(capsys):
    """A misspelt command exits 2 naming the valid ones."""
    with pytest.raises(SystemExit) as done:
        main(["swep", "x.toml"])
    assert done.value.code == 2
    assert "invalid choice: 'swep'" in capsys.readouterr().err


def test_the_top_level_help_lists_every_command_with_its_help(capsys):
    """The help read from the command modules' sources is each command's own ``help=`` text."""
    from simkit.cli import command_help

    helps = command_help()
    assert sorted(helps) == COMMANDS
    assert helps["sweep"] == "play every ordered deck pair N times into a parquet results folder"
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert all(name in out for name in COMMANDS)


def test_a_command_that_compiles_says_so_once_when_numba_starts_compiling(monkeypatch, capsys):
    """`simkit play` prints one line naming the game and the time when numba misses its cache for a cached kernel
    (twice compiled, said once), nothing for a kernel numba never caches, and nothing under NUMBA_DISABLE_JIT=1."""
    from numba.core import event

    import simkit.commands.play as play

    class Cached:
        _cache = object()

    class Uncached:
        _cache = type("NullCache", (), {})()

    def fake_run(args):
        with event.trigger_event("numba:compile", data={"dispatcher": Uncached()}):
            pass
        print("loaded", file=sys.stderr)
        for _ in range(2):
            with event.trigger_event("numba:compile", data={"dispatcher": Cached()}):
                pass
        print("played", file=sys.stderr)
        return 0

    monkeypatch.setattr(play, "run", fake_run)
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    argv = ["play", "scenarios/duel/base.toml", "A", "B"]
    assert main(argv) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "loaded" and err[2] == "played" and len(err) == 3
    assert err[1].startswith("simkit play: compiling the Card Duel engine once for this install (")
    assert err[1].endswith("compiles every game ahead); later runs start at once")
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    assert main(argv) == 0
    assert capsys.readouterr().err.splitlines() == ["loaded", "played"]
    assert not event._registered["numba:compile"]  # each run's listener is gone after it


def test_a_command_that_fails_before_playing_says_nothing_of_compiling(capsys):
    """Bad input ends in its one error line: the compile line is printed only once numba really compiles."""
    assert main(["play", "scenarios/duel/base.toml", "Nope", "Nope", "--seed", "-1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("simkit play: error: --seed")


def test_a_report_that_replays_games_says_which_engine_it_compiles(tmp_path):
    """`simkit report` replays games for its game pages and HTML page: its compile notice names the results folder's
    game (read from its meta.json); a folder without one gets no notice."""
    import argparse
    import json

    from simkit.cli import compile_notice

    (tmp_path / "meta.json").write_text(json.dumps({"game": "miracle"}), encoding="utf-8")
    line = compile_notice(argparse.Namespace(command="report", results=str(tmp_path)))
    assert line.startswith("simkit report: compiling the Battle of Miracles engine once for this install (")
    assert compile_notice(argparse.Namespace(command="report", results=str(tmp_path / "none"))) is None


def test_the_compile_progress_says_the_share_done_and_the_time_left_from_measured_figures():
    """With a kernel's measured figures the progress line gives the share of the measured compile done and the time
    left at this run's pace; without figures only what was compiled and the time spent, never a guessed estimate."""
    import io

    from simkit.commands._compile import CompileProgress

    out = io.StringIO()
    p = CompileProgress("head", {"m:a": 3.0, "m:b": 1.0}, stream=out)
    p.start()
    p.started -= 6.0  # six seconds into the compile when kernel a ends
    p.end("m:a")
    assert p.share() == 0.75
    line = p.line()
    assert line.startswith("  compiling: 75% done in 6 s, about 2 s left")
    assert out.getvalue().splitlines()[0] == "head" and "75% done" in out.getvalue()
    bare = CompileProgress("head", {}, stream=io.StringIO())
    bare.start()
    bare.end("m:x")
    assert bare.line().startswith("  compiling: 1 kernels in") and "no measured figures" in bare.line()
    assert "left" not in bare.line()


def test_the_measured_compile_figures_cover_every_game_and_the_sweep():
    """simkit/commands/compile_times.json holds, for each game's sweep, the kernels scripts/compile_times.py
    measured (module:qualname and seconds), so a first sweep's progress line has figures to read."""
    from simkit.commands._compile import measured
    from simkit.games import get_game

    for game in ("miracle", "duel", "krypton", "magic"):
        kernels = measured(game, "sweep")
        assert kernels and all(":" in k and v >= 0 for k, v in kernels.items()), game
        get_game(game)
