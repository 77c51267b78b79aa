"""The real-games folder: written all at once, read by load_results like a sweep's, honest about what a real game
lacks (bots, seeds, actions), and never written over a sweep or half-written on a refusal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import simkit
from simkit.real import REAL_BOT, import_games

A = "HolyLight:Archer,Priest,Swordsman"
B = "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"
HEADER = "first_deck,second_deck,winner,turns,end_reason"
ROOT = Path(__file__).resolve().parents[2]


def csv_file(tmp_path, rows: list[str], name: str = "games.csv"):
    path = tmp_path / name
    path.write_text("\n".join([HEADER, *rows]) + "\n", encoding="utf-8")
    return path


def test_imported_games_load_like_a_sweep_with_real_players(tmp_path, base):
    """load_results gives every game once, numbered within its pairing, with bots 'real', seed and actions -1, the
    scenario's hash, and a meta that says the games are real and where they came from."""
    path = csv_file(tmp_path, [f'"{A}","{B}",second,100,turn_limit', f'"{A}","{B}",first,50,miracle',
                               f'"{B}","{A}",draw,100,turn_limit'])
    import_games([path], base, tmp_path / "real")
    assert sorted(p.name for p in (tmp_path / "real").iterdir()) == ["games.csv", "games.parquet", "meta.json"]
    df = simkit.load_results(tmp_path / "real")
    assert list(df["game"]) == [0, 1, 0] and set(df["first_bot"]) == set(df["second_bot"]) == {REAL_BOT}
    assert set(df["seed"]) == {-1} and set(df["actions"]) == {-1} and set(df["scenario_hash"]) == {base.hash}
    meta = df.attrs["meta"]
    assert meta["source"] == "real games" and meta["imported_from"] == [str(path)] and meta["complete"]
    assert meta["decks"] == meta["second_decks"] == [A, B] and meta["bots"] == [REAL_BOT, REAL_BOT]
    simkit.analysis.check_results(df)  # the results contract holds


def test_pairings_nobody_played_are_not_required(tmp_path, base):
    """Real games need not cover every ordered pairing (a sweep must): the contract accepts the pairings played."""
    import_games([csv_file(tmp_path, [f'"{A}","{B}",first,30,miracle'])], base, tmp_path / "real")
    df = simkit.load_results(tmp_path / "real")
    assert len(df) == 1
    simkit.analysis.check_results(df)


def test_a_refused_import_writes_nothing(tmp_path, base):
    """A bad row in the second file stops the import before any file is written: no folder appears."""
    good = csv_file(tmp_path, [f'"{A}","{B}",first,30,miracle'])
    bad = csv_file(tmp_path, [f'"{A}","{B}",first,30,fell'], name="bad.csv")
    with pytest.raises(ValueError, match="bad.csv: line 2: end_reason 'fell'"):
        import_games([good, bad], base, tmp_path / "real")
    assert not (tmp_path / "real").exists()


def test_a_sweep_folder_is_never_written_over(tmp_path, base):
    """A folder holding anything but real games is refused; real games are replaced only with overwrite."""
    sweep = tmp_path / "sweep"
    sweep.mkdir()
    (sweep / "meta.json").write_text(json.dumps({"plan": {}}))
    path = csv_file(tmp_path, [f'"{A}","{B}",first,30,miracle'])
    with pytest.raises(ValueError, match="not real games"):
        import_games([path], base, sweep)
    assert json.loads((sweep / "meta.json").read_text()) == {"plan": {}}
    import_games([path], base, tmp_path / "real")
    with pytest.raises(ValueError, match="pass --overwrite"):
        import_games([path], base, tmp_path / "real")
    import_games([path, path], base, tmp_path / "real", overwrite=True)
    assert len(simkit.load_results(tmp_path / "real")) == 2


def test_a_replay_for_a_game_without_a_replay_format_is_refused(tmp_path):
    """A file that is not .csv is read by the game's original_replay capability; a game without one refuses it."""
    duel = simkit.load_scenario(ROOT / "scenarios" / "duel" / "base.toml")
    path = tmp_path / "game.rpy"
    path.write_bytes(b"\0")
    with pytest.raises(ValueError, match="has no replay format simkit reads"):
        import_games([path], duel, tmp_path / "real")
