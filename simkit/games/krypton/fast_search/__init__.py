"""Krypton's search bot, compiled: the hooks of :mod:`.hooks` (the seat's determinized view, a plan by a
utility personality, replay, end, value) with the kit's search (:mod:`simkit.games.kits.turn_search`)
compiled against them, and whole games with search bots (:mod:`.play`).

They inline the compiled engine and utility bots of :mod:`simkit.games.krypton.engine` and
:mod:`simkit.games.krypton.bots` and the lead signal of :mod:`simkit.games.krypton.lead`, so their numba cache
is dropped whenever one of those sources, the kit's or this folder's changes. Kept apart from the engine's
folder so that changing the search does not drop the cache of the rules and bots.
"""

from __future__ import annotations

from pathlib import Path

from simkit.games.kits.numba_cache import drop_stale_cache

_HERE = Path(__file__).parent
_GAME = _HERE.parent
_KITS = _GAME.parent / "kits"
drop_stale_cache(_HERE, [*sorted(_HERE.glob("*.py")), _GAME / "state.py", _GAME / "engine.py", _GAME / "bots.py",
                         _GAME / "lead.py", _KITS / "mix.py", _KITS / "turn_search.py", _KITS / "state.py",
                         _KITS / "experience.py"])
