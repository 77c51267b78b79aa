"""Outside bots in the longer commands (slow): a small `simkit sweep` in every game, one program per worker, the
report's first page and the ladder counting forfeits apart, no program left after a killed sweep."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pandas as pd
import pytest
from outside_kit import EXAMPLE, GAMES, ROOT, bad, kill_left, run_simkit, running, scenario

import simkit
from simkit.scenario import default_bot

pytestmark = pytest.mark.slow

@pytest.mark.parametrize("game", GAMES)
def test_example_bot_plays_a_small_sweep_in_every_game(game, tmp_path):
    """A two-deck `simkit sweep` of the example bot against a personality writes its results with no forfeit, and
    the same sweep again writes the same games (the bot's seed comes from the start message)."""
    sc = scenario(game)
    firsts, seconds = sc.game.seat_decks()
    decks = list(dict.fromkeys([firsts[0], seconds[-1]]))
    results = []
    for run in ("a", "b"):
        out = tmp_path / run
        r = run_simkit("sweep", str(sc.path), "--decks", *decks, "--games", "1", "--workers", "1", "--bots",
                    f"mine,{default_bot(sc)}", "--bot", f"mine={sys.executable} {EXAMPLE}", "--out", str(out))
        assert r.returncode == 0, r.stderr
        df = simkit.load_results(out)
        assert len(df) >= 1 and set(df["first_bot"]) == {"mine"}
        assert (df["end_reason"] != "forfeit").all()
        results.append(df.sort_values(["first_deck", "second_deck", "game"])[["winner", "turns", "actions"]])
    pd.testing.assert_frame_equal(results[0].reset_index(drop=True), results[1].reset_index(drop=True))


def test_sweep_workers_reuse_one_program_each(tmp_path):
    """A sweep on two workers starts one program per worker (and one in the sweep's own process, which plays the
    warm-up game), never one per game."""
    sc = scenario("duel")
    pids = tmp_path / "pids.txt"
    out = tmp_path / "sweep"
    r = run_simkit("sweep", str(sc.path), "--decks", *sc.decks[:3], "--games", "2", "--chunk-size", "2", "--workers",
                "2", "--bots", "mine,aggro", "--bot", f"mine={' '.join(bad('good', pids))}", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert len(simkit.load_results(out)) == 18
    assert 1 <= len(pids.read_text().split()) <= 3


def test_the_report_says_on_its_first_page_how_many_games_were_forfeited(tmp_path):
    """A sweep where the outside bot crashes in some games: the report's first page (PDF and HTML) says how many
    games ended by a forfeit, whose and why, and that no table counts them; the forfeits table is written beside it."""
    sc = scenario("duel")
    out, pdf = tmp_path / "sweep", tmp_path / "report.pdf"
    r = run_simkit("sweep", str(sc.path), "--decks", *sc.decks[:2], "--games", "6", "--workers", "1", "--bots",
                "odd,aggro", "--bot", f"odd={' '.join(bad('crash-odd'))}", "--out", str(out))
    assert r.returncode == 0, r.stderr
    lost = int((simkit.load_results(out)["end_reason"] == "forfeit").sum())
    assert 0 < lost < 24
    assert f"forfeits: {lost} of 24 games (odd as the first player: {lost} crashes)" in r.stdout
    r = run_simkit("report", str(out), "-o", str(pdf), "--html", str(tmp_path / "report.html"))
    assert r.returncode == 0, r.stderr
    said = f"{lost} of 24 games ended by a forfeit (odd as the first player: {lost} crashes)"
    assert said in (tmp_path / "report.html").read_text(encoding="utf-8")
    first = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(pdf), "-"], capture_output=True, text=True,
                           check=True).stdout
    assert said in " ".join(first.split())
    table = pd.read_csv(tmp_path / "report.forfeits.csv")
    assert table[["bot", "seat", "kind", "games"]].values.tolist() == [["odd", "first", "crash", lost]]


def test_no_program_outlives_a_killed_sweep_and_its_workers(tmp_path):
    """A sweep on two workers killed with SIGKILL while its workers' programs play: every program it started (the
    sweep's own and each worker's) is gone within seconds."""
    pids = tmp_path / "pids.txt"
    sc = scenario("duel")
    proc = subprocess.Popen([sys.executable, "-m", "simkit", "sweep", str(sc.path), "--decks", *sc.decks[:3],
                             "--games", "60", "--chunk-size", "5", "--workers", "2", "--bots", "mine,aggro", "--bot",
                             f"mine={' '.join(bad('good', pids))}", "--out", str(tmp_path / "sweep")],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        while len(pids.read_text().split() if pids.exists() else []) < 3 and time.monotonic() < deadline:
            assert proc.poll() is None, "the sweep ended before its workers started their programs"
            time.sleep(0.2)
        started = [int(p) for p in pids.read_text().split()]
        assert len(started) >= 3 and any(running(p) for p in started)
        proc.kill()
        proc.wait(timeout=60)
        deadline = time.monotonic() + 10
        while any(running(p) for p in started) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [p for p in started if running(p)], "a program outlived the killed sweep"
    finally:
        if proc.poll() is None:
            proc.kill()
        kill_left(pids)


def test_a_ladder_counts_an_outside_bots_forfeits_apart(tmp_path):
    """`simkit ladder` with an outside rung that crashes in some games: the match's score counts only the games
    played to their end, the forfeits are counted beside it, and the answer says they were not counted."""
    sc = scenario("duel")
    out = tmp_path / "ladder"
    r = run_simkit("ladder", str(sc.path), "--rungs", "odd,aggro", "--games", "16", "--workers", "1", "--quiet",
                   "--bot", f"odd={' '.join(bad('crash-odd'))}", "--out", str(out))
    assert r.returncode == 0, r.stderr
    doc = json.loads((out / "ladder.json").read_text())
    match = doc["matches"][0]
    assert match["forfeits"] > 0 and match["games"] + match["forfeits"] == 16
    assert f"{match['forfeits']} games ended by a forfeit" in doc["answer"]
