"""Outside bots (docs/outside-bots.md): the example bot plays every game through `simkit play` and a small
`simkit sweep`; each way a program can fail is a forfeit recorded with who and why and counted apart; nothing
runs without the command line's permission; no program outlives simkit, however simkit ends."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest

import simkit
from simkit import outside
from simkit.analysis import analyze, forfeit_table, ordinary_games
from simkit.core.rng import derive_seed
from simkit.scenario import default_bot

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "bots" / "random_bot.py"
BAD = Path(__file__).with_name("bad_bot.py")
GAMES = ("duel", "krypton", "magic", "miracle")


@pytest.fixture(autouse=True)
def _forget_permissions():
    """Each test starts with no outside bot allowed or given, and ends every program it started."""
    outside.reset()
    yield
    from simkit.outside.process import end_all

    end_all()
    outside.reset()


def _scenario(game: str):
    return simkit.load_scenario(ROOT / "scenarios" / game / "quick.toml")


def _simkit(*args: str, timeout: float = 600, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "simkit", *args], capture_output=True, text=True, timeout=timeout,
                          cwd=ROOT, **kw)


def _bad(mode: str, pids: Path | None = None) -> list[str]:
    return [sys.executable, str(BAD), mode] + ([str(pids)] if pids else [])


def _running(pid: int) -> bool:
    """True while process ``pid`` runs (a zombie waiting to be reaped does not run)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state not in ("Z", "X")


# -- the example bot in every game ----------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_example_bot_plays_simkit_play_in_every_game(game, tmp_path):
    """`simkit play --bot mine=...` plays the example bot against the scenario's first personality to the end, in
    each game, and the JSON record replays to the same result."""
    sc = _scenario(game)
    first, second = sc.decks[0], sc.game.seat_decks()[1][-1]
    record = tmp_path / "game.json"
    r = _simkit("play", str(sc.path), first, second, "--bots", f"mine,{default_bot(sc)}", "--seed", "3",
                "--bot", f"mine={sys.executable} {EXAMPLE}", "--json", str(record))
    assert r.returncode == 0, r.stderr
    assert "forfeit" not in r.stdout
    saved = json.loads(record.read_text())
    replayed = sc.game.replay(first, second, saved["actions"], seed=3)
    assert replayed.over and replayed.winner == saved["result"]["winner"]


@pytest.mark.parametrize("game", GAMES)
def test_example_bot_plays_a_small_sweep_in_every_game(game, tmp_path):
    """A two-deck `simkit sweep` of the example bot against a personality writes its results with no forfeit, and
    the same sweep again writes the same games (the bot's seed comes from the start message)."""
    sc = _scenario(game)
    firsts, seconds = sc.game.seat_decks()
    decks = list(dict.fromkeys([firsts[0], seconds[-1]]))
    results = []
    for run in ("a", "b"):
        out = tmp_path / run
        r = _simkit("sweep", str(sc.path), "--decks", *decks, "--games", "1", "--workers", "1", "--bots",
                    f"mine,{default_bot(sc)}", "--bot", f"mine={sys.executable} {EXAMPLE}", "--out", str(out))
        assert r.returncode == 0, r.stderr
        df = simkit.load_results(out)
        assert len(df) >= 1 and set(df["first_bot"]) == {"mine"}
        assert (df["end_reason"] != "forfeit").all()
        results.append(df.sort_values(["first_deck", "second_deck", "game"])[["winner", "turns", "actions"]])
    pd.testing.assert_frame_equal(results[0].reset_index(drop=True), results[1].reset_index(drop=True))


def test_sweep_workers_reuse_one_program_each(tmp_path):
    """A sweep on two workers starts one program per worker (and one in the sweep's own process, which plays the
    warm-up game), never one per game."""
    sc = _scenario("duel")
    pids = tmp_path / "pids.txt"
    out = tmp_path / "sweep"
    r = _simkit("sweep", str(sc.path), "--decks", *sc.decks[:3], "--games", "2", "--chunk-size", "2", "--workers",
                "2", "--bots", "mine,aggro", "--bot", f"mine={' '.join(_bad('good', pids))}", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert len(simkit.load_results(out)) == 18
    assert 1 <= len(pids.read_text().split()) <= 3


# -- forfeits -------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode, kind", [("crash", "crash"), ("timeout", "timeout"), ("malformed", "malformed"),
                                        ("no-action", "malformed"), ("illegal", "illegal")])
def test_each_failure_is_a_forfeit_with_who_and_why(mode, kind):
    """A program that crashes, says nothing in time, answers something that is not a message or an action, or an
    action that is not legal loses the game by forfeit: end reason ``forfeit``, the other seat wins, and the row
    says which seat failed and why; the next game starts a fresh program and plays normally."""
    sc = _scenario("duel")
    outside.configure(given=[f"bad={' '.join(_bad(mode))}"], decision_seconds=1.0)
    df = simkit.play_games(sc, sc.decks[0], sc.decks[1], bots=("aggro", "bad"), seeds=[1, 2])
    for row in df.itertuples():
        assert (row.end_reason, row.winner, row.forfeit_seat) == ("forfeit", "first", "second")
        assert row.forfeit_reason.startswith(f"{kind}: ")
    if mode == "crash":
        assert "exited with status 3" in df["forfeit_reason"][0]
        assert "crashing on purpose" in df["forfeit_reason"][0]
    good = outside.give("good", _bad("good"))
    df = simkit.play_games(sc, sc.decks[0], sc.decks[1], bots=(good.name, "aggro"), seeds=[1])
    assert df["end_reason"][0] != "forfeit" and df["forfeit_seat"][0] == ""


def test_a_game_time_limit_is_a_timeout():
    """The per-game limit counts the bot's thinking over the whole game: a program slower than the game's budget
    allows forfeits by timeout, naming the game's limit."""
    sc = _scenario("duel")
    outside.configure(given=[f"bad={' '.join(_bad('timeout'))}"], decision_seconds=5.0, game_seconds=0.5)
    row = simkit.play_games(sc, sc.decks[0], sc.decks[1], bots=("bad", "aggro"), seeds=[1]).iloc[0]
    assert row["forfeit_seat"] == "first" and row["forfeit_reason"].startswith("timeout: ")
    assert "the game's limit" in row["forfeit_reason"]


def test_a_program_that_cannot_start_forfeits_at_the_start():
    """A command that names no program forfeits the game before any decision, saying it cannot start."""
    sc = _scenario("duel")
    outside.give("ghost", ["/nonexistent/simkit-bot"])
    row = simkit.play_games(sc, sc.decks[0], sc.decks[1], bots=("aggro", "ghost"), seeds=[1]).iloc[0]
    assert row["end_reason"] == "forfeit" and row["forfeit_reason"].startswith("crash: at the start: cannot start")
    assert row["actions"] == 0


def test_forfeits_are_counted_apart_in_every_table():
    """analyze() leaves forfeited games out of every table and counts them in its own: the decks' games are the
    ordinary games only, and the forfeits table names the bot, its seat and the kind."""
    sc = _scenario("duel")
    outside.configure(given=[f"odd={' '.join(_bad('crash-odd'))}"])
    decks = list(sc.decks[:2])
    pairs = [(a, b) for a in decks for b in decks]
    seeds = list(range(1, 9))
    df = simkit.play_games(sc, [a for a, _ in pairs for _ in seeds], [b for _, b in pairs for _ in seeds],
                           bots=("odd", "aggro"), seeds=seeds * len(pairs))
    df.insert(2, "game", [i % len(seeds) for i in range(len(df))])
    odd = sum(1 for s in seeds if derive_seed(s, "outside", 0) % 2) * len(pairs)
    assert 0 < odd < len(df)
    assert (df["end_reason"] == "forfeit").sum() == odd
    tables = analyze(df, bootstrap=20)
    table = tables["forfeits"]
    assert table[["bot", "seat", "kind"]].values.tolist() == [["odd", "first", "crash"]]
    assert int(table["games"].sum()) == odd
    assert int(tables["pairing_games"].sum()) == len(df) - odd
    assert (ordinary_games(df)["end_reason"] != "forfeit").all()
    assert forfeit_table(ordinary_games(df)).empty


# -- permission -----------------------------------------------------------------------------------------------------


def _scenario_with_bot(tmp_path: Path, command: list[str]) -> Path:
    path = tmp_path / "with-bot.toml"
    path.write_text(f'extends = "{ROOT / "scenarios" / "duel" / "quick.toml"}"\n'
                    f'[bots.mine]\ncommand = {json.dumps(command)}\ndecision_seconds = 2.0\n')
    return path


def test_a_scenario_bot_runs_only_with_allow_bot(tmp_path):
    """A scenario naming a program as a bot: `play` and `sweep` refuse in one line naming the program and the flag,
    exit 2, start nothing and write nothing; with --allow-bot the same command plays."""
    pids = tmp_path / "pids.txt"
    path = _scenario_with_bot(tmp_path, _bad("good", pids))
    sc = simkit.load_scenario(path)
    assert "mine" in sc.game.bot_names()
    play = ["play", str(path), sc.decks[0], sc.decks[1], "--bots", "mine,aggro"]
    r = _simkit(*play)
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "would run" in lines[0] and "--allow-bot mine" in lines[0] and str(BAD) in lines[0]
    out = tmp_path / "sweep"
    r = _simkit("sweep", str(path), "--decks", *sc.decks[:2], "--games", "1", "--bots", "mine,aggro", "--out",
                str(out))
    assert r.returncode == 2 and "--allow-bot mine" in r.stderr
    assert not out.exists() and not pids.exists()
    r = _simkit(*play, "--allow-bot", "mine")
    assert r.returncode == 0, r.stderr
    assert pids.exists()


def test_an_outside_bot_table_is_checked(tmp_path):
    """An outside bot's table with a bad command or an unknown key is refused at load, naming file and key."""
    path = tmp_path / "bad.toml"
    path.write_text(f'extends = "{ROOT / "scenarios" / "duel" / "quick.toml"}"\n[bots.mine]\ncommand = []\n')
    with pytest.raises(simkit.ScenarioError, match=r"bad.toml: bots.mine.command: must be the program"):
        simkit.load_scenario(path)
    path.write_text(f'extends = "{ROOT / "scenarios" / "duel" / "quick.toml"}"\n[bots.mine]\ncommand = ["x"]\n'
                    "timeout = 3\n")
    with pytest.raises(simkit.ScenarioError, match=r"bots.mine.timeout: unknown key"):
        simkit.load_scenario(path)


# -- no program outlives simkit -------------------------------------------------------------------------------------


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGINT])
def test_no_program_outlives_simkit(how, tmp_path):
    """simkit killed (SIGKILL), terminated (SIGTERM) or interrupted (SIGINT) while its outside bot thinks: the
    bot's program is gone within seconds."""
    pids = tmp_path / "pids.txt"
    sc = _scenario("duel")
    proc = subprocess.Popen([sys.executable, "-m", "simkit", "play", str(sc.path), sc.decks[0], sc.decks[1], "--bots",
                             "mine,aggro", "--bot-time", "600", "--bot", f"mine={' '.join(_bad('hang', pids))}"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        while not (pids.exists() and pids.read_text().strip()) and time.monotonic() < deadline:
            assert proc.poll() is None, "simkit ended before its bot started"
            time.sleep(0.2)
        bot = int(pids.read_text().split()[0])
        assert _running(bot)
        time.sleep(0.5)  # the bot now waits in its first decision
        proc.send_signal(how)
        proc.wait(timeout=60)
        deadline = time.monotonic() + 10
        while _running(bot) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _running(bot), f"the bot's program {bot} outlived simkit ({how.name})"
    finally:
        if proc.poll() is None:
            proc.kill()
        for pid in (pids.read_text().split() if pids.exists() else []):
            if _running(int(pid)):
                os.kill(int(pid), signal.SIGKILL)


def test_the_report_says_on_its_first_page_how_many_games_were_forfeited(tmp_path):
    """A sweep where the outside bot crashes in some games: the report's first page says how many games ended by a
    forfeit, whose and why, and that no table counts them; the forfeits table is written beside it."""
    sc = _scenario("duel")
    out, pdf = tmp_path / "sweep", tmp_path / "report.pdf"
    r = _simkit("sweep", str(sc.path), "--decks", *sc.decks[:2], "--games", "6", "--workers", "1", "--bots",
                "odd,aggro", "--bot", f"odd={' '.join(_bad('crash-odd'))}", "--out", str(out))
    assert r.returncode == 0, r.stderr
    lost = int((simkit.load_results(out)["end_reason"] == "forfeit").sum())
    assert 0 < lost < 24
    assert f"forfeits: {lost} of 24 games (odd as the first player: {lost} crashes)" in r.stdout
    r = _simkit("report", str(out), "-o", str(pdf))
    assert r.returncode == 0, r.stderr
    first = subprocess.run(["pdftotext", "-f", "1", "-l", "1", str(pdf), "-"], capture_output=True, text=True,
                           check=True).stdout
    assert f"{lost} of 24 games ended by a forfeit (odd as the first player: {lost} crashes)" in " ".join(first.split())
    table = pd.read_csv(tmp_path / "report.forfeits.csv")
    assert table[["bot", "seat", "kind", "games"]].values.tolist() == [["odd", "first", "crash", lost]]


def test_no_program_outlives_a_killed_sweep_and_its_workers(tmp_path):
    """A sweep on two workers killed with SIGKILL while its workers' programs play: every program it started (the
    sweep's own and each worker's) is gone within seconds."""
    pids = tmp_path / "pids.txt"
    sc = _scenario("duel")
    proc = subprocess.Popen([sys.executable, "-m", "simkit", "sweep", str(sc.path), "--decks", *sc.decks[:3],
                             "--games", "60", "--chunk-size", "5", "--workers", "2", "--bots", "mine,aggro", "--bot",
                             f"mine={' '.join(_bad('good', pids))}", "--out", str(tmp_path / "sweep")],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 300
        while len(pids.read_text().split() if pids.exists() else []) < 3 and time.monotonic() < deadline:
            assert proc.poll() is None, "the sweep ended before its workers started their programs"
            time.sleep(0.2)
        started = [int(p) for p in pids.read_text().split()]
        assert len(started) >= 3 and any(_running(p) for p in started)
        proc.kill()
        proc.wait(timeout=60)
        deadline = time.monotonic() + 10
        while any(_running(p) for p in started) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [p for p in started if _running(p)], "a program outlived the killed sweep"
    finally:
        if proc.poll() is None:
            proc.kill()
        for pid in (pids.read_text().split() if pids.exists() else []):
            if _running(int(pid)):
                os.kill(int(pid), signal.SIGKILL)


def test_a_ladder_counts_an_outside_bots_forfeits_apart(tmp_path):
    """`simkit ladder` with an outside rung that crashes in some games: the match's score counts only the games
    played to their end, the forfeits are counted beside it, and the answer says they were not counted."""
    sc = _scenario("duel")
    out = tmp_path / "ladder"
    r = _simkit("ladder", str(sc.path), "--rungs", "odd,aggro", "--games", "16", "--workers", "1", "--quiet", "--bot",
                f"odd={' '.join(_bad('crash-odd'))}", "--out", str(out))
    assert r.returncode == 0, r.stderr
    doc = json.loads((out / "ladder.json").read_text())
    match = doc["matches"][0]
    assert match["forfeits"] > 0 and match["games"] + match["forfeits"] == 16
    assert f"{match['forfeits']} games ended by a forfeit" in doc["answer"]
