"""Convergence with skill and skill depth along a panel's ladder (utility personalities, then search rungs)."""

from __future__ import annotations

import json

import pandas as pd

from simkit.analysis.robustness import rank_agreement
from simkit.analysis.skill import convergence, ladder_of, skill_depth, skill_tables
from simkit.testing.synthetic import synthetic_results

DECKS = [f"{a}:Archer,Priest,{k}" for a in ("HolyLight", "InfernoFlame")
         for k in ("Swordsman", "BlackBat", "FrostDragon", "VolcanoDragon")]
BOTS = {"balanced": {"attack": 1.0}, "rush": {"like": "balanced", "attack": 2.0},
        "search-1": {"policy": "balanced", "plans": 4}, "search-2": {"like": "search-1", "plans": 32}}


def _strength(order, scale=0.05):
    rank = {d: r for r, d in enumerate(order)}
    return lambda a, b: 0.5 + scale * (rank[b] - rank[a])


def _panel(orders: dict, games: int = 40) -> pd.DataFrame:
    parts = [synthetic_results(DECKS, games, _strength(order), seed=i, bots=(bot, bot))
             for i, (bot, order) in enumerate(orders.items())]
    df = pd.concat(parts, ignore_index=True)
    df.attrs["meta"] = {**parts[0].attrs["meta"], "bots": [next(iter(orders))] * 2, "panel": list(orders),
                        "scenario_text": json.dumps({"bots": BOTS})}
    return df


def test_the_ladder_is_the_panel_order_and_a_table_with_a_policy_is_a_search_rung():
    """search-2 is a rung through its like chain; random is neither kind."""
    lad = ladder_of({"panel": ["random", "balanced", "search-1", "rush", "search-2"],
                     "scenario_text": json.dumps({"bots": BOTS})})
    assert lad["search"] == ["search-1", "search-2"]
    assert lad["utility"] == ["balanced", "rush"]


def test_top_rungs_that_rank_alike_have_converged():
    """Two rungs with the same planted ranking over many games: the interval's lower end clears 0.9."""
    df = _panel({"balanced": DECKS, "search-1": DECKS, "search-2": DECKS}, games=100)
    conv = convergence(rank_agreement(df, bootstrap=40), ["search-1", "search-2"])
    assert conv["converged"] and conv["spearman_low"] >= 0.9
    assert conv["sentence"].startswith("Converged with skill")
    assert f"{conv['spearman']:.2f}" in conv["sentence"]


def test_top_rungs_that_disagree_say_the_balance_still_depends_on_skill():
    """The top rung ranks the decks in reverse: not converged, and the sentence says so with its interval."""
    df = _panel({"balanced": DECKS, "search-1": DECKS, "search-2": DECKS[::-1]})
    conv = convergence(rank_agreement(df, bootstrap=40), ["search-1", "search-2"])
    assert not conv["converged"] and conv["spearman"] < 0
    assert "still depends on skill" in conv["sentence"] and "95% CI" in conv["sentence"]


def test_rungs_that_agree_on_too_few_games_are_not_yet_shown_to_converge():
    """A high agreement whose interval reaches below 0.9 is neither converged nor called skill-dependent."""
    agreement = pd.DataFrame([{"bot_a": "search-1", "bot_b": "search-2", "spearman": 0.95, "spearman_low": 0.7,
                               "spearman_high": 1.0}])
    conv = convergence(agreement, ["search-1", "search-2"])
    assert not conv["converged"] and conv["sentence"].startswith("Not yet shown to converge")
    assert "0.70-1.00" in conv["sentence"]


def test_one_rung_gives_no_convergence():
    assert convergence(pd.DataFrame(columns=["bot_a", "bot_b", "spearman"]), ["search-1"]) is None


def test_a_deck_strong_only_under_the_top_rung_rewards_skill():
    """Reversed rankings: the weakest deck under balanced is the strongest under search-2, and vice versa."""
    df = _panel({"balanced": DECKS, "search-2": DECKS[::-1]}, games=60)
    depth = skill_depth(df, "balanced", "search-2", bootstrap=40)
    top, bottom = depth.iloc[0], depth.iloc[-1]
    assert top["deck"] == DECKS[-1] and top["reading"] == "rewards skill" and top["gain_low"] > 0
    assert bottom["deck"] == DECKS[0] and bottom["reading"] == "loses with skill" and bottom["gain_high"] < 0
    assert (depth["gain_low"] <= depth["gain"]).all() and (depth["gain"] <= depth["gain_high"]).all()


def test_decks_that_play_alike_under_both_bots_are_within_noise():
    df = _panel({"balanced": DECKS, "search-2": DECKS}, games=60)
    depth = skill_depth(df, "balanced", "search-2", bootstrap=40)
    assert (depth["reading"] == "within noise").mean() >= 0.75


def test_a_panel_without_a_search_rung_has_no_ladder_tables():
    assert skill_tables(_panel({"balanced": DECKS, "rush": DECKS}), bootstrap=0) is None
    t = skill_tables(_panel({"balanced": DECKS, "rush": DECKS, "search-2": DECKS}), bootstrap=20)
    assert t["weakest"] == "balanced" and t["top"] == "search-2" and t["convergence"] is None


def test_a_ladder_panel_report_says_the_convergence_first_and_adds_the_skill_depth_page(tmp_path):
    """simkit report on a panel with two search rungs: the title page's sentence, the page, the CSV."""
    from pypdf import PdfReader
    from results_folders import write_sweep_folder

    from simkit.cli import main

    df = _panel({"balanced": DECKS, "search-1": DECKS, "search-2": DECKS[::-1]}, games=20)
    folder = write_sweep_folder(df, tmp_path / "results")
    out = tmp_path / "ladder.pdf"
    assert main(["report", str(folder), "-o", str(out), "--bootstrap", "20"]) == 0
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(out).pages]
    assert "This game's balance still depends on skill: the top two rungs search-1 and search-2" in pages[0]
    skill = [p for p in pages if "Does skill change the balance?" in p]
    assert len(skill) == 1 and "| player: skill depth |" in skill[0]
    table = pd.read_csv(tmp_path / "ladder.skill_depth.csv")
    assert list(table.columns[:3]) == ["deck", "rate_balanced", "rate_search-2"] and len(table) == len(DECKS)
    assert table.loc[0, "deck"] == DECKS[-1]  # the top rung's strongest deck is balanced's weakest
