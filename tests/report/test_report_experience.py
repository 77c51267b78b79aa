"""The "How the games play" pages (simkit.report.experience_page), their first-page sentence, the same figures in the
HTML page, and results without the figures: no page, one line saying why."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pypdf import PdfReader

from simkit.analysis import analyze
from simkit.analysis.experience import experience_figures
from simkit.core.words import Estimate, experience_sentence
from simkit.report.balance import write_balance_report
from simkit.report.experience_page import bar_lines, experience_words, figure_lines
from simkit.report.html import write_html_report
from simkit.scenario import ExperienceSettings
from simkit.testing.synthetic import synthetic_results, with_experience

A = "HolyLight:Archer,Priest,Swordsman"
B = "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"
C = "SalamanderShield:Archer,FrostDragon,Swordsman"
DECKS = [A, B, C]


def _snowbally(a: str, b: str) -> bool:
    return A in (a, b)


@pytest.fixture(scope="module")
def tables():
    """Three decks; games with A snowball (3% comebacks, 80% decided early), the others do not; a target of 10-30
    turns that simkit authored."""
    df = with_experience(synthetic_results(DECKS, 40, draw_rate=0.05, seed=1, turn_limit=40),
                         comebacks=lambda a, b: 0.03 if _snowbally(a, b) else 0.3,
                         decided_early=lambda a, b: 0.8 if _snowbally(a, b) else 0.3)
    df.attrs["meta"]["scenario_text"] = json.dumps({"experience": {"target_turns": [10, 30],
                                                                   "authored": ["target_turns"]}})
    return analyze(df, bootstrap=0)


def _pages(path) -> list[str]:
    return [" ".join(p.extract_text().split()) for p in PdfReader(path).pages]


def test_the_report_has_the_pages_their_csvs_and_the_sentence_after_the_verdict(tables, tmp_path):
    """The PDF gains the two "How the games play" pages and the experience CSVs; the first page says the sentence right
    after the balance verdict, and it names A's snowballing, as the flags page does."""
    files = write_balance_report(tables, tmp_path / "r.pdf")
    assert {f.name for f in files} >= {"r.experience.csv", "r.experience_flags.csv"}
    pages = _pages(files[0])
    titles = [p for p in pages if "| how the games play" in p]
    assert len(titles) == 2 and "How long the games last" in titles[0]
    sentence = experience_words(tables)
    first = pages[0]
    assert " ".join(sentence.split())[:60] in first
    assert first.index("How the games play:") < first.index("Headlines")
    assert f"snowballing in {A}" in sentence and f"snowballing in {A}" in titles[1]
    assert "simkit's choice: the rules give none" in titles[0] and "simkit's default" in titles[0]
    assert "Decision factor: 8.0 (95% CI" in titles[0] and "Uncertainty of the outcome: not measured" in titles[0]
    flags = tables["experience"]["flags"]
    assert f"Experience flags (significant after correction): {len(flags)}" in titles[1]
    from simkit.report.experience_page import _ordered

    order = _ordered(tables["experience"]["figures"], flags)
    matchups = list(order.loc[order["scope"] == "matchup", "subject"])
    flagged = list(dict.fromkeys(flags.loc[flags["scope"] == "matchup", "subject"]))
    assert flagged and matchups[:len(flagged)] == flagged and matchups[len(flagged):] == sorted(matchups[len(flagged):])
    assert list(order["scope"]) == ["deck"] * 3 + ["matchup"] * 6


def test_results_without_the_figures_get_no_page_and_one_line(tmp_path):
    """An older sweep's results: no experience page, no experience CSV, and the first page's one line saying why."""
    tables = analyze(synthetic_results(DECKS, 6, seed=2), bootstrap=0)
    files = write_balance_report(tables, tmp_path / "old.pdf")
    assert not any("experience" in f.name for f in files)
    pages = _pages(files[0])
    assert not any("| how the games play" in p for p in pages)
    assert "How the games play is not measured" in pages[0]


def test_the_html_page_says_the_same_sentence_and_holds_the_same_figures(tables, tmp_path):
    """The HTML page says the PDF's sentence under its verdict and has a section with the experience figures and flags
    tables (the same rows as the CSVs)."""
    page = write_html_report(tables, tmp_path / "r.html").read_text(encoding="utf-8")
    import html

    assert f'<p class="playing" id="playing">{html.escape(experience_words(tables), quote=True)}</p>' in page
    assert '<section id="how-the-games-play">' in page
    data = json.loads(page.split('id="page-data">', 1)[1].split("</script>", 1)[0])
    assert data["tables"]["experience"]["rows"] == len(tables["experience"]["figures"])
    assert data["tables"]["experience_flags"]["rows"] == len(tables["experience"]["flags"])
    old = analyze(synthetic_results(DECKS, 6, seed=2), bootstrap=0)
    page = write_html_report(old, tmp_path / "old.html").read_text(encoding="utf-8")
    assert "How the games play is not measured" in page and 'id="how-the-games-play"' not in page


def test_whose_bar_each_is_is_said():
    """A bar the scenario gives is the designer's, one it names authored is simkit's choice, one it omits simkit's
    default; without a target the page says there is no length flag."""
    s = ExperienceSettings(target_turns=(8.0, 20.0), draws=0.2, given=("target_turns", "draws"),
                           authored=("target_turns",))
    text = " ".join(bar_lines(s, "round"))
    assert "Target length: 8-20 rounds (simkit's choice: the rules give none)" in text
    assert "draws are above 20% of games (the designer's)" in text and "(simkit's default)" in text
    assert "no length flag" in " ".join(bar_lines(ExperienceSettings()))


def test_the_table_lines_hold_every_row_and_cut_long_names(tables):
    """One line per row under a header; a matchup longer than the column is cut on both sides, so both decks show."""
    f = experience_figures(with_experience(synthetic_results(DECKS, 4, seed=3)), by="matchup")
    lines = figure_lines(f, target=False, width=20)
    assert len(lines) == len(f) + 1 and all(len(line) == len(lines[0]) for line in lines)
    assert lines[1].startswith(f"{A[:6]}.. vs {A[:6]}..")


def _est(draw, low=0.0, high=1.0):
    v = draw(st.floats(low, high))
    a, b = draw(st.floats(0, 0.2)), draw(st.floats(0, 0.2))
    return Estimate(v, max(low, v - a), min(high, v + b), 100)


@st.composite
def sentences(draw):
    """Random overall figures, flags and estimates beyond their bars."""
    figures = {name: _est(draw) for name in ("in_target", "comebacks", "decided_early", "draws", "turn_limit",
                                             "locks")}
    t = draw(st.floats(1, 80))
    figures["turns"] = Estimate(t, t - 1, t + 1, 100)
    kinds = ["snowballing", "decided_early", "too_long", "too_short", "drawish"]
    flagged = draw(st.lists(st.tuples(st.sampled_from(kinds), st.sampled_from(["overall", "deck", "matchup"]),
                                      st.sampled_from(["X", "Y", "X vs Y"])), max_size=6, unique=True))
    beyond = draw(st.lists(st.sampled_from(kinds), max_size=3, unique=True))
    target = draw(st.sampled_from([None, (10.0, 30.0)]))
    return figures, flagged, beyond, target


@settings(max_examples=60, deadline=None)
@given(sentences())
def test_the_sentence_says_each_figure_with_its_interval_and_flags_only_what_is_flagged(case):
    """Every share the sentence says carries its own 95% interval; it says "Experience flags" exactly when a flag is
    given, names every flagged kind, and never calls an unflagged estimate significant."""
    figures, flagged, beyond, target = case
    text = experience_sentence(figures, flagged, beyond, target, "turn")
    for name in ("comebacks", "decided_early", "draws"):
        e = figures[name]
        assert f"{100 * e.value:.1f}% (95% CI {100 * e.low:.1f}%-{100 * e.high:.1f}%)" in text
    assert ("inside the target" in text) == (target is not None)
    if flagged:
        assert "Experience flags (significant after correction):" in text and "No experience flag" not in text
        words = {"snowballing": "snowballing", "decided_early": "decided early", "too_long": "too long",
                 "too_short": "too short", "drawish": "drawish"}
        for kind, _, _ in flagged:
            assert words[kind] in text.split("Experience flags", 1)[1]
    else:
        assert "No experience flag" in text and "Experience flags" not in text
        assert ("not significantly" in text) == bool(beyond)
    assert not math.isnan(figures["turns"].value) and f"{figures['turns'].value:.1f}" in text


@pytest.mark.slow
def test_simkit_report_of_a_real_sweep_has_the_page_and_its_sentence(tmp_path):
    """`simkit sweep` of Card Duel's quick scenario (2 decks, 2 games a pair, one bot) and `simkit report`: the first
    page says how the games play after the verdict, the pages follow, the experience CSV holds every deck and matchup
    with mean turns matching the results, and the comebacks' interval holds their share."""
    import pandas as pd

    from simkit.cli import main
    from simkit.games import get_game
    from simkit.sweep import load_results

    if not get_game("duel").schema.experience:
        pytest.skip("Card Duel does not record the experience figures in this tree")
    decks = ["Dagger+Longbow:Frost,Mend,Reflect", "Greataxe+Spear:Rage,ShadowBolt,Venom"]
    out = tmp_path / "duel"
    assert main(["sweep", "scenarios/duel/quick.toml", "--games", "2", "--decks", *decks, "--bots", "aggro,aggro",
                 "--workers", "1", "--out", str(out)]) == 0
    pdf = tmp_path / "r.pdf"
    assert main(["report", str(out), "-o", str(pdf)]) == 0
    pages = _pages(pdf)
    assert "How the games play: games last" in pages[0]
    assert sum("| how the games play" in p for p in pages) == 2
    figures = pd.read_csv(tmp_path / "r.experience.csv")
    assert list(figures["scope"]) == ["overall", "deck", "deck", "matchup", "matchup", "matchup"]
    results = load_results(out)
    assert figures.loc[0, "turns"] == pytest.approx(results["turns"].mean())
    assert figures.loc[0, "comebacks_low"] <= figures.loc[0, "comebacks"] <= figures.loc[0, "comebacks_high"]
