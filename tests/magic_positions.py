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
    """A match in the main phase of global ``turn`` with exactly ``units`` on the board.

    ``magic`` is ((active, stored), (active, stored)) per side; ``hands`` the tactical cards in each hand.
    The decks only name the armies in records; the position is what ``units`` says."""
    sc = sc or scenario()
    m = Match(sc, first, second, seed=0)
    s, r = m.state, m.rules
    s[E.UB:E.BD + E.MAX_CELLS] = 0
    for i, unit in enumerate(units):
        side, typ, (c, row) = unit[:3]
        b = E.UB + i * E.UF
        t = r.type_id(typ)
        s[b + E.F_TYPE], s[b + E.F_OWNER] = t, side
        s[b + E.F_DMG] = unit[3] if len(unit) > 3 else 0
        E.place_unit(s, i, r.cell(c, row))
        if r.ut[t, 7]:  # U_LEADER
            s[E.PB0 + side * E.PBS + E.P_LEADER] = i
            s[E.PB0 + side * E.PBS + E.P_RACE] = r.ut[t, 9]
    s[E.G_NU] = len(units)
    s[E.G_PHASE], s[E.G_TURN] = E.PH_PLAY, turn
    s[E.G_CUR] = (turn - 1) % 2 if to_act is None else to_act
    for p in (0, 1):
        b = E.PB0 + p * E.PBS
        s[b + E.P_ACTIVE], s[b + E.P_STORED] = magic[p]
        s[b + E.P_TO_PLACE] = 0
        s[b + E.P_HAND] = hands[p]
        s[b + E.P_DRAWN] = max(drawn[p], hands[p])
        for k in range(hands[p]):
            s[b + E.P_H + k] = k + 1
    s[E.G_KPTR] = sum(max(d, h) for d, h in zip(drawn, hands))
    s[E.G_DSEED] = tape_key(faces) if faces else 12345
    s[E.G_DPTR] = 0
    return m


def hp(m: Match, c: int, r: int) -> int | None:
    """HP left of the unit on (c, r), or None when the cell is empty."""
    u = m.unit_at(c, r)
    return None if u is None else u["hp"]
