"""The kit's turn search is plugged into a game by its declared hooks, and refuses anything else."""

from __future__ import annotations

import pytest

from simkit.games.kits.turn_search import HOOKS, compile_turn_search


def test_the_hooks_are_the_declared_five():
    """The search knows a game through exactly five hooks, named in the kit."""
    assert HOOKS == ("copy_game", "play_turn", "game_over", "to_act", "value")


def test_a_missing_or_unknown_hook_is_named():
    """Compiling the search against a wrong set of hooks names what is missing and what is unknown."""
    from simkit.games.duel import fast_search

    hooks = {name: getattr(fast_search, name) for name in HOOKS if name != "value"}
    hooks["valu"] = fast_search.value
    with pytest.raises(TypeError, match=r"missing \['value'\], unknown \['valu'\]"):
        compile_turn_search(hooks, fast_search.__file__)
