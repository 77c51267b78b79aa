"""The generic layers reach games only through the game interface: none imports a game package."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "simkit"
GENERIC = ["core", "scenario.py", "runner.py", "sweep", "cards", "analysis", "report", "testing",
           "commands", "cli.py", "tune", "scan", "explore", "outside", "real", "games/kits"]


def _modules():
    for name in GENERIC:
        path = ROOT / name
        yield from sorted(path.rglob("*.py")) if path.is_dir() else ([path] if path.exists() else [])


def _imports(path: Path) -> list[str]:
    """Every module ``path`` imports (at any depth, local imports included)."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.append(node.module)
            if node.module == "simkit.games":
                out += [f"simkit.games.{a.name}" for a in node.names
                        if (ROOT / "games" / a.name).is_dir() and a.name != "kits"]
    return out


def _is_kit(module: str) -> bool:
    return module == "simkit.games.kits" or module.startswith("simkit.games.kits.")


@pytest.mark.parametrize("path", list(_modules()), ids=lambda p: str(p.relative_to(ROOT)))
def test_a_generic_module_imports_no_game(path):
    """No generic module (nor a kit) imports simkit.games.<a game>: games are reached through simkit.games alone."""
    games = [m for m in _imports(path) if m.startswith("simkit.games.") and not _is_kit(m)]
    assert not games, f"{path.relative_to(ROOT)} imports {games}"


def test_the_scenario_loader_does_not_import_the_sweep():
    """The core validates its own [sweep] table: scenario.py imports nothing from sweep/ (no import circle)."""
    assert not [m for m in _imports(ROOT / "scenario.py") if m.startswith("simkit.sweep")]


def test_the_check_would_catch_a_game_import(tmp_path):
    """The import scan sees a game imported inside a function, as a plain import and from simkit.games."""
    src = tmp_path / "m.py"
    src.write_text("def f():\n    from simkit.games.miracle import rules\n    import simkit.games.duel\n"
                   "from simkit.games import miracle, Game\n")
    found = [m for m in _imports(src) if m.startswith("simkit.games.")]
    assert sorted(found) == ["simkit.games.duel", "simkit.games.miracle", "simkit.games.miracle"]



GAMES = sorted(p.name for p in (ROOT / "games").iterdir()
               if p.is_dir() and (p / "__init__.py").exists() and p.name != "kits")


@pytest.mark.parametrize("game", GAMES)
def test_no_game_imports_another(game):
    """A game reaches shared machinery through the kits, never through another game's package."""
    others = [g for g in GAMES if g != game]
    for path in sorted((ROOT / "games" / game).rglob("*.py")):
        bad = [m for m in _imports(path) if any(m == f"simkit.games.{g}" or m.startswith(f"simkit.games.{g}.")
                                                for g in others)]
        assert not bad, f"{path.relative_to(ROOT)} imports {bad}"


def _runtime_imports(path: Path) -> list[str]:
    """Every simkit module ``path`` imports when it runs (local imports included; those under
    ``if TYPE_CHECKING:`` left out, nothing imports them), ``from package import name`` counted as the package and
    as ``package.name``."""
    def walk(tree):
        for node in ast.iter_child_nodes(tree):
            if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                for child in node.orelse:
                    yield child
                    yield from walk(child)
                continue
            yield node
            yield from walk(node)

    out = []
    for node in walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level:
            out.append(f"relative import (level {node.level}) of {node.module or '.'}")
        elif isinstance(node, ast.ImportFrom) and node.module:
            out += [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
    return [m for m in out if m == "simkit" or m.startswith("simkit.") or m.startswith("relative")]


@pytest.mark.parametrize("path", sorted((ROOT / "core").rglob("*.py")), ids=lambda p: p.name)
def test_the_core_is_at_the_bottom(path):
    """A core module imports only the core: nothing runs back up into the package root, the stages or the games."""
    above = [m for m in _runtime_imports(path) if not (m == "simkit.core" or m.startswith("simkit.core."))]
    assert not above, f"simkit/core/{path.name} imports {sorted(set(above))} from above the core"


def test_the_core_check_sees_an_import_back_up(tmp_path):
    """An import of the package root, of a stage inside a function, or of a game is seen; one for annotations only
    (``if TYPE_CHECKING:``) and one of the core itself are not."""
    src = tmp_path / "m.py"
    src.write_text("from typing import TYPE_CHECKING\nimport simkit\nfrom simkit.core import files\n"
                   "if TYPE_CHECKING:\n    from simkit.scenario import Scenario\n"
                   "def f():\n    from simkit.sweep import plan_sweep\n    import simkit.games.duel\n")
    found = [m for m in _runtime_imports(src) if not m.startswith("simkit.core")]
    assert found == ["simkit", "simkit.sweep", "simkit.sweep.plan_sweep", "simkit.games.duel"]
