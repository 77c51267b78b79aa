"""Where a measured figure comes from: the command that measured it, when, and on which commit.

Every JSON file of figures simkit writes for a reader to quote (``simkit ladder``'s ``ladder.json``, the lab's
measurements under ``docs/findings/data/``) carries :func:`provenance` at its top, so a figure quoted on a page
can be traced to the run that produced it.
"""

from __future__ import annotations

import datetime as _dt
import subprocess
from pathlib import Path

__all__ = ["provenance", "source_commit"]

_ROOT = Path(__file__).resolve().parents[2]
#: what decides a measured figure: the package, the scenarios, the scripts that measure, the install
SOURCES = ("simkit", "scenarios", "lab", "scripts", "pyproject.toml")


def source_commit(root: Path = _ROOT) -> tuple[str | None, bool]:
    """The git commit simkit's sources are at and whether a tracked file of :data:`SOURCES` differs from it (pages and
    data being written beside a measurement do not count; ``(None, False)`` outside a git checkout, e.g. an
    installed wheel)."""
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True,
                              timeout=10, check=True).stdout.strip()
        changed = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no", "--",
                                  *SOURCES], capture_output=True, text=True, timeout=10, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return None, False
    return (head or None), bool(changed)


def provenance(script: str, command: str) -> dict:
    """``{"script", "command", "date", "commit", "dirty", "simkit"}`` of a measurement being written now.

    Args:
        script: what measured (``"simkit ladder"``, or the path of the script that measured).
        command: the command line that measured, as a reader would type it again.
    """
    from simkit.core import __version__

    commit, dirty = source_commit()
    return {"script": script, "command": command,
            "date": _dt.datetime.now(_dt.UTC).replace(microsecond=0).isoformat(),
            "commit": commit, "dirty": dirty, "simkit": __version__}
