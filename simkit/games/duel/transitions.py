"""The Card Duel's rules page restated over snapshots, for ``simkit check``: no engine helper is used.

:func:`on_the_page` reads a :meth:`~simkit.games.duel.match.Match.snapshot` (the declared state as plain
values: every card of a deck by slot, with its zone) in the page's words: each zone as a list of card
names (section 3), the statuses and zone sizes by name. Every other function reads two such pages and the
scenario's merged data (``[rules]`` and ``[cards]``, as the designer wrote them), and says what the page
requires of the action between them: what must change, what must not.
:meth:`DuelPage.transition_problems` returns the names of the clauses a step broke;
:func:`legal_by_the_page` restates which actions the page allows in a position.
"""

from __future__ import annotations

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


class DuelPage:
    """The page's rules over snapshots, with the scenario's numbers and cards.

    Args:
        data: the scenario's merged data (``scenario.data``).
    """

    def __init__(self, data: Mapping):
        self.rules = dict(data["rules"])
        self.cards = {name: dict(card) for name, card in data["cards"].items()}

    # -- the cards' words ---------------------------------------------------------------------------------

    def card(self, name: str) -> dict:
        """The card table of ``name`` (``"Dagger#2"`` is the card Dagger)."""
        return self.cards[name.split("#", 1)[0]]

    def kind(self, name: str) -> str:
        """The card's type."""
        return self.card(name)["type"]

    def reach(self, name: str) -> tuple[int, int]:
        """The distances at which the card may be used (its ``min_distance``..``max_distance``)."""
        c = self.card(name)
        return int(c.get("min_distance", 0)), int(c.get("max_distance", self.rules["max_distance"]))

    # -- damage, as section 1 says ------------------------------------------------------------------------

    def hit(self, game: dict, src: int, tgt: int, amount: int, void: bool = False, piercing: bool = False,
            poison_tick: bool = False) -> None:
        """One damage instance in the model ``game`` (section 1 steps 1-5, counters included)."""
        if game["over"]:
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
            game["over"] = True
            return
        if amount >= 1 and not void and src != tgt:
            met = [c for c in q["traps"] if self.card(c).get("trigger") == "damaged_by_opponent"]
            for c in met:  # all met counters leave the trap zone at once, then resolve oldest first
                q["traps"].remove(c)
                q["discard"].insert(0, c)
            for c in met:
                self.effects(game, tgt, self.card(c).get("effects", []), 0)

    def effects(self, game: dict, owner: int, effects, pick: int) -> None:
        """An effect list, in order, in the model ``game``; it stops when the game ends."""
        for e in effects:
            if game["over"]:
                return
            target = owner if e.get("target", "opponent") == "self" else 1 - owner
            if e["do"] == "damage":
                self.hit(game, owner, target, int(e["amount"]), bool(e.get("void")), bool(e.get("piercing")))
            elif e["do"] == "status":
                game["players"][target]["statuses"][e["kind"]] += int(e["level"])
            elif e["do"] == "move_distance":
                game["distance"] = min(max(game["distance"] + pick, 0), self.rules["max_distance"])

    @staticmethod
    def model(snap: Mapping) -> dict:
        """The part of a snapshot damage and effects change, as a mutable model."""
        return {"over": False, "distance": snap["distance"],
                "players": [{"hp": p["hp"], "statuses": dict(p["statuses"]), "traps": list(p["traps"]),
                             "discard": list(p["discard"])} for p in snap["players"]]}

    def model_matches(self, game: dict, after: Mapping) -> bool:
        """True when the snapshot ``after`` shows what the model ``game`` reached."""
        if game["over"]:
            return after["phase"] == "over" and after["end_reason"] == "hp_zero" and any(
                g["hp"] <= 0 and g["hp"] == p["hp"] for g, p in zip(game["players"], after["players"]))
        if after["distance"] != game["distance"] or after["phase"] == "over":
            return False
        return all(g["hp"] == p["hp"] and g["statuses"] == p["statuses"] and g["traps"] == p["traps"]
                   for g, p in zip(game["players"], after["players"]))

    # -- the transition clauses ---------------------------------------------------------------------------

    def transition_problems(self, before: Mapping, action, after: Mapping) -> list[str]:
        """The clauses (names of :data:`CLAUSES`) the step ``before`` -> ``action`` -> ``after`` broke."""
        if action is None or before["phase"] == "over":
            return []
        action = tuple(action)
        verb = action[0]
        me = before["to_act"]
        broken = []
        if any(p["hp"] <= 0 for p in after["players"]) != (after["end_reason"] == "hp_zero"):
            broken.append("hp_zero_loses_at_once")
        check = getattr(self, f"_{verb}", None)
        if check is not None and not check(before, action, after, me):
            broken.append(_CLAUSE_OF[verb])
        return broken

    @staticmethod
    def _same(before, after, seat: int, *keys) -> bool:
        return all(before["players"][seat][k] == after["players"][seat][k] for k in keys)

    _ALL = ("hp", "ap", "mana", "statuses", "hand", "source", "discard", "equipment", "traps", "removed")

    def _advance(self, before, action, after, me) -> bool:
        step = -1 if action[0] == "advance" else 1
        return (after["distance"] == before["distance"] + step and not before["players"][me]["moved"]
                and after["players"][me]["moved"] and after["phase"] == "play"
                and self._same(before, after, me, *self._ALL) and self._same(before, after, 1 - me, *self._ALL))

    _retreat = _advance

    def _end_play(self, before, action, after, me) -> bool:
        return (before["phase"] == "play" and after["phase"] == "discard" and after["distance"] == before["distance"]
                and after["turn"] == before["turn"] and self._same(before, after, me, *self._ALL)
                and self._same(before, after, 1 - me, *self._ALL))

    def _discard(self, before, action, after, me) -> bool:
        b, a = before["players"][me], after["players"][me]
        hand = list(b["hand"])
        hand.remove(action[1])
        return (before["phase"] == "discard" and a["hand"] == sorted(hand)
                and a["discard"] == [action[1], *b["discard"]]
                and self._same(before, after, me, "hp", "statuses", "source", "equipment", "traps")
                and self._same(before, after, 1 - me, *self._ALL))

    def _play(self, before, action, after, me) -> bool:
        name = action[1]
        card = self.card(name)
        b, a = before["players"][me], after["players"][me]
        lo, hi = self.reach(name)
        if not lo <= before["distance"] <= hi:
            return False
        if a["ap"] != b["ap"] - int(card.get("cost_ap", 0)) or a["mana"] != b["mana"] - int(card.get("cost_mana", 0)):
            return False
        hand = list(b["hand"])
        hand.remove(name)
        if a["hand"] != sorted(hand) or a["source"] != b["source"]:
            return False
        kind = card["type"]
        if kind == "persistent":
            placed = [e["card"] for e in a["equipment"]] == [e["card"] for e in b["equipment"]] + [name]
        elif card.get("remove", False):
            placed = Counter(a["removed"]) == Counter(b["removed"]) + Counter([name])
        else:
            placed = name in a["discard"] and len(a["discard"]) >= len(b["discard"]) + 1
        if not placed:
            return False
        game = self.model(before)
        if kind != "persistent":
            self.effects(game, me, card.get("effects", []), int(action[2]) if len(action) > 2 else 0)
        return self.model_matches(game, after)

    def _equip(self, before, action, after, me) -> bool:
        b, a = before["players"][me], after["players"][me]
        new = [e for e in a["equipment"] if e["card"].split("#")[0] == action[1]]
        return (self.kind(action[1]) == "weapon" and len(a["equipment"]) == len(b["equipment"]) + 1
                and any(e["equipped_turn"] == before["turn"] and e["charge"] == 0 for e in new)
                and (a["ap"], a["mana"]) == (b["ap"], b["mana"])
                and self._same(before, after, me, "hp", "statuses", "source", "discard", "traps")
                and self._same(before, after, 1 - me, *self._ALL))

    def _attach(self, before, action, after, me) -> bool:
        b, a = before["players"][me], after["players"][me]
        card = self.card(action[1])
        on = [e for e in a["equipment"] if e["card"].split("#")[0] == action[1] and e["on"] == action[2]]
        return (card["type"] == "attachment" and not b["attached"] and a["attached"] and bool(on)
                and a["mana"] == b["mana"] - int(card.get("cost_mana", 0))
                and a["ap"] == b["ap"] - int(card.get("cost_ap", 0))
                and self._same(before, after, me, "hp", "statuses", "source", "discard", "traps")
                and self._same(before, after, 1 - me, *self._ALL))

    def _set(self, before, action, after, me) -> bool:
        b, a = before["players"][me], after["players"][me]
        return (self.kind(action[1]) == "counter" and not b["set"] and a["set"]
                and a["traps"] == [*b["traps"], action[1]] and (a["ap"], a["mana"]) == (b["ap"], b["mana"])
                and self._same(before, after, me, "hp", "statuses", "source", "discard", "equipment")
                and self._same(before, after, 1 - me, *self._ALL))

    def _use(self, before, action, after, me) -> bool:
        b, a = before["players"][me], after["players"][me]
        slot = action[1]
        w0 = next(e for e in b["equipment"] if e["card"] == slot)
        w1 = next((e for e in a["equipment"] if e["card"] == slot), None)
        card = self.card(slot)
        charge, cooldown = int(card.get("charge", 0)), int(card.get("cooldown", 0))
        if w1 is None or b["weapon_used"] or not a["weapon_used"] or w0["equipped_turn"] >= before["turn"]:
            return False
        if b["own_turns"] < w0["ready_on"]:
            return False
        game = self.model(before)
        in_range = int(card["range"]) >= before["distance"]
        if w0["charge"] < charge:
            want_charge = w0["charge"] + 1
        elif in_range:
            want_charge = 0 if self.rules.get("charge_resets", True) else w0["charge"]
            self.effects(game, me, card.get("on_attack", []), 0)
            attached = [e["card"] for e in b["equipment"] if e["on"] == slot]
            for att in attached:  # in the order attached
                self.effects(game, me, self.card(att).get("on_attack", []), 0)
        else:
            want_charge = w0["charge"]
        if game["over"]:
            return self.model_matches(game, after)
        want_ready = b["own_turns"] + cooldown + 1 if cooldown > 0 else w0["ready_on"]
        return (w1["charge"] == want_charge and w1["ready_on"] == want_ready and self.model_matches(game, after)
                and (a["ap"], a["mana"], a["hand"]) == (b["ap"], b["mana"], b["hand"]))

    def _end_turn(self, before, action, after, me) -> bool:
        r = self.rules
        if before["players"][me]["hand"] and len(before["players"][me]["hand"]) > r["hand_limit"]:
            return False
        if before["turn"] >= r["turn_limit"]:
            hp = [p["hp"] for p in before["players"]]
            want = "draw"
            if r.get("turn_limit_result", "draw") == "hp" and hp[0] != hp[1]:
                want = SEATS[0] if hp[0] > hp[1] else SEATS[1]
            return after["phase"] == "over" and after["end_reason"] == "turn_limit" and after["winner"] == want
        if after["end_reason"] == "turn_limit":
            return False
        nxt = 1 - me
        b, a = before["players"][nxt], after["players"][nxt]
        if after["turn"] != before["turn"] + 1 or after["to_act"] != nxt:
            return False
        if not self._same(before, after, me, "ap", "mana", "hand", "source", "equipment", "removed"):
            return False
        # 7.1.1 resources; flags reset; one more own turn
        if (a["ap"], a["mana"], a["own_turns"]) != (r["action_points"], r["mana"], b["own_turns"] + 1):
            return False
        if a["moved"] or a["weapon_used"] or a["attached"] or a["set"]:
            return False
        game = self.model(before)
        g = game["players"][nxt]
        for e in b["equipment"]:  # 7.1.2 persistent magic, in the order equipped
            if self.kind(e["card"]) == "persistent":
                self.effects(game, nxt, self.card(e["card"]).get("on_turn_start", []), 0)
        level = g["statuses"]["poison"]  # 7.1.3 Poison, Slow, Regeneration
        if level > 0 and not game["over"]:
            g["statuses"]["poison"] = level - _ceil_half(level)
            self.hit(game, nxt, nxt, _ceil_half(level), piercing=True, poison_tick=True)
        if game["over"]:
            return self.model_matches(game, after)
        slowed = 1 if g["statuses"]["slow"] > 0 else 0
        g["statuses"]["slow"] -= slowed
        level = g["statuses"]["regeneration"]
        if level > 0:
            g["statuses"]["regeneration"] = level - _ceil_half(level)
            g["hp"] = min(r["max_hp"], g["hp"] + _ceil_half(level))
        if not self.model_matches(game, after):
            return False
        # 7.1.4 the draw: turn_draw less Slow, from the top of the source pile (the discard pile shuffled in
        # when the source pile is empty)
        want = max(0, r["turn_draw"] - slowed)
        drawn = len(a["hand"]) - len(b["hand"])
        if drawn != min(want, len(b["source"]) + len(b["discard"])):
            return False
        if want <= len(b["source"]):
            return a["hand"] == sorted(b["hand"] + b["source"][:want]) and a["source"] == b["source"][want:]
        return True


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
        pays = p["ap"] >= int(card.get("cost_ap", 0)) and p["mana"] >= int(card.get("cost_mana", 0))
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
