"""The Card Duel's invariants, for ``simkit check`` and :mod:`simkit.testing`.

:meth:`DuelInvariants.invariants` takes two :meth:`~simkit.games.duel.match.Match.snapshot` values
and the action between them and returns the names of the invariants the step broke (empty when all
hold): HP bounds, card conservation across zones, distance in 0..max, status levels never negative,
hand <= the limit after the discard phase, and hidden information: the view a bot is given (the only
thing a bot reads) holds no hidden card and does not change when the hidden parts do. Then the rules
page's clauses, restated over snapshots by :mod:`simkit.games.duel.transitions` (what each kind of
action must change and must not; which actions are legal), the rule examples' words
(:meth:`DuelInvariants.example_match`, ``scenarios/duel/examples.toml``) and positions at the clauses'
edges (:meth:`DuelInvariants.edge_positions`).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from copy import deepcopy

import numpy as np

from simkit.games.duel import engine as E
from simkit.games.duel.state import STATE, Z_DISC, Z_HAND, Z_HIDDEN, Z_SRC, Z_TRAP
from simkit.games.duel.tables import deck_list
from simkit.games.duel.transitions import CLAUSES, SEATS, DuelPage, legal_by_the_page, on_the_page
from simkit.games.kits.state import copy, place, zeros
from simkit.scenario import scenario_from_data
from simkit.testing.rule_check import InvariantCheck

NAMES = ("hp_bounds", "card_conservation", "distance_range", "status_nonnegative", "hand_limit",
         "hidden_information", *CLAUSES)
#: decks of an example that names none
EXAMPLE_DECKS = ("Dagger+Greataxe:Rage,Reflect,ShadowBolt", "Longbow+Spear:Mend,Reflect,Venom")


def _base_name(name: str) -> str:
    return name.split("#", 1)[0]


class DuelInvariants(InvariantCheck):
    """The duel's invariants over snapshots.

    Args:
        scenario: the loaded duel scenario (its max HP, max distance, hand limit and decks).
    """

    names = NAMES

    def __init__(self, scenario):
        self.scenario = scenario
        self.rules = scenario.rules
        self.page = DuelPage(scenario.data)
        self.clauses = CLAUSES
        self._variants: dict = {}

    def invariants(self, before: Mapping, action: tuple | None, after: Mapping) -> list[str]:
        """Names of the invariants broken by the step ``before`` -> ``action`` -> ``after``."""
        raw, before, after = after, on_the_page(before), on_the_page(after)
        broken = []
        if not self.hp_bounds(after):
            broken.append("hp_bounds")
        if not self.card_conservation(after):
            broken.append("card_conservation")
        if not 0 <= after["distance"] <= int(self.rules.settings.max_distance):
            broken.append("distance_range")
        if any(v < 0 for p in after["players"] for v in p["statuses"].values()):
            broken.append("status_nonnegative")
        if action is not None and tuple(action)[:1] == ("end_turn",):
            ended = before["to_act"]
            if len(after["players"][ended]["hand"]) > int(self.rules.settings.hand_limit):
                broken.append("hand_limit")
        if not self.hidden_information(raw):
            broken.append("hidden_information")
        return broken + self.page.transition_problems(before, action, after)

    def legal_problems(self, snap: Mapping, legal: list) -> list[str]:
        """``["legal_actions_follow_the_page"]`` when the legal actions differ from those the page allows."""
        allowed = legal_by_the_page(self.page, on_the_page(snap))
        return [] if set(map(tuple, legal)) == allowed else ["legal_actions_follow_the_page"]

    def legal_difference(self, snap: Mapping, legal: list) -> str:
        """What the engine offers that the page does not, and the reverse (for a failure's text)."""
        page, got = legal_by_the_page(self.page, on_the_page(snap)), set(map(tuple, legal))
        return f"offered but not allowed: {sorted(got - page)}; allowed but not offered: {sorted(page - got)}"

    # -- rule examples (simkit.testing.examples) ---------------------------------------------------------

    def _variant(self, overrides: Mapping | None):
        """The scenario with ``overrides`` merged into its data (tables key by key, to any depth), built once
        per distinct overrides: an example's own rules (``scenario = {rules = {charge_resets = false}}``)."""
        if not overrides:
            return self.scenario
        key = json.dumps(overrides, sort_keys=True)
        if key not in self._variants:
            data = deepcopy(self.scenario.data)
            _merge(data, overrides)
            self._variants[key] = scenario_from_data(data, str(self.scenario.path))
        return self._variants[key]

    def example_match(self, given: Mapping):
        """A match in the position ``given`` (the words of :meth:`Match.arrange`): ``first_deck``,
        ``second_deck``, ``seed``, ``turn``, ``phase``, ``distance``, and per seat (``first``, ``second``)
        ``hp``, ``ap``, ``mana``, ``own_turns``, ``statuses``, the flags and the zones. Unnamed: both at
        the scenario's HP, action points and mana, one own turn started, empty hands. ``scenario = {table =
        {key = value}}``: the example's own rules, merged into the scenario's; ``setup = true``: the new game
        as its setup left it (the decks and ``seed`` only)."""
        from simkit.games.duel.match import Match

        given = dict(given)
        known = {"first_deck", "second_deck", "seed", "turn", "phase", "distance", "scenario", "setup", *SEATS}
        unknown = set(given) - known
        if unknown:
            raise ValueError(f"unknown word {sorted(unknown)[0]!r} (known: {', '.join(sorted(known))})")
        sc = self._variant(given.get("scenario"))
        m = sc.game.new_match(given.get("first_deck", EXAMPLE_DECKS[0]), given.get("second_deck", EXAMPLE_DECKS[1]),
                              seed=int(given.get("seed", 0)))
        if not isinstance(m, Match):  # another game's match: only its own words apply
            raise TypeError("not a Card Duel match")
        if given.get("setup"):
            extra = set(given) - {"first_deck", "second_deck", "seed", "scenario", "setup"}
            if extra:
                raise ValueError(f"setup = true takes the decks, seed and scenario only, not {sorted(extra)[0]!r}")
            return m
        r = sc.data["rules"]
        players = []
        for seat in SEATS:
            full = {"hp": r["hp"], "ap": r["action_points"], "mana": r["mana"], "own_turns": 1, "hand": []}
            full.update(given.get(seat, {}))
            players.append(full)
        return m.arrange(turn=given.get("turn", 1), phase=given.get("phase", "play"),
                         distance=given.get("distance", r["start_distance"]), players=players)

    def example_values(self, m) -> dict:
        """The position in the page's words: ``turn``, ``phase``, ``to_act``, ``distance``, ``winner``,
        ``end_reason``, and per seat (``first``, ``second``) ``hp``, ``ap``, ``mana``, ``statuses.<kind>``,
        ``hand``, ``discard``, ``traps``, ``removed``, ``counts.<zone>``, ``equipment.<card>.charge`` ..."""
        snap = on_the_page(m.snapshot())
        out = {k: snap[k] for k in ("turn", "phase", "distance", "winner", "end_reason")}
        out["to_act"] = SEATS[snap["to_act"]]
        for seat, p in zip(SEATS, snap["players"]):
            q = {k: v for k, v in p.items() if k != "equipment"}
            q["equipment"] = {e["card"]: e for e in p["equipment"]}
            q["equipped"] = [e["card"] for e in p["equipment"]]
            out[seat] = q
        return out

    # -- positions at the clauses' edges ------------------------------------------------------------------

    def edge_positions(self, rng: np.random.Generator, count: int) -> list[dict]:
        """``count`` positions (``example_match`` words) near the page's edges: the distance equal to a
        weapon's range or a card's reach, 1 HP, a Charge one use from full, a Cooldown's last turn,
        statuses at 1 and 2, an empty source pile, a hand at the limit."""
        r = self.scenario.data["rules"]
        cards = self.scenario.data["cards"]
        decks = list(self.scenario.decks)
        out = []
        for _ in range(count):
            first, second = (decks[int(i)] for i in rng.integers(0, len(decks), 2))
            mine = [self.rules.names[int(c)] for c in deck_list(self.rules, first)]
            weapons = sorted({c for c in mine if cards[c]["type"] == "weapon"})
            reaches = [int(cards[w]["range"]) for w in weapons] + [
                int(cards[c]["max_distance"]) for c in sorted(set(mine)) if "max_distance" in cards[c]]
            distance = int(min(r["max_distance"], max(0, rng.choice(reaches) + int(rng.integers(-1, 2)))))
            turn = int(rng.integers(3, 12)) * 2 - 1
            own = (turn + 1) // 2
            equipment = []
            for w in weapons[: int(rng.integers(0, 3))]:
                charge = int(cards[w].get("charge", 0))
                equipment.append({"card": w, "charge": int(rng.integers(0, charge + 1)), "equipped_turn": turn - 2,
                                  "ready_on": int(rng.choice([0, own, own + 1]))})
            hand_cards = [c for c in mine if cards[c]["type"] != "weapon" or c not in weapons[: len(equipment)]]
            rng.shuffle(hand_cards)
            hand = hand_cards[: int(rng.integers(1, 8))]
            rest = hand_cards[len(hand):]
            if equipment and "VenomCoating" in rest and rng.random() < 0.5:
                rest.remove("VenomCoating")
                equipment.append({"card": "VenomCoating", "on": equipment[0]["card"]})
            traps = ["Reflect"] if "Reflect" in rest and rng.random() < 0.5 else []
            for t in traps:
                rest.remove(t)
            source_empty = rng.random() < 0.25
            discard = rest[: len(rest) - (0 if source_empty else 3)] if rng.random() < 0.5 or source_empty else []

            def statuses():
                return {k: int(rng.choice([0, 0, 1, 2, 3])) for k in ("poison", "slow", "regeneration", "shield",
                                                                       "strength")}

            p0 = {"hp": int(rng.choice([1, 2, 3, r["max_hp"] - 1, r["max_hp"]])), "statuses": statuses(),
                  "hand": hand, "equipment": equipment, "traps": traps, "discard": discard,
                  "ap": int(rng.integers(0, r["action_points"] + 1)), "mana": int(rng.integers(0, r["mana"] + 1)),
                  "own_turns": own}
            p1 = {"hp": int(rng.choice([1, 2, 3, 4, r["max_hp"]])), "statuses": statuses(), "own_turns": own - 1,
                  "traps": ["Reflect"] if rng.random() < 0.4 and "Reflect" in second else []}
            phase = "discard" if rng.random() < 0.2 else "play"
            out.append({"first_deck": first, "second_deck": second, "turn": turn, "distance": distance,
                        "phase": phase, "first": p0, "second": p1})
        return out

    def hp_bounds(self, snap: Mapping) -> bool:
        """HP never above max HP; a player at HP <= 0 has lost (the game ended with them losing); ``snap`` in
        the page's words (:func:`~simkit.games.duel.transitions.on_the_page`), as every check below."""
        top = int(self.rules.settings.max_hp)
        for seat, p in enumerate(snap["players"]):
            if p["hp"] > top:
                return False
            if p["hp"] <= 0 and not (snap["end_reason"] == "hp_zero" and snap["winner"] == ("second", "first")[seat]):
                return False
        return True

    def card_conservation(self, snap: Mapping) -> bool:
        """Every card of each deck is in exactly one zone, and the zone counts agree with the zones."""
        for p in snap["players"]:
            want = Counter(self.rules.names[int(c)] for c in deck_list(self.rules, p["deck"]))
            zones = {
                "hand": p["hand"], "source": p["source"], "discard": p["discard"], "traps": p["traps"],
                "removed": p["removed"], "equipment": [_base_name(e["card"]) for e in p["equipment"]],
            }
            if Counter(c for cards in zones.values() for c in cards) != want:
                return False
            if any(p["counts"][z] != len(cards) for z, cards in zones.items()):
                return False
        return True

    def state_of(self, snap: Mapping):
        """The engine's state a :meth:`~simkit.games.duel.match.Match.snapshot` was taken of (the kit's
        :func:`~simkit.games.kits.state.place` inverts it)."""
        s = zeros(STATE)
        place(s, {k: v for k, v in snap.items() if k in STATE.names}, {"card": self.rules.names})
        return s

    def hidden_information(self, snap: Mapping) -> bool:
        """The view of the seat to act holds no hidden card, and scrambling the hidden parts (the
        opponent's hand, discard pile and traps, both source piles) leaves the view unchanged (``snap``: a
        match's snapshot)."""
        s = self.state_of(snap)
        seat = int(s.to_act)
        view = zeros(STATE)
        E.make_view(s, seat, view)
        for q in range(2):
            real, seen = s.players[q], view.players[q]
            for i in range(int(s.deck_size)):
                z = int(real.zone[i])
                hidden = z == Z_SRC or (q != seat and z in (Z_HAND, Z_DISC, Z_TRAP))
                if hidden and (seen.card[i] != -1 or seen.zone[i] != Z_HIDDEN):
                    return False
            if (seen.source != -1).any():
                return False
        if view.shuffle != 0 or view.drawn != 0:
            return False
        other = scramble_hidden(s, seat)
        view2 = zeros(STATE)
        E.make_view(other, seat, view2)
        return view.tobytes() == view2.tobytes()


def _merge(data: dict, overrides: Mapping) -> None:
    """Merge ``overrides`` into ``data`` in place: tables key by key, to any depth; other values replace."""
    for key, value in overrides.items():
        if isinstance(value, Mapping) and isinstance(data.get(key), dict):
            _merge(data[key], value)
        else:
            data[key] = deepcopy(value)


def scramble_hidden(s, seat: int):
    """A copy of state ``s`` that differs from it only where ``seat`` cannot see: the opponent's hidden
    cards trade places among the opponent's hand, discard pile, trap zone and source pile (zone sizes
    kept), both source piles are reversed, and the shuffle stream moves on."""
    t = zeros(STATE)
    copy(t, s)
    them = t.players[1 - seat]
    n = int(s.deck_size)
    hidden = [i for i in range(n) if s.players[1 - seat].zone[i] in (Z_HAND, Z_DISC, Z_TRAP, Z_SRC)]
    if len(hidden) > 1:
        cards = [int(s.players[1 - seat].card[i]) for i in hidden]
        for i, c in zip(hidden, cards[1:] + cards[:1]):
            them.card[i] = c
    for q in range(2):
        k = int(s.players[q].counts[Z_SRC])
        t.players[q].source[:k] = s.players[q].source[:k][::-1]
    t.shuffle = s.shuffle + 1
    t.drawn = s.drawn + 3
    return t
