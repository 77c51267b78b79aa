"""Card Duel: two players, 25 HP, a shared distance 0..9, decks of 20 cards over seven card types.

The rules are ``shared/rules/card-duel.md`` (from the designer's note); every number and card is
scenario data (``scenarios/duel/base.toml``). The rules live once, in :mod:`.engine` (compiled by
numba); :mod:`.bots` holds the bots, :mod:`.match` the single-game facade, :mod:`.game` the
:class:`~simkit.games.Game` the generic layers use.
"""

from simkit.games.duel.batch import bot_names, play_batch
from simkit.games.duel.game import GAME
from simkit.games.duel.match import Match
from simkit.games.duel.tables import Rules, build_rules, canonical_deck, deck_pool, parse_deck

__all__ = [
    "GAME", "Match", "Rules", "bot_names", "build_rules", "canonical_deck", "deck_pool", "parse_deck", "play_batch",
]
