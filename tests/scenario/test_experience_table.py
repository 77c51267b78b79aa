"""The core's [experience] table (simkit.scenario.experience_settings_from): bars, target, authored keys, and bad
values refused in one line naming the file and the key."""

from __future__ import annotations

import pytest

from simkit.core.errors import ScenarioError
from simkit.scenario import ExperienceSettings, experience_settings_from


def test_an_absent_table_gives_simkits_defaults_each_said_as_default():
    """No [experience] table: the defaults, no key given, every key's source is simkit's default."""
    s = experience_settings_from({}, "s.toml")
    assert s == ExperienceSettings() and s.given == () and s.source("draws") == "default"


def test_given_keys_are_the_designers_unless_named_authored():
    """target_turns named in authored is simkit's choice; draws given and not named is the designer's."""
    s = experience_settings_from({"experience": {"target_turns": [10, 30], "draws": 0.2, "comebacks": 0.05,
                                                 "decided_early": 0.6, "authored": ["target_turns"]}}, "s.toml")
    assert (s.target_turns, s.draws, s.comebacks, s.decided_early) == ((10.0, 30.0), 0.2, 0.05, 0.6)
    assert s.source("target_turns") == "authored" and s.source("draws") == "designer"
    assert s.authored == ("target_turns",)


@pytest.mark.parametrize("table, message", [
    ({"draws": 1.5}, "s.toml: experience.draws: must be a number from 0 to 1, got 1.5"),
    ({"comebacks": True}, "s.toml: experience.comebacks: must be a number from 0 to 1, got True"),
    ({"target_turns": [30, 10]}, "s.toml: experience.target_turns: must be [shortest, longest]"),
    ({"authored": ["fun"]}, "s.toml: experience.authored: names 'fun', not a key of [experience]"),
    ({"authored": 3}, "s.toml: experience.authored: must name the keys"),
    ({"drama": 0.5}, "s.toml: experience.drama: unknown key"),
])
def test_a_bad_value_is_refused_naming_file_and_key(table, message):
    """Each bad value: one line naming the file, the key and the problem."""
    with pytest.raises(ScenarioError) as err:
        experience_settings_from({"experience": table}, "s.toml")
    assert str(err.value).startswith(message)
