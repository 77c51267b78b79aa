"""docs/duel-changing-a-rule.md cannot silently drift: every clause of the rules page it lists has a literal
example in scenarios/duel/examples.toml (and every example names a listed clause), every path, ``file.function``,
invariant, planted bug and test it names exists, and every rule's code is in the one rules source
(``engine.py``)."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "duel-changing-a-rule.md"
GAME = ROOT / "simkit" / "games" / "duel"
TOP = ("simkit/", "tests/", "scripts/", "scenarios/", "docs/", "lab/")
EXAMPLES = ROOT / "scenarios" / "duel" / "examples.toml"
RULE_SOURCE = "engine.py"
LABELS = ("Data", "Rule", "Check", "Tests", "Example")
#: the rules page's sections, each with at least one clause on the page
SECTIONS = ("1-", "2-", "3-", "4-", "5.1-", "5.2-", "5.3-", "5.4-", "5.5-", "5.6-", "5.7-", "5-", "6-", "7-", "7.1-",
            "7.2-", "8-", "9-", "10-", "11-", "12-")

_INLINE = re.compile(r"`([^`\n]+)`")


def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def bullets(text: str) -> list[str]:
    """The rule bullets of the page (``- **name** ...`` with their continuation lines), one string each."""
    out: list[str | None] = []
    for line in text.splitlines():
        if line.startswith("- **"):
            out.append(line)
        elif out and line.startswith("  ") and out[-1] is not None:
            out[-1] += " " + line.strip()
        elif out and not line.startswith("  "):
            out.append(None)
    return [b for b in out if b]


def segment(bullet: str, label: str) -> str:
    """The text of a bullet after ``label:`` up to the next label (Data, Rule, Check, Tests, Example) or the end of
    its sentence (the ``Example:`` part runs to the bullet's end)."""
    end = "$" if label == "Example" else r"\. [A-Z]|$"
    m = re.search(rf"\b{label}: (.*?)(?=\b(?:{'|'.join(LABELS)}): |{end})", bullet)
    return m.group(1) if m else ""


def clauses(text: str) -> dict[str, str]:
    """Clause id -> its bullet (``- **id** (...) ...`` with its continuation lines, as one string)."""
    return {m.group(1): b for b in bullets(text) if (m := re.match(r"- \*\*([\w.-]+)\*\* \(", b))}


def examples() -> list[dict]:
    return tomllib.loads(EXAMPLES.read_text(encoding="utf-8"))["example"]


def example_ids(example: dict) -> list[str]:
    """The clause ids an example exemplifies: each ``id:`` opening a ``;``-separated part of its ``clause``."""
    return [m.group(1) for part in example["clause"].split(";") if (m := re.match(r"\s*([\w.-]+-[\w.-]+):", part))]


def file_of(name: str) -> Path:
    """The repository file of a page path (under simkit/games/duel/ unless it starts at the top)."""
    return ROOT / name if name.startswith(TOP) else GAME / name


def defined(path: Path) -> set[str]:
    """Top-level names of a Python file, and ``Class.method`` for its classes' methods."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
            if isinstance(node, ast.ClassDef):
                names.update(f"{node.name}.{n.name}" for n in node.body if isinstance(n, ast.FunctionDef))
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def function_ref(span: str) -> tuple[Path, str] | None:
    """``(file, name)`` of an ``a.f`` or ``a.C.f`` reference to a Python name of the game, else None."""
    if span.endswith((".py", ".toml", ".md", "/")) or " " in span:
        return None
    m = re.fullmatch(r"([\w/]+)\.([\w.]+)", span)
    if not m or not file_of(m.group(1) + ".py").is_file():
        return None
    return file_of(m.group(1) + ".py"), m.group(2)


def spans(text: str) -> list[str]:
    return _INLINE.findall(text)


def invariant_names() -> set[str]:
    from simkit.games.duel.invariants import DuelInvariants

    return set(DuelInvariants.names)


def test_helpers_read_the_page_format():
    """The extractors split a bullet into its labelled parts and resolve paths and function references."""
    b = "- **X.** Data: `[rules] a`. Rule: `engine.deal`. Check: `hp_bounds`. Tests: `test_x`."
    assert bullets(b + "\n  more `z`.\n\nprose") == [b + " more `z`."]
    assert spans(segment(b, "Rule")) == ["engine.deal"] and spans(segment(b, "Check")) == ["hp_bounds"]
    assert function_ref("engine.deal") == (GAME / "engine.py", "deal")
    assert function_ref("transitions.DuelPage.hit") == (GAME / "transitions.py", "DuelPage.hit")
    assert function_ref("engine.py") is None and function_ref("[rules] a") is None


def test_the_page_lists_the_clauses_of_every_section():
    """Every bullet of the page is a clause with an id, and every section of the rules page has clauses."""
    ids = clauses(page())
    assert len(ids) == len(bullets(page())) and len(ids) >= 55
    for prefix in SECTIONS:
        assert any(i.startswith(prefix) and not i[len(prefix):][:1].isdigit() for i in ids), prefix


def test_every_clause_has_a_literal_example_and_every_example_a_clause():
    """Each clause's ``Example:`` names examples of examples.toml that carry its id (or says none, and why); each
    example's clause opens with a listed id, and every id it names is listed."""
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
            elif cid not in example_ids(by_name[name]):
                bad.append(f"{cid}: example {name!r} does not name the clause")
        if not any(cid in example_ids(e) for e in by_name.values()):
            bad.append(f"{cid}: no example of examples.toml has clause {cid!r}")
    for e in by_name.values():
        found = example_ids(e)
        if not found or not e["clause"].startswith(f"{found[0]}:"):
            bad.append(f"example {e['name']!r}: its clause does not open with a clause id")
        bad += [f"example {e['name']!r}: clause id {cid!r} is not listed on the page"
                for cid in found if cid not in ids]
    assert not bad, bad
    assert sum(1 for b in ids.values() if segment(b, "Example").startswith("none (")) <= 2


def test_every_path_named_exists():
    """Every file or folder the page names exists (a rename must update the page)."""
    paths = {s for s in spans(page()) if re.fullmatch(r"[\w./-]+\.(py|toml|md)|[\w/]+/", s)}
    paths = {p for p in paths if not p.startswith("../")}
    assert len(paths) >= 15
    missing = sorted(p for p in paths if not file_of(p).exists())
    assert not missing, f"docs/duel-changing-a-rule.md names missing paths: {missing}"


def test_every_function_named_exists():
    """Every ``file.function`` the page names is defined in that file."""
    refs = [(s, r) for s in spans(page()) if (r := function_ref(s))]
    assert len(refs) >= 40
    missing = [s for s, (path, name) in refs if name not in defined(path)]
    assert not missing, f"docs/duel-changing-a-rule.md names functions that do not exist: {missing}"


def test_every_test_named_exists():
    """Every `` `test_...` `` the page names is a test of tests/."""
    tests = {m.group(1) for path in (ROOT / "tests").rglob("test_*.py")
             for m in re.finditer(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M)}
    named = [s for s in spans(page()) if re.fullmatch(r"test_\w+", s)]
    assert len(named) >= 40
    bad = [s for s in named if s not in tests]
    assert not bad, f"unknown tests: {bad}"


def test_every_rule_is_written_in_the_engine_and_checked_by_a_real_invariant():
    """Each rule bullet's ``Rule:`` part names functions of engine.py only (its one home); its ``Check:`` part
    names invariants simkit check runs (its second home) or their helpers in transitions.py."""
    names = invariant_names()
    rules = bullets(page())
    assert len(rules) >= 30
    bad = []
    for b in rules:
        title = re.match(r"- \*\*(.*?)\*\*", b).group(1)
        for s in spans(segment(b, "Rule")):
            ref = function_ref(s)
            if ref is None or ref[0] != GAME / RULE_SOURCE:
                bad.append(f"{title}: Rule names {s!r}, not a function of engine.py")
        for s in spans(segment(b, "Check")):
            ref = function_ref(s)
            if s not in names and not (ref and ref[0] == GAME / "transitions.py"):
                bad.append(f"{title}: Check names {s!r}, no invariant of simkit check")
    assert len([b for b in rules if segment(b, "Rule")]) >= 28
    assert not bad, bad


def test_every_engine_rule_function_has_a_line_on_the_page():
    """Every public function of engine.py but the stream's and the bookkeeping's is named on the page: a new
    rule function cannot hide from it."""
    named = {s.split(".", 1)[1] for s in spans(page()) if s.startswith("engine.")}
    tree = ast.parse((GAME / RULE_SOURCE).read_text(encoding="utf-8"))
    public = {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}
    bookkeeping = {"below", "credit", "push", "offer", "run_one", "write_tally"}
    missing = sorted(public - bookkeeping - named)
    assert not missing, f"engine.py functions the page does not name: {missing}"


def test_planted_bugs_named_exist():
    """``planted `x``` names a Duel bug of tests/testing/test_planted_bugs.py."""
    import test_planted_bugs

    planted = [n for group in re.findall(r"planted\s+((?:`\w+`(?:,\s+)?)+)", page()) for n in spans(group)]
    assert len(planted) >= 8
    assert set(planted) <= set(test_planted_bugs.DUEL_PLANTED), set(planted) - set(test_planted_bugs.DUEL_PLANTED)


def test_the_page_is_linked_from_the_readme_and_the_engine():
    """The README and the engine's docstring point to the page."""
    assert "docs/duel-changing-a-rule.md" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "docs/duel-changing-a-rule.md" in (GAME / RULE_SOURCE).read_text(encoding="utf-8")
