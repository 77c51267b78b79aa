"""``simkit explore``: the metagame of a deck space without playing every pairing (double oracle).

Small modules, one job each, in the order a run uses them:

- :mod:`~simkit.explore.settings`: :class:`ExploreSettings`, the run's numbers;
- :mod:`~simkit.explore.space`: :class:`DeckSpace`, the pool's decks, one-card neighbours, style axes;
- :mod:`~simkit.explore.tally`: :class:`Tally`, the explored matchup matrix and its estimates;
- :mod:`~simkit.explore.oracle`: :class:`Planner`, the double oracle planning each round of games;
- :mod:`~simkit.explore.run`: :func:`explore`, the run in a sweep folder (simkit.sweep's machinery);
- :mod:`~simkit.explore.outputs` and :mod:`~simkit.explore.figure`: the answer files and the PDF.
"""

from simkit.explore.run import explore, plan_explore
from simkit.explore.settings import ExploreSettings
from simkit.explore.space import Axis, DeckSpace, parse_axis

__all__ = ["Axis", "DeckSpace", "ExploreSettings", "explore", "parse_axis", "plan_explore"]
