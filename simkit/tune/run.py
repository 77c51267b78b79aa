"""``simkit tune`` itself: :func:`tune` plans the screening and the search, runs the study, and hands the
best candidates to :mod:`~simkit.tune.finish` (the whole method is told in :mod:`simkit.tune`)."""

from __future__ import annotations

import json
import sys
import time
import warnings
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from pathlib import Path

from simkit.analysis import FlagBands
from simkit.core.errors import ScenarioError
from simkit.core.files import cannot_write, held_lock
from simkit.scenario import load_scenario
from simkit.sweep import check_seed as check_seed_in_range
from simkit.sweep import check_workers, plan_sweep, sweep_defaults
from simkit.tune.finish import confirm_best, finish
from simkit.tune.knobs import parse_knobs
from simkit.tune.objective import TuneWeights, parse_weights
from simkit.tune.preflight import budget_warning, derived_seed, noise_warning, refuse_foreign, warn
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
    study_progress,
    suggest,
    trial_seed,
    trial_table,
    write_csv,
)


def run_tune(
    scenario: str | Path,
    knobs: Sequence[str],
    trials: int = 30,
    max_changes: int = 3,
    decks: Iterable[str] | None = None,
    bots: Iterable[str] | Iterable[Sequence[str]] | None = None,
    panel: Iterable[str] | None = None,
    games: int | None = None,
    workers: int | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    seed: int = 0,
    screen: bool = True,
    combine: int = 10,
    rounds: int = 2,
    rescreen: int = 0,
    stages: int = 1,
    seat_pairs: int = 0,
    confirm: int = 5,
    confirm_games: int | None = None,
    check_games: int | None = None,
    check_seed: int | None = None,
    weights: TuneWeights | str | None = None,
    bands: FlagBands | None = None,
    progress: bool | None = None,
    bots_from: str | Path | None = None,
) -> TuneResult:
    """Search for a small patch that brings the game into balance, and check it on fresh seeds.

    Args:
        scenario: the base scenario file (a patch of another is fine).
        knobs: knob specs, see :func:`parse_knobs` (``'creatures.*.L*.cost'``, ``'artifacts.HolyLight.cost=4..8'``).
        trials: the budget: distinct candidates evaluated in the whole study (the base itself is the
            first; a candidate the sampler proposes again is looked up, not played, and costs nothing,
            up to 10 asks per candidate of budget); with ``resume`` the study continues up to this many.
        max_changes: at most this many numbers change.
        decks: deck patterns, as for ``simkit sweep --decks`` (default: the scenario's ``[sweep] decks``).
        bots: bot pairings, each ``'first,second'``; with several (a panel) a candidate counts by its
            worst pairing (default: the scenario's ``[sweep] bots``).
        panel: a bot panel (default: the scenario's ``[sweep] panel``): each bot plays every pairing in
            both seats, one sweep per candidate, and a candidate counts by its worst bot.
        games: games per ordered pair in each trial's sweep (default: the scenario's ``[sweep] games``).
        workers: worker processes per sweep (default: the scenario's, 0 = all cores).
        out: the output folder (default ``results/tune-<scenario stem>``).
        resume: continue the tune stored in ``out`` (the same options are required).
        seed: the sampler's seed; the same seed and options give the same study.
        screen: first play every knob alone at both ends of its range (after the base), then the
            ``combine`` combinations an additive model of those single changes predicts best
            (:mod:`simkit.tune.screen`), and only then let the sampler propose; with ``False`` the
            sampler proposes from the second trial on. Every screened candidate spends the budget.
        combine: how many predicted combinations each round of the screening plays.
        rounds: rounds of predicted combinations: the first predicts from the base, each later one from
            the best candidate played before it (see :meth:`simkit.tune.screen.Additive.anchored`).
        rescreen: after the rounds, take the first stage's best candidate (less the change the model finds
            least useful in it when it is full) as an anchor, play on top of it ``rescreen`` knobs, alternately
            those the model predicts best there and the biggest levers (each alone, at both ends of its range),
            then ``rounds`` rounds of combinations on top of the anchor from those measured effects (0: no
            second stage). See :class:`TrialPlan`.
        stages: with ``rescreen``, how many such anchored stages follow one another, each anchored on the
            best candidate played before it (less its least useful change, or the next least useful when
            that anchor was an earlier stage's).
        seat_pairs: after the screening, take the ``seat_pairs`` single changes that moved the first seat's edge most
            and play together each two of different knobs that moved it opposite ways (a change that gives
            the first player back what another took); the model then adds each pair's measured interaction
            to the combinations holding it (0: none). See :func:`simkit.tune.screen.opposed_pairs`.
        confirm: once the budget is spent, replay the best this many candidates, and the base, on other
            seeds (the confirmation seed, search seed plus 2,000,003) and propose the one whose search
            and confirmation games together score best among those that raise no report flag the base
            does not raise there (see :func:`propose`; none if that is the base), so the proposal is
            not the luckiest of many candidates (``OUT/confirm.csv``); 0 proposes the best on the search
            seeds alone.
        confirm_games: games per ordered pair of the confirmation (default: ``games``).
        check_games: games per ordered pair of the fresh-seed check (default: ``games``).
        check_seed: the check's sweep seed (default: the search seed plus 1,000,003).
        weights: the objective's weights (:class:`TuneWeights` or ``'spread=1,band=2,...'``).
        bands: the report's bands (default :class:`simkit.analysis.FlagBands`).
        progress: show a progress bar (default: only when stderr is a terminal).
        bots_from: another scenario file of the game whose ``[bots]`` every candidate plays with (the base's and
            each patch's bots of the same names replaced, ``simkit tune --bots-from FILE``); ``None``: their own.

    Returns:
        :class:`TuneResult`: the trial table as a DataFrame, the patch text, the summary, the folder.

    Raises:
        ValueError: (one line) bad knobs, weights, decks, bots or budget; an output folder holding
            another tune (or a tune to resume that does not exist or differs).
        ScenarioError: the base scenario itself is invalid.
    """
    import optuna

    started = time.perf_counter()
    base_path = Path(scenario).resolve()
    sc = load_scenario(scenario, bots_from=bots_from)
    knob_list = parse_knobs(sc.data, list(knobs))
    if trials < 1:
        raise ValueError(f"--trials must be at least 1, got {trials}")
    if max_changes < 1:
        raise ValueError(f"--max-changes must be at least 1, got {max_changes}")
    if min(combine, rounds, rescreen, stages, seat_pairs, confirm) < 0:
        raise ValueError(f"--combine, --rounds, --rescreen, --stages, --seat-pairs and --confirm must be at least 0, "
                         f"got {combine}, {rounds}, {rescreen}, {stages}, {seat_pairs} and {confirm}")
    if stages > 1 and not (screen and rescreen):
        raise ValueError(f"--stages {stages}: the anchored stages re-screen knobs on top of their anchors; give "
                         "--rescreen N (and keep the screening)")
    weights = parse_weights(weights) if weights is None or isinstance(weights, str) else weights
    bands = bands or FlagBands()
    defaults = sweep_defaults(sc)
    if bots and panel:
        raise ValueError("--bots and --panel: give one (a panel plays each of its bots in both seats)")
    panel = tuple(panel) if panel else (() if bots else tuple(defaults.get("panel", ())))
    if bots and defaults.get("panel"):
        raise ValueError(f"{sc.path}: sweep.panel: the scenario plays a bot panel; --bots cannot replace it "
                         "(give --panel instead)")
    if panel:
        plans = [plan_sweep(sc, games=games, decks=decks, panel=panel)]  # checks decks, bots, games
        pairs = [(b, b) for b in plans[0].panel]
    else:
        pairs = bot_pairs(bots, sc)
        plans = [plan_sweep(sc, games=games, decks=decks, bots=p) for p in pairs]
    games = plans[0].games
    deck_ids = list(plans[0].pools.decks)  # every deck of both seats' pools
    search_seed = plans[0].seed
    if check_seed is not None:
        check_seed_in_range(check_seed, "--check-seed")
    check_seed = derived_seed(search_seed, FRESH_SEED_OFFSET) if check_seed is None else check_seed
    confirm_seed = derived_seed(search_seed, CONFIRM_SEED_OFFSET)
    if check_seed in (search_seed, confirm_seed):
        raise ValueError(f"--check-seed must differ from the search's sweep seed ({search_seed}) and the "
                         f"confirmation's ({confirm_seed}): the check plays fresh seeds")
    check_games = games if check_games is None else check_games
    confirm_games = games if confirm_games is None else confirm_games
    for option, value in (("--confirm-games", confirm_games), ("--check-games", check_games)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"{option} must be a whole number of at least 1, got {value!r}")
    # the sweeps the end of the tune plays, planned now: what they would refuse is refused before the search
    for seed_, games_ in ((confirm_seed, confirm_games), (check_seed, check_games)):
        if panel:
            plan_sweep(sc, games=games_, decks=decks, panel=panel, seed=seed_)
        else:
            for p in pairs:
                plan_sweep(sc, games=games_, decks=decks, bots=p, seed=seed_)
    workers = check_workers(defaults["workers"] if workers is None else workers,
                            f"{sc.path}: sweep.workers" if workers is None else "--workers")
    out = Path(out or f"results/tune-{sc.path.stem}")
    if out.exists() and not out.is_dir():
        raise ValueError(f"--out {out}: is a file, not a folder")
    refuse_foreign(out)
    if resume and not (out / STUDY).exists():
        raise ValueError(f"{out}: no tune to resume (no {STUDY})")
    settings = {
        "base": str(base_path), "base_hash": sc.hash, "knobs": [asdict(k) for k in knob_list],
        "max_changes": max_changes, "decks": deck_ids, "games": games, "bots": [list(p) for p in pairs],
        "panel": list(panel),
        "search_seed": search_seed, "sampler_seed": seed, "weights": asdict(weights),
        "bands": asdict(bands), "check_games": check_games, "check_seed": check_seed,
        "screen": bool(screen), "combine": int(combine), "rounds": int(rounds),
        "rescreen": int(rescreen), "stages": int(stages), "seat_pairs": int(seat_pairs), "confirm": int(confirm),
        "confirm_seed": confirm_seed,
        "confirm_games": int(confirm_games),
    }
    if sc.bots_from is not None:  # a tune of the scenario's own bots stores its settings as before --bots-from
        settings["bots_from"] = str(sc.bots_from.resolve())
    settings = json.loads(json.dumps(settings))  # as stored: tuples become lists
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise cannot_write(f"--out {out}", exc) from None

    def busy(pid: str) -> str:
        return f"{out}: another tune (pid {pid}) is running in this folder: wait for it to end, or choose another --out"

    with held_lock(out / LOCK, busy, "the tune folder", children=False):  # a sweep's workers never hold it
        said = [w for w in (warn(budget_warning(trials, knob_list, max_changes, screen, combine, rounds, rescreen,
                                                stages)),
                            warn(noise_warning(plans[0], bands.deck))) if w]
        study = open_study(out, settings, resume)
        close_interrupted(study)
        ev = Evaluator(base_path, out, deck_ids, games, pairs, panel, search_seed, workers, weights, bands,
                       bots_from=sc.bots_from)
        plan = TrialPlan(knob_list, max_changes, screen, combine, rounds, ev, rescreen, stages, seat_pairs)

        from tqdm import tqdm

        show = sys.stderr.isatty() if progress is None else progress
        asked, done = study_progress(study)
        bar = tqdm(total=max(trials, done), initial=done, unit="candidate", desc="tune", disable=not show)

        def postfix() -> None:
            b = best_trial(study)
            if b is not None:
                bar.set_postfix_str(f"best {b.value:.4f} ({b.user_attrs.get('n_changes', 0)} changes)")

        postfix()
        with bar, warnings.catch_warnings():
            warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)  # multivariate TPE
            warnings.filterwarnings("ignore", message="Fixed parameter")  # the base's value outside a knob's range
            while done < trials and asked < MAX_ASKS * trials:
                plan.enqueue_next(study)
                study.sampler = optuna.samplers.TPESampler(
                    seed=trial_seed(seed, asked), n_startup_trials=STARTUP_TRIALS,
                    multivariate=True, group=True)
                trial = study.ask()
                if not trial.user_attrs.get("phase"):
                    trial.set_user_attr("phase", "sample")
                changes = suggest(trial, knob_list, max_changes)
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
                asked, now = study_progress(study)
                bar.update(now - done)
                done = now
                postfix()
        table = trial_table(study, knob_list)
        write_csv(out / "trials.csv", table)
        chosen, confirmed = confirm_best(study, ev, confirm, confirm_seed, confirm_games, show)
        if confirmed is not None:
            write_csv(out / "confirm.csv", confirmed)
        search_seconds = time.perf_counter() - started
        return finish(study, chosen, confirmed, sc, base_path, table, ev, out, settings, search_seconds, pairs, panel,
                      bands, weights, said)


