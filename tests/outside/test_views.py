"""What an outside bot sees (each game's outside.py): the seat's view as the game's own bots see it, never the
other seat's hidden cards, the game's seed or its random streams."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

import simkit
from simkit.outside.play import jsonable

ROOT = Path(__file__).resolve().parents[2]
SEED = 987654321012345
STREAM_FIELDS = ("seed", "shuffle", "drawn", "dice_key", "dice_rolled", "key", "ctr", "pile")


def _positions(game: str, moves: int = 160):
    """The match after each of ``moves`` random legal actions of a quick-scenario game with seed :data:`SEED`."""
    sc = simkit.load_scenario(ROOT / "scenarios" / game / "quick.toml")
    firsts, seconds = sc.game.seat_decks()
    m = sc.game.new_match(firsts[0], seconds[-1], seed=SEED)
    observe = sc.game.spec.hook("observe")
    rng = random.Random(1)
    for _ in range(moves):
        if m.over:
            break
        yield m, observe
        m.do(rng.choice(m.legal_actions()))


@pytest.mark.parametrize("game", ["duel", "krypton", "magic", "miracle"])
def test_no_observation_holds_the_seed_or_a_random_stream(game):
    """Every observation is plain JSON and holds neither the game's seed nor a field of its random streams."""
    for m, observe in _positions(game):
        for seat in (0, 1):
            seen = jsonable(observe(m, seat))
            text = json.dumps(seen)
            assert str(SEED) not in text
            assert not set(STREAM_FIELDS) & set(seen)


def test_a_duel_seat_never_sees_the_other_hand():
    """Card Duel: every card in the other seat's hand or source pile is null in a seat's observation, its own hand
    is named."""
    checked = 0
    for m, observe in _positions("duel"):
        true = m.snapshot()["players"]
        for seat in (0, 1):
            seen = observe(m, seat)
            other, mine = seen["players"][1 - seat], seen["players"][seat]
            for i, zone in enumerate(true[1 - seat]["zone"]):
                if zone in ("hand", "source"):
                    assert other["card"][i] is None
                    checked += 1
            for i, zone in enumerate(true[seat]["zone"]):
                if zone == "hand":
                    assert mine["card"][i] == true[seat]["card"][i]
    assert checked > 100


@pytest.mark.parametrize("game, count", [("krypton", "n_hand"), ("magic", "held")])
def test_a_seat_sees_the_other_hand_only_as_its_size(game, count):
    """Krypton Tower War and Magic War: the other side's hand is empty in a seat's observation while its size says
    how many cards it holds; a seat's own hand is there."""
    held = 0
    for m, observe in _positions(game, moves=400):
        for seat in (0, 1):
            seen = observe(m, seat)
            assert seen["sides"][1 - seat]["hand"] == []
            held += seen["sides"][1 - seat][count]
    assert held > 0
