"""simkit tune tells the truth (issue 36 item 6, issue 34 item 3): its verdict comes from the results, its
evidence lists only files that exist, and it warns before the search when the budget or the games per pair
cannot support a proposal."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pandas as pd
import pytest

import simkit
from simkit.cli import main
from simkit.sweep import RunOptions
from simkit.tune.finish import check_verdict, no_patch_verdict
from simkit.tune.knobs import Knob
from simkit.tune.preflight import TuneWarning, budget_warning, candidates_possible, detectable_change, noise_warning
from simkit.tune.settings import TuneSettings

ROOT = Path(__file__).resolve().parents[2]
PLANTED = ROOT / "scenarios" / "miracle" / "planted-strong-priest.toml"
DECKS = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon",
         "WindBlessing:BlackBat,Priest,VolcanoDragon"]


def _trial(number, value, changes=""):
    change_list = [["k", 1, 2]] if changes else []
    return SimpleNamespace(number=number, value=value, user_attrs={"changes": changes, "change_list": change_list})


# ----------------------------------------------------------------------------------------------
# the verdict


def test_no_candidate_beating_the_base_on_the_search_seeds_is_said_with_both_objectives():
    base, best = _trial(0, 0.40), _trial(3, 0.45, "k: 1 -> 2")
    assert no_patch_verdict(base, best, None) == ("no candidate beat the base on the search seeds (objective 0.4000, "
                                                  "the best candidate's 0.4500): no patch proposed")
    assert no_patch_verdict(base, base, None) == ("no candidate beat the base on the search seeds (objective "
                                                  "0.4000): no patch proposed")


def test_a_candidate_the_confirmation_rejected_is_named_with_its_numbers():
    """Trial 5 beat the base on the search seeds (0.30 against 0.40), but with the confirmation seeds added it
    scores 0.42 against the base's 0.41: the verdict says exactly that, not 'no candidate beat the base'."""
    base, best = _trial(0, 0.40), _trial(5, 0.30, "k: 1 -> 2")
    confirmed = pd.DataFrame({"trial": [0, 5, 2], "pooled_objective": [0.41, 0.42, 0.43]})
    assert no_patch_verdict(base, best, confirmed) == (
        "trial 5 (k: 1 -> 2) beat the base on the search seeds (objective 0.3000 against 0.4000), but the "
        "confirmation on fresh seeds rejected it: with the confirmation seeds added it scores 0.4200 against the "
        "base's 0.4100, and none of the 2 confirmed candidates beats the base there: no patch proposed")


def test_the_checks_verdict_agrees_with_its_interval():
    """A spread ratio whose interval lies below 1 confirms the patch, above 1 rejects it, across 1 cannot tell."""
    assert check_verdict({"spread_ratio_low": 0.6, "spread_ratio_high": 0.9}) == "the check confirms it"
    assert check_verdict({"spread_ratio_low": 1.1, "spread_ratio_high": 1.3}).startswith("the check rejects it")
    assert check_verdict({"spread_ratio_low": 0.9, "spread_ratio_high": 1.1}) == ("the check cannot tell it from "
                                                                                  "the base")


def test_a_tune_whose_confirmation_rejects_the_best_says_so_and_lists_only_the_evidence_written(
        tmp_path, monkeypatch, capsys):
    """The planted Priest on 3 decks: trial 2 is made lucky on the search seeds (objective 0.1) and the
    confirmation keeps the base (as it does when the fresh games disagree): the command names trial 2 and its
    numbers, not 'no candidate beat the base', and its evidence line names only files that exist: no
    patch.toml, compare.pdf or flags.csv."""
    from simkit.tune import finish
    from simkit.tune.study import Evaluator

    real = Evaluator.evaluate

    def lucky_second(self, changes):
        result = real(self, changes)
        if changes == {"creatures.Priest.L1.cost": (2, 4)}:
            result["objective"] = 0.1
        return result

    monkeypatch.setattr(Evaluator, "evaluate", lucky_second)
    monkeypatch.setattr(finish, "propose", lambda table: int(table["trial"].iloc[0]))
    out = tmp_path / "rejected"
    assert main(["tune", str(PLANTED), "--knob", "creatures.Priest.L1.cost=1..4", "--max-changes", "1", "--decks",
                 *DECKS, "--games", "1", "--trials", "3", "--workers", "1", "--out", str(out)]) == 0
    lines = capsys.readouterr().out.splitlines()
    trials = pd.read_csv(out / "trials.csv")
    confirm = pd.read_csv(out / "confirm.csv").set_index("trial")
    base, lucky = trials.loc[0, "objective"], trials.loc[2, "objective"]
    assert trials.loc[2, "changes"] == "creatures.Priest.L1.cost: 2 -> 4" and lucky < base
    assert lines[1] == (
        f"trial 2 (creatures.Priest.L1.cost: 2 -> 4) beat the base on the search seeds (objective {lucky:.4f} "
        f"against {base:.4f}), but the confirmation on fresh seeds rejected it: with the confirmation seeds added "
        f"it scores {confirm.loc[2, 'pooled_objective']:.4f} against the base's "
        f"{confirm.loc[0, 'pooled_objective']:.4f}, and none of the 2 confirmed candidates beats the base there: "
        "no patch proposed")
    assert lines[-1] == f"evidence: {out}/ (study.db, trials.csv, confirm.csv, summary.json)"
    assert not (out / "patch.toml").exists() and not (out / "compare.pdf").exists()


# ----------------------------------------------------------------------------------------------
# warnings before the search


def test_a_budget_and_games_that_cannot_support_a_proposal_are_warned_before_the_first_trial(tmp_path, monkeypatch):
    """2 knobs (4 single changes) and --trials 3, on 3 decks at 1 game per pair: before any trial is played, one
    warning says the search stops inside the screening, another that each deck's 4 games a trial cannot tell
    a change under 69 points from noise (1.96 x sqrt(1/16 + 1/16)), wider than the 10-point band; both are kept
    in the summary."""
    from simkit.tune.study import Evaluator

    def no_trial(self, changes):
        raise KeyboardInterrupt

    monkeypatch.setattr(Evaluator, "evaluate", no_trial)
    knobs = ["creatures.Priest.L1.aura=0..2", "creatures.Priest.L1.cost=1..4"]
    with pytest.warns(TuneWarning) as said, pytest.raises(KeyboardInterrupt):
        simkit.run_tune(PLANTED, TuneSettings(knobs=knobs, trials=3, max_changes=1, decks=DECKS, games=1),
                        run=RunOptions(workers=1), out=tmp_path / "w")
    budget, noise = (str(w.message) for w in said)
    assert budget == ("--trials 3 is below the plan's 6 candidates (every candidate at most 1 change(s) of these "
                      "knobs can make): the search stops inside the screening (2 of the 4 single changes played, no "
                      "combination), so not every knob is tried and a proposal can hold one change only; give "
                      "--trials 6")
    assert noise == ("--games 1: each deck plays 4 games a trial, so a change of its win rate smaller than 69 points "
                     "cannot be told from noise (95%), wider than the 45-55% band the tune aims for: candidates are "
                     "ranked by luck; give --games 49 or more")


def test_the_cli_prints_each_warning_as_one_line_before_the_search(tmp_path, monkeypatch, capsys):
    from simkit.tune.study import Evaluator

    def no_trial(self, changes):
        raise KeyboardInterrupt

    monkeypatch.setattr(Evaluator, "evaluate", no_trial)
    assert main(["tune", str(PLANTED), "--knob", "creatures.Priest.L1.cost=1..4", "--decks", *DECKS[:2],
                 "--games", "1", "--trials", "1", "--workers", "1", "--out", str(tmp_path / "c")]) == 130
    err = capsys.readouterr().err.splitlines()
    assert err[0] == ("simkit tune: warning: --trials 1: only the base is played, so nothing can be proposed; give "
                      "at least 3")
    assert err[1].startswith("simkit tune: warning: --games 1: each deck plays 2 games a trial")


def _plan(decks: int, games: int):
    names = [f"d{i}" for i in range(decks)]
    return SimpleNamespace(pairs=[(a, b) for a in names for b in names], games=games)


def test_games_per_pair_enough_for_a_deck_to_show_a_band_wide_change_are_not_warned():
    """12 decks: at 12 games per ordered pair a deck plays 264 non-mirror games, a change of 8.5 points shows
    (no warning); at 4 (88 games) only 14.8 points do: warned, with the 9 games per pair that would do."""
    assert detectable_change(264) == pytest.approx(0.0853, abs=1e-4)
    assert noise_warning(_plan(12, 12), (0.45, 0.55)) is None
    assert noise_warning(_plan(12, 4), (0.45, 0.55)) == (
        "--games 4: each deck plays 88 games a trial, so a change of its win rate smaller than 15 points cannot be "
        "told from noise (95%), wider than the 45-55% band the tune aims for: candidates are ranked by luck; give "
        "--games 9 or more")


def _budget(trials: int, screen: bool) -> TuneSettings:
    """A tune of ``trials`` candidates, at most 2 changes, with or without the screening of 2 rounds of 10."""
    return TuneSettings(knobs=("k0", "k1", "k2"), trials=trials, max_changes=2, screen=screen, combine=10, rounds=2)


def test_a_budget_that_holds_the_plan_is_not_warned():
    """3 knobs of 5 values each, up to 2 changes: the plan is the base, 6 single changes (each knob at both ends)
    and 2 x 10 combinations (27); 27 trials are enough, 20 stop before the combinations."""
    knobs = [Knob(f"k{i}", 2, 0, 4, True) for i in range(3)]
    assert candidates_possible(knobs, 2) == 1 + 12 + 3 * 16
    assert budget_warning(_budget(27, True), knobs) is None
    assert budget_warning(_budget(20, True), knobs) == (
        "--trials 20 is below the plan's 27 candidates (the base, 6 single changes at the knobs' range ends, 2 "
        "round(s) of 10 predicted combinations): the search stops before its combinations are played, so a "
        "proposal rests on an incomplete plan; give --trials 27")
    assert budget_warning(_budget(5, False), knobs) is None  # no screening: the sampler spends what there is


# ----------------------------------------------------------------------------------------------
# a proposal only when the confirmation and the check support it (issue 53 item 4)


def _tiny_tune(out, monkeypatch, capsys):
    """A tune of the planted Priest on 3 decks at 1 game per pair whose pick is a changed candidate (the last row of
    the confirmation table): its 1-game check cannot tell it from the base."""
    from simkit.tune import finish

    monkeypatch.setattr(finish, "propose", lambda table: int(table["trial"].iloc[-1]))
    assert main(["tune", str(PLANTED), "--knob", "creatures.Priest.L1.cost=1..4", "--max-changes", "1", "--decks",
                 *DECKS, "--games", "1", "--trials", "3", "--confirm", "2", "--workers", "1", "--out", str(out)]) == 0
    return capsys.readouterr().out.splitlines()


def test_a_candidate_its_check_cannot_tell_from_the_base_is_not_proposed(tmp_path, monkeypatch, capsys):
    """The check at 1 game per pair cannot tell the candidate from the base: the tune says 'no safe proposal', why,
    which figure decides and what budget might find one; it writes candidate.toml (headed as a candidate) and no
    patch.toml, and the summary keeps the confirmation figures that decided."""
    import json

    out = tmp_path / "unsafe"
    lines = _tiny_tune(out, monkeypatch, capsys)
    verdict = next(line for line in lines if line.startswith(("no safe proposal", "proposed")))
    assert verdict.startswith("no safe proposal: ")
    assert "The confirmation seeds decide whether it beats the base" in verdict
    assert "A bigger budget might find one: --trials 4 and --games 49 or more" in verdict
    assert any(line.startswith("figures (objective, lower is better)") and "(decides)" in line for line in lines)
    assert lines[-2] == f"candidate (not proposed): {out / 'candidate.toml'}"
    assert not (out / "patch.toml").exists()
    assert (out / "candidate.toml").read_text().startswith("# Candidate of simkit tune: trial ")
    s = json.loads((out / "summary.json").read_text())
    assert s["safe"] is False and s["verdict"] == verdict and s["proposed"]["confirm_objective"] is not None


def test_a_safe_proposal_is_written_as_patch_toml(tmp_path, monkeypatch, capsys):
    """When the words find the proposal safe, the tune writes patch.toml headed 'Proposed by simkit tune', beside the
    candidate it checked, and hands its text back."""
    from simkit.tune import finish

    monkeypatch.setattr(finish, "tune_verdict", lambda *a, **k: (True, "proposed (1 change): planted for the test"))
    out = tmp_path / "safe"
    lines = _tiny_tune(out, monkeypatch, capsys)
    assert "proposed (1 change): planted for the test" in lines and lines[-2] == f"patch: {out / 'patch.toml'}"
    text = (out / "patch.toml").read_text()
    assert text.startswith("# Proposed by simkit tune: trial ") and (out / "candidate.toml").exists()
