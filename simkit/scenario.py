"""Scenario files: TOML in, a validated, frozen :class:`Scenario` out.

A scenario names its game (``game = "miracle"``); the game's package validates the numbers and
builds its ``Rules``. A patch says ``extends = "base.toml"`` (relative to its own folder) and
overrides any subset of keys; tables merge key by key, any other value is replaced.
"""

from __future__ import annotations

import difflib
import fnmatch
import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from simkit.core.errors import ScenarioError
from simkit.core.rng import SEED_MAX
from simkit.games import Ruleset, get_game

#: The top-level keys the core owns; a game declares its own (:attr:`simkit.games.Game.tables`).
CORE_KEYS = ("game", "name", "description", "rules_version", "sweep", "experience")

__all__ = ["Scenario", "load_scenario", "scenario_from_data", "Field", "resolve_like", "sweep_settings",
           "EXPERIENCE_KEYS", "ExperienceSettings", "experience_settings", "experience_settings_from"]


def _merge(base: dict, patch: dict) -> dict:
    out = dict(base)
    for key, value in patch.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _read_toml(path: Path, chain: tuple[Path, ...] = ()) -> dict:
    path = path.resolve()
    if path in chain:
        raise ScenarioError(f"{path}: extends: circular chain of scenario files")
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise ScenarioError(f"{path}: file not found") from None
    except UnicodeDecodeError as exc:
        where = f"byte 0x{exc.object[exc.start]:02x} at offset {exc.start}"
        raise ScenarioError(f"{path}: not UTF-8 text ({where}); save it as UTF-8") from None
    except OSError as exc:
        raise ScenarioError(f"{path}: cannot read: {exc.strerror}") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path}: not valid TOML: {exc}") from None
    parent = data.pop("extends", None)
    if parent is None:
        return data
    if not isinstance(parent, str):
        raise ScenarioError(f"{path}: extends: must be a file name, got {parent!r}")
    if not (path.parent / parent).exists():  # named by the file that asked for it, not as a bare missing file
        raise ScenarioError(f"{path}: extends: {parent!r} not found (looked for {(path.parent / parent).resolve()}; "
                            "a relative name is read from this file's folder)")
    base = _read_toml(path.parent / parent, chain + (path,))
    merged = _merge(base, data)
    # a patch is its own scenario: without a name or an output folder of its own it does not take its
    # base's (two scenarios under one name, sweeping into one folder), it is named after its own file
    if "name" not in data:
        merged["name"] = f"{base.get('name', Path(parent).stem)} + {path.stem}"
    own_sweep = data.get("sweep") if isinstance(data.get("sweep"), dict) else {}
    if "out" not in own_sweep and isinstance(merged.get("sweep"), dict):
        merged["sweep"] = {k: v for k, v in merged["sweep"].items() if k != "out"}  # results/<this file's stem>
    return merged


#: the longest problem an error line states (a longer one, holding a huge value, is cut)
PROBLEM_MAX = 1000

class Field:
    """Reads keys of a scenario table and reports problems as ``file: key: problem``.

    Args:
        source: the scenario file, for messages.
        data: the table.
        key: the dotted key of the table itself (``""`` at the top).
    """

    def __init__(self, source: str, data: Any, key: str = ""):
        self.source, self.data, self.key = source, data, key

    def fail(self, problem: str, key: str | None = None) -> ScenarioError:
        """A :class:`ScenarioError` naming this file, ``key`` (default: this table) and ``problem``."""
        where = self._join(key) if key is not None else self.key
        if len(problem) > PROBLEM_MAX:  # a huge value (a 100 kB string) is not echoed whole into the one line
            problem = f"{problem[:PROBLEM_MAX - 60]}... ({len(problem)} characters in all)"
        return ScenarioError(f"{self.source}: {where or '(top level)'}: {problem}")

    def _join(self, key: str) -> str:
        return f"{self.key}.{key}" if self.key else key

    def table(self, key: str, required: bool = True) -> Field:
        """The sub-table ``key`` as a :class:`Field` (an empty one when optional and missing)."""
        value = self.data.get(key) if isinstance(self.data, dict) else None
        if value is None:
            if required:
                raise self.fail("missing table", key)
            value = {}
        if not isinstance(value, dict):
            raise self.fail(f"must be a table, got {value!r}", key)
        return Field(self.source, value, self._join(key))

    def keys(self) -> list[str]:
        """The keys of this table, in file order."""
        return list(self.data)

    def reject_unknown(self, known: tuple[str, ...]) -> None:
        """Raise naming the first key of this table not in ``known`` (a misspelt key is an error, not ignored)."""
        for key in self.keys():
            if key not in known:
                raise self.fail(f"unknown key (known: {', '.join(known)})", key)

    def has(self, key: str) -> bool:
        """True when ``key`` is present."""
        return key in self.data

    def get(self, key: str, default: Any = ...) -> Any:
        """The raw value of ``key``; raises when missing and no default is given."""
        if key not in self.data:
            if default is ...:
                raise self.fail("missing key", key)
            return default
        return self.data[key]

    def int(self, key: str, default: Any = ..., minimum: int | None = 0, dtype: Any = None) -> int:
        """An integer value, at least ``minimum`` (non-negative by default) and, when ``dtype`` is given,
        within the range of that numpy integer type (the type the engine stores the value in)."""
        value = self.get(key, default)
        return self.check_int(value, key, minimum, dtype)

    def check_int(self, value: Any, key: str, minimum: int | None = 0, dtype: Any = None) -> int:
        """Check that ``value`` (found at ``key``) is an integer >= ``minimum`` that ``dtype`` can hold."""
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(f"must be an integer, got {value!r}", key)
        if minimum is not None and value < minimum:
            raise self.fail(f"must be at least {minimum}, got {value}", key)
        if dtype is not None:
            info = np.iinfo(dtype)
            if not info.min <= value <= info.max:
                above = value > info.max
                edge, bound, most = ("at most", info.max, "most") if above else ("at least", info.min, "least")
                raise self.fail(f"must be {edge} {bound}, the {most} the engine's {info.dtype} holds, got {value}", key)
        return value

    def bool(self, key: str, default: Any = ...) -> bool:
        """A true/false value."""
        value = self.get(key, default)
        if not isinstance(value, bool):
            raise self.fail(f"must be true or false, got {value!r}", key)
        return value

    def str(self, key: str, default: Any = ..., choices: tuple[str, ...] | None = None) -> str:
        """A string value, optionally one of ``choices``."""
        value = self.get(key, default)
        if not isinstance(value, str):
            raise self.fail(f"must be a string, got {value!r}", key)
        if choices is not None and value not in choices:
            raise self.fail(f"must be one of {', '.join(map(repr, choices))}, got {value!r}", key)
        return value

    def int_list(
        self, key: str, length: int | None = None, default: Any = ..., minimum: int | None = 0, dtype: Any = None
    ) -> list[int]:
        """A list of integers (of ``length`` items when given), each checked as :meth:`check_int` does."""
        value = self.get(key, default)
        if not isinstance(value, list):
            raise self.fail(f"must be a list of integers, got {value!r}", key)
        if length is not None and len(value) != length:
            raise self.fail(f"must have {length} items, got {len(value)}", key)
        return [self.check_int(v, key, minimum, dtype) for v in value]


def _canonical(data: Any) -> str:
    return json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


@dataclass(frozen=True)
class Scenario:
    """A validated scenario: the merged data, its hash and the game's rules.

    Attributes:
        path: the file it was loaded from.
        data: the merged TOML (``extends`` resolved) as plain Python values.
        game_name: the scenario's ``game`` key (a sub-package of ``simkit.games``).
        rules: the game's fixed rule tables built from the data.
        decks: the deck pool, canonical deck ids in a fixed order.
        bots_from: the scenario file whose ``[bots]`` table the scenario plays with instead of its own bots of the
            same names (``load_scenario(path, bots_from=FILE)``, ``simkit sweep --bots-from FILE``), or ``None``.
        game: the game bound to this scenario (:class:`simkit.games.Ruleset`): its decks, deck cards,
            bots, ``new_match``, ``play_batch``, ``replay``, schema and capabilities.
        outside_bots: its outside bots (``[bots.NAME]`` tables holding a ``command``: programs simkit starts only
            when the command line allows it), by name (:class:`simkit.outside.OutsideBot`); they are not in ``data``
            (the game reads its own bots there) but the hash covers them.
    """

    path: Path
    data: dict
    game_name: str
    rules: Any = field(repr=False)
    decks: tuple[str, ...] = field(repr=False)
    bots_from: Path | None = None
    game: Ruleset = field(init=False, repr=False, compare=False)
    outside_bots: dict = field(default_factory=dict, repr=False)

    def __post_init__(self):
        object.__setattr__(self, "game", get_game(self.game_name).load(self))

    @property
    def name(self) -> str:
        """The scenario's display name (its ``name`` key, else the file stem; ``(bots of FILE)`` added when its bots
        come from another file)."""
        name = str(self.data.get("name", self.path.stem))
        return f"{name} (bots of {self.bots_from.name})" if self.bots_from is not None else name

    def unknown_bot(self, bot: str) -> str:
        """The one-line error for a bot name the scenario does not know: the closest bot it knows (did you mean),
        the bots it knows and where they were looked for, and how to play a bot another scenario file defines."""
        where = (f"{self.path} with the bots of {self.bots_from}" if self.bots_from is not None else str(self.path))
        hint = ("" if self.bots_from is not None else
                "; a bot another scenario file of the game defines (a patch's [bots.NAME]) plays here with "
                "--bots-from FILE")
        names = list(self.game.bot_names())
        close = difflib.get_close_matches(bot, names, n=1, cutoff=0.6)
        guess = f": did you mean {close[0]}?" if close else ""
        return (f"unknown bot {bot!r}{guess} (the scenario knows: {', '.join(names)}; looked for in {where}){hint}")

    @property
    def text(self) -> str:
        """The merged scenario as canonical JSON text (what the hash covers), its outside bots' tables included."""
        if not self.outside_bots:
            return _canonical(self.data)
        bots = {**self.data.get("bots", {}), **{k: b.as_table() for k, b in self.outside_bots.items()}}
        return _canonical({**self.data, "bots": bots})

    @property
    def hash(self) -> str:
        """A short, stable hash of the merged scenario's numbers."""
        return hashlib.sha256(self.text.encode()).hexdigest()[:16]

    @property
    def rules_version(self) -> str:
        """The rules version the scenario declares."""
        return str(self.data.get("rules_version", "unversioned"))

    def canonical_deck(self, deck: str) -> str:
        """The canonical id of ``deck``; raises :class:`ScenarioError` naming an illegal deck."""
        return self.game.canonical_deck(deck)

    def new_match(self, first_deck: str, second_deck: str, seed: int = 0):
        """A single game between two decks (the first deck moves first), as the game's ``Match``."""
        return self.game.new_match(first_deck, second_deck, seed=seed)


def resolve_like(f: Field, name: str, reserved: tuple[str, ...] = ("random",), chain: tuple[str, ...] = ()) -> dict:
    """The table ``name`` of ``f`` with its ``like = "other"`` chain merged in (its own keys win).

    Bot personalities (and any table of peers) inherit this way: ``[bots.turtle] like = "control"``.

    Raises:
        ScenarioError: a circular chain, or ``like`` naming no sibling table (or a ``reserved`` name).
    """
    table = f.table(name)
    if name in chain:
        raise table.fail(f"circular 'like' chain: {' -> '.join((*chain, name))}")
    own = dict(table.data)
    parent = own.pop("like", None)
    if parent is None:
        return own
    if not isinstance(parent, str) or parent in reserved or not isinstance(f.data.get(parent), dict):
        known = ", ".join(k for k, v in f.data.items() if isinstance(v, dict))
        raise table.fail(f"must name another bot table (known: {known}), got {parent!r}", "like")
    return {**resolve_like(f, parent, reserved, (*chain, name)), **own}


def is_search_bot(bots: Field, name: str) -> bool:
    """Whether ``[bots.<name>]`` is a search bot: a table with a ``policy``, its ``like`` chain followed (``random``
    and names without a table are not).

    Raises:
        ScenarioError: a bad ``like`` chain (:func:`resolve_like`).
    """
    return isinstance(bots.data.get(name), dict) and "policy" in resolve_like(bots, name)


def load_scenario(path: str | Path, bots_from: str | Path | None = None) -> Scenario:
    """Load, merge and validate a scenario file.

    Args:
        path: the TOML file; a patch's ``extends`` is resolved relative to its folder.
        bots_from: another scenario file of the same game (a patch defining ``[bots.mine]``, say) whose bots the
            scenario plays with: its whole ``[bots]`` table (``extends`` followed) replaces the scenario's bots of
            the same names and adds the others, so every bot plays exactly as it does in that file. The bots are
            part of the merged data, so of the hash; :attr:`Scenario.bots_from` names the file.

    Returns:
        The frozen :class:`Scenario`.

    Raises:
        ScenarioError: one message naming the file, the key and the problem; for ``bots_from``, a file that does not
            load by itself, has no ``[bots]`` table, or is a scenario of another game.
    """
    path = Path(path)
    data = _read_toml(path)
    if bots_from is not None:
        bots_from = Path(bots_from)
        data = _with_bots_of(path, data, bots_from)
    try:
        return _build(path, data, bots_from)
    except ScenarioError as exc:
        hint = _new_table_hint(path, str(exc)) if bots_from is None else f"with the bots of {bots_from}"
        if hint is None:
            raise
        raise ScenarioError(f"{exc} ({hint})") from None


def _with_bots_of(path: Path, data: dict, bots_from: Path) -> dict:
    """``data`` with the ``[bots]`` table of the scenario file ``bots_from`` laid over its own, bot by bot."""
    other = _read_toml(bots_from)
    _build(bots_from, dict(other))  # it loads by itself: its own errors name its own file
    game, theirs = data.get("game"), other.get("game")
    if theirs != game:
        raise ScenarioError(f"{bots_from}: game: {theirs!r}, but {path} is a {game!r} scenario: the bots of "
                            "another game cannot play it (--bots-from names a scenario file of the same game)")
    bots = other.get("bots")
    if not isinstance(bots, dict) or not bots:
        raise ScenarioError(f"{bots_from}: bots: missing table: it defines no bot to play {path} with")
    own = data.get("bots") if isinstance(data.get("bots"), dict) else {}
    return {**data, "bots": {**own, **bots}}


def _new_tables(own: dict, base: dict, prefix: str = "") -> list[tuple[str, list[str]]]:
    """``(key, the base's keys beside it)`` for every table a patch adds that its base does not have."""
    out = []
    for key, value in own.items():
        if not isinstance(value, dict) or not isinstance(base, dict):
            continue
        if key in base:
            out += _new_tables(value, base[key], f"{prefix}{key}.")
        else:
            out.append((f"{prefix}{key}", [f"{prefix}{k}" for k, v in base.items() if isinstance(v, dict)]))
    return out


def _new_table_hint(path: Path, message: str) -> str | None:
    """When an error lies inside a table the patch ``path`` adds and the base has one of a close name: say that
    the patch's table is read as a new one, and name the base's (a misspelt ``creatures.Archr``)."""
    try:
        own = tomllib.loads(path.read_text(encoding="utf-8"))
        parent = own.pop("extends", None)
        if not isinstance(parent, str):
            return None
        base = _read_toml(path.parent / parent)
    except (OSError, ValueError):
        return None
    parts = message.split(": ")
    key = parts[1] if len(parts) > 2 else ""
    for new, siblings in _new_tables(own, base):
        if key == new or key.startswith(new + "."):
            near = difflib.get_close_matches(new, siblings, n=1, cutoff=0.7)
            if near:
                return (f"{new} is not in {parent}, so it is read as a new table: did you mean {near[0]}?")
    return None


def scenario_from_data(data: dict, source: str = "scenario") -> Scenario:
    """A scenario from its merged data (``extends`` already resolved), as a results folder keeps it.

    Raises:
        ScenarioError: as :func:`load_scenario`, naming ``source``.
    """
    return _build(Path(source), dict(data))


def _build(path: Path, data: dict, bots_from: Path | None = None) -> Scenario:
    from simkit.outside.bots import split_scenario_bots

    data, outside = split_scenario_bots(path, data)
    top = Field(str(path), data)
    game_name = top.str("game")
    try:
        game = get_game(game_name)
    except LookupError as exc:
        raise top.fail(str(exc), "game") from None
    known = CORE_KEYS + tuple(game.tables)
    for key in top.keys():  # a misspelt table is an error, not ignored
        if key not in known:
            raise top.fail(f"unknown top-level key (known: {', '.join(known)})", key)
    rules = game.hook("build_rules")(top)
    decks = tuple(game.hook("deck_pool")(rules, top))
    scenario = Scenario(path=path, data=data, game_name=game_name, rules=rules, decks=decks, bots_from=bots_from,
                        outside_bots=outside)
    sweep_settings(scenario)  # the core's [sweep] table is checked at load too
    experience_settings(scenario)  # and its [experience] table
    return scenario


#: what separates a deck id's parts (``Weapon+Weapon:Spell,Spell,Spell``): ``:`` its sections, ``,`` and ``+`` its cards
_SECTION, _CARD = ":", re.compile(r"[,+]")


def _cards(section: str) -> list[str]:
    return _CARD.split(section)


def _section_matches(deck: str, pattern: str) -> bool:
    """One section of a deck id against one of a pattern: as a whole (``*``), or card by card in any order."""
    if fnmatch.fnmatchcase(deck, pattern):
        return True
    have, want = _cards(deck), _cards(pattern)
    rest = "*" in want  # a card pattern that is ``*`` alone stands for any other cards, as many as there are
    want = [w for w in want if w != "*"]
    if len(have) < len(want) or (not rest and len(have) != len(want)):
        return False
    left = list(have)
    for w in sorted(want, key=lambda c: any(ch in c for ch in "*?[")):  # exact names first, wildcards last
        hit = next((i for i, h in enumerate(left) if fnmatch.fnmatchcase(h, w)), None)
        if hit is None:
            return False
        del left[hit]
    return True


def deck_matches(deck: str, pattern: str) -> bool:
    """True when the deck id ``deck`` matches the shell-style ``pattern`` (``'HolyLight:*'``), its cards in any order
    within each section (``'Spear+Greataxe:*'`` matches ``Greataxe+Spear:Rage,ShadowBolt,Venom``), as ``play``
    accepts a deck's cards in any order; a card pattern ``*`` alone stands for the section's other cards, however
    many (``'Sanctuary:Swordsman*3,*'``)."""
    if deck == pattern or fnmatch.fnmatchcase(deck, pattern):
        return True
    have, want = deck.split(_SECTION), pattern.split(_SECTION)
    return len(have) == len(want) and all(_section_matches(h, w) for h, w in zip(have, want, strict=True))


def matching_decks(pool: tuple[str, ...] | list[str], pattern: str, canonical=None) -> list[str]:
    """The decks of ``pool`` that ``pattern`` selects, pool order: a deck's own id (Magic War's ids hold ``*``)
    picks that deck alone, else every deck :func:`deck_matches`; a pattern without wildcards may name a deck that
    ``canonical`` (the game's ``canonical_deck``) knows by another spelling.

    Raises:
        ValueError: nothing matches; the message suggests the closest deck ids, compared card by card in any
            order, or names ``simkit decks`` when none is close.
    """
    if pattern in pool:
        return [pattern]
    hits = [d for d in pool if deck_matches(d, pattern)]
    if not hits and canonical is not None and not any(c in pattern for c in "*?["):
        try:
            name = canonical(pattern)
        except ValueError:
            name = None
        hits = [d for d in pool if d == name]
    if hits:
        return hits

    def sorted_cards(text: str) -> str:
        return _SECTION.join("+".join(sorted(_cards(s))) for s in text.split(_SECTION))

    by_cards = {sorted_cards(d): d for d in pool}
    close = [d for d in pool if deck_matches(d.casefold(), pattern.casefold())][:3]  # 'Holylight:*'
    close += difflib.get_close_matches(pattern, pool, n=3, cutoff=0.5)
    close += [by_cards[k] for k in difflib.get_close_matches(sorted_cards(pattern), list(by_cards), n=3, cutoff=0.5)]
    close = list(dict.fromkeys(close))[:3]
    hint = f"; did you mean {', '.join(close)}?" if close else "; `simkit decks SCENARIO` lists them"
    raise ValueError(f"deck pattern {pattern!r} matches no deck of the scenario's pool ({len(pool)} decks)" + hint)


def default_bot(sc: Scenario) -> str:
    """The scenario's first bot that is not ``random`` (its first utility personality), else ``random``."""
    return next((b for b in sc.game.bot_names() if b != "random"), "random")


def sweep_settings(sc: Scenario) -> dict:
    """The scenario's ``[sweep]`` table, checked (the core's own table): games, workers, chunk_size, seed,
    bots, panel, decks, out; missing keys take their defaults (``out`` beside the scenario's own folder when its bots
    come from another file, :attr:`Scenario.bots_from`)."""
    f = Field(str(sc.path), sc.data).table("sweep", required=False)
    f.reject_unknown(("games", "workers", "chunk_size", "seed", "bots", "panel", "decks", "out"))
    bots = f.get("bots", None)
    if bots is None:  # the game's first personality in both seats
        bots = [default_bot(sc)] * 2
    if not (isinstance(bots, list) and len(bots) == 2 and all(isinstance(b, str) for b in bots)):
        raise f.fail(f"must be two bot names, got {bots!r}", "bots")
    panel = f.get("panel", [])
    if not (isinstance(panel, list) and all(isinstance(b, str) and b for b in panel)):
        raise f.fail(f"must be a list of bot names, got {panel!r}", "panel")
    known = tuple(sc.game.bot_names())
    for key, names in (("bots", bots), ("panel", panel)):
        for b in names:
            if b not in known:
                raise f.fail(sc.unknown_bot(b), key)
    twice = sorted({b for b in panel if panel.count(b) > 1})
    if twice:
        raise f.fail(f"names a bot twice ({', '.join(twice)}): {', '.join(panel)}", "panel")
    decks = f.get("decks", [])
    if not (isinstance(decks, list) and all(isinstance(d, str) for d in decks)):
        raise f.fail(f"must be a list of deck patterns, got {decks!r}", "decks")
    for pattern in decks:  # as the sweep reads them: a deck's id, wildcards, or a deck's cards in any order
        try:
            matching_decks(sc.decks, pattern, sc.canonical_deck)
        except ValueError as exc:
            raise f.fail(str(exc), "decks") from None
    workers = f.get("workers", 0)
    seed = f.int("seed", 0)
    if seed > SEED_MAX:
        raise f.fail(f"must be at most {SEED_MAX} (2**63 - 1), got {seed}", "seed")
    return {
        "games": f.int("games", 10, minimum=1),
        "workers": f.check_int(workers, "workers", minimum=0),
        "chunk_size": f.int("chunk_size", 256, minimum=1),
        "seed": seed,
        "bots": tuple(bots),
        "panel": tuple(panel),
        "decks": decks,
        "out": _out_with_bots(f.str("out", f"results/{sc.path.stem}"), sc.bots_from),
    }



@dataclass(frozen=True)
class ExperienceSettings:
    """The scenario's ``[experience]`` table (the core's own): how the report judges how the games play.

    Attributes:
        target_turns: the designer's range of a game's length in turns, ``(shortest, longest)``, or ``None``
            when the scenario gives none.
        level_band: the lead (of the game's lead signal, -1 to +1) at or below which neither seat counts as ahead.
        comeback: a win from behind by more than this lead is a comeback.
        early: a game is decided early when its winner stayed ahead from this share of its turns on.
        comebacks: the bar of the snowballing flag: comebacks should be at least this share of the games won.
        decided_early: the bar of the decided-early flag: at most this share of the games won should be decided
            early.
        draws: the bar of the drawish flag: at most this share of the games should be drawn.
        given: the keys the scenario itself gave (the others are simkit's defaults, which a page says).
        authored: keys the scenario gives that are simkit's choice, not the rules document's (its ``authored``
            list: a page labels them so).
    """

    target_turns: tuple[float, float] | None = None
    level_band: float = 0.05
    comeback: float = 0.25
    early: float = 1 / 3
    comebacks: float = 0.10
    decided_early: float = 0.50
    draws: float = 0.10
    given: tuple[str, ...] = ()
    authored: tuple[str, ...] = ()

    def source(self, key: str) -> str:
        """Whose number ``key`` is: ``"designer"`` (the scenario gives it), ``"authored"`` (the scenario gives it
        but names it in ``authored``: simkit's choice where the rules document gives none) or ``"default"``
        (simkit's default, the scenario is silent)."""
        if key not in self.given:
            return "default"
        return "authored" if key in self.authored else "designer"


#: the keys of the ``[experience]`` table, in the order a page lists them
EXPERIENCE_KEYS = ("target_turns", "level_band", "comeback", "early", "comebacks", "decided_early", "draws")


def experience_settings(sc: Scenario) -> ExperienceSettings:
    """The scenario's ``[experience]`` table, checked (see :func:`experience_settings_from`)."""
    return experience_settings_from(sc.data, str(sc.path))


def experience_settings_from(data: dict, source: str = "scenario") -> ExperienceSettings:
    """The ``[experience]`` table of a scenario's (merged) data, checked: ``target_turns = [a, b]`` (optional),
    ``level_band``, ``comeback``, ``early``, ``comebacks``, ``decided_early`` and ``draws`` (shares from 0 to 1;
    missing ones take :class:`ExperienceSettings`' defaults) and ``authored`` (the keys given that are simkit's
    choice, not the rules document's).

    Args:
        data: the scenario's data (a results folder keeps it as ``meta["scenario_text"]``).
        source: the file named in an error.

    Raises:
        ScenarioError: one line naming the file, the key and the problem.
    """
    f = Field(source, data).table("experience", required=False)
    f.reject_unknown((*EXPERIENCE_KEYS, "authored"))
    authored: tuple[str, ...] = ()
    if f.has("authored"):
        value = f.get("authored")
        value = [value] if isinstance(value, str) else value
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise f.fail("must name the keys the designer did not give (a list of key names)", "authored")
        unknown = [v for v in value if v not in EXPERIENCE_KEYS]
        if unknown:
            raise f.fail(f"names {unknown[0]!r}, not a key of [experience] ({', '.join(EXPERIENCE_KEYS)})",
                         "authored")
        authored = tuple(value)
    defaults = ExperienceSettings()
    target = None
    if f.has("target_turns"):
        value = f.get("target_turns")
        if (not isinstance(value, list) or len(value) != 2
                or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in value)
                or not 0 < value[0] <= value[1]):
            raise f.fail(f"must be [shortest, longest], two positive numbers in order, got {value!r}", "target_turns")
        target = (float(value[0]), float(value[1]))
    shares = {}
    for key in EXPERIENCE_KEYS[1:]:
        value = f.get(key, getattr(defaults, key))
        if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
            raise f.fail(f"must be a number from 0 to 1, got {value!r}", key)
        shares[key] = float(value)
    given = tuple(k for k in EXPERIENCE_KEYS if f.has(k))
    return ExperienceSettings(target_turns=target, given=given, authored=authored, **shares)


def _out_with_bots(out: str, bots_from: Path | None) -> str:
    """The default results folder of a scenario played with another file's bots: beside its own, not in it
    (``results/quick-with-priest-patch-bots``), so the scenario's own results are never refused or mixed."""
    return out if bots_from is None else f"{out.rstrip('/')}-with-{bots_from.stem}-bots"


def flat_keys(data: dict, prefix: str = "") -> dict[str, Any]:
    """Every value of merged scenario data by dotted key, in file order (tables opened, lists kept whole)."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            out.update(flat_keys(value, dotted + "."))
        else:
            out[dotted] = value
    return out


def base_of(path: str | Path) -> Path | None:
    """The file a scenario ``extends`` (resolved against its folder), or ``None`` for a base scenario.

    Raises:
        ScenarioError: the file cannot be read or is not TOML.
    """
    path = Path(path)
    try:
        parent = tomllib.loads(path.read_text(encoding="utf-8")).get("extends")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ScenarioError(f"{path}: cannot read: {exc}") from None
    return (path.parent / parent).resolve() if isinstance(parent, str) else None
