"""The one engine: every clause of the step is met in real games, and the same source plays the same
games compiled and as plain Python.

Real games (utility bots and random play over random decks) are played through ``rules.step``, and
a random legal alternative to each chosen action is applied to a copy, with some games given PASS
and games that are over given END_TURN (both must be left untouched). A patched scenario with a
short game, early unit steps, a full tie won by the second player, cheap artifacts and a frail
Inferno reaches the turn limit and every artifact's aftermath within a few turns. Counters of what
happened make sure every clause was met (the clause tests of ``tests/test_rules_*.py`` say what each
clause does); the rarest ones (a shield bearer's or an Inferno's death, a full tie) are also staged
in small positions. Last, games are played compiled and, in a subprocess under
``NUMBA_DISABLE_JIT=1``, as plain Python: every action and result must be the same.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from dataclasses import fields
from pathlib import Path

import numpy as np
import pytest
from miracle_positions import DRAGONS, MELEE, SHIELD, nan_as_none, place, random_games, set_hp

import simkit
from simkit.core.rng import GameStreams
from simkit.games.miracle import rules as R
from simkit.games.miracle.batch import _choose, make_bot, play_batch
from simkit.games.miracle.bots import RandomBot
from simkit.games.miracle.cards import ARTIFACT_EFFECTS
from simkit.games.miracle.state import COOLING, IN_USE, MIRACLE, READY, TURN_LIMIT

ROOT = Path(__file__).resolve().parents[3]

PATCH = """
[rules]
turn_limit = 24
unit_steps = [6, 11]
first_max_mana = 6
second_max_mana = 6
full_tie = "second"

[artifacts.HolyLight]
cost = 2
cooldown = 1

[artifacts.InfernoFlame]
cost = 2
cooldown = 0

[artifacts.InfernoFlame.inferno]
hp = 2

[artifacts.SalamanderShield]
cost = 1
cooldown = 2
hp = 1

[decks]
pool = [
  "SalamanderShield:Archer,Swordsman,VolcanoDragon", "SalamanderShield:BlackBat,Priest,VolcanoDragon",
  "InfernoFlame:Archer,BlackBat,Swordsman", "InfernoFlame:FrostDragon,Priest,VolcanoDragon",
  "HolyLight:BlackBat,Swordsman,VolcanoDragon", "WindBlessing:Archer,Priest,Swordsman",
]

[artifacts.WindBlessing]
cost = 2
cooldown = 1
"""

# (scenario, first seat, second seat, games, seed)
RUNS = (
    ("base", "balanced", "random", 12, 0),
    ("base", "random", "random", 8, 1),
    ("patch", "balanced", "random", 12, 2),
    ("patch", "random", "rush", 12, 5),  # seed 5: a shield bearer dies in play on the 275-cell board
)

EXPECTED = (
    "summon", "move", "attack unit", "attack miracle", "end turn", "pass", "over untouched",
    *(f"use {name}" for name in ARTIFACT_EFFECTS), "holy shield pops", "counter-attack", "splash", "heal",
    "death", "shield bearer dies", "Inferno dies", "artifact cools", "artifact ready at once",
    "artifact ready again", "slot back from cooling", "mana grows", "garrison captured", "unit step",
    "miracle falls", "turn limit",
)


def changed(before: R.State, after: R.State) -> np.ndarray:
    """``bool[B]`` the games whose state differs in any field."""
    out = np.zeros(before.batch, bool)
    for f in fields(before):
        x, y = getattr(before, f.name), getattr(after, f.name)
        out |= (x != y).reshape(before.batch, -1).any(1)
    return out


def events(rules, before: R.State, after: R.State, act: R.Actions) -> Counter:
    """What the numpy step did, by clause, counted over games."""
    kind, live = act.kind, ~before.over
    rows = np.arange(before.batch)
    effect = rules.cards.artifact_effect[before.deck_artifact[rows, before.current]]
    died = before.alive & ~after.alive
    hurt = (after.hp < before.hp) | (before.shield & ~after.shield)
    attack = live & (kind == R.ATTACK)
    on_unit = attack & (act.b >= 0)
    others = hurt.copy()
    others[rows, act.a] = False
    others[rows, np.maximum(act.b, 0)] = False
    ended = live & (kind == R.END_TURN)
    turned = ended & ~after.over
    cur = after.current
    art_before, art_after = before.artifact_state, after.artifact_state
    out = Counter({
        "summon": (live & (kind == R.SUMMON)).sum(),
        "move": (live & (kind == R.MOVE)).sum(),
        "attack unit": on_unit.sum(),
        "attack miracle": (attack & (act.b < 0)).sum(),
        "end turn": ended.sum(),
        "pass": (live & (kind == R.PASS)).sum(),
        "over untouched": (before.over & (kind != R.PASS)).sum(),
        "holy shield pops": (before.shield & ~after.shield & live[:, None]).sum(),
        "counter-attack": (on_unit & hurt[rows, act.a]).sum(),
        "splash": (on_unit & others.any(1)).sum(),
        "heal": (ended[:, None] & (after.hp > before.hp)).sum(),
        "death": died.sum(),
        "shield bearer dies": (died & before.equipped).sum(),
        "Inferno dies": (died & (before.kind == rules.cards.inferno)).sum(),
        "artifact cools": ((art_before != COOLING) & (art_after == COOLING)).sum(),
        "artifact ready at once": ((art_before == IN_USE) & (art_after == READY)).sum(),
        "artifact ready again": ((art_before == COOLING) & (art_after == READY)).sum(),
        "slot back from cooling": (turned & (before.cooling[rows, cur, :, 1] > 0).any(1)).sum(),
        "mana grows": (after.max_mana > before.max_mana).sum(),
        "garrison captured": (after.garrison_owner != before.garrison_owner).sum(),
        "unit step": (turned & np.isin(after.turn, rules.unit_steps)).sum(),
        "miracle falls": (~before.over & (after.end_reason == MIRACLE)).sum(),
        "turn limit": (~before.over & (after.end_reason == TURN_LIMIT)).sum(),
    })
    for name, code in zip(ARTIFACT_EFFECTS, range(len(ARTIFACT_EFFECTS))):
        out[f"use {name}"] = (live & (kind == R.USE) & (effect == code)).sum()
    return out


def check(rules, st: R.State, act: R.Actions, where: str, seen: Counter, bad: list[str]) -> R.State:
    """Apply ``act`` to a copy of ``st``; record in ``bad`` a game over or given PASS that changed, and
    in ``seen`` the clauses met; the state after."""
    after = st.copy()
    R.step(rules, after, act)
    untouched = st.over | (act.kind == R.PASS)
    for g in np.nonzero(untouched & changed(st, after))[0]:
        bad.append(f"{where}, game {g}: {'over' if st.over[g] else 'PASS'} but changed")
    seen.update(events(rules, st, after, act))
    return after


def play(scenario, pairing, n: int, seed: int) -> tuple[list[str], Counter]:
    """Play ``n`` games over random decks, counting the clauses of every chosen action and a random alternative."""
    rules = scenario.rules
    rng = np.random.default_rng(seed)
    st = random_games(scenario, n, rng)
    streams, other = GameStreams(np.arange(n) + 7919 * seed), GameStreams(np.arange(n) + 7919 * seed + 104729)
    bots = tuple(make_bot(scenario, name) for name in pairing)
    bad, seen, k, in_turn = [], Counter(), 0, np.zeros(n, np.int64)
    while not st.over.all():
        alt = RandomBot().act(rules, st, other)
        alt.kind[rng.random(n) < 0.1] = R.PASS
        alt.kind[st.over] = R.END_TURN
        check(rules, st, alt, f"step {k} alternative", seen, bad)
        act = _choose(rules, bots, st, streams)
        act.kind[in_turn >= 80] = R.END_TURN
        st = check(rules, st, act, f"step {k}", seen, bad)
        in_turn = np.where(act.kind == R.END_TURN, 0, in_turn + 1)
        k += 1
    return bad, seen


@pytest.fixture(scope="module")
def scenarios(base, tmp_path_factory):
    path = tmp_path_factory.mktemp("fast_step") / "patch.toml"
    path.write_text(f'extends = "{base.path.as_posix()}"\n{PATCH}', encoding="utf-8")
    return {"base": base, "patch": simkit.load_scenario(path)}


@pytest.fixture(scope="module")
def runs(scenarios):
    return {run: play(scenarios[run[0]], run[1:3], *run[3:]) for run in RUNS}


@pytest.mark.parametrize("run", RUNS, ids=["-".join(map(str, run[:3])) for run in RUNS])
def test_games_over_and_passes_are_left_untouched(runs, run):
    """Over thousands of steps of real games, a game that is over (given END_TURN) or given PASS never changes."""
    bad, seen = runs[run]
    assert seen["end turn"] > 0 and seen["pass"] > 0
    assert not bad, f"{len(bad)} changed; first: {bad[0]}"


def test_every_clause_is_exercised(runs):
    """Every clause of the step (EXPECTED) happens in the real games of RUNS."""
    seen = sum((s for _, s in runs.values()), Counter())
    missing = [name for name in EXPECTED if seen[name] == 0]
    assert not missing, f"never happened: {missing}"


def staged(m, actions) -> Counter:
    """Play ``actions`` on match ``m`` through the facade; the clauses met."""
    seen = Counter()
    for action in actions:
        action = action(m) if callable(action) else action
        before, act = m.state.copy(), m.encode(action)
        m.do(action)
        seen.update(events(m.rules, before, m.state, act))
    return seen


def free_neighbours(m, cell) -> list[tuple[int, int, int]]:
    """The cells next to ``cell`` that are on the board, not abyss and hold no unit."""
    st, board = m.state, m.rules.board
    taken = set(st.cell[0, st.alive[0]].tolist())
    near = board.grid.neighbors[board.grid.index(cell)]
    return [board.grid.cell(int(c)) for c in near if c >= 0 and not board.abyss[c] and c not in taken]


def slot_of(m, uid: int) -> int:
    return int(np.nonzero(m.state.alive[0] & (m.state.uid[0] == uid))[0][0])


def test_a_shield_bearer_dies_and_its_artifact_is_recycled(base):
    """The shield's bearer loses its holy shield to the first blow and dies to the second: the artifact cools."""
    m = base.new_match(SHIELD, MELEE)
    bearer = place(m, "Swordsman", (2, -4, 2))
    m.state.mana[0, 0] = 6
    seen = staged(m, [("use", bearer), ("end_turn",)])
    foes = [place(m, "Swordsman", cell, level=3) for cell in ((3, -4, 1), (1, -4, 3))]
    seen += staged(m, [("attack", foes[0], bearer), ("attack", foes[1], bearer)])
    assert seen["use SalamanderShield"] == 1 and seen["holy shield pops"] == 1 and seen["shield bearer dies"] == 1
    assert m.state.artifact_state[0, 0] == COOLING


def test_an_inferno_burns_its_neighbours_then_dies_and_its_artifact_is_recycled(base):
    """InfernoFlame pops one neighbour's holy shield and kills the other; its Inferno dies and the artifact cools."""
    m = base.new_match(DRAGONS, SHIELD)
    m.state.mana[0, 0] = 8
    cell = next(a[1] for a in m.legal_actions() if a[0] == "use")
    shielded, burnt = (place(m, "Swordsman", c, side=1) for c in free_neighbours(m, cell)[:2])
    m.state.shield[0, slot_of(m, shielded)] = True
    inferno = int(m.state.next_uid[0])
    seen = staged(m, [("use", cell), ("end_turn",)])
    set_hp(m, inferno, 2)
    foe = place(m, "Swordsman", free_neighbours(m, cell)[0], level=3)
    seen += staged(m, [("attack", foe, inferno)])
    assert seen["use InfernoFlame"] == 1 and seen["holy shield pops"] == 1 and seen["Inferno dies"] == 1
    assert seen["death"] == 3 and m.state.artifact_state[0, 0] == COOLING


@pytest.mark.parametrize("scenario, winner", [("base", "draw"), ("patch", "second")])
def test_a_full_tie_at_the_turn_limit(scenarios, scenario, winner):
    """Equal miracles and dead stars at the turn limit: a draw, or the second player with ``full_tie = "second"``."""
    sc = scenarios[scenario]
    m = sc.new_match(MELEE, SHIELD)
    m.state.turn[0] = sc.rules.turn_limit - 1
    seen = staged(m, [("end_turn",), ("end_turn",)])
    assert seen["turn limit"] == 1 and int(m.state.winner[0]) == {"draw": 2, "second": 1}[winner]


# ---- the rules are written once: the same games compiled and as plain Python ----------------------------

SHORT = """
[rules]
turn_limit = 8
first_max_mana = 8
second_max_mana = 8
"""

UNCOMPILED = """
import json, sys, warnings
warnings.simplefilter("ignore")
import simkit
from simkit.games.miracle.batch import play_batch
sc = simkit.load_scenario(sys.argv[1])
first, second, seeds, bots, record = json.loads(sys.argv[2])
print(json.dumps(play_batch(sc, first, second, seeds, bots, record_actions=record)))
"""


def uncompiled(path, first, second, seeds, bots, record) -> dict:
    """``play_batch`` of these games in a subprocess under ``NUMBA_DISABLE_JIT=1``, its columns as JSON values."""
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(ROOT)}
    args = json.dumps([first, second, seeds, list(bots), record])
    done = subprocess.run([sys.executable, "-c", UNCOMPILED, str(path), args], env=env, capture_output=True,
                          text=True, timeout=1200)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout)


def same_both_ways(scenario, first, second, seeds, bots, record) -> dict:
    """Play the games compiled here and un-jitted in a subprocess; assert every column equal (the experience
    figures included)."""
    here = json.loads(json.dumps(play_batch(scenario, first, second, seeds, bots, record_actions=record)))
    there = uncompiled(scenario.path, first, second, seeds, bots, record)
    assert "lead_changes" in here
    assert nan_as_none(there) == nan_as_none(here)
    return here


@pytest.fixture(scope="module")
def short(base, tmp_path_factory):
    path = tmp_path_factory.mktemp("uncompiled") / "short.toml"
    path.write_text(f'extends = "{base.path.as_posix()}"\n{SHORT}', encoding="utf-8")
    return simkit.load_scenario(path)


@pytest.mark.parametrize("bots, record", [(("balanced", "rush"), False), (("search-1", "rush"), False),
                                         (("control", "random"), True)])
def test_uncompiled_engine_plays_the_same_short_games(short, bots, record):
    """The same source, compiled and under NUMBA_DISABLE_JIT=1, plays the same games of an 8-turn scenario:
    the whole-game compiled loop (two utility bots), the search loop (the kit's search, its decisions' legal
    actions kept with the chosen turn) and the batched loop (the random bot, recorded actions)."""
    decks = short.decks
    out = same_both_ways(short, [decks[3], decks[41]], [decks[66], decks[12]], [5, 6], bots, record)
    assert sum(out["actions"]) > 20 and set(out["end_reason"]) <= {"turn_limit", "miracle"}


@pytest.mark.slow
def test_uncompiled_engine_plays_the_same_full_games(base):
    """Full games of the base scenario between the sweeps' utility bots (about a minute un-jitted):
    every action and result the same compiled and as plain Python."""
    decks = base.decks
    out = same_both_ways(base, [decks[0], decks[33]], [decks[70], decks[5]], [3, 4], ("balanced", "rush"), True)
    assert min(out["actions"]) > 100
