"""Magic War through the game interface: api_test, one engine at two speeds, deployment as a decision, the
invariants of `simkit check`, the text log and the picture of the board."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from simkit.games.magic.match import Match
from simkit.games.magic.tables import army_units
from simkit.testing.api import api_test
from simkit.testing.rule_check import run_invariant_games
from tests.magic_positions import BASE, scenario

ROOT = Path(__file__).resolve().parents[3]
DEPLOY = [("place", "Goblin", (1, 1)), ("place", "Goblin", (0, 4)), ("place", "Ogre", (2, 4)),
          ("place", "Goblin", (4, 5))]


@pytest.mark.parametrize("bots", [("random", "random"), ("balanced", "aggro")])
def test_magic_passes_api_test(bots):
    """The game interface's contract holds for Magic War, random and utility bots, each seat from its pool."""
    done = api_test(scenario(), games=3, bots=bots)
    assert done["games"] == 3 and done["actions"] > 0 and done["illegal_probes"] > 0


def test_seats_have_their_own_pools():
    """4.1: the pool's 13-gold armies sit only second: the game declares seat pools (12 first, 24 second)."""
    first, second = scenario().game.seat_decks()
    assert len(first) == 12 and len(second) == 24 and set(first) < set(second)
    with pytest.raises(ValueError, match="seat 0"):
        scenario().game.play_batch([second[3]], [second[0]], [1], ("random", "random"))


def test_uncompiled_rules_play_the_same_games():
    """One engine, two speeds: the same source compiled and under NUMBA_DISABLE_JIT=1 plays the same games, their
    experience figures included."""
    code = (
        "import json, sys, warnings; warnings.simplefilter('ignore'); import simkit;"
        f"sc = simkit.load_scenario({str(BASE)!r}); a, b = sc.game.seat_decks();"
        "out = sc.game.play_batch([a[0], a[7]], [b[13], b[20]], [3, 4], ('balanced', 'random'), record_actions=True);"
        "print(json.dumps(out))"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    sc = scenario()
    a, b = sc.game.seat_decks()
    here = sc.game.play_batch([a[0], a[7]], [b[13], b[20]], [3, 4], ("balanced", "random"), record_actions=True)
    assert done.stdout.strip() == json.dumps(here)  # as text: a figure with no value is NaN in both


def test_deployment_is_the_bots_decision_and_seeded():
    """4.4: each game starts with the first player's placements, then the second's; the same seed gives the
    same formation, another seed may not."""
    sc = scenario()
    a, b = sc.game.seat_decks()
    one = sc.game.play_batch([a[1]] * 2, [b[4]] * 2, [7, 7], ("balanced", "balanced"), record_actions=True)
    acts = one["action_list"][0]
    n0, n1 = (len(army_units(sc.rules, d)) for d in (a[1], b[4]))
    assert [x[0] for x in acts[:n0 + n1]] == ["place"] * (n0 + n1) and acts[n0 + n1][0] != "place"
    assert all(x[2][1] in (0, 1) for x in acts[:n0]) and all(x[2][1] in (4, 5) for x in acts[n0:n0 + n1])
    assert one["action_list"][0] == one["action_list"][1]


def test_invariants_hold_over_games():
    """`simkit check`'s generic runner: Magic War's invariants after every action of random and bot games."""
    sc = scenario()
    report = run_invariant_games(sc, sc.game.capability("check"), games=4, seed=3)
    assert report.passed, report.format()
    assert report.actions > 100


def test_invariants_catch_a_broken_step():
    """Each invariant names a broken step: two units on a cell, negative magic, magic that skips the delay."""
    inv = scenario().game.capability("check")
    m = Match(scenario(), "Orc:Goblin", "Orc:Goblin*2,Ogre", seed=1)
    for a in DEPLOY:
        m.do(a)
    before = m.snapshot()
    assert inv.invariants(None, None, before) == []
    after = json.loads(json.dumps(before))
    after["units"][2]["cell"] = 2  # onto the first player's crown: cell (2, 0)
    after["sides"][0]["active_magic"] = 1
    after["sides"][1]["stored_magic"] = -1
    broken = inv.invariants(before, ("move", (1, 1), (2, 0)), after)
    assert {"one_unit_per_cell", "magic_delayed", "magic_nonnegative"} <= set(broken)


def test_narration_tells_the_game():
    """narrate: placements, turns, dice faces, damage and the result, labelled as the authored roster."""
    sc = scenario()
    a, b = sc.game.seat_decks()
    res = sc.game.play_batch([a[2]], [b[5]], [11], ("balanced", "balanced"), record_actions=True)
    lines = sc.game.capability("narrate")(a[2], b[5], res["action_list"][0], bots=("balanced", "balanced"), seed=11)
    assert "authored roster" in lines[0] and lines[1].startswith("first places")
    assert any("dice [" in x for x in lines) and lines[-1].startswith(f"game over on turn {res['turns'][0]}")


def test_draw_writes_a_png_of_the_board(tmp_path):
    """draw: the board with every unit, its side and HP, as a PNG."""
    sc = scenario()
    m = Match(sc, "Orc:Goblin", "Orc:Goblin*2,Ogre", seed=1)
    acts = DEPLOY
    out = tmp_path / "board.png"
    assert sc.game.capability("draw")(m.decks[0], m.decks[1], acts, out, seed=1) == 1
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 5000
    with pytest.raises(ValueError, match=".png"):
        sc.game.capability("draw")(m.decks[0], m.decks[1], acts, tmp_path / "board.gif", seed=1)


@pytest.mark.slow
def test_bot_targets_on_the_pool():
    """Item 4's targets on a slice of the pool (deterministic seeds): the utility bot beats random in at least
    95% of games, and utility mirrors end by a destroyed leader in at least 80% (lab/magic_figures.py
    measures both on the whole pool, with intervals)."""
    sc = scenario()
    a, b = sc.game.seat_decks()
    firsts = [a[i % len(a)] for i in range(96)]
    seconds = [b[(7 * i) % len(b)] for i in range(96)]
    seeds = list(range(96))
    won = sum(w == "first" for w in sc.game.play_batch(firsts, seconds, seeds, ("balanced", "random"))["winner"])
    won += sum(w == "second" for w in sc.game.play_batch(firsts, seconds, seeds, ("random", "balanced"))["winner"])
    assert won / 192 >= 0.95
    mirror = sc.game.play_batch(firsts, seconds, seeds, ("balanced", "balanced"))
    assert sum(r == "leader" for r in mirror["end_reason"]) / 96 >= 0.80
