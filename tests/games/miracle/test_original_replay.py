"""The original server's replay files: a simkit game written in the format (doc/Replayer.md of Zijing-Studio/Artifact)
replays through the engine with nothing to say; an altered one names the refused action or the differing state,
with the file and round."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

import simkit
from simkit.games.miracle.original_replay import (
    ATTACK,
    DEATH,
    DECK,
    GAME_END,
    MOVE,
    read_records,
    replay_file,
    write_replay,
)
from simkit.games.miracle.outside import match_record

ROOT = Path(__file__).resolve().parents[3]
A = "HolyLight:Archer,Priest,Swordsman"
B = "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"


@pytest.fixture(scope="module")
def original():
    """The base rules with the original server's end rule."""
    return simkit.load_scenario(ROOT / "scenarios" / "miracle" / "original-end.toml")


@pytest.fixture(scope="module")
def played(original):
    """A game of A against B between two utility bots (seed 7), as a Match."""
    out = original.game.play_batch([A], [B], [7], ["balanced", "rush"], record_actions=True)
    return original.game.replay(A, B, out["action_list"][0])


def ints(path: Path) -> list[int]:
    data = path.read_bytes()
    return list(struct.unpack(f">{len(data) // 4}i", data))


def rewrite(path: Path, records: list[tuple[int, ...]], out: Path) -> Path:
    """``path``'s first record, then ``records``, then -1."""
    head = ints(path)[:7]
    body = [v for r in records for v in r]
    out.write_bytes(struct.pack(f">{7 + len(body) + 1}i", *head, *body, -1))
    return out


def test_the_written_file_has_the_documented_framing(played, tmp_path):
    """Big-endian 32-bit integers: 0 0 0 map time 0 0 first, records of seven, -1 last; both decks as event 11."""
    path = write_replay(played, tmp_path / "game.rpy", map_type=1, day_time=0)
    values = ints(path)
    assert values[:7] == [0, 0, 0, 1, 0, 0, 0] and values[-1] == -1 and (len(values) - 8) % 7 == 0
    records = read_records(path)
    decks = [r for r in records if r[1] == DECK]
    assert decks == [(0, DECK, 0, 1, 2, 4, 1), (0, DECK, 1, 13, 13, 16, 15)]  # in the deck ids' order
    assert records[-1][1] == GAME_END and records[-1][2] == {"first": 0, "second": 1}[played.winner]


def test_a_faithful_replay_reproduces_the_game_with_nothing_to_say(played, original, tmp_path):
    """Replayed action by action, the record and simkit's engine agree at every step: no finding, and the row is the
    game's own record (winner, end reason, turns, miracle HP, counters)."""
    row, found = replay_file(original, write_replay(played, tmp_path / "game.rpy"))
    assert found == []
    same = {k: (row[k] if row[k] == row[k] else "NaN") for k in match_record(played)}  # NaN (no uncertainty): equal
    assert same == {k: (v if v == v else "NaN") for k, v in match_record(played).items()}
    assert row["actions"] == len(played.actions) and row["seed"] == -1 and row["source"] == "game.rpy"


def test_an_altered_move_is_refused_and_named(played, original, tmp_path):
    """A move sent far off its unit's reach is refused by the engine: the line names the file, the round, the move
    and the engine's reason."""
    path = write_replay(played, tmp_path / "game.rpy")
    records = read_records(path)
    i = next(i for i, r in enumerate(records) if r[1] == MOVE)
    r = records[i]
    records[i] = (r[0], MOVE, r[2], 7, -6, 0, 0)  # the enemy miracle's doorstep, beyond any move
    _, found = replay_file(original, rewrite(path, records, tmp_path / "altered.rpy"))
    assert found[0].startswith(f"{tmp_path / 'altered.rpy'}: round {r[0]}: unit {r[2]} moves to (7, -6, -1): refused "
                               f"by simkit's engine: move: unit {r[2] - 1} ")
    assert "no legal path" in found[0]


def test_a_death_the_engine_did_not_cause_is_a_differing_state(played, original, tmp_path):
    """A unit the record kills but the engine leaves alive is said once, with the round."""
    path = write_replay(played, tmp_path / "game.rpy")
    records = read_records(path)
    i = next(i for i, r in enumerate(records) if r[1] == ATTACK)
    victim = records[i][2]
    records.insert(i + 1, (records[i][0], DEATH, victim, 0, 0, 0, 0))
    _, found = replay_file(original, rewrite(path, records, tmp_path / "altered.rpy"))
    assert any(f"round {records[i][0]}: unit {victim} died in the record; simkit's unit {victim - 1}" in line
               for line in found)


def test_a_game_the_server_ended_early_is_a_forfeit_row(played, original, tmp_path):
    """A record cut before the rules' end with the server's verdict (a surrender or timeout) keeps the server's
    winner as a forfeit of the loser, and says that simkit's game was not over."""
    path = write_replay(played, tmp_path / "game.rpy")
    records = read_records(path)
    cut = [r for r in records if r[0] < 10] + [(10, GAME_END, 1, 0, 0, 0, 0)]
    row, found = replay_file(original, rewrite(path, cut, tmp_path / "cut.rpy"))
    assert row["winner"] == "second" and row["end_reason"] == "forfeit" and row["forfeit_seat"] == "first"
    assert found[-1].endswith("simkit's game is not over at the record's end; the server ended it for second")


@pytest.mark.parametrize("data, problem", [
    (b"\0\0\0", "not whole 32-bit integers"),
    (struct.pack(">8i", 1, 0, 0, 0, 0, 0, 0, -1), "it opens with 0 0 0 map time 0 0"),
    (struct.pack(">10i", 0, 0, 0, 0, 0, 0, 0, 5, 5, -1), "a record is cut short"),
])
def test_a_file_that_is_not_a_replay_is_refused_in_one_line(tmp_path, data, problem):
    """Not 32-bit integers, no opening record or closing -1, or a record cut short: one line naming the file."""
    path = tmp_path / "x.rpy"
    path.write_bytes(data)
    with pytest.raises(ValueError, match=problem) as err:
        read_records(path)
    assert str(err.value).startswith(f"{path}: ")
