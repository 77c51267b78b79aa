"""simkit.analysis: statistics checked on synthetic results whose answers are planted."""

from itertools import combinations

import numpy as np
import pandas as pd
import pytest

from simkit.analysis import (
    FlagBands,
    adjust_p,
    analyze,
    balance_flags,
    bradley_terry,
    card_pair_synergy,
    card_win_rates,
    check_results,
    deck_card_table,
    deck_strength,
    first_player_advantage,
    game_shape,
    matchup_flag_reach,
    matchup_matrix,
    metagame,
    min_games_to_flag,
    nash_mix,
    p_beyond,
    p_beyond_exact,
    paired_delta,
    sign_test,
    turn_counts,
    wilson_interval,
)
from simkit.analysis.results import RESULT_COLUMNS
from simkit.testing.synthetic import rate_matrix, synthetic_deck_cards, synthetic_results

A = "HolyLight:Archer,Priest,Swordsman"
B = "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"
C = "WindBlessing:Archer,BlackBat,FrostDragon"
ROCK = "HolyLight:Archer,BlackBat,Priest"
PAPER = "InfernoFlame:FrostDragon,Swordsman,VolcanoDragon"
SCISSORS = "SalamanderShield:Archer,Priest,VolcanoDragon"
WEAK = "WindBlessing:BlackBat,Swordsman,VolcanoDragon"
ARTIFACTS = ["HolyLight", "InfernoFlame", "SalamanderShield", "WindBlessing"]
CREATURES = ["Archer", "BlackBat", "FrostDragon", "Priest", "Swordsman", "VolcanoDragon"]


def pool(artifacts=ARTIFACTS[:2]):
    """Every deck of the given artifacts (20 decks per artifact)."""
    return [f"{a}:{','.join(c)}" for a in artifacts for c in combinations(CREATURES, 3)]


def rate_row(table, deck, opponent):
    return table[(table["deck"] == deck) & (table["opponent"] == opponent)].iloc[0]


# ---------------------------------------------------------------------------------------------
# statistics


def test_wilson_interval_matches_known_values():
    """Wilson intervals agree with textbook values, contain the rate, and are NaN without games."""
    low, high = wilson_interval([0, 5, 10], [10, 10, 0])
    assert low[0] == 0 and high[0] == pytest.approx(0.2775, abs=1e-4)
    assert low[1] == pytest.approx(0.2366, abs=1e-4) and high[1] == pytest.approx(0.7634, abs=1e-4)
    assert np.isnan(low[2]) and np.isnan(high[2])


def test_holm_and_benjamini_hochberg_adjustments():
    """Holm and BH adjusted p-values equal hand-computed ones, in input order, NaN kept."""
    p = [0.01, 0.04, 0.03, 0.005, np.nan]
    np.testing.assert_allclose(adjust_p(p, "holm")[:4], [0.03, 0.06, 0.06, 0.02])
    np.testing.assert_allclose(adjust_p(p, "bh")[:4], [0.02, 0.04, 0.04, 0.02])
    assert np.isnan(adjust_p(p)[4])
    with pytest.raises(ValueError, match="holm"):
        adjust_p(p, "bonferroni")


def test_sign_test_and_band_test():
    """The sign test is exact (5 of 5: p = 1/16) and the band test is small only outside the band."""
    assert sign_test([5], [0])[0] == pytest.approx(2 / 32)
    assert sign_test([0], [0])[0] == 1.0
    p = p_beyond([0.50, 0.60, 0.40, 0.56], [1000, 1000, 1000, 100], 0.45, 0.55)
    assert p[0] > 0.5 and p[1] < 0.001 and p[2] < 0.001 and p[3] > 0.05


def test_exact_band_test_is_binomial_and_conservative_with_draws():
    """12-0 against a 70/30 edge has p = 0.7**12; draws count against the side being tested."""
    p = p_beyond_exact([12, 0, 10, 10], [0, 0, 0, 2], [12, 12, 12, 12], 0.3, 0.7)
    assert p[0] == pytest.approx(0.7 ** 12) and p[1] == pytest.approx(0.7 ** 12)
    assert p[3] == pytest.approx(p[2])  # 10 wins and 2 draws tests as 10 wins and 2 losses
    assert np.isnan(p_beyond_exact([0], [0], [0], 0.3, 0.7)[0])


def test_paired_delta_handles_constant_differences():
    """Paired means: zero spread gives p 1 for no change and 0 for a constant change."""
    out = paired_delta([10, 10, 4], [0.0, 5.0, 2.0], [0.0, 2.5, 2.0])
    assert out["p_value"][0] == 1.0 and out["p_value"][1] == 0.0
    assert out["delta"][2] == 0.5 and out["low"][2] < 0.5 < out["high"][2]


# ---------------------------------------------------------------------------------------------
# results contract


def test_deck_cards_come_from_the_results_metadata():
    """A deck's cards by category are read from the results' metadata; a deck nothing is known of is its own card."""
    df = synthetic_results([A, B], 1)
    assert deck_card_table(df)[A] == {"artifact": ("HolyLight",), "creature": ("Archer", "Priest", "Swordsman")}
    with pytest.raises(ValueError, match="NoColon"):
        synthetic_deck_cards("NoColon")
    bare = df.copy()
    bare.attrs = {}
    assert deck_card_table(bare)[A] == {"deck": (A,)}


def test_synthetic_results_follow_the_contract():
    """Synthetic results have the sweep's columns and meta, every ordered pair N times, and repeat by seed."""
    df = synthetic_results([A, B, C], 5, draw_rate=0.2, seed=3)
    assert set(RESULT_COLUMNS) <= set(df.columns) and "actions" in df.columns
    assert df.groupby(["first_deck", "second_deck"]).size().eq(5).all() and len(df) == 45
    meta = df.attrs["meta"]
    assert meta["games_per_pair"] == 5 and meta["decks"] == [A, B, C] and len(meta["bots"]) == 2
    draws = df[df["winner"] == "draw"]
    assert (draws["end_reason"] == "turn_limit").all()
    assert (draws["first_miracle_hp"] == draws["second_miracle_hp"]).all()
    won = df[df["winner"] == "first"]
    assert (won["first_miracle_hp"] > won["second_miracle_hp"]).all()
    pd.testing.assert_frame_equal(df, synthetic_results([A, B, C], 5, draw_rate=0.2, seed=3))
    assert not df["winner"].equals(synthetic_results([A, B, C], 5, draw_rate=0.2, seed=4)["winner"])
    with pytest.raises(ValueError, match="sum to 1"):
        rate_matrix([A, B], {(A, B): 0.6, (B, A): 0.6})


def test_check_results_refuses_bad_datasets():
    """Empty data, unknown winners and a missing pairing are refused with one clear line."""
    df = synthetic_results([A, B], 2)
    with pytest.raises(ValueError, match="no games"):
        check_results(df.iloc[:0])
    with pytest.raises(ValueError, match="winner"):
        check_results(df.assign(winner="both"))
    with pytest.raises(ValueError, match="every ordered deck pairing"):
        check_results(df[~((df["first_deck"] == A) & (df["second_deck"] == B))])
    with pytest.raises(ValueError, match="missing column"):
        check_results(df.drop(columns="turns"))


# ---------------------------------------------------------------------------------------------
# matchups and seats


def test_planted_60_40_matchup_is_recovered():
    """A planted 60/40 matchup comes back near 60% with an interval holding 60%; its reverse is 40%."""
    df = synthetic_results([A, B, C], 300, {(A, B): 0.6}, draw_rate=0.1, seed=1)
    m = matchup_matrix(df)
    ab, ba = rate_row(m, A, B), rate_row(m, B, A)
    assert ab["games"] == 600 and ab["low"] < 0.6 < ab["high"] and abs(ab["win_rate"] - 0.6) < 0.05
    assert ab["win_rate"] + ba["win_rate"] == pytest.approx(1.0)
    assert rate_row(m, A, A)["win_rate"] == 0.5 and rate_row(m, A, A)["mirror"]
    assert rate_row(m, A, C)["low"] < 0.5 < rate_row(m, A, C)["high"]


def test_planted_first_player_advantage_is_recovered():
    """A planted +8-point seat edge is found overall (significant) and per deck; none is found when absent."""
    decks = [A, B, C]
    fp = first_player_advantage(synthetic_results(decks, 300, first_advantage=0.08, seed=2))
    overall = fp[fp["scope"] == "overall"].iloc[0]
    assert overall["low"] < 0.08 < overall["high"] and overall["p_value"] < 1e-6
    assert set(fp[fp["scope"] == "deck"]["deck"]) == set(decks)
    assert len(fp[fp["scope"] == "matchup"]) == 6  # 3 pairings + 3 mirrors
    fair = first_player_advantage(synthetic_results(decks, 300, seed=2))
    o = fair[fair["scope"] == "overall"].iloc[0]
    assert o["low"] < 0 < o["high"]


def test_deck_seat_advantage_is_half_the_seat_gap():
    """Per deck, the advantage is half the gap between its win rate moving first and moving second."""
    df = synthetic_results([A, B, C], 40, {(A, B): 0.7}, first_advantage=0.05, draw_rate=0.1, seed=5)
    fp = first_player_advantage(df).set_index("subject")
    pts = df["winner"].map({"first": 1.0, "draw": 0.5, "second": 0.0})
    other = df["first_deck"] != df["second_deck"]
    as_first = pts[(df["first_deck"] == A) & other].mean()
    as_second = 1 - pts[(df["second_deck"] == A) & other].mean()
    assert fp.loc[A, "advantage"] == pytest.approx((as_first - as_second) / 2)


# ---------------------------------------------------------------------------------------------
# strength


def test_bradley_terry_recovers_planted_strengths():
    """Ratings fitted on results drawn from a Bradley-Terry model recover its log-strength gaps."""
    theta = np.array([-1.0, -0.3, 0.2, 1.1])
    rng = np.random.default_rng(0)
    p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))
    games = np.full((4, 4), 5000.0)
    np.fill_diagonal(games, 0)
    wins = np.triu(rng.binomial(5000, p), 1)
    points = wins + np.triu(5000 - wins, 1).T
    fit = bradley_terry(points, games, prior_games=0)
    np.testing.assert_allclose(fit, theta - theta.mean(), atol=0.05)


def test_deck_strength_orders_decks_and_brackets_ratings():
    """A planted strong deck ranks first with a positive rating whose interval excludes 0."""
    decks = [A, B, C, WEAK]
    df = synthetic_results(decks, 100, {(A, B): 0.7, (A, C): 0.7, (A, WEAK): 0.75}, seed=4)
    s = deck_strength(df, bootstrap=50, seed=1)
    top = s.iloc[0]
    assert top["deck"] == A and top["rank"] == 1 and top["rating_low"] > 0
    assert (s["rating_low"] <= s["rating"]).all() and (s["rating"] <= s["rating_high"]).all()
    assert s["rating"].sum() == pytest.approx(0, abs=1e-6)
    assert top["low"] < 0.7167 < top["high"]  # mean of the planted rates against the rest


# ---------------------------------------------------------------------------------------------
# metagame


def test_nash_mix_of_weighted_rock_paper_scissors():
    """The exact equilibrium of an uneven rock-paper-scissors table is (0.2, 0.6, 0.2)."""
    names = ["rock", "paper", "scissors"]
    rates = pd.DataFrame([[0.5, 0.4, 0.8], [0.6, 0.5, 0.4], [0.2, 0.6, 0.5]], index=names, columns=names)
    np.testing.assert_allclose(nash_mix(rates).to_numpy(), [0.2, 0.6, 0.2], atol=1e-6)


def _table(names, rows):
    return pd.DataFrame(rows, index=names, columns=names, dtype=float)


RPS = [[0.5, 0.4, 0.8], [0.6, 0.5, 0.4], [0.2, 0.6, 0.5]]


def test_nash_mix_is_the_maximum_entropy_equilibrium():
    """Two copies of rock share rock's 20% evenly (10% each), whichever comes first in the table."""
    names = ["rock", "paper", "scissors", "rock2"]
    rows = [r + [r[0]] for r in RPS] + [RPS[0] + [0.5]]
    np.testing.assert_allclose(nash_mix(_table(names, rows)).to_numpy(), [0.1, 0.6, 0.2, 0.1], atol=1e-6)
    order = [3, 1, 2, 0]
    shuffled = _table([names[i] for i in order], [[rows[i][j] for j in order] for i in order])
    np.testing.assert_allclose(nash_mix(shuffled)[names].to_numpy(), [0.1, 0.6, 0.2, 0.1], atol=1e-6)


def test_nash_mix_of_equal_decks_is_uniform_and_said_so():
    """When every matchup is even the mix is uniform (not 100% of the first deck) and all_even is set."""
    names = ["a", "b", "c", "d"]
    even = _table(names, [[0.5] * 4] * 4)
    np.testing.assert_allclose(nash_mix(even).to_numpy(), [0.25] * 4)
    matchups = pd.DataFrame([(x, y, 0.5, x == y) for x in names for y in names],
                            columns=["deck", "opponent", "win_rate", "mirror"])
    meta = metagame(matchups)
    assert meta["all_even"].all() and meta["in_support"].all() and not meta["dominated"].any()
    assert not metagame(matchup_matrix(synthetic_results([A, B], 50, {(A, B): 0.7}, seed=1)))["all_even"].any()


def test_a_deck_of_the_mix_is_never_listed_as_dominated():
    """A copy of rock that does worse only against a deck nobody plays is in the mix, so not dominated."""
    names = ["rock", "paper", "scissors", "weak", "rock2"]
    rows = [
        [0.5, 0.4, 0.8, 0.6, 0.5],
        [0.6, 0.5, 0.4, 0.6, 0.6],
        [0.2, 0.6, 0.5, 0.7, 0.2],
        [0.4, 0.4, 0.3, 0.5, 0.45],
        [0.5, 0.4, 0.8, 0.55, 0.5],   # rock2: rock, but only 55% against weak
    ]
    matchups = _table(names, rows).stack().rename("win_rate").rename_axis(["deck", "opponent"]).reset_index()
    matchups["mirror"] = matchups["deck"] == matchups["opponent"]
    meta = metagame(matchups).set_index("deck")
    assert meta.loc["rock2", "in_support"] and meta.loc["rock2", "weight"] == pytest.approx(0.1, abs=1e-6)
    assert not meta.loc["rock2", "dominated"]
    assert meta.loc["weak", "dominated"] and not meta.loc["weak", "in_support"]
    assert not meta.loc[meta["in_support"], "dominated"].any()


def test_metagame_of_synthetic_rock_paper_scissors_and_a_dominated_deck():
    """Synthetic RPS decks form the support near (0.2, 0.6, 0.2); a deck losing to all is dominated."""
    planted = {(ROCK, PAPER): 0.4, (ROCK, SCISSORS): 0.8, (PAPER, SCISSORS): 0.4,
               (ROCK, WEAK): 0.6, (PAPER, WEAK): 0.6, (SCISSORS, WEAK): 0.7}
    df = synthetic_results([ROCK, PAPER, SCISSORS, WEAK], 1500, planted, seed=7)
    meta = metagame(matchup_matrix(df)).set_index("deck")
    np.testing.assert_allclose(meta.loc[[ROCK, PAPER, SCISSORS], "weight"], [0.2, 0.6, 0.2], atol=0.07)
    assert meta.loc[WEAK, "weight"] < 1e-6 and not meta.loc[WEAK, "in_support"]
    assert meta.loc[WEAK, "dominated"] and not meta.loc[[ROCK, PAPER, SCISSORS], "dominated"].any()
    assert meta.loc[[ROCK, PAPER, SCISSORS], "vs_mix"].to_numpy() == pytest.approx([0.5] * 3, abs=1e-6)
    assert meta.loc[WEAK, "vs_mix"] < 0.5


# ---------------------------------------------------------------------------------------------
# cards


def _priest_swordsman(bonus: float, synergy: float):
    def strength(deck):
        kinds = synthetic_deck_cards(deck)["creature"]
        return bonus * ("Priest" in kinds) + synergy * ("Priest" in kinds and "Swordsman" in kinds)

    return lambda a, b: 0.5 + strength(a) - strength(b)


def test_card_win_rates_find_a_strong_creature():
    """A planted Priest edge makes Priest the best creature, above 50% with its interval."""
    df = synthetic_results(pool(), 4, _priest_swordsman(0.1, 0.0), seed=3)
    cards = card_win_rates(df)
    creatures = cards[cards["kind"] == "creature"]
    assert creatures.iloc[0]["card"] == "Priest" and creatures.iloc[0]["low"] > 0.5
    assert list(cards["kind"][:2]) == ["artifact", "artifact"] and (cards["decks"][2:] == 20).all()


def test_pair_synergy_finds_the_planted_pair_only():
    """A planted Priest+Swordsman bonus is the top synergy; a main effect alone makes no synergy."""
    synergy = card_pair_synergy(synthetic_results(pool(), 4, _priest_swordsman(0.0, 0.15), seed=3))
    top = synergy.iloc[0]
    assert {top["card_a"], top["card_b"]} == {"Priest", "Swordsman"} and top["synergy_low"] > 0
    assert len(synergy) == 15 and set(synergy["category"]) == {"creature"}
    plain = card_pair_synergy(synthetic_results(pool(), 4, _priest_swordsman(0.1, 0.0), seed=3))
    assert plain["synergy"].abs().max() < 0.02


# ---------------------------------------------------------------------------------------------
# game shape and flags


def test_game_shape_counts_add_up():
    """End-reason shares sum to one, draws are counted, and turn counts cover every game."""
    df = synthetic_results([A, B], 50, draw_rate=0.2, turn_limit_share=0.3, seed=1)
    shape = game_shape(df).set_index("end_reason")
    assert shape.loc[["miracle", "turn_limit"], "share"].sum() == pytest.approx(1.0)
    assert shape.loc["all", "draws"] == (df["winner"] == "draw").sum() == shape.loc["turn_limit", "draws"]
    assert shape.loc["turn_limit", "min_turns"] == 100
    turns = turn_counts(df)
    assert turns["games"].sum() == len(df)


def test_flags_on_planted_imbalances():
    """A strong deck, a lopsided matchup and a seat edge are flagged; a fair pool raises no flag."""
    decks = [A, B, C, WEAK]
    planted = {(A, B): 0.85, (A, C): 0.7, (A, WEAK): 0.7}
    df = synthetic_results(decks, 300, planted, first_advantage=0.1, seed=8)
    flags = balance_flags(df)
    found = set(zip(flags["kind"], flags["subject"]))
    assert ("deck", A) in found
    assert ("matchup", f"{A} vs {B}") in found
    assert ("first_player", "all games") in found
    assert (flags["p_adjusted"] < 0.05).all() and flags["message"].str.len().gt(20).all()
    fair = balance_flags(synthetic_results(decks, 300, seed=8))
    assert fair.empty and list(fair.columns) == list(flags.columns)


def _a_wins_60_percent(games_per_pair: int) -> pd.DataFrame:
    """Results where deck A scores exactly 60% of its non-mirror games."""
    df = synthetic_results([A, B, C], games_per_pair, seed=0)
    wins = df["game"] < 0.6 * games_per_pair
    a_first = (df["first_deck"] == A) & (df["second_deck"] != A)
    a_second = (df["second_deck"] == A) & (df["first_deck"] != A)
    df.loc[a_first, "winner"] = np.where(wins[a_first], "first", "second")
    df.loc[a_second, "winner"] = np.where(wins[a_second], "second", "first")
    return df


def test_flags_need_significance_after_correction():
    """A deck at 60% is flagged with 1000 games but not with 40: the estimate alone is not enough."""
    few, many = _a_wins_60_percent(10), _a_wins_60_percent(250)
    for df in (few, many):
        assert deck_strength(df, bootstrap=0).set_index("deck").loc[A, "win_rate"] == pytest.approx(0.6)
    quiet = balance_flags(few, FlagBands(method="bh"))
    assert ("deck", A) not in set(zip(quiet["kind"], quiet["subject"]))
    flagged = balance_flags(many)
    assert ("deck", A) in set(zip(flagged["kind"], flagged["subject"]))


def test_min_games_to_flag_follows_the_number_of_matchups():
    """A lone clean sweep needs 0.7**(2g) < 0.05/m: 8 games per pair for 15 matchups, 16 for 80 decks' 3160."""
    assert min_games_to_flag(15) == 8 and 0.7 ** 16 < 0.05 / 15 < 0.7 ** 14
    assert min_games_to_flag(3160) == 16 and 0.7 ** 32 < 0.05 / 3160 < 0.7 ** 30
    assert min_games_to_flag(3160, FlagBands(matchup=0.8)) == 25 and 0.8 ** 50 < 0.05 / 3160 < 0.8 ** 48
    assert min_games_to_flag(0) is None and min_games_to_flag(5, FlagBands(matchup=1.0)) is None


def test_many_clean_sweeps_are_flagged_among_thousands_of_matchups():
    """80 decks at 6 games per pair: the 1600 matchups Priest decks win 12-0 are flagged (BH); Holm flags none."""
    decks = pool(ARTIFACTS)

    def priest_wins(a, b):
        return (0.5 + 0.5 * ("Priest" in synthetic_deck_cards(a)["creature"])
                - 0.5 * ("Priest" in synthetic_deck_cards(b)["creature"]))

    df = synthetic_results(decks, 6, priest_wins, seed=4)
    m = matchup_matrix(df)
    flags = balance_flags(df, matchups=m)
    lopsided = flags[flags["kind"] == "matchup"]
    priest = [d for d in decks if "Priest" in d]
    planted = {f"{a} vs {b}" for a in priest for b in decks if "Priest" not in b}
    assert len(planted) == 1600 and planted <= set(lopsided["subject"])
    # an even matchup also goes 12-0 now and then (p = 1/2048 each): BH lets at most about 5% of flags be such
    assert len(lopsided) - len(planted) <= 0.05 * len(lopsided)
    assert (lopsided["games"] == 12).all()
    holm = balance_flags(df, FlagBands(matchup_method="holm"), matchups=m)
    assert not (holm["kind"] == "matchup").any()
    reach = matchup_flag_reach(m)
    assert reach["matchups"] == 3160 and reach["games_per_pair"] == 6 and reach["min_games_per_pair"] == 16
    assert not reach["enough"] and reach["power"] == 0.0


def test_matchup_flag_reach_states_power_when_the_sweep_is_big_enough():
    """Six matchups at 30 games per pair can flag from 7; a true 90/10 matchup is flagged about 93% of the time."""
    reach = matchup_flag_reach(matchup_matrix(synthetic_results([A, B, C, WEAK], 30, seed=2)))
    assert reach["min_games_per_pair"] == 7 and reach["games_per_pair"] == 30 and reach["enough"]
    from scipy import stats

    # a lone flag needs p < 0.05/6: 51 or more of 60 games against a 70% edge
    assert stats.binom.sf(50, 60, 0.7) < 0.05 / 6 < stats.binom.sf(49, 60, 0.7)
    assert reach["power"] == pytest.approx(stats.binom.sf(50, 60, 0.9))


def test_seat_flags_correct_overall_and_decks_by_holm_and_matchups_by_bh():
    """Seat flags: overall and per deck corrected together by Holm, the per-matchup ones apart by BH."""
    df = synthetic_results([A, B, C, WEAK], 20, first_advantage=0.3, seed=6)
    fp = first_player_advantage(df)
    flags = balance_flags(df, first_player=fp)
    seat = flags[flags["kind"] == "first_player"].set_index("subject")["p_adjusted"]
    for scopes, method in ((["overall", "deck"], "holm"), (["matchup"], "bh")):
        rows = fp[fp["scope"].isin(scopes)]
        p = p_beyond_exact(rows["first_wins"], rows["draws"], rows["games"], 0.45, 0.55)
        expected = pd.Series(adjust_p(p, method), index=rows["subject"])
        shown = seat.index.intersection(expected.index)
        assert len(shown) >= 4
        np.testing.assert_allclose(seat[shown], expected[shown])
    assert f"{A} vs {B}" in seat.index and "all games" in seat.index


def test_analyze_returns_every_table():
    """analyze() returns every named table, decks strongest first, and the meta."""
    tables = analyze(synthetic_results([A, B, C], 20, {(A, B): 0.7}, seed=1), bootstrap=20)
    from simkit.analysis import TABLES

    assert set(TABLES) <= set(tables) and tables["meta"]["games"] == 180
    assert tables["decks"]["rating"].is_monotonic_decreasing


def test_a_seat_is_not_flagged_where_the_seats_had_different_bots():
    """With one bot first and another second, the first seat's edge is a bot-and-seat effect: said, not flagged."""
    from simkit.analysis import balance_flags, first_player_advantage, seat_measured

    decks = ["HolyLight:Archer,BlackBat,Priest", "WindBlessing:Archer,BlackBat,Priest"]
    df = synthetic_results(decks, 200, 0.5, first_advantage=0.25, seed=3, bots=("turtle", "balanced"))
    fp = first_player_advantage(df)
    assert not fp["same_bots"].any() and fp.loc[0, "advantage"] > 0.15
    assert not (balance_flags(df)["kind"] == "first_player").any()
    sentence = seat_measured(df)
    assert "bot-and-seat effect" in sentence and "turtle first, balanced second" in sentence
    same = synthetic_results(decks, 200, 0.5, first_advantage=0.25, seed=3, bots=("balanced", "balanced"))
    assert seat_measured(same) is None and (balance_flags(same)["kind"] == "first_player").any()
