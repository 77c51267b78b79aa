"""simkit tune: knobs, the objective, patch text, the study (end to end through the CLI) and resume."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import simkit
from simkit.analysis import FLAG_COLUMNS, FlagBands
from simkit.cli import main
from simkit.scenario import load_scenario
from simkit.sweep import RunOptions
from simkit.testing.synthetic import synthetic_results
from simkit.tune.finish import appeared_flags, propose
from simkit.tune.knobs import (
    Knob,
    candidate_patch,
    default_range,
    parse_knobs,
    relative_range,
    scenario_numbers,
)
from simkit.tune.objective import TuneWeights, balance_terms, change_cost, parse_weights, score
from simkit.tune.settings import TuneSettings
from simkit.tune.study import _interleave

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "scenarios" / "miracle" / "base.toml"
PLANTED = ROOT / "scenarios" / "miracle" / "planted-strong-priest.toml"

DATA = {
    "game": "miracle",
    "creatures": {
        "Priest": {"flying": False, "units": [3, 4, 4], "L1": {"cost": 2, "aura": 1}, "L3": {"cost": 7}},
        "Archer": {"L1": {"cost": 2, "range": [3, 4]}},
    },
    "artifacts": {"HolyLight": {"cooldown": 5}},
    "bots": {"balanced": {"temperature": 0.3}},
    "map": {"bounds": [8, 8, 14], "miracles": [[-7, 7, 0], [7, -7, 0]]},
    "sweep": {"games": 4, "seed": 0},
}

# three decks, two of them holding a Priest: the smallest pool that still has a spread to tune
DECKS = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon",
         "WindBlessing:BlackBat,Priest,VolcanoDragon"]


# ----------------------------------------------------------------------------------------------
# knobs


def test_scenario_numbers_are_the_dotted_number_leaves_without_sweep_settings():
    """Numbers are listed by dotted key in file order, a flat list of numbers element by element
    (``key[i]``); nested lists, booleans, strings and [sweep] are left out."""
    assert scenario_numbers(DATA) == {
        "creatures.Priest.units[0]": 3, "creatures.Priest.units[1]": 4, "creatures.Priest.units[2]": 4,
        "creatures.Priest.L1.cost": 2, "creatures.Priest.L1.aura": 1, "creatures.Priest.L3.cost": 7,
        "creatures.Archer.L1.cost": 2, "creatures.Archer.L1.range[0]": 3, "creatures.Archer.L1.range[1]": 4,
        "artifacts.HolyLight.cooldown": 5, "bots.balanced.temperature": 0.3,
        "map.bounds[0]": 8, "map.bounds[1]": 8, "map.bounds[2]": 14,
    }


def test_list_elements_are_knobs_by_index_or_by_star():
    """'creatures.*.units[0]' picks each kind's starting unit count; '[*]' every element; a bare list key
    names no number."""
    assert [k.key for k in parse_knobs(DATA, ["creatures.*.units[0]"])] == ["creatures.Priest.units[0]"]
    assert [k.key for k in parse_knobs(DATA, ["creatures.*.L1.range[*]"])] == [
        "creatures.Archer.L1.range[0]", "creatures.Archer.L1.range[1]"]
    k = parse_knobs(DATA, ["creatures.Archer.L1.range[1]=3..5"])[0]
    assert k == Knob("creatures.Archer.L1.range[1]", 4, 3, 5, True, 1)
    with pytest.raises(ValueError, match="matches no number"):
        parse_knobs(DATA, ["creatures.Priest.units"])


def test_a_star_matches_within_one_key_only():
    """'creatures.*.L*.cost' picks every creature level's cost, and nothing deeper or shallower."""
    knobs = parse_knobs(DATA, ["creatures.*.L*.cost"])
    assert [k.key for k in knobs] == ["creatures.Priest.L1.cost", "creatures.Priest.L3.cost",
                                      "creatures.Archer.L1.cost"]


def test_default_ranges_step_around_todays_value_and_integers_stay_integers():
    """Cost 7 moves 5..9, cost 2 moves 1..3 (never below 1), 0 moves 0..1, a float keeps tenths."""
    assert default_range(7) == (5, 9, 1)
    assert default_range(2) == (1, 3, 1)
    assert default_range(1) == (1, 2, 1)
    assert default_range(0) == (0, 1, 1)
    assert default_range(0.3) == (0.15, 0.45, 0.01)
    k = parse_knobs(DATA, ["creatures.Priest.L3.cost"])[0]
    assert k == Knob("creatures.Priest.L3.cost", 7, 5, 9, True, 1)
    assert k.values() == [5, 6, 7, 8, 9] and all(isinstance(v, int) for v in k.values())


def test_an_explicit_range_wins_over_an_earlier_pattern():
    """'creatures.Priest.L3.cost=5..8' after 'creatures.*.L*.cost' gives that key exactly 5..8."""
    knobs = {k.key: k for k in parse_knobs(DATA, ["creatures.*.L*.cost", "creatures.Priest.L3.cost=5..8"])}
    assert (knobs["creatures.Priest.L3.cost"].low, knobs["creatures.Priest.L3.cost"].high) == (5, 8)
    assert (knobs["creatures.Priest.L1.cost"].low, knobs["creatures.Priest.L1.cost"].high) == (1, 3)


def test_a_relative_range_is_a_share_of_each_keys_own_value():
    """'creatures.*.L*.cost=-50%..+50%': cost 2 moves 1..3, cost 7 moves 3..11 (integers round outward, at least
    one step, never below 1); a share of 0% keeps that end at today's value."""
    knobs = {k.key: k for k in parse_knobs(DATA, ["creatures.*.L*.cost=-50%..+50%", "artifacts.*.cooldown=0%..+100%"])}
    assert (knobs["creatures.Priest.L1.cost"].low, knobs["creatures.Priest.L1.cost"].high) == (1, 3)
    assert (knobs["creatures.Priest.L3.cost"].low, knobs["creatures.Priest.L3.cost"].high) == (3, 11)
    assert (knobs["artifacts.HolyLight.cooldown"].low, knobs["artifacts.HolyLight.cooldown"].high) == (5, 10)
    assert relative_range(1, -0.5, 0.5) == (1, 2, 1) and relative_range(0, -0.5, 0.5) == (0, 1, 1)
    assert relative_range(0.3, -0.5, 0.5) == (0.15, 0.45, 0.01)


@pytest.mark.parametrize("spec, words", [
    ("creatures.Priest.L9.cost", "matches no number of the scenario"),
    ("creatures.*", "matches no number of the scenario"),
    ("creatures.Archer.L1.range", "matches no number of the scenario"),
    ("sweep.games", "sweep settings are not balance numbers"),
    ("creatures.Priest.L3.cost=8..5", "is empty (low above high)"),
    ("creatures.Priest.L3.cost=5-8", "the range must read LOW..HIGH"),
    ("creatures.Priest.L3.cost=5.5..8", "the range must be whole numbers"),
    ("creatures.Priest.L3.cost=+50%..-50%", "is empty (low above high)"),
])
def test_bad_knobs_are_refused_with_one_line(spec, words):
    """An unknown key, a table, a list, a sweep setting, an empty, malformed or fractional range: one clear line."""
    with pytest.raises(ValueError, match="^--knob") as info:
        parse_knobs(DATA, [spec])
    assert words in str(info.value) and "\n" not in str(info.value)


def test_weights_parse_by_name_and_refuse_unknown_names():
    """'spread=2,change=0' changes those two weights; a misspelt weight is refused."""
    w = parse_weights("spread=2,change=0")
    assert (w.spread, w.change, w.band) == (2.0, 0.0, TuneWeights().band)
    with pytest.raises(ValueError, match="unknown weight 'sprad'"):
        parse_weights("sprad=2")
    with pytest.raises(ValueError, match="band must be at least 0"):
        parse_weights("band=-1")


# ----------------------------------------------------------------------------------------------
# the objective


def test_balance_terms_see_a_deck_outside_the_band_and_a_lopsided_matchup():
    """A deck planted at 80% against everyone is outside the band, its matchups beyond 70/30; an even pool is not."""
    decks = [f"HolyLight:Archer,Priest,{c}" for c in ("Swordsman", "VolcanoDragon")] + \
        ["InfernoFlame:BlackBat,FrostDragon,VolcanoDragon", "WindBlessing:Archer,BlackBat,FrostDragon"]
    strong = decks[0]

    def rate(a: str, b: str) -> float:
        return 0.8 if a == strong else 0.2 if b == strong else 0.5

    skewed = balance_terms(synthetic_results(decks, 400, rate, seed=1))
    even = balance_terms(synthetic_results(decks, 400, None, seed=1))
    assert skewed["decks_outside"] >= 1 and skewed["band"] > 0.02 and skewed["matchup"] > 0.0
    assert skewed["worst_deck"] == pytest.approx(0.3, abs=0.03)
    assert even["decks_outside"] == 0 and even["band"] == 0 and even["matchup"] == 0
    assert skewed["spread"] > 3 * even["spread"]


def _edge(deck: str, rate: float):
    """Deck ``deck`` scores ``rate`` against every other deck, the rest play even."""
    return lambda a, b: rate if a == deck else 1 - rate if b == deck else 0.5


def test_pushed_is_how_far_a_patch_moves_decks_further_outside_the_band_than_the_base():
    """A deck at 56% (1 point outside the 45-55% band) pushed to 66% (11 outside) is pushed 10 points, and its
    two victims drop from 47% to 42% (3 points outside each): 0.16 in all. A patch that brings a
    deck from 80% back to 56% pushes nothing; without a reference the term is 0."""
    from simkit.tune.objective import deck_rates

    decks = DECKS
    base = synthetic_results(decks, 2000, _edge(decks[0], 0.56), seed=4)
    worse = balance_terms(synthetic_results(decks, 2000, _edge(decks[0], 0.66), seed=5), reference=deck_rates(base))
    assert worse["pushed"] == pytest.approx(0.16, abs=0.015)
    broken = synthetic_results(decks, 2000, _edge(decks[0], 0.80), seed=6)
    assert balance_terms(base, reference=deck_rates(broken))["pushed"] == 0.0
    assert balance_terms(base)["pushed"] == 0.0
    assert score(worse, TuneWeights()) - score({**worse, "pushed": 0.0}, TuneWeights()) == pytest.approx(
        worse["pushed"])


def test_a_planted_first_player_edge_shows_in_the_first_player_term():
    """First seat planted at +10 points: the term reads about 0.10."""
    decks = DECKS
    t = balance_terms(synthetic_results(decks, 2000, None, first_advantage=0.10, seed=2))
    assert t["first_player"] == pytest.approx(0.10, abs=0.02)


# ----------------------------------------------------------------------------------------------
# patch text


def test_patch_text_round_trips_through_load_scenario(tmp_path):
    """The patch extends the base, holds only the changed keys with before/after, and loads to base + changes."""
    changes = {"creatures.Priest.L3.cost": (7, 8), "artifacts.HolyLight.cooldown": (5, 4)}
    folder = tmp_path / "deep" / "out"
    folder.mkdir(parents=True)
    import os

    text = candidate_patch(os.path.relpath(BASE, folder), changes, name="proposal", header=["a header"])
    (folder / "patch.toml").write_text(text)
    own = tomllib.loads(text)
    assert own == {"extends": os.path.relpath(BASE, folder), "name": "proposal",
                   "creatures": {"Priest": {"L3": {"cost": 8}}}, "artifacts": {"HolyLight": {"cooldown": 4}}}
    assert "cost = 8                # tune: 7 -> 8" in text and "cooldown = 4            # tune: 5 -> 4" in text
    patched, base = load_scenario(folder / "patch.toml"), load_scenario(BASE)
    assert scenario_numbers(patched.data) == {**scenario_numbers(base.data),
                                              "creatures.Priest.L3.cost": 8, "artifacts.HolyLight.cooldown": 4}


def test_a_list_element_change_writes_the_whole_list_with_its_before_and_after(tmp_path):
    """A patch replaces a whole list: Archer units[0] 3 -> 2 writes [2, 4, 5]; two elements of one list are
    one entry; the patch loads to the base with just those elements changed."""
    base = load_scenario(BASE)
    changes = {"creatures.Archer.units[0]": (3, 2), "creatures.Archer.L1.range[0]": (3, 2),
               "creatures.Archer.L1.range[1]": (4, 3)}
    text = candidate_patch(str(BASE), changes, base=base.data)
    assert tomllib.loads(text)["creatures"]["Archer"] == {"units": [2, 4, 5], "L1": {"range": [2, 3]}}
    assert "# tune: [3, 4, 5] -> [2, 4, 5]" in text and "# tune: [3, 4] -> [2, 3]" in text
    (tmp_path / "patch.toml").write_text(text)
    patched = load_scenario(tmp_path / "patch.toml")
    assert scenario_numbers(patched.data) == {**scenario_numbers(base.data),
                                              **{k: a for k, (_, a) in changes.items()}}
    with pytest.raises(ValueError, match="creatures.Archer.units: a list element changes"):
        candidate_patch(str(BASE), changes)


# ----------------------------------------------------------------------------------------------
# the study, end to end


def _cli_tune(out: Path, trials: int, *extra: str) -> int:
    return main(["tune", str(PLANTED), "--knob", "creatures.Priest.L1.aura=0..2", "--knob",
                 "creatures.Priest.L1.cost=1..4", "--max-changes", "1", "--decks", *DECKS, "--games", "1",
                 "--trials", str(trials), "--workers", "1", "--out", str(out), *extra])


@pytest.fixture(scope="module")
def small_tune(tmp_path_factory):
    """A 4-trial tune of the planted Priest on 3 decks x 1 game per pair, through the CLI."""
    out = tmp_path_factory.mktemp("tune") / "planted"
    assert _cli_tune(out, 4) == 0
    return out


def test_a_small_tune_leaves_the_evidence_in_its_folder(small_tune, capsys):
    """trials.csv has one row per trial (the base first, 4 distinct candidates in all), the study and summary
    are there, and the checked candidate (if any beat the base) loads, extends the base and comes with
    compare.pdf and flags.csv; patch.toml exists only when the proposal is safe."""
    trials = pd.read_csv(small_tune / "trials.csv")
    assert list(trials["trial"]) == list(range(len(trials)))
    assert trials["candidate"].nunique() == 4 and (~trials["repeat"]).sum() == 4
    assert trials.loc[0, "changes"] == "(no change)" and trials.loc[0, "n_changes"] == 0
    # the screening comes first: each knob alone at the low end of its range, then at the high end
    assert list(trials["phase"]) == ["base", "screen", "screen", "screen"]
    assert list(trials["changes"][1:]) == ["creatures.Priest.L1.cost: 2 -> 1", "creatures.Priest.L1.cost: 2 -> 4",
                                           "creatures.Priest.L1.aura: 1 -> 0"]
    assert (trials["n_changes"] <= 1).all()
    assert set(trials["state"]) <= {"complete", "invalid"}
    assert (small_tune / "study.db").exists()
    summary = json.loads((small_tune / "summary.json").read_text())
    assert summary["trials"] == 4 and summary["search"]["decks"] == 3
    done = trials[trials["state"] == "complete"]
    assert summary["search"]["best_objective"] == pytest.approx(done["objective"].min())
    # 3 decks: 9 ordered pairs x 1 game per new candidate, nothing for a candidate proposed again
    assert list(done["games_played"]) == [0 if r else 9 for r in done["repeat"]]
    assert summary["games"]["search"] == 9 * 4
    assert (small_tune / "patch.toml").exists() == summary["safe"]  # a patch only when it is safe to propose
    if summary["changes"]:
        patch = (small_tune / "candidate.toml").read_text()
        assert tomllib.loads(patch)["extends"].endswith("planted-strong-priest.toml")
        sc = load_scenario(small_tune / "candidate.toml")
        for key, c in summary["changes"].items():
            assert scenario_numbers(sc.data)[key] == c["after"]
        assert (small_tune / "compare.pdf").stat().st_size > 1000
        flags = pd.read_csv(small_tune / "flags.csv")
        assert set(flags["status"]) <= {"appeared", "vanished", "stayed"}
        assert summary["check"]["seed"] != summary["search"]["seed"]
        check = summary["check"]["pairings"][0]
        assert check["spread_ratio"] == pytest.approx(check["spread_after"] / check["spread_before"])
        assert check["spread_ratio_low"] <= check["spread_ratio"] <= check["spread_ratio_high"]
    else:
        assert not (small_tune / "candidate.toml").exists()


def test_the_best_candidates_are_replayed_on_confirmation_seeds_before_one_is_proposed(small_tune):
    """confirm.csv: the base (first row, the reference the candidates' ``pushed`` is measured from there), then
    the best distinct candidates of the search (3 here, fewer than --confirm 5), each replayed on the
    confirmation seeds; the proposal is the one whose search and confirmation games together score best
    among those that raise no new flag there, and its games count in the summary."""
    trials = pd.read_csv(small_tune / "trials.csv")
    confirm = pd.read_csv(small_tune / "confirm.csv")
    done = trials[(trials["state"] == "complete") & ~trials["repeat"]].sort_values("objective", kind="stable")
    done = pd.concat([done[done["candidate"] == "base"], done[done["candidate"] != "base"]])
    assert list(confirm["trial"]) == list(done["trial"]) and confirm["trial"].iloc[0] == 0
    assert list(confirm["search_objective"]) == pytest.approx(list(done["objective"]))
    assert (confirm["games"] == 9).all()  # 3 decks x 3 ordered pairs x 1 game, on other seeds
    assert (confirm[["pooled_spread", "pooled_seat", "pooled_pushed"]] >= 0).all().all()
    assert confirm["proposed"].sum() == 1
    pick = confirm[confirm["proposed"]].iloc[0]
    # here a flag-free candidate beats the base: the best of those (one candidate loses every game of a deck)
    assert confirm["flags_appeared"].iloc[0] == 0 and pick["flags_appeared"] == 0
    assert pick["pooled_objective"] == confirm.loc[confirm["flags_appeared"] == 0, "pooled_objective"].min()
    summary = json.loads((small_tune / "summary.json").read_text())
    assert summary["proposed"]["trial"] == pick["trial"]
    assert summary["proposed"]["pooled_objective"] == pytest.approx(pick["pooled_objective"])
    assert summary["confirm"]["base_pooled_objective"] == pytest.approx(confirm["pooled_objective"].iloc[0])
    assert summary["games"]["confirm"] == 9 * len(confirm)
    assert summary["confirm"]["seed"] == summary["search"]["seed"] + 2_000_003
    changes = "; ".join(f"{k}: {c['before']} -> {c['after']}" for k, c in summary["changes"].items())
    assert changes == (pick["changes"] if pick["changes"] != "(no change)" else "")


def _confirm_table(rows):
    return pd.DataFrame(rows, columns=["trial", "n_changes", "pooled_objective", "flags_appeared"])


def test_the_proposal_is_the_best_confirmed_candidate_that_raises_no_new_flag():
    """Trial 7 scores best but raises a flag the base does not have on the same games: trial 9, the best
    without one, is proposed; with the base first in the table."""
    table = _confirm_table([(0, 0, 0.40, 0), (7, 3, 0.20, 1), (9, 3, 0.25, 0), (4, 2, 0.30, 0)])
    assert propose(table) == 9


def test_when_every_better_candidate_raises_a_flag_the_best_is_proposed_all_the_same():
    """No candidate that beats the base is flag-free: the best is proposed (its new flag is in the evidence),
    not the base, which would hide a patch that removes more flags than it raises."""
    table = _confirm_table([(0, 0, 0.40, 0), (7, 3, 0.20, 2), (9, 3, 0.25, 1), (4, 2, 0.45, 0)])
    assert propose(table) == 7


def test_no_candidate_beats_the_base_on_the_pooled_games_so_nothing_is_proposed():
    table = _confirm_table([(0, 0, 0.40, 0), (7, 3, 0.41, 0), (9, 1, 0.40, 0)])
    assert propose(table) == 0


def test_equal_confirmed_candidates_go_to_fewer_changes_then_the_earlier_trial():
    table = _confirm_table([(0, 0, 0.40, 0), (7, 3, 0.25, 0), (9, 2, 0.25, 0), (5, 2, 0.25, 0)])
    assert propose(table) == 5


def test_a_new_flag_is_one_the_base_does_not_raise_on_the_same_games():
    """Flags are matched by kind and subject: the deck flagged in both does not count, the matchup does."""
    def flags(*rows):
        return pd.DataFrame([dict(dict.fromkeys(FLAG_COLUMNS, 0.0), kind=k, subject=s, message=m) for k, s, m in rows],
                            columns=FLAG_COLUMNS)
    base = flags(("deck", "A", "A high"), ("deck", "B", "B low"))
    patch = flags(("deck", "A", "A still high"), ("matchup", "A|C", "A beats C"))
    assert appeared_flags(base, patch) == ["A beats C"]
    assert appeared_flags(patch, patch) == []


def test_every_confirmed_candidate_plays_confirm_games_per_pair(tmp_path):
    """confirm_games=2 on 2 decks: the base and each of the 3 confirmed candidates play 4 ordered pairs x 2
    games on the confirmation seeds, each in its own confirm-SEED-GAMES folder."""
    result = simkit.run_tune(PLANTED, TuneSettings(knobs=["creatures.Priest.L1.cost=1..4"], trials=4, max_changes=1,
                                                   decks=DECKS[:2], games=1, confirm=3, confirm_games=2),
                             run=RunOptions(workers=1), out=tmp_path / "c")
    confirm = pd.read_csv(tmp_path / "c" / "confirm.csv")
    assert len(confirm) == 4 and list(confirm["games"]) == [8, 8, 8, 8]
    seed = result.summary["confirm"]["seed"]
    assert sorted(p.name for p in (tmp_path / "c" / "candidates").glob("*/confirm-*")) == [f"confirm-{seed}-2"] * 4
    assert result.summary["games"]["confirm"] == 32 and result.summary["confirm"]["games_per_pair"] == 2
    assert result.summary["confirm"]["candidates"] == 3


def test_without_confirmation_the_best_on_the_search_seeds_is_proposed(tmp_path):
    """confirm=0: no confirm.csv, and the proposal is the search's best trial."""
    result = simkit.run_tune(PLANTED, TuneSettings(knobs=["creatures.Priest.L1.cost=1..4"], trials=3, max_changes=1,
                                                   decks=DECKS[:2], games=1, confirm=0),
                             run=RunOptions(workers=1), out=tmp_path / "plain")
    assert not (tmp_path / "plain" / "confirm.csv").exists()
    s = result.summary
    assert s["proposed"]["trial"] == s["search"]["best_trial"] and s["proposed"]["pooled_objective"] is None
    assert s["games"]["confirm"] == 0


def test_the_screening_plays_the_range_ends_then_the_predicted_combination(tmp_path):
    """One knob, cost 2 in 1..4: base, the two ends (1, 4), then the one value the screening left unplayed
    (3, proposed by the additive model). With screen=False the sampler proposes from the second trial on."""
    result = simkit.run_tune(PLANTED, TuneSettings(knobs=["creatures.Priest.L1.cost=1..4"], trials=4, max_changes=1,
                                                   decks=DECKS[:2], games=1),
                             run=RunOptions(workers=1), out=tmp_path / "screened")
    t = result.trials
    assert list(t["phase"]) == ["base", "screen", "screen", "combine"]
    assert list(t["changes"][1:]) == ["creatures.Priest.L1.cost: 2 -> 1", "creatures.Priest.L1.cost: 2 -> 4",
                                      "creatures.Priest.L1.cost: 2 -> 3"]
    plain = simkit.run_tune(PLANTED, TuneSettings(knobs=["creatures.Priest.L1.cost=1..4"], trials=2, max_changes=1,
                                                  decks=DECKS[:2], games=1, screen=False),
                            run=RunOptions(workers=1), out=tmp_path / "plain")
    assert list(plain.trials["phase"]) == ["base", "sample"]


def test_a_rescreen_replays_the_best_knobs_on_top_of_the_anchor_then_combines_there(tmp_path):
    """rescreen=1: after the first stage, the best candidate is the anchor, less one of its changes when it has
    no room for another (here 2 changes); the one knob predicted best on top of it is played there at both
    range ends, then the combination round adds to the anchor."""
    knobs = ["creatures.Priest.L1.cost=1..3", "creatures.Priest.L1.attack=1..4"]
    result = simkit.run_tune(PLANTED, TuneSettings(knobs=knobs,
                                                   trials=12, max_changes=2, decks=DECKS[:2], games=1, combine=1,
                                                   rounds=1, rescreen=1, confirm=0),
                             run=RunOptions(workers=1), out=tmp_path / "two")
    t = result.trials
    phases = list(t["phase"])
    assert phases[:6] == ["base", "screen", "screen", "screen", "screen", "combine"]
    first = t[t["phase"].isin(["screen", "combine"])]
    best = first.sort_values(["objective", "trial"]).iloc[0]["changes"].split("; ")
    again = t[t["phase"] == "rescreen"]
    assert len(again) >= 1 and all(c.count(";") == 1 for c in again["changes"])
    shared = set.intersection(*(set(c.split("; ")) for c in again["changes"]))
    assert len(shared) == 1
    anchor = shared.pop()
    assert anchor in best  # the best itself (1 change), or the change of the best 2 kept
    # an anchor not yet played is played as a trial of its own, just before the rescreen
    assert list(t.loc[t["phase"] == "anchor", "changes"]) in ([], [anchor])
    later = t[(t["phase"] == "combine") & (t["round"] == 2)]
    assert all(anchor in c for c in later["changes"])


def test_the_rescreen_takes_the_best_predicted_and_the_biggest_levers_in_turn():
    """Predicted best a, b, c; biggest levers c, d, a: four knobs are a, c, b, d (c, already taken from the
    levers, is not taken twice); asking for more than there are gives each once."""
    assert _interleave(["a", "b", "c", "d"], ["c", "d", "a", "b"], 4) == ["a", "c", "b", "d"]
    assert _interleave(["a", "b", "c", "d"], ["c", "d", "a", "b"], 1) == ["a"]
    assert _interleave(["a", "b"], ["b", "a"], 9) == ["a", "b"]


def test_every_game_the_search_plays_is_a_trials_game(tmp_path, monkeypatch):
    """Up to 3 changes and a second stage whose anchor (made here a 2-change patch no trial played: Priest L1
    cost 2 -> 3 and HP 6 -> 2) is played as an 'anchor' trial before the rescreen: the games on disk under
    candidates/ (search seeds) are exactly the trial table's games, and the summary's."""
    from simkit.sweep import load_results
    from simkit.tune.study import TrialPlan

    anchor = {"creatures.Priest.L1.cost": (2, 3), "creatures.Priest.L1.hp": (6, 2)}
    monkeypatch.setattr(TrialPlan, "_anchor", lambda self, complete, best, used=(): dict(anchor))
    out = tmp_path / "count"
    knobs = ["creatures.Priest.L1.cost=1..3", "creatures.Priest.L1.attack=1..4", "creatures.Priest.L1.hp=2..8"]
    result = simkit.run_tune(PLANTED, TuneSettings(knobs=knobs,
                                                   trials=14, max_changes=3, decks=DECKS[:2], games=1, combine=1,
                                                   rounds=1, rescreen=1, confirm=0),
                             run=RunOptions(workers=1), out=out)
    t = result.trials
    assert list(t.loc[t["phase"] == "anchor", "changes"]) == ["creatures.Priest.L1.cost: 2 -> 3; "
                                                              "creatures.Priest.L1.hp: 6 -> 2"]
    again = t[t["phase"] == "rescreen"]
    assert len(again) >= 1 and all("cost: 2 -> 3" in c and "hp: 6 -> 2" in c for c in again["changes"])
    on_disk = sum(len(load_results(f)) for f in (out / "candidates").glob("*/sweep-*"))
    assert on_disk == t["games_played"].sum() == result.summary["games"]["search"]


def test_the_pairs_named_from_the_screened_seat_shifts_are_played_before_the_combinations(tmp_path, monkeypatch):
    """seat_pairs=2: once every single change is screened, opposed_pairs gets each one's shift of the first seat's
    score (as its sweep and the base's give it) and the pairs it names are played as 'pair' trials, before the
    first round of combinations, whose model holds their measured interaction."""
    import importlib

    from simkit.sweep import load_results
    from simkit.tune.screen import matchup_table

    seen = {}

    def fake(shifts, n):
        seen["shifts"], seen["n"] = list(shifts), n
        return [{"creatures.Priest.L1.cost": (2, 1), "creatures.Priest.L1.attack": (3, 4)}]

    monkeypatch.setattr(importlib.import_module("simkit.tune.study"), "opposed_pairs", fake)
    out = tmp_path / "pairs"
    knobs = ["creatures.Priest.L1.cost=1..3", "creatures.Priest.L1.attack=1..4"]
    result = simkit.run_tune(PLANTED, TuneSettings(knobs=knobs,
                                                   trials=8, max_changes=2, decks=DECKS[:2], games=1, combine=1,
                                                   rounds=1, seat_pairs=2, confirm=0),
                             run=RunOptions(workers=1), out=out)
    t = result.trials
    assert list(t["phase"][:6]) == ["base", "screen", "screen", "screen", "screen", "pair"]
    assert t["changes"][5] == "creatures.Priest.L1.cost: 2 -> 1; creatures.Priest.L1.attack: 3 -> 4"
    assert "combine" in set(t["phase"][6:])
    assert seen["n"] == 2 and len(seen["shifts"]) == 4
    by_id = {c: r for c, r in zip(t["candidate"], t["changes"])}
    base = matchup_table(load_results(next((out / "candidates" / "base").glob("sweep-*"))), DECKS[:2])
    for changes, shift in seen["shifts"]:
        (key, (before, after)), = changes.items()
        folder = next(f for f, text in by_id.items() if text == f"{key}: {before} -> {after}")
        table = matchup_table(load_results(next((out / "candidates" / folder).glob("sweep-*"))), DECKS[:2])
        assert shift == pytest.approx(table.first - base.first)
    assert settings_of(out)["seat_pairs"] == 2


def test_a_tune_cut_in_its_pair_phase_resumes_to_the_same_trials(tmp_path, monkeypatch):
    """seat_pairs=2, cut while the pair is played (the 6th candidate): resumed, the trials are those of the
    uninterrupted tune, the pair and the combinations after it included."""
    import importlib

    from simkit.tune.study import Evaluator

    pair = {"creatures.Priest.L1.cost": (2, 1), "creatures.Priest.L1.attack": (3, 4)}
    monkeypatch.setattr(importlib.import_module("simkit.tune.study"), "opposed_pairs", lambda shifts, n: [dict(pair)])
    knobs = ["creatures.Priest.L1.cost=1..3", "creatures.Priest.L1.attack=1..4"]
    settings = TuneSettings(knobs=knobs, trials=8, max_changes=2, decks=DECKS[:2], games=1, combine=1, rounds=1,
                            seat_pairs=2, confirm=0)
    straight = simkit.run_tune(PLANTED, settings, tmp_path / "straight", RunOptions(workers=1)).trials
    real, calls = Evaluator.evaluate, []

    def cut_at_the_sixth(self, changes):
        calls.append(changes)
        if len(calls) == 6:
            raise KeyboardInterrupt
        return real(self, changes)

    monkeypatch.setattr(Evaluator, "evaluate", cut_at_the_sixth)
    with pytest.raises(KeyboardInterrupt):
        simkit.run_tune(PLANTED, settings, tmp_path / "cut", RunOptions(workers=1))
    assert calls[5] == pair
    monkeypatch.setattr(Evaluator, "evaluate", real)
    resumed = simkit.run_tune(PLANTED, settings, tmp_path / "cut", RunOptions(workers=1, resume=True)).trials
    kept = resumed[resumed["state"] != "interrupted"].reset_index(drop=True)
    cols = ["phase", "changes", "objective", "candidate"]
    pd.testing.assert_frame_equal(kept[cols], straight[cols])
    assert "pair" in set(straight["phase"]) and "combine" in set(straight["phase"])


def settings_of(out: Path) -> dict:
    """The settings a tune stored in its study."""
    import optuna

    return optuna.load_study(study_name=None, storage=f"sqlite:///{out / 'study.db'}").user_attrs["settings"]


def test_a_later_stage_drops_the_next_least_useful_change_when_the_least_useful_was_an_earlier_anchor():
    """An exactly additive pool: deck 0 is 30 points too strong; x (4) takes 20 points off it, y (0) 8 and z (4)
    2. The best, x + y + z, has no room for another: the least useful change is z (the anchor x + y); that
    anchor used, the next is y (x + z); both used, x (y + z); all three used, none. A best with room for another
    is its own anchor, unless used."""
    from simkit.tune.screen import Additive, MatchupTable, Objective
    from simkit.tune.study import TrialPlan

    def table(strength):
        st = np.asarray(strength)
        games = np.full((3, 3), 20.0)
        np.fill_diagonal(games, 0.0)
        return MatchupTable.even_seats(0.5 + st[:, None] - st[None, :], games)

    knobs = [Knob("x", 2, 0, 4, True), Knob("y", 2, 0, 4, True), Knob("z", 2, 0, 4, True)]
    singles = [("x", 4, [table([0.1, 0, 0])]), ("y", 0, [table([0.22, 0, 0])]), ("z", 4, [table([0.28, 0, 0])])]
    w = TuneWeights()
    model = Additive(knobs, [table([0.3, 0, 0])], singles,
                     Objective(lambda t: score(t, w), lambda c: change_cost(c, w), FlagBands()))
    plan = TrialPlan.__new__(TrialPlan)
    plan.max_changes = 3
    plan._first_model = lambda complete: model
    plan._tables = lambda changes: [table([0.0, 0, 0])]  # x + y + z played: an even pool
    best = {"x": (2, 4), "y": (2, 0), "z": (2, 4)}
    xy, xz, yz = {"x": (2, 4), "y": (2, 0)}, {"x": (2, 4), "z": (2, 4)}, {"y": (2, 0), "z": (2, 4)}
    assert plan._anchor({}, best) == xy
    assert plan._anchor({}, best, [xy]) == xz
    assert plan._anchor({}, best, [xy, xz]) == yz
    assert plan._anchor({}, best, [xy, xz, yz]) == {}
    assert plan._anchor({}, xy) == xy and plan._anchor({}, xy, [xy]) == {}


@pytest.mark.slow  # three stages of whole tunes
def test_a_third_stage_anchors_on_the_best_so_far_and_never_on_the_second_stages_anchor(tmp_path, monkeypatch):
    """stages=2: the third stage's anchor is chosen from the best candidate of both stages before it, with the
    second stage's anchor passed as used; what it plays (here the HP 6 -> 2 anchor is a screened single, and
    cost 2 -> 3 on top of it a second-stage rescreen, so only cost 2 -> 1 on top is new) are trials of stage 3."""
    from simkit.tune.study import TrialPlan

    calls = []
    anchors = [{"creatures.Priest.L1.cost": (2, 3)}, {"creatures.Priest.L1.hp": (6, 2)}]

    def fake(self, complete, best, used=()):
        calls.append((dict(best), [dict(u) for u in used]))
        return dict(anchors[len(calls) - 1])

    monkeypatch.setattr(TrialPlan, "_anchor", fake)
    knobs = ["creatures.Priest.L1.cost=1..3", "creatures.Priest.L1.attack=1..4", "creatures.Priest.L1.hp=2..8"]
    result = simkit.run_tune(PLANTED, TuneSettings(knobs=knobs,
                                                   trials=16, max_changes=2, decks=DECKS[:2], games=1, combine=1,
                                                   rounds=1, rescreen=1, stages=2, confirm=0),
                             run=RunOptions(workers=1), out=tmp_path / "three")
    t = result.trials[~result.trials["repeat"]]
    assert [u for _, u in calls] == [[], [anchors[0]]]
    third = t[t["stage"] == 3]
    assert len(third) >= 1 and set(third["phase"]) <= {"anchor", "rescreen", "combine"}
    assert all("creatures.Priest.L1.hp: 6 -> 2" in c for c in third["changes"])
    assert list(t["stage"].dropna().astype(int)) == sorted(t["stage"].dropna().astype(int))


def test_an_invalid_candidate_is_a_failed_trial_not_a_crash(tmp_path):
    """A range reaching an illegal value (a Priest L1 aura of -1) ends as 'invalid' trials with the error line."""
    out = tmp_path / "bad"
    rc = main(["tune", str(PLANTED), "--knob", "creatures.Priest.L1.aura=-1..-1", "--decks", *DECKS[:2],
               "--games", "1", "--trials", "2", "--workers", "1", "--out", str(out)])
    assert rc == 0
    trials = pd.read_csv(out / "trials.csv")
    assert list(trials["state"]) == ["complete", "invalid"]
    assert "creatures.Priest.L1.aura" in trials.loc[1, "error"]


def test_a_list_element_knob_is_tuned_and_proposed_as_a_whole_list(tmp_path):
    """`--knob 'creatures.Priest.units[0]=1..3'` through the CLI: the screening plays units [1, 4, 4] (the
    other end is today's 3) and the inverted range Priest L1 [2, 1], an invalid trial naming the key; the
    combination round then plays [2, 4, 4]. Candidates' patches and the proposal write the whole list."""
    out = tmp_path / "units"
    rc = main(["tune", str(PLANTED), "--knob", "creatures.Priest.units[0]=1..3", "--knob",
               "creatures.Priest.L1.range[0]=2..2", "--max-changes", "1", "--decks", *DECKS[:2], "--games", "1",
               "--trials", "4", "--workers", "1", "--out", str(out)])
    assert rc == 0
    trials = pd.read_csv(out / "trials.csv")
    assert list(trials["changes"]) == ["(no change)", "creatures.Priest.units[0]: 3 -> 1",
                                       "creatures.Priest.L1.range[0]: 0 -> 2", "creatures.Priest.units[0]: 3 -> 2"]
    assert list(trials["state"]) == ["complete", "complete", "invalid", "complete"]
    assert "creatures.Priest.L1.range" in trials.loc[2, "error"]
    units = tomllib.loads((out / "candidates" / trials.loc[1, "candidate"] / "patch.toml").read_text())
    assert units["creatures"]["Priest"]["units"] == [1, 4, 4]
    summary = json.loads((out / "summary.json").read_text())
    if summary["changes"]:
        assert load_scenario(out / "candidate.toml").data["creatures"]["Priest"]["units"][1:] == [4, 4]


def test_an_unmatched_knob_ends_the_cli_with_one_line_and_status_2(tmp_path, capsys):
    """`simkit tune --knob creatures.Priest.L9.cost` writes nothing and says why in one line."""
    rc = main(["tune", str(BASE), "--knob", "creatures.Priest.L9.cost", "--out", str(tmp_path / "x")])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "matches no number of the scenario" in err
    assert not (tmp_path / "x").exists()


def test_stages_without_a_rescreen_end_the_cli_with_one_line_and_status_2(tmp_path, capsys):
    """`--stages 2` alone would silently run no anchored stage: refused in one line, nothing written."""
    rc = main(["tune", str(PLANTED), "--knob", "creatures.Priest.L1.cost", "--stages", "2", "--out",
               str(tmp_path / "x")])
    err = capsys.readouterr().err
    assert rc == 2 and err.count("\n") == 1 and "--stages 2" in err and "--rescreen N" in err
    assert not (tmp_path / "x").exists()


def test_a_second_tune_into_the_same_folder_needs_resume(small_tune, capsys):
    """Running into a folder that holds a tune without --resume is refused, nothing overwritten."""
    before = (small_tune / "trials.csv").read_text()
    assert _cli_tune(small_tune, 4) == 2
    assert "already holds a tune: pass --resume" in capsys.readouterr().err
    assert (small_tune / "trials.csv").read_text() == before


def test_resume_with_other_settings_is_refused(small_tune, capsys):
    """--resume with another games-per-pair names the setting that differs."""
    rc = main(["tune", str(PLANTED), "--knob", "creatures.Priest.L1.aura=0..2", "--knob",
               "creatures.Priest.L1.cost=1..4",
               "--max-changes", "1", "--decks", *DECKS, "--games", "2", "--trials", "5", "--workers", "1",
               "--out", str(small_tune), "--resume"])
    assert rc == 2 and "holds a tune with other settings: --games " in capsys.readouterr().err


def test_an_interrupted_tune_resumes_to_the_same_study(small_tune, tmp_path, monkeypatch):
    """A tune interrupted in the middle of its third trial resumes to the very trials of the uninterrupted
    4-trial tune (same candidates, same objectives); the interrupted trial stays visible in the table."""
    from simkit.tune.study import Evaluator

    out = tmp_path / "cut"
    real, calls = Evaluator.evaluate, []

    def interrupted_at_the_third(self, changes):
        calls.append(changes)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(self, changes)

    monkeypatch.setattr(Evaluator, "evaluate", interrupted_at_the_third)
    assert _cli_tune(out, 4) == 130
    assert not (out / "trials.csv").exists()
    monkeypatch.setattr(Evaluator, "evaluate", real)
    assert _cli_tune(out, 4, "--resume") == 0
    straight = pd.read_csv(small_tune / "trials.csv")
    resumed = pd.read_csv(out / "trials.csv")
    assert list(resumed["state"][:3]) == ["complete", "complete", "interrupted"]
    assert list(resumed["state"][3:]) == ["complete"] * (len(resumed) - 3)
    kept = resumed[resumed["state"] != "interrupted"].reset_index(drop=True)
    cols = ["changes", "n_changes", "objective", "candidate"]
    pd.testing.assert_frame_equal(kept[cols], straight[cols])
    assert resumed.loc[3, "changes"] == straight.loc[2, "changes"]  # the interrupted candidate is played again


def test_simkit_tune_is_the_python_function_behind_the_command(small_tune):
    """simkit.tune resumes the CLI's study with no new trials and hands back the table and the patch text."""
    before = pd.read_csv(small_tune / "trials.csv")
    knobs = ["creatures.Priest.L1.aura=0..2", "creatures.Priest.L1.cost=1..4"]
    result = simkit.run_tune(PLANTED, TuneSettings(knobs=knobs,
                                                   trials=4, max_changes=1, decks=DECKS, games=1),
                             run=RunOptions(workers=1, resume=True), out=small_tune)
    assert isinstance(result.trials, pd.DataFrame)
    assert list(result.trials["candidate"]) == list(before["candidate"])  # the budget was spent: nothing new
    assert result.patch == ((small_tune / "patch.toml").read_text() if (small_tune / "patch.toml").exists() else "")


def test_with_a_bot_panel_a_candidate_counts_by_its_worst_pairing(tmp_path):
    """Two bot pairings: every trial's balance score is the larger of the two pairings' scores, each
    recomputed here from that pairing's own sweep on the search seeds (and its ``pushed`` from that
    pairing's base sweep)."""
    from simkit.sweep import load_results
    from simkit.tune.objective import deck_rates, score

    out = tmp_path / "panel"
    result = simkit.run_tune(PLANTED, TuneSettings(knobs=["creatures.Priest.L1.cost=1..3"], trials=2, decks=DECKS[:2],
                                                   bots=["balanced,balanced",
                                                         "rush,control"], games=1), run=RunOptions(workers=1), out=out)
    assert len(result.trials) >= 2
    def sweep(candidate, i, b):
        return load_results(out / "candidates" / candidate / f"sweep-{i}-{b.replace(',', '-')}")

    for _, row in result.trials.iterrows():
        scores = {b: score(balance_terms(sweep(row["candidate"], i, b), reference=deck_rates(sweep("base", i, b))),
                           TuneWeights())
                  for i, b in enumerate(["balanced,balanced", "rush,control"])}
        assert row["balance"] == pytest.approx(max(scores.values()))
        assert scores[row["worst_bots"]] == max(scores.values())
        assert sweep(row["candidate"], 1, "rush,control")["first_bot"].eq("rush").all()


@pytest.mark.slow
def test_a_tune_killed_with_sigkill_resumes_and_finishes_its_budget(tmp_path):
    """`simkit tune` killed (SIGKILL) once two trials are stored resumes with --resume: the stored
    trials are kept as they were, a trial cut mid-way (if any) shows as interrupted, and the budget completes."""
    import os
    import signal
    import sqlite3
    import subprocess
    import sys
    import time

    out = tmp_path / "killed"
    args = [sys.executable, "-m", "simkit", "tune", str(PLANTED), "--knob", "creatures.Priest.L1.aura=0..2",
            "--knob", "creatures.Priest.L1.cost=1..4", "--max-changes", "1", "--decks", *DECKS, "--games", "1",
            "--trials", "5", "--workers", "1", "--out", str(out)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(args, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    finished = 0
    while time.time() < deadline and proc.poll() is None:
        time.sleep(0.2)
        try:
            with sqlite3.connect(f"file:{out / 'study.db'}?mode=ro", uri=True) as db:  # never creates it
                finished = db.execute("select count(*) from trials where state = 'COMPLETE'").fetchone()[0]
        except sqlite3.Error:
            continue
        if finished >= 2:
            break
    assert proc.poll() is None, "the tune ended before it could be killed"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    with sqlite3.connect(out / "study.db") as db:
        kept = db.execute("select number, value from trials t join trial_values v using (trial_id) "
                          "order by number").fetchall()
    assert not (out / "trials.csv").exists()
    assert subprocess.run([*args, "--resume"], env=env, cwd=ROOT, capture_output=True).returncode == 0
    trials = pd.read_csv(out / "trials.csv")
    assert trials.loc[~trials["repeat"] & (trials["state"] != "interrupted"), "candidate"].nunique() == 5
    for number, value in kept:
        assert trials.loc[number, "objective"] == pytest.approx(value)
    assert set(trials["state"]) <= {"complete", "invalid", "interrupted"}


def test_resume_without_a_stored_tune_is_refused_and_creates_nothing(tmp_path, capsys):
    """--resume into a folder with no study says so in one line and leaves no folder behind."""
    assert _cli_tune(tmp_path / "none", 2, "--resume") == 2
    assert "no tune to resume" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()


def test_with_a_sweep_panel_a_candidate_counts_by_its_worst_panel_bot(tmp_path):
    """--panel balanced,rush: one panel sweep per candidate; every trial's balance score is the larger of the
    two bots' scores, each recomputed here from that bot's games of the panel sweep."""
    from simkit.sweep import load_results
    from simkit.tune.objective import deck_rates, score

    out = tmp_path / "panel"
    assert main(["tune", str(PLANTED), "--knob", "creatures.Priest.L1.cost=1..3", "--decks", *DECKS[:2],
                 "--games", "1", "--trials", "2", "--panel", "balanced,rush", "--workers", "1",
                 "--out", str(out)]) == 0
    trials = pd.read_csv(out / "trials.csv")
    base = load_results(out / "candidates" / "base" / "sweep-panel")
    for _, row in trials.iterrows():
        df = load_results(out / "candidates" / row["candidate"] / "sweep-panel")
        scores = {f"{b},{b}": score(balance_terms(df[df["first_bot"] == b],
                                                  reference=deck_rates(base[base["first_bot"] == b])), TuneWeights())
                  for b in ("balanced", "rush")}
        assert set(df["first_bot"]) == {"balanced", "rush"} and len(df) == 2 * 4
        assert row["balance"] == pytest.approx(max(scores.values()))
        assert scores[row["worst_bots"]] == max(scores.values())
