"""Card Duel: two players, 25 HP, a shared distance 0..9, decks of 20 cards over seven card types.

The rules are ``shared/rules/card-duel.md`` (from the designer's note); every number and card is
scenario data (``scenarios/duel/base.toml``). The modules, from the bottom up (none imports one above it):
:mod:`.state` declares the state and the packed rules; :mod:`.engine` holds the rules, once (compiled by
numba); :mod:`.lead` says how far ahead a player is (the experience figures' lead signal, read by the play loops,
never by the rules); :mod:`.bots`, :mod:`.determinize` and :mod:`.fast_search` the bots; :mod:`.bots_config` and
:mod:`.tables` read the scenario; :mod:`.batch` plays whole games; :mod:`.match` is the single game;
:mod:`.narrate`, :mod:`.transitions` and :mod:`.invariants` the text log and ``simkit check``'s restatement of
the page; :mod:`.game` the :class:`~simkit.games.Game` declaration. ``docs/duel-changing-a-rule.md`` says where
each rule of the page lives.
"""

from simkit.games.duel.game import GAME

__all__ = ["GAME"]
