"""A ladder's matches: random deals played in both seat orders on the same seeds, and what each match gives.

A match between an ``upper`` and a ``lower`` bot deals ``games / (2 * seeds_per_deal)`` deck pairings, each a
random first-seat deck against a random second-seat deck (:meth:`simkit.games.Ruleset.seat_decks`: Magic War's
12-gold against 13-gold armies; every other game draws both from its one pool), and plays every deal with each
of its seeds twice, once with the upper bot first and once second (the same decks in the same seats, the same
seed): half the games in each seat, so the seat's advantage cancels, and the games split the outcome's
variance into the players, the deal and the seed (:mod:`simkit.analysis.luck`).

Every game's seed derives from the run's seed and the two bots' names, so no result depends on the worker
count or the chunking.
"""

from __future__ import annotations

import math
import os
import time
from collections.abc import Callable

import numpy as np
import pandas as pd

from simkit.analysis.luck import skill_or_luck
from simkit.analysis.stats import wilson_interval
from simkit.core.rng import derive_seed
from simkit.ladder.settings import LadderSettings
from simkit.runner import game_seeds, play_games
from simkit.scenario import Scenario, load_scenario

__all__ = ["CHUNK", "deal", "play_match", "tally", "round_robin_scores", "rung_cost"]

CHUNK = 10  # games per task handed to a worker
_SCENARIOS: dict[tuple[str, str | None], Scenario] = {}
_WARM: set[tuple[str, tuple[str, str]]] = set()


def _scenario(path: str, bots_from: str | None) -> Scenario:
    """The scenario at ``path`` (with the bots of ``bots_from``), loaded once per process."""
    key = (path, bots_from)
    if key not in _SCENARIOS:
        _SCENARIOS[key] = load_scenario(path, bots_from=bots_from)
    return _SCENARIOS[key]


def deal(sc: Scenario, deals: int, seeds_per_deal: int, seed: int) -> list[tuple[str, str, list[int]]]:
    """``deals`` random deck pairings ``(first-seat deck, second-seat deck, its seeds)``, from ``seed`` alone.

    The first deck is drawn uniformly from the decks the first seat may hold, the second from the second seat's;
    deal ``d`` plays the seeds ``game_seeds(seed, deals * seeds_per_deal)[d * seeds_per_deal:(d + 1) *
    seeds_per_deal]``.
    """
    firsts, seconds = sc.game.seat_decks()
    rng = np.random.default_rng(derive_seed(seed, "decks") % (1 << 63))
    a = rng.integers(0, len(firsts), deals)
    b = rng.integers(0, len(seconds), deals)
    seeds = game_seeds(seed, deals * seeds_per_deal)
    return [(firsts[a[d]], seconds[b[d]], seeds[d * seeds_per_deal:(d + 1) * seeds_per_deal]) for d in range(deals)]


def _play(task: tuple) -> tuple[dict, float]:
    """Play one chunk: ``(scenario path, bots_from, first decks, second decks, seeds, bots)`` -> columns, CPU s."""
    path, bots_from, first, second, seeds, bots = task
    sc = _scenario(path, bots_from)
    cpu = time.process_time()
    df = play_games(sc, first, second, bots=bots, seeds=seeds, batch_size=len(seeds))
    cols = {k: df[k].tolist() for k in ("winner", "turns", "end_reason", "actions")}
    return cols, time.process_time() - cpu


def _warm_up(sc: Scenario, bot_pairs: list[tuple[str, str]]) -> None:
    """Compile (or load from numba's cache) the kernels of each bot pairing once, in this process, before workers
    fork: they inherit the kernels instead of each compiling them."""
    firsts, seconds = sc.game.seat_decks()
    for bots in bot_pairs:
        key = (sc.game_name, bots)
        if key not in _WARM:
            play_games(sc, [firsts[0]], [seconds[0]], bots=bots, seeds=[0])
            _WARM.add(key)


class Pool:
    """Where a run's chunks are played: in this process (``workers=1``) or in forked worker processes that
    inherit the scenario and the compiled kernels.

    Args:
        sc: the scenario (its path and ``bots_from`` name it in the workers).
        workers: processes to play in.
        bot_pairs: every bot pairing the run will play (warmed up before the workers fork).
    """

    def __init__(self, sc: Scenario, workers: int, bot_pairs: list[tuple[str, str]]):
        self.sc, self.workers = sc, max(1, workers)
        key = (str(sc.path), str(sc.bots_from) if sc.bots_from else None)
        _SCENARIOS.setdefault(key, sc)
        self.key = key
        self._pool = None
        if self.workers > 1:
            import multiprocessing as mp
            from concurrent.futures import ProcessPoolExecutor

            _warm_up(sc, bot_pairs)
            self._pool = ProcessPoolExecutor(self.workers, mp_context=mp.get_context("fork"))

    def map(self, tasks: list[tuple], done: Callable[[int], None]) -> list[tuple[dict, float]]:
        """Play ``tasks`` (their results in order), calling ``done(games)`` as each finishes."""
        if self._pool is None:
            out = []
            for t in tasks:
                out.append(_play(t))
                done(len(t[4]))
            return out
        from concurrent.futures import as_completed

        futures = [self._pool.submit(_play, t) for t in tasks]
        sizes = {f: len(t[4]) for f, t in zip(futures, tasks)}
        for fut in as_completed(futures):
            done(sizes[fut])
        return [f.result() for f in futures]

    def close(self) -> None:
        """End the workers."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc) -> None:
        if self._pool is not None and exc[0] is not None:
            for proc in list(getattr(self._pool, "_processes", {}).values()):
                try:
                    os.kill(proc.pid, 9)
                except OSError:  # pragma: no cover - already gone
                    pass
        self.close()


def play_match(pool: Pool, settings: LadderSettings, upper: str, lower: str,
               done: Callable[[int], None] = lambda n: None) -> tuple[dict, list[dict]]:
    """``upper`` against ``lower``: every deal of :func:`deal`, each seed played in both seat orders.

    Returns:
        the match's figures (:func:`tally` of the games played to their end, with ``forfeits``: the games an outside
        bot forfeited, counted apart; ``deals``, ``seeds_per_deal``, ``wall_s``, ``cpu_s`` and, with two
        seeds a deal or more and no forfeit, ``skill_or_luck``) and its games (one dict per game: deal, decks, seed,
        bots, winner, turns, end reason, actions).
    """
    sc = pool.sc
    deals = deal(sc, settings.deals, settings.seeds_per_deal, derive_seed(settings.seed, upper, lower))
    games = [(d, first, second, s, bots) for d, (first, second, ss) in enumerate(deals)
             for s in ss for bots in ((upper, lower), (lower, upper))]
    tasks, where = [], []
    for bots in ((upper, lower), (lower, upper)):  # a chunk plays one bot order
        mine = [k for k, g in enumerate(games) if g[4] == bots]
        for i in range(0, len(mine), CHUNK):
            ks = mine[i:i + CHUNK]
            where.append(ks)
            tasks.append((*pool.key, [games[k][1] for k in ks], [games[k][2] for k in ks],
                          [games[k][3] for k in ks], bots))
    wall = time.perf_counter()
    parts = pool.map(tasks, done)
    wall = time.perf_counter() - wall
    rows: list[dict] = [{} for _ in games]
    for ks, (cols, _) in zip(where, parts):
        for i, k in enumerate(ks):
            d, first, second, s, bots = games[k]
            rows[k] = {"upper": upper, "lower": lower, "deal": d, "first_deck": first, "second_deck": second,
                       "seed": s, "first_bot": bots[0], "second_bot": bots[1], **{c: v[i] for c, v in cols.items()}}
    finished = [r for r in rows if r.get("end_reason") != "forfeit"]  # an outside bot's forfeits: counted apart
    out = tally(finished, upper, lower)
    out.update(deals=len(deals), seeds_per_deal=settings.seeds_per_deal, wall_s=wall,
               cpu_s=sum(p[1] for p in parts), forfeits=len(rows) - len(finished))
    if settings.seeds_per_deal >= 2 and len(finished) == len(rows):  # its split needs every deal whole
        out["skill_or_luck"] = skill_or_luck(pd.DataFrame(finished), upper, lower, seed=settings.seed)
    return out, rows


def _wilson(points: float, n: int) -> list[float]:
    lo, hi = wilson_interval(points, n)
    return [float(lo), float(hi)]


def tally(rows: list[dict], upper: str, lower: str) -> dict:
    """Wins, draws and losses of ``upper`` over ``rows``, its win rate (draws not won) and score (draws half) with
    95% Wilson intervals, how often ``lower`` won, and the same for each seat ``upper`` sat in
    (``upper_first``, ``upper_second``)."""

    def count(part: list[dict]) -> dict:
        n = len(part)
        won = sum(r["winner"] == ("first" if r["first_bot"] == upper else "second") for r in part)
        drawn = sum(r["winner"] == "draw" for r in part)
        lost = n - won - drawn
        score = won + drawn / 2
        nan = math.nan
        return {"games": n, "won": won, "drawn": drawn, "lost": lost,
                "win_rate": won / n if n else nan, "win_ci": _wilson(won, n),
                "score": score / n if n else nan, "score_ci": _wilson(score, n),
                "lower_win_rate": lost / n if n else nan, "lower_win_ci": _wilson(lost, n)}

    out = {"upper": upper, "lower": lower, **count(rows)}
    out["upper_first"] = count([r for r in rows if r["first_bot"] == upper])
    out["upper_second"] = count([r for r in rows if r["second_bot"] == upper])
    return out


def round_robin_scores(matches: list[dict]) -> dict[str, dict]:
    """Each bot's score over all its games of ``matches`` (draws half), with its 95% Wilson interval, best first."""
    points: dict[str, list[float]] = {}
    for m in matches:
        n, up = m["games"], m["score"] * m["games"]
        for bot, got in ((m["upper"], up), (m["lower"], n - up)):
            acc = points.setdefault(bot, [0.0, 0])
            acc[0] += got
            acc[1] += n
    table = {b: {"games": n, "score": pts / n, "score_ci": _wilson(pts, n)} for b, (pts, n) in points.items()}
    return dict(sorted(table.items(), key=lambda kv: -kv[1]["score"]))


def rung_cost(sc: Scenario, rung: str, games: int, seed: int, cores: int) -> dict:
    """``games`` mirror games of ``rung`` over random deals, in this process after two warm-up games (so no
    compilation is counted): CPU seconds per game and per decision (an action played, both seats), and the
    estimated wall time of a one-game-per-pair sweep of the pool by this rung on ``cores`` cores (CPU per game x
    pairs / cores, without the sweep's own overhead)."""
    firsts, seconds = sc.game.seat_decks()
    dealt = deal(sc, games + 2, 1, derive_seed(seed, "cost", rung))
    first, second, seeds = [d[0] for d in dealt], [d[1] for d in dealt], [d[2][0] for d in dealt]
    play_games(sc, first[:2], second[:2], bots=(rung, rung), seeds=seeds[:2], batch_size=2)
    wall, cpu = time.perf_counter(), time.process_time()
    df = play_games(sc, first[2:], second[2:], bots=(rung, rung), seeds=seeds[2:], batch_size=CHUNK)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    actions = max(1, int(df.actions.sum()))
    pairs = len(firsts) * len(seconds)
    per_game = cpu / games
    return {"rung": rung, "games": games, "cpu_s_per_game": per_game, "cpu_ms_per_decision": 1000 * cpu / actions,
            "actions_per_game": actions / games, "wall_s": wall, "cpu_s": cpu, "sweep_pairs": pairs,
            "sweep_cores": cores, "sweep_minutes": pairs * per_game / cores / 60}
