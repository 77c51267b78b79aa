"""Literal positions for Krypton Tower War rule tests: a game on the base scenario's map, heroes put on
named cells, the turn set to a chosen hero with chosen movement points, dice scripted.

Cells are cube coordinates of the [authored] map (rules page section 2): e.g. plain (0,0,0), hill
(-2,2,0), forest (-2,4,-2), river (0,1,-1), poor vein (-4,4,0) stock 8, rich vein (0,3,-3) stock 16,
bases (-6,3,3) and (6,-3,-3).
"""

from __future__ import annotations

from pathlib import Path

from simkit.games.krypton.view import GameView
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


def new(first: str = "Warrior+Warrior", second: str = "Warrior+Warrior", seed: int = 0, sc=None) -> GameView:
    """A fresh game with every hero parked in a far corner (see :data:`PARK`)."""
    g = GameView((sc or scenario()).rules, (first, second), seed)
    for (s, k), cell in PARK.items():
        if k < g.team:
            g.heroes[s][k]["cell"] = g.index_of(*cell)
    return g


def put(g: GameView, side: int, k: int, cell, hp: int | None = None) -> dict:
    """Put hero ``k`` of ``side`` on ``cell`` (alive, face up), optionally with ``hp``."""
    h = g.heroes[side][k]
    h["cell"] = g.index_of(*cell)
    h["state"] = "board"
    if hp is not None:
        h["hp"] = hp
    return h


def turn(g: GameView, side: int, k: int, points: int) -> None:
    """Make it hero ``k`` of ``side``'s turn (round 1), in its move phase with ``points``."""
    g.turn = 2 * k + side
    g.t = {"roll": points, "points": points, "acted": False, "shuttle": False, "pact": False, "blood": False,
           "blood_left": [], "ending": False}
    g.judgment = None
    g.pending = []


def dice(g: GameView, *values: int) -> None:
    """Script the next dice (movement, attack, defence) in order; more draws than given fail."""
    g.script_dice(*values)


def cell(g: GameView, side: int, k: int) -> tuple[int, int, int]:
    return g.cell_of(g.heroes[side][k]["cell"])


def tower(g: GameView, side: int, kind: str, at) -> int:
    """Put a ``kind`` tower of ``side`` on cell ``at``; returns its cell index."""
    c = g.index_of(*at)
    g.buildings[c] = {"side": side, "kind": kind, "hp": g.rules.towers[kind].hp, "iron": False}
    return c


def steps(g: GameView, *cells) -> None:
    for c in cells:
        g.do(("step",) + tuple(c))
