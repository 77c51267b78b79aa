"""Hand-written Card Duel positions for the rule tests (literal hands, zones, HP and distance)."""

from __future__ import annotations

import functools
from pathlib import Path

import simkit
from simkit.games.duel.match import Match
from simkit.games.duel.transitions import on_the_page

ROOT = Path(__file__).resolve().parents[1]
DUEL = ROOT / "scenarios" / "duel" / "base.toml"

#: decks used by the tests (each holds the core: Strike x4, Step x3, Guard x3, VenomCoating, Barrier)
A = "Dagger+Greataxe:Rage,Reflect,ShadowBolt"
B = "Longbow+Spear:Mend,Reflect,Venom"
C = "Dagger+Longbow:Frost,Mend,Venom"


@functools.cache
def duel():
    """The base Card Duel scenario (loaded once)."""
    return simkit.load_scenario(DUEL)


def patched(tmp_path, text: str, name: str = "patch.toml"):
    """A scenario extending the base with ``text`` (TOML)."""
    path = tmp_path / name
    path.write_text(f'extends = "{DUEL}"\n{text}', encoding="utf-8")
    return simkit.load_scenario(path)


def position(first: str = A, second: str = B, turn: int = 1, phase: str = "play", distance: int = 3,
             p0: dict | None = None, p1: dict | None = None, scenario=None, seed: int = 0) -> Match:
    """A match put into a literal position: both players at 25 HP, 2 action points and 3 mana, one
    own turn started, empty hands unless given; every card not placed is in the source pile."""
    m = Match(scenario or duel(), first, second, seed=seed)
    players = []
    for spec in (p0, p1):
        full = {"hp": 25, "ap": 2, "mana": 3, "own_turns": 1, "hand": []}
        full.update(spec or {})
        players.append(full)
    return m.arrange(turn=turn, phase=phase, distance=distance, players=players)


def page(m: Match) -> dict:
    """The match's snapshot in the rules page's words: zones as card lists, statuses and zone sizes by name
    (:func:`simkit.games.duel.transitions.on_the_page`)."""
    return on_the_page(m.snapshot())
