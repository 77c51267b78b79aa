"""The report of a bot-panel folder: main pages under one reference bot, "Does the player matter?" pages."""

from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from pypdf import PdfReader
from results_folders import write_sweep_folder

from simkit.cli import main
from simkit.report.robustness_page import (
    ROBUST_TABLES,
    agreement_block,
    panel_tables,
    plot_bot_rates,
    plot_pilots,
    robust_flag_lines,
    robustness_pages,
)
from simkit.testing.synthetic import synthetic_results

DECKS = [f"HolyLight:Archer,Priest,{k}" for k in ("Swordsman", "BlackBat", "FrostDragon", "VolcanoDragon")] + [
    f"InfernoFlame:Archer,Priest,{k}" for k in ("Swordsman", "BlackBat", "FrostDragon", "VolcanoDragon")]
# weak and mid rank the decks in list order; strong in reverse order
ORDERS = {"weak": DECKS, "mid": DECKS, "strong": DECKS[::-1]}
PLAYER_PAGES = ["player: deck rates and pilots", "player: agreement"]  # a small pool: rates and pilots on one page


def _strength(order):
    """Deck i beats deck j at 1/2 + 0.4 (rank_j - rank_i) / decks, ranks from ``order`` (0.05 a rank for 8)."""
    rank = {d: r for r, d in enumerate(order)}
    return lambda a, b: 0.5 + 0.4 * (rank[b] - rank[a]) / len(order)


def _panel(orders: dict, decks=DECKS, games: int = 20) -> pd.DataFrame:
    """A panel sweep's results: each bot in both seats, ranking the decks as ``orders`` says."""
    parts = [synthetic_results(decks, games, _strength(o), seed=i, bots=(b, b))
             for i, (b, o) in enumerate(orders.items())]
    df = pd.concat(parts, ignore_index=True)
    df.attrs["meta"] = {**parts[0].attrs["meta"], "bots": [next(iter(orders))] * 2, "panel": list(orders)}
    return df


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """A finished panel sweep's results folder of three bots over eight decks."""
    return write_sweep_folder(_panel(ORDERS), tmp_path_factory.mktemp("panel") / "results")


def _report(folder, out, *extra) -> list[str]:
    assert main(["report", str(folder), "-o", str(out), "--bootstrap", "10", *extra]) == 0
    return [" ".join(p.extract_text().split()) for p in PdfReader(out).pages]


@pytest.fixture(scope="module")
def report(folder, tmp_path_factory):
    """The panel folder's report (default reference bot): the PDF's path and the text of each page."""
    out = tmp_path_factory.mktemp("out") / "panel.pdf"
    return out, _report(folder, out)


@pytest.fixture(scope="module")
def pages(report):
    """The text of each page of the panel folder's report."""
    return report[1]


def test_panel_report_has_the_player_pages_after_the_title(pages):
    """The pages after the title are the deck rates with the pilots (an 8-deck pool), then the agreement."""
    footers = [next((t for t in PLAYER_PAGES if f"| {t} |" in p), None) for p in pages]
    assert footers[1:3] == PLAYER_PAGES
    assert "Does the player matter? Deck win rates under each bot" in pages[1]
    assert "Best pilot" in pages[1] and "not measured here" in pages[1]


def test_main_pages_describe_the_last_bot_of_the_panel_by_default(pages):
    """The reference bot is `strong` (the panel's last): its top deck heads the report, its games only."""
    title = pages[0]
    assert "every number below describes strong's games only" in title and "the last of the panel" in title
    assert f"Highest win rate: {DECKS[-1]}" in title
    assert "Games: 1280 = 8 decks x 8 decks" in title  # one bot's games, not the 3840 of the panel


def test_title_page_says_how_far_the_bots_agree(report, pages):
    """The title's sentence gives the Spearman range of the agreement CSV and the flags held by every bot."""
    out = report[0]
    agree = pd.read_csv(out.with_name("panel.robust_agreement.csv"))
    flags = pd.read_csv(out.with_name("panel.robust_flags.csv"))
    lo, hi = agree["spearman"].min(), agree["spearman"].max()
    assert lo < 0 < hi  # weak/mid agree, strong reverses them
    title = pages[0]
    assert f"Spearman {lo:.2f} to {hi:.2f} between bots" in title
    held = int(flags["robust"].sum())
    assert f"{held} of {len(flags)} flags {'holds' if held == 1 else 'hold'} under every bot" in title


def test_bot_option_chooses_the_reference_bot(folder, tmp_path):
    """`--bot weak` makes the main pages describe weak's games: its strongest deck heads the title."""
    title = _report(folder, tmp_path / "weak.pdf", "--bot", "weak")[0]
    assert "every number below describes weak's games only" in title and "the last of the panel" not in title
    assert f"Highest win rate: {DECKS[0]}" in title
    rates = pd.read_csv(tmp_path / "weak.robust_deck_rates.csv")
    assert list(rates.columns) == ["deck", "weak", "mid", "strong"]
    assert rates["weak"].is_monotonic_decreasing  # ordered by the reference bot


def test_unknown_bot_is_refused_with_one_line(folder, tmp_path, capsys):
    """`--bot nobody` exits 2 with one line naming the panel's bots, and writes nothing."""
    out = tmp_path / "nobody.pdf"
    assert main(["report", str(folder), "-o", str(out), "--bot", "nobody"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "--bot nobody" in err and "weak, mid, strong" in err
    assert list(tmp_path.iterdir()) == []


def test_panel_tables_are_written_as_csv_beside_the_pdf(report):
    """Deck rates, agreement (one row per two bots), flags and pilots (one row per deck) are CSVs."""
    out = report[0]
    for name in ROBUST_TABLES:
        assert out.with_name(f"panel.{name}.csv").exists()
    assert len(pd.read_csv(out.with_name("panel.robust_agreement.csv"))) == 3
    pilots = pd.read_csv(out.with_name("panel.pilots.csv")).set_index("deck")
    assert len(pilots) == len(DECKS)
    assert pilots.loc[DECKS[-1], "pilot"] == "strong" and pilots.loc[DECKS[0], "pilot"] in ("weak", "mid")


def test_single_bot_folder_has_no_player_pages(tmp_path):
    """A sweep of one bot pairing is reported as before: no player pages, no robustness CSVs."""
    one = synthetic_results(DECKS, 4, _strength(DECKS), seed=3, bots=("balanced", "balanced"))
    folder = write_sweep_folder(one, tmp_path / "results")
    pages = _report(folder, tmp_path / "one.pdf")
    assert not any("player:" in p for p in pages) and "Does the player matter" not in pages[0]
    assert "Bots: balanced (first seat) vs balanced (second seat)" in pages[0]
    assert not list(tmp_path.glob("one.robust_*.csv")) and not (tmp_path / "one.pilots.csv").exists()


def test_pilot_heatmap_boxes_each_decks_best_pilot():
    """The pilot heatmap's cell (deck, bot) is the deck's rate under the bot; the box sits on its pilot."""
    robust = panel_tables(_panel(ORDERS), "strong", bootstrap=0)
    pilots, bots = robust["pilots"], robust["bots"]
    ax = Figure(figsize=(6, 8)).add_axes([0.4, 0.1, 0.4, 0.8])
    plot_pilots(ax, pilots, bots)
    cells = ax.images[0].get_array()
    assert cells[0, 2] == pytest.approx(pilots["win_rate_strong"].iloc[0])
    boxed = [(round(p.get_x() + 0.45), round(p.get_y() + 0.45)) for p in ax.patches]
    assert boxed == [(bots.index(p), i) for i, p in enumerate(pilots["pilot"])]


class _Pages:
    """A stand-in for ReportPdf that keeps each page's figure by its title."""

    def __init__(self):
        self.figs = {}

    def new_page(self, size):
        return Figure(figsize=size)

    def add(self, fig, title, down_to=None):
        self.figs[title] = fig


def _player_pages(robust: dict) -> _Pages:
    """The "Does the player matter?" pages of ``robust``, drawn but not saved."""
    pages = _Pages()
    robustness_pages(pages, robust)
    return pages


def _eighty_decks() -> list[str]:
    kinds = ["Archer", "BlackBat", "FrostDragon", "Priest", "Swordsman", "VolcanoDragon"]
    return [f"{a}:{','.join(c)}" for a in ("HolyLight", "InfernoFlame", "SalamanderShield", "WindBlessing")
            for c in combinations(kinds, 3)]


def test_eighty_decks_stay_legible_on_the_player_pages():
    """With 80 decks every deck is named on the rates and pilot pages in 6 pt or more."""
    decks = _eighty_decks()
    robust = panel_tables(_panel({"a": decks, "b": decks[::-1]}, decks, games=1), "b", bootstrap=0)
    pages = _player_pages(robust)
    for title in ("player: deck rates", "player: pilots"):
        labels = pages.figs[title].axes[0].get_yticklabels()
        assert [t.get_text() for t in labels] == list(robust["deck_rates"].index)
        assert min(t.get_fontsize() for t in labels) >= 6


def test_bot_rates_rows_follow_the_reference_order():
    """The dot plot has a row per deck in the table's order and a dot series per bot."""
    rates = panel_tables(_panel(ORDERS), "weak", bootstrap=0)["deck_rates"]
    ax = Figure(figsize=(6, 8)).add_axes([0.4, 0.1, 0.5, 0.8])
    plot_bot_rates(ax, rates, "weak")
    assert [t.get_text() for t in ax.get_yticklabels()] == DECKS
    assert np.allclose(ax.lines[-3].get_xdata(), rates["weak"] * 100)  # ax.lines: axvline, weak, mid, strong


def test_bots_with_a_long_shared_prefix_keep_apart_in_the_flags_table():
    """rush-search-1..3 head their value columns on two lines (rush- / search-N), not as three 'rush-sear'."""
    decks = _eighty_decks()
    bots = ["control", "rush", "rush-search-1", "rush-search-2", "rush-search-3"]
    robust = panel_tables(_panel({b: decks for b in bots}, decks, games=1), "rush-search-3", bootstrap=0)
    top, head = robust_flag_lines(robust["flags"], bots)[:2]
    assert head.split()[2:7] == ["control", "rush", "search-1", "search-2", "search-3"]
    assert top.split() == ["rush-"] * 3


def test_a_six_bot_panel_s_flags_stop_at_the_page_foot():
    """With more flags than the page holds, the table ends above the footer and the note counts the rest."""
    decks = _eighty_decks()
    bots = ["control", "balanced", "rush", "rush-search-1", "rush-search-2", "rush-search-3"]
    robust = panel_tables(_panel({b: decks for b in bots}, decks, games=2), "rush-search-3", bootstrap=0)
    assert len(robust["flags"]) > 30
    fig = Figure(figsize=(8.27, 11.69))
    assert agreement_block(fig, robust, 0.985, matrices=True) >= 0.03
    shown = fig.axes[-1].texts[0].get_text().count("\nrobust ")
    assert 0 < shown < len(robust["flags"])
    note = " ".join(t.get_text() for t in fig.texts if "robust_flags CSV" in t.get_text()).replace("\n", " ")
    assert f"{len(robust['flags']) - shown} more flags in the robust_flags CSV" in note


def test_a_six_bot_legend_of_the_deck_rates_clears_the_page_foot():
    """Six bots take two legend rows below the deck rates; both stay on the page, above the footer line."""
    decks = _eighty_decks()
    bots = ["control", "balanced", "rush", "rush-search-1", "rush-search-2", "rush-search-3"]
    robust = panel_tables(_panel({b: decks for b in bots}, decks, games=1), "rush-search-3", bootstrap=0)
    pages = _player_pages(robust)
    fig = pages.figs["player: deck rates"]
    legend = fig.axes[0].get_legend()
    fig.canvas.draw()
    box = legend.get_window_extent().transformed(fig.dpi_scale_trans.inverted())  # inches from the page's foot
    footer_top = 0.008 * fig.get_figheight() + 6 / 72  # the 6 pt footer line of ReportPdf.add
    assert len(legend.get_texts()) == 6 and box.y0 >= footer_top + 0.05
