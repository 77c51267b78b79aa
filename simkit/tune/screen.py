"""The screening plan of ``simkit tune``: play each knob's single changes, then combine the best.

Game-agnostic. A designer balancing by hand first tries each number alone ("what does Archer L2
attack 2 -> 1 do?") and then puts together the changes that helped. :func:`screen_changes` lists
those single changes (each knob at both ends of its range). Once they are played,
:class:`Additive` reads every candidate's sweep as a table of the first seat's score in each seating
of two decks (from which win rates and seat advantages both follow) and predicts a combination by adding the
single changes' effects on each seating (an effect at a value between
today's and the screened end is scaled linearly), and :func:`best_combinations` searches (a beam
over 1..``max_changes`` changes) for the combinations whose predicted objective is lowest (in the
first round no two sharing more than one knob). The tune plays those for real; the prediction
only chooses what to play. Further rounds re-anchor the model on the best candidate played so far
(:meth:`Additive.anchored`), so a round corrects what the previous one's prediction got wrong
about its own changes together.

Adding effects is worst for changes that each move the first seat's edge a lot, one each way: a
faster mana curve that favours the second player and a larger starting mana that gives the first
player back its edge do not add matchup by matchup. :func:`opposed_pairs` names those pairs, the
tune plays them, and the model adds each played pair's measured interaction (what the pair did
beyond its two single effects) to every combination holding both.
"""

from __future__ import annotations

import copy
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simkit.analysis import FlagBands, first_score
from simkit.tune.objective import outside_band, seat_beyond

__all__ = ["Additive", "MatchupTable", "Objective", "best_combinations", "deck_seat_rates", "matchup_table",
           "opposed_pairs", "pooled_points", "screen_changes"]

BEAM = 64  # partial combinations kept at each depth of the search


def screen_changes(knobs: Sequence) -> list[dict[str, tuple]]:
    """The single changes a screening plays: each knob at the low end and at the high end of its range.

    Args:
        knobs: :class:`simkit.tune.Knob` objects.

    Returns:
        ``[{key: (today, value)}, ...]`` in knob order, low end before high end; an end equal to
        today's value is left out.
    """
    out = []
    for k in knobs:
        for v in (k.values()[0], k.values()[-1]):
            if v != k.current and {k.key: (k.current, v)} not in out:
                out.append({k.key: (k.current, v)})
    return out


@dataclass(frozen=True)
class MatchupTable:
    """One sweep reduced to what the objective needs, as arrays over the deck pool, seating by seating.

    Every term of the objective is read from the first seat's points of each seating, so a combination's
    seat advantages are predicted with, and from the same numbers as, its win rates.

    Attributes:
        seat: ``float[D, D]``, the first seat's mean points when deck i moves first against deck j (the
            diagonal holds the mirrors; 1/2 where nothing was played).
        seat_games: ``float[D, D]``, the games behind each cell.
    """

    seat: np.ndarray
    seat_games: np.ndarray

    @property
    def points(self) -> np.ndarray:
        """``float[D, D]``: the mean points of deck i against deck j over both seatings (mirrors 1/2)."""
        return pooled_points(self.seat, self.seat_games)

    @property
    def games(self) -> np.ndarray:
        """``float[D, D]``: the non-mirror games of deck i against deck j, both seatings."""
        return _pair_games(self.seat_games)

    @property
    def first(self) -> float:
        """The first seat's mean points over every game (mirrors included)."""
        return float(_first(self.seat, self.seat_games))

    @classmethod
    def even_seats(cls, points: np.ndarray, games: np.ndarray) -> MatchupTable:
        """A table in which going first is worth nothing: deck i scores ``points[i, j]`` against deck j in
        either seat, over ``games[i, j] / 2`` games of each seating (``points[j, i]`` is ``1 - points[i, j]``)."""
        return cls(np.asarray(points, float), np.asarray(games, float) / 2)


def matchup_table(df: pd.DataFrame, decks: Sequence[str]) -> MatchupTable:
    """The :class:`MatchupTable` of one sweep over ``decks`` (in that order)."""
    idx = {d: i for i, d in enumerate(decks)}
    n = len(decks)
    pts, games = np.zeros((n, n)), np.zeros((n, n))
    if len(df):
        i, j = df["first_deck"].map(idx).to_numpy(int), df["second_deck"].map(idx).to_numpy(int)
        np.add.at(pts, (i, j), first_score(df))
        np.add.at(games, (i, j), 1.0)
    return MatchupTable(np.where(games > 0, pts / np.maximum(games, 1), 0.5), games)


def _pair_games(seat_games: np.ndarray) -> np.ndarray:
    """The non-mirror games of deck i against deck j, both seatings, from the games of each seating."""
    g = seat_games + np.swapaxes(seat_games, -1, -2)
    return g * (1 - np.eye(g.shape[-1]))


def pooled_points(seat: np.ndarray, seat_games: np.ndarray) -> np.ndarray:
    """The mean points of deck i against deck j over both seatings, from the first seat's points
    ``seat[..., D, D]`` of each seating and its games ``seat_games[D, D]`` (1/2 on the diagonal and where
    the decks never met)."""
    moved_first = seat * seat_games
    moved_second = (1 - np.swapaxes(seat, -1, -2)) * seat_games.T
    g = _pair_games(seat_games)
    return np.where(g > 0, (moved_first + moved_second) / np.maximum(g, 1), 0.5)


def _first(seat: np.ndarray, seat_games: np.ndarray) -> np.ndarray:
    """The first seat's mean points over every game, for each table of a stack ``seat[..., D, D]``."""
    total = seat_games.sum()
    return (seat * seat_games).sum(axis=(-1, -2)) / total if total > 0 else np.full(seat.shape[:-2], 0.5)


def deck_seat_rates(seat: np.ndarray, seat_games: np.ndarray) -> np.ndarray:
    """Each deck's first-seat score rate over its non-mirror games in either seat (as
    :func:`simkit.analysis.first_player_advantage` measures it per deck): ``float[..., D]``, 1/2 for a deck
    with no game."""
    g = seat_games * (1 - np.eye(seat_games.shape[-1]))
    won = seat * g
    games = g.sum(axis=-1) + g.sum(axis=-2)
    return np.where(games > 0, (won.sum(axis=-1) + won.sum(axis=-2)) / np.maximum(games, 1), 0.5)


def _rates(points: np.ndarray, games: np.ndarray) -> np.ndarray:
    """Each deck's win rate over its games: ``points[..., D, D]`` weighted by ``games[D, D]``."""
    return (points * games).sum(axis=-1) / np.maximum(games.sum(axis=-1), 1)


def _terms(seat: np.ndarray, seat_games: np.ndarray, bands: FlagBands,
           reference: np.ndarray) -> dict[str, np.ndarray]:
    """:func:`simkit.tune.balance_terms` over a stack of predicted tables ``seat[K, D, D]`` (the first seat's
    points of each seating), ``pushed`` against the base game's deck rates ``reference``."""
    seat = np.clip(seat, 0.0, 1.0)
    points, games = pooled_points(seat, seat_games), _pair_games(seat_games)
    rates = _rates(points, games)  # [K, D]
    outside = outside_band(rates, bands)
    iu = np.triu_indices(points.shape[1], 1)
    played = games[iu] > 0
    beyond = np.maximum(0.0, np.abs(points[:, iu[0], iu[1]][:, played] - 0.5) - (bands.matchup - 0.5))
    return {"spread": rates.std(axis=1), "band": outside.mean(axis=1),
            "matchup": beyond.mean(axis=1) if beyond.shape[1] else np.zeros(len(points)),
            "first_player": np.abs(_first(seat, seat_games) - 0.5),
            "seat": seat_beyond(deck_seat_rates(seat, seat_games), bands).sum(axis=1),
            "pushed": np.maximum(0.0, outside - outside_band(reference, bands)).sum(axis=1)}


@dataclass(frozen=True)
class Objective:
    """How a predicted game is judged: the balance objective of one pairing's terms (``simkit.tune.score`` with the
    weights), the price of a patch (``simkit.tune.change_cost`` with the weights) and the report's bands."""

    score: Callable[[dict], float]
    cost: Callable[[dict], float]
    bands: FlagBands


class Additive:
    """Predicts a combination of changes by adding the single changes' effects on every matchup.

    Args:
        knobs: the tune's knobs (:class:`simkit.tune.Knob`).
        base: the base's tables, one per bot pairing (a candidate counts by its worst pairing).
        singles: ``[(key, value, tables), ...]`` for every single change played (value at a range end).
        objective: how a prediction is judged (:class:`Objective`: score, cost, bands).
        reference: the base game's deck rates per pairing, for the ``pushed`` term (default: those of
            ``base``; give them when ``base`` is itself a patched game).
        pairs: ``[((key, value), (key, value), tables), ...]`` for pairs of single changes played together:
            what a pair did beyond its two single effects (its interaction) is added to every combination
            holding both; at values between today's and those played it is scaled by both fractions.
    """

    def __init__(self, knobs, base: Sequence[MatchupTable], singles, objective: Objective,
                 reference: Sequence[np.ndarray] | None = None, pairs=()):
        self.base, self.score, self.cost, self.bands = list(base), objective.score, objective.cost, objective.bands
        self.reference = list(reference) if reference is not None else [_rates(t.points, t.games) for t in self.base]
        by_key = {k.key: k for k in knobs}
        effect = {}  # (key, side) -> (step screened, [change of the first seat's points per pairing])
        for key, value, tables in singles:
            cur = by_key[key].current
            effect[(key, value > cur)] = (value - cur, [t.seat - b.seat for t, b in zip(tables, self.base)])
        # every value of every knob on a side whose end was played: (key, before, value, effect per pairing)
        self.options = []
        for k in knobs:
            for v in k.values():
                side = effect.get((k.key, v > k.current))
                if v == k.current or side is None:
                    continue
                f = (v - k.current) / side[0]
                self.options.append((k.key, k.current, v, [f * ds for ds in side[1]]))
        self.index = {(key, v): i for i, (key, _, v, _) in enumerate(self.options)}
        self.pairs: dict[tuple[int, int], list[np.ndarray]] = {}  # (i, j), i < j -> interaction per pairing
        for (ka, va), (kb, vb), tables in pairs:
            if (ka, va) not in self.index or (kb, vb) not in self.index or ka == kb:
                continue
            a, b = self.index[ka, va], self.index[kb, vb]
            inter = [t.seat - base_t.seat - ea - eb
                     for t, base_t, ea, eb in zip(tables, self.base, self.options[a][3], self.options[b][3])]
            for i, j in itertools.product(self._same_side(a), self._same_side(b)):
                f = self._fraction(i, a) * self._fraction(j, b)
                self.pairs[min(i, j), max(i, j)] = [f * x for x in inter]

    def _same_side(self, a: int) -> list[int]:
        """The options of ``options[a]``'s knob on the same side of today's value (``a`` among them)."""
        key, cur, v = self.options[a][:3]
        return [i for i, o in enumerate(self.options) if o[0] == key and (o[2] > cur) == (v > cur)]

    def _fraction(self, i: int, a: int) -> float:
        """How far ``options[i]`` goes, as a share of the way to ``options[a]`` (same knob, same side)."""
        _, cur, v = self.options[i][:3]
        return (v - cur) / (self.options[a][2] - cur)

    def _shift(self, picks: Sequence[int], p: int, like: np.ndarray) -> np.ndarray:
        """The predicted change of bot pairing ``p``'s first-seat points from the changes ``picks``: their
        single effects plus the measured interaction of each played pair among them."""
        out = sum((self.options[i][3][p] for i in picks), np.zeros_like(like))
        if self.pairs:
            for ij in itertools.combinations(sorted(picks), 2):
                if ij in self.pairs:
                    out = out + self.pairs[ij][p]
        return out

    def anchored(self, tables: Sequence[MatchupTable], changes: dict[str, tuple]) -> Additive:
        """The model re-anchored on a played candidate: a combination is predicted as that candidate's own
        tables plus the effects of the changes it adds, less the effects of those it drops. What the
        single changes miss about the anchor's own changes together (their interaction) is then measured,
        not guessed. A change of the anchor with no screened effect counts as none."""
        picks = [self.index[k, a] for k, (_, a) in changes.items() if (k, a) in self.index]
        out = copy.copy(self)
        out.base = [MatchupTable(t.seat - self._shift(picks, p, t.seat), t.seat_games) for p, t in enumerate(tables)]
        return out

    def effect_size(self, i: int) -> float:
        """How far ``options[i]`` alone moves the game: the root mean square of its effect on the matchups'
        points (win-rate units), in the bot pairing it moves most. A big lever is where adding effects is
        least to be trusted: what it does on top of other changes is best measured."""
        return max(float(np.sqrt(np.nanmean(np.square(pooled_points(b.seat + ds, b.seat_games) - b.points))))
                   for b, ds in zip(self.base, self.options[i][3]))

    def predict_changes(self, changes: dict[str, tuple]) -> float:
        """The predicted objective of ``changes`` (``{key: (before, after)}``, each a value of the options)."""
        return self.predict([self.index[k, a] for k, (_, a) in changes.items()])

    def predict(self, picks: Sequence[int]) -> float:
        """The predicted objective of the combination of ``options[i]`` for ``i`` in ``picks``."""
        return float(self._objective([list(picks)])[0])

    def _objective(self, combos: list[list[int]]) -> np.ndarray:
        worst = np.full(len(combos), -np.inf)
        for p, b in enumerate(self.base):
            seat = np.stack([b.seat + self._shift(c, p, b.seat) for c in combos])
            terms = _terms(seat, b.seat_games, self.bands, self.reference[p])
            scores = np.array([self.score({k: v[j] for k, v in terms.items()}) for j in range(len(combos))])
            worst = np.maximum(worst, scores)
        costs = np.array([self.cost({self.options[i][0]: (self.options[i][1], self.options[i][2]) for i in c})
                          for c in combos])
        return worst + costs

    def changes(self, picks: Sequence[int]) -> dict[str, tuple]:
        """The combination ``picks`` as ``{key: (before, after)}``."""
        return {self.options[i][0]: (self.options[i][1], self.options[i][2]) for i in picks}


def best_combinations(model: Additive, max_changes: int, n: int, skip: Callable[[dict], bool] = lambda c: False,
                      beam: int = BEAM, diverse: bool = False) -> list[dict[str, tuple]]:
    """The ``n`` combinations of 1..``max_changes`` changes (one value per knob) with the lowest predicted
    objective, best first; ``skip(changes)`` leaves out those already played.

    A beam search: every depth extends the ``beam`` best partial combinations by one more knob. Ties are
    broken by the options' order, so the answer is the same every time. With ``diverse`` no two of the
    answers share more than one knob (the next best is taken instead), so that ``n`` plays hedge the
    model's errors rather than try ``n`` variants of one idea. A pair the model holds a measured
    interaction for (:class:`Additive` ``pairs``) is a partial combination of its own at depth 2, and the
    ``beam`` best combinations holding such a pair are kept beside the others at each depth: its
    two changes are often each bad alone (which is why the pair was played).
    """
    if not model.options or n < 1:
        return []
    keys = [o[0] for o in model.options]
    found: dict[tuple, float] = {}
    layer: list[tuple[int, ...]] = [()]
    for depth in range(1, max_changes + 1):
        combos = [c + (i,) for c in layer for i in range(len(keys))
                  if (not c or i > c[-1]) and keys[i] not in {keys[j] for j in c}]
        if depth == 2:
            combos += sorted(set(model.pairs) - set(combos))
        elif depth > 2 and model.pairs:  # a measured pair's partials take every further knob, before or after
            seen = set(combos)
            more = {tuple(sorted(c + (i,))) for c in layer if _holds_pair(model, c) for i in range(len(keys))
                    if keys[i] not in {keys[j] for j in c}}
            combos += sorted(more - seen)
        if not combos:
            break
        values = model._objective([list(c) for c in combos])
        order = np.lexsort((np.arange(len(combos)), values))
        for j in order:
            found[combos[j]] = float(values[j])
        layer = [combos[j] for j in order[:beam]]
        if model.pairs:
            paired = [combos[j] for j in order if _holds_pair(model, combos[j])][:beam]
            kept = set(layer)
            layer += [c for c in paired if c not in kept]
    out: list[dict[str, tuple]] = []
    for c in sorted(found, key=lambda c: (found[c], c)):
        ch = model.changes(c)
        if diverse and any(len(ch.keys() & o.keys()) > 1 for o in out):
            continue
        if not skip(ch):
            out.append(ch)
        if len(out) == n:
            break
    return out


def _holds_pair(model: Additive, combo: tuple[int, ...]) -> bool:
    """Whether ``combo`` (sorted option indices) holds a pair the model measured."""
    return any(ij in model.pairs for ij in itertools.combinations(combo, 2))


def opposed_pairs(shifts: Sequence[tuple[dict[str, tuple], float]], n: int) -> list[dict[str, tuple]]:
    """The pairs of single changes worth playing together: of the ``n`` that move the first seat's edge most
    (``shifts``: ``[(changes, shift of the first seat's score), ...]``, each one change), every two of
    different knobs that move it opposite ways, in the order of the larger shifts first.

    Each such pair is one a designer would try (one change gives the first player back what the other
    took), and one where adding the two single effects is least to be trusted (the seat term is charged per
    deck, beyond a band, on noisy per-seating figures).
    """
    ranked = sorted(range(len(shifts)), key=lambda i: (-abs(shifts[i][1]), i))[:n]
    out = []
    for x, y in itertools.combinations(ranked, 2):
        (a, da), (b, db) = shifts[x], shifts[y]
        if da * db < 0 and not a.keys() & b.keys():
            out.append({**a, **b})
    return out
