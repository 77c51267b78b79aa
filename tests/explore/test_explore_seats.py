"""simkit explore when the seats have their own pools (Magic War: an army costing 13 sits only second).

Each seat has its own population, mixture and exploitability; best responses are searched within
each seat's pool; the report and the comparison read such a folder too.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import simkit
from simkit.cli import main
from simkit.explore import DeckSpace, ExploreSettings, run_explore
from simkit.explore.game import Against, DeckGame, Side
from simkit.explore.oracle import Planner, race
from simkit.explore.outputs import FILES
from simkit.explore.tally import Tally
from simkit.sweep import RunOptions, load_results, read_meta

ROOT = Path(__file__).resolve().parents[2]
MAGIC = ROOT / "scenarios" / "magic" / "base.toml"
# Orc armies: five of Goblins and Orc Infantry (two at 13 gold: second seat only), one without the Infantry,
# one with a Wolf Rider more, one of Ogres (no unit type in common with the others)
POOL = ["Orc:Goblin*6,OrcInfantry*3", "Orc:Goblin*4,OrcInfantry*4", "Orc:Goblin*5,OrcInfantry*3",
        "Orc:Goblin*5,OrcInfantry*4", "Orc:Goblin*3,OrcInfantry*5", "Orc:Goblin*6",
        "Orc:Goblin*4,OrcInfantry*2,WolfRider", "Orc:Ogre*2"]
THIRTEEN = {"Orc:Goblin*5,OrcInfantry*4", "Orc:Goblin*3,OrcInfantry*5"}
SETTINGS = ExploreSettings(horizon=2, start=2, field_looks=(1, 2), chunk_size=8, axes=("kinds=unit:*",))


@pytest.fixture(scope="module")
def magic(tmp_path_factory):
    """Magic War's base rules cut to 16 global turns with the eight-army pool."""
    path = tmp_path_factory.mktemp("scenario") / "magic-small.toml"
    pool = ", ".join(f'"{d}"' for d in POOL)
    path.write_text(f'extends = "{MAGIC}"\nname = "explore seat test"\n[rules]\nturn_limit = 16\n'
                    f"[armies]\npool = [{pool}]\n")
    return path


@pytest.fixture(scope="module")
def seated(magic, tmp_path_factory):
    """An explore of the small Magic War pool, one process."""
    out = tmp_path_factory.mktemp("explore-seats")
    return out, run_explore(magic, out, SETTINGS, RunOptions(workers=1))


def test_the_space_knows_each_seats_pool_and_one_edit_neighbours(magic):
    """The 13-gold armies sit only second; armies of the same unit types are neighbours whatever their counts, so are
    those one unit type apart (Goblin*6: the Infantry removed; the Wolf Rider added); the Ogres only of the Goblins
    (one type swapped for another)."""
    space = DeckSpace(simkit.load_scenario(magic))
    assert DeckGame(space, 2).names == ("first", "second") and not DeckGame(space, 2).field
    assert {space.decks[i] for i in space.seats[0]} == set(POOL) - THIRTEEN
    assert {space.decks[i] for i in space.seats[1]} == set(POOL)
    near = {space.decks[j] for j in space.neighbours[space.index("Orc:Goblin*6,OrcInfantry*3")]}
    assert near == set(POOL) - {"Orc:Goblin*6,OrcInfantry*3", "Orc:Ogre*2"}
    assert [space.decks[j] for j in space.neighbours[space.index("Orc:Ogre*2")]] == ["Orc:Goblin*6"]
    capped = DeckSpace(simkit.load_scenario(magic), max_neighbours=2, seed=7)
    again = DeckSpace(simkit.load_scenario(magic), max_neighbours=2, seed=7)
    i = space.index("Orc:Goblin*6,OrcInfantry*3")
    assert len(capped.neighbours[i]) == 2 and set(capped.neighbours[i]) <= set(space.neighbours[i])
    assert capped.neighbours == again.neighbours


def _seat_tally() -> Tally:
    """Deck 0 (first seat) scores 2 of 8 against deck 3 (second seat): the value is 1/4. First-seat candidates:
    deck 1 scores 7/8 against deck 3, deck 2 0/8; second-seat candidate: deck 2 scores 2/8 against deck 0."""
    tally = Tally(["a", "b", "c", "x"], None)
    for (i, j), pts in {(0, 3): 2, (1, 3): 7, (2, 3): 0, (0, 2): 6}.items():
        tally.n[i, j], tally.pts[i, j] = 8, pts
    return tally


def test_a_seats_candidates_are_judged_against_that_seats_value():
    """With value 1/4: a first-seat deck scoring 7/8 is added (lower bound above 1/4), 0/8 dropped (upper bound
    0.21 below 0.27); a second-seat deck scoring 2/8 against the first seat's mixture is dropped (its seat's
    value is 3/4), and one never played is new."""
    tally = _seat_tally()
    sides = Side("first", 0, (0, 1, 2), 1), Side("second", 1, (1, 2, 3), 0)
    first = race(tally, sides[0], Against([3], np.ones(1), 0.25), [1, 2], ExploreSettings())
    second = race(tally, sides[1], Against([0], np.ones(1), 0.75), [2, 1], ExploreSettings())
    assert {c: v[4] for c, v in first.items()} == {1: "add", 2: "drop"}
    assert {c: v[4] for c, v in second.items()} == {2: "drop", 1: "new"}
    assert tally.seat_score(2, 1, [0], [1.0])[:1] == (0.25,) and first[2][3] == pytest.approx(0.2121, abs=1e-4)
    assert sides[0].cells(1, 3) == [(1, 3)] and sides[1].cells(2, 0) == [(0, 2)]


def test_a_seated_explore_gives_each_seat_its_metagame_and_exploitability(seated, magic):
    """Each seat's mixture sums to 1 and holds only decks of its pool; every first-seat population deck played
    every second-seat one at the horizon; no 13-gold army ever sat first; each seat's exploitability lies in
    its interval; the archive and the decks are per seat."""
    out, answers = seated
    for name in FILES:
        assert (out / name).stat().st_size > 0, name
    s = json.loads((out / "summary.json").read_text())
    assert s["seats"] == ["first", "second"] and s["stopped"] == "settled"
    assert s["guarantee_met"] == all(s["exploitability_interval"][seat][1] < s["epsilon"]
                                     for seat in ("first", "second"))
    assert not set(s["metagame"]["first"]) & THIRTEEN and not set(s["population"]["first"]) & THIRTEEN
    for seat in ("first", "second"):
        assert sum(s["metagame"][seat].values()) == pytest.approx(1.0, abs=1e-5)
        lo, hi = s["exploitability_interval"][seat]
        assert lo <= s["exploitability"][seat] <= hi
    df = load_results(out)
    assert not set(df["first_deck"]) & THIRTEEN
    m = pd.read_csv(out / "matchups.csv").set_index(["first_deck", "second_deck"])["games"]
    assert all(m[(a, b)] == SETTINGS.horizon for a in s["population"]["first"] for b in s["population"]["second"])
    assert s["games"] == len(df) == int(m.sum())
    decks = pd.read_csv(out / "decks.csv")
    assert sorted(decks.groupby("seat").size().to_dict().items()) == [("first", 6), ("second", 8)]
    assert set(pd.read_csv(out / "archive.csv")["seat"]) <= {"first", "second"}
    assert answers["summary"]["games"] == s["games"]


def test_the_one_planner_plays_the_rounds_seat_pools_always_played(seated):
    """The planner serving every seat model plays the very games the seat-pool planner played before it was one
    (literal, 3 rounds: 2 games of each first-seat army against the second seat's Goblin*5,OrcInfantry*4, of the
    first seat's Goblin*4,OrcInfantry*4 against every second-seat army, and the Ogres' mirror)."""
    out, _ = seated
    played = load_results(out).groupby(["first_deck", "second_deck"]).size().to_dict()
    first = sorted(set(POOL) - THIRTEEN)
    want = {(a, "Orc:Goblin*5,OrcInfantry*4"): 2 for a in first}
    want.update({("Orc:Goblin*4,OrcInfantry*4", b): 2 for b in POOL})
    want[("Orc:Ogre*2", "Orc:Ogre*2")] = 2
    assert played == want and len(read_meta(out)["rounds"]) == 3


def test_a_seated_explore_is_the_same_on_two_workers(seated, magic, tmp_path):
    """Two worker processes plan the very same rounds and write byte-identical answer files."""
    out, _ = seated
    run_explore(magic, tmp_path, SETTINGS, RunOptions(workers=2))
    for name in FILES:
        if name != "explore.pdf":
            assert (tmp_path / name).read_bytes() == (out / name).read_bytes(), name
    assert read_meta(tmp_path)["rounds"] == read_meta(out)["rounds"]


def test_report_and_compare_read_a_seated_folder(seated, magic, tmp_path, capsys):
    """``simkit report`` writes the explore pages and the folder's tables beside them; a patch run started from
    the base's populations is compared seat by seat, one verdict sentence per seat."""
    out, answers = seated
    pdf = tmp_path / "seats.pdf"
    assert main(["report", str(out), "-o", str(pdf)]) == 0
    # the answer, each seat's metagame page, the archive and cards, the explored matchups
    assert pdf.read_bytes().count(b"/Type /Page\n") + pdf.read_bytes().count(b"/Type /Page ") == 5
    assert pd.read_csv(tmp_path / "seats.metagame.csv").equals(pd.read_csv(out / "metagame.csv"))
    pops = answers["summary"]["population"]
    start = tuple(dict.fromkeys(pops["first"] + pops["second"]))
    patch = tmp_path / "patch"
    run_explore(magic, patch, ExploreSettings(**{**SETTINGS.__dict__, "start_decks": start}), RunOptions(workers=1))
    capsys.readouterr()
    assert main(["compare", str(out), str(patch), "-o", str(tmp_path / "cmp.pdf")]) == 0
    text = capsys.readouterr().out
    assert "The base's first-seat metagame" in text and "The base's second-seat metagame" in text
    assert (tmp_path / "cmp.pdf").read_bytes()[:5] == b"%PDF-" and (tmp_path / "cmp.weights.csv").exists()


def test_each_seat_starts_from_its_own_decks_and_every_style_cell(magic):
    """``start_decks``/``start_second`` give each seat its first population (a 13-gold army never first);
    ``cell_starts=1`` searches one deck of every style cell of each seat's pool from the start (here the cells of
    how many unit types and whether Ogres)."""
    sc = simkit.load_scenario(magic)
    settings = ExploreSettings(**{**SETTINGS.__dict__, "start_decks": ("Orc:Goblin*6", "Orc:Goblin*5,OrcInfantry*4"),
                                  "start_second": ("Orc:Goblin*3,OrcInfantry*5",), "cell_starts": 1,
                                  "axes": ("kinds=unit:*", "ogres=unit:Ogre")})
    space = DeckSpace(sc, settings.axis_list())
    state = Planner(space, settings).initial()
    assert state["population"] == {"first": ["Orc:Goblin*6"], "second": ["Orc:Goblin*3,OrcInfantry*5"]}
    for k, seat in enumerate(("first", "second")):
        cells = {space.cell(i) for i in space.seats[k]}
        assert {space.cell(space.index(d)) for d in state["searched"][seat]} == cells
    assert ExploreSettings.from_dict(settings.to_dict()) == settings


@pytest.mark.slow
def test_a_seated_explore_killed_and_resumed_writes_the_unbroken_runs_answers(seated, magic, tmp_path):
    """A seated explore killed with SIGKILL mid-run (two-game chunks) and resumed from the command line writes the
    same answer files as the unbroken run in one process."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from simkit.sweep import done_chunks

    out, _ = seated
    killed = tmp_path / "killed"
    args = ["explore", str(magic), "--horizon", "2", "--start", "2", "--field-looks", "1,2", "--axis", "kinds=unit:*",
            "--workers", "1", "--chunk-size", "2", "--out", str(killed)]
    proc = subprocess.Popen([sys.executable, "-m", "simkit", *args], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 180
    while time.time() < deadline and len(done_chunks(killed)) < 6 and proc.poll() is None:
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert "adaptive_result" not in read_meta(killed), "the run finished before it could be killed"
    assert main([*args, "--resume"]) == 0
    unbroken = tmp_path / "unbroken"
    run_explore(magic, unbroken, ExploreSettings(**{**SETTINGS.__dict__, "chunk_size": 2}), RunOptions(workers=1))
    for name in FILES:
        if name != "explore.pdf":
            assert (killed / name).read_bytes() == (unbroken / name).read_bytes(), name


def test_a_seated_explore_on_a_dask_cluster_gives_the_same_answers(seated, magic, tmp_path):
    """The rounds' chunks sent to a Dask LocalCluster give the one-process run's answer files, byte for byte."""
    distributed = pytest.importorskip("distributed")
    out, _ = seated
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=None) as cl:
        run_explore(magic, tmp_path, SETTINGS, RunOptions(scheduler=cl.scheduler_address))
    for name in FILES:
        if name != "explore.pdf":
            assert (tmp_path / name).read_bytes() == (out / name).read_bytes(), name
