"""Krypton's package reads from the bottom up: the declaration at the bottom, the engine above it, the bots above
the engine, the scenario reader (tables) on top of them; no module imports one above it, so the game has no import
circle. The engine, the bots and the search read the declared state by name: no upper-case offset constant
indexes an array there."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAME = Path(__file__).resolve().parents[3] / "simkit" / "games" / "krypton"
PACKAGE = "simkit.games.krypton"

#: every module of the game, bottom first: each may import only modules before it
ORDER = (
    "state",            # the declaration: the state, the packed rules, the game's words and codes
    "engine",           # the rules
    "lead",             # the lead signal (the experience figures' view of who is ahead)
    "bots",             # the utility and random bots
    "fast_search",      # the search's compiled hooks and play loop (its package)
    "fast_search.hooks",
    "fast_search.play",
    "search_bot",       # the search bots' tables
    "tables",           # the scenario reader
    "match",            # the one Python face of a game
    "batch",            # play_batch
    "outside",          # a seat's view for outside bots (simkit/outside)
    "stalemate",
    "narrate",
    "render",
    "transitions",      # the rules page restated over snapshots
    "invariants",
    "game",             # the declaration the generic layers read
    "",                 # the package itself
)


def _module(path: Path) -> str:
    rel = path.relative_to(GAME).with_suffix("")
    parts = [p for p in rel.parts if p != "__init__"]
    return ".".join(parts)


def imports_of(path: Path) -> set[str]:
    """The game's modules a file imports, at module level or inside a function (``""``: the package)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out: set[str] = set()
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.level:
                raise AssertionError(f"{path.name}: a relative import; name the module in full")
            names = [f"{node.module}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        for name in names:
            if name == PACKAGE or name.startswith(PACKAGE + "."):
                rest = name[len(PACKAGE) + 1:]
                while rest and rest not in ORDER:  # "engine.enc" -> "engine"; "GAME" (of the package) -> ""
                    rest = rest.rpartition(".")[0]
                out.add(rest)
    return out


def test_every_module_of_the_game_has_its_place():
    """The order names every module of the game once, so a new module must be placed."""
    modules = {_module(p) for p in GAME.rglob("*.py")}
    assert modules == set(ORDER)


@pytest.mark.parametrize("path", sorted(GAME.rglob("*.py")), ids=lambda p: str(p.relative_to(GAME)))
def test_a_module_imports_only_modules_below_it(path):
    """A module imports only modules earlier in ORDER (a package's __init__ may import its own modules)."""
    me = _module(path)
    rank = ORDER.index(me)
    above = sorted(m for m in imports_of(path) if ORDER.index(m) >= rank and not m.startswith(me + "."))
    assert not above, f"{me or PACKAGE} imports {above}, above it (or itself) in the game's order"


def test_the_import_reader_sees_upward_imports(tmp_path):
    """The reader finds a function-level import of a module above (what tables.py once did to reach the bots)."""
    probe = tmp_path / "probe.py"
    probe.write_text("def f():\n    from simkit.games.krypton.bots import read_bots\n"
                     "    import simkit.games.krypton.match\n    from simkit.games.krypton import GAME\n",
                     encoding="utf-8")
    assert imports_of(probe) == {"bots", "match", ""}


#: upper-case names that may index an array in the engine, the bots and the search: enumerations, not offsets
#: (a card id indexes a side's card counts, a tower effect the bots' tower counts, a damage source its card; the
#: event log's dice columns start past MAXDICE attack dice)
ENUMERATION_INDEXES = ("C_", "E_", "SRC_CARD", "MAXDICE")
COMPILED = ("engine.py", "bots.py", "fast_search/hooks.py", "fast_search/play.py")


@pytest.mark.parametrize("name", COMPILED)
def test_no_offset_constant_indexes_the_state(name):
    """No upper-case constant (``H_HP``, ``R_TEAM``, ``M_KEY``) appears in a subscript: fields are read by name."""
    tree = ast.parse((GAME / name).read_text(encoding="utf-8"))
    bad = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Subscript):
            for n in ast.walk(node.slice):
                if isinstance(n, ast.Name) and n.id.isupper() and len(n.id) > 1 \
                        and not n.id.startswith(ENUMERATION_INDEXES):
                    bad.add(f"{n.id} (line {node.lineno})")
            if isinstance(node.slice, ast.Attribute) and node.slice.attr.isupper():
                bad.add(f"{node.slice.attr} (line {node.lineno})")
    assert not bad, f"{name}: upper-case constants index arrays: {sorted(bad)}"
