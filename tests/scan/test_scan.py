"""simkit scan: the crossing math on literal curves, the figures against their definitions, bad input
refused before anything is written, end to end on small real sweeps, and a SIGKILLed scan resumed."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import simkit
from simkit.analysis import first_player_advantage, matchup_matrix
from simkit.cli import main
from simkit.scan import ScanSettings
from simkit.scan.crossing import crossing_interval, crossings, first_crossing
from simkit.scan.figures import figure_point, figure_replicas, parse_figure, resample_counts
from simkit.scan.run import read_scan
from simkit.scan.values import check_values, parse_values, scan_knob
from simkit.sweep import RunOptions, done_chunks, load_results
from simkit.testing.synthetic import synthetic_results
from simkit.tune.objective import deck_rates

ROOT = Path(__file__).resolve().parents[2]
MIRACLE = ROOT / "scenarios" / "miracle" / "quick.toml"
DUEL = ROOT / "scenarios" / "duel" / "quick.toml"
KRYPTON = ROOT / "scenarios" / "krypton" / "quick.toml"
TWO = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:Archer,Priest,VolcanoDragon"]
SYNTH = ["A:x,y,z", "B:x,y,w", "C:u,v,w"]

# ----------------------------------------------------------------------------------------------
# the crossing math, on literal curves


def test_a_falling_curve_crosses_by_straight_lines_between_the_bracketing_values():
    """0.7, 0.6 | 0.4, 0.3 against 0.5: the crossing lies halfway between 2 and 3."""
    assert crossings([1, 2, 3, 4], [0.7, 0.6, 0.4, 0.3], 0.5) == [2.5]
    assert crossings([1, 2, 3, 4], [0.3, 0.45, 0.6, 0.7], 0.5) == pytest.approx([2 + 0.05 / 0.15])


def test_a_value_on_the_target_is_the_crossing_and_a_flat_stretch_counts_once():
    assert crossings([2, 3, 4], [0.6, 0.5, 0.4], 0.5) == [3.0]
    assert crossings([2, 3, 4, 5], [0.6, 0.5, 0.5, 0.4], 0.5) == [3.0]


def test_no_crossing_in_range_is_nan_and_a_curve_crossing_twice_gives_its_first():
    assert np.isnan(first_crossing([1, 2, 3], [0.6, 0.7, 0.8], 0.5))
    assert crossings([1, 2, 3], [0.6, 0.4, 0.6], 0.5) == [1.5, 2.5]
    assert first_crossing([1, 2, 3], [0.6, 0.4, 0.6], 0.5) == 1.5


def test_the_crossing_interval_is_the_central_share_of_the_replicas_crossings():
    """Four replicas crossing at 2.2, 2.4, 2.6, 2.8: the central 50% runs from 2.2 to 2.6 (actual replicas)."""
    x = [2, 3]
    reps = [[0.6, 0.1], [0.7, 0.2], [0.8, 0.3], [0.9, 0.4]]  # crossings at 2.2, 2.4, 2.6, 2.8
    c = crossing_interval(x, [0.75, 0.25], reps, 0.5, level=0.5)
    assert c.value == 2.5 and c.crossings == 1 and c.side == ""
    assert (c.low, c.high) == pytest.approx((2.2, 2.6))
    assert c.below_range == 0 and c.above_range == 0 and c.replicas == 4


def test_a_replica_that_never_crosses_counts_as_crossing_beyond_the_range_on_its_side():
    """On a rising curve a replica above the target everywhere crosses below the smallest value:
    with half the replicas so, the 95% interval is open at the bottom ("below 2")."""
    x = [2, 3, 4]
    y = [0.45, 0.5, 0.55]
    reps = [[0.6, 0.7, 0.8]] * 5 + [[0.4, 0.5, 0.6]] * 5
    c = crossing_interval(x, y, reps, 0.5)
    assert c.value == 3.0 and c.low == -np.inf and c.high == 3.0
    assert c.below_range == 0.5 and c.above_range == 0
    said = c.sentence("rules.k", "first-seat win rate")
    assert said.startswith("Not settled") and "95% interval runs below 2 to 3, beyond the values scanned" in said
    falling = crossing_interval(x, y[::-1], reps, 0.5)  # the same replicas on a falling curve: above the range
    assert falling.high == np.inf and falling.above_range == 0.5


def test_no_crossing_is_said_plainly_with_the_side_the_curve_lies_on():
    """No crossing in range: 'not settled' while some value's interval holds the target, 'settled' (not reached in
    this range) when every interval lies on the same side."""
    c = crossing_interval([2, 3, 4, 5], [0.56, 0.62, 0.62, 0.51], [[0.56, 0.62, 0.62, 0.51]], 0.5)
    assert np.isnan(c.value) and c.side == "above" and c.crossings == 0
    assert c.sentence("rules.mana_period", "first-seat win rate", lambda v: f"{v:.0%}", 8, 2, 4) == (
        "Not settled in this range: the measured first-seat win rate stays above 50% at every value of "
        "rules.mana_period scanned (2 to 5); 2 of 4 values' 95% intervals hold 50%; scan wider values or play more "
        "games per pair than 8")
    assert c.sentence("rules.mana_period", "first-seat win rate", lambda v: f"{v:.0%}", 8, 0, 4).startswith(
        "Settled: the first-seat win rate stays above 50% at every value of rules.mana_period scanned (2 to 5), "
        "every 95% interval above it")


def test_a_planted_first_seat_edge_falling_through_zero_is_found_with_a_paired_interval():
    """Synthetic sweeps of the same pool and seed play the same games: first-seat edges +0.2, +0.1, -0.1, -0.2
    at values 0..3 put the crossing near 1.5, and the paired bootstrap's interval holds it."""
    edges = [0.2, 0.1, -0.1, -0.2]
    frames = [synthetic_results(SYNTH, 60, first_advantage=e, seed=7) for e in edges]
    table, c, paired = read_scan(frames, [0, 1, 2, 3], parse_figure("first_seat"), 0.5, "k", bootstrap=(400, 1))
    assert paired
    assert list(table["estimate"]) == pytest.approx([0.5 + e for e in edges], abs=0.04)
    assert (table["low"] < table["estimate"]).all() and (table["estimate"] < table["high"]).all()
    assert (table["interval"] == "Wilson 95%").all()
    assert 1.2 < c.value < 1.8 and c.low < 1.5 < c.high and 0.9 < c.low and c.high < 2.1


# ----------------------------------------------------------------------------------------------
# figures


def test_the_spread_replicas_are_the_tune_spread_of_the_resampled_games():
    """The vectorised spread of a resample equals the std of :func:`deck_rates` on the resampled rows."""
    df = synthetic_results(SYNTH, 6, win_rate={("A:x,y,z", "C:u,v,w"): 0.8}, seed=3)
    fig = parse_figure("spread")
    assert figure_point(df, fig)["figure"] == pytest.approx(deck_rates(df).std())
    counts = resample_counts(np.random.default_rng(0), len(df), 5)
    reps = figure_replicas(df, fig, counts)
    for r in range(5):
        rows = df.iloc[np.repeat(np.arange(len(df)), counts[r].astype(int))]
        assert reps[r] == pytest.approx(deck_rates(rows).std())


def test_a_resample_that_loses_a_pairing_the_metagame_needs_gives_no_figure_and_is_left_out():
    """One game per pairing: a resample missing a pairing has no metagame; it is NaN, left out of the
    interval and counted, while the first seat's figure exists on every resample."""
    df = synthetic_results(SYNTH, 1, seed=3)
    counts = resample_counts(np.random.default_rng(0), len(df), 40)
    assert (counts.sum(1) == len(df)).all()
    weight = figure_replicas(df, parse_figure("metagame.weight@A:x,y,z"), counts)
    assert np.isnan(weight).any() and np.isfinite(weight).any()
    assert np.isfinite(figure_replicas(df, parse_figure("first_seat"), counts)).all()
    table, c, _ = read_scan([df, df], [1, 2], parse_figure("metagame.weight@A:x,y,z"), 0.5, bootstrap=(40, 0))
    assert table["interval"].iloc[0].startswith("bootstrap over games (40 resamples, ")
    assert table["interval"].iloc[0].endswith(" without a figure left out)")
    same_draws = resample_counts(np.random.default_rng([0, 31]), len(df), 40)  # read_scan's draws for seed 0
    lost = int(np.isnan(figure_replicas(df, parse_figure("metagame.weight@A:x,y,z"), same_draws)).sum())
    assert c.left_out == lost > 0 and c.replicas == 40 - lost


def test_a_table_column_names_its_row_by_label_or_by_column_pairs():
    df = synthetic_results(SYNTH, 8, first_advantage=0.1, seed=5)
    fp = first_player_advantage(df)
    assert figure_point(df, parse_figure("first_player.advantage"))["figure"] == fp["advantage"].iloc[0]
    assert figure_point(df, parse_figure("first_player.first_rate@B:x,y,w"))["figure"] == (
        fp.loc[fp["subject"] == "B:x,y,w", "first_rate"].iloc[0])
    mm = matchup_matrix(df)
    got = figure_point(df, parse_figure("matchups.win_rate@deck=A:x,y,z&opponent=C:u,v,w"))["figure"]
    assert got == mm.loc[(mm["deck"] == "A:x,y,z") & (mm["opponent"] == "C:u,v,w"), "win_rate"].iloc[0]
    with pytest.raises(ValueError, match=r"has 3 rows; name one after @"):
        figure_point(df, parse_figure("decks.win_rate"))
    with pytest.raises(ValueError, match="no column 'nope'"):
        figure_point(df, parse_figure("decks.nope@A:x,y,z"))
    with pytest.raises(ValueError, match="not a figure"):
        parse_figure("winrate")


# ----------------------------------------------------------------------------------------------
# bad input: one line naming the key and value, exit 2, nothing written


@pytest.mark.parametrize("key, values, message", [
    ("rules.mana_perio", "2,3", "simkit scan: error: --key 'rules.mana_perio': matches no number of the scenario "
     "(did you mean 'rules.mana_period'?)"),
    ("rules.mana_period", "2,three", "simkit scan: error: rules.mana_period = three: not a number (the key holds 4)"),
    ("rules.mana_period", "2,2.5", "simkit scan: error: rules.mana_period = 2.5: rules.mana_period is a whole number "
     "(today 4); 2.5 is not"),
    ("rules.mana_period", "0,2", "simkit scan: error: rules.mana_period = 0: the scenario refuses it "
     "(rules.mana_period: must be at least 1, got 0)"),
    ("sweep.games", "2,3", "simkit scan: error: --key 'sweep.games': sweep settings are not balance numbers and "
     "cannot be scanned"),
])
def test_bad_input_is_one_line_exit_2_and_nothing_written(key, values, message, tmp_path, capsys):
    out = tmp_path / "scan"
    assert main(["scan", str(MIRACLE), "--key", key, "--values", values, "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err == message + "\n"
    assert not out.exists()


def test_a_figure_a_table_lacks_is_refused_before_any_game(tmp_path, capsys):
    out = tmp_path / "scan"
    assert main(["scan", str(MIRACLE), "--key", "rules.mana_period", "--values", "2,3", "--figure", "decks.winrate",
                 "--out", str(out)]) == 2
    assert capsys.readouterr().err.startswith("simkit scan: error: --figure 'decks.winrate': the table decks has no "
                                              "column 'winrate' (columns: rank, deck, ")
    assert not out.exists()


def test_a_list_element_value_is_a_patch_rewriting_its_list_whole():
    base = simkit.load_scenario(MIRACLE)
    knob = scan_knob(base.data, "rules.mana_phase[1]")
    texts = check_values(base, knob, [0, 2])
    assert "mana_phase = [1, 2]" in texts[2] and "mana_phase = [1, 0]" in texts[0]
    with pytest.raises(ValueError, match=r"^rules.mana_phase\[1\] = 9: the scenario refuses it \(rules.mana_phase"):
        check_values(base, knob, [0, 9])


def test_values_are_sorted_numbers_of_the_keys_kind():
    data = simkit.load_scenario(MIRACLE).data
    knob = scan_knob(data, "rules.mana_phase[1]")
    assert knob.current == 0 and knob.integer
    assert parse_values("5, 2,3", scan_knob(data, "rules.mana_period")) == [2, 3, 5]
    with pytest.raises(ValueError, match="given twice"):
        parse_values("2,2", knob)
    with pytest.raises(ValueError, match="matches 2 numbers"):
        scan_knob(data, "rules.mana_phase[*]")


# ----------------------------------------------------------------------------------------------
# end to end on small real sweeps


def test_miracle_mana_period_end_to_end(tmp_path):
    """Two decks, two games per ordered pair, mana_period 3 and 5: one patch per value holding only the key,
    the same seeds at every value, the table, the crossing files and a one-page PDF."""
    out = tmp_path / "scan"
    lines = []
    table = simkit.run_scan(MIRACLE, ScanSettings(key="rules.mana_period", values="5,3", games=2, decks=TWO,
                                                  bootstrap=200), run=RunOptions(workers=1), out=out, log=lines.append)
    assert list(table.columns) == ["key", "value", "figure", "estimate", "low", "high", "games", "interval"]
    assert list(table["value"]) == [3, 5] and (table["games"] == 8).all()
    assert len(lines) == 2 and lines[0].startswith("rules.mana_period = 3: 8 games (8 played")
    frames = []
    for v in (3, 5):
        patch = tomllib.loads((out / "values" / str(v) / "patch.toml").read_text())
        assert patch["rules"] == {"mana_period": v} and set(patch) == {"extends", "name", "rules"}
        assert simkit.load_scenario(out / "values" / str(v) / "patch.toml").data["rules"]["mana_period"] == v
        frames.append(load_results(out / "values" / str(v)).sort_values(["first_deck", "second_deck", "game"]))
    assert list(frames[0]["seed"]) == list(frames[1]["seed"])
    assert table.attrs["paired"] and table.attrs["target"] == 0.5
    for v, row in zip((3, 5), table.itertuples()):
        assert row.estimate == (frames[[3, 5].index(v)]["winner"].map({"first": 1, "draw": 0.5, "second": 0})).mean()
    csv = pd.read_csv(out / "scan.csv")
    pd.testing.assert_frame_equal(csv, table, check_dtype=False)
    crossing = pd.read_csv(out / "crossing.csv")
    assert crossing["key"].iloc[0] == "rules.mana_period" and crossing["target"].iloc[0] == 0.5
    summary = json.loads((out / "summary.json").read_text())
    assert summary["values"] == [3, 5] and summary["base_value"] == 4 and summary["games"] == 2
    pypdf = pytest.importorskip("pypdf")
    reader = pypdf.PdfReader(out / "scan.pdf")
    assert len(reader.pages) == 1
    assert "rules.mana_period" in reader.pages[0].extract_text()


def test_a_finished_scan_is_refused_without_resume_and_another_scan_is_refused_in_its_folder(tmp_path, capsys):
    out = tmp_path / "scan"
    args = ["scan", str(DUEL), "--key", "rules.second_draw", "--values", "4,6", "--games", "1", "--decks",
            "Dagger+Longbow:Frost,Mend,Reflect", "Greataxe+Spear:Rage,ShadowBolt,Venom", "--out", str(out),
            "--workers", "1", "--bootstrap", "50"]
    assert main(args) == 0
    printed = capsys.readouterr().out
    assert "scan rules.second_draw: first-seat win rate, 2 values x 8 games" in printed
    assert main(args) == 2
    assert "already holds a scan or other files: pass --resume" in capsys.readouterr().err
    other = [a if a != "4,6" else "4,7" for a in args] + ["--resume"]
    assert main(other) == 2
    assert "holds a scan with other settings: --values [4, 6] there, [4, 7] here" in capsys.readouterr().err
    assert main(args + ["--resume", "--figure", "length"]) == 0  # another figure: no game replayed
    printed = capsys.readouterr().out
    assert "game length (mean turns), 2 values x 8 games (0 played now" in printed
    assert pd.read_csv(out / "scan.csv")["figure"].eq("length").all()
    assert main(args + ["--resume", "--figure", "decks.win_rate@Nope"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "simkit scan: error: --figure 'decks.win_rate@Nope': @Nope names no row of the table decks at any value "
        "(deck reads e.g. 'Dagger+Longbow:Frost,Mend,Reflect', 'Greataxe+Spear:Rage,ShadowBolt,Venom')")


def test_krypton_scan_of_a_rules_number(tmp_path):
    """Krypton's building attack 1 and 3, one game per pairing of two loadouts: a real sweep per value."""
    sc = simkit.load_scenario(KRYPTON)
    table = simkit.run_scan(KRYPTON, ScanSettings(key="rules.building_attack", values=[1, 3], figure="length", games=1,
                                                  decks=list(sc.decks[:2]), bootstrap=50),
                            run=RunOptions(workers=1), out=tmp_path / "k", page=False)
    assert list(table["value"]) == [1, 3] and (table["games"] == 4).all()
    assert table.attrs["crossing"] is None and "give --target" in table.attrs["sentence"]
    assert (table["low"] <= table["estimate"]).all() and (table["estimate"] <= table["high"]).all()
    assert not (tmp_path / "k" / "scan.pdf").exists()


def test_a_sigkilled_scan_resumes_to_the_result_of_an_unbroken_one_with_other_workers(tmp_path):
    """The scan is killed (SIGKILL of the process group this test started) once the first value has two
    two-game chunks; resuming plays the rest, and the table equals an unbroken scan's on two workers."""
    killed = tmp_path / "killed"
    cmd = [sys.executable, "-m", "simkit", "scan", str(MIRACLE), "--key", "rules.mana_period", "--values", "3,5",
           "--games", "4", "--decks", *TWO, "--chunk-size", "2", "--workers", "1", "--out", str(killed),
           "--bootstrap", "100"]
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                            env=env)
    first = killed / "values" / "3"
    deadline = time.time() + 120
    while time.time() < deadline and proc.poll() is None and len(done_chunks(first)) < 2:
        time.sleep(0.01)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not (killed / "scan.csv").exists(), "the kill landed after the scan finished"
    settings = ScanSettings(key="rules.mana_period", values="3,5", games=4, decks=TWO, chunk_size=2, bootstrap=100)
    resumed = simkit.run_scan(MIRACLE, settings, killed, RunOptions(workers=1, resume=True), page=False)
    assert 0 < resumed.attrs["games_played"] < 2 * 16
    unbroken = simkit.run_scan(MIRACLE, ScanSettings(key="rules.mana_period", values="3,5", games=4, decks=TWO,
                                                     chunk_size=2, bootstrap=100),
                               run=RunOptions(workers=2), out=tmp_path / "unbroken", page=False)
    pd.testing.assert_frame_equal(resumed, unbroken)
    assert json.dumps(resumed.attrs["crossing"]) == json.dumps(unbroken.attrs["crossing"])
    for v in (3, 5):
        df = load_results(killed / "values" / str(v))
        assert len(df) == 16 and not df.duplicated(["first_deck", "second_deck", "game"]).any()


def test_the_page_draws_a_crossing_open_below_the_range(tmp_path):
    """A synthetic curve crossing at 1.5 whose interval runs below the smallest value: one PDF page that
    says so in words."""
    from simkit.scan.crossing import Crossing
    from simkit.scan.page import draw_page

    table = pd.DataFrame({"key": "k", "value": [1, 2, 3], "figure": "first_seat", "estimate": [0.55, 0.45, 0.4],
                          "low": [0.5, 0.4, 0.35], "high": [0.6, 0.5, 0.45], "games": 100, "interval": "Wilson 95%"})
    c = Crossing(0.5, 1.5, -np.inf, 2.2, 1, "", 100, 0.1, 0.0, 1.0, 3.0)
    table.attrs.update(sentence=c.sentence("k", "first-seat win rate"), paired=True, decks=[3, 3, 3])
    assert table.attrs["sentence"] == ("Not settled: the first-seat win rate reaches 0.5 at k = 1.5 by the measured "
                                       "curve, but its 95% interval runs below 1 to 2.2, beyond the values scanned; "
                                       "widen the values or play more games per pair")
    spec = {"key": "k", "base_value": 2, "games": 10, "decks": ["a", "b", "c"], "bots": ["x", "y"], "seed": 0}
    draw_page(tmp_path / "scan.pdf", table, c, parse_figure("first_seat"), spec, "synthetic")
    pypdf = pytest.importorskip("pypdf")
    reader = pypdf.PdfReader(tmp_path / "scan.pdf")
    text = reader.pages[0].extract_text()
    words = " ".join(text.split())
    assert len(reader.pages) == 1 and "continues below 1" in text and "interval runs below 1 to 2.2" in words
    assert "Not settled: the first-seat win rate reaches 0.5 at k = 1.5" in words
