"""One game of Krypton Tower War: the :class:`simkit.games.Match` facade over the engine.

``to_act`` is the seat whose decision is owed: the side whose hero turn it is, the defending side in
an attack judgment's counter window, or the side of a hero that just died (its revival choice).
"""

from __future__ import annotations

from simkit.core.errors import IllegalAction
from simkit.games.krypton.tables import canonical_deck
from simkit.games.krypton.view import WINNERS, GameView


class Match:
    """A single game between two loadouts; the first loadout's side (seat 0) acts first.

    Args:
        scenario: a loaded Krypton scenario.
        first_deck, second_deck: loadout ids such as ``"Archer+Knight"``.
        seed: the game's seed (movement, attack and defence dice, the magic pile's shuffles).
    """

    def __init__(self, scenario, first_deck: str, second_deck: str, seed: int = 0):
        self.scenario = scenario
        self.rules = scenario.rules
        self.decks = (canonical_deck(self.rules, first_deck), canonical_deck(self.rules, second_deck))
        self.seed = int(seed)
        self.game = GameView(self.rules, self.decks, self.seed)
        self.actions: list[tuple] = []

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def to_act(self) -> int:
        """The seat whose decision is owed now (not always the side whose hero turn it is)."""
        return self.game.to_act

    @property
    def current(self) -> int:
        """The side whose hero turn it is."""
        return self.game.side

    @property
    def winner(self) -> str | None:
        return None if self.game.winner is None else WINNERS[self.game.winner]

    @property
    def end_reason(self) -> str | None:
        return self.game.end_reason

    def legal_actions(self) -> list[tuple]:
        """The decisions legal now for :attr:`to_act`."""
        return self.game.legal_actions()

    def do(self, action: tuple) -> None:
        """Make one decision (raises :class:`simkit.IllegalAction`, changing nothing, if illegal)."""
        if not isinstance(action, (tuple, list)) or not action:
            raise IllegalAction(f"{action!r} is not an action tuple")
        self.game.do(tuple(action))
        self.actions.append(tuple(action))

    def snapshot(self) -> dict:
        return self.game.snapshot()

    def clone(self) -> Match:
        """An independent copy of the game (state and actions): try an action on it, the game is untouched."""
        other = Match.__new__(Match)
        other.scenario, other.rules, other.decks, other.seed = self.scenario, self.rules, self.decks, self.seed
        other.game = self.game.copy()
        other.actions = list(self.actions)
        return other


