"""Checking a game's rules, for ``simkit check`` and a designer's own pytest files (any game).

* :func:`~simkit.testing.api.api_test`: the game interface's contract every game passes (records,
  batch independence, turn limit, replay, illegal actions refused);
* :func:`~simkit.testing.rule_check.run_check`: what ``simkit check`` runs: the game's ``check`` capability,
  most often its declared invariants after every action of random and bot-played games
  (:class:`~simkit.testing.rule_check.InvariantCheck`, :func:`~simkit.testing.rule_check.run_invariant_games`),
  or a check of the game's own (Battle of Miracles: a hypothesis state machine in its package);
* hypothesis profiles ``ci``, ``dev`` and ``thorough``, registered on import (unless already
  registered) without loading any of them.

The games are reached only through the game interface (the ``check`` capability of
:data:`simkit.games.CAPABILITIES`).
"""

from simkit.testing.api import APITestFailure, api_test
from simkit.testing.profiles import register_profiles
from simkit.testing.rule_check import (
    InvariantCheck,
    InvariantReport,
    format_report,
    replay_file,
    run_check,
    run_invariant_games,
)

register_profiles()

__all__ = [
    "APITestFailure",
    "InvariantCheck",
    "InvariantReport",
    "api_test",
    "format_report",
    "register_profiles",
    "replay_file",
    "run_check",
    "run_invariant_games",
]
