"""docs/findings/: every figure a findings page quotes is made from the JSON file of the run that measured it
(scripts/findings.py), each JSON names its script, command, date and commit, and the prose around the figure
blocks quotes no number of its own."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FINDINGS = ROOT / "docs" / "findings"


def _findings():
    spec = importlib.util.spec_from_file_location("findings", ROOT / "scripts" / "findings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


findings = _findings()
PAGES = findings.pages()


def test_every_game_has_a_findings_page_with_figures():
    """One page a game, each with at least one figure block."""
    assert {p.stem for p in PAGES} >= {"miracle", "duel", "krypton", "magic"}
    for page in PAGES:
        if page.stem != "index":
            assert findings.blocks(page.read_text(encoding="utf-8")), f"{page.name}: no figure block"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_quoted_figure_is_its_json_as_written(page):
    """Each block is exactly what scripts/findings.py makes from its JSON (run it after measuring again)."""
    text = page.read_text(encoding="utf-8")
    for path, kind, body in findings.blocks(text):
        assert body == findings.render(path, kind, page), (
            f"{page.name}: the {kind} block of {path} differs from its JSON: run `python scripts/findings.py`")


def test_a_figure_changed_by_hand_is_caught():
    """Altering one digit inside a block makes it differ from its JSON (the check above can fail)."""
    page = next(p for p in PAGES if findings.blocks(p.read_text(encoding="utf-8")))
    path, kind, body = findings.blocks(page.read_text(encoding="utf-8"))[0]
    digit = re.search(r"\d", body)
    altered = body[:digit.start()] + str((int(digit.group()) + 1) % 10) + body[digit.end():]
    assert altered != findings.render(path, kind, page)


def test_every_figure_file_says_where_it_came_from_and_is_quoted():
    """Every JSON under docs/findings/data names its script, command, date and commit, and a page quotes it."""
    quoted = {(page.parent / path).resolve() for page in PAGES
              for path, _, _ in findings.blocks(page.read_text(encoding="utf-8"))}
    files = sorted((FINDINGS / "data").glob("*.json"))
    assert files
    for f in files:
        doc = json.loads(f.read_text(encoding="utf-8"))
        assert all(doc.get(k) for k in findings.PROVENANCE), f"{f.name}: no provenance"
        assert f.resolve() in quoted, f"{f.name}: quoted by no findings page"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_the_prose_around_the_blocks_quotes_no_number(page):
    """Outside the figure blocks (and code, links and comments) a page has no digit: every figure is quoted."""
    text = findings.BLOCK.sub("", page.read_text(encoding="utf-8"))
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    text = re.sub(r"`[^`\n]*`", "", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    text = re.sub(r"<!--.*?-->", "", text, flags=re.S)
    numbers = re.findall(r"[^\n]*\d[^\n]*", text)
    assert not numbers, f"{page.name}: a figure outside its blocks: {numbers[:3]}"
