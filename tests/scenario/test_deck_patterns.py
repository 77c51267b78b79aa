"""Deck patterns (``sweep --decks``, ``[sweep] decks``, ``simkit decks``) read a deck's cards in any order, as ``play``
does, and a pattern that matches nothing suggests the decks it may have meant."""

from __future__ import annotations

from pathlib import Path

import pytest

from simkit.cli import main
from simkit.scenario import deck_matches, matching_decks
from simkit.sweep.plan import select_decks

DUEL = ("Dagger+Longbow:Frost,Mend,Reflect", "Greataxe+Spear:Rage,ShadowBolt,Venom", "Dagger+Greataxe:Frost,Rage,Venom")


@pytest.mark.parametrize("pattern", ["Spear+Greataxe:*", "Greataxe+Spear:*", "*:Venom,Rage,ShadowBolt",
                                     "Spear+Greataxe:Venom,*,Rage", "Greataxe+Spear:Rage,ShadowBolt,Venom",
                                     "Spear+G*:*", "*+Spear:*"])
def test_a_wildcard_pattern_matches_the_cards_of_a_section_in_any_order(pattern):
    assert deck_matches("Greataxe+Spear:Rage,ShadowBolt,Venom", pattern)


@pytest.mark.parametrize("pattern", ["Spear+Dagger:*", "Spear:*", "Greataxe+Spear+Dagger:*", "*:Venom,Frost,Rage",
                                     "Greataxe+Spear", "Spear+Greataxe:Rage,Venom"])
def test_a_pattern_does_not_match_other_cards_nor_another_count_of_cards(pattern):
    assert not deck_matches("Greataxe+Spear:Rage,ShadowBolt,Venom", pattern)


def test_a_lone_star_stands_for_the_other_cards_of_its_section_however_many():
    """Magic War's armies have from one to six unit kinds: ``Swordsman*3,*`` is an army with three swordsmen."""
    assert deck_matches("Sanctuary:Pikeman*2,Priest,Swordsman*3", "Sanctuary:Swordsman*3,*")
    assert not deck_matches("Sanctuary:Crusader*2,Pikeman,Swordsman*2", "Sanctuary:Swordsman*3,*")


def test_the_sweep_selects_the_pools_decks_in_pool_order_whatever_the_patterns_order():
    assert select_decks(DUEL, ["Spear+Greataxe:*", "Longbow+Dagger:*"]) == (DUEL[0], DUEL[1])


def test_a_deck_id_holding_a_star_selects_that_deck_alone():
    pool = ("Orc:Goblin*6,OrcInfantry*3", "Orc:Goblin*60,OrcInfantry*3")
    assert matching_decks(pool, "Orc:Goblin*6,OrcInfantry*3") == ["Orc:Goblin*6,OrcInfantry*3"]


@pytest.mark.parametrize(("pattern", "meant"), [
    ("Spear+Greatax:*", "Greataxe+Spear:Rage,ShadowBolt,Venom"),
    ("dagger+longbow:*", "Dagger+Longbow:Frost,Mend,Reflect"),
    ("Longbow+Dagger:Reflect,Mend,Frst", "Dagger+Longbow:Frost,Mend,Reflect")])
def test_a_pattern_matching_nothing_suggests_the_decks_it_may_mean(pattern, meant):
    with pytest.raises(ValueError, match="did you mean") as err:
        matching_decks(DUEL, pattern)
    assert meant in str(err.value).split("did you mean")[1]


def test_a_pattern_near_nothing_names_the_command_that_lists_the_pool():
    with pytest.raises(ValueError, match="simkit decks SCENARIO"):
        matching_decks(DUEL, "Zzz:*")


def test_simkit_decks_lists_the_duels_deck_by_its_cards_in_another_order(capsys):
    assert main(["decks", "scenarios/duel/quick.toml", "Spear+Greataxe:*"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1:] == ["Greataxe+Spear:Rage,ShadowBolt,Venom"]


def test_a_scenarios_sweep_decks_read_patterns_as_the_command_line_does(tmp_path):
    from simkit.core.errors import ScenarioError
    from simkit.scenario import load_scenario, sweep_settings

    patch = tmp_path / "p.toml"
    patch.write_text(f'extends = "{Path("scenarios/duel/quick.toml").resolve()}"\n'
                     '[sweep]\ndecks = ["Spear+Greataxe:*"]\n', encoding="utf-8")
    assert sweep_settings(load_scenario(patch))["decks"] == ["Spear+Greataxe:*"]
    patch.write_text(patch.read_text().replace("Greataxe", "Greatax"), encoding="utf-8")
    with pytest.raises(ScenarioError, match=r"sweep\.decks: deck pattern 'Spear\+Greatax:\*'.*did you mean"):
        load_scenario(patch)
