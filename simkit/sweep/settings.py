"""What a sweep plays, as a designer gives it (:class:`SweepSettings`), and how any run is played (:class:`RunOptions`).

A sweep's settings become its plan (:func:`simkit.sweep.plan_sweep`), which ``meta.json`` records and a resume
must repeat; the run options (workers, a Dask scheduler, resume or overwrite, a progress bar) never change a
result and are never recorded. Explore, scan and tune take the same :class:`RunOptions` for the sweeps they play.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from simkit.analysis.sequential import AdaptiveSettings
from simkit.core.settings import is_count

__all__ = ["RunOptions", "SweepSettings"]


@dataclass(frozen=True)
class SweepSettings:
    """The numbers of a sweep; a setting left empty comes from the scenario's ``[sweep]`` table.

    Attributes:
        games: games per pairing (``None``: ``[sweep] games``); an adaptive sweep takes none.
        decks: deck patterns (``'HolyLight:*'``, a deck's id; empty: ``[sweep] decks``, else the whole pool).
        bots: the first seat's and the second seat's bot (``None``: ``[sweep] bots``).
        panel: a bot panel, each of its bots in both seats on the same seeds (empty: ``[sweep] panel``
            unless ``bots`` is given).
        chunk_size: games per chunk file (``None``: ``[sweep] chunk_size``).
        seed: the sweep seed (``None``: ``[sweep] seed``).
        adaptive: play in rounds until each answer settles (:class:`~simkit.analysis.sequential.AdaptiveSettings`).
    """

    games: int | None = None
    decks: tuple[str, ...] = field(default_factory=tuple)
    bots: tuple[str, str] | None = None
    panel: tuple[str, ...] = field(default_factory=tuple)
    chunk_size: int | None = None
    seed: int | None = None
    adaptive: AdaptiveSettings | None = None

    def __post_init__(self):
        object.__setattr__(self, "decks", tuple(self.decks or ()))
        object.__setattr__(self, "panel", tuple(self.panel or ()))
        if self.bots is not None:
            object.__setattr__(self, "bots", tuple(self.bots))

    def check(self) -> SweepSettings:
        """``self`` when every setting is in range on its own (what needs the scenario, its bots and decks, is
        checked when the sweep is planned).

        Raises:
            ValueError: naming the first setting out of range, as its flag.
        """
        from simkit.sweep.plan import check_adaptive, check_seed

        if self.bots is not None and len(self.bots) != 2:
            raise ValueError(f"--bots takes two bot names (first seat, second seat), got {','.join(self.bots)}")
        if self.bots and self.panel:
            raise ValueError("--bots and --panel: give one (a panel plays each of its bots in both seats)")
        if len(set(self.panel)) != len(self.panel):
            raise ValueError(f"--panel names a bot twice: {','.join(self.panel)}")
        if self.adaptive is not None:
            if self.games is not None:
                raise ValueError("--games is for uniform sweeps: an adaptive sweep stops on --precision and "
                                 "--max-games")
            check_adaptive(self.adaptive)
        if self.games is not None and not is_count(self.games):
            raise ValueError(f"--games: games per pair must be at least 1, got {self.games}")
        if self.chunk_size is not None and not is_count(self.chunk_size):
            raise ValueError(f"--chunk-size: games per chunk must be at least 1, got {self.chunk_size}")
        if self.seed is not None:
            check_seed(self.seed, "--seed")
        return self


@dataclass(frozen=True)
class RunOptions:
    """How a run is played: never recorded, never a change to any result.

    Attributes:
        workers: local worker processes (``None`` or 0: one per core).
        resume: finish a run whose folder holds games (its settings must be these).
        overwrite: delete what an earlier run wrote in the folder and start again.
        scheduler: a Dask scheduler ``tcp://HOST:PORT`` to play on instead of local processes.
        progress: show a progress bar (``None``: only on a terminal).
    """

    workers: int | None = None
    resume: bool = False
    overwrite: bool = False
    scheduler: str | None = None
    progress: bool | None = None
