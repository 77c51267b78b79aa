"""A sweep says when a search bot's games would sit in one worker's chunk: every chunk is one worker's,
so a pairing of 288 games in chunks of 256 keeps one worker on 256 slow games while the other has 32.
The note names the slow bots and a ``--chunk-size`` that shares them (chunking never changes a result)."""

from __future__ import annotations

import simkit.sweep as sweep_pkg
from simkit.cli import main
from simkit.scenario import load_scenario
from simkit.sweep import SweepSettings, plan_sweep, uneven_share

KRYPTON = "scenarios/krypton/base.toml"


def _plan(chunk_size=None, panel=("hunter", "hunter-search-1")):
    sc = load_scenario(KRYPTON)
    return plan_sweep(sc, SweepSettings(games=8, decks=None, bots=None, panel=panel, chunk_size=chunk_size, seed=None,
                                        adaptive=None))


def test_a_pairing_in_one_big_chunk_names_the_slow_bot_and_a_chunk_size_that_shares_it():
    plan = _plan()  # 36 pairs x 8 games = 288 games a pairing, in chunks of 256
    assert (plan.block_games, plan.chunk_size) == (288, 256)
    note = uneven_share(plan, 2, ["hunter-search-1"])
    assert note is not None
    assert "288 games are 2 chunk(s) of up to 256" in note
    assert "the search bots here (hunter-search-1)" in note
    assert "--chunk-size 36" in note  # 288 / (4 x 2 workers)


def test_no_note_with_one_worker_no_search_bot_or_chunks_within_a_workers_share():
    plan = _plan()
    assert uneven_share(plan, 1, ["hunter-search-1"]) is None
    assert uneven_share(plan, 2, []) is None
    assert uneven_share(_plan(chunk_size=144), 2, ["hunter-search-1"]) is None
    assert uneven_share(_plan(chunk_size=145), 2, ["hunter-search-1"]) is not None


def test_the_sweep_command_prints_the_note_for_its_search_bots_only(tmp_path, monkeypatch, capsys):
    played = []
    monkeypatch.setattr(sweep_pkg, "run_sweep", lambda *a, **k: played.append(a))
    argv = ["sweep", KRYPTON, "--games", "8", "--panel", "hunter,hunter-search-1", "--workers", "2",
            "--out", str(tmp_path / "r")]
    assert main(argv) == 0
    out = capsys.readouterr().out
    note = [line for line in out.splitlines() if line.startswith("note:")]
    assert played and len(note) == 1 and "each bot pairing's 288 games" in note[0]
    assert "(hunter-search-1)" in note[0]  # hunter is a utility personality: not named
    assert main([*argv[:-2], "--chunk-size", "36", "--out", str(tmp_path / "s")]) == 0
    assert "note:" not in capsys.readouterr().out
