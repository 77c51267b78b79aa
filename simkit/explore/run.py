"""Running an explore: its folder is a sweep folder played in rounds, the rounds planned by the double oracle.

The folder is the one an adaptive sweep writes (``meta.json`` with the plan and every round's games
per ordered pair and state, atomic parquet chunks of the games, the writer lock), written by
:func:`simkit.sweep.run_sweep` with the explore :class:`~simkit.explore.oracle.Planner`: so every
game has the sweep's seed ``derive_seed(seed, A, B, g)`` and every pair's games are the prefix
``0..n-1`` of the full sweep's, :func:`simkit.load_results` reads it, a killed run resumes by
playing only the chunks not on disk, and the worker count never changes a result.
"""

from __future__ import annotations

from pathlib import Path

from simkit.analysis.sequential import AdaptiveSettings
from simkit.explore.oracle import Planner
from simkit.explore.outputs import FILES, analyse, write_outputs
from simkit.explore.seat_outputs import analyse_seats
from simkit.explore.seats import SeatPlanner
from simkit.explore.settings import ExploreSettings
from simkit.explore.space import DeckSpace
from simkit.scenario import Scenario, load_scenario
from simkit.sweep import load_results, plan_sweep, read_meta, run_sweep
from simkit.sweep.store import write_meta


def plan_explore(sc: Scenario, settings: ExploreSettings, space: DeckSpace | None = None):
    """The sweep plan an explore plays in: the space's decks, the scenario's bots and seed, rounds of at most
    ``horizon``.

    A space of the scenario's pool with one pool for both seats is planned as an adaptive sweep of
    that pool; any other (every legal deck, or seats with their own pools) as one of every deck of
    the space in both seats, whose rounds the planner never gives a pairing a seat may not hold.
    """
    adaptive = AdaptiveSettings(first_steps=1, horizon=settings.horizon, max_games=settings.max_games)
    if space is None or (space.shared and settings.space == "pool"):
        return plan_sweep(sc, bots=settings.bots, chunk_size=settings.chunk_size, seed=settings.seed,
                          adaptive=adaptive)
    import dataclasses

    plan = plan_sweep(sc, games=1, bots=settings.bots, chunk_size=settings.chunk_size, seed=settings.seed)
    return dataclasses.replace(plan, decks=tuple(space.decks), second_decks=(), games=1, adaptive=adaptive)


def deck_space(sc: Scenario, settings: ExploreSettings) -> DeckSpace:
    """The deck space of ``settings``: the scenario's pool or every legal deck, its neighbours and axes."""
    decks = sc.game.all_decks() if settings.space == "all" else None
    return DeckSpace(sc, settings.axis_list(), decks=decks, max_neighbours=settings.neighbours, seed=settings.seed)


def run_explore(
    scenario: str | Path | Scenario,
    out: str | Path,
    settings: ExploreSettings | None = None,
    workers: int | None = None,
    resume: bool = False,
    scheduler: str | None = None,
    progress: bool | None = None,
) -> dict:
    """Grow a metagame over the scenario's deck pool without playing every pairing; write its folder.

    Args:
        scenario: a scenario file or a loaded scenario.
        out: the results folder.
        settings: the run's numbers (default :class:`ExploreSettings` with the scenario's sweep seed and bots).
        workers: local worker processes (``None`` or 0: one per core).
        resume: finish a run whose folder holds games (its settings must be these).
        scheduler: a Dask scheduler ``tcp://HOST:PORT``.
        progress: show a progress bar per round.

    Returns:
        The answers (see :func:`simkit.explore.outputs.analyse`): DataFrames ``metagame``,
        ``decks``, ``strongest``, ``archive``, ``dead_cards``, ``matchups`` and the ``summary`` dict.

    Raises:
        ValueError: a setting out of range, an unknown bot or axis, a folder holding another
            run (other settings or scenario), or a folder holding games without ``resume``.
    """
    sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    if settings is None:
        from simkit.sweep import sweep_defaults

        d = sweep_defaults(sc)
        settings = ExploreSettings(seed=d["seed"], bots=tuple(d["bots"]))
    settings.check()
    space = deck_space(sc, settings)
    for deck in settings.start_decks + settings.start_second:
        space.index(deck)  # a starting deck must be in the pool: checked before anything is written
    plan = plan_explore(sc, settings, space)
    out = Path(out)
    if (out / "meta.json").exists():
        rounds = read_meta(out).get("rounds") or []
        kept = rounds[0].get("units", {}).get("settings") if rounds else None
        if kept is not None and kept != settings.to_dict():
            diff = [k for k, v in settings.to_dict().items() if kept.get(k) != v]
            raise ValueError(f"{out} holds an explore run with other settings ({', '.join(diff)}): "
                             "choose another --out")
    planner = Planner(space, settings) if space.shared else SeatPlanner(space, settings)
    run_sweep(sc, plan, out, workers=workers, resume=resume, scheduler=scheduler, progress=progress,
              planner=planner)
    meta = read_meta(out)
    result = meta.get("adaptive_result") or {}
    read = analyse if space.shared else analyse_seats
    answers = read(space, settings, load_results(out), result.get("units") or {}, result.get("stopped", ""))
    write_outputs(out, answers, f"simkit explore: {sc.name}")
    meta["explore"] = {"settings": settings.to_dict(), "files": list(FILES)}  # what a report would read
    write_meta(out, meta)
    return answers
