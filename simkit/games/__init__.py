"""The game interface: everything simkit's generic layers may ask of a game, and the registry.

A game is a sub-package ``simkit.games.<name>`` whose ``GAME`` attribute is an instance of a
:class:`Game` subclass. The generic layers (scenario, runner, sweep, analysis, report, compare,
testing, commands) reach a game only through this interface, never by importing it: a scenario's
``game`` key names the sub-package, :func:`get_game` imports it and checks ``GAME`` at once, so a
missing hook is named when the scenario loads, not deep inside a worker.

Required hooks are abstract methods (a subclass that lacks one cannot be instantiated, and the
error names it); optional hooks have a default that says the game lacks them (``None`` or
``False``), and every caller degrades gracefully.

The records a game returns from :meth:`Game.play_batch` hold the core columns
(:data:`CORE_COLUMNS` less those the sweep adds) plus the game's declared per-side columns
(``first_<name>``, ``second_<name>`` for every name of :attr:`ResultSchema.side_columns`).
"""

from __future__ import annotations

import importlib
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from simkit.scenario import Field, Scenario

__all__ = [
    "CORE_COLUMNS", "GAME_COLUMNS", "SEATS", "WINNERS", "Game", "Match", "ResultSchema", "game_names", "get_game",
]

SEATS = ("first", "second")
WINNERS = ("first", "second", "draw")

# Columns every game's play_batch returns, in this order (then the game's side columns).
GAME_COLUMNS = (
    "first_deck", "second_deck", "seed", "winner", "end_reason", "turns", "first_bot", "second_bot", "actions",
)
# Columns of a sweep's results: the game's columns plus what the sweep adds.
CORE_COLUMNS = ("first_deck", "second_deck", "game", "seed", "winner", "end_reason", "turns",
                "first_bot", "second_bot", "actions", "scenario_hash", "rules_version")


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
    """

    end_reasons: Mapping[str, str]
    cap_reason: str | None = None
    side_columns: Mapping[str, str] = field(default_factory=dict)
    card_categories: Mapping[str, str] = field(default_factory=dict)
    deck_words: str = "deck"
    turn_words: str = "turn"

    def columns(self) -> tuple[str, ...]:
        """The columns of one record of :meth:`Game.play_batch`, in order."""
        side = tuple(f"{seat}_{name}" for name in self.side_columns for seat in SEATS)
        return GAME_COLUMNS + side

    def as_meta(self) -> dict:
        """The schema as plain values (kept in a sweep's ``meta.json``)."""
        return {
            "end_reasons": dict(self.end_reasons), "cap_reason": self.cap_reason,
            "side_columns": dict(self.side_columns), "card_categories": dict(self.card_categories),
            "deck_words": self.deck_words, "turn_words": self.turn_words,
        }

    @classmethod
    def from_meta(cls, meta: Mapping) -> ResultSchema:
        """The schema a results folder recorded (see :meth:`as_meta`)."""
        return cls(
            end_reasons=dict(meta["end_reasons"]), cap_reason=meta.get("cap_reason"),
            side_columns=dict(meta.get("side_columns", {})), card_categories=dict(meta.get("card_categories", {})),
            deck_words=meta.get("deck_words", "deck"), turn_words=meta.get("turn_words", "turn"),
        )


class Match(Protocol):
    """One game between two decks, for tests, scripted situations, replays and ``api_test``.

    ``to_act`` is the seat (0 first, 1 second) whose decision is owed now; it may differ from the
    side whose turn it is when a game gives the other side a choice (a counter window, a revival).
    An illegal action raises :class:`simkit.IllegalAction` naming the reason and leaves the game
    unchanged. ``actions`` lists every action done, so ``replay`` rebuilds the game from it.
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


class Game(ABC):
    """A game simkit can simulate. Subclass it in ``simkit/games/<name>/`` and set ``GAME``.

    Class attributes:
        name: the scenario's ``game`` key (the sub-package name).
        title: the game's name in prose.
        schema: its :class:`ResultSchema`.
        tables: the top-level scenario keys the game owns and validates; any other key but the
            core's (``game``, ``name``, ``description``, ``rules_version``, ``sweep``; ``extends``
            is resolved before) is refused at load, naming the key.
    """

    name: str = ""
    title: str = ""
    schema: ResultSchema
    tables: tuple[str, ...] = ()

    # -- scenario ------------------------------------------------------------------------------

    @abstractmethod
    def build_rules(self, top: Field) -> Any:
        """Validate the game's tables of the merged scenario and build its fixed rule tables.

        Raises:
            ScenarioError: ``file: key: problem`` for the first thing wrong (unknown keys included).
        """

    @abstractmethod
    def deck_pool(self, rules: Any, top: Field) -> Sequence[str]:
        """The scenario's deck pool: canonical deck ids in a fixed order."""

    @abstractmethod
    def canonical_deck(self, rules: Any, deck: str) -> str:
        """The canonical id of a legal deck; raises :class:`ScenarioError` naming an illegal one."""

    @abstractmethod
    def deck_cards(self, rules: Any, deck: str) -> Mapping[str, tuple[str, ...]]:
        """The cards of ``deck`` by :attr:`ResultSchema.card_categories` (each a tuple of names)."""

    @abstractmethod
    def bot_names(self, scenario: Scenario) -> tuple[str, ...]:
        """The bots the scenario defines (``random`` and its personalities)."""

    # -- playing ---------------------------------------------------------------------------------

    @abstractmethod
    def play_batch(
        self,
        scenario: Scenario,
        first_decks: Sequence[str],
        second_decks: Sequence[str],
        seeds: Sequence[int],
        bots: Sequence[str],
        record_actions: bool = False,
    ) -> Mapping[str, Sequence]:
        """Play one game per (first deck, second deck, seed) to its end between ``bots``.

        Returns:
            Columns of :meth:`ResultSchema.columns` (one value per game), plus ``action_list``
            (each game's actions as :class:`Match` tuples) when ``record_actions``. A game's record
            depends only on the scenario, its decks, the bots and its seed, never on the batch.
        """

    @abstractmethod
    def new_match(self, scenario: Scenario, first_deck: str, second_deck: str, seed: int = 0) -> Match:
        """A single game; the first deck moves first."""

    @abstractmethod
    def replay(self, scenario: Scenario, first_deck: str, second_deck: str, actions: Iterable[tuple],
               seed: int = 0) -> Match:
        """The game rebuilt from its actions (raises :class:`simkit.IllegalAction` on an illegal one)."""

    # -- optional hooks ----------------------------------------------------------------------------

    def turn_limit(self, rules: Any) -> int | None:
        """The last turn a game can reach (its ``turns`` never exceed it), or ``None`` if unbounded."""
        return None

    def narrate(self, scenario: Scenario, first_deck: str, second_deck: str, actions: Iterable[tuple],
                bots: Sequence[str] = ("?", "?"), seed: int = 0) -> list[str] | None:
        """A readable text log of a game, one line per event (``None``: the game has none)."""
        return None

    def key_turns_figure(self, *args, **kwargs) -> Any:
        """The report's game page: a figure of a game at key turns (``None``: the game has none)."""
        return None

    #: Picture kinds :meth:`render_game` writes, by file suffix (``()``: the game draws no pictures).
    picture_suffixes: tuple[str, ...] = ()

    def render_game(self, scenario: Scenario, first_deck: str, second_deck: str, actions: Iterable[tuple],
                    out_path: str, per: str = "turn", seed: int | None = None, **options) -> int:
        """Draw a game to ``out_path`` (a suffix of :attr:`picture_suffixes`); returns the frames drawn.

        ``per`` is ``"turn"`` or ``"action"`` (what one frame stands for); ``options`` may hold
        ``fps``, ``max_frames``, ``coordinates`` and ``progress`` (wraps the frame iterator).
        """
        raise NotImplementedError(f"{self.title} draws no pictures")

    def check_spec(self, scenario: Scenario) -> Any:
        """What ``simkit check`` and :mod:`simkit.testing` need of the game (``None``: not provided)."""
        return None

    def search_hooks(self, scenario: Scenario) -> Any:
        """The hooks of the search bot (state copy, legal actions, step, end, value), or ``None``."""
        return None


def game_names() -> tuple[str, ...]:
    """The games simkit ships, by their scenario ``game`` key."""
    import pkgutil

    here = importlib.import_module(__name__)
    return tuple(sorted(m.name for m in pkgutil.iter_modules(here.__path__) if m.ispkg))


_games: dict[str, Game] = {}


def get_game(name: str) -> Game:
    """The game registered as ``name`` (its sub-package's ``GAME``), checked.

    Raises:
        LookupError: no such game, or its package has no proper ``GAME`` (the message says which hook
            or attribute is missing).
    """
    if name in _games:
        return _games[name]
    if not isinstance(name, str) or not name.isidentifier() or name not in game_names():
        raise LookupError(f"unknown game {name!r} (simkit has: {', '.join(game_names())})")
    module = importlib.import_module(f"{__name__}.{name}")
    game = getattr(module, "GAME", None)
    if not isinstance(game, Game):
        raise LookupError(f"simkit.games.{name}: GAME must be an instance of simkit.games.Game, got {game!r}")
    missing = [a for a in ("name", "title") if not getattr(game, a, "")]
    if not isinstance(getattr(game, "schema", None), ResultSchema):
        missing.append("schema")
    if missing:
        raise LookupError(f"simkit.games.{name}: GAME lacks {', '.join(missing)}")
    if game.name != name:
        raise LookupError(f"simkit.games.{name}: GAME.name is {game.name!r}, expected {name!r}")
    if not game.schema.end_reasons:
        raise LookupError(f"simkit.games.{name}: GAME.schema declares no end reasons")
    _games[name] = game
    return game
