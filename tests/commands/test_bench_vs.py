"""scripts/bench_vs.py: one benchmark on two checkouts in turn, its figures written with their provenance for a
findings page (scripts/findings.py's ``bench_vs`` block), and a bad call refused in one line."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "bench_vs.py"
_SPEC = importlib.util.spec_from_file_location("findings", ROOT / "scripts" / "findings.py")
findings = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(findings)


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=600)


def test_a_folder_that_is_no_checkout_or_no_benchmark_is_refused(tmp_path):
    """--old naming a folder without scripts/bench.py, or no benchmark arguments after --: exit 2, one line
    naming the problem, nothing written."""
    out = tmp_path / "vs.json"
    done = _run("--old", str(tmp_path), "--json", str(out), "--", "games", "--batches", "8")
    assert done.returncode == 2 and f"{tmp_path}: no scripts/bench.py" in done.stderr and not out.exists()
    done = _run("--old", str(ROOT), "--json", str(out))
    assert done.returncode == 2 and "give the benchmark's arguments after --" in done.stderr and not out.exists()


@pytest.mark.slow
def test_a_checkout_against_itself_plays_the_same_games_and_renders(tmp_path):
    """This checkout against itself on eight games of the template: one pair of runs after the warm-ups, the same
    actions a game on both sides, new/old per pair, provenance, and a findings block made from the file."""
    out = tmp_path / "vs.json"
    done = _run("--old", str(ROOT), "--runs", "1", "--json", str(out), "--", "games", "--scenario",
                "scenarios/_template/quick.toml", "--batches", "8", "--games", "8", "--bots", "random,random")
    assert done.returncode == 0, done.stderr[-2000:]
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert all(doc[k] for k in findings.PROVENANCE) and doc["script"] == "scripts/bench_vs.py"
    assert doc["runs"] == 1 and len(doc["pairs"]) == 1 and doc["same_actions"]
    assert doc["old_commit"] == doc["new_commit"]
    pair = doc["pairs"][0]
    ratio = doc["figures"]["cpu_s"]["ratio"]["median"]
    assert ratio == pytest.approx(pair["new"]["cpu_s"] / pair["old"]["cpu_s"])
    lines = findings.bench_vs(doc)
    assert lines[0].startswith("| `python scripts/bench.py games --scenario scenarios/_template/quick.toml")
    assert "Actions a game: the same in both." in lines[-1]
