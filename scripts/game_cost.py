"""What a game costs: files and non-blank lines of each game's package, scenario folder and tests.

    python scripts/game_cost.py                 # the template and the Duel (the default)
    python scripts/game_cost.py _template duel miracle krypton --files

For each game it counts ``simkit/games/<name>/`` (every ``.py`` file, sub-folders included),
``scenarios/<name>/`` (``.toml``) and the game's tests (``tests/**/test_<stem>_*.py`` and
``tests/<stem>_*.py``, where ``<stem>`` is the name without its leading ``_``). "lines" are non-blank
lines; "code" leaves out comment lines and docstrings too. ``--files`` adds one row per file of each
package. A new game adds these files and nothing else: the generic layers are not edited.
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def count(path: Path) -> tuple[int, int]:
    """``(non-blank lines, code lines)`` of one file; code lines leave out comments and, in Python, docstrings."""
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    doc: set[int] = set()
    if path.suffix == ".py":
        for node in ast.walk(ast.parse(text)):
            body = getattr(node, "body", None)
            if isinstance(body, list) and body and isinstance(body[0], ast.Expr) \
                    and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
                doc.update(range(body[0].lineno, body[0].end_lineno + 1))
    blank = [not line.strip() for line in lines]
    nonblank = sum(1 for b in blank if not b)
    code = sum(1 for i, line in enumerate(lines, 1)
               if not blank[i - 1] and i not in doc and not line.strip().startswith("#"))
    return nonblank, code


def parts(name: str) -> dict[str, list[Path]]:
    """The files of game ``name`` by part: package, scenarios, tests."""
    stem = name.lstrip("_")
    tests = sorted({*ROOT.glob(f"tests/**/test_{stem}_*.py"), *ROOT.glob(f"tests/{stem}_*.py")})
    return {
        "package": sorted((ROOT / "simkit" / "games" / name).rglob("*.py")),
        "scenarios": sorted((ROOT / "scenarios" / name).rglob("*.toml")),
        "tests": tests,
    }


def table(names: list[str], files: bool = False) -> list[str]:
    """The rows to print: per game and part, files, lines and code lines (and per file with ``files``)."""
    rows = [f"{'game':<10} {'part':<10} {'files':>5} {'lines':>6} {'code':>6}"]
    for name in names:
        total = [0, 0, 0]
        for part, paths in parts(name).items():
            counts = [count(p) for p in paths]
            lines, code = sum(c[0] for c in counts), sum(c[1] for c in counts)
            rows.append(f"{name:<10} {part:<10} {len(paths):>5} {lines:>6} {code:>6}")
            total = [total[0] + len(paths), total[1] + lines, total[2] + code]
            if files and part == "package":
                for p, (n, c) in zip(paths, counts):
                    rows.append(f"{'':<10}   {str(p.relative_to(ROOT / 'simkit' / 'games' / name)):<22} {n:>6} {c:>6}")
        rows.append(f"{name:<10} {'total':<10} {total[0]:>5} {total[1]:>6} {total[2]:>6}")
    return rows


def main(argv: list[str] | None = None) -> int:
    """Print the table."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games", nargs="*", default=["_template", "duel"], help="game folders (default: _template duel)")
    p.add_argument("--files", action="store_true", help="one row per file of each package")
    args = p.parse_args(argv)
    for name in args.games:
        if not (ROOT / "simkit" / "games" / name / "game.py").is_file():
            p.error(f"{name}: no simkit/games/{name}/game.py")
    print("\n".join(table(args.games, args.files)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
