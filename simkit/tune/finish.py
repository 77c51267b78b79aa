"""The end of ``simkit tune``: confirm the best candidates on other seeds, pick one, check it on fresh seeds, and
propose it only when that is safe.

The picked candidate is written as ``OUT/candidate.toml`` and checked against the base on fresh seeds:
``compare.pdf``, ``flags.csv``, ``confirm.csv`` and ``summary.json`` are its evidence. It is proposed, as
``OUT/patch.toml``, only when it beats the base on the confirmation seeds (which the search never saw) and the
fresh-seed check finds the spread of deck win rates narrower with no new flag
(:func:`simkit.core.words.tune_verdict`); otherwise the tune says "no safe proposal", why, and what budget might
find one, and writes no ``patch.toml``.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.analysis import balance_flags
from simkit.core.files import refuse_symlink
from simkit.core.words import Estimate, tune_verdict
from simkit.tune.knobs import candidate_patch
from simkit.tune.objective import balance_terms, change_cost, deck_rates, score
from simkit.tune.preflight import path_name
from simkit.tune.settings import TunePlan
from simkit.tune.study import (
    Evaluator,
    TuneResult,
    best_trial,
    candidate_id,
    describe_changes,
    study_progress,
    write_csv,
    write_text,
)


def confirm_best(study, ev: Evaluator, k: int, seed: int, games: int, show: bool):
    """Replay the ``k`` best distinct candidates, and the base they are measured from, on the confirmation
    seeds; return the trial to propose (see :func:`propose`) and the confirmation table, the base its first
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
        return best_trial(study), None
    base_again = ev.sweep({}, ev.out / "candidates" / "base" / f"confirm-{seed}-{games}", seed, games)
    base_games = sum(len(df) for _, df in ev.last_sweeps)
    base_both = _pooled(ev.frames({}), base_again)
    ref_again, ref_both = [deck_rates(df) for df in base_again], [deck_rates(df) for df in base_both]
    base_flags = [balance_flags(df, ev.bands) for df in base_both]
    rows = []
    for t in tqdm([base] + top, desc="confirm", unit="candidate", disable=not show):
        changes = {key: (b, a) for key, b, a in t.user_attrs.get("change_list", [])}
        if changes:
            folder = ev.out / "candidates" / candidate_id(changes) / f"confirm-{seed}-{games}"
            again = ev.sweep(changes, folder, seed, games)
            played = sum(len(df) for _, df in ev.last_sweeps)  # before ev.frames replaces last_sweeps
            both = _pooled(ev.frames(changes), again)
        else:
            again, played, both = base_again, base_games, base_both
        cost = change_cost(changes, ev.weights)
        own = ev.worst(again, ref_again)[2]
        _, worst, pooled = ev.worst(both, ref_both)
        new_flags = [m for was, df in zip(base_flags, both) for m in appeared_flags(was, balance_flags(df, ev.bands))]
        rows.append({"trial": t.number, "candidate": candidate_id(changes), "changes": describe_changes(changes),
                     "n_changes": len(changes), "search_objective": t.value, "confirm_objective": own + cost,
                     "pooled_objective": pooled + cost, "search_spread": t.user_attrs.get("spread"),
                     "pooled_spread": worst["spread"], "pooled_seat": worst["seat"], "pooled_pushed": worst["pushed"],
                     "flags_appeared": len(new_flags), "new_flags": "; ".join(new_flags), "games": played})
    table = pd.DataFrame(rows)
    pick = propose(table)
    table["proposed"] = table["trial"] == pick
    return next(t for t in [base] + top if t.number == pick), table


def appeared_flags(base_flags: pd.DataFrame, flags: pd.DataFrame) -> list[str]:
    """The messages of the flags in ``flags`` (one sweep's) that ``base_flags`` (the base's, same seeds) lacks."""
    from simkit.analysis.paired import flag_changes

    changed = flag_changes(base_flags, flags)
    return changed.loc[changed["status"] == "appeared", "message"].tolist()


def propose(table: pd.DataFrame) -> int:
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


def no_patch_verdict(base, top, confirmed: pd.DataFrame | None) -> str:
    """Why nothing is proposed, from the results: no candidate beat the base on the search seeds (``top``, the
    best trial, is the base or no better), or one did there but not with the confirmation seeds added
    (``confirmed``, the confirmation table, its first row the base), with both sets of numbers."""
    base_value = None if base is None else base.value
    if base_value is None:
        return "the base game could not be played: no patch proposed"
    if top is None or top.value is None or top.value >= base_value or not top.user_attrs.get("change_list"):
        best = "" if top is None or top.number == base.number else f", the best candidate's {top.value:.4f}"
        return (f"no candidate beat the base on the search seeds (objective {base_value:.4f}{best}): "
                "no patch proposed")
    words = (f"trial {top.number} ({top.user_attrs.get('changes', '')}) beat the base on the search seeds "
             f"(objective {top.value:.4f} against {base_value:.4f})")
    if confirmed is None or len(confirmed) < 2:
        return words + ", yet was not proposed: no patch proposed"
    pooled = confirmed.set_index("trial")["pooled_objective"]
    n = len(confirmed) - 1
    again = (f"{pooled[top.number]:.4f} against the base's {pooled[base.number]:.4f}" if top.number in pooled
             else f"the best of the {n} confirmed {pooled.iloc[1:].min():.4f} against the base's "
             f"{pooled[base.number]:.4f}")
    return (f"{words}, but the confirmation on fresh seeds rejected it: with the confirmation seeds added it scores "
            f"{again}, and none of the {n} confirmed candidates beats the base there: no patch proposed")


def bigger_budget(warned) -> str:
    """The options the tune's own warnings asked for (``--trials 15 and --games 20 or more``), for the advice of
    "no safe proposal"; ``""`` when none was given."""
    import re

    asks = [m.group(1) for w in warned for m in re.finditer(r"give (--[\w-]+ \d+(?: or more)?)", w or "")]
    return " and ".join(dict.fromkeys(asks))


def check_verdict(worst: dict) -> str:
    """What the fresh-seed check says of the spread of deck win rates, in words that match its interval."""
    if worst["spread_ratio_high"] < 1:
        return "the check confirms it"
    if worst["spread_ratio_low"] > 1:
        return "the check rejects it: the spread is wider"
    return "the check cannot tell it from the base"


@dataclass(frozen=True)
class Tune:
    """A tune at its end: the study, the base scenario, the plan it played (:class:`~simkit.tune.settings.TunePlan`),
    its evaluator and folder, the seconds its search took and the warnings said before it."""

    study: object
    sc: object
    plan: TunePlan
    ev: Evaluator
    out: Path
    search_seconds: float
    warned: tuple[str, ...] = ()


def finish(tune: Tune, best, confirmed: pd.DataFrame | None, table: pd.DataFrame) -> TuneResult:
    """Write the proposed patch (trial ``best``), check it on fresh seeds against the base, write the summary
    (with the warnings given before the search, ``tune.warned``)."""
    started = time.perf_counter()
    out = tune.out
    changes = {k: (b, a) for k, b, a in best.user_attrs.get("change_list", [])} if best is not None else {}
    summary = _summary_head(tune, best, confirmed, changes)
    files: list[Path] = [out / "trials.csv"] + ([out / "confirm.csv"] if confirmed is not None else [])
    patch_text, check_games = "", 0
    summary["safe"] = False
    if not changes:
        for name in ("patch.toml", "candidate.toml"):
            (out / name).unlink(missing_ok=True)
        base_trial = next((t for t in tune.study.get_trials(deepcopy=False) if t.number == 0), None)
        summary["verdict"] = no_patch_verdict(base_trial, best_trial(tune.study), confirmed)
    else:
        patch_text, check_games, written = _propose(tune, best, confirmed, changes, summary)
        files += written
    search_games = search_games_on_disk(table)
    confirm_games = 0 if confirmed is None else int(confirmed["games"].sum())
    summary["games"] = {"search": search_games, "confirm": confirm_games, "check": check_games,
                        "total": search_games + confirm_games + check_games,
                        "played_this_run": int(tune.ev.games_played)}
    summary["seconds"] = {"search_this_run": round(tune.search_seconds, 1),
                          "check_this_run": round(time.perf_counter() - started, 1),
                          "trials_total": round(float(pd.to_numeric(table["seconds"], errors="coerce").sum()), 1)}
    write_text(out / "summary.json", json.dumps(summary, indent=2, ensure_ascii=False, default=_json_default))
    files.append(out / "summary.json")
    files = [f for f in dict.fromkeys(files) if f.exists()]
    return TuneResult(trials=table, patch=patch_text, summary=summary, out=out, files=files)


def _summary_head(tune: Tune, best, confirmed: pd.DataFrame | None, changes: dict) -> dict:
    """The summary's account of the search, the confirmation and the candidate proposed (before its check)."""
    study, plan = tune.study, tune.plan
    base_trial = next((t for t in study.get_trials(deepcopy=False) if t.number == 0), None)
    top = best_trial(study)
    proposed = None if confirmed is None else confirmed[confirmed["proposed"]].iloc[0]
    return {
        "base": str(plan.base_path), "trials": study_progress(study)[1], "asked": study_progress(study)[0],
        "search": {"decks": len(plan.decks), "games_per_pair": plan.games, "seed": plan.search_seed,
                   "bots": [list(p) for p in plan.pairs],
                   "base_objective": base_trial.value if base_trial is not None and base_trial.value is not None
                   else None,
                   "best_objective": top.value if top is not None else None,
                   "best_trial": top.number if top is not None else None},
        "confirm": {"seed": plan.confirm_seed, "candidates": 0 if confirmed is None else len(confirmed) - 1,
                    "games_per_pair": plan.confirm_games,
                    "base_pooled_objective": None if confirmed is None
                    else float(confirmed["pooled_objective"].iloc[0])},
        "proposed": {"trial": best.number if best is not None else None,
                     "search_objective": best.value if best is not None else None,
                     "pooled_objective": None if proposed is None else float(proposed["pooled_objective"]),
                     "pooled_spread": None if proposed is None else float(proposed["pooled_spread"]),
                     "flags_appeared": None if proposed is None else int(proposed["flags_appeared"])},
        "changes": {k: {"before": b, "after": a} for k, (b, a) in changes.items()},
        "warnings": list(tune.warned),
    }


def _propose(tune: Tune, best, confirmed: pd.DataFrame | None, changes: dict, summary: dict
             ) -> tuple[str, int, list[Path]]:
    """Write the candidate, check it against the base on fresh seeds, say the verdict, and write ``patch.toml``
    only when the proposal is safe; returns the patch text (``""``: none), the check's games and the files."""
    out, plan, sc = tune.out, tune.plan, tune.sc
    proposed = None if confirmed is None else confirmed[confirmed["proposed"]].iloc[0]
    rel = os.path.relpath(plan.base_path, out.resolve())
    figures = (f"trial {best.number} ({summary['trials']} candidates), objective {best.value:.4f} (base "
               f"{summary['search']['base_objective']:.4f}) on the search seeds"
               + ("" if proposed is None else f", {proposed['confirm_objective']:.4f} (base "
                  f"{confirmed['confirm_objective'].iloc[0]:.4f}) on the confirmation seeds "
                  f"({plan.confirm_seed}) alone, {proposed['pooled_objective']:.4f} with both: "
                  f"{_ranking(confirmed, proposed)}"))
    candidate_text = candidate_patch(
        rel, changes, name=f"{sc.name} — tune candidate", base=sc.data,
        header=[f"Candidate of simkit tune: {figures}.",
                f"Checked on fresh seeds (sweep seed {plan.check_seed}): whether it is proposed is in "
                "summary.json ('verdict'); only a safe proposal is written as patch.toml."])
    write_text(out / "candidate.toml", candidate_text)
    files = [out / "candidate.toml"]
    per_pair, flags, check_games, reports = _check_fresh(tune, changes)
    files += reports
    write_csv(out / "flags.csv", flags)
    files.append(out / "flags.csv")
    summary["check"] = {"seed": plan.check_seed, "games_per_pair": plan.check_games, "pairings": per_pair}
    appeared = sum(len(p["flags_appeared"]) for p in per_pair)
    worst = max(per_pair, key=lambda p: p["spread_ratio"] if p["spread_ratio"] == p["spread_ratio"] else -1.0)
    summary["check"]["sentence"] = (  # the spreads the ratio divides (the paired games'), so they agree with it
        f"{check_verdict(worst)}: on fresh seeds the spread of deck win rates goes "
        f"{100 * worst['paired_spread_before']:.1f} -> {100 * worst['paired_spread_after']:.1f} points "
        f"(x{worst['spread_ratio']:.2f}, 95% CI x{worst['spread_ratio_low']:.2f}-"
        f"{worst['spread_ratio_high']:.2f}), decks outside the band "
        f"{worst['decks_outside_before']} -> {worst['decks_outside_after']}, flags vanished "
        f"{sum(len(p['flags_vanished']) for p in per_pair)}, appeared {appeared}")
    ratio = Estimate(worst["spread_ratio"], worst["spread_ratio_low"], worst["spread_ratio_high"])
    check = "better" if ratio.high < 1 else "worse" if ratio.low > 1 else "cannot tell"
    search = (summary["search"]["base_objective"], best.value)
    confirm = None if proposed is None else (float(confirmed["confirm_objective"].iloc[0]),
                                             float(proposed["confirm_objective"]))
    pooled = None if proposed is None else (float(confirmed["pooled_objective"].iloc[0]),
                                            float(proposed["pooled_objective"]))
    safe, summary["verdict"] = tune_verdict(len(changes), search, confirm, pooled, check, ratio, appeared,
                                            plan.games, plan.confirm_games if confirm else None,
                                            bigger_budget(tune.warned))
    summary["safe"] = safe
    summary["proposed"]["confirm_objective"] = None if confirm is None else confirm[1]
    summary["confirm"]["base_confirm_objective"] = None if confirm is None else confirm[0]
    if not safe:
        (out / "patch.toml").unlink(missing_ok=True)
        return "", check_games, files
    patch_text = candidate_patch(
        rel, changes, name=f"{sc.name} — tune proposal", base=sc.data,
        header=[f"Proposed by simkit tune: {figures}.",
                f"Checked on fresh seeds (sweep seed {plan.check_seed}): {summary['verdict']}.",
                "See compare.pdf and summary.json."])
    write_text(out / "patch.toml", patch_text)
    return patch_text, check_games, files + [out / "patch.toml"]


def _check_fresh(tune: Tune, changes: dict) -> tuple[list[dict], pd.DataFrame, int, list[Path]]:
    """Sweep the base file and ``OUT/candidate.toml`` on the check's fresh seeds and compare them, one report per
    sweep; returns each bot pairing's figures, the flags that vanished, appeared or stayed, the games played and
    the report files written."""
    from simkit.analysis.paired import COMPARE_TABLES, compare_results
    from simkit.report.comparison import write_compare_report
    from simkit.report.document import output_paths

    out, ev, plan = tune.out, tune.ev, tune.plan
    fresh, seed_games = out / "fresh", (plan.check_seed, plan.check_games)
    base_frames = ev.sweep_file(plan.base_path, fresh / "base", *seed_games)  # the very files: the base as given,
    base_sweeps = ev.last_sweeps                                              # OUT/candidate.toml as written
    patch_frames = ev.sweep_file(out / "candidate.toml", fresh / f"patch-{candidate_id(changes)}", *seed_games)
    patch_sweeps = ev.last_sweeps
    flag_rows, spreads, files = [], [], []
    for i, ((label, b), (_, p)) in enumerate(zip(base_sweeps, patch_sweeps)):
        tables = compare_results(b, p, plan.bands)
        spreads.append(tables["spread"])  # a sweep per bot pairing, unless a panel's sweep holds them all
        name = "compare.pdf" if i == 0 else f"compare-{'-'.join(path_name(b) for b in label.split(','))}.pdf"
        pdf, csvs = output_paths(out / name, list(COMPARE_TABLES))
        for path in (pdf, *csvs.values()):  # a link planted under a report's name is refused, not replaced
            refuse_symlink(path)
        files += write_compare_report(tables, out / name)
        flag_rows.append(tables["flag_changes"].assign(bots=label))
    flags = pd.concat(flag_rows, ignore_index=True)
    per_pair = [_pairing_check(plan, changes, ",".join(bots), flags, (base_frames[i], patch_frames[i]),
                               None if plan.panel else spreads[i]) for i, bots in enumerate(plan.pairs)]
    return per_pair, flags, sum(len(df) for _, df in base_sweeps + patch_sweeps), files


def _pairing_check(plan: TunePlan, changes: dict, label: str, flags: pd.DataFrame,
                   frames: tuple[pd.DataFrame, pd.DataFrame], spread: dict | None) -> dict:
    """One bot pairing's check (``frames``: its base and candidate games on the fresh seeds; ``spread``: the
    change of spread its own comparison measured, ``None`` for a panel's bot, measured here): its spread, worst
    deck, decks outside, first seat and objective before and after, and its flags that vanished, appeared or
    stayed."""
    from simkit.analysis.paired import pair_results, spread_change

    base, patch = frames
    before, after = balance_terms(base, plan.bands), balance_terms(patch, plan.bands, deck_rates(base))
    fc = flags if plan.panel else flags[flags["bots"] == label]
    counts = fc["status"].value_counts()
    ratio = spread_change(pair_results(base, patch)) if spread is None else spread
    return {
        "bots": label,
        "spread_before": before["spread"], "spread_after": after["spread"],
        "spread_ratio": ratio["ratio"], "spread_ratio_low": ratio["low"], "spread_ratio_high": ratio["high"],
        "paired_spread_before": ratio["base"], "paired_spread_after": ratio["patch"],  # what the ratio divides
        "worst_deck_before": before["worst_deck"], "worst_deck_after": after["worst_deck"],
        "decks_outside_before": before["decks_outside"], "decks_outside_after": after["decks_outside"],
        "first_player_before": before["first_player"], "first_player_after": after["first_player"],
        "seat_before": before["seat"], "seat_after": after["seat"],
        "pushed_after": after["pushed"],
        "outside_target_length_before": before["length"], "outside_target_length_after": after["length"],
        "objective_before": score(before, plan.weights),
        "objective_after": score(after, plan.weights) + change_cost(changes, plan.weights),
        "flags_vanished": fc.loc[fc["status"] == "vanished", "message"].tolist(),
        "flags_appeared": fc.loc[fc["status"] == "appeared", "message"].tolist(),
        "flags_stayed": int(counts.get("stayed", 0)),
    }


def search_games_on_disk(table: pd.DataFrame) -> int:
    """The games of the search: each candidate's sweeps on the search seeds as they stand on disk, counted once
    (its first complete trial's ``games``; a resumed candidate's include those played before the kill). A study
    from before ``games`` was recorded falls back on the games each trial played."""
    done = table[(table["state"] == "complete") & ~table["repeat"].astype(bool)]
    whole = pd.to_numeric(done["games"], errors="coerce")
    played = pd.to_numeric(done["games_played"], errors="coerce").fillna(0)
    return int(whole.where(whole.notna(), played).sum()) if len(done) else 0


def _json_default(x):
    if isinstance(x, np.generic):
        return x.item()
    raise TypeError(f"not JSON serialisable: {type(x).__name__}")
