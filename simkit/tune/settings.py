"""What a tune searches and how (:class:`TuneSettings`): one frozen value, checked before anything is written,
recorded (resolved against the scenario) in the tune's study and checked on ``--resume``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from simkit.analysis import FlagBands
from simkit.core.settings import is_count
from simkit.tune.objective import TuneWeights, parse_weights

__all__ = ["TunePlan", "TuneSettings"]


@dataclass(frozen=True)
class TuneSettings:
    """The numbers of a tune (the method is told in :mod:`simkit.tune`).

    Attributes:
        knobs: knob specs (:func:`simkit.tune.parse_knobs`: ``'creatures.*.L*.cost'``, ``'artifacts.X.cost=4..8'``).
        trials: the budget: distinct candidates in the whole study, the base the first; a candidate the sampler
            proposes again is looked up, not played (up to 10 asks per candidate of budget).
        max_changes: at most this many numbers change.
        decks: deck patterns, as for ``simkit sweep --decks`` (empty: the scenario's ``[sweep] decks``).
        bots: bot pairings, each ``'first,second'`` or a pair; several form a panel and a candidate counts by its
            worst pairing (empty: the scenario's ``[sweep] bots``).
        panel: a bot panel (empty: the scenario's ``[sweep] panel`` unless ``bots`` is given): each bot plays every
            pairing in both seats, one sweep per candidate, and a candidate counts by its worst bot.
        games: games per pairing in each trial's sweep (``None``: the scenario's ``[sweep] games``).
        seed: the sampler's seed; the same seed and settings give the same study.
        screen: play every knob alone at both ends of its range after the base, then ``rounds`` rounds of the
            ``combine`` combinations an additive model of those predicts best, before the sampler proposes.
        combine: predicted combinations each round of the screening plays.
        rounds: rounds of predicted combinations (the first from the base, each later from the best so far).
        rescreen: knobs re-screened on top of the first stage's best candidate in each anchored stage (0: none).
        stages: with ``rescreen``, how many anchored stages follow one another.
        seat_pairs: the single changes that moved the first seat's edge most, played together in opposed pairs.
        confirm: replay the best this many candidates, and the base, on other seeds before proposing (0: off).
        confirm_games: games per pairing of the confirmation (``None``: ``games``).
        check_games: games per pairing of the fresh-seed check (``None``: ``games``).
        check_seed: the check's sweep seed (``None``: the search seed plus 1,000,003).
        weights: the objective's weights (:class:`~simkit.tune.objective.TuneWeights` or ``'spread=1,band=2'``).
        bands: the report's bands (:class:`~simkit.analysis.FlagBands`).
        bots_from: another scenario file of the game whose ``[bots]`` every candidate plays with (``--bots-from``).
    """

    knobs: tuple[str, ...]
    trials: int = 30
    max_changes: int = 3
    decks: tuple[str, ...] = field(default_factory=tuple)
    bots: tuple = field(default_factory=tuple)
    panel: tuple[str, ...] = field(default_factory=tuple)
    games: int | None = None
    seed: int = 0
    screen: bool = True
    combine: int = 10
    rounds: int = 2
    rescreen: int = 0
    stages: int = 1
    seat_pairs: int = 0
    confirm: int = 5
    confirm_games: int | None = None
    check_games: int | None = None
    check_seed: int | None = None
    weights: TuneWeights | str | None = None
    bands: FlagBands = field(default_factory=FlagBands)
    bots_from: str | None = None

    def __post_init__(self):
        object.__setattr__(self, "knobs", tuple(self.knobs))
        object.__setattr__(self, "decks", tuple(self.decks or ()))
        object.__setattr__(self, "bots", tuple(self.bots or ()))
        object.__setattr__(self, "panel", tuple(self.panel or ()))
        if not isinstance(self.weights, TuneWeights):
            object.__setattr__(self, "weights", parse_weights(self.weights))

    def check(self) -> TuneSettings:
        """``self`` when every setting is in range on its own (knobs, decks and bots are checked against the
        scenario when the tune is planned).

        Raises:
            ValueError: naming the first setting out of range, as its flag.
        """
        from simkit.sweep import check_seed

        if self.trials < 1:
            raise ValueError(f"--trials must be at least 1, got {self.trials}")
        if self.max_changes < 1:
            raise ValueError(f"--max-changes must be at least 1, got {self.max_changes}")
        counts = (self.combine, self.rounds, self.rescreen, self.stages, self.seat_pairs, self.confirm)
        if min(counts) < 0:
            raise ValueError("--combine, --rounds, --rescreen, --stages, --seat-pairs and --confirm must be at least "
                             f"0, got {', '.join(map(str, counts[:-1]))} and {counts[-1]}")
        if self.stages > 1 and not (self.screen and self.rescreen):
            raise ValueError(f"--stages {self.stages}: the anchored stages re-screen knobs on top of their anchors; "
                             "give --rescreen N (and keep the screening)")
        if self.bots and self.panel:
            raise ValueError("--bots and --panel: give one (a panel plays each of its bots in both seats)")
        for option, value in (("--confirm-games", self.confirm_games), ("--check-games", self.check_games)):
            if value is not None and not is_count(value):
                raise ValueError(f"{option} must be a whole number of at least 1, got {value!r}")
        if self.check_seed is not None:
            check_seed(self.check_seed, "--check-seed")
        return self


@dataclass(frozen=True)
class TunePlan:
    """A tune resolved against its scenario (:func:`simkit.tune.run.plan_tune`): what every part of it plays.

    Attributes:
        base_path: the base scenario file, resolved.
        knobs: the parsed knobs.
        pairs: the bot pairings (each panel bot in both seats for a panel).
        panel: the bot panel (empty: none).
        decks: every deck of both seats' pools the sweeps play.
        games: games per pairing of the search.
        search_seed, confirm_seed, check_seed: the sweep seeds of the search, the confirmation and the check.
        confirm_games, check_games: games per pairing of the confirmation and of the check.
        workers: worker processes per sweep.
        weights: the objective's weights.
        bands: the report's bands.
        bots_from: the scenario file whose bots every candidate plays (``None``: each its own).
        noise: the first search sweep's plan (what the noise warning reads).
        record: the settings as the study stores them (a resume must repeat the search's).
    """

    base_path: Path
    knobs: list
    pairs: list[tuple[str, str]]
    panel: tuple[str, ...]
    decks: list[str]
    games: int
    search_seed: int
    confirm_seed: int
    check_seed: int
    confirm_games: int
    check_games: int
    workers: int
    weights: TuneWeights
    bands: FlagBands
    bots_from: Path | None
    noise: object
    record: dict
