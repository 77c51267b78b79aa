"""lab/tune_bot.py: a utility personality's numbers tuned against opponents, on tiny data, for two games;
the tuned bot written as a scenario that loads and plays; bad input refused with one message."""

from __future__ import annotations

from pathlib import Path

import pytest
from lab_module import load

import simkit

ROOT = Path(__file__).resolve().parents[2]
tune_bot = load("tune_bot")

GAMES = {"krypton": ("scenarios/krypton/quick.toml", "hunter", "balanced"),
         "duel": ("scenarios/duel/quick.toml", "aggro", "control")}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_tuning_writes_a_bot_that_loads_and_plays_with_its_fresh_games_reported(tmp_path, capsys, game):
    path, start, against = GAMES[game]
    out = tmp_path / "tuned.toml"
    assert tune_bot.main(["--scenario", str(ROOT / path), "--start", start, "--against", against, "--trials", "3",
                          "--games", "4", "--check-games", "4", "--out", str(out)]) == 0
    printed = capsys.readouterr().out
    assert f"tuned vs {against}, 4 fresh games" in printed and f"{start} vs {against}, 4 fresh games" in printed
    text = out.read_text()
    assert "not the designer's" in text and f'like = "{start}"' in text
    sc = simkit.load_scenario(out)
    assert "tuned" in sc.game.bot_names()
    df = simkit.play_games(sc, sc.decks[0], sc.decks[-1], bots=("tuned", against), seeds=[1, 2])
    assert len(df) == 2


def test_the_start_table_is_the_first_trial_so_the_best_is_never_worse_in_sample(tmp_path, capsys):
    """One trial: the start table itself, so the written numbers are the start's."""
    out = tmp_path / "same.toml"
    path, start, against = GAMES["krypton"]
    assert tune_bot.main(["--scenario", str(ROOT / path), "--start", start, "--against", against, "--trials", "1",
                          "--games", "4", "--check-games", "4", "--out", str(out)]) == 0
    sc = simkit.load_scenario(out)
    bots = sc.data["bots"]
    start_table = {**bots["balanced"], **bots["hunter"]}
    for key, value in bots["tuned"].items():
        if key != "like":
            assert value == pytest.approx(start_table[key]), key


@pytest.mark.parametrize("args, message", [
    (["--start", "nobody"], "bots.nobody: no such bot table"),
    (["--start", "search-1"], "bots.search-1: a search bot"),
    (["--start", "hunter", "--space", "courage=0:1"], "--space: courage: not a number of bots.hunter"),
    (["--start", "hunter", "--against", "ghost"], "unknown bot 'ghost'"),
])
def test_bad_input_is_refused_with_one_message(capsys, args, message):
    base = ["--scenario", str(ROOT / "scenarios/krypton/quick.toml"), "--against", "balanced", "--trials", "1",
            "--games", "2"]
    assert tune_bot.main(base + args) == 2
    assert message in capsys.readouterr().err
