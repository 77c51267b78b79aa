"""Literal positions for Krypton Tower War rule tests: a game on the base scenario's map, heroes put on
named cells, the turn set to a chosen hero with chosen movement points, dice scripted.

Each helper writes the declared state through :meth:`simkit.games.krypton.match.Match.place` (fields by name).
Cells are cube coordinates of the [authored] map (rules page section 2): e.g. plain (0,0,0), hill
(-2,2,0), forest (-2,4,-2), river (0,1,-1), poor vein (-4,4,0) stock 8, rich vein (0,3,-3) stock 16,
bases (-6,3,3) and (6,-3,-3).
"""

from __future__ import annotations

from pathlib import Path

from simkit.games.krypton.match import Match
from simkit.games.krypton.state import HS_BOARD, TARGET_KINDS
from simkit.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "scenarios" / "krypton" / "base.toml"
_cache: dict = {}

# far corners where parked heroes disturb nothing (plain, no base or tower within 2)
PARK = {(0, 0): (-3, -3, 6), (0, 1): (-2, -4, 6), (1, 0): (3, 3, -6), (1, 1): (2, 4, -6)}


def scenario(path=BASE):
    if str(path) not in _cache:
        _cache[str(path)] = load_scenario(path)
    return _cache[str(path)]


def new(first: str = "Warrior+Warrior", second: str = "Warrior+Warrior", seed: int = 0, sc=None) -> Match:
    """A fresh game with every hero parked in a far corner (see :data:`PARK`)."""
    m = Match(sc or scenario(), first, second, seed)
    for (s, k), cell in PARK.items():
        if k < m.team:
            m.place({"sides": {s: {"heroes": {k: {"cell": m.index_of(*cell)}}}}})
    return m


def put(m: Match, side: int, k: int, cell, hp: int | None = None):
    """Put hero ``k`` of ``side`` on ``cell`` (alive, face up), optionally with ``hp``; returns its record."""
    hero = {"cell": m.index_of(*cell), "state": HS_BOARD}
    if hp is not None:
        hero["hp"] = hp
    m.place({"sides": {side: {"heroes": {k: hero}}}})
    return m.hero(side, k)


def turn(m: Match, side: int, k: int, points: int) -> None:
    """Make it hero ``k`` of ``side``'s turn (round 1), in its move phase with ``points``."""
    m.place({"turn": 2 * k + side, "judgment": {"on": 0}, "n_revivals_owed": 0,
             "this_turn": {"roll": points, "points": points, "acted": 0, "shuttle": 0, "pact": 0, "blood": 0,
                           "ending": 0, "n_blood_owed": 0}})


def dice(m: Match, *values: int) -> None:
    """Script the next dice (movement, attack, defence) in order; more draws than given fail."""
    m.script_dice(*values)


def cell(m: Match, side: int, k: int) -> tuple[int, int, int]:
    """The cube cell of hero ``k`` of ``side``."""
    return m.cell_of(m.hero(side, k).cell)


def tower(m: Match, side: int, kind: str, at) -> int:
    """Put a ``kind`` tower of ``side`` on cell ``at``; returns its cell index."""
    c = m.index_of(*at)
    s = m.state
    s.tower_side[c], s.tower_kind[c] = side, list(m.rules.towers).index(kind)
    s.tower_hp[c], s.iron_wall[c] = m.rules.towers[kind].hp, 0
    return c


def hands(m: Match, first: list[str], second: list[str]) -> None:
    """Give the two sides exactly these hands."""
    m.set_hand(0, first)
    m.set_hand(1, second)


def blood_left(m: Match) -> list[tuple[str, int]]:
    """Blood Battle's judgments still owed, as ``(kind, cell)`` targets."""
    t = m.state.this_turn
    return [(TARGET_KINDS[x // 1000], int(x % 1000)) for x in t.blood_owed[:t.n_blood_owed]]


def steps(m: Match, *cells) -> None:
    """Walk the acting hero along ``cells``."""
    for c in cells:
        m.do(("step",) + tuple(c))


def sides(m: Match, **fields) -> None:
    """Write a field of both sides: ``sides(m, energy=[29, 4], tier=[2, 1])``."""
    m.place({"sides": {s: {name: values[s] for name, values in fields.items()} for s in (0, 1)}})


def both(m: Match, field: str) -> list[int]:
    """A field of both sides, ``[side 0's, side 1's]``."""
    return [int(getattr(m.state.sides[s], field)) for s in (0, 1)]
