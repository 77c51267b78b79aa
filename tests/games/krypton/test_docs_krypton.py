"""docs/krypton-changing-a-rule.md cannot silently drift: every path, ``file.function``, invariant and test it
names exists, every clause's rule is in the engine, every function of the engine is named, every section of the
rules page has a clause, every clause has a literal example in scenarios/krypton/examples.toml (and every example
names a listed clause), and the bots read none of the numbers of the rules they ask the engine about."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "krypton-changing-a-rule.md"
RULES_PAGE = ROOT.parent / "shared" / "rules" / "krypton-tower-war.md"
GAME = ROOT / "simkit" / "games" / "krypton"
EXAMPLES = ROOT / "scenarios" / "krypton" / "examples.toml"
#: clauses no position can show, and why (each still has its tests)
NO_EXAMPLE = {"10.hidden": "what a bot may read is not a position: the bots' and the search's blindness tests"}
TOP = ("simkit/", "tests/", "scripts/", "scenarios/", "docs/")

_INLINE = re.compile(r"`([^`\n]+)`")
_CLAUSE = re.compile(r"- \*\*(\d+)\.([a-z_]+)\*\*")


def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def bullets(text: str) -> list[str]:
    """The clause bullets of the page (``- **N.name** ...`` with their continuation lines), one string each."""
    out: list[str] = []
    open_bullet = False
    for line in text.splitlines():
        if _CLAUSE.match(line):
            out.append(line)
            open_bullet = True
        elif open_bullet and line.startswith("  "):
            out[-1] += " " + line.strip()
        else:
            open_bullet = False
    return out


def clause_id(bullet: str) -> str:
    m = _CLAUSE.match(bullet)
    return f"{m.group(1)}.{m.group(2)}"


def segment(bullet: str, label: str) -> str:
    """The text of a bullet after ``label:`` up to the next label (Data, Rule, Check, Tests) or the end."""
    m = re.search(rf"\b{label}: (.*?)(?=\b(?:Data|Rule|Check|Tests): |$)", bullet)
    return m.group(1) if m else ""


def file_of(name: str) -> Path:
    """The repository file of a page path (under simkit/games/krypton/ unless it starts at the top)."""
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
    """``(file, name)`` of a ``a/b.f`` or ``a.f`` reference to a Python name, else None."""
    if span.endswith((".py", ".toml", ".md", "/")) or " " in span or "::" in span:
        return None
    m = re.fullmatch(r"([\w/]+)\.([\w.]+)", span)
    if not m or not file_of(m.group(1) + ".py").is_file():
        return None
    return file_of(m.group(1) + ".py"), m.group(2)


def spans(text: str) -> list[str]:
    return _INLINE.findall(text)


def engine_functions() -> set[str]:
    tree = ast.parse((GAME / "engine.py").read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


def test_helpers_read_the_page_format():
    """The extractors split a bullet into its labelled parts and resolve paths and function references."""
    b = "- **3.enter** (x). Data: `[rules] a`. Rule: `engine.enterable`. Check: `hero_cells`. Tests: `test_x`."
    assert bullets(b + "\n  more `z`.\n\nprose") == [b + " more `z`."]
    assert clause_id(b) == "3.enter"
    assert spans(segment(b, "Rule")) == ["engine.enterable"] and spans(segment(b, "Check")) == ["hero_cells"]
    assert function_ref("engine.enterable") == (GAME / "engine.py", "enterable")
    assert function_ref("fast_search/hooks.determinize") == (GAME / "fast_search" / "hooks.py", "determinize")
    assert function_ref("engine.py") is None and function_ref("[rules] a") is None


def test_every_path_named_exists():
    """Every file or folder the page names exists (a rename must update the page)."""
    paths = {s.split("::")[0] for s in spans(page()) if re.fullmatch(r"[\w./-]+\.(py|toml|md)(::\w+)?|[\w/]+/", s)}
    paths = {p for p in paths if not p.startswith("../")}
    assert len(paths) >= 15
    missing = sorted(p for p in paths if not file_of(p).exists())
    assert not missing, f"docs/krypton-changing-a-rule.md names missing paths: {missing}"


def test_every_function_named_exists():
    """Every ``file.function`` the page names is defined in that file."""
    refs = [(s, r) for s in spans(page()) if (r := function_ref(s))]
    assert len(refs) >= 100
    missing = [s for s, (path, name) in refs if name not in defined(path)]
    assert not missing, f"docs/krypton-changing-a-rule.md names functions that do not exist: {missing}"


def test_every_test_named_exists():
    """Every `` `test_...` `` the page names is a test of tests/."""
    tests = {m.group(1) for path in (ROOT / "tests").rglob("test_*.py")
             for m in re.finditer(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M)}
    named = [s for s in spans(page()) if s.startswith("test_")]
    assert len(named) >= 60
    assert not [s for s in named if s not in tests], "unknown tests"


def test_every_clause_is_written_in_the_engine_and_checked_by_real_invariants():
    """A clause's ``Rule:`` names functions of engine.py only (its one home); its ``Check:`` names invariants of
    KryptonInvariants (its second home, restated from the page); its ``Tests:`` name at least one test."""
    from simkit.games.krypton.invariants import KryptonInvariants

    names = set(KryptonInvariants.names)
    clauses = bullets(page())
    assert len(clauses) >= 50
    bad = []
    for b in clauses:
        cid = clause_id(b)
        for s in spans(segment(b, "Rule")):
            ref = function_ref(s)
            if (ref is None or ref[0] != GAME / "engine.py") and not segment(b, "Rule").startswith("none"):
                bad.append(f"{cid}: Rule names {s!r}, not a function of engine.py")
        for s in spans(segment(b, "Check")):
            if s not in names:
                bad.append(f"{cid}: Check names {s!r}, no invariant of simkit check")
        if not any(s.startswith("test_") for s in spans(segment(b, "Tests"))):
            bad.append(f"{cid}: no test named")
    assert not bad, bad


def test_clause_ids_are_unique_and_every_section_of_the_rules_page_has_one():
    """Each clause id (section.name) is named once, and every numbered section of the rules page that holds rules
    (1 to 14: sides, map, terrain, heroes, buildings, energy, judgment, towers, movement, cards, turns, death,
    end, loadouts) has at least one clause here."""
    ids = [clause_id(b) for b in bullets(page())]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    covered = {int(i.split(".")[0]) for i in ids}
    assert covered == set(range(1, 15))
    if not RULES_PAGE.exists():
        pytest.skip(f"the rules page {RULES_PAGE} lies outside this clone; the sections 1-14 above are its rules")
    sections = [int(m.group(1)) for m in re.finditer(r"^## (\d+)\. ", RULES_PAGE.read_text(encoding="utf-8"), re.M)]
    assert sections == list(range(16))  # 0 (what the manual gives) and 15 (what is missing) hold no rule


def test_every_function_of_the_engine_is_named():
    """A reader finds every function of engine.py here: each is a rule of a clause or named as plumbing."""
    named = {name for s in spans(page()) if (r := function_ref(s)) and r[0] == GAME / "engine.py" for name in [r[1]]}
    assert sorted(engine_functions() - named) == []


@pytest.mark.parametrize("word", ["rules.building_range", "rules.building_attack", "T_BASE", "TK_BASE",
                                  "rules.knight_plus", "rules.knight_minus", "rules.vein_yield", "rules.prayer_tier",
                                  "rules.spawn_point"])
def test_the_bots_read_no_number_of_a_rule_they_ask_the_engine_about(word):
    """bots.py never reads the numbers of the rules it predicts with the engine's predicates (tower and base hits,
    the cells a hero may enter, the Knight's points, a gather, the Prayer Tower's tier, where a tower may
    stand): each of those rules has its one home in engine.py."""
    assert word not in (GAME / "bots.py").read_text(encoding="utf-8")


def test_the_page_is_linked_from_the_games_doc_the_readme_and_the_site():
    """docs/krypton.md and the README's games table point to the page, and the site's navigation lists it."""
    assert "docs/krypton-changing-a-rule.md" in (ROOT / "docs" / "krypton.md").read_text(encoding="utf-8")
    assert "(docs/krypton-changing-a-rule.md)" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "krypton-changing-a-rule.md" in (ROOT / "mkdocs.yml").read_text(encoding="utf-8")


def test_every_clause_has_a_literal_example_and_every_example_a_clause():
    """Each clause of the page has at least one example in examples.toml whose ``clause`` starts with its id (but
    the one of NO_EXAMPLE, which no position can show), and every example's clause starts with a listed id."""
    ids = {clause_id(b) for b in bullets(page())}
    examples = tomllib.loads(EXAMPLES.read_text(encoding="utf-8"))["example"]
    named = {e["clause"].split(":")[0] for e in examples}
    assert sorted(ids - named - set(NO_EXAMPLE)) == [], "clauses without a literal example"
    assert sorted(named - ids) == [], "examples naming no clause of the page"
    assert set(NO_EXAMPLE) <= ids and not set(NO_EXAMPLE) & named
    assert all(re.match(r"\d+\.[a-z_]+: \S", e["clause"]) for e in examples)
