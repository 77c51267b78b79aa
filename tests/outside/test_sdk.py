"""Battle of Miracles' original competition protocol (docs/outside-bots.md, "The original SDK's protocol"): the
judger's framing, the state message of a literal position, an AI that chooses its own deck and plays it, and each
way such an AI fails as a forfeit, with no program left after its game."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from outside_kit import ROOT, kill_left, run_simkit, running, scenario

import simkit
from simkit import outside
from simkit.games.miracle.sdk import SdkSeat, state_message
from simkit.outside.bots import OutsideBot
from simkit.outside.play import own_decks
from simkit.outside.process import BotFailure, LengthPrefixed

SDK_EXAMPLE = ROOT / "examples" / "bots" / "sdk_random_bot.py"
SDK_BAD = Path(__file__).with_name("sdk_bad_bot.py")
#: the decks the test AI (sdk_bad_bot.py) and the example AI choose as the first player
BAD_DECK = "HolyLight:Archer,Swordsman,VolcanoDragon"
OTHER = "SalamanderShield:BlackBat,FrostDragon,Swordsman"


def sdk_bad(mode: str, pids: Path | None = None) -> str:
    """The command of tests/outside/sdk_bad_bot.py in ``mode``."""
    return " ".join([sys.executable, str(SDK_BAD), mode] + ([str(pids)] if pids else []))


def test_the_judgers_framing():
    """To the program: six ASCII digits of length, then compact JSON; from it: a 4-byte big-endian length, then
    JSON. A message cut short waits, a zero length is skipped, a length past the limit or a negative one and text
    that is not a JSON object are malformed."""
    f = LengthPrefixed()
    assert f.encode({"camp": 1}) == b'000010{"camp":1}'
    whole = (10).to_bytes(4, "big") + b'{"camp":1}'
    buffer = bytearray((0).to_bytes(4, "big") + whole[:7])
    assert f.decode(buffer) is None
    buffer += whole[7:]
    assert f.decode(buffer) == {"camp": 1} and buffer == bytearray()
    for bad, words in (((1025).to_bytes(4, "big") + b"x", "length of 1025"), ((-1).to_bytes(4, "big", signed=True),
                       "length of -1"), ((3).to_bytes(4, "big") + b"abc", "not JSON"),
                       ((2).to_bytes(4, "big") + b"[]", "not a JSON object")):
        with pytest.raises(BotFailure, match=words) as caught:
            f.decode(bytearray(bad))
        assert caught.value.kind == "malformed"


def test_the_state_message_of_a_literal_position():
    """After the first player summons an Archer and the second a BlackBat, the first player's state at round 2 is
    the original logic's: unit rows (id = simkit's + 2, type numbers, current attack, range, cooldown, position,
    flags), neutral barracks, both miracles, each player's artifact row, its creatures in its init's order (the
    other's in deck order) with units left and cooling, and the units the second summoned in its last turn."""
    sc = scenario("miracle")
    m = sc.game.new_match(BAD_DECK, OTHER)
    seat = SdkSeat(OutsideBot("ai", ("x",)), 0, sc)
    seat.creatures = ["Swordsman", "Archer", "VolcanoDragon"]
    seat.start(m)
    for action in [("summon", "Archer", 1, (-8, 6, 2)), ("end_turn",), ("summon", "BlackBat", 1, (8, -6, -2)),
                   ("end_turn",)]:
        m.do(action)
        seat.witness(m, action)
    assert state_message(m, 0, seat.orders, seat.newly, seat.last_used) == {
        "map": {"units": [[3, 0, 0, 2, 1, 2, 2, [3, 4], 3, 4, [-8, 6, 2], 1, 0, 1, 0, 0, 1, 1],
                          [4, 1, 2, 2, 1, 1, 1, [0, 1], 4, 3, [8, -6, -2], 1, 1, 1, 0, 0, 0, 0]],
                "barracks": [-1, -1, -1, -1], "miracles": [30, 30]},
        "players": [[[[0, 0, 6, 5, 0, 0, 0, [-1, -1, -1]]], 2, 2, [[1, 6, []], [0, 2, []], [4, 3, []]], []],
                    [[[1, 1, 6, 4, 0, 0, 1, [-1, -1, -1]]], 0, 2, [[2, 2, []], [6, 3, []], [1, 6, []]], [4]]],
        "round": 2, "camp": 0}


def test_an_sdk_ai_plays_its_own_deck_to_the_end(tmp_path):
    """The example AI, written from the SDK's documents, is asked its deck (by camp), plays it against a personality
    through the library to the end with no forfeit, and its row records the deck it chose; its program is gone
    after the game."""
    sc = scenario("miracle")
    outside.configure(given=[f"ai={sys.executable} {SDK_EXAMPLE}"], protocols=["ai=sdk"])
    decks = own_decks(sc, ("balanced", "ai"))
    assert decks == {1: OTHER}
    row = simkit.play_games(sc, sc.decks[0], decks[1], bots=("balanced", "ai"), seeds=[5]).iloc[0]
    assert row["end_reason"] in ("miracle", "turn_limit") and row["forfeit_seat"] == ""
    assert row["second_deck"] == OTHER and row["actions"] > 20
    assert _children_running(SDK_EXAMPLE) == []


def _children_running(script: Path) -> list[int]:
    """The processes this test started that run ``script`` and have not ended (zombies not counted)."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            status = (entry / "status").read_text()
            command = (entry / "cmdline").read_bytes().split(b"\0")
        except (OSError, ValueError):
            continue
        fields = dict(line.split(":\t", 1) for line in status.splitlines() if ":\t" in line)
        if (fields.get("PPid", "").strip() == str(os.getpid()) and not fields.get("State", "").startswith("Z")
                and str(script).encode() in command):
            found.append(int(entry.name))
    return found


@pytest.mark.parametrize("mode, kind, words", [
    ("malformed", "malformed", "not JSON"), ("long", "malformed", "length of 5000"),
    ("no-unit", "illegal", "no unit with id 999"), ("refused", "illegal", "not one of the current player's spawn"),
    ("round", "illegal", "for round 1, the game is at round 0"), ("surrender", "surrender", "surrendered"),
    ("crash", "crash", "exited with status 3"), ("hang", "timeout", "no answer to decision 1"),
    ("bad-deck", "illegal", "at the start: a deck is one artifact and three different creatures")])
def test_each_failure_of_an_sdk_ai_is_a_forfeit(mode, kind, words, tmp_path):
    """An AI that answers what is not a message, an operation naming no unit or one the rules refuse, an operation
    for another round, a surrender, a crash, no answer in time or an illegal deck loses by forfeit, with who and
    why; its program is ended with the game."""
    sc = scenario("miracle")
    pids = tmp_path / "pids.txt"
    outside.configure(given=[f"ai={sdk_bad(mode, pids)}"], protocols=["ai=sdk"], decision_seconds=1.0)
    try:
        row = simkit.play_games(sc, BAD_DECK, OTHER, bots=("ai", "balanced"), seeds=[1]).iloc[0]
        assert (row["end_reason"], row["winner"], row["forfeit_seat"]) == ("forfeit", "second", "first")
        assert row["forfeit_reason"].startswith(f"{kind}: ") and words in row["forfeit_reason"]
        assert [p for p in map(int, pids.read_text().split()) if running(p)] == []
    finally:
        kill_left(pids)


def test_the_lenient_protocol_refuses_an_operation_and_asks_again(tmp_path, caplog):
    """``sdk-lenient`` does what the original server did with a refused operation: the same state again, and the AI
    goes on (the game is played to its end, the refusal logged); an AI repeating it (or a whole message that is
    not JSON) past the turn's refusals forfeits, naming the count; a frame out of step is a forfeit at once."""
    from simkit.games.miracle.sdk import REFUSALS_PER_TURN

    sc = scenario("miracle")
    outside.configure(given=[f"once={sdk_bad('refused-once')}", f"always={sdk_bad('refused')}",
                             f"long={sdk_bad('long')}", f"text={sdk_bad('malformed')}"],
                      protocols=["once=sdk-lenient", "always=sdk-lenient", "long=sdk-lenient", "text=sdk-lenient"])
    with caplog.at_level("WARNING", logger="simkit.outside"):
        row = simkit.play_games(sc, BAD_DECK, OTHER, bots=("once", "balanced"), seeds=[1]).iloc[0]
    assert row["end_reason"] == "miracle" and row["winner"] == "second" and row["forfeit_seat"] == ""
    assert "bot 'once' as the first player: 1 operation(s) refused and answered again" in caplog.text
    row = simkit.play_games(sc, BAD_DECK, OTHER, bots=("always", "balanced"), seeds=[1]).iloc[0]
    assert row["end_reason"] == "forfeit" and row["forfeit_reason"].startswith("illegal: decision ")
    assert f"refused operation {REFUSALS_PER_TURN + 1} of this turn" in row["forfeit_reason"]
    row = simkit.play_games(sc, BAD_DECK, OTHER, bots=("long", "balanced"), seeds=[1]).iloc[0]
    assert row["forfeit_reason"].startswith("malformed: ") and "length of 5000" in row["forfeit_reason"]
    assert "refused operation" not in row["forfeit_reason"]  # a frame out of step is never refused and read on
    row = simkit.play_games(sc, BAD_DECK, OTHER, bots=("text", "balanced"), seeds=[1]).iloc[0]
    assert row["forfeit_reason"].startswith("malformed: ") and "not JSON" in row["forfeit_reason"]
    assert f"refused operation {REFUSALS_PER_TURN + 1} of this turn" in row["forfeit_reason"]


def test_an_ai_that_changes_its_deck_forfeits_before_the_first_turn(tmp_path):
    """A game holds an SDK seat to the deck its program chose when asked before the games (a sweep plans its
    pairings with it): a program choosing another deck in the game forfeits at the start, naming both decks."""
    sc = scenario("miracle")
    pids = tmp_path / "pids.txt"
    outside.configure(given=[f"ai={sdk_bad('flip', pids)}"], protocols=["ai=sdk"])
    try:
        held = own_decks(sc, ("ai", "balanced"))[0]
        row = simkit.play_games(sc, held, OTHER, bots=("ai", "balanced"), seeds=[1]).iloc[0]
        assert row["end_reason"] == "forfeit" and row["actions"] == 0
        assert "illegal: at the start: it chose the deck WindBlessing" in row["forfeit_reason"]
        assert held in row["forfeit_reason"]
    finally:
        kill_left(pids)


def test_the_sdk_protocol_is_refused_where_the_game_does_not_speak_it():
    """``--bot-protocol NAME=sdk`` for a Card Duel bot, or for a name no outside bot has, is refused in one line
    before anything runs."""
    duel = scenario("duel")
    outside.configure(given=["ai=python3 x.py"], protocols=["ai=sdk"])
    with pytest.raises(ValueError, match=r"speaks the protocol 'sdk'.*which Card Duel does not speak"):
        simkit.play_games(duel, duel.decks[0], duel.decks[1], bots=("ai", "aggro"), seeds=[1])
    outside.reset()
    outside.configure(protocols=["nobody=sdk"])
    with pytest.raises(ValueError, match="--bot-protocol nobody=sdk: no outside bot is named 'nobody'"):
        own_decks(scenario("miracle"), ("balanced", "balanced"))


def test_simkit_play_runs_an_sdk_ai_from_the_command_line(tmp_path):
    """`simkit play --bot ai=... --bot-protocol ai=sdk` says the deck the AI chose, plays it to the end and writes a
    record that replays to the same result."""
    sc = scenario("miracle")
    record = tmp_path / "game.json"
    r = run_simkit("play", str(sc.path), "any", sc.decks[0], "--bots", "ai,balanced", "--seed", "2",
                   "--bot", f"ai={sys.executable} {SDK_EXAMPLE}", "--bot-protocol", "ai=sdk", "--json", str(record))
    assert r.returncode == 0, r.stderr
    assert f"the first player's deck is its program's own choice: {BAD_DECK}" in r.stdout
    assert "forfeit" not in r.stdout
    import json

    saved = json.loads(record.read_text())
    replayed = sc.game.replay(BAD_DECK, sc.decks[0], saved["actions"], seed=2)
    assert replayed.over and replayed.winner == saved["result"]["winner"]


def test_a_sweep_plans_an_sdk_seat_with_the_deck_its_program_chooses():
    """Planning a sweep asks the SDK AI its deck: its seat's pool is that one deck, the other seat's the sweep's;
    an SDK AI in a panel is refused in one line."""
    from simkit.sweep import SweepSettings, plan_sweep

    sc = scenario("miracle")
    outside.configure(given=[f"ai={sys.executable} {SDK_EXAMPLE}"], protocols=["ai=sdk"])
    plan = plan_sweep(sc, SweepSettings(games=1, decks=tuple(sc.decks[:3]), bots=("balanced", "ai")))
    assert plan.pools.first == tuple(sc.decks[:3]) and plan.pools.second == (OTHER,)
    assert plan.total_games == 3
    with pytest.raises(ValueError, match="--panel: bot 'ai' chooses its own deck"):
        plan_sweep(sc, SweepSettings(games=1, panel=("ai", "balanced")))


def test_a_ladder_refuses_an_ai_that_chooses_its_own_deck(tmp_path):
    """A ladder deals every rung the same decks, so an SDK AI (it chooses its own) is refused in one line before any
    game or file."""
    from simkit.ladder import LadderSettings, run_ladder

    sc = scenario("miracle")
    outside.configure(given=[f"ai={sys.executable} {SDK_EXAMPLE}"], protocols=["ai=sdk"])
    with pytest.raises(ValueError, match="bot 'ai' chooses its own deck .* a ladder deals"):
        run_ladder(sc, tmp_path / "ladder", LadderSettings(rungs=("ai", "balanced"), games=4))
    assert not (tmp_path / "ladder").exists()


@pytest.mark.slow
def test_an_sdk_ai_plays_a_small_sweep_and_its_resume(tmp_path):
    """`simkit sweep` with an SDK AI says the deck it chose, plays every game of its seat with it (no forfeit, no
    program left), and a second run on the finished folder plays nothing."""
    sc = scenario("miracle")
    out, pids = tmp_path / "sweep", tmp_path / "pids.txt"
    args = ("sweep", str(sc.path), "--decks", *sc.decks[:2], "--games", "1", "--workers", "1", "--bots", "ai,balanced",
            "--bot", f"ai={sdk_bad('pass', pids)}", "--bot-protocol", "ai=sdk", "--out", str(out))
    try:
        r = run_simkit(*args)
        assert r.returncode == 0, r.stderr
        assert f"the first seat plays {BAD_DECK}, the deck bot ai's program chose" in r.stdout
        df = simkit.load_results(out)
        assert set(df["first_deck"]) == {BAD_DECK} and len(df) == 2
        assert (df["end_reason"] != "forfeit").all() and set(df["winner"]) == {"second"}
        assert [p for p in map(int, pids.read_text().split()) if running(p)] == []
        r = run_simkit(*args)
        assert r.returncode == 0 and "already holds this sweep, finished" in r.stdout
    finally:
        kill_left(pids)


def test_the_command_line_refuses_sdk_where_the_game_does_not_speak_it(tmp_path):
    """`simkit sweep` of Card Duel with `--bot-protocol ai=sdk` stops with one line naming the bot, the protocol and
    the game's protocols, exit status 2, before any folder is written or program started."""
    duel = scenario("duel")
    pids, out = tmp_path / "pids.txt", tmp_path / "sweep"
    r = run_simkit("sweep", str(duel.path), "--games", "1", "--bots", "ai,aggro", "--bot",
                   f"ai={sdk_bad('pass', pids)}", "--bot-protocol", "ai=sdk", "--out", str(out))
    assert r.returncode == 2
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "speaks the protocol 'sdk'" in lines[0] and "(its protocols: simkit)" in lines[0]
    assert not out.exists() and not pids.exists()
