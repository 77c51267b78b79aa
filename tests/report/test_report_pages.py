"""The report's pages say what they show: legends that cover no data, a deck outside the band but unflagged
explained, one deck's luck not coloured as synergy, colour scales shared by every report, panel words that
agree with each other."""

import pandas as pd
from matplotlib.figure import Figure

from simkit.analysis import FlagBands
from simkit.report.balance import _outside_note, outside_unflagged
from simkit.report.plots import plot_deck_ratings, plot_matchup_heatmap, plot_pair_synergy
from simkit.report.robustness_page import agreement_words

DECKS = ["A", "B", "C"]


def _decks(**kw) -> pd.DataFrame:
    t = pd.DataFrame({"deck": DECKS, "win_rate": [0.7, 0.5, 0.3], "low": [0.57, 0.4, 0.2], "high": [0.84, 0.6, 0.4],
                      "rating": [100.0, 0.0, -100.0], "rating_low": [50.0, -50.0, -150.0],
                      "rating_high": [150.0, 50.0, -50.0], "group": ["HolyLight", "InfernoFlame", "WindBlessing"],
                      **kw})
    t.attrs["group_title"] = "artifact"
    return t


def test_the_rating_legend_sits_below_its_axes():
    """The Bradley-Terry plot's legend lies wholly below the Axes, where it covers no bar."""
    fig = Figure(figsize=(8.27, 11.69))
    ax = fig.add_axes([0.7, 0.6, 0.27, 0.3])
    plot_deck_ratings(ax, _decks())
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    renderer = FigureCanvasAgg(fig).get_renderer()
    assert ax.get_legend().get_window_extent(renderer).y1 < ax.get_window_extent(renderer).y0


def test_a_deck_outside_the_band_without_a_flag_is_named_with_why():
    """A: interval 57-84%, above the 45-55% band, unflagged: named on the page with the correction that kept
    it unflagged; C (20-40%) is flagged, so it is not listed."""
    flags = pd.DataFrame({"kind": ["deck"], "subject": ["C"]})
    tables = {"decks": _decks(), "flags": flags, "bands": FlagBands()}
    assert list(outside_unflagged(tables)["deck"]) == ["A"]
    fig = Figure(figsize=(8.27, 11.69))
    assert _outside_note(fig, tables, 0.5) < 0.5
    text = " ".join(fig.texts[0].get_text().split())
    assert text.startswith("Not flagged although the interval lies outside the 45-55% band: A (57.0%-84.0%).")
    assert "Holm (family-wise error) correction over all 3 decks" in text
    none = {"decks": _decks(), "flags": pd.DataFrame({"kind": ["deck", "deck"], "subject": ["A", "C"]}),
            "bands": FlagBands()}
    fig = Figure()
    assert _outside_note(fig, none, 0.5) == 0.5 and not fig.texts


def test_a_pair_held_by_one_deck_is_drawn_as_noise():
    """Archer+Priest (1 deck, +9 points) is covered white with a grey number; Priest+Swordsman (3 decks) keeps its
    colour; the scale is the shared +-10 points."""
    pairs = pd.DataFrame({"category": "creature", "card_a": ["Archer", "Priest"], "card_b": ["Priest", "Swordsman"],
                          "decks": [1, 3], "synergy": [0.09, 0.04]})
    ax = Figure().add_subplot()
    im = plot_pair_synergy(ax, pairs, category="creature", word="creature kind")
    grey = [t.get_text() for t in ax.texts if t.get_color() == "#9e9e9e"]
    assert grey == ["+9.0\n1 deck", "+9.0\n1 deck"]  # the cell and its mirror
    assert len(ax.images) == 2 and (im.norm.vmin, im.norm.vmax) == (-10, 10)
    assert ax.get_title().startswith("Pairs of creature kinds: synergy")


def test_win_rate_heatmaps_share_one_colour_scale():
    """Two pools of different spreads get the same 0-100% scale, so a colour means one rate in every report."""
    def matchups(edge):
        rows = [(a, b, 0.5 if a == b else 0.5 + edge * (DECKS.index(b) - DECKS.index(a))) for a in DECKS for b in DECKS]
        return pd.DataFrame(rows, columns=["deck", "opponent", "win_rate"]).assign(
            mirror=lambda t: t["deck"] == t["opponent"], games=10)

    scales = []
    for edge in (0.05, 0.4):
        im = plot_matchup_heatmap(Figure().add_subplot(), matchups(edge), DECKS)
        scales.append((im.norm.vmin, im.norm.vmax))
    assert scales == [(0.0, 1.0), (0.0, 1.0)]


def _robust(flagged_by: list[str], robust: list[bool]) -> dict:
    agreement = pd.DataFrame({"bot_a": ["a"], "bot_b": ["b"], "spearman": [0.5], "kendall": [0.4], "top_k": [1],
                              "top_overlap": [1.0]})
    flags = pd.DataFrame({"kind": "deck", "subject": [f"D{i}" for i in range(len(robust))], "robust": robust,
                          "flagged_by": flagged_by})
    return {"agreement": agreement, "flags": flags, "bots": ["a", "b"], "reference": "b"}


def test_panel_words_never_contradict_when_the_reference_bot_raises_no_flag():
    """One robust flag raised under bot a only: the words say b raises none and why the robust one counts, instead
    of 'Of the 0 flags of the reference bot, 0 are robust'."""
    words = agreement_words(_robust(["a"], [True]))
    assert words[0].endswith("1 of 1 flag holds under every bot.")
    assert words[-1] == ("The reference bot b raises no flag of its own: the robust flag was raised under another bot "
                         "(beyond the same edge under every bot, b included, but significant only there).")
    both = agreement_words(_robust(["a, b", "b"], [True, False]))
    assert both[-1] == "Of the 2 flags of the reference bot b, 1 is robust; the others may describe the bot more " \
                       "than the game."


def test_krypton_boards_carry_a_legend():
    """A Krypton board picture names its terrain, both sides' heroes, spawn points and towers in a legend."""
    from simkit import load_scenario
    from simkit.games.krypton.render import draw

    sc = load_scenario("scenarios/krypton/base.toml")
    view = sc.new_match("Archer+Knight", "Knight+Warrior", seed=0)
    ax = Figure(figsize=(8, 8)).add_subplot()
    draw(ax, view)
    labels = [t.get_text() for t in ax.get_legend().get_texts()]
    assert labels[:4] == ["plain", "forest", "hill", "river"]
    assert "base (number: HP)" in labels and "spawn point (side's colour)" in labels
    assert sum(label.endswith("hero (class initial, HP; white: off the board)") for label in labels) == 2
