"""The real-games folder: games people played, shaped like a sweep's results so every table reads them.

``DIR/meta.json`` describes the games as a sweep's does (scenario name, path, hash and text, rules version, the
two seat pools, the game's result schema, every deck's cards) and says ``"source": "real games"`` with the files
the games came from; ``DIR/games.parquet`` holds the rows (``DIR/games.csv`` the same rows for a spreadsheet).
The three files are written together (:func:`simkit.core.files.atomic_files`): a refused import leaves nothing.

What a real game does not have is said, never invented: both bots are ``"real"`` (:data:`REAL_BOT`), a game
without a known seed has seed -1 and one whose actions were not recorded has ``actions`` -1. The pools are the decks
the games used, and only the pairings played are in the rows (a sweep plays every one).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from simkit.core import __version__, files

__all__ = ["REAL_BOT", "REAL_SOURCE", "ROWS", "import_games", "is_real", "load_real_results", "real_facts",
           "write_real_folder"]

#: what ``meta.json`` says in ``source``, and the name both seats' bot columns hold
REAL_SOURCE = "real games"
REAL_BOT = "real"
#: the rows' files in the folder
ROWS, ROWS_CSV, META = "games.parquet", "games.csv", "meta.json"


def is_real(meta: dict) -> bool:
    """Whether a results folder's ``meta.json`` (or a results DataFrame's ``attrs["meta"]``) holds real games."""
    return isinstance(meta, dict) and meta.get("source") == REAL_SOURCE


def real_facts(meta: dict) -> list[str]:
    """What a report says of real games where it says a sweep's bots and dates: who played (people, not bots),
    where the games came from, and what a report therefore cannot show (no game is played again)."""
    sources = [Path(p).name for p in meta.get("imported_from") or []]
    shown = ", ".join(sources[:3]) + (f" and {len(sources) - 3} more" if len(sources) > 3 else "")
    return [f"Players: people, not bots: {meta.get('games', '?')} real games imported from {shown or '?'} on "
            f"{str(meta.get('imported') or '?')[:10]}",
            "Real games are not played again: no game page or replay shows one, and nothing here is said of a bot"]


def _rows(scenario, parts: Sequence[pd.DataFrame]) -> pd.DataFrame:
    """The folder's rows: the parts' games in order, numbered within each ordered pairing, with the columns a
    sweep adds (bots, scenario hash, rules version). A game's own columns (the schema's side columns, the
    counters) are kept only where every game has them."""
    df = pd.concat(list(parts), ignore_index=True)
    df["game"] = df.groupby(["first_deck", "second_deck"], sort=False).cumcount()
    df["first_bot"] = df["second_bot"] = REAL_BOT
    if "actions" not in df.columns:
        df["actions"] = -1
    df["actions"] = df["actions"].fillna(-1).astype("int64")
    df["seed"] = df["seed"].fillna(-1).astype("int64")
    df["scenario_hash"], df["rules_version"] = scenario.hash, scenario.rules_version
    partial = [c for c in df.columns if df[c].isna().any()]
    text = {"date", "first_player", "second_player", "note", "source"}
    df = df.drop(columns=[c for c in partial if c not in text])
    for c in text & set(df.columns):
        df[c] = df[c].fillna("").astype(str)
    core = ["first_deck", "second_deck", "game", "seed", "winner", "end_reason", "turns", "first_bot",
            "second_bot", "actions", "scenario_hash", "rules_version"]
    return df[core + [c for c in df.columns if c not in core]]


def _pools(scenario, df: pd.DataFrame) -> tuple[list[str], list[str]]:
    """The two seat pools: the decks the games used, split by the game's seats (every deck in both when its seats
    are alike). A deck played in a seat whose pool does not hold it is refused naming the game."""
    decks = sorted(set(df["first_deck"]) | set(df["second_deck"]))
    pools = scenario.game.seat_decks(decks)
    for seat, pool in (("first_deck", pools.first), ("second_deck", pools.second)):
        wrong = ~df[seat].isin(pool)
        if wrong.any():
            r = df[wrong].iloc[0]
            raise ValueError(f"{r['source']}: {seat} {r[seat]!r}: {scenario.game.title} does not seat it "
                             f"{seat.split('_')[0]} (its pool there: {', '.join(pool[:3])}, ...)")
    return list(pools.first), list(pools.second)


def write_real_folder(out: str | Path, scenario, parts: Sequence[pd.DataFrame], sources: Sequence[str],
                      overwrite: bool = False, notes: Sequence[str] = ()) -> pd.DataFrame:
    """Write real games as a results folder.

    Args:
        out: the folder (created; it must be empty or missing, or hold real games when ``overwrite``).
        scenario: the loaded scenario the games were played under.
        parts: rows of games (:func:`simkit.real.read_games_csv`, a game's replay importer), each with
            ``first_deck, second_deck, winner, end_reason, turns, seed, source``.
        sources: the files the games came from (recorded in ``meta.json``).
        overwrite: replace the games of a real-games folder already there.
        notes: what the import found worth saying (each replayed action refused or state that differed),
            recorded in ``meta.json``.

    Returns:
        the rows written.

    Raises:
        ValueError: one line: ``out`` holds a sweep or other files, or real games without ``overwrite``; a deck
            in a seat the game does not seat it; the folder cannot be written.
    """
    out = Path(out)
    for inside in (out / META, out / ROWS, out / ROWS_CSV):
        files.refuse_symlink(inside)
    if out.exists() and not out.is_dir():
        raise ValueError(f"{out}: not a folder")
    held = sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) if out.is_dir() else []
    if held:
        try:
            theirs = json.loads((out / META).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            theirs = None
        if not is_real(theirs):
            raise ValueError(f"{out}: holds {held[0]}{' and more' if len(held) > 1 else ''}, not real games: "
                             "choose an empty or new folder for the import")
        if not overwrite:
            raise ValueError(f"{out}: already holds imported real games: pass --overwrite to replace them, or choose "
                             "another -o")
    df = _rows(scenario, parts)
    first, second = _pools(scenario, df)
    now = datetime.now(UTC).isoformat(timespec="seconds")
    meta = {
        "source": REAL_SOURCE,
        "imported_from": list(map(str, sources)),
        "imported": now,
        "notes": list(notes),
        "scenario_name": scenario.name,
        "scenario_path": str(scenario.path),
        "scenario_hash": scenario.hash,
        "rules_version": scenario.rules_version,
        "scenario_text": scenario.text,
        "simkit_version": __version__,
        "started": now,
        "finished": now,
        "games": len(df),
        "decks": first,
        "second_decks": second,
        **({"seat_terms": list(terms)} if (terms := scenario.game.seat_terms()) else {}),
        "bots": [REAL_BOT, REAL_BOT],
        "panel": [],
        "game": scenario.game_name,
        "schema": scenario.game.schema.as_meta(),
        "deck_cards": {d: {k: list(v) for k, v in scenario.game.deck_cards(d).items()}
                       for d in dict.fromkeys(first + second)},
    }
    try:
        with files.atomic_files([out / ROWS, out / ROWS_CSV, out / META]) as temps:
            df.to_parquet(temps[out / ROWS], index=False)
            df.to_csv(temps[out / ROWS_CSV], index=False)
            temps[out / META].write_text(json.dumps(meta, indent=2, ensure_ascii=False), encoding="utf-8")
    except OSError as exc:
        raise files.cannot_write(str(out), exc) from None
    df.attrs["meta"] = meta
    return df


def import_games(paths: Sequence[str | Path], scenario, out: str | Path, overwrite: bool = False,
                 report=print) -> pd.DataFrame:
    """Import real games from CSV files (:func:`simkit.real.read_games_csv`) and, for a game that has an
    ``original_replay`` capability, its original server's replay files (any other suffix), into a results folder.

    Every file is read and checked before anything is written. A replay's refused actions and differing states
    are each said through ``report`` (one line: file, round, action, what differs) and recorded in ``meta.json``.

    Args:
        paths: the files to import.
        scenario: the loaded scenario the games were played under.
        out: the results folder to write (:func:`write_real_folder`).
        overwrite: replace the games of a real-games folder already at ``out``.
        report: where each replay's findings are said, one line each.

    Returns:
        the rows written.

    Raises:
        ValueError: one line naming the file, row or round and the value: a file that cannot be read or is
            wrong (see :func:`simkit.real.read_games_csv`), a replay given for a game that has no replay format.
    """
    from simkit.real.games_csv import read_games_csv

    if not paths:
        raise ValueError("no file to import: give CSV files of games (or, for Battle of Miracles, replays)")
    parts, notes = [], []
    replay = scenario.game.capability("original_replay")
    for path in map(Path, paths):
        if not path.is_file():
            raise ValueError(f"{path}: no such file")
        if path.suffix.lower() == ".csv":
            parts.append(read_games_csv(path, scenario))
            continue
        if replay is None:
            raise ValueError(f"{path}: not a .csv file, and {scenario.game.title} has no replay format simkit reads")
        row, found = replay(path)
        for line in found:
            report(line)
        notes += found
        parts.append(pd.DataFrame([row]))
    return write_real_folder(out, scenario, parts, [str(p) for p in paths], overwrite=overwrite, notes=notes)


def load_real_results(out: str | Path, meta: dict) -> pd.DataFrame:
    """The games of a real-games folder, one row each, sorted by (first_deck, second_deck, game), with
    ``attrs["meta"]`` as :func:`simkit.load_results` gives a sweep's (``complete``: every game is there).

    Raises:
        ValueError: the rows file is missing or unreadable, or holds another count of games than ``meta.json``.
    """
    out = Path(out)
    path = out / ROWS
    try:
        df = pd.read_parquet(path)
    except FileNotFoundError:
        raise ValueError(f"{path}: missing (the folder's meta.json says it holds real games)") from None
    except Exception as exc:  # a truncated or foreign file: pyarrow raises several kinds
        first = str(exc).strip().splitlines()
        raise ValueError(f"{path}: unreadable ({first[0] if first else type(exc).__name__})") from None
    if len(df) != meta.get("games"):
        raise ValueError(f"{path}: holds {len(df)} games where {META} says {meta.get('games')}")
    df = df.sort_values(["first_deck", "second_deck", "game"], kind="stable").reset_index(drop=True)
    df.attrs["meta"] = {**meta, "complete": True, "missing_chunks": 0, "ignored_files": []}
    return df
