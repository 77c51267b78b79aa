"""The double oracle: which games the next round plays, from the games played so far and the last round's state.

One round at a time, as an adaptive sweep's (:func:`simkit.sweep.run_sweep` with ``planner=``), over the sides
of the deck-choice game (:class:`~simkit.explore.game.DeckGame`: one side ``both`` when the seats are alike,
the ``first`` and ``second`` seats when each has its own pool):

1. **Population.** Every population deck of a side plays every population deck of the side it meets
   (alike seats: each other deck of the one population, both seatings) ``horizon`` games (``population_games``
   when set: then a population deck's games against the mixture it meets climb the looks as a candidate's do,
   until its bound against the mixture is decided, so the games go to the pairings the guarantee rests on).
2. **Metagame.** Each side's mixture of the populations' table (:meth:`DeckGame.mixtures`), weights below
   ``support_tol`` dropped, and the score each side's decks are judged against (1/2 for alike seats; the
   game's value ``v`` for the first seat and ``1 - v`` for the second).
3. **Best responses.** Every searched deck of a side outside its population is a candidate, raced against
   the mixture of the side it meets: it plays each mixture deck (in the seatings the side makes) at the looks
   1, 2, 4, ... ``horizon`` games; its score against the mixture is the weighted sum of its matchup scores.
   A candidate is *dropped* once its upper bound is below its side's reference plus epsilon, *added* to the
   population once its lower bound is above the reference (or, at the horizon, its estimate above it plus
   epsilon): the best one per side per round, then back to 1. The search grows by one edit within each
   side's pool: the neighbours of every mixture deck and of every candidate within ``band`` of the reference
   (once it has played :attr:`DeckGame.grow_after` games against every mixture deck) join the candidates;
   with ``cell_starts``, that many decks of every style cell of a side's pool are searched from the start.
   With ``focus``, while the mixture still changes only each side's ``focus`` most promising undecided candidates
   play (their score against the mixture, an unplayed matchup counted at the deck's rate against all it met), none
   past ``population_games`` games a mixture deck, and the population's own games do not climb; once none of them
   beats it, every candidate is raced against that mixture (the *certify* pass) before the
   run settles, and a deck added there starts the focused search again.
4. **Strongest decks** (a game with a field, alike seats). Once no candidate is left racing, the
   ``contenders`` decks of greatest Bradley-Terry strength play the whole field (every deck of the pool, both
   seats) at the field looks, until the ``top`` strongest are told apart from the rest (or the last look). A
   deck whose rating, optimistic by ``z`` standard errors, reaches the ``top``-th best lower bound joins
   the race late (at most ``top // 2`` a round): its few games may have hidden a strong deck.
   The field's games also count against the mixture: a candidate they reopen is raced again (back
   to 1), so when the run stops every searched deck is dropped, at the horizon or in the population.

The state (each side's population and searched decks, the phase) is the round's record in ``meta.json``; the
next round is a function of that record and the games alone, so a resumed run plans the very same rounds.
"""

from __future__ import annotations

import numpy as np

from simkit.explore.game import Against, DeckGame, Side
from simkit.explore.settings import ExploreSettings
from simkit.explore.space import DeckSpace
from simkit.explore.tally import Tally


def race(tally: Tally, side: Side, against: Against, candidates, s: ExploreSettings, z: float | None = None) -> dict:
    """Every candidate of ``side``: its level, estimate against the mixture, bounds and decision.

    Args:
        tally: the games so far.
        side: the candidates' side (:class:`~simkit.explore.game.Side`).
        against: the mixture of the side it meets, the score the side's decks are judged against (1/2, or the
            seat's value) and that score's standard error: :class:`~simkit.explore.game.Against`.
        candidates: the decks raced.
        s: the settings (epsilon, z, horizon).
        z: the bounds' width in standard errors (:func:`race_z`; default ``s.z``).

    Returns:
        ``{deck: (level, estimate, low, high, decision)}`` with decision ``new`` (no game yet),
        ``drop``, ``add``, ``horizon`` (at the horizon, neither) or ``race``. The bounds are the deck's
        score ``z`` standard errors of its score less the reference (the deck's and the value's errors
        together) either side: a deck is dropped once its upper bound is below the reference plus epsilon.
        It is added once its score is ``s.z`` of its own standard errors above the reference (a deck added
        needlessly only costs games; the guarantee never rests on an addition).
    """
    out, ref = {}, against.ref
    z = s.z if z is None else z
    for c in candidates:
        est, se, level = side.score(tally, c, against.decks, against.weights)
        width = z * float(np.hypot(se, against.se))
        low, high = max(est - width, 0.0), min(est + width, 1.0)
        if level == 0:
            decision = "new"
        elif high < ref + s.epsilon:
            decision = "drop"
        elif est - s.z * se > ref or (level >= s.horizon and est > ref + s.epsilon):
            decision = "add"
        elif level >= s.horizon:
            decision = "horizon"
        else:
            decision = "race"
        out[c] = (level, est, low, high, decision)
    return out


def race_z(game: DeckGame, s: ExploreSettings) -> float:
    """The width of the bounds decks are dropped on: :meth:`ExploreSettings.family_z` over every deck of the
    game's pools (and its value, when the seats have their own pools)."""
    return s.family_z(sum(len(side.pool) for side in game.sides) + (len(game.sides) > 1))


def searched_of(st: dict, side: Side, space: DeckSpace) -> set[int]:
    """The decks ``side`` has searched by the state ``st`` (``"all"``: every deck of its pool)."""
    kept = st["searched"][side.name]
    return set(side.pool) if kept == "all" else {space.index(d) for d in kept}


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
    """The explore run's round planner, ``(layout, games) -> (counts, state, reason)`` (see the module).

    The layout's counts are the plan's pools (first seat's decks by the second's, :class:`SeatPools`); the
    planner works on the space's decks in both seats and reads and writes the pairings the pools hold.

    Attributes:
        columns: the only columns of the games it reads (the sweep holds no other between rounds).
    """

    columns = ("first_deck", "second_deck", "winner")

    def __init__(self, space: DeckSpace, settings: ExploreSettings):
        self.space, self.s = space, settings
        self.game = DeckGame(space, settings.horizon)
        self.z = race_z(self.game, settings)
        self._tally, self._seen = None, 0
        self._rows, self._cols = (np.asarray(pool, np.int64) for pool in space.seats)

    def initial(self) -> dict:
        """The state before any game: each side's starting population, searched with its neighbours (and, with
        ``cell_starts``, that many decks of every style cell of its pool)."""
        sp, s = self.space, self.s
        pops, searched = {}, {}
        for side in self.game.sides:
            given = s.start_second if side.name == "second" and s.start_second else s.start_decks
            keys = self._keys(side)
            ranked = sorted(side.pool, key=lambda i: (keys[i], i))
            if given:
                start = sorted({sp.index(d) for d in given} & set(side.pool))
            else:  # the side's ``start`` decks of smallest key, drawn by the seed, the draw (and the seat)
                start = sorted(ranked[:max(1, min(s.start, len(ranked)))])
            cells: dict = {}
            for i in ranked:  # every style cell's first decks by the keys
                cells.setdefault(sp.cell(i), []).append(i)
            seeds = {i for found in cells.values() for i in found[: s.cell_starts]}
            pops[side.name] = [sp.decks[i] for i in start]
            if s.search == "all":  # every deck of the pool, from the start (kept as one word: a pool of thousands)
                searched[side.name] = "all"
                continue
            searched[side.name] = [sp.decks[i] for i in sorted(set(start) | seeds | (self._near(start) &
                                                                                      set(side.pool)))]
        return {"phase": "metagame", "population": pops, "searched": searched, "added": [], "contenders": [],
                "settings": s.to_dict()}

    def _keys(self, side: Side) -> np.ndarray:
        from simkit.core.rng import derive_seed

        seat = () if side.name == "both" else (side.name,)  # alike seats draw as before seats had pools
        return np.array([derive_seed(self.s.seed, "explore-start", self.s.draw, *seat, d) for d in self.space.decks],
                        dtype=np.uint64)

    def _near(self, decks) -> set[int]:
        return {j for i in decks for j in self.space.neighbours[i]}

    def _grow(self, st: dict, side: Side, around) -> set[int]:
        """Add the neighbours (in the side's pool) of ``around`` to its searched decks; returns the new ones."""
        if st["searched"][side.name] == "all":
            return set()
        searched = searched_of(st, side, self.space)
        grown = (self._near(around) & set(side.pool)) - searched
        if grown:
            st["searched"] = {**st["searched"], side.name: [self.space.decks[i] for i in sorted(searched | grown)]}
        return grown

    def __call__(self, layout, df):
        """Plan the next round: the games per pairing after it, the state, and why it stops (``""``: on)."""
        st = state_of(layout.rounds[-1]["units"], self.game) if layout.rounds else self.initial()
        st["settings"] = self.s.to_dict()
        n = self._square(layout.counts[0])
        tally = self._tally_of(df)
        target = n.copy()
        while True:
            if st["phase"] == "metagame":
                found = self._metagame_round(layout, st, tally, n, target)
                if found == "continue":
                    continue
                if found is not None:
                    return found
                if self.game.field:
                    st["phase"] = "field"
                    self._pick_contenders(st, tally)
                    continue
                st["phase"] = "done"
                return None, st, "settled"
            if st["phase"] == "field":
                found = self._field_round(layout, st, tally, n, target)
                if found is not None:
                    return found
                continue
            return None, st, "settled"

    def _tally_of(self, df) -> Tally:
        """The tally of the games ``df``, kept between rounds: a round's games follow the earlier rounds' (its chunks
        are numbered on), so only the rows past the last call's are counted anew."""
        seen = 0 if df is None else len(df)
        if self._tally is None or seen < self._seen:
            self._tally, self._seen = Tally(self.space.decks, None), 0
        if seen > self._seen:
            self._tally.add(df.iloc[self._seen:])
            self._seen = seen
        return self._tally

    def _metagame_round(self, layout, st: dict, tally: Tally, n: np.ndarray, target: np.ndarray):
        """One pass of steps 1-3: the round's plan, ``"continue"`` after adding decks, or None once settled."""
        idx, game = self.space.index, self.game
        pops = [[idx(d) for d in st["population"][side.name]] for side in game.sides]
        for cell in game.population_cells(pops):
            target[cell] = max(target[cell], self.s.population_games or self.s.horizon)
        if (target > n).any():
            return self._finish(layout, n, target, st)
        supports, weights, refs = game.mixtures(tally, pops, self.s.support_tol)
        against = game.against(supports, weights, refs, game.value_se(tally, supports, weights))
        verdicts = [race(tally, side, against[side.index],
                         sorted(searched_of(st, side, self.space) - set(pops[side.index])), self.s, self.z)
                    for side in game.sides]
        adds = []
        for side, verdict in zip(game.sides, verdicts, strict=True):
            best = [(x[1], -c) for c, x in verdict.items() if x[4] == "add"]
            if best:
                c = -max(best)[1]
                adds.append((side, c, verdict[c][1]))
        if adds:
            st["certify"] = False  # a new mixture: the focused search again
        for side, c, est in adds:
            st["population"] = {**st["population"], side.name: st["population"][side.name] + [self.space.decks[c]]}
            st["added"] = st["added"] + [[len(layout.rounds), side.name, self.space.decks[c], round(est, 4)]]
            self._grow(st, side, {c})
        if adds:
            return "continue"
        for side, verdict in zip(game.sides, verdicts, strict=True):
            faced = against[side.index]
            promising = [c for c, x in verdict.items() if x[0] >= game.grow_after and x[1] >= faced.ref - self.s.band]
            grown = self._grow(st, side, set(supports[side.index]) | set(promising))
            if grown:
                verdict.update(race(tally, side, faced, sorted(grown), self.s, self.z))
            climbing = dict(verdict)
            focused = self.s.focus and not st.get("certify")
            if focused:
                climbing = self._focus(tally, side, faced, climbing)
            elif self.s.population_games:  # a population deck's games against the mixture it meets climb as a
                # candidate's do until its bound is decided (the mixture's decks' own bounds are the guarantee's)
                climbing.update(race(tally, side, faced, pops[side.index], self.s, self.z))
            for c, x in climbing.items():
                if x[4] in ("new", "race") or (x[4] == "add" and c in pops[side.index]):
                    goal = _next(self.s.looks(), x[0])
                    for o in faced.decks:
                        for cell in side.cells(c, o):
                            target[cell] = max(target[cell], goal)
        if (target > n).any():
            return self._finish(layout, n, target, st)
        if self.s.focus and not st.get("certify"):
            st["certify"] = True  # the focused search found no better deck: every deck is raced against the mixture
            return "continue"
        return None

    def _focus(self, tally: Tally, side: Side, faced: Against, verdict: dict) -> dict:
        """The ``focus`` undecided candidates (``new`` or ``race``) of ``side`` most likely to beat the mixture
        ``faced``: by their score against it, a matchup not yet played counted at the deck's rate against every
        deck it met in its seat (1/2 when it met none), ties by deck. A candidate that has played as many games
        against every mixture deck as two population decks play each other (``population_games``) and is still
        undecided waits for the certify pass: the focused search looks for clearly better decks, not close ones."""
        cap = self.s.population_games or self.s.horizon  # deeper than the population's pairings: the certify pass
        open_ = sorted(c for c, x in verdict.items() if x[4] in ("new", "race") and x[0] < cap)
        if len(open_) <= self.s.focus:
            return {c: verdict[c] for c in open_}
        cand, opp = np.asarray(open_), np.asarray(faced.decks)
        if side.name == "second":  # the candidates' columns: their games and points as the second seat
            seen, won_all = tally.n[:, cand].sum(0), tally.n[:, cand].sum(0) - tally.pts[:, cand].sum(0)
            g = tally.n[np.ix_(opp, cand)].T
            w = g - tally.pts[np.ix_(opp, cand)].T
        elif side.name == "first":
            seen, won_all = tally.n[cand].sum(1), tally.pts[cand].sum(1)
            g, w = tally.n[np.ix_(cand, opp)], tally.pts[np.ix_(cand, opp)]
        else:
            seen, won_all = tally.games[cand].sum(1), tally.won[cand].sum(1)
            g, w = tally.games[np.ix_(cand, opp)], tally.won[np.ix_(cand, opp)]
        prior = np.where(seen > 0, won_all / np.maximum(seen, 1), 0.5)
        rate = np.where(g > 0, w / np.maximum(g, 1), prior[:, None])
        promise = rate @ np.asarray(faced.weights)
        order = np.lexsort((cand, -promise))[: self.s.focus]
        return {int(cand[k]): verdict[int(cand[k])] for k in order}

    def _pick_contenders(self, st: dict, tally: Tally) -> None:
        """The ``contenders`` decks of greatest predicted rate against the field (a second pass keeps the first's)."""
        pred = tally.predicted_field_rate(field_of(self.space, self.s))
        played = np.flatnonzero(tally.games.sum(1) > 0)
        order = set(sorted(played, key=lambda i: (-pred[i], i))[: self.s.contenders])
        order |= {self.space.index(d) for d in st["contenders"]}
        st["contenders"] = [self.space.decks[i] for i in sorted(order)]

    def _field_round(self, layout, st: dict, tally: Tally, n: np.ndarray, target: np.ndarray):
        """Step 4: the round's plan, or None with the phase set (back to the metagame, or done)."""
        idx, side = self.space.index, self.game.sides[0]
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
                    for cell in side.cells(c, f):
                        target[cell] = max(target[cell], goal)
        if (target > n).any():
            return self._finish(layout, n, target, st)
        pop = [idx(d) for d in st["population"][side.name]]
        against = self.game.against(*self.game.mixtures(tally, [pop], self.s.support_tol))
        cands = sorted(searched_of(st, side, self.space) - set(pop))
        again = race(tally, side, against[0], cands, self.s, self.z)
        st["phase"] = "metagame" if any(v[4] in ("new", "race", "add") for v in again.values()) else "done"
        return None  # the field's games reopened a candidate: race it again; else done

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

    def _square(self, counts: np.ndarray) -> np.ndarray:
        """The layout's games per pairing (first seat's pool by the second's) on every deck of the space."""
        d = len(self.space)
        out = np.zeros((d, d), np.int64)
        out[np.ix_(self._rows, self._cols)] = counts
        return out

    def _finish(self, layout, n, target, st):
        """The round's counts on the layout's pairings, or a stop when it would pass ``max_games``."""
        target = np.minimum(target, self.s.horizon)
        if self.s.max_games and layout.total_games + int((target - n).sum()) > self.s.max_games:
            return None, st, "max_games"
        return target[np.ix_(self._rows, self._cols)][None], st, ""


def state_of(state: dict, game: DeckGame) -> dict:
    """A round's recorded state with each side's population and searched decks by side name (a run recorded
    before the seat model was one, with alike seats, kept them as bare lists)."""
    st = dict(state)
    if not isinstance(st.get("population"), dict):
        name = game.names[0]
        st["population"], st["searched"] = {name: st["population"]}, {name: st["searched"]}
        st["added"] = [[r, name, deck, est] for r, deck, est in st.get("added", [])]
    st.setdefault("contenders", [])
    return st
