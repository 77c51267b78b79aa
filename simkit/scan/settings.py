"""What a scan plays and reads (:class:`ScanSettings`): one frozen value, checked before anything is written; its
played part is recorded in the scan's ``scan.json`` and a resume must repeat it."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from simkit.scan.figures import check_figure, parse_figure
from simkit.sweep import SweepSettings

__all__ = ["ScanSettings"]


@dataclass(frozen=True)
class ScanSettings:
    """What a scan plays and reads; the played part (key, values, games, decks, bots, seed, chunk size, bots file)
    is recorded in ``scan.json`` and a resume must repeat it; the figure, its target and the bootstrap only read
    the games, so another of them re-reads a finished scan without playing a game.

    Attributes:
        key: the number to move, a dotted key of the merged scenario (``rules.mana_period``, ``rules.budgets[1]``).
        values: the values, ``"2,3,4,5"`` or a sequence of numbers.
        figure: ``first_seat`` (default), ``spread``, ``length`` or ``TABLE.COLUMN[@ROW]`` (:mod:`simkit.scan.figures`).
        target: where the figure's crossing is read (default: 1/2 for ``first_seat`` and a ``win_rate``/``first_rate``
            column; other figures read one only when given).
        games, decks, bots, seed, chunk_size: every value's sweep (:class:`~simkit.sweep.SweepSettings`; deck patterns
            are matched in each value's pool, so a key that changes the pools, a seat's budget, gets each value's own).
        bootstrap: replicas of the bootstrap over games (default 1000; 200 for a table column).
        bots_from: another scenario file of the game whose ``[bots]`` every value plays with (``--bots-from``).
    """

    key: str
    values: str | tuple = ""
    figure: str | None = None
    target: float | None = None
    games: int | None = None
    decks: tuple[str, ...] = field(default_factory=tuple)
    bots: tuple[str, str] | None = None
    seed: int | None = None
    chunk_size: int | None = None
    bootstrap: int | None = None
    bots_from: str | None = None

    def __post_init__(self):
        object.__setattr__(self, "decks", tuple(self.decks or ()))
        if isinstance(self.bots, str):
            object.__setattr__(self, "bots", tuple(b.strip() for b in self.bots.split(",")))
        if not isinstance(self.values, str):
            object.__setattr__(self, "values", tuple(self.values))

    def sweep(self) -> SweepSettings:
        """Every value's sweep settings."""
        return SweepSettings(games=self.games, decks=self.decks, bots=self.bots, chunk_size=self.chunk_size,
                             seed=self.seed)

    def check(self) -> ScanSettings:
        """``self`` when the figure, the target, the bootstrap and the sweep settings are in range (the key and its
        values are checked against the scenario when the scan starts).

        Raises:
            ValueError: naming the first setting out of range, as its flag.
        """
        check_figure(parse_figure(self.figure))
        if self.target is not None and not math.isfinite(float(self.target)):
            raise ValueError(f"--target: must be a finite number, got {self.target!r}")
        if self.bootstrap is not None and int(self.bootstrap) < 0:
            raise ValueError(f"--bootstrap: must be at least 0 replicas, got {self.bootstrap!r}")
        self.sweep().check()
        return self
