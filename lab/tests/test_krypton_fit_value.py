"""lab/krypton_fit_value.py: the search's value weights fitted to game outcomes, on a few real games."""

from __future__ import annotations

from pathlib import Path

import pytest
from lab_module import load

ROOT = Path(__file__).resolve().parents[2]
fit_value = load("krypton_fit_value")


def test_positions_are_read_from_games_still_on_with_both_sides_mirrored():
    """Each side's differences are the other's negated, and a side's ``won`` is the game's result for it."""
    import simkit

    sc = simkit.load_scenario(ROOT / "scenarios" / "krypton" / "base.toml")
    d = fit_value.positions(sc, ("hunter", "balanced"), 1, [6, 12], 100)
    assert len(d) > 0 and set(d["round"]) <= {6, 12}
    for _, pair in d.groupby(["game", "round"]):
        assert len(pair) == 2
        first, second = pair.iloc[0], pair.iloc[1]
        for k in fit_value.FEATURES:
            assert first[k] == -second[k]
        assert first.won + second.won <= 1


def test_a_position_is_the_game_as_it_stands_after_the_round():
    """The base HP, energy and tier differences read after round 8 are those of the same games played with the
    round limit at 8 (the same games up to there), for every game still on."""
    import copy

    import simkit
    from simkit.scenario import scenario_from_data

    sc = simkit.load_scenario(ROOT / "scenarios" / "krypton" / "base.toml")
    d = fit_value.positions(sc, ("hunter", "balanced"), 1, [8], 300)
    firsts, seconds = sc.game.seat_decks()
    pairs = [(a, b) for a in firsts for b in seconds]
    data = copy.deepcopy(sc.data)
    data["rules"]["max_rounds"] = 8
    capped = simkit.play_games(scenario_from_data(data), [p[0] for p in pairs], [p[1] for p in pairs],
                               bots=("hunter", "balanced"), seeds=list(range(300, 300 + len(pairs))))
    on = capped.index[capped.end_reason == "turn_limit"]
    first = d.iloc[::2].set_index("game")
    assert sorted(first.index) == sorted(on)
    for i in on:
        row = capped.loc[i]
        assert first.loc[i, "base"] == row.first_base_hp - row.second_base_hp
        assert first.loc[i, "energy"] == row.first_energy - row.second_energy
        assert first.loc[i, "tier"] == row.first_base_tier - row.second_base_tier
        assert first.loc[i, "deaths"] == row.first_heroes_lost - row.second_heroes_lost


def test_a_planted_feature_gets_the_weight_that_made_the_outcomes():
    """Outcomes drawn from known log-odds come back from the fit within sampling error."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(0)
    n = 20000
    d = pd.DataFrame({k: rng.integers(-3, 4, n) for k in fit_value.FEATURES})
    z = -1.0 + 0.8 * d["tier"] + 0.2 * d["energy"]
    d["won"] = (rng.random(n) < 1 / (1 + np.exp(-z))).astype(float)
    b = fit_value.fit(d)
    names = list(fit_value.FEATURES)
    assert b[0] == pytest.approx(-1.0, abs=0.1)
    assert b[1 + names.index("tier")] == pytest.approx(0.8, abs=0.06)
    assert b[1 + names.index("energy")] == pytest.approx(0.2, abs=0.04)
    assert abs(b[1 + names.index("base")]) < 0.05


def test_the_script_prints_weights_with_intervals_and_a_table_to_paste(capsys):
    assert fit_value.main(["--repeat", "2", "--rounds", "8,16", "--boot", "5"]) == 0
    out = capsys.readouterr().out
    assert "log-odds of winning" in out and "value_tier = " in out and "value_win = 10.0" in out


@pytest.mark.parametrize("args, message", [(["--bots", "hunter,ghost"], "unknown bot 'ghost'"),
                                           (["--bots", "hunter"], "--bots: two names"),
                                           (["--scenario", str(ROOT / "scenarios/duel/quick.toml")], "fits Krypton")])
def test_bad_input_is_refused_with_one_message(capsys, args, message):
    assert fit_value.main(args) == 2
    assert message in capsys.readouterr().err
