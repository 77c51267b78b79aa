"""The double oracle: which games the next round plays, from the games played so far and the last round's state.

One round at a time, as an adaptive sweep's (:func:`simkit.sweep.run_sweep` with ``planner=``):

1. **Population.** Every ordered pair of the population (the decks of the metagame so far) plays
   ``horizon`` games.
2. **Metagame.** The Nash mixture of the population's win-rate table
   (:func:`simkit.analysis.metagame.nash_mix`), weights below ``support_tol`` dropped.
3. **Best response.** Every searched deck outside the population is a candidate, raced against
   the mixture: it plays each mixture deck (both seats) at the looks 1, 2, 4, ... ``horizon``
   games; its rate against the mixture is the weighted sum of its matchup rates. A candidate is
   *dropped* once its upper bound is below 1/2 + epsilon, *added* to the population once its lower
   bound is above 1/2 (or, at the horizon, its estimate above 1/2 + epsilon): the best one added
   per round, then back to 1. The search grows by one-card swaps: the neighbours of every mixture
   deck and of every candidate whose estimate is within ``band`` of 1/2 join the candidates.
4. **Strongest decks.** Once no candidate is left racing, the ``contenders`` decks of greatest
   Bradley-Terry strength play the whole field (every deck of the pool, both seats) at the field
   looks, until the ``top`` strongest are told apart from the rest (or the last look). A deck
   whose rating, optimistic by ``z`` standard errors, reaches the ``top``-th best lower bound joins
   the race late (at most ``top // 2`` a round): its few games may have hidden a strong deck.
   The field's games also count against the mixture: a candidate they reopen is raced again (back
   to 1), so when the run stops every searched deck is dropped, at the horizon or in the population.

The state (population, searched decks, phase) is the round's record in ``meta.json``; the next
round is a function of that record and the games alone, so a resumed run plans the very same rounds.
"""

from __future__ import annotations

import numpy as np

from simkit.explore.settings import ExploreSettings
from simkit.explore.space import DeckSpace
from simkit.explore.tally import Tally


def mixture(tally: Tally, space: DeckSpace, population: list[int], tol: float) -> tuple[list[int], np.ndarray]:
    """The metagame of ``population``: its mixture decks and their weights (summing to 1).

    The maximum-entropy Nash mixture of the population's explored win-rate table, weights below
    ``tol`` dropped and the rest renormalised; the decks in population order.
    """
    from simkit.analysis.metagame import nash_mix

    if len(population) == 1:
        return list(population), np.ones(1)
    w = nash_mix(tally.rate_table(population, space.decks)).to_numpy()
    keep = w > tol
    support = [d for d, k in zip(population, keep, strict=True) if k]
    weights = w[keep] / w[keep].sum()
    return support, weights


def race(tally: Tally, support: list[int], weights: np.ndarray, candidates: list[int], s: ExploreSettings) -> dict:
    """Every candidate's level, estimate against the mixture, bounds and decision.

    Returns:
        ``{deck: (level, estimate, low, high, decision)}`` with decision ``new`` (no game yet),
        ``drop``, ``add``, ``horizon`` (at the horizon, neither) or ``race``.
    """
    out = {}
    for c in candidates:
        level = tally.level(c, support)
        est, se = tally.against(c, support, weights)
        low, high = max(est - s.z * se, 0.0), min(est + s.z * se, 1.0)
        if level == 0:
            decision = "new"
        elif high < 0.5 + s.epsilon:
            decision = "drop"
        elif low > 0.5 or (level >= s.horizon and est > 0.5 + s.epsilon):
            decision = "add"
        elif level >= s.horizon:
            decision = "horizon"
        else:
            decision = "race"
        out[c] = (level, est, low, high, decision)
    return out


def field_of(space: DeckSpace, s: ExploreSettings) -> list[int]:
    """The field the strongest decks are measured against: the pool, or ``field_size`` decks drawn by the seed."""
    if not s.field_size or s.field_size >= len(space):
        return list(range(len(space)))
    return space.start(s.seed ^ 0x5EED, s.field_size)


def field_race(tally: Tally, contenders: list[int], field: list[int], s: ExploreSettings) -> dict:
    """Every contender's field level, rate against the field, bounds and decision (``in``, ``out``, ``race``).

    A contender is ``in`` when its lower bound is above the ``top + 1``-th highest upper bound of the
    others, ``out`` when its upper bound is below the ``top``-th highest lower bound of the others.
    """
    rows = {c: (tally.level(c, field), *tally.field_rate(c, field)) for c in contenders}
    low = {c: max(est - s.z * se, 0.0) for c, (_, est, se) in rows.items()}
    high = {c: min(est + s.z * se, 1.0) for c, (_, est, se) in rows.items()}
    out = {}
    for c, (level, est, _) in rows.items():
        others_high = sorted((high[o] for o in contenders if o != c), reverse=True)
        others_low = sorted((low[o] for o in contenders if o != c), reverse=True)
        if len(contenders) <= s.top or low[c] > others_high[s.top - 1]:
            decision = "in"
        elif high[c] < others_low[s.top - 1]:
            decision = "out"
        else:
            decision = "race"
        if level == 0:
            decision = "race"
        out[c] = (level, est, low[c], high[c], decision)
    return out


def _next(looks, level: int) -> int:
    """The first look above ``level`` (``level`` itself past the last look)."""
    for k in looks:
        if k > level:
            return k
    return level


class Planner:
    """The explore run's round planner, ``(layout, games) -> (counts, state, reason)`` (see the module)."""

    def __init__(self, space: DeckSpace, settings: ExploreSettings):
        self.space, self.s = space, settings

    def initial(self) -> dict:
        """The state before any game: the starting population, searched (with its neighbours)."""
        start = (sorted({self.space.index(d) for d in self.s.start_decks}) if self.s.start_decks
                 else self.space.start(self.s.seed, self.s.start, self.s.draw))
        return {"phase": "metagame", "population": [self.space.decks[i] for i in start],
                "searched": [self.space.decks[i] for i in sorted(set(start) | self._near(start))],
                "added": [], "contenders": [], "settings": self.s.to_dict()}

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
            if st["phase"] == "metagame":
                pop = [idx(d) for d in st["population"]]
                for i in pop:
                    for j in pop:
                        if i != j:
                            target[i, j] = max(target[i, j], self.s.horizon)
                if (target > n).any():
                    return self._finish(layout, n, target, st)
                support, weights = mixture(tally, self.space, pop, self.s.support_tol)
                searched = {idx(d) for d in st["searched"]}
                cands = sorted(searched - set(pop))
                verdict = race(tally, support, weights, cands, self.s)
                best = [(v[1], -c) for c, v in verdict.items() if v[4] == "add"]
                if best:
                    c = -max(best)[1]
                    st["population"] = st["population"] + [self.space.decks[c]]
                    added = [len(layout.rounds), self.space.decks[c], round(verdict[c][1], 4)]
                    st["added"] = st["added"] + [added]
                    searched |= set(self.space.neighbours[c])
                    st["searched"] = [self.space.decks[i] for i in sorted(searched)]
                    continue
                promising = [c for c, v in verdict.items() if v[4] != "new" and v[1] >= 0.5 - self.s.band]
                grown = (self._near(support) | self._near(promising)) - searched
                if grown:
                    searched |= grown
                    st["searched"] = [self.space.decks[i] for i in sorted(searched)]
                    verdict.update(race(tally, support, weights, sorted(grown), self.s))
                for c, v in verdict.items():
                    if v[4] in ("new", "race"):
                        goal = _next(self.s.looks(), v[0])
                        for sd in support:
                            if sd != c:
                                target[c, sd] = max(target[c, sd], goal)
                                target[sd, c] = max(target[sd, c], goal)
                if (target > n).any():
                    return self._finish(layout, n, target, st)
                st["phase"] = "field"
                pred = tally.predicted_field_rate(field_of(self.space, self.s))
                played = np.flatnonzero(tally.games.sum(1) > 0)
                order = set(sorted(played, key=lambda i: (-pred[i], i))[: self.s.contenders])
                order |= {idx(d) for d in st["contenders"]}  # a second pass keeps the first's contenders
                st["contenders"] = [self.space.decks[i] for i in sorted(order)]
                continue
            if st["phase"] == "field":
                field = field_of(self.space, self.s)
                contenders = [idx(d) for d in st["contenders"]]
                verdict = field_race(tally, contenders, field, self.s)
                late = self._late_contenders(tally, field, contenders, verdict)
                if late:
                    contenders = sorted(contenders + late)
                    st["contenders"] = [self.space.decks[i] for i in contenders]
                    verdict = field_race(tally, contenders, field, self.s)
                for c, v in verdict.items():
                    if v[4] == "race" and v[0] < self.s.field_looks[-1]:
                        goal = _next(self.s.field_looks, v[0])
                        for f in field:
                            if f != c:
                                target[c, f] = max(target[c, f], goal)
                                target[f, c] = max(target[f, c], goal)
                if (target > n).any():
                    return self._finish(layout, n, target, st)
                pop = [idx(d) for d in st["population"]]
                support, weights = mixture(tally, self.space, pop, self.s.support_tol)
                cands = sorted({idx(d) for d in st["searched"]} - set(pop))
                if any(v[4] in ("new", "race", "add") for v in race(tally, support, weights, cands, self.s).values()):
                    st["phase"] = "metagame"  # the field's games reopened a candidate: race it again
                    continue
                st["phase"] = "done"
            return None, st, "settled"

    def _late_contenders(self, tally: Tally, field: list[int], contenders: list[int], verdict: dict) -> list[int]:
        """Decks that join the strongest-deck race late: the Bradley-Terry rate against the field of a
        deck with few games, raised by ``z`` of its standard error, reaches the ``top``-th best lower
        bound of the contenders (the field games of the contenders keep sharpening every deck's rating)."""
        if len(contenders) < self.s.top or any(v[0] == 0 for v in verdict.values()):
            return []
        bar = sorted((v[2] for v in verdict.values()), reverse=True)[self.s.top - 1]
        pred = tally.predicted_field_rate(field)
        games = tally.games.sum(1)
        hopeful = pred + self.s.z * np.sqrt(pred * (1 - pred) / np.maximum(games, 1))
        taken = set(contenders)
        late = [i for i in range(len(self.space)) if i not in taken and games[i] > 0 and hopeful[i] >= bar]
        return sorted(sorted(late, key=lambda i: (-pred[i], i))[: max(1, self.s.top // 2)])

    def _finish(self, layout, n, target, st):
        """The round's counts, or a stop when it would pass ``max_games``."""
        target = np.minimum(target, self.s.horizon)
        if self.s.max_games and layout.total_games + int((target - n).sum()) > self.s.max_games:
            return None, st, "max_games"
        return target[None], st, ""
