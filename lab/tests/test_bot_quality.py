"""lab/bot_quality.py: the Battle of Miracles bots' quality figures hold (a slow run of 200 games a figure)."""

from __future__ import annotations

import pytest
from lab_module import load


@pytest.mark.slow
def test_bot_quality_figures():
    """balanced beats random in >= 95% of 200 games; >= 30% of balanced mirrors end by a miracle; rush is
    shorter than control; 100 seeds give many different games and one seed one game."""
    q = load("bot_quality").measure(games=200, seed=0)
    assert q["balanced_vs_random_win_rate"] >= 0.95
    assert q["balanced_mirror_miracle_share"] >= 0.30
    assert q["rush_mean_turns"] < q["control_mean_turns"]
    assert q["distinct_games_of_100_seeds"] >= 90 and q["same_seed_same_game"]
