"""Krypton Tower War's invariants, for ``simkit check`` and :mod:`simkit.testing`.

:meth:`KryptonInvariants.invariants` takes two :meth:`~simkit.games.krypton.match.Match.snapshot`
values and the action between them and returns the names of the invariants the step broke (empty
when all hold): HP within 0..max, energy never negative, vein stock never negative and a spent vein
is plain, at most one hero per cell, no hero on a base or an enemy building, towers only on buildable
cells, the magic hand within its limit, at most two revivals per death (one choice each), and the
game's own bounds (dice 1..max, base HP never above its start).
"""

from __future__ import annotations

from collections.abc import Mapping

from simkit.games.krypton.tables import T_BASE, T_PLAIN, T_VEIN

NAMES = ("hp_bounds", "energy_nonnegative", "vein_stock", "one_hero_per_cell", "hero_cells", "tower_cells",
         "hand_limit", "revival_choice", "dice_bounds", "base_hp")


class KryptonInvariants:
    """The game's invariants over snapshots.

    Args:
        scenario: the loaded Krypton scenario (its classes, map and limits).
    """

    names = NAMES

    def __init__(self, scenario):
        self.rules = scenario.rules

    def invariants(self, before: Mapping | None, action: tuple | None, after: Mapping) -> list[str]:
        """Names of the invariants broken by the step ``before`` -> ``action`` -> ``after``."""
        r = self.rules
        broken = []
        heroes = [(s, h) for s in (0, 1) for h in after["heroes"][s]]
        if any(not 0 <= h["hp"] <= r.classes[h["cls"]].hp or (h["hp"] == 0) != (h["state"] == "dead")
               for _, h in heroes):
            broken.append("hp_bounds")
        if min(after["energy"]) < 0:
            broken.append("energy_nonnegative")
        start_terrain = r.terrain
        for c, (t, v) in enumerate(zip(after["terrain"], after["stock"])):
            if v < 0 or (start_terrain[c] == T_VEIN and v == 0 and t != T_PLAIN) or (t == T_VEIN and v == 0):
                broken.append("vein_stock")
                break
        cells = [h["cell"] for _, h in heroes if h["state"] != "dead"]
        if len(cells) != len(set(cells)):
            broken.append("one_hero_per_cell")
        for s, h in heroes:
            if h["state"] == "dead":
                continue
            b = after["buildings"].get(h["cell"])
            if h["cell"] < 0 or after["terrain"][h["cell"]] == T_BASE or (b is not None and b["side"] != s):
                broken.append("hero_cells")
                break
        spawns = set(r.spawns[0]) | set(r.spawns[1])
        for c in after["buildings"]:
            if c in spawns or start_terrain[c] not in (T_PLAIN, T_VEIN) or after["terrain"][c] != T_PLAIN:
                broken.append("tower_cells")
                break
        for s in (0, 1):
            limit = after["hand_limit"][s]
            grew = before is None or len(after["hands"][s]) > len(before["hands"][s])
            if grew and len(after["hands"][s]) > limit:
                broken.append("hand_limit")
                break
        if len(after["pending"]) > sum(1 for _, h in heroes if h["state"] == "dead"):
            broken.append("revival_choice")
        if before is not None and action is not None and tuple(action)[:1] == ("revive",):
            rest = before["pending"][1:]
            if after["pending"][:len(rest)] != rest:  # the choice made is gone, the others wait in order
                broken.append("revival_choice")
        if any(not 1 <= d <= r.settings["max_dice"] for d in after["dice"]):
            broken.append("dice_bounds")
        if any(hp > r.settings["base_hp"] for hp in after["base_hp"]) or (
                after["winner"] is None and min(after["base_hp"]) <= 0):
            broken.append("base_hp")
        return broken
