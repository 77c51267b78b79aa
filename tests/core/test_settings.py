"""core/settings: a resume with other settings is refused in one line naming the first setting (as its flag) and
both its values, the others counted; equal settings pass; a count is a whole number, never a bool."""

from __future__ import annotations

import pytest

from simkit.core.settings import differing, is_count, refuse_other_settings


def test_equal_settings_pass_and_the_keys_compared_can_be_chosen():
    """The same settings (or settings equal on the keys compared) are no refusal."""
    refuse_other_settings("out", "a sweep", {"games": 4, "seed": 0}, {"games": 4, "seed": 0})
    refuse_other_settings("out", "a tune", {"games": 4, "check_seed": 1}, {"games": 4, "check_seed": 2},
                          keys=["games"])
    assert differing({"a": 1, "b": 2}, {"b": 3, "a": 1, "c": None}) == ["b"]


def test_the_refusal_names_the_first_setting_as_its_flag_with_both_values_and_counts_the_rest():
    """--games 4 there, 8 here, then the other settings that differ by their flags (one flag named once)."""
    names = {"games": "--games", "decks": "--decks", "second_decks": "--decks"}
    with pytest.raises(ValueError) as err:
        refuse_other_settings("results/quick", "a sweep", {"games": 4, "decks": ["A"], "second_decks": ["A"],
                                                           "chunk_count": 2},
                              {"games": 8, "decks": ["B"], "second_decks": ["B"], "chunk_count": 3}, names=names)
    assert str(err.value) == ("results/quick holds a sweep with other settings: --games 4 there, 8 here (and 2 more: "
                              "--decks, chunk_count): repeat its settings to resume it, or choose another --out")


def test_a_long_value_is_cut_and_a_missing_one_reads_null():
    """A value longer than 60 characters is cut with '...'; a setting one side lacks reads null."""
    with pytest.raises(ValueError, match=r"decks \[\"x{55}\.\.\. there, null here") as err:
        refuse_other_settings("out", "a scan", {"decks": ["x" * 80]}, {})
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("value, low, ok", [(1, 1, True), (0, 1, False), (0, 0, True), (True, 1, False),
                                             (2.0, 1, False), ("3", 1, False)])
def test_a_count_is_a_whole_number_of_at_least_its_floor(value, low, ok):
    """1 counts, 0 does not (unless the floor is 0), and neither True, 2.0 nor '3' is a count."""
    assert is_count(value, low) is ok
