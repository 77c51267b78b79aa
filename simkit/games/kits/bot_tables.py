"""Reading a scenario's ``[bots]`` tables, once for every game: personalities as data.

Every game's bots are ``[bots.<name>]`` tables: a *utility personality* (weights) or a *search bot*
(a table with a ``policy``: the personality it plays its candidates with). ``like = "other"`` starts
a table from another's numbers (its own keys win; the chain is followed through any depth, a circle
is refused). ``random`` is built in and cannot be redefined. Every weight is a finite number: NaN,
infinities and booleans are refused naming the file and key, so no personality plays garbage.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from simkit.scenario import Field, resolve_like

__all__ = ["RANDOM", "bot_tables", "is_search", "number", "switch"]

#: the built-in uniformly random bot
RANDOM = "random"


def bot_tables(top: Field, shared: tuple[str, ...] = (), required: bool = True) -> Iterator[tuple[str, Field]]:
    """Each ``[bots.<name>]`` table of ``top``, merged with its ``like`` chain, in file order.

    Args:
        top: the scenario's top level.
        shared: keys of ``[bots]`` itself that are settings, not bots (``max_actions_per_turn``).
        required: refuse a scenario whose ``[bots]`` defines no bot.

    Raises:
        ScenarioError: a key that is not a table (nor a shared setting), a table named ``random``, a
            ``like`` naming no table, a circular ``like`` chain, or no bot at all.
    """
    f = top.table("bots", required=required)
    names = [name for name in f.keys() if name not in shared]
    for name in names:
        if not isinstance(f.get(name), dict):
            known = f" or one of {', '.join(shared)}" if shared else ""
            raise f.fail(f"unknown key (expected a [bots.<name>] table{known})", name)
        if name == RANDOM:
            raise f.fail("'random' is the built-in uniformly random bot; give the table another name", name)
    if required and not names:
        raise f.fail("defines no bot; add a [bots.<name>] table")
    for name in names:
        yield name, Field(f.source, resolve_like(f, name), f._join(name))


def is_search(table: Field) -> bool:
    """True when a merged bot table is a search bot (it has a ``policy``)."""
    return table.has("policy")


def number(table: Field, key: str, default: float | None = None, kind: type = float, minimum: float | None = None,
           maximum: float | None = None) -> float | int:
    """The finite number ``table.key`` (``default`` when absent and a default is given).

    Raises:
        ScenarioError: missing without a default, a boolean or non-number, NaN or an infinity, an
            integer weight given as a fraction, or a value outside ``[minimum, maximum]``.
    """
    if not table.has(key) and default is not None:
        return kind(default)
    value = table.get(key)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise table.fail(f"must be {'an integer' if kind is int else 'a number'}, got {value!r}", key)
    if isinstance(value, float) and not math.isfinite(value):
        raise table.fail(f"must be a finite number, got {value!r}", key)
    if kind is int and not float(value).is_integer():
        raise table.fail(f"must be an integer, got {value!r}", key)
    if minimum is not None and value < minimum:
        raise table.fail(f"must be at least {minimum:g}, got {value!r}", key)
    if maximum is not None and value > maximum:
        raise table.fail(f"must be at most {maximum:g}, got {value!r}", key)
    return kind(value)


def switch(table: Field, key: str, default: bool | None = None) -> float:
    """An on/off weight ``table.key``: ``true``/``false`` or 1/0, as 1.0 or 0.0 (``default`` when absent).

    Raises:
        ScenarioError: missing without a default, or anything but a boolean, 0 or 1.
    """
    if not table.has(key) and default is not None:
        return float(default)
    value = table.get(key)
    if isinstance(value, bool) or (isinstance(value, int | float) and value in (0, 1)):
        return float(value)
    raise table.fail(f"must be true or false (or 1 or 0), got {value!r}", key)


def search_roles(table: Field, personalities) -> dict[str, str]:
    """A search table's ``policy`` and ``reply`` (the reply defaults to the policy), each checked to
    name one of ``personalities``.

    Raises:
        ScenarioError: ``file: bots.<name>.<key>: must name a utility personality (...)``.
    """
    roles = {}
    for key in ("policy", "reply"):
        name = table.get(key, table.get("policy"))
        if not isinstance(name, str) or name not in personalities:
            raise table.fail(f"must name a utility personality ({', '.join(personalities)}), got {name!r}", key)
        roles[key] = name
    return roles
