"""The plan of a sweep: which games it plays, in which chunks, with which seeds.

A plan is frozen: it fixes every game's seed (``derive_seed(sweep_seed, A, B, g)``, independent of
the scenario's other numbers, so a base and its patch play the very same seeds) and every chunk's
content, so batch size, chunking, worker count and resumption never change a result.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from simkit.analysis.sequential import AdaptiveSettings
from simkit.core.rng import SEED_MAX, derive_seed
from simkit.core.seats import SeatPools
from simkit.scenario import Scenario, matching_decks
from simkit.scenario import sweep_settings as sweep_defaults
from simkit.sweep.settings import SweepSettings

#: the names inside a results folder (its layout is part of the plan's promise)
META = "meta.json"
CHUNKS = "chunks"
LOG = "sweep.log"
LOCK = ".sweep.lock"

#: workers allowed per core (``0`` means one per core)
WORKERS_PER_CORE = 4


#: the most games one sweep may plan (10**8: days of games on a machine; a larger pool is swept by pattern)
MAX_SWEEP_GAMES = 10**8

@dataclass(frozen=True)
class SweepPlan:
    """What a sweep plays; it fixes every game's seed and every chunk's content.

    Attributes:
        scenario_path: the scenario file (workers load it themselves).
        scenario_hash: the loaded scenario's hash (results of another scenario are refused).
        pools: the decks swept, canonical ids, as the two seats hold them (:class:`~simkit.core.seats.SeatPools`:
            equal pools for a game whose seats are alike; Magic War's 12-gold and 13-gold armies for one whose
            seats differ). Every pairing (first-seat deck, second-seat deck) is played, mirrors included.
        games: games per pairing.
        bots: the two bots, (first seat, second seat).
        seed: the sweep seed from which every game's seed derives.
        chunk_size: games per chunk.
        panel: a bot panel: every pairing is played under each of these bots, the same bot in both
            seats, on the same seeds (``()``: no panel, ``bots`` play every game).
        adaptive: for an adaptive sweep, its settings (``games`` is then round 0's games per
            pairing); the games are planned round by round (:class:`AdaptiveLayout`).
        bots_from: the scenario file whose bots the sweep plays with (:attr:`simkit.scenario.Scenario.bots_from`,
            ``--bots-from``), resolved; ``""``: the scenario's own. Workers load the scenario with it.
    """

    scenario_path: str
    scenario_hash: str
    pools: SeatPools
    games: int
    bots: tuple[str, str]
    seed: int
    chunk_size: int
    panel: tuple[str, ...] = ()
    adaptive: AdaptiveSettings | None = None
    bots_from: str = ""

    @property
    def bot_pairs(self) -> tuple[tuple[str, str], ...]:
        """The (first seat, second seat) bots of each block of the plan: one per panel bot, else ``bots``."""
        return tuple((b, b) for b in self.panel) if self.panel else (self.bots,)

    @property
    def block_games(self) -> int:
        """Games of one bot pair (every pairing, ``games`` each)."""
        return self.pools.pairings * self.games

    @property
    def block_chunks(self) -> int:
        """Chunks of one bot pair (a chunk never mixes two bot pairs)."""
        return -(-self.block_games // self.chunk_size)

    @property
    def pairs(self) -> list[tuple[str, str]]:
        """Every pairing (first seat, second seat), in plan order."""
        return self.pools.pairs()

    @property
    def total_games(self) -> int:
        """Games in the whole sweep."""
        return len(self.bot_pairs) * self.block_games

    @property
    def chunk_count(self) -> int:
        """Number of chunks."""
        return len(self.bot_pairs) * self.block_chunks

    def chunk(self, k: int) -> Chunk:
        """The games of chunk ``k``: a contiguous slice of (pair, game) in plan order, within one bot pair."""
        firsts, seconds = self.pools
        n = len(seconds)
        block, k_in = divmod(k, self.block_chunks)
        lo, hi = k_in * self.chunk_size, min((k_in + 1) * self.chunk_size, self.block_games)
        first, second, games, seeds = [], [], [], []
        for i in range(lo, hi):
            pair, g = divmod(i, self.games)
            a, b = firsts[pair // n], seconds[pair % n]
            first.append(a)
            second.append(b)
            games.append(g)
            seeds.append(derive_seed(self.seed, a, b, g))
        return Chunk(k, self.scenario_path, self.bot_pairs[block], tuple(first), tuple(second), tuple(games),
                     tuple(seeds), self.bots_from)


@dataclass(frozen=True)
class Chunk:
    """A batch of games that one worker plays and one parquet file holds."""

    index: int
    scenario_path: str
    bots: tuple[str, str]
    first_decks: tuple[str, ...]
    second_decks: tuple[str, ...]
    games: tuple[int, ...]
    seeds: tuple[int, ...] = field(repr=False)
    bots_from: str = ""  # the scenario file whose bots play (``""``: the scenario's own)



def select_decks(pool: Iterable[str], patterns: Iterable[str] | None,
                 canonical: Callable[[str], str] | None = None) -> tuple[str, ...]:
    """The decks of ``pool`` matching any of ``patterns`` (shell-style, e.g. ``'HolyLight:*'``), pool order;
    a pattern that is a deck's id selects that deck only, and any pattern may list a section's cards in any order
    (``'Spear+Greataxe:*'``, ``'HolyLight:Priest,Archer,Swordsman'``): :func:`simkit.scenario.matching_decks`.

    Raises:
        ValueError: a pattern matches no deck of the pool (the closest deck ids are suggested).
    """
    pool = tuple(pool)
    if not patterns:
        return pool
    chosen = set()
    for pattern in patterns:
        chosen.update(matching_decks(pool, pattern, canonical))
    return tuple(d for d in pool if d in chosen)


def max_workers() -> int:
    """The most local worker processes a sweep may ask for: four per core."""
    return WORKERS_PER_CORE * (os.cpu_count() or 1)


def check_workers(workers: int | None, where: str = "workers") -> int:
    """The number of local worker processes to start for ``workers`` (``None`` or 0: one per core).

    Args:
        workers: the number asked for.
        where: what asked, for the message (``--workers``, ``FILE: sweep.workers``).

    Raises:
        ValueError: ``workers`` is not an integer from 0 to :func:`max_workers`.
    """
    cores = os.cpu_count() or 1
    if workers is None:
        return cores
    if isinstance(workers, bool) or not isinstance(workers, int) or not 0 <= workers <= max_workers():
        raise ValueError(
            f"{where}: must be from 0 (one per core) to {max_workers()} ({WORKERS_PER_CORE} x {cores} cores), "
            f"got {workers!r}"
        )
    return workers or cores


def uneven_share(plan: SweepPlan, workers: int, slow: Iterable[str]) -> str | None:
    """A note when a slow bot pairing's games cannot be shared among the workers, else ``None``.

    A chunk is played by one worker, and a chunk never mixes two bot pairings: a pairing of ``block_games``
    games in chunks of ``chunk_size`` keeps one worker on up to ``chunk_size`` of them. With search bots (a
    game can take seconds) that worker sets the sweep's wall time while the others wait. The note names the
    slow bots and a ``--chunk-size`` that gives every worker about a quarter of its share per chunk (the
    games and their results are the same whatever the chunking).

    Args:
        plan: the sweep's plan.
        workers: the local worker processes.
        slow: the plan's bots that search (a ``[bots.<name>]`` table with a ``policy``).
    """
    slow = sorted(set(slow))
    fair = -(-plan.block_games // max(workers, 1))
    if workers < 2 or not slow or plan.chunk_size <= fair:
        return None
    size = max(1, -(-plan.block_games // (4 * workers)))
    return (f"note: each bot pairing's {plan.block_games} games are {plan.block_chunks} chunk(s) of up to "
            f"{plan.chunk_size}, and a chunk is one worker's, so one worker plays up to {plan.chunk_size} games of a "
            f"pairing while {workers} could share them; the search bots here ({', '.join(slow)}) can take seconds "
            f"a game: --chunk-size {size} shares each pairing among the {workers} workers (the same games and "
            f"results)")


def check_adaptive(settings: AdaptiveSettings) -> AdaptiveSettings:
    """``settings`` if every number is in range.

    Raises:
        ValueError: ``--precision`` not in (0, 1], ``--max-games`` negative, alpha not in (0, 1),
            bands out of order, a prior or round-0 step count not positive, a horizon below round 0's
            games, a spending power not positive, a futility chance outside [0, 1).
    """
    s = settings
    if not 0 < s.precision <= 1:
        raise ValueError(f"--precision: must be a width of rate in (0, 1], got {s.precision!r}")
    if isinstance(s.max_games, bool) or not isinstance(s.max_games, int) or s.max_games < 0:
        raise ValueError(f"--max-games: must be 0 (no limit) or a positive number of games, got {s.max_games!r}")
    if not 0 < s.alpha < 1:
        raise ValueError(f"alpha: must lie in (0, 1), got {s.alpha!r}")
    if not (0 <= s.deck[0] < s.deck[1] <= 1 and 0.5 < s.matchup < 1 and 0 < s.first_player < 0.5):
        raise ValueError("flag bands: deck (low < high in [0, 1]), matchup in (0.5, 1), first_player in (0, 0.5)")
    if min(s.prior) <= 0 or s.first_steps < 1 or s.spending <= 0 or s.growth <= 0:
        raise ValueError("adaptive: prior, first_steps, growth and spending must be positive")
    if isinstance(s.horizon, bool) or not isinstance(s.horizon, int) or s.horizon < s.first_steps:
        raise ValueError(f"--horizon: must be a number of games per ordered pair, at least {s.first_steps}, "
                         f"got {s.horizon!r}")
    if not 0 <= s.futility < 1:
        raise ValueError(f"adaptive: futility must lie in [0, 1), got {s.futility!r}")
    for name in ("method", "matchup_method"):
        if getattr(s, name) not in ("holm", "bh"):
            raise ValueError(f"adaptive: {name} must be 'holm' or 'bh', got {getattr(s, name)!r}")
    return s


def check_seed(seed: int, where: str = "seed") -> int:
    """``seed`` if it is a sweep seed (0 to 2**63 - 1), never wrapped into range.

    Raises:
        ValueError: naming ``where``, for a non-integer or out-of-range seed.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        raise ValueError(f"{where}: must be an integer from 0 to {SEED_MAX} (2**63 - 1), got {seed!r}")
    return seed


def _own_decks(sc: Scenario, bots: tuple[str, str], panel: tuple[str, ...], pools: SeatPools) -> SeatPools:
    """``pools`` with the seat of a bot whose program chooses its own deck (the original Battle of Miracles SDK's
    protocol) holding that one deck, asked of the program now (:func:`simkit.outside.play.own_decks`).

    Raises:
        ValueError: such a bot in a panel (a panel's bots play every deck of both pools), or a program that gave no
            legal deck.
    """
    from simkit.outside.play import choosing_own_deck, own_decks

    if panel and choosing_own_deck(sc, panel):
        raise ValueError(f"--panel: bot {choosing_own_deck(sc, panel)[0]!r} chooses its own deck (its protocol's "
                         "start), so it cannot play a panel's every pairing: sweep it with --bots")
    own = own_decks(sc, bots) if choosing_own_deck(sc, bots) else {}
    if not own:
        return pools
    return SeatPools(first=(own[0],) if 0 in own else pools.first, second=(own[1],) if 1 in own else pools.second)


def plan_sweep(sc: Scenario, settings: SweepSettings | None = None) -> SweepPlan:
    """Plan a sweep of ``sc``; a setting left empty comes from the scenario's ``[sweep]`` table.

    With a panel (``settings.panel``, or ``[sweep] panel`` unless ``settings.bots`` is given), every pairing is
    played under each panel bot in both seats, on the same seeds. The chosen decks are split into the two seats'
    pools by the game (:meth:`simkit.games.Ruleset.seat_decks`: equal pools unless its seats differ); a seat whose
    bot's program chooses its own deck (Battle of Miracles' ``sdk`` protocol) holds the one deck it chooses.

    Raises:
        ValueError: a setting out of range (:meth:`SweepSettings.check`), a deck pattern matching nothing, a seat
            left with no deck, a bot the scenario's game does not know, or more games than one folder holds.
    """
    s = (settings or SweepSettings()).check()
    d = sweep_defaults(sc)
    games = s.adaptive.first_steps if s.adaptive is not None else d["games"] if s.games is None else s.games
    bots, panel = _bots_of(sc, s, d)
    chosen = select_decks(sc.decks, list(s.decks) or d["decks"], canonical=sc.canonical_deck)
    pools = _own_decks(sc, bots, panel, sc.game.seat_decks(chosen))
    if not pools.first or not pools.second:
        raise ValueError(f"the chosen decks leave the {'first' if not pools.first else 'second'} seat with none it "
                         "may hold")
    n_bots = max(len(panel), 1)
    planned = pools.pairings * games * n_bots
    if planned > MAX_SWEEP_GAMES:  # counted, never listed, before refusing
        raise ValueError(f"the sweep would play {planned:,} games ({len(pools.first)} x {len(pools.second)} decks x "
                         f"{games} x {n_bots} bot pairing(s)), more than the {MAX_SWEEP_GAMES:,} simkit plays in one "
                         "folder (days of games): choose fewer decks with --decks")
    plan = SweepPlan(
        scenario_path=str(sc.path.resolve()), scenario_hash=sc.hash, pools=pools, games=games, bots=bots,
        seed=d["seed"] if s.seed is None else s.seed, chunk_size=d["chunk_size"] if s.chunk_size is None
        else s.chunk_size, panel=panel, adaptive=s.adaptive,
        bots_from=str(sc.bots_from.resolve()) if sc.bots_from is not None else "",
    )
    limit = s.adaptive.max_games if s.adaptive is not None else 0
    if limit and limit < plan.total_games:  # round 0 alone would pass the limit: it would stop having played nothing
        raise ValueError(f"--max-games: {limit} is fewer than the first round's {plan.total_games} games "
                         f"({games} per ordered pair x {pools.pairings} pairs x {len(plan.bot_pairs)} bot "
                         f"pairing(s)): give at least {plan.total_games}, or 0 for no limit")
    return plan


def _bots_of(sc: Scenario, s: SweepSettings, d: dict) -> tuple[tuple[str, str], tuple[str, ...]]:
    """The plan's bots and panel: the settings', else the ``[sweep]`` table's (``bots`` given overrides its
    panel), each one a bot the scenario's game knows.

    Raises:
        ValueError: an unknown bot, named with the known ones; an outside program the command line does not allow.
    """
    panel = s.panel or (() if s.bots else tuple(d["panel"]))
    bots = (panel[0], panel[0]) if panel else tuple(s.bots or d["bots"])
    if len(bots) != 2:
        raise ValueError(f"--bots takes two bot names (first seat, second seat), got {','.join(bots)}")
    known = sc.game.bot_names()  # checked here, before anything is written
    for b in (*bots, *panel):
        if b not in known:
            raise ValueError(sc.unknown_bot(b))
    from simkit.outside.bots import check_allowed

    check_allowed(sc, (*bots, *panel))  # a program the command line does not allow: refused before any file
    from simkit.outside.play import check_pairings

    check_pairings(sc, [(p, p) for p in panel] if panel else [bots])  # a bot that cannot face a program: refused
    return (bots[0], bots[1]), tuple(panel)
