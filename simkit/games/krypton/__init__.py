"""Krypton Tower War (氪金塔之战): heroes on a hex map, dice combat, veins, towers and magic cards.

The rules are ``shared/rules/krypton-tower-war.md`` (from the designer's manual); every number and
the [authored] map are scenario data (``scenarios/krypton/base.toml``). The rules live once, in
:mod:`.engine`; :mod:`.bots` holds the bots, :mod:`.search_bot` the search bots (the kit's compiled
:mod:`simkit.games.kits.turn_search` over the hooks of :mod:`.fast_search`), :mod:`.match` the single-game
facade, :mod:`.game` the :class:`~simkit.games.Game` the generic layers use.
"""

from simkit.games.krypton.batch import bot_names, play_batch
from simkit.games.krypton.game import GAME
from simkit.games.krypton.match import Match
from simkit.games.krypton.tables import Rules, build_rules, canonical_deck, deck_pool, parse_loadout

__all__ = [
    "GAME", "Match", "Rules", "bot_names", "build_rules", "canonical_deck", "deck_pool", "parse_loadout", "play_batch",
]
