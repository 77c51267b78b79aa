"""Literal Magic War positions for the rules' clause tests: units on cells, a turn, a dice tape that starts
with chosen faces. Cells are (c, r) as on the rules page; units are (side, type, (c, r)) or
(side, type, (c, r), markers)."""

from __future__ import annotations

import functools
from pathlib import Path

import simkit
from simkit.games.magic import engine as E
from simkit.games.magic.match import Match

BASE = Path(__file__).resolve().parents[1] / "scenarios" / "magic" / "base.toml"


@functools.cache
def scenario(path: str = str(BASE)):
    return simkit.load_scenario(path)


def tape_key(faces, sides: int = 6) -> int:
    """A dice-stream key whose tape starts with ``faces`` (searched; each face 1..sides)."""
    faces = list(faces)
    for key in range(1, 10_000_000):
        if all(int(E.below(key, k, sides)) + 1 == f for k, f in enumerate(faces)):
            return key
    raise AssertionError(f"no key found for tape {faces}")


def position(units, turn: int = 3, to_act: int | None = None, faces=(), magic=((0, 0), (0, 0)), hands=(0, 0),
             drawn=(0, 0), sc=None, first="Orc:Goblin", second="Orc:Goblin*2,Ogre") -> Match:
    """A match in the main phase of global ``turn`` with exactly ``units`` on the board (:meth:`Match.set_position`).

    ``magic`` is ((active, stored), (active, stored)) per side; ``hands`` the tactical cards in each hand.
    The decks only name the armies in records; the position is what ``units`` says."""
    m = Match(sc or scenario(), first, second, seed=0)
    m.set_position(units, turn=turn, to_act=to_act, dice_key=tape_key(faces) if faces else 12345, magic=magic,
                   hands=hands, drawn=drawn)
    return m


def hp(m: Match, c: int, r: int) -> int | None:
    """HP left of the unit on (c, r), or None when the cell is empty."""
    return m.hp_at(c, r)
