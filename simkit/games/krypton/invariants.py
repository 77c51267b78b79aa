"""Krypton Tower War's invariants, for ``simkit check`` and :mod:`simkit.testing`.

:meth:`KryptonInvariants.invariants` takes two :meth:`~simkit.games.krypton.match.Match.snapshot`
values and the action between them and returns the names of the invariants the step broke (empty
when all hold): HP within 0..max, energy never negative, vein stock never negative and a spent vein
is plain, at most one hero per cell, no hero on a base or an enemy building, towers only on buildable
cells, the magic hand within its limit, at most two revivals per death (one choice each), and the
game's own bounds (dice 1..max, base HP never above its start). The rule examples
(``scenarios/krypton/examples.toml``) are built and read in the page's words by
:meth:`KryptonInvariants.example_match` and :meth:`KryptonInvariants.example_values`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping

import numpy as np

from simkit.games.krypton.state import CARDS, COUNTER_CARDS, HERO_STATES, HS_DEAD, T_BASE, T_PLAIN, T_VEIN
from simkit.games.krypton.transitions import CLAUSES, KryptonPage
from simkit.scenario import scenario_from_data
from simkit.testing.rule_check import InvariantCheck

NAMES = ("hp_bounds", "energy_nonnegative", "vein_stock", "one_hero_per_cell", "hero_cells", "tower_cells",
         "hand_limit", "revival_choice", "dice_bounds", "base_hp", *CLAUSES)


class KryptonInvariants(InvariantCheck):
    """The game's invariants over snapshots.

    Args:
        scenario: the loaded Krypton scenario (its classes, map and limits).
    """

    names = NAMES

    def __init__(self, scenario):
        self.scenario = scenario
        self.rules = scenario.rules
        self.page = KryptonPage(scenario)
        self.clauses = CLAUSES
        self._variants: dict[str, tuple] = {}

    def _variant(self, overrides: Mapping | None):
        """The scenario with an example's own rules merged into its data (tables key by key), and its page:
        ``(scenario, page)``, built once per distinct overrides."""
        if not overrides:
            return self.scenario, self.page
        key = json.dumps(overrides, sort_keys=True)
        if key not in self._variants:
            data = copy.deepcopy(self.scenario.data)
            _merge(data, overrides)
            sc = scenario_from_data(data, str(self.scenario.path))
            self._variants[key] = sc, KryptonPage(sc)
        return self._variants[key]

    def page_of(self, m) -> KryptonPage:
        """The page of the scenario match ``m`` plays (an example's own rules, or the scenario's)."""
        if m.scenario is self.scenario:
            return self.page
        return next((page for sc, page in self._variants.values() if sc is m.scenario), None) or KryptonPage(
            m.scenario)

    # -- rule examples (simkit.testing.examples) ---------------------------------------------------------

    #: far corners where heroes an example does not place disturb nothing (plain, no base or tower within 2)
    PARK = {(0, 0): (-3, -3, 6), (0, 1): (-2, -4, 6), (1, 0): (3, 3, -6), (1, 1): (2, 4, -6)}

    def example_match(self, given: Mapping):
        """A match in the position ``given``: ``first_deck`` / ``second_deck`` (loadouts, default
        Warrior+Warrior each), ``seed``; ``heroes``: entries ``{side, hero, cell = [x, y, z], hp}`` (heroes not
        named are parked in far corners; ``state = "dead"`` or ``"flipped"``); ``towers``: ``{side, kind, cell}``;
        ``energy``, ``base_hp``, ``tier``: ``{first, second}``; ``hands = {first = [cards]}`` (exactly those
        cards), ``pile`` (card names, the next draw first; the rest of the pile unchanged beneath),
        ``turn = {side, hero, points, round}`` (that hero's move phase); ``dice``: the next dice in order;
        ``scenario = {table = {key = value}}``: the example's own rules (merged into the scenario's); ``new =
        true``: the game as it starts (the decks' and ``seed``), nothing placed."""
        given = dict(given)
        known = {"first_deck", "second_deck", "seed", "heroes", "towers", "energy", "turn", "dice", "stock",
                 "hands", "pile", "base_hp", "tier", "scenario", "new"}
        if set(given) - known:
            raise ValueError(f"unknown word {sorted(set(given) - known)[0]!r} (known: {', '.join(sorted(known))})")
        sc, _ = self._variant(given.get("scenario"))
        m = sc.game.new_match(given.get("first_deck", "Warrior+Warrior"),
                              given.get("second_deck", "Warrior+Warrior"), seed=int(given.get("seed", 0)))
        if given.get("new"):
            if given.get("dice"):
                m.script_dice(*map(int, given["dice"]))
            return m
        side_of = {"first": 0, "second": 1}
        towers = list(sc.rules.towers)
        cell = lambda xyz: m.index_of(*xyz)  # noqa: E731
        for (side, k), at in self.PARK.items():
            if k < m.team:
                m.place({"sides": {side: {"heroes": {k: {"cell": cell(at)}}}}})
        for h in given.get("heroes", []):
            state = HERO_STATES.index(h.get("state", "board"))
            hero = {"cell": -1 if state == HS_DEAD else cell(h["cell"]), "state": state}
            if "hp" in h or state == HS_DEAD:
                hero["hp"] = 0 if state == HS_DEAD else int(h["hp"])
            m.place({"sides": {side_of[h["side"]]: {"heroes": {int(h.get("hero", 0)): hero}}}})
        for t in given.get("towers", []):
            c = cell(t["cell"])
            m.state.tower_side[c], m.state.tower_kind[c] = side_of[t["side"]], towers.index(t["kind"])
            m.state.tower_hp[c], m.state.iron_wall[c] = sc.rules.towers[t["kind"]].hp, 0
        for word in ("energy", "base_hp", "tier"):
            for side, v in given.get(word, {}).items():
                m.place({"sides": {side_of[side]: {word: int(v)}}})
        for side, cards in given.get("hands", {}).items():
            m.set_hand(side_of[side], list(cards))
        if given.get("pile"):
            rest = m.pile()
            for c in given["pile"]:  # the named cards come off the pile (one copy each) and go on top
                if c in rest:
                    rest.remove(c)
            m.set_pile(rest + list(reversed(given["pile"])))
        for at, stock in given.get("stock", {}).items():
            m.state.stock[cell(map(int, at.split(",")))] = int(stock)
        if "turn" in given:
            t = given["turn"]
            points = int(t.get("points", 0))
            first_turn = 2 * m.team * (int(t.get("round", 1)) - 1)
            m.place({"turn": first_turn + 2 * int(t.get("hero", 0)) + side_of[t["side"]], "n_revivals_owed": 0,
                     "judgment": {"on": 0},
                     "this_turn": {"roll": points, "points": points, "acted": 0, "shuttle": 0, "pact": 0,
                                   "blood": 0, "n_blood_owed": 0, "ending": 0}})
        if given.get("dice"):
            m.script_dice(*map(int, given["dice"]))
        return m

    def example_values(self, m) -> dict:
        """The position in the page's words: per side (``first``, ``second``) ``energy``, ``base_hp``,
        ``heroes.<k>.hp`` / ``.cell`` ([x, y, z]) / ``.state`` / ``.inspire`` / ``.earthsplit`` / ``.will`` (this
        turn's effects on it), ``tier``, ``hand`` (cards, in card order), ``dice``, ``hand_limit``;
        ``towers."x,y,z"`` (``side``, ``kind``, ``hp``);
        ``stock."x,y,z"``; ``terrain."x,y,z"``; ``points`` (the acting hero's movement points), ``winner``,
        ``end_reason``, ``round``, ``to_act`` (the side owing the decision), ``acting`` ([side, hero] whose hero
        turn it is), ``discard`` (cards in the order played), ``legal`` (the decisions legal now, as lists)."""
        snap = m.snapshot()
        names = ("first", "second")
        rules = m.rules
        towers = list(rules.towers)
        C = rules.grid.size
        key = lambda c: ",".join(map(str, m.cell_of(c)))  # noqa: E731
        out = {"points": snap["this_turn"]["points"], "winner": m.winner, "end_reason": m.end_reason,
               "round": m.round, "to_act": None if m.over else names[m.to_act],
               "acting": [names[m.side], m.hero_index], "discard": m.discard(),
               "legal": [list(a) for a in m.legal_actions()],
               "towers": {key(c): {"side": names[snap["tower_side"][c]], "kind": towers[snap["tower_kind"][c]],
                                   "hp": snap["tower_hp"][c]} for c in range(C) if snap["tower_side"][c] >= 0},
               "stock": {key(c): int(snap["stock"][c]) for c in range(C) if rules.terrain[c] == T_VEIN},
               "terrain": {key(c): int(snap["terrain"][c]) for c in range(C) if rules.terrain[c] == T_VEIN}}
        for side, name in enumerate(names):
            own = snap["sides"][side]
            out[name] = {"energy": own["energy"], "base_hp": own["base_hp"], "tier": own["tier"],
                         "hand_limit": snap["hand_limit"][side], "dice": snap["dice"][side],
                         "hand": [c for i, c in enumerate(CARDS) for _ in range(own["hand"][i])],
                         "heroes": [{"hp": h["hp"], "state": HERO_STATES[h["state"]],
                                     "cell": list(m.cell_of(h["cell"])) if h["cell"] >= 0 else None,
                                     "inspire": h["inspire"], "earthsplit": h["earthsplit"], "will": h["floor1"]}
                                    for h in own["heroes"][:m.team]]}
        return out

    def invariants(self, before: Mapping | None, action: tuple | None, after: Mapping) -> list[str]:
        """Names of the invariants broken by the step ``before`` -> ``action`` -> ``after``."""
        r, page = self.rules, self.page
        C = r.grid.size
        broken = []
        heroes = [(s, h) for s in (0, 1) for h in page.heroes(after, s)]
        if any(not 0 <= h["hp"] <= page.max_hp[h["cls"]] or (h["hp"] == 0) != (h["state"] == HS_DEAD)
               for _, h in heroes):
            broken.append("hp_bounds")
        if min(after["sides"][s]["energy"] for s in (0, 1)) < 0:
            broken.append("energy_nonnegative")
        start_terrain = r.terrain
        for c in range(C):
            t, v = after["terrain"][c], after["stock"][c]
            if v < 0 or (start_terrain[c] == T_VEIN and v == 0 and t != T_PLAIN) or (t == T_VEIN and v == 0):
                broken.append("vein_stock")
                break
        cells = [h["cell"] for _, h in heroes if h["state"] != HS_DEAD]
        if len(cells) != len(set(cells)):
            broken.append("one_hero_per_cell")
        towers = page.towers(after)
        for s, h in heroes:
            if h["state"] == HS_DEAD:
                continue
            b = towers.get(h["cell"])
            if h["cell"] < 0 or after["terrain"][h["cell"]] == T_BASE or (b is not None and b["side"] != s):
                broken.append("hero_cells")
                break
        spawns = set(r.spawns[0]) | set(r.spawns[1])
        for c in towers:
            if c in spawns or start_terrain[c] not in (T_PLAIN, T_VEIN) or after["terrain"][c] != T_PLAIN:
                broken.append("tower_cells")
                break
        for s in (0, 1):
            limit = after["hand_limit"][s]
            held = sum(after["sides"][s]["hand"])
            grew = before is None or held > sum(before["sides"][s]["hand"])
            if grew and held > limit:
                broken.append("hand_limit")
                break
        owed = after["revivals_owed"][:after["n_revivals_owed"]]
        if len(owed) > sum(1 for _, h in heroes if h["state"] == HS_DEAD):
            broken.append("revival_choice")
        if before is not None and action is not None and tuple(action)[:1] == ("revive",):
            rest = before["revivals_owed"][1:before["n_revivals_owed"]]
            if owed[:len(rest)] != rest:  # the choice made is gone, the others wait in order
                broken.append("revival_choice")
        if any(not 1 <= d <= r.settings["max_dice"] for d in after["dice"]):
            broken.append("dice_bounds")
        base_hp = [after["sides"][s]["base_hp"] for s in (0, 1)]
        if any(hp > r.settings["base_hp"] for hp in base_hp) or (after["winner"] < 0 and min(base_hp) <= 0):
            broken.append("base_hp")
        return broken + self.page.transition_problems(before, action, after)

    def legal_problems(self, snap: Mapping, legal: list) -> list[str]:
        """The page's legality clauses (steps, attacks in range) the offered actions break."""
        return self.page.legal_problems(snap, legal)

    def legal_difference(self, snap: Mapping, legal: list) -> str:
        """What is offered that the page does not allow, and the reverse (for a failure's text)."""
        return self.page.legal_difference(snap, legal)

    # -- positions at the clauses' edges ------------------------------------------------------------------

    def edge_positions(self, rng: np.random.Generator, count: int) -> list[dict]:
        """Up to ``count`` (at most 40) positions (``example_match`` words) at the page's edges: an enemy hero
        or tower at exactly the acting hero's range (or one beyond), a friendly tower next to it, an enemy
        Attack Tower two cells off, the hero at 1, 2 or 3 HP (an HP price's edge), energy 1..29 (the death
        penalty's rounding, Divine Grace's 4), a vein at its last yield, a Magic or Prayer Tower standing, normal
        cards in the acting side's hand and cards in the other's (its draw at its limit or below), the enemy
        hero whose turn comes next flipped or back at its base."""
        page = self.page
        decks = list(self.scenario.decks)
        names = ("first", "second")
        n = len(page.cube)
        parked = {page.cell_of[cell] for cell in self.PARK.values()}
        plain = [c for c in range(n) if self.rules.terrain[c] == T_PLAIN and c not in parked
                 and c not in set(self.rules.spawns[0]) | set(self.rules.spawns[1])]
        veins = [c for c in range(n) if self.rules.terrain[c] == T_VEIN]
        out = []
        for _ in range(min(count, 40)):
            first, second = (decks[int(i)] for i in rng.integers(0, len(decks), 2))
            side = int(rng.integers(0, 2))
            here = plain[int(rng.integers(len(plain)))] if rng.random() < 0.7 else veins[int(rng.integers(len(veins)))]
            taken = {here}
            cls = (first if side == 0 else second).split("+")[0]
            reach = page.range[page.classes.index(cls)] + int(rng.choice([0, 0, 1]))

            def at(d, taken=taken, here=here):
                cells = [c for c in plain if page.dist(here, c) == d and c not in taken]
                if not cells:
                    return None
                c = cells[int(rng.integers(len(cells)))]
                taken.add(c)
                return list(page.cube[c])

            heroes = [{"side": names[side], "hero": 0, "cell": list(page.cube[here]),
                       "hp": int(rng.choice([1, 2, 3, 5]))}]
            foe = at(reach)
            state = str(rng.choice(["board", "board", "flipped", "dead"])) if side == 0 else "board"
            if foe is not None and state != "dead":
                heroes.append({"side": names[1 - side], "hero": 0, "cell": foe, "hp": int(rng.choice([1, 2, 5])),
                               "state": state})
            elif state == "dead":  # back at its base: it revives at the start of its turn, next after this one
                heroes.append({"side": names[1 - side], "hero": 0, "state": "dead"})
            towers = []
            for kind, owner, d in (("Attack Tower", 1 - side, 2), ("Attack Tower", 1 - side, reach),
                                   ("Magic Tower", side, 1), ("Attack Tower", side, 1), ("Prayer Tower", side, 3)):
                cell = at(d) if rng.random() < 0.5 else None
                if cell is not None:
                    towers.append({"side": names[owner], "kind": kind, "cell": cell})
            normal = [c for c in CARDS if c not in COUNTER_CARDS]
            hands = {names[side]: [str(c) for c in rng.choice(normal, int(rng.integers(0, 4)))],
                     names[1 - side]: [str(c) for c in rng.choice(CARDS, int(rng.integers(0, 5)))]}
            given = {"first_deck": first, "second_deck": second, "seed": int(rng.integers(0, 1000)),
                     "heroes": heroes, "towers": towers, "hands": hands,
                     "energy": {names[side]: int(rng.integers(0, 30)), names[1 - side]: int(rng.integers(0, 30))},
                     "turn": {"side": names[side], "hero": 0, "points": int(rng.integers(1, 7))}}
            if here in veins and rng.random() < 0.5:
                given["stock"] = {",".join(map(str, page.cube[here])): int(rng.integers(1, 5))}
            out.append(given)
        return out


def _merge(data: dict, overrides: Mapping) -> None:
    """Merge ``overrides`` into ``data`` in place: tables key by key, to any depth; other values replace."""
    for key, value in overrides.items():
        if isinstance(value, Mapping) and isinstance(data.get(key), dict):
            _merge(data[key], value)
        else:
            data[key] = copy.deepcopy(value)
