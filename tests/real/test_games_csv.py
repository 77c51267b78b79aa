"""A studio's CSV of real games: good rows become result rows with canonical decks; every bad value is refused in
one line naming the file, line, column and value."""

from __future__ import annotations

import pytest

from simkit.real import read_games_csv

A = "HolyLight:Archer,Priest,Swordsman"
B = "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"
HEADER = "first_deck,second_deck,winner,turns,end_reason"


def write(tmp_path, *lines: str, name: str = "games.csv"):
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_rows_keep_canonical_decks_and_the_optional_columns(tmp_path, base):
    """A deck written in any order of its cards is kept as its canonical id; date and players are kept; a game
    without a seed gets -1; each row names its file and line."""
    path = write(tmp_path, HEADER + ",date,first_player,second_player",
                 f'"HolyLight:Swordsman,Archer,Priest","{B}",second,100,turn_limit,2020-03-01,ann,bob',
                 "",
                 f'"{B}","{A}",first,42,miracle,2020-03-02,bob,ann')
    df = read_games_csv(path, base)
    assert list(df["first_deck"]) == [A, B] and list(df["second_deck"]) == [B, A]
    assert list(df["winner"]) == ["second", "first"] and list(df["turns"]) == [100, 42]
    assert list(df["seed"]) == [-1, -1] and list(df["first_player"]) == ["ann", "bob"]
    assert list(df["source"]) == ["games.csv:2", "games.csv:4"]


@pytest.mark.parametrize("row, named", [
    (f'"HolyLight:Archer,Archer,Priest","{B}",first,40,miracle', "line 2: first_deck 'HolyLight:Archer,Archer,Priest'"),
    (f'"{A}","Nothing:A,B,C",first,40,miracle', "line 2: second_deck 'Nothing:A,B,C'"),
    (f'"{A}","{B}",1,40,miracle', "line 2: winner '1': must be one of first, second, draw"),
    (f'"{A}","{B}",first,101,turn_limit', "line 2: turns '101': beyond the game's turn limit 100"),
    (f'"{A}","{B}",first,0,miracle', "line 2: turns '0'"),
    (f'"{A}","{B}",first,forty,miracle', "line 2: turns 'forty'"),
    (f'"{A}","{B}",first,40,surrender', "line 2: end_reason 'surrender': not an end reason of Battle of Miracles"),
    (f'{A},"{B}",first,40,miracle', "line 2: 7 values where the header names 5 columns"),
])
def test_a_bad_value_is_refused_naming_file_line_column_and_value(tmp_path, base, row, named):
    """Each bad value stops the read with one line: the file, the line, the column and the value."""
    path = write(tmp_path, HEADER, row)
    with pytest.raises(ValueError) as err:
        read_games_csv(path, base)
    assert str(err.value).startswith(f"{path}: ") and named in str(err.value)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("header, named", [
    ("first_deck,second_deck,winner,turns", "line 1: missing column 'end_reason'"),
    (HEADER + ",winer", "line 1: unknown column 'winer'"),
    (HEADER + ",date,date", "line 1: column 'date' given twice"),
])
def test_a_missing_or_unknown_column_is_refused(tmp_path, base, header, named):
    """The header must name the five columns and may add only the known optional ones (a typo is not dropped)."""
    path = write(tmp_path, header, f'"{A}","{B}",first,40,miracle')
    with pytest.raises(ValueError, match=named):
        read_games_csv(path, base)


def test_a_file_of_only_a_header_holds_no_game(tmp_path, base):
    """A CSV with no game is refused rather than imported empty."""
    with pytest.raises(ValueError, match="holds no game"):
        read_games_csv(write(tmp_path, HEADER), base)
