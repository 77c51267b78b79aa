"""The one-time compile, said and shown: a line when a command starts compiling a game's engine, then its progress.

numba compiles a kernel when its on-disk cache misses (the first run after installing, or changed sources) and
says so with a ``numba:compile`` event; a kernel loaded from the cache raises none. The first such event prints
one line naming the game; then a progress line gives the share of the compile done and the time left, both from
measured figures: each kernel's own compile CPU time as ``scripts/compile_times.py --write`` measured it for this
game and command (``compile_times.json`` beside this module), weighted by the pace of the run in progress (the
seconds this run took for the share done so far). A game or command without measured figures gets the kernels
compiled and the time spent, never a guess. Only the process that started the command speaks: a sweep compiles
in it before its workers fork (:func:`simkit.sweep.execute.warm_up`), so workers load what it compiled.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

__all__ = ["measured", "CompileProgress", "announce_compiles"]

TABLE = Path(__file__).with_name("compile_times.json")
STEP = 0.25  # a progress line on a non-terminal at every quarter of the compile done


def measured(game: str, path: str) -> dict[str, float]:
    """Each kernel's own compile CPU seconds as measured for ``game``'s ``path`` (``sweep``, ``play``, ``check``);
    empty when not measured."""
    try:
        table = json.loads(TABLE.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    got = table.get(game, {}).get(path, {})
    return {str(k): float(v) for k, v in got.items()} if isinstance(got, dict) else {}


def _duration(seconds: float) -> str:
    return f"{seconds:.0f} s" if seconds < 90 else f"{seconds / 60:.1f} min"


class CompileProgress:
    """Counts a command's compiles against the measured figures and says how far it is.

    Args:
        head: the line said at the first compile (``simkit sweep: compiling the Krypton Tower War engine ...``).
        kernels: :func:`measured` figures of the game and command (empty: no share, no time left).
        stream: where to write (stderr).
    """

    def __init__(self, head: str, kernels: dict[str, float], stream=None):
        self.head, self.kernels = head, kernels
        self.total = sum(kernels.values())
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.pid = os.getpid()
        self.started: float | None = None
        self.depth = 0
        self.count = 0
        self.done = 0.0
        self.said = 0.0  # the share last said (non-terminal)
        self.last = 0.0  # when the last line was written (terminal)

    def start(self) -> None:
        """A kernel starts compiling."""
        if os.getpid() != self.pid:
            return
        if self.started is None:
            self.started = time.perf_counter()
            print(self.head, file=self.stream, flush=True)
        self.depth += 1

    def end(self, kernel: str) -> None:
        """``kernel`` (``module:qualname``) finished compiling."""
        if os.getpid() != self.pid or self.started is None:
            return
        self.depth -= 1
        self.count += 1
        self.done += self.kernels.get(kernel, 0.0)
        now = time.perf_counter()
        if self.tty and now - self.last >= 0.5:
            self.last = now
            print("\r" + self.line(now), end="", file=self.stream, flush=True)
        elif not self.tty and self.total and self.share() - self.said >= STEP:
            self.said = self.share()
            print(self.line(now), file=self.stream, flush=True)

    def share(self) -> float:
        """The share of the measured compile done (0 without figures)."""
        return min(1.0, self.done / self.total) if self.total else 0.0

    def line(self, now: float | None = None) -> str:
        """The progress line: the share done and the time left from the measured figures and this run's pace."""
        spent = (now or time.perf_counter()) - (self.started or 0.0)
        if not self.total or self.done <= 0:
            return f"  compiling: {self.count} kernels in {_duration(spent)} (no measured figures for this game)"
        share = self.share()
        if share >= 1.0:
            return f"  compiling: all measured kernels done in {_duration(spent)}, finishing"
        left = spent * (1 - share) / share
        return f"  compiling: {share:.0%} done in {_duration(spent)}, about {_duration(left)} left at this pace"

    def close(self) -> None:
        """End a progress line left open on a terminal."""
        if self.tty and self.last and os.getpid() == self.pid:
            print(file=self.stream, flush=True)


def announce_compiles(head: str, kernels: dict[str, float] | None = None, stream=None):
    """Register a :class:`CompileProgress` for numba's compile events.

    Returns:
        ``(listener, progress)``: unregister the listener (``numba.core.event.unregister("numba:compile", it)``)
        and close the progress when the command ends.
    """
    from numba.core import event

    progress = CompileProgress(head, kernels or {}, stream)

    class Listener(event.Listener):
        def on_start(self, ev) -> None:
            dispatcher = (ev.data or {}).get("dispatcher")
            if type(getattr(dispatcher, "_cache", None)).__name__ == "NullCache" and progress.depth == 0:
                return  # a kernel numba never caches, compiled alone: not the one-time wait
            progress.start()

        def on_end(self, ev) -> None:
            dispatcher = (ev.data or {}).get("dispatcher")
            if progress.depth == 0:
                return
            func = getattr(dispatcher, "py_func", None)
            progress.end(f"{getattr(func, '__module__', '')}:{getattr(func, '__qualname__', '')}")

    listener = Listener()
    event.register("numba:compile", listener)
    return listener, progress
