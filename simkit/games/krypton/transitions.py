"""Krypton Tower War's rules page restated over snapshots, for ``simkit check``: no engine helper is used.

Every function reads :meth:`~simkit.games.krypton.match.Match.snapshot` values (the declared state's fields by
name: ``sides[s]["heroes"]``, ``tower_side``, ``terrain``, ``stock``, ``sides[s]["energy"]``,
``this_turn["points"]``; codes from :mod:`simkit.games.krypton.state`) and the scenario: its numbers
(``[rules]``, ``[terrain]``, ``[classes]``, ``[towers]``, ``[veins]``, as the designer wrote them) and its map
(cells in cube coordinates, bases, vein yields), and says what ``shared/rules/krypton-tower-war.md`` requires of an
action: what must change, what must not. :meth:`KryptonPage.transition_problems` returns the names of
the clauses a step broke; :meth:`KryptonPage.legal_problems` restates which steps and attacks the page
allows in a position.
"""

from __future__ import annotations

from collections.abc import Mapping

from simkit.games.krypton.state import HS_DEAD, T_BASE, T_PLAIN, T_VEIN

#: clause name -> the rules page's section, for the report
CLAUSES = {
    "steps_follow_the_page": "9, 3: the acting hero may step to an adjacent cell costing at most its points "
                             "(plain/vein 1, forest 2, hill/river 3; Shuttle 1), never a base, an enemy "
                             "building or another hero's cell; a friendly tower is fine",
    "attacks_in_range": "7, 4: a hero action may attack an enemy hero, tower or base at distance <= the "
                        "class's range (Warrior 1, Knight 1, Archer 2)",
    "step_costs_and_tower_hits": "9, 8.1: a step pays the entered cell's points; each enemy Attack Tower (and "
                                 "base) the hero comes within 1 of, from farther, deals 2 at once",
    "end_phase_tower_hits": "8.2: in the end phase every enemy Attack Tower (and base) within 1 of the acting "
                            "hero deals it 2",
    "gather_takes_the_stock": "6: gathering gives min(yield, stock), the stock drops by as much, and a vein "
                              "at stock 0 becomes plain",
    "hand_limit_and_dice": "5: dice = 1 + own Prayer Towers (at most max_dice); magic hand limit = "
                           "hand_limit + own Magic Towers",
    "death_penalty_rounds_down": "6: a dying hero's side gives floor(energy / death_penalty_divisor) to the "
                                 "other side",
    "knight_points_from_the_start_cell": "4, 9 [ruling]: a Knight's points are the roll + 2 when its move "
                                         "starts on plain or vein, the roll - 2 otherwise (never below 0)",
}


class KryptonPage:
    """The page's rules over snapshots, with the scenario's numbers and map.

    Args:
        scenario: the loaded Krypton scenario (its data and its map).
    """

    def __init__(self, scenario):
        data, rules = scenario.data, scenario.rules
        self.r = dict(data["rules"])
        points = dict(data["terrain"])
        self.points = {0: points["plain"], 1: points["forest"], 2: points["hill"], 3: points["river"],
                       4: points["vein"]}
        self.classes = classes = sorted(data["classes"])  # a hero's class code: its place in alphabetical order
        self.range = [int(data["classes"][name]["range"]) for name in classes]
        self.move = [data["classes"][name]["move"] for name in classes]
        self.max_hp = [int(data["classes"][name]["hp"]) for name in classes]
        towers = list(data["towers"])  # a tower's kind code: its place in the file
        self.effect = [data["towers"][name]["effect"] for name in towers]
        self.team = rules.team_size
        self.cube = [tuple(int(v) for v in rules.grid.cell(i)) for i in range(rules.grid.size)]
        self.cell_of = {c: i for i, c in enumerate(self.cube)}
        self.bases = tuple(int(b) for b in rules.bases)
        self.vein_yield = [int(v) for v in rules.vein_yield]

    def dist(self, a: int, b: int) -> int:
        """Hex distance between two cells (cube coordinates)."""
        p, q = self.cube[a], self.cube[b]
        return (abs(p[0] - q[0]) + abs(p[1] - q[1]) + abs(p[2] - q[2])) // 2

    def heroes(self, snap: Mapping, side: int) -> list[Mapping]:
        """``side``'s heroes (its team; the state holds more places)."""
        return snap["sides"][side]["heroes"][:self.team]

    def acting_index(self, snap: Mapping) -> tuple[int, int]:
        """``(side, hero)`` whose hero turn it is (11: turns alternate sides, heroes in team order)."""
        return snap["turn"] % 2, snap["turn"] // 2 % self.team

    def acting(self, snap: Mapping):
        """The acting hero: ``(side, hero dict)``."""
        side, k = self.acting_index(snap)
        return side, snap["sides"][side]["heroes"][k]

    def towers(self, snap: Mapping) -> dict[int, Mapping]:
        """The towers standing: cell -> ``{"side", "kind"}`` (kind: the tower's place in the file)."""
        return {c: {"side": snap["tower_side"][c], "kind": snap["tower_kind"][c]} for c in range(len(self.cube))
                if snap["tower_side"][c] >= 0}

    def hitters(self, snap: Mapping, side: int) -> list[int]:
        """Cells of the buildings that strike ``side``'s heroes (8: enemy Attack Towers and the enemy base)."""
        out = [c for c, b in self.towers(snap).items() if b["side"] != side and self.effect[b["kind"]] == "attack"]
        return out + [self.bases[1 - side]]

    def _heroes_at(self, snap) -> dict[int, int]:
        return {h["cell"]: s for s in (0, 1) for h in self.heroes(snap, s) if _on_board(h)}

    # -- legality -----------------------------------------------------------------------------------------

    def steps_by_the_page(self, snap: Mapping) -> set[tuple]:
        """The steps the page allows the acting hero (9, 3)."""
        side, hero = self.acting(snap)
        here, heroes = hero["cell"], self._heroes_at(snap)
        out = set()
        for n in range(len(self.cube)):
            if self.dist(here, n) != 1 or snap["terrain"][n] == T_BASE or n in heroes:
                continue
            owner = snap["tower_side"][n]
            if owner >= 0 and owner != side:
                continue
            cost = 1 if snap["this_turn"]["shuttle"] else self.points[snap["terrain"][n]]
            if cost <= snap["this_turn"]["points"]:
                out.add(("step", *self.cube[n]))
        return out

    def attacks_by_the_page(self, snap: Mapping) -> set[tuple]:
        """The attacks the page allows the acting hero (7)."""
        side, hero = self.acting(snap)
        reach = self.range[hero["cls"]]
        out = set()
        for h in self.heroes(snap, 1 - side):
            if _on_board(h) and self.dist(hero["cell"], h["cell"]) <= reach:
                out.add(("attack", *self.cube[h["cell"]]))
        for c, b in self.towers(snap).items():
            if b["side"] != side and self.dist(hero["cell"], c) <= reach:
                out.add(("attack", *self.cube[c], "tower"))
        if self.dist(hero["cell"], self.bases[1 - side]) <= reach:
            out.add(("attack", *self.cube[self.bases[1 - side]]))
        return out

    def legal_problems(self, snap: Mapping, legal: list) -> list[str]:
        """The legality clauses the offered actions break (compared where the page's window is open)."""
        if snap["winner"] >= 0 or snap["judgment"]["on"] or snap["n_revivals_owed"] \
                or snap["to_act"] != snap["turn"] % 2:
            return []
        legal = {tuple(a) for a in legal}
        broken = []
        steps = {a for a in legal if a[0] == "step"}
        if steps and steps != self.steps_by_the_page(snap):
            broken.append("steps_follow_the_page")
        if ("standby",) in legal and {a for a in legal if a[0] == "attack"} != self.attacks_by_the_page(snap):
            broken.append("attacks_in_range")
        return broken

    def legal_difference(self, snap: Mapping, legal: list) -> str:
        """What is offered that the page does not allow, and the reverse."""
        legal = {tuple(a) for a in legal}
        page = self.steps_by_the_page(snap) | self.attacks_by_the_page(snap)
        got = {a for a in legal if a[0] in ("step", "attack")}
        if ("standby",) not in legal:
            page = {a for a in page if a[0] == "step"}
        if not any(a[0] == "step" for a in got):
            page = {a for a in page if a[0] != "step"}
        return f"offered but not allowed: {sorted(got - page)}; allowed but not offered: {sorted(page - got)}"

    # -- every position -----------------------------------------------------------------------------------

    def position_problems(self, snap: Mapping) -> list[str]:
        """Clauses every position must hold (5: dice and the hand limit follow the towers)."""
        towers = self.towers(snap)
        for side in (0, 1):
            own = [b["kind"] for b in towers.values() if b["side"] == side]
            dice = min(int(self.r["max_dice"]), 1 + sum(self.effect[k] == "dice" for k in own))
            hand = int(self.r["hand_limit"]) + sum(self.effect[k] == "hand" for k in own)
            if snap["dice"][side] != dice or snap["hand_limit"][side] != hand:
                return ["hand_limit_and_dice"]
        return []

    # -- the transition clauses ---------------------------------------------------------------------------

    def transition_problems(self, before: Mapping, action, after: Mapping) -> list[str]:
        """The clauses (names of :data:`CLAUSES`) the step ``before`` -> ``action`` -> ``after`` broke."""
        if action is None or before["winner"] >= 0:
            return []
        broken = self.position_problems(after)
        verb = action[0]
        if verb == "step" and not self._step(before, action, after):
            broken.append("step_costs_and_tower_hits")
        if verb == "end" and not self._end(before, after):
            broken.append("end_phase_tower_hits")
        if verb == "gather" and not self._gather(before, after):
            broken.append("gather_takes_the_stock")
        if verb in ("step", "end") and not self._penalty(before, after):
            broken.append("death_penalty_rounds_down")
        if not self._knight(before, after):
            broken.append("knight_points_from_the_start_cell")
        return broken

    def _step(self, before, action, after) -> bool:
        side, hero = self.acting(before)
        to = self.cell_of[tuple(action[1:4])]
        a = after["sides"][side]["heroes"][self.acting_index(before)[1]]
        hits = sum(self.dist(hero["cell"], c) > 1 >= self.dist(to, c) for c in self.hitters(before, side))
        want = max(0, hero["hp"] - int(self.r["building_attack"]) * hits)
        if a["hp"] != want and not (want == 0 and a["state"] == HS_DEAD):
            return False
        if want == 0:
            return True
        cost = 1 if before["this_turn"]["shuttle"] else self.points[before["terrain"][to]]
        return a["cell"] == to and after["this_turn"]["points"] == before["this_turn"]["points"] - cost

    def _end(self, before, after) -> bool:
        side, hero = self.acting(before)
        if not _on_board(hero):
            return True
        a = after["sides"][side]["heroes"][self.acting_index(before)[1]]
        hits = sum(self.dist(hero["cell"], c) <= int(self.r["building_attack_range"])
                   for c in self.hitters(before, side))
        want = max(0, hero["hp"] - int(self.r["building_attack"]) * hits)
        return a["hp"] == want or (want == 0 and a["state"] == HS_DEAD)

    def _gather(self, before, after) -> bool:
        side, hero = self.acting(before)
        c = hero["cell"]
        stock = before["stock"][c]
        take = min(self.vein_yield[c], stock)
        return (after["sides"][side]["energy"] == before["sides"][side]["energy"] + take
                and after["stock"][c] == stock - take
                and (after["terrain"][c] == T_PLAIN if stock - take == 0 else after["terrain"][c] == T_VEIN))

    def _penalty(self, before, after) -> bool:
        died = [s for s in (0, 1) for h0, h1 in zip(self.heroes(before, s), self.heroes(after, s))
                if h0["state"] != HS_DEAD and h1["state"] == HS_DEAD]
        if len(died) != 1:
            return True
        s = died[0]
        energy = [before["sides"][i]["energy"] for i in (0, 1)]
        give = energy[s] // int(self.r["death_penalty_divisor"])
        return (after["sides"][s]["energy"], after["sides"][1 - s]["energy"]) == (energy[s] - give,
                                                                                  energy[1 - s] + give)

    def _knight(self, before, after) -> bool:
        t0, t1 = before["this_turn"], after["this_turn"]
        if after["winner"] >= 0 or t1["roll"] == 0 or t1["shuttle"]:
            return True
        if (after["turn"], t1["roll"]) == (before["turn"], t0["roll"]) and t0["roll"]:
            return True  # no new roll
        if after["turn"] == before["turn"] and t0["roll"]:
            return True
        side, hero = self.acting(after)
        if self.move[hero["cls"]] != "knight" or not _on_board(hero):
            return True
        roll = t1["roll"]
        if after["terrain"][hero["cell"]] in (T_PLAIN, T_VEIN):
            want = roll + int(self.r["knight_plain_bonus"])
        else:
            want = max(0, roll - int(self.r["knight_other_malus"]))
        return t1["points"] == want


def _on_board(hero: Mapping) -> bool:
    """A hero standing on the board (face up, or flipped after a revival in place)."""
    return hero["state"] != HS_DEAD and hero["cell"] >= 0
