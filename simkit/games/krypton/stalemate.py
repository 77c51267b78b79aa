"""When a Krypton game can no longer be won: the *lock*, the stalemate behind most of its draws.

A game is **locked** at a moment when nothing left in it can take a base HP without magic cards:

1. no vein has stock left (no more energy can be gathered);
2. neither side can pay for a Prayer Tower (its cheapest tower that adds a die) or its next base tier, and
   neither can win energy from the other through a death (``floor(enemy energy / death_penalty_divisor)``
   is 0 for both): no side can ever add a die;
3. neither side's best attack on the enemy base, every die on its top face plus the most terrain points of
   any cell its heroes could attack the base from, beats that base's defence.

No base can then be destroyed without cards: on the base rules two Inspires (+2 each) played on one attack with a 6 on
the die take 1 HP of an advanced base (6 + 1 + 4 against 10), with two copies of Inspire in a 32-card pile.
Under the rules page's 50-round limit a locked game ends in a draw; a lock tells a designer that the
game's end is settled long before the limit (rules page section 13: the manual gives no other end).

:func:`locked` reads a :class:`~simkit.games.krypton.view.GameView`; :func:`lock_round` replays a
recorded game and returns the round in which it first locked.
"""

from __future__ import annotations

from collections.abc import Sequence

from simkit.games.krypton.view import GameView


def _best_attack(g: GameView, side: int) -> int:
    """The highest total ``side`` can bring against the enemy base without cards: its dice all on their top
    face, plus the most terrain points of a cell within one of its classes' range of that base."""
    rules = g.rules
    sides = int(rules.settings["dice_sides"])
    dice = g.dice_count(side)
    top = sides * dice if rules.settings["dice_combine"] == "sum" else sides
    base = rules.bases[1 - side]
    dist = g.P.dist
    reach = max(rules.classes[h["cls"]].range for h in g.heroes[side])
    points = 0
    for c in range(rules.grid.size):
        if c != base and g.terrain[c] >= 0 and 1 <= dist[c, base] <= reach:
            points = max(points, rules.cost_of(int(g.terrain[c])))
    return top + points


def can_add_a_die(g: GameView, side: int) -> bool:
    """Whether ``side`` could still pay for a die: a Prayer Tower or its next base tier now, or later from
    a vein or from the other side's death penalty."""
    rules = g.rules
    if int(g.stock.sum()) > 0:
        return True
    divisor = int(rules.settings["death_penalty_divisor"])
    if divisor > 0 and int(g.energy[1 - side]) // divisor > 0:
        return True
    costs = [t.cost for t in rules.towers.values() if t.effect == "dice"]
    tier = int(g.base_tier[side])
    if tier < len(rules.base_defense):
        costs.append(rules.upgrade_cost[tier - 1])
    return bool(costs) and int(g.energy[side]) >= min(costs)


def locked(g: GameView) -> bool:
    """True when no base can lose an HP any more without magic cards (the module docstring's three tests)."""
    for side in (0, 1):
        if can_add_a_die(g, side):
            return False
        defense = g.rules.base_defense[int(g.base_tier[1 - side]) - 1]
        if _best_attack(g, side) > defense:
            return False
    return True


def lock_round(rules, loadouts: tuple[str, str], seed: int, actions: Sequence[tuple]) -> int | None:
    """The round in which the recorded game (``actions`` from ``seed``) first stood locked at the start of a
    hero turn, or None if it never did before its end."""
    g = GameView(rules, loadouts, seed, log=False)
    turn = -1
    for a in actions:
        if g.over:
            break
        if g.turn != turn:
            turn = g.turn
            if locked(g):
                return int(g.round)
        g.do(tuple(a))
    return None
