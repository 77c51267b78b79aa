"""The drivers stay small (issue 54): no function in sweep, tune, scan or explore runs over 60 lines or takes more
than 6 parameters; a driver's numbers travel as one settings value, not as a long list of keywords."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "simkit"
DRIVERS = ("sweep", "tune", "scan", "explore")
MAX_LINES = 60
MAX_PARAMETERS = 6


def parameters(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The parameters a caller gives ``fn``: every named, ``*args`` and ``**kwargs`` one, less a method's ``self``
    or ``cls``."""
    a = fn.args
    named = [*a.posonlyargs, *a.args]
    n = len(named) + len(a.kwonlyargs) + (a.vararg is not None) + (a.kwarg is not None)
    return n - 1 if named and named[0].arg in ("self", "cls") else n


def oversized(path: Path, root: Path = ROOT.parent) -> list[str]:
    """Every function of the module ``path`` (methods and nested functions too) over the limits, as
    ``file:line name: N lines`` or ``... N parameters`` (its lines from ``def`` to its last line, docstring
    included; ``file`` relative to ``root``)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        where = f"{path.relative_to(root)}:{node.lineno} {node.name}"
        lines = node.end_lineno - node.lineno + 1
        if lines > MAX_LINES:
            out.append(f"{where}: {lines} lines (at most {MAX_LINES})")
        if parameters(node) > MAX_PARAMETERS:
            out.append(f"{where}: {parameters(node)} parameters (at most {MAX_PARAMETERS})")
    return out


@pytest.mark.parametrize("package", DRIVERS)
def test_no_driver_function_is_over_60_lines_or_6_parameters(package):
    """Every function of simkit/<driver>/ is at most 60 lines long and takes at most 6 parameters."""
    found = [line for path in sorted((ROOT / package).rglob("*.py")) for line in oversized(path)]
    assert not found, "; ".join(found)


def test_the_walk_names_a_long_function_and_a_long_parameter_list(tmp_path):
    """A 61-line function and a method of 7 parameters besides ``self`` are named with their file and line; a
    60-line function and a method of ``self`` and 6 others pass."""
    src = tmp_path / "m.py"
    body = "\n".join(f"    x{i} = {i}" for i in range(59))
    src.write_text(f"def long():\n{body}\n    return 1\n\n\ndef fits():\n{body}\n\n\n"
                   "class C:\n    def wide(self, a, b, c, d, e, f, *, g):\n        pass\n\n"
                   "    def narrow(self, a, b, c, d, e, f):\n        pass\n")
    assert oversized(src, tmp_path) == ["m.py:1 long: 61 lines (at most 60)", "m.py:127 wide: 7 parameters (at most 6)"]
