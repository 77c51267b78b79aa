"""Magic War's package reads bottom to top: the declared state, the engine, the bots, the search, the facade, the
scenario reader on top; nothing imports upward (no import circle), and the rules read by name, not by offset."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[3] / "simkit" / "games" / "magic"
#: the modules from the bottom up: each may import only those before it
LAYERS = ("state", "engine", "lead", "bots", "search", "search_loop", "search_play", "search_config", "personalities",
          "armies", "match", "batch", "outside", "tables", "transitions", "invariants", "narrate", "render", "game",
          "__init__")
#: the compiled rules and bots, where a state or rules value is read by name only
BY_NAME = ("engine", "lead", "bots", "search", "search_play")


def _game_imports(path: Path) -> set[str]:
    """The modules of the package ``path`` imports, at any depth (local imports included)."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "simkit.games.magic":
                out |= {a.name for a in node.names}
            elif node.module.startswith("simkit.games.magic."):
                out.add(node.module.split(".")[3])
        elif isinstance(node, ast.Import):
            out |= {a.name.split(".")[3] for a in node.names if a.name.startswith("simkit.games.magic.")}
    return out


def test_every_module_has_its_layer():
    """The layer list names every module of the package, once."""
    assert sorted(LAYERS) == sorted(p.stem for p in PACKAGE.glob("*.py"))


@pytest.mark.parametrize("module", LAYERS)
def test_a_module_imports_only_the_layers_below(module):
    """No module imports one above it (so the package has no import circle): the declaration is at the bottom."""
    below = set(LAYERS[:LAYERS.index(module)])
    above = _game_imports(PACKAGE / f"{module}.py") - below
    assert not above, f"{module}.py imports {sorted(above)}, which are not below it"


def _offset_reads(path: Path) -> list[str]:
    """The subscripts of ``path`` whose index is an upper-case constant (``s[o + H_HP]``, ``ut[t, U_HP]``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Subscript):
            names = [n.id for n in ast.walk(node.slice) if isinstance(n, ast.Name)]
            found += [f"line {node.lineno}: {n}" for n in names if n.isupper() and len(n) > 1]
    return found


@pytest.mark.parametrize("module", BY_NAME)
def test_the_rules_read_fields_by_name(module):
    """The engine, bots and search index no array by an upper-case offset constant: state and rules are records."""
    assert _offset_reads(PACKAGE / f"{module}.py") == []


def test_the_offset_check_would_see_one(tmp_path):
    """The scan finds an offset read written as the old engines wrote them."""
    src = tmp_path / "m.py"
    src.write_text("def f(s, o, ut, t):\n    return s[o + H_HP] + ut[t, U_ATK] + s[o]\n")
    assert [x.split(": ")[1] for x in _offset_reads(src)] == ["H_HP", "U_ATK"]
