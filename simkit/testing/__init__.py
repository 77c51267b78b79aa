"""Property-based testing of rule invariants, importable by designers in their own pytest files.

* :mod:`~simkit.testing.strategies`: hypothesis strategies for decks, seeds, scenario variants,
  legal and illegal actions and played games;
* :mod:`~simkit.testing.invariants`: the rule invariants, checked over whole batches (a game adds its
  own, its compiled engine and its bots through ``check_hooks(scenario)`` of its package);
* :mod:`~simkit.testing.checker`: one game under watch (:class:`CheckedMatch`), cases and replays;
* :mod:`~simkit.testing.machine`: :func:`match_machine`, a ``RuleBasedStateMachine`` per scenario;
* :mod:`~simkit.testing.check`: :func:`run_check`, what ``simkit check`` runs;
* :mod:`~simkit.testing.api`: :func:`api_test`, the game interface's contract every game passes.

Importing this package registers the hypothesis profiles ``ci``, ``dev`` and ``thorough``
(unless already registered) without loading any of them.
"""

from simkit.testing.api import APITestFailure, api_test
from simkit.testing.check import CheckReport, format_report, replay_file, run_check
from simkit.testing.checker import Case, CheckedMatch, CheckStats, InvariantBroken, replay_case
from simkit.testing.invariants import STATE_INVARIANTS, TRANSITION_INVARIANTS, check_states, check_transitions
from simkit.testing.machine import MatchMachine, match_machine
from simkit.testing.profiles import register_profiles

register_profiles()

__all__ = [
    "APITestFailure",
    "STATE_INVARIANTS",
    "TRANSITION_INVARIANTS",
    "api_test",
    "Case",
    "CheckReport",
    "CheckStats",
    "CheckedMatch",
    "InvariantBroken",
    "MatchMachine",
    "check_states",
    "check_transitions",
    "format_report",
    "match_machine",
    "register_profiles",
    "replay_case",
    "replay_file",
    "run_check",
]
