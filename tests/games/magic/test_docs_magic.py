"""docs/magic-changing-a-rule.md cannot silently drift: every clause of the rules page it lists has a literal
example in scenarios/magic/examples.toml (and every example names a listed clause), each rule's code is in its
one home (engine.py, or armies.py for the armies read at load), its second home is a real check of
`simkit check`, and every path, function and test it names exists."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "magic-changing-a-rule.md"
GAME = ROOT / "simkit" / "games" / "magic"
EXAMPLES = ROOT / "scenarios" / "magic" / "examples.toml"
TOP = ("simkit/", "tests/", "scripts/", "scenarios/", "docs/")
RULE_HOMES = ("engine.py", "armies.py")
LABELS = ("Data", "Rule", "Check", "Tests", "Example")
_INLINE = re.compile(r"`([^`\n]+)`")


def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def clauses(text: str) -> dict[str, str]:
    """Clause id -> its bullet (``- **id** ...`` with its continuation lines, as one string)."""
    out: dict[str, str] = {}
    last = None
    for line in text.splitlines():
        m = re.match(r"- \*\*([\w.-]+)\*\* ", line)
        if m:
            last = m.group(1)
            out[last] = line
        elif last and line.startswith("  "):
            out[last] += " " + line.strip()
        else:
            last = None
    return out


def segment(bullet: str, label: str) -> str:
    """The text of a bullet after ``label:`` up to the next label or its end."""
    others = "|".join(LABELS)
    m = re.search(rf"\b{label}: (.*?)(?=\b(?:{others}): |$)", bullet)
    return m.group(1).strip() if m else ""


def file_of(name: str) -> Path:
    return ROOT / name if name.startswith(TOP) else GAME / name


def defined(path: Path) -> set[str]:
    """Top-level names of a Python file, and ``Class.method`` for its classes' methods."""
    names = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
            if isinstance(node, ast.ClassDef):
                names.update(f"{node.name}.{n.name}" for n in node.body if isinstance(n, ast.FunctionDef))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def function_ref(span: str) -> tuple[Path, str] | None:
    """``(file, name)`` of an ``a.f`` or ``a.C.f`` reference to a name of the game's module ``a``, else None."""
    m = re.fullmatch(r"(\w+)\.([\w.]+)", span)
    if span.endswith((".py", ".toml", ".md")) or not m or not (GAME / f"{m.group(1)}.py").is_file():
        return None
    return GAME / f"{m.group(1)}.py", m.group(2)


def examples() -> list[dict]:
    return tomllib.loads(EXAMPLES.read_text(encoding="utf-8"))["example"]


def invariant_names() -> set[str]:
    from simkit.games.magic.invariants import NAMES

    return set(NAMES)


def test_the_page_lists_the_clauses_of_every_section():
    """The page lists the clauses of the rules page section by section, and the rulings S1-S6."""
    ids = clauses(page())
    assert len(ids) >= 60
    for prefix in ("1-", "2-", "3.3-", "4-", "5.1-", "5.2-", "5.4-", "5.5-", "6.1-", "6.2-", "6.3-", "7.1-", "7.2-",
                   "7.3-", "8.1-", "8.2-", "9-", "B.1-", *(f"S{k}-" for k in range(1, 7))):
        assert any(i.startswith(prefix) for i in ids), prefix


def test_every_clause_has_a_literal_example_and_every_example_a_clause():
    """Each clause's ``Example:`` names examples of examples.toml whose clause starts with its id (or says none,
    and why); each example's clause starts with a listed id."""
    ids = clauses(page())
    by_name = {e["name"]: e for e in examples()}
    bad = []
    for cid, bullet in ids.items():
        said = segment(bullet, "Example")
        if said.startswith("none ("):
            continue
        names = re.findall(r'"([^"]+)"', said)
        if not names:
            bad.append(f"{cid}: no example named")
        for name in names:
            if name not in by_name:
                bad.append(f"{cid}: no example {name!r} in examples.toml")
        if not any(e["clause"].startswith(f"{cid}:") for e in by_name.values()):
            bad.append(f"{cid}: no example of examples.toml has clause {cid!r}")
    for e in by_name.values():
        cid = e["clause"].split(":")[0]
        if cid not in ids:
            bad.append(f"example {e['name']!r}: clause id {cid!r} is not listed on the page")
    assert not bad, bad
    assert sum(1 for b in ids.values() if segment(b, "Example").startswith("none (")) <= 1


def test_every_rule_lives_in_its_one_home_and_every_check_is_real():
    """``Rule:`` names functions of engine.py (armies.py for the armies read at load); ``Check:`` names invariants
    of `simkit check` or the page's own restatement (transitions.MagicPage)."""
    names = invariant_names()
    bad = []
    for cid, bullet in clauses(page()).items():
        rules = _INLINE.findall(segment(bullet, "Rule"))
        if not rules:
            bad.append(f"{cid}: no rule named")
        for s in rules:
            ref = function_ref(s)
            if ref is None or ref[0].name not in RULE_HOMES or ref[1] not in defined(ref[0]):
                bad.append(f"{cid}: Rule names {s!r}, not a function of engine.py or armies.py")
        checks = _INLINE.findall(segment(bullet, "Check"))
        if not checks and "contract" not in segment(bullet, "Check"):
            bad.append(f"{cid}: no check named")
        for s in checks:
            ref = function_ref(s)
            ok = s in names or (ref is not None and ref[0].name == "transitions.py" and ref[1] in defined(ref[0])) \
                or (s.endswith(".py") and file_of(s).exists())
            if not ok:
                bad.append(f"{cid}: Check names {s!r}, no invariant of simkit check nor a page restatement")
    assert not bad, bad


def test_every_path_function_and_test_named_exists():
    """Every path, ``module.function`` and test the page names exists (a rename must update the page)."""
    text = page()
    spans = _INLINE.findall(text)
    missing = [s for s in spans if re.fullmatch(r"[\w./-]+\.(py|toml|md)", s) and not s.startswith("../")
               and not file_of(s).exists()]
    refs = [(s, r) for s in spans if (r := function_ref(s))]
    missing += [s for s, (path, name) in refs if name not in defined(path)]
    tests = {m.group(1) for path in (ROOT / "tests").rglob("test_*.py")
             for m in re.finditer(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M)}
    missing += [s for s in spans if re.fullmatch(r"test_\w+", s) and s not in tests]
    assert len(refs) >= 60 and sum(bool(re.fullmatch(r"test_\w+", s)) for s in spans) >= 25
    assert not missing, missing


def test_the_page_is_linked_from_the_game_page():
    """docs/magic.md points to the page."""
    assert "docs/magic-changing-a-rule.md" in (ROOT / "docs" / "magic.md").read_text(encoding="utf-8")
