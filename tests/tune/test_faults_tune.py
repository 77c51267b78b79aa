"""simkit tune never loses a run and never writes outside its folder (issue 36, items 3, 4, 5, 8, 10, 11, 17, 18
and 20).

Each test plays a tiny tune of the planted Priest (two decks, one game per ordered pair, a few trials)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pandas as pd
import pytest

import simkit
from simkit.cli import main
from simkit.core.rng import SEED_MAX
from simkit.sweep import RunOptions
from simkit.tune.preflight import derived_seed, path_name
from simkit.tune.settings import TuneSettings

ROOT = Path(__file__).resolve().parents[2]
PLANTED = ROOT / "scenarios" / "miracle" / "planted-strong-priest.toml"
DECKS = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"]
KNOB = "creatures.Priest.L1.cost=1..4"


def _args(out: Path, trials: int = 2, scenario: Path = PLANTED, *extra: str) -> list[str]:
    return ["tune", str(scenario), "--knob", KNOB, "--max-changes", "1", "--decks", *DECKS, "--games", "1",
            "--trials", str(trials), "--workers", "1", "--out", str(out), *extra]


def _patch(tmp_path: Path, text: str) -> Path:
    """A scenario extending the planted Priest with ``text``."""
    path = tmp_path / "scenario.toml"
    path.write_text(f'extends = "{PLANTED}"\nname = "planted, for a fault"\n{text}', encoding="utf-8")
    return path


def _settings(out: Path) -> dict:
    import optuna

    return optuna.load_study(study_name=None, storage=f"sqlite:///{out / 'study.db'}").user_attrs["settings"]


# ----------------------------------------------------------------------------------------------
# 36.17 and 36.4: every option checked before anything is written


@pytest.mark.parametrize("extra, words", [
    (["--workers", "1000"], "--workers: must be from 0"),
    (["--check-seed", "-1"], "--check-seed: must be an integer from 0"),
    (["--check-seed", str(2**63)], "--check-seed: must be an integer from 0"),
    (["--check-games", "0"], "--check-games must be a whole number of at least 1"),
    (["--confirm-games", "0"], "--confirm-games must be a whole number of at least 1"),
    (["--trials", "0"], "--trials must be at least 1"),
    (["--weights", "sprad=1"], "unknown weight 'sprad'"),
])
def test_a_bad_option_is_refused_in_one_line_before_anything_is_written(tmp_path, capsys, extra, words):
    """`--workers 1000`, `--check-seed -1` (found only after the search before), a check or confirmation of no
    games: one line, status 2, and no folder, so the corrected command then runs."""
    out = tmp_path / "tune"
    assert main(_args(out, 2, PLANTED, *extra)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err
    assert not out.exists()


def test_a_sweep_seed_near_the_top_of_the_range_still_has_its_own_confirmation_and_check_seeds(tmp_path):
    """`[sweep] seed = 2**63 - 5`: the confirmation (seed + 2,000,003) and the check (seed + 1,000,003) wrap into
    range, so the tune plays its confirmation instead of failing once the search is over."""
    seed = SEED_MAX - 4
    scenario = _patch(tmp_path, f"[sweep]\nseed = {seed}\n")
    result = simkit.run_tune(scenario, TuneSettings(knobs=[KNOB], trials=2, max_changes=1, decks=DECKS, games=1,
                                                    confirm=1), run=RunOptions(workers=1), out=tmp_path / "top")
    s = result.summary
    assert s["search"]["seed"] == seed
    assert s["confirm"]["seed"] == 2_000_003 - 5 and s["confirm"]["candidates"] == 1
    assert _settings(tmp_path / "top")["check_seed"] == 1_000_003 - 5
    assert derived_seed(seed, 1_000_003) == 1_000_003 - 5 and derived_seed(7, 1_000_003) == 1_000_010
    assert (tmp_path / "top" / "confirm.csv").exists()


def test_a_resume_may_correct_what_only_the_end_of_the_tune_uses(tmp_path, capsys):
    """A finished tune resumed with another --check-seed and --check-games is not 'different settings': the
    study keeps the corrected values. Another --games (the search's) is still refused, naming it."""
    out = tmp_path / "fix"
    assert main(_args(out, 2)) == 0
    assert main(_args(out, 2, PLANTED, "--check-seed", "77", "--check-games", "2", "--confirm-games", "2",
                      "--resume")) == 0
    stored = _settings(out)
    assert (stored["check_seed"], stored["check_games"], stored["confirm_games"]) == (77, 2, 2)
    capsys.readouterr()
    rc = main(["tune", str(PLANTED), "--knob", KNOB, "--max-changes", "1", "--decks", *DECKS, "--games", "2",
               "--trials", "2", "--workers", "1", "--out", str(out), "--resume"])
    err = capsys.readouterr().err
    assert rc == 2 and "holds a tune with other settings: --games 1 there, 2 here" in err and err.count("\n") == 1


# ----------------------------------------------------------------------------------------------
# 36.5: the games counted are the games played


def test_after_a_resume_the_search_games_are_the_games_on_disk(tmp_path, monkeypatch):
    """One game per chunk; the tune is interrupted after two of the third candidate's four games are written.
    Resumed, that candidate plays only its two others, and the summary's search games are still every game
    of the search seeds on disk: 4 candidates x 4 games = 16 (not 14)."""
    import simkit.sweep.execute as execute
    from simkit.sweep import load_results

    scenario = _patch(tmp_path, "[sweep]\nchunk_size = 1\n")
    out = tmp_path / "count"
    real, written = execute.write_chunk, []

    def cut_after_ten(folder, k, df):
        real(folder, k, df)
        written.append(k)
        if len(written) == 10:  # base 4, cost 1 -> 1 four, cost 2 -> 4 two of four
            raise KeyboardInterrupt

    monkeypatch.setattr(execute, "write_chunk", cut_after_ten)
    with pytest.raises(KeyboardInterrupt):
        simkit.run_tune(scenario, TuneSettings(knobs=[KNOB], trials=4, max_changes=1, decks=DECKS, games=1, confirm=0),
                        run=RunOptions(workers=1), out=out)
    monkeypatch.setattr(execute, "write_chunk", real)
    result = simkit.run_tune(scenario, TuneSettings(knobs=[KNOB], trials=4, max_changes=1, decks=DECKS, games=1,
                                                    confirm=0), run=RunOptions(workers=1, resume=True), out=out)
    on_disk = sum(len(load_results(f)) for f in (out / "candidates").glob("*/sweep-*"))
    assert on_disk == 16
    assert result.summary["games"]["search"] == on_disk
    t = result.trials
    assert list(t.loc[t["state"] == "complete", "games"]) == [4, 4, 4, 4]
    assert t.loc[t["state"] == "complete", "games_played"].sum() == 14  # 2 of the 16 were played before the cut


# ----------------------------------------------------------------------------------------------
# 36.8: a bot's name never takes a file outside --out


def test_a_bot_name_that_becomes_a_path_stays_inside_the_tune_folder(tmp_path):
    """`[bots."x/../../../../evil"]` played by the tune: its sweeps go to a folder named after it with the
    slashes made safe (and a hash of the name), every file the tune writes lies inside --out."""
    evil = "x/../../../../evil"
    scenario = _patch(tmp_path, f'[bots."{evil}"]\nlike = "balanced"\n')
    out = tmp_path / "a" / "b" / "c" / "out"
    assert main(_args(out, 2, scenario, "--bots", f"{evil},balanced")) == 0
    outside = [p for p in tmp_path.rglob("*") if p != scenario and out not in p.parents and p != out
               and p not in out.parents]
    assert outside == []
    name = path_name(evil)
    assert "/" not in name and name.startswith("x_.._.._.._.._evil-")
    assert (out / "candidates" / "base" / f"sweep-0-{name}-balanced").is_dir()
    assert path_name("balanced") == "balanced" and path_name("search-1") == "search-1"


# ----------------------------------------------------------------------------------------------
# 36.11: a tune holds its folder's lock


def test_a_second_resume_of_a_running_tune_gets_one_line(tmp_path, monkeypatch, capsys):
    """While a tune plays its second trial, `--resume` of its folder is refused in one line naming the running
    tune's pid (no optuna traceback, nothing of the running study touched); the first tune then finishes."""
    from simkit.tune.study import Evaluator

    out = tmp_path / "busy"
    real, seen = Evaluator.evaluate, []

    def resume_meanwhile(self, changes):
        if len(seen) == 1:
            capsys.readouterr()
            rc = main(_args(out, 3, PLANTED, "--resume"))  # its very settings: refused by the lock alone
            seen.append((rc, capsys.readouterr().err))
        else:
            seen.append(None)
        return real(self, changes)

    monkeypatch.setattr(Evaluator, "evaluate", resume_meanwhile)
    assert main(_args(out, 3)) == 0
    rc, err = seen[1]
    assert rc == 2 and err.count("\n") == 1
    assert f"another tune (pid {os.getpid()}) is running in this folder" in err
    summary = json.loads((out / "summary.json").read_text())
    assert summary["trials"] == 3


def test_a_process_forked_by_a_tune_never_keeps_its_folder_locked(tmp_path, monkeypatch):
    """A sweep's workers are forked from the tune. A child forked during a trial (as a worker left behind by a
    killed tune would be) does not hold the tune's lock: once the tune ends, the folder can be locked again
    while that child still runs."""
    import signal
    import time

    from simkit.core.files import held_lock
    from simkit.tune.study import LOCK, Evaluator

    real, children = Evaluator.evaluate, []

    def fork_once(self, changes):
        if not children:
            pid = os.fork()
            if pid == 0:  # the child only waits to be killed
                time.sleep(120)
                os._exit(0)
            children.append(pid)
        return real(self, changes)

    monkeypatch.setattr(Evaluator, "evaluate", fork_once)
    out = tmp_path / "forked"
    try:
        simkit.run_tune(PLANTED, TuneSettings(knobs=[KNOB], trials=1, max_changes=1, decks=DECKS, games=1, confirm=0),
                        run=RunOptions(workers=1), out=out)
        with held_lock(out / LOCK, lambda pid: f"held by {pid}", "the tune folder"):
            pass
    finally:
        for pid in children:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)


# ----------------------------------------------------------------------------------------------
# 36.3 and 36.20: only files of its own, with the umask's mode


def test_symlinks_planted_under_the_tunes_temporary_names_are_never_followed(tmp_path):
    """Links named like the old fixed temporaries (`.trials.csv.tmp`, `.summary.json.tmp`, `.confirm.csv.tmp`,
    a candidate's `.patch.toml.tmp`) pointing at a file outside: the tune writes its own files and the outside
    file keeps its text."""
    target = tmp_path / "precious.txt"
    target.write_text("precious", encoding="utf-8")
    out = tmp_path / "planted"
    (out / "candidates" / "base").mkdir(parents=True)
    links = [out / ".trials.csv.tmp", out / ".summary.json.tmp", out / ".confirm.csv.tmp",
             out / "candidates" / "base" / ".patch.toml.tmp"]
    for link in links:
        link.symlink_to(target)
    assert main(_args(out, 2)) == 0
    assert target.read_text(encoding="utf-8") == "precious"
    for name in ("trials.csv", "summary.json", "confirm.csv", "candidates/base/patch.toml"):
        assert (out / name).is_file() and not (out / name).is_symlink()


def test_a_study_that_is_a_symlink_is_refused_in_one_line(tmp_path, capsys):
    """`OUT/study.db` linked to a file elsewhere: refused before anything is written, the file untouched."""
    target = tmp_path / "elsewhere.db"
    target.write_bytes(b"")
    out = tmp_path / "linked"
    out.mkdir()
    (out / "study.db").symlink_to(target)
    assert main(_args(out, 2, PLANTED, "--resume")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "study.db: a symbolic link" in err
    assert target.read_bytes() == b"" and sorted(p.name for p in out.iterdir()) == ["study.db"]


def test_the_study_is_created_with_the_mode_the_umask_gives(tmp_path):
    """Under umask 002 the study (like every other file) is rw-rw-r--, not SQLite's fixed 0644."""
    old = os.umask(0o002)
    try:
        simkit.run_tune(PLANTED, TuneSettings(knobs=[KNOB], trials=1, max_changes=1, decks=DECKS, games=1, confirm=0),
                        run=RunOptions(workers=1), out=tmp_path / "u")
    finally:
        os.umask(old)
    assert (tmp_path / "u" / "study.db").stat().st_mode & 0o777 == 0o664
    assert (tmp_path / "u" / "trials.csv").stat().st_mode & 0o777 == 0o664


# ----------------------------------------------------------------------------------------------
# 36.18: names that read as spreadsheet formulas reach tune's CSVs escaped


def _cells(path: Path) -> list[str]:
    import csv

    with path.open(newline="", encoding="utf-8") as f:
        return [cell for row in csv.reader(f) for cell in row]


def test_a_bot_named_like_a_formula_reaches_tunes_csvs_escaped(tmp_path):
    """`[bots."=HYPERLINK(1)"]` played by a tiny tune (10 games per ordered pair) that picks a candidate and
    whose check raises flags: in `trials.csv` (the worst pairing) and `flags.csv` (each flag's pairing) the
    name is `'=HYPERLINK(1),balanced`, as the report's
    CSVs escape it; no cell of any CSV tune writes starts with `=`, and the table tune hands back keeps the
    name as it is."""
    bot = "=HYPERLINK(1)"
    scenario = _patch(tmp_path, f'[bots."{bot}"]\nlike = "balanced"\n')
    out = tmp_path / "formula"
    result = simkit.run_tune(scenario, TuneSettings(knobs=[KNOB], trials=3, max_changes=1, decks=DECKS,
                                                    bots=[f"{bot},balanced"], games=10, confirm=1),
                             run=RunOptions(workers=1), out=out)
    assert result.summary["changes"], "the tiny tune must pick a candidate, so that its check writes flags.csv"
    assert set(result.trials["worst_bots"]) == {f"{bot},balanced"}
    trials = _cells(out / "trials.csv")
    assert trials.count(f"'{bot},balanced") == len(result.trials)
    flags = pd.read_csv(out / "flags.csv")
    assert len(flags) and set(flags["bots"]) == {f"'{bot},balanced"}
    written = sorted(p.name for p in out.glob("*.csv"))
    assert {"trials.csv", "confirm.csv", "flags.csv"} <= set(written)
    for name in written:
        assert not [c for c in _cells(out / name) if c.startswith(("=", "+", "@"))], name


# ----------------------------------------------------------------------------------------------
# 36.3: a symlink planted inside candidates/<id>/ or fresh/ is refused, its target untouched

#: the tiny tune of the places below: 3 trials, 2 games per ordered pair, 1 candidate confirmed, which picks a
#: candidate and checks it on fresh seeds
PROPOSES = ["--games", "2", "--confirm", "1"]
#: the places inside a tune folder that tune writes, each a folder (ending in /) or a file; CONFIRM is the
#: base's confirmation folder
CONFIRM = "candidates/base/confirm-{seed}-2/"
PLACES = ["candidates/", "candidates/base/", "candidates/base/patch.toml", "candidates/base/sweep-0-balanced-balanced/",
          CONFIRM, "fresh/", "fresh/base/", "fresh/patch-*/", "fresh/base/sweep-0-balanced-balanced/",
          "trials.csv", "confirm.csv", "candidate.toml", "flags.csv", "compare.pdf", "compare.deck_deltas.csv",
          "summary.json", "candidates/base/sweep-0-balanced-balanced/meta.json",
          "candidates/base/sweep-0-balanced-balanced/chunks/", "fresh/base/sweep-0-balanced-balanced/sweep.log"]


def _confirm_seed() -> int:
    from simkit.scenario import load_scenario
    from simkit.sweep import sweep_defaults
    from simkit.tune.study import CONFIRM_SEED_OFFSET

    return derived_seed(sweep_defaults(load_scenario(PLANTED))["seed"], CONFIRM_SEED_OFFSET)


@pytest.fixture(scope="module")
def finished_tune(tmp_path_factory) -> Path:
    """The tiny tune of PLACES, finished (3 trials, a candidate checked on fresh seeds)."""
    out = tmp_path_factory.mktemp("finished") / "tune"
    assert main(_args(out, 3, PLANTED, *PROPOSES)) == 0
    assert (out / "candidate.toml").exists()
    return out


@pytest.mark.slow
@pytest.mark.parametrize("place", PLACES)
def test_a_symlink_planted_where_tune_writes_is_refused_in_one_line(finished_tune, tmp_path, capsys, place):
    """A link planted at each folder or file the tune writes in its folder (a candidate's folder, its patch, its
    sweep's folder and confirmation folder, the fresh-seed check's folders, the tables, the comparison, the
    summary; inside a sweep's folder its meta.json, chunks/ and sweep.log, which the sweep refuses) pointing
    outside: the tune resumed (which writes each of them again) is refused in one line naming
    the link, and the folder or file the link points to is untouched."""
    import shutil

    out = tmp_path / "tune"
    shutil.copytree(finished_tune, out, symlinks=True)
    path = out / place.format(seed=_confirm_seed()).rstrip("/")
    path = next(path.parent.glob(path.name), path)  # the proposal's folder: patch-<its candidate id>
    assert path.exists() and not path.is_symlink(), f"the tiny tune no longer writes {place}: update PLACES"
    outside = tmp_path / "outside"
    if place.endswith("/"):
        outside.mkdir()
        shutil.rmtree(path)
    else:
        outside.write_text("precious", encoding="utf-8")
        path.unlink()
    path.symlink_to(outside)
    capsys.readouterr()
    rc = main(_args(out, 3, PLANTED, *PROPOSES, "--resume"))
    err = [line for line in capsys.readouterr().err.splitlines() if "warning:" not in line]  # the tiny budget's
    assert rc == 2 and len(err) == 1, err
    assert f"{path}: " in err[0] and ("symbolic link" in err[0] or "is a symlink" in err[0]), err
    if place.endswith("/"):
        assert list(outside.iterdir()) == []
    else:
        assert outside.read_text(encoding="utf-8") == "precious"
    assert path.is_symlink()


# ----------------------------------------------------------------------------------------------
# 36.10 and 36.11: a tune killed with its sweep's workers running leaves none behind and resumes


def _children(pid: int) -> dict[int, str]:
    """The processes descended from ``pid`` now, each with its start time (from /proc: a pid reused later by
    another process has another start time)."""
    table = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()
            table[int(entry.name)] = (int(fields[1]), fields[19])  # ppid, starttime
    found, frontier = {}, [pid]
    while frontier:
        parent = frontier.pop()
        for child, (ppid, start) in table.items():
            if ppid == parent and child not in found:
                found[child] = start
                frontier.append(child)
    return found


def _alive(pid: int, start: str) -> bool:
    """True while the process ``pid`` that started at ``start`` runs (a zombie counts as ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    fields = stat[stat.rindex(")") + 2:].split()
    return fields[19] == start and fields[0] != "Z"


TRIALS_CSV_SAME = ["trial", "phase", "stage", "round", "predicted", "objective", "changes", "n_changes", "repeat",
                   "balance", "change_cost", "spread", "worst_bots", "candidate", "games"]


@pytest.mark.slow
def test_a_tune_killed_with_its_workers_running_leaves_none_and_resumes_to_the_same_tune(tmp_path):
    """`simkit tune --workers 2` killed (SIGKILL) once a trial is stored and while its sweep's forked workers
    run: within 10 s no process descended from it is left (each read from /proc), `--resume` finishes, and
    its proposal and trial table (the interrupted trial aside) are those of the tune run straight through."""
    import signal
    import sqlite3
    import subprocess
    import sys
    import time



    scenario = _patch(tmp_path, "[sweep]\nchunk_size = 1\n")  # a sweep of 16 chunks: its workers run a while
    def args(out: Path, workers: int = 2) -> list[str]:
        return ["tune", str(scenario), "--knob", KNOB, "--max-changes", "1", "--decks", *DECKS, "--games", "4",
                "--trials", "3", "--confirm", "1", "--workers", str(workers), "--out", str(out)]

    assert main(args(tmp_path / "straight", 1)) == 0  # workers never change a result
    out = tmp_path / "killed"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-m", "simkit.cli", *args(out)], env=env, cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    workers: dict[int, str] = {}
    try:
        deadline = time.time() + 300
        while time.time() < deadline and proc.poll() is None and not workers:
            time.sleep(0.02)
            try:
                with sqlite3.connect(f"file:{out / 'study.db'}?mode=ro", uri=True) as db:  # never creates it
                    stored = db.execute("select count(*) from trials where state = 'COMPLETE'").fetchone()[0]
            except sqlite3.Error:
                continue
            if stored >= 1:
                workers = _children(proc.pid)
        assert proc.poll() is None and workers, "the tune ended before it could be killed with its workers running"
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait()
    deadline = time.time() + 10
    while time.time() < deadline and any(_alive(p, s) for p, s in workers.items()):
        time.sleep(0.1)
    assert [p for p, s in workers.items() if _alive(p, s)] == []
    assert not (out / "trials.csv").exists()
    done = subprocess.run([sys.executable, "-m", "simkit.cli", *args(out), "--resume"], env=env, cwd=ROOT,
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    straight = pd.read_csv(tmp_path / "straight" / "trials.csv")
    resumed = pd.read_csv(out / "trials.csv")
    kept = resumed[resumed["state"] != "interrupted"].drop(columns="trial").reset_index(drop=True)
    cols = [c for c in TRIALS_CSV_SAME if c != "trial"]
    pd.testing.assert_frame_equal(kept[cols], straight[cols], check_dtype=False)  # NaN games made it float
    assert set(resumed["state"]) <= {"complete", "interrupted"}
    def patch(o: Path) -> list[str]:  # its header names the trial, one later after the interrupted one
        return [line for line in (o / "candidate.toml").read_text().splitlines() if not line.startswith("#")]

    assert patch(out) == patch(tmp_path / "straight")
    a, b = (json.loads((o / "summary.json").read_text()) for o in (tmp_path / "straight", out))
    assert a["proposed"] | {"trial": None} == b["proposed"] | {"trial": None} and a["changes"] == b["changes"]
