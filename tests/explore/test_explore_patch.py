"""A patch on a seated game's whole space: ``simkit compare BASE PATCH`` of two Magic War explore runs when the patch
gives the first seat one more gold (``[rules] budgets = [13, 13]``).

The patch widens the first seat's pool (its 12-gold armies become 13-gold ones: the base's first-seat pool is a
subset of the patched one), and makes the two pools equal, yet each player still buys knowing their seat and the
first still moves first: the patched game keeps two sides, and the base's mixtures, still playable, are scored in
it seat by seat.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest

import simkit
from simkit.cli import main
from simkit.core.words import Estimate, shift_sentence, value_change_sentence
from simkit.explore import DeckSpace, ExploreSettings, run_explore
from simkit.explore.compare import metagame_shift
from simkit.explore.game import DeckGame
from simkit.sweep import RunOptions, load_results

ROOT = Path(__file__).resolve().parents[2]
MAGIC = ROOT / "scenarios" / "magic" / "base.toml"
# Orc armies: five of Goblins and Orc Infantry (two at 13 gold: second seat only at the source's budgets), one
# without the Infantry, one with a Wolf Rider more, one of Ogres
POOL = ["Orc:Goblin*6,OrcInfantry*3", "Orc:Goblin*4,OrcInfantry*4", "Orc:Goblin*5,OrcInfantry*3",
        "Orc:Goblin*5,OrcInfantry*4", "Orc:Goblin*3,OrcInfantry*5", "Orc:Goblin*6",
        "Orc:Goblin*4,OrcInfantry*2,WolfRider", "Orc:Ogre*2"]
THIRTEEN = {"Orc:Goblin*5,OrcInfantry*4", "Orc:Goblin*3,OrcInfantry*5"}
#: the same run on the command line
OPTIONS = ["--horizon", "4", "--start", "2", "--chunk-size", "8", "--axis", "kinds=unit:*", "--workers", "1"]


def _scenario(folder: Path, name: str, text: str) -> Path:
    path = folder / f"{name}.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def scenarios(tmp_path_factory):
    """Magic War's base rules cut to 16 global turns with the eight-army pool, and its patch: one more gold for the
    first seat (both buy with 13)."""
    folder = tmp_path_factory.mktemp("scenario")
    pool = ", ".join(f'"{d}"' for d in POOL)
    base = _scenario(folder, "magic-small", f'extends = "{MAGIC}"\nname = "patch test"\n[rules]\nturn_limit = 16\n'
                                            f"[armies]\npool = [{pool}]\n")
    gold = _scenario(folder, "gold", 'extends = "magic-small.toml"\nname = "one more gold first"\n'
                                     "[rules]\nbudgets = [13, 13]\n")
    return base, gold


@pytest.fixture(scope="module")
def runs(scenarios, tmp_path_factory):
    """The base explore, then the patch's explore started from the base's populations, both from the command line."""
    base, gold = scenarios
    folder = tmp_path_factory.mktemp("explore-patch")
    assert main(["explore", str(base), "--out", str(folder / "base"), *OPTIONS]) == 0
    assert main(["explore", str(gold), "--out", str(folder / "gold"), "--start-from", str(folder / "base"),
                 *OPTIONS]) == 0
    return folder / "base", folder / "gold"


def test_a_game_with_seat_pools_has_two_sides_even_when_the_pools_are_equal(scenarios):
    """At 13 and 13 gold both seats hold all eight armies, yet Magic War gives each seat its own pool (its players
    buy knowing their seat): two sides, no field; the games without seat pools (Battle of Miracles, Card Duel,
    Krypton) keep one side ``both``; a space that does not say is read from its pools."""
    base, gold = scenarios
    space = DeckSpace(simkit.load_scenario(gold))
    assert set(space.seats[0]) == set(space.seats[1]) == set(range(8)) and space.own_seats
    game = DeckGame(space, 4)
    assert game.names == ("first", "second") and not game.field and game.grow_after == 4
    assert DeckGame(DeckSpace(simkit.load_scenario(base)), 4).names == ("first", "second")
    for name in ("miracle", "duel", "krypton"):
        sc = simkit.load_scenario(ROOT / "scenarios" / name / "quick.toml")
        assert not sc.game.own_seat_pools and DeckGame(DeckSpace(sc), 4).names == ("both",), name
    assert DeckGame(type("S", (), {"seats": ((0, 1), (0, 1))})(), 4).names == ("both",)
    assert DeckGame(type("S", (), {"seats": ((0, 1), (0, 1)), "own_seats": True})(), 4).names == ("first", "second")


def test_the_patch_run_starts_from_the_base_populations_with_13_gold_armies_first(runs):
    """The patch run has two seats, each starting from the base's population of that seat; the first seat's pool
    holds the 13-gold armies now (eight decks a seat), and none sat first in the base."""
    base, gold = runs
    b, p = (json.loads((f / "summary.json").read_text()) for f in (base, gold))
    assert b["seats"] == p["seats"] == ["first", "second"]
    assert b["decks"] == {"first": 6, "second": 8} and p["decks"] == {"first": 8, "second": 8}
    for seat in ("first", "second"):
        assert set(b["population"][seat]) <= set(p["population"][seat])
    assert not set(load_results(base)["first_deck"]) & THIRTEEN
    assert sorted(pd.read_csv(gold / "decks.csv").groupby("seat").size().items()) == [("first", 8), ("second", 8)]


def _scores_against(matchups: pd.DataFrame, mix: dict, seat: str, deck: str) -> float:
    """``deck``'s score against the mixture ``mix`` of the other seat, read straight from ``matchups.csv``."""
    rate = matchups.set_index(["first_deck", "second_deck"])["first_rate"]
    if seat == "first":  # a first-seat deck against the second seat's mixture
        return sum(w * rate[(deck, d)] for d, w in mix.items())
    return sum(w * (1 - rate[(d, deck)]) for d, w in mix.items())


def test_compare_says_per_seat_whether_the_gold_moved_the_metagame(runs, tmp_path, capsys):
    """``simkit compare BASE PATCH`` exits 0 and prints one verdict a seat, then what the patch changed; each verdict's
    word follows its interval (moved: above epsilon; did not move: at or below it; else may have moved); the best
    response's score over the patched game's other-seat value is the one ``matchups.csv`` gives; the PDF's two pages
    and the weights table are written."""
    base, gold = runs
    capsys.readouterr()
    assert main(["compare", str(base), str(gold), "-o", str(tmp_path / "gold.pdf")]) == 0
    text = capsys.readouterr().out.splitlines()
    assert text[3] == ("  The patch changed rules.budgets: [12, 13] -> [13, 13]. Seat pools: base 6 first-seat x 8 "
                       "second-seat decks, patch 8 first-seat x 8 second-seat decks.")
    verdicts = text[:2]
    shift = metagame_shift(base, gold)
    b, p = (json.loads((f / "summary.json").read_text()) for f in (base, gold))
    assert text[2] == f"  {shift['value']}"
    assert text[2].startswith("  The first seat's value (its expected score when both seats play their run's "
                              f"metagame): base {b['value']:.3f} (interval ")
    assert f"patch {p['value']:.3f} (interval " in text[2] and f"{p['value'] - b['value']:+.3f} (interval " in text[2]
    matchups = pd.read_csv(gold / "matchups.csv")
    assert len(verdicts) == 2
    for line, seat, other in zip(verdicts, ("first", "second"), ("second", "first"), strict=True):
        lo, hi = shift["interval"][seat]
        word = "moved:" if lo > p["epsilon"] else "did not move by more than epsilon" if hi <= p["epsilon"] \
            else "may have moved:"
        assert line.startswith(f"verdict: The base's {seat}-seat metagame {word}"), line
        x, deck = shift["base_in_patch"][seat], shift["best_response"][seat]
        ref = p["value"] if other == "first" else 1 - p["value"]
        assert x == pytest.approx(_scores_against(matchups, b["metagame"][seat], other, deck) - ref, abs=1e-5)
        assert f"({deck}) scores {x:+.3f} over the other seat's value (interval {lo:+.3f} to {hi:+.3f})" in line
        assert lo <= x <= hi
        scored, searched = shift["scored"][seat]
        assert 1 <= scored <= searched == p["searched"][other]
    raw = (tmp_path / "gold.pdf").read_bytes()
    assert raw[:5] == b"%PDF-" and raw.count(b"/Type /Page") - raw.count(b"/Type /Pages") == 2
    weights = pd.read_csv(tmp_path / "gold.weights.csv")
    for seat in ("first", "second"):
        part = weights[weights["seat"] == seat].set_index("deck")
        assert part["base_weight"].sum() == pytest.approx(1, abs=1e-5) == part["patch_weight"].sum()
        assert set(part.index) == set(b["metagame"][seat]) | set(p["metagame"][seat])


def test_the_pdf_says_what_the_terminal_says(runs, tmp_path):
    """The comparison's first page holds the change, both verdicts and each run's own exploitability with its
    interval, as printed."""
    import shutil
    import subprocess

    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext is not installed")
    base, gold = runs
    assert main(["compare", str(base), str(gold), "-o", str(tmp_path / "gold.pdf")]) == 0
    page = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(tmp_path / "gold.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    flat = re.sub(r"\s+", " ", page)
    shift = metagame_shift(base, gold)
    assert "The patch changed rules.budgets: [12, 13] -> [13, 13]." in flat
    for seat in ("first", "second"):
        assert re.sub(r"\s+", " ", shift["verdicts"][seat]) in flat
        lo, hi = shift["patch_interval"][seat]
        assert f"{seat} seat {shift['patch_exploitability'][seat]:+.3f} (interval {lo:+.3f} to {hi:+.3f})" in flat


def test_a_patch_whose_pool_lacks_a_base_mixture_deck_is_refused_naming_the_deck_and_seat(runs, scenarios, tmp_path,
                                                                                          capsys):
    """A patch whose pool no longer holds a deck of the base's first-seat mixture cannot play that mixture: compare
    exits 2 with one line naming the deck and the seat, and writes nothing."""
    base, _ = runs
    mix = json.loads((base / "summary.json").read_text())["metagame"]["first"]
    kept = [d for d in POOL if d not in mix]
    pool = ", ".join(f'"{d}"' for d in kept)
    cut = _scenario(tmp_path, "cut", f'extends = "{scenarios[0]}"\nname = "cut"\n[armies]\npool = [{pool}]\n')
    run_explore(cut, tmp_path / "cut", ExploreSettings(horizon=2, start=2, field_looks=(1, 2), chunk_size=8),
                RunOptions(workers=1))
    capsys.readouterr()
    assert main(["compare", str(base), str(tmp_path / "cut"), "-o", str(tmp_path / "cmp.pdf")]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "first-seat mixture deck" in err[0] and "first-seat pool" in err[0]
    assert any(f"{d!r}" in err[0] for d in mix)
    assert not (tmp_path / "cmp.pdf").exists() and not (tmp_path / "cmp.weights.csv").exists()


@pytest.mark.parametrize("best, base, words", [
    (Estimate(0.09, 0.04, 0.15, name="X"), None, "W moved: "),
    (Estimate(0.0, -0.06, 0.01, name="X"), Estimate(0.1, -0.2, 0.4), "W did not move by more than epsilon 0.02: "),
    (Estimate(0.03, -0.01, 0.08, name="X"), Estimate(0.0, -0.1, 0.3), "W may have moved: "),
])
def test_the_shift_sentence_names_its_scope_and_an_unsettled_base(best, base, words):
    """The sentence says among how many searched decks the best response was sought ("all 8" when every one
    played the mixture, "the 3 of the 8" otherwise), and, when the patch's interval reaches epsilon while the base's
    own exploitability may too, that part of a move may be the base's own; a "did not move" needs no such caveat."""
    every = shift_sentence("W", best, 0.02, "the other seat's value", (8, 8, "second-seat decks"), base)
    some = shift_sentence("W", best, 0.02, "the other seat's value", (3, 8, "second-seat decks"), base)
    assert every.startswith(words) and some.startswith(words)
    assert "sought among all 8 second-seat decks the patch searched" in every
    assert "sought among the 3 of the 8 second-seat decks the patch searched" in some
    caveat = "The base run had not settled it either"
    assert (caveat in every) == (base is not None and best.high > 0.02)
    assert (f"interval {best.low:+.3f} to {best.high:+.3f}") in every


@pytest.mark.parametrize("change, words", [
    (Estimate(0.2, 0.05, 0.35), "it rose by 0.200 (interval +0.050 to +0.350)."),
    (Estimate(-0.2, -0.35, -0.05), "it fell by 0.200 (interval -0.350 to -0.050)."),
    (Estimate(0.2, -0.1, 0.5), "no measurable change, +0.200 (interval -0.100 to +0.500)."),
    (Estimate(0.2, 0.0004, 0.4), "no measurable change, +0.200 (interval +0.000 to +0.400)."),
])
def test_the_first_seats_value_changes_only_as_far_as_its_interval_says(change, words):
    """The first seat's value rises or falls only when the change's interval, as printed to three decimals, leaves 0
    out (a lower bound of 0.0004 prints +0.000: no measurable change); both runs' values are given with theirs."""
    said = value_change_sentence(Estimate(0.5, 0.25, 0.75), Estimate(0.5 + change.value, 0.45, 0.95), change)
    assert said.startswith("The first seat's value (its expected score when both seats play their run's metagame): "
                           "base 0.500 (interval 0.250 to 0.750), patch ")
    assert said.endswith(": " + words)


def test_the_magic_page_shows_the_gold_patch_with_commands_that_parse():
    """docs/magic.md's "A patch on the whole space" shows three commands that parse: the base explore, the patch's
    explore started from the base's folder, and compare of the two folders; its patch file changes one rule, the
    budgets, from the source's [12, 13] to [13, 13] (this file's patch)."""
    import shlex

    from simkit.analysis.paired import patch_changes
    from simkit.cli import build_parser

    page = (ROOT / "docs" / "magic.md").read_text(encoding="utf-8")
    section = page.split("## A patch on the whole space")[1].split("\n## ")[0]
    block = section.split("```bash\n")[1].split("```")[0]
    shown = [shlex.split(line)[1:] for line in block.splitlines() if line.startswith("simkit ")]
    assert [c[0] for c in shown] == ["explore", "explore", "compare"]
    parsed = [build_parser().parse_args(argv) for argv in shown]
    assert parsed[1].start_from == parsed[0].out and [parsed[2].base, parsed[2].patch] == [parsed[0].out, parsed[1].out]
    base, gold = (simkit.load_scenario(ROOT / a.scenario) for a in parsed[:2])
    assert patch_changes({"scenario_text": base.text}, {"scenario_text": gold.text}) == [
        ("rules.budgets", [12, 13], [13, 13])]
    assert gold.game.own_seat_pools and set(gold.game.seat_decks()[0]) == set(gold.game.seat_decks()[1])
