"""Where a figure crosses its target: linear interpolation between the bracketing values, and the
interval of that crossing from bootstrap replicas of the whole curve.

Pure numpy, no game and no file: a curve is the scanned values ``x`` (ascending) and the figure at
each, ``y``. The curve is read as straight lines between neighbouring values; it *crosses* the
target where one value's figure lies on one side of it and the next value's on the other (or on
the target itself). A replica without a crossing in range lies entirely on one side of the
target, which says on which side of the range its crossing is: its crossing counts as below the
smallest value or above the largest, so the interval of crossings can be open at one end
("below 2") rather than silently narrowed to the replicas that happen to cross.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np

__all__ = ["Crossing", "crossing_interval", "crossings", "first_crossing"]


def crossings(x, y, target: float) -> list[float]:
    """Every value where the piecewise-linear curve ``(x, y)`` meets ``target``, ascending.

    A value whose figure equals the target is a crossing itself; a stretch lying on the target
    counts once, at its start. NaN figures break the curve (no crossing is read across them).
    """
    x = np.asarray(x, dtype=float)
    d = np.asarray(y, dtype=float) - target
    out: list[float] = []
    for i in range(len(x)):
        if d[i] == 0 and (i == 0 or d[i - 1] != 0):
            out.append(float(x[i]))
        if i + 1 < len(x) and d[i] * d[i + 1] < 0:
            out.append(float(x[i] + (x[i + 1] - x[i]) * d[i] / (d[i] - d[i + 1])))
    return out


def first_crossing(x, y, target: float) -> float:
    """The smallest value where the curve meets ``target`` (:func:`crossings`), NaN when none does."""
    found = crossings(x, y, target)
    return found[0] if found else float("nan")


@dataclass(frozen=True)
class Crossing:
    """The crossing of a figure's curve with its target, and its 95% interval.

    Attributes:
        target: the figure's target.
        value: the first value where the measured curve meets the target (NaN: none in range).
        low: the interval's lower end (``-inf``: below the smallest value scanned).
        high: the interval's upper end (``inf``: above the largest value scanned).
        crossings: how many times the measured curve meets the target (more than one: not monotone).
        side: without a crossing, where the measured curve lies: ``"above"`` or ``"below"`` the
            target at every value (``""`` when it crosses).
        replicas: bootstrap replicas behind the interval.
        below_range: the share of replicas whose curve crosses below the smallest value.
        above_range: the share of replicas whose curve crosses above the largest value.
        x_min: the smallest value scanned.
        x_max: the largest value scanned.
        left_out: replicas left out because the figure could not be computed at some value.
    """

    target: float
    value: float
    low: float
    high: float
    crossings: int
    side: str
    replicas: int
    below_range: float
    above_range: float
    x_min: float
    x_max: float
    left_out: int = 0

    def as_dict(self) -> dict:
        """The fields as a plain dict (infinities and NaN as Python floats)."""
        return asdict(self)

    def sentence(self, key: str, figure: str, fmt=lambda v: f"{v:g}", games: int = 0, holding: int | None = None,
                 values: int = 0) -> str:
        """The answer in one plain sentence (:func:`simkit.core.words.crossing_verdict`), e.g. ``Settled: the
        first-seat win rate reaches 50% at rules.x = 3.4 (95% interval 3.1 to 3.9)``; "Not settled" when the
        interval runs beyond the values scanned or the curve never reaches the target."""
        from simkit.core.words import crossing_verdict

        if self.replicas == 0 and np.isfinite(self.value):
            return (f"Not settled: the {figure} reaches {fmt(self.target)} at {key} = {self.value:.3g} by the measured "
                    "curve, with no interval (no bootstrap resample)")
        return crossing_verdict(figure, key, fmt(self.target), self.value, self.low, self.high, self.x_min,
                                self.x_max, self.side, self.crossings, games, holding, values)


def crossing_interval(x, y, replicas, target: float, level: float = 0.95) -> Crossing:
    """The crossing of the curve ``(x, y)`` with ``target`` and its interval from bootstrap ``replicas``.

    Each replica (a row of ``replicas``: the figure at every value, recomputed on resampled games) gives
    its first crossing. A replica that does not cross lies on one side of the target at every value; on
    a rising curve (the measured figure higher at the largest value than at the smallest) a replica
    above the target everywhere crosses below the range and one below everywhere crosses above it; a
    falling curve the other way round. The interval is the central ``level`` share of these crossings
    (each end an actual replica's crossing, or an infinity for "outside the range"). A replica in which
    the figure is missing at some value (NaN) is left out and counted.

    Args:
        x: the values scanned, ascending.
        y: the measured figure at each value.
        replicas: array (replicas x values) of the figure on resampled games.
        target: the target.
        level: the interval's coverage.

    Returns:
        a :class:`Crossing`.
    """
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    reps = np.asarray(replicas, dtype=float).reshape(-1, len(x))
    whole = np.isfinite(reps).all(axis=1)  # a replica missing the figure somewhere has no curve to read
    left_out, reps = int((~whole).sum()), reps[whole]
    found = crossings(x, y, target)
    ok = ~np.isnan(y)
    rising = bool(y[ok][-1] >= y[ok][0]) if ok.sum() >= 2 else True
    side = "" if found else ("above" if np.nanmin(y) > target else "below")
    points = np.empty(len(reps))
    for r, row in enumerate(reps):
        c = first_crossing(x, row, target)
        if np.isnan(c):
            above = bool(row.min() > target)
            c = -np.inf if above == rising else np.inf
        points[r] = c
    if len(points):
        tail = (1 - level) / 2
        low, high = (float(q) for q in np.quantile(points, [tail, 1 - tail], method="inverted_cdf"))
        below, beyond = float(np.mean(points == -np.inf)), float(np.mean(points == np.inf))
    else:
        low = high = float("nan")
        below = beyond = float("nan")
    return Crossing(target=float(target), value=found[0] if found else float("nan"), low=low, high=high,
                    crossings=len(found), side=side, replicas=len(points), below_range=below, above_range=beyond,
                    x_min=float(x[0]), x_max=float(x[-1]), left_out=left_out)
