"""simkit ladder: does the player matter? End to end on small real data for three games (Magic War's seats with
their own pools among them), the folder it writes, the report page drawn again, and bad input refused."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from pypdf import PdfReader

import simkit
from simkit.cli import main
from simkit.ladder import LadderSettings

ROOT = Path(__file__).resolve().parents[2]

# (scenario, rungs weakest first, the best utility): the cheap bots of each game
GAMES = {
    "miracle": ("scenarios/miracle/quick.toml", "random,balanced", "rush"),
    "duel": ("scenarios/duel/quick.toml", "random,aggro", "control"),
    "magic": ("scenarios/magic/base.toml", "random,aggro", "balanced"),
}


def ladder(tmp_path: Path, name: str, *extra: str) -> tuple[dict, Path]:
    """Run ``simkit ladder`` on the game's cheap bots, 8 games a match (2 deals x 2 orders x 2 seeds)."""
    scenario, rungs, against = GAMES[name]
    out = tmp_path / name
    assert main(["ladder", str(ROOT / scenario), "--rungs", rungs, "--against", against, "--games", "8",
                 "--workers", "1", "--quiet", "--out", str(out), *extra]) == 0
    return json.loads((out / "ladder.json").read_text()), out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_plays_its_ladder_in_both_seats_from_its_seat_pools(tmp_path, name, capsys):
    """Each match deals decks from the seat pools, plays every seed in both seat orders on the same decks, and
    gives its score, its outcome split and one answer sentence; the folder holds the figures with their
    provenance, every game, and a one-page report with its tables."""
    doc, out = ladder(tmp_path, name, "--cost-games", "1")
    sc = simkit.load_scenario(ROOT / GAMES[name][0])
    firsts, seconds = sc.game.seat_decks()
    rungs = GAMES[name][1].split(",")
    assert [(m["upper"], m["lower"]) for m in doc["matches"]] == [(rungs[1], rungs[0]), (rungs[1], GAMES[name][2])]
    games = pd.read_csv(out / "games.csv")
    assert len(games) == 16 and set(games.first_deck) <= set(firsts) and set(games.second_deck) <= set(seconds)
    for m in doc["matches"]:
        mine = games[(games.upper == m["upper"]) & (games.lower == m["lower"])]
        assert m["games"] == 8 and m["won"] + m["drawn"] + m["lost"] == 8
        assert m["upper_first"]["games"] == m["upper_second"]["games"] == 4
        for _, two in mine.groupby("seed"):  # each seed twice, the bots swapped, the decks kept
            assert len(two) == 2 and two.first_deck.nunique() == 1 and two.first_bot.nunique() == 2
        assert m["win_ci"][0] <= m["win_rate"] <= m["win_ci"][1]
        assert m["score"] == pytest.approx(m["win_rate"] + m["drawn"] / 16)
        split = m["skill_or_luck"]
        assert split["games"] == 8 and split["deals"] == 2 and split["seeds_per_deal"] == 2
        if split["total"] > 0:
            assert sum(split["share"][k] for k in ("skill", "decks", "luck")) == pytest.approx(1)
        assert m["answer"].startswith((f"{m['upper']} plays", f"{m['upper']} and {m['lower']} are not told apart"))
    assert doc["answer_match"] == [rungs[1], GAMES[name][2]] and doc["answer"] in capsys.readouterr().out
    assert doc["script"] == "simkit ladder" and doc["command"].startswith("simkit ladder ")
    assert doc["date"] and "commit" in doc and doc["game"] == sc.game_name
    assert [c["rung"] for c in doc["costs"]] == [*rungs, GAMES[name][2]]
    assert all(c["cpu_s_per_game"] > 0 and c["sweep_pairs"] == len(firsts) * len(seconds) for c in doc["costs"])
    page = PdfReader(out / "ladder.pdf")
    assert len(page.pages) == 1 and "Does the player matter?" in page.pages[0].extract_text()
    for table in ("matches", "outcome", "costs", "round_robin"):
        assert (out / f"ladder.{table}.csv").is_file()


def test_the_results_do_not_depend_on_the_workers(tmp_path):
    """One worker or two (forked after the kernels compile in the parent): the very same games and figures."""
    one, a = ladder(tmp_path / "one", "duel")
    two, b = ladder(tmp_path / "two", "duel", "--workers", "2")
    assert pd.read_csv(a / "games.csv").drop(columns=[]).equals(pd.read_csv(b / "games.csv"))
    keep = ("won", "drawn", "lost", "score", "score_ci", "skill_or_luck")
    assert [{k: m[k] for k in keep} for m in one["matches"]] == [{k: m[k] for k in keep} for m in two["matches"]]


def test_report_draws_a_ladder_folder_again_and_refuses_html(tmp_path, capsys):
    """``simkit report LADDER_DIR`` writes the ladder page and its tables; an HTML page is refused in one line."""
    _, out = ladder(tmp_path, "duel")
    capsys.readouterr()
    assert main(["report", str(out), "-o", str(tmp_path / "again.pdf")]) == 0
    assert "Does the player matter?" in PdfReader(tmp_path / "again.pdf").pages[0].extract_text()
    assert (tmp_path / "again.outcome.csv").is_file()
    assert main(["report", str(out), "-o", str(tmp_path / "again.html")]) == 2
    assert "a ladder folder's report is a PDF" in capsys.readouterr().err


def test_a_round_robin_plays_every_pair_once_and_scores_each_bot(tmp_path):
    """Every pair of the rungs plays once; each bot's score is over all its games, every point going to a bot."""
    out = tmp_path / "rr"
    assert main(["ladder", str(ROOT / "scenarios/duel/quick.toml"), "--rungs", "random,aggro,control",
                 "--round-robin", "--games", "4", "--seeds-per-deal", "1", "--workers", "1", "--quiet",
                 "--out", str(out)]) == 0
    doc = json.loads((out / "ladder.json").read_text())
    assert [(m["upper"], m["lower"]) for m in doc["matches"]] == [("aggro", "random"), ("control", "random"),
                                                                  ("control", "aggro")]
    assert all("skill_or_luck" not in m for m in doc["matches"])  # one seed a deal: no split
    table = doc["round_robin"]
    assert {b: v["games"] for b, v in table.items()} == {"random": 8, "aggro": 8, "control": 8}
    assert sum(v["score"] * v["games"] for v in table.values()) == pytest.approx(12)


def test_the_matches_are_each_rung_over_the_one_below_the_top_over_the_bottom_and_against():
    """The plan: every step, the top over the bottom, the top over --against, each match once."""
    s = LadderSettings(rungs=("a", "b", "c"), against="u")
    assert s.matches() == [("b", "a"), ("c", "b"), ("c", "a"), ("c", "u")]
    assert LadderSettings(rungs=("u", "s"), against="u").matches() == [("s", "u")]
    assert LadderSettings(rungs=("a", "b", "c"), top_vs_bottom=False).matches() == [("b", "a"), ("c", "b")]
    assert LadderSettings(rungs=("a", "b", "c"), round_robin=True).matches() == [("b", "a"), ("c", "a"), ("c", "b")]


@pytest.mark.parametrize("extra, words", [
    (["--rungs", "random,oracle"], "unknown bot 'oracle' (the scenario knows: random"),
    (["--rungs", "random,aggro", "--games", "6"], "--games: must be a positive multiple of 2 x --seeds-per-deal (4"),
    (["--rungs", "aggro"], "--rungs: name at least two bots"),
    (["--rungs", "random,aggro", "--against", "control", "--round-robin"], "--round-robin plays every pair"),
    (["--rungs", "random,aggro", "--seeds-per-deal", "0"], "--seeds-per-deal: must be a whole number of at least 1"),
    (["--rungs", "random,,aggro"], "--rungs: every name of the comma list must be given"),
])
def test_bad_input_is_one_line_and_writes_nothing(tmp_path, capsys, extra, words):
    """Each mistake ends with exit 2 and one line naming the option, before anything is played or written."""
    out = tmp_path / "out"
    assert main(["ladder", str(ROOT / "scenarios/duel/quick.toml"), *extra, "--out", str(out), "--quiet"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and words in err[0]
    assert not out.exists()


def test_a_sweep_folder_is_not_overwritten_by_a_ladder(tmp_path, capsys):
    """A folder holding a sweep's meta.json is refused in one line, its files untouched."""
    out = tmp_path / "sweep"
    out.mkdir()
    (out / "meta.json").write_text("{}")
    assert main(["ladder", str(ROOT / "scenarios/duel/quick.toml"), "--rungs", "random,aggro", "--games", "4",
                 "--out", str(out), "--quiet"]) == 2
    assert "holds a sweep's results" in capsys.readouterr().err
    assert sorted(p.name for p in out.iterdir()) == ["meta.json"]
