"""The search bot's compiled kernels: the hooks of :mod:`.hooks` (Battle of Miracles' copy, turn, end
and value) with the kit's turn search (:mod:`simkit.games.kits.turn_search`) compiled against them, and
whole games with search bots (:mod:`.play`).

They inline the compiled rules and utility bot of :mod:`simkit.games.miracle.fast`, so their numba
cache is dropped whenever a module of either package changes (see ``fast/__init__.py``). Kept apart
from ``fast/`` so that changing the search does not drop the cache of the rules and bots.
"""

from __future__ import annotations

from pathlib import Path

from simkit.games.kits.numba_cache import drop_stale_cache

_HERE = Path(__file__).parent
_KITS = _HERE.parents[1] / "kits"
drop_stale_cache(_HERE, [*sorted(_HERE.glob("*.py")), *sorted((_HERE.parent / "fast").glob("*.py")),
                         _HERE.parent / "lead.py", _KITS / "mix.py", _KITS / "turn_search.py", _KITS / "experience.py"])
