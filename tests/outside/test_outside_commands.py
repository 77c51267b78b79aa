"""Outside bots on the command line: the example bot plays `simkit play` in every game; a scenario's program runs
only with --allow-bot; no program outlives simkit, however simkit ends."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from outside_kit import BAD, EXAMPLE, GAMES, ROOT, bad, kill_left, run_simkit, running, scenario

import simkit
from simkit.scenario import default_bot


@pytest.mark.parametrize("game", GAMES)
def test_example_bot_plays_simkit_play_in_every_game(game, tmp_path):
    """`simkit play --bot mine=...` plays the example bot against the scenario's first personality to the end, in
    each game, and the JSON record replays to the same result."""
    sc = scenario(game)
    first, second = sc.decks[0], sc.game.seat_decks()[1][-1]
    record = tmp_path / "game.json"
    r = run_simkit("play", str(sc.path), first, second, "--bots", f"mine,{default_bot(sc)}", "--seed", "3",
                "--bot", f"mine={sys.executable} {EXAMPLE}", "--json", str(record))
    assert r.returncode == 0, r.stderr
    assert "forfeit" not in r.stdout
    saved = json.loads(record.read_text())
    replayed = sc.game.replay(first, second, saved["actions"], seed=3)
    assert replayed.over and replayed.winner == saved["result"]["winner"]


def _scenario_with_bot(tmp_path: Path, command: list[str]) -> Path:
    """A Card Duel patch whose bot ``mine`` is the program ``command``."""
    path = tmp_path / "with-bot.toml"
    path.write_text(f'extends = "{ROOT / "scenarios" / "duel" / "quick.toml"}"\n'
                    f'[bots.mine]\ncommand = {json.dumps(command)}\ndecision_seconds = 2.0\n')
    return path


def test_a_scenario_bot_runs_only_with_allow_bot(tmp_path):
    """A scenario naming a program as a bot: `play` and `sweep` refuse in one line naming the program and the flag,
    exit 2, start nothing and write nothing; with --allow-bot the same command plays."""
    pids = tmp_path / "pids.txt"
    path = _scenario_with_bot(tmp_path, bad("good", pids))
    sc = simkit.load_scenario(path)
    assert "mine" in sc.game.bot_names()
    play = ["play", str(path), sc.decks[0], sc.decks[1], "--bots", "mine,aggro"]
    r = run_simkit(*play)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "would run" in lines[0] and "--allow-bot mine" in lines[0] and str(BAD) in lines[0]
    out = tmp_path / "sweep"
    r = run_simkit("sweep", str(path), "--decks", *sc.decks[:2], "--games", "1", "--bots", "mine,aggro", "--out",
                str(out))
    assert r.returncode == 2 and "--allow-bot mine" in r.stderr
    assert not out.exists() and not pids.exists()
    r = run_simkit(*play, "--allow-bot", "mine")
    assert r.returncode == 0, r.stderr
    assert pids.exists()


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_no_program_outlives_simkit(how, tmp_path):
    """simkit killed (SIGKILL), terminated (SIGTERM) or interrupted (SIGINT) while its outside bot thinks: the
    bot's program is gone within seconds."""
    pids = tmp_path / "pids.txt"
    sc = scenario("duel")
    proc = subprocess.Popen([sys.executable, "-m", "simkit", "play", str(sc.path), sc.decks[0], sc.decks[1], "--bots",
                             "mine,aggro", "--bot-time", "600", "--bot", f"mine={' '.join(bad('hang', pids))}"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as a terminal leaves it
    try:
        deadline = time.monotonic() + 300
        waiting = Path(f"{pids}.waiting")  # the bot writes it when it is given its first decision
        while not waiting.exists() and time.monotonic() < deadline:
            assert proc.poll() is None, "simkit ended before its bot was given a decision"
            time.sleep(0.2)
        bot = int(pids.read_text().split()[0])
        assert running(bot)  # simkit now waits on the bot (its kernels loaded or compiled, the game begun)
        proc.send_signal(how)
        proc.wait(timeout=60)
        deadline = time.monotonic() + 10
        while running(bot) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not running(bot), f"the bot's program {bot} outlived simkit ({how.name})"
    finally:
        if proc.poll() is None:
            proc.kill()
        kill_left(pids)
