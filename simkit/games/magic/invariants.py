"""Magic War's invariants, for ``simkit check`` and :mod:`simkit.testing` (issue 31, item 6).

:meth:`MagicInvariants.invariants` takes two :meth:`~simkit.games.magic.match.Match.snapshot` values and
the action between them and returns the names of the invariants the step broke (empty when all hold).
"""

from __future__ import annotations

from collections.abc import Mapping

from simkit.errors import ScenarioError
from simkit.games.magic.tables import (
    S_CAP,
    S_IMMUNE,
    S_MAX_UNITS,
    S_UNLOCK_CAP,
    U_LEADER,
    army_cost,
    check_seat,
    parse_army,
)

NAMES = ("hp_bounds", "one_unit_per_cell", "budget_and_units", "leader_immune", "magic_nonnegative",
         "magic_delayed", "draw_cap")


class MagicInvariants:
    """The game's invariants over snapshots.

    * ``hp_bounds``: every unit's HP within 0..max; a live unit has HP above 0 (markers below HP) while the
      game goes on (a destroyed leader ends it before later deaths are resolved [R33]);
    * ``one_unit_per_cell``: live units stand on distinct cells, inside the board;
    * ``budget_and_units``: each army within its seat's budget and 1..9 units; bought units never grow in
      number (only summons add units);
    * ``leader_immune``: no leader loses HP during the immune turns [R14];
    * ``magic_nonnegative``: active and stored magic never below 0;
    * ``magic_delayed``: active magic grows only when the owner's turn starts (gains wait a turn [R23]);
    * ``draw_cap``: tactical cards drawn never pass the cap, the cap is 4 or (after an unlock) 5, and a hand
      never holds more than was drawn.

    Args:
        scenario: the loaded Magic War scenario.
    """

    names = NAMES

    def __init__(self, scenario):
        self.rules = scenario.rules

    def invariants(self, before: Mapping | None, action: tuple | None, after: Mapping) -> list[str]:
        """Names of the invariants broken by the step ``before`` -> ``action`` -> ``after``."""
        r = self.rules
        broken = []
        units = after["units"]
        live = [u for u in units if u["state"] == "alive"]
        # a live unit has HP left, except those the game's end left unresolved [R33]
        if any(not 0 <= u["hp"] <= u["max_hp"] for u in units) or (
                after["phase"] != "over" and any(u["hp"] <= 0 for u in live)):
            broken.append("hp_bounds")
        cells = [tuple(u["cell"]) for u in live]
        if len(cells) != len(set(cells)) or any(not (0 <= c < r.cols and 0 <= rr < r.rows) for c, rr in cells):
            broken.append("one_unit_per_cell")
        ok = True
        for seat, deck in enumerate(after["decks"]):
            try:
                check_seat(r, deck, seat)
                _, counts = parse_army(r, deck)
            except ScenarioError:
                ok = False
                continue
            leader = r.leaders[deck.split(":")[0]]
            bought = [u for u in units if u["side"] == seat and not u["summoned"] and u["type"] != leader]
            if len(bought) != sum(counts.values()) or len(bought) > int(r.st[S_MAX_UNITS]) or \
                    army_cost(r, counts) != after["players"][seat]["army_value"]:
                ok = False
        if not ok:
            broken.append("budget_and_units")
        if before is not None and 1 <= after["turn"] <= int(r.st[S_IMMUNE]):
            for ub, ua in zip(before["units"], after["units"]):
                if r.ut[r.types.index(ua["type"]), U_LEADER] and ua["hp"] < ub["hp"]:
                    broken.append("leader_immune")
                    break
        if any(p["active_magic"] < 0 or p["stored_magic"] < 0 for p in after["players"]):
            broken.append("magic_nonnegative")
        if before is not None:
            for seat in (0, 1):
                grew = after["players"][seat]["active_magic"] > before["players"][seat]["active_magic"]
                turn_began = after["turn"] != before["turn"] and after["to_act"] == seat
                if grew and not turn_began:
                    broken.append("magic_delayed")
                    break
        caps = (int(r.st[S_CAP]), int(r.st[S_UNLOCK_CAP]))
        for p in after["players"]:
            if p["drawn"] > p["cap"] or p["cap"] not in caps or len(p["hand"]) > p["drawn"]:
                broken.append("draw_cap")
                break
        return broken
