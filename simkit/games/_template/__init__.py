"""The template game: the smallest complete simkit game, to be copied by the next one.

Not a designer's game: its rules (:mod:`.engine`) and its numbers (``scenarios/_template/base.toml``,
example data) exist to show every part a game needs. ``docs/adding-a-game.md`` walks through
copying it. :mod:`.game` declares it (``GAME``); :mod:`.tables` reads the scenario; :mod:`.engine`
holds the rules, compiled by numba; :mod:`.lead` how far ahead a player is (the experience figures' lead signal);
:mod:`.bots` the compiled bots and game loop; :mod:`.play`
``play_batch``; :mod:`.match` the single-game facade; :mod:`.narrate` and :mod:`.invariants` the
``narrate`` and ``checks`` capabilities. Its folder name starts with ``_``, so
:func:`simkit.games.game_names` does not list it among the shipped games; a scenario still loads it
with ``game = "_template"``.
"""

from simkit.games._template.game import GAME

__all__ = ["GAME"]
