"""lab/krypton_locks.py: every game of a small Krypton ladder played again with its lock round; a locked game is
a draw, and each match counts its locks."""

from __future__ import annotations

import json
from pathlib import Path

from lab_module import load

from simkit.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_a_ladders_games_get_their_lock_rounds_and_each_match_counts_them(tmp_path, capsys):
    """Each locked game is a draw locked in a round it reached; the counts add up to the match's games."""
    out = tmp_path / "kl"
    assert main(["ladder", str(ROOT / "scenarios/krypton/quick.toml"), "--rungs", "balanced,hunter", "--games", "8",
                 "--workers", "1", "--quiet", "--out", str(out)]) == 0
    figures = tmp_path / "locks.json"
    assert load("krypton_locks").main([str(out), "--json", str(figures)]) == 0
    doc = json.loads(figures.read_text())
    assert doc["script"] == "lab/krypton_locks.py" and doc["ladder"]["command"].startswith("simkit ladder")
    for k in doc["matches"]:
        assert k["games"] == 8 and k["locked_won"] == 0
        assert k["draws_locked"] == k["locked"] <= k["draws"]
    assert capsys.readouterr().out.count(" games locked (") == len(doc["matches"])
