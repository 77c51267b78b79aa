"""What an explore run stops on and how it spends games (recorded in the folder, checked on resume)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from simkit.explore.space import Axis, parse_axis


@dataclass(frozen=True)
class ExploreSettings:
    """The numbers of an explore run.

    Attributes:
        epsilon: the guarantee's margin: explore stops once no searched deck beats the metagame by
            more than this with confidence (a candidate whose upper bound against the mixture is
            below 1/2 + epsilon is dropped).
        horizon: the most games any ordered pair plays (the full sweep's games per pair: explored
            games are then a subset of its games).
        start: decks of the first population, drawn from the pool by the seed and ``draw``.
        draw: which draw of starting decks (another draw starts elsewhere: the metagame found should not
            depend on it).
        start_decks: the first population itself (e.g. a base run's, so a patch run plays every pairing
            of the base's metagame and :func:`simkit.explore.compare.metagame_shift` can score it);
            overrides ``start`` and ``draw``.
        z: the width, in standard errors, of the intervals races decide on (2.0: about 95% two-sided).
        band: a deck whose rate against the mixture is within this of 1/2 is "in the band" (its
            neighbours are searched; its cards are not dead).
        support_tol: mixture weights below this are dropped (and the rest renormalised): candidates
            need not play decks the metagame barely uses.
        top: how many strongest decks (rate against the field) to name.
        contenders: decks measured against the whole field to find the ``top`` (the strongest by
            Bradley-Terry strength from the metagame's games).
        field_looks: the games per ordered pair against the field at which the strongest-deck race looks.
        field_size: the field is the whole pool (0) or this many decks drawn by the seed.
        max_games: stop after this many games in all (0: no limit); the guarantee is then not met.
        chunk_size: games per chunk file.
        seed: the sweep seed (every game's seed is ``derive_seed(seed, A, B, g)``, as the sweep's).
        bots: first-seat and second-seat bots.
        axes: the archive's style axes (``NAME=CATEGORY``, ``NAME=CATEGORY:CARD,CARD`` or
            ``NAME=CATEGORY:*``); empty: every one-card category.
        space: the decks searched: ``pool`` (the scenario's pool) or ``all`` (every legal deck of the
            scenario's rules, :meth:`simkit.games.Ruleset.all_decks`: a space no sweep could play).
        neighbours: at most this many neighbours per deck join the search when it grows from that
            deck, drawn by the seed (0: every one; a space whose decks have hundreds needs a bound).
        start_second: with seat pools, the second seat's first population (``start_decks`` is then
            the first seat's); empty: each seat starts with the ``start_decks`` its pool holds.
        cell_starts: with seat pools, this many decks of every style cell of each seat's pool, drawn
            by the seed, join the search at the start, so no style goes unsearched because the
            one-edit neighbours never leave it (Magic War's races); 0: none.
        search: which decks are raced: ``grow`` (the population's one-edit neighbours, growing from the
            decks that come close) or ``all`` (every deck of each side's pool from the start: the guarantee
            then covers the whole space, not only the decks the search reached).
        alpha: 0: every interval is ``z`` standard errors wide, deck by deck. Above 0: the chance that any
            bound of the run is wrong, all decks and looks together: the bounds a deck is dropped on and
            the guarantee's upper bound use the family-wise width :meth:`family_z` (Bonferroni over every
            deck of both pools, the game's value and every look), so "no deck beats the metagame by more
            than epsilon" holds for the whole space at once, not deck by deck.
        population_games: 0: every pairing of two population decks plays ``horizon`` games. Above 0: it plays
            this many, and a population deck's games against the mixture it meets climb the looks up to the
            horizon as a candidate's do, until its bound is decided (a large horizon then costs games only
            where the guarantee needs them: the mixture's decks against each other).
        focus: 0: every undecided candidate plays on each round. Above 0: while the mixture still changes, only
            each side's ``focus`` most promising undecided candidates play (a mixture that changes makes every
            candidate's games against it start again); every deck is raced against the mixture the focused search
            cannot beat before the run settles.
    """

    epsilon: float = 0.02
    horizon: int = 20
    start: int = 4
    draw: int = 0
    z: float = 2.0
    band: float = 0.05
    support_tol: float = 0.005
    top: int = 10
    contenders: int = 25
    field_looks: tuple[int, ...] = (1, 2, 3, 4, 6)
    field_size: int = 0
    max_games: int = 0
    chunk_size: int = 64
    seed: int = 0
    bots: tuple[str, str] = ("balanced", "balanced")
    axes: tuple[str, ...] = field(default_factory=tuple)
    start_decks: tuple[str, ...] = field(default_factory=tuple)
    space: str = "pool"
    neighbours: int = 0
    start_second: tuple[str, ...] = field(default_factory=tuple)
    cell_starts: int = 0
    search: str = "grow"
    alpha: float = 0.0
    population_games: int = 0
    focus: int = 0

    def family_z(self, decks: int) -> float:
        """The width in standard errors of a bound that a deck is dropped on (and the guarantee read from):
        ``z`` when ``alpha`` is 0, else the one-sided normal quantile at ``alpha / (decks * looks)``, ``decks``
        being every deck of both seat pools and the game's value (Bonferroni: every such bound holds at once,
        at every look, with chance at least ``1 - alpha``)."""
        if not self.alpha:
            return self.z
        from scipy.stats import norm

        return float(norm.isf(self.alpha / (max(decks, 1) * len(self.looks()))))

    def looks(self) -> tuple[int, ...]:
        """Games per ordered pair against each metagame deck at which a candidate's race looks: 1, 2, 4, ... horizon."""
        out, k = [], 1
        while k < self.horizon:
            out.append(k)
            k *= 2
        return (*out, self.horizon)

    def axis_list(self) -> tuple[Axis, ...] | None:
        """The parsed axes (None: the default ones)."""
        return tuple(parse_axis(a) for a in self.axes) or None

    def to_dict(self) -> dict:
        """The settings as ``meta.json`` stores them."""
        d = asdict(self)
        d["field_looks"], d["bots"], d["axes"] = list(self.field_looks), list(self.bots), list(self.axes)
        d["start_decks"] = list(self.start_decks)
        d["start_second"] = list(self.start_second)
        for key, default in (("space", "pool"), ("neighbours", 0), ("start_second", []), ("cell_starts", 0),
                             ("search", "grow"), ("alpha", 0.0), ("population_games", 0),
                             ("focus", 0)):
            if d[key] == default:  # a run of the defaults stores what it always stored
                del d[key]
        return d

    @classmethod
    def from_dict(cls, d: dict) -> ExploreSettings:
        """Settings from :meth:`to_dict`'s form."""
        d = {k: v for k, v in d.items() if k in cls.__dataclass_fields__}
        d["field_looks"], d["bots"], d["axes"] = tuple(d["field_looks"]), tuple(d["bots"]), tuple(d["axes"])
        d["start_decks"] = tuple(d.get("start_decks", ()))
        d["start_second"] = tuple(d.get("start_second", ()))
        return cls(**d)

    def check(self) -> ExploreSettings:
        """``self`` if every number is in range.

        Raises:
            ValueError: naming the first setting out of range.
        """
        if not 0 < self.epsilon < 0.5:
            raise ValueError(f"--epsilon: must lie in (0, 0.5), got {self.epsilon!r}")
        if self.draw < 0:
            raise ValueError(f"--draw: must be 0 or more, got {self.draw!r}")
        if self.horizon < 1 or self.start < 1 or self.top < 1 or self.contenders < self.top:
            raise ValueError("--horizon, --start and --top must be at least 1, --contenders at least --top")
        if self.z <= 0 or not 0 <= self.band < 0.5 or not 0 <= self.support_tol < 0.5:
            raise ValueError("z must be positive, band and support_tol in [0, 0.5)")
        looks = list(self.field_looks)
        if not looks or looks != sorted(set(looks)) or looks[0] < 1 or looks[-1] > self.horizon:
            raise ValueError(f"field looks must rise from 1 up to the horizon ({self.horizon}), got {looks}")
        if self.max_games < 0 or self.chunk_size < 1 or self.field_size < 0:
            raise ValueError("--max-games and field size must be >= 0, chunk size >= 1")
        if self.space not in ("pool", "all"):
            raise ValueError(f"--space: 'pool' or 'all', got {self.space!r}")
        if self.cell_starts < 0:
            raise ValueError(f"--cell-starts: must be 0 (none) or more, got {self.cell_starts!r}")
        if self.search not in ("grow", "all"):
            raise ValueError(f"--search: 'grow' or 'all', got {self.search!r}")
        if not 0 <= self.alpha < 1:
            raise ValueError(f"--alpha: must lie in [0, 1) (0: deck by deck at --z), got {self.alpha!r}")
        if not 0 <= self.population_games <= self.horizon:
            raise ValueError(f"--population-games: 0 (the horizon) up to the horizon ({self.horizon}), got "
                             f"{self.population_games!r}")
        if self.focus < 0:
            raise ValueError(f"--focus: must be 0 (every candidate) or more, got {self.focus!r}")
        if self.neighbours < 0:
            raise ValueError(f"--neighbours: must be 0 (every one) or more, got {self.neighbours!r}")
        for a in self.axes:
            parse_axis(a)
        return self
