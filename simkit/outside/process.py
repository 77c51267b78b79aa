"""An outside bot's program: started once per worker, spoken to in messages, ended with its worker.

A :class:`BotProcess` starts the program in a process group of its own, with its standard input and output as
pipes to simkit and its standard error kept in a file (its last line names a crash). On Linux the kernel kills the
program when the simkit process that started it ends in any way (``prctl(PR_SET_PDEATHSIG, SIGKILL)``, set in the
child before the program starts), so none is left running after SIGINT, SIGTERM or SIGKILL of simkit; everywhere,
the program's standard input closes when simkit ends, and :func:`end_all` (run at exit) ends every program's
process group. The framing of messages (how one is cut out of the byte stream) is a :class:`Framing`:
:class:`JsonLines` for simkit's own protocol (``docs/outside-bots.md``); another framing over the same process
(:class:`LengthPrefixed`, the original Battle of Miracles judger's) speaks another protocol to the same kind of
program.
"""

from __future__ import annotations

import atexit
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

__all__ = ["BotFailure", "BotProcess", "Framing", "JsonLines", "LengthPrefixed", "end_all"]

#: the longest message a program may send (bytes): a longer one is malformed
MAX_MESSAGE = 16 * 1024 * 1024


class BotFailure(Exception):
    """The program failed the protocol: ``kind`` is ``crash``, ``timeout``, ``malformed`` or ``illegal``, ``detail``
    says what happened in words; ``whole`` is true when a whole message was read (the stream is still in step: a
    protocol may refuse the message and read the next)."""

    def __init__(self, kind: str, detail: str, whole: bool = False):
        super().__init__(f"{kind}: {detail}")
        self.kind, self.detail, self.whole = kind, detail, whole


class Framing:
    """How messages are cut out of a program's output and written to its input (a subclass per protocol)."""

    def encode(self, message: dict) -> bytes:  # pragma: no cover - the interface
        """The bytes of one message to the program."""
        raise NotImplementedError

    def decode(self, buffer: bytearray) -> dict | None:  # pragma: no cover - the interface
        """One whole message taken from the front of ``buffer``, or ``None`` while it is incomplete.

        Raises:
            BotFailure: ``malformed``, naming what was wrong.
        """
        raise NotImplementedError


class JsonLines(Framing):
    """One JSON object per line, UTF-8, each ended by ``\\n`` (simkit's protocol)."""

    def encode(self, message: dict) -> bytes:
        """``message`` as one line of compact JSON."""
        return (json.dumps(message, separators=(",", ":"), ensure_ascii=False) + "\n").encode()

    def decode(self, buffer: bytearray) -> dict | None:
        """The first line of ``buffer`` as a JSON object (blank lines are skipped), or ``None`` with no whole line."""
        while True:
            end = buffer.find(b"\n")
            if end < 0:
                if len(buffer) > MAX_MESSAGE:
                    raise BotFailure("malformed", f"a line longer than {MAX_MESSAGE} bytes")
                return None
            line = bytes(buffer[:end]).strip()
            del buffer[:end + 1]
            if line:
                break
        try:
            message = json.loads(line.decode())
        except (UnicodeDecodeError, ValueError):
            raise BotFailure("malformed", f"not a line of JSON: {_shown(line)}") from None
        if not isinstance(message, dict):
            raise BotFailure("malformed", f"not a JSON object: {_shown(line)}")
        return message


class LengthPrefixed(Framing):
    """The original Battle of Miracles judger's framing (its ``doc/`` and ``example/README.md``): a message to the
    program is its JSON text after the text's length written in ``digits`` ASCII decimal digits (``000042{...}``);
    a message from the program is its length as a 4-byte big-endian signed integer, then its JSON text.

    Args:
        digits: the width of the decimal length sent to the program (the judger's: 6).
        limit: the longest message the program may send, in bytes (the judger's: 1024); a longer one, or a negative
            length, is malformed. A zero length is skipped (the judger reads it as no message).
    """

    def __init__(self, digits: int = 6, limit: int = 1024):
        self.digits, self.limit = digits, limit

    def encode(self, message: dict) -> bytes:
        """``message`` as compact ASCII JSON after its length in decimal digits.

        Raises:
            ValueError: a message too long for the width of its length.
        """
        text = json.dumps(message, separators=(",", ":")).encode()
        if len(text) >= 10 ** self.digits:
            raise ValueError(f"a message of {len(text)} bytes does not fit a {self.digits}-digit length")
        return str(len(text)).zfill(self.digits).encode() + text

    def decode(self, buffer: bytearray) -> dict | None:
        """The first whole message of ``buffer`` as a JSON object, or ``None`` while it is incomplete."""
        while True:
            if len(buffer) < 4:
                return None
            size = int.from_bytes(buffer[:4], byteorder="big", signed=True)
            if size < 0 or size > self.limit:
                raise BotFailure("malformed", f"a message length of {size} bytes (the most is {self.limit}): "
                                              f"{_shown(bytes(buffer[:40]))}")
            if len(buffer) < 4 + size:
                return None
            text = bytes(buffer[4:4 + size])
            del buffer[:4 + size]
            if size:
                break
        try:
            message = json.loads(text.decode())
        except (UnicodeDecodeError, ValueError):
            raise BotFailure("malformed", f"not JSON: {_shown(text)}", whole=True) from None
        if not isinstance(message, dict):
            raise BotFailure("malformed", f"not a JSON object: {_shown(text)}", whole=True)
        return message


def _shown(data: bytes, width: int = 80) -> str:
    """A short printable excerpt of what a program sent."""
    text = data.decode(errors="replace")
    return repr(text if len(text) <= width else text[:width] + "...")


_LIBC = None


def _prepare_child() -> None:
    """Runs in the child between fork and exec (``preexec_fn``): the kernel kills it when its parent ends."""
    if _LIBC is not None:
        _LIBC.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG = 1


def _load_libc() -> None:
    """Load libc's ``prctl`` before any fork (on Linux), so the child calls a function already resolved."""
    global _LIBC
    if _LIBC is None and sys.platform.startswith("linux"):
        try:
            import ctypes

            _LIBC = ctypes.CDLL(None, use_errno=True)
            _LIBC.prctl  # noqa: B018 - resolved now, not in the child
        except (OSError, AttributeError):  # pragma: no cover - a libc without prctl: stdin's end and end_all
            _LIBC = None


class BotProcess:
    """One running program of an outside bot.

    Args:
        command: the program and its arguments (no shell).
        cwd: the folder it runs in (``None``: simkit's own).
        framing: how messages are framed (:class:`JsonLines` by default).
        label: how messages name the program (``bot 'mine' (python3 mine.py)``).
    """

    def __init__(self, command: Sequence[str], cwd: str | Path | None = None, framing: Framing | None = None,
                 label: str = "the bot"):
        _load_libc()
        self.command, self.label = list(command), label
        self.framing = framing or JsonLines()
        self.owner = os.getpid()
        self._buffer = bytearray()
        self._stderr = tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self._stderr, cwd=cwd, start_new_session=True, close_fds=True,
                                         preexec_fn=_prepare_child if _LIBC is not None else None)
        except OSError as exc:
            self._stderr.close()
            raise BotFailure("crash", f"cannot start {' '.join(self.command)}: {exc.strerror or exc}") from None
        _RUNNING.add(self)

    @property
    def pid(self) -> int:
        """The program's process id (and its process group's)."""
        return self.proc.pid

    def alive(self) -> bool:
        """True while the program runs."""
        return self.proc.poll() is None

    def send(self, message: dict) -> None:
        """Write one message to the program.

        Raises:
            BotFailure: ``crash`` when the program has gone (its input is closed).
        """
        try:
            self.proc.stdin.write(self.framing.encode(message))
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise BotFailure("crash", self._gone()) from None

    def receive(self, seconds: float) -> dict:
        """The program's next message, waiting ``seconds`` at most.

        Raises:
            BotFailure: ``timeout`` (no whole message in time), ``crash`` (the program ended or closed its
                output) or ``malformed`` (not a message of the framing).
        """
        deadline = time.monotonic() + max(0.0, seconds)
        fd = self.proc.stdout.fileno()
        while True:
            message = self.framing.decode(self._buffer)
            if message is not None:
                return message
            left = deadline - time.monotonic()
            if left <= 0:
                raise BotFailure("timeout", f"no answer within {seconds:.3g} s")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                raise BotFailure("crash", self._gone())
            self._buffer += chunk

    def _gone(self) -> str:
        """Why the program stopped talking, in words: its exit status and the last line of its standard error."""
        try:
            status = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            status = None
        how = ("closed its output" if status is None else
               f"exited with status {status}" if status >= 0 else f"was killed by signal {-status}")
        last = self.stderr_tail()
        return f"{self.label} {how}" + (f" (its last error line: {last})" if last else "")

    def stderr_tail(self) -> str:
        """The last non-blank line the program wrote to its standard error (``""``: none)."""
        try:
            self._stderr.seek(0, os.SEEK_END)
            size = self._stderr.tell()
            self._stderr.seek(max(0, size - 4096))
            lines = [ln.strip() for ln in self._stderr.read().decode(errors="replace").splitlines() if ln.strip()]
        except (OSError, ValueError):
            return ""
        return lines[-1][:200] if lines else ""

    def end(self, grace: float = 1.0) -> None:
        """End the program: close its input (a well-behaved program then exits), wait ``grace`` seconds at most,
        then kill its whole process group. Only the process that started it ends it (a forked worker leaves its
        parent's programs alone)."""
        _RUNNING.discard(self)
        if os.getpid() != self.owner:
            return
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError, OSError):
            pass
        try:
            self.proc.wait(timeout=5.0)
        except subprocess.TimeoutExpired:  # pragma: no cover - a process the kernel cannot kill
            pass
        for stream in (self.proc.stdout, self._stderr):
            try:
                stream.close()
            except OSError:
                pass


_RUNNING: set[BotProcess] = set()


def end_all() -> None:
    """End every program this process started (run at exit; a forked worker ends only its own)."""
    for bot in list(_RUNNING):
        bot.end(grace=0.2)


atexit.register(end_all)
