"""Krypton bots: ``random`` and utility personalities read from the scenario's ``[bots]`` table.

A bot is asked by seat: :func:`choose` returns the action of the seat that owes the decision
(:attr:`~simkit.games.krypton.engine.Game.to_act`), whether it is that side's hero turn, a counter
window inside the enemy's attack judgment or a revival choice. Bots read the board, the energy,
the base tiers and their own hand, never the other side's hand or the pile's order (rules page
section 10: hands are hidden). Their noise comes from the bot stream of the game's seed
(``derive_seed(seed, "bots", seat)``), never from the dice stream.

The utility bot plans each move phase: the cheapest paths from its hero's cell within its movement
points (terrain costs, Shuttle, the hits of enemy Attack Towers and base on the way), a score for
every reachable cell (what the hero can do there: attack with the exact dice odds, gather, build,
plus progress toward its goal and the damage it takes), then walks the best path and acts.
"""

from __future__ import annotations

import heapq
import itertools
import math
from dataclasses import dataclass
from functools import lru_cache

from simkit.games.kits.rng import derive_seed
from simkit.games.krypton.engine import W_COMPARE, W_DAMAGE, W_DECLARE, W_UNITY, Game
from simkit.games.krypton.tables import T_BASE, T_FOREST, T_HILL, T_VEIN
from simkit.scenario import Field

RANDOM = "random"

#: A utility personality's numbers: (name, default, meaning).
WEIGHTS = (
    ("temperature", 0.1, "scale of the Gumbel noise on every destination score (0: always the best)"),
    ("attack_base", 6.0, "per expected HP taken off the enemy base"),
    ("attack_hero", 3.0, "per expected HP taken off an enemy hero"),
    ("kill_hero", 4.0, "times the chance an attack kills the enemy hero"),
    ("attack_tower", 3.0, "times the chance an attack destroys an enemy tower"),
    ("hurt", -1.5, "per expected HP the own hero loses in its attack"),
    ("gather", 1.5, "per energy gathered"),
    ("build", 6.0, "building a tower the plan wants"),
    ("death", -8.0, "the hero would die on the way or in its end phase"),
    ("advance", 0.35, "per point of move cost closer to the hero's goal"),
    ("danger", -1.2, "per HP the hero takes from enemy Attack Towers and base on the way and in its end phase"),
    ("upgrade", 1.0, "1: upgrade the base as soon as the side can pay; 0: never"),
    ("prayer_towers", 2, "Prayer Towers the side builds (needs the upgraded base)"),
    ("attack_towers", 1, "Attack Towers the side builds"),
    ("magic_towers", 0, "Magic Towers the side builds"),
    ("revive_in_place_within", 6, "revive in place when the hero died within this move cost of the enemy base"),
    ("cards", 1.0, "1: play magic cards (normal and counter); 0: never"),
    ("attackers", 1, "heroes (in team order) that go for the enemy base while the side still needs energy"),
)
WEIGHT_NAMES = tuple(w[0] for w in WEIGHTS)
INT_WEIGHTS = ("prayer_towers", "attack_towers", "magic_towers", "revive_in_place_within", "attackers")


@dataclass(frozen=True)
class Personality:
    """One utility bot's numbers (see :data:`WEIGHTS`)."""

    name: str
    w: dict


def read_bots(source: str, data: dict) -> dict[str, Personality]:
    """The scenario's ``[bots]`` personalities by name (file order); ``like`` copies another's numbers.

    Search bots (tables with a ``policy``, directly or through ``like``) are left to
    :func:`simkit.games.krypton.search_bot.read_searches`.

    Raises:
        ScenarioError: an unknown key, a non-number, an unknown or circular ``like``.
    """
    f = Field(source, data).table("bots", required=False)
    raw = {}
    for name in f.keys():
        if name == RANDOM:
            raise f.fail("'random' is built in and cannot be redefined", name)
        t = f.table(name)
        if is_search_table(f, name):
            continue  # a search bot (simkit.games.krypton.search_bot)
        t.reject_unknown(("like",) + WEIGHT_NAMES)
        raw[name] = t
    out: dict[str, Personality] = {}

    def build(name, chain=()):
        if name in out:
            return out[name].w
        if name in chain:
            raise f.fail(f"'like' goes round in a circle ({' -> '.join(chain + (name,))})", name)
        t = raw[name]
        base = {k: d for k, d, _ in WEIGHTS}
        if t.has("like"):
            other = t.str("like")
            if other not in raw:
                raise t.fail(f"unknown bot {other!r} (known: {', '.join(raw)})", "like")
            base = dict(build(other, chain + (name,)))
        for k in WEIGHT_NAMES:
            if t.has(k):
                v = t.get(k)
                if isinstance(v, bool):
                    v = 1.0 if v else 0.0
                if not isinstance(v, (int, float)):
                    raise t.fail(f"must be a number, got {v!r}", k)
                if k in INT_WEIGHTS and (not isinstance(v, int) or v < 0):
                    raise t.fail(f"must be a non-negative integer, got {v!r}", k)
                base[k] = v
        out[name] = Personality(name, base)
        return base

    for name in raw:
        build(name)
    return {name: out[name] for name in raw}


def is_search_table(bots: Field, name: str) -> bool:
    """True when ``[bots.<name>]`` is a search bot: it, or a table its ``like`` chain reaches, has ``policy``."""
    seen = set()
    while isinstance(name, str) and name not in seen and isinstance(bots.data.get(name), dict):
        seen.add(name)
        table = bots.data[name]
        if "policy" in table:
            return True
        name = table.get("like")
    return False


# -- dice odds ----------------------------------------------------------------------------------------

@lru_cache(maxsize=256)
def dice_dist(n: int, sides: int, combine: str, fixed: int = 0) -> tuple[tuple[int, float], ...]:
    """Distribution of ``n`` combined dice (``fixed`` of them showing ``sides``... no: showing ``fixed``)."""
    counts: dict[int, int] = {}
    rolled = max(0, n - (1 if fixed else 0))
    for faces in itertools.product(range(1, sides + 1), repeat=rolled):
        vals = list(faces) + ([fixed] if fixed else [])
        v = sum(vals) if combine == "sum" else max(vals)
        counts[v] = counts.get(v, 0) + 1
    total = sides ** rolled
    return tuple(sorted((v, c / total) for v, c in counts.items()))


def duel_odds(a: tuple, a_bonus: int, d: tuple | None, d_bonus: int) -> tuple[float, float, float]:
    """``(expected damage dealt, chance of winning, expected damage taken)`` of an attack judgment."""
    dealt = win = taken = 0.0
    d_dist = d if d is not None else ((0, 1.0),)
    for av, ap in a:
        for dv, dp in d_dist:
            diff = (av + a_bonus) - (dv + d_bonus)
            p = ap * dp
            if diff > 0:
                dealt += p * diff
                win += p
            elif diff < 0:
                taken += p * -diff
    return dealt, win, taken


# -- path finding -------------------------------------------------------------------------------------

def reach(g: Game, side: int, start: int, points: int, shuttle: bool) -> dict[int, tuple[int, int]]:
    """Cells the hero of ``side`` on ``start`` can reach with ``points``: cell -> (cost, parent)."""
    best = {start: (0, -1)}
    heap = [(0, start)]
    while heap:
        cost, c = heapq.heappop(heap)
        if cost > best[c][0]:
            continue
        for n in g.nbr[c]:
            if not g.enterable(n, side):
                continue
            nc = cost + (1 if shuttle else g.terrain_points(n))
            if nc <= points and (n not in best or nc < best[n][0]):
                best[n] = (nc, c)
                heapq.heappush(heap, (nc, n))
    return best


def cost_to(g: Game, side: int, goals: list[int]) -> list[float]:
    """Cheapest move cost from every cell to any of ``goals`` (heroes ignored, enemy buildings blocked)."""
    grid = g.rules.grid
    dist = [math.inf] * grid.size
    heap = []
    for c in goals:
        dist[c] = 0
        heap.append((0, c))
    heapq.heapify(heap)
    while heap:
        dcost, v = heapq.heappop(heap)
        if dcost > dist[v]:
            continue
        b = g.buildings.get(v)
        if g.terrain[v] == T_BASE or (b is not None and b["side"] != side):
            continue
        step = g.terrain_points(v)
        for u in g.nbr[v]:
            if g.terrain[u] != T_BASE and dcost + step < dist[u]:
                dist[u] = dcost + step
                heapq.heappush(heap, (dcost + step, u))
    return dist


def path_to(best: dict, dest: int) -> list[int]:
    path = []
    while dest != -1 and best[dest][1] != -1:
        path.append(dest)
        dest = best[dest][1]
    return path[::-1]


def path_damage(g: Game, side: int, start: int, path: list[int]) -> int:
    rng = g.rules.settings["building_attack_range"]
    hit = g.rules.settings["building_attack"]
    total, prev = 0, start
    for c in path:
        for b in g.attackers_of(side):
            if g.dist(prev, b) > rng >= g.dist(c, b):
                total += hit
        prev = c
    return total


def end_damage(g: Game, side: int, cell: int) -> int:
    rng = g.rules.settings["building_attack_range"]
    return g.rules.settings["building_attack"] * sum(1 for b in g.attackers_of(side) if g.dist(cell, b) <= rng)


# -- the utility bot ----------------------------------------------------------------------------------

class Utility:
    """A utility bot for one seat of one game (stateless between decisions but for its noise stream)."""

    def __init__(self, personality: Personality, seat: int, seed: int):
        self.w = personality.w
        self.seat = seat
        self.key = derive_seed(int(seed), "bots", seat)
        self._plan = None  # (state key, path left, hero action) of the walk under way

    def noise(self, *parts) -> float:
        t = self.w["temperature"]
        if t <= 0:
            return 0.0
        u = (derive_seed(self.key, *parts) % (1 << 52) + 0.5) / (1 << 52)
        return -t * math.log(-math.log(u))

    # -- what the side wants -------------------------------------------------------------------

    def wanted_towers(self, g: Game, side: int) -> list[str]:
        """Tower kinds still wanted, in priority order, that the side could build now (tier allowing)."""
        out = []
        have = {}
        for b in g.buildings.values():
            if b["side"] == side:
                eff = g.rules.towers[b["kind"]].effect
                have[eff] = have.get(eff, 0) + 1
        for eff, key in (("dice", "prayer_towers"), ("attack", "attack_towers"), ("hand", "magic_towers")):
            if have.get(eff, 0) < self.w[key]:
                for name, tw in g.rules.towers.items():
                    if tw.effect == eff and (eff != "dice" or g.base_tier[side] >= g.rules.prayer_tier):
                        out.append(name)
                        break
        return out

    def energy_need(self, g: Game, side: int) -> int:
        need = 0
        tier = g.base_tier[side]
        if self.w["upgrade"] and tier < len(g.rules.base_defense):
            need += sum(g.rules.upgrade_cost[tier - 1:])
        have = {}
        for b in g.buildings.values():
            if b["side"] == side:
                eff = g.rules.towers[b["kind"]].effect
                have[eff] = have.get(eff, 0) + 1
        for eff, key in (("dice", "prayer_towers"), ("attack", "attack_towers"), ("hand", "magic_towers")):
            missing = max(0, int(self.w[key]) - have.get(eff, 0))
            cost = min((tw.cost for tw in g.rules.towers.values() if tw.effect == eff), default=0)
            need += missing * cost
        return max(0, need - g.energy[side])

    def veins_left(self, g: Game) -> list[int]:
        return [c for c in range(g.rules.grid.size) if g.terrain[c] == T_VEIN and g.stock[c] > 0]

    # -- decisions -----------------------------------------------------------------------------

    def choose(self, g: Game, legal: list[tuple]) -> tuple:
        if g.pending:
            return self.revive(g)
        if g.judgment is not None:
            return self.counter(g, legal)
        return self.turn(g, legal)

    def revive(self, g: Game) -> tuple:
        p = g.pending[0]
        side = p["side"]
        goals = [c for c in range(g.rules.grid.size) if g.dist(c, g.rules.bases[1 - side]) == 1]
        d = cost_to(g, side, goals)[p["cell"]]
        # a flipped hero takes no end-phase hits (it does not act): in place it keeps its siege position;
        # enemy heroes next to it would attack it while it cannot answer
        safe = not any(g.on_board(e) and g.dist(e["cell"], p["cell"]) <= 2 for e in g.heroes[1 - side])
        return ("revive", "place") if d <= self.w["revive_in_place_within"] and safe else ("revive", "base")

    def counter(self, g: Game, legal: list[tuple]) -> tuple:
        if not self.w["cards"]:
            return ("pass",)
        j = g.judgment
        plays = {a[1]: a for a in legal if a[0] == "play"}
        d, side = j["defender"], j["side"]
        tgt = j["target"]
        w = j["window"]
        if w == W_DECLARE and "Space Swap" in plays:
            best, hits_best = None, 0
            for a in legal:
                if a[0] != "play":
                    continue
                other = g.index_of(*a[2:5])
                hits = 0
                for c_new, c_old in ((j["cell"], other), (other, j["cell"])):
                    if g.rules.towers[g.buildings[c_old]["kind"]].effect == "attack":
                        hits += sum(1 for h in g.heroes[side] if g.on_board(h) and g.dist(h["cell"], c_new) <= 1)
                if hits > hits_best:
                    best, hits_best = a, hits
            if best is not None:
                return best
        if w in (W_COMPARE, W_UNITY):
            a_total = g.hero_total(side, j["attacker"], j["a_dice"])
            if tgt[0] == "hero":
                d_total = g.hero_total(d, tgt[2], j["d_dice"], j["unity"])
            elif tgt[0] == "tower":
                d_total = g.rules.towers[g.buildings[j["cell"]]["kind"]].defense
            else:
                d_total = g.base_defense(d)
            if a_total >= d_total:
                if "Curse" in plays:
                    return plays["Curse"]
                if "Power of Unity" in plays:
                    return plays["Power of Unity"]
        if w == W_DAMAGE and tgt[0] == "hero":
            me = g.heroes[d][tgt[2]]
            lost = j["loser"] == "defender"
            dies = lost and j["d"] >= me["hp"] and not me["floor1"]
            if dies and "Unyielding Will" in plays:
                return plays["Unyielding Will"]
            att = g.heroes[side][j["attacker"]]
            if "Pursuit" in plays and g.on_board(att) and me["hp"] >= 2:
                gain = me["hp"] - 1
                if (lost and (me["floor1"] or j["d"] >= me["hp"])) or gain >= att["hp"]:
                    return plays["Pursuit"]
            if lost and "Same End" in plays:
                return plays["Same End"]
        return ("pass",)

    def turn(self, g: Game, legal: list[tuple]) -> tuple:
        side = g.side
        h = g.acting()
        if ("upgrade",) in legal and self.w["upgrade"]:
            return ("upgrade",)
        if self.w["cards"]:
            a = self.instant_card(g, legal)
            if a is not None:
                return a
        blood = [a for a in legal if a[0] == "attack"] if g.t["blood_left"] else []
        if blood:
            return max(blood, key=lambda a: self.attack_value(g, side, h["cell"], g.index_of(*a[1:4]))[0])
        if g.t["acted"]:
            return ("end",)
        key = (g.turn, g.t["shuttle"], g.t["pact"], h["cell"], h["hp"], g.t["points"])
        if self._plan is not None and self._plan[0] == key:
            path, act = self._plan[1], self._plan[2]
        else:
            plan = self.plan(g, side, h, shuttle=g.t["shuttle"])
            if self.w["cards"] and not g.t["shuttle"] and any(a == ("play", "Shuttle") for a in legal):
                alt = self.plan(g, side, h, shuttle=True)
                if alt[0] > plan[0] + 1.0:
                    return ("play", "Shuttle")
            _, _, path, act = plan
        if path:
            # the plan holds while the walk goes as planned (same turn, no hit taken on the way)
            nxt = path[0]
            cost = 1 if g.t["shuttle"] else g.terrain_points(nxt)
            self._plan = ((g.turn, g.t["shuttle"], g.t["pact"], nxt, h["hp"], g.t["points"] - cost), path[1:], act)
            return ("step",) + g.cell_of(nxt)
        self._plan = None
        if act[0] == "attack" and self.w["cards"]:
            a = self.pre_attack_card(g, legal, side, h, g.index_of(*act[1:4]))
            if a is not None:
                return a
        if act in legal:
            return act
        return ("standby",) if ("standby",) in legal else ("end",)

    def instant_card(self, g: Game, legal: list[tuple]) -> tuple | None:
        side = g.side
        for a in legal:
            if a[0] != "play":
                continue
            card = a[1]
            if card == "Ignite":
                s, k = g.hero_at(g.index_of(*a[2:5]))
                e = g.heroes[s][k]
                low = min(hh["hp"] for hh in g.heroes[s] if g.on_board(hh))
                if e["hp"] == low:
                    return a
            elif card in ("Firestorm", "Cataclysm"):
                want = T_FOREST if card == "Firestorm" else T_HILL
                if any(g.on_board(e) and g.terrain[e["cell"]] == want for e in g.heroes[1 - side]):
                    return a
            elif card == "Divine Grace":
                s, k = g.hero_at(g.index_of(*a[2:5]))
                e = g.heroes[s][k]
                if g.rules.classes[e["cls"]].hp - e["hp"] >= 2 and self.energy_need(g, side) == 0:
                    return a
            elif card == "Iron Wall":
                c = g.index_of(*a[2:5])
                if not g.buildings[c]["iron"] and any(g.on_board(e) and g.dist(e["cell"], c) <= 3
                                                       for e in g.heroes[1 - side]):
                    return a
        return None

    def pre_attack_card(self, g: Game, legal: list[tuple], side: int, h: dict, target: int) -> tuple | None:
        if not g.t["acted"]:
            if ("play", "Blood Battle") in legal and len(g.attack_targets(side, g.hero_index)) >= 2 and h["hp"] >= 5:
                return ("play", "Blood Battle")
            if ("play", "Satan's Pact") in legal and h["hp"] >= 5:
                return ("play", "Satan's Pact")
            me = ("play", "Inspire") + g.cell_of(h["cell"])
            if me in legal:
                return me
            hit = g.hero_at(target)
            if hit is not None and g.terrain_points(target) > 1:
                es = ("play", "Earthsplit") + g.cell_of(target)
                if es in legal and not g.heroes[hit[0]][hit[1]]["earthsplit"]:
                    return es
        return None

    def attack_value(self, g: Game, side: int, cell: int, target: int) -> tuple[float, tuple]:
        """Score of attacking ``target`` from ``cell`` (with the exact dice odds)."""
        st = g.rules.settings
        sides, comb = st["dice_sides"], st["dice_combine"]
        h = g.acting()
        a = dice_dist(g.dice_count(side), sides, comb, st["pact_die"] if g.t["pact"] else 0)
        a_bonus = (1 if h["earthsplit"] else g.terrain_points(cell)) + st["inspire_bonus"] * h["inspire"] \
            - st["curse_malus"] * g.curse[side]
        if self.w["cards"] and "Inspire" in g.hands[side]:
            a_bonus += st["inspire_bonus"]
        hit = g.hero_at(target)
        act = ("attack",) + g.cell_of(target)
        if hit is not None:
            e = g.heroes[hit[0]][hit[1]]
            d = dice_dist(g.dice_count(1 - side), sides, comb)
            d_bonus = 1 if e["earthsplit"] else g.terrain_points(target)
            dealt, win, taken = duel_odds(a, a_bonus, d, d_bonus)
            kill = sum(p * dp for av, p in a for dv, dp in d if av + a_bonus - dv - d_bonus >= e["hp"])
            return (self.w["attack_hero"] * min(dealt, e["hp"]) + self.w["kill_hero"] * kill
                    + self.w["hurt"] * taken), act
        if target in g.buildings:
            tw = g.rules.towers[g.buildings[target]["kind"]]
            _, win, _ = duel_odds(a, a_bonus, None, tw.defense)
            return self.w["attack_tower"] * win * (0 if g.buildings[target]["iron"] else 1), act
        dealt, win, _ = duel_odds(a, a_bonus, None, g.base_defense(1 - side))
        bonus = 100.0 * sum(p for av, p in a if av + a_bonus - g.base_defense(1 - side) >= g.base_hp[1 - side])
        return self.w["attack_base"] * dealt + bonus, act

    def base_odds(self, g: Game, side: int) -> float:
        """Expected HP an attack on the enemy base takes off it now (Inspire in hand counted)."""
        st = g.rules.settings
        a = dice_dist(g.dice_count(side), st["dice_sides"], st["dice_combine"], st["pact_die"] if g.t["pact"] else 0)
        bonus = 1 + (st["inspire_bonus"] if self.w["cards"] and "Inspire" in g.hands[side] else 0)
        return duel_odds(a, bonus, None, g.base_defense(1 - side))[0]

    def goals(self, g: Game, side: int, h: dict, rng: int, veins: list[int] | None) -> list[int]:
        """The cells this hero heads for: veins (a miner), a threatened own building's attacker (the
        nearest guard), the enemy base when an attack can hurt it, else the enemy towers."""
        if veins:
            return veins
        size = g.rules.grid.size
        own = g.towers_of(side) + [g.rules.bases[side]]
        threats = [e["cell"] for e in g.heroes[1 - side] if g.on_board(e) and any(g.dist(e["cell"], b) <= 2
                                                                                  for b in own)]
        if threats:
            mine = [x for x in g.heroes[side] if g.on_board(x)]
            closest = min(mine, key=lambda x: min(g.dist(x["cell"], t) for t in threats))
            if closest is h:
                return [c for c in range(size) if any(1 <= g.dist(c, t) <= rng for t in threats)]
        enemy_base = g.rules.bases[1 - side]
        if self.base_odds(g, side) < 0.3:
            towers = g.towers_of(1 - side, "dice") or g.towers_of(1 - side)
            if towers:
                return [c for c in range(size) if any(1 <= g.dist(c, t) <= rng for t in towers)]
        return [c for c in range(size) if 1 <= g.dist(c, enemy_base) <= rng]

    def plan(self, g: Game, side: int, h: dict, shuttle: bool) -> tuple[float, int, list[int], tuple]:
        """``(score, destination, path, hero action)`` of the best reachable cell."""
        start = h["cell"]
        best = reach(g, side, start, g.t["points"], shuttle)
        need = self.energy_need(g, side)
        veins = self.veins_left(g)
        miner = need > 0 and veins and g.hero_index >= self.w["attackers"]
        enemy_base = g.rules.bases[1 - side]
        rng = g.rules.classes[h["cls"]].range
        goals = self.goals(g, side, h, rng, veins if miner else None)
        togo = cost_to(g, side, goals)
        wanted = self.wanted_towers(g, side)
        top = (-math.inf, start, [], ("standby",))
        for c in best:
            path = path_to(best, c)
            dmg = path_damage(g, side, start, path) + end_damage(g, side, c)
            score = self.w["danger"] * dmg
            if dmg >= h["hp"]:
                score += self.w["death"]
            if togo[start] < math.inf and togo[c] < math.inf:
                score += self.w["advance"] * (togo[start] - togo[c])
            act, act_score = ("standby",), 0.0
            old = h["cell"]
            h["cell"] = c  # look from c (restored below)
            try:
                for t in g.attack_targets(side, g.hero_index):
                    v, a = self.attack_value(g, side, c, t)
                    if v > act_score:
                        act, act_score = a, v
            finally:
                h["cell"] = old
            if g.terrain[c] == T_VEIN and g.stock[c] > 0 and need > 0:
                v = self.w["gather"] * min(int(g.rules.vein_yield[c]), g.stock[c])
                if v > act_score:
                    act, act_score = ("gather",), v
            if wanted and (g.buildable(c) or c == start and g.buildable(start)):
                for name in wanted:
                    tw = g.rules.towers[name]
                    reserve = 0
                    if tw.effect != "dice" and self.w["upgrade"] and g.base_tier[side] < len(g.rules.base_defense):
                        reserve = g.rules.upgrade_cost[g.base_tier[side] - 1]
                    if g.energy[side] - reserve >= tw.cost:
                        home = g.dist(c, g.rules.bases[side])
                        if tw.effect == "attack":  # on the way in: between the bases, own half
                            v = self.w["build"] * (1.0 if home < g.dist(c, enemy_base) else 0.3)
                        else:  # keep the others at home, out of reach
                            v = self.w["build"] * max(0.2, 1.0 - 0.15 * max(0, home - 2))
                        if v > act_score:
                            act, act_score = ("build", name), v
                        break
            score += act_score + self.noise(g.turn, c)
            if score > top[0]:
                top = (score, c, path, act)
        return top


def choose(bot, g: Game, rnd_state: list) -> tuple:
    """The action of the seat that owes the decision: ``bot`` is :data:`RANDOM` or a :class:`Utility`."""
    legal = g.legal_actions()
    if bot == RANDOM:
        key, = rnd_state[:1]
        rnd_state[1] += 1
        return legal[derive_seed(key, rnd_state[1]) % len(legal)]
    return bot.choose(g, legal)
