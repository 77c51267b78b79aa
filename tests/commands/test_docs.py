"""docs/adding-a-game.md cannot silently drift: every repository path it names exists, and every
``simkit`` command it shows parses with the real command line."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from simkit.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "adding-a-game.md"

#: a path inside the repository (generated folders results/ and reports/ are not checked)
_PATH = re.compile(r"(?:simkit|scenarios|tests|docs|scripts|lab)/[\w./-]*")
_INLINE = re.compile(r"`([^`\n]+)`")


def _fences(text: str) -> list[tuple[str, list[str]]]:
    """``(language, lines)`` of every fenced block of ``text``."""
    out, lang, lines = [], None, []
    for line in text.splitlines():
        if line.lstrip().startswith("```"):
            if lang is None:
                lang, lines = line.strip()[3:].strip(), []
            else:
                out.append((lang, lines))
                lang = None
        elif lang is not None:
            lines.append(line)
    return out


def _prose(text: str) -> str:
    """``text`` without its fenced blocks."""
    return re.sub(r"```.*?```", "", text, flags=re.S)


def named_paths(text: str) -> set[str]:
    """Repository paths named in inline code, in code comments of the layout block and as command
    arguments (paths with a ``<placeholder>`` are patterns, not files)."""
    words = [w for span in _INLINE.findall(_prose(text)) for w in span.split()]
    for lang, lines in _fences(text):
        if lang in ("python", ""):
            words += [w for line in lines if not line.lstrip().startswith("simkit ") for w in line.split()]
    words += [w for command in commands(text) for w in command]
    for lang, lines in _fences(text):  # a layout block: "folder/" then indented "file.py  what it holds"
        folder = None
        for line in lines if lang == "" else ():
            first = line.split()[0] if line.split() else ""
            if not line.startswith(" ") and _PATH.fullmatch(first) and first.endswith("/"):
                folder = first
            elif folder and line.startswith("  ") and re.fullmatch(r"[\w.-]+\.(py|toml|md)", first):
                words.append(folder + first)
    found = {w.strip("()[],.:;'\"") for w in words}
    return {w for w in found if _PATH.fullmatch(w) and "<" not in w}


def commands(text: str) -> list[list[str]]:
    """The arguments of every ``simkit`` command in the page's ``bash`` blocks (``simkit X ...`` or
    ``PYTHONPATH=$PWD python -m simkit X ...``)."""
    out = []
    for lang, lines in _fences(text):
        if lang != "bash":
            continue
        joined = "\n".join(lines).replace("\\\n", " ").splitlines()  # continuation lines joined
        for part in (p for line in joined for p in line.split("&&")):
            line = part.strip()
            if not line:
                continue
            words = shlex.split(line, comments=True)
            if words[:1] == ["simkit"]:
                out.append(words[1:])
            elif words[:4] == ["PYTHONPATH=$PWD", "python", "-m", "simkit"]:
                out.append(words[4:])
    return out


def command_names(text: str) -> set[str]:
    """Sub-commands named in inline code as ``simkit <command>`` (e.g. `` `simkit check` ``)."""
    return {m.group(1) for span in _INLINE.findall(_prose(text)) for m in [re.match(r"simkit (\w+)\b", span)] if m}


def test_helpers_find_what_the_page_names():
    """The extractors see paths in inline code and command arguments, and commands in bash blocks only."""
    sample = ("See `simkit/games/duel/game.py` and `simkit/games/<name>/`.\n```bash\nsimkit sweep "
              "scenarios/duel/quick.toml --out results/x   # a comment\n```\n```\nsimkit sweep: error: x\n```\n"
              "Run `simkit report`.\n")
    assert named_paths(sample) == {"simkit/games/duel/game.py", "scenarios/duel/quick.toml"}
    assert commands(sample) == [["sweep", "scenarios/duel/quick.toml", "--out", "results/x"]]
    assert command_names(sample) == {"report"}


def test_the_page_exists_and_is_linked_from_the_readme():
    """The page is where the README says it is."""
    assert PAGE.is_file()
    assert "docs/adding-a-game.md" in (ROOT / "README.md").read_text(encoding="utf-8")


def test_every_path_named_exists():
    """Every repository file or folder the page names exists (a rename must update the page)."""
    paths = named_paths(PAGE.read_text(encoding="utf-8"))
    assert len(paths) >= 20
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert not missing, f"docs/adding-a-game.md names missing paths: {missing}"


def test_every_command_shown_parses():
    """Every ``simkit`` command in the page's bash blocks parses with the real argument parser."""
    shown = commands(PAGE.read_text(encoding="utf-8"))
    assert {c[0] for c in shown} >= {"sweep", "report", "compare", "play", "replay", "check"}
    parser = build_parser()
    for argv in shown:
        try:
            parser.parse_args(argv)
        except SystemExit:
            pytest.fail(f"docs/adding-a-game.md: `simkit {' '.join(argv)}` does not parse")


def test_every_command_named_exists():
    """Every `` `simkit <command>` `` named in the page's prose is a command of ``simkit --help``."""
    parser = build_parser()
    sub = next(a for a in parser._actions if a.dest == "command")
    named = command_names(PAGE.read_text(encoding="utf-8"))
    assert named
    assert named <= set(sub.choices), f"unknown commands: {sorted(named - set(sub.choices))}"


def test_every_quoted_line_is_real_code():
    """Every line of the page's python and toml excerpts (``...`` marks a cut) is a line of simkit's
    sources, tests or scenarios, so an excerpt cannot quote code that has changed."""
    known = set()
    for pattern in ("simkit/**/*.py", "tests/**/*.py", "scenarios/**/*.toml"):
        for path in ROOT.glob(pattern):
            known.update(line.strip() for line in path.read_text(encoding="utf-8").splitlines())
    quoted = [line.strip() for lang, lines in _fences(PAGE.read_text(encoding="utf-8")) if lang in ("python", "toml")
              for line in lines if line.strip() and line.strip() != "..."]
    assert len(quoted) >= 40
    stale = [line for line in quoted if line not in known]
    assert not stale, f"docs/adding-a-game.md quotes lines found in no source file: {stale}"


def test_every_test_named_exists():
    """Every test function the page names in inline code (`` `test_...` ``) is defined in tests/."""
    named = {span for span in _INLINE.findall(_prose(PAGE.read_text(encoding="utf-8")))
             if re.fullmatch(r"test_\w+", span)}
    defined = {m.group(1) for path in (ROOT / "tests").rglob("test_*.py")
               for m in re.finditer(r"^def (test_\w+)", path.read_text(encoding="utf-8"), re.M)}
    assert len(named) >= 5
    assert named <= defined, f"unknown tests: {sorted(named - defined)}"


def test_the_cost_table_quotes_the_template_as_it_is():
    """The page's "What a new game costs" quotes scripts/game_cost.py's rows for the template as the
    script prints them now (after changing the template, re-run the script and paste its output)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("game_cost", ROOT / "scripts" / "game_cost.py")
    cost = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cost)
    page = PAGE.read_text(encoding="utf-8").splitlines()
    rows = cost.table(["_template"], files=True)
    assert len(rows) == 16  # the header, the package, its 11 files, scenarios, tests, total
    stale = [row for row in rows if row not in page]
    assert not stale, f"docs/adding-a-game.md: re-run `python scripts/game_cost.py --files`; now: {stale}"


@pytest.mark.parametrize("page", ["README.md", "docs/krypton.md", "docs/magic.md", "docs/index.md", "docs/layout.md",
                                  "docs/promises.md", "docs/findings/index.md", "docs/findings/krypton.md",
                                  "scripts/README.md", "lab/README.md", "reports/README.md"])
def test_every_path_named_in_the_other_pages_exists(page):
    """README.md and the other pages name only paths that exist, so a move must update them too."""
    paths = named_paths((ROOT / page).read_text(encoding="utf-8"))
    missing = sorted(p for p in paths if not (ROOT / p).exists())
    assert not missing, f"{page} names missing paths: {missing}"


def test_every_command_in_the_readme_parses():
    """Every ``simkit`` command in the README's bash blocks parses with the real argument parser."""
    parser = build_parser()
    for argv in commands((ROOT / "README.md").read_text(encoding="utf-8")):
        try:
            parser.parse_args(argv)
        except SystemExit:
            pytest.fail(f"README.md: `simkit {' '.join(argv)}` does not parse")


@pytest.mark.parametrize("page", ["README.md", "docs/krypton.md", "docs/magic.md", "scripts/README.md",
                                  "reports/README.md"])
def test_no_merge_conflict_is_left_in_a_page(page):
    """A page holds no line of a merge conflict's markers (a merge that was committed half resolved)."""
    lines = (ROOT / page).read_text(encoding="utf-8").splitlines()
    left = [i + 1 for i, line in enumerate(lines) if line.startswith(("<<<<<<< ", ">>>>>>> ")) or line == "======="]
    assert not left, f"{page}: merge conflict markers on lines {left}"
