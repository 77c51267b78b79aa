"""The utility bots and the rules compiled with numba: the same choices and states as the numpy code.

:func:`.game.play` plays whole games between two utility bots (``play_batch`` uses it);
:func:`.decide.decide` scores each game's legal actions for :class:`simkit.games.miracle.bots.UtilityBot`
and :func:`.step.step` applies a batch's actions. The numpy scorer
(:mod:`simkit.games.miracle.bots_score`) and ``rules.step`` stay the reference they are tested against.

Compiled code is cached beside these modules. Numba checks only the file of each cached function,
not the files of the functions it calls, so the cache is dropped here whenever any module of the
package changes.
"""

from __future__ import annotations

from pathlib import Path

from simkit.games.kits.numba_cache import drop_stale_cache

_HERE = Path(__file__).parent
drop_stale_cache(_HERE, [*sorted(_HERE.glob("*.py")), _HERE.parents[1] / "kits" / "mix.py"])
