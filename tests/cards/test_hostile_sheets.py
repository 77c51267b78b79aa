"""Hostile and odd card sheets (issue 52, problems 1, 2, 3, 5, 6, 7, 9): each refused in one line naming what is
wrong, nothing written, the designer's files untouched; and a card named like a formula survives a round trip."""

from __future__ import annotations

import csv
import datetime
import zipfile
from pathlib import Path

import pytest
from openpyxl import Workbook, load_workbook

from simkit.cards import read as R
from simkit.cards.sheets import export_cards, import_cards, read_sheets
from simkit.cli import main
from simkit.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = ROOT / "scenarios" / "_template" / "base.toml"


def _write_csv(path: Path, grid) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(grid)
    return path


def _one_line(capsys, *words: str) -> str:
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "Traceback" not in err, err
    for w in words:
        assert w in err, err
    return err


@pytest.fixture
def exported(tmp_path) -> Path:
    """The template's cards as a CSV, untouched."""
    out = tmp_path / "cards.csv"
    export_cards(load_scenario(TEMPLATE), out)
    return out


def test_a_csv_with_more_rows_than_a_card_sheet_is_refused_by_its_limit(tmp_path, monkeypatch, capsys):
    """Rows past MAX_ROWS end the reading in one line naming the limit, before the rest is read."""
    monkeypatch.setattr(R, "MAX_ROWS", 40)
    sheet = _write_csv(tmp_path / "big.csv", [["table", "card", "cost"]] + [["cards", f"C{i}", "1"] for i in range(60)])
    assert main(["cards", "import", str(TEMPLATE), str(sheet), "-o", str(tmp_path / "p.toml")]) == 2
    _one_line(capsys, "big.csv", "more than 40 rows")
    assert not (tmp_path / "p.toml").exists()


def test_a_value_far_to_the_right_is_refused_naming_its_column(tmp_path):
    """A value beyond the last column a card sheet may have is named by its column, not padded into memory."""
    grid = [["table", "card", "cost"], ["cards", "Spark", "1"] + [""] * 600 + ["9"]]
    with pytest.raises(ValueError, match=r"row 2, column WF: a value beyond column SF; .* at most 500 columns"):
        read_sheets(_write_csv(tmp_path / "wide.csv", grid))


def test_a_value_in_a_column_without_a_name_is_refused(tmp_path):
    """A cell to the right of the header's last name is named: its key is missing, it is not silently dropped."""
    grid = [["table", "card", "cost"], ["cards", "Spark", "2", "7"]]
    with pytest.raises(ValueError, match=r"row 2, column D: a value in a column with no name"):
        read_sheets(_write_csv(tmp_path / "stray.csv", grid))


def test_a_csv_larger_than_a_card_sheet_is_refused_before_reading(tmp_path, monkeypatch):
    """A CSV over MAX_BYTES is refused by its size, in one line, before a row is parsed."""
    monkeypatch.setattr(R, "MAX_BYTES", 100)
    sheet = _write_csv(tmp_path / "fat.csv", [["table", "card", "cost"]] + [["cards", "Spark", "1"]] * 20)
    with pytest.raises(ValueError, match=r"fat.csv: \d+ bytes, more than a card sheet's 100"):
        read_sheets(sheet)


def test_an_xlsx_with_a_cell_at_column_xfd_is_refused_without_reading_the_row_whole(tmp_path):
    """One value at the last column a spreadsheet has (XFD) is refused by the column limit."""
    book = Workbook()
    ws = book.active
    ws.title = "cards"
    ws.append(["card", "cost"])
    ws.append(["Spark", 1])
    ws["XFD3"] = 5
    book.save(tmp_path / "xfd.xlsx")
    with pytest.raises(ValueError, match=r"sheet 'cards': its cells reach column XFD; a card sheet has at most 500"):
        read_sheets(tmp_path / "xfd.xlsx")


def test_an_xlsx_that_unzips_past_the_limit_is_refused_before_parsing(tmp_path, monkeypatch):
    """The parts' unzipped size is read from the zip's directory first: past MAX_BYTES, refused in one line."""
    book = Workbook()
    book.active.append(["card", "cost"])
    book.save(tmp_path / "zipped.xlsx")
    monkeypatch.setattr(R, "MAX_BYTES", 1000)
    with pytest.raises(ValueError, match=r"zipped.xlsx: [\d,]+ bytes once unzipped, more than a card workbook's 1,000"):
        read_sheets(tmp_path / "zipped.xlsx")


def test_an_xml_entity_bomb_is_not_a_readable_workbook(tmp_path, capsys):
    """An XLSX whose sheet XML declares nested entities (a "billion laughs") is refused in one line."""
    book = Workbook()
    book.active.append(["card", "cost"])
    book.save(tmp_path / "ok.xlsx")
    bomb = ('<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
            + "".join(f'<!ENTITY lol{i} "{("&lol" + str(i - 1) + ";") * 10 if i else "&lol;" * 10}">' for i in range(9))
            + ']><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row r="1">'
            '<c r="A1" t="inlineStr"><is><t>&lol8;</t></is></c></row></sheetData></worksheet>')
    with zipfile.ZipFile(tmp_path / "ok.xlsx") as src, zipfile.ZipFile(tmp_path / "bomb.xlsx", "w") as dst:
        for item in src.infolist():
            data = bomb.encode() if item.filename == "xl/worksheets/sheet1.xml" else src.read(item)
            dst.writestr(item, data)
    assert main(["cards", "import", str(TEMPLATE), str(tmp_path / "bomb.xlsx"), "-o", str(tmp_path / "p.toml")]) == 2
    _one_line(capsys, "bomb.xlsx", "not a readable XLSX workbook")


def test_json_nested_past_the_limit_is_named_not_a_recursion_error(exported, tmp_path, capsys):
    """A JSON cell of 100,000 opening brackets is refused by the nesting limit, in one line naming the cell."""
    grid = list(csv.reader(open(exported, encoding="utf-8")))
    col = grid[0].index("damage")
    row = next(r for r in grid if r[1] == "Spark")
    row[col] = "[" * 100_000
    sheet = _write_csv(tmp_path / "deep.csv", grid)
    assert main(["cards", "import", str(TEMPLATE), str(sheet), "-o", str(tmp_path / "p.toml")]) == 2
    _one_line(capsys, "deep.csv: row", "key cards.Spark.damage", "nested more than 32 deep")


def _xlsx_with(tmp_path: Path, name: str, cost) -> Path:
    """The template's card sheet as an XLSX, Spark's cost cell replaced by ``cost``."""
    export_cards(load_scenario(TEMPLATE), tmp_path / "cards.xlsx")
    book = load_workbook(tmp_path / "cards.xlsx")
    ws = book["cards"]
    col = [c.value for c in ws[1]].index("cost") + 1
    row = next(r for r in range(2, ws.max_row + 1) if ws.cell(r, 1).value == "Spark")
    ws.cell(row, col).value = cost
    book.save(tmp_path / name)
    return tmp_path / name


def test_a_date_in_a_number_column_is_named_a_date(tmp_path, capsys):
    """A cost a spreadsheet turned into a date ("1/2") is named as a date, with what to do, in one line."""
    sheet = _xlsx_with(tmp_path, "dated.xlsx", datetime.datetime(2026, 1, 2))
    assert main(["cards", "import", str(TEMPLATE), str(sheet), "-o", str(tmp_path / "p.toml")]) == 2
    _one_line(capsys, "dated.xlsx: sheet 'cards'", "key cards.Spark.cost", "a date or time", "format the cell as text")


def test_a_formula_saved_without_its_value_is_named_a_formula_not_empty(tmp_path, capsys):
    """A formula cell whose file holds no computed value (written by a program that does not compute) is named."""
    sheet = _xlsx_with(tmp_path, "formula.xlsx", "=1+1")
    assert main(["cards", "import", str(TEMPLATE), str(sheet), "-o", str(tmp_path / "p.toml")]) == 2
    _one_line(capsys, "formula.xlsx", "key cards.Spark.cost", "a formula with no saved value (=1+1)")


@pytest.mark.parametrize("target", ["scenario", "extended", "sheet"])
def test_import_never_writes_over_its_inputs(target, tmp_path, capsys):
    """-o naming the scenario, a file it extends, or the sheet itself is refused; every input is unchanged."""
    base = tmp_path / "base.toml"
    base.write_text(TEMPLATE.read_text(encoding="utf-8").replace('game = "_template"', 'game = "_template"'),
                    encoding="utf-8")
    mine = tmp_path / "mine.toml"
    mine.write_text('extends = "base.toml"\nname = "mine"\n[cards.Spark]\ncost = 2\n', encoding="utf-8")
    sheet = tmp_path / "sheet.toml.csv"
    export_cards(load_scenario(mine), sheet)
    out = {"scenario": mine, "extended": base, "sheet": sheet}[target]
    before = {p: p.read_bytes() for p in (base, mine, sheet)}
    assert main(["cards", "import", str(mine), str(sheet), "-o", str(out)]) == 2
    words = {"scenario": "is the scenario itself", "extended": "a file mine.toml extends",
             "sheet": "must end in .toml"}[target]
    _one_line(capsys, f"-o {out}", words)
    assert {p: p.read_bytes() for p in before} == before
    assert load_scenario(mine).data["cards"]["Spark"]["cost"] == 2


def test_the_sheet_itself_as_output_is_refused(tmp_path):
    """A .toml named as both the sheet and the patch is refused before anything is read or written."""
    with pytest.raises(ValueError, match="is the sheet being imported"):
        import_cards(TEMPLATE, tmp_path / "x.toml", tmp_path / "x.toml")


@pytest.fixture
def formula_named(tmp_path) -> Path:
    """The template with a card named ``=SUM(9)`` (and one named ``@cmd``)."""
    path = tmp_path / "odd.toml"
    path.write_text(f'extends = "{TEMPLATE}"\nname = "odd names"\n[cards."=SUM(9)"]\ncost = 1\ndamage = [1, 1]\n'
                    'uses = 1\n[cards."@cmd"]\ncost = 1\nheal = 1\nuses = 1\n', encoding="utf-8")
    return path


def test_an_xlsx_export_writes_a_formula_like_name_as_text_and_imports_unchanged(formula_named, tmp_path):
    """A card named ``=SUM(9)`` is a text cell in the XLSX, never a live formula, and the untouched export
    imports as a patch that changes nothing."""
    export_cards(load_scenario(formula_named), tmp_path / "odd.xlsx")
    ws = load_workbook(tmp_path / "odd.xlsx")["cards"]
    cell = next(c for c in ws["A"] if c.value == "=SUM(9)")
    assert cell.data_type == "s"
    assert import_cards(formula_named, tmp_path / "odd.xlsx", tmp_path / "p.toml") == {}


def test_a_csv_export_escapes_a_formula_like_name_and_imports_unchanged(formula_named, tmp_path):
    """In a CSV the name is written ``'=SUM(9)`` (a spreadsheet shows the text), and read back as ``=SUM(9)``."""
    export_cards(load_scenario(formula_named), tmp_path / "odd.csv")
    cards = [row[1] for row in csv.reader(open(tmp_path / "odd.csv", encoding="utf-8"))]
    assert "'=SUM(9)" in cards and "'@cmd" in cards and "=SUM(9)" not in cards
    assert import_cards(formula_named, tmp_path / "odd.csv", tmp_path / "p.toml") == {}
