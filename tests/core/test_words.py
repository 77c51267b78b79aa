"""simkit.core.words: every judging sentence comes from one place and is never stronger than its interval.

Literal cases first (the findings of issue 53, each as the numbers that were seen), then property tests that drive
the words with random estimates and with random result tables (the report's own analysis) and check that no
sentence contradicts its numbers or another sentence on the same page.
"""

from __future__ import annotations

import math
import re

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from simkit.core.words import (
    Banded,
    Estimate,
    balance_verdict,
    card_status,
    change_verdict,
    count,
    crossing_verdict,
    detectable_change,
    games_for_change,
    guarantee_sentence,
    match_sentence,
    player_answer,
    plural,
    seat_change_clause,
    seat_sentence,
    seats_guarantee_sentence,
    settle_projection,
    tune_verdict,
)

DECK, MATCHUP, SEAT = (0.45, 0.55), (0.3, 0.7), (0.45, 0.55)


def _deck(value, low, high, games=40, name="D", flagged=False, family=6):
    return Banded("deck", Estimate(value, low, high, games, name), DECK, flagged, family)


def test_plurals_of_a_games_nouns():
    """Plurals of the games' own nouns: decks, armies, hero classes; a count says one or many."""
    assert [plural(n) for n in ("deck", "army", "hero class", "day")] == ["decks", "armies", "hero classes", "days"]
    assert (count(1, "deck"), count(3, "army")) == ("1 deck", "3 armies")


# ----------------------------------------------------------------------------------------------
# the seat: "worth" only when the interval leaves 0 out


def test_a_seat_edge_whose_interval_holds_zero_is_no_measurable_edge():
    """Miracle quick's +5.6 points, 95% CI -2.6 to +13.4, is 'no measurable seat edge', never 'worth'."""
    s = seat_sentence(Estimate(0.056, -0.026, 0.134), 0.05, games=144)
    assert s.startswith("no measurable seat edge: +5.6 points (95% CI -2.6 to +13.4, 144 games)")
    assert "worth" not in s and "not settled" in s


def test_a_seat_edge_whose_interval_leaves_zero_out_is_worth_its_points():
    """An interval of +3.2 to +12.8 says going first is worth +8.0 points; flagged, it says beyond the band."""
    s = seat_sentence(Estimate(0.08, 0.032, 0.128), 0.05, flagged=True)
    assert s.startswith("going first is worth +8.0 points (95% CI +3.2 to +12.8)") and "significantly beyond" in s
    s = seat_sentence(Estimate(-0.03, -0.045, -0.015), 0.05)
    assert s.startswith("going second is worth 3.0 points") and s.endswith("inside +-5 points")


@given(st.floats(-0.4, 0.4), st.floats(0.0, 0.3), st.floats(0.0, 0.3), st.booleans())
def test_seat_words_follow_the_interval(value, below, above, flagged):
    """Whatever the edge: 'worth' exactly when the interval as printed (points, one decimal) leaves 0 out,
    'inside' only when it lies inside the band, 'significantly' only when flagged."""
    e = Estimate(value, value - below, value + above)
    s = seat_sentence(e, 0.05, flagged)
    low, high = float(f"{100 * e.low:.1f}"), float(f"{100 * e.high:.1f}")
    assert ("worth" in s) == (low > 0 or high < 0)
    assert ("no measurable" in s) == (low <= 0 <= high)
    assert ("inside +-5 points" in s) == (not flagged and -0.05 <= e.low and e.high <= 0.05)
    assert ("significantly" in s) == flagged


# ----------------------------------------------------------------------------------------------
# the balance verdict


def test_a_pool_with_decks_outside_the_band_but_no_flag_is_not_settled_and_says_how_many_games_settle_it():
    """Miracle quick: 4 of 6 decks outside 45-55% by estimate, none flagged: 'not settled yet', with a projection."""
    items = [_deck(0.725, 0.572, 0.839, name="Inferno"), _deck(0.30, 0.181, 0.454, name="Wind"),
             _deck(0.56, 0.41, 0.70), _deck(0.42, 0.28, 0.57), _deck(0.50, 0.35, 0.65), _deck(0.52, 0.37, 0.66)]
    v = balance_verdict(items, 4)
    assert v.state == "not settled" and v.sentence.startswith("Not settled yet: by their estimates 4 of 6 decks lie")
    assert "none significantly" in v.sentence and "would flag Inferno at 72.5%" in v.sentence
    assert v.games is not None and v.games > 4 and f"--games {int(v.games)}" in v.sentence


def test_a_flag_makes_it_not_balanced_and_names_the_furthest():
    """One deck flagged: 'Not balanced', the furthest named with its interval."""
    items = [_deck(0.80, 0.70, 0.88, name="Strong", flagged=True), _deck(0.5, 0.47, 0.53)]
    v = balance_verdict(items, 40)
    assert v.state == "not balanced"
    assert v.sentence == ("Not balanced: 1 of 2 decks lies outside 45-55%, significantly (furthest: Strong at 80.0%, "
                          "95% CI 70.0%-88.0%).")


def test_every_interval_inside_its_band_is_balanced():
    """Every deck, matchup and the seat inside their bands by their whole intervals: 'Balanced', saying so."""
    items = [_deck(0.5, 0.46, 0.54), _deck(0.51, 0.47, 0.545),
             Banded("matchup", Estimate(0.55, 0.45, 0.65, 100, "A vs B"), MATCHUP),
             Banded("seat", Estimate(0.51, 0.49, 0.53, 800), SEAT),
             Banded("deck seat", Estimate(0.6, 0.45, 0.75, 80, "A"), SEAT, required=False)]
    v = balance_verdict(items, 50)
    assert v.state == "balanced"
    assert v.sentence == ("Balanced: every deck's 95% interval lies inside 45-55%, every matchup's inside 30/70 and "
                          "the first seat's edge inside +-5 points; no per-deck seat edge is flagged.")


def test_an_unfinished_sweep_is_not_settled_and_says_resume():
    """A sweep not finished and nothing flagged: not settled, and how to finish it."""
    v = balance_verdict([_deck(0.5, 0.46, 0.54)], 10, complete=False)
    assert v.state == "not settled" and "simkit sweep --resume" in v.sentence


def test_a_projection_to_flag_uses_the_exact_test_and_does_not_trust_a_few_games():
    """A matchup won 8 of 8 (4 games per pair) among 15 cannot be flagged before 8 games per pair (the report's reach
    says so): the projection uses the exact test, and holds the rate at 10 of 12 (plus four), so it asks more; a
    single game won (100%) is not projected to a flag at all."""
    m = Banded("matchup", Estimate(1.0, 0.676, 1.0, 8, "A vs B"), MATCHUP, family=15)
    games, subject, route = settle_projection([m], 4)
    assert games > 8 and subject is m and route == "flag"
    one = Banded("matchup", Estimate(1.0, 0.207, 1.0, 1, "C vs D"), MATCHUP, family=15)
    assert settle_projection([one], 1)[2] == "inside"


def _required_inside(items):
    return all(b.estimate.inside(*b.band) for b in items if b.required)


@st.composite
def banded(draw):
    """A random subject: a deck, a matchup or the seat, a rate with an interval around it, flagged or not."""
    kind = draw(st.sampled_from(["deck", "matchup", "seat", "deck seat"]))
    band = {"deck": DECK, "matchup": MATCHUP}.get(kind, SEAT)
    value = draw(st.floats(0.02, 0.98))
    low = value - draw(st.floats(0, 0.3))
    high = value + draw(st.floats(0, 0.3))
    outside = value < band[0] or value > band[1]
    flagged = outside and draw(st.booleans())
    est = Estimate(value, max(low, 0), min(high, 1), draw(st.integers(1, 400)), f"S{draw(st.integers(0, 99))}")
    return Banded(kind, est, band, flagged, family=draw(st.integers(1, 30)), required=kind != "deck seat")


@given(st.lists(banded(), min_size=1, max_size=12), st.integers(1, 60), st.booleans())
def test_a_verdict_never_says_more_than_its_intervals(items, games, complete):
    """Random subjects: 'Balanced' only when nothing is flagged and every required interval lies inside its band;
    'Not balanced' only with a flag; otherwise 'Not settled yet', with a projection of more games than were played."""
    v = balance_verdict(items, games, complete=complete)
    assert v.sentence.startswith({"balanced": "Balanced:", "not balanced": "Not balanced:",
                                  "not settled": "Not settled yet:"}[v.state])
    assert (v.state == "not balanced") == any(b.flagged for b in items)
    if v.state == "balanced":
        assert complete and _required_inside(items)
    if v.state == "not settled":
        assert not complete or not _required_inside(items) or not any(b.required for b in items)
        assert "significantly (" not in v.sentence
        if v.games is not None and math.isfinite(v.games):
            assert v.games > games
    assert v.sentence.count("Balanced") + v.sentence.count("balanced") <= 1


# ----------------------------------------------------------------------------------------------
# compare


def test_a_comparison_too_small_to_see_five_points_is_not_settled():
    """Four games a pair (x0.98, 95% CI x0.65-1.41): not 'no measurable effect' but not settled, with the smallest
    change it could see and the games a change of 5 points needs."""
    smallest = detectable_change(0.55, 40, 6)
    need = games_for_change(0.05, smallest, 4)
    kind, s = change_verdict((0.156, 0.153), Estimate(0.98, 0.65, 1.41), (2, 0), 6, DECK, smallest, 4, needed=need)
    assert kind == "not settled"
    assert s.startswith("not settled (no measurable effect on balance yet): deck spread 15.6 -> 15.3")
    assert f"about {100 * smallest:.0f} points" in s and f"needs about {int(need):,} games per pair" in s
    assert smallest > 0.05 and need > 4


def test_a_comparison_that_could_see_five_points_and_saw_nothing_says_no_measurable_effect():
    """Many games (the smallest detectable change under 5 points), a ratio interval holding 1: no measurable effect."""
    kind, s = change_verdict((0.1, 0.1), Estimate(1.0, 0.95, 1.05), (3, 3), 6, DECK, 0.02, 200)
    assert kind == "no measurable effect on balance" and "could only detect a deck change of about 2 points" in s


def test_a_seat_that_moved_is_said_beside_a_verdict_of_no_effect():
    """Magic War's quick sweep with leaders immune for two turns: the spread did not move, but the first seat lost
    3.1 points (95% CI -5.8 to -0.4): the verdict says so instead of leaving 'no measurable effect' alone."""
    clause = seat_change_clause(-0.010, -0.042, Estimate(-0.031, -0.058, -0.004))
    assert clause == "; the first seat's edge changed: -1.0 -> -4.2 points (change -3.1, 95% CI -5.8 to -0.4)"


@given(st.floats(-0.2, 0.2), st.floats(0.0, 0.1), st.floats(0.0, 0.1))
def test_the_seat_clause_appears_exactly_when_its_interval_leaves_zero_out(change, below, above):
    """No clause for a seat change whose interval holds 0; a clause naming its interval otherwise."""
    est = Estimate(change, change - below, change + above)
    clause = seat_change_clause(0.0, change, est)
    assert (clause != "") == (est.low > 0 or est.high < 0)
    if clause:
        assert est.ci_pts() in clause


@given(st.floats(0.3, 2.0), st.floats(0.0, 0.5), st.floats(0.0, 0.5), st.floats(0.0, 0.4), st.integers(1, 100))
def test_compare_words_follow_the_ratio_interval(ratio, below, above, smallest, games):
    """'more/less balanced' only when the ratio's interval lies wholly below/above 1; 'no measurable effect' only when
    a 5-point change was within reach."""
    est = Estimate(ratio, ratio - below, ratio + above)
    kind, s = change_verdict((0.1, 0.1 * ratio), est, (1, 1), 4, DECK, smallest, games)
    assert (kind == "more balanced") == (est.high < 1)
    assert (kind == "less balanced") == (est.low > 1)
    if kind == "no measurable effect on balance":
        assert smallest <= 0.05
    assert s.startswith(kind if kind != "not settled" else "not settled (no measurable effect on balance yet)")


# ----------------------------------------------------------------------------------------------
# explore, scan, tune


def test_explores_guarantee_is_met_only_below_epsilon():
    """Exploitability +0.000, interval +0.000 to +0.221, epsilon 0.02: NOT met (the upper end is above epsilon)."""
    met, s = guarantee_sentence(Estimate(0.0, 0.0, 0.221), 0.02, "settled")
    assert not met and s.startswith("guarantee NOT met: exploitability +0.000 (interval +0.000 to +0.221)")
    met, s = guarantee_sentence(Estimate(0.0, -0.01, 0.015), 0.02, "settled")
    assert met and s.startswith("guarantee met")


@given(st.floats(-0.2, 0.3), st.floats(0, 0.2), st.floats(0, 0.2), st.floats(0.005, 0.1))
def test_the_guarantee_follows_the_upper_end(value, below, above, epsilon):
    """Met exactly when the upper end of the exploitability's interval lies below epsilon."""
    met, s = guarantee_sentence(Estimate(value, value - below, value + above), epsilon, "settled")
    assert met == (value + above < epsilon) and ("guarantee met" in s) == met


def test_a_seated_guarantee_is_met_only_when_both_seats_upper_ends_lie_below_epsilon():
    """Each seat's exploitability with its interval: met for both only when both upper ends lie below epsilon; one
    seat alone is named as met, the other as not (never "NOT met for the first seat only", which reads both ways)."""
    ok, wide = Estimate(0.0, -0.01, 0.015), Estimate(0.0, -0.26, 0.33)
    met, s = seats_guarantee_sentence({"first": ok, "second": ok}, 0.02, "settled")
    assert met and s.startswith("guarantee met for both seats")
    met, s = seats_guarantee_sentence({"first": ok, "second": wide}, 0.02, "settled")
    assert not met and s.startswith("guarantee met for the first seat only, NOT for the second: the exploitability "
                                    "of the first seat's metagame +0.000 (interval -0.010 to +0.015) and of the "
                                    "second seat's")
    assert "the second seat's may reach epsilon = 0.02, so a deck beating its metagame" in s
    met, s = seats_guarantee_sentence({"first": wide, "second": wide}, 0.02, "max_games")
    assert not met and "for either seat" in s and s.endswith("the run stopped on --max-games first")


def test_a_card_is_dead_only_when_no_deck_holding_it_is_in_the_mixture_the_strongest_or_the_band():
    """InfernoFlame in a strongest deck is never dead; a card no searched deck holds is untested, not dead."""
    assert card_status(0, 1, 0, 3) == "strongest"
    assert card_status(0, 0, 1, 3) == "band"
    assert card_status(0, 0, 0, 3) == "dead"
    assert card_status(0, 0, 0, 0) == "untested"


def test_a_scan_crossing_is_settled_only_inside_the_range():
    """A crossing whose interval runs beyond the values scanned is not settled, and the sentence says what to do."""
    s = crossing_verdict("first-seat win rate", "rules.x", "50%", 3.4, 3.1, 3.9, 2, 5)
    assert s.startswith("Settled: the first-seat win rate reaches 50% at rules.x = 3.4 (95% interval 3.1 to 3.9)")
    s = crossing_verdict("first-seat win rate", "rules.x", "50%", 3.4, -math.inf, 3.9, 2, 5, games=4)
    assert s.startswith("Not settled") and "below 2" in s and "more games per pair than 4" in s
    s = crossing_verdict("first-seat win rate", "rules.x", "50%", math.nan, math.nan, math.nan, 2, 5, side="above")
    assert s.startswith("Not settled in this range") and "above 50%" in s


def test_tune_never_proposes_a_candidate_its_confirmation_or_check_rejects():
    """Issue 53's tune: search 0.5656 -> 0.6209, confirmation 0.607 -> 0.608, pooled 0.5178 -> 0.4318, the check
    cannot tell: no safe proposal, why, which figure decides, the pooled figure read as what it is, a bigger budget."""
    safe, s = tune_verdict(1, (0.5656, 0.6209), (0.6068, 0.6082), (0.5178, 0.4318), "cannot tell",
                           Estimate(1.14, 0.87, 1.54), 2, 4, 4)
    assert not safe and s.startswith("no safe proposal: on the confirmation seeds it does not beat the base")
    assert "cannot tell it from the base" in s
    assert "The confirmation seeds decide whether it beats the base" in s and "--games 16" in s
    assert "lies below both of its parts" in s
    safe, s = tune_verdict(2, (0.5, 0.4), (0.5, 0.42), (0.5, 0.41), "better", Estimate(0.7, 0.6, 0.85), 0, 20, 20)
    assert safe and s.startswith("proposed (2 changes)")


@given(st.integers(0, 4), st.floats(0, 1), st.floats(0, 1), st.sampled_from(["better", "worse", "cannot tell"]),
       st.integers(0, 3))
def test_a_proposal_is_safe_only_when_the_confirmation_and_the_check_agree(changes, base, cand, check, flags):
    """Safe exactly when a number changes, the confirmation beats the base and the check says better; a new flag is
    named beside a proposal."""
    ratio = {"better": Estimate(0.8, 0.7, 0.9), "worse": Estimate(1.2, 1.1, 1.3),
             "cannot tell": Estimate(1.0, 0.8, 1.2)}[check]
    safe, s = tune_verdict(changes, (base, cand), (base, cand), (base, cand), check, ratio, flags, 8, 8)
    assert safe == (changes > 0 and cand < base and check == "better")
    assert s.startswith("proposed") == safe and s.startswith("no safe proposal") != safe
    if safe:
        assert ("the check raises" in s) == (flags > 0)


# ----------------------------------------------------------------------------------------------
# a whole page, from random result tables


DECKS = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:Archer,BlackBat,Priest",
         "WindBlessing:BlackBat,FrostDragon,Swordsman", "SalamanderShield:Archer,FrostDragon,VolcanoDragon",
         "HolyLight:BlackBat,Priest,VolcanoDragon"]


@st.composite
def result_tables(draw):
    """A random round robin of 2-5 decks, 1-30 games per pair, planted rates, seat edge and draws."""
    from simkit.testing.synthetic import synthetic_results

    d = draw(st.integers(2, 5))
    decks = DECKS[:d]
    rates = {}
    for i in range(d):
        for j in range(i + 1, d):
            rates[(decks[i], decks[j])] = draw(st.sampled_from([0.5, 0.55, 0.65, 0.8, 0.95, 0.2, 0.4]))
    return synthetic_results(decks, draw(st.integers(1, 30)), rates, first_advantage=draw(st.sampled_from(
        [0.0, 0.03, 0.1, -0.08])), draw_rate=draw(st.sampled_from([0.0, 0.2])), seed=draw(st.integers(0, 10 ** 6)))


def _page(df):
    from simkit.analysis import analyze
    from simkit.report.balance import headlines, reach_words, verdict

    tables = analyze(df, bootstrap=0)
    return tables, verdict(tables), headlines(tables), reach_words(tables)


CI = re.compile(r"([+-]\d+\.\d) points \(95% CI ([+-]\d+\.\d) to ([+-]\d+\.\d)")


@given(result_tables())
def test_no_sentence_of_a_report_page_contradicts_its_numbers_or_another(df):
    """A random sweep's first page: the verdict's state agrees with the flags and the intervals; the seat sentence
    says 'worth' only when its printed interval leaves 0 out; the deck count outside the band is the table's; no
    sentence calls the game balanced unless the verdict does, none says 'significantly' outside the flags' count."""
    tables, v, heads, reach = _page(df)
    flags = tables["flags"]
    assert (v.state == "not balanced") == (len(flags) > 0)
    decks = tables["decks"][tables["decks"]["games"] > 0]
    if v.state == "balanced":
        assert decks["low"].ge(0.45).all() and decks["high"].le(0.55).all()
    page = [v.sentence, *heads, *reach]
    for s in page:
        low = s.lower()
        assert low.count("balanced") == low.count("not balanced") + (v.state == "balanced" and s is v.sentence)
        for m in CI.finditer(s):
            lo, hi = float(m.group(2)), float(m.group(3))
            before = s[:m.start()]
            if "worth" in before[-40:]:
                assert lo > 0 or hi < 0, s
            if "no measurable" in before[-40:]:
                assert lo <= 0 <= hi, s
    seat = next(h for h in heads if "seat edge" in h or "worth" in h)
    o = tables["first_player"].query("scope == 'overall'").iloc[0]
    assert ("worth" in seat) == (float(f"{100 * o['low']:.1f}") > 0 or float(f"{100 * o['high']:.1f}") < 0)
    outside = int(((decks["win_rate"] < 0.45) | (decks["win_rate"] > 0.55)).sum())
    ranged = next(h for h in heads if h.startswith("Deck win rates range"))
    assert (f"{outside} of {len(decks)} lie outside" in ranged) == (outside > 0)
    n_flags = next(h for h in heads if h.startswith("Flags (significant after correction)"))
    assert n_flags.startswith(f"Flags (significant after correction): {len(flags)} ")
    if not len(flags):
        assert not any("significantly (" in s or "significantly beyond" in s for s in page)
    assert not np.isnan(len(page))


def test_a_bot_plays_better_only_when_its_score_interval_lies_above_one_half():
    """The match sentence says better or worse only when the score's interval leaves 0.5 out."""
    assert match_sentence("s", "u", Estimate(0.62, 0.55, 0.69, games=200)).startswith("s plays better than u")
    assert match_sentence("s", "u", Estimate(0.40, 0.33, 0.47)).startswith("s plays worse than u")
    assert "not told apart" in match_sentence("s", "u", Estimate(0.55, 0.48, 0.62))


@given(st.floats(0.0, 1.0), st.floats(0.0, 0.3), st.floats(0.0, 0.3), st.floats(0.0, 1.0), st.floats(0.0, 0.3),
       st.floats(0.0, 0.3))
def test_the_player_matters_only_when_both_intervals_say_so(score, below, above, skill, s_below, s_above):
    """"The player matters" needs the score's interval off 0.5 and the players' share's interval above 0."""
    sc = Estimate(score, max(0.0, score - below), min(1.0, score + above), games=100)
    sk = Estimate(skill, max(0.0, skill - s_below), min(1.0, skill + s_above))
    rest = Estimate((1 - skill) / 2, 0.0, 1.0)
    answer = player_answer("s", "u", sc, {"skill": sk, "decks": rest, "luck": rest})
    matters = sc.excludes(0.5) and sk.low > 0
    assert answer.startswith("The player matters:") == matters
    if not sc.excludes(0.5):
        assert "not told apart" in answer


@st.composite
def compared_sweeps(draw):
    """A random base sweep and a patch of it on the same seeds: 3-5 decks, 2-20 games per pair, a planted edge of
    the first deck that the patch moves by a random amount (0 included)."""
    from simkit.testing.synthetic import synthetic_results

    decks = DECKS[:draw(st.integers(3, 5))]
    games = draw(st.integers(2, 20))
    seed = draw(st.integers(0, 10 ** 6))
    edge = draw(st.sampled_from([0.0, 0.1, 0.25]))
    moved = draw(st.sampled_from([0.0, -0.05, -0.1, -0.25]))

    def rates(e):
        return {(decks[0], d): 0.5 + e for d in decks[1:]}

    return (synthetic_results(decks, games, rates(edge), seed=seed, scenario_hash="b"),
            synthetic_results(decks, games, rates(max(edge + moved, -0.4)), seed=seed, scenario_hash="p"))


@settings(max_examples=8, deadline=None)
@given(compared_sweeps())
def test_no_sentence_of_a_comparison_contradicts_its_numbers(sweeps):
    """A random base and patch: the verdict is 'more/less balanced' only when the spread's interval lies below/above
    1 and 'no measurable effect' only when a 5-point change was within reach; each 'N of M changed significantly'
    counts the changes whose corrected interval leaves 0 out (and agrees with the tests); the seat line says
    'significant' exactly when its printed interval leaves 0 out; no other sentence says 'more balanced'."""
    from simkit.analysis.paired import compare_results
    from simkit.report.comparison import compare_headlines

    t = compare_results(*sweeps)
    v = t["verdict"]
    assert (v["kind"] == "more balanced") == (v["high"] < 1)
    assert (v["kind"] == "less balanced") == (v["low"] > 1)
    if v["kind"] == "no measurable effect on balance":
        assert v["smallest"] <= 0.05
    heads = compare_headlines(t)
    for name, label in (("deck_deltas", "Decks"), ("card_deltas", "Cards")):
        d = t[name]
        excl = int(((d["adj_low"] > 0) | (d["adj_high"] < 0)).sum())
        assert excl == int(d["significant"].sum())
        line = next(h for h in heads if h.startswith(f"{label}: "))
        assert line.startswith(f"{label}: {excl} of {len(d)} changed significantly")
    seat = next(h for h in heads if h.startswith("First-player advantage"))
    lo, hi = (float(x) for x in re.search(r"95% CI ([+-]\d+\.\d) to ([+-]\d+\.\d)", seat).groups())
    if lo != 0 and hi != 0:  # an end printed as 0.0 may round a hair either side of 0
        assert ("not significant" not in seat) == (lo > 0 or hi < 0)
    assert not any("more balanced" in h or "less balanced" in h for h in heads)


def test_paired_change_clause_says_a_direction_only_when_the_interval_leaves_zero_out():
    """Krypton's end rules (lab/krypton_end_rules.py): fewer draws when the whole interval is below 0; no measurable
    change when it holds 0; the same in every game when every paired game is unchanged; rounds as plain numbers."""
    from simkit.core.words import paired_change_clause

    fewer = paired_change_clause("drawn games", 0.497, 0.221, Estimate(-0.276, -0.31, -0.242), ("more", "fewer"))
    assert fewer == "drawn games 49.7% -> 22.1% (change -27.6 points, 95% CI -31.0 to -24.2): fewer"
    held = paired_change_clause("drawn games", 0.5, 0.48, Estimate(-0.02, -0.06, 0.01), ("more", "fewer"))
    assert held.endswith(": no measurable change") and "fewer" not in held
    same = paired_change_clause("drawn games", 0.5, 0.5, Estimate(0.0, 0.0, 0.0), ("more", "fewer"))
    assert same.endswith(": the same in every paired game")
    rounds = paired_change_clause("length", 32.7, 18.9, Estimate(-13.8, -14.6, -13.0), ("longer", "shorter"), "rounds")
    assert rounds == "length 32.7 -> 18.9 rounds (change -13.8, 95% CI -14.6 to -13.0): shorter"


@given(st.floats(-1, 1), st.floats(0, 0.5), st.floats(0, 0.5))
def test_paired_change_clause_is_never_stronger_than_its_interval(value, below, above):
    """Any estimate: the direction word appears exactly when the interval leaves 0 out."""
    from simkit.core.words import paired_change_clause

    e = Estimate(value, value - below, value + above)
    said = paired_change_clause("drawn games", 0.5, 0.5 + value, e, ("more", "fewer"))
    assert said.endswith((": more", ": fewer")) == e.excludes(0.0)


def test_the_projection_of_real_games_names_no_sweep():
    """Real games are not swept: their verdict projects 'real games per pair', never 'sweep --games N'."""
    from simkit.core.words import Banded, Estimate, balance_verdict

    deck = Banded("deck", Estimate(0.40, 0.30, 0.51, 40, "A"), (0.45, 0.55), flagged=False)
    other = Banded("deck", Estimate(0.60, 0.49, 0.70, 40, "B"), (0.45, 0.55), flagged=False)
    swept = balance_verdict([deck, other], games_per_pair=10).sentence
    real = balance_verdict([deck, other], games_per_pair=10, real=True).sentence
    assert "sweep --games" in swept
    assert "real games per pair would" in real and "sweep --games" not in real


def test_a_seat_edge_whose_printed_interval_touches_zero_is_not_called_worth():
    """A lower bound of +0.04 points prints as +0.0: the sentence says no measurable seat edge, not 'worth'."""
    from simkit.core.words import seat_sentence

    edge = Estimate(0.096, 0.0004, 0.185, games=200)
    text = seat_sentence(edge, 0.05)
    assert text.startswith("no measurable seat edge: +9.6 points (95% CI +0.0 to +18.5")
    assert seat_sentence(Estimate(0.096, 0.0006, 0.185), 0.05).startswith("going first is worth +9.6 points")
