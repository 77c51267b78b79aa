"""Every game's bot personalities are data a designer may get wrong: a weight that is NaN, infinite or a
boolean is refused in one line naming the file and key, in every game (issue: Krypton once played NaN)."""

from __future__ import annotations

from pathlib import Path

import pytest

import simkit
from simkit.core.errors import ScenarioError

ROOT = Path(__file__).resolve().parents[2]
#: (game's base scenario, a bot table and one of its number weights)
BOTS = [("miracle", "balanced", "temperature"), ("duel", "aggro", "temperature"),
        ("krypton", "balanced", "attack_base"), ("magic", "balanced", "damage"), ("_template", "greedy", "temperature")]


@pytest.mark.parametrize("game, bot, weight", BOTS)
@pytest.mark.parametrize("value, problem", [("nan", "finite"), ("inf", "finite"), ("-inf", "finite"),
                                            ("true", "number"), ('"high"', "number")])
def test_a_bad_weight_is_refused_naming_file_and_key(tmp_path, game, bot, weight, value, problem):
    """A NaN, infinite, boolean or text weight is refused at load with file, key and problem."""
    patch = tmp_path / "bad.toml"
    patch.write_text(f'extends = "{ROOT / "scenarios" / game / "base.toml"}"\n[bots.{bot}]\n{weight} = {value}\n')
    with pytest.raises(ScenarioError, match=rf"bad\.toml: bots\.{bot}\.{weight}: must be .*{problem}"):
        simkit.load_scenario(patch)


def test_a_bots_table_named_random_is_refused_in_every_game_reading_through_the_kit(tmp_path):
    """``random`` is built in: a [bots.random] table is refused, naming it."""
    patch = tmp_path / "bad.toml"
    patch.write_text(f'extends = "{ROOT / "scenarios" / "krypton" / "base.toml"}"\n[bots.random]\ntemperature = 1\n')
    with pytest.raises(ScenarioError, match=r"bots\.random: 'random' is the built-in"):
        simkit.load_scenario(patch)
