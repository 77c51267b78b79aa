"""What a ladder run plays: its rungs, its matches' size and design, its seed (one frozen, checked value)."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from simkit.sweep.plan import check_seed


@dataclass(frozen=True)
class LadderSettings:
    """The numbers of a ladder run (``simkit ladder``).

    Attributes:
        rungs: bot names, weakest first: each rung plays the rung below, and the top plays the bottom.
        against: a bot the top rung also plays (the game's best utility personality), or ``""``.
        games: games per match: ``games / (2 * seeds_per_deal)`` random deals, each played with every seed in
            both seat orders.
        seeds_per_deal: seeds each deal is played with (2 or more: each match's skill-or-luck split,
            :func:`simkit.analysis.luck.skill_or_luck`).
        seed: the run's seed: every deal and game seed derives from it and the two bots' names.
        round_robin: every pair of ``rungs`` plays instead (and each bot's mean score is given).
        top_vs_bottom: the top rung also plays the bottom one (ladders of three rungs or more).
        cost_games: mirror games per rung for its CPU cost per game and per decision (0: none).
        cores: cores of the estimated sweep wall time of the cost figures.
    """

    rungs: tuple[str, ...]
    against: str = ""
    games: int = 100
    seeds_per_deal: int = 2
    seed: int = 2026
    round_robin: bool = False
    top_vs_bottom: bool = True
    cost_games: int = 0
    cores: int = 2

    def check(self, known: tuple[str, ...]) -> LadderSettings:
        """These settings, if they can be played with the bots ``known``.

        Raises:
            ValueError: one line naming the option and what is wrong (an unknown bot lists the known ones).
        """
        names = [*self.rungs, *([self.against] if self.against else [])]
        for name in names:
            if name not in known:
                raise ValueError(f"--rungs: unknown bot {name!r} (the scenario knows: {', '.join(known)})")
        if len(set(self.rungs)) != len(self.rungs):
            raise ValueError(f"--rungs: each bot once, got {','.join(self.rungs)}")
        if len(self.rungs) < 2 and not self.against:
            raise ValueError("--rungs: name at least two bots, weakest first (or one and --against)")
        if self.round_robin and self.against:
            raise ValueError("--round-robin plays every pair of --rungs: list the --against bot among them")
        for option, value, least in (("--seeds-per-deal", self.seeds_per_deal, 1), ("--cost-games", self.cost_games, 0),
                                     ("--cores", self.cores, 1)):
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                raise ValueError(f"{option}: must be a whole number of at least {least}, got {value!r}")
        per_deal = 2 * self.seeds_per_deal
        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < per_deal \
                or self.games % per_deal:
            raise ValueError(f"--games: must be a positive multiple of 2 x --seeds-per-deal ({per_deal}: every deal "
                             f"plays each seed in both seat orders), got {self.games!r}")
        check_seed(self.seed, "--seed")
        return self

    @property
    def deals(self) -> int:
        """Random deals per match."""
        return self.games // (2 * self.seeds_per_deal)

    def matches(self) -> list[tuple[str, str]]:
        """The matches to play, ``(upper, lower)``: every rung over the rung below, the top over the bottom, the
        top over ``against``, each once; with ``round_robin`` every pair (the later one as upper)."""
        rungs = list(self.rungs)
        if self.round_robin:
            return [(b, a) for i, a in enumerate(rungs) for b in rungs[i + 1:]]
        out = list(zip(rungs[1:], rungs[:-1]))
        if len(rungs) > 2 and self.top_vs_bottom:
            out.append((rungs[-1], rungs[0]))
        if self.against and self.against != rungs[-1] and (rungs[-1], self.against) not in out:
            out.append((rungs[-1], self.against))
        return list(dict.fromkeys(out))

    def to_dict(self) -> dict:
        """The settings as plain values (recorded in the run's ``ladder.json``)."""
        out = asdict(self)
        out["rungs"] = list(self.rungs)
        return out
