"""The results folder's guarantee: exactly the planned games, each once with its planned seed, or a
clear refusal; one writer at a time; files as the user's umask says; bad sweep input refused early."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import simkit
from simkit.cli import main
from simkit.sweep import (
    ResultsFolderWarning,
    RunOptions,
    SweepSettings,
    chunk_path,
    done_chunks,
    folder_lock,
    load_results,
    plan_sweep,
    run_sweep,
)

ROOT = Path(__file__).resolve().parents[2]
QUICK = ROOT / "scenarios" / "miracle" / "quick.toml"
TWO = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"]
KEY = ["first_deck", "second_deck", "game"]


def small_plan(sc, seed=None):
    """2 decks, 4 ordered pairs x 2 games = 8 games in chunks of 3: chunks 0, 1 (3 games) and 2 (2 games)."""
    return plan_sweep(sc, SweepSettings(games=2, decks=TWO, chunk_size=3, seed=seed))


@pytest.fixture(scope="module")
def finished(quick, tmp_path_factory):
    """A finished small sweep, kept pristine: tests damage copies of it."""
    out = tmp_path_factory.mktemp("finished") / "sweep"
    run_sweep(quick, small_plan(quick), out, RunOptions(workers=1))
    return out


@pytest.fixture
def folder(finished, tmp_path):
    """A copy of the finished sweep that a test may damage."""
    return Path(shutil.copytree(finished, tmp_path / "copy"))


@pytest.fixture(scope="module")
def reference(finished):
    """The finished sweep's games."""
    return load_results(finished)


# ---------------------------------------------------------------------------------------------
# load_results reads exactly the plan


def test_a_stray_copy_of_a_chunk_is_ignored_with_a_warning_naming_it(folder, reference):
    """A sync tool's copy `chunk-00001 (1).parquet` adds no game: the load warns with its name and reads 8 games."""
    shutil.copy(chunk_path(folder, 1), folder / "chunks" / "chunk-00001 (1).parquet")
    with pytest.warns(ResultsFolderWarning, match=r"chunk-00001 \(1\)\.parquet: not a chunk of this sweep's plan"):
        df = load_results(folder)
    assert len(df) == 8 and not df.duplicated(KEY).any()
    pd.testing.assert_frame_equal(df, reference)
    assert df.attrs["meta"]["ignored_files"] == ["chunk-00001 (1).parquet"]


def test_a_chunk_name_beyond_the_plan_is_ignored(folder, reference):
    """`chunk-00003.parquet` is a well-formed name but the plan has chunks 0 to 2 only: not read."""
    shutil.copy(chunk_path(folder, 0), chunk_path(folder, 3))
    with pytest.warns(ResultsFolderWarning, match=r"chunk-00003\.parquet: not a chunk"):
        df = load_results(folder)
    pd.testing.assert_frame_equal(df, reference)


def test_a_chunk_holding_another_chunks_games_is_refused(folder):
    """Chunk 1's file holding chunk 0's games (duplicates of planned games) is refused, naming the file."""
    shutil.copy(chunk_path(folder, 0), chunk_path(folder, 1))
    with pytest.raises(ValueError, match=r"chunk-00001\.parquet: row 0: .* where the plan has .*--resume"):
        load_results(folder)


def test_a_game_with_a_seed_other_than_planned_is_refused(folder):
    """Each game must carry its planned seed: one changed seed makes the load refuse the chunk."""
    df = pd.read_parquet(chunk_path(folder, 2))
    df.loc[1, "seed"] += 1
    df.to_parquet(chunk_path(folder, 2), index=False)
    with pytest.raises(ValueError, match=r"chunk-00002\.parquet: row 1: seed is \d+ where the plan has \d+"):
        load_results(folder)


def test_a_chunk_with_a_game_too_many_is_refused(folder):
    """A chunk with an extra row (the count per pair would exceed the plan's) is refused."""
    df = pd.read_parquet(chunk_path(folder, 2))
    pd.concat([df, df.tail(1)], ignore_index=True).to_parquet(chunk_path(folder, 2), index=False)
    with pytest.raises(ValueError, match=r"chunk-00002\.parquet: holds 3 games where the plan puts 2"):
        load_results(folder)


def test_a_truncated_chunk_is_refused_naming_the_file(folder):
    """Half a parquet file is refused with one line naming it and the way out, not a pyarrow traceback."""
    data = chunk_path(folder, 1).read_bytes()
    chunk_path(folder, 1).write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match=r"chunk-00001\.parquet: unreadable .*--resume") as err:
        load_results(folder)
    assert "\n" not in str(err.value)


def test_a_meta_json_without_a_full_plan_is_refused(folder):
    """A meta.json whose plan lacks the sweep's keys cannot vouch for the chunks: refused, naming the keys."""
    meta = json.loads((folder / "meta.json").read_text())
    del meta["plan"]["seed"], meta["plan"]["chunk_size"]
    (folder / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match=r"meta.json: plan: missing seed, chunk_size"):
        load_results(folder)


def test_a_plan_whose_chunk_count_does_not_add_up_is_refused(folder):
    """8 games in chunks of 3 make 3 chunks; a meta.json claiming 2 is refused."""
    meta = json.loads((folder / "meta.json").read_text())
    meta["plan"]["chunk_count"] = 2
    (folder / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match=r"plan: chunk_count is 2, but 8 games in chunks of 3 make 3"):
        load_results(folder)


def test_an_unfinished_sweep_loads_its_whole_chunks_and_says_so(folder):
    """With chunk 1 missing the load gives chunks 0 and 2 (5 games) and marks the sweep incomplete."""
    chunk_path(folder, 1).unlink()
    meta = load_results(folder).attrs["meta"]
    assert (meta["complete"], meta["missing_chunks"], meta["games_per_pair"]) == (False, 1, 2)
    assert len(load_results(folder)) == 5


def test_load_results_is_simkits_top_level_name(finished, reference):
    """`simkit.load_results(DIR)` is the documented entry point, listed in `simkit.__all__`."""
    assert "load_results" in simkit.__all__
    pd.testing.assert_frame_equal(simkit.load_results(finished), reference)


# ---------------------------------------------------------------------------------------------
# starting and resuming a sweep


def test_a_sweep_into_chunks_without_meta_json_is_refused(quick, folder, capsys):
    """Chunks with no meta.json belong to no known plan: a sweep there is refused in one line, nothing written."""
    (folder / "meta.json").unlink()
    with pytest.raises(ValueError, match=r"chunks/ holds 3 file\(s\) .* but there is no meta.json"):
        run_sweep(quick, small_plan(quick), folder, RunOptions(workers=1))
    assert main(["sweep", str(quick.path), "--games", "2", "--chunk-size", "3", "--out", str(folder),
                 "--decks", *TWO, "--resume"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no meta.json" in err[0]
    assert not (folder / "meta.json").exists()


def test_a_sweep_of_another_plan_into_a_folder_is_refused(quick, folder):
    """A folder holding a sweep with another seed is refused in one line naming the setting and both its values."""
    with pytest.raises(ValueError, match=r"holds a sweep with other settings: --seed 0 there, 1 here: repeat"):
        run_sweep(quick, small_plan(quick, seed=1), folder, RunOptions(workers=1, resume=True))


def test_resume_replays_a_truncated_chunk(quick, folder, reference):
    """--resume reads every chunk it keeps; a truncated one is named and played again."""
    data = chunk_path(folder, 1).read_bytes()
    chunk_path(folder, 1).write_bytes(data[:100])
    with pytest.warns(ResultsFolderWarning, match=r"chunk-00001\.parquet: unreadable .* played again"):
        run_sweep(quick, small_plan(quick), folder, RunOptions(workers=1, resume=True))
    pd.testing.assert_frame_equal(load_results(folder), reference)


def test_resume_replays_a_chunk_of_another_plan(quick, folder, reference, tmp_path):
    """A chunk from a sweep with another seed (right name, wrong games) is played again on --resume."""
    other = tmp_path / "other"
    run_sweep(quick, small_plan(quick, seed=1), other, RunOptions(workers=1))
    shutil.copy(chunk_path(other, 2), chunk_path(folder, 2))
    with pytest.warns(ResultsFolderWarning, match=r"chunk-00002\.parquet: row 0: seed .* played again"):
        run_sweep(quick, small_plan(quick), folder, RunOptions(workers=1, resume=True))
    pd.testing.assert_frame_equal(load_results(folder), reference)


def test_resume_does_not_crash_on_a_stray_name(quick, folder, reference):
    """A stray `chunk-00000 (1).parquet` is named and ignored by --resume, which plays the missing chunk."""
    shutil.copy(chunk_path(folder, 0), folder / "chunks" / "chunk-00000 (1).parquet")
    chunk_path(folder, 1).unlink()
    assert done_chunks(folder) == {0, 2}
    with pytest.warns(ResultsFolderWarning, match=r"chunk-00000 \(1\)\.parquet: not a chunk"):
        run_sweep(quick, small_plan(quick), folder, RunOptions(workers=1, resume=True))
    with pytest.warns(ResultsFolderWarning):
        pd.testing.assert_frame_equal(load_results(folder), reference)


def test_files_are_written_with_the_users_umask(quick, tmp_path):
    """meta.json and the chunks get mode 0666 less the umask (0644 under umask 022), as any file the user writes."""
    old = os.umask(0o022)
    try:
        run_sweep(quick, small_plan(quick), tmp_path / "out", RunOptions(workers=1))
    finally:
        os.umask(old)
    for path in [tmp_path / "out" / "meta.json", *sorted((tmp_path / "out" / "chunks").iterdir())]:
        assert oct(path.stat().st_mode & 0o777) == oct(0o644), path.name


def test_a_second_sweep_on_the_same_folder_is_refused_and_the_lock_dies_with_the_first(quick, short_scenario,
                                                                                       tmp_path):
    """While one sweep writes to DIR a second is refused at start; SIGKILL on the first frees the folder at once.

    The first sweep has 2 workers; only its main process is killed, so the folder must not stay
    locked by its orphaned workers."""
    out = tmp_path / "busy"
    cmd = [sys.executable, "-m", "simkit", "sweep", str(short_scenario), "--games", "50", "--chunk-size", "1",
           "--workers", "2", "--out", str(out), "--decks", *TWO]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
                            env=env)
    try:
        deadline = time.time() + 180
        while time.time() < deadline and len(done_chunks(out)) < 2 and proc.poll() is None:
            time.sleep(0.01)
        assert proc.poll() is None, "the first sweep ended before the second could start"
        plan = plan_sweep(quick, SweepSettings(games=50, decks=TWO, chunk_size=1))
        with pytest.raises(ValueError, match=rf"another sweep \(pid {proc.pid}\) is writing to this folder"):
            run_sweep(quick, plan, out, RunOptions(workers=1, resume=True))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        with folder_lock(out):
            pass
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
    assert len(done_chunks(out)) < plan.chunk_count, "the first sweep finished before it was killed"


# ---------------------------------------------------------------------------------------------
# bad input refused before anything is written


def test_an_unknown_bot_is_refused_when_the_sweep_is_planned(quick):
    """The game's bot_names are checked at planning, naming the bot and the known ones."""
    with pytest.raises(ValueError, match=r"unknown bot 'nobody' \(the scenario knows: random, balanced"):
        plan_sweep(quick, SweepSettings(games=1, decks=TWO, bots=("balanced", "nobody")))


def test_cli_unknown_bot_writes_nothing(short_scenario, tmp_path, capsys):
    """`--bots balanced,nobody` exits 2 with one line, and no results folder is made."""
    out = tmp_path / "o"
    assert main(["sweep", str(short_scenario), "--out", str(out), "--bots", "balanced,nobody"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "unknown bot 'nobody'" in err[0]
    assert not out.exists()


@pytest.mark.parametrize(
    "flags, message",
    [
        (["--workers", "1000"], "--workers: must be from 0 (one per core) to"),
        (["--workers", "-1"], "--workers: must be from 0 (one per core) to"),
        (["--seed", "-1"], "--seed: must be an integer from 0 to 9223372036854775807"),
        (["--seed", str(2**63)], "--seed: must be an integer from 0 to 9223372036854775807"),
    ],
)
def test_cli_workers_and_seed_out_of_range_are_refused(flags, message, short_scenario, tmp_path, capsys):
    """A worker count beyond 4 per core or below 0, or a seed outside 0..2**63-1, is one line and exit 2."""
    out = tmp_path / "o"
    assert main(["sweep", str(short_scenario), "--games", "1", "--decks", *TWO, "--out", str(out), *flags]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0], err
    assert not out.exists()


def test_sweep_table_workers_out_of_range_is_refused(tmp_path, capsys):
    """`[sweep] workers = 1000` is refused by `simkit sweep` naming the file and key, before any fork."""
    path = tmp_path / "many.toml"
    path.write_text(f'extends = "{QUICK}"\n[sweep]\nworkers = 1000\n')
    assert main(["sweep", str(path), "--games", "1", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert "many.toml: sweep.workers: must be from 0 (one per core) to" in err and "got 1000" in err
    assert not (tmp_path / "o").exists()


def test_run_sweep_refuses_workers_beyond_four_per_core(quick, tmp_path):
    """The library refuses 1000 workers too (1000 forks for 2 chunks), before making the folder."""
    with pytest.raises(ValueError, match=r"workers: must be from 0"):
        run_sweep(quick, small_plan(quick), tmp_path / "o", RunOptions(workers=1000))
    assert not (tmp_path / "o").exists()


def test_sweep_table_seed_out_of_range_is_refused_at_load(tmp_path):
    """`[sweep] seed = 2**63` would wrap in derive_seed's 64-bit fold; it is refused naming file and key."""
    path = tmp_path / "seed.toml"
    path.write_text(f'extends = "{QUICK}"\n[sweep]\nseed = {2**63}\n')
    with pytest.raises(simkit.ScenarioError, match=r"seed.toml: sweep.seed: must be at most 9223372036854775807"):
        simkit.load_scenario(path)


def test_a_negative_seed_is_refused_not_wrapped(quick):
    """plan_sweep(seed=-1) is refused: derive_seed would fold it to 2**64 - 1, another sweep's seed."""
    with pytest.raises(ValueError, match=r"seed: must be an integer from 0 to"):
        plan_sweep(quick, SweepSettings(games=1, decks=TWO, seed=-1))
