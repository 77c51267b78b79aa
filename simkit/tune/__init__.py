"""Automatic balance suggestions (``simkit tune``): search the numbers a designer lets simkit touch for a small patch.

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
killed tune resumes with ``resume=True`` (a running one holds ``OUT/.tune.lock``). Each candidate's sweeps live in
``OUT/candidates/<id>/``, keyed by the patch itself, so a candidate proposed twice is played once
and a sweep cut short by a kill is finished rather than restarted.

When the budget is spent, the best candidate is written as ``OUT/patch.toml`` (``extends`` the
base, only the changed keys, a comment per change with before/after) and checked against the
base on fresh seeds (another sweep seed than the search used; the sweeps of the base file and of
``OUT/patch.toml`` itself, in ``OUT/fresh/``): ``OUT/compare.pdf`` (with its tables as CSV beside
it), ``OUT/flags.csv`` (flags that vanished, appeared or stayed) and ``OUT/summary.json``.
``OUT/trials.csv`` is the trial table.

Every file of the tune is its own: written whole or not at all (:mod:`simkit.core.files`), its text cells
escaped against spreadsheet formulas as the report's CSVs are (a bot named ``=HYPERLINK(1)`` is
``'=HYPERLINK(1)`` in ``trials.csv``), and a symlink planted at any folder or file it writes in ``OUT``
is refused in one line naming it, never written or read through.

The package reads in the order a tune runs: :mod:`~simkit.tune.knobs` (which numbers may move, the
patches written), :mod:`~simkit.tune.objective` (how far a sweep is from balance),
:mod:`~simkit.tune.screen` (single changes screened, an additive model to combine them),
:mod:`~simkit.tune.preflight` (what is checked and warned before the first trial),
:mod:`~simkit.tune.study` (candidates, their evaluator and the Optuna store), :mod:`~simkit.tune.run`
(:func:`tune` itself) and :mod:`~simkit.tune.finish` (confirmation, proposal, check on fresh seeds).
"""

from simkit.tune.knobs import Knob, candidate_patch, parse_knobs, scenario_numbers
from simkit.tune.objective import TuneWeights, balance_terms, deck_rates, parse_weights
from simkit.tune.run import run_tune
from simkit.tune.settings import TunePlan, TuneSettings
from simkit.tune.study import TuneResult

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
    "run_tune",
    "TunePlan",
    "TuneSettings",
]
