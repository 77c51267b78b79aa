"""A scan can follow how the games play: ``--figure experience.FIGURE[@ROW]`` against the rule number, with
bootstrap intervals that hold the figure computed on all the games."""

import numpy as np
import pytest

from simkit.scan.figures import check_figure, figure_point, figure_replicas, parse_figure, resample_counts
from simkit.testing.synthetic import synthetic_results, with_experience

POOL = ["HolyLight:Archer,BlackBat,Priest", "HolyLight:FrostDragon,Priest,Swordsman"]


def test_an_experience_figure_parses_as_a_share_with_its_words():
    """``experience.comebacks`` is a share (shown in percent) called by its words; ``experience.turns`` a mean."""
    fig = check_figure(parse_figure("experience.comebacks"))
    assert fig.rate and fig.label == "how the games play: comebacks"
    assert not parse_figure("experience.lead_changes").rate
    with pytest.raises(ValueError, match="no column 'comeback'"):
        check_figure(parse_figure("experience.comeback"))


def test_the_figure_and_its_bootstrap_read_the_planted_comebacks():
    """Comebacks planted at 30% of the games won: the figure reads the share of the games won, and the fast
    bootstrap's replicas centre on it."""
    df = with_experience(synthetic_results(POOL, 200, 0.5, seed=4), comebacks=0.3)
    fig = parse_figure("experience.comebacks")
    point = figure_point(df, fig)["figure"]
    assert abs(point - 0.3) < 0.05
    reps = figure_replicas(df, fig, resample_counts(np.random.default_rng(0), len(df), 200))
    assert abs(np.median(reps) - point) < 0.01 and 0.005 < reps.std() < 0.05


def test_results_without_the_figures_give_one_line():
    """A sweep whose game records no experience columns: the scan's figure fails with the reason in one line."""
    df = synthetic_results(POOL, 5, 0.5, seed=4)
    with pytest.raises(ValueError, match="How the games play is not measured"):
        figure_point(df, parse_figure("experience.turns"))
