"""simkit: balance simulation for game designers.

The public names are imported when first used (PEP 562), so ``import simkit`` and ``simkit --help`` cost no
pandas, scipy or engine import.
"""

from __future__ import annotations

import sys
import types
from importlib import import_module

__version__ = "0.1.0"

#: each public name and the module it comes from
_PUBLIC = {
    "IllegalAction": "simkit.errors", "ScenarioError": "simkit.errors", "play_games": "simkit.runner",
    "Scenario": "simkit.scenario", "load_scenario": "simkit.scenario", "load_results": "simkit.sweep",
    "explore": "simkit.explore", "scan": "simkit.scan", "tune": "simkit.tune",
}

__all__ = sorted([*_PUBLIC, "__version__"])


class _Package(types.ModuleType):
    """The package module: ``simkit.explore``, ``simkit.scan`` and ``simkit.tune`` stay the functions even once
    their sub-packages are imported (the import system would otherwise set the sub-package there)."""

    def __getattr__(self, name: str):
        if name in _PUBLIC:
            return getattr(import_module(_PUBLIC[name]), name)
        raise AttributeError(f"module 'simkit' has no attribute {name!r}")

    def __setattr__(self, name: str, value) -> None:
        if name in _PUBLIC and isinstance(value, types.ModuleType):
            return  # a sub-package of the same name as a public function: the function wins
        super().__setattr__(name, value)

    def __dir__(self):
        return sorted({*super().__dir__(), *_PUBLIC})


sys.modules[__name__].__class__ = _Package
