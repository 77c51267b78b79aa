"""``simkit tune`` itself: :func:`tune` plans the screening and the search, runs the study, and hands the
best candidates to :mod:`~simkit.tune.finish` (the whole method is told in :mod:`simkit.tune`)."""

from __future__ import annotations

import dataclasses
import json
import sys
import time
import warnings
from dataclasses import asdict
from pathlib import Path

from simkit.core.errors import ScenarioError
from simkit.core.files import cannot_write, held_lock
from simkit.scenario import Scenario, load_scenario
from simkit.sweep import RunOptions, SweepSettings, check_workers, plan_sweep, sweep_defaults
from simkit.tune.finish import Tune, confirm_best, finish
from simkit.tune.knobs import parse_knobs
from simkit.tune.preflight import budget_warning, derived_seed, noise_warning, refuse_foreign, warn
from simkit.tune.settings import TunePlan, TuneSettings
from simkit.tune.study import (
    CONFIRM_SEED_OFFSET,
    FRESH_SEED_OFFSET,
    LOCK,
    MAX_ASKS,
    STARTUP_TRIALS,
    STUDY,
    Evaluator,
    TrialPlan,
    TuneResult,
    best_trial,
    bot_pairs,
    candidate_id,
    close_interrupted,
    describe_changes,
    open_study,
    refuse_other_tune,
    study_progress,
    suggest,
    trial_seed,
    trial_table,
    write_csv,
)


def run_tune(scenario: str | Path, settings: TuneSettings, out: str | Path | None = None,
             run: RunOptions | None = None) -> TuneResult:
    """Search for a small patch that brings the game into balance, and check it on fresh seeds.

    Args:
        scenario: the base scenario file (a patch of another is fine).
        settings: the tune (:class:`~simkit.tune.settings.TuneSettings`), recorded in its study; a resume must
            repeat the search's (the confirmation's and the check's it may correct).
        out: the output folder (default ``results/tune-<scenario stem>``).
        run: how to play its sweeps (:class:`~simkit.sweep.RunOptions`: workers, default the scenario's; resume,
            which continues the tune stored in ``out``; a progress bar, by default only on a terminal).

    Returns:
        :class:`TuneResult`: the trial table as a DataFrame, the patch text, the summary, the folder.

    Raises:
        ValueError: (one line) bad knobs, weights, decks, bots or budget; an output folder holding
            another tune (or a tune to resume that does not exist or differs, naming the first setting).
        ScenarioError: the base scenario itself is invalid.
    """
    started = time.perf_counter()
    run = run or RunOptions()
    sc = load_scenario(scenario, bots_from=settings.bots_from)
    plan = plan_tune(sc, Path(scenario).resolve(), settings.check(), run)
    out = _tune_folder(out, sc, run)
    if run.resume:  # other settings are refused before the lock or the study is touched
        refuse_other_tune(out, plan.record)

    def busy(pid: str) -> str:
        return f"{out}: another tune (pid {pid}) is running in this folder: wait for it to end, or choose another --out"

    with held_lock(out / LOCK, busy, "the tune folder", children=False):  # a sweep's workers never hold it
        said = [w for w in (warn(budget_warning(settings, plan.knobs)),
                            warn(noise_warning(plan.noise, plan.bands.deck))) if w]
        study = open_study(out, plan.record, run.resume)
        close_interrupted(study)
        ev = Evaluator(out, plan)
        show = sys.stderr.isatty() if run.progress is None else run.progress
        search(study, TrialPlan(plan.knobs, settings, ev), ev, settings, show)
        table = trial_table(study, plan.knobs)
        write_csv(out / "trials.csv", table)
        chosen, confirmed = confirm_best(study, ev, settings.confirm, plan.confirm_seed, plan.confirm_games, show)
        if confirmed is not None:
            write_csv(out / "confirm.csv", confirmed)
        tune = Tune(study, sc, plan, ev, out, time.perf_counter() - started, tuple(said))
        return finish(tune, chosen, confirmed, table)


def plan_tune(sc: Scenario, base_path: Path, s: TuneSettings, run: RunOptions) -> TunePlan:
    """The tune resolved against its scenario: its knobs, bot pairings, decks, seeds and games, and every sweep
    it will play planned now, so what they would refuse is refused before the search.

    Raises:
        ValueError: bad knobs, bots, decks or seeds (the check's seed must be fresh).
    """
    knobs = parse_knobs(sc.data, list(s.knobs))
    defaults = sweep_defaults(sc)
    panel = s.panel or (() if s.bots else tuple(defaults.get("panel", ())))
    if s.bots and defaults.get("panel"):
        raise ValueError(f"{sc.path}: sweep.panel: the scenario plays a bot panel; --bots cannot replace it "
                         "(give --panel instead)")
    pairs = [(b, b) for b in panel] if panel else bot_pairs(s.bots, sc)
    sweeps = [SweepSettings(games=s.games, decks=s.decks, panel=panel)] if panel else \
        [SweepSettings(games=s.games, decks=s.decks, bots=p) for p in pairs]
    first = plan_sweep(sc, sweeps[0])  # checks decks, bots, games
    for sweep in sweeps[1:]:
        plan_sweep(sc, sweep)
    search_seed = first.seed
    check = derived_seed(search_seed, FRESH_SEED_OFFSET) if s.check_seed is None else s.check_seed
    confirm_seed = derived_seed(search_seed, CONFIRM_SEED_OFFSET)
    if check in (search_seed, confirm_seed):
        raise ValueError(f"--check-seed must differ from the search's sweep seed ({search_seed}) and the "
                         f"confirmation's ({confirm_seed}): the check plays fresh seeds")
    confirm_games = first.games if s.confirm_games is None else s.confirm_games
    check_games = first.games if s.check_games is None else s.check_games
    for seed, games in ((confirm_seed, confirm_games), (check, check_games)):
        for sweep in sweeps:  # the sweeps the end of the tune plays: what they would refuse is refused now
            plan_sweep(sc, dataclasses.replace(sweep, games=games, seed=seed))
    workers = check_workers(defaults["workers"] if run.workers is None else run.workers,
                            f"{sc.path}: sweep.workers" if run.workers is None else "--workers")
    plan = TunePlan(base_path, knobs, pairs, tuple(panel), list(first.pools.decks), first.games, search_seed,
                    confirm_seed, check, confirm_games, check_games, workers, s.weights, s.bands,
                    sc.bots_from, first, {})
    return dataclasses.replace(plan, record=_record(sc, s, plan))


def _record(sc: Scenario, s: TuneSettings, plan: TunePlan) -> dict:
    """The settings as the study stores them and a resume compares (tuples as lists)."""
    record = {
        "base": str(plan.base_path), "base_hash": sc.hash, "knobs": [asdict(k) for k in plan.knobs],
        "max_changes": s.max_changes, "decks": plan.decks, "games": plan.games, "bots": [list(p) for p in plan.pairs],
        "panel": list(plan.panel), "search_seed": plan.search_seed, "sampler_seed": s.seed,
        "weights": asdict(plan.weights), "bands": asdict(plan.bands), "check_games": plan.check_games,
        "check_seed": plan.check_seed, "screen": bool(s.screen), "combine": int(s.combine), "rounds": int(s.rounds),
        "rescreen": int(s.rescreen), "stages": int(s.stages), "seat_pairs": int(s.seat_pairs),
        "confirm": int(s.confirm), "confirm_seed": plan.confirm_seed, "confirm_games": int(plan.confirm_games),
    }
    if sc.bots_from is not None:  # a tune of the scenario's own bots stores its settings as before --bots-from
        record["bots_from"] = str(sc.bots_from.resolve())
    return json.loads(json.dumps(record))  # as stored: tuples become lists


def _tune_folder(out: str | Path | None, sc: Scenario, run: RunOptions) -> Path:
    """The tune's folder, made (a file there, a foreign folder or a resume with no tune is refused)."""
    out = Path(out or f"results/tune-{sc.path.stem}")
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {out}: is a file, not a folder")
    refuse_foreign(out)
    if run.resume and not (out / STUDY).exists():
        raise ValueError(f"{out}: no tune to resume (no {STUDY})")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise cannot_write(f"--out {out}", exc) from None
    return out


def search(study, trials: TrialPlan, ev: Evaluator, s: TuneSettings, show: bool) -> None:
    """Ask the study for candidates until ``s.trials`` distinct ones are played (the screening's first, then the
    sampler's), each evaluated on the search seeds; a candidate the scenario refuses is a failed trial."""
    import optuna
    from tqdm import tqdm

    asked, done = study_progress(study)
    bar = tqdm(total=max(s.trials, done), initial=done, unit="candidate", desc="tune", disable=not show)

    def postfix() -> None:
        b = best_trial(study)
        if b is not None:
            bar.set_postfix_str(f"best {b.value:.4f} ({b.user_attrs.get('n_changes', 0)} changes)")

    postfix()
    with bar, warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)  # multivariate TPE
        warnings.filterwarnings("ignore", message="Fixed parameter")  # the base's value outside a knob's range
        while done < s.trials and asked < MAX_ASKS * s.trials:
            trials.enqueue_next(study)
            study.sampler = optuna.samplers.TPESampler(seed=trial_seed(s.seed, asked), n_startup_trials=STARTUP_TRIALS,
                                                       multivariate=True, group=True)
            _play_trial(study, study.ask(), trials.knobs, s.max_changes, ev)
            asked, now = study_progress(study)
            bar.update(now - done)
            done = now
            postfix()


def _play_trial(study, trial, knobs: list, max_changes: int, ev: Evaluator) -> None:
    """Play one trial's candidate and tell the study its objective (a candidate the scenario refuses fails)."""
    import optuna

    if not trial.user_attrs.get("phase"):
        trial.set_user_attr("phase", "sample")
    changes = suggest(trial, knobs, max_changes)
    trial.set_user_attr("changes", describe_changes(changes))
    trial.set_user_attr("n_changes", len(changes))
    trial.set_user_attr("change_list", [[k, b, a] for k, (b, a) in changes.items()])
    try:
        result = ev.evaluate(changes)
    except ScenarioError as exc:
        trial.set_user_attr("error", str(exc))
        trial.set_user_attr("candidate", candidate_id(changes))
        study.tell(trial, state=optuna.trial.TrialState.FAIL)
    else:
        for k, v in result.items():
            trial.set_user_attr(k, v)
        study.tell(trial, result["objective"])
