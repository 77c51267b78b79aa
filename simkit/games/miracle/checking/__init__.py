"""Property-based checking of Battle of Miracles' rules: what ``simkit check`` runs for this game.

* :mod:`.strategies`: hypothesis strategies for decks, seeds, scenario variants, legal and illegal
  actions and played games;
* :mod:`.invariants` and :mod:`.rule_invariants`: the rule invariants, checked over whole batches;
* :mod:`.checker`: one game under watch (:class:`CheckedMatch`), cases and replays, the bots'
  offered actions against the rules' legal mask (:mod:`.hooks`);
* :mod:`.machine`: :func:`match_machine`, a ``RuleBasedStateMachine`` per scenario, for a designer's
  own pytest files;
* :mod:`.check`: :func:`run_check`, the hypothesis run, shrinking and replay files.

The generic :mod:`simkit.testing` reaches this package only through the game interface
(the ``check`` capability, :data:`simkit.games.CAPABILITIES`: ``MiracleCheck`` in :mod:`simkit.games.miracle.game`).
"""

from simkit.games.miracle.checking.check import CheckReport, format_report, replay_file, run_check
from simkit.games.miracle.checking.checker import Case, CheckedMatch, CheckStats, InvariantBroken, replay_case
from simkit.games.miracle.checking.invariants import (
    STATE_INVARIANTS,
    TRANSITION_INVARIANTS,
    check_states,
    check_transitions,
)
from simkit.games.miracle.checking.machine import MatchMachine, match_machine

__all__ = [
    "STATE_INVARIANTS", "TRANSITION_INVARIANTS", "Case", "CheckReport", "CheckStats", "CheckedMatch",
    "InvariantBroken", "MatchMachine", "check_states", "check_transitions", "format_report", "match_machine",
    "replay_case", "replay_file", "run_check",
]
