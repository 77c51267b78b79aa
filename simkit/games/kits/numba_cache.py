"""Numba's on-disk cache kept honest: dropped whenever the sources it was compiled from change.

Numba keys its cache on the file of each compiled function, not on the functions it inlines from
other files; a kernel module calls :func:`drop_stale_cache` when imported, naming every source its
kernels are made of.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable
from pathlib import Path

__all__ = ["compile_pending", "drop_stale_cache", "remember_compiled", "announce_before_play", "about_to_play"]

#: what to say once, just before this process first plays a compiled game (set by the command line)
_ANNOUNCE: list[Callable[[], None]] = []


def announce_before_play(say: Callable[[], None] | None) -> None:
    """Have :func:`about_to_play` call ``say`` once (``None``: say nothing).

    The command line uses it for its "compiling once" line, so a command refused for bad input
    (before any game) says only its one-line error, and the line comes right before the wait.
    """
    _ANNOUNCE[:] = [say] if say is not None else []


def about_to_play() -> None:
    """Called by the generic layers just before games are played: says the pending line, once."""
    while _ANNOUNCE:
        _ANNOUNCE.pop()()


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


def _marker(package: Path, path: str) -> Path:
    return Path(package) / "__pycache__" / f"simkit-compiled-{path}.json"


def _index_files(package: Path) -> list[Path]:
    return sorted(Path(package).rglob("__pycache__/*.nbi"))


def compile_pending(package: Path, path: str) -> bool | None:
    """Whether running ``path`` (a name for one way of playing, such as ``"sweep"`` or ``"play"``) will compile
    the kernels of the game package ``package`` first, read cheaply from numba's cache index files.

    :func:`remember_compiled` lists the index files present after ``path`` last ran; the kernels are cached
    when every one of them is still there and none is older than a source file beside it.

    Returns:
        ``True`` (compiling comes first: no record, an index file gone, or sources newer than it), ``False``
        (cached), or ``None`` when the package's folder is not writable (numba caches elsewhere: cannot tell).
    """
    import json
    import os

    package = Path(package)
    if not os.access(package, os.W_OK):
        return None
    try:
        listed = json.loads(_marker(package, path).read_text())
    except (OSError, ValueError):
        return True
    for name in listed:
        index = package / name
        try:
            made = index.stat().st_mtime
        except OSError:
            return True
        sources = index.parent.parent.glob("*.py")
        if any(src.stat().st_mtime > made for src in sources):
            return True
    return False


def remember_compiled(package: Path, path: str) -> None:
    """Record the index files of numba's cache under ``package`` after ``path`` ran (nothing if not writable)."""
    import json

    files = [str(p.relative_to(package)) for p in _index_files(package)]
    if not files:
        return
    try:
        _marker(package, path).parent.mkdir(exist_ok=True)
        _marker(package, path).write_text(json.dumps(files))
    except OSError:
        pass
