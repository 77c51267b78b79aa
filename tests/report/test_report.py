"""simkit.report and `simkit report`: plots on plain Axes, the PDF's pages and metadata, CSVs, bad input."""

import json

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from pypdf import PdfReader
from results_folders import write_sweep_folder

import simkit.report.balance as balance
from simkit.analysis import TABLES, analyze
from simkit.cli import main
from simkit.report import plot_deck_ratings, plot_flags, plot_matchup_heatmap, write_balance_report
from simkit.testing.synthetic import synthetic_results

A = "HolyLight:Archer,Priest,Swordsman"
B = "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"
C = "SalamanderShield:Archer,FrostDragon,Swordsman"
D = "WindBlessing:BlackBat,Priest,VolcanoDragon"
DECKS = [A, B, C, D]
PLANTED = {(A, B): 0.8, (A, C): 0.75, (A, D): 0.8}
# title, matchups, deck strength with the first player per deck (a small pool), the first player per matchup,
# cards, what the cards did, game shape, metagame with the flags (few)
PAGES = ["title", "matchups", "deck strength 1", "first player per matchup", "cards", "card usage", "game shape",
         "metagame and flags"]


@pytest.fixture(scope="module")
def results():
    """Four decks, one of them planted strong, with a seat edge and some draws."""
    return synthetic_results(DECKS, 30, PLANTED, first_advantage=0.05, draw_rate=0.05, seed=11,
                             scenario_hash="cafe0123", rules_version="miracle-war/1", scenario_name="planted pool")


@pytest.fixture(scope="module")
def tables(results):
    """The analysis of ``results`` with a short bootstrap."""
    return analyze(results, bootstrap=20)


def test_heatmap_cells_follow_the_given_order(tables):
    """The heatmap's cell (i, j) is deck order[i]'s win rate against order[j]; mirrors are blank."""
    order = list(tables["decks"]["deck"])
    ax = Figure(figsize=(6, 6)).add_axes([0.3, 0.3, 0.6, 0.6])
    im = plot_matchup_heatmap(ax, tables["matchups"], order)
    cells = im.get_array()
    m = tables["matchups"].set_index(["deck", "opponent"])["win_rate"]
    assert cells[0, 1] == pytest.approx(m[(order[0], order[1])])
    assert cells[3, 0] == pytest.approx(m[(order[3], order[0])])
    assert np.ma.getmaskarray(cells).diagonal().all()
    assert [t.get_text() for t in ax.get_yticklabels()] == order


def test_deck_ratings_plot_one_row_per_deck(tables):
    """The ratings plot labels every deck, strongest on top."""
    ax = Figure(figsize=(6, 6)).add_axes([0.4, 0.1, 0.5, 0.8])
    plot_deck_ratings(ax, tables["decks"])
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == list(tables["decks"]["deck"]) and labels[0] == A


def test_flags_table_lists_every_flag(tables):
    """The flags plot writes one numbered row per flag, or says there is none."""
    ax = Figure().add_axes([0, 0, 1, 1])
    plot_flags(ax, tables["flags"])
    text = " ".join(ax.texts[0].get_text().split())  # long subjects wrap over lines
    assert len(tables["flags"]) > 0 and all(s in text for s in tables["flags"]["subject"])
    empty = Figure().add_axes([0, 0, 1, 1])
    plot_flags(empty, tables["flags"].iloc[:0])
    assert "No flags" in empty.texts[0].get_text()


def test_report_pdf_has_the_expected_pages_metadata_and_csvs(tables, tmp_path):
    """The PDF has its eight pages, names the scenario hash and rules version, and every table is a CSV."""
    files = write_balance_report(tables, tmp_path / "out" / "planted.pdf")
    pdf = files[0]
    reader = PdfReader(pdf)
    assert len(reader.pages) == len(PAGES)
    assert "cafe0123" in reader.metadata["/Keywords"] and "miracle-war/1" in reader.metadata["/Keywords"]
    assert "cafe0123" in reader.metadata["/Subject"]
    first = reader.pages[0].extract_text()
    assert "Balance report" in first and "planted pool" in first and A in first
    assert {p.name for p in files[1:]} == {f"planted.{t}.csv" for t in TABLES}
    decks = pd.read_csv(tmp_path / "out" / "planted.decks.csv")
    assert list(decks["deck"]) == list(tables["decks"]["deck"])
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == sorted(p.name for p in files)


def test_many_flags_spread_over_several_pages(tables, tmp_path, monkeypatch):
    """Flags too many to share the metagame page get pages of their own: with one flag per page, one page each."""
    monkeypatch.setattr(balance, "FLAGS_PER_PAGE", 1)
    monkeypatch.setattr(balance, "MAX_FLAG_PAGES", 100)
    monkeypatch.setattr(balance, "FLAGS_PACKED", 0)
    pdf = write_balance_report(tables, tmp_path / "many.pdf")[0]
    assert len(PdfReader(pdf).pages) == len(PAGES) + len(tables["flags"])


def test_a_failing_page_leaves_no_file(tables, tmp_path, monkeypatch):
    """If a page fails, neither the PDF nor any CSV nor a temporary file is left behind."""

    def broken(ax, table, **options):
        raise RuntimeError("plot failed")

    monkeypatch.setattr(balance, "plot_nash_mix", broken)
    with pytest.raises(RuntimeError):
        write_balance_report(tables, tmp_path / "broken.pdf")
    assert list(tmp_path.iterdir()) == []


def test_report_command_on_a_results_folder(results, tmp_path, capsys):
    """`simkit report DIR -o NAME.pdf` writes the PDF and says where."""
    folder = write_sweep_folder(results, tmp_path / "results")
    out = tmp_path / "reports" / "planted.pdf"
    assert main(["report", str(folder), "-o", str(out), "--bootstrap", "10"]) == 0
    assert out.exists() and len(PdfReader(out).pages) == len(PAGES)
    assert str(out) in capsys.readouterr().out


@pytest.mark.parametrize("case", ["missing", "not a sweep", "no games", "not pdf", "pair missing"])
def test_report_command_refuses_bad_input(results, tmp_path, capsys, case):
    """Bad input ends with exit status 2 and one line on stderr naming the problem."""
    folder, out = tmp_path / "results", tmp_path / "r.pdf"
    expect = {"missing": "no such results folder", "not a sweep": "not a simkit results folder",
              "no games": "no finished games", "not pdf": ".pdf", "pair missing": "every ordered deck pairing"}[case]
    if case == "not a sweep":
        folder.mkdir()
    elif case == "no games":
        folder.mkdir()
        (folder / "meta.json").write_text(json.dumps(results.attrs["meta"]))
    elif case == "not pdf":
        write_sweep_folder(results, folder)
        out = tmp_path / "r.png"
    elif case == "pair missing":
        write_sweep_folder(results[~((results["first_deck"] == A) & (results["second_deck"] == B))], folder)
    assert main(["report", str(folder), "-o", str(out)]) == 2
    err = capsys.readouterr().err.strip()
    assert expect in err and len(err.splitlines()) == 1
    assert not out.exists()


def _pdf_text(path) -> list[str]:
    return [page.extract_text() for page in PdfReader(path).pages]


def test_one_game_folder_reports_without_nan(tmp_path):
    """A sweep of one game (one deck, its mirror) gives a report whose pages never print NaN."""
    one = synthetic_results([A], 1, seed=2, scenario_name="one game")
    folder = write_sweep_folder(one, tmp_path / "one")
    out = tmp_path / "one.pdf"
    assert main(["report", str(folder), "-o", str(out), "--bootstrap", "5"]) == 0
    pages = _pdf_text(out)
    assert all("nan" not in p.lower() for p in pages)
    title = " ".join(pages[0].split())
    assert "one deck" in title and "HolyLight only" in title and "best HolyLight" not in title


def test_title_page_never_names_a_lone_card_best_and_worst():
    """With one artifact in the pool the headline says 'HolyLight only', not 'best HolyLight, worst HolyLight'."""
    holy = [A, "HolyLight:BlackBat,FrostDragon,VolcanoDragon", "HolyLight:Archer,BlackBat,Priest"]
    words = " ".join(balance.headlines(analyze(synthetic_results(holy, 6, seed=3), bootstrap=5)))
    assert "Artifacts: HolyLight only" in words and "worst HolyLight" not in words
    assert "creature kinds: best" in words


def test_all_even_pool_says_so_instead_of_a_single_deck_mix():
    """A pool where every game is drawn: the metagame is said to be even, not '100% of' the first deck."""
    words = " ".join(balance.headlines(analyze(synthetic_results(DECKS, 4, draw_rate=1.0, seed=3), bootstrap=5)))
    assert "every matchup is even" in words and "100.0%" not in words.split("Metagame")[1].split(".")[0]


def test_title_and_flags_pages_state_the_games_a_matchup_flag_needs(tables, tmp_path):
    """At 30 games per pair the title and flags pages say flags are possible from 7; at 3 they warn."""
    ok = _pdf_text(write_balance_report(tables, tmp_path / "ok.pdf")[0])
    for page in (ok[0], ok[-1]):
        text = " ".join(page.split())
        assert "beyond 70/30 from 7 games per pair" in text and "WARNING" not in text
    small = analyze(synthetic_results(DECKS, 3, PLANTED, seed=11), bootstrap=5)
    pages = _pdf_text(write_balance_report(small, tmp_path / "small.pdf")[0])
    for page in (pages[0], pages[-1]):
        text = " ".join(page.split())
        assert "WARNING: this sweep has 3 games per pair, too few to flag any matchup" in text
        assert "from 7 games per pair" in text


def test_a_pairing_played_in_one_seating_is_counted_in_games_not_as_zero_per_pair(tables):
    """Two seat pools: each pairing is one seating, so one game a pairing is "1 game", never "0 games per pair"."""
    one = {**tables, "flag_reach": {**tables["flag_reach"], "games_per_pair": 0, "pairing_games": 1,
                                    "enough": False}}
    words = balance.reach_words(one)[0]
    assert words.startswith("WARNING: this sweep has 1 game on its thinnest pairing, too few to flag any matchup")
    assert "0 games per pair" not in words


class _Pages:
    """Stands in for ReportPdf: keeps the pages instead of writing them."""

    def __init__(self):
        self.figs = {}

    def new_page(self, size):
        return Figure(figsize=size)

    def add(self, fig, title):
        self.figs[title] = fig


@pytest.fixture(scope="module")
def eighty():
    """All 80 decks of the base pool, 2 games per pair, Priest decks planted strong."""
    from itertools import combinations

    kinds = ["Archer", "BlackBat", "FrostDragon", "Priest", "Swordsman", "VolcanoDragon"]
    decks = [f"{a}:{','.join(c)}" for a in ("HolyLight", "InfernoFlame", "SalamanderShield", "WindBlessing")
             for c in combinations(kinds, 3)]

    def rate(a, b):
        return 0.5 + 0.2 * ("Priest" in a) - 0.2 * ("Priest" in b)

    return analyze(synthetic_results(decks, 2, rate, seed=5), bootstrap=0)


def test_heatmap_of_80_decks_names_every_deck_legibly_and_states_games_per_cell(eighty):
    """At 80 decks every row names its deck in 7 pt or more, and the page says each cell is 4 games."""
    pages = _Pages()
    balance.matchup_page(pages, eighty)
    fig = pages.figs["matchups"]
    ax = fig.axes[0]
    labels = ax.get_yticklabels()
    assert [t.get_text().rsplit("  ", 1)[0] for t in labels] == list(eighty["decks"]["deck"])
    assert min(t.get_fontsize() for t in labels) >= 7 and min(t.get_fontsize() for t in ax.get_xticklabels()) >= 7
    words = " ".join(t.get_text() for t in fig.texts)
    assert "Each cell: 4 games (both seatings pooled)" in words and "from 16 games per pair" in words


def test_first_player_per_matchup_is_a_page_of_the_pdf(tables, tmp_path):
    """The per-matchup seat advantage is a PDF page: cell (A, B) = cell (B, A) = the table's; mirrors diagonal."""
    pages = _Pages()
    balance.seat_matchup_page(pages, tables)
    fig = pages.figs["first player per matchup"]
    cells = fig.axes[0].images[0].get_array()
    order = list(tables["decks"]["deck"])
    fp = tables["first_player"]
    fp = fp[fp["scope"] == "matchup"].set_index(["deck", "opponent"])["advantage"]
    i, j = order.index(A), order.index(B)
    assert cells[i, j] == cells[j, i] == pytest.approx(100 * fp[(A, B)])
    assert cells[i, i] == pytest.approx(100 * fp[(A, A)])
    assert "60 games (both seatings pooled), a mirror 30 games" in " ".join(t.get_text() for t in fig.texts)
    reader = PdfReader(write_balance_report(tables, tmp_path / "seat.pdf")[0])
    page = reader.pages[PAGES.index("first player per matchup")]
    assert "First-player advantage in each matchup" in page.extract_text()
