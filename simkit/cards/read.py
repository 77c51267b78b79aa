"""Reading an edited card sheet (XLSX or CSV) within bounds, and its cells as the scenario's kinds of value.

A card sheet is small: a few hundred rows of a few dozen keys. Anything far beyond that is a mistake or a
hostile file, and is refused in one line naming the limit before it can fill the memory: at most
:data:`MAX_ROWS` rows and :data:`MAX_COLUMNS` columns a sheet, :data:`MAX_BYTES` of CSV (or of an XLSX's
unzipped parts), JSON cells nested at most :data:`MAX_DEPTH` deep. A cell a spreadsheet turned into a date,
or a formula saved without its value, is named for what it is. An XLSX whose XML the parser refuses (an
entity bomb) is "not a readable workbook", in one line.
"""

from __future__ import annotations

import csv
import datetime
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from simkit.core.cells import unescape_cell

__all__ = ["KEY_COLUMN", "MAX_BYTES", "MAX_COLUMNS", "MAX_DEPTH", "MAX_ROWS", "TABLE_COLUMN", "SheetRow",
           "blank", "letter", "parse_cell", "read_sheets"]

KEY_COLUMN = "card"      # the row's path below its card table
TABLE_COLUMN = "table"   # a CSV's column naming the card table of each row
SUFFIXES = (".xlsx", ".csv")
#: the most rows (the header included) and columns one sheet may have
MAX_ROWS = 20_000
MAX_COLUMNS = 500
#: the most bytes of a CSV file, or of an XLSX's parts once unzipped
MAX_BYTES = 20_000_000
#: the deepest nesting of lists and tables in a JSON cell
MAX_DEPTH = 32


@dataclass(frozen=True)
class SheetRow:
    """One row of an edited sheet with where it stands.

    Attributes:
        sheet: the sheet's name (in a CSV, the file's name).
        number: the row's number as a spreadsheet shows it (the header is row 1).
        table: the card table the row belongs to.
        card: the ``card`` cell: the row's path below its card table.
        cells: column name -> (column letter, raw value).
        card_column: the letter of the card column.
        csv: the row comes from a CSV (one sheet, the table named on each row).
    """

    sheet: str
    number: int
    table: str
    card: str
    cells: dict[str, tuple[str, Any]]
    card_column: str = "A"
    csv: bool = False


def letter(index: int) -> str:
    """The spreadsheet letter of column ``index`` (0 -> A, 26 -> AA)."""
    out = ""
    index += 1
    while index:
        index, r = divmod(index - 1, 26)
        out = chr(65 + r) + out
    return out


def blank(v: Any) -> bool:
    """An empty cell (nothing, or only spaces)."""
    return v is None or (isinstance(v, str) and not v.strip())


class _Formula(str):
    """A formula cell saved without its computed value (its text, as the file holds it)."""


def _bounded(rows: Iterable[list[Any]], head: str) -> Iterator[list[Any]]:
    """``rows`` passed on, refused past :data:`MAX_ROWS` rows or with a value past :data:`MAX_COLUMNS` columns."""
    for n, row in enumerate(rows, start=1):
        if n > MAX_ROWS:
            raise ValueError(f"{head}: more than {MAX_ROWS:,} rows; a card sheet has a row per card or card level "
                             "(is this the right file?)")
        if len(row) > MAX_COLUMNS:
            if any(not blank(v) for v in row[MAX_COLUMNS:]):
                far = next(i for i in range(MAX_COLUMNS, len(row)) if not blank(row[i]))
                raise ValueError(f"{head}: row {n}, column {letter(far)}: a value beyond column "
                                 f"{letter(MAX_COLUMNS - 1)}; a card sheet has at most {MAX_COLUMNS} columns")
            row = row[:MAX_COLUMNS]
        yield row


def _rows_of(where: str, sheet: str, table: str | None, grid: Iterable[list[Any]]) -> list[SheetRow]:
    """The rows of one sheet's cells (``table=None``: a CSV, whose ``table`` column names each row's table)."""
    head = where if table is None else f"{where}: sheet {sheet!r}"
    grid = _bounded(grid, head)
    first = next(grid, None)
    if first is None or all(blank(v) for v in first):
        raise ValueError(f"{head}: row 1: no header row (expected '{KEY_COLUMN}' and the keys)")
    header = [("" if blank(v) else str(v).strip()) for v in first]
    need = [KEY_COLUMN] if table is not None else [TABLE_COLUMN, KEY_COLUMN]
    for name in need:
        if name not in header:
            raise ValueError(f"{head}: row 1: no '{name}' column (the header has: "
                             f"{', '.join(h for h in header if h) or 'nothing'})")
    seen: dict[str, str] = {}
    for i, name in enumerate(header):
        if name in seen:
            raise ValueError(f"{head}: row 1, column {letter(i)}: '{name}' is also column {seen[name]}")
        if name:
            seen[name] = letter(i)
    rows = []
    for n, raw in enumerate(grid, start=2):
        unnamed = next((i for i, v in enumerate(raw) if not blank(v) and (i >= len(header) or not header[i])), None)
        if unnamed is not None:
            raise ValueError(f"{head}: row {n}, column {letter(unnamed)}: a value in a column with no name (write "
                             "the key it holds in row 1)")
        raw = list(raw) + [None] * (len(header) - len(raw))
        if all(blank(v) for v in raw):
            continue
        values = {header[i]: (letter(i), raw[i]) for i in range(len(header)) if header[i]}
        card = values.pop(KEY_COLUMN)[1]
        if table is None:
            row_table = values.pop(TABLE_COLUMN)[1]
            if blank(row_table):
                raise ValueError(f"{where}: row {n}, column {seen[TABLE_COLUMN]} ({TABLE_COLUMN}): empty (name the "
                                 "card table of the row)")
            row_table = str(row_table).strip()
        else:
            row_table = table
        if blank(card) or isinstance(card, _Formula):
            what = (f"a formula with no saved value ({card})" if isinstance(card, _Formula)
                    else "empty (name the card, e.g. Swordsman or Swordsman.L1)")
            raise ValueError(f"{head}: row {n}, column {seen[KEY_COLUMN]} ({KEY_COLUMN}): {what}")
        rows.append(SheetRow(sheet, n, row_table, str(card).strip(), values, seen[KEY_COLUMN], table is None))
    return rows


def _read_csv(path: Path) -> list[SheetRow]:
    if path.stat().st_size > MAX_BYTES:
        raise ValueError(f"{path}: {path.stat().st_size:,} bytes, more than a card sheet's {MAX_BYTES:,} (is this "
                         "the right file?)")
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            cells = ([unescape_cell(v) for v in row] for row in csv.reader(f))
            return _rows_of(str(path), path.name, None, cells)
    except UnicodeDecodeError:
        raise ValueError(f"{path}: not UTF-8 text; save the CSV as UTF-8") from None
    except csv.Error as exc:
        raise ValueError(f"{path}: not a readable CSV ({exc})") from None


def _unzipped_size(path: Path) -> int:
    from zipfile import BadZipFile, ZipFile

    try:
        with ZipFile(path) as z:
            return sum(i.file_size for i in z.infolist())
    except (BadZipFile, OSError) as exc:
        raise ValueError(f"{path}: not a readable XLSX workbook ({exc})") from None


def _sheet_cells(values, formulas) -> Iterator[list[Any]]:
    """A sheet's rows of saved values, a formula saved without its value given as :class:`_Formula`."""
    for vrow, frow in zip(values, formulas, strict=False):
        yield [_Formula(f) if v is None and isinstance(f, str) and f.startswith("=") else v
               for v, f in zip(vrow, frow, strict=False)]


def _read_xlsx(path: Path) -> list[SheetRow]:
    from xml.etree.ElementTree import ParseError
    from zipfile import BadZipFile

    from openpyxl import load_workbook

    size = _unzipped_size(path)
    if size > MAX_BYTES:
        raise ValueError(f"{path}: {size:,} bytes once unzipped, more than a card workbook's {MAX_BYTES:,} (is this "
                         "the right file?)")
    books = []
    try:
        values = load_workbook(path, read_only=True, data_only=True)
        books.append(values)
        formulas = load_workbook(path, read_only=True, data_only=False)
        books.append(formulas)
        rows = []
        for ws, wf in zip(values.worksheets, formulas.worksheets, strict=True):
            if (ws.max_column or 0) > MAX_COLUMNS:  # the sheet's own dimension: refused before a row is read
                raise ValueError(f"{path}: sheet {ws.title!r}: its cells reach column {letter(ws.max_column - 1)}; a "
                                 f"card sheet has at most {MAX_COLUMNS} columns (one per key)")
            grid = _sheet_cells(ws.iter_rows(values_only=True, max_col=MAX_COLUMNS + 1),
                                wf.iter_rows(values_only=True, max_col=MAX_COLUMNS + 1))
            grid = [list(r) for r in _bounded(grid, f"{path}: sheet {ws.title!r}")]
            if not grid or all(blank(v) for r in grid for v in r):
                continue  # an empty sheet a designer added
            rows += _rows_of(str(path), ws.title, ws.title, grid)
        return rows
    except (BadZipFile, OSError, KeyError, ParseError, TypeError) as exc:
        raise ValueError(f"{path}: not a readable XLSX workbook ({type(exc).__name__}: {exc})") from None
    except ValueError as exc:
        if str(exc).startswith(str(path)):
            raise
        raise ValueError(f"{path}: not a readable XLSX workbook ({exc})") from None
    finally:
        for book in books:
            book.close()


def read_sheets(path: str | Path) -> list[SheetRow]:
    """The rows of an edited card sheet (``.xlsx`` or ``.csv``), each with where it stands.

    Raises:
        ValueError: an unreadable file, a sheet past the bounds, or without its header (naming file, sheet,
            row, column).
        FileNotFoundError: no such file.
    """
    path = Path(path)
    if path.suffix.lower() not in SUFFIXES:
        raise ValueError(f"the sheet {path}: must end in .xlsx or .csv")
    if not path.is_file():
        raise FileNotFoundError(f"{path}: no such file")
    return _read_csv(path) if path.suffix.lower() == ".csv" else _read_xlsx(path)


# -- a cell's value, as the kind of the scenario's ----------------------------------------------------------


def kind(value: Any) -> str:
    """The kind of a scenario value: ``bool``, ``int``, ``float``, ``str`` or ``json`` (a list or a table)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    if isinstance(value, str):
        return "str"
    return "json"


_WORDS = {"bool": "true or false", "int": "a whole number", "float": "a number",
          "json": "a JSON list or table (e.g. [1, 2])", "str": "text"}


def _depth(text: str) -> int:
    """How deep lists and tables nest in a JSON text (brackets inside strings not counted)."""
    deepest = depth = 0
    quoted = escaped = False
    for ch in text:
        if quoted:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                quoted = False
        elif ch == '"':
            quoted = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def parse_cell(raw: Any, like: Any) -> Any:
    """A cell's value, read as the kind of ``like`` (the scenario's value; ``None``: guessed from the cell).

    Raises:
        ValueError: the cell cannot be read as that kind (the message says what was expected), is a date a
            spreadsheet made of typed text, a formula saved without its value, or JSON nested past the bound.
    """
    want = kind(like) if like is not None else None
    if isinstance(raw, _Formula):
        raise ValueError(f"a formula with no saved value ({raw}): simkit reads what a spreadsheet saved; open and "
                         "save the file in a spreadsheet program, or type the value")
    if isinstance(raw, datetime.date | datetime.time | datetime.timedelta):
        expected = f"; expected {_WORDS[want]}" if want else ""
        raise ValueError(f"a date or time ({raw}), as a spreadsheet turns typed text such as 1/2 into a date: format "
                         f"the cell as text and type the value again{expected}")
    text = raw.strip() if isinstance(raw, str) else raw
    if want is None:  # a key the scenario does not have: the most specific reading of the cell
        if not isinstance(text, str):
            return text
        for guess in ("bool", "int", "float", "json"):
            try:
                return parse_cell(text, {"bool": True, "int": 0, "float": 0.0, "json": []}[guess])
            except ValueError:
                pass
        return text
    if want == "str":
        if isinstance(text, float) and text.is_integer():
            text = int(text)
        return str(text) if not isinstance(raw, str) else raw
    if want == "bool":
        if isinstance(text, bool):
            return text
        if isinstance(text, str) and text.lower() in ("true", "false"):
            return text.lower() == "true"
        raise ValueError(f"expected {_WORDS[want]}, got {raw!r}")
    if want in ("int", "float"):
        return _number(text, raw, want)
    return _json(text, raw, like)


def _number(text: Any, raw: Any, want: str) -> int | float:
    if isinstance(text, bool) or not isinstance(text, int | float | str):
        raise ValueError(f"expected {_WORDS[want]}, got {raw!r}")
    if isinstance(text, str):
        try:
            text = int(text)
        except ValueError:
            try:
                text = float(text)
            except ValueError:
                raise ValueError(f"expected {_WORDS[want]}, got {raw!r}") from None
    if want == "int":
        if isinstance(text, float):
            if not text.is_integer():
                raise ValueError(f"expected {_WORDS[want]}, got {raw!r}")
            text = int(text)
        return int(text)
    return float(text)


def _json(text: Any, raw: Any, like: Any) -> Any:
    words = ('a JSON list (e.g. [1, 2])' if isinstance(like, list) else
             'a JSON table (e.g. {"do": "damage"})' if isinstance(like, dict) else _WORDS["json"])
    if not isinstance(text, str):
        raise ValueError(f"expected {words}, got {raw!r}")
    if _depth(text) > MAX_DEPTH:
        raise ValueError(f"lists or tables nested more than {MAX_DEPTH} deep; expected {words}")
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"expected {words}, got {raw!r} ({exc.msg})") from None
    if not isinstance(value, list | dict) or not isinstance(value, type(like)):
        raise ValueError(f"expected {words}, got {raw!r}")
    return value
