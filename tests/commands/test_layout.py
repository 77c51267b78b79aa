"""The layout drawing of docs/layout.md is the tree: every folder and module it names exists, and every one the
package holds is named, so a newcomer reading it finds each room where the drawing says."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def drawing() -> list[tuple[int, str]]:
    """``(indent, name)`` of every entry of the page's layout block (continuation lines skipped)."""
    text = (ROOT / "docs" / "layout.md").read_text(encoding="utf-8")
    block = text[text.index("# Layout"):]
    block = block[block.index("```") + 3:]
    block = block[block.index("\n") + 1:block.index("```")]
    out = []
    for line in block.splitlines():
        m = re.match(r"( *)(\S+)", line)
        if m and re.fullmatch(r"[\w.]+/?", m.group(2)) and (m.group(2).endswith("/") or m.group(2).endswith(".py")):
            out.append((len(m.group(1)), m.group(2)))
    return out


def drawn_paths() -> set[str]:
    """The repository paths the drawing names, built from its indentation (two spaces a level)."""
    stack: list[str] = []
    paths = set()
    for indent, name in drawing():
        stack = stack[: indent // 2]
        path = "".join(stack) + name
        paths.add(path.rstrip("/"))
        if name.endswith("/"):
            stack.append(name)
    return paths


def test_every_drawn_path_exists():
    """Every folder and module the drawing names is in the tree."""
    missing = sorted(p for p in drawn_paths() if not (ROOT / p).exists())
    assert not missing, f"docs/layout.md names paths that do not exist: {missing}"


def test_every_room_of_the_package_is_drawn():
    """Every module and folder at the package's top and every folder of simkit/games/ is in the drawing."""
    drawn = drawn_paths()
    rooms = [p for p in (ROOT / "simkit").iterdir()
             if not p.name.startswith("__") and (p.is_dir() or p.suffix == ".py")]
    rooms += [p for p in (ROOT / "simkit" / "games").iterdir() if p.is_dir() and not p.name.startswith("__")]
    missing = sorted(str(p.relative_to(ROOT)) for p in rooms if str(p.relative_to(ROOT)) not in drawn)
    assert not missing, f"docs/layout.md does not draw: {missing}"


def test_the_drawing_is_read_as_a_tree():
    """The reader nests entries by their indentation (so the two tests above test what they claim)."""
    drawn = drawn_paths()
    assert {"simkit/games/kits", "simkit/sweep", "simkit/tune", "scenarios", "tests"} <= drawn
