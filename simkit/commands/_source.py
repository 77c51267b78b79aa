"""Constants of simkit's modules read from their source, not imported: a command's ``--help`` and argument errors
name the choices and defaults of heavy modules (the tune's objective, hypothesis' profiles) without importing them.

tests/commands/test_cli.py holds every value read here to the imported module's own.
"""

from __future__ import annotations

import ast
from functools import cache
from pathlib import Path

import simkit


@cache
def _tree(module: str) -> ast.Module:
    path = Path(simkit.__file__).parent.joinpath(*module.split(".")[1:]).with_suffix(".py")
    return ast.parse(path.read_text(encoding="utf-8"))


def constant(module: str, name: str):
    """The literal value assigned to ``name`` at the top of ``module`` (``simkit.testing.profiles``, ``PROFILES``).

    Raises:
        LookupError: the module assigns ``name`` no literal.
    """
    for node in _tree(module).body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
        if isinstance(target, ast.Name) and target.id == name and node.value is not None:
            return ast.literal_eval(node.value)
    raise LookupError(f"{module} assigns {name} no literal")


def field_defaults(module: str, cls: str) -> dict:
    """The literal defaults of the dataclass ``cls`` of ``module``, by field, in order.

    Raises:
        LookupError: ``module`` defines no class ``cls``.
    """
    for node in _tree(module).body:
        if isinstance(node, ast.ClassDef) and node.name == cls:
            return {item.target.id: ast.literal_eval(item.value) for item in node.body
                    if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name) and item.value is not None}
    raise LookupError(f"{module} defines no class {cls}")
