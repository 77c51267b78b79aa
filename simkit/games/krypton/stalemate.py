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

:func:`locked` reads a :class:`~simkit.games.krypton.match.Match` with the engine's own compiled test
(:func:`simkit.games.krypton.engine.locked`, the one home of the rule: the authored end rule ``end_at_lock`` ends
a game with it); :func:`lock_round` replays a recorded game and returns the round in which it first locked.
"""

from __future__ import annotations

from collections.abc import Sequence

from simkit.games.krypton import engine as E
from simkit.games.krypton.match import Match


def can_add_a_die(m: Match, side: int) -> bool:
    """Whether ``side`` could still pay for a die: a Prayer Tower or its next base tier now, or later from
    a vein or from the other side's death penalty (:func:`engine.can_add_a_die`)."""
    return bool(E.can_add_a_die(m.state, m.packed.rules, side))


def locked(m: Match) -> bool:
    """True when no base can lose an HP any more without magic cards (the module docstring's three tests)."""
    return bool(E.locked(m.state, m.packed.rules, m.packed.dist))


def lock_round(scenario, loadouts: tuple[str, str], seed: int, actions: Sequence[tuple]) -> int | None:
    """The round in which the recorded game (``actions`` from ``seed``) first stood locked at the start of a
    hero turn, or None if it never did before its end."""
    m = Match(scenario, *loadouts, seed, log=False)
    turn = -1
    for a in actions:
        if m.over:
            break
        if m.state.turn != turn:
            turn = m.state.turn
            if locked(m):
                return int(m.round)
        m.do(tuple(a))
    return None
