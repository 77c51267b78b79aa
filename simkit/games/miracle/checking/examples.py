"""Battle of Miracles' rule examples (``scenarios/miracle/examples.toml``) in the game's own words.

:class:`MiracleExamples` builds an example's position (units of the decks put on named cells, as if
summoned earlier) and reads its values by the units' example names; an action names units by those
names (``["attack", "archer", "far"]``). :func:`run_examples_first` is what ``simkit check`` runs
before the hypothesis state machine.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from simkit.core.errors import IllegalAction

SIDES = ("first", "second")


class NamedMatch:
    """A match whose actions name the example's units (``"archer"``) instead of unit ids."""

    def __init__(self, match, names: dict[str, int]):
        self.match = match
        self.names = names

    def do(self, action) -> None:
        """The action with every unit name replaced by its id (cells, given as lists, become tuples)."""
        out = []
        for x in action:
            if isinstance(x, str) and x in self.names:
                out.append(self.names[x])
            elif isinstance(x, (list, tuple)):
                out.append(tuple(int(v) for v in x))
            else:
                out.append(x)
        if out and out[0] not in ("summon", "move", "attack", "use", "end_turn"):
            raise IllegalAction(f"unknown action {tuple(action)!r}")
        self.match.do(tuple(out))


class MiracleExamples:
    """The example words of Battle of Miracles.

    Args:
        scenario: the loaded scenario.
    """

    def __init__(self, scenario):
        self.scenario = scenario

    def example_match(self, given: Mapping) -> NamedMatch:
        """A match with the ``units`` given: entries ``{name, kind, cell = [x, y, z], side ("first" or
        "second", default the side to act), level, hp, ready}``; ``first_deck`` / ``second_deck`` (default
        HolyLight:Archer,Priest,Swordsman against SalamanderShield:BlackBat,Priest,Swordsman)."""
        known = {"units", "first_deck", "second_deck"}
        if set(given) - known:
            raise ValueError(f"unknown word {sorted(set(given) - known)[0]!r} (known: {', '.join(sorted(known))})")
        m = self.scenario.game.new_match(given.get("first_deck", "HolyLight:Archer,Priest,Swordsman"),
                                         given.get("second_deck", "SalamanderShield:BlackBat,Priest,Swordsman"))
        names = {}
        for u in given.get("units", []):
            side = SIDES.index(u["side"]) if "side" in u else m.current
            names[u["name"]] = _place(m, u["kind"], tuple(u["cell"]), side, int(u.get("level", 1)), u.get("hp"),
                                      bool(u.get("ready", True)))
        return NamedMatch(m, names)

    def example_values(self, nm: NamedMatch) -> dict:
        """``units.<name>.hp`` / ``.atk`` / ``.pos`` / ``.alive`` / ``.holy_shield``, ``first.mana``,
        ``first.max_mana``, ``first.miracle_hp``, ``first.dead_stars``, ``turn``, ``current``, ``winner``."""
        snap = nm.match.snapshot()
        by_id = {u["id"]: u for u in snap["units"]}
        out = {k: snap[k] for k in ("turn", "over", "winner", "end_reason")}
        out["current"] = SIDES[snap["current"]]
        out["units"] = {}
        for name, uid in nm.names.items():
            u = by_id.get(uid)
            out["units"][name] = {"alive": u is not None, **({k: (list(v) if isinstance(v, tuple) else v)
                                                              for k, v in u.items()} if u else {})}
        for s, name in enumerate(SIDES):
            p = snap["players"][s]
            out[name] = {k: p[k] for k in ("mana", "max_mana", "miracle_hp", "dead_stars", "available")}
        return out


def _place(m, kind: str, cell, side: int, level: int, hp, ready: bool) -> int:
    """Put a unit of ``kind`` of ``side``'s deck on ``cell``, as if summoned earlier; its unit id."""
    st, cards = m.state, m.rules.cards
    c = m.rules.board.grid.index(cell)
    if c < 0:
        raise ValueError(f"{cell} is not a board cell")
    k = cards.kind_index(kind)
    deck = [int(x) for x in st.deck_kind[0, side]]
    if k not in deck:
        raise ValueError(f"{kind} is not in the {SIDES[side]} deck")
    slot = deck.index(k)
    if st.available[0, side, slot] <= 0:
        raise ValueError(f"no {kind} left to place for {SIDES[side]}")
    st.available[0, side, slot] -= 1
    lo = side * m.rules.side_units
    u = lo + int(np.argmin(st.alive[0, lo:lo + m.rules.side_units]))
    if st.alive[0, u]:
        raise ValueError(f"no free unit slot for {SIDES[side]}")
    full = int(cards.hp[k, level - 1])
    uid = int(st.next_uid[0])
    st.alive[0, u] = True
    st.kind[0, u], st.level[0, u], st.deck_slot[0, u], st.cell[0, u] = k, level, slot, c
    st.hp[0, u] = full if hp is None else int(hp)
    st.max_hp[0, u] = full
    st.ready[0, u] = ready and side == m.current
    st.shield[0, u] = st.equipped[0, u] = False
    st.buff[0, u] = 0
    st.uid[0, u] = uid
    st.next_uid[0] += 1
    return uid


def run_examples_first(scenario):
    """``(examples run, failure text or None)`` for the scenario's ``examples.toml`` (none: ``(0, None)``)."""
    from simkit.testing.examples import run_examples

    count, failure = run_examples(scenario, MiracleExamples(scenario))
    return count, None if failure is None else failure.format()
