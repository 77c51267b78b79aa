"""How a command ends when it cannot go on: Ctrl-C, SIGTERM, or a disk that is full or read-only.

Every command runs under :func:`sigterm_stops`, so SIGTERM stops it as Ctrl-C does (:class:`Terminated` is a
``KeyboardInterrupt``): a sweep's workers end, the chunks written whole stay. The line said then, and the line
said when a write fails for want of room or permission, come from here, for every command: what happened, what
was kept, and, for a command that resumes (its ``args.resume_folder`` names the folder it writes), the exact
command that finishes the run.
"""

from __future__ import annotations

import errno
import os
import shlex
import signal
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

__all__ = ["Terminated", "cannot_go_on", "sigterm_stops", "stopped"]

#: the errors of a write the system refused for want of room or permission, and what to do about each
_WRITE_ERRORS = {
    errno.ENOSPC: "free some space",
    errno.EDQUOT: "free some space (the disk quota is full)",
    errno.EFBIG: "free some space (a file grew past the system's limit)",
    errno.EROFS: "choose a folder on a writable disk (--out)",
}


class Terminated(KeyboardInterrupt):
    """The process was sent SIGTERM: it stops as Ctrl-C stops it (workers ended, whole results kept)."""


@contextmanager
def sigterm_stops() -> Iterator[None]:
    """Turn SIGTERM into :class:`Terminated` while a command runs (a no-op outside the main thread)."""

    def stop(signum, frame):
        raise Terminated

    try:
        old = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # pragma: no cover - not the main thread: leave SIGTERM alone
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, old)


def resume_command(argv: Sequence[str]) -> str:
    """The command line that finishes an interrupted run: the same one, with ``--resume`` (and no ``--overwrite``,
    which would throw away what the run kept)."""
    words = [w for w in argv if w != "--overwrite"]
    if "--resume" not in words:
        words.append("--resume")
    return "simkit " + shlex.join(words)


def _kept(folder, argv: Sequence[str]) -> str:
    return f"what was finished is kept in {folder}; to finish the run: {resume_command(argv)}"


def stopped(command: str, exc: KeyboardInterrupt, folder, argv: Sequence[str]) -> tuple[str, int]:
    """The line and exit status of a command stopped by Ctrl-C (130) or SIGTERM (143).

    Args:
        command: the command's name.
        exc: the interrupt.
        folder: the results folder a resumable command writes (``None``: the command does not resume).
        argv: the command line, without ``simkit``.
    """
    how, status = ("stopped by SIGTERM", 143) if isinstance(exc, Terminated) else ("stopped (Ctrl-C)", 130)
    tail = f"; {_kept(folder, argv)}" if folder is not None else ""
    return f"simkit {command}: {how}{tail}", status


def cannot_go_on(command: str, exc: OSError, folder, argv: Sequence[str]) -> str:
    """The one line of a command whose read or write the system refused (a full or read-only disk, ...).

    Names the file where the system says which, the system's reason, what to do, and for a resumable command
    that everything written whole is kept and the command that finishes the run.
    """
    todo = _WRITE_ERRORS.get(exc.errno)
    reason = (os.strerror(exc.errno) if todo or (exc.errno and not exc.strerror) else exc.strerror) or \
        str(exc).splitlines()[0]
    where = f" {exc.filename}" if exc.filename else (f" in {folder}" if folder is not None and todo else "")
    line = f"simkit {command}: error: {'cannot write' if todo else 'cannot go on'}{where}: {reason}"
    if todo and folder is not None and exc.errno != errno.EROFS:
        return f"{line}. What was finished is kept: {todo}, then finish the run with: {resume_command(argv)}"
    return f"{line}; {todo}" if todo else line
