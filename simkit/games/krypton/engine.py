"""The rules of Krypton Tower War, once: a game state and the actions that change it.

The engine is plain Python over small lists (a game is a few hundred decisions; the map has 127
cells). Every rule is a method of :class:`Game`; :meth:`Game.legal_actions` lists the decisions owed
now and :meth:`Game.do` makes one, refusing anything else with :class:`simkit.IllegalAction` and
leaving the game unchanged. After each action the engine runs everything automatic (draws,
preparation, dice, tower hits, deaths) up to the next decision.

Who decides (:attr:`Game.to_act`): the side whose hero turn it is, except inside an attack judgment's
counter windows (the defending side, only while it holds a counter card it may play there) and for a
revival choice (the side of the hero that died, whichever side is acting).

Actions are tuples; a cell is written by its cube coordinates ``x, y, z``:

* ``("step", x, y, z)``: the acting hero enters the adjacent cell (move phase).
* ``("attack", x, y, z)``: hero action, attack the enemy hero, tower or base on that cell.
* ``("gather",)``, ``("build", tower)``, ``("standby",)``: the other hero actions.
* ``("upgrade",)``: player action, upgrade the own base one tier.
* ``("play", card)`` or ``("play", card, x, y, z)``: play a magic card (its target cell if it has one).
* ``("pass",)``: close a counter window without playing (more) cards.
* ``("revive", "base")`` / ``("revive", "place")``: the revival choice for a hero that just died.
* ``("end",)``: end the hero turn (its end phase follows).

Randomness: one counter-based stream per game (``derive_seed(seed, "krypton")`` then one
:func:`simkit.games.kits.rng.derive_seed` per draw), so a game depends only on its seed and its actions.
"""

from __future__ import annotations

import copy

from simkit.errors import IllegalAction
from simkit.games.kits.rng import derive_seed
from simkit.games.krypton.tables import (
    COUNTER_CARDS,
    SIDE_NAMES,
    T_BASE,
    T_FOREST,
    T_HILL,
    T_PLAIN,
    T_VEIN,
    Rules,
    parse_loadout,
)

WINNERS = ("first", "second", "draw")

# counter windows of an attack judgment, in order, and the cards each accepts
W_DECLARE, W_COMPARE, W_UNITY, W_DAMAGE = "declare", "compare", "unity", "damage"
WINDOW_CARDS = {
    W_DECLARE: ("Space Swap",),
    W_COMPARE: ("Curse",),
    W_UNITY: ("Power of Unity",),
    W_DAMAGE: ("Unyielding Will", "Pursuit", "Same End"),
}
TARGETED = {"Ignite": "enemy_hero", "Earthsplit": "enemy_hero", "Inspire": "own_hero", "Divine Grace": "own_hero",
            "Iron Wall": "own_tower", "Space Swap": "own_tower"}


_TABLES: dict = {}


def _tables(rules: Rules) -> tuple[list[list[int]], list[list[int]]]:
    """The grid's distance and neighbour tables as nested lists (numpy scalar indexing is slow in a loop)."""
    key = id(rules.grid)
    if key not in _TABLES:
        nbr = [[int(n) for n in row if n >= 0] for row in rules.grid.neighbors]
        _TABLES[key] = (rules.grid, rules.grid.distance.tolist(), nbr)
    return _TABLES[key][1], _TABLES[key][2]


class Game:
    """One game of Krypton Tower War between two loadouts (seat 0 acts first).

    Args:
        rules: the scenario's :class:`~simkit.games.krypton.tables.Rules`.
        loadouts: the two loadout ids (seat 0's, seat 1's).
        seed: the game's seed (dice and shuffles).
    """

    def __init__(self, rules: Rules, loadouts: tuple[str, str], seed: int = 0):
        self.rules = rules
        st = rules.settings
        self._dist, self.nbr = _tables(rules)
        self.loadouts = tuple("+".join(parse_loadout(rules, d)) for d in loadouts)
        self.key = derive_seed(int(seed), "krypton")
        self.ctr = 0
        self.terrain = [int(t) for t in rules.terrain]
        self.stock = [int(v) for v in rules.stock]
        self.heroes = []
        for side in (0, 1):
            team, seen = [], {}
            for k, cls in enumerate(self.loadouts[side].split("+")):
                copy_no = seen.get(cls, 0)
                seen[cls] = copy_no + 1
                hc = rules.classes[cls]
                team.append({
                    "cls": cls, "name": hc.variants[side][copy_no], "hp": hc.hp, "cell": rules.spawns[side][k],
                    "state": "board", "inspire": 0, "earthsplit": False, "floor1": False,
                })
            self.heroes.append(team)
        self.buildings: dict[int, dict] = {}  # cell -> {side, kind, hp, iron}
        self.base_hp = [st["base_hp"], st["base_hp"]]
        self.base_tier = [1, 1]
        self.energy = [st["start_energy"], st["start_energy"]]
        self.hands: list[list[str]] = [[], []]
        pile = [c for c, n in rules.copies.items() for _ in range(n)]
        self.pile = self._shuffled(pile)
        self.discard: list[str] = []
        self.curse = [0, 0]  # Curse plays against each side's heroes this turn
        self.turn = -1  # hero turn counter (0-based); side = turn % 2, hero = turn // 2 % team
        self.t: dict = {}  # the hero turn's state
        self.judgment: dict | None = None
        self.pending: list[dict] = []  # revival choices owed, in order
        self.winner: int | None = None  # 0, 1, 2 (draw); None while playing
        self.end_reason: str | None = None
        self.stats = [self._zero_stats() for _ in (0, 1)]
        self.events: list[tuple] = []
        self._next_turn()
        self._settle()

    # -- bookkeeping ----------------------------------------------------------------------------

    @staticmethod
    def _zero_stats() -> dict:
        return {"energy_mined": 0, "heroes_lost": 0, "revivals": 0, "revivals_in_place": 0, "towers_built": 0,
                "towers_lost": 0, "cards_played": 0, "upgrades": 0, "attacks": 0, "base_damage": 0,
                "built": {}, "played": {}}

    def _rand(self, n: int) -> int:
        """A number in ``0..n-1`` from the game's stream."""
        self.ctr += 1
        return derive_seed(self.key, self.ctr) % n

    def _die(self) -> int:
        return 1 + self._rand(self.rules.settings["dice_sides"])

    def _shuffled(self, cards: list) -> list:
        cards = list(cards)
        for i in range(len(cards) - 1, 0, -1):
            j = self._rand(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        return cards

    def _log(self, *event) -> None:
        self.events.append((self.turn,) + event)

    @property
    def team(self) -> int:
        return self.rules.team_size

    @property
    def side(self) -> int:
        """The side whose hero turn it is."""
        return self.turn % 2

    @property
    def hero_index(self) -> int:
        """The acting hero's index in its team."""
        return self.turn // 2 % self.team

    @property
    def round(self) -> int:
        """The round being played (1-based)."""
        return self.turn // (2 * self.team) + 1

    @property
    def over(self) -> bool:
        return self.winner is not None

    def acting(self) -> dict:
        return self.heroes[self.side][self.hero_index]

    def cell_of(self, i: int) -> tuple[int, int, int]:
        return self.rules.grid.cell(i)

    def index_of(self, x: int, y: int, z: int) -> int:
        return self.rules.grid.index((x, y, z))

    def dist(self, a: int, b: int) -> int:
        return self._dist[a][b]

    def hero_at(self, cell: int) -> tuple[int, int] | None:
        """``(side, index)`` of the hero on ``cell`` (on the board), else ``None``."""
        for s in (0, 1):
            for k, h in enumerate(self.heroes[s]):
                if h["state"] != "dead" and h["cell"] == cell:
                    return s, k
        return None

    def on_board(self, h: dict) -> bool:
        return h["state"] != "dead"

    def towers_of(self, side: int, effect: str | None = None) -> list[int]:
        return [c for c, b in self.buildings.items() if b["side"] == side and
                (effect is None or self.rules.towers[b["kind"]].effect == effect)]

    def dice_count(self, side: int) -> int:
        return min(self.rules.settings["max_dice"], 1 + len(self.towers_of(side, "dice")))

    def hand_limit(self, side: int) -> int:
        return self.rules.settings["hand_limit"] + len(self.towers_of(side, "hand"))

    def terrain_points(self, cell: int) -> int:
        return self.rules.cost_of(self.terrain[cell])

    def base_defense(self, side: int) -> int:
        return self.rules.base_defense[self.base_tier[side] - 1]

    def enterable(self, cell: int, side: int) -> bool:
        """A hero of ``side`` may enter ``cell``: not a base, no hero, no enemy building."""
        if self.terrain[cell] == T_BASE or self.hero_at(cell) is not None:
            return False
        b = self.buildings.get(cell)
        return b is None or b["side"] == side

    def buildable(self, cell: int) -> bool:
        """A tower may stand on ``cell``: plain (a spent vein included), no spawn point, no building."""
        return (self.terrain[cell] == T_PLAIN and cell not in self.rules.spawns[0] and cell not in self.rules.spawns[1]
                and cell not in self.buildings)

    def attackers_of(self, side: int) -> list[int]:
        """Cells whose attack hits heroes of ``side``: the enemy's Attack Towers and the enemy base."""
        return self.towers_of(1 - side, "attack") + [self.rules.bases[1 - side]]

    # -- snapshots ------------------------------------------------------------------------------

    def snapshot(self) -> dict:
        """The whole game as plain values (equal snapshots: equal games)."""
        return {
            "loadouts": list(self.loadouts), "ctr": self.ctr, "terrain": list(self.terrain), "stock": list(self.stock),
            "heroes": copy.deepcopy(self.heroes), "buildings": {int(c): dict(b) for c, b in self.buildings.items()},
            "base_hp": list(self.base_hp), "base_tier": list(self.base_tier), "energy": list(self.energy),
            "hands": [list(h) for h in self.hands], "pile": list(self.pile), "discard": list(self.discard),
            "curse": list(self.curse), "turn": self.turn, "round": self.round, "side": self.side,
            "hero": self.hero_index, "t": copy.deepcopy(self.t), "judgment": copy.deepcopy(self.judgment),
            "pending": copy.deepcopy(self.pending), "winner": None if self.winner is None else WINNERS[self.winner],
            "end_reason": self.end_reason, "to_act": None if self.over else self.to_act,
            "dice": [self.dice_count(0), self.dice_count(1)], "hand_limit": [self.hand_limit(0), self.hand_limit(1)],
        }

    def copy(self) -> Game:
        other = copy.copy(self)
        for k in ("terrain", "stock", "heroes", "buildings", "base_hp", "base_tier", "energy", "hands", "pile",
                  "discard", "curse", "t", "judgment", "pending", "stats"):
            setattr(other, k, copy.deepcopy(getattr(self, k)))
        other.events = list(self.events)
        return other

    # -- turn flow ------------------------------------------------------------------------------

    def _next_turn(self) -> None:
        """Start the next hero turn: draw, preparation, movement roll; skip turns that cannot be played."""
        while True:
            self.turn += 1
            if self.turn >= 2 * self.team * self.rules.settings["max_rounds"]:
                self._end_by_cap()
                return
            side, h = self.side, self.acting()
            self.t = {"roll": 0, "points": 0, "acted": False, "shuttle": False, "pact": False, "blood": False,
                      "blood_left": [], "ending": False}
            # 0. draw
            if len(self.hands[side]) < self.hand_limit(side):
                if not self.pile and self.discard:
                    self.pile = self._shuffled(self.discard)
                    self.discard = []
                if self.pile:
                    self.hands[side].append(self.pile.pop())
            # 1. preparation
            for b in self.buildings.values():
                if b["side"] == side:
                    b["iron"] = False
            if h["state"] == "dead":
                free = [c for c in self.rules.spawns[side] if self.hero_at(c) is None and c not in self.buildings]
                if not free:
                    self._log("no_spawn", side, self.hero_index)
                    continue
                h.update(state="board", cell=free[0], hp=self.rules.classes[h["cls"]].hp)
                self._log("return", side, self.hero_index, free[0])
            elif h["state"] == "flipped":
                h["state"] = "board"
                self._log("unflip", side, self.hero_index)
                continue
            # 2. move: the roll
            roll = self._die()
            pts = roll
            if self.rules.classes[h["cls"]].move == "knight":
                if self.terrain[h["cell"]] in (T_PLAIN, T_VEIN):
                    pts = roll + self.rules.settings["knight_plain_bonus"]
                else:
                    pts = max(0, roll - self.rules.settings["knight_other_malus"])
            self.t["roll"], self.t["points"] = roll, pts
            self._log("roll", side, self.hero_index, roll, pts)
            return

    def _end_by_cap(self) -> None:
        self.turn = 2 * self.team * self.rules.settings["max_rounds"] - 1
        self.end_reason = "turn_limit"
        if self.rules.settings["turn_limit_result"] == "base_hp" and self.base_hp[0] != self.base_hp[1]:
            self.winner = 0 if self.base_hp[0] > self.base_hp[1] else 1
        else:
            self.winner = 2
        self._log("cap", self.winner)

    def _end_turn_effects(self) -> None:
        for team in self.heroes:
            for h in team:
                h["inspire"], h["earthsplit"], h["floor1"] = 0, False, False
        self.curse = [0, 0]

    def _settle(self) -> None:
        """Run what is automatic until a decision is owed (or the game is over)."""
        while not self.over:
            if self.pending:
                return
            if self.judgment is not None:
                if self._window_open():
                    return
                self._advance_judgment()
                continue
            if self.t["ending"] or not self.on_board(self.acting()) or self.acting()["state"] == "flipped":
                self._end_turn_effects()
                self._next_turn()
                continue
            return

    @property
    def to_act(self) -> int:
        """The seat whose decision is owed now."""
        if self.pending:
            return self.pending[0]["side"]
        if self.judgment is not None:
            return self.judgment["defender"]
        return self.side

    # -- damage and death -----------------------------------------------------------------------

    def damage_hero(self, side: int, k: int, amount: int, source: str) -> int:
        """``amount`` damage to hero ``k`` of ``side``; returns the HP it actually lost. Death follows at once."""
        h = self.heroes[side][k]
        if not self.on_board(h) or amount <= 0:
            return 0
        before = h["hp"]
        after = before - amount
        if h["floor1"]:
            after = max(after, min(1, before))
        h["hp"] = max(after, 0)
        lost = before - h["hp"]
        self._log("damage", side, k, lost, source)
        if after <= 0:
            self._die_hero(side, k)
        return lost

    def _die_hero(self, side: int, k: int) -> None:
        h = self.heroes[side][k]
        h["hp"] = 0
        h["state"] = "dead"
        give = self.energy[side] // self.rules.settings["death_penalty_divisor"]
        self.energy[side] -= give
        self.energy[1 - side] += give
        self.stats[side]["heroes_lost"] += 1
        self._log("death", side, k, h["cell"], give)
        self.pending.append({"kind": "revive", "side": side, "hero": k, "cell": h["cell"]})

    def _building_attack(self, side: int, k: int, source: str) -> None:
        """Attack Towers and the base of the enemy hit hero ``k`` of ``side`` if it is in their range."""
        h = self.heroes[side][k]
        rng = self.rules.settings["building_attack_range"]
        for c in self.attackers_of(side):
            if self.on_board(h) and self.dist(h["cell"], c) <= rng:
                self.damage_hero(side, k, self.rules.settings["building_attack"], source)

    # -- legal actions --------------------------------------------------------------------------

    def legal_actions(self) -> list[tuple]:
        """Every decision legal now, for :attr:`to_act` (empty once the game is over)."""
        if self.over:
            return []
        if self.pending:
            return [("revive", "base"), ("revive", "place")]
        if self.judgment is not None:
            return self._window_actions()
        side, h = self.side, self.acting()
        cell = h["cell"]
        out: list[tuple] = []
        if self.t["blood_left"]:
            return [("attack",) + self.cell_of(c) for c in self.t["blood_left"]]
        if not self.t["acted"]:
            for n in self.nbr[cell]:
                if self.enterable(n, side) and self.step_cost(n) <= self.t["points"]:
                    out.append(("step",) + self.cell_of(n))
            for c in self.attack_targets(side, self.hero_index):
                out.append(("attack",) + self.cell_of(c))
            if self.terrain[cell] == T_VEIN and self.stock[cell] > 0:
                out.append(("gather",))
            if self.buildable(cell):
                for name, tw in self.rules.towers.items():
                    if self.energy[side] >= tw.cost and (tw.effect != "dice" or
                                                         self.base_tier[side] >= self.rules.prayer_tier):
                        out.append(("build", name))
            out.append(("standby",))
        tier = self.base_tier[side]
        if tier < len(self.rules.base_defense) and self.energy[side] >= self.rules.upgrade_cost[tier - 1]:
            out.append(("upgrade",))
        for card in sorted(set(self.hands[side])):
            out.extend(self._normal_plays(card))
        out.append(("end",))
        return out

    def step_cost(self, cell: int) -> int:
        return 1 if self.t.get("shuttle") else self.terrain_points(cell)

    def attack_targets(self, side: int, k: int) -> list[int]:
        """Cells of the enemy heroes, towers and base within hero ``k``'s range."""
        h = self.heroes[side][k]
        rng = self.rules.classes[h["cls"]].range
        out = []
        for e in self.heroes[1 - side]:
            if self.on_board(e) and self.dist(h["cell"], e["cell"]) <= rng:
                out.append(e["cell"])
        for c in sorted(self.towers_of(1 - side)):
            if self.dist(h["cell"], c) <= rng:
                out.append(c)
        base = self.rules.bases[1 - side]
        if self.dist(h["cell"], base) <= rng:
            out.append(base)
        return out

    def _normal_plays(self, card: str) -> list[tuple]:
        side, h = self.side, self.acting()
        mg = self.rules.settings
        kind = TARGETED.get(card)
        if card in COUNTER_CARDS:
            return []
        if kind == "enemy_hero":
            return [("play", card) + self.cell_of(e["cell"]) for e in self.heroes[1 - side] if self.on_board(e)]
        if kind == "own_hero":
            if card == "Divine Grace" and self.energy[side] < mg["heal_energy"]:
                return []
            return [("play", card) + self.cell_of(e["cell"]) for e in self.heroes[side] if self.on_board(e)]
        if kind == "own_tower":
            return [("play", card) + self.cell_of(c) for c in sorted(self.towers_of(side))]
        if card == "Blood Battle":
            ok = not self.t["acted"] and not self.t["blood"] and h["hp"] >= mg["hp_price_min"]
            return [("play", card)] if ok else []
        if card == "Satan's Pact":
            return [("play", card)] if not self.t["pact"] and h["hp"] >= mg["hp_price_min"] else []
        if card == "Shuttle":
            return [("play", card)] if not self.t["acted"] and not self.t["shuttle"] else []
        return [("play", card)]  # Firestorm, Cataclysm

    # -- attack judgments -----------------------------------------------------------------------

    def _start_attack(self, target: int) -> None:
        side, k = self.side, self.hero_index
        hit = self.hero_at(target)
        if hit is not None:
            tgt = ("hero", hit[0], hit[1])
        elif target in self.buildings:
            tgt = ("tower", target)
        else:
            tgt = ("base", 1 - side)
        self.stats[side]["attacks"] += 1
        self.judgment = {"attacker": k, "side": side, "defender": 1 - side, "target": list(tgt), "cell": target,
                         "window": W_DECLARE, "a_dice": [], "d_dice": [], "unity": 0, "totals": None,
                         "same_end": False, "closed": [], "loser": None, "d": 0}
        self._log("attack", side, k, target, tgt[0])

    def _window_cards(self) -> list[str]:
        """Counter cards the defender may play in the open window now."""
        j = self.judgment
        d = j["defender"]
        w = j["window"]
        if w is None or w in j["closed"]:
            return []
        hand = set(self.hands[d])
        out = []
        tgt = j["target"]
        for card in WINDOW_CARDS.get(w, ()):
            if card not in hand:
                continue
            if card == "Space Swap" and not (tgt[0] == "tower" and len(self.towers_of(d)) >= 2):
                continue
            if card == "Power of Unity" and tgt[0] != "hero":
                continue
            if card in ("Unyielding Will", "Pursuit", "Same End"):
                if tgt[0] != "hero" or not self.on_board(self.heroes[d][tgt[2]]):
                    continue
                if card == "Pursuit" and self.heroes[d][tgt[2]]["hp"] < 2:
                    continue
                if card == "Same End" and (j["same_end"] or j["loser"] != "defender"):
                    continue
                if card == "Unyielding Will" and self.heroes[d][tgt[2]]["floor1"]:
                    continue
            out.append(card)
        return out

    def _window_open(self) -> bool:
        return bool(self._window_cards())

    def _window_actions(self) -> list[tuple]:
        out = []
        j = self.judgment
        for card in self._window_cards():
            if card == "Space Swap":
                out.extend(("play", card) + self.cell_of(c) for c in sorted(self.towers_of(j["defender"]))
                           if c != j["cell"])
            else:
                out.append(("play", card))
        out.append(("pass",))
        return out

    def hero_total(self, side: int, k: int, dice: list[int], unity: int = 0) -> int:
        h = self.heroes[side][k]
        combine = sum(dice) if self.rules.settings["dice_combine"] == "sum" else max(dice)
        terr = 1 if h["earthsplit"] else self.terrain_points(h["cell"])
        mg = self.rules.settings
        return combine + terr + mg["inspire_bonus"] * h["inspire"] - mg["curse_malus"] * self.curse[side] + unity

    def _advance_judgment(self) -> None:
        """Close the open window and run the judgment to its next window (or its end)."""
        j = self.judgment
        side, d = j["side"], j["defender"]
        att = self.heroes[side][j["attacker"]]
        w = j["window"]
        if w == W_DECLARE and not self.on_board(att):
            self._finish_judgment()  # Space Swap's tower killed the attacker: the attack ends
            return
        if w == W_DECLARE:
            n = self.dice_count(side)
            dice = []
            if self.t["pact"]:
                dice.append(self.rules.settings["pact_die"])
                n -= 1
            dice += [self._die() for _ in range(n)]
            j["a_dice"] = dice
            if j["target"][0] == "hero":
                j["d_dice"] = [self._die() for _ in range(self.dice_count(d))]
            self._log("dice", side, list(j["a_dice"]), list(j["d_dice"]))
            j["window"] = W_COMPARE
        elif w == W_COMPARE:
            j["window"] = W_UNITY
        elif w == W_UNITY:
            a_total = self.hero_total(side, j["attacker"], j["a_dice"])
            tgt = j["target"]
            if tgt[0] == "hero":
                d_total = self.hero_total(d, tgt[2], j["d_dice"], j["unity"])
            elif tgt[0] == "tower":
                d_total = self.rules.towers[self.buildings[j["cell"]]["kind"]].defense
            else:
                d_total = self.base_defense(d)
            j["totals"] = [a_total, d_total]
            self._log("totals", side, a_total, d_total)
            if a_total == d_total:
                self._finish_judgment()
                return
            j["loser"] = "defender" if a_total > d_total else "attacker"
            j["d"] = abs(a_total - d_total)
            j["window"] = W_DAMAGE
        elif w == W_DAMAGE:
            self._apply_damage()
            self._finish_judgment()

    def _apply_damage(self) -> None:
        j = self.judgment
        side, d, amount = j["side"], j["defender"], j["d"]
        tgt = j["target"]
        if j["loser"] == "attacker":
            if tgt[0] == "hero":
                self.damage_hero(side, j["attacker"], amount, "judgment")
            return
        if tgt[0] == "hero":
            lost = self.damage_hero(d, tgt[2], amount, "judgment")
            if j["same_end"]:
                self.damage_hero(side, j["attacker"], lost, "Same End")
        elif tgt[0] == "tower":
            b = self.buildings.get(j["cell"])
            if b is None or b["iron"]:
                self._log("iron_wall", d, j["cell"])
                return
            b["hp"] -= amount
            if b["hp"] <= 0:
                del self.buildings[j["cell"]]
                self.stats[d]["towers_lost"] += 1
                self._log("destroyed", d, j["cell"], b["kind"])
        else:
            self.base_hp[d] -= amount
            self.stats[side]["base_damage"] += amount
            self._log("base_hit", d, amount, self.base_hp[d])
            if self.base_hp[d] <= 0:
                self.winner, self.end_reason = side, "base"
                self._log("base_destroyed", d)

    def _finish_judgment(self) -> None:
        self.judgment = None
        if self.over:
            return
        att = self.acting()
        left = [c for c in self.t["blood_left"] if self.on_board(att) and self._still_target(c)]
        self.t["blood_left"] = left

    def _still_target(self, cell: int) -> bool:
        side = self.side
        hit = self.hero_at(cell)
        if hit is not None:
            return hit[0] != side
        b = self.buildings.get(cell)
        return (b is not None and b["side"] != side) or cell == self.rules.bases[1 - side]

    # -- doing ----------------------------------------------------------------------------------

    def do(self, action: tuple) -> None:
        """Make one decision; an illegal one raises :class:`IllegalAction` and changes nothing."""
        if self.over:
            raise IllegalAction(f"the game is over; {action!r} refused")
        action = tuple(action)
        if action not in self.legal_actions():
            raise IllegalAction(self._why(action))
        who = self.to_act
        kind = action[0]
        if kind == "revive":
            self._revive(action[1])
        elif self.judgment is not None:
            self._counter(action)
        elif kind == "step":
            self._step(self.index_of(*action[1:4]))
        elif kind == "attack":
            target = self.index_of(*action[1:4])
            if self.t["blood"] and not self.t["blood_left"] and not self.t["acted"]:
                self.t["blood_left"] = self.attack_targets(self.side, self.hero_index)
            if target in self.t["blood_left"]:
                self.t["blood_left"].remove(target)
            self.t["acted"] = True
            self._start_attack(target)
        elif kind == "gather":
            self._gather()
        elif kind == "build":
            self._build(action[1])
        elif kind == "standby":
            self.t["acted"] = True
            self._log("standby", self.side, self.hero_index)
        elif kind == "upgrade":
            s = self.side
            self.energy[s] -= self.rules.upgrade_cost[self.base_tier[s] - 1]
            self.base_tier[s] += 1
            self.stats[s]["upgrades"] += 1
            self._log("upgrade", s, self.base_tier[s])
        elif kind == "play":
            self._play_normal(action)
        elif kind == "end":
            self._end_phase()
        self._settle()
        del who

    def _why(self, action: tuple) -> str:
        who = ("seat 0", "seat 1")[self.to_act]
        if self.pending:
            return f"{action!r}: {who} owes a revival choice ('revive', 'base'|'place')"
        if self.judgment is not None:
            return f"{action!r}: {who} owes a counter-window decision (a counter card or 'pass')"
        return f"{action!r} is not legal now for {who} (round {self.round}, hero turn {self.turn})"

    def _revive(self, how: str) -> None:
        p = self.pending.pop(0)
        s, k = p["side"], p["hero"]
        h = self.heroes[s][k]
        self.stats[s]["revivals"] += 1
        if how == "place":
            h.update(state="flipped", cell=p["cell"], hp=self.rules.classes[h["cls"]].hp)
            self.stats[s]["revivals_in_place"] += 1
        else:
            h["cell"] = -1
        self._log("revive", s, k, how)

    def _step(self, cell: int) -> None:
        side, k, h = self.side, self.hero_index, self.acting()
        cost = self.step_cost(cell)
        self.t["points"] -= cost
        old = h["cell"]
        h["cell"] = cell
        self._log("step", side, k, old, cell, cost)
        rng = self.rules.settings["building_attack_range"]
        for c in self.attackers_of(side):
            if self.on_board(h) and self.dist(old, c) > rng >= self.dist(cell, c):
                self.damage_hero(side, k, self.rules.settings["building_attack"], "tower_move")

    def _gather(self) -> None:
        side, h = self.side, self.acting()
        c = h["cell"]
        got = min(int(self.rules.vein_yield[c]), self.stock[c])
        self.stock[c] -= got
        self.energy[side] += got
        self.stats[side]["energy_mined"] += got
        if self.stock[c] == 0:
            self.terrain[c] = T_PLAIN
        self.t["acted"] = True
        self._log("gather", side, self.hero_index, c, got)

    def _build(self, name: str) -> None:
        side, h = self.side, self.acting()
        tw = self.rules.towers[name]
        self.energy[side] -= tw.cost
        self.buildings[h["cell"]] = {"side": side, "kind": name, "hp": tw.hp, "iron": False}
        st = self.stats[side]
        st["towers_built"] += 1
        st["built"][name] = st["built"].get(name, 0) + 1
        self.t["acted"] = True
        self._log("build", side, self.hero_index, h["cell"], name)

    def _spend(self, side: int, card: str) -> None:
        self.hands[side].remove(card)
        self.discard.append(card)
        st = self.stats[side]
        st["cards_played"] += 1
        st["played"][card] = st["played"].get(card, 0) + 1

    def _play_normal(self, action: tuple) -> None:
        side, k, h = self.side, self.hero_index, self.acting()
        card = action[1]
        mg = self.rules.settings
        cell = self.index_of(*action[2:5]) if len(action) == 5 else -1
        self._spend(side, card)
        self._log("play", side, card, cell)
        if card in ("Ignite", "Earthsplit"):
            s, e = self.hero_at(cell)
            if card == "Ignite":
                self.damage_hero(s, e, mg["effect_damage"], card)
            else:
                self.heroes[s][e]["earthsplit"] = True
        elif card == "Inspire":
            s, e = self.hero_at(cell)
            self.heroes[s][e]["inspire"] += 1
        elif card == "Divine Grace":
            s, e = self.hero_at(cell)
            self.energy[side] -= mg["heal_energy"]
            hh = self.heroes[s][e]
            hh["hp"] = min(self.rules.classes[hh["cls"]].hp, hh["hp"] + mg["heal"])
        elif card == "Iron Wall":
            self.buildings[cell]["iron"] = True
        elif card in ("Blood Battle", "Satan's Pact"):
            h["hp"] -= mg["hp_price"]
            self.t["blood" if card == "Blood Battle" else "pact"] = True
        elif card == "Shuttle":
            self.t["shuttle"] = True
        elif card in ("Firestorm", "Cataclysm"):
            want = T_FOREST if card == "Firestorm" else T_HILL
            for e, hh in enumerate(self.heroes[1 - side]):
                if self.on_board(hh) and self.terrain[hh["cell"]] == want:
                    self.damage_hero(1 - side, e, mg["effect_damage"], card)
        del k

    def _counter(self, action: tuple) -> None:
        j = self.judgment
        d, side = j["defender"], j["side"]
        mg = self.rules.settings
        if action[0] == "pass":
            j["closed"].append(j["window"])
            return
        card = action[1]
        self._spend(d, card)
        self._log("counter", d, card)
        tgt = j["target"]
        if card == "Space Swap":
            other = self.index_of(*action[2:5])
            a, b = self.buildings[j["cell"]], self.buildings[other]
            self.buildings[j["cell"]], self.buildings[other] = b, a
            rng = mg["building_attack_range"]
            for c in (j["cell"], other):
                if self.rules.towers[self.buildings[c]["kind"]].effect == "attack":
                    for e, hh in enumerate(self.heroes[side]):
                        if self.on_board(hh) and self.dist(hh["cell"], c) <= rng:
                            self.damage_hero(side, e, mg["swap_damage"], card)
        elif card == "Curse":
            self.curse[side] += 1
        elif card == "Power of Unity":
            me = self.heroes[d][tgt[2]]
            near = sum(1 for k, hh in enumerate(self.heroes[d]) if k != tgt[2] and self.on_board(hh)
                       and self.dist(hh["cell"], me["cell"]) <= mg["unity_radius"])
            j["unity"] += min(near, mg["unity_max"])
        elif card == "Unyielding Will":
            self.heroes[d][tgt[2]]["floor1"] = True
        elif card == "Pursuit":
            me = self.heroes[d][tgt[2]]
            lost = me["hp"] - 1
            me["hp"] = 1
            self.damage_hero(side, j["attacker"], lost, card)
        elif card == "Same End":
            j["same_end"] = True

    def _end_phase(self) -> None:
        side, k = self.side, self.hero_index
        self._log("end", side, k)
        self._building_attack(side, k, "tower_end")
        self.t["ending"] = True

    # -- results --------------------------------------------------------------------------------

    def record(self) -> dict:
        """Per-side numbers of the game (for the result columns)."""
        out = {}
        for s in (0, 1):
            st = self.stats[s]
            out[s] = {
                "base_hp": self.base_hp[s], "base_tier": self.base_tier[s], "energy": self.energy[s],
                "energy_mined": st["energy_mined"], "heroes_lost": st["heroes_lost"], "revivals": st["revivals"],
                "revivals_in_place": st["revivals_in_place"], "towers_built": st["towers_built"],
                "towers_lost": st["towers_lost"], "cards_played": st["cards_played"], "upgrades": st["upgrades"],
                "attacks": st["attacks"], "base_damage": st["base_damage"], "built": dict(st["built"]),
                "played": dict(st["played"]),
            }
        return out

    def describe_side(self, side: int) -> str:
        return SIDE_NAMES[side]
