"""The compiled step applies actions exactly as the numpy rules do.

Every step of real games (utility bots and random play over random decks) is applied twice, once
by ``rules.step`` and once by the compiled step, and the two states must be equal field by field.
A random legal alternative to each chosen action is checked the same way, with some games given
PASS and games that are over given END_TURN (both must be left untouched). A patched scenario
with a short game, early unit steps, a full tie won by the second player, cheap artifacts and a
frail Inferno reaches the turn limit and every artifact's aftermath within a few turns. Counters
of what happened make sure every clause was met; the rarest ones (a shield bearer's or an Inferno's
death, a full tie) are also staged in small positions.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import fields

import numpy as np
import pytest
from miracle_positions import DRAGONS, MELEE, SHIELD, place, random_games, set_hp

import simkit
from simkit.games.kits.rng import GameStreams
from simkit.games.miracle import rules as R
from simkit.games.miracle.bots import RandomBot, make_bot
from simkit.games.miracle.cards import ARTIFACT_EFFECTS
from simkit.games.miracle.fast.step import FastStep
from simkit.games.miracle.play import _choose
from simkit.games.miracle.state import COOLING, IN_USE, MIRACLE, READY, TURN_LIMIT

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


class Reference:
    """A utility bot choosing with its numpy scorer (the compiled scorer is not under test here)."""

    def __init__(self, bot):
        self.bot = bot

    def act(self, rules, st, rng):
        return self.bot.reference_act(rules, st, rng)


def first_difference(ref: R.State, got: R.State) -> tuple[str, int] | None:
    """``(field, game)`` of the first field where the states differ, None when they are equal."""
    for f in fields(ref):
        a, b = getattr(ref, f.name), getattr(got, f.name)
        if not np.array_equal(a, b):
            return f.name, int(np.argwhere(a != b)[0][0])
    return None


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


def check(rules, fast, st: R.State, act: R.Actions, where: str, seen: Counter, bad: list[str]) -> R.State:
    """Apply ``act`` both ways; record a mismatch in ``bad`` and the clauses met in ``seen``; the numpy result."""
    ref, got = st.copy(), st.copy()
    R.step(rules, ref, act)
    fast(got, act)
    diff = first_difference(ref, got)
    if diff is not None:
        name, g = diff
        action = f"{R.ACTION_NAMES[act.kind[g]]} ({act.a[g]}, {act.b[g]}, {act.c[g]})"
        bad.append(f"{where}, game {g}, action {action}: first differing field {name!r}")
    seen.update(events(rules, st, ref, act))
    return ref


def play(scenario, pairing, n: int, seed: int) -> tuple[list[str], Counter]:
    """Play ``n`` games over random decks, checking every chosen action and a random alternative."""
    rules = scenario.rules
    fast = FastStep(rules)
    rng = np.random.default_rng(seed)
    st = random_games(scenario, n, rng)
    streams, other = GameStreams(np.arange(n) + 7919 * seed), GameStreams(np.arange(n) + 7919 * seed + 104729)
    bots = tuple(RandomBot() if name == "random" else Reference(make_bot(scenario, name)) for name in pairing)
    bad, seen, k, in_turn = [], Counter(), 0, np.zeros(n, np.int64)
    while not st.over.all():
        alt = RandomBot().act(rules, st, other)
        alt.kind[rng.random(n) < 0.1] = R.PASS
        alt.kind[st.over] = R.END_TURN
        check(rules, fast, st, alt, f"step {k} alternative", seen, bad)
        act = _choose(rules, bots, st, streams)
        act.kind[in_turn >= 80] = R.END_TURN
        st = check(rules, fast, st, act, f"step {k}", seen, bad)
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
def test_compiled_step_equals_numpy_step(runs, run):
    bad, seen = runs[run]
    assert seen["end turn"] > 0
    assert not bad, f"{len(bad)} mismatches; first: {bad[0]}"


def test_every_clause_is_exercised(runs):
    seen = sum((s for _, s in runs.values()), Counter())
    missing = [name for name in EXPECTED if seen[name] == 0]
    assert not missing, f"never happened: {missing}"


def staged(m, fast, actions) -> tuple[list[str], Counter]:
    """Play ``actions`` on match ``m`` both ways (the numpy result goes on); mismatches and clauses met."""
    bad, seen = [], Counter()
    for i, action in enumerate(actions):
        action = action(m) if callable(action) else action
        m.state = check(m.rules, fast, m.state, m.encode(action), f"action {i} {action}", seen, bad)
    return bad, seen


def free_neighbours(m, cell) -> list[tuple[int, int, int]]:
    """The cells next to ``cell`` that are on the board, not abyss and hold no unit."""
    st, board = m.state, m.rules.board
    taken = set(st.cell[0, st.alive[0]].tolist())
    near = board.grid.neighbors[board.grid.index(cell)]
    return [board.grid.cell(int(c)) for c in near if c >= 0 and not board.abyss[c] and c not in taken]


def slot_of(m, uid: int) -> int:
    return int(np.nonzero(m.state.alive[0] & (m.state.uid[0] == uid))[0][0])


def test_a_shield_bearer_dies_and_its_artifact_is_recycled(base):
    m = base.new_match(SHIELD, MELEE)
    fast = FastStep(base.rules)
    bearer = place(m, "Swordsman", (2, -4, 2))
    m.state.mana[0, 0] = 6
    bad, seen = staged(m, fast, [("use", bearer), ("end_turn",)])
    foes = [place(m, "Swordsman", cell, level=3) for cell in ((3, -4, 1), (1, -4, 3))]
    more_bad, more = staged(m, fast, [("attack", foes[0], bearer), ("attack", foes[1], bearer)])
    assert not bad + more_bad, (bad + more_bad)[0]
    seen += more
    assert seen["use SalamanderShield"] == 1 and seen["holy shield pops"] == 1 and seen["shield bearer dies"] == 1
    assert m.state.artifact_state[0, 0] == COOLING


def test_an_inferno_burns_its_neighbours_then_dies_and_its_artifact_is_recycled(base):
    m = base.new_match(DRAGONS, SHIELD)
    fast = FastStep(base.rules)
    m.state.mana[0, 0] = 8
    cell = next(a[1] for a in m.legal_actions() if a[0] == "use")
    shielded, burnt = (place(m, "Swordsman", c, side=1) for c in free_neighbours(m, cell)[:2])
    m.state.shield[0, slot_of(m, shielded)] = True
    inferno = int(m.state.next_uid[0])
    bad, seen = staged(m, fast, [("use", cell), ("end_turn",)])
    set_hp(m, inferno, 2)
    foe = place(m, "Swordsman", free_neighbours(m, cell)[0], level=3)
    more_bad, more = staged(m, fast, [("attack", foe, inferno)])
    assert not bad + more_bad, (bad + more_bad)[0]
    seen += more
    assert seen["use InfernoFlame"] == 1 and seen["holy shield pops"] == 1 and seen["Inferno dies"] == 1
    assert seen["death"] == 3 and m.state.artifact_state[0, 0] == COOLING


@pytest.mark.parametrize("scenario, winner", [("base", "draw"), ("patch", "second")])
def test_a_full_tie_at_the_turn_limit(scenarios, scenario, winner):
    sc = scenarios[scenario]
    m = sc.new_match(MELEE, SHIELD)
    m.state.turn[0] = sc.rules.turn_limit - 1
    bad, seen = staged(m, FastStep(sc.rules), [("end_turn",), ("end_turn",)])
    assert not bad, bad[0]
    assert seen["turn limit"] == 1 and int(m.state.winner[0]) == {"draw": 2, "second": 1}[winner]
