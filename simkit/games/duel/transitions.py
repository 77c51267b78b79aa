"""The Card Duel's rules page restated over snapshots, for ``simkit check``: no engine helper is used.

:func:`on_the_page` reads a :meth:`~simkit.games.duel.match.Match.snapshot` (the declared state as plain
values: every card of a deck by slot, with its zone) in the page's words: each zone as a list of card
names (section 3), the statuses and zone sizes by name. :meth:`DuelPage.predict` recomputes from the page and
the scenario's merged data (``[rules]`` and ``[cards]``, as the designer wrote them) the whole page an action
must leave: zones card by card, costs, flags, damage, counters, charge and cooldown, the next turn's start, the
end of the game. :meth:`DuelPage.transition_problems` returns the names of the clauses a step broke (where the
engine's page differs from the prediction); :func:`legal_by_the_page` restates which actions the page allows in
a position.
"""

from __future__ import annotations

import copy
from collections import Counter
from collections.abc import Mapping

from simkit.core.seats import SEATS

STATUS_KINDS = ("poison", "slow", "regeneration", "shield", "strength")
PLAYED = ("action", "magic", "action_magic", "persistent")

#: clause name -> the rules page's section, for the report
CLAUSES = {
    "move_changes_distance_by_one": "2: advance -1 / retreat +1, once per play phase, nothing else changes",
    "end_play_only_starts_the_discard_phase": "7.2-7.3: ending the play phase changes nothing but the phase",
    "discard_moves_one_card_to_the_pile": "3: a discarded card goes from the hand to the discard pile's top",
    "card_costs_and_destination": "5: a card costs its AP and mana and goes to the discard pile, removed or "
                                  "equipment zone",
    "card_effects_resolve": "1, 9: a card's damage, statuses and distance resolve as written (Strength, Shield, "
                            "piercing, void, counters)",
    "equip_set_attach_follow_their_type": "5.4-5.7: equipping, attaching and setting move one card and cost "
                                          "what the page says",
    "weapon_use_charge_range_cooldown": "2, 5.4, 6: a weapon use charges, fires in range (range >= distance) and "
                                        "starts its Cooldown",
    "turn_start_order": "7.1, 4, 6: resources refill, persistent magic, Poison, Slow, Regeneration, then the draw",
    "turn_limit_ends_the_game": "11: the game ends after turn turn_limit, and not before",
    "hp_zero_loses_at_once": "1: a player at HP <= 0 loses at once",
    "legal_actions_follow_the_page": "2, 3, 5: the legal actions are exactly those the page allows",
}


def _slot_names(cards: list) -> list[str]:
    """Each slot's name: its card's, with ``#k`` when the deck holds copies (``"?"``: a hidden card)."""
    names = ["?" if c is None else c for c in cards]
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(f"{name}#{seen[name]}" if names.count(name) > 1 else name)
    return out


def on_the_page(snap: Mapping) -> dict:
    """A snapshot in the page's words: per player the zones as lists of card names (the hand sorted, the
    source and discard piles top first, the equipment and traps in the order they were put there, the removed
    cards sorted), each equipped card with its charge, ``ready_on``, ``equipped_turn`` and the weapon it is
    ``on``; the statuses and the zone sizes by name; the result as ``winner`` and ``end_reason``."""
    n = snap["deck_size"]
    players = []
    for seat, p in enumerate(snap["players"]):
        cards = ["?" if c is None else c for c in p["card"][:n]]
        slots = _slot_names(p["card"][:n])
        zone = p["zone"][:n]
        by_stamp = sorted(range(n), key=lambda i: p["stamp"][i])
        equipment = [{"card": slots[i], "charge": p["charge"][i], "ready_on": p["ready_on"][i],
                      "equipped_turn": p["equipped_turn"][i], "on": slots[p["on"][i]] if p["on"][i] >= 0 else None}
                     for i in by_stamp if zone[i] == "equipment"]
        counts = p["counts"]
        players.append({
            "deck": snap["decks"][seat],
            **{k: p[k] for k in ("hp", "ap", "mana", "own_turns")},
            **{k: bool(p[k]) for k in ("moved", "weapon_used", "attached", "set")},
            "statuses": dict(p["statuses"]),
            "hand": sorted(cards[i] for i in range(n) if zone[i] == "hand"),
            "source": [cards[i] for i in reversed(p["source"][:counts["source"]]) if i >= 0],
            "discard": [cards[i] for i in reversed(p["discard"][:counts["discard"]]) if i >= 0],
            "equipment": equipment,
            "traps": [cards[i] for i in by_stamp if zone[i] == "trap"],
            "removed": sorted(cards[i] for i in range(n) if zone[i] == "removed"),
            "counts": {"hand": counts["hand"], "source": counts["source"], "discard": counts["discard"],
                       "equipment": counts["equipment"], "traps": counts["trap"], "removed": counts["removed"]},
        })
    over = snap["winner"] is not None
    return {"decks": list(snap["decks"]), "seed": snap["seed"], "turn": snap["turn"], "to_act": snap["to_act"],
            "phase": snap["phase"], "distance": snap["distance"], "winner": snap["winner"],
            "end_reason": snap["reason"] if over else None, "players": players}


def _ceil_half(level: int) -> int:
    return (level + 1) // 2


def _base(name):
    """A slot's card name without its copy number (``"Reflect#2"`` -> ``"Reflect"``); None stays None."""
    return None if name is None else name.split("#", 1)[0]


class DuelPage:
    """The page's rules over snapshots, with the scenario's numbers and cards.

    :meth:`predict` recomputes from the page what an action must make of a position, whole: the zones card by
    card, resources, flags, statuses, HP, the distance, charge and cooldown, counters and their triggers, the
    next turn's start and the end of the game. Only a reshuffle's order is left open (it is the game's seeded
    stream, section 3): what is drawn from it and what stays are then checked as collections.

    Args:
        data: the scenario's merged data (``scenario.data``).
    """

    def __init__(self, data: Mapping):
        self.rules = dict(data["rules"])
        self.cards = {name: dict(card) for name, card in data["cards"].items()}

    # -- the cards' words ---------------------------------------------------------------------------------

    def card(self, name: str) -> dict:
        """The card table of ``name`` (``"Dagger#2"`` is the card Dagger)."""
        return self.cards[_base(name)]

    def kind(self, name: str) -> str:
        """The card's type."""
        return self.card(name)["type"]

    def cost(self, name: str) -> tuple[int, int]:
        """``(action points, mana)`` a use of the card costs (section 5: an action or action-magic card 1 action
        point unless it says otherwise; mana as printed)."""
        c = self.card(name)
        ap = int(c.get("cost_ap", 1 if c["type"] in ("action", "action_magic") else 0))
        return ap, int(c.get("cost_mana", 0))

    def reach(self, name: str) -> tuple[int, int]:
        """The distances at which the card may be used (its ``min_distance``..``max_distance``)."""
        c = self.card(name)
        return int(c.get("min_distance", 0)), int(c.get("max_distance", self.rules["max_distance"]))

    # -- damage and effects, as sections 1, 5.7 and 9 say -------------------------------------------------

    @staticmethod
    def _end(game: dict, loser: int, reason: str = "hp_zero") -> None:
        game["phase"], game["winner"], game["end_reason"] = "over", SEATS[1 - loser], reason

    def hit(self, game: dict, src: int, tgt: int, amount: int, void: bool = False, piercing: bool = False,
            poison_tick: bool = False) -> None:
        """One damage instance in the page ``game`` (section 1 steps 1-5, counters included)."""
        if game["phase"] == "over":
            return
        p, q = game["players"][src], game["players"][tgt]
        if not poison_tick or self.rules.get("strength_on_own_poison", False):
            amount += p["statuses"]["strength"]
        if not piercing and q["statuses"]["shield"] > 0:
            absorbed = min(q["statuses"]["shield"], amount)
            q["statuses"]["shield"] -= absorbed
            amount -= absorbed
        q["hp"] -= amount
        if q["hp"] <= 0:
            self._end(game, tgt)
            return
        if amount >= 1 and not void and src == 1 - tgt:
            met = [c for c in q["traps"] if self.card(c).get("trigger") == "damaged_by_opponent"]
            for c in met:  # all met counters leave the trap zone at once, then resolve oldest first
                q["traps"].remove(c)
                q["discard"].insert(0, c)
            for c in met:
                self.effects(game, tgt, self.card(c).get("effects", []), 0)

    def effects(self, game: dict, owner: int, effects, pick: int) -> None:
        """An effect list, in order, in the page ``game``; it stops when the game ends."""
        for e in effects:
            if game["phase"] == "over":
                return
            target = owner if e.get("target", "opponent") == "self" else 1 - owner
            if e["do"] == "damage":
                self.hit(game, owner, target, int(e["amount"]), bool(e.get("void")), bool(e.get("piercing")))
            elif e["do"] == "status":
                game["players"][target]["statuses"][e["kind"]] += int(e["level"])
            elif e["do"] == "move_distance":
                game["distance"] = min(max(game["distance"] + pick, 0), self.rules["max_distance"])

    # -- what an action makes of a position ---------------------------------------------------------------

    def predict(self, before: Mapping, action) -> dict:
        """The page (:func:`on_the_page` words) the legal ``action`` must leave after ``before``. When the turn
        start reshuffles a discard pile, ``"reshuffled"`` holds ``(seat, cards drawn from it)``: the order of
        that seat's new source pile, and which of its cards were drawn, are the seeded stream's."""
        game = copy.deepcopy(dict(before))
        game["reshuffled"] = None
        verb, me = action[0], before["to_act"]
        p = game["players"][me]
        if verb in ("advance", "retreat"):
            game["distance"] += -1 if verb == "advance" else 1
            p["moved"] = True
        elif verb == "end_play":
            game["phase"] = "discard"
        elif verb == "discard":
            p["hand"].remove(action[1])
            p["discard"].insert(0, action[1])
        elif verb == "equip":
            p["hand"].remove(action[1])
            p["equipment"].append({"card": action[1], "charge": 0, "ready_on": 0, "equipped_turn": game["turn"],
                                   "on": None})
        elif verb == "attach":
            p["hand"].remove(action[1])
            self._pay(p, action[1])
            p["attached"] = True
            p["equipment"].append({"card": action[1], "on": action[2]})
        elif verb == "set":
            p["hand"].remove(action[1])
            p["traps"].append(action[1])
            p["set"] = True
        elif verb == "play":
            name = action[1]
            card = self.card(name)
            p["hand"].remove(name)
            self._pay(p, name)
            if card["type"] == "persistent":
                p["equipment"].append({"card": name, "on": None})
            else:  # to its destination first, then its effects
                if card.get("remove", False):
                    p["removed"] = sorted([*p["removed"], name])
                else:
                    p["discard"].insert(0, name)
                self.effects(game, me, card.get("effects", []), int(action[2]) if len(action) > 2 else 0)
        elif verb == "use":
            self._use(game, me, action[1])
        elif verb == "end_turn":
            self._end_turn(game, me)
        for q in game["players"]:
            q["counts"] = {"hand": len(q["hand"]), "source": len(q["source"]), "discard": len(q["discard"]),
                           "equipment": len(q["equipment"]), "traps": len(q["traps"]), "removed": len(q["removed"])}
        return game

    def _pay(self, p: dict, name: str) -> None:
        ap, mana = self.cost(name)
        p["ap"] -= ap
        p["mana"] -= mana

    def _use(self, game: dict, me: int, slot: str) -> None:
        """Section 5.4 in its order: Charge, the attack in range with its attachments, the Cooldown."""
        p = game["players"][me]
        p["weapon_used"] = True
        w = next(e for e in p["equipment"] if e["card"] == slot)
        card = self.card(slot)
        charge, cooldown = int(card.get("charge", 0)), int(card.get("cooldown", 0))
        fires = False
        if w["charge"] < charge:
            w["charge"] += 1
        elif int(card["range"]) >= game["distance"]:
            fires = True
            if self.rules.get("charge_resets", True):
                w["charge"] = 0
        if fires:
            attached = [e["card"] for e in p["equipment"] if e["on"] == slot]  # in the order attached
            self.effects(game, me, card.get("on_attack", []), 0)
            for att in attached:
                self.effects(game, me, self.card(att).get("on_attack", []), 0)
        if cooldown > 0:
            w["ready_on"] = p["own_turns"] + cooldown + 1

    def _end_turn(self, game: dict, me: int) -> None:
        """Section 7.4 and 11: the cap, or the next turn's start in its order (7.1)."""
        r = self.rules
        if game["turn"] >= r["turn_limit"]:
            hp = [q["hp"] for q in game["players"]]
            winner = "draw"
            if r.get("turn_limit_result", "draw") == "hp" and hp[0] != hp[1]:
                winner = SEATS[0] if hp[0] > hp[1] else SEATS[1]
            game["phase"], game["winner"], game["end_reason"] = "over", winner, "turn_limit"
            return
        nxt = 1 - me
        g = game["players"][nxt]
        game["turn"] += 1
        game["to_act"] = nxt
        game["phase"] = "play"
        g["own_turns"] += 1  # 7.1.1 resources; the turn's allowances renewed
        g["ap"], g["mana"] = r["action_points"], r["mana"]
        g["moved"] = g["weapon_used"] = g["attached"] = g["set"] = False
        for e in list(g["equipment"]):  # 7.1.2 persistent magic, in the order equipped
            if self.kind(e["card"]) == "persistent":
                self.effects(game, nxt, self.card(e["card"]).get("on_turn_start", []), 0)
        level = g["statuses"]["poison"]  # 7.1.3 Poison, Slow, Regeneration
        if level > 0 and game["phase"] != "over":
            g["statuses"]["poison"] = level - _ceil_half(level)
            self.hit(game, nxt, nxt, _ceil_half(level), piercing=True, poison_tick=True)
        if game["phase"] == "over":
            return
        slowed = 1 if g["statuses"]["slow"] > 0 else 0
        g["statuses"]["slow"] -= slowed
        level = g["statuses"]["regeneration"]
        if level > 0:
            g["statuses"]["regeneration"] = level - _ceil_half(level)
            g["hp"] = min(r["max_hp"], g["hp"] + _ceil_half(level))
        # 7.1.4 the draw, from the top; an empty source pile takes in the shuffled discard pile when drawing
        want = max(0, r["turn_draw"] - slowed)
        top = min(want, len(g["source"]))
        g["hand"] = sorted(g["hand"] + g["source"][:top])
        g["source"] = g["source"][top:]
        if want > top and g["discard"]:
            game["reshuffled"] = (nxt, min(want - top, len(g["discard"])))
            g["source"], g["discard"] = list(g["discard"]), []

    # -- the transition clauses ---------------------------------------------------------------------------

    def transition_problems(self, before: Mapping, action, after: Mapping) -> list[str]:
        """The clauses (names of :data:`CLAUSES`) the step ``before`` -> ``action`` -> ``after`` broke."""
        if action is None or before["phase"] == "over":
            return []
        action = tuple(action)
        broken = []
        if any(p["hp"] <= 0 for p in after["players"]) != (after["end_reason"] == "hp_zero"):
            broken.append("hp_zero_loses_at_once")
        if action[0] not in _CLAUSE_OF:
            return broken
        want = self.predict(before, action)
        wrong = self.differences(want, after)
        if wrong:
            clause = _CLAUSE_OF[action[0]]
            seat = SEATS[before["to_act"]]
            paid = {f"{seat}.{k}" for k in ("ap", "mana", "hand", "removed", "equipment")}
            if action[0] == "play" and paid & set(wrong):
                clause = "card_costs_and_destination"
            if action[0] == "end_turn" and "turn_limit" in (want["end_reason"], after["end_reason"]):
                clause = "turn_limit_ends_the_game"
            broken.append(clause)
        return broken

    def differences(self, want: Mapping, after: Mapping) -> list[str]:
        """Where the page ``after`` differs from the predicted ``want`` (dotted names; empty: as the page says)."""
        out = [k for k in ("turn", "to_act", "phase", "distance", "winner", "end_reason", "decks", "seed")
               if want[k] != after[k]]
        shuffled = want.get("reshuffled")
        for seat, (w, a) in enumerate(zip(want["players"], after["players"])):
            for k in ("hp", "ap", "mana", "own_turns", "moved", "weapon_used", "attached", "set", "statuses",
                      "traps", "removed"):
                if w[k] != a[k]:
                    out.append(f"{SEATS[seat]}.{k}")
            if [self._entry(e) for e in w["equipment"]] != [self._entry(e) for e in a["equipment"]]:
                out.append(f"{SEATS[seat]}.equipment")
            if shuffled and shuffled[0] == seat:
                drawn = Counter(a["hand"]) - Counter(w["hand"])
                ok = (sum(drawn.values()) == shuffled[1] and Counter(a["hand"]) >= Counter(w["hand"])
                      and drawn + Counter(a["source"]) == Counter(w["source"]) and a["discard"] == w["discard"])
                if not ok:
                    out.append(f"{SEATS[seat]}.source")
            else:
                out += [f"{SEATS[seat]}.{k}" for k in ("hand", "source", "discard") if w[k] != a[k]]
            if a["counts"] != {"hand": len(a["hand"]), "source": len(a["source"]), "discard": len(a["discard"]),
                               "equipment": len(a["equipment"]), "traps": len(a["traps"]),
                               "removed": len(a["removed"])}:
                out.append(f"{SEATS[seat]}.counts")
        return out

    def _entry(self, e: Mapping) -> tuple:
        """An equipment entry as the page knows it: a weapon's card, charge, ready turn and the turn it was
        equipped; any other card's name and the weapon it is on (copies of one card are alike)."""
        if self.kind(e["card"]) == "weapon":
            return _base(e["card"]), e["charge"], e["ready_on"], e["equipped_turn"]
        return _base(e["card"]), _base(e["on"])


_CLAUSE_OF = {
    "advance": "move_changes_distance_by_one", "retreat": "move_changes_distance_by_one",
    "end_play": "end_play_only_starts_the_discard_phase", "discard": "discard_moves_one_card_to_the_pile",
    "play": "card_effects_resolve", "equip": "equip_set_attach_follow_their_type",
    "attach": "equip_set_attach_follow_their_type", "set": "equip_set_attach_follow_their_type",
    "use": "weapon_use_charge_range_cooldown", "end_turn": "turn_start_order",
}


def legal_by_the_page(page: DuelPage, snap: Mapping) -> set[tuple]:
    """The actions the page allows the seat to act in ``snap`` (section 2, 3, 5, 6), as action tuples."""
    if snap["phase"] == "over":
        return set()
    r, me = page.rules, snap["to_act"]
    p = snap["players"][me]
    dist = snap["distance"]
    if snap["phase"] == "discard":
        out = {("discard", c) for c in p["hand"]}
        if len(p["hand"]) <= r["hand_limit"]:
            out.add(("end_turn",))
        return out
    out = {("end_play",)}
    if not p["moved"]:
        if dist > 0:
            out.add(("advance",))
        if dist < r["max_distance"]:
            out.add(("retreat",))
    weapons = [e for e in p["equipment"] if page.kind(e["card"]) == "weapon"]
    if not p["weapon_used"]:
        out |= {("use", e["card"]) for e in weapons
                if e["equipped_turn"] < snap["turn"] and p["own_turns"] >= e["ready_on"]}
    for name in set(p["hand"]):
        card = page.card(name)
        kind = card["type"]
        ap, mana = page.cost(name)
        pays = p["ap"] >= ap and p["mana"] >= mana
        if kind == "weapon":
            out.add(("equip", name))
        elif kind == "counter":
            if not p["set"]:
                out.add(("set", name))
        elif kind == "attachment":
            if not p["attached"] and pays:
                out |= {("attach", name, e["card"]) for e in weapons}
        elif kind in PLAYED and pays:
            lo, hi = page.reach(name)
            if not lo <= dist <= hi:
                continue
            moves = [e for e in card.get("effects", []) if e["do"] == "move_distance"]
            if moves:
                out |= {("play", name, v) for v in range(int(moves[0]["min"]), int(moves[0]["max"]) + 1)
                        if 0 <= dist + v <= r["max_distance"]}
            else:
                out.add(("play", name))
    return out
