"""A run's settings as its folder records them, and the one-line refusal of a resume with other settings.

Every driver (sweep, explore, scan, tune) takes one frozen, validated settings value, records it in its
results folder as plain JSON, and on ``--resume`` compares what the folder kept with what it was given
here, so a resume never mixes two runs' games.
"""

from __future__ import annotations

import json
from collections.abc import Mapping

__all__ = ["differing", "is_count", "refuse_other_settings"]


def _short(value) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 60 else text[:57] + "..."


def is_count(value, low: int = 1) -> bool:
    """Whether ``value`` is a whole number (not a bool) of at least ``low``: what a count of games or chunks must be."""
    return isinstance(value, int) and not isinstance(value, bool) and value >= low


def differing(kept: Mapping, given: Mapping, keys=None) -> list[str]:
    """The settings of ``keys`` (default: every key of either) whose values differ, in ``given``'s order."""
    keys = list(dict.fromkeys([*given, *kept])) if keys is None else list(keys)
    return [k for k in keys if kept.get(k) != given.get(k)]


def refuse_other_settings(where: str, what: str, kept: Mapping, given: Mapping, keys=None,
                          names: Mapping[str, str] | None = None) -> None:
    """Refuse, in one line naming the first setting that differs and both its values, to resume a run whose folder
    kept other settings.

    Args:
        where: the folder, as the message names it.
        what: the run, with its article (``a sweep``, ``an explore run``, ``a scan``, ``a tune``).
        kept: the settings the folder recorded.
        given: the settings of this call, in the same plain form.
        keys: the settings compared (default: every key of either).
        names: how the command line spells a setting (``{"games": "--games"}``), where it differs.

    Raises:
        ValueError: when any setting differs.
    """
    diff = differing(kept, given, keys)
    if not diff:
        return
    key = diff[0]
    name = (names or {}).get(key, key)
    rest = [n for n in dict.fromkeys((names or {}).get(k, k) for k in diff[1:]) if n != name]
    more = f" (and {len(rest)} more: {', '.join(rest)})" if rest else ""
    raise ValueError(f"{where} holds {what} with other settings: {name} {_short(kept.get(key))} there, "
                     f"{_short(given.get(key))} here{more}: repeat its settings to resume it, or choose another --out")
