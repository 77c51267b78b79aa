"""The knobs of ``simkit tune`` and the patches it writes.

Game-agnostic. A *knob* is a number of the merged scenario by dotted key (``creatures.Priest.L3.cost``;
an element of a flat list of numbers is ``key[i]``, ``creatures.Archer.units[0]``) with the range the
search may give it. :func:`parse_knobs` turns the designer's ``--knob`` specs into knobs;
:func:`candidate_patch` writes a candidate as a TOML patch that ``extends`` the base and holds only
the changed keys (a changed list element rewrites its whole list), each with its before and after.
"""

from __future__ import annotations

import difflib
import fnmatch
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Knob", "candidate_patch", "default_range", "parse_knobs", "relative_range", "scenario_numbers"]

# ----------------------------------------------------------------------------------------------
# knobs


@dataclass(frozen=True)
class Knob:
    """A number of the scenario the search may change, and its range.

    Attributes:
        key: the dotted key in the merged scenario (``creatures.Priest.L3.cost``).
        current: today's value.
        low: the smallest value tried.
        high: the largest value tried.
        integer: integers stay integers (the range is whole numbers).
        step: the spacing of the values tried (1 for integers).
    """

    key: str
    current: float
    low: float
    high: float
    integer: bool
    step: float = 1

    def values(self) -> list[float]:
        """Every value of the range, in order."""
        n = int(round((self.high - self.low) / self.step))
        vals = [self.low + i * self.step for i in range(n + 1)]
        return [int(v) for v in vals] if self.integer else [tidy(v) for v in vals]


def tidy(x: float) -> float:
    """``x`` rounded to 10 significant digits (``0.1 + 0.2`` is ``0.3``)."""
    return float(f"{x:.10g}")


def scenario_numbers(data: dict, prefix: str = "") -> dict[str, int | float]:
    """Every number of a merged scenario by dotted key, in file order.

    A flat list of numbers gives one key per element, ``key[i]`` (``creatures.Archer.units[0]``,
    ``creatures.Archer.L1.range[1]``); nested lists (map cells), booleans and strings are left out,
    and so are the ``sweep.*`` keys (games, seeds, workers), which are not balance numbers.
    """
    out: dict[str, int | float] = {}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if dotted == "sweep":
            continue
        if isinstance(value, dict):
            out.update(scenario_numbers(value, dotted + "."))
        elif _is_number(value):
            out[dotted] = value
        elif isinstance(value, list) and value and all(_is_number(v) for v in value):
            out.update({f"{dotted}[{i}]": v for i, v in enumerate(value)})
    return out


def _is_number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


_INDEX = re.compile(r"^(.*)\[(\d+|\*)\]$")


def _match(pattern: str, key: str) -> bool:
    """Shell-style match one dotted key segment by segment (``*`` never crosses a dot; a trailing
    ``[i]`` or ``[*]`` names list elements literally)."""
    ps, ks = pattern.split("."), key.split(".")
    if len(ps) != len(ks):
        return False
    for p, k in zip(ps, ks):
        pm, km = _INDEX.match(p), _INDEX.match(k)
        if bool(pm) != bool(km):
            return False
        if pm:
            if pm.group(2) != "*" and pm.group(2) != km.group(2):
                return False
            p, k = pm.group(1), km.group(1)
        if not fnmatch.fnmatchcase(k, p):
            return False
    return True


def default_range(current: int | float) -> tuple[float, float, float]:
    """A sane range around today's value: ``(low, high, step)``.

    Integers move by up to a quarter of their value (at least 1), never below 0, and never below
    1 when today's value is at least 1. Other numbers move by up to half their value in tenths of
    their order of magnitude.
    """
    if isinstance(current, int):
        span = max(1, math.ceil(abs(current) / 4))
        floor = 1 if current >= 1 else 0
        return max(floor, current - span), max(current + span, floor), 1
    if current == 0:
        return -1.0, 1.0, 0.1
    step = 10.0 ** (math.floor(math.log10(abs(current))) - 1)
    span = math.ceil(abs(current) / 2 / step) * step
    return tidy(current - span), tidy(current + span), tidy(step)


_RANGE = re.compile(r"^\s*([-+]?[0-9.eE+-]+)\s*\.\.\s*([-+]?[0-9.eE+-]+)\s*$")
_SHARE = re.compile(r"^\s*([-+]?[0-9.]+)%\s*\.\.\s*([-+]?[0-9.]+)%\s*$")


def relative_range(current: int | float, down: float, up: float) -> tuple[float, float, float]:
    """A range from today's value by shares of it: ``-50%..+50%`` is ``relative_range(v, -0.5, 0.5)``.

    Integers widen to whole numbers (down rounds down, up rounds up, each end at least one step
    away when the share is not 0), never below 0, and never below 1 when today's value is at least 1.
    Other numbers keep the step of :func:`default_range`.
    """
    if isinstance(current, int):
        lo = current + (math.floor(current * down) if down < 0 else math.ceil(current * down))
        hi = current + (math.ceil(current * up) if up > 0 else math.floor(current * up))
        if current >= 0:
            lo, hi = (lo - 1 if down < 0 and lo == current else lo), (hi + 1 if up > 0 and hi == current else hi)
        floor = 1 if current >= 1 else 0
        return max(floor, lo), max(floor, hi), 1
    step = default_range(current)[2]
    return (tidy(math.floor(current * (1 + down) / step) * step), tidy(math.ceil(current * (1 + up) / step) * step),
            step)


def _number(text: str) -> int | float:
    try:
        return int(text)
    except ValueError:
        return float(text)


def parse_knobs(data: dict, specs: Sequence[str]) -> list[Knob]:
    """The knobs named by ``specs`` over the merged scenario ``data``.

    A spec is ``PATTERN`` (a dotted key, ``*`` matching within one key: ``'creatures.*.L*.cost'``)
    or ``PATTERN=LOW..HIGH`` (``'creatures.Priest.L3.cost=5..8'``) or ``PATTERN=-PCT%..+PCT%`` (a
    range by shares of each key's own value, :func:`relative_range`: ``'creatures.*.L*.hp=-50%..+50%'``).
    Without a range a knob gets :func:`default_range`. When specs overlap, the later one's range wins.

    Args:
        data: the merged scenario (``Scenario.data``).
        specs: the knob specs.

    Returns:
        the knobs, in the scenario's key order.

    Raises:
        ValueError: (one line) no spec, a spec matching no number of the scenario, a ``sweep.*``
            key, a malformed or empty range, or a fractional range for an integer key.
    """
    if not specs:
        raise ValueError("no --knob given: name at least one scenario number to tune, e.g. 'creatures.Priest.L3.cost'")
    numbers = scenario_numbers(data)
    chosen: dict[str, Knob] = {}
    for spec in specs:
        pattern, _, rng = spec.partition("=")
        pattern = pattern.strip()
        if pattern.split(".")[0] == "sweep":
            raise ValueError(f"--knob {spec!r}: sweep settings are not balance numbers and cannot be tuned")
        hits = [k for k in numbers if _match(pattern, k)]
        if not hits:
            close = difflib.get_close_matches(pattern, list(numbers), n=1)
            hint = f"did you mean {close[0]!r}?" if close else f"keys look like {next(iter(numbers), 'a.b')!r}"
            raise ValueError(f"--knob {spec!r}: matches no number of the scenario ({hint})")
        bounds, share = _spec_range(spec, rng)
        for key in hits:
            current = numbers[key]
            integer = isinstance(current, int)
            if share is not None:
                lo, hi, step = relative_range(current, *share)
            elif bounds is None:
                lo, hi, step = default_range(current)
            else:
                lo, hi = bounds
                if integer and not (isinstance(lo, int) and isinstance(hi, int)):
                    raise ValueError(f"--knob {spec!r}: {key} is an integer ({current}); the range must be "
                                     "whole numbers")
                step = 1 if integer else _float_step(lo, hi)
            chosen[key] = Knob(key, current, lo, hi, integer, step)
    return [chosen[k] for k in numbers if k in chosen]


def _spec_range(spec: str, rng: str) -> tuple[tuple | None, tuple[float, float] | None]:
    """A knob spec's range ``rng`` (the text after ``=``): ``(bounds, share)``, ``bounds`` an absolute
    ``(low, high)`` or ``share`` a relative ``(-pct, +pct)`` as fractions; both ``None`` without a range.

    Raises:
        ValueError: (one line) a malformed or empty range.
    """
    if not rng:
        return None, None
    m = _SHARE.match(rng)
    if m:
        try:
            share = (float(m.group(1)) / 100, float(m.group(2)) / 100)
        except ValueError:
            raise ValueError(f"--knob {spec!r}: a relative range reads -PCT%..+PCT%, e.g. -50%..+50%") from None
        if share[0] > share[1]:
            raise ValueError(f"--knob {spec!r}: the range {rng.strip()} is empty (low above high)")
        return None, share
    m = _RANGE.match(rng)
    try:
        lo, hi = (_number(m.group(1)), _number(m.group(2))) if m else (None, None)
    except ValueError:
        lo = hi = None
    if lo is None:
        raise ValueError(f"--knob {spec!r}: the range must read LOW..HIGH, e.g. 5..8")
    if lo > hi:
        raise ValueError(f"--knob {spec!r}: the range {lo}..{hi} is empty (low above high)")
    return (lo, hi), None


def _float_step(lo: float, hi: float) -> float:
    if hi == lo:
        return 1.0
    return tidy(10.0 ** (math.floor(math.log10(hi - lo)) - 1))


# ----------------------------------------------------------------------------------------------
# patches


_BARE = re.compile(r"^[A-Za-z0-9_-]+$")


def _toml_key(part: str) -> str:
    return part if _BARE.match(part) else json.dumps(part, ensure_ascii=False)


def toml_value(v: int | float | list) -> str:
    """A number or a list of numbers as TOML writes it."""
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return str(v) if isinstance(v, int) else repr(float(v))


def candidate_patch(extends: str, changes: dict[str, tuple], name: str | None = None,
                    header: Sequence[str] = (), base: dict | None = None) -> str:
    """The TOML text of a patch: ``extends`` the base, only the changed keys, before/after per change.

    Args:
        extends: the base file, as the patch must name it (relative to the patch's folder, or absolute).
        changes: dotted key -> (before, after); a list element's key is ``key[i]``.
        name: the patch's scenario name, if it gets one.
        header: comment lines for the top of the file.
        base: the merged base scenario (``Scenario.data``); needed when a list element changes, since
            a patch replaces a whole list (its other elements are written as the base has them).

    Returns:
        the patch text; loading it with :func:`simkit.load_scenario` gives the base with the changes.

    Raises:
        ValueError: a list element changes and ``base`` is not given or has no such list.
    """
    lines = [f"# {h}" if h else "#" for h in header]
    lines.append(f"extends = {json.dumps(extends, ensure_ascii=False)}")
    if name:
        lines.append(f"name = {json.dumps(name, ensure_ascii=False)}")
    values: dict[str, tuple] = {}  # the key a patch writes -> (before, after), lists whole
    for key, (before, after) in changes.items():
        m = _INDEX.match(key)
        if not m:
            values[key] = (before, after)
            continue
        list_key, i = m.group(1), int(m.group(2))
        if list_key not in values:
            today = _lookup(base, list_key)
            values[list_key] = (list(today), list(today))
        if i >= len(values[list_key][1]):
            raise ValueError(f"{key}: the list {list_key} has {len(values[list_key][1])} elements")
        values[list_key][1][i] = after
    tables: dict[str, list[str]] = {}
    for key, (before, after) in values.items():
        *table, leaf = key.split(".")
        entry = f"{_toml_key(leaf)} = {toml_value(after)}"
        tables.setdefault(".".join(_toml_key(t) for t in table), []).append(
            f"{entry:<24}# tune: {toml_value(before)} -> {toml_value(after)}")
    for table, entries in tables.items():
        lines.append("")
        if table:
            lines.append(f"[{table}]")
        lines.extend(entries)
    return "\n".join(lines) + "\n"


def _lookup(data: dict | None, dotted: str) -> list:
    """The list at ``dotted`` in the merged scenario ``data``."""
    node = data
    for part in dotted.split("."):
        node = node.get(part) if isinstance(node, dict) else None
    if not isinstance(node, list):
        raise ValueError(f"{dotted}: a list element changes, but the base scenario given has no such list "
                         "(pass base=Scenario.data)")
    return node
