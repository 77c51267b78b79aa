"""Test-only helpers: write literal Battle of Miracles positions into a ``Match``'s state.

Real actions are preferred where they are cheap; these helpers put units straight on the board
(as if summoned earlier and already able to act) so a test can set up a clause in a few lines.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import simkit
from simkit.games.miracle.match import Match

BASE = Path(__file__).resolve().parents[1] / "scenarios" / "miracle" / "base.toml"

# Deck ids used across the rule tests (canonical: creatures in alphabetical order).
MELEE = "HolyLight:Archer,Priest,Swordsman"
DRAGONS = "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"
SHIELD = "SalamanderShield:BlackBat,Priest,Swordsman"
WIND = "WindBlessing:Archer,BlackBat,Swordsman"


def cell_of(m: Match, cell) -> int:
    """The board index of ``cell``; fails the test when it is not a board cell."""
    i = m.rules.board.grid.index(cell)
    assert i >= 0, f"{cell} is not a board cell"
    return i


def place(m: Match, kind: str, cell, side: int | None = None, level: int = 1, hp: int | None = None,
          ready: bool = True) -> int:
    """Put a unit of ``kind`` (a deck creature or ``"Inferno"``) for ``side`` on ``cell``; returns its id.

    The unit uses one available unit of its deck slot (none for the Inferno), has full HP unless
    ``hp`` is given, and may act this turn when ``ready`` (default: it was summoned earlier).
    """
    st, cards = m.state, m.rules.cards
    side = m.current if side is None else side
    c = cell_of(m, cell)
    if kind == "Inferno":
        k, slot = cards.inferno, -1
    else:
        k = cards.kind_index(kind)
        deck = [int(x) for x in st.deck_kind[0, side]]
        assert k in deck, f"{kind} is not in side {side}'s deck"
        slot = deck.index(k)
        assert st.available[0, side, slot] > 0, f"no {kind} unit available for side {side}"
        st.available[0, side, slot] -= 1
    fly = bool(cards.flying[k])
    assert fly or not m.rules.board.abyss[c], f"a ground unit cannot stand on the abyss {cell}"
    same_layer = st.alive[0] & (st.cell[0] == c) & (cards.flying[st.kind[0]] == fly)
    assert not same_layer.any(), f"{cell} already holds a unit of that layer"
    lo = side * m.rules.side_units
    u = lo + int(np.argmin(st.alive[0, lo:lo + m.rules.side_units]))
    assert not st.alive[0, u], "no free unit slot"
    full = int(cards.hp[k, level - 1])
    uid = int(st.next_uid[0])
    st.alive[0, u] = True
    st.kind[0, u], st.level[0, u], st.deck_slot[0, u], st.cell[0, u] = k, level, slot, c
    st.hp[0, u] = full if hp is None else hp
    st.max_hp[0, u] = full
    st.ready[0, u] = ready and side == m.current
    st.shield[0, u] = st.equipped[0, u] = False
    st.buff[0, u] = 0
    st.uid[0, u] = uid
    st.next_uid[0] += 1
    return uid


def unit(m: Match, uid: int) -> dict | None:
    """The snapshot entry of unit ``uid``, or None when it is not on the board."""
    return next((d for d in m.snapshot()["units"] if d["id"] == uid), None)


def player(m: Match, side: int) -> dict:
    """The snapshot entry of ``side``."""
    return m.snapshot()["players"][side]


def set_mana(m: Match, mana: int, side: int | None = None) -> None:
    """Give ``side`` (default: the current player) ``mana`` mana for this turn."""
    m.state.mana[0, m.current if side is None else side] = mana


def end_turns(m: Match, n: int) -> None:
    """End ``n`` turns in a row."""
    for _ in range(n):
        m.end_turn()


def moves(m: Match, uid: int) -> set:
    """The cells unit ``uid`` may move to now, from ``legal_actions``."""
    return {a[2] for a in m.legal_actions() if a[0] == "move" and a[1] == uid}


def targets(m: Match, uid: int) -> set:
    """The targets unit ``uid`` may attack now (unit ids and ``"miracle"``), from ``legal_actions``."""
    return {a[2] for a in m.legal_actions() if a[0] == "attack" and a[1] == uid}


def set_hp(m: Match, uid: int, hp: int) -> None:
    """Set unit ``uid``'s HP (for wounds a test needs without staging the fights)."""
    st = m.state
    st.hp[0, np.nonzero(st.alive[0] & (st.uid[0] == uid))[0][0]] = hp


def patch_scenario(tmp_path, text: str):
    """Load a patch of the base scenario written to ``tmp_path`` with the given TOML ``text``."""
    path = tmp_path / "patch.toml"
    path.write_text(f'extends = "{BASE.as_posix()}"\n{text}', encoding="utf-8")
    return simkit.load_scenario(path)


def nan_as_none(columns: dict) -> dict:
    """``play_batch`` columns with NaN (an experience figure with no value, such as Battle of Miracles'
    ``uncertainty``) as None, so that the same games' columns compare equal with ``==``."""
    return {k: [None if isinstance(v, float) and v != v else v for v in values] for k, values in columns.items()}


def random_games(scenario, n: int, rng: np.random.Generator):
    """``n`` new games of ``scenario`` over decks drawn at random from its pool (a batched ``State``)."""
    from simkit.games.miracle import rules as R
    from simkit.games.miracle.cards import parse_deck

    rules = scenario.rules
    parsed = [parse_deck(rules.cards, scenario.decks[i]) for i in rng.integers(0, len(scenario.decks), 2 * n)]
    artifact = np.array([p[0] for p in parsed]).reshape(n, 2)
    return R.new_games(rules, artifact, np.array([p[1] for p in parsed]).reshape(n, 2, 3))
