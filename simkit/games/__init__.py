"""The game interface: everything simkit's generic layers may ask of a game, and the registry.

A game is a sub-package ``simkit.games.<name>`` whose ``GAME`` attribute is a :class:`Game`: a
declaration of what only the game can say (name, title, result schema, the scenario tables it owns,
its optional capabilities). Everything else is found **by module convention** inside the package
(:data:`CONVENTIONS`): ``tables.py`` reads the scenario (``build_rules``, ``deck_pool``,
``canonical_deck``, ``deck_cards``, ``all_decks``, and, when the game has them, ``turn_limit``,
``seat_pools`` and ``seat_terms``), ``batch.py`` plays (``play_batch``, ``bot_names``, and ``counter_cards``
for a game that counts), ``match.py`` holds the single game (``Match``). A module is imported when first used, so
``simkit --help`` imports no engine. The generic layers (scenario, runner, sweep, analysis, report,
tune, testing, commands) reach a game only through this interface, never by importing it: a
scenario's ``game`` key names the sub-package, :func:`get_game` imports it and checks ``GAME`` at once.

A loaded scenario binds its game once: ``scenario.game`` is a :class:`Ruleset` (the game with the
scenario's rules, decks, bots, ``new_match``, ``play_batch``, its schema), so no hook re-passes the
scenario and a game writes no forwarders. ``replay`` is written once, here, for every game. What only
some games have (a text log, pictures, a report page of key turns, a rule check) are *capabilities*
named in :data:`CAPABILITIES`; the generic layers ask ``ruleset.capability(name)``, which is ``None``
when the game lacks it, and degrade gracefully.

The records a game returns from ``play_batch`` hold the core columns
(:data:`CORE_COLUMNS` less those the sweep adds) plus the game's declared per-side columns
(``first_<name>``, ``second_<name>`` for every name of :attr:`ResultSchema.side_columns`), and, for a game
that declares :attr:`ResultSchema.card_counters`, one column per seat, card and counter of what the engine
counted as it played (``first:creature:Archer:summoned``, see :func:`counter_column`), for every card of the
scenario (``batch.counter_cards``; 0 for a card the seat did not hold).
"""

from __future__ import annotations

import dataclasses
import functools
import importlib
import importlib.util
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from simkit.core.records import as_action
from simkit.core.seats import SEATS, WINNERS, SeatPools

if TYPE_CHECKING:
    from simkit.scenario import Scenario

__all__ = [
    "CAPABILITIES", "CONVENTIONS", "CORE_COLUMNS", "EXPERIENCE_COLUMNS", "GAME_COLUMNS", "SEATS", "WINNERS", "Game",
    "Match", "ResultSchema", "Ruleset", "counter_column", "game_names", "get_game", "parse_counter_column",
]


# Columns every game's play_batch returns, in this order (then the game's side columns).
GAME_COLUMNS = (
    "first_deck", "second_deck", "seed", "winner", "end_reason", "turns", "first_bot", "second_bot", "actions",
)
# Columns of a sweep's results: the game's columns plus what the sweep adds.
CORE_COLUMNS = ("first_deck", "second_deck", "game", "seed", "winner", "end_reason", "turns",
                "first_bot", "second_bot", "actions", "scenario_hash", "rules_version")
#: How a game played (one value per game, :mod:`simkit.games.kits.experience`), recorded by a game whose schema
#: declares ``experience``, after the game's columns and before its side columns.
EXPERIENCE_COLUMNS = ("lead_changes", "winner_deficit", "decided_turn", "decisions", "choices", "uncertainty")


def counter_column(seat: str, category: str, card: str, counter: str) -> str:
    """The result column of one seat's count of one card (``first:creature:Archer:summoned``)."""
    return f"{seat}:{category}:{card}:{counter}"


def parse_counter_column(name: str) -> tuple[str, str, str, str] | None:
    """``(seat, category, card, counter)`` of a :func:`counter_column` name, or ``None`` for any other column."""
    parts = str(name).split(":")
    if len(parts) != 4 or parts[0] not in SEATS or not all(parts):
        return None
    return parts[0], parts[1], parts[2], parts[3]


@dataclass(frozen=True)
class ResultSchema:
    """What a game's result records hold beyond the core columns, with words for the report.

    Attributes:
        end_reasons: every end reason code a game can record, in a fixed order, with the words a
            report uses for it (``{"miracle": "a miracle fell", "turn_limit": "turn limit reached"}``).
        cap_reason: the end reason that means "the game ran out of turns" (a report counts it as
            the share of games reaching the cap), or ``None``.
        side_columns: per-side numbers of a finished game, each recorded twice
            (``first_<name>``, ``second_<name>``), with their words (``{"miracle_hp": "miracle HP"}``).
        card_categories: the categories of cards a deck is made of, with their words, in the
            order a report shows them (``{"artifact": "artifact", "creature": "creature kind"}``);
            :meth:`Game.deck_cards` returns the cards of a deck by these categories.
        deck_words: what the game calls a deck in prose (``"deck"``, ``"loadout"``).
        turn_words: what one of the game's ``turns`` counts in prose (``"turn"``, ``"round"``).
        card_counters: what the engine counts per card as it plays, by card category (a category of
            :attr:`card_categories`, whose cards a deck holds, or one of its own, such as cards drawn from a
            shared pile), each counter with its words (``{"creature": {"summoned": "units summoned",
            "damage": "damage dealt"}}``); every count is per game and seat.
        experience: the game records :data:`EXPERIENCE_COLUMNS` (its lead signal and decisions as it plays).
        lock_reasons: end reasons that mean "the game could no longer be won" (a lock), beside ``cap_reason``.
    """

    end_reasons: Mapping[str, str]
    cap_reason: str | None = None
    side_columns: Mapping[str, str] = field(default_factory=dict)
    card_categories: Mapping[str, str] = field(default_factory=dict)
    deck_words: str = "deck"
    turn_words: str = "turn"
    card_counters: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    experience: bool = False
    lock_reasons: tuple[str, ...] = ()

    def columns(self) -> tuple[str, ...]:
        """The columns of one record of :meth:`Game.play_batch`, in order."""
        side = tuple(f"{seat}_{name}" for name in self.side_columns for seat in SEATS)
        return GAME_COLUMNS + (EXPERIENCE_COLUMNS if self.experience else ()) + side

    def as_meta(self) -> dict:
        """The schema as plain values (kept in a sweep's ``meta.json``)."""
        return {
            "end_reasons": dict(self.end_reasons), "cap_reason": self.cap_reason,
            "side_columns": dict(self.side_columns), "card_categories": dict(self.card_categories),
            "deck_words": self.deck_words, "turn_words": self.turn_words,
            "card_counters": {k: dict(v) for k, v in self.card_counters.items()},
            "experience": self.experience, "lock_reasons": list(self.lock_reasons),
        }

    @classmethod
    def from_meta(cls, meta: Mapping) -> ResultSchema:
        """The schema a results folder recorded (see :meth:`as_meta`)."""
        return cls(
            end_reasons=dict(meta["end_reasons"]), cap_reason=meta.get("cap_reason"),
            side_columns=dict(meta.get("side_columns", {})), card_categories=dict(meta.get("card_categories", {})),
            deck_words=meta.get("deck_words", "deck"), turn_words=meta.get("turn_words", "turn"),
            card_counters={k: dict(v) for k, v in meta.get("card_counters", {}).items()},
            experience=bool(meta.get("experience", False)), lock_reasons=tuple(meta.get("lock_reasons", ())),
        )


class Match(Protocol):
    """One game between two decks: the one Python face of a game's state.

    Tests, scripted situations, replays, ``narrate``, the pictures, ``simkit check``, ``api_test`` and the
    Python side of a search bot all use it. ``to_act`` is the seat (0 first, 1 second) whose decision is
    owed now; it may differ from the side whose turn it is when a game gives the other side a choice (a
    counter window, a revival). An illegal action raises :class:`simkit.IllegalAction` naming the reason
    and leaves the game unchanged. ``actions`` lists every action done, so ``replay`` rebuilds the game
    from it; ``clone()`` is an independent copy (state and actions) to try an action on.
    """

    decks: tuple[str, str]
    seed: int
    actions: list[tuple]

    @property
    def over(self) -> bool: ...

    @property
    def to_act(self) -> int: ...

    @property
    def winner(self) -> str | None: ...

    def legal_actions(self) -> list[tuple]: ...

    def do(self, action: tuple) -> None: ...

    def snapshot(self) -> dict: ...

    def clone(self) -> Match: ...


#: A hook: the game's function itself, or ``"module:attribute"`` of the game's package (imported when
#: first used; ``"narrate:narrate"`` is ``simkit.games.<name>.narrate.narrate``).
Hook = str | Callable

#: The functions found by convention in a game's package: hook -> (module, attribute, required). Each is
#: called with the scenario's rules (``tables``) or the scenario (``batch``, ``match``) first, bound by
#: :class:`Ruleset`:
#:
#: - ``build_rules(top: Field) -> rules``: validate the game's tables and build its fixed rule tables;
#:   raises :class:`ScenarioError` (``file: key: problem``) for the first thing wrong;
#: - ``deck_pool(rules, top) -> Sequence[str]``: the scenario's deck pool, canonical ids, fixed order;
#: - ``canonical_deck(rules, deck) -> str``: the canonical id of a legal deck (an illegal one raises
#:   :class:`ScenarioError` naming it);
#: - ``deck_cards(rules, deck) -> {category: cards}``: the cards of a deck by
#:   :attr:`ResultSchema.card_categories`;
#: - ``all_decks(rules) -> list[str]``: every legal deck of the scenario's cards;
#: - ``turn_limit(rules) -> int`` (optional; absent: unbounded): the last turn a game can reach;
#: - ``seat_pools(rules, decks) -> (first_seat_decks, second_seat_decks)`` (optional; absent: every deck
#:   sits in either seat): for a game whose seats differ (Magic War: 12 and 13 gold), in pool order; a game
#:   that has it chooses each seat's deck knowing the seat, even when the pools come out equal
#:   (:attr:`Ruleset.own_seat_pools`);
#: - ``play_batch(scenario, first_decks, second_decks, seeds, bots, record_actions=False)``: one game per
#:   (first deck, second deck, seed) to its end between ``bots``; returns the columns of
#:   :meth:`Ruleset.columns` (one value per game), plus ``action_list`` (each game's actions as
#:   :class:`Match` tuples) when ``record_actions``. A game's record depends only on the scenario, its
#:   decks, the bots and its seed, never on the batch;
#: - ``bot_names(scenario) -> tuple[str, ...]``: the bots the scenario defines;
#: - ``counter_cards(rules) -> {category: cards}`` (optional; absent: the game counts nothing): every card of
#:   the scenario by the categories of :attr:`ResultSchema.card_counters`;
#: - ``Match(scenario, first_deck, second_deck, seed=0)``: a single game (:class:`Match`); the first deck
#:   moves first;
#: - ``observe(match, seat) -> dict`` (optional, with the next two: the game plays outside bots,
#:   ``docs/outside-bots.md``): what ``seat`` sees of the game now, as its own bots see it (hidden cards and random
#:   streams left out), in plain values;
#: - ``inside_player(scenario, name, seat, seed) -> (match -> action)``: the scenario's bot ``name`` deciding one
#:   action at a time for ``seat`` of a :class:`Match` (its randomness from ``seed``), facing an outside bot;
#: - ``match_record(match) -> dict``: ``winner``, ``end_reason``, ``turns``, the side columns and the counter
#:   columns of a match as it stands (a finished game, or one a bot forfeited);
#: - ``PROTOCOLS`` (optional, in ``outside.py``): ``{name: seat class}``, the protocols other than simkit's own an
#:   outside bot may speak to this game (Battle of Miracles: ``"sdk"``, its original server's); a seat class is
#:   built as ``cls(bot, seat, scenario)`` and plays as :class:`simkit.outside.play.ProtocolSeat` says.
CONVENTIONS: dict[str, tuple[str, str, bool]] = {
    "build_rules": ("tables", "build_rules", True),
    "deck_pool": ("tables", "deck_pool", True),
    "canonical_deck": ("tables", "canonical_deck", True),
    "deck_cards": ("tables", "deck_cards", True),
    "all_decks": ("tables", "all_decks", True),
    "turn_limit": ("tables", "turn_limit", False),
    "seat_pools": ("tables", "seat_pools", False),
    "seat_terms": ("tables", "seat_terms", False),
    "play_batch": ("batch", "play_batch", True),
    "bot_names": ("batch", "bot_names", True),
    "counter_cards": ("batch", "counter_cards", False),
    "new_match": ("match", "Match", True),
    "observe": ("outside", "observe", False),
    "inside_player": ("outside", "inside_player", False),
    "match_record": ("outside", "match_record", False),
    "protocols": ("outside", "PROTOCOLS", False),
}

#: The optional capabilities a game may declare, with what each is called with (the scenario comes
#: first, bound by :class:`Ruleset`, and is not listed) and what it returns.
CAPABILITIES: dict[str, str] = {
    "narrate": "(first_deck, second_deck, actions, bots=('?', '?'), seed=0) -> list[str]: a text log of a game",
    "draw": "(first_deck, second_deck, actions, out_path, per='turn', seed=None, **options) -> int: a game drawn "
            "to a file whose suffix is one of Game.picture_suffixes; returns the frames drawn",
    "key_turns": "(first_deck, second_deck, actions, seed=0, count=3) -> Figure: the report's game page",
    "check": "() -> object with run_check(examples=None, seed=0, profile='thorough', variants=True, "
             "out_dir=..., on_example=None, **options) and replay_file(case_path), each returning a report "
             "(passed, format()): what `simkit check` runs. A game whose check is its invariants over played "
             "games subclasses simkit.testing.rule_check.InvariantCheck and declares names and "
             "invariants(before, action, after) (optionally its rule examples' words: example_match, "
             "example_values)",
    "search": "() -> object: the search bot's hooks in Python (the compiled search: simkit.games.kits.turn_search)",
    "compile_parts": "(bots) -> [() -> None]: parts of the compiled engine a sweep of these bots (first, second) "
                     "compiles that share no kernel, each compiled (or loaded from numba's cache) by calling it: "
                     "simkit compiles them side by side, one process per core, before the first game "
                     "(simkit.sweep.execute.warm_up)",
    "deck_counts": "(deck) -> {card: (copies, cost)}: a bought deck's cards with their copies and price (the "
                   "report's unit pages: simkit.report.unit_pages)",
    "original_replay": "(path) -> (row, findings): a replay file of the game's original server replayed action by "
                       "action through the Match: the game as one result row (the record's columns, ``source`` and "
                       "``seed``) and one line for every action the engine refused or state that differed (file, "
                       "round, action, what differs): what `simkit import-games` reads beside CSV files",
}


def _resolve(hook: Hook, package: str) -> Callable:
    """The callable a hook names (``"module:attribute"`` of ``package`` is imported now)."""
    if callable(hook):
        return hook
    module, _, attribute = hook.partition(":")
    return functools.reduce(getattr, attribute.split("."), importlib.import_module(f"{package}.{module}"))


@dataclass(frozen=True, eq=False)
class Game:
    """A game simkit can simulate, declared once in ``simkit/games/<name>/game.py`` as ``GAME``.

    What the generic layers call is found by convention in the game's package (:data:`CONVENTIONS`:
    ``tables.py``, ``batch.py``, ``match.py``); the declaration holds only what no module can say.

    Attributes:
        name: the scenario's ``game`` key (the sub-package name).
        title: the game's name in prose.
        schema: its :class:`ResultSchema`.
        tables: the top-level scenario keys the game owns and validates; any other key but the
            core's (``game``, ``name``, ``description``, ``rules_version``, ``sweep``; ``extends``
            is resolved before) is refused at load, naming the key.
        capabilities: the optional hooks the game has, by the names of :data:`CAPABILITIES`, each
            ``"module:function"`` of the game's package.
        picture_suffixes: the file suffixes the ``draw`` capability writes (``()``: none).
        package: the game's package (default ``simkit.games.<name>``; set by :func:`register` for a game
            outside simkit).
    """

    name: str
    title: str
    schema: ResultSchema
    tables: tuple[str, ...]
    capabilities: Mapping[str, Hook] = field(default_factory=dict)
    picture_suffixes: tuple[str, ...] = ()
    package: str = ""

    def __post_init__(self):
        if not self.package:
            object.__setattr__(self, "package", f"{__name__}.{self.name}")
        unknown = sorted(set(self.capabilities) - set(CAPABILITIES))
        if unknown:
            raise LookupError(f"game {self.name!r}: unknown capabilities {unknown} (known: {', '.join(CAPABILITIES)})")
        if self.picture_suffixes and "draw" not in self.capabilities:
            raise LookupError(f"game {self.name!r}: picture_suffixes without a draw capability")

    def has(self, name: str) -> bool:
        """True when the game's package provides the conventional hook ``name`` (imports its module)."""
        module, attribute, _ = CONVENTIONS[name]
        if importlib.util.find_spec(f"{self.package}.{module}") is None:  # an optional module the game lacks
            return False
        return hasattr(importlib.import_module(f"{self.package}.{module}"), attribute)

    def hook(self, name: str) -> Callable:
        """The game's function for the conventional hook ``name`` (:data:`CONVENTIONS`), imported on first use.

        Raises:
            LookupError: the package lacks it (naming the module and the function).
        """
        module, attribute, _ = CONVENTIONS[name]
        found = getattr(importlib.import_module(f"{self.package}.{module}"), attribute, None)
        if found is None:
            raise LookupError(f"{self.package}.{module} has no {attribute} (the game's {name} hook)")
        return found

    def load(self, scenario: Scenario) -> Ruleset:
        """This game bound to ``scenario`` (what ``scenario.game`` is)."""
        return Ruleset(self, scenario)


class Ruleset:
    """A game bound to one loaded scenario: what every generic layer asks of a game, the scenario given once.

    Each method calls the game's conventional function (:data:`CONVENTIONS`) with the scenario's rules (or
    the scenario) first.

    Attributes:
        spec: the :class:`Game` declaration.
        scenario: the scenario it is bound to.
        rules: the scenario's rule tables (the game's own type).
        decks: the scenario's deck pool.
        name, title, schema, picture_suffixes: the declaration's.
    """

    def __init__(self, spec: Game, scenario: Scenario):
        self.spec, self.scenario = spec, scenario
        self.name, self.title, self.schema = spec.name, spec.title, spec.schema
        self.picture_suffixes = spec.picture_suffixes

    def __repr__(self) -> str:
        return f"<{self.title} ruleset of {self.scenario.path.name}>"

    @property
    def rules(self) -> Any:
        return self.scenario.rules

    @property
    def decks(self) -> tuple[str, ...]:
        return self.scenario.decks

    def canonical_deck(self, deck: str) -> str:
        """The canonical id of ``deck``; raises :class:`ScenarioError` naming an illegal deck."""
        return self.spec.hook("canonical_deck")(self.rules, deck)

    def deck_cards(self, deck: str) -> Mapping[str, tuple[str, ...]]:
        """The cards of ``deck`` by :attr:`ResultSchema.card_categories`."""
        return self.spec.hook("deck_cards")(self.rules, deck)

    def all_decks(self) -> list[str]:
        """Every legal deck of the scenario's cards."""
        return list(self.spec.hook("all_decks")(self.rules))

    def seat_decks(self, decks: Sequence[str] | None = None) -> SeatPools:
        """The :class:`~simkit.core.seats.SeatPools` of ``decks`` (default: the scenario's pool): the decks that
        may sit first and second, each in pool order (unpacks as ``first, second``).

        Both are all of ``decks`` unless the game's ``tables.py`` has ``seat_pools``."""
        decks = tuple(self.decks if decks is None else decks)
        if not self.spec.has("seat_pools"):
            return SeatPools.alike(decks)
        first, second = self.spec.hook("seat_pools")(self.rules, decks)
        return SeatPools(tuple(first), tuple(second))

    @property
    def own_seat_pools(self) -> bool:
        """Whether each seat has its own pool (the game's ``tables.py`` has ``seat_pools``: Magic War's players buy
        their armies with their own seat's gold): each player then chooses a deck knowing their seat, so a
        deck-choice game has two sides, ``first`` and ``second``, even when a scenario makes the two pools equal
        (Magic War at ``budgets = [13, 13]``: the first player still moves first). Else a deck is chosen before
        its seat is known and plays either (the pools are always equal)."""
        return self.spec.has("seat_pools")

    def seat_terms(self) -> tuple[str, str] | None:
        """What each seat is given, in words, when the seats differ by more than who moves first (the game's
        ``tables.seat_terms(rules)``, Magic War's ``("12 gold", "13 gold")``: the report names them beside the
        first seat's edge), else ``None``."""
        if not self.spec.has("seat_terms"):
            return None
        first, second = self.spec.hook("seat_terms")(self.rules)
        return str(first), str(second)

    def counter_cards(self) -> dict[str, tuple[str, ...]]:
        """Every card the engine counts, by the categories of :attr:`ResultSchema.card_counters` (empty: none)."""
        if not self.spec.has("counter_cards"):
            return {}
        return {k: tuple(v) for k, v in self.spec.hook("counter_cards")(self.rules).items()}

    def counter_columns(self) -> tuple[str, ...]:
        """The counter columns of this scenario's records: per seat, category, card and counter."""
        cards = self.counter_cards()
        return tuple(counter_column(seat, category, card, counter) for seat in SEATS
                     for category, counters in self.schema.card_counters.items()
                     for card in cards.get(category, ()) for counter in counters)

    def columns(self) -> tuple[str, ...]:
        """The columns of one record of :meth:`play_batch`: the schema's, then the counter columns."""
        return self.schema.columns() + self.counter_columns()

    def bot_names(self) -> tuple[str, ...]:
        """The bots the scenario defines (``random`` and its personalities), then its outside bots (programs:
        :func:`simkit.outside.outside_bots`, the scenario's and those given on the command line).

        Raises:
            ValueError: a bot given on the command line (``--bot NAME=...``) has the name of one of the game's.
        """
        from simkit.outside.bots import outside_bots

        own = tuple(self.spec.hook("bot_names")(self.scenario))
        outside = outside_bots(self.scenario)
        twice = [n for n in outside if n in own]
        if twice:
            raise ValueError(f"--bot {twice[0]}=...: {self.scenario.path} already has a bot {twice[0]!r}; give the "
                             "outside bot another name")
        return own + tuple(outside)

    @property
    def turn_limit(self) -> int | None:
        """The last turn a game can reach, or ``None`` if unbounded."""
        return int(self.spec.hook("turn_limit")(self.rules)) if self.spec.has("turn_limit") else None

    def play_batch(self, first_decks: Sequence[str], second_decks: Sequence[str], seeds: Sequence[int],
                   bots: Sequence[str], record_actions: bool = False) -> Mapping[str, Sequence]:
        """Play one game per (first deck, second deck, seed) to its end (see :data:`CONVENTIONS`); a game with an
        outside bot in a seat is played decision by decision through the :class:`Match`
        (:func:`simkit.outside.play.play_batch`: its records add ``forfeit_seat`` and ``forfeit_reason``)."""
        from simkit.outside.bots import outside_bots

        if any(b in outside_bots(self.scenario) for b in bots):
            from simkit.outside.play import play_batch

            return play_batch(self.scenario, first_decks, second_decks, seeds, bots, record_actions=record_actions)
        return self.spec.hook("play_batch")(self.scenario, first_decks, second_decks, seeds, bots,
                                            record_actions=record_actions)

    def new_match(self, first_deck: str, second_deck: str, seed: int = 0) -> Match:
        """A single game between two decks; the first deck moves first."""
        return self.spec.hook("new_match")(self.scenario, first_deck, second_deck, seed=seed)

    def replay(self, first_deck: str, second_deck: str, actions: Iterable[Sequence], seed: int = 0) -> Match:
        """The game rebuilt by doing ``actions`` in order (tuples, or the lists a JSON record holds).

        Raises:
            IllegalAction: naming the first illegal action and its index.
        """
        from simkit.core.errors import IllegalAction

        match = self.new_match(first_deck, second_deck, seed=seed)
        for i, action in enumerate(actions):
            action = as_action(action)
            try:
                match.do(action)
            except IllegalAction as exc:
                raise IllegalAction(f"action {i} {action!r}: {exc}") from None
        return match

    def capability(self, name: str) -> Callable | Any | None:
        """The game's capability ``name`` (one of :data:`CAPABILITIES`) bound to the scenario, or ``None``.

        ``narrate``, ``draw`` and ``key_turns`` come back as functions without the scenario argument;
        ``check`` and ``search`` as the objects the game builds for this scenario.

        Raises:
            KeyError: ``name`` is not a capability simkit knows.
        """
        if name not in CAPABILITIES:
            raise KeyError(f"unknown capability {name!r} (known: {', '.join(CAPABILITIES)})")
        hook = self.spec.capabilities.get(name)
        if hook is None:
            return None
        fn = _resolve(hook, self.spec.package)
        if name in ("check", "search"):
            return fn(self.scenario)
        return functools.partial(fn, self.scenario)


def game_names(private: bool = False) -> tuple[str, ...]:
    """The games simkit ships, by their scenario ``game`` key (``_template`` and other private folders aside;
    ``private=True`` lists those too: a scenario may load them by name, but they are not shipped games)."""
    import pkgutil

    here = importlib.import_module(__name__)
    return tuple(sorted(m.name for m in pkgutil.iter_modules(here.__path__) if m.ispkg and m.name != "kits"
                        and (private or not m.name.startswith("_"))))


_games: dict[str, Game] = {}


def get_game(name: str) -> Game:
    """The game registered as ``name`` (its sub-package's ``GAME``), checked.

    Raises:
        LookupError: no such game, or its package has no proper ``GAME`` (the message says which
            module or attribute is missing).
    """
    if name in _games:
        return _games[name]
    if not isinstance(name, str) or not name.isidentifier() or name not in game_names(private=True):
        raise LookupError(f"unknown game {name!r} (simkit has: {', '.join(game_names())})")
    return register(importlib.import_module(f"{__name__}.{name}"), name)


def register(module, name: str | None = None) -> Game:
    """Check the ``GAME`` of a game's package and register it (also for a game outside ``simkit.games``).

    The package must hold the modules of :data:`CONVENTIONS` (``tables.py``, ``batch.py``, ``match.py``);
    they are found here, not imported.

    Raises:
        LookupError: naming what ``GAME`` or the package lacks.
    """
    import importlib.util

    game = getattr(module, "GAME", None)
    where = module.__name__
    if not isinstance(game, Game):
        raise LookupError(f"{where}: GAME must be a simkit.games.Game, got {game!r}")
    if game.package != where:
        game = dataclasses.replace(game, package=where)
    missing = [a for a in ("name", "title") if not getattr(game, a, None)]
    if not isinstance(getattr(game, "schema", None), ResultSchema):
        missing.append("schema")
    if missing:
        raise LookupError(f"{where}: GAME lacks {', '.join(missing)}")
    for module_name in sorted({m for m, _, required in CONVENTIONS.values() if required}):
        if importlib.util.find_spec(f"{where}.{module_name}") is None:
            hooks = ", ".join(a for m, a, _ in CONVENTIONS.values() if m == module_name)
            raise LookupError(f"{where}: no {module_name}.py (a game's package holds {hooks} there)")
    if name is not None and game.name != name:
        raise LookupError(f"{where}: GAME.name is {game.name!r}, expected {name!r}")
    if not game.schema.end_reasons:
        raise LookupError(f"{where}: GAME.schema declares no end reasons")
    _games[game.name] = game
    return game
