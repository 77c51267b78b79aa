"""The search bot's compiled kernels: the turn search (:mod:`.search`), written against the hooks
of :mod:`.hooks` (Battle of Miracles' copy, turn, end and value), and whole games with search bots
(:mod:`.play`).

They inline the compiled rules and utility bot of :mod:`simkit.games.miracle.fast`, so their numba
cache is dropped whenever a module of either package changes (see ``fast/__init__.py``). Kept apart
from ``fast/`` so that changing the search does not drop the cache of the rules and bots.
"""

from __future__ import annotations

from pathlib import Path

from simkit.games.kits.numba_cache import drop_stale_cache

_HERE = Path(__file__).parent
drop_stale_cache(_HERE, [*sorted(_HERE.glob("*.py")), *sorted((_HERE.parent / "fast").glob("*.py"))])
