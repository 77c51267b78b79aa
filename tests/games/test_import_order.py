"""No import circle inside a game folder: the declaration at the bottom, the engine above it, bots above the
engine, the scenario reader and the facade on top (DESIGN.md principle 2), so a module never reaches up."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GAMES_DIR = ROOT / "simkit" / "games"
GAMES = sorted(p.name for p in GAMES_DIR.iterdir()
               if p.is_dir() and (p / "__init__.py").exists() and p.name != "kits")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _runtime_nodes(tree: ast.AST):
    """Every node of ``tree`` but those under ``if TYPE_CHECKING:`` (names for annotations, never imported)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (n for child in node.orelse for n in [child, *_runtime_nodes(child)])
            continue
        yield node
        yield from _runtime_nodes(node)


def import_graph(folder: Path) -> dict[str, set[str]]:
    """Module -> the modules of ``folder`` it imports (at any depth: a local import inside a function counts;
    one under ``if TYPE_CHECKING:`` does not, nothing imports it when the program runs).

    ``from package import name`` is an import of the submodule ``package.name`` when there is one, else of
    the package itself; an import of a package is an import of its ``__init__``."""
    package = _module_name(folder / "__init__.py")
    modules = {_module_name(p): p for p in sorted(folder.rglob("*.py"))}
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for name, path in modules.items():
        base = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
        for node in _runtime_nodes(ast.parse(path.read_text(encoding="utf-8"))):
            targets = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                module = node.module or ""
                if node.level:  # relative: from . import x, from .engine import y
                    anchor = base.split(".")[:len(base.split(".")) - node.level + 1]
                    module = ".".join(anchor + ([module] if module else []))
                subs = [f"{module}.{a.name}" for a in node.names if f"{module}.{a.name}" in modules]
                targets = subs or [module]
            for target in targets:
                if target in modules and target != name and (target == package or target.startswith(package + ".")):
                    graph[name].add(target)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of ``graph`` with more than one module (Tarjan), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = []
            while True:
                w = stack.pop()
                on.discard(w)
                part.append(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(sorted(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(out)


@pytest.mark.parametrize("game", GAMES)
def test_no_import_circle_inside_a_game_folder(game):
    """Every game folder's modules (sub-packages included) import one another without a circle."""
    found = circles(import_graph(GAMES_DIR / game))
    assert not found, f"simkit/games/{game}: import circles {found}"


def test_the_scan_sees_a_circle_through_a_local_import(tmp_path):
    """A circle closed by an import inside a function, or through ``from package import module``, is found; an
    import for annotations only (``if TYPE_CHECKING:``) closes none."""
    pkg = tmp_path / "simkit" / "games" / "toy"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "tables.py").write_text("def f():\n    from simkit.games.toy import engine\n")
    (pkg / "engine.py").write_text("from simkit.games.toy.tables import f\n")
    (pkg / "bots.py").write_text("from simkit.games.toy import engine\n")
    (pkg / "state.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                  "    from simkit.games.toy.bots import Bot\n")
    (pkg / "view.py").write_text("from simkit.games.toy import state\n")
    (tmp_path / "simkit" / "games" / "toy" / "bots.py").write_text("from simkit.games.toy import engine, view\n")
    global ROOT
    old, ROOT = ROOT, tmp_path
    try:
        found = circles(import_graph(pkg))
    finally:
        ROOT = old
    assert found == [["simkit.games.toy.engine", "simkit.games.toy.tables"]]
    assert {"_template", "duel", "krypton", "magic", "miracle"} <= set(GAMES)  # every game folder is held to it
