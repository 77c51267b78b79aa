"""Anytime-valid statistics of adaptive sweeps: confidence sequences, band e-values, stopping decisions."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from simkit.analysis.sequential import (
    AdaptiveSettings,
    confidence_sequence,
    e_value_beyond,
    log_mixture,
    look_p_values,
    stream_table,
    unit_status,
)
from simkit.testing.synthetic import synthetic_results

DECKS = ["A:X,Y,Z", "B:X,Y,Z", "C:X,Y,Z"]


def test_the_interval_is_exactly_where_the_mixture_stays_below_one_over_alpha():
    """Both ends of the interval sit where M_t(p) = 1/alpha, and M_t is below 1/alpha between them."""
    low, high = confidence_sequence([37.5], [60])
    level = np.log(20)
    assert log_mixture(low, 37.5, 60) == pytest.approx(level, abs=1e-6)
    assert log_mixture(high, 37.5, 60) == pytest.approx(level, abs=1e-6)
    assert (log_mixture(np.linspace(low, high, 50)[1:-1], 37.5, 60) < level).all()


def test_all_wins_reach_one_and_no_data_is_the_whole_unit_interval():
    """Ten wins out of ten give an upper end of 1; no trials give (0, 1)."""
    low, high = confidence_sequence([10, 0, 0], [10, 10, 0])
    assert high[0] == 1.0 and low[1] == 0.0
    assert (low[2], high[2]) == (0.0, 1.0)
    assert 0.5 < low[0] < 1 and 0 < high[1] < 0.5


def test_more_data_at_the_same_rate_gives_a_narrower_interval():
    """At a 60% rate the interval narrows as the trials grow from 20 to 20,000, and always holds 60%."""
    t = np.array([20, 200, 2000, 20000])
    low, high = confidence_sequence(0.6 * t, t)
    assert (np.diff(high - low) < 0).all()
    assert ((low < 0.6) & (0.6 < high)).all()
    assert high[-1] - low[-1] < 0.03


def test_the_sequence_is_wider_than_a_fixed_n_wilson_interval():
    """The price of validity at every stopping time: wider than Wilson's 95% at the same data."""
    from simkit.analysis.stats import wilson_interval

    low, high = confidence_sequence([120], [200])
    wl, wh = wilson_interval(120, 200)
    assert low < wl and high > wh


def test_covers_the_planted_mean_at_every_step_in_95_percent_of_streams():
    """Over 400 streams of 400 observations in {0, 1/2, 1} (mean 0.62), the interval misses the mean at any
    step in at most 5% of streams (time-uniform coverage, the property optional stopping needs)."""
    rng = np.random.default_rng(7)
    x = rng.choice([0.0, 0.5, 1.0], p=[0.33, 0.10, 0.57], size=(400, 400))  # mean 0.62
    s = np.cumsum(x, axis=1)
    t = np.broadcast_to(np.arange(1, 401), s.shape)
    low, high = confidence_sequence(s.ravel(), t.ravel())
    missed = ((low > 0.62) | (high < 0.62)).reshape(s.shape).any(axis=1)
    assert missed.mean() <= 0.05


def test_two_games_per_step_with_different_seat_means_keep_coverage():
    """A matchup step's two games (A first: mean 0.8, A second: mean 0.4) count as two trials of mean 0.6;
    the interval still covers 0.6 at every step end in at least 95% of 400 streams."""
    rng = np.random.default_rng(3)
    x = np.stack([rng.random((400, 300)) < 0.8, rng.random((400, 300)) < 0.4], axis=2).sum(axis=2)
    s = np.cumsum(x, axis=1)
    t = 2 * np.broadcast_to(np.arange(1, 301), s.shape)
    low, high = confidence_sequence(s.ravel(), t.ravel())
    missed = ((low > 0.6) | (high < 0.6)).reshape(s.shape).any(axis=1)
    assert missed.mean() <= 0.05


def test_the_band_e_value_is_at_most_one_inside_and_grows_beyond():
    """The e-value against 'inside 30-70%' is at most 1 for a 50% stream and large for 90% over 100 trials."""
    e = e_value_beyond([50, 90, 10], [100, 100, 100], (0.3, 0.7))
    assert e[0] <= 1
    assert e[1] > 1000 and e[2] > 1000


def _df(rate_ab: float, games: int, first_advantage: float = 0.0) -> pd.DataFrame:
    return synthetic_results(DECKS, games, {("A:X,Y,Z", "B:X,Y,Z"): rate_ab}, first_advantage=first_advantage, seed=1)


def test_a_lopsided_matchup_settles_as_flagged_and_an_even_one_does_not():
    """With 200 games per pair, a 95/5 matchup's flag is settled (e-value past m/alpha); an even one is not."""
    u = unit_status(_df(0.95, 200), AdaptiveSettings(precision=0.01))
    m = u[u["kind"] == "matchup"].set_index("subject")["status"]
    assert m["A:X,Y,Z vs B:X,Y,Z"] == "flagged"
    assert m["A:X,Y,Z vs C:X,Y,Z"] != "flagged"


def test_a_unit_beyond_its_band_stays_active_until_its_flag_settles():
    """An 85/15 matchup estimated beyond 70/30 after 12 games per pair is not flagged yet: it stays active although
    its interval is narrower than W = 0.5 (more games may flag it); at 100 games per pair (the horizon) it is
    flagged."""
    for games, status in ((12, "active"), (100, "flagged")):
        u = unit_status(_df(0.85, games), AdaptiveSettings(precision=0.5)).set_index(["kind", "subject"])
        row = u.loc[("matchup", "A:X,Y,Z vs B:X,Y,Z")]
        assert row["rate"] > 0.7 and row["high"] - row["low"] < 0.5
        assert row["status"] == status, (games, row["status"], row["p_adjusted"])


def test_an_even_matchup_settles_inside_its_band_once_the_interval_fits():
    """An even matchup is active at 4 games per pair and inside the 30-70 band at 200 per pair."""
    s = AdaptiveSettings(precision=0.01)
    few = unit_status(_df(0.5, 2), s).set_index(["kind", "subject"])["status"]
    many = unit_status(_df(0.5, 100), s).set_index(["kind", "subject"])["status"]
    assert few["matchup", "A:X,Y,Z vs C:X,Y,Z"] == "active"
    assert many["matchup", "A:X,Y,Z vs C:X,Y,Z"] == "inside"


def test_a_flag_out_of_reach_stops_for_futility_and_precision_stops_the_rest():
    """First seats at 52% (120 games per matchup, 60 per mirror) cannot be flagged against 45-55 by the horizon:
    every first-seat unit stops as futile. Without the futility rule (futility 0) the matchups' first seats that
    look balanced stop as narrower than W = 0.3, and the others stay active."""
    u = unit_status(_df(0.5, 60, first_advantage=0.02), AdaptiveSettings(precision=0.3))
    fp = u[u["kind"] == "first_player"]
    assert (fp["status"] == "futile").all()
    u = unit_status(_df(0.5, 60, first_advantage=0.02), AdaptiveSettings(precision=0.3, futility=0.0))
    fp = u[(u["kind"] == "first_player") & (u["scope"] == "matchup") & (u["deck"] != u["opponent"])]
    looks_balanced = fp["rate"].between(0.45, 0.55)
    assert looks_balanced.any() and not looks_balanced.all()
    assert (fp.loc[looks_balanced, "status"] == "narrow").all()
    assert (fp.loc[~looks_balanced, "status"] == "active").all()
    assert ((fp["high"] - fp["low"]) < 0.3).all()


def test_the_group_sequential_flag_keeps_its_error_rate_at_the_band_edge():
    """Every matchup of 30 decks played at exactly 70/30 (the band's edge, the null's worst case) to the horizon:
    a flag at any look happens for at most 5% of the 435 matchups (plus Monte-Carlo slack); at 85/15 most are
    flagged, so the test can see what it claims to."""
    decks = [f"D{i:02d}:X,Y,Z" for i in range(30)]
    pairs = [(a, b) for i, a in enumerate(decks) for b in decks[i + 1:]]
    s = AdaptiveSettings()
    at_edge = look_p_values(synthetic_results(decks, 100, {p: 0.7 for p in pairs}, draw_rate=0.0, seed=5), s)
    m = at_edge[at_edge["kind"] == "matchup"]
    assert (m["look"] == 100).all() and len(m) == 435
    assert (m["p_look"] < 0.05).mean() <= 0.05 + 2 * np.sqrt(0.05 * 0.95 / 435)
    beyond = look_p_values(synthetic_results(decks, 100, {p: 0.85 for p in pairs}, draw_rate=0.0, seed=6), s)
    assert (beyond.loc[beyond["kind"] == "matchup", "p_look"] < 0.05).mean() > 0.9


def test_streams_read_only_complete_levels():
    """A matchup reads games g of (A, B) and (B, A) only where both exist: 3 of (A, B) and 5 of (B, A) give 6
    trials; deck A's level is its smallest count against any opponent in either seat (3, so 3 x 2 x 2 = 12
    trials with 3 decks); the overall first seat reads the smallest count of all 9 pairs; a mirror reads all
    its games."""
    df = synthetic_results(DECKS, 5, seed=2)
    df = df[~((df["first_deck"] == DECKS[0]) & (df["second_deck"] == DECKS[1]) & (df["game"] >= 3))]
    u = stream_table(df).set_index(["kind", "scope", "subject"])
    assert u.loc[("matchup", "matchup", "A:X,Y,Z vs B:X,Y,Z"), ["trials", "games"]].tolist() == [6, 8]
    assert u.loc[("first_player", "matchup", "A:X,Y,Z vs A:X,Y,Z"), "trials"] == 5
    assert u.loc[("deck", "deck", "A:X,Y,Z"), "trials"] == 12
    assert u.loc[("deck", "deck", "C:X,Y,Z"), "trials"] == 20
    assert u.loc[("first_player", "overall", "all games"), "trials"] == 27


def test_a_deck_level_scores_the_deck_from_its_own_side():
    """Deck A beats B always and C never, in both seats, over 4 games per pair: A's level points are half its
    trials (rate 1/2 = the average over opponents), and the first seat scores exactly 1/2 of A's games."""
    df = synthetic_results(DECKS, 4, {("A:X,Y,Z", "B:X,Y,Z"): 1.0, ("A:X,Y,Z", "C:X,Y,Z"): 0.0}, seed=0)
    u = stream_table(df).set_index(["kind", "subject"])
    assert u.loc[("deck", "A:X,Y,Z"), ["points", "trials"]].tolist() == [8.0, 16.0]
    assert u.loc[("first_player", "A:X,Y,Z"), "points"] == 8.0


def test_flag_families_and_corrections_are_the_reports():
    """Decks and the first seat overall and per deck are corrected with Holm as one family each; matchups and
    the first seat per matchup with Benjamini-Hochberg, each family apart, as the report does."""
    from simkit.analysis.stats import adjust_p

    df = synthetic_results(["A:X,Y,Z", "B:X,Y,Z", "C:X,Y,Z", "D:X,Y,Z"], 40,
                           {("A:X,Y,Z", "B:X,Y,Z"): 0.85, ("C:X,Y,Z", "D:X,Y,Z"): 0.8}, seed=4)
    u = unit_status(df, AdaptiveSettings())
    expect = {"deck": "holm", "matchup/matchup": "bh", "first_player": "holm", "first_player/matchup": "bh"}
    assert set(u["family"]) == set(expect)
    assert (u.loc[u["kind"] == "first_player", "family"] == "first_player").sum() == 1 + 4  # overall, 4 decks
    for fam, method in expect.items():
        rows = u[u["family"] == fam]
        assert np.allclose(rows["p_adjusted"], adjust_p(rows["p_value"].to_numpy(), method))
    holm = unit_status(df, AdaptiveSettings(matchup_method="holm"))
    m = u["family"] == "matchup/matchup"
    assert (u.loc[m, "p_adjusted"] <= holm.loc[m, "p_adjusted"] + 1e-12).all()
    assert (u.loc[m, "p_adjusted"] < holm.loc[m, "p_adjusted"] - 1e-9).any()
