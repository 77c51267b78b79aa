"""Magic War's invariants, for ``simkit check`` and :mod:`simkit.testing` (issue 31, item 6).

:meth:`MagicInvariants.invariants` takes two :meth:`~simkit.games.magic.match.Match.snapshot` values and
the action between them and returns the names of the invariants the step broke (empty when all hold).
The rule examples (``scenarios/magic/examples.toml``) are built and read in the page's words by
:meth:`MagicInvariants.example_match` and :meth:`MagicInvariants.example_values`.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping

import numpy as np

from simkit.core.errors import ScenarioError
from simkit.games.magic.armies import army_cost, check_seat, parse_army
from simkit.games.magic.transitions import CLAUSES, MagicPage
from simkit.scenario import scenario_from_data
from simkit.testing.rule_check import InvariantCheck

#: the metamorphic clauses (:meth:`MagicInvariants.metamorphic_problems`)
METAMORPHIC = {
    "relabelling_identical_units_changes_nothing": "3.3, 7.1: units of one type and side are interchangeable: "
                                                   "listing them in another order plays the same game",
    "mirror_with_seats_swapped_plays_the_mirrored_game": "2 (symmetry (c, r) -> (c, 5 - r) swapping the sides): "
                                                         "the mirrored position with the seats swapped and the same "
                                                         "dice plays the mirrored game",
}

NAMES = ("hp_bounds", "one_unit_per_cell", "budget_and_units", "leader_immune", "magic_nonnegative",
         "magic_delayed", "draw_cap", *CLAUSES, *METAMORPHIC)


class MagicInvariants(InvariantCheck):
    """The game's invariants over snapshots.

    * ``hp_bounds``: every unit's HP within 0..max; a live unit has HP above 0 (markers below HP) while the
      game goes on (a destroyed leader ends it before later deaths are resolved [R33]);
    * ``one_unit_per_cell``: live units stand on distinct cells, inside the board;
    * ``budget_and_units``: each army within its seat's budget and 1..9 units; the bought units in the game are
      never more than its army's, card by card (a dead one's place may go to a summoned unit, 8.2), and an
      action never adds one (only summons add units);
    * ``leader_immune``: no leader loses HP during the immune turns [R14];
    * ``magic_nonnegative``: active and stored magic never below 0;
    * ``magic_delayed``: active magic grows only when the owner's turn starts (gains wait a turn [R23]);
    * ``draw_cap``: tactical cards drawn never pass the cap, the cap is 4 or (after an unlock) 5, and a hand
      never holds more than was drawn;
    * then the rules page's clauses, restated over snapshots by :mod:`simkit.games.magic.transitions`
      (what each kind of action must change and must not; which single attacks are legal), and positions
      at the clauses' edges (:meth:`edge_positions`).

    Args:
        scenario: the loaded Magic War scenario.
    """

    names = NAMES

    def __init__(self, scenario):
        self.scenario = scenario
        self.rules = scenario.rules
        self.page = MagicPage(scenario.data)
        self.clauses = {**CLAUSES, **METAMORPHIC}
        self._variants: dict = {}

    # -- rule examples (simkit.testing.examples) ---------------------------------------------------------

    def _variant(self, overrides: Mapping | None):
        """The scenario with ``overrides`` merged into its data (tables merged key by key, to any depth), and its
        page: ``(scenario, page)``, built once per distinct overrides."""
        if not overrides:
            return self.scenario, self.page
        key = json.dumps(overrides, sort_keys=True)
        if key not in self._variants:
            data = copy.deepcopy(self.scenario.data)
            _merge(data, overrides)
            sc = scenario_from_data(data, str(self.scenario.path))
            self._variants[key] = sc, MagicPage(sc.data)
        return self._variants[key]

    def example_match(self, given: Mapping):
        """A match in the main phase with exactly the ``units`` given: entries ``{side, type, cell = [c, r],
        markers}`` (``side`` "first" or "second"); ``turn`` (global turn, default 3; its parity names the
        seat to act unless ``to_act``), ``faces`` (the dice to come, in order), ``magic = {first = [active,
        stored], ...}``, ``hands = {first = n, ...}`` (tactical cards held), ``drawn = {first = n, ...}`` (cards
        drawn in the game, at least those held), ``first_deck`` / ``second_deck``; ``scenario = {table = {key =
        value}}``: the example's own rules (merged into the scenario's, e.g. ``{combat = {ranged_shape =
        "manhattan"}}``). With ``deploy = true`` the match is new, at its deployment (the decks', ``seed``)."""
        known = {"units", "turn", "to_act", "faces", "magic", "hands", "drawn", "first_deck", "second_deck",
                 "scenario", "deploy", "seed"}
        if set(given) - known:
            raise ValueError(f"unknown word {sorted(set(given) - known)[0]!r} (known: {', '.join(sorted(known))})")
        side_of = {"first": 0, "second": 1}
        sc, page = self._variant(given.get("scenario"))
        first, second = given.get("first_deck", "Orc:Goblin"), given.get("second_deck", "Orc:Goblin*2,Ogre")
        if given.get("deploy"):
            return sc.game.new_match(first, second, seed=int(given.get("seed", 0)))
        m = sc.game.new_match(first, second, seed=0)
        magic, hands, drawn = given.get("magic", {}), given.get("hands", {}), given.get("drawn", {})
        turn = int(given.get("turn", 3))
        m.set_position([(side_of[u["side"]], u["type"], tuple(u["cell"]), int(u.get("markers", 0)))
                        for u in given.get("units", [])], turn=turn,
                       to_act=side_of[given["to_act"]] if "to_act" in given else None,
                       dice_key=_tape_key(page, list(given["faces"])) if given.get("faces") else 12345,
                       magic=[tuple(magic.get(name, (0, 0))) for name in side_of],
                       hands=[int(hands.get(name, 0)) for name in side_of],
                       drawn=[int(drawn.get(name, 0)) for name in side_of])
        m.seed = -1  # a position written in words: no army to check
        return m

    def example_values(self, m) -> dict:
        """The position in the page's words: ``units."c,r"`` (``type``, ``side``, ``hp``, ``markers``, ``moved``,
        ``attacked``, ``effects`` [dice, precision, move given this turn], ``summoned``) for the live units (a
        cell with none is absent), ``first.active_magic``, ``first.stored_magic``, ``first.hand`` (cards held),
        ``first.cards`` (their ids), ``first.drawn``, ``first.cap``, ``first.unlocks``, ``first.cards_used``,
        ``first.to_place``, ``first.units`` (its live units, the leader's included; the same for ``second``),
        ``dice_rolled``, ``turn``, ``phase``, ``to_act``, ``winner``, ``end_reason``."""
        snap = self._variant_page(m).words(m.snapshot())
        names = ("first", "second")
        out = {k: snap[k] for k in snap if k in ("turn", "winner", "end_reason", "dice_rolled", "phase")}
        out["to_act"] = names[snap["to_act"]] if snap["phase"] != "over" else None
        out["units"] = {",".join(map(str, u["cell"])): {
            "type": u["type"], "side": names[u["side"]], "hp": u["hp"], "markers": u["markers"], "moved": u["moved"],
            "attacked": u["attacked"], "effects": u["effects"], "summoned": u["summoned"]}
            for u in snap["units"] if u["state"] == "alive" and u["cell"] is not None}
        for p, name in enumerate(names):
            q = snap["players"][p]
            out[name] = {"active_magic": q["active_magic"], "stored_magic": q["stored_magic"],
                         "hand": len(q["hand"]), "cards": q["hand"], "drawn": q["drawn"], "cap": q["cap"],
                         "unlocks": q["unlocks"], "cards_used": q["cards_used"], "to_place": q["to_place"],
                         "units": sum(u["state"] == "alive" and u["side"] == p for u in snap["units"])}
        return out

    def _variant_page(self, m) -> MagicPage:
        """The page of the scenario match ``m`` plays (an example's own rules, or the scenario's)."""
        if m.scenario is self.scenario:
            return self.page
        return next((page for sc, page in self._variants.values() if sc is m.scenario), None) or MagicPage(
            m.scenario.data)

    def invariants(self, before: Mapping | None, action: tuple | None, after: Mapping) -> list[str]:
        """Names of the invariants broken by the step ``before`` -> ``action`` -> ``after``."""
        r, page = self.rules, self.page
        before, after = page.words(before) if before is not None else None, page.words(after)
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
        for seat, deck in enumerate(after["decks"] if after["seed"] >= 0 else ()):  # a position in words: no army
            try:
                check_seat(r, deck, seat)
                _, counts = parse_army(r, deck)
            except ScenarioError:
                ok = False
                continue
            leader = r.leaders[deck.split(":")[0]]
            bought = [u["type"] for u in units if u["side"] == seat and not u["summoned"] and u["type"] != leader]
            if any(bought.count(name) > n for name, n in counts.items()) or set(bought) - set(counts) or \
                    sum(counts.values()) > int(r.packed.max_units) or \
                    army_cost(r, counts) != after["players"][seat]["army_value"]:
                ok = False
        if before is not None:  # a bought unit is one that was there before, in the same place
            was = {u["slot"]: (u["type"], u["side"]) for u in before["units"] if not u["summoned"]}
            if any(was.get(u["slot"]) != (u["type"], u["side"]) for u in units if not u["summoned"]):
                ok = False
        if not ok:
            broken.append("budget_and_units")
        if before is not None and 1 <= after["turn"] <= page.immune_turns:
            for ub, ua in zip(before["units"], after["units"]):
                if page.is_leader(ua) and ua["hp"] < ub["hp"]:
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
        tactics = self.scenario.data["tactics"]
        caps = (int(tactics.get("cap", 4)), int(tactics.get("unlocked_cap", 5)))
        for p in after["players"]:
            if p["drawn"] > p["cap"] or p["cap"] not in caps or len(p["hand"]) > p["drawn"]:
                broken.append("draw_cap")
                break
        return broken + self.page.transition_problems(before, action, after)

    def _offers(self, snap: Mapping, legal: list) -> dict[str, tuple[set, set]]:
        """Per legality clause, ``(offered, allowed by the page)``: single and combined attacks, skill uses,
        moves, placements."""
        snap, page = self.page.words(snap), self.page
        offered: dict[str, set] = {k: set() for k in ("place", "move", "attack", "combined", "skill", "end")}
        for a in legal:
            offered["combined" if a[0] == "attack" and len(a) > 3 else a[0]].add(tuple(a))
        return {"attack_targets_follow_the_page": (offered["attack"], page.attacks_by_the_page(snap)),
                "combined_attacks_follow_the_page": (offered["combined"], page.combined_by_the_page(snap)),
                "skill_uses_follow_the_page": (offered["skill"], page.skill_uses_by_the_page(snap)),
                "moves_follow_the_page": (offered["move"], page.moves_by_the_page(snap)),
                "placements_follow_the_page": (offered["place"], page.placements_by_the_page(snap))}

    def legal_problems(self, snap: Mapping, legal: list) -> list[str]:
        """The legality clauses whose actions offered differ from the page's."""
        if len(legal) >= 4000:  # the engine's list may be cut short (combined attacks): nothing to compare
            return []
        return [name for name, (got, page) in self._offers(snap, legal).items() if got != page]

    def legal_difference(self, snap: Mapping, legal: list) -> str:
        """The actions offered but not allowed, and the reverse (for a failure's text)."""
        return "; ".join(f"{name}: offered but not allowed: {sorted(got - page)}; allowed but not offered: "
                         f"{sorted(page - got)}" for name, (got, page) in self._offers(snap, legal).items()
                         if got != page)

    # -- metamorphic checks -------------------------------------------------------------------------------

    def metamorphic_problems(self, given: Mapping, actions: int = 6) -> list[str]:
        """The metamorphic clauses (:data:`METAMORPHIC`) the position ``given`` breaks, over up to ``actions``
        of its legal actions: the same position with its identical units listed in reverse order (each side's
        units of one type), and its mirror ``(c, r) -> (c, rows - 1 - r)`` with the seats swapped (the same
        dice tape; the tape is keyed by the game, not by a seat, so the mirror needs no mirrored dice). The
        mirror is skipped where the page orders by cell (a splasher's targets roll in ascending cell order,
        which the mirror reverses) and at the turn limit (its tie-break is not symmetric)."""
        m = self.example_match(given)
        legal = m.legal_actions()
        picks = legal[:: max(1, len(legal) // actions)][:actions]
        broken = []
        groups: dict = {}
        for k, u in enumerate(given["units"]):
            groups.setdefault((u["side"], u["type"]), []).append(k)
        order = list(range(len(given["units"])))
        for ks in groups.values():
            for k, j in zip(ks, reversed(ks)):
                order[k] = j
        relabelled = {**given, "units": [given["units"][j] for j in order]}
        if self._differ(given, relabelled, picks, lambda a: a, lambda v: v):
            broken.append("relabelling_identical_units_changes_nothing")
        splash = any(self.page.skills[s]["kind"] == "splash_on_clustered" for u in given["units"]
                     for s in self.page.units[u["type"]].get("skills", []))
        if not splash and int(given.get("turn", 3)) < int(self.scenario.data["rules"]["turn_limit"]):
            rows = self.page.rows
            flip = {"first": "second", "second": "first"}
            mirrored = {**given, "units": [{**u, "side": flip[u["side"]],
                                            "cell": [u["cell"][0], rows - 1 - u["cell"][1]]} for u in given["units"]],
                        "to_act": flip[given.get("to_act", SEATS_[(int(given.get("turn", 3)) - 1) % 2])]}
            for word in ("magic", "hands"):
                if word in given:
                    mirrored[word] = {flip[k]: v for k, v in given[word].items()}

            def cell(x):
                return (x[0], rows - 1 - x[1])

            def action(a):
                out = [a[0]]
                for x in a[1:]:
                    if isinstance(x, tuple) and x and isinstance(x[0], tuple):
                        out.append(tuple(sorted((cell(y) for y in x), key=lambda y: (y[1], y[0]))))  # cell order
                    else:
                        out.append(cell(x) if isinstance(x, tuple) and len(x) == 2 else x)
                return tuple(out)

            def values(v):
                out = {k: v[k] for k in v if k not in ("units", "first", "second", "to_act", "winner")}
                out["first"], out["second"] = v["second"], v["first"]
                out["to_act"] = flip.get(v["to_act"])
                out["winner"] = flip.get(v["winner"], v["winner"])
                out["units"] = {f"{c},{rows - 1 - int(r)}": {**u, "side": flip[u["side"]]}
                                for c, r, u in ((*k.split(","), u) for k, u in v["units"].items())}
                return out

            if self._differ(given, mirrored, picks, action, values):
                broken.append("mirror_with_seats_swapped_plays_the_mirrored_game")
        return broken

    def _differ(self, given, other, picks, action_map, value_map) -> bool:
        """True when an action of ``picks`` from ``given`` and its image from ``other`` part."""
        for a in picks:
            m, n = self.example_match(given), self.example_match(other)
            m.do(a)
            try:
                n.do(action_map(a))
            except Exception:  # the image refused: the games part
                return True
            if _no_card_ids(value_map(self.example_values(m))) != _no_card_ids(self.example_values(n)):
                return True
        return False

    # -- positions at the clauses' edges ------------------------------------------------------------------

    def edge_positions(self, rng: np.random.Generator, count: int) -> list[dict]:
        """Up to ``count`` (at most 60) positions (``example_match`` words) near the page's edges: an enemy
        at exactly a unit's range in its line (and one cell beyond, and with a unit between), units at 1 HP,
        the last immune turn and the first after it, two units of one aura type around a target, a
        splasher's ring holding friends and enemies."""
        page = self.page
        races = {name: race for name, race in self.scenario.data["races"].items()
                 if any(u["type"] == "leader" for u in race["units"].values())}
        out = []
        cells = [(c, r) for r in range(page.rows) for c in range(page.cols)]
        for _ in range(min(count, 60)):
            names = list(races)
            race = [names[int(i)] for i in rng.integers(0, len(names), 2)]
            units, taken = [], set()
            for side in (0, 1):
                leader = next(n for n, u in races[race[side]]["units"].items() if u["type"] == "leader")
                troops = sorted(n for n, u in races[race[side]]["units"].items() if u["type"] != "leader")
                crown = tuple(self.scenario.data["rules"]["leader_cells"][side])
                picks = [leader] + [troops[int(i)] for i in rng.integers(0, len(troops), int(rng.integers(2, 7)))]
                for k, name in enumerate(picks):
                    free = [c for c in cells if c not in taken]
                    cell = crown if k == 0 and rng.random() < 0.5 and crown not in taken else free[
                        int(rng.integers(len(free)))]
                    taken.add(cell)
                    hp = int(page.units[name]["hp"])
                    markers = int(rng.choice([0, 0, hp - 1, max(0, hp - 2)]))
                    units.append({"side": SEATS_[side], "type": name, "cell": list(cell), "markers": markers})
            # an enemy at exactly an attacker's range, in its line
            me = int(rng.integers(0, 2))
            mine = [u for u in units if u["side"] == SEATS_[me]]
            a = mine[int(rng.integers(len(mine)))]
            card = page.units[a["type"]]
            reach = int(card.get("range", page.melee_range)) if card["attack_type"] == "ranged" else page.melee_range
            reach += int(rng.choice([0, 0, 1]))
            dc, dr = [(1, 0), (-1, 0), (0, 1), (0, -1)][int(rng.integers(4))]
            spot = (a["cell"][0] + dc * reach, a["cell"][1] + dr * reach)
            foes = [u for u in units if u["side"] != a["side"]]
            if 0 <= spot[0] < page.cols and 0 <= spot[1] < page.rows and tuple(spot) not in taken:
                foe = foes[int(rng.integers(len(foes)))]
                taken.discard(tuple(foe["cell"]))
                foe["cell"] = list(spot)
                taken.add(spot)
            immune = page.immune_turns
            turn = int(rng.choice([immune, immune + 1, immune + 2, 2 * int(rng.integers(2, 20)) + me - 1]))
            if (turn - 1) % 2 != me:
                turn += 1
            out.append({"units": units, "turn": max(1, turn), "to_act": SEATS_[me]})
        return out


SEATS_ = ("first", "second")


def _no_card_ids(values: dict) -> dict:
    """Example values without the ids of the cards held: which card a seat draws depends on the seats' order
    when both draw after one action [S5], so a mirror with the seats swapped may deal them the other way."""
    return {k: ({kk: vv for kk, vv in v.items() if kk != "cards"} if k in ("first", "second") else v)
            for k, v in values.items()}


def _merge(data: dict, overrides: Mapping) -> None:
    """Merge ``overrides`` into ``data`` in place: tables key by key, to any depth; other values replace."""
    for key, value in overrides.items():
        if isinstance(value, Mapping) and isinstance(data.get(key), dict):
            _merge(data[key], value)
        else:
            data[key] = copy.deepcopy(value)



def _tape_key(page: MagicPage, faces: list[int]) -> int:
    """A dice-stream key whose tape starts with ``faces`` (searched with the page's dice, each face 1..sides)."""
    for key in range(1, 10_000_000):
        if all(page.face(key, k) == f for k, f in enumerate(faces)):
            return key
    raise ValueError(f"faces: no dice stream starts with {faces}")
