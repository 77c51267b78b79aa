"""simkit: balance simulation for game designers."""

from simkit.errors import IllegalAction, ScenarioError
from simkit.runner import play_games
from simkit.scenario import Scenario, load_scenario
from simkit.sweep import load_results

__version__ = "0.1.0"

from simkit.explore import explore  # noqa: E402  (after __version__: the sweep records it)
from simkit.scan import scan  # noqa: E402
from simkit.tune import tune  # noqa: E402

__all__ = [
    "IllegalAction", "Scenario", "ScenarioError", "__version__", "explore", "load_results", "load_scenario",
    "play_games", "scan", "tune",
]
