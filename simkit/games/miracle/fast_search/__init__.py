"""The search bot's compiled kernels: the turn search (:mod:`.search`), written against the hooks
of :mod:`.hooks` (Battle of Miracles' copy, turn, end and value), and whole games with search bots
(:mod:`.play`).

They inline the compiled rules and utility bot of :mod:`simkit.games.miracle.fast`, so their numba
cache is dropped whenever a module of either package changes (see ``fast/__init__.py``). Kept apart
from ``fast/`` so that changing the search does not drop the cache of the rules and bots.
"""

from __future__ import annotations

import hashlib
from pathlib import Path


def _drop_stale_cache(folder: Path, also: Path) -> None:
    """Delete numba's cache files in ``folder/__pycache__`` unless they were made from the sources
    of ``folder`` and ``also``."""
    sources = [*sorted(folder.glob("*.py")), *sorted(also.glob("*.py"))]
    digest = hashlib.sha256(b"".join(p.read_bytes() for p in sources)).hexdigest()
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


_drop_stale_cache(Path(__file__).parent, Path(__file__).parent.parent / "fast")
