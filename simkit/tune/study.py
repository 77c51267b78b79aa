"""The study of ``simkit tune``: candidates, their trial plan, the evaluator that sweeps them, the Optuna store.

A candidate's sweeps live in ``OUT/candidates/<id>/`` keyed by the patch itself, so a candidate proposed
twice is played once; the Optuna study (a seeded TPE sampler, re-seeded per trial) is stored in
``OUT/study.db`` so a killed tune resumes to the uninterrupted tune's trials.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.core.files import atomic_write, cannot_write, refuse_symlink
from simkit.core.settings import refuse_other_settings
from simkit.scenario import load_scenario
from simkit.sweep import RunOptions, SweepSettings, load_results, plan_sweep, run_sweep, sweep_defaults
from simkit.tune.knobs import Knob, candidate_patch, tidy, toml_value
from simkit.tune.objective import balance_terms, change_cost, deck_rates, score
from simkit.tune.preflight import AFTER_SEARCH, path_name
from simkit.tune.screen import (
    Additive,
    MatchupTable,
    Objective,
    best_combinations,
    matchup_table,
    opposed_pairs,
    screen_changes,
)
from simkit.tune.settings import TunePlan, TuneSettings

STUDY = "study.db"
LOCK = ".tune.lock"  # held while a tune runs in its folder (see simkit.core.files.held_lock)
STUDY_NAME = "tune"
SETTINGS = "settings.json"  # the tune's settings as the study keeps them, beside it as plain JSON
NO_CHANGE = "-"
MAX_ASKS = 10  # a candidate proposed again costs no budget; the sampler may ask at most this many times the budget
STARTUP_TRIALS = 10  # random candidates before TPE models the results (fixed: a resumed study samples alike)
FRESH_SEED_OFFSET = 1_000_003  # the check's sweep seed: the search seed plus this, unless given
CONFIRM_SEED_OFFSET = 2_000_003  # the confirmation's sweep seed: the search seed plus this


def candidate_id(changes: dict[str, tuple]) -> str:
    if not changes:
        return "base"
    text = json.dumps(sorted((k, a) for k, (_, a) in changes.items()))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def describe_changes(changes: dict[str, tuple]) -> str:
    return "; ".join(f"{k}: {toml_value(b)} -> {toml_value(a)}" for k, (b, a) in changes.items()) or "(no change)"


# ----------------------------------------------------------------------------------------------
# the study


@dataclass
class TuneResult:
    """What a tune hands back.

    Attributes:
        trials: the trial table (also ``OUT/trials.csv``), one row per trial.
        patch: the proposed patch's TOML text (also ``OUT/patch.toml``); ``""`` when there is no safe proposal
            (the checked candidate, if any, is ``OUT/candidate.toml``; ``summary["verdict"]`` says why).
        summary: the headline figures (also ``OUT/summary.json``): search and check objectives,
            the spread of deck win rates on fresh seeds before and after, flags that vanished and
            appeared, games played and wall time.
        out: the output folder.
    """

    trials: pd.DataFrame
    patch: str
    summary: dict
    out: Path
    files: list[Path] = field(default_factory=list)


def bot_pairs(bots: Iterable[str] | Iterable[Sequence[str]] | None, sc) -> list[tuple[str, str]]:
    """Bot pairings from ``['balanced,rush', ...]`` or ``[('balanced', 'rush'), ...]``; default: the scenario's."""
    if not bots:
        return [tuple(sweep_defaults(sc)["bots"])]
    pairs = []
    for b in bots:
        pair = tuple(x.strip() for x in b.split(",")) if isinstance(b, str) else tuple(b)
        if len(pair) != 2:
            raise ValueError(f"--bots {','.join(pair)!r}: each pairing is two bots, first seat and second seat, "
                             "e.g. balanced,rush")
        pairs.append(pair)
    return pairs


def trial_seed(seed: int, k: int) -> int:
    return int.from_bytes(hashlib.sha256(f"simkit-tune:{seed}:{k}".encode()).digest()[:4], "little")


def suggest(trial, knobs: list[Knob], max_changes: int) -> dict[str, tuple]:
    """Ask the trial for a candidate: the changed keys, ``key -> (before, after)``."""
    by_key = {k.key: k for k in knobs}

    def value(k: Knob):
        if k.integer:
            return trial.suggest_int(k.key, int(k.low), int(k.high))
        return tidy(trial.suggest_float(k.key, k.low, k.high, step=k.step))

    picked: list[str] = []
    if len(knobs) <= max_changes:
        picked = [k.key for k in knobs]
    else:
        choices = [NO_CHANGE] + [k.key for k in knobs]
        for j in range(max_changes):
            c = trial.suggest_categorical(f"change_{j + 1}", choices)
            if c != NO_CHANGE and c not in picked:
                picked.append(c)
    out = {}
    for key in [k.key for k in knobs if k.key in picked]:
        v = value(by_key[key])
        if v != by_key[key].current:
            out[key] = (by_key[key].current, v)
    return out


def _params(changes: dict[str, tuple], knobs: list[Knob], max_changes: int) -> dict:
    """The trial parameters under which :func:`suggest` proposes exactly ``changes``."""
    if len(knobs) <= max_changes:
        return {k.key: changes[k.key][1] if k.key in changes else k.current for k in knobs}
    keys = [k.key for k in knobs if k.key in changes]
    params = {f"change_{j + 1}": keys[j] if j < len(keys) else NO_CHANGE for j in range(max_changes)}
    params.update({key: changes[key][1] for key in keys})
    return params


@dataclass
class _Stage:
    """One anchored stage of the plan: its anchor, the single changes re-screened on top of it, its rounds of
    combinations and the additive model of the re-screened effects (each filled in when the plan reaches it)."""

    anchor: dict[str, tuple] | None = None
    rescreened: list[dict[str, tuple]] | None = None
    rounds: list[list[tuple[dict[str, tuple], float]]] = field(default_factory=list)
    model: Additive | None = None


class TrialPlan:
    """The candidates played before the sampler proposes: the base, then (with screening) each knob alone at
    both ends of its range, then ``rounds`` rounds of the ``combine`` combinations an additive model of those
    single changes predicts best (the first round anchored on the base, no two of its combinations sharing
    more than one knob; each later round anchored on the best candidate played before it).

    With ``rescreen`` ``stages`` anchored stages follow, the way a designer fixes the biggest lever first and
    then re-tries the others on top of it: the best candidate played so far becomes the stage's *anchor*, less
    the change the model finds least useful in it when it has no room for another (:meth:`_anchor`; the next
    least useful when that anchor was an earlier stage's); ``rescreen`` knobs, taken alternately from those the
    model predicts best on top of it and from the biggest levers (those whose single change moved the matchups
    most, :meth:`Additive.effect_size`: a big lever's interplay with the anchor's changes is what adding effects
    gets most wrong), are played there alone at both ends of their ranges, so their effects are measured in the
    anchored game, not guessed from the base; then ``rounds`` rounds of combinations of those (anchor plus up
    to ``max_changes`` less the anchor's changes) as before. A later stage so re-tries a slot of what the
    earlier one found, and its other slots, the earlier anchor's changes, are no longer fixed.

    With ``seat_pairs`` the screening is followed by the pairs :func:`opposed_pairs` names among the
    ``seat_pairs`` single changes that moved the first seat's edge most (each with each that moved it the
    other way), and the model adds what each played pair did beyond its two single effects
    (:class:`Additive` ``pairs``).

    Each is enqueued only when it is next (and not yet played), so a tune killed anywhere resumes to the very
    order of an uninterrupted one: a round depends only on the sweeps of the candidates planned before it.
    """

    def __init__(self, knobs: list[Knob], settings: TuneSettings, ev: Evaluator):
        s, screen = settings, settings.screen
        self.knobs, self.max_changes, self.ev = knobs, s.max_changes, ev
        self.n_pairs = s.seat_pairs if screen and s.max_changes > 1 else 0
        self.paired: list[dict[str, tuple]] | None = None
        self.combine, self.rounds = (s.combine, s.rounds) if screen else (0, 0)
        self.rescreen = s.rescreen if screen else 0
        self.n_stages = s.stages if self.rescreen > 0 else 0
        self.fixed = [("base", {})] + ([("screen", c) for c in screen_changes(knobs)] if screen else [])
        self.done_rounds: list[list[tuple[dict[str, tuple], float]]] = []
        self.model: Additive | None = None
        self.stages: list[_Stage] = []

    def next(self, study) -> tuple[dict[str, tuple], dict] | None:
        """The next planned candidate not yet played, with the attributes its trial gets; ``None`` once the
        plan is done."""
        played = {t.user_attrs.get("candidate") for t in _counted(study)}
        for phase, changes in self.fixed:
            if candidate_id(changes) not in played:
                return changes, {"phase": phase, "stage": 1}
        if self.paired is None:
            self.paired = self._opposed(study)
        for changes in self.paired:
            if candidate_id(changes) not in played:
                return changes, {"phase": "pair", "stage": 1}
        if self.combine < 1:
            return None
        nxt = self._next_round(study, self.done_rounds, self._combinations, 0, played, 1)
        for s in range(self.n_stages):
            if nxt is not None:
                return nxt
            if s == len(self.stages):
                self.stages.append(_Stage())
            st = self.stages[s]
            if st.rescreened is None:
                if st.anchor is None:
                    st.anchor = self._choose_anchor(study, s)
                if st.anchor and candidate_id(st.anchor) not in played:
                    return st.anchor, {"phase": "anchor", "stage": s + 2}  # a trial of its own: its games count
                st.rescreened = self._rescreen(study, st)
            for changes in st.rescreened:
                if candidate_id(changes) not in played:
                    return changes, {"phase": "rescreen", "stage": s + 2}
            if not st.rescreened:
                return None
            nxt = self._next_round(study, st.rounds, lambda study, r, s=s: self._combinations2(study, r, s),
                                   self.rounds * (s + 1), played, s + 2)
        return nxt

    def _next_round(self, study, done: list, make: Callable, offset: int, played: set, stage: int):
        """The next unplayed combination of stage ``stage``'s rounds (``done``, planned by ``make`` when reached)."""
        for r in range(self.rounds):
            if r == len(done):
                done.append(make(study, r))
            for changes, predicted in done[r]:
                if candidate_id(changes) not in played:
                    return changes, {"phase": "combine", "stage": stage, "round": offset + r + 1,
                                     "predicted": predicted}
        return None

    def enqueue_next(self, study) -> None:
        """Queue the next planned candidate, unless one is already waiting (a kill came between queue and ask)."""
        from optuna.trial import TrialState

        if study.get_trials(deepcopy=False, states=(TrialState.WAITING,)):
            return
        nxt = self.next(study)
        if nxt is not None:
            changes, attrs = nxt
            study.enqueue_trial(_params(changes, self.knobs, self.max_changes), user_attrs=attrs)

    @staticmethod
    def _complete(study) -> dict:
        from optuna.trial import TrialState

        return {t.user_attrs.get("candidate"): t
                for t in sorted(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)),
                                key=lambda t: -t.number)}  # the first trial of a candidate wins

    def _tables(self, changes: dict[str, tuple]) -> list[MatchupTable]:
        return [matchup_table(df, self.ev.decks) for df in self.ev.frames(changes)]

    def _opposed(self, study) -> list[dict[str, tuple]]:
        """The pairs of screened changes to play together (see :func:`opposed_pairs`): each single change's
        shift of the first seat's score is its mean over the bot pairings."""
        complete = self._complete(study)
        if not self.n_pairs or "base" not in complete:
            return []
        base = self._tables({})
        shifts = [(c, float(np.mean([t.first - b.first for t, b in zip(self._tables(c), base)])))
                  for _, c in self.fixed[1:] if candidate_id(c) in complete]
        return opposed_pairs(shifts, self.n_pairs)

    def _objective(self) -> Objective:
        """How the models judge a prediction: the tune's objective and patch price (its weights), its bands."""
        w = self.ev.weights
        return Objective(lambda t: score(t, w), lambda c: change_cost(c, w), self.ev.bands)

    def _first_model(self, complete: dict) -> Additive:
        """The additive model of the screening's single changes, measured from the base, with the measured
        interaction of each played pair."""
        if self.model is None:
            singles = []
            for _, changes in self.fixed[1:]:
                if candidate_id(changes) in complete:
                    (key, (_, value)), = changes.items()
                    singles.append((key, value, self._tables(changes)))
            pairs = []
            for changes in self.paired or []:
                if candidate_id(changes) in complete:
                    (ka, (_, a)), (kb, (_, b)) = changes.items()
                    pairs.append(((ka, a), (kb, b), self._tables(changes)))
            self.model = Additive(self.knobs, self._tables({}), singles, self._objective(), pairs=pairs)
        return self.model

    def _combinations(self, study, r: int) -> list[tuple[dict[str, tuple], float]]:
        """Round ``r``'s best predicted combinations, with their predicted objectives (none if the base failed)."""
        complete = self._complete(study)
        if "base" not in complete:
            return []
        earlier = ([c for _, c in self.fixed] + (self.paired or [])
                   + [c for done in self.done_rounds[:r] for c, _ in done])
        return self._round(complete, self._first_model(complete), {}, earlier, r)

    def _planned(self, upto: int) -> list[dict[str, tuple]]:
        """Every candidate the first stage and the anchored stages before stage ``upto`` planned."""
        out = [c for _, c in self.fixed] + (self.paired or []) + [c for done in self.done_rounds for c, _ in done]
        for st in self.stages[:upto]:
            out += ([st.anchor] if st.anchor else []) + (st.rescreened or []) + [c for d in st.rounds for c, _ in d]
        return out

    def _choose_anchor(self, study, s: int) -> dict[str, tuple]:
        """Stage ``s``'s anchor (``{}`` when none qualifies): see :meth:`_anchor`."""
        complete = self._complete(study)
        earlier = [c for c in self._planned(s) if c and candidate_id(c) in complete]
        if "base" not in complete or not earlier or self.max_changes < 2:
            return {}
        used = [st.anchor for st in self.stages[:s] if st.anchor]
        return self._anchor(complete, _best_of(complete, earlier), used)

    def _rescreen(self, study, st: _Stage) -> list[dict[str, tuple]]:
        """The single changes re-screened on top of the stage's (played) anchor (none without a valid anchor)."""
        complete = self._complete(study)
        if not st.anchor or candidate_id(st.anchor) not in complete:
            return []
        model = self._first_model(complete).anchored(self._tables(st.anchor), st.anchor)
        picks = [model.index[k, a] for k, (_, a) in st.anchor.items() if (k, a) in model.index]
        free = [i for i, o in enumerate(model.options) if o[0] not in st.anchor]
        predicted = [model.options[i][0] for _, i in sorted((model.predict(picks + [i]), i) for i in free)]
        levers = [model.options[i][0] for _, i in sorted((-model.effect_size(i), i) for i in free)]
        keys = _interleave(predicted, levers, self.rescreen)
        by_key = {k.key: k for k in self.knobs}
        out: list[dict[str, tuple]] = []
        for key in keys:
            k = by_key[key]
            for v in (k.values()[0], k.values()[-1]):
                c = {**st.anchor, key: (k.current, v)}
                if v != k.current and c not in out:
                    out.append(c)
        return out

    def _anchor(self, complete: dict, best: dict[str, tuple], used: list[dict[str, tuple]] = ()) -> dict[str, tuple]:
        """An anchored stage's anchor: the best candidate played so far, less (when it has no room for another
        change) the change the model finds least useful in it: the one whose removal, predicted from the best
        candidate's own games less that change's screened effect, costs least. The stage then re-tries that
        slot with every promising knob, measured on top of the others. An anchor an earlier stage had
        (``used``) is passed over for the next least useful change's; ``{}`` when each was used."""
        if len(best) < self.max_changes:
            return {} if best in used else best
        model = self._first_model(complete).anchored(self._tables(best), best)
        drops = []
        for key in best:
            rest = {k: v for k, v in best.items() if k != key}
            if all((k, a) in model.index for k, (_, a) in rest.items()) and (key, best[key][1]) in model.index:
                drops.append((model.predict_changes(rest), key))
        for _, key in sorted(drops):
            rest = {k: v for k, v in best.items() if k != key}
            if rest not in used:
                return rest
        return {}

    def _combinations2(self, study, r: int, s: int) -> list[tuple[dict[str, tuple], float]]:
        """Round ``r`` of anchored stage ``s``: combinations on top of its anchor, from the re-screened effects."""
        complete = self._complete(study)
        st = self.stages[s]
        anchor = st.anchor
        if st.model is None:
            singles = []
            for c in st.rescreened:
                if candidate_id(c) in complete:
                    (key, (_, value)), = ((k, v) for k, v in c.items() if k not in anchor)
                    singles.append((key, value, self._tables(c)))
            st.model = Additive([k for k in self.knobs if k.key not in anchor], self._tables(anchor), singles,
                                self._objective(), reference=self._first_model(complete).reference)
        earlier = self._planned(s) + [anchor] + st.rescreened + [c for done in st.rounds[:r] for c, _ in done]
        return self._round(complete, st.model, anchor, earlier, r)

    def _round(self, complete: dict, model: Additive, anchor: dict[str, tuple], earlier: list[dict[str, tuple]],
               r: int) -> list[tuple[dict[str, tuple], float]]:
        """Round ``r``'s best predicted combinations on top of ``anchor`` (``{}`` in the first stage), with their
        predicted objectives; a later round re-anchors the model on the best candidate played before it."""
        if r > 0:
            best = _best_of(complete, [c for c in earlier if anchor.items() <= c.items()])
            extra = {k: v for k, v in best.items() if k not in anchor}
            if extra:
                model = model.anchored(self._tables(best), extra)
        planned = {candidate_id(c) for c in earlier}
        combos = best_combinations(model, self.max_changes - len(anchor), self.combine, diverse=r == 0,
                                   skip=lambda c: candidate_id({**anchor, **c}) in planned)
        return [({**anchor, **c}, round(model.predict_changes(c) + change_cost(anchor, self.ev.weights), 6))
                for c in combos]


def _interleave(first: list[str], second: list[str], n: int) -> list[str]:
    """Up to ``n`` distinct keys taken alternately from two rankings, ``first`` first."""
    keys: list[str] = []
    for pair in zip(first, second):
        for key in pair:
            if len(keys) < n and key not in keys:
                keys.append(key)
    return keys


def _best_of(complete: dict, candidates: list[dict[str, tuple]]) -> dict[str, tuple]:
    """The changes of the best played (lowest objective, then earliest) of ``candidates``."""
    played = [complete[candidate_id(c)] for c in candidates if candidate_id(c) in complete]
    best = min(played, key=lambda t: (t.value, t.number))
    return {k: (b, a) for k, b, a in best.user_attrs.get("change_list", [])}


class Evaluator:
    """Plays candidates on the search seeds, cached by candidate: one sweep per bot pairing, or one
    sweep of the whole bot panel (each panel bot in both seats), split by bot."""

    def __init__(self, out: Path, plan: TunePlan):
        self.base_path, self.out = plan.base_path, out
        self.bots_from = plan.bots_from  # every candidate (base, patches) plays the bots of this file (--bots-from)
        self.base_data = load_scenario(plan.base_path).data
        self.decks, self.games, self.pairs, self.panel = plan.decks, plan.games, plan.pairs, plan.panel
        self.seed, self.workers, self.weights, self.bands = plan.search_seed, plan.workers, plan.weights, plan.bands
        self.games_played = 0
        self.last_sweeps: list[tuple[str, pd.DataFrame]] = []
        self._reference: list[pd.Series] | None = None

    def sweep(self, changes: dict[str, tuple], folder: Path, seed: int, games: int) -> list[pd.DataFrame]:
        """Sweep the candidate (base + changes); raises ScenarioError if invalid. See :meth:`sweep_file`."""
        own_folder(folder, self.out)
        patch = folder / "patch.toml"
        text = candidate_patch(str(self.base_path), changes, header=[f"tune candidate: {describe_changes(changes)}"],
                               base=self.base_data)
        refuse_symlink(patch)  # never read through a planted link either
        if not patch.is_file() or patch.read_text(encoding="utf-8") != text:
            write_text(patch, text)
        return self.sweep_file(patch, folder, seed, games)

    def sweep_file(self, path: Path, folder: Path, seed: int, games: int) -> list[pd.DataFrame]:
        """Sweep the scenario file ``path`` into ``folder``; returns the games of each bot pairing, in
        ``self.pairs`` order (``self.last_sweeps`` keeps each whole sweep with its label, for compare)."""
        sc = load_scenario(path, bots_from=self.bots_from)
        runs = []
        if self.panel:
            runs.append(("panel " + ",".join(self.panel), folder / "sweep-panel",
                         plan_sweep(sc, SweepSettings(games=games, decks=tuple(self.decks), seed=seed,
                                                      panel=self.panel))))
        else:
            for i, bots in enumerate(self.pairs):
                runs.append((",".join(bots), folder / f"sweep-{i}-{path_name(bots[0])}-{path_name(bots[1])}",
                             plan_sweep(sc, SweepSettings(games=games, decks=tuple(self.decks), bots=bots, seed=seed))))
        self.last_sweeps = []
        for label, where, plan in runs:
            own_folder(where, self.out)  # its files are the sweep's own (simkit.sweep refuses links inside it)
            before = _games_on_disk(where)
            run_sweep(sc, plan, where, RunOptions(workers=self.workers, resume=True, progress=False))
            df = load_results(where)
            self.games_played += len(df) - before
            self.last_sweeps.append((label, df))
        if self.panel:
            df = self.last_sweeps[0][1]
            return [df[(df["first_bot"] == b) & (df["second_bot"] == b)].reset_index(drop=True) for b in self.panel]
        return [df for _, df in self.last_sweeps]

    def frames(self, changes: dict[str, tuple]) -> list[pd.DataFrame]:
        """The games of a candidate on the search seeds, one frame per bot pairing (played if need be)."""
        return self.sweep(changes, self.out / "candidates" / candidate_id(changes), self.seed, self.games)

    def reference(self) -> list[pd.Series]:
        """The base game's deck rates on the search seeds, per bot pairing (``pushed`` is measured from them)."""
        if self._reference is None:
            self._reference = [deck_rates(df) for df in self.frames({})]
        return self._reference

    def worst(self, frames: list[pd.DataFrame], reference: list[pd.Series] | None = None,
              ) -> tuple[int, dict[str, float], float]:
        """The bot pairing a candidate counts by (its worst), with that pairing's terms and balance score;
        ``reference``: the base's deck rates on the seeds of ``frames`` (default: the search seeds')."""
        reference = self.reference() if reference is None else reference
        per_pair = [balance_terms(df, self.bands, ref) for df, ref in zip(frames, reference)]
        scores = [score(t, self.weights) for t in per_pair]
        worst = int(np.argmax(scores))
        return worst, per_pair[worst], scores[worst]

    def evaluate(self, changes: dict[str, tuple]) -> dict:
        """Objective and terms of a candidate (its worst bot pairing)."""
        folder = self.out / "candidates" / candidate_id(changes)
        started = time.perf_counter()
        played = self.games_played
        frames = self.sweep(changes, folder, self.seed, self.games)
        games = sum(len(df) for _, df in self.last_sweeps)  # on disk: the games a resumed sweep played before too
        worst, terms, balance = self.worst(frames)
        cost = change_cost(changes, self.weights)
        return {"objective": balance + cost, "balance": balance, "change_cost": cost,
                **terms, "worst_bots": ",".join(self.pairs[worst]),
                "candidate": folder.name, "games": games, "games_played": self.games_played - played,
                "seconds": round(time.perf_counter() - started, 2)}


def _games_on_disk(folder: Path) -> int:
    try:
        return len(load_results(folder))
    except ValueError:
        return 0


@contextmanager
def storage_refusals(out: Path):
    """The study's SQLite store refusing a write (a full or read-only disk) raised as the ``OSError`` it is, so that
    a tune on a full disk ends in the same one line as every command (:mod:`simkit.commands._stop`)."""
    from sqlalchemy.exc import OperationalError

    try:
        yield
    except OperationalError as exc:
        text = str(exc.orig if exc.orig is not None else exc)
        for words, code in (("disk is full", errno.ENOSPC), ("readonly database", errno.EROFS)):
            if words in text:
                raise OSError(code, os.strerror(code), str(out / STUDY)) from None
        raise


#: how the command line (or the scenario) names the recorded settings whose flag is not the key itself
RECORD_FLAGS = {"knobs": "--knob", "sampler_seed": "--seed", "search_seed": "the scenario's sweep seed",
                "base": "the scenario", "base_hash": "the scenario", "bands": "the report's bands"}


def refuse_other_tune(out: Path, settings: dict) -> None:
    """Refuse, before anything is written, to resume the tune in ``out`` with other search settings than those its
    ``settings.json`` records (what only the end of the tune uses, :data:`~simkit.tune.preflight.AFTER_SEARCH`, a
    resume may correct). A folder without the file (an older tune) is checked against its study when opened.

    Raises:
        ValueError: one line naming the first setting that differs and both its values.
    """
    path = out / SETTINGS
    if not path.is_file() or path.is_symlink():
        return
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raise ValueError(f"{path}: not the settings of a tune (unreadable JSON): choose another --out") from None
    _refuse_other_search(out, kept, settings)


def _refuse_other_search(out: Path, kept: dict, settings: dict) -> None:
    search = [k for k in settings if k not in AFTER_SEARCH]
    refuse_other_settings(str(out), "a tune", kept, settings, keys=search,
                          names={**{k: "--" + k.replace("_", "-") for k in settings}, **RECORD_FLAGS})


def open_study(out: Path, settings: dict, resume: bool):
    """The study stored in ``out`` (created when new, with the mode the umask gives), its settings recorded in the
    study and beside it in ``settings.json``. A resume must repeat the search's settings; what only the end of the
    tune uses (:data:`~simkit.tune.preflight.AFTER_SEARCH`: the check's seed and games, the confirmation's) it may
    correct, and the study then keeps the new values."""
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    path = out / STUDY
    storage = f"sqlite:///{path.resolve()}"
    exists = path.exists()
    if exists and not resume:
        raise ValueError(f"{out} already holds a tune: pass --resume to continue it, or another --out")
    if not exists and resume:
        raise ValueError(f"{out}: no tune to resume (no {STUDY})")
    if not exists:
        try:  # SQLite would create it 0644 whatever the umask: an empty file of our own is an empty database
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o666))
        except OSError as exc:
            raise cannot_write(str(path), exc) from None
    study = optuna.create_study(study_name=STUDY_NAME, storage=storage, direction="minimize", load_if_exists=True)
    stored = study.user_attrs.get("settings")
    if stored is not None or study.trials:  # not new (nor created and killed before its settings were stored)
        _refuse_other_search(out, stored or {}, settings)
    if stored != settings:  # new, or a corrected check or confirmation: the search is the same
        study.set_user_attr("settings", settings)
    if stored != settings or not (out / SETTINGS).exists():
        write_text(out / SETTINGS, json.dumps(settings, indent=2, ensure_ascii=False) + "\n")
    return study


def close_interrupted(study) -> None:
    """Trials left running by a killed tune: mark them failed and queue their candidates again."""
    from optuna.trial import TrialState

    for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        study._storage.set_trial_user_attr(t._trial_id, "interrupted", True)
        study._storage.set_trial_state_values(t._trial_id, TrialState.FAIL)
        if t.params and not t.user_attrs.get("phase"):  # a planned candidate is planned again by TrialPlan
            study.enqueue_trial(t.params, skip_if_exists=False)


def _counted(study) -> list:
    """The trials that spend the budget (finished, or failed validation; not the interrupted ones)."""
    from optuna.trial import TrialState

    return [t for t in study.get_trials(deepcopy=False)
            if t.state in (TrialState.COMPLETE, TrialState.FAIL) and not t.user_attrs.get("interrupted")]


def study_progress(study) -> tuple[int, int]:
    """Trials asked so far (the interrupted left out) and distinct candidates among them (the budget)."""
    counted = _counted(study)
    return len(counted), len({t.user_attrs.get("candidate") for t in counted})


def trial_table(study, knobs: list[Knob]) -> pd.DataFrame:
    from optuna.trial import TrialState

    rows, seen = [], set()
    for t in study.get_trials(deepcopy=False):
        a = t.user_attrs
        repeat = a.get("candidate") in seen and not a.get("interrupted")
        if not a.get("interrupted"):
            seen.add(a.get("candidate"))
        state = "interrupted" if a.get("interrupted") else t.state.name.lower()
        if t.state == TrialState.FAIL and not a.get("interrupted"):
            state = "invalid"
        row = {"trial": t.number, "phase": a.get("phase", ""), "stage": a.get("stage", np.nan),
               "round": a.get("round", np.nan),
               "predicted": a.get("predicted", np.nan), "state": state,
               "objective": t.value if t.state == TrialState.COMPLETE else np.nan,
               "changes": a.get("changes", ""), "n_changes": a.get("n_changes", np.nan), "repeat": repeat}
        for k in ("balance", "change_cost", "spread", "band", "matchup", "first_player", "seat", "pushed", "length",
                  "worst_deck", "decks_outside", "worst_bots", "candidate", "games", "games_played", "seconds",
                  "error"):
            row[k] = a.get(k, np.nan if k not in ("worst_bots", "candidate", "error") else "")
        rows.append(row)
    return pd.DataFrame(rows)


def best_trial(study):
    from optuna.trial import TrialState

    done = [t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))]
    if not done:
        return None
    return min(done, key=lambda t: (t.value, t.user_attrs.get("n_changes", 0), t.number))


def write_text(path: Path, text: str) -> None:
    """Write ``path`` whole or not at all, through a temporary file this process creates itself
    (:func:`simkit.core.files.atomic_write`: never through a file or symlink planted in the folder).

    Raises:
        ValueError: ``path`` is a symlink (one line naming it and its target, which stays untouched), or it
            cannot be written.
    """
    refuse_symlink(path)
    try:
        atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))
    except OSError as exc:
        raise cannot_write(str(path), exc) from None


def write_csv(path: Path, table: pd.DataFrame) -> None:
    """Write ``table`` as the CSV ``path`` (:func:`write_text`), each text cell and column name made safe for
    spreadsheets as the report's CSVs are (:func:`simkit.report.document.csv_safe`: a card, deck or bot named
    ``=HYPERLINK(1)`` reaches the file as ``'=HYPERLINK(1)``)."""
    from simkit.report.document import csv_safe

    write_text(path, csv_safe(table).to_csv(index=False))


def own_folder(folder: Path, out: Path) -> Path:
    """Create ``folder`` inside the tune folder ``out`` (and the folders between), refusing a symlink at any of
    them: tune writes only into folders of its own, never through a link planted in ``out`` to elsewhere.

    Raises:
        ValueError: one of them is a symlink (one line naming it and its target), or is not a folder, or
            cannot be created.
    """
    folder, out = Path(folder), Path(out)
    parts = folder.relative_to(out).parts
    at = out
    for part in parts:
        at = at / part
        refuse_symlink(at)
        try:
            at.mkdir(exist_ok=True)
        except FileExistsError:
            raise ValueError(f"{at}: is a file, not the tune's folder {part}: remove it") from None
        except OSError as exc:
            raise cannot_write(str(at), exc) from None
    return folder


