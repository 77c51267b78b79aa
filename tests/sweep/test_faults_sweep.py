"""Issue 36 items 3, 10, 13, 15 (and issue 35 item 5): a sweep writes nothing through a symlink planted in its
folder, its workers end with it however it ends, and an option that would make it finish having done nothing
is refused in one line before anything is written.
"""

from __future__ import annotations

import os
import shlex
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from simkit.cli import main
from simkit.core.files import atomic_files, atomic_write
from simkit.sweep import done_chunks, load_results

ROOT = Path(__file__).resolve().parents[2]
TWO = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"]
KEY = ["first_deck", "second_deck", "game"]


def _victim(tmp_path: Path) -> Path:
    victim = tmp_path / "elsewhere" / "precious.txt"
    victim.parent.mkdir()
    victim.write_text("the designer's own file\n")
    return victim


def _sweep_args(scenario: Path, out: Path, *extra: str) -> list[str]:
    return ["sweep", str(scenario), "--games", "1", "--workers", "1", "--out", str(out), "--decks", *TWO, *extra]


# -- item 3: symlinks inside a results folder are never followed ----------------------------------------------


@pytest.mark.parametrize("name", [".sweep.lock", "sweep.log", "meta.json", "chunks"])
def test_a_symlink_planted_in_a_results_folder_is_refused_and_its_target_untouched(
        name, short_scenario, tmp_path, capsys):
    """A symlink at the lock's, the log's, meta.json's or the chunks folder's name: the sweep refuses in one line
    naming it (exit 2) and the file it points to keeps its bytes."""
    victim = _victim(tmp_path)
    out = tmp_path / "results"
    out.mkdir()
    (out / name).symlink_to(victim.parent if name == "chunks" else victim)
    assert main(_sweep_args(short_scenario, out)) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and f"{out / name}: is a symlink" in err
    assert victim.read_text() == "the designer's own file\n" and os.listdir(victim.parent) == ["precious.txt"]


def test_a_symlink_at_an_output_name_is_replaced_never_written_through(tmp_path):
    """atomic_write over a symlink replaces the link by the new file; the link's target keeps its bytes."""
    victim = _victim(tmp_path)
    final = tmp_path / "report.csv"
    final.symlink_to(victim)
    atomic_write(final, lambda tmp: tmp.write_text("a,b\n"))
    assert not final.is_symlink() and final.read_text() == "a,b\n"
    assert victim.read_text() == "the designer's own file\n"


def test_a_temporary_file_swapped_for_a_symlink_is_never_renamed_into_place(tmp_path):
    """A temporary file replaced by a symlink while being written: refused naming the output, the old output
    and the link's target kept, and the link removed."""
    victim = _victim(tmp_path)
    final = tmp_path / "meta.json"
    final.write_text("old\n")
    with pytest.raises(ValueError, match=r"meta\.json: its temporary file .* was replaced by a symlink"):
        with atomic_files([final]) as temps:
            tmp = temps[final]
            tmp.unlink()
            tmp.symlink_to(victim)
    assert final.read_text() == "old\n" and victim.read_text() == "the designer's own file\n"
    assert sorted(os.listdir(tmp_path)) == ["elsewhere", "meta.json"]


def test_scan_files_have_no_fixed_temporary_names_to_plant_a_symlink_at(tmp_path):
    """scan wrote through `.NAME.tmp`; symlinks planted at those names are left alone, their targets untouched."""
    from simkit.scan.run import _write_text

    victim = _victim(tmp_path)
    for name in ("summary.json", "scan.csv", "crossing.csv", "spec.json"):
        (tmp_path / f".{name}.tmp").symlink_to(victim)
    _write_text(tmp_path / "summary.json", "{}\n")
    assert (tmp_path / "summary.json").read_text() == "{}\n"
    assert victim.read_text() == "the designer's own file\n"


def test_a_resume_removes_the_chunk_temporaries_a_killed_sweep_left(short_scenario, tmp_path):
    """Chunk writes skip listing the folder; a resume removes, once, the temporaries of processes that are gone,
    and leaves those of a running process and every other file alone."""
    out = tmp_path / "results"
    assert main(_sweep_args(short_scenario, out)) == 0
    chunks = out / "chunks"
    dead = chunks / ".chunk-00000.parquet.999999999.0123456789ab.tmp.parquet"
    running = chunks / f".chunk-00001.parquet.{os.getppid()}.0123456789ab.tmp.parquet"
    other = chunks / ".chunk-notes.txt"
    for f in (dead, running, other):
        f.write_text("x")
    assert main(_sweep_args(short_scenario, out, "--resume")) == 0
    assert not dead.exists() and running.exists() and other.exists()


# -- item 10: workers end with their parent ---------------------------------------------------------------------


def _children(pid: int) -> list[int]:
    """Live (not zombie) processes whose parent is ``pid``, read from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2:].split()
        if fields[0] != "Z" and int(fields[1]) == pid:
            found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rindex(")") + 2:].split()[0] != "Z"


#: games per ordered pair of the interrupted sweeps: 4 pairs, 400 one-game chunks (100 ran in about a second on an
#: idle machine, sometimes finishing before the signal arrived)
PER_PAIR, TOTAL = "100", 400


def _ctrl_c_live() -> None:
    """In the child before simkit starts: SIGINT at its default, as a terminal leaves it (a test runner's worker may
    ignore SIGINT, and an ignored SIGINT is inherited: Python then never raises KeyboardInterrupt)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start_sweep(short_scenario: Path, out: Path) -> tuple[subprocess.Popen, list[int]]:
    """A real two-worker sweep of 400 one-game chunks, returned once both workers play (and a chunk is written)."""
    cmd = [sys.executable, "-m", "simkit", *_sweep_args(short_scenario, out, "--chunk-size", "1"),
           "--games", PER_PAIR, "--workers", "2"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            start_new_session=True, preexec_fn=_ctrl_c_live)
    deadline = time.time() + 300
    workers: list[int] = []
    while time.time() < deadline and proc.poll() is None:
        workers = _children(proc.pid)
        if len(workers) >= 2 and done_chunks(out):
            break
        time.sleep(0.05)
    assert proc.poll() is None and len(workers) >= 2, "the sweep ended before its workers could be seen"
    return proc, workers


def _no_worker_survives(workers: list[int], seconds: float = 10.0) -> list[int]:
    deadline = time.time() + seconds
    while time.time() < deadline and any(map(_alive, workers)):
        time.sleep(0.05)
    return [w for w in workers if _alive(w)]


def test_sigkill_of_a_sweep_leaves_no_worker_running(short_scenario, tmp_path):
    """SIGKILL to the sweep's process alone (not its group): both its workers are gone within seconds."""
    proc, workers = _start_sweep(short_scenario, tmp_path / "killed")
    try:
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        assert _no_worker_survives(workers) == []
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the group this test started, should a worker have survived
        except ProcessLookupError:
            pass
        proc.communicate()


def test_sigterm_stops_a_sweep_in_one_line_ends_its_workers_and_leaves_a_resumable_folder(short_scenario, tmp_path):
    """SIGTERM to the sweep's process: it exits 143 printing one line that says to resume, no worker survives,
    and --resume completes the folder to its 400 games, each once."""
    out = tmp_path / "stopped"
    proc, workers = _start_sweep(short_scenario, out)
    try:
        os.kill(proc.pid, signal.SIGTERM)
        _, err = proc.communicate(timeout=60)
        assert proc.returncode == 143
        lines = err.strip().splitlines()
        assert len(lines) == 1 and "SIGTERM" in lines[0] and "--resume" in lines[0], err
        assert _no_worker_survives(workers) == []
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert len(done_chunks(out)) < TOTAL, "the sweep finished before it could be stopped"
    assert main(_sweep_args(short_scenario, out, "--chunk-size", "1", "--games", PER_PAIR, "--resume")) == 0
    df = load_results(out)
    assert len(df) == TOTAL and not df.duplicated(KEY).any()


def test_ctrl_c_stops_a_sweep_within_two_seconds_saying_what_was_kept_and_how_to_finish(short_scenario, tmp_path):
    """Ctrl-C (SIGINT to the sweep's process group, as a terminal sends it): the prompt is back within 2 s (issue 53:
    it took 9), exit 130, one line naming the folder kept and the exact command that finishes it; that command
    completes the folder to its 400 games, each once."""
    out = tmp_path / "interrupted"
    proc, workers = _start_sweep(short_scenario, out)
    try:
        started = time.perf_counter()
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        seconds = time.perf_counter() - started
        assert proc.returncode == 130 and seconds < 2.0, (proc.returncode, seconds)
        lines = err.strip().splitlines()
        assert len(lines) == 1, err
        line = lines[0]
        finish = line.split("to finish the run: ", 1)[1]
        assert line.startswith(f"simkit sweep: stopped (Ctrl-C); what was finished is kept in {out}")
        assert finish.startswith("simkit sweep ") and finish.endswith("--resume")
        assert _no_worker_survives(workers) == []
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert len(done_chunks(out)) < TOTAL, "the sweep finished before it could be stopped"
    assert main(shlex.split(finish)[1:]) == 0
    df = load_results(out)
    assert len(df) == TOTAL and not df.duplicated(KEY).any()


# -- items 13, 15 and their kin: refused before anything is written --------------------------------------------


@pytest.mark.parametrize("extra, words", [
    (["--panel", ","], "--panel: every name of the comma list must be given, got ','"),
    (["--panel", "balanced,,rush"], "--panel: every name of the comma list must be given"),
    (["--bots", "balanced,"], "--bots: every name of the comma list must be given"),
    (["--bots", ""], "--bots: every name of the comma list must be given"),
    (["--adaptive", "--max-games", "7"], "--max-games: 7 is fewer than the first round's 8 games "
                                         "(2 per ordered pair x 4 pairs x 1 bot pairing(s)): give at least 8"),
    (["--games", "0"], "--games: games per pair must be at least 1, got 0"),
    (["--chunk-size", "0"], "--chunk-size: games per chunk must be at least 1, got 0"),
    (["--decks", ""], "deck pattern '' matches no deck"),
])
def test_an_option_that_would_play_nothing_is_refused_before_anything_is_written(
        extra, words, short_scenario, tmp_path, capsys):
    """Each is refused in one line naming the option (exit 2), and no results folder is made."""
    out = tmp_path / "never"
    args = _sweep_args(short_scenario, out, *extra)
    if "--adaptive" in extra:
        args.remove("--games")
        args.remove("1")
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and words in err, err
    assert not out.exists()


def test_a_sweep_too_large_for_one_folder_is_refused_without_listing_its_pairs(short_scenario, tmp_path, capsys):
    """10**8 games a pair of 4 pairs: refused at once naming the count (the plan is counted, never listed)."""
    out = tmp_path / "huge"
    args = _sweep_args(short_scenario, out)
    args[args.index("--games") + 1] = str(10**8)
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert "the sweep would play 400,000,000 games (2 x 2 decks x 100000000 x 1 bot pairing(s))" in err
    assert not out.exists()


def test_the_smallest_max_games_the_refusal_names_plays_a_round(short_scenario, tmp_path):
    """--max-games at the first round's games exactly is accepted and plays that round: a folder that loads."""
    out = tmp_path / "one-round"
    args = [a for a in _sweep_args(short_scenario, out, "--adaptive", "--max-games", "8") if a not in ("--games",)]
    args.remove("1")
    assert main(args) == 0
    assert len(load_results(out)) == 8


@pytest.mark.parametrize("values", ["3,,4", "3,4,", ","])
def test_scan_values_with_an_empty_item_are_refused_not_dropped(values):
    """`scan --values 3,,4` named three values and gave two: refused naming the option, not scanned as 3,4."""
    from simkit.scan.values import parse_values, scan_knob
    from simkit.scenario import load_scenario

    knob = scan_knob(load_scenario(ROOT / "scenarios" / "miracle" / "quick.toml").data, "rules.mana_period")
    with pytest.raises(ValueError, match=r"--values for rules\.mana_period: every value of the comma list"):
        parse_values(values, knob)
