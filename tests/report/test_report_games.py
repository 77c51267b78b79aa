"""simkit.report.games: which matchups get a game page, which game, its replay, and the pages in the PDF."""

import json
import shlex
import shutil
from pathlib import Path

import pandas as pd
import pytest
from pypdf import PdfReader

import simkit
from simkit.analysis import FlagBands, analyze
from simkit.cli import main
from simkit.report import write_balance_report
from simkit.report.games import find_scenario, matchups_to_watch, plan_game_pages, representative_game
from simkit.sweep import RunOptions, SweepSettings, load_results, plan_sweep, run_sweep
from simkit.testing.synthetic import synthetic_results

QUICK = Path(__file__).resolve().parents[2] / "scenarios" / "miracle" / "quick.toml"
A = "HolyLight:Archer,Priest,Swordsman"
B = "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"
C = "SalamanderShield:Archer,FrostDragon,Swordsman"
BASE_PAGES = 10  # title, matchups, deck strength + first player per deck, per matchup, cards, card usage, shape,
#                  metagame+flags, how the games play and its figures


def _text(page) -> str:
    """A page's text with shell line continuations joined and spaces collapsed."""
    return " ".join(page.extract_text().replace("\\\n", " ").split())


@pytest.fixture(scope="module")
def sweep(tmp_path_factory):
    """A real sweep of the quick scenario cut to 12 turns: 2 decks, 2 games per ordered pair."""
    root = tmp_path_factory.mktemp("games")
    path = root / "short.toml"
    path.write_text(f'extends = "{QUICK}"\nname = "quick, 12 turns"\n[rules]\nturn_limit = 12\n')
    sc = simkit.load_scenario(path)
    out = run_sweep(sc, plan_sweep(sc, SweepSettings(games=2, decks=[A, B], chunk_size=8)), root / "results",
                    RunOptions(workers=1, progress=False))
    return out


def test_matchups_to_watch_lists_flagged_first_then_the_most_lopsided():
    """Flagged matchups come first (favoured deck named first); --game-pages tops up with the most lopsided."""
    df = synthetic_results([A, B, C], 60, {(A, B): 0.9, (A, C): 0.62}, seed=3)
    tables = analyze(df, bootstrap=10)
    flagged = matchups_to_watch(tables)
    assert list(zip(flagged["deck"], flagged["opponent"])) == [(A, B)] and flagged["flagged"].all()
    more = matchups_to_watch(tables, at_least=3)
    assert len(more) == 3 and list(more["flagged"]) == [True, False, False]
    assert (more["value"] >= 0.5).all() and more["value"].iloc[1] >= more["value"].iloc[2]
    assert {frozenset(p) for p in zip(more["deck"], more["opponent"])} == {
        frozenset((A, B)), frozenset((A, C)), frozenset((B, C))}


def test_representative_game_is_the_median_length_win_of_the_favoured_deck():
    """Of the favoured deck's wins in either seat, the median-length one is picked, in its own seating."""
    df = pd.DataFrame({
        "first_deck": [A, A, B, B, A], "second_deck": [B, B, A, A, C], "game": [0, 1, 0, 1, 0],
        "seed": [10, 11, 12, 13, 14], "winner": ["first", "second", "second", "second", "first"],
        "end_reason": "miracle", "turns": [30, 5, 50, 40, 1],
    })
    row, wins = representative_game(df, A, B)
    assert wins == 3 and row["seed"] == 13 and row["first_deck"] == B  # wins last 30, 40, 50 turns
    row, wins = representative_game(df, B, A)
    assert wins == 1 and row["seed"] == 11
    with pytest.raises(ValueError, match="never met"):
        representative_game(df, B, C)


def test_report_shows_a_replayable_game_page(sweep, tmp_path, monkeypatch):
    """--game-pages 1 adds a page with the boards, the seed and a `simkit play` command that replays the game."""
    out = tmp_path / "r.pdf"
    assert main(["report", str(sweep), "-o", str(out), "--bootstrap", "10", "--game-pages", "1"]) == 0
    reader = PdfReader(out)
    assert len(reader.pages) == BASE_PAGES + 1
    assert "a representative game of each of the 1 most lopsided matchup(s)" in _text(reader.pages[0])
    page = _text(reader.pages[-1])
    df = load_results(sweep)
    pick = matchups_to_watch(analyze(df, bootstrap=10), at_least=1).iloc[0]
    game, _ = representative_game(df, pick["deck"], pick["opponent"])
    seed = int(game["seed"])
    assert f"Seed {seed}" in page and "after turn 12" in page
    command = next(line for line in reader.pages[-1].extract_text().replace("\\\n", " ").splitlines()
                   if line.startswith("simkit play"))
    args = shlex.split(command)
    assert args[:5] == ["simkit", "play", df.attrs["meta"]["scenario_path"], game["first_deck"],
                        game["second_deck"]]
    assert args[5:] == ["--bots", "balanced,balanced", "--seed", str(seed), "--render", "matchup-1.gif"]
    assert " ".join(command.split()) in page
    # the command plays the same game again (its JSON record holds the sweep's result)
    monkeypatch.chdir(tmp_path)
    assert main(args[1:-2] + ["--json", "game.json"]) == 0
    result = pd.read_json(tmp_path / "game.json", typ="series")["result"]
    assert (result["winner"], result["turns"]) == (game["winner"], game["turns"])


def test_no_flag_no_game_page_and_a_changed_scenario_is_refused(sweep, tmp_path):
    """Without flags or --game-pages there is no game page; a scenario edited since the sweep skips them, saying why."""
    out = tmp_path / "plain.pdf"
    assert main(["report", str(sweep), "-o", str(out), "--bootstrap", "10"]) == 0
    reader = PdfReader(out)
    assert len(reader.pages) == BASE_PAGES and "No game pages, as no matchup is flagged" in _text(reader.pages[0])
    copy = Path(shutil.copytree(sweep, tmp_path / "results"))
    meta = json.loads((copy / "meta.json").read_text())
    edited = tmp_path / "edited.toml"
    edited.write_text(Path(meta["scenario_path"]).read_text().replace("turn_limit = 12", "turn_limit = 13"))
    (copy / "meta.json").write_text(json.dumps({**meta, "scenario_path": str(edited)}))
    out = tmp_path / "edited.pdf"
    assert main(["report", str(copy), "-o", str(out), "--bootstrap", "10", "--game-pages", "1"]) == 0
    reader = PdfReader(out)
    assert len(reader.pages) == BASE_PAGES and "has changed since the sweep" in _text(reader.pages[0])
    assert "not found" in find_scenario({"scenario_path": "nowhere.toml"}, sweep)[2]


def test_a_flagged_matchup_gets_its_page_by_default(sweep, tmp_path):
    """With bands so tight that the one matchup is flagged, its page comes without --game-pages."""
    df = load_results(sweep)
    tables = analyze(df, bootstrap=10, bands=FlagBands(matchup=0.5, alpha=1.0))
    pages = plan_game_pages(df, tables, sweep)
    assert len(pages.games) == pages.wanted == pages.flagged == 1
    pdf = write_balance_report(tables, tmp_path / "flagged.pdf", games=pages)[0]
    reader = PdfReader(pdf)
    assert len(reader.pages) == BASE_PAGES + 1
    page = _text(reader.pages[-1])
    assert "Flagged matchup 1 of 1" in page and f"Seed {int(pages.games['seed'].iloc[0])}" in page
