"""simkit.games.kits.state: a state declared once reads by name, compiled and plain, and derives its views."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simkit.games.kits.state import DeclaredMatch, place, record, snapshot, zeros

I = np.int64
HERO = record("Hero", [("hp", I), ("cell", I)], "One hero.")
SIDE = record("Side", [("energy", I), ("heroes", HERO, 3), ("dice", I, 4)])
STATE = record("State", [("round", I), ("to_act", I), ("winner", I), ("reason", I), ("sides", SIDE, 2),
                         ("tally", I, 2)])
MOOD = ("calm", "angry", "asleep")
PET = record("Pet", [("mood", I), ("moods", I, 2), ("food", I, 3), ("name", I)], words={"mood": MOOD, "moods": MOOD},
             keys={"food": ("fish", "meat", "milk")})

ROOT = Path(__file__).resolve().parents[3]

STEP = """
import json, sys
import numpy as np
from numba import njit
sys.path.insert(0, sys.argv[1])
from test_state import STATE
from simkit.games.kits.state import clear, copy, place, snapshot, zeros

@njit(cache=False)
def step(s):
    s.round += 1
    side = s.sides[s.to_act]
    side.heroes[1].hp -= 2
    side.dice[3] = s.round
    side.energy += side.heroes[1].hp
    s.to_act = 1 - s.to_act
    s.tally[s.to_act] += 1

@njit(cache=False)
def copies(dst, src):
    copy(dst, src, "tally")
    dst.round += 10
    copy(src.sides[1], dst.sides[0])

@njit(cache=False)
def wipe(u):
    clear(u)

s = zeros(STATE)
place(s, {"sides": {0: {"heroes": {1: {"hp": 9}}, "energy": 4}}, "winner": -1})
for _ in range(3):
    step(s)
t = zeros(STATE)
t.tally[0] = 77
copies(t, s)
u = zeros(STATE)
copy(u, s)
wipe(u)
print(json.dumps([snapshot(s), snapshot(t), snapshot(u)]))
"""


def _run(jit: bool) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NUMBA_DISABLE_JIT": "0" if jit else "1"}
    done = subprocess.run([sys.executable, "-c", STEP, str(Path(__file__).parent)], env=env, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def test_the_same_source_reads_and_writes_fields_compiled_and_plain():
    """A step written as ``side.heroes[1].hp -= 2`` does the same compiled by numba and as plain Python, and so
    does ``copy`` (a record into another, up to a field: the fields from it on keep their values) and ``clear``."""
    compiled, plain = _run(jit=True), _run(jit=False)
    assert compiled == plain
    s, t, u = json.loads(compiled)
    assert u == snapshot(zeros(STATE))  # clear: every field zero
    assert s["round"] == 3 and s["sides"][0]["dice"] == [0, 0, 0, 3] and s["tally"] == [1, 2]
    assert t["round"] == 13 and t["sides"][0] == s["sides"][0] and t["tally"] == [77, 0]  # up to "tally"
    assert s["sides"][1] == s["sides"][0] != t["sides"][1]  # copy(src.sides[1], dst.sides[0]): a nested record


def test_snapshot_names_every_field_in_declaration_order():
    """A snapshot is plain values: records as dicts in field order, arrays as lists, numbers as ints."""
    s = zeros(STATE)
    s.sides[1].heroes[2].cell = 7
    snap = snapshot(s)
    assert list(snap) == ["round", "to_act", "winner", "reason", "sides", "tally"]
    assert snap["sides"][1]["heroes"][2] == {"hp": 0, "cell": 7}
    assert type(snap["sides"][1]["dice"][0]) is int


def test_place_writes_only_the_fields_named():
    """``place`` writes a nested literal into its fields, by index into arrays of records or of numbers, and nothing
    else."""
    s = zeros(STATE)
    place(s, {"round": 4, "sides": {1: {"heroes": [{"hp": 1}, {"hp": 2}], "dice": [1, 2, 3, 4]}}})
    assert s.round == 4 and s.sides[1].heroes[1].hp == 2 and list(s.sides[1].dice) == [1, 2, 3, 4]
    place(s, {"sides": {1: {"dice": {2: 9}}}})
    assert list(s.sides[1].dice) == [1, 2, 9, 4]
    assert s.sides[0].energy == 0 and s.sides[1].heroes[2].hp == 0
    with pytest.raises(KeyError, match="no field 'mana'.*energy"):
        place(s.sides[0], {"mana": 3})


def test_an_unknown_field_is_refused_by_name():
    """Writing a field the declaration lacks raises, naming the record and its fields (no silent attribute)."""
    s = zeros(STATE)
    with pytest.raises(AttributeError, match="Hero has no field 'mana'"):
        s.sides[0].heroes[0].mana = 1


def test_reserved_names_are_refused_at_declaration():
    """A field named like numpy's own attributes of a record (``dtype``) is refused when declared."""
    with pytest.raises(ValueError, match="dtype"):
        record("Bad", [("dtype", I)])


def test_a_batch_is_an_array_of_records():
    """``zeros(STATE, n)`` is n records; each reads by name and writes into the batch."""
    batch = zeros(STATE, 3)
    batch[2].sides[0].energy = 5
    assert batch["sides"]["energy"].tolist() == [[0, 0], [0, 0], [5, 0]]


class _Game(DeclaredMatch):
    END_REASONS = ("none", "hp_zero", "turn_limit")

    def __init__(self):
        self.state = zeros(STATE)
        self.state.winner = -1


def test_match_properties_come_from_the_conventional_fields():
    """over, to_act, winner and end_reason read winner, reason and to_act of the declared state."""
    m = _Game()
    assert (m.over, m.winner, m.end_reason, m.to_act) == (False, None, None, 0)
    m.state.to_act = 1
    m.state.winner, m.state.reason = 2, 2
    assert (m.over, m.winner, m.end_reason, m.to_act) == (True, "draw", "turn_limit", 1)


def test_states_rules_and_dtypes_pickle_and_find_their_record_classes():
    """A state, a record of it and its dtype pickle and come back with their declared classes (sweep workers)."""
    import pickle

    batch = zeros(STATE, 2)
    batch[1].sides[0].heroes[2].hp = 7
    back = pickle.loads(pickle.dumps(batch))
    assert back.dtype == STATE and back[1].sides[0].heroes[2].hp == 7
    assert type(back[1]).__name__ == "State" and type(back[1].sides[0]) is type(batch[1].sides[0])
    one = pickle.loads(pickle.dumps(batch[1]))
    assert one.sides[0].heroes[2].hp == 7 and pickle.loads(pickle.dumps(STATE)) == STATE


def test_a_pickled_state_unpickles_in_a_fresh_process():
    """A process that never imported the declaring module finds the record classes by module and name."""
    import pickle

    s = zeros(STATE)
    s.sides[1].energy = 5
    code = ("import pickle, sys; sys.path.insert(0, sys.argv[1]); s = pickle.loads(sys.stdin.buffer.read()); "
            "print(s.sides[1].energy, type(s).__module__)")
    done = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent)], input=pickle.dumps(s),
                          capture_output=True, env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=120)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert done.stdout.decode().split() == ["5", type(s).__module__]


def test_words_of_an_enumeration_read_and_write_as_words():
    """A field declared with words snapshots as its word (-1: None) and is placed by word; a keyed array
    snapshots as a dict by its words and is placed by word; run-time words (a card's name) work the same."""
    pet = zeros(PET)
    place(pet, {"mood": "angry", "moods": [None, "asleep"], "food": {"meat": 2}, "name": "Rex"},
          words={"name": ("Tom", "Rex")})
    assert (int(pet.mood), pet.moods.tolist(), pet.food.tolist(), int(pet.name)) == (1, [-1, 2], [0, 2, 0], 1)
    assert snapshot(pet, words={"name": ("Tom", "Rex")}) == {
        "mood": "angry", "moods": [None, "asleep"], "food": {"fish": 0, "meat": 2, "milk": 0}, "name": "Rex"}
    assert snapshot(pet)["name"] == 1
    with pytest.raises(KeyError, match="mood: unknown word 'happy'.*calm"):
        place(pet, {"mood": "happy"})
    with pytest.raises(KeyError, match="food: unknown word 'bread'"):
        place(pet, {"food": {"bread": 1}})
    with pytest.raises(ValueError, match="words for fields it does not have.*'colour'"):
        record("Bad", [("mood", I)], words={"colour": MOOD})
