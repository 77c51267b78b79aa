"""Skill or luck (simkit.analysis.luck): the outcome's variance split into players, decks and seeds.

A synthetic game whose luck is known: deal ``d`` gives the first seat the win with probability
``0.5 + a + b_d + c_d`` when the strong bot sits first and ``0.5 - a + b_d - c_d`` when the weak one does
(``a`` the skill edge, ``b_d`` the deal's first-seat lean, ``c_d`` how much more or less skill matters in it);
the rest is a coin (luck). The parts are then known: bots ``a^2``, bots x decks ``Var(c)``, decks ``Var(b)``,
luck ``0.25 - a^2 - Var(b) - Var(c)``.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simkit.analysis.luck import components, cube, first_seat_score, skill_or_luck


def synthetic(deals: int, seeds: int, a: float, b: float, c: float, rng_seed: int = 0) -> np.ndarray:
    """``(deals, 2, seeds)`` first-seat scores of the synthetic game (``b_d`` uniform on [-b, b], ``c_d`` on
    [-c, c])."""
    rng = np.random.default_rng(rng_seed)
    lean = rng.uniform(-b, b, deals)
    depth = rng.uniform(-c, c, deals)
    p = np.stack([0.5 + a + lean + depth, 0.5 - a + lean - depth], axis=1)
    return (rng.random((deals, 2, seeds)) < p[:, :, None]).astype(float)


def truth(a: float, b: float, c: float) -> dict[str, float]:
    v_b, v_c = b * b / 3, c * c / 3
    return {"bots": a * a, "bots_x_decks": v_c, "decks": v_b, "luck": 0.25 - a * a - v_b - v_c}


def as_games(y: np.ndarray, strong: str = "S", weak: str = "W") -> pd.DataFrame:
    rows = []
    for d in range(y.shape[0]):
        for o, bots in enumerate(((strong, weak), (weak, strong))):
            for v in y[d, o]:
                winner = {1.0: "first", 0.5: "draw", 0.0: "second"}[float(v)]
                rows.append({"deal": d, "first_bot": bots[0], "second_bot": bots[1], "winner": winner})
    return pd.DataFrame(rows)


def test_the_parts_of_a_game_whose_luck_is_known_are_found():
    y = synthetic(4000, 4, a=0.2, b=0.15, c=0.1)
    got = components(y)
    for key, value in truth(0.2, 0.15, 0.1).items():
        assert got[key] == pytest.approx(value, abs=0.004), key
    assert got["delta"] == pytest.approx(0.4, abs=0.01)


def test_the_intervals_cover_the_known_shares_at_a_sample_the_ladder_plays():
    true = truth(0.2, 0.15, 0.1)
    total = sum(true.values())
    y = synthetic(100, 4, a=0.2, b=0.15, c=0.1, rng_seed=3)  # 800 games
    s = skill_or_luck(as_games(y), "S", "W", bootstrap=400, seed=1)
    for key, want in (("skill", true["bots"] + true["bots_x_decks"]), ("decks", true["decks"]),
                      ("luck", true["luck"])):
        lo, hi = s["share_ci"][key]
        assert lo <= want / total <= hi, (key, lo, want / total, hi)
        assert lo <= s["share"][key] <= hi
    assert s["share"]["skill"] + s["share"]["decks"] + s["share"]["luck"] == pytest.approx(1)


def test_a_coin_toss_is_all_luck_and_a_sure_winner_all_skill():
    coin = skill_or_luck(as_games(synthetic(200, 4, a=0, b=0, c=0, rng_seed=5)), "S", "W", bootstrap=200)
    assert coin["share"]["luck"] > 0.9 and coin["share_ci"]["skill"][0] == 0
    assert coin["weak_win_rate"] == pytest.approx(0.5, abs=0.05)
    sure = skill_or_luck(as_games(synthetic(50, 3, a=0.5, b=0, c=0)), "S", "W", bootstrap=100)
    assert sure["share"]["skill"] == 1 and sure["parts"]["luck"] == 0
    assert sure["strong_win_rate"] == 1 and sure["weak_win_rate"] == 0 and sure["weak_win_ci"][0] == pytest.approx(0)


def test_the_estimates_of_two_literal_deals_without_luck():
    # deal 0: the strong bot always wins; deal 1: the first seat always wins, whoever sits there
    y = np.array([[[1, 1], [0, 0]], [[1, 1], [1, 1]]], dtype=float)
    got = components(y)
    # cell means [[1, 0], [1, 1]]: differences 1 and 0 (mean 0.5, variance 0.5); deal means 0.5 and 1 (variance 0.125)
    assert got == {"bots": pytest.approx((0.25 - 0.5 / 2) / 4), "bots_x_decks": pytest.approx(0.5 / 4),
                   "decks": pytest.approx(0.125), "luck": 0.0, "delta": 0.5}


def test_draws_count_half_in_the_score_and_as_not_won_in_the_win_rates():
    assert first_seat_score(pd.Series(["first", "draw", "second"])).tolist() == [1.0, 0.5, 0.0]
    y = np.array([[[1, 0.5], [0.5, 0]], [[0, 1], [1, 0.5]]])
    s = skill_or_luck(as_games(y), "S", "W", bootstrap=10)
    # the strong bot won: deal 0 (first, 1) and (second, first lost); deal 1 (first, 1): 3 of 8; draws 3
    assert s["draws"] == 3 and s["strong_win_rate"] == 3 / 8 and s["weak_win_rate"] == 2 / 8


def test_the_games_are_read_by_deal_and_order_whatever_their_row_order():
    y = synthetic(6, 3, a=0.1, b=0.1, c=0.1, rng_seed=9)
    games = as_games(y)
    shuffled = games.sample(frac=1, random_state=2)
    again = cube(shuffled, "S", "W")
    # the seeds of one cell may come in another order; every cell holds the same games
    assert np.array_equal(np.sort(again, axis=2), np.sort(y[pd.unique(shuffled.deal)], axis=2))
    assert components(again) == pytest.approx(components(y[pd.unique(shuffled.deal)]))


def test_a_design_the_split_cannot_read_is_refused():
    games = as_games(synthetic(3, 2, a=0.1, b=0.1, c=0.1))
    with pytest.raises(ValueError, match="same number of games in each bot order"):
        cube(games.iloc[1:], "S", "W")
    with pytest.raises(ValueError, match="between 'S' and 'X'"):
        cube(games, "S", "X")
    with pytest.raises(ValueError, match="seeds >= 2"):
        components(np.zeros((3, 2, 1)))
