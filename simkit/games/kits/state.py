"""A game's state and packed rules, declared once with names: numpy structured dtypes read as records.

A game declares each part of its state as a :func:`record` (a player, a hero, a unit, the game's header)
and nests them: ``SIDE = record("Side", [("energy", I), ("heroes", HERO, 3)])``. The engine reads
``side.energy`` and ``side.heroes[h].hp``; numba compiles such attribute access on records to the same
loads and stores as offsets into a flat array (no offset constant is written by hand), and under
``NUMBA_DISABLE_JIT=1`` the very same source runs on numpy scalars of the declared record classes, whose
attribute access this module provides (a field read is ``np.void.__getitem__``, a C call).

What comes from a declaration, written once here for every game:

- :func:`zeros`: a game's state (``zeros(STATE)``: one record, a view into a one-element array, which a
  compiled function reads and writes in place) or a batch of them (``zeros(STATE, n)``);
- :func:`copy`: one record copied into another of its declaration, whole or up to a field, compiled (one
  ``memcpy``) and plain alike (a bot's scratch copy of a position, a seat's view); :func:`clear` zeroes one;
- :func:`snapshot`: a record, or an array of them, as plain Python values named by the declaration, its
  enumerations as their words (a field declared with ``words``: ``"phase": "play"``; an array indexed by an
  enumeration, declared with ``keys``: ``"statuses": {"poison": 2, ...}``);
- :func:`place`: a nested mapping written into a record (literal positions in tests), in the same words;
- :class:`DeclaredMatch`: the :class:`simkit.games.Match` properties (``over``, ``to_act``, ``winner``,
  ``end_reason``) read from a state's conventional fields ``winner``, ``reason`` and ``to_act``.

A record class is found again by the module that declared it and its name, so states, rules and the dtypes
themselves pickle (a sweep worker, a copied scenario) and unpickle in a process that has not imported the game.

An array a compiled function *returns* comes back with the plain dtype (numba keeps the fields, not the
record class): :func:`as_declared` gives it its declared dtype again, without a copy.
"""

from __future__ import annotations

import copyreg
import importlib
import sys
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic, overload

from simkit.core.seats import WINNERS

__all__ = ["DeclaredMatch", "as_declared", "clear", "copy", "place", "record", "snapshot", "zeros"]

_getitem = np.void.__getitem__
_setitem = np.void.__setitem__
_void_attribute = np.void.__getattribute__
#: what numpy and this module read of a record scalar: no field may take these names
_RESERVED = frozenset({"dtype", "item", "tolist", "view", "copy", "fields", "getfield", "setfield", "base", "flags",
                       "shape", "size", "ndim", "nbytes", "itemsize", "tobytes"})


class RecordClass(type):
    """The type of every record class: it pickles by reference to the module that declared the record."""


#: (declaring module, record name) -> record class: how an unpickled state finds its class again
_DECLARED: dict[tuple[str, str], type] = {}


def _declared(module: str, name: str) -> type:
    """The record class ``name`` of ``module`` (imported now if need be): the inverse of pickling one."""
    if (module, name) not in _DECLARED:
        importlib.import_module(module)
    return _DECLARED[(module, name)]


copyreg.pickle(RecordClass, lambda cls: (_declared, (cls.__module__, cls.__name__)))


def record(name: str, fields: Sequence[tuple], doc: str = "", words: Mapping[str, Sequence[str]] | None = None,
           keys: Mapping[str, Sequence[str]] | None = None, module: str | None = None) -> np.dtype:
    """The dtype of one part of a game's state (or of its packed rules), its fields read by name.

    Args:
        name: the part's name in the game's words (``"Hero"``, ``"Side"``); the record class's name.
        fields: ``(field, type)`` or ``(field, type, shape)`` in memory order; ``type`` is a numpy scalar
            type (``np.int64``) or another record's dtype; ``shape`` an int or a tuple for an array of them.
        doc: what the part is (the record class's docstring).
        words: fields holding an enumeration, each with its words: the number ``i`` is ``words[i]``, -1 none
            (:func:`snapshot` and :func:`place` speak the words; the engine reads the numbers).
        keys: array fields indexed by an enumeration, each with its words (``{"statuses": ("poison", ...)}``):
            :func:`snapshot` gives them as a mapping by word, :func:`place` takes one.
        module: the declaring module (default: the caller's), where an unpickled state finds the record again;
            one module declares each record name once.

    Returns:
        A structured dtype whose scalars are instances of a ``np.void`` subclass called ``name``, so that
        ``part.field`` reads and ``part.field = v`` writes the field in plain Python as numba does compiled.

    Raises:
        ValueError: a field named twice, or a name numpy's scalars answer themselves (``dtype``, ``item``...), or
            words for a field the record lacks.
    """
    spec = [(f[0], f[1]) if len(f) == 2 else (f[0], f[1], f[2]) for f in fields]
    dtype = np.dtype(spec)
    clash = sorted(set(dtype.names) & _RESERVED)
    if clash:
        raise ValueError(f"record {name}: field names {clash} are what numpy and this kit read of a record; "
                         "choose others")
    words, keys = dict(words or {}), dict(keys or {})
    unknown = sorted((set(words) | set(keys)) - set(dtype.names))
    if unknown:
        raise ValueError(f"record {name}: words for fields it does not have: {unknown}")
    names = frozenset(dtype.names)

    def __getattribute__(self, attribute):
        if attribute in names:
            return _getitem(self, attribute)
        return _void_attribute(self, attribute)

    def __setattr__(self, attribute, value):
        if attribute not in names:
            raise AttributeError(f"{name} has no field {attribute!r} (fields: {', '.join(dtype.names)})")
        _setitem(self, attribute, value)

    def __repr__(self):
        return f"{name}({', '.join(f'{n}={snapshot(_getitem(self, n))!r}' for n in dtype.names)})"

    module = module or sys._getframe(1).f_globals.get("__name__", "__main__")
    cls = RecordClass(name, (np.void,), {"__slots__": (), "__doc__": doc or f"One {name} of a game's state.",
                                         "__module__": module, "__getattribute__": __getattribute__,
                                         "__setattr__": __setattr__, "__repr__": __repr__,
                                         "fields": tuple(dtype.names),
                                         "words": {k: tuple(v) for k, v in words.items()},
                                         "keys": {k: tuple(v) for k, v in keys.items()}})
    _DECLARED[(module, name)] = cls
    return np.dtype((cls, dtype))


def zeros(dtype: np.dtype, n: int | None = None) -> Any:
    """A zeroed state of ``dtype``: one record (``n`` None: a view into its own one-element array, so a
    compiled function given it writes in place) or an array of ``n`` records."""
    if n is None:
        return np.zeros(1, dtype)[0]
    return np.zeros(int(n), dtype)


def as_declared(array: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """``array`` (a compiled function's result, its fields those of ``dtype``) with the declared dtype again."""
    return array.view(dtype)


def copy(dst: Any, src: Any, until: str | None = None) -> None:
    """Copy the record ``src`` into ``dst`` (the same declaration): every field, or those before field ``until``.

    Compiled, a single ``memcpy`` of the bytes (``until`` must then be a literal string); plain, field by
    field. The fields from ``until`` on keep their values (what a copy need not carry, such as counters after
    what the rules read).
    """
    for name in dst.dtype.names:
        if name == until:
            break
        _setitem(dst, name, _getitem(src, name))


@intrinsic
def _copy_bytes(typingctx, dst, src, until):
    """``memcpy`` of the record ``src`` into ``dst`` up to field ``until`` (a literal string) or whole (None)."""
    if not isinstance(dst, types.Record) or dst != src:
        return None
    if isinstance(until, types.StringLiteral):
        size = dst.offset(until.literal_value)
    elif isinstance(until, (types.NoneType, types.Omitted)):
        size = dst.size
    else:
        return None

    def codegen(context, builder, signature, args):
        cgutils.raw_memcpy(builder, args[0], args[1], context.get_constant(types.intp, size), 1)
        return context.get_dummy_value()

    return types.void(dst, src, until), codegen


@overload(copy)
def _copy_compiled(dst, src, until=None):
    """:func:`copy` as numba compiles it."""
    def impl(dst, src, until=None):
        _copy_bytes(dst, src, until)

    return impl


def clear(dst: Any) -> None:
    """Zero every field of the record ``dst`` (compiled: one ``memset``)."""
    for name in dst.dtype.names:
        _setitem(dst, name, 0)


@intrinsic
def _clear_bytes(typingctx, dst):
    """``memset`` of the record ``dst`` to zero."""
    if not isinstance(dst, types.Record):
        return None

    def codegen(context, builder, signature, args):
        cgutils.memset(builder, args[0], context.get_constant(types.intp, dst.size), 0)
        return context.get_dummy_value()

    return types.void(dst), codegen


@overload(clear)
def _clear_compiled(dst):
    """:func:`clear` as numba compiles it."""
    def impl(dst):
        _clear_bytes(dst)

    return impl


def _word(value: Any, table: Sequence[str]) -> Any:
    """A number (or a list of them) as its word of ``table`` (-1: None)."""
    if isinstance(value, list):
        return [_word(v, table) for v in value]
    return None if value < 0 else table[value]


def _number(value: Any, table: Sequence[str], field: str) -> Any:
    """A word (or a list of them) as its number in ``table`` (None: -1); a number stays as it is."""
    if isinstance(value, (list, tuple)):
        return [_number(v, table, field) for v in value]
    if value is None:
        return -1
    if isinstance(value, str):
        if value not in table:
            raise KeyError(f"{field}: unknown word {value!r} (words: {', '.join(table)})")
        return table.index(value)
    return value


def snapshot(value: Any, words: Mapping[str, Sequence[str]] | None = None) -> Any:
    """A record, an array of records or of numbers, or a number, as plain Python values.

    A record becomes a dict by field name (in declaration order), an array a list, a number an int,
    float or bool: what ``json.dumps`` takes and a test compares with a literal. A field declared with
    ``words`` gives its words (-1: None), one declared with ``keys`` a dict by its words; ``words`` adds
    words known only at run time, by field name at any depth (``{"card": rules.names}``).
    """
    if isinstance(value, np.void) and value.dtype.names:
        if not words and not _speaks(value.dtype):  # numbers only: numpy converts it in one call, item()
            return _plain(value.dtype, value.item())
        known = {**getattr(type(value), "words", {}), **(words or {})}
        keyed = getattr(type(value), "keys", {})
        out = {}
        for n in value.dtype.names:
            v = snapshot(_getitem(value, n), words)
            if n in known:
                v = _word(v, known[n])
            if n in keyed:
                v = dict(zip(keyed[n], v))
            out[n] = v
        return out
    if isinstance(value, np.ndarray):
        if value.dtype.names:
            if not words and not _speaks(value.dtype):
                return [_plain(value.dtype, v) for v in value.tolist()]
            return [snapshot(v, words) for v in value]
        return value.tolist()
    if isinstance(value, np.generic):
        return value.item()
    return value


_SPEAKS: dict = {}


def _speaks(dtype: np.dtype) -> bool:
    """Whether a record declaration, or one nested in it, has fields with words or keys (remembered per dtype)."""
    if dtype not in _SPEAKS:
        base = dtype.base if dtype.subdtype else dtype
        own = bool(getattr(base.type, "words", None) or getattr(base.type, "keys", None))
        _SPEAKS[dtype] = own or any(_speaks(f[0]) for f in (base.fields or {}).values() if f[0].names or
                                    (f[0].subdtype and f[0].base.names))
    return _SPEAKS[dtype]


def _plain(dtype: np.dtype, item: Any) -> Any:
    """A record's ``item()`` (a tuple, its array fields numpy arrays) as dicts and lists by ``dtype``'s names."""
    if isinstance(item, np.ndarray):
        return [_plain(item.dtype, v) for v in item.tolist()] if item.dtype.names else item.tolist()
    if dtype.names:
        return {n: _plain(dtype.fields[n][0], v) for n, v in zip(dtype.names, item)}
    return item


def place(target: Any, values: Mapping[str, Any], words: Mapping[str, Sequence[str]] | None = None) -> None:
    """Write ``values`` (field -> value, nested as the declaration nests) into the record ``target``.

    A nested mapping writes into a record field; a mapping of index -> mapping, or a list of mappings,
    writes into an array of records (``{"heroes": {1: {"hp": 3}}}`` sets hero 1's HP only); a mapping of
    index -> number writes those entries of an array of numbers (``{"dice": {3: 6}}``); a number or a list
    writes a field whole. A field declared with ``words`` takes its words (None: -1), one declared with
    ``keys`` a mapping by its words (the words named only); ``words`` adds words known at run time, as for
    :func:`snapshot`, which :func:`place` inverts. Fields not named keep their values.

    Raises:
        KeyError: a field the declaration does not have (the message lists the record's fields), or an unknown
            word.
    """
    names = target.dtype.names
    known = {**getattr(type(target), "words", {}), **(words or {})}
    keyed = getattr(type(target), "keys", {})
    for key, value in values.items():
        if key not in names:
            raise KeyError(f"no field {key!r} (fields: {', '.join(names)})")
        field = _getitem(target, key)
        if key in keyed and isinstance(value, Mapping):
            for word, v in value.items():
                if word not in keyed[key]:
                    raise KeyError(f"{key}: unknown word {word!r} (words: {', '.join(keyed[key])})")
                field[keyed[key].index(word)] = v
            continue
        if key in known:
            value = _number(value, known[key], key)
        if isinstance(value, Mapping) and isinstance(field, np.void):
            place(field, value, words)
        elif isinstance(field, np.ndarray) and field.dtype.names is not None:
            items = value.items() if isinstance(value, Mapping) else enumerate(value)
            for i, item in items:
                place(field[int(i)], item, words)
        elif isinstance(field, np.ndarray) and isinstance(value, Mapping):
            for i, v in value.items():  # an array of numbers by index: those entries only
                field[int(i)] = v
        elif isinstance(field, np.ndarray):
            field[...] = value
        else:
            _setitem(target, key, value)


class DeclaredMatch:
    """The :class:`simkit.games.Match` properties of a game whose state declares the conventional fields.

    A subclass holds ``self.state`` (a record with ``winner``: -1 while the game goes on, else the index
    of :data:`simkit.core.seats.WINNERS`; ``reason``: the index of the game's end reason, 0 while it goes
    on; ``to_act``: the seat whose decision is owed) and ``END_REASONS`` (its end reasons, ``"none"`` first).
    """

    state: Any
    END_REASONS: tuple[str, ...] = ("none",)

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return int(self.state.winner) >= 0

    @property
    def to_act(self) -> int:
        """The seat (0 first, 1 second) whose decision is owed now."""
        return int(self.state.to_act)

    @property
    def winner(self) -> str | None:
        """``"first"``, ``"second"``, ``"draw"``, or ``None`` while the game goes on."""
        w = int(self.state.winner)
        return None if w < 0 else WINNERS[w]

    @property
    def end_reason(self) -> str | None:
        """Why the game ended (one of the schema's end reasons), or ``None`` while it goes on."""
        return None if not self.over else self.END_REASONS[int(self.state.reason)]
