"""scripts/bench_vs.py: the games of one benchmark on two checkouts in turn, its figures written with their
provenance for a findings page (scripts/findings.py's ``bench_vs`` block), and a bad call refused in one line."""

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


def test_a_folder_that_is_no_checkout_or_no_games_is_refused(tmp_path):
    """--old naming a folder without the scenario, or no games to time: exit 2, one line naming the problem,
    nothing written."""
    out = tmp_path / "vs.json"
    done = _run("--old", str(tmp_path), "--json", str(out))
    assert done.returncode == 2 and f"{tmp_path}: no scenarios/miracle/quick.toml" in done.stderr
    done = _run("--old", str(ROOT), "--games", "0", "--json", str(out))
    assert done.returncode == 2 and "--games must be at least 1, got 5, 256, 0" in done.stderr and not out.exists()


@pytest.mark.slow
def test_a_checkout_against_itself_plays_the_same_games_and_renders(tmp_path):
    """This checkout against itself on eight games of the template: one pair of runs after the warm-ups, the same
    games on both sides, each figure's new/old from the pair, the games' CPU inside the process's, provenance,
    and a findings block made from the file."""
    out = tmp_path / "vs.json"
    done = _run("--old", str(ROOT), "--runs", "1", "--json", str(out), "--scenario", "scenarios/_template/quick.toml",
                "--batch", "8", "--games", "8", "--bots", "random,random")
    assert done.returncode == 0, done.stderr[-2000:]
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert all(doc[k] for k in findings.PROVENANCE) and doc["script"] == "scripts/bench_vs.py"
    assert doc["runs"] == 1 and len(doc["pairs"]) == 1 and doc["same_games"]
    assert doc["old_commit"] == doc["new_commit"]
    pair = doc["pairs"][0]
    for name in ("seconds", "games_cpu_s", "process_cpu_s"):
        ratio = doc["figures"][name]["ratio"]["median"]
        assert ratio == pytest.approx(pair["new"][name] / pair["old"][name])
    assert 0 < pair["new"]["games_cpu_s"] < pair["new"]["process_cpu_s"]
    lines = findings.bench_vs(doc)
    assert lines[0].startswith("| the games of `python scripts/bench.py games --scenario "
                               "scenarios/_template/quick.toml --bots random,random --batches 8 --games 8`, 1 runs")
    assert "Both checkouts played the same games (actions and turns)." in lines[-1]
