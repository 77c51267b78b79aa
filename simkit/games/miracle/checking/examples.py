"""Battle of Miracles' rule examples (``scenarios/miracle/examples.toml``) in the game's own words.

:class:`MiracleExamples` builds an example's position (units of the decks put on named cells, as if
summoned earlier) and reads its values by the units' example names; an action names units by those
names (``["attack", "archer", "far"]``). :func:`run_examples_first` is what ``simkit check`` runs
before the hypothesis state machine.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping

import numpy as np

from simkit.core.errors import IllegalAction
from simkit.games.miracle.state import ARTIFACT_STATES
from simkit.scenario import scenario_from_data

SIDES = ("first", "second")


class NamedMatch:
    """A match whose actions name the example's units (``"archer"``) instead of unit ids."""

    def __init__(self, match, names: dict[str, int]):
        self.match = match
        self.names = names

    def do(self, action) -> None:
        """The action with every unit name replaced by its id (cells, given as lists, become tuples); a summon
        or an InfernoFlame may name its new unit with a last word (``["summon", "Swordsman", 1, [-6, 6, 0],
        "new"]``, ``["use", [0, 7, -7], "inferno"]``)."""
        action = tuple(action)
        new_name = None
        if (len(action) == 5 and action[0] == "summon" or len(action) == 3 and action[0] == "use") \
                and isinstance(action[-1], str):
            action, new_name = action[:-1], action[-1]
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
        uid = int(self.match.state.next_uid[0])
        self.match.do(tuple(out))
        if new_name is not None:
            self.names[new_name] = uid


class MiracleExamples:
    """The example words of Battle of Miracles.

    Args:
        scenario: the loaded scenario.
    """

    def __init__(self, scenario):
        self.scenario = scenario
        self._variants: dict[str, object] = {}

    def _variant(self, overrides: Mapping | None):
        """The scenario with ``overrides`` merged into its data (tables key by key), built once per overrides."""
        if not overrides:
            return self.scenario
        key = json.dumps(overrides, sort_keys=True)
        if key not in self._variants:
            data = copy.deepcopy(self.scenario.data)
            _merge(data, overrides)
            self._variants[key] = scenario_from_data(data, str(self.scenario.path))
        return self._variants[key]

    def example_match(self, given: Mapping) -> NamedMatch:
        """A match with the ``units`` given: entries ``{name, kind, cell = [x, y, z], side ("first" or
        "second", default the side to act), level, hp, ready, buff (turn ends of HolyLight bonus left), equipped
        (the SalamanderShield's bearer: its HP bonus and holy shield, the artifact in use), shield}``; ``kind =
        "Inferno"`` is the InfernoFlame's unit (the artifact in use). ``turn``: the turns are ended up to it first
        (default 1); ``first`` / ``second``: ``{mana, miracle_hp, dead_stars, artifact ("ready", "in_use",
        "cooling"), artifact_cooldown, garrisons = [[x, y, z], ...] (owned)}``; ``first_deck`` / ``second_deck``
        (default HolyLight:Archer,Priest,Swordsman against SalamanderShield:BlackBat,Priest,Swordsman);
        ``scenario = {table = {key = value}}``: the example's own rules, merged into the scenario's."""
        known = {"units", "first_deck", "second_deck", "turn", "first", "second", "scenario"}
        if set(given) - known:
            raise ValueError(f"unknown word {sorted(set(given) - known)[0]!r} (known: {', '.join(sorted(known))})")
        sc = self._variant(given.get("scenario"))
        m = sc.game.new_match(given.get("first_deck", "HolyLight:Archer,Priest,Swordsman"),
                              given.get("second_deck", "SalamanderShield:BlackBat,Priest,Swordsman"))
        for _ in range(int(given.get("turn", 1)) - 1):
            m.end_turn()
        for s, name in enumerate(SIDES):
            _set_side(m, s, given.get(name, {}))
        names = {}
        for u in given.get("units", []):
            side = SIDES.index(u["side"]) if "side" in u else m.current
            names[u["name"]] = _place(m, u, side)
        return NamedMatch(m, names)

    def example_values(self, nm: NamedMatch) -> dict:
        """``units.<name>.hp`` / ``.max_hp`` / ``.atk`` / ``.pos`` / ``.alive`` / ``.holy_shield`` / ``.can_move``
        / ``.can_attack`` / ``.level``, ``.moves`` (how many cells the legal actions let it move to) and
        ``.targets`` (the example names, or ``miracle``, of what the legal actions let it attack, sorted),
        ``first.mana``, ``first.max_mana``, ``first.miracle_hp``, ``first.dead_stars``, ``first.available.<kind>``,
        ``first.cooling.<kind>`` (turns left of each cooling unit), ``first.artifact`` (its state),
        ``first.artifact_cooldown``, ``garrisons."x,y,z"`` (owner or "none"), ``turn``, ``current``, ``over``,
        ``winner``, ``end_reason``."""
        snap = nm.match.snapshot()
        by_id = {u["id"]: u for u in snap["units"]}
        name_of = {uid: name for name, uid in nm.names.items()}
        moves: dict[int, int] = {}
        targets: dict[int, list[str]] = {}
        for action in nm.match.legal_actions():  # what the legal list offers, besides what Match.do accepts
            if action[0] == "move":
                moves[action[1]] = moves.get(action[1], 0) + 1
            elif action[0] == "attack":
                target = action[2] if action[2] == "miracle" else name_of.get(action[2], f"unit {action[2]}")
                targets.setdefault(action[1], []).append(target)
        out = {k: snap[k] for k in ("turn", "over", "end_reason")}
        out["winner"] = SIDES[snap["winner"]] if isinstance(snap["winner"], int) else (snap["winner"] or "none")
        out["current"] = SIDES[snap["current"]]
        out["units"] = {}
        for name, uid in nm.names.items():
            u = by_id.get(uid)
            out["units"][name] = {"alive": u is not None, **({k: (list(v) if isinstance(v, tuple) else v)
                                                              for k, v in u.items()} if u else {})}
            if u is not None:
                out["units"][name]["moves"] = moves.get(uid, 0)
                out["units"][name]["targets"] = sorted(targets.get(uid, []))
        for s, name in enumerate(SIDES):
            p = snap["players"][s]
            out[name] = {k: p[k] for k in ("mana", "max_mana", "miracle_hp", "dead_stars", "available", "cooling")}
            out[name]["artifact"] = p["artifact"]["state"]
            out[name]["artifact_cooldown"] = p["artifact"]["cooldown"]
        out["garrisons"] = {",".join(map(str, c)): ("none" if o is None else SIDES[o])
                            for c, o in snap["garrisons"].items()}
        return out


def _merge(data: dict, overrides: Mapping) -> None:
    for key, value in overrides.items():
        if isinstance(value, Mapping) and isinstance(data.get(key), dict):
            _merge(data[key], value)
        else:
            data[key] = copy.deepcopy(value)


def _set_side(m, s: int, words: Mapping) -> None:
    """Write a side's ``mana``, ``miracle_hp``, ``dead_stars``, ``artifact``, ``artifact_cooldown`` and owned
    ``garrisons`` into the match's state."""
    known = {"mana", "miracle_hp", "dead_stars", "artifact", "artifact_cooldown", "garrisons"}
    if set(words) - known:
        word = sorted(set(words) - known)[0]
        raise ValueError(f"unknown word {word!r} for a side (known: {', '.join(sorted(known))})")
    st, board = m.state, m.rules.board
    for key in ("mana", "miracle_hp", "dead_stars", "artifact_cooldown"):
        if key in words:
            getattr(st, key)[0, s] = int(words[key])
    if "artifact" in words:
        st.artifact_state[0, s] = ARTIFACT_STATES.index(words["artifact"])
    for cell in words.get("garrisons", []):
        c = board.grid.index(tuple(cell))
        hits = [i for i, g in enumerate(board.garrisons) if int(g) == c]
        if not hits:
            raise ValueError(f"{tuple(cell)} is not a garrison")
        st.garrison_owner[0, hits[0]] = s


def _place(m, u: Mapping, side: int) -> int:
    """Put the unit of entry ``u`` of ``side``'s deck (or its Inferno) on its cell, as if summoned earlier; its id."""
    st, cards = m.state, m.rules.cards
    cell, level, hp = tuple(u["cell"]), int(u.get("level", 1)), u.get("hp")
    c = m.rules.board.grid.index(cell)
    if c < 0:
        raise ValueError(f"{cell} is not a board cell")
    if u["kind"] == "Inferno":
        k, slot = cards.inferno, -1
        st.artifact_state[0, side] = ARTIFACT_STATES.index("in_use")
    else:
        k = cards.kind_index(u["kind"])
        deck = [int(x) for x in st.deck_kind[0, side]]
        if k not in deck:
            raise ValueError(f"{u['kind']} is not in the {SIDES[side]} deck")
        slot = deck.index(k)
        if st.available[0, side, slot] <= 0:
            raise ValueError(f"no {u['kind']} left to place for {SIDES[side]}")
        st.available[0, side, slot] -= 1
    lo = side * m.rules.side_units
    slot_u = lo + int(np.argmin(st.alive[0, lo:lo + m.rules.side_units]))
    if st.alive[0, slot_u]:
        raise ValueError(f"no free unit slot for {SIDES[side]}")
    equipped = bool(u.get("equipped", False))
    full = int(cards.hp[k, level - 1]) + (int(cards.effect["SalamanderShield"]["hp"]) if equipped else 0)
    uid = int(st.next_uid[0])
    st.alive[0, slot_u] = True
    st.kind[0, slot_u], st.level[0, slot_u], st.deck_slot[0, slot_u], st.cell[0, slot_u] = k, level, slot, c
    st.hp[0, slot_u] = full if hp is None else int(hp)
    st.max_hp[0, slot_u] = full
    st.ready[0, slot_u] = bool(u.get("ready", True)) and side == m.current
    st.equipped[0, slot_u] = equipped
    st.shield[0, slot_u] = bool(u.get("shield", equipped))
    if equipped:
        st.artifact_state[0, side] = ARTIFACT_STATES.index("in_use")
    st.buff[0, slot_u] = int(u.get("buff", 0))
    st.uid[0, slot_u] = uid
    st.next_uid[0] += 1
    return uid


def run_examples_first(scenario):
    """``(examples run, failure text or None)`` for the scenario's ``examples.toml`` (none: ``(0, None)``)."""
    from simkit.testing.examples import run_examples

    count, failure = run_examples(scenario, MiracleExamples(scenario))
    return count, None if failure is None else failure.format()
