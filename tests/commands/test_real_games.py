"""Real games beside simulated ones, end to end: import a CSV, report it, and report it against a sweep of the same
decks (the 'Real play against simulation' page and its first sentence, in the PDF, its CSV and the HTML page)."""

from __future__ import annotations

import pandas as pd
from pypdf import PdfReader

from simkit.cli import main

A = "HolyLight:Archer,Priest,Swordsman"
B = "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"


def real_csv(tmp_path):
    """Twelve real games of A and B under the short scenario (12 turns): the second seat wins most."""
    rows = ["first_deck,second_deck,winner,turns,end_reason,date"]
    rows += [f'"{A}","{B}",second,12,turn_limit,2020-03-0{1 + i % 9}' for i in range(5)]
    rows += [f'"{B}","{A}",second,9,miracle,2020-03-1{i}' for i in range(4)]
    rows += [f'"{A}","{A}",first,12,turn_limit,2020-03-2{i}' for i in range(2)]
    rows += [f'"{B}","{B}",draw,12,turn_limit,2020-03-28']
    path = tmp_path / "games.csv"
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    return path


def test_import_then_report_against_a_sweep(tmp_path, capsys, short_scenario):
    """import-games writes the folder, report reads it as real games (no bot claimed), and report --against adds the
    comparison page after the title page, its answer first, with its table as CSV and a section in the HTML."""
    real, sweep = tmp_path / "real", tmp_path / "sweep"
    assert main(["import-games", str(real_csv(tmp_path)), "--scenario", str(short_scenario), "-o", str(real)]) == 0
    assert "imported 12 real games" in capsys.readouterr().out
    assert main(["sweep", str(short_scenario), "--decks", A, B, "--games", "2", "--workers", "1",
                 "--out", str(sweep)]) == 0
    pdf = tmp_path / "real.pdf"
    assert main(["report", str(real), "--against", str(sweep), "-o", str(pdf), "--html", str(tmp_path / "r.html")]) == 0
    pages = [" ".join(p.extract_text().split()) for p in PdfReader(pdf).pages]
    assert "Players: people, not bots: 12 real games imported from games.csv" in pages[0]
    assert "Bots:" not in pages[0] and "The sweep" not in pages[0]
    assert "Real play against balanced's simulation: the first seat" in pages[1] and "page 2" in pages[1]
    assert "Real play against balanced's simulation" in pages[0]  # its answer is a headline of the title page too
    table = pd.read_csv(tmp_path / "real.against.csv")
    assert list(table["subject"]) == ["the first seat", A, B] and list(table["real_games"]) == [12, 9, 9]
    html = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert html.index("Real play against simulation") < html.index("Headlines")
    assert "Real games are not played again" in html


def test_a_bad_row_ends_in_one_line_and_writes_nothing(tmp_path, capsys, short_scenario):
    """A deck the scenario does not allow: exit 2, one line naming the file, line, column and value; no folder."""
    path = tmp_path / "games.csv"
    path.write_text(f'first_deck,second_deck,winner,turns,end_reason\n"{A}","HolyLight:Archer",first,5,miracle\n')
    assert main(["import-games", str(path), "--scenario", str(short_scenario), "-o", str(tmp_path / "real")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"{path}: line 2: second_deck 'HolyLight:Archer'" in err
    assert not (tmp_path / "real").exists()


def test_against_needs_real_games(tmp_path, capsys, short_scenario):
    """report --against on a sweep's own folder is refused in one line saying what to import first."""
    sweep = tmp_path / "sweep"
    assert main(["sweep", str(short_scenario), "--decks", A, B, "--games", "1", "--workers", "1",
                 "--out", str(sweep)]) == 0
    capsys.readouterr()
    assert main(["report", str(sweep), "--against", str(sweep), "-o", str(tmp_path / "x.pdf")]) == 2
    assert "give a folder written by simkit import-games first" in capsys.readouterr().err


def test_replays_and_a_csv_import_together_and_a_refused_action_is_said(tmp_path, capsys, short_scenario):
    """Battle of Miracles' original replays import beside a CSV: a faithful replay adds its game silently, an
    altered one adds its game and says the refused action on stderr (file and round) and in meta.json."""
    import json
    import struct

    import simkit
    from simkit.games.miracle.original_replay import MOVE, read_records, write_replay

    sc = simkit.load_scenario(short_scenario)
    out = sc.game.play_batch([A], [B], [3], ["balanced", "balanced"], record_actions=True)
    good = write_replay(sc.game.replay(A, B, out["action_list"][0]), tmp_path / "good.rpy")
    records = read_records(good)
    i = next(i for i, r in enumerate(records) if r[1] == MOVE)
    records[i] = (*records[i][:3], 7, -6, 0, 0)
    head = list(struct.unpack(">7i", good.read_bytes()[:28]))
    body = [v for r in records for v in r]
    bad = tmp_path / "bad.rpy"
    bad.write_bytes(struct.pack(f">{8 + len(body)}i", *head, *body, -1))
    real = tmp_path / "real"
    assert main(["import-games", str(good), str(bad), str(real_csv(tmp_path)), "--scenario", str(short_scenario),
                 "-o", str(real)]) == 0
    captured = capsys.readouterr()
    assert "imported 14 real games" in captured.out
    lines = captured.err.strip().splitlines()
    assert lines and all(line.startswith(f"simkit import-games: {bad}: round ") for line in lines)
    assert "refused by simkit's engine: move" in lines[0]
    assert json.loads((real / "meta.json").read_text())["notes"][0] == lines[0].removeprefix("simkit import-games: ")
    df = simkit.load_results(real)
    assert sorted(df["source"].str.split(":").str[0].unique()) == ["bad.rpy", "games.csv", "good.rpy"]
    assert main(["report", str(real), "-o", str(tmp_path / "r.pdf")]) == 0


def test_every_command_of_the_page_parses():
    """Every simkit command docs/real-games.md shows parses with the real argument parser."""
    from pathlib import Path

    from test_docs import commands

    from simkit.cli import build_parser

    page = (Path(__file__).resolve().parents[2] / "docs" / "real-games.md").read_text(encoding="utf-8")
    shown = commands(page)
    assert {argv[0] for argv in shown} == {"import-games", "report", "sweep"}
    for argv in shown:
        build_parser().parse_args(argv)
