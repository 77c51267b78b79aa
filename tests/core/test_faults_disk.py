"""A full or read-only disk, and SIGTERM, in every long command (issue 52, problems 4, 8 and 10): one line that
says what happened, what was kept and the command that finishes the run; nothing half-written; the resumed run is
exactly the unbroken one.

The disks are real: a small tmpfs mounted for the test (root only: skipped elsewhere), filled by the command itself.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

from simkit.cli import main
from simkit.commands._stop import Terminated, cannot_go_on, resume_command, stopped
from simkit.sweep import load_results

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "scenarios" / "_template" / "quick.toml"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def test_the_resume_command_is_the_same_line_with_resume_and_without_overwrite():
    """The command that finishes a run keeps every argument, adds --resume once, and drops --overwrite."""
    assert resume_command(["sweep", "a b.toml", "--overwrite", "--games", "3"]) == \
        "simkit sweep 'a b.toml' --games 3 --resume"
    assert resume_command(["scan", "x.toml", "--resume"]) == "simkit scan x.toml --resume"


def test_the_stop_lines_say_how_the_command_stopped_and_how_to_finish():
    """Ctrl-C exits 130 and SIGTERM 143, each one line naming the folder kept and the finishing command."""
    line, status = stopped("explore", Terminated(), "results/e", ["explore", "s.toml"])
    assert status == 143 and line == ("simkit explore: stopped by SIGTERM; what was finished is kept in results/e; "
                                      "to finish the run: simkit explore s.toml --resume")
    line, status = stopped("play", KeyboardInterrupt(), None, ["play", "s.toml"])
    assert (line, status) == ("simkit play: stopped (Ctrl-C)", 130)


def test_a_refused_write_is_one_line_with_the_systems_reason():
    """A full disk names the file and what to do; a read-only disk asks for another folder, not a resume."""
    full = OSError(errno.ENOSPC, "Error writing bytes to file. Detail: [errno 28] No space left on device")
    line = cannot_go_on("sweep", full, "r/q", ["sweep", "s.toml"])
    assert line == ("simkit sweep: error: cannot write in r/q: No space left on device. What was finished is kept: "
                    "free some space, then finish the run with: simkit sweep s.toml --resume")
    ro = OSError(errno.EROFS, "Read-only file system", "/mnt/r/q")
    assert cannot_go_on("scan", ro, "/mnt/r/q", ["scan"]) == \
        "simkit scan: error: cannot write /mnt/r/q: Read-only file system; choose a folder on a writable disk (--out)"


@pytest.fixture
def disk(tmp_path):
    """A mount point and a function that mounts a tmpfs of a given size there (or remounts it), unmounted after."""
    point = tmp_path / "disk"
    point.mkdir()
    mounted = []

    def mount(size: str, *options: str) -> Path:
        opts = ",".join((f"size={size}", *options))
        args = ["mount", "-o", f"remount,{opts}", str(point)] if mounted else \
            ["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(point)]
        done = subprocess.run(args, capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"cannot mount a small disk here ({done.stderr.strip() or 'not root'})")
        mounted.append(True)
        return point

    yield mount
    if mounted:
        subprocess.run(["umount", "-l", str(point)], capture_output=True)


def _one_line(err: str, *words: str) -> str:
    lines = [line for line in err.strip().splitlines()  # the compile notice and warnings said before the work
             if "once for this install" not in line and ": warning: " not in line
             and not line.startswith("  compiling: ")]
    assert len(lines) == 1 and "Traceback" not in err and "Exception ignored" not in err, err
    for w in words:
        assert w in lines[0], err
    return lines[0]


def _simkit(*args: str, timeout: int = 600) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simkit", *args], capture_output=True, text=True, env=ENV,
                          timeout=timeout)


def test_a_sweep_that_fills_the_disk_stops_in_one_line_and_resumes_to_the_unbroken_games(disk, tmp_path):
    """The disk fills mid-sweep: exit 2, one line with the finishing command; with room again, --resume gives
    exactly the games of a sweep that never stopped."""
    point = disk("40k")
    out = point / "q"
    args = ["sweep", str(TEMPLATE), "--out", str(out), "--workers", "1", "--chunk-size", "2"]
    done = _simkit(*args)
    assert done.returncode == 2
    line = _one_line(done.stderr, "cannot write", "No space left on device", "--resume")
    assert line.endswith(" ".join([*args[1:], "--resume"]))
    disk("20m")
    assert main([*args, "--resume"]) == 0
    assert main(["sweep", str(TEMPLATE), "--out", str(tmp_path / "whole"), "--workers", "1"]) == 0
    key = ["first_deck", "second_deck", "seed"]
    got = load_results(out).sort_values(key).reset_index(drop=True)
    want = load_results(tmp_path / "whole").sort_values(key).reset_index(drop=True)
    pd.testing.assert_frame_equal(got[want.columns], want)


@pytest.mark.parametrize("command", [
    ["scan", str(TEMPLATE), "--key", "rules.hp", "--values", "10,12", "--games", "2", "--workers", "1"],
    ["explore", str(TEMPLATE), "--workers", "1"],
    ["tune", str(TEMPLATE), "--knob", "cards.Spark.cost=1..3", "--trials", "2", "--games", "1", "--workers", "1"],
], ids=["scan", "explore", "tune"])
def test_scan_explore_and_tune_on_a_full_disk_say_one_line(command, disk):
    """Scan, explore and tune on a disk with no room: exit 2 and one line naming the reason and the finishing
    command, never a traceback."""
    point = disk("12k")
    done = _simkit(*command, "--out", str(point / "o"))
    assert done.returncode == 2
    _one_line(done.stderr, f"simkit {command[0]}: error: cannot write", "No space left on device", "--resume")


def test_a_read_only_scan_folder_is_one_line_asking_for_a_writable_folder(disk):
    """scan --out on a read-only disk: one line naming the folder and the reason, no resume advice."""
    point = disk("1m", "ro")
    done = _simkit("scan", str(TEMPLATE), "--key", "rules.hp", "--values", "10,12", "--games", "2",
                   "--out", str(point / "s"))
    assert done.returncode == 2
    line = _one_line(done.stderr, "Read-only file system", "choose a folder on a writable disk")
    assert "--resume" not in line


@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_cards_export_onto_a_full_disk_is_one_line_and_leaves_nothing(suffix, disk):
    """The export meets a full disk: one line, no ignored-exception traceback at exit, no file left behind."""
    point = disk("4k")
    (point / "fill").write_bytes(b"x" * 4096) if suffix == ".csv" else None
    done = _simkit("cards", "export", str(ROOT / "scenarios" / "miracle" / "base.toml"), "-o",
                   str(point / f"cards{suffix}"))
    assert done.returncode == 2
    _one_line(done.stderr, "cannot write", "No space left on device")
    assert not (point / f"cards{suffix}").exists()


def _start(command: list[str], out: Path) -> subprocess.Popen:
    """``simkit COMMAND`` started in its own session, returned once it has written a chunk of games."""
    proc = subprocess.Popen([sys.executable, "-m", "simkit", *command], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, env=ENV, start_new_session=True)
    deadline = time.time() + 300
    while time.time() < deadline and proc.poll() is None and not any(out.rglob("*.parquet")):
        time.sleep(0.05)
    assert proc.poll() is None, "the command ended before it could be stopped"
    return proc


DUEL = ROOT / "scenarios" / "duel" / "quick.toml"


@pytest.mark.parametrize("name, command, answer", [
    ("scan", ["scan", str(DUEL), "--key", "rules.hp", "--values", "16,20", "--games", "2", "--chunk-size", "2",
              "--workers", "1", "--bootstrap", "50"], "scan.csv"),
    ("explore", ["explore", str(DUEL), "--horizon", "12", "--chunk-size", "1", "--workers", "1"], "metagame.csv"),
])
def test_sigterm_stops_scan_and_explore_in_one_line_and_resume_is_exact(name, command, answer, tmp_path):
    """SIGTERM mid-run: exit 143 and one line naming the finishing command; running it gives the answer a run
    that never stopped gives."""
    out = tmp_path / "stopped"
    proc = _start([*command, "--out", str(out)], out)
    try:
        os.kill(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=120)
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert proc.returncode == 143, err
    line = _one_line(err, f"simkit {name}: stopped by SIGTERM", str(out), "--resume")
    finish = line.split("to finish the run: simkit ", 1)[1].split()
    assert main(finish) == 0
    assert main([*command, "--out", str(tmp_path / "whole")]) == 0
    got = pd.read_csv(out / answer)
    want = pd.read_csv(tmp_path / "whole" / answer)
    pd.testing.assert_frame_equal(got, want)
