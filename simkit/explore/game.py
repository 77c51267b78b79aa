"""The deck-choice game an explore solves, read from the deck space's two seat pools.

Every explore sees a first-seat pool and a second-seat pool (:attr:`~simkit.explore.space.DeckSpace.seats`).
Who chooses a deck follows from the game (:attr:`~simkit.explore.space.DeckSpace.own_seats`, the game's
:attr:`simkit.games.Ruleset.own_seat_pools`), not from whether the pools happen to be equal:

- **Alike seats** (a game without seat pools: both seats hold every deck): a deck is chosen before the seat
  is known and plays both, so the game is symmetric and zero-sum, its value 1/2. One *side* ``both``
  chooses: one population, one Nash mixture (:func:`simkit.analysis.metagame.nash_mix` of the pooled win
  rates), a candidate scored on its pooled rate against that mixture (both seats), and the strongest decks
  measured against the whole pool (the *field*).
- **Seats with their own pools** (Magic War: each player buys an army with their own seat's gold, so at the
  source's 12 and 13 gold an army costing 13 sits only second; at 13 and 13 both pools hold the same armies,
  yet the first player still moves first and each buys knowing it): each seat chooses from its own pool
  knowing its seat, so the game is zero-sum but not symmetric: two sides ``first`` and ``second``, each with
  its population and its mixture (:func:`simkit.analysis.metagame.seat_metagame`), and a value ``v`` (the
  first seat's expected score when both play their mixtures; the second seat's is ``1 - v``). A candidate of
  one seat plays the other seat's mixture in that seating only, scored against its seat's value; its
  strength is that score (no field: its games in one seat say nothing of the other).

The planner (:mod:`~simkit.explore.oracle`) and the answers (:mod:`~simkit.explore.outputs`) are written
once over :class:`Side`; only this module tells the two games apart.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from simkit.explore.space import DeckSpace
from simkit.explore.tally import Tally


@dataclass(frozen=True)
class Side:
    """One chooser of the deck-choice game.

    Attributes:
        name: ``both`` (alike seats: the deck plays either seat), ``first`` or ``second``.
        index: its place in :attr:`DeckGame.sides`.
        pool: the space's indices of the decks it may choose.
        opponent: the index of the side it plays against (itself when alike).
    """

    name: str
    index: int
    pool: tuple[int, ...]
    opponent: int

    def cells(self, deck: int, other: int) -> list[tuple[int, int]]:
        """The pairings (first deck, second deck) in which ``deck`` of this side meets ``other``: both seatings
        for alike seats (none for its mirror, which is even), else the one seating the two seats make."""
        if self.name == "first":
            return [(deck, other)]
        if self.name == "second":
            return [(other, deck)]
        return [] if deck == other else [(deck, other), (other, deck)]

    def games(self, tally: Tally, deck: int) -> int:
        """The games ``deck`` played for this side: in both seats when alike, else in its seat."""
        if self.name == "first":
            return int(tally.n[deck].sum())
        if self.name == "second":
            return int(tally.n[:, deck].sum())
        return int(tally.n[deck].sum() + tally.n[:, deck].sum())

    def score(self, tally: Tally, deck: int, opponents, weights) -> tuple[float, float, int]:
        """``deck``'s expected score against the mixture ``weights`` over ``opponents``: ``(estimate, standard
        error, level)``, the level the fewest games it has in any seating against any of them."""
        if self.name == "both":
            est, se = tally.against(deck, opponents, weights)
            return est, se, tally.level(deck, opponents)
        return tally.seat_score(deck, 0 if self.name == "first" else 1, opponents, weights)


@dataclass(frozen=True)
class Against:
    """What a side's candidates are raced against: the mixture of the side it meets (its decks and weights), the
    score its own decks are judged against (1/2 for alike seats, else its seat's value) and that score's standard
    error (0 for alike seats; a seat's value is itself measured from the mixtures' games)."""

    decks: list[int]
    weights: np.ndarray
    ref: float
    se: float = 0.0


class DeckGame:
    """The deck-choice game of a deck space (see the module): its sides, their mixtures and values.

    Attributes:
        sides: one :class:`Side` (``both``) when the seats are alike, else ``first`` and ``second`` (always when the
            game gives each seat its own pool, even an equal one).
        field: whether the strongest decks are measured against the whole pool (alike seats only).
        grow_after: the games a candidate plays against every mixture deck before its neighbours join the
            search when it is within the band (a dice game's first games in one seat say little).
    """

    def __init__(self, space: DeckSpace, horizon: int):
        first, second = space.seats
        # the game says whether a seat chooses knowing its seat (a space that does not say: its pools alone)
        if not getattr(space, "own_seats", False) and set(first) == set(second):
            self.sides = (Side("both", 0, tuple(first), 0),)
            self.field, self.grow_after = True, 1
        else:
            self.sides = (Side("first", 0, tuple(first), 1), Side("second", 1, tuple(second), 0))
            self.field, self.grow_after = False, min(4, horizon)
        self.space = space

    @property
    def names(self) -> tuple[str, ...]:
        """The sides' names, in order."""
        return tuple(s.name for s in self.sides)

    def population_cells(self, pops: list[list[int]]) -> list[tuple[int, int]]:
        """Every pairing the populations play at the horizon: each population deck against the other side's."""
        if len(self.sides) == 1:
            return [(i, j) for i in pops[0] for j in pops[0] if i != j]
        return [(i, j) for i in pops[0] for j in pops[1]]

    def against(self, supports: list, weights: list, refs: list[float], se: float = 0.0) -> list[Against]:
        """For each side, what its candidates face (:class:`Against`), from :meth:`mixtures`' answer and the value's
        standard error (:meth:`value_se`)."""
        return [Against(supports[side.opponent], weights[side.opponent], refs[side.index], se) for side in self.sides]

    def value_se(self, tally: Tally, supports: list, weights: list) -> float:
        """The standard error of the seats' value ``v``, the mixtures' weighted score over the pairings of their
        decks, each rate shrunk by one virtual win and loss as :meth:`Tally.seat_score` does (0 for alike seats,
        whose value is 1/2 by symmetry; infinite while a pairing of the mixtures is unplayed)."""
        if len(self.sides) == 1:
            return 0.0
        var = 0.0
        for i, wi in zip(supports[0], weights[0], strict=True):
            for j, wj in zip(supports[1], weights[1], strict=True):
                g = tally.n[i, j]
                if g == 0:
                    return float("inf")
                p = (tally.pts[i, j] + 1) / (g + 2)
                var += (wi * wj) ** 2 * p * (1 - p) / g
        return float(np.sqrt(var))

    def mixtures(self, tally: Tally, pops: list[list[int]], tol: float) -> tuple[list, list, list[float]]:
        """Each side's metagame of the populations ``pops``, and the score each side's decks are judged against.

        Returns:
            ``(supports, weights, refs)``: per side its mixture decks (population order) and weights summing
            to 1 (weights below ``tol`` dropped, the rest renormalised), and its reference score: 1/2 for
            alike seats, else the first seat's value ``v`` and the second's ``1 - v``.
        """
        from simkit.analysis.metagame import nash_mix, seat_metagame

        if len(self.sides) == 1:
            pop = pops[0]
            if len(pop) == 1:
                return [list(pop)], [np.ones(1)], [0.5]
            w = nash_mix(tally.rate_table(pop, self.space.decks)).to_numpy()
            keep = w > tol
            return [[d for d, k in zip(pop, keep, strict=True) if k]], [w[keep] / w[keep].sum()], [0.5]
        p0, p1 = pops
        rates = np.array([[tally.pts[i, j] / tally.n[i, j] for j in p1] for i in p0])
        table = pd.DataFrame(rates, index=[f"{k}" for k in range(len(p0))], columns=[f"{k}" for k in range(len(p1))])
        meta = seat_metagame(table)
        supports, weights = [], []
        for side, pop in zip(self.sides, pops, strict=True):
            part = meta[meta["seat"] == side.name]
            w = np.zeros(len(pop))
            w[part["deck"].astype(int).to_numpy()] = part["weight"].to_numpy()
            keep = w > tol
            supports.append([d for d, k in zip(pop, keep, strict=True) if k])
            weights.append(w[keep] / w[keep].sum())
        pos0, pos1 = {d: k for k, d in enumerate(p0)}, {d: k for k, d in enumerate(p1)}
        sub = rates[np.ix_([pos0[d] for d in supports[0]], [pos1[d] for d in supports[1]])]
        v = float(weights[0] @ sub @ weights[1])
        return supports, weights, [v, 1.0 - v]


def by_side(summary: dict) -> dict:
    """A ``summary.json`` with its per-side answers by side name (a run written before every explore had two
    seat pools kept an alike-seat run's answers bare and marked a seat-pool run ``seat_pools``)."""
    if "seats" in summary:
        return summary
    if summary.get("seat_pools"):
        return {**summary, "seats": ["first", "second"]}
    out = {**summary, "seats": ["both"], "value": 0.5, "pairs": summary["decks"] ** 2}
    for key in ("metagame", "exploitability", "exploitability_interval", "best_response", "population", "decks",
                "searched", "strongest"):
        out[key] = {"both": summary[key]}
    return out
