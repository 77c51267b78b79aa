"""Card tables to and from spreadsheets (simkit.cards.sheets, ``simkit cards``)."""

from __future__ import annotations

import csv
import tempfile
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openpyxl import load_workbook

from simkit.cards.sheets import card_sheets, card_tables, changed_cells, export_cards, import_cards, read_sheets
from simkit.cli import main
from simkit.scenario import load_scenario

ROOT = Path(__file__).resolve().parents[2]
BASES = {g: ROOT / "scenarios" / g / "base.toml" for g in ("miracle", "duel", "krypton", "magic")}
MIRACLE = BASES["miracle"]


@pytest.fixture(scope="module")
def scenarios():
    return {g: load_scenario(p) for g, p in BASES.items()}


def _csv(path: Path) -> list[list[str]]:
    with open(path, newline="", encoding="utf-8") as f:
        return list(csv.reader(f))


def _write_csv(path: Path, grid: list[list[str]]) -> Path:
    with open(path, "w", newline="", encoding="utf-8") as f:
        csv.writer(f).writerows(grid)
    return path


def _set(grid: list[list[str]], card: str, column: str, value: str, table: str = "creatures") -> list[list[str]]:
    """``grid`` (a CSV export) with one cell changed."""
    out = [list(r) for r in grid]
    c = out[0].index(column)
    row = next(r for r in out if r[0] == table and r[1] == card)
    row[c] = value
    return out


def test_every_game_declares_its_card_tables_by_their_shape(scenarios):
    """Each game's card tables are its tables of tables: Miracle's creatures and artifacts, the Duel's cards,
    Krypton's bases, classes and towers, Magic War's skills and races; never bots, map or rules."""
    assert card_tables(scenarios["miracle"]) == ["creatures", "artifacts"]
    assert card_tables(scenarios["duel"]) == ["cards"]
    assert card_tables(scenarios["krypton"]) == ["bases", "classes", "towers"]
    assert card_tables(scenarios["magic"]) == ["skills", "races"]
    assert card_tables(scenarios["krypton"], declared=("magic.copies", "towers")) == ["magic.copies", "towers"]


def test_a_creature_is_a_row_and_each_level_a_row_below_it(scenarios):
    """Swordsman's own keys sit on row 'Swordsman', its first level's on 'Swordsman.L1'; Magic War's King on
    'Sanctuary.units.King'; lists are JSON."""
    creatures = card_sheets(scenarios["miracle"])[0]
    rows = dict(creatures.rows)
    assert list(rows)[:4] == ["Swordsman", "Swordsman.L1", "Swordsman.L2", "Swordsman.L3"]
    assert rows["Swordsman"] == {"units": [6, 7, 8], "flying": False, "anti_air": False}
    assert rows["Swordsman.L1"]["cost"] == 2 and rows["Swordsman.L1"]["range"] == [1, 1]
    races = dict(card_sheets(scenarios["magic"])[1].rows)
    assert races["Sanctuary.units.King"]["cost"] == 0 and races["Sanctuary"]["leader"] == "King"


def test_xlsx_has_one_sheet_per_card_table_with_a_header(tmp_path, scenarios):
    """The workbook holds a sheet per card table, 'card' first, one column per key, lists written as JSON."""
    out = tmp_path / "cards.xlsx"
    export_cards(scenarios["miracle"], out)
    book = load_workbook(out)
    assert book.sheetnames == ["creatures", "artifacts"]
    ws = book["creatures"]
    header = [c.value for c in ws[1]]
    assert header[:4] == ["card", "units", "flying", "anti_air"]
    assert [c.value for c in ws[2]][:4] == ["Swordsman", "[6, 7, 8]", False, False]
    assert ws.cell(row=3, column=1).value == "Swordsman.L1"
    assert ws.cell(row=3, column=header.index("cost") + 1).value == 2


@pytest.mark.parametrize("game", list(BASES))
@pytest.mark.parametrize("suffix", [".xlsx", ".csv"])
def test_export_then_import_gives_an_empty_patch(game, suffix, tmp_path, scenarios):
    """For every game, an untouched export reads back as no change, and its patch loads as the scenario."""
    sheet = tmp_path / f"cards{suffix}"
    export_cards(scenarios[game], sheet)
    changes = import_cards(BASES[game], sheet, tmp_path / "patch.toml")
    assert changes == {}
    patched = load_scenario(tmp_path / "patch.toml")
    assert {k: v for k, v in patched.data.items() if k not in ("name", "sweep")} == \
        {k: v for k, v in scenarios[game].data.items() if k not in ("name", "sweep")}


@pytest.fixture(scope="module")
def exported(tmp_path_factory, scenarios):
    """Every game's CSV export, as a grid of cells."""
    folder = tmp_path_factory.mktemp("exports")
    for g, sc in scenarios.items():
        export_cards(sc, folder / f"{g}.csv")
    return {g: _csv(folder / f"{g}.csv") for g in scenarios}


@given(data=st.data())
def test_editing_one_number_changes_exactly_that_key(data, exported, scenarios):
    """Any one numeric cell of any game's export, set to another number, reads back as exactly that key changed
    from the scenario's value to the new one."""
    game = data.draw(st.sampled_from(sorted(exported)))
    grid = exported[game]
    cells = [(i, j) for i, row in enumerate(grid[1:], start=1) for j, v in enumerate(row[2:], start=2)
             if v.lstrip("-").isdigit()]
    i, j = data.draw(st.sampled_from(cells))
    new = data.draw(st.integers(-5, 50).filter(lambda v: v != int(grid[i][j])))
    edited = [list(r) for r in grid]
    edited[i][j] = str(new)
    with tempfile.TemporaryDirectory() as folder:
        rows = read_sheets(_write_csv(Path(folder) / "cards.csv", edited))
    changes = changed_cells(scenarios[game], rows)
    parts = [grid[i][0], grid[i][1], grid[0][j]]
    assert list(changes) == [".".join(parts)]
    before, after, _ = changes[".".join(parts)]
    assert (before, after) == (int(grid[i][j]), new)


def test_an_edited_cost_gives_a_one_key_patch_that_loads_and_sweeps(tmp_path):
    """Archer.L1.cost 2 -> 3 in the workbook: the patch extends the scenario, sets only that key, loads, and a
    one-game sweep of it plays (the CLI says what changed)."""
    sheet = tmp_path / "cards.xlsx"
    assert main(["cards", "export", str(MIRACLE), "-o", str(sheet)]) == 0
    book = load_workbook(sheet)
    ws = book["creatures"]
    cost = [c.value for c in ws[1]].index("cost") + 1
    row = next(r for r in range(2, ws.max_row + 1) if ws.cell(row=r, column=1).value == "Archer.L1")
    ws.cell(row=row, column=cost).value = 3
    book.save(sheet)
    patch = tmp_path / "patches" / "cheap-archer.toml"
    assert main(["cards", "import", str(MIRACLE), str(sheet), "-o", str(patch)]) == 0
    data = tomllib.loads(patch.read_text(encoding="utf-8"))
    assert data == {"extends": data["extends"], "creatures": {"Archer": {"L1": {"cost": 3}}}}
    assert load_scenario(patch).data["creatures"]["Archer"]["L1"]["cost"] == 3
    out = tmp_path / "results"
    deck = "HolyLight:Archer,Priest,Swordsman"
    assert main(["sweep", str(patch), "--games", "1", "--decks", deck, "--workers", "1", "--out", str(out)]) == 0
    assert (out / "meta.json").is_file()


def test_cli_lists_the_changed_keys(tmp_path, capsys):
    """``simkit cards import`` prints each changed key as before -> after."""
    sheet = tmp_path / "cards.csv"
    main(["cards", "export", str(MIRACLE), "-o", str(sheet)])
    _write_csv(sheet, _set(_csv(sheet), "Archer.L1", "cost", "3"))
    capsys.readouterr()
    assert main(["cards", "import", str(MIRACLE), str(sheet), "-o", str(tmp_path / "p.toml")]) == 0
    out = capsys.readouterr().out
    assert "1 key(s) changed" in out and "changed: creatures.Archer.L1.cost: 2 -> 3" in out


@pytest.mark.parametrize("edit, message", [
    (("Archer.L1", "cost", "two"), "row 7 (table creatures), column F (cost; key creatures.Archer.L1.cost): "
                                   "expected a whole number, got 'two'"),
    (("Archer.L1", "cost", ""), "column F (cost; key creatures.Archer.L1.cost): empty, but base.toml sets it to 2"),
    (("Archer.L1", "cost", "-4"), "column F (cost; key creatures.Archer.L1.cost): the patched scenario does not "
                                  "load: "),
    (("Archer", "flying", "maybe"), "column D (flying; key creatures.Archer.flying): expected true or false"),
    (("Archer.L1", "range", "[3"), "column I (range; key creatures.Archer.L1.range): expected a JSON list"),
])
def test_a_bad_cell_is_named_by_row_column_and_key(edit, message, tmp_path):
    """A cell that is not its key's kind, an emptied value, and a value the loader refuses each end in one line
    naming the file, row, column and key, and no patch is written."""
    sheet = tmp_path / "cards.csv"
    export_cards(load_scenario(MIRACLE), sheet)
    _write_csv(sheet, _set(_csv(sheet), *edit))
    with pytest.raises(ValueError) as err:
        import_cards(MIRACLE, sheet, tmp_path / "p.toml")
    assert str(err.value).startswith("cards.csv: ") and message in str(err.value)
    assert not (tmp_path / "p.toml").exists()


def test_a_misspelt_card_or_sheet_is_named_with_a_suggestion(tmp_path):
    """'Archr.L1' and a sheet 'creaturs' are refused naming the sheet, row and column, with the closest name."""
    sheet = tmp_path / "cards.xlsx"
    export_cards(load_scenario(MIRACLE), sheet)
    book = load_workbook(sheet)
    book["creatures"].cell(row=6, column=1).value = "Archr"
    book.save(sheet)
    with pytest.raises(ValueError, match=r"sheet 'creatures': row 6, column A \(card\): 'Archr' is not a card of "
                                         r"creatures \(did you mean Archer\?\)"):
        import_cards(MIRACLE, sheet, tmp_path / "p.toml")
    book["creatures"].cell(row=6, column=1).value = "Archer"
    book["creatures"].title = "creaturs"
    book.save(sheet)
    with pytest.raises(ValueError, match=r"sheet 'creaturs': row 2: 'creaturs' is not a card table of base.toml "
                                         r"\(its card tables: creatures, artifacts\) \(did you mean creatures\?\)"):
        import_cards(MIRACLE, sheet, tmp_path / "p.toml")


def test_a_row_given_twice_and_a_header_without_card_are_refused(tmp_path):
    """A card on two rows names both rows; a sheet without its 'card' column says what the header has."""
    sheet = tmp_path / "cards.csv"
    export_cards(load_scenario(MIRACLE), sheet)
    grid = _csv(sheet)
    _write_csv(sheet, grid + [grid[2]])
    with pytest.raises(ValueError, match=r"row 31 \(table creatures\), column B \(card\): 'Swordsman.L1' is also "
                                         r"row 3"):
        import_cards(MIRACLE, sheet, tmp_path / "p.toml")
    _write_csv(sheet, [["table", "name", "cost"]] + grid[1:])
    with pytest.raises(ValueError, match=r"cards.csv: row 1: no 'card' column \(the header has: table, name, cost\)"):
        import_cards(MIRACLE, sheet, tmp_path / "p.toml")


def test_a_new_key_is_judged_by_the_loader(tmp_path):
    """A column the scenario lacks becomes a new key, and the loader's refusal of the misspelt key names the cell."""
    sheet = tmp_path / "cards.csv"
    export_cards(load_scenario(MIRACLE), sheet)
    grid = _csv(sheet)
    grid[0].append("cots")
    for r in grid[1:]:
        r.append("3" if r[1] == "Archer.L1" else "")
    _write_csv(sheet, grid)
    with pytest.raises(ValueError, match=r"column W \(cots; key creatures.Archer.L1.cots\): the patched scenario "
                                         r"does not load: .*cots"):
        import_cards(MIRACLE, sheet, tmp_path / "p.toml")


def test_export_refuses_another_suffix(tmp_path):
    """Only .xlsx and .csv are written; anything else is one line naming the option."""
    assert main(["cards", "export", str(MIRACLE), "-o", str(tmp_path / "cards.ods")]) == 2
    with pytest.raises(ValueError, match=r"-o .*cards.ods: must end in .xlsx or .csv"):
        export_cards(load_scenario(MIRACLE), tmp_path / "cards.ods")
