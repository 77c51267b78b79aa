"""The throughput benchmark: one JSON line per run with the documented fields, and the speed-up summary."""

import json
from pathlib import Path

from simkit.cli import main
from simkit.sweep.bench import targets

ROOT = Path(__file__).resolve().parents[2]


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
    assert main(["bench", "targets", "--batches", "1", "--games", "1", "--games-per-pair", "0"]) == 2
    assert "--games-per-pair" in capsys.readouterr().err


def test_bench_targets_measures_a_whole_sweep_and_says_which_targets_are_met(tmp_path, capsys):
    """`simkit bench targets`: batch 1 and 512, then the scenario's whole sweep on every core, then
    one line with each target against the measured figure."""
    small = tmp_path / "small.toml"
    small.write_text(
        f'extends = "{(ROOT / "scenarios/miracle/base.toml").as_posix()}"\n[rules]\nturn_limit = 6\n'
        '[decks]\npool = ["HolyLight:Archer,BlackBat,Priest", "WindBlessing:Archer,Priest,Swordsman"]\n'
    )
    assert main(["bench", "targets", "--scenario", str(small), "--games", "2", "--games-per-pair", "2"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [r.get("batch") for r in lines[:2]] == [1, 512]
    sweep, verdict = lines[3], lines[4]
    assert sweep["mode"] == "sweep" and sweep["games"] == 2 * 2 * 2
    assert verdict["summary"] == "targets" and verdict["games_per_s"] == sweep["games_per_s"]
    assert verdict["sweep_640000_minutes"] == round(640_000 / sweep["games_per_s"] / 60, 1)
    assert verdict["memory_met"] == (sweep["peak_rss_mb"] < 2048)


def test_targets_are_met_only_at_the_issue_figures():
    games = [{"mode": "games", "batch": 1, "games_per_s": 10.0}, {"mode": "games", "batch": 64, "games_per_s": 600.0}]
    fast = {"games": 6400, "workers": 2, "games_per_s": 3200.0, "peak_rss_mb": 900.0}
    verdict = targets(games, fast)
    assert verdict["games_per_s_met"] and verdict["batched_over_single_met"] and verdict["memory_met"]
    assert verdict["sweep_640000_met"] and verdict["sweep_640000_minutes"] == 3.3
    slow = {**fast, "games_per_s": 590.0, "peak_rss_mb": 2100.0}
    verdict = targets(games[:1], slow)
    assert not (verdict["games_per_s_met"] or verdict["batched_over_single_met"] or verdict["memory_met"])
    assert not verdict["sweep_640000_met"] and verdict["sweep_640000_minutes"] == 18.1
