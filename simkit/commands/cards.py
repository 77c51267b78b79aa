"""``simkit cards``: card tables to a spreadsheet (export), and an edited sheet back as a patch (import)."""

from __future__ import annotations

import argparse


def run_export(args: argparse.Namespace) -> int:
    """Write the card tables to the XLSX or CSV file and say what it holds."""
    from simkit.cards.sheets import export_cards
    from simkit.scenario import load_scenario

    sc = load_scenario(args.scenario)
    sheets = export_cards(sc, args.out)
    what = ", ".join(f"{s.table} ({len(s.rows)} rows)" for s in sheets)
    print(f"cards: {args.out}: {what}")
    return 0


def run_import(args: argparse.Namespace) -> int:
    """Write the patch of the sheet's changes and list them, key: before -> after."""
    from simkit.cards.sheets import import_cards, toml_value

    changes = import_cards(args.scenario, args.sheet, args.out)
    same = "" if changes else " (the sheet matches the scenario)"
    print(f"patch: {args.out}: {len(changes)} key(s) changed{same}")
    for key, (before, after, _) in changes.items():
        print(f"  changed: {key}: {'(new)' if before is None else toml_value(before)} -> {toml_value(after)}")
    return 0


def register(sub) -> None:
    """Add the ``cards`` command with its ``export`` and ``import`` sub-commands."""
    p = sub.add_parser(
        "cards",
        help="export a scenario's card tables to XLSX/CSV, or import an edited sheet as a patch",
        description="Card tables (creatures and artifacts with their levels, weapons and spells, heroes, towers, "
        "units: every table of the scenario whose entries are tables) to and from a spreadsheet. One row per "
        "card or card level, named in the 'card' column; one column per key; lists as JSON.",
    )
    verbs = p.add_subparsers(dest="verb", metavar="VERB")
    verbs.required = True
    e = verbs.add_parser("export", help="write the card tables to an .xlsx (a sheet per table) or a .csv",
                         description="Write the scenario's card tables, as simkit reads them after extends.")
    e.add_argument("scenario", help="scenario TOML")
    e.add_argument("-o", "--out", required=True, metavar="cards.xlsx|cards.csv", help="the file to write")
    e.set_defaults(func=run_export)
    i = verbs.add_parser("import", help="write a patch holding only the keys an edited sheet changes",
                         description="Compare an edited sheet with the scenario and write a patch that extends it "
                         "with only the changed keys; the patch is checked to load. Errors name the sheet, row, "
                         "column and key.")
    i.add_argument("scenario", help="the scenario the sheet was exported from (the patch extends it)")
    i.add_argument("sheet", metavar="SHEET", help="the edited .xlsx or .csv")
    i.add_argument("-o", "--out", required=True, metavar="patch.toml", help="the patch to write")
    i.set_defaults(func=run_import)
