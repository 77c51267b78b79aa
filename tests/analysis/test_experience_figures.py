"""How the games play (simkit.analysis.experience): figures known by hand, intervals that cover, flags that need
significance after correction and never fire on noise, and results without the figures said in one line."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.analysis import FlagBands, analyze
from simkit.analysis.experience import (
    FIGURES,
    experience_estimate,
    experience_figure,
    experience_figures,
    experience_flag_subjects,
    experience_flags,
    experience_missing,
    experience_settings_of,
    experience_tables,
    game_figures,
)
from simkit.games import ResultSchema
from simkit.scenario import ExperienceSettings
from simkit.testing.synthetic import synthetic_results, with_experience

SCHEMA = ResultSchema(end_reasons={"goal": "the goal was reached", "turn_limit": "turn limit reached",
                                   "lock": "no side could win"}, cap_reason="turn_limit", experience=True,
                      lock_reasons=("lock",))
NAN = float("nan")
# (first, second, winner, end, turns, lead changes, winner's deficit, deciding turn, choices)
HAND = [
    ("A", "B", "first", "goal", 12, 2, 0.5, 10, 5.0),     # a comeback, decided late, inside the target
    ("B", "A", "second", "goal", 30, 0, 0.0, 1, 7.0),     # wire to wire (decided early), too long
    ("A", "A", "draw", "turn_limit", 30, 3, NAN, NAN, 6.0),  # a draw at the turn limit, too long
    ("B", "B", "first", "goal", 9, 1, 0.25, 3, 4.0),      # behind by exactly the bar: not a comeback; 3 <= 9/3 early
    ("A", "B", "draw", "lock", 15, 0, NAN, NAN, 2.0),     # a lock
    ("B", "A", "first", "goal", 18, 1, 0.3, 18, 8.0),     # a comeback decided on the last turn
]
TARGET = ExperienceSettings(target_turns=(10.0, 20.0), given=("target_turns",))


def _results(rows, schema: ResultSchema = SCHEMA, scenario: dict | None = None) -> pd.DataFrame:
    """A results table of literal games (the core and experience columns), its meta naming ``schema``."""
    df = pd.DataFrame(rows, columns=["first_deck", "second_deck", "winner", "end_reason", "turns", "lead_changes",
                                     "winner_deficit", "decided_turn", "choices"])
    df["game"] = df.groupby(["first_deck", "second_deck"]).cumcount()
    df["decisions"] = df["turns"] * 2
    df["uncertainty"] = NAN
    df["seed"] = np.arange(len(df))
    df["first_bot"] = df["second_bot"] = "random"
    df.attrs["meta"] = {"schema": schema.as_meta(), "game": "handmade",
                        "scenario_text": json.dumps(scenario) if scenario else ""}
    return df


def test_figures_known_by_hand_overall():
    """Six literal games, target 10-20 turns: 2 of the 4 won are comebacks (a deficit of exactly 0.25 is not), 2 of 4
    decided early, 3 of 6 inside the target, 2 longer and 1 shorter, 2 drawn, 1 at the turn limit, 1 locked, 7/6
    lead changes per game, 32/6 legal actions per decision, and no uncertainty (no bot estimated)."""
    f = experience_figures(_results(HAND), TARGET).iloc[0]
    assert (f["scope"], f["subject"], f["games"], f["won"]) == ("overall", "all games", 6, 4)
    expect = {"comebacks": 2 / 4, "decided_early": 2 / 4, "in_target": 3 / 6, "longer": 2 / 6, "shorter": 1 / 6,
              "draws": 2 / 6, "turn_limit": 1 / 6, "locks": 1 / 6, "lead_changes": 7 / 6, "choices": 32 / 6,
              "turns": 114 / 6}
    for name, value in expect.items():
        assert f[name] == pytest.approx(value), name
        assert f[f"{name}_low"] <= f[name] <= f[f"{name}_high"], name
    assert (f["comebacks_n"], f["in_target_n"], f["choices_n"]) == (4, 6, 6)
    assert math.isnan(f["uncertainty"]) and f["uncertainty_n"] == 0


def test_figures_by_deck_and_by_matchup_known_by_hand():
    """Deck A played 5 games (its mirror once), 3 won by someone, 2 of them comebacks; the matchup A vs B holds both
    seatings (4 games), 3 of them inside the target; the mirrors are matchups of their own."""
    df = _results(HAND)
    deck = experience_figures(df, TARGET, by="deck").set_index("subject")
    assert deck.loc["A", ["games", "won"]].tolist() == [5, 3]
    assert deck.loc["A", "comebacks"] == pytest.approx(2 / 3)
    assert deck.loc["B", ["games", "won"]].tolist() == [5, 4]
    pair = experience_figures(df, TARGET, by="matchup").set_index("subject")
    assert list(pair.index) == ["A vs A", "A vs B", "B vs B"]
    assert pair.loc["A vs B", "games"] == 4 and pair.loc["A vs B", "in_target"] == pytest.approx(3 / 4)
    assert pair.loc["A vs B", "locks"] == pytest.approx(1 / 4) and pair.loc["A vs A", "draws"] == 1.0
    every = experience_figures(df, TARGET, by="all")
    assert list(every["scope"]) == ["overall", "deck", "deck", "matchup", "matchup", "matchup"]


def test_game_figures_give_one_value_per_game():
    """Game by game: a comeback is 1 or 0 on a won game and NaN on a draw; without a target the length shares are
    NaN; a figure is named for a scan or tune objective and read back with its interval, overall or one row per
    deck."""
    g = game_figures(_results(HAND), ExperienceSettings())
    assert g["comebacks"].tolist()[:2] == [1.0, 0.0] and math.isnan(g["comebacks"].iloc[2])
    assert g["in_target"].isna().all() and g["decided_early"].tolist()[3] == 1.0
    est = experience_estimate(experience_figures(_results(HAND), TARGET), "in_target")
    assert (est.value, est.games, est.name) == (0.5, 6, "all games") and est.low < 0.5 < est.high
    with pytest.raises(KeyError, match="no experience figure 'fun'"):
        experience_estimate(experience_figures(_results(HAND), TARGET), "fun")
    assert set(FIGURES) <= set(experience_figures(_results(HAND), TARGET).columns)
    one = experience_figure(_results(HAND), "comebacks", TARGET, by="deck").set_index("subject")
    assert list(one.columns) == ["scope", "value", "low", "high", "games"]
    assert one.loc["A", "value"] == pytest.approx(2 / 3) and one.loc["A", "games"] == 3


def test_the_settings_come_from_the_scenario_the_results_keep():
    """The folder's kept scenario text gives the [experience] table (target, bars, authored keys); a folder without
    one gets simkit's defaults, each key's source said."""
    df = _results(HAND, scenario={"experience": {"target_turns": [8, 16], "draws": 0.2, "authored": ["target_turns"]}})
    s = experience_settings_of(df)
    assert s.target_turns == (8.0, 16.0) and s.draws == 0.2
    assert (s.source("target_turns"), s.source("draws"), s.source("comebacks")) == ("authored", "designer", "default")
    assert experience_settings_of(_results(HAND)) == ExperienceSettings()


def test_results_without_the_columns_say_why_in_one_line_and_analyze_still_works():
    """An older sweep (the game records no experience) gives no figures and one line saying why; analyze does not
    raise and carries the line; asking for the figures directly raises that line; a game that records them but rows
    without them is a sweep made before (sweep again), unless the rows are imported real games (said so)."""
    old = synthetic_results(["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"],
                            4, seed=1)
    why = experience_missing(old)
    assert why.startswith("How the games play is not measured") and "\n" not in why
    assert analyze(old, bootstrap=0)["experience"] == {"missing": why}
    with pytest.raises(ValueError, match="not measured"):
        experience_figures(old)
    declared = old.drop(columns=[]).copy()
    declared.attrs["meta"] = {**old.attrs["meta"], "schema": {**old.attrs["meta"]["schema"], "experience": True}}
    assert "sweep again" in experience_missing(declared)
    real = declared.copy()
    real.attrs["meta"] = {**declared.attrs["meta"], "source": "real games"}
    assert "imported real games" in experience_missing(real)


def test_planted_snowballing_is_flagged_and_a_healthy_pool_is_not():
    """Comebacks planted at 3% and decided early at 80% over 3 decks x 40 games: snowballing and decided early are
    flagged overall; planted at 30% and 30% (bars 10% and 50%) nothing is."""
    decks = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon",
             "SalamanderShield:Archer,FrostDragon,Swordsman"]
    base = synthetic_results(decks, 40, seed=3)
    bad = experience_tables(with_experience(base, comebacks=0.03, decided_early=0.8))
    flagged = set(zip(bad["flags"]["kind"], bad["flags"]["subject"]))
    assert {("snowballing", "all games"), ("decided_early", "all games")} <= flagged
    assert bad["flags"]["message"].iloc[0].startswith("snowballing overall: comebacks are ")
    good = experience_tables(with_experience(base, comebacks=0.3, decided_early=0.3))
    assert good["flags"].empty and len(good["subjects"]) > 0


def test_length_flags_follow_the_target_and_need_most_games_beyond_it():
    """Synthetic games last 2-100 turns: against a target of 5-20 turns most last longer (too long, flagged);
    against 80-100 most are shorter (too short); against 1-100 neither; no target, no length flag."""
    decks = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"]
    df = with_experience(synthetic_results(decks, 30, seed=2, turn_limit_share=0.0))
    for target, kind in (((5, 20), "too_long"), ((80, 100), "too_short"), ((1, 100), None)):
        s = ExperienceSettings(target_turns=target)
        kinds = set(experience_flags(experience_figures(df, s, by="all"), s)["kind"])
        assert (kind in kinds) if kind else not kinds & {"too_long", "too_short"}, target
    s = ExperienceSettings()
    assert not set(experience_flag_subjects(experience_figures(df, s, by="all"), s)["kind"]) & {"too_long",
                                                                                                "too_short"}


def test_a_draw_heavy_matchup_is_flagged_under_benjamini_hochberg_and_the_deck_family_under_holm():
    """Drawish: a pool of draws at 40% is flagged overall (Holm with the decks) and in its matchups (BH); the
    corrections differ by family."""
    decks = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"]
    df = with_experience(synthetic_results(decks, 60, seed=5, draw_rate=0.4))
    t = experience_tables(df, FlagBands())
    drawish = t["subjects"][t["subjects"]["kind"] == "drawish"]
    assert drawish.set_index("subject").loc["all games", "flagged"]
    assert set(drawish["scope"]) == {"overall", "deck", "matchup"}
    assert (drawish["p_adjusted"] >= drawish["p_value"] - 1e-12).all()


# ------------------------------------------------------------------------------------------------------------------
# properties


@st.composite
def planted(draw):
    """Results of 2-4 decks with random planted experience shares, draws and game counts."""
    decks = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon",
             "SalamanderShield:Archer,FrostDragon,Swordsman", "WindBlessing:Archer,BlackBat,Priest"]
    d = draw(st.integers(2, 4))
    df = synthetic_results(decks[:d], draw(st.integers(1, 12)), draw_rate=draw(st.floats(0, 0.5)),
                           seed=draw(st.integers(0, 10_000)))
    return with_experience(df, comebacks=draw(st.floats(0, 1)), decided_early=draw(st.floats(0, 1)),
                           lead_changes=draw(st.floats(0, 4)), seed=draw(st.integers(0, 10_000)))


@settings(max_examples=20, deadline=None)
@given(planted(), st.sampled_from([None, (5.0, 30.0), (20.0, 60.0)]))
def test_every_interval_holds_its_estimate_and_every_flag_is_beyond_its_bar_and_significant(df, target):
    """Whatever the games: each figure's interval holds its estimate (or both are NaN), and a subject is flagged only
    when its estimate lies beyond its bar and its corrected p-value is below alpha."""
    s = ExperienceSettings(target_turns=target)
    f = experience_figures(df, s, by="all")
    for name in FIGURES:
        v, lo, hi = f[name], f[f"{name}_low"], f[f"{name}_high"]
        known = v.notna() & lo.notna()
        assert ((lo[known] <= v[known] + 1e-12) & (v[known] <= hi[known] + 1e-12)).all(), name
    subjects = experience_flag_subjects(f, s)
    flagged = subjects[subjects["flagged"]]
    assert (flagged["p_adjusted"] < 0.05).all()
    below = flagged["kind"] == "snowballing"
    assert (flagged.loc[below, "value"] < flagged.loc[below, "bar"]).all()
    assert (flagged.loc[~below, "value"] > flagged.loc[~below, "bar"]).all()


def _null_sweeps(sweeps: int, subjects: int, games: int, share: float, seed: int) -> pd.DataFrame:
    """Figures of ``sweeps`` x ``subjects`` matchups whose true draw, comeback and decided-early shares sit exactly
    at their bars (the noise most likely to cross them), each matchup ``games`` games."""
    rng = np.random.default_rng(seed)
    draws = rng.binomial(games, share, (sweeps, subjects))
    won = games - draws
    back = rng.binomial(won, 0.10)
    early = rng.binomial(won, 0.50)
    rows = []
    for k in range(sweeps):
        for j in range(subjects):
            row = {"sweep": k, "scope": "matchup", "subject": f"m{j}", "games": games, "won": int(won[k, j])}
            for name, x, n in (("draws", draws[k, j], games), ("comebacks", back[k, j], won[k, j]),
                               ("decided_early", early[k, j], won[k, j])):
                row[name], row[f"{name}_n"] = (x / n if n else NAN), n
                row[f"{name}_low"] = row[f"{name}_high"] = row[name]
            rows.append(row)
    return pd.DataFrame(rows)


def test_no_flag_on_noise_at_the_bars():
    """250 sweeps of 20 matchups whose true shares sit at their bars (draws 10%, comebacks 10%, decided early 50%):
    a sweep raises a flag of a kind in at most alpha (5%) of them, plus Monte Carlo slack (3 standard errors)."""
    s = ExperienceSettings()
    figures = _null_sweeps(250, 20, 40, 0.10, seed=11)
    raised = {k: 0 for k in ("snowballing", "decided_early", "drawish")}
    for _, part in figures.groupby("sweep"):
        kinds = set(experience_flags(part.drop(columns="sweep"), s)["kind"])
        for k in kinds:
            raised[k] += 1
    slack = 3 * math.sqrt(0.05 * 0.95 / 250)
    for kind, n in raised.items():
        assert n / 250 <= 0.05 + slack, (kind, n)


@settings(max_examples=15, deadline=None)
@given(st.floats(0.05, 0.95), st.floats(0.2, 4.0), st.integers(20, 120), st.integers(0, 2**31))
def test_the_intervals_cover_the_planted_values(share, rate, games, seed):
    """300 matchups of ``games`` games with a planted draw share and Poisson lead changes: the 95% Wilson interval of
    the draws and the t interval of the lead changes each hold the planted value in at least 90% of them (95%
    nominal, less a Monte Carlo and approximation margin)."""
    rng = np.random.default_rng(seed)
    m = 300
    first = np.repeat([f"d{j:03d}" for j in range(m)], games)
    winner = np.where(rng.random(m * games) < share, "draw", "first")
    df = pd.DataFrame({"first_deck": first, "second_deck": first, "winner": winner, "end_reason": "goal",
                       "turns": 10, "lead_changes": rng.poisson(rate, m * games), "winner_deficit": 0.0,
                       "decided_turn": 5.0, "decisions": 10, "choices": 3.0, "uncertainty": NAN})
    df.loc[df["winner"] == "draw", ["winner_deficit", "decided_turn"]] = NAN
    df.attrs["meta"] = {"schema": SCHEMA.as_meta()}
    f = experience_figures(df, ExperienceSettings(), by="matchup")
    draws = ((f["draws_low"] <= share) & (share <= f["draws_high"])).mean()
    changes = ((f["lead_changes_low"] <= rate) & (rate <= f["lead_changes_high"])).mean()
    assert draws >= 0.90 and changes >= 0.90, (draws, changes)
