"""No half-empty page: a page whose content ends half way down is cut below it (the footer under the content), and
a two-bot panel's agreement (one pair: a sentence with its intervals, no 2x2 matrix) shares the page of the pilots."""

import pandas as pd
import pytest
from matplotlib.figure import Figure
from pypdf import PdfReader
from results_folders import write_sweep_folder

from simkit.analysis import analyze
from simkit.cli import main
from simkit.report import write_balance_report
from simkit.report.document import PORTRAIT, ReportPdf
from simkit.testing.synthetic import synthetic_results

A4 = PORTRAIT[1] * 72  # points
DECKS = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon",
         "SalamanderShield:Archer,FrostDragon,Swordsman", "WindBlessing:BlackBat,Priest,VolcanoDragon",
         "HolyLight:BlackBat,FrostDragon,Swordsman", "InfernoFlame:Archer,Priest,VolcanoDragon"]


def _pages(pdf, portrait: bool = False) -> list[tuple[str, float]]:
    """Each page's text (whitespace folded) and height in points (of the A4-wide pages only, if ``portrait``)."""
    return [(" ".join(p.extract_text().split()), float(p.mediabox.height)) for p in PdfReader(pdf).pages
            if not portrait or float(p.mediabox.width) == pytest.approx(PORTRAIT[0] * 72)]


def test_a_page_is_cut_below_its_lowest_content_and_keeps_its_footer(tmp_path):
    """Text down to 70% of the page: the page is cut to about a third of A4 and the last line and the footer stay;
    a page without ``down_to`` stays whole; a page whose content reaches the foot is not cut."""
    with ReportPdf(tmp_path / "p.pdf", "t", "the footer", "s", "k") as pdf:
        for k, low in enumerate((0.7, None, 0.05)):
            fig = Figure(figsize=PORTRAIT)
            fig.text(0.1, 0.95, "top line", va="top")
            fig.text(0.1, 0.71 if low == 0.7 else 0.06, "last line", va="top")
            pdf.add(fig, f"page {k}", down_to=low)
    (cut_text, cut), (_, whole), (_, full) = _pages(tmp_path / "p.pdf")
    assert "last line" in cut_text and "the footer" in cut_text and "top line" in cut_text
    assert A4 * 0.4 - 1 <= cut < A4 * 0.45 and whole == pytest.approx(A4) and full == pytest.approx(A4)


def test_the_card_usage_metagame_and_deck_strength_pages_are_sized_to_their_content(tmp_path):
    """A small pool with few flags: the card-usage, metagame and deck-strength pages end under their content, which
    is all still on them (the flags table's subjects, the usage page's words)."""
    results = synthetic_results(DECKS[:4], 30, {(DECKS[0], DECKS[1]): 0.8}, seed=3)
    tables = analyze(results, bootstrap=10)
    pages = _pages(write_balance_report(tables, tmp_path / "r.pdf")[0], portrait=True)
    usage = next((t, h) for t, h in pages if "What the cards did" in t)
    meta = next((t, h) for t, h in pages if "Metagame: what a field" in t)
    assert usage[1] < A4 * 0.7 and meta[1] < A4 * 0.95
    assert "metagame and flags" in meta[0] and all(s in meta[0] for s in tables["flags"]["subject"])
    strength = next(h for t, h in pages if "Deck strength, strongest first" in t)
    assert strength < A4 * 0.8  # four decks' rows and the first player's: no half-empty page either
    assert sum(h < A4 - 1 for _, h in pages) == 3  # the other portrait pages are whole (plots fill them)


def _panel(bots: list[str]) -> pd.DataFrame:
    parts = [synthetic_results(DECKS, 8, {(DECKS[0], DECKS[1]): 0.8}, seed=i, bots=(b, b)) for i, b in enumerate(bots)]
    df = pd.concat(parts, ignore_index=True)
    df.attrs["meta"] = {**parts[0].attrs["meta"], "bots": [bots[0]] * 2, "panel": list(bots)}
    return df


@pytest.mark.parametrize("bots", [["aggro", "control"], ["aggro", "control", "rush"]])
def test_a_two_bot_panels_agreement_shares_the_pilots_page(bots, tmp_path):
    """Two bots, six decks: the agreement between them (Spearman and Kendall with their 95% intervals in words, no
    2x2 matrix) and the robust flags sit under the pilots on one page; three bots keep their matrices on a page
    of their own."""
    folder = write_sweep_folder(_panel(bots), tmp_path / "results")
    out = tmp_path / "panel.pdf"
    assert main(["report", str(folder), "-o", str(out), "--bootstrap", "10"]) == 0
    player = [(t, h) for t, h in _pages(out) if "Does the player matter?" in t and "Balance report" not in t]
    if len(bots) == 2:
        (text, height), = player
        assert "player: deck rates, pilots and agreement" in text and height == pytest.approx(A4)
        assert "Best pilot" in text and "Agreement between bots and robust flags" in text
        assert "95% bootstrap intervals of the correlations: Spearman" in text and "Kendall" in text
    else:
        assert len(player) == 2 and "player: agreement" in player[1][0]
        assert "Spearman rank correlation of deck win rates" in player[1][0]  # the matrix's title


def test_the_nash_mix_legend_sits_beside_its_bars():
    """The metagame's group legend lies wholly right of the Axes, where it covers no bar (it covered the second
    of two 50% bars)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from simkit.report.plots import plot_nash_mix

    mix = pd.DataFrame({"deck": DECKS[:3], "weight": [0.5, 0.5, 0.0], "in_support": [True, True, False]})
    fig = Figure(figsize=PORTRAIT)
    ax = fig.add_axes([0.42, 0.8, 0.38, 0.11])
    plot_nash_mix(ax, mix, groups=dict(zip(DECKS[:3], ["HolyLight", "InfernoFlame", "SalamanderShield"])),
                  group_title="artifact")
    renderer = FigureCanvasAgg(fig).get_renderer()
    legend, box = ax.get_legend().get_window_extent(renderer), ax.get_window_extent(renderer)
    assert legend.x0 > box.x1 and legend.x1 < fig.bbox.x1  # beside the Axes, on the page
