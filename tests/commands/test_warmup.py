"""simkit warmup: compiles (or loads) a game's kernels ahead and says how long it took; bad input is one line."""

from __future__ import annotations

from pathlib import Path

from simkit.cli import main

ROOT = Path(__file__).resolve().parents[2]


def test_warmup_plays_a_games_kernels_and_says_so(capsys):
    """One game's sweep and play kernels are compiled or loaded, one line a game."""
    assert main(["warmup", "duel", "--scenario", str(ROOT / "scenarios/duel/quick.toml")]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1 and out[0].startswith("Card Duel: ") and "s of CPU)" in out[0]


def test_bad_input_is_one_line(capsys, monkeypatch):
    """An unknown game or way, a scenario for several games, or a disabled JIT: exit 2, one line."""
    for argv, words in ((["warmup", "chess"], "unknown game 'chess'"),
                        (["warmup", "duel", "--ways", "sweep,fly"], "--ways: 'fly' is not one of sweep, play"),
                        (["warmup", "duel", "magic", "--scenario", "x.toml"], "--scenario: name the one game")):
        assert main(argv) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and words in err[0]
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    assert main(["warmup", "duel"]) == 2
    assert "nothing is compiled" in capsys.readouterr().err
