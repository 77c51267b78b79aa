"""Card tables to and from spreadsheets: export a scenario's cards as XLSX or CSV, import an edited sheet as a patch.

A *card table* is a top-level table of the scenario whose entries are all tables (Miracle's
``creatures`` and ``artifacts``, the Duel's ``cards``, Krypton's ``classes``, ``towers`` and
``bases``, Magic War's ``races`` and ``skills``); a game may name its own with
:attr:`simkit.games.Game.card_tables` (dotted paths allowed). ``bots`` and ``map`` are never card
tables. Each table becomes one sheet (in a CSV: the rows of every table, its name in the ``table``
column). A row is one table of numbers, named in the ``card`` column by its path below the card
table: ``Swordsman`` holds the creature's own keys (``units``, ``flying``), ``Swordsman.L1`` its
first level's (``cost``, ``attack``, ...), ``Sanctuary.units.King`` a Magic War unit. Each column is
one key; an empty cell is a key the row does not have. Numbers and words are written as they are,
lists and inline tables as JSON (``[1, 1]``, ``[{"do": "damage", "amount": 2}]``).

:func:`import_cards` reads such a sheet back and writes a patch that ``extends`` the scenario with
only the keys whose value differs from the scenario's, and checks that the patch loads. Every error
names the file, the sheet, the row and the column, and the scenario key the cell stands for.
"""

from __future__ import annotations

import csv
import difflib
import json
import os
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simkit.cards.read import KEY_COLUMN, SUFFIXES, TABLE_COLUMN, SheetRow, blank, parse_cell, read_sheets
from simkit.core.cells import csv_cell
from simkit.core.errors import ScenarioError

__all__ = ["CardSheet", "card_tables", "card_sheets", "export_cards", "import_cards", "read_sheets", "patch_text",
           "changed_cells", "toml_value"]

NEVER = ("bots", "map")  # tables that are never card tables


@dataclass(frozen=True)
class CardSheet:
    """One card table as a sheet.

    Attributes:
        table: the card table's dotted path in the scenario (``"creatures"``).
        columns: the key columns, in order of first appearance (the ``card`` column not included).
        rows: ``(card, {column: value})`` per row, in file order; ``card`` is the row's path below ``table``.
    """

    table: str
    columns: tuple[str, ...]
    rows: tuple[tuple[str, dict[str, Any]], ...]


def _get(data: Mapping, dotted: str) -> Any:
    node: Any = data
    for part in dotted.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return None
        node = node[part]
    return node


def card_tables(scenario, declared: tuple[str, ...] | None = None) -> list[str]:
    """The scenario's card tables, as dotted paths.

    Args:
        scenario: a loaded :class:`~simkit.scenario.Scenario`.
        declared: the tables to take (default: the game's :attr:`~simkit.games.Game.card_tables`, else
            every table of the game, but ``bots`` and ``map``, whose entries are all tables).

    Returns:
        the paths, in the game's order of its tables.
    """
    if declared is None:
        declared = getattr(scenario.game.spec, "card_tables", None)
    if declared is not None:
        return [t for t in declared if isinstance(_get(scenario.data, t), Mapping)]
    out = []
    for table in scenario.game.spec.tables:
        value = scenario.data.get(table)
        if table in NEVER or not isinstance(value, Mapping) or not value:
            continue
        if all(isinstance(v, Mapping) for v in value.values()):
            out.append(table)
    return out


def _quote(part: str) -> str:
    return json.dumps(part, ensure_ascii=False) if "." in part or '"' in part else part


def _split(card: str) -> list[str]:
    """A ``card`` cell's path into its parts (a part holding a dot is written in double quotes)."""
    parts, i = [], 0
    while i <= len(card):
        if card.startswith('"', i):
            end = card.find('"', i + 1)
            while end > 0 and card[end - 1] == "\\":
                end = card.find('"', end + 1)
            if end < 0:
                raise ValueError("an opening quote is not closed")
            parts.append(json.loads(card[i:end + 1]))
            i = end + 1
            if i < len(card) and card[i] != ".":
                raise ValueError("a quoted part must be followed by '.' or end the name")
            i += 1
        else:
            end = card.find(".", i)
            end = len(card) if end < 0 else end
            parts.append(card[i:end])
            i = end + 1
    if any(p == "" for p in parts):
        raise ValueError("an empty part (two dots, or a dot at an end)")
    return parts


def _walk(node: Mapping, path: tuple[str, ...]) -> Iterator[tuple[tuple[str, ...], dict[str, Any]]]:
    """Every table below ``node`` that holds a value of its own (or is a card itself), depth first."""
    own = {k: v for k, v in node.items() if not isinstance(v, Mapping)}
    if own or len(path) == 1:
        yield path, own
    for key, value in node.items():
        if isinstance(value, Mapping):
            yield from _walk(value, (*path, key))


def card_sheets(scenario, declared: tuple[str, ...] | None = None) -> list[CardSheet]:
    """The scenario's card tables as sheets (see the module's notes for the layout).

    Args:
        scenario: a loaded :class:`~simkit.scenario.Scenario`.
        declared: as :func:`card_tables`.

    Returns:
        one :class:`CardSheet` per card table.
    """
    sheets = []
    for table in card_tables(scenario, declared):
        rows, columns = [], {}
        for name, value in _get(scenario.data, table).items():
            if not isinstance(value, Mapping):
                continue
            for path, own in _walk(value, (name,)):
                rows.append((".".join(_quote(p) for p in path), own))
                columns.update(dict.fromkeys(own))
        sheets.append(CardSheet(table, tuple(columns), tuple(rows)))
    return sheets


# -- cells ----------------------------------------------------------------------------------------------


def _cell(value: Any) -> Any:
    """A value as a spreadsheet cell: numbers, booleans and words as they are, lists and tables as JSON."""
    if isinstance(value, list | dict):
        return json.dumps(value, ensure_ascii=False)
    return value


def _csv_cell(value: Any) -> str:
    """A value as a CSV cell: text that would start a formula escaped (:func:`simkit.core.cells.csv_cell`)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    return csv_cell(str(_cell(value))) if isinstance(value, str | list | dict) else str(value)


# -- writing ----------------------------------------------------------------------------------------------


def _xlsx_bytes(sheets: list[CardSheet]) -> bytes:
    """The workbook's file, built in memory (a failing disk then meets one plain write, never a half-closed zip).

    Every text cell is stored as text: a card named ``=SUM(9)`` is that name in the spreadsheet, not a formula."""
    import io

    from openpyxl import Workbook
    from openpyxl.styles import Font

    book = Workbook()
    book.remove(book.active)
    for sheet in sheets:
        ws = book.create_sheet(title=sheet.table[:31])
        ws.append([KEY_COLUMN, *sheet.columns])
        for card, own in sheet.rows:
            ws.append([card, *(_cell(own.get(c)) for c in sheet.columns)])
        for row in ws.iter_rows():
            for cell in row:
                if isinstance(cell.value, str):
                    cell.data_type = "s"  # openpyxl takes text starting with '=' for a formula
        for cell in ws[1]:
            cell.font = Font(bold=True)
        ws.freeze_panes = "B2"
        ws.auto_filter.ref = ws.dimensions
        ws.column_dimensions["A"].width = max(12, *(len(card) + 2 for card, _ in sheet.rows)) if sheet.rows else 12
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def _write_xlsx(sheets: list[CardSheet], path: Path) -> None:
    path.write_bytes(_xlsx_bytes(sheets))


def _write_csv(sheets: list[CardSheet], path: Path) -> None:
    columns = list(dict.fromkeys(c for s in sheets for c in s.columns))
    with open(path, "w", newline="", encoding="utf-8") as f:
        out = csv.writer(f)
        out.writerow([TABLE_COLUMN, KEY_COLUMN, *columns])
        for sheet in sheets:
            for card, own in sheet.rows:
                out.writerow([csv_cell(sheet.table), csv_cell(card), *(_csv_cell(own.get(c)) for c in columns)])


def _suffix(path: Path, option: str) -> str:
    suffix = path.suffix.lower()
    if suffix not in SUFFIXES:
        raise ValueError(f"{option} {path}: must end in .xlsx or .csv")
    return suffix


def export_cards(scenario, out: str | Path) -> list[CardSheet]:
    """Write the scenario's card tables to ``out`` (``.xlsx``: a sheet per table; ``.csv``: one table).

    Args:
        scenario: a loaded :class:`~simkit.scenario.Scenario`.
        out: the file to write (atomically: whole or not at all).

    Returns:
        the sheets written.

    Raises:
        ValueError: ``out`` is neither ``.xlsx`` nor ``.csv``, the scenario has no card table, or the
            file cannot be written.
    """
    from simkit.core.files import atomic_write, cannot_write

    out = Path(out)
    suffix = _suffix(out, "-o")
    sheets = card_sheets(scenario)
    if not sheets:
        raise ValueError(f"{scenario.path}: no card table (a table whose entries are all tables)")
    write = _write_xlsx if suffix == ".xlsx" else _write_csv
    try:
        atomic_write(out, lambda tmp: write(sheets, tmp), make_folders=True)
    except OSError as exc:
        raise cannot_write(f"-o {out}", exc) from None
    return sheets


# -- reading ----------------------------------------------------------------------------------------------


def _near(word: str, options) -> str:
    close = difflib.get_close_matches(word, list(options), n=1)
    return f" (did you mean {close[0]}?)" if close else ""


def changed_cells(scenario, rows: list[SheetRow], where: str = "") -> dict[str, tuple[Any, Any, str]]:
    """The scenario keys the rows change: dotted key -> (the scenario's value, the sheet's value, where).

    Args:
        scenario: the scenario the sheet was exported from (or the one the patch will extend).
        rows: from :func:`read_sheets`.
        where: the sheet file's name, for messages.

    Returns:
        the changed keys in sheet order; ``where`` reads ``file: sheet 'S': row R, column C (name)``.
        A key the scenario lacks has ``None`` as its value before.

    Raises:
        ValueError: an unknown sheet (table), a card name that is not a path, a row given twice, a cell
            that cannot be read as its key's kind, or an empty cell where the scenario has a value.
    """
    tables = card_tables(scenario)
    out: dict[str, tuple[Any, Any, str]] = {}
    seen: dict[tuple[str, str], int] = {}
    for row in rows:
        at = (f"{where}: row {row.number} (table {row.table})" if row.csv
              else f"{where}: sheet {row.sheet!r}: row {row.number}")
        if row.table not in tables:
            col = f", column {TABLE_COLUMN}" if row.csv else ""
            at = f"{where}: row {row.number}" if row.csv else at
            raise ValueError(f"{at}{col}: {row.table!r} is not a card table of {scenario.path.name} (its card "
                             f"tables: {', '.join(tables)}){_near(row.table, tables)}")
        card_cell = f"{at}, column {row.card_column} ({KEY_COLUMN})"
        try:
            parts = _split(row.card)
        except ValueError as exc:
            raise ValueError(f"{card_cell}: {row.card!r} is not a card name ({exc})") from None
        key = (row.table, ".".join(parts))
        if key in seen:
            raise ValueError(f"{card_cell}: {row.card!r} is also row {seen[key]} of this sheet")
        seen[key] = row.number
        node = _get(scenario.data, row.table)
        for part in parts:
            node = node.get(part) if isinstance(node, Mapping) else None
        if node is None and parts[0] not in _get(scenario.data, row.table):
            siblings = _get(scenario.data, row.table)
            # a new card is allowed (the loader judges it); a misspelt one is far likelier: say so if close
            hint = _near(parts[0], siblings)
            if hint:
                raise ValueError(f"{card_cell}: {row.card!r} is not a card of {row.table}{hint}")
        own = node if isinstance(node, Mapping) else {}
        base = ".".join([row.table, *(p if "." not in p else json.dumps(p) for p in parts)])
        for column, (letter, raw) in row.cells.items():
            dotted = f"{base}.{column}"
            cell = f"{at}, column {letter} ({column}; key {dotted})"
            before = own.get(column)
            if isinstance(before, Mapping):
                raise ValueError(f"{cell}: {column} is a table of its own in the scenario: edit it on the rows "
                                 f"named {row.card}.{column}")
            if blank(raw):
                if before is not None:
                    raise ValueError(f"{cell}: empty, but {scenario.path.name} sets it to {toml_value(before)}; "
                                     "a patch cannot remove a key (write the value back)")
                continue
            try:
                value = parse_cell(raw, before)
            except ValueError as exc:
                raise ValueError(f"{cell}: {exc}") from None
            if value != before or type(value) is not type(before):
                out[dotted] = (before, value, cell)
    return out


# -- the patch ----------------------------------------------------------------------------------------------


def _toml_key(part: str) -> str:
    bare = part and all(c.isalnum() and c.isascii() or c in "_-" for c in part)
    return part if bare else json.dumps(part, ensure_ascii=False)


def toml_value(value: Any) -> str:
    """A value as TOML writes it (inline tables for tables inside lists)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{ " + ", ".join(f"{_toml_key(str(k))} = {toml_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {value!r} as TOML")


def _key_parts(dotted: str) -> list[str]:
    return _split(dotted)


def patch_text(extends: str, changes: Mapping[str, tuple[Any, Any, str]], source: str = "") -> str:
    """The TOML of a patch that ``extends`` a scenario and sets only ``changes`` (one table per changed row).

    Args:
        extends: the scenario file as the patch names it (relative to the patch's folder).
        changes: from :func:`changed_cells`.
        source: the sheet's file name, for the header comment.

    Returns:
        the patch's text; each changed key carries its scenario value in a comment.
    """
    lines = [f"# simkit cards import{' from ' + source if source else ''}: the keys the sheet changes", "",
             f"extends = {json.dumps(extends, ensure_ascii=False)}"]
    tables: dict[tuple[str, ...], list[str]] = {}
    for dotted, (before, after, _) in changes.items():
        parts = _key_parts(dotted)
        was = "new key" if before is None else f"was {toml_value(before)}"
        tables.setdefault(tuple(parts[:-1]), []).append(f"{_toml_key(parts[-1])} = {toml_value(after)}   # {was}")
    for path, keys in tables.items():
        lines += ["", f"[{'.'.join(_toml_key(p) for p in path)}]", *keys]
    return "\n".join(lines) + "\n"


def _nest(changes: Mapping[str, tuple[Any, Any, str]]) -> dict:
    out: dict = {}
    for dotted, (_, after, _) in changes.items():
        *path, last = _key_parts(dotted)
        node = out
        for p in path:
            node = node.setdefault(p, {})
        node[last] = after
    return out


def _where(message: str, changes: Mapping[str, tuple[Any, Any, str]]) -> str | None:
    """The cell a loader's message is about: the changed key it names (the longest that matches)."""
    best = None
    for dotted, (_, _, cell) in changes.items():
        plain = dotted.replace('"', "")
        for k in (plain, plain.rsplit(".", 1)[0]):
            if f": {k}:" in message or f": {k}[" in message or f": {k}." in message:
                if best is None or len(k) > best[0]:
                    best = (len(k), cell)
    return None if best is None else best[1]


def _refuse_an_input(out: Path, scenario_path: str | Path, sheet: str | Path) -> None:
    """Refuse a patch written over its own inputs: the scenario, a file it extends, or the sheet.

    The patch ``extends`` the scenario, so written over it (or over a file of its chain) it would replace the
    designer's numbers with a file that extends itself, and no longer load.
    """
    from simkit.scenario import base_of

    target = out.resolve()
    chain, path = [], Path(scenario_path)
    while path is not None and len(chain) < 64 and path.resolve() not in chain:
        chain.append(path.resolve())
        try:
            path = base_of(path)
        except (OSError, ValueError):
            break
    if target == Path(sheet).resolve():
        raise ValueError(f"-o {out}: is the sheet being imported; write the patch to a .toml file of its own")
    if target in chain:
        what = "the scenario itself" if target == chain[0] else f"a file {Path(scenario_path).name} extends"
        raise ValueError(f"-o {out}: is {what}; the patch extends it and would replace it, losing its numbers: write "
                         f"the patch to a file of its own, e.g. {out.stem}-cards.toml")


def import_cards(scenario_path: str | Path, sheet: str | Path, out: str | Path) -> dict[str, tuple[Any, Any, str]]:
    """Read an edited card sheet and write the patch of its changes; check that the patch loads.

    Args:
        scenario_path: the scenario the sheet came from; the patch ``extends`` it.
        sheet: the edited ``.xlsx`` or ``.csv``.
        out: the patch to write (``.toml``; atomically, and only when it loads).

    Returns:
        the changes (see :func:`changed_cells`); an empty dict writes a patch that changes nothing.

    Raises:
        ValueError: naming file, sheet, row, column and key of the first bad cell, or, when the patched
            scenario does not load, the loader's reason with the cell it is about.
    """
    from simkit.core.files import atomic_write, cannot_write
    from simkit.scenario import _merge, load_scenario, scenario_from_data

    out = Path(out)
    if out.suffix.lower() != ".toml":
        raise ValueError(f"-o {out}: the patch must end in .toml")
    _refuse_an_input(out, scenario_path, sheet)
    sc = load_scenario(scenario_path)
    rows = read_sheets(sheet)
    changes = changed_cells(sc, rows, where=Path(sheet).name)
    try:
        scenario_from_data(_merge(sc.data, _nest(changes)), source=str(out))
    except ScenarioError as exc:
        cell = _where(str(exc), changes)
        raise ValueError(f"{cell}: the patched scenario does not load: {exc}" if cell else
                         f"{Path(sheet).name}: the patched scenario does not load: {exc}") from None
    target, folder = Path(scenario_path).resolve(), out.resolve().parent
    shared = os.path.commonpath([target, folder])
    extends = os.path.relpath(target, folder) if shared != target.anchor else str(target)
    text = patch_text(Path(extends).as_posix(), changes, source=Path(sheet).name)

    def write(tmp: Path) -> None:
        tmp.write_text(text, encoding="utf-8")

    try:
        atomic_write(out, write, make_folders=True)
    except OSError as exc:
        raise cannot_write(f"-o {out}", exc) from None
    return changes
