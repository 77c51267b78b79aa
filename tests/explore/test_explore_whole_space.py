"""An explore whose guarantee covers the whole space: every deck raced (``--search all``), bounds that hold at
once over every deck and look (``--alpha``), the seats' value measured with its error, the mixture's own decks
playing on only while their bounds need it (``--population-games``), and rounds recorded by the pairs they grow.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from scipy.stats import norm
from test_explore_seats import magic  # noqa: F401 - the eight-army Orc pool at 16 turns, one fixture for both files

from simkit.core.seats import SeatPools
from simkit.explore import ExploreSettings, run_explore
from simkit.explore.game import Against, DeckGame, Side
from simkit.explore.oracle import race
from simkit.explore.tally import Tally
from simkit.sweep import RunOptions, load_results, read_meta

WHOLE = ExploreSettings(horizon=8, start=1, chunk_size=8, axes=("kinds=unit:*",), search="all", alpha=0.2,
                        population_games=2, epsilon=0.3)


@pytest.fixture(scope="module")
def whole(magic, tmp_path_factory):  # noqa: F811 - the imported fixture, asked for by name
    """An explore of the small pool racing every deck, family-wise bounds, population pairings at 2 games."""
    out = tmp_path_factory.mktemp("explore-whole")
    return out, run_explore(magic, out, WHOLE, RunOptions(workers=1))


def test_family_wise_bounds_are_bonferroni_over_every_deck_value_and_look():
    """alpha 0.05 over 3,260 decks and values and the 9 looks of horizon 256 (1, 2, 4, ..., 256): z 4.64; no
    alpha: the deck-by-deck z."""
    s = ExploreSettings(alpha=0.05, horizon=256)
    assert len(s.looks()) == 9
    assert s.family_z(3260) == pytest.approx(norm.isf(0.05 / (3260 * 9))) == pytest.approx(4.64, abs=0.01)
    assert ExploreSettings(z=2.5).family_z(3260) == 2.5
    assert ExploreSettings(alpha=0.05).family_z(10) < s.family_z(3260)


@pytest.mark.parametrize("bad, word", [({"search": "some"}, "--search"), ({"alpha": 1.0}, "--alpha"),
                                       ({"population_games": 30}, "--population-games")])
def test_settings_out_of_range_are_refused_naming_the_option(bad, word):
    """A search other than grow/all, alpha outside [0, 1), population games above the horizon: one message each."""
    with pytest.raises(ValueError, match=word):
        ExploreSettings(**bad).check()


def test_the_seats_value_has_the_error_of_the_mixtures_games():
    """The mixtures' one pairing, deck 0 (first) against deck 3 (second): 2 points of 8 games, shrunk to 3/10:
    the value's standard error sqrt(0.3 * 0.7 / 8) = 0.162; unplayed pairings make it infinite; alike seats: 0."""
    tally = Tally(["a", "b", "c", "x"], None)
    tally.n[0, 3], tally.pts[0, 3] = 8, 2
    space = type("S", (), {"seats": ((0, 1, 2), (1, 2, 3))})()
    game = DeckGame(space, 8)
    assert game.value_se(tally, [[0], [3]], [np.ones(1), np.ones(1)]) == pytest.approx(0.1620, abs=1e-4)
    assert game.value_se(tally, [[0, 1], [3]], [np.full(2, 0.5), np.ones(1)]) == float("inf")
    alike = DeckGame(type("S", (), {"seats": ((0, 1), (0, 1))})(), 8)
    assert alike.value_se(tally, [[0]], [np.ones(1)]) == 0.0


def test_the_values_error_widens_a_decks_bound_so_noise_in_the_value_drops_nothing():
    """A first-seat deck scoring 0 of 8 against the mixture (its own error 0.106) faces the value 1/4: with a value
    known exactly it is dropped (upper bound 0.212 below 0.27); with the value's error 0.162 its bound is
    2 * hypot(0.106, 0.162) = 0.387 wide: it races on. Its addition is judged on its own error only."""
    tally = Tally(["a", "b", "c", "x"], None)
    for (i, j), pts in {(0, 3): 2, (2, 3): 0, (1, 3): 8}.items():
        tally.n[i, j], tally.pts[i, j] = 8, pts
    side = Side("first", 0, (0, 1, 2), 1)
    exact = race(tally, side, Against([3], np.ones(1), 0.25), [2], ExploreSettings())
    noisy = race(tally, side, Against([3], np.ones(1), 0.25, 0.162), [1, 2], ExploreSettings())
    assert exact[2][4] == "drop" and noisy[2][4] == "race"
    assert noisy[2][3] == pytest.approx(2 * np.hypot(np.sqrt(0.1 * 0.9 / 8), 0.162), abs=1e-4)
    assert noisy[1][4] == "add"


def test_an_explore_of_the_whole_space_races_every_deck_and_says_its_bounds(whole):
    """Every deck of both seats' pools is searched (the state keeps one word, not the pool); the guarantee's
    sentence names the pool, not the searched decks, and says its bounds hold at once at 80%; summary.json keeps
    the z, alpha and family."""
    out, answers = whole
    s = json.loads((out / "summary.json").read_text())
    assert s["searched"] == s["decks"] == {"first": 6, "second": 8}
    state = read_meta(out)["adaptive_result"]["units"]
    assert state["searched"] == {"first": "all", "second": "all"}
    z = WHOLE.family_z(6 + 8 + 1)
    assert s["bounds"] == {"z": round(z, 4), "alpha": 0.2, "family": 15, "value_se": s["bounds"]["value_se"]}
    assert "every bound holds at once with chance at least 80%" in s["guarantee"]
    assert not s["guarantee_met"] and "NOT met" in s["guarantee"]  # 8 games a pairing cannot settle 0.3 at 80%
    assert "searched deck" not in s["guarantee"]
    assert answers["summary"]["guarantee"] == s["guarantee"]


def test_population_pairings_start_at_population_games_and_climb_only_where_bounds_need_it(whole):
    """Every pairing of two population decks has at least 2 games; a pairing past 2 is one of a population deck
    against a deck of the mixture it meets (climbing its bound), none past the horizon; when the run settles,
    no deck of either pool is still racing."""
    out, _ = whole
    s = json.loads((out / "summary.json").read_text())
    df = load_results(out)
    n = df.groupby(["first_deck", "second_deck"]).size()
    for a in s["population"]["first"]:
        for b in s["population"]["second"]:
            assert n[(a, b)] >= 2
    assert n.max() <= WHOLE.horizon and s["stopped"] == "settled"
    import pandas as pd

    assert not set(pd.read_csv(out / "decks.csv")["decision"]) & {"race", "new"}


def test_a_round_of_a_large_table_records_only_the_pairs_it_grows(monkeypatch):
    """Past SPARSE_CELLS cells a round keeps the pairs it grows with their counts after it, and the layout read back
    from those records (or from an older folder's every-played-pair records) is the same games and chunks."""
    import simkit.sweep.adaptive as adaptive
    from simkit.analysis.sequential import AdaptiveSettings
    from simkit.sweep.plan import SweepPlan

    monkeypatch.setattr(adaptive, "SPARSE_CELLS", 0)
    plan = SweepPlan("x.toml", "h", SeatPools(("A", "B"), ("A", "B", "C")), 2, ("r", "r"), 0, 4,
                     adaptive=AdaptiveSettings())
    layout = adaptive.AdaptiveLayout(plan)
    first = layout.add_round(np.array([[[2, 0, 0], [0, 0, 1]]]), {})
    second = layout.add_round(np.array([[[2, 3, 0], [0, 0, 1]]]), {})
    assert first["grown"] == [[0, 0, 0, 2], [0, 1, 2, 1]] and second["grown"] == [[0, 0, 1, 3]]
    again = adaptive.AdaptiveLayout(plan, [first, second])
    assert again.counts.tolist() == layout.counts.tolist() and again.chunk_count == layout.chunk_count == 2
    old = []  # an older folder's records: every played pair with its count
    for r, counts in ((first, [[2, 0, 0], [0, 0, 1]]), (second, [[2, 3, 0], [0, 0, 1]])):
        pairs = [[0, i, j, c] for i, row in enumerate(counts) for j, c in enumerate(row) if c]
        old.append({k: v for k, v in r.items() if k != "grown"} | {"pairs": pairs})
    assert adaptive.AdaptiveLayout(plan, old).counts.tolist() == layout.counts.tolist()


def test_the_explore_planner_holds_only_the_columns_it_reads(magic, tmp_path, monkeypatch):  # noqa: F811
    """Between rounds the sweep passes the explore planner the three columns it reads (first and second deck,
    winner), not the game's whole row."""
    from simkit.explore import oracle

    seen = []
    call = oracle.Planner.__call__

    def spy(self, layout, df):
        seen.append(None if df is None else tuple(df.columns))
        return call(self, layout, df)

    monkeypatch.setattr(oracle.Planner, "__call__", spy)
    run_explore(magic, tmp_path, ExploreSettings(horizon=2, start=1, chunk_size=8, field_looks=(1, 2), max_games=40),
                RunOptions(workers=1))
    assert seen[0] is None and set(seen[1:]) == {("first_deck", "second_deck", "winner")}


def test_the_focused_search_races_the_most_promising_decks_first():
    """Against the mixture {deck 4: 1/2, deck 5: 1/2}, first-seat candidates: deck 0 scored 3/4 and 1/4 (1/2),
    deck 1 scored 4/4 against deck 4 and never met deck 5 (counted at its 4/4: 1), deck 2 scored 0/4 and 0/4 (0),
    deck 3 met no one (1/2 each): focus 2 races decks 1 and then 0 (0 and 3 tie at 1/2: the lower deck first)."""
    from simkit.explore.oracle import Planner

    tally = Tally([f"d{i}" for i in range(6)], None)
    for (i, j), pts in {(0, 4): 3, (0, 5): 1, (1, 4): 4, (2, 4): 0, (2, 5): 0}.items():
        tally.n[i, j], tally.pts[i, j] = 4, pts
    planner = Planner.__new__(Planner)
    planner.s = ExploreSettings(focus=2)
    side = Side("first", 0, (0, 1, 2, 3), 1)
    verdict = {c: (1, 0.5, 0.0, 1.0, "race") for c in (0, 1, 2, 3)} | {6: (4, 0.1, 0.0, 0.2, "drop")}
    chosen = planner._focus(tally, side, Against([4, 5], np.array([0.5, 0.5]), 0.5), verdict)
    assert list(chosen) == [1, 0]


def test_a_focused_run_races_every_deck_against_its_last_mixture_before_it_settles(magic, tmp_path):  # noqa: F811
    """With focus 1 the run still settles with no deck of either pool undecided, and its last state is the
    certify pass: the focused search could not beat the mixture, and then no deck of the pool could."""
    import pandas as pd

    settings = ExploreSettings(**{**WHOLE.__dict__, "focus": 1})
    answers = run_explore(magic, tmp_path, settings, RunOptions(workers=1))
    state = read_meta(tmp_path)["adaptive_result"]["units"]
    assert answers["summary"]["stopped"] == "settled" and state["certify"] is True
    assert not set(pd.read_csv(tmp_path / "decks.csv")["decision"]) & {"race", "new"}
    assert answers["summary"]["settings"]["focus"] == 1
