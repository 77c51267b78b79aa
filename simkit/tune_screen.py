"""The screening plan of ``simkit tune``: play each knob's single changes, then combine the best.

Game-agnostic. A designer balancing by hand first tries each number alone ("what does Archer L2
attack 2 -> 1 do?") and then puts together the changes that helped. :func:`screen_changes` lists
those single changes (each knob at both ends of its range). Once they are played,
:class:`Additive` reads every candidate's sweep as a table of matchup scores and predicts a
combination by adding the single changes' effects on each matchup (an effect at a value between
today's and the screened end is scaled linearly), and :func:`best_combinations` searches (a beam
over 1..``max_changes`` changes) for the combinations whose predicted objective is lowest (in the
first round no two sharing more than one knob). The tune plays those for real; the prediction
only chooses what to play. Further rounds re-anchor the model on the best candidate played so far
(:meth:`Additive.anchored`), so a round corrects what the previous one's prediction got wrong
about its own changes together.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from simkit.analysis import FlagBands, deck_games, first_score

__all__ = ["Additive", "MatchupTable", "best_combinations", "matchup_table", "outside_band", "screen_changes"]

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
    """One sweep reduced to what the objective needs, as arrays over the deck pool.

    Attributes:
        points: ``float[D, D]``, the mean points of deck i against deck j (both seats, mirrors 1/2).
        games: ``float[D, D]``, the games behind each cell (both seats).
        first: the first player's mean points over every game (mirrors included).
    """

    points: np.ndarray
    games: np.ndarray
    first: float


def matchup_table(df: pd.DataFrame, decks: Sequence[str]) -> MatchupTable:
    """The :class:`MatchupTable` of one sweep over ``decks`` (in that order)."""
    view = deck_games(df, mirrors=False)
    g = view.groupby(["deck", "opponent"])["points"].agg(["sum", "size"])
    idx = {d: i for i, d in enumerate(decks)}
    n = len(decks)
    pts, games = np.zeros((n, n)), np.zeros((n, n))
    for (d, o), row in g.iterrows():
        pts[idx[d], idx[o]], games[idx[d], idx[o]] = row["sum"], row["size"]
    mean = np.where(games > 0, pts / np.maximum(games, 1), 0.5)
    np.fill_diagonal(mean, 0.5)
    return MatchupTable(mean, games, float(first_score(df).mean()) if len(df) else 0.5)


def outside_band(rates: np.ndarray, bands: FlagBands) -> np.ndarray:
    """The distance of each deck win rate outside the report's deck band (0 inside it)."""
    lo, hi = bands.deck
    return np.maximum(0.0, np.maximum(lo - rates, rates - hi))


def _rates(points: np.ndarray, games: np.ndarray) -> np.ndarray:
    """Each deck's win rate over its games: ``points[..., D, D]`` weighted by ``games[D, D]``."""
    return (points * games).sum(axis=-1) / np.maximum(games.sum(axis=-1), 1)


def _terms(points: np.ndarray, games: np.ndarray, first: np.ndarray, bands: FlagBands,
           reference: np.ndarray) -> dict[str, np.ndarray]:
    """:func:`simkit.tune.balance_terms` over a stack of predicted tables ``points[K, D, D]``, ``pushed``
    against the base game's deck rates ``reference``."""
    points = np.clip(points, 0.0, 1.0)
    rates = _rates(points, games)  # [K, D]
    outside = outside_band(rates, bands)
    iu = np.triu_indices(points.shape[1], 1)
    played = games[iu] > 0
    beyond = np.maximum(0.0, np.abs(points[:, iu[0], iu[1]][:, played] - 0.5) - (bands.matchup - 0.5))
    return {"spread": rates.std(axis=1), "band": outside.mean(axis=1),
            "matchup": beyond.mean(axis=1) if beyond.shape[1] else np.zeros(len(points)),
            "first_player": np.abs(first - 0.5),
            "pushed": np.maximum(0.0, outside - outside_band(reference, bands)).sum(axis=1)}


class Additive:
    """Predicts a combination of changes by adding the single changes' effects on every matchup.

    Args:
        knobs: the tune's knobs (:class:`simkit.tune.Knob`).
        base: the base's tables, one per bot pairing (a candidate counts by its worst pairing).
        singles: ``[(key, value, tables), ...]`` for every single change played (value at a range end).
        score: the balance objective of one pairing's terms (``simkit.tune.score`` with the weights).
        cost: the price of a patch (``simkit.tune.change_cost`` with the weights).
        bands: the report's bands.
        reference: the base game's deck rates per pairing, for the ``pushed`` term (default: those of
            ``base``; give them when ``base`` is itself a patched game).
    """

    def __init__(self, knobs, base: Sequence[MatchupTable], singles, score: Callable, cost: Callable,
                 bands: FlagBands, reference: Sequence[np.ndarray] | None = None):
        self.base, self.score, self.cost, self.bands = list(base), score, cost, bands
        self.reference = list(reference) if reference is not None else [_rates(t.points, t.games) for t in self.base]
        by_key = {k.key: k for k in knobs}
        effect = {}
        for key, value, tables in singles:
            cur = by_key[key].current
            effect[(key, value > cur)] = (value - cur, [(t.points - b.points, t.first - b.first)
                                                       for t, b in zip(tables, self.base)])
        # every value of every knob on a side whose end was played: (key, before, value, effect per pairing)
        self.options = []
        for k in knobs:
            for v in k.values():
                side = effect.get((k.key, v > k.current))
                if v == k.current or side is None:
                    continue
                f = (v - k.current) / side[0]
                self.options.append((k.key, k.current, v, [(f * dp, f * df) for dp, df in side[1]]))
        self.index = {(key, v): i for i, (key, _, v, _) in enumerate(self.options)}

    def anchored(self, tables: Sequence[MatchupTable], changes: dict[str, tuple]) -> Additive:
        """The model re-anchored on a played candidate: a combination is predicted as that candidate's own
        tables plus the effects of the changes it adds, less the effects of those it drops. What the
        single changes miss about the anchor's own changes together (their interaction) is then measured,
        not guessed. A change of the anchor with no screened effect counts as none."""
        picks = [self.index[k, a] for k, (_, a) in changes.items() if (k, a) in self.index]
        out = copy.copy(self)
        out.base = [MatchupTable(t.points - sum((self.options[i][3][p][0] for i in picks), np.zeros_like(t.points)),
                                 t.games, t.first - sum(self.options[i][3][p][1] for i in picks))
                    for p, t in enumerate(tables)]
        return out

    def effect_size(self, i: int) -> float:
        """How far ``options[i]`` alone moves the game: the root mean square of its effect on the matchups'
        points (win-rate units), in the bot pairing it moves most. A big lever is where adding effects is
        least to be trusted: what it does on top of other changes is best measured."""
        return max(float(np.sqrt(np.nanmean(np.square(dp)))) for dp, _ in self.options[i][3])

    def predict_changes(self, changes: dict[str, tuple]) -> float:
        """The predicted objective of ``changes`` (``{key: (before, after)}``, each a value of the options)."""
        return self.predict([self.index[k, a] for k, (_, a) in changes.items()])

    def predict(self, picks: Sequence[int]) -> float:
        """The predicted objective of the combination of ``options[i]`` for ``i`` in ``picks``."""
        return float(self._objective([list(picks)])[0])

    def _objective(self, combos: list[list[int]]) -> np.ndarray:
        worst = np.full(len(combos), -np.inf)
        for p, b in enumerate(self.base):
            pts = np.stack([b.points + sum((self.options[i][3][p][0] for i in c), np.zeros_like(b.points))
                            for c in combos])
            first = np.array([b.first + sum(self.options[i][3][p][1] for i in c) for c in combos])
            terms = _terms(pts, b.games, first, self.bands, self.reference[p])
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
    model's errors rather than try ``n`` variants of one idea.
    """
    if not model.options or n < 1:
        return []
    keys = [o[0] for o in model.options]
    found: dict[tuple, float] = {}
    layer: list[tuple[int, ...]] = [()]
    for _ in range(max_changes):
        combos = [c + (i,) for c in layer for i in range(len(keys))
                  if (not c or i > c[-1]) and keys[i] not in {keys[j] for j in c}]
        if not combos:
            break
        values = model._objective([list(c) for c in combos])
        order = np.lexsort((np.arange(len(combos)), values))
        for j in order:
            found[combos[j]] = float(values[j])
        layer = [combos[j] for j in order[:beam]]
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
