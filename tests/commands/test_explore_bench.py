"""scripts/explore_bench.py: where an explore's games went, and the games a run stopped early would still need."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pandas as pd
import pytest

from simkit.core.words import Estimate, guarantee_sentence, seats_guarantee_sentence

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location("explore_bench", ROOT / "scripts" / "explore_bench.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_projection_counts_each_undecided_decks_games_to_its_bound():
    """Value 0.4, epsilon 0.05, the second seat's mixture of 2 decks: a first-seat deck at 0.30 with bounds
    0.10-0.50 after 16 games a mixture deck must shrink its half-width 0.20 to its margin 0.15: 16 * (0.2/0.15)^2
    = 28.4, so 29 games a mixture deck, 13 more on each of 2 (26); one above 0.45 would be added; one unmet is
    counted at the median (26); dropped and population decks need nothing."""
    summary = {"settings": {"horizon": 2048}, "epsilon": 0.05, "value": 0.4,
               "metagame": {"first": {"a": 1.0}, "second": {"x": 0.5, "y": 0.5}}}
    decks = pd.DataFrame([
        ("first", "race", 0.30, 0.10, 0.50, 16), ("first", "race", 0.50, 0.30, 0.70, 16),
        ("first", "new", 0.5, 0.0, 1.0, 0), ("first", "drop", 0.1, 0.0, 0.3, 8),
        ("first", "metagame", 0.4, 0.3, 0.5, 32),
    ], columns=["seat", "decision", "vs_mix", "vs_mix_low", "vs_mix_high", "vs_mix_level"])
    got = _bench().projection(summary, decks)
    assert got == {"undecided": 3, "undecided_beating": 1, "undecided_unmet": 1, "projected_games": 52}


@pytest.mark.parametrize("scope", ["deck of its pool", "searched deck"])
def test_the_guarantee_names_the_decks_its_bound_covers(scope):
    """Met, the sentence says which decks no deck of beats the metagame: every deck of the pool when all were raced,
    the searched decks otherwise."""
    met, text = seats_guarantee_sentence({"first": Estimate(0.01, -0.02, 0.04), "second": Estimate(0.0, -0.03, 0.03)},
                                         0.05, "settled", scope=scope)
    assert met and f"no {scope} beats the other seat's metagame by 0.05" in text
    met, text = guarantee_sentence(Estimate(0.01, -0.02, 0.04), 0.05, "settled", scope=scope)
    assert met and f"no {scope} beats the mixture" in text
