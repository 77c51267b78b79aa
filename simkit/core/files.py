"""Files written whole or not at all: atomic writes through temporary files the process owns.

A command writes each output under a temporary name in the output's own folder and renames it over
the final name only when it is complete (:func:`os.replace`, atomic on one file system), so a
killed command leaves the previous file intact, never a truncated one. A temporary file is

- created by this process itself (``O_CREAT | O_EXCL``: never an existing file, never through a
  symlink), with the mode a plainly created file gets under the user's umask;
- named ``.<name>.<pid>.<token>.tmp<suffix>`` beside ``<name>``: the process id says whose it is,
  the random token makes it unique, and the final suffix is kept so writers that choose a format
  by suffix (``.gif``, ``.png``) still do;
- removed by the process when the write fails (any exception, Ctrl-C included);
- still a regular file when it is renamed (a temporary file replaced by a symlink meanwhile is
  refused, never renamed into place).

Symlinks inside an output folder are never written through: the final name is replaced by
:func:`os.replace` (a symlink planted there is replaced, its target untouched), and the files a
command keeps open by a fixed name (a folder's lock, its log) are opened by :func:`open_own`, which
refuses a symlink in one line naming it.

A process killed outright (SIGKILL, power loss) cannot remove its temporary files: the next write
of the same output removes those whose process is gone (:func:`remove_stale_temps`), and only
files of exactly that name pattern, never another file.
"""

from __future__ import annotations

import errno
import os
import re
import secrets
import stat
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

__all__ = ["atomic_write", "atomic_files", "temp_path", "create_temp", "remove_stale_temps", "pid_alive", "open_own",
           "refuse_symlink", "cannot_write", "remove_stale_temps_in", "held_lock"]


#: the longest file name most file systems take, in bytes
NAME_MAX = 255
#: bytes of a temporary name besides the final name and suffix: ``.`` ``.<pid>`` (10 digits at most)
#: ``.<token>`` (12) ``.tmp``
_OVERHEAD = 1 + 11 + 13 + 4


def _name_part(final: Path) -> str:
    """``final``'s name, cut (at a character boundary) so that its temporary names fit ``NAME_MAX``."""
    budget = NAME_MAX - _OVERHEAD - len(final.suffix.encode())
    raw = final.name.encode()
    return final.name if len(raw) <= budget else raw[:max(budget, 1)].decode("utf-8", "ignore")


def temp_path(final: str | Path, pid: int | None = None) -> Path:
    """A new temporary name for ``final``: ``.<name>.<pid>.<token>.tmp<suffix>`` in the same folder
    (a very long name is cut so that the temporary name is no longer than a final name may be)."""
    final = Path(final)
    pid = os.getpid() if pid is None else pid
    return final.with_name(f".{_name_part(final)}.{pid}.{secrets.token_hex(6)}.tmp{final.suffix}")


def _pattern(final: Path) -> re.Pattern:
    return re.compile(rf"\.{re.escape(_name_part(final))}\.(\d+)\.[0-9a-f]{{12}}\.tmp{re.escape(final.suffix)}")


def create_temp(final: str | Path) -> Path:
    """Create (empty) and return a new temporary file for ``final``, exclusively and by this process.

    Raises:
        OSError: the folder cannot be written.
    """
    while True:
        tmp = temp_path(final)
        try:
            os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o666))
            return tmp
        except FileExistsError:  # pragma: no cover - a 48-bit token collision
            continue


#: ``O_NOFOLLOW`` where the system has it (a symlink as the last part of a path is refused, not followed)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


def refuse_symlink(path: str | Path) -> None:
    """Raise when ``path`` is a symlink: simkit never writes through one inside an output folder.

    Raises:
        ValueError: ``path`` is a symlink (the message names it and where it points).
    """
    path = Path(path)
    if path.is_symlink():
        raise ValueError(f"{path}: is a symlink (to {os.readlink(path)}); simkit does not write through one: "
                         "remove it")


def open_own(path: str | Path, flags: int, mode: int = 0o666) -> int:
    """``os.open(path, flags)`` that never follows a symlink at ``path`` (``O_NOFOLLOW``).

    For the files a command opens by a fixed name in its folder and keeps (a lock, a log): a
    symlink planted at that name is refused, its target left untouched.

    Raises:
        ValueError: ``path`` is a symlink.
        OSError: as :func:`os.open`.
    """
    try:
        return os.open(path, flags | _NOFOLLOW, mode)
    except OSError as exc:
        if exc.errno == errno.ELOOP or Path(path).is_symlink():
            refuse_symlink(path)
        raise


def _regular_file(tmp: Path) -> bool:
    """True when ``tmp`` is a regular file (a writer may have renamed its own file onto it), not a symlink."""
    try:
        return stat.S_ISREG(os.lstat(tmp).st_mode)
    except OSError:
        return False


def pid_alive(pid: int) -> bool:
    """True when a process ``pid`` exists (it may be another user's)."""
    if pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    except OverflowError:
        return False
    return True


def remove_stale_temps(final: str | Path) -> list[Path]:
    """Remove the temporary files of ``final`` left by processes that no longer run.

    Only names :func:`temp_path` makes for this very ``final`` are considered, only regular files
    (a symlink or folder of that name is left alone), and only when their process id is not running.

    Returns:
        the files removed.
    """
    final = Path(final)
    pattern = _pattern(final)
    removed = []
    try:
        entries = list(os.scandir(final.parent))
    except OSError:
        return removed
    for entry in entries:
        m = pattern.fullmatch(entry.name)
        if m is None or int(m.group(1)) == os.getpid() or pid_alive(int(m.group(1))):
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            os.unlink(entry.path)
            removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


_ANY_TEMP = re.compile(r"\..+\.(\d+)\.[0-9a-f]{12}\.tmp(\.[^.]*)?")


def remove_stale_temps_in(folder: str | Path) -> list[Path]:
    """Remove every temporary file in ``folder`` (names :func:`temp_path` makes, regular files only) whose
    process no longer runs: one listing for a writer of many files (a sweep's chunks) that passed
    ``remove_stale=False`` to each write.

    Returns:
        the files removed.
    """
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        m = _ANY_TEMP.fullmatch(entry.name)
        if m is None or int(m.group(1)) == os.getpid() or pid_alive(int(m.group(1))):
            continue
        try:
            if entry.is_file(follow_symlinks=False):
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


@contextmanager
def atomic_files(finals: list[str | Path], make_folders: bool = True,
                 remove_stale: bool = True) -> Iterator[dict[Path, Path]]:
    """Temporary paths for ``finals``, renamed over them together when the block ends without error.

    Stale temporary files of each final (left by a killed process) are removed first. On any
    exception every temporary file is removed and no final file is touched.

    Args:
        finals: the files to produce.
        make_folders: create their folders when missing.
        remove_stale: remove the stale temporary files of each final first (a writer of many files in
            one folder, such as a sweep's chunks, clears its own instead of listing the folder each time).

    Yields:
        dict final path -> temporary path to write.
    """
    temps: dict[Path, Path] = {}
    try:
        for final in map(Path, finals):
            if make_folders:
                final.parent.mkdir(parents=True, exist_ok=True)
            if remove_stale:
                remove_stale_temps(final)
            temps[final] = create_temp(final)
        yield temps
        for final, tmp in temps.items():
            if not _regular_file(tmp):
                raise ValueError(f"{final}: its temporary file {tmp.name} was replaced by a symlink or removed "
                                 "while being written: nothing was renamed into place")
        for final, tmp in temps.items():
            os.replace(tmp, final)
    finally:
        for tmp in temps.values():
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass


def atomic_write(path: str | Path, write: Callable[[Path], object], make_folders: bool = False,
                 remove_stale: bool = True) -> object:
    """Write ``path`` through a temporary file in its folder (``write(tmp)`` fills it), then rename
    (see :func:`atomic_files`).

    Returns:
        what ``write`` returned.
    """
    with atomic_files([path], make_folders=make_folders, remove_stale=remove_stale) as temps:
        return write(temps[Path(path)])


#: descriptors of locks that forked children must not hold (closed in each child as it forks)
_NOT_IN_CHILDREN: set[int] = set()


def _close_in_child() -> None:
    for fd in _NOT_IN_CHILDREN:
        try:
            os.close(fd)
        except OSError:  # pragma: no cover - already closed
            pass
    _NOT_IN_CHILDREN.clear()


os.register_at_fork(after_in_child=_close_in_child)


@contextmanager
def held_lock(path: str | Path, busy: Callable[[str], str], what: str,
              children: bool = True) -> Iterator[int]:
    """Hold the writer lock ``path``: one process writes to a folder at a time.

    An ``flock`` on ``path``: the kernel releases it when the holder's process ends, however it
    ends (SIGKILL included), so a killed writer never leaves the folder locked. The file is opened
    without following a symlink (a link planted under the lock's name is refused, never written
    through). Yields the lock file's descriptor (forked workers close their copy).

    Args:
        path: the lock file (created when missing, with the mode the umask gives).
        busy: the refusal when another process holds the lock, from the holder's pid.
        what: what the lock guards, for the other refusals (``the results folder``).
        children: forked children inherit the lock's descriptor (the caller closes it in them); with
            ``False`` each forked child closes it as it forks, so a worker left behind by a killed
            holder never keeps the lock.

    Raises:
        ValueError: another process holds the lock, the file system cannot lock, or ``path`` is
            a symlink.
    """
    import fcntl

    path = Path(path)
    try:
        fd = open_own(path, os.O_RDWR | os.O_CREAT)  # a symlink planted as the lock is refused
    except OSError as exc:
        raise ValueError(f"{path}: cannot lock {what} ({exc.strerror})") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
            raise ValueError(busy(holder)) from None
        except OSError as exc:  # a file system without locks: refuse rather than risk two writers
            raise ValueError(f"{path}: cannot lock {what} ({exc.strerror})") from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        if not children:
            _NOT_IN_CHILDREN.add(fd)
        yield fd
    finally:
        _NOT_IN_CHILDREN.discard(fd)
        os.close(fd)  # releases the lock


def cannot_write(what: str, exc: OSError) -> ValueError:
    """A one-line error for an output that could not be written (``what`` names the option and file).

    The reason is the system's (``No space left on device``, ``File name too long``, ``Not a
    directory``, ...); the temporary file's name, which means nothing to the user, is left out.
    """
    return ValueError(f"{what}: cannot write: {exc.strerror or exc}")
