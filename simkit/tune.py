"""Automatic balance suggestions: search the numbers a designer lets simkit touch for a small patch.

Game-agnostic. A *knob* is a number of the scenario (a dotted key of the merged scenario such as
``creatures.Priest.L3.cost``) with the range it may take. A *candidate* changes at most
``max_changes`` knobs; it is written as a patch that ``extends`` the base, validated by
:func:`simkit.load_scenario` (a candidate that fails validation is a failed trial, not a crash)
and swept on the very seeds of the base (:mod:`simkit.sweep`), so the difference between two
candidates is the change, not the luck of the draw. Its *objective* (lower is better) adds the
spread of the deck win rates, how far decks sit outside the report's band, how far matchups go
beyond 70/30, the first-player advantage, how far the candidate pushes decks further outside the
band than the base game has them on the same seeds (a new outlier is a new flag) and a small price
per change; with several bot pairings,
or a sweep's bot panel, a candidate counts by its worst pairing or bot, so the patch does not
balance one bot's habits.

The search is an Optuna study (a seeded TPE sampler, one re-seeded per trial so that a resumed
study proposes what an uninterrupted one would have) stored in SQLite in the output folder: a
killed tune resumes with ``resume=True``. Each candidate's sweeps live in
``OUT/candidates/<id>/``, keyed by the patch itself, so a candidate proposed twice is played once
and a sweep cut short by a kill is finished rather than restarted.

When the budget is spent, the best candidate is written as ``OUT/patch.toml`` (``extends`` the
base, only the changed keys, a comment per change with before/after) and checked against the
base on fresh seeds (another sweep seed than the search used; the sweeps of the base file and of
``OUT/patch.toml`` itself, in ``OUT/fresh/``): ``OUT/compare.pdf`` (with its tables as CSV beside
it), ``OUT/flags.csv`` (flags that vanished, appeared or stayed) and ``OUT/summary.json``.
``OUT/trials.csv`` is the trial table.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import time
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.analysis import FlagBands, balance_flags
from simkit.errors import ScenarioError
from simkit.scenario import load_scenario
from simkit.sweep import load_results, plan_sweep, run_sweep, sweep_defaults
from simkit.tune_knobs import Knob, candidate_patch, parse_knobs, scenario_numbers, tidy, toml_value
from simkit.tune_objective import TuneWeights, balance_terms, change_cost, deck_rates, parse_weights, score
from simkit.tune_screen import Additive, MatchupTable, best_combinations, matchup_table, opposed_pairs, screen_changes

__all__ = [
    "Knob",
    "TuneResult",
    "TuneWeights",
    "balance_terms",
    "deck_rates",
    "candidate_patch",
    "parse_knobs",
    "parse_weights",
    "scenario_numbers",
    "tune",
]

STUDY = "study.db"
STUDY_NAME = "tune"
NO_CHANGE = "-"
MAX_ASKS = 10  # a candidate proposed again costs no budget; the sampler may ask at most this many times the budget
STARTUP_TRIALS = 10  # random candidates before TPE models the results (fixed: a resumed study samples alike)
FRESH_SEED_OFFSET = 1_000_003  # the check's sweep seed: the search seed plus this, unless given
CONFIRM_SEED_OFFSET = 2_000_003  # the confirmation's sweep seed: the search seed plus this


def _candidate_id(changes: dict[str, tuple]) -> str:
    if not changes:
        return "base"
    text = json.dumps(sorted((k, a) for k, (_, a) in changes.items()))
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def _describe(changes: dict[str, tuple]) -> str:
    return "; ".join(f"{k}: {toml_value(b)} -> {toml_value(a)}" for k, (b, a) in changes.items()) or "(no change)"


# ----------------------------------------------------------------------------------------------
# the study


@dataclass
class TuneResult:
    """What a tune hands back.

    Attributes:
        trials: the trial table (also ``OUT/trials.csv``), one row per trial.
        patch: the proposed patch's TOML text (also ``OUT/patch.toml``); ``""`` when no candidate
            beat the base.
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


def _bot_pairs(bots: Iterable[str] | Iterable[Sequence[str]] | None, sc) -> list[tuple[str, str]]:
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


def _seed_for(seed: int, k: int) -> int:
    return int.from_bytes(hashlib.sha256(f"simkit-tune:{seed}:{k}".encode()).digest()[:4], "little")


def _suggest(trial, knobs: list[Knob], max_changes: int) -> dict[str, tuple]:
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
    """The trial parameters under which :func:`_suggest` proposes exactly ``changes``."""
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


class _Plan:
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

    def __init__(self, knobs: list[Knob], max_changes: int, screen: bool, combine: int, rounds: int,
                 ev: _Evaluator, rescreen: int = 0, stages: int = 1, seat_pairs: int = 0):
        self.knobs, self.max_changes, self.ev = knobs, max_changes, ev
        self.n_pairs = seat_pairs if screen and max_changes > 1 else 0
        self.paired: list[dict[str, tuple]] | None = None
        self.combine, self.rounds = (combine, rounds) if screen else (0, 0)
        self.rescreen = rescreen if screen else 0
        self.n_stages = stages if self.rescreen > 0 else 0
        self.fixed = [("base", {})] + ([("screen", c) for c in screen_changes(knobs)] if screen else [])
        self.done_rounds: list[list[tuple[dict[str, tuple], float]]] = []
        self.model: Additive | None = None
        self.stages: list[_Stage] = []

    def next(self, study) -> tuple[dict[str, tuple], dict] | None:
        """The next planned candidate not yet played, with the attributes its trial gets; ``None`` once the
        plan is done."""
        played = {t.user_attrs.get("candidate") for t in _counted(study)}
        for phase, changes in self.fixed:
            if _candidate_id(changes) not in played:
                return changes, {"phase": phase, "stage": 1}
        if self.paired is None:
            self.paired = self._opposed(study)
        for changes in self.paired:
            if _candidate_id(changes) not in played:
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
                if st.anchor and _candidate_id(st.anchor) not in played:
                    return st.anchor, {"phase": "anchor", "stage": s + 2}  # a trial of its own: its games count
                st.rescreened = self._rescreen(study, st)
            for changes in st.rescreened:
                if _candidate_id(changes) not in played:
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
                if _candidate_id(changes) not in played:
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
                  for _, c in self.fixed[1:] if _candidate_id(c) in complete]
        return opposed_pairs(shifts, self.n_pairs)

    def _first_model(self, complete: dict) -> Additive:
        """The additive model of the screening's single changes, measured from the base, with the measured
        interaction of each played pair."""
        if self.model is None:
            singles = []
            for _, changes in self.fixed[1:]:
                if _candidate_id(changes) in complete:
                    (key, (_, value)), = changes.items()
                    singles.append((key, value, self._tables(changes)))
            pairs = []
            for changes in self.paired or []:
                if _candidate_id(changes) in complete:
                    (ka, (_, a)), (kb, (_, b)) = changes.items()
                    pairs.append(((ka, a), (kb, b), self._tables(changes)))
            self.model = Additive(self.knobs, self._tables({}), singles, lambda t: score(t, self.ev.weights),
                                  lambda c: change_cost(c, self.ev.weights), self.ev.bands, pairs=pairs)
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
        earlier = [c for c in self._planned(s) if c and _candidate_id(c) in complete]
        if "base" not in complete or not earlier or self.max_changes < 2:
            return {}
        used = [st.anchor for st in self.stages[:s] if st.anchor]
        return self._anchor(complete, _best_of(complete, earlier), used)

    def _rescreen(self, study, st: _Stage) -> list[dict[str, tuple]]:
        """The single changes re-screened on top of the stage's (played) anchor (none without a valid anchor)."""
        complete = self._complete(study)
        if not st.anchor or _candidate_id(st.anchor) not in complete:
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
                if _candidate_id(c) in complete:
                    (key, (_, value)), = ((k, v) for k, v in c.items() if k not in anchor)
                    singles.append((key, value, self._tables(c)))
            st.model = Additive([k for k in self.knobs if k.key not in anchor], self._tables(anchor), singles,
                                lambda t: score(t, self.ev.weights), lambda c: change_cost(c, self.ev.weights),
                                self.ev.bands, reference=self._first_model(complete).reference)
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
        planned = {_candidate_id(c) for c in earlier}
        combos = best_combinations(model, self.max_changes - len(anchor), self.combine, diverse=r == 0,
                                   skip=lambda c: _candidate_id({**anchor, **c}) in planned)
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
    played = [complete[_candidate_id(c)] for c in candidates if _candidate_id(c) in complete]
    best = min(played, key=lambda t: (t.value, t.number))
    return {k: (b, a) for k, b, a in best.user_attrs.get("change_list", [])}


class _Evaluator:
    """Plays candidates on the search seeds, cached by candidate: one sweep per bot pairing, or one
    sweep of the whole bot panel (each panel bot in both seats), split by bot."""

    def __init__(self, base_path: Path, out: Path, decks, games, pairs, panel, seed, workers, weights, bands):
        self.base_path, self.out = base_path, out
        self.base_data = load_scenario(base_path).data
        self.decks, self.games, self.pairs, self.panel, self.seed = decks, games, pairs, panel, seed
        self.workers, self.weights, self.bands = workers, weights, bands
        self.games_played = 0
        self.last_sweeps: list[tuple[str, pd.DataFrame]] = []
        self._reference: list[pd.Series] | None = None

    def sweep(self, changes: dict[str, tuple], folder: Path, seed: int, games: int) -> list[pd.DataFrame]:
        """Sweep the candidate (base + changes); raises ScenarioError if invalid. See :meth:`sweep_file`."""
        folder.mkdir(parents=True, exist_ok=True)
        patch = folder / "patch.toml"
        text = candidate_patch(str(self.base_path), changes, header=[f"tune candidate: {_describe(changes)}"],
                               base=self.base_data)
        if not patch.exists() or patch.read_text(encoding="utf-8") != text:
            tmp = folder / ".patch.toml.tmp"
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, patch)
        return self.sweep_file(patch, folder, seed, games)

    def sweep_file(self, path: Path, folder: Path, seed: int, games: int) -> list[pd.DataFrame]:
        """Sweep the scenario file ``path`` into ``folder``; returns the games of each bot pairing, in
        ``self.pairs`` order (``self.last_sweeps`` keeps each whole sweep with its label, for compare)."""
        sc = load_scenario(path)
        runs = []
        if self.panel:
            runs.append(("panel " + ",".join(self.panel), folder / "sweep-panel",
                         plan_sweep(sc, games=games, decks=self.decks, seed=seed, panel=self.panel)))
        else:
            for i, bots in enumerate(self.pairs):
                runs.append((",".join(bots), folder / f"sweep-{i}-{bots[0]}-{bots[1]}",
                             plan_sweep(sc, games=games, decks=self.decks, bots=bots, seed=seed)))
        self.last_sweeps = []
        for label, where, plan in runs:
            before = _games_on_disk(where)
            run_sweep(sc, plan, where, workers=self.workers, resume=True, progress=False)
            df = load_results(where)
            self.games_played += len(df) - before
            self.last_sweeps.append((label, df))
        if self.panel:
            df = self.last_sweeps[0][1]
            return [df[(df["first_bot"] == b) & (df["second_bot"] == b)].reset_index(drop=True) for b in self.panel]
        return [df for _, df in self.last_sweeps]

    def frames(self, changes: dict[str, tuple]) -> list[pd.DataFrame]:
        """The games of a candidate on the search seeds, one frame per bot pairing (played if need be)."""
        return self.sweep(changes, self.out / "candidates" / _candidate_id(changes), self.seed, self.games)

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
        folder = self.out / "candidates" / _candidate_id(changes)
        started = time.perf_counter()
        played = self.games_played
        frames = self.sweep(changes, folder, self.seed, self.games)
        worst, terms, balance = self.worst(frames)
        cost = change_cost(changes, self.weights)
        return {"objective": balance + cost, "balance": balance, "change_cost": cost,
                **terms, "worst_bots": ",".join(self.pairs[worst]),
                "candidate": folder.name, "games_played": self.games_played - played,
                "seconds": round(time.perf_counter() - started, 2)}


def _games_on_disk(folder: Path) -> int:
    try:
        return len(load_results(folder))
    except ValueError:
        return 0


def _open_study(out: Path, settings: dict, resume: bool):
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    storage = f"sqlite:///{(out / STUDY).resolve()}"
    exists = (out / STUDY).exists()
    if exists and not resume:
        raise ValueError(f"{out} already holds a tune: pass --resume to continue it, or another --out")
    if not exists and resume:
        raise ValueError(f"{out}: no tune to resume (no {STUDY})")
    study = optuna.create_study(study_name=STUDY_NAME, storage=storage, direction="minimize", load_if_exists=True)
    if exists:
        stored = study.user_attrs.get("settings")
        if stored != settings:
            diff = [k for k in settings if (stored or {}).get(k) != settings[k]]
            raise ValueError(f"{out} holds a tune with different settings ({', '.join(diff)}): "
                             "repeat the same options to resume it, or choose another --out")
    else:
        study.set_user_attr("settings", settings)
    return study


def _close_interrupted(study) -> None:
    """Trials left running by a killed tune: mark them failed and queue their candidates again."""
    from optuna.trial import TrialState

    for t in study.get_trials(deepcopy=False, states=(TrialState.RUNNING,)):
        study._storage.set_trial_user_attr(t._trial_id, "interrupted", True)
        study._storage.set_trial_state_values(t._trial_id, TrialState.FAIL)
        if t.params and not t.user_attrs.get("phase"):  # a planned candidate is planned again by _Plan
            study.enqueue_trial(t.params, skip_if_exists=False)


def _counted(study) -> list:
    """The trials that spend the budget (finished, or failed validation; not the interrupted ones)."""
    from optuna.trial import TrialState

    return [t for t in study.get_trials(deepcopy=False)
            if t.state in (TrialState.COMPLETE, TrialState.FAIL) and not t.user_attrs.get("interrupted")]


def _progress(study) -> tuple[int, int]:
    """Trials asked so far (the interrupted left out) and distinct candidates among them (the budget)."""
    counted = _counted(study)
    return len(counted), len({t.user_attrs.get("candidate") for t in counted})


def _trial_table(study, knobs: list[Knob]) -> pd.DataFrame:
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
        for k in ("balance", "change_cost", "spread", "band", "matchup", "first_player", "seat", "pushed", "worst_deck",
                  "decks_outside", "worst_bots", "candidate", "games_played", "seconds", "error"):
            row[k] = a.get(k, np.nan if k not in ("worst_bots", "candidate", "error") else "")
        rows.append(row)
    return pd.DataFrame(rows)


def _best(study):
    from optuna.trial import TrialState

    done = [t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))]
    if not done:
        return None
    return min(done, key=lambda t: (t.value, t.user_attrs.get("n_changes", 0), t.number))


def _write_text(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def tune(
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
            (:mod:`simkit.tune_screen`), and only then let the sampler propose; with ``False`` the
            sampler proposes from the second trial on. Every screened candidate spends the budget.
        combine: how many predicted combinations each round of the screening plays.
        rounds: rounds of predicted combinations: the first predicts from the base, each later one from
            the best candidate played before it (see :meth:`simkit.tune_screen.Additive.anchored`).
        rescreen: after the rounds, take the first stage's best candidate (less the change the model finds
            least useful in it when it is full) as an anchor, play on top of it ``rescreen`` knobs, alternately
            those the model predicts best there and the biggest levers (each alone, at both ends of its range),
            then ``rounds`` rounds of combinations on top of the anchor from those measured effects (0: no
            second stage). See :class:`_Plan`.
        stages: with ``rescreen``, how many such anchored stages follow one another, each anchored on the
            best candidate played before it (less its least useful change, or the next least useful when
            that anchor was an earlier stage's).
        seat_pairs: after the screening, take the ``seat_pairs`` single changes that moved the first seat's edge most
            and play together each two of different knobs that moved it opposite ways (a change that gives
            the first player back what another took); the model then adds each pair's measured interaction
            to the combinations holding it (0: none). See :func:`simkit.tune_screen.opposed_pairs`.
        confirm: once the budget is spent, replay the best this many candidates, and the base, on other
            seeds (the confirmation seed, search seed plus 2,000,003) and propose the one whose search
            and confirmation games together score best among those that raise no report flag the base
            does not raise there (see :func:`_propose`; none if that is the base), so the proposal is
            not the luckiest of many candidates (``OUT/confirm.csv``); 0 proposes the best on the search
            seeds alone.
        confirm_games: games per ordered pair of the confirmation (default: ``games``).
        check_games: games per ordered pair of the fresh-seed check (default: ``games``).
        check_seed: the check's sweep seed (default: the search seed plus 1,000,003).
        weights: the objective's weights (:class:`TuneWeights` or ``'spread=1,band=2,...'``).
        bands: the report's bands (default :class:`simkit.analysis.FlagBands`).
        progress: show a progress bar (default: only when stderr is a terminal).

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
    sc = load_scenario(scenario)
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
        pairs = _bot_pairs(bots, sc)
        plans = [plan_sweep(sc, games=games, decks=decks, bots=p) for p in pairs]
    games = plans[0].games
    deck_ids = list(plans[0].decks)
    search_seed = plans[0].seed
    check_seed = search_seed + FRESH_SEED_OFFSET if check_seed is None else check_seed
    confirm_seed = search_seed + CONFIRM_SEED_OFFSET
    if check_seed in (search_seed, confirm_seed):
        raise ValueError(f"--check-seed must differ from the search's sweep seed ({search_seed}) and the "
                         f"confirmation's ({confirm_seed}): the check plays fresh seeds")
    check_games = games if check_games is None else check_games
    confirm_games = games if confirm_games is None else confirm_games
    if confirm_games < 1:
        raise ValueError(f"--confirm-games must be at least 1, got {confirm_games}")
    if check_games < 1:
        raise ValueError(f"--check-games must be at least 1, got {check_games}")
    workers = defaults["workers"] if workers is None else workers
    out = Path(out or f"results/tune-{sc.path.stem}")
    if resume and not (out / STUDY).exists():
        raise ValueError(f"{out}: no tune to resume (no {STUDY})")
    out.mkdir(parents=True, exist_ok=True)
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
    settings = json.loads(json.dumps(settings))  # as stored: tuples become lists
    study = _open_study(out, settings, resume)
    _close_interrupted(study)
    ev = _Evaluator(base_path, out, deck_ids, games, pairs, panel, search_seed, workers, weights, bands)
    plan = _Plan(knob_list, max_changes, screen, combine, rounds, ev, rescreen, stages, seat_pairs)

    from tqdm import tqdm

    show = sys.stderr.isatty() if progress is None else progress
    asked, done = _progress(study)
    bar = tqdm(total=max(trials, done), initial=done, unit="candidate", desc="tune", disable=not show)

    def postfix() -> None:
        b = _best(study)
        if b is not None:
            bar.set_postfix_str(f"best {b.value:.4f} ({b.user_attrs.get('n_changes', 0)} changes)")

    postfix()
    with bar, warnings.catch_warnings():
        warnings.simplefilter("ignore", optuna.exceptions.ExperimentalWarning)  # multivariate TPE
        warnings.filterwarnings("ignore", message="Fixed parameter")  # the base's value outside a knob's range
        while done < trials and asked < MAX_ASKS * trials:
            plan.enqueue_next(study)
            study.sampler = optuna.samplers.TPESampler(
                seed=_seed_for(seed, asked), n_startup_trials=STARTUP_TRIALS,
                multivariate=True, group=True)
            trial = study.ask()
            if not trial.user_attrs.get("phase"):
                trial.set_user_attr("phase", "sample")
            changes = _suggest(trial, knob_list, max_changes)
            trial.set_user_attr("changes", _describe(changes))
            trial.set_user_attr("n_changes", len(changes))
            trial.set_user_attr("change_list", [[k, b, a] for k, (b, a) in changes.items()])
            try:
                result = ev.evaluate(changes)
            except ScenarioError as exc:
                trial.set_user_attr("error", str(exc))
                trial.set_user_attr("candidate", _candidate_id(changes))
                study.tell(trial, state=optuna.trial.TrialState.FAIL)
            else:
                for k, v in result.items():
                    trial.set_user_attr(k, v)
                study.tell(trial, result["objective"])
            asked, now = _progress(study)
            bar.update(now - done)
            done = now
            postfix()
    table = _trial_table(study, knob_list)
    _write_text(out / "trials.csv", table.to_csv(index=False))
    chosen, confirmed = _confirm(study, ev, confirm, confirm_seed, confirm_games, show)
    if confirmed is not None:
        _write_text(out / "confirm.csv", confirmed.to_csv(index=False))
    search_seconds = time.perf_counter() - started
    return _finish(study, chosen, confirmed, sc, base_path, table, ev, out, settings, search_seconds, pairs, panel,
                   bands, weights)


def _confirm(study, ev: _Evaluator, k: int, seed: int, games: int, show: bool):
    """Replay the ``k`` best distinct candidates, and the base they are measured from, on the confirmation
    seeds; return the trial to propose (see :func:`_propose`) and the confirmation table, the base its first
    row (``None`` when ``k`` is 0 or nothing completed). ``flags_appeared`` counts the report's flags a
    candidate raises on the search and confirmation games together that the base does not raise there."""
    from optuna.trial import TrialState
    from tqdm import tqdm

    done = sorted(study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)),
                  key=lambda t: (t.value, t.user_attrs.get("n_changes", 0), t.number))
    top, seen = [], {"base"}
    for t in done:
        if t.user_attrs.get("candidate") not in seen:
            seen.add(t.user_attrs.get("candidate"))
            top.append(t)
    top = top[:k]
    base = next((t for t in done if t.user_attrs.get("candidate") == "base"), None)
    if not top or base is None:
        return _best(study), None
    base_again = ev.sweep({}, ev.out / "candidates" / "base" / f"confirm-{seed}-{games}", seed, games)
    base_games = sum(len(df) for _, df in ev.last_sweeps)
    base_both = _pooled(ev.frames({}), base_again)
    ref_again, ref_both = [deck_rates(df) for df in base_again], [deck_rates(df) for df in base_both]
    base_flags = [balance_flags(df, ev.bands) for df in base_both]
    rows = []
    for t in tqdm([base] + top, desc="confirm", unit="candidate", disable=not show):
        changes = {key: (b, a) for key, b, a in t.user_attrs.get("change_list", [])}
        if changes:
            folder = ev.out / "candidates" / _candidate_id(changes) / f"confirm-{seed}-{games}"
            again = ev.sweep(changes, folder, seed, games)
            played = sum(len(df) for _, df in ev.last_sweeps)  # before ev.frames replaces last_sweeps
            both = _pooled(ev.frames(changes), again)
        else:
            again, played, both = base_again, base_games, base_both
        cost = change_cost(changes, ev.weights)
        own = ev.worst(again, ref_again)[2]
        _, worst, pooled = ev.worst(both, ref_both)
        new_flags = [m for was, df in zip(base_flags, both) for m in _new_flags(was, balance_flags(df, ev.bands))]
        rows.append({"trial": t.number, "candidate": _candidate_id(changes), "changes": _describe(changes),
                     "n_changes": len(changes), "search_objective": t.value, "confirm_objective": own + cost,
                     "pooled_objective": pooled + cost, "search_spread": t.user_attrs.get("spread"),
                     "pooled_spread": worst["spread"], "pooled_seat": worst["seat"], "pooled_pushed": worst["pushed"],
                     "flags_appeared": len(new_flags), "new_flags": "; ".join(new_flags), "games": played})
    table = pd.DataFrame(rows)
    pick = _propose(table)
    table["proposed"] = table["trial"] == pick
    return next(t for t in [base] + top if t.number == pick), table


def _new_flags(base_flags: pd.DataFrame, flags: pd.DataFrame) -> list[str]:
    """The messages of the flags in ``flags`` (one sweep's) that ``base_flags`` (the base's, same seeds) lacks."""
    from simkit.compare import flag_changes

    changed = flag_changes(base_flags, flags)
    return changed.loc[changed["status"] == "appeared", "message"].tolist()


def _propose(table: pd.DataFrame) -> int:
    """The trial to propose from the confirmation table (the base its first row): the best pooled objective
    among the candidates that beat the base and raise no new flag; when each candidate that beats the base
    raises one, the best of those (the flags it raises are in ``confirm.csv`` and the check's ``flags.csv``);
    the base (no patch) when none beats it. Ties go to fewer changes, then the earlier trial."""
    ranked = table.sort_values(["pooled_objective", "n_changes", "trial"])
    base = table.iloc[0]
    better = ranked[(ranked["trial"] != base["trial"]) & (ranked["pooled_objective"] < base["pooled_objective"])]
    clean = better[better["flags_appeared"] == 0]
    pick = clean if len(clean) else better if len(better) else ranked[ranked["trial"] == base["trial"]]
    return int(pick["trial"].iloc[0])


def _ranking(confirmed: pd.DataFrame, proposed: pd.Series) -> str:
    """Where the proposal stands among the confirmed candidates, in words (for the patch's header)."""
    n = len(confirmed) - 1
    if proposed["flags_appeared"]:
        return (f"the best of the {n} confirmed; each that beats the base raises a new flag, this one "
                f"{int(proposed['flags_appeared'])}")
    if proposed["pooled_objective"] > confirmed["pooled_objective"].iloc[1:].min():
        return f"the best of the {n} confirmed that raises no new flag"
    return f"the best of the {n} confirmed"


def _pooled(search: list[pd.DataFrame], again: list[pd.DataFrame]) -> list[pd.DataFrame]:
    """Each bot pairing's search and confirmation games together."""
    return [pd.concat([a, b], ignore_index=True) for a, b in zip(search, again)]


def _finish(study, best, confirmed, sc, base_path, table, ev, out, settings, search_seconds, pairs, panel, bands,
            weights):
    """Write the proposed patch (trial ``best``), check it on fresh seeds against the base, write the summary."""
    from simkit.compare import compare_results, pair_results, spread_change
    from simkit.report.comparison import write_compare_report

    started = time.perf_counter()
    base_trial = next((t for t in study.get_trials(deepcopy=False) if t.number == 0), None)
    changes = {k: (b, a) for k, b, a in best.user_attrs.get("change_list", [])} if best is not None else {}
    top = _best(study)
    proposed = None if confirmed is None else confirmed[confirmed["proposed"]].iloc[0]
    summary = {
        "base": str(base_path), "trials": _progress(study)[1], "asked": _progress(study)[0],
        "search": {"decks": len(settings["decks"]), "games_per_pair": settings["games"],
                   "seed": settings["search_seed"], "bots": settings["bots"],
                   "base_objective": base_trial.value if base_trial is not None and base_trial.value is not None
                   else None,
                   "best_objective": top.value if top is not None else None,
                   "best_trial": top.number if top is not None else None},
        "confirm": {"seed": settings["confirm_seed"], "candidates": 0 if confirmed is None else len(confirmed) - 1,
                    "games_per_pair": settings["confirm_games"]},
        "proposed": {"trial": best.number if best is not None else None,
                     "search_objective": best.value if best is not None else None,
                     "pooled_objective": None if proposed is None else float(proposed["pooled_objective"]),
                     "pooled_spread": None if proposed is None else float(proposed["pooled_spread"]),
                     "flags_appeared": None if proposed is None else int(proposed["flags_appeared"])},
        "changes": {k: {"before": b, "after": a} for k, (b, a) in changes.items()},
    }
    files: list[Path] = [out / "trials.csv"] + ([out / "confirm.csv"] if confirmed is not None else [])
    patch_text, check_games = "", 0
    if not changes:
        (out / "patch.toml").unlink(missing_ok=True)
        summary["verdict"] = "no candidate beat the base on the search seeds: no patch proposed"
    else:
        rel = os.path.relpath(base_path, out.resolve())
        patch_text = candidate_patch(
            rel, changes, name=f"{sc.name} — tune proposal", base=sc.data,
            header=[f"Proposed by simkit tune: trial {best.number} ({summary['trials']} candidates), objective "
                    f"{best.value:.4f} (base {summary['search']['base_objective']:.4f}) on the search seeds"
                    + ("." if proposed is None else f", {proposed['pooled_objective']:.4f} with the confirmation "
                       f"seeds ({settings['confirm_seed']}) added: {_ranking(confirmed, proposed)}."),
                    f"Checked on fresh seeds (sweep seed {settings['check_seed']}): see compare.pdf and summary.json."])
        _write_text(out / "patch.toml", patch_text)
        files.append(out / "patch.toml")
        # the evidence is about the very files: the base as given, and OUT/patch.toml as written
        fresh = out / "fresh"
        seed_games = (settings["check_seed"], settings["check_games"])
        base_frames = ev.sweep_file(base_path, fresh / "base", *seed_games)
        base_sweeps = ev.last_sweeps
        patch_frames = ev.sweep_file(out / "patch.toml", fresh / f"patch-{_candidate_id(changes)}", *seed_games)
        patch_sweeps = ev.last_sweeps
        check_games = sum(len(df) for _, df in base_sweeps + patch_sweeps)
        before = [balance_terms(df, bands) for df in base_frames]
        after = [balance_terms(df, bands, deck_rates(b)) for df, b in zip(patch_frames, base_frames)]
        flag_rows, spreads = [], []
        for i, ((label, b), (_, p)) in enumerate(zip(base_sweeps, patch_sweeps)):
            tables = compare_results(b, p, bands)
            spreads.append(tables["spread"])  # a sweep per bot pairing, unless a panel's sweep holds them all
            name = "compare.pdf" if i == 0 else f"compare-{label.replace(',', '-')}.pdf"
            files += write_compare_report(tables, out / name)
            fc = tables["flag_changes"].assign(bots=label)
            flag_rows.append(fc)
        flags = pd.concat(flag_rows, ignore_index=True)
        per_pair = []
        for i, bots in enumerate(pairs):
            label = ",".join(bots)
            fc = flags if panel else flags[flags["bots"] == label]
            counts = fc["status"].value_counts()
            ratio = spread_change(pair_results(base_frames[i], patch_frames[i])) if panel else spreads[i]
            per_pair.append({
                "bots": ",".join(bots),
                "spread_before": before[i]["spread"], "spread_after": after[i]["spread"],
                "spread_ratio": ratio["ratio"], "spread_ratio_low": ratio["low"], "spread_ratio_high": ratio["high"],
                "worst_deck_before": before[i]["worst_deck"], "worst_deck_after": after[i]["worst_deck"],
                "decks_outside_before": before[i]["decks_outside"], "decks_outside_after": after[i]["decks_outside"],
                "first_player_before": before[i]["first_player"], "first_player_after": after[i]["first_player"],
                "seat_before": before[i]["seat"], "seat_after": after[i]["seat"],
                "pushed_after": after[i]["pushed"],
                "objective_before": score(before[i], weights),
                "objective_after": score(after[i], weights) + change_cost(changes, weights),
                "flags_vanished": fc.loc[fc["status"] == "vanished", "message"].tolist(),
                "flags_appeared": fc.loc[fc["status"] == "appeared", "message"].tolist(),
                "flags_stayed": int(counts.get("stayed", 0)),
            })
        _write_text(out / "flags.csv", flags.to_csv(index=False))
        files.append(out / "flags.csv")
        summary["check"] = {"seed": settings["check_seed"], "games_per_pair": settings["check_games"],
                            "pairings": per_pair}
        vanished = sum(len(p["flags_vanished"]) for p in per_pair)
        appeared = sum(len(p["flags_appeared"]) for p in per_pair)
        worst = max(per_pair, key=lambda p: p["spread_after"] / max(p["spread_before"], 1e-12))
        summary["verdict"] = (
            f"{len(changes)} change(s); on fresh seeds the spread of deck win rates goes "
            f"{100 * worst['spread_before']:.1f} -> {100 * worst['spread_after']:.1f} points "
            f"(x{worst['spread_ratio']:.2f}, 95% CI x{worst['spread_ratio_low']:.2f}-"
            f"{worst['spread_ratio_high']:.2f}), decks outside the band "
            f"{worst['decks_outside_before']} -> {worst['decks_outside_after']}, flags vanished "
            f"{vanished}, appeared {appeared}")
    search_games = int(pd.to_numeric(table["games_played"], errors="coerce").fillna(0).sum())
    confirm_games = 0 if confirmed is None else int(confirmed["games"].sum())
    summary["games"] = {"search": search_games, "confirm": confirm_games, "check": check_games,
                        "total": search_games + confirm_games + check_games,
                        "played_this_run": int(ev.games_played)}
    summary["seconds"] = {"search_this_run": round(search_seconds, 1),
                          "check_this_run": round(time.perf_counter() - started, 1),
                          "trials_total": round(float(pd.to_numeric(table["seconds"], errors="coerce").sum()), 1)}
    _write_text(out / "summary.json", json.dumps(summary, indent=2, ensure_ascii=False, default=_json_default))
    files.append(out / "summary.json")
    return TuneResult(trials=table, patch=patch_text, summary=summary, out=out, files=files)


def _json_default(x):
    if isinstance(x, np.generic):
        return x.item()
    raise TypeError(f"not JSON serialisable: {type(x).__name__}")
