"""A bot a patch defines plays its base too (``--bots-from``): the base and the patch swept under the designer's own
personality and compared, without extra files. The folder records where the bots came from, so workers, a resume,
the report (its scenario hash check) and a replay all see the very same bot."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import simkit
from simkit.cli import main
from simkit.core.errors import ScenarioError
from simkit.report.games import find_scenario
from simkit.sweep import sweep_defaults

QUICK = Path("scenarios/miracle/quick.toml").resolve()
HOLY = ["--decks", "HolyLight:*"]


@pytest.fixture
def patch(tmp_path) -> Path:
    """A designer's patch of the quick sweep: a cheaper Priest and a personality of their own, ``mine``."""
    p = tmp_path / "priest-patch.toml"
    p.write_text(f'extends = "{QUICK}"\n[creatures.Priest.L1]\ncost = 1\n'
                 '[bots.mine]\nlike = "balanced"\ngarrison_detour = 6\nhome_guard = 0\n', encoding="utf-8")
    return p


def test_the_base_knows_the_patchs_bot_only_with_its_bots(patch):
    base, with_bots = simkit.load_scenario(QUICK), simkit.load_scenario(QUICK, bots_from=patch)
    assert "mine" not in base.game.bot_names() and "mine" in with_bots.game.bot_names()
    assert with_bots.bots_from == patch and with_bots.name == f"{base.name} (bots of priest-patch.toml)"
    assert with_bots.data["creatures"] == base.data["creatures"]  # the patch's numbers stay in the patch
    assert with_bots.hash != base.hash  # the bots are part of what is played
    assert sweep_defaults(with_bots)["out"] == "results/quick-with-priest-patch-bots"


def test_an_unknown_bot_lists_the_known_ones_and_where_they_were_looked_for(patch, capsys):
    assert main(["sweep", str(QUICK), "--bots", "mine,mine", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert "unknown bot 'mine' (the scenario knows: random, balanced" in err
    assert f"looked for in {QUICK})" in err and "--bots-from FILE" in err
    assert main(["sweep", str(QUICK), "--bots", "mien,mine", "--bots-from", str(patch), "--games", "1"]) == 2
    err = capsys.readouterr().err
    known = simkit.load_scenario(QUICK, bots_from=patch).game.bot_names()
    assert "mine" in known
    assert f"unknown bot 'mien': did you mean mine? (the scenario knows: {', '.join(known)}; looked for in {QUICK} " \
           f"with the bots of " \
           f"{patch})" in err
    assert len(err.splitlines()) == 1


def test_the_bots_of_another_game_are_refused():
    with pytest.raises(ScenarioError, match=r"duel/quick.toml: game: 'duel', but .*quick.toml is a 'miracle' "
                                            r"scenario: the bots of another game cannot play it"):
        simkit.load_scenario(QUICK, bots_from="scenarios/duel/quick.toml")


def test_a_bots_file_that_does_not_load_is_named_with_its_own_error(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(f'extends = "{QUICK}"\n[bots.mine]\nlike = "balanced"\ntemperature = "hot"\n', encoding="utf-8")
    with pytest.raises(ScenarioError, match=rf"{bad}: bots.mine.temperature: must be a number"):
        simkit.load_scenario(QUICK, bots_from=bad)


def test_base_and_patch_swept_under_the_patchs_bot_then_resumed_reported_and_compared(patch, tmp_path, capsys):
    """The base sweep's two workers load the scenario with the patch's bots; the folder says where they came from;
    a resume without them is refused in one line saying what to add; the report finds the scenario again (same
    hash) and names --bots-from in its replay command; compare reads both."""
    base_out, patch_out = tmp_path / "base", tmp_path / "patch"
    args = ["sweep", str(QUICK), "--bots", "mine,mine", "--bots-from", str(patch), "--games", "1", *HOLY,
            "--chunk-size", "1", "--workers", "2", "--out", str(base_out)]
    assert main(args) == 0
    assert f"every bot as {patch} defines it" in capsys.readouterr().out
    meta = json.loads((base_out / "meta.json").read_text())
    assert meta["plan"]["bots_from"] == str(patch.resolve()) and meta["bots_from"] == str(patch.resolve())
    games = simkit.load_results(base_out)
    assert set(games["first_bot"]) == set(games["second_bot"]) == {"mine"} and len(games) == 4
    mine = simkit.load_scenario(QUICK, bots_from=patch)
    assert set(games["scenario_hash"]) == {mine.hash} == {meta["scenario_hash"]}

    assert main(args + ["--resume"]) == 0  # finished: nothing left, and the plan is the same
    assert main([a for a in args if a not in ("--bots-from", str(patch))] + ["--resume"]) == 2
    err = capsys.readouterr().err
    assert f"holds a sweep played with the bots of {patch.resolve()}: add --bots-from {patch.resolve()}" in err

    sc, path, reason = find_scenario(meta, base_out)
    assert reason == "" and sc.hash == meta["scenario_hash"] and sc.bots_from == patch.resolve()
    from simkit.report.games import replay_command

    command = replay_command(path, games.iloc[0], bots_from=str(sc.bots_from))
    assert command.endswith(f"--bots-from {patch.resolve()}")

    assert main(["sweep", str(patch), "--bots", "mine,mine", "--games", "1", *HOLY, "--workers", "1",
                 "--out", str(patch_out)]) == 0
    pdf = tmp_path / "cmp.pdf"
    assert main(["compare", str(base_out), str(patch_out), "-o", str(pdf)]) == 0
    assert pdf.stat().st_size > 0
    out = capsys.readouterr().out
    assert "creatures.Priest.L1.cost" in out  # what the patch changed, not the bots the base borrowed


def test_play_with_a_patchs_bot_writes_a_record_that_replays_under_the_same_bots(patch, tmp_path, capsys):
    record = tmp_path / "game.json"
    assert main(["play", str(QUICK), "HolyLight:Archer,Priest,Swordsman", "HolyLight:BlackBat,FrostDragon,Swordsman",
                 "--bots", "mine,random", "--bots-from", str(patch), "--json", str(record)]) == 0
    assert json.loads(record.read_text())["bots_from"] == str(patch)
    assert main(["replay", str(record), "-o", str(tmp_path / "game.txt")]) == 0
    assert (tmp_path / "game.txt").read_text().strip()


def _meta(bots: dict, played=("mine", "mine"), panel=()) -> dict:
    return {"scenario_text": json.dumps({"game": "miracle", "bots": bots}), "bots": list(played), "panel": list(panel)}


BALANCED = {"max_actions_per_turn": 80, "balanced": {"temperature": 0.3}, "mine": {"like": "balanced"}}


def test_compare_warns_when_the_patch_changes_how_the_bots_that_played_play():
    """The bots that played are compared with their `like` chain and the bots they name; a bot that did not play,
    or one that plays alike in both, is no warning."""
    from simkit.commands.compare import bots_changed

    same = _meta(BALANCED)
    assert bots_changed(same, same) == []
    other = _meta({**BALANCED, "balanced": {"temperature": 0.9}})
    assert bots_changed(same, other) == ["mine"]  # mine is like balanced: it changed with it
    assert bots_changed(_meta(BALANCED, ("balanced", "random")), _meta({**BALANCED, "mine": {"like": "balanced",
                                                                                             "home_guard": 0}},
                                                                           ("balanced", "random"))) == []
    search = {**BALANCED, "deep": {"policy": "balanced", "plans": 4}}
    assert bots_changed(_meta(search, ("deep", "deep")), _meta({**search, "balanced": {"temperature": 0.9}},
                                                               ("deep", "deep"))) == ["deep"]
    assert bots_changed(same, _meta({**BALANCED, "max_actions_per_turn": 40})) == ["mine"]
