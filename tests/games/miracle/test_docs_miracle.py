"""docs/miracle-changing-a-rule.md cannot silently drift: every clause of the rules page it lists has a literal
example in scenarios/miracle/examples.toml (and every example names a listed clause), every path,
``file.function``, invariant, planted bug, clause counter and test it names exists, and every rule's code is in
the one rules source (``fast/step.py``, ``fast/legal.py``)."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
PAGE = ROOT / "docs" / "miracle-changing-a-rule.md"
EXAMPLES = ROOT / "scenarios" / "miracle" / "examples.toml"
GAME = ROOT / "simkit" / "games" / "miracle"
TOP = ("simkit/", "tests/", "scripts/", "scenarios/", "docs/", "lab/")
RULE_SOURCE = ("fast/step.py", "fast/legal.py")

_INLINE = re.compile(r"`([^`\n]+)`")


def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def bullets(text: str) -> list[str]:
    """The rule bullets of the page (``- **name** ...`` with their continuation lines), one string each."""
    out: list[str] = []
    for line in text.splitlines():
        if line.startswith("- **"):
            out.append(line)
        elif out and line.startswith("  ") and out[-1] is not None:
            out[-1] += " " + line.strip()
        elif out and not line.startswith("  "):
            out.append(None)
    return [b for b in out if b]


def segment(bullet: str, label: str) -> str:
    """The text of a bullet after ``label:`` up to the next label (Data, Rule, Check, Tests) or the end
    of its sentence."""
    m = re.search(rf"\b{label}: (.*?)(?=\b(?:Data|Rule|Check|Tests|Example): |\. [A-Z]|$)", bullet)
    return m.group(1) if m else ""


def clauses(text: str) -> dict[str, str]:
    """Clause id -> its bullet (``- **id** ...`` with its continuation lines, as one string)."""
    return {re.match(r"- \*\*([\w.-]+)\*\*", b).group(1): b for b in bullets(text)}


def example_part(bullet: str) -> str:
    """What a clause's bullet says after ``Example:`` (the example names, or ``none (why)``)."""
    m = re.search(r"\bExample: (.*)$", bullet)
    return m.group(1).strip() if m else ""


def examples() -> list[dict]:
    return tomllib.loads(EXAMPLES.read_text(encoding="utf-8"))["example"]


def file_of(name: str) -> Path:
    """The repository file of a page path (under simkit/games/miracle/ unless it starts at the top)."""
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


def all_invariant_names() -> set[str]:
    from simkit.games.miracle.checking.checker import GAME_CHECKS
    from simkit.games.miracle.checking.hooks import COMPILED_CHECKS
    from simkit.games.miracle.checking.invariants import STATE_INVARIANTS, TRANSITION_INVARIANTS
    from simkit.games.miracle.checking.rule_invariants import STATE_INVARIANTS as GAME_STATE
    from simkit.games.miracle.checking.rule_invariants import TRANSITION_INVARIANTS as GAME_TRANSITION

    invariants = [*STATE_INVARIANTS, *TRANSITION_INVARIANTS, *GAME_STATE, *GAME_TRANSITION]
    return {i.name for i in invariants} | set(GAME_CHECKS) | set(COMPILED_CHECKS)


def test_helpers_read_the_page_format():
    """The extractors split a bullet into its labelled parts and resolve paths and function references."""
    b = "- **X** (y). Data: `[rules] a`. Rule: `fast/step.heal`. Check: `units_alive_hp`. Tests: `tests/test_x.py`."
    assert bullets(b + "\n  more `z`.\n\nprose") == [b + " more `z`."]
    assert spans(segment(b, "Rule")) == ["fast/step.heal"] and spans(segment(b, "Check")) == ["units_alive_hp"]
    assert function_ref("fast/step.heal") == (GAME / "fast" / "step.py", "heal")
    assert function_ref("match.Match._check_attack") == (GAME / "match.py", "Match._check_attack")
    assert function_ref("fast/step.py") is None and function_ref("[rules] a") is None


def test_the_page_lists_the_clauses_of_every_section():
    """Every rule bullet is a clause with an id of its rules page section (1- to 5-), the sections all there."""
    ids = clauses(page())
    assert len(ids) >= 45 and len(ids) == len(bullets(page()))
    for prefix in ("1-", "2-", "3-", "4-", "5-"):
        assert sum(i.startswith(prefix) for i in ids) >= 5, prefix
    assert all(re.fullmatch(r"[1-5]-[a-z-]+", i) for i in ids), sorted(ids)


def test_every_clause_has_a_literal_example_and_every_example_a_clause():
    """Each clause's ``Example:`` names examples of scenarios/miracle/examples.toml whose clause starts with its id
    (or says ``none (why)``: a clause that is no position, at most two); each example's clause starts with a
    listed id."""
    ids = clauses(page())
    by_name = {e["name"]: e for e in examples()}
    bad, none = [], []
    for cid, bullet in ids.items():
        said = example_part(bullet)
        if said.startswith("none ("):
            none.append(cid)
            continue
        names = re.findall(r'"([^"]+)"', said)
        if not names:
            bad.append(f"{cid}: no example named")
        for name in names:
            if name not in by_name:
                bad.append(f"{cid}: no example {name!r} in examples.toml")
            elif not by_name[name]["clause"].startswith(f"{cid}:"):
                bad.append(f"{cid}: example {name!r} is of clause {by_name[name]['clause'].split(':')[0]!r}")
        if not any(e["clause"].startswith(f"{cid}:") for e in by_name.values()):
            bad.append(f"{cid}: no example of examples.toml has clause {cid!r}")
    for e in by_name.values():
        cid = e["clause"].split(":")[0]
        if cid not in ids:
            bad.append(f"example {e['name']!r}: clause id {cid!r} is not listed on the page")
    assert not bad, bad
    assert len(none) <= 2, none


@pytest.mark.parametrize("patch", ["priest-patch", "planted-strong-priest", "quick"])
def test_the_examples_hold_on_every_scenario_of_the_folder(patch):
    """`simkit check` runs the folder's examples on a patch too: an example whose numbers a patch changes pins them
    (its own ``scenario``), so a balance patch such as the README's priest patch is not called a broken rule."""
    import simkit
    from simkit.testing.examples import run_examples

    sc = simkit.load_scenario(ROOT / "scenarios" / "miracle" / f"{patch}.toml")
    count, failure = run_examples(sc)
    assert count == len(examples()) and failure is None, failure and failure.format()


def test_every_clause_that_happens_names_its_rule_and_its_check():
    """A clause with an example names its rule (``Rule:``, or ``Data:`` for a number read at load) and its
    second home (``Check:``)."""
    bad = []
    for cid, bullet in clauses(page()).items():
        if example_part(bullet).startswith("none ("):
            continue
        if not spans(segment(bullet, "Rule")) and not spans(segment(bullet, "Data")):
            bad.append(f"{cid}: no rule")
        if not spans(segment(bullet, "Check")):
            bad.append(f"{cid}: no check")
    assert not bad, bad


def test_every_path_named_exists():
    """Every file or folder the page names exists (a rename must update the page)."""
    paths = {s.split("::")[0] for s in spans(page()) if re.fullmatch(r"[\w./-]+\.(py|toml|md)(::\w+)?|[\w/]+/", s)}
    paths = {p for p in paths if not p.startswith("../")}
    assert len(paths) >= 30
    missing = sorted(p for p in paths if not file_of(p).exists())
    assert not missing, f"docs/miracle-changing-a-rule.md names missing paths: {missing}"


def test_every_function_named_exists():
    """Every ``file.function`` the page names is defined in that file."""
    refs = [(s, r) for s in spans(page()) if (r := function_ref(s))]
    assert len(refs) >= 60
    missing = [s for s, (path, name) in refs if name not in defined(path)]
    assert not missing, f"docs/miracle-changing-a-rule.md names functions that do not exist: {missing}"


def test_every_test_named_exists():
    """Every ``tests/x.py::name`` is defined there; every `` `test_...` `` (a ``*`` is a prefix) in tests/."""
    text = page()
    tests = {m.group(1) for path in (ROOT / "tests").rglob("test_*.py")
             for m in re.finditer(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M)}
    bad = []
    for s in spans(text):
        if "::" in s:
            path, name = s.split("::")
            if name not in defined(ROOT / path):
                bad.append(s)
        elif re.fullmatch(r"test_\w+\*?", s):
            if not (s[:-1] and any(t.startswith(s[:-1]) for t in tests) if s.endswith("*") else s in tests):
                bad.append(s)
    named = [s for s in spans(text) if s.startswith("test_")]
    assert len(named) >= 25
    assert not bad, f"unknown tests: {bad}"


def test_every_rule_is_written_in_the_rules_source_and_checked_by_real_invariants():
    """Each rule bullet's ``Rule:`` part names functions of fast/step.py or fast/legal.py only (its one home);
    its ``Check:`` part names registered invariants (its second home) or their helpers in checking/."""
    names = all_invariant_names()
    rules = bullets(page())
    assert len(rules) >= 25
    bad = []
    for b in rules:
        title = re.match(r"- \*\*(.*?)\*\*", b).group(1)
        for s in spans(segment(b, "Rule")):
            ref = function_ref(s)
            if ref is None or not any(ref[0] == file_of(f) for f in RULE_SOURCE):
                bad.append(f"{title}: Rule names {s!r}, not a function of the rules source")
        for s in spans(segment(b, "Check")):
            if s not in names and not (s.startswith("checking/") and function_ref(s)):
                bad.append(f"{title}: Check names {s!r}, no invariant or check of simkit check")
    with_rule = [b for b in rules if segment(b, "Rule")]
    assert len(with_rule) >= 20
    assert not bad, bad


def test_planted_bugs_and_clause_counters_named_exist():
    """``planted `x``` names a bug of tests/testing/test_planted_bugs.py; ``counter `x``` a clause counter of
    tests/games/miracle/test_fast_step.py."""
    import test_fast_step
    import test_planted_bugs

    text = page()
    planted = [n for group in re.findall(r"planted\s+((?:`\w+`(?:,\s+)?)+)", text) for n in spans(group)]
    counters = [n for group in re.findall(r"counters?\s+((?:`[\w -]+`(?:\s+and\s+)?)+)", text) for n in spans(group)]
    assert len(planted) >= 10 and len(counters) >= 4
    assert set(planted) <= set(test_planted_bugs.PLANTED), set(planted) - set(test_planted_bugs.PLANTED)
    assert set(counters) <= set(test_fast_step.EXPECTED), set(counters) - set(test_fast_step.EXPECTED)


@pytest.mark.parametrize("gone", ["bots_score", "reach.py", "rules._", "FastStep", "numpy twin"])
def test_the_page_names_no_removed_home(gone):
    """The numpy engine, the numpy bots and the compiled twin are gone: the page does not send anyone there."""
    assert gone not in page()


def test_the_page_is_linked_from_the_readme():
    """The README points to the page."""
    assert "docs/miracle-changing-a-rule.md" in (ROOT / "README.md").read_text(encoding="utf-8")
