"""Planting a rule bug into a copy of a game's rules source, to show that the checks catch it.

A planted bug is a few edits of one module's source, each quoted as (the text as it is, the text
with the bug). :func:`planted_module` writes the edited source to a folder of its own (numba's cache
of it lives beside it, so each planted copy compiles once) and imports it under its own name;
:func:`caught_by_check` runs ``simkit check`` with it in place and says whether a rule check (a rule
example, or a clause the game's checks name) reported it. Used by ``tests/testing/test_planted_bugs.py`` and
``scripts/planted_hunt.py``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

__all__ = ["caught_by_check", "planted_module", "planted_source"]


def planted_source(module: ModuleType, edits) -> str:
    """``module``'s source with ``edits`` made (each quoted text must occur exactly once).

    Raises:
        AssertionError: a quoted text is not in the source exactly once (the source changed: update the quote).
    """
    source = Path(module.__file__).read_text(encoding="utf-8")
    for old, new in edits:
        assert source.count(old) == 1, f"{Path(module.__file__).name} no longer holds {old!r} once: update the bug"
        source = source.replace(old, new)
    return source


def planted_module(folder: Path, name: str, text: str) -> ModuleType:
    """Module ``name`` from ``text`` written to ``folder`` (written only when changed, imported once)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.py"
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


def caught_by_check(scenario, profile: str = "ci", seed: int = 0, out_dir=None,
                    examples_first: bool = True) -> tuple[bool, str]:
    """Run ``simkit check`` on ``scenario``; ``(caught, what reported it)``.

    Caught means a rule check reported it: a rule example failed, or a case broke a clause the
    game's checks name (``examples_first=False``: the clauses alone). A batch and its games parting,
    or the interface contract, do not count: a planted copy of the rules is not played by the
    compiled bots, so those would be artefacts.
    """
    from simkit.testing.rule_check import run_check

    report = run_check(scenario, profile=profile, seed=seed, out_dir=out_dir, examples_first=examples_first)
    if report.passed:
        return False, "unnoticed"
    text = report.failure or ""
    if text.startswith("rule example failed"):
        return True, text.splitlines()[0].split(": example ", 1)[-1]
    case = getattr(report, "case", None)
    names = set(getattr(report, "invariants", ()))
    if case is not None and set(case.broken) & names:
        return True, ", ".join(sorted(set(case.broken) & names))
    return False, text.splitlines()[0]
