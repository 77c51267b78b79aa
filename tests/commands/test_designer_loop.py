"""The designer's loop on small real data: see a scenario's numbers, find its decks, sweep a patch again."""

from __future__ import annotations

from pathlib import Path

import pytest

import simkit
from simkit.cli import main
from simkit.sweep import SweepSettings

QUICK = "scenarios/miracle/quick.toml"


def test_show_prints_a_patchs_changes_beside_the_base_values(capsys):
    """`simkit show --changed` lists each key a patch changes, with its base's value."""
    assert main(["show", "scenarios/miracle/priest-patch.toml", "--changed"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "extends base.toml" in out[0]
    assert "creatures.Priest.L3.cost = 6   # base.toml: 7" in out
    assert "artifacts.HolyLight.cooldown = 4   # base.toml: 5" in out
    assert not any(line.startswith("creatures.Archer") for line in out)


def test_show_filters_by_table_and_refuses_a_key_that_matches_nothing(capsys):
    """`simkit show SCENARIO rules` prints only the rules table; an unknown key is one error line."""
    assert main(["show", QUICK, "rules"]) == 0
    lines = capsys.readouterr().out.splitlines()[1:]
    assert lines and all(line.startswith("rules.") for line in lines)
    assert main(["show", QUICK, "rulez"]) == 2
    assert "no key matches rulez" in capsys.readouterr().err


def test_decks_lists_the_pool_and_takes_a_deck_in_any_card_order(capsys):
    """`simkit decks` lists the pool; a deck named with its creatures in another order is found."""
    assert main(["decks", "scenarios/miracle/base.toml", "HolyLight:Priest,Archer,Swordsman"]) == 0
    assert capsys.readouterr().out.splitlines()[1:] == ["HolyLight:Archer,Priest,Swordsman"]
    assert main(["decks", QUICK, "--cards"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("6 of 6 decks") and "artifact: " in out[1] and "creature: " in out[1]


def test_a_misspelt_deck_pattern_gets_a_did_you_mean(capsys):
    """A pattern that matches no deck names the closest decks of the pool."""
    assert main(["decks", "scenarios/miracle/base.toml", "HolyLite:Archer,Priest,Swordsman"]) == 2
    assert "did you mean HolyLight:Archer,Priest,Swordsman" in capsys.readouterr().err


def test_sweep_decks_takes_the_creatures_in_any_order(tmp_path):
    """`sweep --decks` accepts a deck as `play` does, its creatures in any order."""
    sc = simkit.load_scenario("scenarios/miracle/base.toml")
    plan = simkit.sweep.plan_sweep(sc, SweepSettings(games=1, decks=["HolyLight:Swordsman,Priest,Archer"]))
    assert plan.pools.first == plan.pools.second == ("HolyLight:Archer,Priest,Swordsman",)


def test_a_finished_sweep_says_it_is_finished_and_overwrite_plays_it_again(tmp_path, capsys):
    """Re-running a finished sweep says it is finished, how to read it, and exits 0 (the quick start's second step
    after the README's first command); --overwrite replaces what simkit wrote and keeps other files."""
    out = tmp_path / "r"
    args = ["sweep", QUICK, "--games", "1", "--workers", "1", "--decks", "HolyLight:*", "--out", str(out)]
    assert main(args) == 0
    capsys.readouterr()
    assert main(args) == 0
    said = capsys.readouterr()
    assert said.err == "" and (f"{out} already holds this sweep, finished: nothing to play. Read it: simkit report "
                               f"{out} -o reports/r.pdf (--overwrite plays it again)") in said.out
    (out / "notes.txt").write_text("mine")
    assert main([*args[:3], "2", *args[4:], "--overwrite"]) == 0
    assert len(simkit.load_results(out)) == 2 * len(simkit.load_results(out)["first_deck"].unique()) ** 2
    assert (out / "notes.txt").read_text() == "mine"
    assert main([*args, "--overwrite", "--resume"]) == 2
    assert "give one" in capsys.readouterr().err


def test_a_patch_without_its_own_name_or_out_is_named_after_its_file(tmp_path):
    """A patch that sets neither `name` nor `[sweep] out` is not its base under another hash."""
    base = tmp_path / "base.toml"
    rulebook = Path("scenarios/miracle/base.toml").resolve()
    base.write_text(Path(QUICK).read_text(encoding="utf-8").replace('extends = "base.toml"', f'extends = "{rulebook}"'))
    patch = tmp_path / "cheap-priest.toml"
    patch.write_text('extends = "base.toml"\n[creatures.Priest.L1]\ncost = 1\n')
    b, p = simkit.load_scenario(base), simkit.load_scenario(patch)
    assert p.name == f"{b.name} + cheap-priest"
    assert simkit.sweep.sweep_defaults(p)["out"] == "results/cheap-priest"
    assert simkit.sweep.sweep_defaults(b)["out"] != "results/cheap-priest"


@pytest.mark.parametrize("command", ["show", "decks"])
def test_the_new_commands_have_help(command, capsys):
    """Each new command answers --help."""
    with pytest.raises(SystemExit) as exc:
        main([command, "--help"])
    assert exc.value.code == 0 and "scenario" in capsys.readouterr().out


def test_a_misspelt_creature_table_is_named_with_the_base_table_it_resembles(tmp_path, capsys):
    """`[creatures.Archr.L1] cost = 3` in a patch: the error says Archr is not in the base and names Archer,
    instead of only 'creatures.Archr.units: missing key'."""
    base = Path("scenarios/miracle/base.toml").resolve()
    patch = tmp_path / "archr.toml"
    patch.write_text(f'extends = "{base}"\n[creatures.Archr.L1]\ncost = 3\n')
    assert main(["show", str(patch)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert err.endswith(f"creatures.Archr.units: missing key (creatures.Archr is not in {base}, so it is read as a "
                        "new table: did you mean creatures.Archer?)")


def test_a_cost_above_the_mana_cap_is_warned_about_naming_the_key(tmp_path, capsys):
    """`cost = 300` with a mana cap of 12 loads (a check's own variants hold such costs) but says, in one line
    naming the file and key, that the card can never be paid."""
    base = Path("scenarios/miracle/base.toml").resolve()
    patch = tmp_path / "cost.toml"
    patch.write_text(f'extends = "{base}"\n[creatures.Archer.L1]\ncost = 300\n')
    assert main(["show", str(patch), "creatures.Archer.L1.cost"]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [f"simkit show: warning: {patch}: creatures.Archer.L1.cost: 300 is above rules.max_mana_cap 12: "
                   "it can never be paid, so no game will play it"]
    assert main(["show", QUICK, "rules"]) == 0
    assert capsys.readouterr().err == ""


def test_play_json_into_a_missing_folder_is_refused_before_the_game(tmp_path, capsys, monkeypatch):
    """`play --json missing/dir/x.json` ends with one line naming the folder and plays nothing."""
    import simkit.runner

    def no_game(*a, **k):
        raise AssertionError("played a game")

    monkeypatch.setattr(simkit.runner, "play_games", no_game)
    out = tmp_path / "missing" / "dir" / "x.json"
    argv = ["play", QUICK, "HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon",
            "--json", str(out)]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()[-1]
    assert err == (f"simkit play: error: --json {out}: cannot write: the folder {out.parent} does not exist (create "
                   "it first); nothing was played")


def test_plurals_in_the_reports_words():
    """One deck, two decks, three hero classes (not 'classs'), two unit types, armies (Magic War's decks)."""
    from simkit.core.words import count, plural

    assert [count(1, "deck"), count(2, "deck"), count(3, "hero class")] == ["1 deck", "2 decks", "3 hero classes"]
    assert [plural("unit type"), plural("creature kind"), plural("army")] == ["unit types", "creature kinds",
                                                                              "armies"]
    from simkit.report.card_usage_page import _group

    assert _group("class", {"class": "hero class"}) == "Hero classes"  # the card-usage page's headings
    assert _group("magic", {}) == "Magic cards"


def test_the_checks_game_counts_add_up():
    """`simkit check`'s games line accounts for every game: ended by a miracle, by the turn limit, or still going
    when its run's actions ran out (112 = 8 + 68 + 36)."""
    from types import SimpleNamespace

    from simkit.games.miracle.checking.check import format_report

    stats = SimpleNamespace(examples=53, variant_examples=28, action_kinds={"move": 3}, actions=3, illegal_refused=0,
                            games=112, ends={"miracle": 8, "turn_limit": 68}, deaths=231, invariant_checks=10)
    report = SimpleNamespace(scenario=simkit.load_scenario("scenarios/miracle/base.toml"), stats=stats,
                             profile="ci", seed=0, budget=30, seconds=1.0, note=None, diverged=None, passed=True,
                             rule_examples=8, example_failure=None)
    line = next(x for x in format_report(report).splitlines() if x.startswith("  games"))
    assert line == ("  games      112: 8 ended by a fallen miracle, 68 by the turn limit, 36 still going when their "
                    "run ended; 231 units died")


def test_report_of_a_scenario_file_says_to_sweep_it_first(tmp_path, capsys):
    """`simkit report scenarios/miracle/quick.toml`: one line saying it is a scenario, the sweep to run and the
    folder to report then; exit 2 and nothing written."""
    assert main(["report", QUICK, "-o", str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"simkit report: error: {QUICK}: this is a scenario, not a results folder: sweep it first "
                   f"(simkit sweep {QUICK}), then report its folder (simkit report results/quick -o "
                   "reports/quick.pdf)")
    assert not (tmp_path / "x.pdf").exists()
