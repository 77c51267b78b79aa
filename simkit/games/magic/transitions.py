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
    "move_follows_the_page": "5.4 [R5]: a move puts the unit on an empty cell within its move points, "
                             "changes nothing else and rolls no die",
    "turn_start_activates_stored_magic": "5.1 [R23]: the next player's stored magic becomes active and its "
                                         "units may move and attack again",
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

    # -- the declared state in the page's words ---------------------------------------------------------------

    def words(self, snap: Mapping) -> dict:
        """A :meth:`~simkit.games.magic.match.Match.snapshot` in the page's words (computed once per snapshot):
        ``phase`` ("deploy", "play", "over"), ``turn``, ``to_act``, ``winner`` ("first", "second", "draw" or
        None), ``end_reason``, ``dice_key``, ``dice_rolled``, ``decks``, ``seed``; ``units`` in place order, each
        with ``slot``, ``type`` (its name), ``side``, ``state`` ("unplaced", "alive", "dead"), ``cell`` (``[c, r]``
        or None), ``markers``, ``hp`` (max(0, HP - markers)), ``max_hp``, ``moved``, ``attacked``, ``skilled``,
        ``free_used``, ``summoned``, ``effects`` (dice, precision, move given this turn); ``players`` with
        ``active_magic``, ``stored_magic``, ``drawn``, ``cap``, ``hand`` (card ids held), ``unlocks``,
        ``army_value``, the record's counters."""
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
                "dice_rolled": snap["dice_rolled"], "pile_drawn": snap["pile_drawn"], "units": units,
                "players": players}

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

    # -- the transition clauses ---------------------------------------------------------------------------

    def transition_problems(self, before: Mapping, action, after: Mapping) -> list[str]:
        """The clauses (names of :data:`CLAUSES`) the step ``before`` -> ``action`` -> ``after`` broke."""
        before, after = self.words(before) if before is not None else None, self.words(after)
        if action is None or before["phase"] != "play":
            return []
        action = tuple(action)
        if action[0] == "attack":
            return self._attack(before, action, after)
        if action[0] == "move":
            return [] if self._move(before, action, after) else ["move_follows_the_page"]
        if action[0] == "end":
            return [] if self._end(before, after) else ["turn_start_activates_stored_magic"]
        return []

    def _attack(self, before, action, after) -> list[str]:
        me, turn = before["to_act"], before["turn"]
        at = {tuple(u["cell"]): u for u in _alive(before)}
        principal, target = at[tuple(action[1])], at[tuple(action[2])]
        joiners = [at[tuple(c)] for c in action[3]] if len(action) > 3 else []
        parts = [principal, *sorted(joiners, key=lambda u: u["slot"])]
        bearer = at[tuple(action[4])] if len(action) > 4 else principal
        enemy = target["side"] != me
        mod = self.aura(before, target, "attack_modifier_aura") if enemy else 0
        red = self.aura(before, target, "damage_reduction") if enemy else 0
        key, ptr = self.dice_key(before), before["dice_rolled"]
        markers = {u["slot"]: u["markers"] for u in before["units"]}
        hits, thresholds = 0, []
        for w in parts:
            n = max(0, self.dice(w, before) - (mod if w["slot"] == bearer["slot"] else 0))
            thr = self.threshold(w, before)
            thresholds.append(thr)
            hits += sum(self.face(key, ptr + i) >= thr for i in range(n))
            ptr += n
        hits -= red
        if hits > 0 and not self.immune(target, turn):
            markers[target["slot"]] += hits
        broken = []
        splash_ptr = ptr
        for w, thr in zip(parts, thresholds):
            for _, s in self.skills_of(w, "splash_on_clustered"):
                d1, d2 = (int(x) for x in s["ring"])
                for x in sorted(_alive(before), key=lambda u: _cell_index(u["cell"], self.cols)):
                    if x["side"] == w["side"] or self.immune(x, turn):
                        continue
                    if d1 <= _distance(x["cell"], target["cell"]) <= d2:
                        n = int(s.get("dice", 1))
                        markers[x["slot"]] += sum(self.face(key, splash_ptr + i) >= thr for i in range(n))
                        splash_ptr += n
        got = {u["slot"]: u["markers"] for u in after["units"]}
        if after["dice_rolled"] != splash_ptr or any(got[k] != v for k, v in markers.items() if k in got):
            main_ok = got.get(target["slot"]) == markers[target["slot"]] and after["dice_rolled"] >= ptr
            return ["splash_hits_enemies_in_the_ring" if main_ok else "attack_dice_and_hits"]
        a_units = {u["slot"]: u for u in after["units"]}
        stayed = all(a_units[u["slot"]]["cell"] == u["cell"] for u in _alive(before)
                     if a_units[u["slot"]]["state"] == "alive")
        if not stayed or any(not (a_units[w["slot"]]["attacked"] and a_units[w["slot"]]["moved"]) for w in parts):
            broken.append("attack_spends_the_participants")
        if after["phase"] != "over" and not self._kill_magic(before, after, markers, me):
            broken.append("kill_magic_to_the_actor")
        return broken

    def _kill_magic(self, before, after, markers, me) -> bool:
        dying = [u for u in _alive(before) if markers[u["slot"]] >= u["max_hp"]]
        gain = [0, 0]
        gain[me] += self.per_kill * len(dying)
        for u in dying:
            for _, s in self.skills_of(u, "on_death"):
                gain[u["side"]] += int(s.get("gain_magic", 0))
        dead_after = {u["slot"] for u in after["units"] if u["state"] == "dead"}
        dead_before = {u["slot"] for u in before["units"] if u["state"] == "dead"}
        if dead_after - dead_before != {u["slot"] for u in dying}:
            return False
        return self.magic_as_expected(before, after, gain)

    @staticmethod
    def magic_as_expected(before, after, gain) -> bool:
        """Each seat's magic is its magic before plus ``gain`` stored (7.2 [R23]); when the action ended the
        turn (5.2: no legal action but EndTurn was left), the next player's stored magic became active (5.1)."""
        for p in (0, 1):
            b, a = before["players"][p], after["players"][p]
            want = (b["active_magic"], b["stored_magic"] + gain[p])
            if after["turn"] != before["turn"] and after["phase"] == "play" and after["to_act"] == p:
                want = (want[0] + want[1], 0)
            if (a["active_magic"], a["stored_magic"]) != want:
                return False
        return True

    def _move(self, before, action, after) -> bool:
        at = {tuple(u["cell"]): u for u in _alive(before)}
        u = at[tuple(action[1])]
        to = tuple(action[2])
        points = int(self.units[u["type"]]["move"]) + u["effects"][2] + self.aura(before, u, "move_bonus_aura")
        if to in at or to in self.obstacles or not 1 <= _distance(u["cell"], to) <= points:
            return False
        if after["dice_rolled"] != before["dice_rolled"] or not self.magic_as_expected(before, after, [0, 0]):
            return False  # (draws and unlocks are checked after every action: they may fire)
        for b, a in zip(before["units"], after["units"]):
            if b["slot"] == u["slot"]:
                if a["cell"] != list(to) or not a["moved"] or a["markers"] != b["markers"]:
                    return False
            elif (a["cell"], a["markers"], a["state"]) != (b["cell"], b["markers"], b["state"]):
                return False
        return True

    def _end(self, before, after) -> bool:
        if after["phase"] != "play":
            return True  # the turn limit's tie-break is the examples' to hold
        nxt = 1 - before["to_act"]
        b, a = before["players"][nxt], after["players"][nxt]
        if after["turn"] != before["turn"] + 1 or after["to_act"] != nxt:
            return False
        if (a["active_magic"], a["stored_magic"]) != (b["active_magic"] + b["stored_magic"], 0):
            return False
        return all(not (u["moved"] or u["attacked"]) for u in _alive(after) if u["side"] == nxt)


def _alive(snap: Mapping):
    return [u for u in snap["units"] if u["state"] == "alive" and u["cell"] is not None]
