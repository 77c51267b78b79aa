"""The throughput benchmark: one JSON line per run with the documented fields, and the speed-up summary."""

import json
from pathlib import Path

from simkit.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_bench_games_prints_one_json_line_per_batch_size_and_a_summary(tmp_path, capsys):
    """`simkit bench games` reports games/s, actions per game and peak memory per batch size."""
    short = tmp_path / "short.toml"
    short.write_text(f'extends = "{(ROOT / "scenarios/miracle/base.toml").as_posix()}"\n[rules]\nturn_limit = 6\n')
    assert main(["bench", "games", "--scenario", str(short), "--batches", "1,2", "--games", "2"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    runs, summary = lines[:2], lines[2]
    assert [r["batch"] for r in runs] == [1, 2]
    for r in runs:
        assert set(r) >= {"batch", "games", "seconds", "games_per_s", "actions_per_game", "peak_rss_mb"}
        assert r["games"] == 2 and r["games_per_s"] > 0 and r["actions_per_game"] > 0 and r["peak_rss_mb"] > 0
    assert summary["summary"] == "batched over single"
    assert summary["speedup"] == round(summary["best_games_per_s"] / runs[0]["games_per_s"], 2)


def test_bench_refuses_bad_batch_sizes(capsys):
    """A batch size below 1 is one clear line and exit status 2."""
    assert main(["bench", "games", "--batches", "0"]) == 2
    assert "--batches" in capsys.readouterr().err
