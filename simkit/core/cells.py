"""Text cells safe for a spreadsheet: a cell that would start a formula is escaped, and read back as written.

A spreadsheet reads a CSV cell starting with ``= + - @``, a tab or a carriage return as a formula (OWASP's "CSV
injection"): simkit's CSVs write such text with a leading ``'`` (:func:`csv_cell`), which spreadsheets show as
the text itself, and a sheet read back drops that ``'`` again (:func:`unescape_cell`), so a card named
``=SUM(9)`` survives an export and an import unchanged. Numbers, and text that is a plain number such as
``-3``, are never escaped.
"""

from __future__ import annotations

__all__ = ["FORMULA_STARTS", "csv_cell", "unescape_cell"]

#: a cell starting with one of these is read as a formula by spreadsheets (OWASP "CSV injection")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def csv_cell(value):
    """``value`` safe for a spreadsheet: text starting with ``= + - @``, tab or CR gets a leading ``'``
    (the OWASP advice against formula injection); numbers, and text that is a plain number, stay as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS) and not _is_number(value):
        return "'" + value
    return value


def unescape_cell(value):
    """A cell as :func:`csv_cell` escaped it, back to the text it stood for (other cells unchanged)."""
    if isinstance(value, str) and value.startswith("'") and value[1:].startswith(FORMULA_STARTS) \
            and not _is_number(value[1:]):
        return value[1:]
    return value
