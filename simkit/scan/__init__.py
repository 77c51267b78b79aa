"""``simkit scan``: one scenario key over a list of values, and a figure against the value.

Game-agnostic. Each value is the base scenario with one number changed, written as a patch that
``extends`` the base (:func:`simkit.tune.knobs.candidate_patch`), and swept on the very seeds of the
base, so the curve moves with the value, not with the luck of the draw. The figure (first-seat win
rate by default; deck spread, game length or any report table column) is read at each value with a
95% interval, and where it crosses its target (1/2 for the first seat) is read by straight lines
between the bracketing values, with an interval for that crossing from a bootstrap over games.

The package reads in the order a scan runs: :mod:`~simkit.scan.values` (the key, the values, their
patches), :mod:`~simkit.scan.figures` (what is measured, and its bootstrap),
:mod:`~simkit.scan.crossing` (where a curve meets its target), :mod:`~simkit.scan.settings` (what a scan
plays and reads, one frozen value), :mod:`~simkit.scan.run` (:func:`run_scan` itself: the sweeps, resumable, and
the files) and :mod:`~simkit.scan.page` (the PDF page).
"""

from simkit.scan.crossing import Crossing, crossing_interval, crossings, first_crossing
from simkit.scan.figures import Figure, parse_figure
from simkit.scan.run import read_scan, run_scan
from simkit.scan.settings import ScanSettings
from simkit.scan.values import check_values, parse_values, scan_knob

__all__ = [
    "Crossing", "Figure", "check_values", "crossing_interval", "crossings", "first_crossing", "parse_figure",
    "parse_values", "read_scan", "run_scan", "scan_knob", "ScanSettings",
]
