"""Issue 36, the files a command writes: whole or not at all, nothing left behind, nothing unsafe in them.

Faults are made by killing the process the test itself started (``Popen`` then ``SIGKILL`` on its
pid), never by name.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from results_folders import write_sweep_folder

from simkit.cli import main
from simkit.core.files import atomic_write, create_temp, remove_stale_temps, temp_path
from simkit.testing.synthetic import synthetic_results

ROOT = Path(__file__).resolve().parents[2]
MIRACLE_QUICK = ROOT / "scenarios" / "miracle" / "quick.toml"
DUEL_QUICK = ROOT / "scenarios" / "duel" / "quick.toml"
FIRST = "HolyLight:Archer,Priest,Swordsman"
SECOND = "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"
DECKS = [FIRST, SECOND, "SalamanderShield:Archer,FrostDragon,Swordsman", "WindBlessing:BlackBat,Priest,VolcanoDragon"]
DEAD_PID = 2**22 + 17  # above Linux's largest pid (pid_max is at most 2**22): never a running process


def _simkit(*args: str) -> subprocess.Popen:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.Popen([sys.executable, "-m", "simkit.cli", *args], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)


def _hidden_temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith(".") and ".tmp" in p.name)


def _kill_when(proc: subprocess.Popen, ready, timeout: float = 120.0) -> None:
    """SIGKILL ``proc`` (by its pid) as soon as ``ready()`` holds; fail if it ends first."""
    end = time.monotonic() + timeout
    while not ready():
        if proc.poll() is not None or time.monotonic() > end:
            proc.kill()
            pytest.fail(f"the command ended (status {proc.returncode}) before it could be killed mid-write")
        time.sleep(0.005)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)


# -- simkit.core.files ------------------------------------------------------------------------------------


def test_atomic_write_keeps_the_old_file_when_the_writer_fails(tmp_path):
    """A writer that fails half-way leaves the earlier file whole and no temporary file."""
    path = tmp_path / "good.txt"
    path.write_text("old")

    def half(tmp: Path) -> None:
        tmp.write_text("ne")
        raise RuntimeError("disk gone")

    with pytest.raises(RuntimeError):
        atomic_write(path, half)
    assert path.read_text() == "old" and _hidden_temps(tmp_path) == []
    atomic_write(path, lambda tmp: tmp.write_text("new"))
    assert path.read_text() == "new" and _hidden_temps(tmp_path) == []


def test_temporary_names_are_unique_keep_the_suffix_and_fit_a_file_name(tmp_path):
    """Two temporaries of one file differ, keep its suffix (writers choose a format by it) and name the
    pid; a final name near the 255-byte limit still gets a temporary name within it."""
    a, b = temp_path(tmp_path / "good.gif"), temp_path(tmp_path / "good.gif")
    assert a != b and a.suffix == ".gif" and a.name.startswith(f".good.gif.{os.getpid()}.")
    long = tmp_path / ("x" * 250 + ".pdf")
    tmp = create_temp(long)
    assert len(tmp.name.encode()) <= 255 and tmp.suffix == ".pdf"


def test_stale_temps_of_dead_processes_are_removed_and_nothing_else(tmp_path):
    """Only this file's temporary names whose process is gone are removed: a live process's, another
    file's, a look-alike and a symlink of the pattern stay."""
    final = tmp_path / "r.pdf"
    dead = temp_path(final, pid=DEAD_PID)
    live = temp_path(final, pid=1)  # init runs for as long as the machine does
    other = temp_path(tmp_path / "s.pdf", pid=DEAD_PID)
    lookalike = tmp_path / f".r.pdf.{DEAD_PID}.tmp"
    for p in (dead, live, other, lookalike):
        p.write_text("x")
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    link = temp_path(final, pid=DEAD_PID + 1)
    link.symlink_to(victim)
    assert remove_stale_temps(final) == [dead]
    assert not dead.exists() and live.exists() and other.exists() and lookalike.exists()
    assert link.is_symlink() and victim.read_text() == "keep"


# -- item 14: a killed report ---------------------------------------------------------------------------


def test_killed_report_leaves_temps_the_next_report_removes(tmp_path):
    """SIGKILL during `simkit report` leaves the earlier report whole; its hidden temporary files are
    removed by the next report of the same name, which leaves other files alone."""
    folder = write_sweep_folder(synthetic_results(DECKS, 20, seed=5, scenario_name="kill me"), tmp_path / "res")
    out = tmp_path / "out"
    out.mkdir()
    pdf = out / "r.pdf"
    pdf.write_bytes(b"%PDF earlier report")
    (out / ".notes.tmp").write_text("the designer's own file")
    proc = _simkit("report", str(folder), "-o", str(pdf), "--bootstrap", "2000")
    _kill_when(proc, lambda: any(n.startswith(".r.") for n in _hidden_temps(out)))
    assert pdf.read_bytes() == b"%PDF earlier report"
    left = [n for n in _hidden_temps(out) if n.startswith(".r.")]
    assert left, "the killed report's temporary files are the test's subject"
    assert main(["report", str(folder), "-o", str(pdf), "--bootstrap", "5"]) == 0
    assert _hidden_temps(out) == [".notes.tmp"]
    assert pdf.read_bytes().startswith(b"%PDF-")


# -- item 12: a killed replay ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def record(tmp_path_factory) -> Path:
    """A recorded Battle of Miracles game (quick scenario, 12 turns)."""
    folder = tmp_path_factory.mktemp("record")
    short = folder / "short.toml"
    short.write_text(f'extends = "{MIRACLE_QUICK}"\nname = "quick, 12 turns"\n[rules]\nturn_limit = 12\n')
    path = folder / "game.json"
    assert main(["play", str(short), FIRST, SECOND, "--seed", "3", "--json", str(path)]) == 0
    return path


def test_killed_replay_leaves_the_existing_picture_whole(record, tmp_path):
    """SIGKILL while `replay -o good.gif --per action` draws leaves the earlier good.gif byte for byte."""
    good = tmp_path / "good.gif"
    good.write_bytes(b"GIF89a the good one")
    before = good.stat()

    def writing() -> bool:
        now = good.stat() if good.exists() else None
        return now is None or (now.st_size, now.st_mtime_ns) != (before.st_size, before.st_mtime_ns) or \
            any(n.startswith(".good.gif.") for n in _hidden_temps(tmp_path))

    proc = _simkit("replay", str(record), "-o", str(good), "--per", "action", "-q")
    _kill_when(proc, writing)
    time.sleep(0)  # the kill is synchronous: whatever is on disk now is what a user finds
    assert good.read_bytes() == b"GIF89a the good one"
    assert remove_stale_temps(good) != []  # its temporary file is recognised as a dead process's


def test_play_json_and_render_are_written_atomically(tmp_path, monkeypatch):
    """`play --json` and `--render` go through a temporary file: a render that fails leaves the earlier
    picture whole and no temporary file."""
    import simkit.games.miracle.render_replay as render_replay

    pic = tmp_path / "board.png"
    pic.write_bytes(b"earlier picture")

    def broken(scenario, first, second, actions, out_path, **options):
        Path(out_path).write_bytes(b"half")
        raise RuntimeError("drawing failed")

    monkeypatch.setattr(render_replay, "render_game", broken)
    with pytest.raises(RuntimeError):
        main(["play", str(MIRACLE_QUICK), FIRST, SECOND, "--json", str(tmp_path / "g.json"), "--render", str(pic)])
    assert pic.read_bytes() == b"earlier picture"
    assert json.loads((tmp_path / "g.json").read_text())["decks"] == [FIRST, SECOND]
    assert _hidden_temps(tmp_path) == []


# -- item 7: replay under an edited scenario -----------------------------------------------------------


def _duel_record(tmp_path: Path) -> tuple[Path, Path]:
    scenario = tmp_path / "duel.toml"
    scenario.write_text(f'extends = "{DUEL_QUICK}"\n')
    record = tmp_path / "game.json"
    assert main(["play", str(scenario), "Dagger+Longbow:Frost,Mend,Reflect", "Greataxe+Spear:Rage,ShadowBolt,Venom",
                 "--seed", "4", "--json", str(record)]) == 0
    return scenario, record


def test_replay_refuses_a_scenario_changed_since_the_game(tmp_path, capsys):
    """The record keeps the scenario's hash: after an edit, replay ends with exit 2 and one line naming
    the record, both hashes and the key that changed."""
    scenario, record = _duel_record(tmp_path)
    kept = json.loads(record.read_text())
    assert len(kept["scenario_hash"]) == 16 and kept["scenario_data"]["game"] == "duel"
    assert main(["replay", str(record), "-o", str(tmp_path / "ok.txt")]) == 0
    scenario.write_text(f'extends = "{DUEL_QUICK}"\n[rules]\nhp = 3\n')
    capsys.readouterr()
    assert main(["replay", str(record), "-o", str(tmp_path / "other.txt")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1
    assert str(record) in err and kept["scenario_hash"] in err and "rules.hp: 25 -> 3" in err
    assert not (tmp_path / "other.txt").exists()


def test_replay_of_an_old_record_without_hash_warns(tmp_path, capsys):
    """A record written before hashes were kept still replays, with one warning line saying it is unchecked."""
    _, record = _duel_record(tmp_path)
    data = json.loads(record.read_text())
    del data["scenario_hash"], data["scenario_data"]
    record.write_text(json.dumps(data))
    capsys.readouterr()
    assert main(["replay", str(record), "-o", str(tmp_path / "old.txt")]) == 0
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "warning" in err[0] and "no scenario hash" in err[0]


# -- item 18: formula injection in CSVs ---------------------------------------------------------------


def test_csv_cells_that_start_a_formula_are_escaped_and_numbers_stay_numbers():
    """The OWASP advice: text starting with = + - @, tab or CR gets a leading quote; numbers are untouched."""
    from simkit.core.cells import csv_cell
    from simkit.report.document import csv_safe

    table = pd.DataFrame({"card": ["=HYPERLINK(1)", "+A", "-B", "@C", "\tD", "\rE", "Spear", "-3"],
                          "games": [1, -2, 3, 4, 5, 6, 7, 8], "rate": [-0.5, 0.1, 0, 1, 2, 3, 4, 5]})
    safe = csv_safe(table)
    assert list(safe["card"]) == ["'=HYPERLINK(1)", "'+A", "'-B", "'@C", "'\tD", "'\rE", "Spear", "-3"]
    assert safe["games"].tolist() == [1, -2, 3, 4, 5, 6, 7, 8] and safe["rate"].iloc[0] == -0.5
    assert csv_cell(-1) == -1 and csv_cell("=1") == "'=1"
    assert list(csv_safe(pd.DataFrame({"=x": [1]})).columns) == ["'=x"]


def test_report_csvs_escape_a_card_named_like_a_formula(tmp_path):
    """A deck of a card named `=HYPERLINK(1)` reaches no report CSV as a formula."""
    evil = ["=HYPERLINK(1):Archer,Priest,Swordsman", "Spear:-cmd|' /C calc'!A0,Priest,Swordsman"]
    folder = write_sweep_folder(synthetic_results(evil, 4, seed=1), tmp_path / "res")
    out = tmp_path / "r.pdf"
    assert main(["report", str(folder), "-o", str(out), "--bootstrap", "5"]) == 0
    csvs = sorted(tmp_path.glob("r.*.csv"))
    assert csvs
    text = "".join(p.read_text() for p in csvs)
    assert "=HYPERLINK" in text
    for p in csvs:
        for cell in pd.read_csv(p, dtype=str, keep_default_na=False).to_numpy().ravel():
            assert not cell.startswith(("=", "+", "@", "\t", "\r")), (p.name, cell)
            assert not cell.startswith("-") or _number(cell), (p.name, cell)


def _number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
