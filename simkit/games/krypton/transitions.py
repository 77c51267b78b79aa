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

from simkit.games.krypton.state import (
    CARDS,
    COUNTER_CARDS,
    END_TURN_LIMIT,
    HS_BOARD,
    HS_DEAD,
    HS_FLIPPED,
    LOSER_ATTACKER,
    LOSER_DEFENDER,
    LOSER_NONE,
    MAXH,
    T_BASE,
    T_FOREST,
    T_HILL,
    T_PLAIN,
    T_VEIN,
    TK_HERO,
    TK_TOWER,
    W_COMPARE,
    W_DAMAGE,
    W_DECLARE,
    W_UNITY,
)

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
    "judgment_totals_follow_the_page": "7, 10: the attacker rolls its side's dice (Satan's Pact: one shows 6), a "
                                       "defending hero its side's; totals are the dice summed (or the highest) + "
                                       "terrain points (Earthsplit 1) + 2 per Inspire - 2 per Curse (+ Power of "
                                       "Unity: 1 per other friendly hero within 2, at most 4); a building's is its "
                                       "defence; the lower total loses the difference",
    "judgment_damage_follows_the_page": "7, 10, 12: the loser loses the difference, except an attacker against a "
                                        "building and a tower under Iron Wall; Unyielding Will holds at 1; Same "
                                        "End costs the attacker what the own hero lost; a base at 0 ends the game",
    "normal_cards_follow_the_page": "10: Ignite, Firestorm and Cataclysm deal 2 to enemy heroes (any distance; "
                                    "on forests; on hills), Inspire and Divine Grace (4 energy, heal 2 up to the "
                                    "class HP) a friendly hero, Earthsplit an enemy one, Iron Wall an own tower; "
                                    "Blood Battle and Satan's Pact cost the acting hero 2 HP; the card is "
                                    "discarded",
    "normal_plays_follow_the_page": "10: the acting side may play its normal cards only: Ignite and Earthsplit on "
                                    "enemy heroes, Inspire and Divine Grace (with 4 energy) on friendly ones, Iron "
                                    "Wall on own towers, Blood Battle and Shuttle before the hero action, HP prices "
                                    "only with 3 HP or more",
    "counter_windows_follow_the_page": "7, 10: in an enemy judgment the defending side may play Space Swap at the "
                                       "declaration (an own tower targeted, another to swap with), Curse at the "
                                       "compare step, Power of Unity for its hero, Unyielding Will on a friendly "
                                       "hero, Pursuit (its hero at 2 HP or more) and Same End (its hero lost) at "
                                       "the damage step, or pass",
    "builds_follow_the_page": "5, 3: the acting hero may build, as its hero action, a tower its side can pay for on "
                              "its own plain cell (a spent vein too; not a spawn point, no tower there); a Prayer "
                              "Tower needs the advanced base",
    "turn_start_follows_the_page": "10, 11, 13: a new hero turn: its side draws 1 below its limit (the other "
                                   "does not); its Iron Walls end; a hero returned to base revives at full HP on "
                                   "the first free spawn point; a flipped hero's turn is skipped; after the last "
                                   "round the game ends",
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
        self.magic = dict(data["magic"])
        tiers = dict(data["bases"])[str(self.r["base_tiers"])]
        self.base_defense = [int(v) for v in tiers["defense"]]
        self.spawns = tuple(tuple(int(c) for c in side) for side in rules.spawns)
        self.defense = [int(data["towers"][name]["defense"]) for name in towers]
        self.cost = [int(data["towers"][name]["cost"]) for name in towers]
        self.tower_names = towers
        self.prayer_tier = int(tiers["prayer_tier"])

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

    def builds_by_the_page(self, snap: Mapping) -> set[tuple]:
        """The towers the page lets the acting hero build on its cell now (5, 3)."""
        side, hero = self.acting(snap)
        c, own = hero["cell"], snap["sides"][side]
        spawn = c in self.spawns[0] or c in self.spawns[1]
        if snap["terrain"][c] != T_PLAIN or spawn or snap["tower_side"][c] >= 0:
            return set()
        return {("build", name) for k, name in enumerate(self.tower_names) if own["energy"] >= self.cost[k]
                and (self.effect[k] != "dice" or own["tier"] >= self.prayer_tier)}

    def legal_problems(self, snap: Mapping, legal: list) -> list[str]:
        """The legality clauses the offered actions break (compared where the page's window is open)."""
        if snap["winner"] >= 0 or snap["n_revivals_owed"]:
            return []
        legal = {tuple(a) for a in legal}
        if snap["judgment"]["on"]:
            page = self.counter_plays_by_the_page(snap)
            offered = {a for a in legal if a != ("pass",)}
            return [] if offered == page and page and ("pass",) in legal else ["counter_windows_follow_the_page"]
        if snap["to_act"] != snap["turn"] % 2:
            return []
        broken = []
        plays = {a for a in legal if a[0] == "play"}
        if plays != self.normal_plays_by_the_page(snap):
            broken.append("normal_plays_follow_the_page")
        steps = {a for a in legal if a[0] == "step"}
        if steps and steps != self.steps_by_the_page(snap):
            broken.append("steps_follow_the_page")
        if ("standby",) in legal and {a for a in legal if a[0] == "attack"} != self.attacks_by_the_page(snap):
            broken.append("attacks_in_range")
        if ("standby",) in legal and {a for a in legal if a[0] == "build"} != self.builds_by_the_page(snap):
            broken.append("builds_follow_the_page")
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
        if not self._totals(action, before, after):
            broken.append("judgment_totals_follow_the_page")
        if not self._damage(action, before, after):
            broken.append("judgment_damage_follows_the_page")
        if verb == "play" and not self._normal_card(action, before, after):
            broken.append("normal_cards_follow_the_page")
        if not self._turn_start(action, before, after):
            broken.append("turn_start_follows_the_page")
        return broken

    # -- 7, 10: attack judgments --------------------------------------------------------------------------

    def combine(self, dice) -> int:
        """Several dice summed, or the highest with ``dice_combine = "max"``."""
        return max(dice, default=0) if self.r["dice_combine"] == "max" else sum(dice)

    def bonus(self, snap, side: int, hero) -> int:
        """What a hero adds to its dice (7): its cell's terrain points (Earthsplit: 1), + 2 per Inspire, - 2 per
        Curse on its side this turn."""
        terrain = 1 if hero["earthsplit"] else self.points[snap["terrain"][hero["cell"]]]
        return (terrain + int(self.magic["inspire_bonus"]) * hero["inspire"]
                - int(self.magic["curse_malus"]) * snap["sides"][side]["curse"])

    def unity(self, snap, side: int, k: int) -> int:
        """Power of Unity's bonus to hero ``k`` of ``side``: 1 per other friendly hero on the board within
        ``unity_radius``, at most ``unity_max``."""
        me = snap["sides"][side]["heroes"][k]
        near = sum(1 for e, h in enumerate(self.heroes(snap, side)) if e != k and _on_board(h)
                   and self.dist(h["cell"], me["cell"]) <= int(self.magic["unity_radius"]))
        return min(near, int(self.magic["unity_max"]))

    def _totals(self, action, before, after) -> bool:
        """The totals compared in this step, recomputed from the dice they were made of; what a Power of Unity
        played now adds."""
        j = after["judgment"]
        if tuple(action)[:2] == ("play", "Power of Unity"):
            j0 = before["judgment"]
            if j["unity"] - j0["unity"] != self.unity(before, j0["defender"], j0["target_hero"]):
                return False
        if not j["has_totals"] or (before["judgment"]["has_totals"] and tuple(action)[:1] != ("attack",)):
            return True
        side, d = j["side"], j["defender"]
        att = after["sides"][side]["heroes"][j["attacker"]]
        if att["cell"] < 0:
            return True
        dice = j["attack_dice"][:j["n_attack_dice"]]
        if j["n_attack_dice"] != after["dice"][side]:
            return False
        if after["this_turn"]["pact"] and dice[0] != int(self.magic["pact_die"]):
            return False
        a_total = self.combine(dice) + self.bonus(after, side, att)
        if j["target_kind"] == TK_HERO:
            foe = after["sides"][d]["heroes"][j["target_hero"]]
            if foe["cell"] < 0 or j["n_defence_dice"] != after["dice"][d]:
                return foe["cell"] < 0
            d_total = self.combine(j["defence_dice"][:j["n_defence_dice"]]) + self.bonus(after, d, foe) + j["unity"]
        elif j["n_defence_dice"]:
            return False  # a building rolls nothing
        elif j["target_kind"] == TK_TOWER:
            c = j["cell"]  # the tower there when the totals were made (destroyed since, or swapped in by this play)
            was = self.cell_of[tuple(action[2:5])] if tuple(action)[:2] == ("play", "Space Swap") else c
            d_total = self.defense[after["tower_kind"][c] if after["tower_side"][c] >= 0 else before["tower_kind"][was]]
        else:
            d_total = self.base_defense[after["sides"][d]["tier"] - 1]
            siege, past = int(self.r.get("siege_round", 0)), after["turn"] // (2 * self.team) + 1 - int(
                self.r.get("siege_round", 0))  # [authored] the siege: the defence falls past its round
            if siege > 0 and past > 0:
                d_total = max(0, d_total - int(self.r.get("siege_step", 1)) * past)
        if (j["attack_total"], j["defence_total"]) != (a_total, d_total):
            return False
        loser = LOSER_NONE if a_total == d_total else LOSER_DEFENDER if a_total > d_total else LOSER_ATTACKER
        return j["loser"] == loser and (loser == LOSER_NONE or j["d"] == abs(a_total - d_total))

    def _damage(self, action, before, after) -> bool:
        """The damage of a judgment that ended in this step (7, 10, 12), where no Pursuit was played in it."""
        j, j0 = after["judgment"], before["judgment"]
        verb = tuple(action)[:2]
        ended = not j["on"] and j["has_totals"] and (j0["on"] or verb[:1] == ("attack",))
        if not ended or j["loser"] == LOSER_NONE or verb in (("play", "Pursuit"), ("play", "Space Swap")):
            return True
        side, d, amount = j["side"], j["defender"], j["d"]
        hp0 = [[h["hp"] for h in self.heroes(before, s)] for s in (0, 1)]
        want = [list(hp) for hp in hp0]

        will = self.cell_of[tuple(action[2:5])] if verb == ("play", "Unyielding Will") else None

        def hit(s, k, n):
            h0, h1 = before["sides"][s]["heroes"][k], after["sides"][s]["heroes"][k]
            got = max(0, hp0[s][k] - n)
            if h0["floor1"] or h1["floor1"] or h0["cell"] == will:  # held (a turn ending here clears the mark)
                got = max(got, min(1, hp0[s][k]))
            want[s][k] = got
            return hp0[s][k] - got

        dead = j0["dead"] if j0["on"] and verb[:1] != ("attack",) else 0  # died earlier in this judgment
        if j["target_kind"] == TK_HERO:
            if j["loser"] == LOSER_ATTACKER and not dead >> (side * MAXH + j["attacker"]) & 1:
                hit(side, j["attacker"], amount)
            elif j["loser"] == LOSER_DEFENDER:
                lost = 0 if dead >> (d * MAXH + j["target_hero"]) & 1 else hit(d, j["target_hero"], amount)
                if j["same_end"] and not dead >> (side * MAXH + j["attacker"]) & 1:
                    hit(side, j["attacker"], lost)
        elif j["loser"] == LOSER_DEFENDER and j["target_kind"] == TK_TOWER:
            c = j["cell"]
            gone = after["tower_side"][c] < 0
            if gone == bool(before["iron_wall"][c]) or (gone and before["tower_hp"][c] > amount):
                return False
        elif j["loser"] == LOSER_DEFENDER:
            base = before["sides"][d]["base_hp"] - amount
            sudden = int(self.r.get("sudden_death_round", 0))  # [authored] after it, a base HP taken wins
            wins = base <= 0 or (amount > 0 and sudden > 0 and before["turn"] // (2 * self.team) >= sudden)
            if after["sides"][d]["base_hp"] != base or wins != (after["winner"] == side):
                return False
        elif j["target_kind"] == TK_TOWER and after["tower_side"][j["cell"]] < 0:
            return False  # the tower won: it stands
        got = [[h["hp"] for h in self.heroes(after, s)] for s in (0, 1)]
        return all(got[s][k] == want[s][k] for s in (0, 1) for k, h in enumerate(self.heroes(before, s))
                   if _on_board(h))  # a hero back from its base at a turn starting here is not the judgment's

    # -- 10: normal magic ---------------------------------------------------------------------------------

    def _normal_card(self, action, before, after) -> bool:
        """What a normal card played in the acting side's own hero turn does (10)."""
        if before["judgment"]["on"] or before["n_revivals_owed"]:
            return True
        card = action[1]
        side, k = self.acting_index(before)
        own = before["sides"][side]
        cid = CARDS.index(card)
        if card in COUNTER_CARDS or own["hand"][cid] == 0:
            return False
        if after["sides"][side]["hand"][cid] != own["hand"][cid] - 1 or \
                after["discard"][before["n_discard"]] != cid:
            return False
        hp0 = [[h["hp"] for h in self.heroes(before, s)] for s in (0, 1)]
        want = [list(hp) for hp in hp0]
        dmg = int(self.magic["effect_damage"])

        def hit(s, e, n):
            h = before["sides"][s]["heroes"][e]
            got = max(0, hp0[s][e] - n)
            want[s][e] = max(got, min(1, hp0[s][e])) if h["floor1"] else got

        target = None
        if len(action) == 5:
            cell = self.cell_of[tuple(action[2:5])]
            target = next(((s, e) for s in (0, 1) for e, h in enumerate(self.heroes(before, s))
                           if _on_board(h) and h["cell"] == cell), None)
        energy = own["energy"]
        if card in ("Ignite", "Earthsplit"):
            if target is None or target[0] == side:
                return False
            if card == "Ignite":
                hit(*target, dmg)
            elif after["sides"][target[0]]["heroes"][target[1]]["earthsplit"] != 1:
                return False
        elif card in ("Inspire", "Divine Grace"):
            if target is None or target[0] != side:
                return False
            h0 = before["sides"][side]["heroes"][target[1]]
            if card == "Inspire":
                if after["sides"][side]["heroes"][target[1]]["inspire"] != h0["inspire"] + 1:
                    return False
            else:
                if energy < int(self.magic["heal_energy"]):
                    return False
                energy -= int(self.magic["heal_energy"])
                want[side][target[1]] = min(self.max_hp[h0["cls"]], h0["hp"] + int(self.magic["heal"]))
        elif card in ("Firestorm", "Cataclysm"):
            ground = T_FOREST if card == "Firestorm" else T_HILL
            for e, h in enumerate(self.heroes(before, 1 - side)):
                if _on_board(h) and before["terrain"][h["cell"]] == ground:
                    hit(1 - side, e, dmg)
        elif card in ("Blood Battle", "Satan's Pact"):
            if hp0[side][k] < int(self.r["hp_price_min"]):
                return False
            want[side][k] = hp0[side][k] - int(self.magic["hp_price"])
        elif card == "Iron Wall":
            c = self.cell_of[tuple(action[2:5])]
            if before["tower_side"][c] != side or not after["iron_wall"][c]:
                return False
        if after["sides"][side]["energy"] != energy and card == "Divine Grace":
            return False
        got = [[h["hp"] for h in self.heroes(after, s)] for s in (0, 1)]
        return got == want

    def normal_plays_by_the_page(self, snap) -> set[tuple]:
        """The normal magic the page lets the acting side play now (10)."""
        side, k = self.acting_index(snap)
        own, t = snap["sides"][side], snap["this_turn"]
        hp = own["heroes"][k]["hp"]
        price = int(self.r["hp_price_min"])
        cells = [[tuple(self.cube[h["cell"]]) for h in self.heroes(snap, s) if _on_board(h)] for s in (0, 1)]
        out = set()
        for cid, card in enumerate(CARDS):
            if not own["hand"][cid] or card in COUNTER_CARDS:
                continue
            if card in ("Ignite", "Earthsplit"):
                out |= {("play", card, *c) for c in cells[1 - side]}
            elif card == "Inspire" or (card == "Divine Grace" and own["energy"] >= int(self.magic["heal_energy"])):
                out |= {("play", card, *c) for c in cells[side]}
            elif card == "Iron Wall":
                out |= {("play", card, *self.cube[c]) for c, b in self.towers(snap).items() if b["side"] == side}
            elif card == "Blood Battle":
                if not t["acted"] and not t["blood"] and hp >= price:
                    out.add(("play", card))
            elif card == "Satan's Pact":
                if not t["pact"] and hp >= price:
                    out.add(("play", card))
            elif card == "Shuttle":
                if not t["acted"] and not t["shuttle"]:
                    out.add(("play", card))
            elif card in ("Firestorm", "Cataclysm"):
                out.add(("play", card))
        return out

    def counter_plays_by_the_page(self, snap) -> set[tuple]:
        """The counter cards the page lets the defending side play in the window open now (7, 10)."""
        j = snap["judgment"]
        d, w = j["defender"], j["window"]
        if j["closed"] >> w & 1:
            return set()
        hand = snap["sides"][d]["hand"]
        held = {card for cid, card in enumerate(CARDS) if hand[cid]}
        out = set()
        if w == W_DECLARE and "Space Swap" in held and j["target_kind"] == TK_TOWER:
            out |= {("play", "Space Swap", *self.cube[c]) for c, b in self.towers(snap).items()
                    if b["side"] == d and c != j["cell"]}
        elif w == W_COMPARE and "Curse" in held:
            out.add(("play", "Curse"))
        elif w == W_UNITY and "Power of Unity" in held and j["target_kind"] == TK_HERO:
            out.add(("play", "Power of Unity"))
        elif w == W_DAMAGE:
            if "Unyielding Will" in held:
                out |= {("play", "Unyielding Will", *self.cube[h["cell"]]) for h in self.heroes(snap, d)
                        if _on_board(h) and not h["floor1"]}
            own = snap["sides"][d]["heroes"][j["target_hero"]]
            if j["target_kind"] == TK_HERO and _on_board(own):
                if "Pursuit" in held and own["hp"] >= 2:
                    out.add(("play", "Pursuit"))
                if "Same End" in held and not j["same_end"] and j["loser"] == LOSER_DEFENDER:
                    out.add(("play", "Same End"))
        return out

    # -- 10, 11, 13: a new hero turn ----------------------------------------------------------------------

    def _cap_winner(self, after) -> int:
        """Section 13's result at the round cap: a draw (2), or by ``turn_limit_result`` the seat with more base
        HP (``"base_hp"``), then the higher base tier (the authored ``"base_hp_tier"``)."""
        rule = self.r.get("turn_limit_result", "draw")
        hp = [after["sides"][s]["base_hp"] for s in (0, 1)]
        tier = [after["sides"][s]["tier"] for s in (0, 1)]
        if rule != "draw" and hp[0] != hp[1]:
            return 0 if hp[0] > hp[1] else 1
        if rule == "base_hp_tier" and tier[0] != tier[1]:
            return 0 if tier[0] > tier[1] else 1
        return 2

    def _turn_start(self, action, before, after) -> bool:
        """The start of the next hero turn (one turn on, none skipped): its side's draw, its Iron Walls ending,
        a revival at its base, a flipped hero's turn skipped, the round cap."""
        cap = 2 * self.team * int(self.r["max_rounds"])
        if before["winner"] >= 0 or after["turn"] == before["turn"]:
            return True
        if after["reason"] == END_TURN_LIMIT:
            # the counter stays on the last hero turn (cap - 1); every hero turn left before it was skipped
            if after["turn"] != cap - 1 or after["winner"] != self._cap_winner(after):
                return False
            return all(before["sides"][t % 2]["heroes"][t // 2 % self.team]["state"] in (HS_FLIPPED, HS_DEAD)
                       for t in range(before["turn"] + 1, cap))
        if after["winner"] >= 0:
            return True
        if after["turn"] >= cap:
            return False
        if after["turn"] != before["turn"] + 1:
            return True
        side, k = after["turn"] % 2, after["turn"] // 2 % self.team
        h0, h1 = before["sides"][side]["heroes"][k], after["sides"][side]["heroes"][k]
        if h0["state"] == HS_FLIPPED:
            return False  # its turn is skipped
        n0 = [sum(before["sides"][s]["hand"]) for s in (0, 1)]
        if tuple(action)[:1] == ("play",):  # the card played in this step left its side's hand
            n0[before["to_act"]] -= 1
        n1 = [sum(after["sides"][s]["hand"]) for s in (0, 1)]
        cards = before["n_pile"] + before["n_discard"] + (tuple(action)[:1] == ("play",))
        draws = 1 if n0[side] < after["hand_limit"][side] and cards > 0 else 0
        if (n1[side], n1[1 - side]) != (n0[side] + draws, n0[1 - side]):
            return False
        for c in range(len(self.cube)):
            if after["tower_side"][c] == side and after["iron_wall"][c]:
                return False
        if h0["state"] == HS_DEAD and h0["cell"] < 0:
            taken = {h["cell"] for s in (0, 1) for h in self.heroes(before, s) if _on_board(h)}
            free = next((c for c in self.spawns[side] if c not in taken and before["tower_side"][c] < 0), None)
            if free is None:
                return True
            return (h1["state"], h1["hp"], h1["cell"]) == (HS_BOARD, self.max_hp[h1["cls"]], free)
        return True

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
