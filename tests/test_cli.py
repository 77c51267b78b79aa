"""The command line as a whole: every command explains itself."""

from __future__ import annotations

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


def test_help_imports_no_engine_no_pandas_and_no_matplotlib():
    """``simkit --help`` and ``simkit sweep --help`` run in a fresh interpreter without importing numba, numpy,
    pandas, scipy or matplotlib (they cost seconds of CPU)."""
    import subprocess
    import sys

    code = ("import sys\nfrom simkit.cli import main\nfor argv in (['--help'], ['sweep', '--help'], ['compare', '-h']):"
            "\n    try:\n        main(argv)\n    except SystemExit:\n        pass\n"
            "heavy = {'numba', 'numpy', 'pandas', 'scipy', 'matplotlib'}\n"
            "print(sorted({m.split('.')[0] for m in sys.modules} & heavy))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


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


def _fake_cache(tmp_path):
    """A game package with one compiled module: engine.py and its numba index file, written after it."""
    import os

    pkg = tmp_path / "game"
    (pkg / "__pycache__").mkdir(parents=True)
    (pkg / "engine.py").write_text("x = 1\n")
    index = pkg / "__pycache__" / "engine.step-10.py311.nbi"
    index.write_bytes(b"")
    os.utime(pkg / "engine.py", (1_000_000, 1_000_000))
    os.utime(index, (2_000_000, 2_000_000))
    return pkg, index


def test_a_cold_cache_is_told_from_numbas_index_files(tmp_path):
    """No record: compile pending; recorded with every index file present and newer than its sources: cached;
    an index file gone, or a source edited after it: pending again; another way of playing has its own record."""
    import os

    from simkit.games.kits.numba_cache import compile_pending, remember_compiled

    pkg, index = _fake_cache(tmp_path)
    assert compile_pending(pkg, "sweep") is True
    remember_compiled(pkg, "sweep")
    assert compile_pending(pkg, "sweep") is False
    assert compile_pending(pkg, "play") is True
    os.utime(pkg / "engine.py", (3_000_000, 3_000_000))
    assert compile_pending(pkg, "sweep") is True
    os.utime(pkg / "engine.py", (1_000_000, 1_000_000))
    index.unlink()
    assert compile_pending(pkg, "sweep") is True


def test_a_command_that_compiles_says_so_once_before_it_runs(tmp_path, monkeypatch, capsys):
    """`simkit play` on a cold cache prints one line naming the game and the time just before its first game
    (a command refused before any game prints only its error); once it ran, the record makes the next run
    silent; under NUMBA_DISABLE_JIT=1 nothing is said."""
    import simkit.commands.play as play

    pkg, _ = _fake_cache(tmp_path)
    import importlib.util

    monkeypatch.setattr(importlib.util, "find_spec", lambda name: type("S", (), {
        "submodule_search_locations": [str(pkg)]}))
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)

    from simkit.games.kits.numba_cache import about_to_play

    def refused(args):
        raise ValueError("deck 'A': not a deck of the pool")

    def fake_run(args):
        about_to_play()  # what the generic layers call before the first game
        print("played", file=__import__("sys").stderr)
        return 0

    argv = ["play", "scenarios/duel/base.toml", "A", "B"]
    monkeypatch.setattr(play, "run", refused)  # bad input, refused before any game: its one line alone
    assert main(argv) == 2
    assert capsys.readouterr().err.splitlines() == ["simkit play: error: deck 'A': not a deck of the pool"]
    monkeypatch.setattr(play, "run", fake_run)
    assert main(argv) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("simkit play: compiling the Card Duel engine once for this install (")
    assert err[0].endswith("later runs start at once") and err[1] == "played"
    assert main(argv) == 0
    assert capsys.readouterr().err.splitlines() == ["played"]
    (pkg / "__pycache__" / "simkit-compiled-play.json").unlink()
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    assert main(argv) == 0
    assert capsys.readouterr().err.splitlines() == ["played"]
