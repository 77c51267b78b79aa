"""The screening plan of simkit tune: single changes at the range ends, and the additive model that combines them."""

from __future__ import annotations

import numpy as np
import pytest

from simkit.analysis import FlagBands
from simkit.testing.synthetic import synthetic_results
from simkit.tune.knobs import Knob
from simkit.tune.objective import TuneWeights, balance_terms, change_cost, score
from simkit.tune.screen import (
    Additive,
    MatchupTable,
    Objective,
    best_combinations,
    matchup_table,
    opposed_pairs,
    screen_changes,
)

DECKS = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon",
         "WindBlessing:BlackBat,Priest,VolcanoDragon"]
W = TuneWeights()
OBJECTIVE = Objective(lambda t: score(t, W), lambda c: change_cost(c, W), FlagBands())


def _table(strength: list[float]) -> MatchupTable:
    """A pool where deck i scores 1/2 + s_i - s_j against deck j in either seat (a planted, exactly additive game)."""
    s = np.asarray(strength)
    points = 0.5 + s[:, None] - s[None, :]
    games = np.full(points.shape, 20.0)
    np.fill_diagonal(games, 0.0)
    return MatchupTable.even_seats(points, games)


def _model(knobs, base, singles) -> Additive:
    return Additive(knobs, [base], singles, OBJECTIVE)


def test_screening_plays_each_knob_at_both_ends_of_its_range():
    """Cost 2 in 1..3 is tried at 1 and at 3; a range starting at today's value is tried at its top only."""
    knobs = [Knob("a.cost", 2, 1, 3, True), Knob("b.attack", 0, 0, 1, True), Knob("c.rate", 0.5, 0.3, 0.8, False, 0.1)]
    assert screen_changes(knobs) == [{"a.cost": (2, 1)}, {"a.cost": (2, 3)}, {"b.attack": (0, 1)},
                                     {"c.rate": (0.5, 0.3)}, {"c.rate": (0.5, 0.8)}]


def test_the_matchup_table_of_a_sweep_gives_back_its_balance_terms():
    """Read through matchup_table, a sweep's spread, band, matchup and first-player terms are balance_terms'."""
    df = synthetic_results(DECKS, 40, lambda a, b: 0.75 if a == DECKS[0] else 0.25 if b == DECKS[0] else 0.5,
                           first_advantage=0.05, seed=3)
    t = matchup_table(df, DECKS)
    model = _model([], t, [])
    want = balance_terms(df)
    assert model.predict([]) == pytest.approx(score(want, W))
    assert abs(t.first - 0.5) == pytest.approx(want["first_player"])


def test_the_model_measures_pushed_from_the_base_game_as_balance_terms_do():
    """A single change that takes a deck from 56% to 66%: the model's prediction of it is that sweep's
    score, with ``pushed`` measured from the base's deck rates; re-anchored on the change, it still is."""
    from simkit.tune.objective import deck_rates

    def edge(rate):
        return lambda a, b: rate if a == DECKS[0] else 1 - rate if b == DECKS[0] else 0.5

    base_df, patch_df = (synthetic_results(DECKS, 40, edge(r), seed=7) for r in (0.56, 0.66))
    base, patch = matchup_table(base_df, DECKS), matchup_table(patch_df, DECKS)
    model = _model([Knob("x", 2, 0, 4, True)], base, [("x", 4, [patch])])
    terms = balance_terms(patch_df, reference=deck_rates(base_df))
    assert terms["pushed"] > 0.05
    want = score(terms, W) + change_cost({"x": (2, 4)}, W)
    assert model.predict_changes({"x": (2, 4)}) == pytest.approx(want)
    assert model.anchored([patch], {"x": (2, 4)}).predict_changes({"x": (2, 4)}) == pytest.approx(want)


def test_a_change_that_only_moves_the_seats_is_charged_per_deck_as_balance_terms_do():
    """A change that leaves every matchup even but makes going first worth 15 points: read through the
    tables, its score is balance_terms' of that sweep, where each of the 3 decks' first seat scores about 65%,
    10 points beyond the report's 5; the value halfway to it is predicted with half the edge, 2.5 beyond."""
    from simkit.tune.objective import deck_rates
    from simkit.tune.screen import deck_seat_rates

    base_df, patch_df = (synthetic_results(DECKS, 400, first_advantage=a, seed=11) for a in (0.0, 0.15))
    base, patch = matchup_table(base_df, DECKS), matchup_table(patch_df, DECKS)
    terms = balance_terms(patch_df, reference=deck_rates(base_df))
    assert terms["seat"] == pytest.approx(3 * 0.10, abs=0.03)
    assert deck_seat_rates(patch.seat, patch.seat_games) == pytest.approx([0.65] * 3, abs=0.02)
    model = _model([Knob("x", 2, 0, 4, True)], base, [("x", 4, [patch])])
    assert model.predict_changes({"x": (2, 4)}) == pytest.approx(score(terms, W) + change_cost({"x": (2, 4)}, W))
    halfway = model.anchored([patch], {"x": (2, 4)}).base[0]  # the patch, less x's effect: the base again
    assert halfway.seat == pytest.approx(base.seat)
    w_seat = TuneWeights(spread=0, band=0, matchup=0, first_player=0, pushed=0, change=0, size=0)
    only_seat = Additive([Knob("x", 2, 0, 4, True)], [base], [("x", 4, [patch])],
                         Objective(lambda t: score(t, w_seat), lambda c: 0.0, FlagBands()))
    assert only_seat.predict_changes({"x": (2, 3)}) == pytest.approx(3 * 0.025, abs=0.02)


def test_two_half_fixes_are_combined_and_a_value_between_is_interpolated():
    """Deck 0 is 20 points too strong. Knob x (screened at 4) takes 10 points off it, knob y (screened at 0)
    puts 10 points on the others; a third knob z does nothing. The best predicted patch uses x and y and no z;
    and with x alone the model reaches for the value halfway to the screened end when that is exactly right."""
    knobs = [Knob("x", 2, 0, 4, True), Knob("y", 2, 0, 4, True), Knob("z", 2, 0, 4, True)]
    base = _table([0.2, 0.0, 0.0])
    singles = [("x", 4, [_table([0.1, 0.0, 0.0])]), ("x", 0, [_table([0.3, 0.0, 0.0])]),
               ("y", 0, [_table([0.2, 0.1, 0.1])]), ("y", 4, [_table([0.2, -0.1, -0.1])]),
               ("z", 0, [base]), ("z", 4, [base])]
    model = _model(knobs, base, singles)
    best = best_combinations(model, max_changes=3, n=3)
    assert best[0] == {"x": (2, 4), "y": (2, 0)}
    assert best[1] == {"x": (2, 4), "y": (2, 0), "z": (2, 1)}  # a change that does nothing only costs its price
    # options hold every value of a screened side: x 0, 1 | 3, 4; y 0, 1 | 3, 4; z ...
    assert [(k, v) for k, _, v, _ in model.options[:8]] == [("x", 0), ("x", 1), ("x", 3), ("x", 4),
                                                            ("y", 0), ("y", 1), ("y", 3), ("y", 4)]
    i = {(k, v): j for j, (k, _, v, _) in enumerate(model.options)}
    both = {"x": (2, 4), "y": (2, 0)}
    assert model.predict([i["x", 4], i["y", 0]]) == pytest.approx(change_cost(both, W))  # a perfectly even pool
    assert model.predict([]) > 0.1
    only_x = _model(knobs[:1], _table([0.1, 0.0, 0.0]), [("x", 4, [_table([-0.1, 0.0, 0.0])])])
    assert best_combinations(only_x, max_changes=1, n=1) == [{"x": (2, 3)}]


def test_planned_candidates_are_skipped_and_the_answer_is_the_same_every_time():
    """skip() leaves out what the screening already played; two searches give the very same list."""
    knobs = [Knob("x", 2, 0, 4, True), Knob("y", 2, 0, 4, True)]
    base = _table([0.2, 0.0, 0.0])
    singles = [("x", 4, [_table([0.1, 0.0, 0.0])]), ("y", 0, [_table([0.2, 0.1, 0.1])])]
    played = [{"x": (2, 4)}, {"y": (2, 0)}]
    first = best_combinations(_model(knobs, base, singles), 2, 5, skip=lambda c: c in played)
    again = best_combinations(_model(knobs, base, singles), 2, 5, skip=lambda c: c in played)
    assert first == again and len(first) == 5
    assert {"x": (2, 4)} not in first and {"y": (2, 0)} not in first


def test_a_later_round_predicts_from_the_anchor_as_measured():
    """x and y each take 10 points off the strong deck alone, but together only 5 (they overlap). Anchored on
    the played pair, the model predicts the pair as measured, and the pair with x pushed further as the
    measurement plus x's extra effect alone."""
    knobs = [Knob("x", 2, 0, 4, True), Knob("y", 2, 0, 4, True)]
    base = _table([0.2, 0.0, 0.0])
    singles = [("x", 4, [_table([0.1, 0.0, 0.0])]), ("y", 0, [_table([0.2, 0.1, 0.1])])]
    model = _model(knobs, base, singles)
    pair = {"x": (2, 3), "y": (2, 0)}
    measured = _table([0.125, 0.0, 0.0])
    anchored = model.anchored([measured], pair)
    want = _model([], measured, [])
    assert anchored.predict_changes(pair) == pytest.approx(want.predict([]) + change_cost(pair, W))
    further = {"x": (2, 4), "y": (2, 0)}
    assert anchored.predict_changes(further) == pytest.approx(
        _model([], _table([0.075, 0.0, 0.0]), []).predict([]) + change_cost(further, W))
    assert model.predict_changes(further) < anchored.predict_changes(further)  # the base alone was too hopeful


def test_a_diverse_round_tries_different_ideas_not_variants_of_one():
    """Four knobs that each take 5 points off the strong deck: the best predicted triples are variants of one
    another; asked for diversity, no two of the answers share more than one knob."""
    knobs = [Knob(k, 2, 0, 4, True) for k in "abcd"]
    base = _table([0.2, 0.0, 0.0])
    singles = [(k, 4, [_table([0.15, 0.0, 0.0])]) for k in "abcd"]
    model = _model(knobs, base, singles)
    plain = best_combinations(model, 3, 4)
    assert any(len(p.keys() & q.keys()) > 1 for i, p in enumerate(plain) for q in plain[:i])
    diverse = best_combinations(model, 3, 4, diverse=True)
    assert diverse[0] == plain[0] and len(diverse) >= 2
    assert all(len(p.keys() & q.keys()) <= 1 for i, p in enumerate(diverse) for q in diverse[:i])


def test_a_levers_effect_size_is_how_far_it_moves_the_matchups():
    """x at 4 takes 10 points off deck 0 against each of the 2 others (4 of the 9 cells move by 0.1): a root mean
    square of 0.1 x sqrt(4/9); x at 3, interpolated, half that; z, which changes nothing, 0."""
    knobs = [Knob("x", 2, 0, 4, True), Knob("z", 2, 0, 4, True)]
    base = _table([0.2, 0.0, 0.0])
    model = _model(knobs, base, [("x", 4, [_table([0.1, 0.0, 0.0])]), ("z", 4, [base])])
    i = {(k, v): j for j, (k, _, v, _) in enumerate(model.options)}
    assert model.effect_size(i["x", 4]) == pytest.approx(0.1 * (4 / 9) ** 0.5)
    assert model.effect_size(i["x", 3]) == pytest.approx(0.05 * (4 / 9) ** 0.5)
    assert model.effect_size(i["z", 4]) == 0


def test_a_played_pairs_interaction_is_added_to_every_combination_holding_it():
    """Deck 0 is 20 points too strong. x (at 4) and y (at 0) each make it 10 points stronger alone, but played
    together they even the pool (their effects do not add). Given that pair, the model predicts it exactly as
    measured, x halfway (3) with y as half the interaction, and the pair with z (which takes 5 points off deck 0
    alone) as the measured pair plus z's effect; it finds the pair though neither change is in the depth-1 beam.
    Without the pair the same model never proposes x with y."""
    knobs = [Knob("x", 2, 0, 4, True), Knob("y", 2, 0, 4, True), Knob("z", 2, 0, 4, True)]
    base = _table([0.2, 0.0, 0.0])
    singles = [("x", 4, [_table([0.3, 0.0, 0.0])]), ("y", 0, [_table([0.3, 0.0, 0.0])]),
               ("z", 4, [_table([0.15, 0.0, 0.0])])]
    pair = (("x", 4), ("y", 0), [_table([0.0, 0.0, 0.0])])
    plain = _model(knobs, base, singles)
    model = Additive(knobs, [base], singles, OBJECTIVE, pairs=[pair])
    both = {"x": (2, 4), "y": (2, 0)}
    even = _model([], _table([0.0, 0.0, 0.0]), [])
    assert model.predict_changes(both) == pytest.approx(even.predict([]) + change_cost(both, W))
    assert plain.predict_changes(both) > plain.predict([]) + 0.5  # adding effects: deck 0 40 points too strong
    # x at 3: half x's effect (+5) and half the interaction (-20 of the -40 points the pair did beyond the two)
    half = {"x": (2, 3), "y": (2, 0)}
    assert model.predict_changes(half) == pytest.approx(_model([], _table([0.15, 0, 0]), []).predict([])
                                                        + change_cost(half, W))
    three = {"x": (2, 4), "y": (2, 0), "z": (2, 4)}
    assert model.predict_changes(three) == pytest.approx(_model([], _table([-0.05, 0, 0]), []).predict([])
                                                         + change_cost(three, W))
    # re-anchored on the pair as played, the pair is predicted as measured still
    anchored = model.anchored([_table([0.0, 0.0, 0.0])], both)
    assert anchored.predict_changes(both) == pytest.approx(model.predict_changes(both))
    assert best_combinations(model, 3, 1, beam=1) == [both]
    assert best_combinations(plain, 3, 1) == [{"z": (2, 4)}]


def test_a_played_pair_is_extended_by_knobs_listed_before_it_too():
    """z, listed first, takes 10 points off the strong deck; x and y (listed after it) each add 10 alone and
    together take 10 off. The pair with z evens the pool: with a beam of 1 the search still reaches it,
    though z's index is below the pair's."""
    knobs = [Knob("z", 2, 0, 4, True), Knob("x", 2, 0, 4, True), Knob("y", 2, 0, 4, True)]
    base = _table([0.2, 0.0, 0.0])
    singles = [("z", 4, [_table([0.1, 0.0, 0.0])]), ("x", 4, [_table([0.3, 0.0, 0.0])]),
               ("y", 0, [_table([0.3, 0.0, 0.0])])]
    model = Additive(knobs, [base], singles, OBJECTIVE, pairs=[(("x", 4), ("y", 0), [_table([0.1, 0.0, 0.0])])])
    assert best_combinations(model, 3, 1, beam=1) == [{"z": (2, 4), "x": (2, 4), "y": (2, 0)}]

def test_opposed_pairs_pair_the_biggest_seat_movers_that_pull_opposite_ways():
    """Shifts of the first seat's score: a (-0.12 at one end, +0.10 at the other), b -0.08, c +0.05, d -0.01.
    The 4 biggest are a-, a+, b, c; each two of different knobs pulling opposite ways, larger shifts first:
    a- with c, a+ with b, b with c (a+ with a- is one knob; d is not among the 4)."""
    a_low, a_high, b, c, d = {"a": (3, 1)}, {"a": (3, 5)}, {"b": (2, 1)}, {"c": (4, 6)}, {"d": (1, 2)}
    shifts = [(a_high, 0.10), (b, -0.08), (c, 0.05), (d, -0.01), (a_low, -0.12)]
    assert opposed_pairs(shifts, 4) == [{"a": (3, 1), "c": (4, 6)}, {"a": (3, 5), "b": (2, 1)},
                                        {"b": (2, 1), "c": (4, 6)}]
    assert opposed_pairs(shifts, 1) == [] and opposed_pairs([], 4) == []
