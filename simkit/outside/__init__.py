"""Outside bots: programs in any language that play simkit's games over a documented protocol.

- :mod:`~simkit.outside.bots`: outside bots by name (a scenario's ``[bots.NAME] command``, ``--bot NAME=COMMAND``),
  their time limits and what the command line allows (``--allow-bot NAME``);
- :mod:`~simkit.outside.process`: one running program (its process group, its end with simkit's process) and the
  framing of its messages (JSON lines);
- :mod:`~simkit.outside.play`: games with an outside seat, played decision by decision through the game's
  ``Match``; a failure is a forfeit recorded with who and why.

The protocol is ``docs/outside-bots.md``; ``examples/bots/random_bot.py`` is a bot that speaks it.
"""

from simkit.outside.bots import (
    OutsideBot,
    OutsideBotRefused,
    allow,
    check_allowed,
    configure,
    give,
    outside_bots,
    reset,
)
from simkit.outside.play import FORFEIT, FORFEIT_COLUMNS, PROTOCOL

__all__ = ["FORFEIT", "FORFEIT_COLUMNS", "PROTOCOL", "OutsideBot", "OutsideBotRefused", "allow", "check_allowed",
           "configure", "give", "outside_bots", "reset"]
