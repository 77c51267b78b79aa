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
