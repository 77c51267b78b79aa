"""Issue 36, bad input and failing writes: one line naming the file or option and exit status 2, never a
traceback (items 19 and 20, the parts outside sweep and tune).

A read-only or impossible output folder is made as a path under a file (tests run as root, whom
chmod does not stop), and a file name too long for the file system by a 300-character name.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from results_folders import write_sweep_folder

from simkit import load_scenario
from simkit.cli import main
from simkit.core.errors import ScenarioError
from simkit.testing.synthetic import synthetic_results

ROOT = Path(__file__).resolve().parents[2]
DUEL_QUICK = ROOT / "scenarios" / "duel" / "quick.toml"
DUEL_A, DUEL_B = "Dagger+Longbow:Frost,Mend,Reflect", "Greataxe+Spear:Rage,ShadowBolt,Venom"
LONG = "x" * 300


def _one_line(capsys, *words: str) -> str:
    # the one-time compile notice of a fresh install is a line of its own, said before the command's work
    err = "\n".join(line for line in capsys.readouterr().err.strip().splitlines()
                    if "once for this install" not in line and not line.startswith("  compiling: "))
    assert len(err.splitlines()) == 1, err
    for w in words:
        assert w in err, err
    assert "Traceback" not in err
    return err


@pytest.fixture
def under_a_file(tmp_path) -> Path:
    """A folder path that can never be created: its parent is a file."""
    blocker = tmp_path / "file.txt"
    blocker.write_text("a file, not a folder")
    return blocker / "sub"


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> Path:
    """A finished sweep's results folder (synthetic, 3 decks)."""
    decks = ["HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon",
             "WindBlessing:BlackBat,Priest,VolcanoDragon"]
    return write_sweep_folder(synthetic_results(decks, 3, seed=2), tmp_path_factory.mktemp("res") / "results")


# -- play ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", ["-1", "18446744073709551616", "9223372036854775808"])
def test_play_refuses_a_seed_outside_0_to_2_63(capsys, seed):
    """`play --seed` takes 0..2**63-1; -1 and 2**64 are refused in one line naming --seed."""
    assert main(["play", str(DUEL_QUICK), DUEL_A, DUEL_B, "--seed", seed]) == 2
    _one_line(capsys, "--seed", seed)


def test_play_json_that_cannot_be_written_is_one_line(capsys, tmp_path, under_a_file):
    """`play --json` into a folder under a file, or under a name too long, ends in one line naming --json."""
    for target in (under_a_file / "g.json", tmp_path / f"{LONG}.json"):
        assert main(["play", str(DUEL_QUICK), DUEL_A, DUEL_B, "--json", str(target)]) == 2
        _one_line(capsys, "--json", str(target), "cannot write")
    assert list(tmp_path.iterdir()) == [under_a_file.parent]


# -- replay -------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def duel_record(tmp_path_factory) -> Path:
    """A recorded Card Duel game."""
    path = tmp_path_factory.mktemp("rec") / "game.json"
    assert main(["play", str(DUEL_QUICK), DUEL_A, DUEL_B, "--json", str(path)]) == 0
    return path


def test_replay_output_that_cannot_be_written_is_one_line(capsys, duel_record, tmp_path, under_a_file):
    """`replay -o` under a file or with a name too long: one line naming -o and the file."""
    for target in (under_a_file / "g.txt", tmp_path / f"{LONG}.txt"):
        assert main(["replay", str(duel_record), "-o", str(target)]) == 2
        _one_line(capsys, "-o", str(target), "cannot write")


def test_replay_of_a_non_utf8_file_names_it(capsys, tmp_path):
    """A record that is not UTF-8 text is refused naming the file, not with a codec's message."""
    bad = tmp_path / "game.json"
    bad.write_bytes(b"\xff\xfe{}")
    assert main(["replay", str(bad), "-o", str(tmp_path / "x.txt")]) == 2
    _one_line(capsys, str(bad), "not UTF-8")


# -- report -------------------------------------------------------------------------------------------


def test_report_that_cannot_be_written_is_one_line(capsys, results, tmp_path, under_a_file):
    """`report -o` under a file, or a name too long: one line naming the PDF; nothing is left behind."""
    for target in (under_a_file / "r.pdf", tmp_path / f"{LONG}.pdf"):
        assert main(["report", str(results), "-o", str(target), "--bootstrap", "2"]) == 2
        _one_line(capsys, str(target), "cannot write")
    assert list(tmp_path.iterdir()) == [under_a_file.parent]


def test_report_refuses_a_negative_seed(capsys, results, tmp_path):
    """`report --seed -1` is refused in one line naming --seed."""
    assert main(["report", str(results), "-o", str(tmp_path / "r.pdf"), "--seed", "-1"]) == 2
    _one_line(capsys, "--seed")


# -- check --------------------------------------------------------------------------------------------


def test_check_refuses_a_negative_seed(capsys):
    """`check --seed -1` names --seed (numpy's 'expected non-negative integer' named nothing)."""
    assert main(["check", str(DUEL_QUICK), "--seed", "-1", "--examples", "1"]) == 2
    _one_line(capsys, "--seed must be 0 or more")


@pytest.mark.parametrize("case", ["missing", "not utf-8", "not json", "no cases"])
def test_check_replay_names_the_option_and_the_file(capsys, tmp_path, case):
    """Every refusal of `check --replay CASE` names --replay and the case file."""
    path = tmp_path / "case.json"
    if case == "not utf-8":
        path.write_bytes(b"\xff\xfe")
    elif case == "not json":
        path.write_text("{not json")
    elif case == "no cases":
        path.write_text("{}")
    assert main(["check", str(DUEL_QUICK), "--replay", str(path)]) == 2
    _one_line(capsys, f"--replay {path}")


# -- [sweep] table of a scenario -----------------------------------------------------------------------


@pytest.mark.parametrize("table, key, words", [
    ('bots = ["aggro", "nobody"]', "sweep.bots", "unknown bot 'nobody'"),
    ('panel = ["aggro", "nobody"]', "sweep.panel", "unknown bot 'nobody'"),
    ('panel = ["aggro", "control", "aggro"]', "sweep.panel", "names a bot twice (aggro)"),
    ('decks = ["Nope:*"]', "sweep.decks", "'Nope:*' matches no deck"),
])
def test_bad_sweep_table_is_refused_at_load_naming_file_and_key(tmp_path, table, key, words):
    """Bad bots, panel or deck patterns in [sweep] are refused when the scenario loads, naming the file and
    the [sweep] key (not `--panel`, which the user never typed)."""
    path = tmp_path / "patch.toml"
    path.write_text(f'extends = "{DUEL_QUICK}"\n[sweep]\n{table}\n')
    with pytest.raises(ScenarioError) as err:
        load_scenario(path)
    msg = str(err.value)
    assert msg.startswith(f"{path}: {key}: ") and words in msg and "--panel" not in msg


# -- a full disk ----------------------------------------------------------------------------------------


@pytest.fixture
def full_disk(monkeypatch):
    """Every rename of a finished temporary file fails as on a full disk (ENOSPC), as a write would."""
    import errno
    import os

    import simkit.core.files

    def no_space(src, dst):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC), str(src))

    monkeypatch.setattr(simkit.core.files.os, "replace", no_space)


def test_a_full_disk_is_one_line_and_keeps_earlier_files(capsys, tmp_path, results, duel_record, full_disk):
    """On a full disk `play --json`, `replay -o` and `report -o` end with one line naming the file, the earlier
    files stay whole and no temporary file is left."""
    old = tmp_path / "old"
    old.mkdir()
    for name in ("g.json", "g.txt", "r.pdf"):
        (old / name).write_text("earlier")
    runs = [
        (["play", str(DUEL_QUICK), DUEL_A, DUEL_B, "--json", str(old / "g.json")], "--json"),
        (["replay", str(duel_record), "-o", str(old / "g.txt")], "-o"),
        (["report", str(results), "-o", str(old / "r.pdf"), "--bootstrap", "2"], str(old / "r.pdf")),
    ]
    for argv, names in runs:
        assert main(argv) == 2
        _one_line(capsys, names, "No space left on device")
    assert sorted(p.name for p in old.iterdir()) == ["g.json", "g.txt", "r.pdf"]
    assert all((old / n).read_text() == "earlier" for n in ("g.json", "g.txt", "r.pdf"))
