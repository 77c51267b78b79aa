"""Battle of Miracles (神迹之战): hex-grid tactics with decks of 1 artifact and 3 creature kinds.

The package is a simkit game: :mod:`.game` declares it (``GAME``); :mod:`.tables` reads the scenario,
:mod:`.batch` plays whole games, :mod:`.match` is the single game (:class:`~.match.Match`); the rules live in
:mod:`.fast` (``fast/step.py``, ``fast/legal.py``) with :mod:`.rules` their Python face for batches.
"""

from simkit.games.miracle.game import GAME

__all__ = ["GAME"]
