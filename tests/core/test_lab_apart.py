"""Product and lab apart (DESIGN.md principle 11): nothing in the package or its default tests reaches into lab/,
where the experiment scripts live, so an experiment can never shape the product or break its tests."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _python_files() -> list[Path]:
    return [p for top in ("simkit", "tests") for p in (ROOT / top).rglob("*.py")]


def test_no_module_of_the_package_or_its_tests_imports_the_lab():
    """No ``import lab...``, no module loaded from a file under lab/, no lab folder put on the path."""
    offenders = []
    for path in _python_files():
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
        for node in ast.walk(tree):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            if any(n == "lab" or n.startswith(("lab.", "lab_module")) for n in names):
                offenders.append(f"{path.relative_to(ROOT)}: imports {names}")
        if re.search(r"""/\s*["']lab["']|["']lab/[\w/]*\.py["']""", source) and path.name != "test_lab_apart.py":
            offenders.append(f"{path.relative_to(ROOT)}: builds a path into the lab folder")
    assert not offenders, offenders


def test_the_lab_is_outside_the_default_suite_and_the_package():
    """The default pytest run collects tests/ only, and the package's files are simkit/ only."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert 'testpaths = ["tests"]' in text and 'include = ["simkit*"]' in text
    assert (ROOT / "lab" / "README.md").is_file() and (ROOT / "lab" / "tests").is_dir()


def test_the_game_interface_declares_no_capability_only_the_lab_used():
    """Krypton's lock is the lab's question: it is no capability of the game interface."""
    from simkit.games import CAPABILITIES, get_game

    assert "lock_round" not in CAPABILITIES
    assert "lock_round" not in get_game("krypton").capabilities
