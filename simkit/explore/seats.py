"""The double oracle when the seats have their own pools (Magic War: an army costing 13 sits only second).

The deck-choice game is then zero-sum but not symmetric: the first seat picks a deck of its pool,
the second seat one of its own, and the payoff is the first seat's score in that ordered pairing
(no seat swap: a deck's games in one seat say nothing about the other). Each seat has its own
population and its own mixture, and the game has a value ``v`` (the first seat's expected score
when both seats play their mixtures), no longer 1/2. A round, as :mod:`simkit.explore.oracle`'s:

1. **Population.** Every first-seat population deck plays every second-seat one (that order only)
   ``horizon`` games; a deck in both pools may meet itself (the seats differ).
2. **Metagame.** The maximin mixtures of the population's table
   (:func:`simkit.analysis.metagame.seat_metagame`), weights below ``support_tol`` dropped.
3. **Best responses, per seat.** A first-seat candidate (a searched deck of the first seat's
   pool outside its population) plays every deck of the second seat's mixture at the looks
   1, 2, 4, ... ``horizon``; its score against that mixture is the weighted sum of its matchup
   scores, judged against the value ``v``; a second-seat candidate likewise against the first
   seat's mixture and ``1 - v``. Dropped once its upper bound is below its seat's value plus
   epsilon, added once its lower bound is above the value (or at the horizon its estimate above
   value plus epsilon): the best one per seat per round. The search grows within each seat's pool,
   from the mixture decks and from the candidates within ``band`` of the value once they have
   played 4 games (or the horizon) against every mixture deck: a dice game's first games say little.
   With ``cell_starts``, that many decks of every style cell of each seat's pool are searched
   from the start (the one-edit neighbours never leave a race, say).
4. It stops when no candidate of either seat is left racing (no field phase: a deck's strength
   is its score against the other seat's metagame).

A seat's **exploitability** is how much the other seat's best searched deck scores against that
seat's mixture above the other seat's value: the first seat's ``max_c (1 - x.r[:, c]) - (1 - v)``.
Both are 0 at an equilibrium of the searched decks and sum to the mixtures' NashConv.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simkit.core.seats import SEATS
from simkit.explore.oracle import _next
from simkit.explore.settings import ExploreSettings
from simkit.explore.space import DeckSpace
from simkit.explore.tally import Tally


def seat_score(tally: Tally, c: int, seat: int, opponents, weights) -> tuple[float, float, int]:
    """Deck ``c``'s expected score in ``seat`` (0 first, 1 second) against the other seat's mixture.

    Returns:
        ``(estimate, standard error, level)``: the level is the fewest games against any opponent;
        an unplayed pairing makes the error infinite (estimate 1/2). The error shrinks each rate by
        one virtual win and one virtual loss, as :meth:`Tally.against`.
    """
    est, var, level = 0.0, 0.0, None
    for j, w in zip(opponents, weights, strict=True):
        g = tally.n[c, j] if seat == 0 else tally.n[j, c]
        level = int(g) if level is None else min(level, int(g))
        if g == 0:
            return 0.5, float("inf"), 0
        won = tally.pts[c, j] if seat == 0 else g - tally.pts[j, c]
        est += w * won / g
        p = (won + 1) / (g + 2)
        var += w * w * p * (1 - p) / g
    return float(est), float(np.sqrt(var)), level or 0


def seat_mixtures(tally: Tally, space: DeckSpace, pops: list[list[int]], tol: float):
    """Both seats' metagames of the populations ``pops`` (first, second) and the game's value.

    Returns:
        ``(supports, weights, v)``: per seat its mixture decks (population order) and weights summing
        to 1 (weights below ``tol`` dropped, the rest renormalised), and ``v``, the first seat's
        expected score when both play their mixtures.
    """
    from simkit.analysis.metagame import seat_metagame

    p0, p1 = pops
    rates = np.array([[tally.pts[i, j] / tally.n[i, j] for j in p1] for i in p0])
    table = pd.DataFrame(rates, index=[f"{k}" for k in range(len(p0))], columns=[f"{k}" for k in range(len(p1))])
    meta = seat_metagame(table)
    supports, weights = [], []
    for seat, pop in zip(SEATS, pops, strict=True):
        part = meta[meta["seat"] == seat]
        w = np.zeros(len(pop))
        w[part["deck"].astype(int).to_numpy()] = part["weight"].to_numpy()
        keep = w > tol
        supports.append([d for d, k in zip(pop, keep, strict=True) if k])
        weights.append(w[keep] / w[keep].sum())
    pos0, pos1 = {d: k for k, d in enumerate(p0)}, {d: k for k, d in enumerate(p1)}
    sub = rates[np.ix_([pos0[d] for d in supports[0]], [pos1[d] for d in supports[1]])]
    v = float(weights[0] @ sub @ weights[1])
    return supports, weights, v


def seat_race(tally: Tally, supports, weights, v: float, seat: int, candidates, s: ExploreSettings) -> dict:
    """Every candidate of ``seat``: ``{deck: (level, estimate, low, high, decision)}`` as :func:`oracle.race`,
    judged against the seat's value (``v`` for the first seat, ``1 - v`` for the second)."""
    ref = v if seat == 0 else 1.0 - v
    other = 1 - seat
    out = {}
    for c in candidates:
        est, se, level = seat_score(tally, c, seat, supports[other], weights[other])
        low, high = max(est - s.z * se, 0.0), min(est + s.z * se, 1.0)
        if level == 0:
            decision = "new"
        elif high < ref + s.epsilon:
            decision = "drop"
        elif low > ref or (level >= s.horizon and est > ref + s.epsilon):
            decision = "add"
        elif level >= s.horizon:
            decision = "horizon"
        else:
            decision = "race"
        out[c] = (level, est, low, high, decision)
    return out


class SeatPlanner:
    """The round planner of an explore whose seats have their own pools (see the module)."""

    def __init__(self, space: DeckSpace, settings: ExploreSettings):
        self.space, self.s = space, settings

    def initial(self) -> dict:
        """The state before any game: each seat's starting population, searched with its neighbours."""
        sp, s = self.space, self.s
        pops, searched = {}, {}
        for k, seat in enumerate(SEATS):
            pool = set(sp.seats[k])
            keys = self._keys(k)
            given = s.start_second if k == 1 and s.start_second else s.start_decks
            if given:
                start = sorted({sp.index(d) for d in given} & pool)
            else:  # the seat's ``start`` decks of smallest key, drawn by the seed, the draw and the seat
                start = sorted(sorted(pool, key=lambda i: (keys[i], i))[: s.start])
            cells: dict = {}
            for i in sorted(pool, key=lambda i: (keys[i], i)):  # every style cell's first decks by the keys
                cells.setdefault(sp.cell(i), []).append(i)
            seeds = {i for found in cells.values() for i in found[: s.cell_starts]}
            pops[seat] = [sp.decks[i] for i in start]
            searched[seat] = [sp.decks[i] for i in sorted(set(start) | seeds | (self._near(start) & pool))]
        return {"phase": "metagame", "population": pops, "searched": searched, "added": [],
                "settings": s.to_dict()}

    def _keys(self, seat: int) -> np.ndarray:
        from simkit.core.rng import derive_seed

        return np.array([derive_seed(self.s.seed, "explore-start", self.s.draw, SEATS[seat], d)
                         for d in self.space.decks], dtype=np.uint64)

    def _near(self, decks) -> set[int]:
        return {j for i in decks for j in self.space.neighbours[i]}

    def __call__(self, layout, df):
        """Plan the next round: the games per ordered pair after it, the state, and why it stops (``""``: on)."""
        st = dict(layout.rounds[-1]["units"]) if layout.rounds else self.initial()
        st["settings"] = self.s.to_dict()
        n = layout.counts[0]
        tally = Tally(self.space.decks, df)
        idx = self.space.index
        target = n.copy()
        while True:
            pops = [[idx(d) for d in st["population"][seat]] for seat in SEATS]
            for i in pops[0]:
                for j in pops[1]:
                    target[i, j] = max(target[i, j], self.s.horizon)
            if (target > n).any():
                return self._finish(layout, n, target, st)
            supports, weights, v = seat_mixtures(tally, self.space, pops, self.s.support_tol)
            verdicts = []
            for k, seat in enumerate(SEATS):
                searched = {idx(d) for d in st["searched"][seat]}
                verdicts.append(seat_race(tally, supports, weights, v, k, sorted(searched - set(pops[k])), self.s))
            adds = []
            for k in range(len(SEATS)):
                best = [(x[1], -c) for c, x in verdicts[k].items() if x[4] == "add"]
                if best:
                    adds.append((k, -max(best)[1], verdicts[k][-max(best)[1]][1]))
            if adds:
                for k, c, est in adds:
                    seat = SEATS[k]
                    st["population"] = {**st["population"], seat: st["population"][seat] + [self.space.decks[c]]}
                    st["added"] = st["added"] + [[len(layout.rounds), seat, self.space.decks[c], round(est, 4)]]
                    self._grow(st, seat, {c})
                continue
            for k, seat in enumerate(SEATS):
                ref = v if k == 0 else 1.0 - v
                promising = [c for c, x in verdicts[k].items()  # within the band after a few games each
                             if x[0] >= min(4, self.s.horizon) and x[1] >= ref - self.s.band]
                grown = self._grow(st, seat, set(supports[k]) | set(promising))
                if grown:
                    verdicts[k].update(seat_race(tally, supports, weights, v, k, sorted(grown), self.s))
                other = supports[1 - k]
                for c, x in verdicts[k].items():
                    if x[4] in ("new", "race"):
                        goal = _next(self.s.looks(), x[0])
                        for o in other:
                            pair = (c, o) if k == 0 else (o, c)
                            target[pair] = max(target[pair], goal)
            if (target > n).any():
                return self._finish(layout, n, target, st)
            st["phase"] = "done"
            return None, st, "settled"

    def _grow(self, st: dict, seat: str, around: set[int]) -> set[int]:
        """Add the neighbours (in the seat's pool) of ``around`` to the seat's searched decks; returns the new ones."""
        k = SEATS.index(seat)
        searched = {self.space.index(d) for d in st["searched"][seat]}
        grown = (self._near(around) & set(self.space.seats[k])) - searched
        if grown:
            st["searched"] = {**st["searched"], seat: [self.space.decks[i] for i in sorted(searched | grown)]}
        return grown

    def _finish(self, layout, n, target, st):
        """The round's counts, or a stop when it would pass ``max_games``."""
        target = np.minimum(target, self.s.horizon)
        if self.s.max_games and layout.total_games + int((target - n).sum()) > self.s.max_games:
            return None, st, "max_games"
        return target[None], st, ""
