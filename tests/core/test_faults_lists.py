"""An empty name in any comma list option is refused in one line naming the option, before anything is played
or written (issue 36 item 15 and its kin): `--panel ,` never quietly means "no panel"."""

from __future__ import annotations

import pytest

from simkit.cli import main

DUEL = "scenarios/duel/quick.toml"


@pytest.mark.parametrize("argv, option", [
    (["tune", DUEL, "--knob", "cards.Frost.cost=1..2", "--panel", ","], "--panel"),
    (["tune", DUEL, "--knob", "cards.Frost.cost=1..2", "--panel", "aggro,"], "--panel"),
    (["explore", DUEL, "--bots", "aggro,"], "--bots"),
    (["play", DUEL, "Dagger+Longbow:Frost,Mend,Rage", "Greataxe+Spear:Reflect,ShadowBolt,Venom", "--bots", ",control"],
     "--bots"),
])
def test_an_empty_name_in_a_comma_list_is_refused_naming_the_option(argv, option, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "scenarios").symlink_to(__import__("pathlib").Path(__file__).resolve().parents[2] / "scenarios")
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and f"{option}: every name of the comma list must be given" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["scenarios"]  # nothing written


def test_an_empty_card_in_an_explore_axis_is_refused():
    from simkit.explore.space import parse_axis

    with pytest.raises(ValueError, match="--axis"):
        parse_axis("hero=unit:Archangel,,Thunderbird")
    assert parse_axis("hero=unit:Archangel,Thunderbird").cards == ("Archangel", "Thunderbird")
