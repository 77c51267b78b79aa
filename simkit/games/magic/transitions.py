"""Magic War's rules page restated over snapshots, for ``simkit check``: no engine helper is used.

Every function reads :meth:`~simkit.games.magic.match.Match.snapshot` values (the declared state as plain
values, :mod:`simkit.games.magic.state`), put once into the page's words by :meth:`MagicPage.words` (units
with type, side, cell ``[c, r]``, markers and HP; players' magic and cards), and the scenario's merged data
(``[rules]``, ``[combat]``, ``[magic]``, ``[skills]`` and the races' units, as the designer wrote them),
and says what ``shared/rules/magic-war.md`` and the roster's skill primitives (``magic-war-roster.md``
B.1) require of an action: what must change, what must not. :meth:`MagicPage.transition_problems`
returns the names of the clauses a step broke; :meth:`MagicPage.attacks_by_the_page` restates which
single attacks the page allows in a position.

The dice are the game's tape (11.1): die ``k`` of a game is a pure function of its dice key and ``k``,
restated here from the shared kits' formula (:mod:`simkit.games.kits.mix`), so the page knows the faces
an attack rolled without asking the engine.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from itertools import combinations

import numpy as np

from simkit.core.seats import WINNERS
from simkit.games.kits.mix import mix64
from simkit.games.magic.state import END_REASONS

#: clause name -> the rules page's section, for the report
CLAUSES = {
    "attack_targets_follow_the_page": "6.1, 5.5 [R6, R7, R14, R15]: a unit that has not attacked may attack any "
                                      "other unit in range (melee: Manhattan 1..melee_range; ranged: same row or "
                                      "column within range, nothing between), never itself, its own leader or a "
                                      "leader during the immune turns",
    "attack_dice_and_hits": "6.2, 6.3, B.1 primitives 1-4 [R9, R10, R28]: each participant rolls attack + bonus "
                            "dice (the bearer less the target's attack modifier) hitting on T - precision; the "
                            "hits less the damage reduction become markers; one effect per unit type",
    "splash_hits_enemies_in_the_ring": "B.1 primitive 9: after the attack a splasher rolls its dice at its "
                                       "threshold against each enemy (not a friend, not an immune leader) at "
                                       "Manhattan d1..d2 from the target",
    "attack_spends_the_participants": "6.2.6: every participant may neither move nor attack again; no unit moves",
    "kill_magic_to_the_actor": "7.2 [R22, R23], B.1 primitive 10: each unit an action destroys stores per_kill "
                               "magic for the acting player (on_death gains to its owner); stored, not active",
    "move_follows_the_page": "5.4 [R5]: a move puts the unit on a cell it reaches (a walker through empty "
                             "cells, orthogonal steps; a flyer over anything; within its move points, auras and "
                             "effects included; an empty cell), changes nothing else and rolls no die",
    "turn_start_activates_stored_magic": "5.1, 5.3 [R23]: the next player's stored magic becomes active, its "
                                         "units may move and attack again, and this turn's effects end",
    "tactical_draws_follow_the_page": "7.3 [R25, R26, S5], 7.1 [R30]: each own unit that dies draws its cost "
                                      "band's cards, cut at the cap, from the shared pile in the death order; "
                                      "then unlock (4) (only the leader left) and (5) (the leader's HP at most "
                                      "unlock_leader_hp) raise the cap to unlocked_cap and draw 1, once each",
    "a_destroyed_leader_ends_the_game": "1, 9 [R33]: the game ends the moment a leader dies, its owner loses; "
                                        "nothing after that death is resolved",
    "skill_effects_follow_the_page": "B.1 primitives 6-8, 7.3 [R11, R24, R32, R37]: a heal removes up to its "
                                     "amount of markers; a free skill hurts its source and gives its target "
                                     "dice, precision and move for the turn; a summon puts a new unit of its "
                                     "card on the cell; the magic paid (cards first), the slot used",
    "turn_ends_when_nothing_is_left": "5.2 [R12]: after an action the turn goes on only while something "
                                      "besides ending it is legal; otherwise the next turn begins",
    "turn_limit_tiebreak_follows_the_page": "1 [R34]: after the last turn the larger leader HP fraction wins, "
                                            "then the larger fraction of the bought army's gold alive, then a "
                                            "draw (the tiebreak order)",
    "moves_follow_the_page": "5.2, 5.4 [R5, R13]: the moves offered are exactly the page's: each own unit "
                             "that has neither moved nor attacked nor used a leader's skill, to every cell it "
                             "reaches",
    "combined_attacks_follow_the_page": "6.3 [R31]: the combined attacks offered are exactly the page's: an "
                                        "enemy target, joiners that may join without moving, the principal as "
                                        "bearer unless the target has a per-attack reduction",
    "placements_follow_the_page": "4.4 [R3]: while deploying, the seat to act may place each of its unplaced "
                                  "unit types on every free cell of its own rows",
    "skill_uses_follow_the_page": "8.2, 7.3, B.1 primitives 6-8 [R14, R24, R32, S1-S4, S6]: a heal, free skill or "
                                  "summon is offered exactly when its slot is unused, its magic paid (cards first, "
                                  "the Orc restriction), and its target allowed (a summon: an empty cell of the "
                                  "source's 3x3, whatever number of units the game has seen)",
}


def _cell_index(cell, cols: int) -> int:
    return int(cell[1]) * cols + int(cell[0])


def _distance(a, b) -> int:
    return abs(int(a[0]) - int(b[0])) + abs(int(a[1]) - int(b[1]))


class MagicPage:
    """The page's rules over snapshots, with the scenario's numbers, units and skills.

    Args:
        data: the scenario's merged data (``scenario.data``).
    """

    def __init__(self, data: Mapping):
        rules, combat = dict(data["rules"]), dict(data["combat"])
        self.cols, self.rows = int(rules["cols"]), int(rules["rows"])
        self.immune_turns = int(rules.get("leader_immune_turns", 1))
        self.obstacles = {tuple(c) for c in rules.get("obstacles", [])}
        self.sides = int(combat.get("die_sides", 6))
        self.melee_range = int(combat.get("melee_range", 1))
        self.melee_hit, self.ranged_hit = int(combat["melee_hit_min"]), int(combat["ranged_hit_min"])
        self.line = combat.get("ranged_shape", "line") == "line"
        self.blocked = bool(combat.get("ranged_blocked", True))
        self.per_kill = int(data.get("magic", {}).get("per_kill", 1))
        self.skills = {name: dict(s) for name, s in data.get("skills", {}).items()}
        self.units = {}
        for race in data.get("races", {}).values():
            for name, unit in race.get("units", {}).items():
                self.units[name] = dict(unit)
        self.card_names = list(self.units)  # the declared state's card rows: the scenario's units in file order
        self.race_names = list(data.get("races", {}))
        self.restricted = {name for name, race in data.get("races", {}).items()
                           if race.get("card_as_magic_if_units_le_enemy", False)}
        self.friend_includes_source = bool(combat.get("friend_includes_source", True))
        self.leader_skill_after_attack = bool(combat.get("leader_skill_after_attack", True))
        self.not_acted = combat.get("combined_joiners", "not_attacked") == "not_acted"
        self.summoned_can_act = bool(combat.get("summoned_can_act", True))
        tactics = dict(data.get("tactics", {}))
        self.bands = [tuple(int(x) for x in band) for band in tactics.get("draw_by_cost", [])]
        self.cap, self.unlocked_cap = int(tactics.get("cap", 4)), int(tactics.get("unlocked_cap", 5))
        self.unlock_hp = int(tactics.get("unlock_leader_hp", 2))
        self.turn_limit = int(rules.get("turn_limit", 60))
        self.tiebreak = list(rules.get("tiebreak", ["leader_hp_fraction", "army_value_fraction", "draw"]))
        self.deploy_rows = [tuple(int(x) for x in r) for r in rules["deploy_rows"]]

    # -- the declared state in the page's words ---------------------------------------------------------------

    def words(self, snap: Mapping) -> dict:
        """A :meth:`~simkit.games.magic.match.Match.snapshot` in the page's words (computed once per snapshot):
        ``phase`` ("deploy", "play", "over"), ``turn``, ``to_act``, ``winner`` ("first", "second", "draw" or
        None), ``end_reason``, ``dice_key``, ``dice_rolled``, ``decks``, ``seed``; ``units`` in place order, each
        with ``slot``, ``type`` (its name), ``side``, ``state`` ("unplaced", "alive", "dead"), ``cell`` (``[c, r]``
        or None), ``markers``, ``hp`` (max(0, HP - markers)), ``max_hp``, ``moved``, ``attacked``, ``skilled``,
        ``free_used``, ``summoned``, ``effects`` (dice, precision, move given this turn), ``buffed_by`` (the cards
        whose free skill affects it this turn); ``players`` with ``active_magic``, ``stored_magic``, ``drawn``,
        ``cap``, ``hand`` (card ids held), ``unlocks``, ``leader`` (its place), ``race``, ``army_value``,
        ``to_place``, the record's counters; ``pile`` (the shuffled pile) and ``pile_drawn``."""
        if "players" in snap:  # already in words
            return snap  # type: ignore[return-value]
        units = []
        for i, u in enumerate(snap["units"]):
            name = self.card_names[u["type"]]
            hp = int(self.units[name]["hp"])
            units.append({
                "slot": i, "type": name, "side": u["side"], "state": ("unplaced", "alive", "dead")[u["status"]],
                "cell": [u["cell"] % self.cols, u["cell"] // self.cols] if u["cell"] >= 0 else None,
                "markers": u["markers"], "hp": max(0, hp - u["markers"]), "max_hp": hp, "moved": u["moved"],
                "attacked": u["attacked"], "skilled": u["skilled"], "free_used": u["free_used"],
                "summoned": u["summoned"], "effects": [u["bonus_dice"], u["bonus_precision"], u["bonus_move"]],
                "buffed_by": {c for k, c in enumerate(self.card_names) if u["buffed_by"] >> k & 1}})
        players = [{**{k: v for k, v in s.items() if k not in ("hand", "lost", "hits")}, "hand": s["hand"][:s["held"]],
                    "unlocks": [s["unlocked_alone"], s["unlocked_leader_hp"]], "race": self.race_names[s["race"]]}
                   for s in snap["sides"]]
        winner = snap["winner"]
        return {"decks": snap["decks"], "seed": snap["seed"], "turn": snap["turn"], "to_act": snap["to_act"],
                "phase": ("deploy", "play", "over")[snap["phase"]], "winner": None if winner < 0 else WINNERS[winner],
                "end_reason": END_REASONS[snap["reason"]] if winner >= 0 else None, "dice_key": snap["dice_key"],
                "dice_rolled": snap["dice_rolled"], "pile_drawn": snap["pile_drawn"],
                "pile": snap["pile"][:snap["pile_size"]], "units": units, "players": players}

    # -- the cards' words ---------------------------------------------------------------------------------

    def is_leader(self, unit: Mapping) -> bool:
        """True for a leader (the unit card's type)."""
        return self.units[unit["type"]]["type"] == "leader"

    def ranged(self, unit: Mapping) -> bool:
        """True for a ranged unit."""
        return self.units[unit["type"]]["attack_type"] == "ranged"

    def immune(self, unit: Mapping, turn: int) -> bool:
        """5.5 [R14]: a leader during the first ``leader_immune_turns`` global turns."""
        return self.is_leader(unit) and 1 <= turn <= self.immune_turns

    def skills_of(self, unit: Mapping, kind: str):
        """The skills of the unit's card of primitive ``kind``, as ``(name, table)``."""
        for name in self.units[unit["type"]].get("skills", []):
            if self.skills[name]["kind"] == kind:
                yield name, self.skills[name]

    def _of_type(self, unit: Mapping, of_type: str) -> bool:
        if of_type in ("any", None):
            return True
        if of_type == "melee":
            return not self.ranged(unit)
        if of_type == "ranged":
            return self.ranged(unit)
        return unit["type"] == of_type

    def aura(self, snap: Mapping, unit: Mapping, kind: str) -> int:
        """B.1 primitives 1-5 on ``unit``: the sum of ``kind`` effects of its own side's live units that
        cover it (Manhattan 1..radius, or itself with include_self), ``of_type`` filtering the covered
        unit; a unit type's effect counts once however many units of the type cover it (8.1 [R28])."""
        seen, total = set(), 0
        for w in _alive(snap):
            if w["side"] != unit["side"]:
                continue
            for name, s in self.skills_of(w, kind):
                if (w["type"], name) in seen:
                    continue
                d = _distance(w["cell"], unit["cell"])
                covers = bool(s.get("include_self", False)) if w["slot"] == unit["slot"] else 1 <= d <= int(
                    s.get("radius", 0))
                if not covers or (kind in ("attack_bonus_aura", "precision_aura", "move_bonus_aura")
                                  and not self._of_type(unit, s.get("of_type", "any"))):
                    continue
                seen.add((w["type"], name))
                total += int(s.get("k", 0))
        return total

    def dice(self, unit: Mapping, snap: Mapping) -> int:
        """6.2.1: the unit's dice before the target's reductions (printed attack + bonus auras + effects)."""
        return int(self.units[unit["type"]]["attack"]) + self.aura(snap, unit, "attack_bonus_aura") + unit["effects"][0]

    def threshold(self, unit: Mapping, snap: Mapping) -> int:
        """6.2.2 [R9]: ``T' = T - P``: 3 melee, 4 ranged, less precision (auras and effects)."""
        base = self.ranged_hit if self.ranged(unit) else self.melee_hit
        return base - unit["effects"][1] - self.aura(snap, unit, "precision_aura")

    def reaches(self, snap: Mapping, unit: Mapping, cell) -> bool:
        """6.1 [R6, R7]: whether ``unit`` reaches ``cell`` from where it stands."""
        a = unit["cell"]
        d = _distance(a, cell)
        if d < 1:
            return False
        if not self.ranged(unit):
            return d <= self.melee_range
        if d > int(self.units[unit["type"]]["range"]):
            return False
        if not self.line:
            return True
        if a[0] != cell[0] and a[1] != cell[1]:
            return False
        if not self.blocked:
            return True
        taken = {tuple(u["cell"]) for u in _alive(snap)} | self.obstacles
        dc, dr = np.sign(cell[0] - a[0]), np.sign(cell[1] - a[1])
        between = [(a[0] + dc * k, a[1] + dr * k) for k in range(1, d)]
        return not any(tuple(int(v) for v in x) in taken for x in between)

    def attacks_by_the_page(self, snap: Mapping) -> set[tuple]:
        """The single attacks (``("attack", a, b)``) the page allows the seat to act in ``snap``."""
        snap = self.words(snap)
        if snap["phase"] != "play":
            return set()
        me, out = snap["to_act"], set()
        for u in _alive(snap):
            if u["side"] != me or u["attacked"]:
                continue
            for v in _alive(snap):
                if v["slot"] == u["slot"] or (v["side"] == me and self.is_leader(v)):
                    continue
                if self.immune(v, snap["turn"]) or not self.reaches(snap, u, v["cell"]):
                    continue
                out.add(("attack", tuple(u["cell"]), tuple(v["cell"])))
        return out

    def active_skill(self, unit: Mapping):
        """``(name, table)`` of the unit card's active skill (heal, free_active or summon), or None."""
        for kind in ("heal", "free_active", "summon"):
            for name, s in self.skills_of(unit, kind):
                return name, s
        return None

    def skill_uses_by_the_page(self, snap: Mapping) -> set[tuple]:
        """The skill uses (``("skill", source, target, cards)``) the page allows the seat to act in ``snap``:
        B.1's slots (a leader's skill once a turn, [S6] before or after its attack; another unit's heal or summon
        uses its attack, its free skill once a turn), the magic (7.3 [R24]: ``cards`` tactical cards pay that
        much, the Orcs' only while they have no more units on the board than the enemy; active magic the rest)
        and the target: a summon's an empty cell of the source's 3x3 (8.2 [R32]: no limit on the units a game
        has seen), a heal's an own damaged unit within range [S1], a free skill's its source (``self``) or an own
        unit within range (``friend``, the source too [S2]) that has not attacked [S3] and that no free skill of
        the source's card affects yet [S4, R28]; never a leader during the immune turns [R14]."""
        snap = self.words(snap)
        if snap["phase"] != "play":
            return set()
        me, turn, out = snap["to_act"], snap["turn"], set()
        live = _alive(snap)
        at = {tuple(u["cell"]): u for u in live}
        mine = snap["players"][me]
        counts = [sum(u["side"] == p for u in live) for p in (0, 1)]
        restricted = mine["race"] in self.restricted and counts[me] > counts[1 - me]
        cells = [(c, r) for r in range(self.rows) for c in range(self.cols)]
        for u in live:
            skill = self.active_skill(u) if u["side"] == me else None
            if skill is None:
                continue
            _, s = skill
            kind, leader = s["kind"], self.is_leader(u)
            if leader and (u["skilled"] or (u["attacked"] and not self.leader_skill_after_attack)):
                continue
            if not leader and (u["free_used"] if kind == "free_active" else u["attacked"]):
                continue
            magic = int(s.get("magic", 0))
            pays = [k for k in range(magic + 1) if k <= len(mine["hand"]) and (k == 0 or not restricted)
                    and magic - k <= mine["active_magic"]]
            a = tuple(u["cell"])
            for b in cells:
                if kind == "summon":
                    ok = b not in at and b not in self.obstacles and b != a and max(abs(a[0] - b[0]),
                                                                                     abs(a[1] - b[1])) <= 1
                else:
                    v = at.get(b)
                    ok = v is not None and v["side"] == me and not self.immune(v, turn)
                    if ok and kind == "heal":
                        ok = _distance(a, b) <= int(s.get("range", 0)) and v["markers"] > 0
                    elif ok:
                        if s.get("target", "self") == "self":
                            ok = v["slot"] == u["slot"]
                        else:
                            ok = _distance(a, b) <= int(s.get("range", 0)) and (
                                v["slot"] != u["slot"] or self.friend_includes_source)
                        ok = ok and not v["attacked"] and u["type"] not in v["buffed_by"] and \
                            u["hp"] >= int(s.get("min_hp", 0))
                if ok:
                    out.update(("skill", a, b, k) for k in pays)
        return out

    # -- what else is legal: moves, combined attacks, placements --------------------------------------------

    def move_points(self, snap: Mapping, unit: Mapping) -> int:
        """5.4, B.1 primitive 5: the unit's move now (printed, its free-skill effects, move_bonus auras)."""
        return int(self.units[unit["type"]]["move"]) + unit["effects"][2] + self.aura(snap, unit, "move_bonus_aura")

    def reach(self, snap: Mapping, unit: Mapping) -> set[tuple]:
        """5.4 [R5]: the cells ``unit`` may end a move on: up to its move points of orthogonal steps, a walker
        through empty cells only (no unit of either side, no obstacle), a flyer over anything; the last step on
        an empty cell, at least one step away."""
        taken = {tuple(u["cell"]) for u in _alive(snap)} | self.obstacles
        start, points = tuple(unit["cell"]), self.move_points(snap, unit)
        cells = {(c, r) for c in range(self.cols) for r in range(self.rows)}
        if self.units[unit["type"]]["move_type"] == "fly":
            return {x for x in cells if 1 <= _distance(x, start) <= points and x not in taken}
        seen, frontier = {start}, {start}
        for _ in range(points):
            frontier = {(c + dc, r + dr) for c, r in frontier for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1))
                        if (c + dc, r + dr) in cells and (c + dc, r + dr) not in taken} - seen
            seen |= frontier
        return seen - {start}

    def moves_by_the_page(self, snap: Mapping) -> set[tuple]:
        """The moves (``("move", a, b)``) the page allows the seat to act: a unit moves once, before its attack
        or (a leader) its skill [R13]."""
        snap = self.words(snap)
        if snap["phase"] != "play":
            return set()
        return {("move", tuple(u["cell"]), b) for u in _alive(snap)
                if u["side"] == snap["to_act"] and not (u["moved"] or u["attacked"] or u["skilled"])
                for b in self.reach(snap, u)}

    def joiners(self, snap: Mapping, principal: Mapping, target: Mapping) -> list[Mapping]:
        """6.3 [R31]: the own units that may join ``principal``'s attack on ``target``: not yet attacked (nor
        moved, with ``not_acted``), reaching it from where they stand."""
        return [u for u in _alive(snap) if u["side"] == principal["side"] and u["slot"] != principal["slot"]
                and not u["attacked"] and not (self.not_acted and u["moved"]) and self.reaches(snap, u, target["cell"])]

    def combined_by_the_page(self, snap: Mapping) -> set[tuple]:
        """The combined attacks (``("attack", a, b, joiners, bearer)``) the page allows: on an enemy the principal
        may attack, any non-empty set of its possible joiners (listed when there are at most 12), the bearer
        the principal, or any participant when the target has a per-attack dice reduction (6.3)."""
        snap = self.words(snap)
        out = set()
        at = {tuple(u["cell"]): u for u in _alive(snap)}
        for _, a, b in self.attacks_by_the_page(snap):
            principal, target = at[a], at[b]
            if target["side"] == principal["side"]:
                continue
            cells = sorted((tuple(u["cell"]) for u in self.joiners(snap, principal, target)),
                           key=lambda x: (x[1], x[0]))  # a joiner set is written in ascending cell order
            if len(cells) > 12:
                continue
            reduced = self.aura(snap, target, "attack_modifier_aura") > 0
            for k in range(1, len(cells) + 1):
                for group in combinations(cells, k):
                    out.update(("attack", a, b, group, bearer) for bearer in ((a, *group) if reduced else (a,)))
        return out

    def placements_by_the_page(self, snap: Mapping) -> set[tuple]:
        """4.4 [R3]: while deploying, each unplaced unit type of the seat to act on every free cell of its rows."""
        snap = self.words(snap)
        if snap["phase"] != "deploy":
            return set()
        me = snap["to_act"]
        lo, hi = self.deploy_rows[me]
        taken = {tuple(u["cell"]) for u in _alive(snap)} | self.obstacles
        types = {u["type"] for u in snap["units"] if u["side"] == me and u["state"] == "unplaced"}
        return {("place", name, (c, r)) for name in types for r in range(lo, hi + 1) for c in range(self.cols)
                if (c, r) not in taken}

    def has_something_to_do(self, snap: Mapping) -> bool:
        """5.2 [R12]: whether the seat to act has a legal action besides ending its turn (a move, an attack, a
        skill use: a combined attack needs its principal's single attack, so the single ones suffice)."""
        return bool(self.moves_by_the_page(snap) or self.attacks_by_the_page(snap)
                    or self.skill_uses_by_the_page(snap))

    # -- the dice tape (11.1) -----------------------------------------------------------------------------

    @staticmethod
    def dice_key(snap: Mapping) -> int:
        """The game's dice key (11.1: drawn from its seed when the game was set up; a literal position gives it
        outright with the dice to come)."""
        return int(snap["dice_key"])

    def face(self, key: int, k: int) -> int:
        """Die ``k`` of the tape with ``key`` (1..sides)."""
        with np.errstate(over="ignore"):
            w = mix64(np.uint64(key) ^ mix64(np.uint64(k)))
        return int(((int(w) >> 11) * self.sides) >> 53) + 1

    # -- an action's effect, recomputed from the page ------------------------------------------------------

    def predict(self, before: Mapping, action) -> dict:
        """The position the page says ``action`` leads to from ``before`` (both in the page's words): the
        action's effect, then the deaths with their triggers and the unlocks (5.2), then the turn's end when
        nothing else is left (5.2 [R12])."""
        s = _copy(self.words(before))
        action = tuple(action)
        kind = action[0]
        if kind == "place":
            self._place(s, action)
            return s
        if kind == "end":
            self._end_turn(s)
            self._settle(s)
            return s
        pre = {u["slot"]: u["markers"] for u in s["units"]}
        if kind == "move":
            self._move(s, action)
        elif kind == "attack":
            self._attack(s, action)
        else:
            self._skill(s, action)
        self._resolve(s, pre, tuple(action[1]))
        self._settle(s)
        return s

    def _place(self, s, action) -> None:
        me = s["to_act"]
        unit = next(u for u in s["units"] if u["side"] == me and u["type"] == action[1] and u["state"] == "unplaced")
        unit["state"], unit["cell"] = "alive", list(action[2])
        s["players"][me]["to_place"] -= 1
        if s["players"][me]["to_place"] == 0:
            if me == 0:
                s["to_act"] = 1
            else:
                s["phase"], s["turn"] = "play", 1
                self._start_turn(s, 0)
                self._settle(s)

    def _move(self, s, action) -> None:
        at = {tuple(u["cell"]): u for u in _alive(s)}
        unit = at[tuple(action[1])]
        unit["cell"], unit["moved"] = list(action[2]), 1

    def _attack(self, s, action) -> None:
        """6.2, 6.3, B.1: every participant rolls its dice at its hit number off the tape (the principal first,
        then the joiners by place), the bearer less the target's dice reduction; the hits less the damage
        reduction become markers; then each splasher's dice on each enemy in its ring (ascending cell)."""
        me, turn = s["to_act"], s["turn"]
        at = {tuple(u["cell"]): u for u in _alive(s)}
        principal, target = at[tuple(action[1])], at[tuple(action[2])]
        joiners = [at[tuple(c)] for c in action[3]] if len(action) > 3 else []
        parts = [principal, *sorted(joiners, key=lambda u: u["slot"])]
        bearer = at[tuple(action[4])] if len(action) > 4 else principal
        enemy = target["side"] != me
        mod = self.aura(s, target, "attack_modifier_aura") if enemy else 0
        red = self.aura(s, target, "damage_reduction") if enemy else 0
        key, ptr = self.dice_key(s), s["dice_rolled"]
        hits, thresholds = 0, []
        for w in parts:
            n = max(0, self.dice(w, s) - (mod if w["slot"] == bearer["slot"] else 0))
            thr = self.threshold(w, s)
            thresholds.append(thr)
            hits += sum(self.face(key, ptr + i) >= thr for i in range(n))
            ptr += n
        main_roll = ptr
        gain = {}
        if hits - red > 0 and not self.immune(target, turn):
            gain[target["slot"]] = hits - red
        ring_of = {}
        for w, thr in zip(parts, thresholds):
            for _, sk in self.skills_of(w, "splash_on_clustered"):
                d1, d2 = (int(x) for x in sk["ring"])
                for x in sorted(_alive(s), key=lambda u: _cell_index(u["cell"], self.cols)):
                    if x["side"] == w["side"] or self.immune(x, turn) or not d1 <= _distance(x["cell"],
                                                                                            target["cell"]) <= d2:
                        continue
                    n = int(sk.get("dice", 1))
                    h = sum(self.face(key, ptr + i) >= thr for i in range(n))
                    ptr += n
                    ring_of[x["slot"]] = ring_of.get(x["slot"], 0) + h
        for slot, h in (*gain.items(), *ring_of.items()):
            s["units"][slot]["markers"] += h
        s["dice_rolled"] = ptr
        for w in parts:
            w["moved"] = w["attacked"] = 1
        s["_target"], s["_main_roll"] = target["slot"], main_roll

    def _skill(self, s, action) -> None:
        """B.1 primitives 6-8: pay (``cards`` tactical cards, the rest active magic), use the slot (a leader's
        skill comes after its move [R13]; another unit's heal or summon uses its attack; a free skill nothing
        but itself [R37]), then heal, buff or summon."""
        me = s["to_act"]
        at = {tuple(u["cell"]): u for u in _alive(s)}
        source = at[tuple(action[1])]
        _, sk = self.active_skill(source)
        kind, cards, magic = sk["kind"], int(action[3]), int(sk.get("magic", 0))
        side = s["players"][me]
        side["hand"] = side["hand"][:len(side["hand"]) - cards]
        side["cards_used"] += cards
        side["active_magic"] -= magic - cards
        if self.is_leader(source):
            source["skilled"] = source["moved"] = 1
        elif kind == "free_active":
            source["free_used"] = 1
        else:
            source["attacked"] = source["moved"] = 1
        b = list(action[2])
        if kind == "summon":
            s["units"].append({"slot": len(s["units"]), "type": sk["unit"], "side": me, "state": "alive", "cell": b,
                               "markers": 0, "hp": int(self.units[sk["unit"]]["hp"]),
                               "max_hp": int(self.units[sk["unit"]]["hp"]), "moved": int(not self.summoned_can_act),
                               "attacked": int(not self.summoned_can_act), "skilled": 0, "free_used": 0, "summoned": 1,
                               "effects": [0, 0, 0], "buffed_by": set()})
            return
        target = at[tuple(b)]
        if kind == "heal":
            target["markers"] = max(0, target["markers"] - int(sk.get("amount", 0)))
            return
        if int(sk.get("self_damage", 0)) > 0 and not self.immune(source, s["turn"]):
            source["markers"] += int(sk["self_damage"])
        target["effects"] = [target["effects"][0] + int(sk.get("dice", 0)),
                             target["effects"][1] + int(sk.get("precision", 0)),
                             target["effects"][2] + int(sk.get("move", 0))]
        target["buffed_by"] = set(target["buffed_by"]) | {source["type"]}

    def _draw(self, s, p: int, want: int) -> None:
        """7.3: draw up to ``want`` cards from the shared pile, cut short at the cap."""
        side = s["players"][p]
        for _ in range(want):
            if side["drawn"] >= side["cap"] or s["pile_drawn"] >= len(s["pile"]):
                return
            side["hand"] = [*side["hand"], s["pile"][s["pile_drawn"]]]
            s["pile_drawn"] += 1
            side["drawn"] += 1

    def _resolve(self, s, pre: Mapping, origin) -> None:
        """5.2's after-every-action: deaths in the 7.1 order [R30] (nearest the acting unit, then the lower HP
        before the action, then place), each storing per_kill magic for the actor [R22] and its on_death magic
        for its owner, drawing its owner's cards by cost [R25] or, a leader, ending the game [R33]; then the
        unlocks, first seat then second, (4) then (5) [R26, S5]."""
        me = s["to_act"]
        dying = sorted((u for u in _alive(s) if u["markers"] >= u["max_hp"]),
                       key=lambda u: (_distance(u["cell"], origin), u["max_hp"] - pre.get(u["slot"], 0), u["slot"]))
        for u in dying:
            u["state"] = "dead"
            s["players"][me]["stored_magic"] += self.per_kill
            for _, sk in self.skills_of(u, "on_death"):
                s["players"][u["side"]]["stored_magic"] += int(sk.get("gain_magic", 0))
            if self.is_leader(u):
                s["phase"], s["winner"], s["end_reason"] = "over", WINNERS[1 - u["side"]], "leader"
                return
            cost = int(self.units[u["type"]]["cost"])
            for lo, hi, cards in self.bands:
                if lo <= cost <= hi:
                    self._draw(s, u["side"], cards)
        for q in (0, 1):
            side = s["players"][q]
            leader = s["units"][side["leader"]]
            if not side["unlocks"][0] and sum(u["side"] == q for u in _alive(s)) == 1:
                side["unlocks"] = [1, side["unlocks"][1]]
                side["cap"] = self.unlocked_cap
                self._draw(s, q, 1)
            if not side["unlocks"][1] and max(0, leader["max_hp"] - leader["markers"]) <= self.unlock_hp:
                side["unlocks"] = [side["unlocks"][0], 1]
                side["cap"] = self.unlocked_cap
                self._draw(s, q, 1)

    def _start_turn(self, s, p: int) -> None:
        """5.1 [R23]: stored magic becomes active; the player's units may move and act again; every effect of
        the turn before is gone (5.3)."""
        side = s["players"][p]
        side["active_magic"], side["stored_magic"] = side["active_magic"] + side["stored_magic"], 0
        s["to_act"] = p
        for u in s["units"]:
            u["effects"], u["buffed_by"] = [0, 0, 0], set()
            if u["side"] == p:
                u["moved"] = u["attacked"] = u["skilled"] = u["free_used"] = 0

    def _end_turn(self, s) -> None:
        """5.3, 1 [R34]: the next global turn, or after the last one the tie-break."""
        if s["turn"] >= self.turn_limit:
            s["phase"], s["winner"], s["end_reason"] = "over", self.tiebreak_winner(s), "turn_limit"
            return
        s["turn"] += 1
        self._start_turn(s, 1 - s["to_act"])

    def _settle(self, s) -> None:
        """5.2 [R12]: the turn ends by itself while its player has nothing besides ending it."""
        while s["phase"] == "play" and not self.has_something_to_do(s):
            self._end_turn(s)

    def tiebreak_winner(self, s) -> str:
        """1 [R34]: the seat with the larger leader HP fraction, then the larger fraction of its bought army's
        gold alive (summoned units aside), compared exactly; then a draw."""
        for rule in self.tiebreak:
            if rule == "draw":
                break
            if rule == "leader_hp_fraction":
                f = [Fraction(max(0, u["max_hp"] - u["markers"]), u["max_hp"])
                     for u in (s["units"][s["players"][p]["leader"]] for p in (0, 1))]
            else:
                f = [Fraction(sum(int(self.units[u["type"]]["cost"]) for u in _alive(s) if u["side"] == p
                                  and not u["summoned"] and not self.is_leader(u)),
                              max(1, s["players"][p]["army_value"])) for p in (0, 1)]
            if f[0] != f[1]:
                return WINNERS[0 if f[0] > f[1] else 1]
        return "draw"

    # -- the transition clauses ---------------------------------------------------------------------------

    def transition_problems(self, before: Mapping, action, after: Mapping) -> list[str]:
        """The clauses (names of :data:`CLAUSES`) the step ``before`` -> ``action`` -> ``after`` broke: ``after``
        against the position :meth:`predict` recomputes from the page; the first clause that differs is named
        (the action's own effect first, then deaths and magic, draws, the game's end, the turn's end)."""
        before, after = self.words(before) if before is not None else None, self.words(after)
        if action is None or before is None or before["phase"] == "over":
            return []
        action = tuple(action)
        want = self.predict(before, action)
        kind = action[0]
        got_live, want_live = _live_by_cell(after), _live_by_cell(want)
        own = {"move": "move_follows_the_page", "skill": "skill_effects_follow_the_page",
               "place": "placements_follow_the_page", "end": "turn_start_activates_stored_magic",
               "attack": "attack_spends_the_participants"}[kind]
        if kind == "attack":
            target = want.pop("_target")
            main = want.pop("_main_roll")
            if after["units"][target]["markers"] != want["units"][target]["markers"] or after["dice_rolled"] < main:
                return ["attack_dice_and_hits"]
            if after["dice_rolled"] != want["dice_rolled"] or any(
                    after["units"][u["slot"]]["markers"] != want["units"][u["slot"]]["markers"]
                    for u in before["units"] if u["state"] == "alive"):
                return ["splash_hits_enemies_in_the_ring"]
        elif kind == "move" and _differs(got_live, want_live, ("type", "side", "markers", "moved")):
            return [own]
        elif kind == "skill" and (_differs(got_live, want_live, ("type", "side", "markers", "effects", "summoned"))
                                  or _players(after, "active_magic", "cards_used") != _players(
                                      want, "active_magic", "cards_used")):
            return [own]
        elif kind == "place" and set(got_live) != set(want_live):
            return [own]
        if kind == "end" and want["end_reason"] == "turn_limit":
            return [] if (after["winner"], after["end_reason"]) == (want["winner"], "turn_limit") else [
                "turn_limit_tiebreak_follows_the_page"]
        if (want["phase"], want["winner"]) != (after["phase"], after["winner"]):
            return ["a_destroyed_leader_ends_the_game"]
        if (want["turn"], want["to_act"]) != (after["turn"], after["to_act"]):
            return ["turn_ends_when_nothing_is_left"]
        if _players(after, "active_magic", "stored_magic") != _players(want, "active_magic", "stored_magic") or (
                set(got_live) != set(want_live)):
            return ["turn_start_activates_stored_magic" if kind == "end" else "kill_magic_to_the_actor"]
        if _players(after, "drawn", "cap", "unlocks", "hand") != _players(want, "drawn", "cap", "unlocks", "hand"):
            return ["tactical_draws_follow_the_page"]
        if _differs(got_live, want_live, ("markers", "moved", "attacked", "skilled", "free_used", "effects")):
            return [own]
        return []


def _copy(snap: Mapping) -> dict:
    """A copy of a position in words that :meth:`MagicPage.predict` may change (its units, players, lists)."""
    return {**snap, "units": [{**u, "cell": list(u["cell"]) if u["cell"] is not None else None,
                               "effects": list(u["effects"]), "buffed_by": set(u["buffed_by"])} for u in snap["units"]],
            "players": [{**p, "hand": list(p["hand"]), "unlocks": list(p["unlocks"])} for p in snap["players"]]}


def _live_by_cell(snap: Mapping) -> dict:
    """The live units by cell: what the page says of each (type, side, markers, flags, effects)."""
    return {tuple(u["cell"]): {"type": u["type"], "side": u["side"], "markers": u["markers"], "moved": u["moved"],
                               "attacked": u["attacked"], "skilled": u["skilled"], "free_used": u["free_used"],
                               "effects": list(u["effects"]), "summoned": u["summoned"]}
            for u in _alive(snap)}


def _differs(got: Mapping, want: Mapping, fields) -> bool:
    """Whether the live units of two positions differ in their cells or in any of ``fields``."""
    return set(got) != set(want) or any(got[c][f] != want[c][f] for c in want for f in fields)


def _players(snap: Mapping, *names) -> list:
    return [[list(p[n]) if isinstance(p[n], (list, tuple)) else p[n] for n in names] for p in snap["players"]]


def _alive(snap: Mapping):
    return [u for u in snap["units"] if u["state"] == "alive" and u["cell"] is not None]
