"""The key a scan moves and the values it takes: parsed, checked and written as patches of the base.

A scan's key is one number of the merged scenario, named as ``simkit tune`` names its knobs
(:func:`simkit.tune.knobs.parse_knobs`: ``rules.mana_period``, a list element ``rules.mana_phase[1]``).
Each value becomes a patch that ``extends`` the base and holds only that key
(:func:`simkit.tune.knobs.candidate_patch`), so every value is the base game with one number changed.
Every value is loaded and validated before anything is written: a scan that would fail on its
third value fails at once, with one line naming the key and the value.
"""

from __future__ import annotations

import math
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path

from simkit.scenario import Scenario, load_scenario
from simkit.tune.knobs import Knob, candidate_patch, parse_knobs, tidy

__all__ = ["check_values", "parse_values", "scan_knob", "value_name", "value_patch"]


def scan_knob(data: dict, key: str) -> Knob:
    """The one number of the merged scenario ``data`` that ``key`` names.

    Raises:
        ValueError: (one line) the key names no number of the scenario (with the nearest key as a
            hint), names a ``sweep.*`` setting, or is a pattern matching several numbers.
    """
    key = (key or "").strip()
    if not key:
        raise ValueError("--key: name one number of the scenario, e.g. 'rules.mana_period'")
    if "=" in key:
        raise ValueError(f"--key {key!r}: name the key alone; the values go in --values")
    try:
        knobs = parse_knobs(data, [key])
    except ValueError as exc:
        raise ValueError(str(exc).replace("--knob", "--key", 1).replace("be tuned", "be scanned")) from None
    if len(knobs) != 1:
        raise ValueError(f"--key {key!r}: matches {len(knobs)} numbers ({', '.join(k.key for k in knobs[:3])}, ...); "
                         "a scan moves one key")
    return knobs[0]


def parse_values(values: str | Sequence, knob: Knob) -> list[int | float]:
    """The values a scan gives ``knob``, in ascending order.

    Args:
        values: ``"2,3,4,5"`` or a sequence of numbers or numeric strings.
        knob: the key (an integer key takes whole numbers only).

    Raises:
        ValueError: (one line naming the key and the value) fewer than two values, a value that is not a
            number, a fractional value for an integer key, a value given twice.
    """
    items = [v.strip() for v in values.split(",")] if isinstance(values, str) else list(values)
    if any(isinstance(v, str) and not v for v in items):  # "3,,4" or "3,": a value left out, not quietly dropped
        raise ValueError(f"--values for {knob.key}: every value of the comma list must be given, got {values!r}")
    out: list[int | float] = []
    for raw in items:
        out.append(_one_value(raw, knob))
    if len(out) < 2:
        raise ValueError(f"--values for {knob.key}: give at least two values to scan, e.g. "
                         f"{knob.current},{_next(knob)}")
    seen = set()
    for v in out:
        if v in seen:
            raise ValueError(f"--values for {knob.key}: {v} is given twice")
        seen.add(v)
    return sorted(out)


def _next(knob: Knob):
    return knob.current + 1 if knob.integer else tidy(knob.current * 1.1 or 1.0)


def _one_value(raw, knob: Knob) -> int | float:
    where = f"{knob.key} = {raw!s}"
    if isinstance(raw, bool):
        raise ValueError(f"{where}: not a number")
    if isinstance(raw, int | float):
        number = raw
    else:
        text = str(raw).strip()
        try:
            number = int(text)
        except ValueError:
            try:
                number = float(text)
            except ValueError:
                raise ValueError(f"{where}: not a number (the key holds {knob.current!r})") from None
    if isinstance(number, float) and not math.isfinite(number):
        raise ValueError(f"{where}: not a finite number")
    if knob.integer:
        if isinstance(number, float) and not number.is_integer():
            raise ValueError(f"{where}: {knob.key} is a whole number (today {knob.current}); {raw} is not")
        return int(number)
    return tidy(float(number))


def value_name(value: int | float) -> str:
    """The folder name of a value (``OUT/values/<name>/``): ``4``, ``0.25``, ``-1``."""
    return str(value)


def value_patch(base: Scenario, knob: Knob, value: int | float) -> str:
    """The patch text of one value: ``extends`` the base (its absolute path), only ``knob.key`` changed."""
    return candidate_patch(
        str(base.path.resolve()), {knob.key: (knob.current, value)},
        name=f"{base.name} | {knob.key} = {value}",
        header=[f"simkit scan: {knob.key} = {value} (base: {knob.current})"], base=base.data)


def check_values(base: Scenario, knob: Knob, values: Sequence[int | float],
                 check: Callable[[Scenario], object] | None = None) -> dict[int | float, str]:
    """Every value's patch text, each loaded and validated first (nothing is written where the scan goes).

    Args:
        base: the base scenario.
        knob: the key scanned (:func:`scan_knob`).
        values: the values (:func:`parse_values`).
        check: called with each value's loaded scenario (e.g. to plan its sweep); a ``ValueError``
            it raises is the value's refusal.

    Returns:
        value -> patch text, in the order of ``values``.

    Raises:
        ValueError: (one line) the scenario refuses a value, naming the key, the value and the reason.
    """
    texts = {}
    with tempfile.TemporaryDirectory(prefix="simkit-scan-") as tmp:
        for value in values:
            text = value_patch(base, knob, value)
            path = Path(tmp) / f"{value_name(value)}.toml"
            path.write_text(text, encoding="utf-8")
            try:
                sc = load_scenario(path, bots_from=base.bots_from)  # the bots it will play (--bots-from)
                if check is not None:
                    check(sc)
            except ValueError as exc:
                reason = str(exc).replace(f"{path}: ", "").replace(str(path), "the patch")
                raise ValueError(f"{knob.key} = {value}: the scenario refuses it ({reason})") from None
            texts[value] = text
    return texts
