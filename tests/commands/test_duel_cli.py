"""The Card Duel through every generic command: sweep, report (card and weapon pages), compare, play, replay."""

from __future__ import annotations

from pathlib import Path

from pypdf import PdfReader

from simkit.cli import main

ROOT = Path(__file__).resolve().parents[2]
QUICK = ROOT / "scenarios" / "duel" / "quick.toml"
PATCH = ROOT / "scenarios" / "duel" / "rage-patch.toml"
DECKS = ["Dagger+Longbow:Frost,Mend,Reflect", "Greataxe+Spear:Rage,ShadowBolt,Venom"]


def test_duel_sweep_report_and_compare_end_to_end(tmp_path, capsys):
    """A small duel sweep and its patch: the report names weapons and spells, the comparison pairs every game."""
    for scenario, out in ((QUICK, "base"), (PATCH, "patch")):
        assert main(["sweep", str(scenario), "--decks", *DECKS, "--games", "2", "--workers", "1",
                     "--out", str(tmp_path / out)]) == 0
    assert main(["report", str(tmp_path / "base"), "-o", str(tmp_path / "base.pdf")]) == 0
    text = " ".join(page.extract_text() for page in PdfReader(tmp_path / "base.pdf").pages)
    assert "Cards: weapons and spells" in " ".join(text.split()) and "hp_zero" not in text.split("How")[0]
    assert (tmp_path / "base.cards.csv").read_text().count("weapon") == 4
    assert main(["compare", str(tmp_path / "base"), str(tmp_path / "patch"), "-o", str(tmp_path / "cmp.pdf")]) == 0
    assert "paired games with the same seed: 100%" in " ".join(PdfReader(tmp_path / "cmp.pdf").pages[0]
                                                                 .extract_text().split())


def test_duel_play_then_replay_as_text(tmp_path, capsys):
    """`play --json` then `replay -o game.txt` tells the same game; a picture is refused with one line."""
    record = tmp_path / "duel.json"
    assert main(["play", str(QUICK), DECKS[0], DECKS[1], "--bots", "aggro,control", "--seed", "3",
                 "--json", str(record)]) == 0
    played = capsys.readouterr().out
    assert main(["replay", str(record), "-o", str(tmp_path / "duel.txt")]) == 0
    told = (tmp_path / "duel.txt").read_text()
    assert told.splitlines()[1] in played and "result: " in told
    assert main(["replay", str(record), "-o", str(tmp_path / "duel.png")]) == 2
    assert "output must end in .txt for Card Duel" in capsys.readouterr().err
