"""Every page and the HTML count a sweep's two seat pools the same way, on a game whose seats are alike (the
template game) and on one whose seats have their own pools (Magic War); Magic War's report names what each seat
buys with, and a big matchup page keeps its labels apart."""

from __future__ import annotations

import html
from pathlib import Path

import matplotlib
import pandas as pd
import pytest

matplotlib.use("Agg")

import simkit  # noqa: E402
from simkit.analysis import analyze, seat_pools  # noqa: E402
from simkit.report.balance import balance_report, games_line, headlines, seat_words  # noqa: E402
from simkit.report.html import html_report  # noqa: E402
from simkit.sweep import RunOptions, SweepSettings, load_results, plan_sweep, run_sweep  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
MAGIC = ROOT / "scenarios" / "magic" / "base.toml"
TEMPLATE = ROOT / "scenarios" / "_template" / "quick.toml"


def _sweep(path: Path, out: Path, **kw) -> Path:
    sc = simkit.load_scenario(path)
    run_sweep(sc, plan_sweep(sc, SweepSettings(**kw)), out, RunOptions(workers=1))
    return out


@pytest.fixture(scope="module")
def orc(tmp_path_factory):
    """Magic War's Orc armies: 3 first-seat armies (12 gold) x 6 second-seat ones (the same 3 and three of 13)."""
    return _sweep(MAGIC, tmp_path_factory.mktemp("orc"), games=1, decks=["Orc:*"], bots=("balanced", "balanced"))


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    """The template game's quick pool: 4 decks in both seats."""
    return _sweep(TEMPLATE, tmp_path_factory.mktemp("template"), games=2, bots=("greedy", "greedy"))


@pytest.mark.parametrize("which, line", [
    ("orc", "Games: 18 = 3 first-seat x 6 second-seat decks (every pairing) x 1 game per pairing"),
    ("template", "Games: 32 = 4 decks x 4 decks (both seatings, mirrors included) x 2 games per pairing"),
])
def test_the_pdf_and_the_html_count_the_seat_pools_with_one_line(request, tmp_path, which, line):
    """The analysis counts every pairing of the two pools once (pairing_games), and the PDF's title page and the
    HTML page both say that count in the very same line, whether the seats are alike or not."""
    from pypdf import PdfReader

    folder = request.getfixturevalue(which)
    tables = analyze(load_results(folder), bootstrap=0)
    pools = seat_pools(load_results(folder))
    assert len(tables["pairing_games"]) == pools.pairings and games_line(tables) == line
    balance_report(folder, tmp_path / "r.pdf", bootstrap=10)
    html_report(folder, tmp_path / "r.html", bootstrap=10, replays=0)
    first_page = " ".join(PdfReader(tmp_path / "r.pdf").pages[0].extract_text().split())
    assert line in first_page
    assert html.escape(line, quote=True) in (tmp_path / "r.html").read_text(encoding="utf-8")


def test_magic_wars_seat_sentence_names_what_each_seat_buys_with(orc):
    """The seats' budgets come from the scenario (recorded by the sweep) into the headline's seat sentence and the
    first-seat pages' title; the template game's seats differ only in who moves first, and its words say nothing
    of budgets."""
    tables = analyze(load_results(orc), bootstrap=0)
    assert tables["meta"]["seat_terms"] == ["12 gold", "13 gold"]
    assert any("the first seat with 12 gold, the second with 13 gold" in h for h in headlines(tables))
    assert seat_words(tables)[0] == "First seat's edge (12 gold against 13 gold)"


def test_alike_seats_name_no_budget(template):
    """A game whose seats are alike records no seat terms and keeps its first-player title."""
    tables = analyze(load_results(template), bootstrap=0)
    assert "seat_terms" not in tables["meta"] and seat_words(tables)[0] == "First-player advantage"
    assert not any("gold" in h for h in headlines(tables))


def test_a_seat_pool_flag_reach_counts_the_one_seating(orc):
    """A 12-gold army meets a 13-gold one in one seating only: the flag reach counts games per pairing of one
    seating (1 game each here), not half of it."""
    reach = analyze(load_results(orc), bootstrap=0)["flag_reach"]
    assert reach["seatings"] == 1 and reach["games_per_pair"] == 1 and reach["pairing_games"] == 1


@pytest.mark.parametrize("decks, width, numbered", [(24, 45, True), (6, 45, False), (12, 45, False)])
def test_the_matchup_heatmap_names_columns_in_full_only_when_the_names_keep_apart(tmp_path, decks, width, numbered):
    """On the report's big page, 24 columns of 45-character deck names would run into each other at 35 degrees:
    the columns are numbered like the rows; 6 or 12 such columns keep their names."""
    from simkit.report.balance import _big_page
    from simkit.report.document import ReportPdf
    from simkit.report.plots import plot_matchup_heatmap

    names = [f"D{k:02d}" + "x" * (width - 3) for k in range(decks)]
    rows = [{"deck": a, "opponent": b, "win_rate": 0.5 if a == b else 0.6 if a < b else 0.4, "mirror": a == b}
            for a in names for b in names]

    with ReportPdf(tmp_path / "h.pdf", "t", "t", "t", "t") as pdf:
        fig, ax = _big_page(pdf, decks)
        plot_matchup_heatmap(ax, pd.DataFrame(rows), names)
    labels = [t.get_text() for t in ax.get_xticklabels()]
    assert labels == ([str(k + 1) for k in range(decks)] if numbered else names)


def test_grey_cells_say_when_two_decks_never_meet(orc):
    """On Magic War's matchup heatmap two 13-gold armies never meet (both sit second only): grey is not only a
    mirror, and the title says so."""
    from matplotlib.figure import Figure

    from simkit.report.plots import plot_matchup_heatmap

    tables = analyze(load_results(orc), bootstrap=0)
    ax = Figure().add_subplot()
    plot_matchup_heatmap(ax, tables["matchups"], list(tables["decks"]["deck"]))
    assert "never pair" in ax.get_title()


def test_a_few_flags_fill_a_page_cut_to_them(tmp_path):
    """Flags that do not share the metagame page get pages of their own, each cut to its lines, never an A4 page
    with three lines on it."""
    from pypdf import PdfReader

    from simkit.analysis import FLAG_COLUMNS
    from simkit.report.balance import flag_pages
    from simkit.report.document import ReportPdf

    flags = pd.DataFrame([{"kind": "deck", "subject": f"Deck{k}", "value": 0.8, "low": 0.7, "high": 0.9, "games": 40,
                           "band_low": 0.45, "band_high": 0.55, "p_value": 0.001, "p_adjusted": 0.003,
                           "message": "too strong"} for k in range(3)])[FLAG_COLUMNS]
    with ReportPdf(tmp_path / "f.pdf", "t", "t", "t", "t") as pdf:
        flag_pages(pdf, flags, "flags", lambda fig, k, part, more: fig.text(0.02, 0.985, "Flags"))
    page = PdfReader(tmp_path / "f.pdf").pages[0]
    assert float(page.mediabox.height) < 0.5 * 11.69 * 72
