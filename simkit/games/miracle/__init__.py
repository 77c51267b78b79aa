"""Battle of Miracles (神迹之战): hex-grid tactics with decks of 1 artifact and 3 creature kinds.

The package is a simkit game: it provides ``build_rules`` and ``deck_pool`` for scenario
loading, ``canonical_deck``, the batched engine (``rules``) and the single-match facade.
"""

from typing import TYPE_CHECKING

from simkit.games.miracle.batch import play_batch
from simkit.games.miracle.cards import canonical_deck as _canonical_deck
from simkit.games.miracle.cards import parse_deck
from simkit.games.miracle.game import GAME
from simkit.games.miracle.match import Match
from simkit.games.miracle.narrate import narrate
from simkit.games.miracle.tables import Rules, build_rules, deck_pool

if TYPE_CHECKING:
    from matplotlib.figure import Figure




def key_turns_figure(*args, **kwargs) -> "Figure":
    """The board after a few key turns of one game (the report's hook); see ``render_replay``."""
    from simkit.games.miracle.render_replay import key_turns_figure as draw  # matplotlib only when drawing

    return draw(*args, **kwargs)


def canonical_deck(rules: Rules, deck: str) -> str:
    """The canonical id of a legal deck (creatures in alphabetical order)."""
    return _canonical_deck(rules.cards, deck)


def check_hooks(scenario):
    """The game's hooks for ``simkit check`` (:class:`~simkit.games.miracle.checking.hooks.MiracleChecks`): its own
    invariants, the bots' offered actions against the rules' legal mask, and the sweeps' bots as players."""
    from simkit.games.miracle.checking.hooks import MiracleChecks  # the testing layer only when checking

    return MiracleChecks(scenario)


__all__ = [
    "GAME", "Match", "Rules", "build_rules", "canonical_deck", "check_hooks", "deck_pool", "key_turns_figure",
    "narrate", "parse_deck", "play_batch",
]

