"""Load a file of ``lab/`` as a module, once per process: ``load("tune_bot")``.

The module is registered in ``sys.modules`` under its name, so a worker function it hands to a process pool
pickles by name, and two test modules that load the same script share one copy."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

LAB = Path(__file__).resolve().parents[1]


def load(name: str) -> ModuleType:
    """``lab/<name>.py`` as the module ``name`` (the one already loaded, if any)."""
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, LAB / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]
