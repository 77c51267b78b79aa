"""simkit: balance simulation for game designers.

The public names are imported when first used (PEP 562), so ``import simkit`` and ``simkit --help`` cost no
pandas, scipy or engine import. The drivers are ``run_sweep``, ``run_tune``, ``run_scan``, ``run_explore`` and
``run_ladder``; their packages (``simkit.sweep``, ``simkit.tune``, ...) keep their own names. Each driver takes
one frozen settings value (``SweepSettings`` through ``plan_sweep``, ``ExploreSettings``, ``ScanSettings``,
``TuneSettings``), recorded in its folder and checked on resume, and ``RunOptions`` for how it is played.
"""

from __future__ import annotations

from importlib import import_module

from simkit.core import __version__ as __version__

#: each public name and the module it comes from
_PUBLIC = {
    "IllegalAction": "simkit.core.errors", "ScenarioError": "simkit.core.errors", "play_games": "simkit.runner",
    "Scenario": "simkit.scenario", "load_scenario": "simkit.scenario", "load_results": "simkit.sweep",
    "run_sweep": "simkit.sweep", "run_explore": "simkit.explore", "run_scan": "simkit.scan",
    "run_tune": "simkit.tune", "run_ladder": "simkit.ladder", "plan_sweep": "simkit.sweep",
    "SweepSettings": "simkit.sweep", "RunOptions": "simkit.sweep", "ExploreSettings": "simkit.explore",
    "ScanSettings": "simkit.scan", "TuneSettings": "simkit.tune",
}

__all__ = sorted([*_PUBLIC, "__version__"])


def __getattr__(name: str):
    if name in _PUBLIC:
        return getattr(import_module(_PUBLIC[name]), name)
    raise AttributeError(f"module 'simkit' has no attribute {name!r}")


def __dir__():
    return sorted({*globals(), *_PUBLIC})
