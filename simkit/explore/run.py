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
from simkit.core.seats import SeatPools
from simkit.core.settings import refuse_other_settings
from simkit.explore.oracle import Planner
from simkit.explore.outputs import FILES, analyse, write_outputs
from simkit.explore.settings import ExploreSettings
from simkit.explore.space import DeckSpace
from simkit.scenario import Scenario, load_scenario
from simkit.sweep import (
    RunOptions,
    SweepPlan,
    SweepSettings,
    load_results,
    plan_sweep,
    read_meta,
    run_sweep,
    sweep_defaults,
)
from simkit.sweep.store import write_meta


def plan_explore(sc: Scenario, settings: ExploreSettings, space: DeckSpace | None = None) -> SweepPlan:
    """The sweep plan an explore plays in: the space's two seat pools, the scenario's bots and seed, rounds of
    at most ``horizon`` planned by the explore's planner (never a pairing the pools do not hold).

    Raises:
        ValueError: a bot, seed or chunk size the sweep refuses.
    """
    import dataclasses

    space = deck_space(sc, settings) if space is None else space
    adaptive = AdaptiveSettings(first_steps=1, horizon=settings.horizon, max_games=settings.max_games)
    plan = plan_sweep(sc, SweepSettings(games=1, bots=settings.bots, chunk_size=settings.chunk_size,
                                        seed=settings.seed))
    pools = SeatPools(*(tuple(space.decks[i] for i in seat) for seat in space.seats))
    return dataclasses.replace(plan, pools=pools, adaptive=adaptive)


def deck_space(sc: Scenario, settings: ExploreSettings) -> DeckSpace:
    """The deck space of ``settings``: the scenario's pool or every legal deck, its neighbours and axes."""
    decks = sc.game.all_decks() if settings.space == "all" else None
    return DeckSpace(sc, settings.axis_list(), decks=decks, max_neighbours=settings.neighbours, seed=settings.seed)


def run_explore(scenario: str | Path | Scenario, out: str | Path, settings: ExploreSettings | None = None,
                run: RunOptions | None = None) -> dict:
    """Grow a metagame over the scenario's deck pool without playing every pairing; write its folder.

    Args:
        scenario: a scenario file or a loaded scenario.
        out: the results folder.
        settings: the run's numbers (default :class:`ExploreSettings` with the scenario's sweep seed and bots),
            recorded in the folder; a resume must repeat them.
        run: how to play it (:class:`~simkit.sweep.RunOptions`: workers, resume, a Dask scheduler, progress bars).

    Returns:
        The answers (see :func:`simkit.explore.outputs.analyse`): DataFrames ``metagame``,
        ``decks``, ``strongest``, ``archive``, ``dead_cards``, ``matchups`` and the ``summary`` dict.

    Raises:
        ValueError: a setting out of range, an unknown bot or axis, a folder holding another
            run (other settings, named, or another scenario), or a folder holding games without ``resume``.
    """
    sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    if settings is None:
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
        if kept is not None:
            given = settings.to_dict()
            refuse_other_settings(str(out), "an explore run", kept, given,
                                  names={k: "--" + k.replace("_", "-") for k in given})
    run_sweep(sc, plan, out, run, planner=Planner(space, settings))
    meta = read_meta(out)
    result = meta.get("adaptive_result") or {}
    games = load_results(out)
    kept = games.attrs.get("meta") or {}  # the rounds' records are the plan, not the answers: pandas copies attrs
    games.attrs["meta"] = {k: v for k, v in kept.items() if k not in ("rounds", "adaptive_result")}
    answers = analyse(space, settings, games, result.get("units") or {}, result.get("stopped", ""))
    write_outputs(out, answers, f"simkit explore: {sc.name}")
    meta["explore"] = {"settings": settings.to_dict(), "files": list(FILES)}  # what a report would read
    write_meta(out, meta)
    return answers
