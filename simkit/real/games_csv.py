"""A studio's CSV of real games -> result rows, every value checked against the scenario.

The file has a header row and one game a row::

    first_deck,second_deck,winner,turns,end_reason,date,first_player,second_player
    "HolyLight:Archer,Priest,Swordsman","InfernoFlame:BlackBat,FrostDragon,VolcanoDragon",second,100,turn_limit,...

``first_deck`` and ``second_deck`` are deck ids of the scenario's game (any spelling its ``canonical_deck``
accepts; the rows keep the canonical id), ``winner`` is ``first``, ``second`` or ``draw``, ``turns`` the game's
length in its own turns (at most its turn limit), ``end_reason`` one of the game's end reasons (its result
schema). ``date``, ``first_player``, ``second_player``, ``seed`` and ``note`` may be given and are kept; any other
column is refused (a misspelt column would otherwise vanish silently).
"""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd

from simkit.core.errors import ScenarioError
from simkit.core.seats import WINNERS

__all__ = ["CSV_COLUMNS", "OPTIONAL_COLUMNS", "read_games_csv"]

#: the columns every real-games CSV has
CSV_COLUMNS = ("first_deck", "second_deck", "winner", "turns", "end_reason")
#: the columns it may have, kept as text in the rows (``seed`` kept as a number when given)
OPTIONAL_COLUMNS = ("date", "first_player", "second_player", "seed", "note")


def _bad(path: Path, line: int, column: str, value: str, problem: str) -> ValueError:
    """The one line naming the file, its line, the column and the value."""
    return ValueError(f"{path}: line {line}: {column} {value!r}: {problem}")


def read_games_csv(path: str | Path, scenario) -> pd.DataFrame:
    """The games of a real-games CSV as result rows of ``scenario``'s game (before the folder adds its columns).

    Args:
        path: the CSV file (UTF-8, a header row, one game a row).
        scenario: the loaded :class:`simkit.Scenario` the games were played under (its decks and end reasons).

    Returns:
        DataFrame ``first_deck, second_deck, winner, end_reason, turns, seed, source`` (``source``:
        ``FILE:LINE``), plus the optional columns the file has; decks as canonical ids, ``seed`` -1 where the
        file gives none.

    Raises:
        ValueError: one line naming the file, the line, the column and the value: a missing or unknown column, a
            deck the scenario's game does not allow, a winner, length or end reason the game cannot record; or a
            file with no game.
    """
    path = Path(path)
    game = scenario.game
    reasons = tuple(game.schema.end_reasons)
    limit = game.turn_limit
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not a UTF-8 text file ({exc.reason} at byte {exc.start})") from None
    reader = csv.reader(text.splitlines())
    header = [h.strip() for h in next(reader, [])]
    if not any(header):
        raise ValueError(f"{path}: empty: the first line names the columns ({', '.join(CSV_COLUMNS)})")
    missing = [c for c in CSV_COLUMNS if c not in header]
    if missing:
        raise ValueError(f"{path}: line 1: missing column {missing[0]!r} (the columns: {', '.join(CSV_COLUMNS)}; "
                         f"optional: {', '.join(OPTIONAL_COLUMNS)})")
    unknown = [h for h in header if h not in CSV_COLUMNS + OPTIONAL_COLUMNS]
    if unknown:
        raise ValueError(f"{path}: line 1: unknown column {unknown[0]!r} (the columns: {', '.join(CSV_COLUMNS)}; "
                         f"optional: {', '.join(OPTIONAL_COLUMNS)})")
    twice = [h for h in header if header.count(h) > 1]
    if twice:
        raise ValueError(f"{path}: line 1: column {twice[0]!r} given twice")
    rows, canonical = [], {}
    for line, cells in enumerate(reader, start=2):
        if not any(c.strip() for c in cells):
            continue  # a blank line
        if len(cells) != len(header):
            raise ValueError(f"{path}: line {line}: {len(cells)} values where the header names {len(header)} "
                             "columns (a deck id with a comma must be quoted)")
        row = {h: c.strip() for h, c in zip(header, cells)}
        for seat in ("first_deck", "second_deck"):
            deck = row[seat]
            if deck not in canonical:
                try:
                    canonical[deck] = game.canonical_deck(deck)
                except ScenarioError as exc:
                    raise _bad(path, line, seat, deck, f"not a deck of {scenario.path.name} ({exc})") from None
            row[seat] = canonical[deck]
        if row["winner"] not in WINNERS:
            raise _bad(path, line, "winner", row["winner"], f"must be one of {', '.join(WINNERS)}")
        turns = row["turns"]
        if not (turns.isascii() and turns.isdigit()) or int(turns) < 1:
            raise _bad(path, line, "turns", turns, "must be a whole number of turns, 1 or more")
        if limit is not None and int(turns) > limit:
            raise _bad(path, line, "turns", turns, f"beyond the game's turn limit {limit} in {scenario.path.name}")
        if row["end_reason"] not in reasons:
            raise _bad(path, line, "end_reason", row["end_reason"],
                       f"not an end reason of {game.title} (one of {', '.join(reasons)})")
        seed = row.get("seed", "")
        if seed and not (seed.lstrip("-").isascii() and seed.lstrip("-").isdigit()):
            raise _bad(path, line, "seed", seed, "must be a whole number (or left empty)")
        rows.append({"first_deck": row["first_deck"], "second_deck": row["second_deck"], "winner": row["winner"],
                     "end_reason": row["end_reason"], "turns": int(turns), "seed": int(seed) if seed else -1,
                     "source": f"{path.name}:{line}",
                     **{c: row[c] for c in OPTIONAL_COLUMNS if c in row and c != "seed"}})
    if not rows:
        raise ValueError(f"{path}: holds no game (only its header)")
    return pd.DataFrame(rows)
