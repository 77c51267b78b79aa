"""Numba's on-disk cache kept honest: dropped whenever the sources it was compiled from change.

Numba keys its cache on the file of each compiled function, not on the functions it inlines from
other files; a kernel module calls :func:`drop_stale_cache` when imported, naming every source its
kernels are made of.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from pathlib import Path

__all__ = ["drop_stale_cache"]


def drop_stale_cache(folder: Path, sources: Iterable[Path]) -> None:
    """Delete numba's cache files in ``folder/__pycache__`` unless they were made from ``sources``.

    A stamp file holds the hash of the sources the cache was made from; a read-only install is left
    alone (numba then caches elsewhere or compiles each time).
    """
    digest = hashlib.sha256(b"".join(Path(p).read_bytes() for p in sources)).hexdigest()
    cache = Path(folder) / "__pycache__"
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
    except OSError:
        pass
