"""What the outside-bot tests share: the example and test bots, running simkit, and whether a process runs."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import simkit

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bots" / "random_bot.py"
BAD = Path(__file__).with_name("bad_bot.py")
GAMES = ("duel", "krypton", "magic", "miracle")


def scenario(game: str):
    """The game's quick scenario."""
    return simkit.load_scenario(ROOT / "scenarios" / game / "quick.toml")


def run_simkit(*args: str, timeout: float = 600, **kw) -> subprocess.CompletedProcess:
    """``simkit ARGS`` run in the repository, its output captured."""
    return subprocess.run([sys.executable, "-m", "simkit", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, **kw)


def bad(mode: str, pids: Path | None = None) -> list[str]:
    """The command of tests/outside/bad_bot.py in ``mode`` (appending its process id to ``pids``)."""
    return [sys.executable, str(BAD), mode] + ([str(pids)] if pids else [])


def running(pid: int) -> bool:
    """True while process ``pid`` runs (a zombie waiting to be reaped does not run)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


def kill_left(pids: Path) -> None:
    """Kill whatever process ``pids`` lists that still runs (a failed test's leftovers)."""
    for pid in (pids.read_text().split() if pids.exists() else []):
        if running(int(pid)):
            os.kill(int(pid), signal.SIGKILL)
