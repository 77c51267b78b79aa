"""play_games and `simkit play`: tidy rows, batch-independent results, replayable records, bot quality."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import simkit
from simkit.cli import main
from simkit.runner import game_seeds

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "scenarios" / "miracle" / "base.toml"
COLUMNS = [
    "first_deck", "second_deck", "seed", "winner", "end_reason", "turns", "first_miracle_hp", "second_miracle_hp",
    "first_dead_stars", "second_dead_stars", "first_bot", "second_bot", "actions",
]


@pytest.fixture(scope="module")
def short(tmp_path_factory):
    """The base rules cut to 12 turns, so whole games are quick."""
    path = tmp_path_factory.mktemp("short") / "short.toml"
    path.write_text(f'extends = "{BASE.as_posix()}"\n[rules]\nturn_limit = 12\n', encoding="utf-8")
    return simkit.load_scenario(path)


def pairings(sc, n: int, seed: int = 0) -> tuple[list[str], list[str]]:
    """``n`` random (first deck, second deck) pairings from the pool."""
    rng = np.random.default_rng(seed)
    pick = rng.integers(0, len(sc.decks), (2, n))
    return [sc.decks[i] for i in pick[0]], [sc.decks[i] for i in pick[1]]


def test_one_tidy_row_per_game_in_the_order_given(short):
    """Each game is one row with the documented columns; decks, seeds and bots are as asked."""
    first, second = pairings(short, 5)
    df = simkit.play_games(short, first, second, bots=("balanced", "random"), seeds=[11, 12, 13, 14, 15])
    assert list(df.columns[: len(COLUMNS)]) == COLUMNS
    assert len(df) == 5
    assert df.first_deck.tolist() == [short.canonical_deck(d) for d in first]
    assert df.seed.tolist() == [11, 12, 13, 14, 15]
    assert set(df.winner) <= {"first", "second", "draw"}
    assert set(df.end_reason) <= {"miracle", "turn_limit"}
    assert (df.turns <= 12).all() and (df.actions > 0).all()
    assert (df.first_bot == "balanced").all() and (df.second_bot == "random").all()
    assert (df.rules_version == short.rules_version).all()
    limit = df[df.end_reason == "turn_limit"]
    assert ((limit.turns == 12) & (limit.first_miracle_hp > 0) & (limit.second_miracle_hp > 0)).all()


def test_results_do_not_depend_on_batch_size_or_order(short):
    """The same games give identical rows in batches of 1, 3 and 16, in any order."""
    first, second = pairings(short, 7, seed=1)
    seeds = game_seeds(5, 7)
    ref = simkit.play_games(short, first, second, bots="balanced,rush", seeds=seeds, batch_size=16)
    for size in (1, 3):
        assert simkit.play_games(short, first, second, bots="balanced,rush", seeds=seeds, batch_size=size).equals(ref)
    order = [6, 2, 0, 5, 1, 4, 3]
    shuffled = simkit.play_games(
        short, [first[i] for i in order], [second[i] for i in order], bots="balanced,rush",
        seeds=[seeds[i] for i in order], batch_size=3,
    )
    assert shuffled.set_index(np.array(order)).sort_index().equals(ref)


def test_same_seed_same_game_other_seeds_other_games(short):
    """The same seed replays the same actions; different seeds give different games."""
    deck_a, deck_b = short.decks[3], short.decks[40]
    df = simkit.play_games(short, deck_a, deck_b, bots="balanced", seeds=list(range(8)) + [0], record_actions=True)
    games = [tuple(a) for a in df.action_list]
    assert games[0] == games[-1]
    assert len(set(games[:-1])) >= 6


def test_recorded_actions_replay_to_the_same_result(short):
    """Each recorded game replays through the single-match API to the recorded end."""
    first, second = pairings(short, 3, seed=2)
    df = simkit.play_games(short, first, second, bots="rush,control", seeds=[1, 2, 3], record_actions=True)
    for row in df.itertuples():
        m = short.game.replay(row.first_deck, row.second_deck, row.action_list)
        s = m.snapshot()
        assert s["over"] and s["turn"] == row.turns
        assert [p["miracle_hp"] for p in s["players"]] == [row.first_miracle_hp, row.second_miracle_hp]
        assert len(m.actions) == row.actions


def test_the_action_cap_ends_runaway_turns(tmp_path):
    """With max_actions_per_turn = 2 no turn holds more than 2 actions before its end_turn."""
    path = tmp_path / "capped.toml"
    path.write_text(
        f'extends = "{BASE.as_posix()}"\n[rules]\nturn_limit = 10\n[bots]\nmax_actions_per_turn = 2\n', encoding="utf-8"
    )
    sc = simkit.load_scenario(path)
    df = simkit.play_games(sc, sc.decks[0], sc.decks[1], bots="random", seeds=[4, 5], record_actions=True)
    for actions in df.action_list:
        run = longest = 0
        for a in actions:
            run = 0 if a[0] == "end_turn" else run + 1
            longest = max(longest, run)
        assert longest == 2


def test_bad_input_is_rejected_clearly(short):
    """Unknown bots list the known ones; mismatched lengths and illegal decks say what is wrong."""
    with pytest.raises(ValueError, match="unknown bot 'genius' .*known: random, balanced, rush, control"):
        simkit.play_games(short, short.decks[0], short.decks[1], bots="balanced,genius", seeds=[1])
    with pytest.raises(ValueError, match="one item per game .* got first_decks 2, second_decks 3, seeds 2"):
        simkit.play_games(short, short.decks[:2], short.decks[:3], seeds=[1, 2])
    with pytest.raises(simkit.ScenarioError, match="Trumpet"):
        simkit.play_games(short, "Trumpet:Archer,Priest,Swordsman", short.decks[0], seeds=[1])
    with pytest.raises(ValueError, match="two bot names"):
        simkit.play_games(short, short.decks[0], short.decks[1], bots="a,b,c", seeds=[1])


def test_no_games_give_an_empty_table(short):
    """An empty list of games is an empty table with the same columns."""
    df = simkit.play_games(short, [], [], seeds=[])
    assert len(df) == 0 and list(df.columns[: len(COLUMNS)]) == COLUMNS


def test_cli_play_prints_the_game_and_writes_a_replayable_record(short, tmp_path, capsys):
    """`simkit play` logs turns and the result; its JSON replays to the same end."""
    out = tmp_path / "game.json"
    first, second = "HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"
    code = main(["play", str(short.path), first, second, "--bots", "balanced,rush", "--seed", "7", "--json", str(out)])
    text = capsys.readouterr().out
    assert code == 0
    assert "turn 1 - first player (balanced)" in text and "turn 2 - second player (rush)" in text
    assert "result:" in text
    record = json.loads(out.read_text())
    assert record["decks"] == [first, second] and record["seed"] == 7 and record["bots"] == ["balanced", "rush"]
    assert record["scenario"] == str(short.path)
    assert all(isinstance(a, list) and isinstance(a[0], str) for a in record["actions"])
    m = simkit.load_scenario(record["scenario"]).game.replay(*record["decks"], record["actions"])
    assert m.over and m.snapshot()["turn"] == record["result"]["turns"]
    again = simkit.play_games(short, first, second, bots=("balanced", "rush"), seeds=[7]).iloc[0]
    assert again.actions == len(record["actions"])


def test_cli_play_rejects_an_unknown_bot(short, capsys):
    """An unknown bot name ends `simkit play` with exit 2 and one line listing the known bots."""
    code = main(["play", str(short.path), short.decks[0], short.decks[1], "--bots", "balanced,oracle"])
    err = capsys.readouterr().err
    assert code == 2 and "unknown bot 'oracle'" in err and "knows: random, balanced" in err
