"""``simkit explore``: the metagame of a deck space without playing every pairing (double oracle).

Small modules, one job each, in the order a run uses them:

- :mod:`~simkit.explore.settings`: :class:`ExploreSettings`, the run's numbers;
- :mod:`~simkit.explore.space`: :class:`DeckSpace`, the pool's decks, one-card neighbours, style axes;
- :mod:`~simkit.explore.tally`: :class:`Tally`, the explored matchup matrix and its estimates;
- :mod:`~simkit.explore.game`: :class:`DeckGame`, the deck-choice game of the space's two seat pools (one
  side for alike seats, a side per seat when each has its own pool);
- :mod:`~simkit.explore.oracle`: :class:`Planner`, the double oracle planning each round of games;
- :mod:`~simkit.explore.run`: :func:`run_explore`, the run in a sweep folder (simkit.sweep's machinery);
- :mod:`~simkit.explore.outputs`: the answer files (the folder's PDF is the report's pages);
- :mod:`~simkit.explore.report` and :mod:`~simkit.explore.compare`: ``simkit report`` and
  ``simkit compare`` on explore folders (the report's pages; did the metagame move?).
"""

from simkit.explore.run import plan_explore, run_explore
from simkit.explore.settings import ExploreSettings
from simkit.explore.space import Axis, DeckSpace, parse_axis

__all__ = ["Axis", "DeckSpace", "ExploreSettings", "parse_axis", "plan_explore", "run_explore"]
