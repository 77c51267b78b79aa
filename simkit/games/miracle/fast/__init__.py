"""The rules of Battle of Miracles and its utility bots, written once as functions numba compiles.

:mod:`.step` applies actions and :mod:`.legal` says which are legal and why not (the rules, once);
:mod:`.situation`, :mod:`.summons`, :mod:`.moves`, :mod:`.attacks`, :mod:`.uses` and :mod:`.decide`
are the utility bots, which read the rules' predicates; :func:`.game.play` plays whole games between
two utility bots (``play_batch`` uses it). The same functions run as plain Python under
``NUMBA_DISABLE_JIT=1`` (``tests/games/miracle/test_fast_step.py`` plays games both ways and finds them equal).

Compiled code is cached beside these modules. Numba checks only the file of each cached function,
not the files of the functions it calls, so the cache is dropped here whenever any module of the
package changes, or the lead signal (``../lead.py``) or the experience kit the loops note the figures with.
"""

from __future__ import annotations

from pathlib import Path

from simkit.games.kits.numba_cache import drop_stale_cache

_HERE = Path(__file__).parent
_KITS = _HERE.parents[1] / "kits"
drop_stale_cache(_HERE, [*sorted(_HERE.glob("*.py")), _HERE.parent / "lead.py", _KITS / "mix.py",
                         _KITS / "experience.py"])
