"""Issue 36, numbers a report states: rating intervals that are honest at one game per pairing, and the
title's game count saying what the results folder holds."""

from __future__ import annotations

import numpy as np
import pytest
from matplotlib.figure import Figure
from pypdf import PdfReader
from results_folders import write_sweep_folder

from simkit.analysis import deck_strength
from simkit.cli import main
from simkit.report import plot_deck_ratings
from simkit.testing.synthetic import synthetic_results

A = "HolyLight:Archer,Priest,Swordsman"
B = "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"
C = "SalamanderShield:Archer,FrostDragon,Swordsman"
D = "WindBlessing:BlackBat,Priest,VolcanoDragon"
DECKS = [A, B, C, D]


def test_one_game_per_pairing_gives_rating_intervals_of_some_width():
    """At one game per ordered pairing (quick sweep --games 1) every rating interval has width and holds
    its rating; resampling within a pairing of one game gave low == rating == high."""
    s = deck_strength(synthetic_results(DECKS, 1, {(A, B): 0.8, (A, C): 0.75}, seed=3), bootstrap=200, seed=0)
    width = s["rating_high"] - s["rating_low"]
    assert (width > 1).all(), s[["deck", "rating", "rating_low", "rating_high"]]
    assert ((s["rating_low"] <= s["rating"]) & (s["rating"] <= s["rating_high"])).all()


def test_games_that_cannot_move_a_rating_give_no_interval_and_the_chart_says_so():
    """Two decks, one game each way, both won by A: every replica is the same two wins, so the bootstrap
    knows nothing about the spread; the interval is NaN, and the chart draws no whisker and says why."""
    df = synthetic_results([A, B], 1, {(A, B): 1.0}, seed=1)
    s = deck_strength(df, bootstrap=50)
    assert s["rating_low"].isna().all() and s["rating_high"].isna().all()
    fig = Figure()
    ax = fig.add_subplot()
    plot_deck_ratings(ax, s)
    assert "95% bootstrap CI" not in ax.get_xlabel() and "cannot estimate" in ax.get_xlabel()
    widths = [seg[1][0] - seg[0][0] for seg in ax.collections[0].get_segments()]
    assert widths == [0, 0]


def test_bootstrap_resamples_the_same_way_for_the_same_seed():
    """The interval is a function of the results and the seed."""
    df = synthetic_results(DECKS, 3, seed=8)
    one, two = deck_strength(df, bootstrap=40, seed=5), deck_strength(df, bootstrap=40, seed=5)
    np.testing.assert_array_equal(one["rating_low"], two["rating_low"])
    assert not np.array_equal(one["rating_low"], deck_strength(df, bootstrap=40, seed=6)["rating_low"])


@pytest.mark.parametrize("bootstrap", [-1])
def test_report_refuses_a_negative_bootstrap(tmp_path, capsys, bootstrap):
    """`report --bootstrap -1` is refused in one line naming the option."""
    folder = write_sweep_folder(synthetic_results(DECKS, 2, seed=1), tmp_path / "res")
    assert main(["report", str(folder), "-o", str(tmp_path / "r.pdf"), "--bootstrap", str(bootstrap)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--bootstrap" in err
    assert not (tmp_path / "r.pdf").exists()


def _title(pdf) -> str:
    return " ".join(PdfReader(pdf).pages[0].extract_text().split())


def _half_finished(tmp_path, games: int = 2):
    """A sweep of ``games`` per pairing in chunks of one game, of which only each pairing's first game is
    on disk (an unfinished sweep holding half its games)."""
    import json

    from simkit.core.seats import SeatPools
    from simkit.sweep import SweepPlan, plan_dict, write_chunk

    df = synthetic_results(DECKS, games, seed=6, scenario_name="half done")
    meta = df.attrs["meta"]
    plan = SweepPlan(scenario_path="", scenario_hash=meta["scenario_hash"], pools=SeatPools.alike(DECKS), games=games,
                     bots=tuple(meta["bots"]), seed=0, chunk_size=1)
    folder = tmp_path / "half"
    (folder / "chunks").mkdir(parents=True)
    for k in range(plan.chunk_count):
        c = plan.chunk(k)
        if c.games[0] != 0:
            continue
        rows = df[(df["first_deck"] == c.first_decks[0]) & (df["second_deck"] == c.second_decks[0])
                  & (df["game"] == c.games[0])]
        write_chunk(folder, k, rows.assign(seed=list(c.seeds)).reset_index(drop=True))
    (folder / "meta.json").write_text(json.dumps({**meta, "finished": None, "plan": plan_dict(plan)}))
    return folder


def test_title_of_an_unfinished_sweep_states_the_games_it_holds(tmp_path):
    """Half of a 2-games-per-pairing sweep on disk: the title says 1 game per pairing and 16 of the 32
    planned games, not 'x 2 games per pairing'."""
    folder = _half_finished(tmp_path)
    out = tmp_path / "half.pdf"
    assert main(["report", str(folder), "-o", str(out), "--bootstrap", "5"]) == 0
    title = _title(out)
    assert "Games: 16 = 4 decks x 4 decks (both seatings, mirrors included) x 1 game per pairing" in title
    assert "16 of the 32 planned games (2 games per pairing) are in the results" in title
    assert "x 2 games per pairing" not in title
