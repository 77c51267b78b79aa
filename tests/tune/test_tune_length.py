"""tune can take how the games play into its objective: the share of games outside the scenario's
``[experience] target_turns``, weighed by ``--weights length=W``."""

import json

import numpy as np

from simkit.testing.synthetic import synthetic_results
from simkit.tune.objective import TuneWeights, balance_terms, length_outside, parse_weights, score

POOL = ["HolyLight:Archer,BlackBat,Priest", "HolyLight:FrostDragon,Priest,Swordsman"]


def games(target=None):
    """A small round robin whose kept scenario gives ``target`` as its target length (or none)."""
    df = synthetic_results(POOL, 20, 0.5, seed=2)
    data = {"name": "t"} if target is None else {"name": "t", "experience": {"target_turns": list(target)}}
    df.attrs["meta"] = {**df.attrs["meta"], "scenario_text": json.dumps(data)}
    return df


def test_the_length_term_is_the_share_of_games_outside_the_target():
    """Games of 10, 20 and 30 turns against a 15-25 target: two in three lie outside."""
    df = games((15, 25)).head(3).copy()
    df["turns"] = [10, 20, 30]
    assert np.isclose(length_outside(df), 2 / 3)


def test_no_target_no_length_term_and_the_objective_unchanged():
    """A scenario without a target: the term is 0 and the objective is the balance objective as before."""
    df = games()
    terms = balance_terms(df)
    assert terms["length"] == 0.0
    assert score(terms, TuneWeights()) == score({**terms, "length": 0.0}, TuneWeights(length=0.0))


def test_the_weight_scales_the_term_in_the_objective():
    """With a target the objective grows by ``length`` weight times the share outside it; ``--weights length=0``
    leaves it out."""
    df = games((1, 2))  # every synthetic game is longer than two turns
    terms = balance_terms(df)
    assert terms["length"] == 1.0
    assert np.isclose(score(terms, parse_weights("length=3")) - score(terms, parse_weights("length=0")), 3.0)
