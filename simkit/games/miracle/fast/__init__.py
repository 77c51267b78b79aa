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

import hashlib
from pathlib import Path


def _drop_stale_cache(folder: Path) -> None:
    """Delete numba's cache files in ``folder/__pycache__`` unless they were made from these sources."""
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sorted(folder.glob("*.py")))).hexdigest()
    cache = folder / "__pycache__"
    stamp = cache / "numba-sources.sha256"
    try:
        if stamp.read_text() == digest:
            return
    except OSError:
        pass
    try:
        cache.mkdir(exist_ok=True)
        for path in [*cache.glob("*.nbi"), *cache.glob("*.nbc")]:
            path.unlink(missing_ok=True)
        stamp.write_text(digest)
    except OSError:  # a read-only install: numba then caches elsewhere or compiles each time
        pass


_drop_stale_cache(Path(__file__).parent)
