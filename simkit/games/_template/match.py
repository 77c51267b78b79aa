"""One template game behind the :class:`simkit.games.Match` facade: tests, replays, ``api_test``.

Actions are tuples naming cards: ``("play", "Spark")`` and ``("end",)``. An illegal action raises
:class:`simkit.IllegalAction` naming the reason and changes nothing. The rules are :mod:`.engine`'s.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simkit.core.errors import IllegalAction
from simkit.games import WINNERS
from simkit.games._template import engine as E
from simkit.games._template.batch import END_REASONS, action_tuple, game_rolls
from simkit.games._template.tables import canonical_deck, deck_list


class Match:
    """A single game; seat 0 (``first_deck``) moves first.

    Args:
        scenario: a loaded template scenario.
        first_deck, second_deck: deck ids.
        seed: the game's seed (its damage rolls come from ``derive_seed(seed, "rolls")``).
    """

    def __init__(self, scenario, first_deck: str, second_deck: str, seed: int = 0):
        self.rules = rules = scenario.rules
        self.decks = (canonical_deck(rules, first_deck), canonical_deck(rules, second_deck))
        self.seed = int(seed)
        self.lists = (deck_list(rules, self.decks[0]), deck_list(rules, self.decks[1]))
        self.rolls = game_rolls(rules, [self.seed])[0]
        self.actions: list[tuple] = []
        self.state = np.zeros(E.STATE_SIZE, np.int64)
        E.setup(self.state, self.lists[0], self.lists[1], rules.settings, rules.cards)

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return int(self.state[E.G_WINNER]) != E.NO_WINNER

    @property
    def to_act(self) -> int:
        """The seat whose turn it is."""
        return int(self.state[E.G_CUR])

    @property
    def winner(self) -> str | None:
        """``"first"``, ``"second"``, ``"draw"``, or ``None`` while the game goes on."""
        return None if not self.over else WINNERS[int(self.state[E.G_WINNER])]

    @property
    def turn(self) -> int:
        """The turn number (seat 0 plays the odd turns)."""
        return int(self.state[E.G_TURN])

    def hp(self, seat: int) -> int:
        """The HP of ``seat``."""
        return int(self.state[E.base(seat) + E.P_HP])

    def encode(self, action: Any) -> tuple[int, int]:
        """The engine's ``(kind, x)`` of an action tuple (raises :class:`IllegalAction` if malformed)."""
        if action == ("end",):
            return E.K_END, 0
        if not (isinstance(action, tuple) and len(action) == 2 and action[0] == "play"):
            raise IllegalAction(f"unknown action {action!r} (actions: ('play', card), ('end',))")
        names = [self.rules.names[int(c)] for c in self.lists[self.to_act]]
        if action[1] not in names:
            raise IllegalAction(f"{action!r}: the {WINNERS[self.to_act]} player's deck has no card {action[1]!r}")
        return E.K_PLAY, names.index(action[1])

    def do(self, action: Any) -> None:
        """Do ``action`` for the seat to act.

        Raises:
            IllegalAction: naming the reason; the game is unchanged.
        """
        k, x = self.encode(action)
        r = E.check(self.state, k, x, self.rules.settings, self.rules.cards)
        if r != E.R_OK:
            raise IllegalAction(f"{action!r}: {E.REASONS[r]}")
        self.actions.append(action_tuple(self.rules, self.lists[self.to_act], k, x))
        E.step(self.state, k, x, self.rules.settings, self.rules.cards, self.rolls)

    def legal_actions(self) -> list[tuple]:
        """Every legal action of the seat to act, in the engine's order (cards by slot, ``end`` last)."""
        out = np.zeros((E.MAX_LEGAL, 2), np.int64)
        n = E.legal(self.state, out, self.rules.settings, self.rules.cards)
        return [action_tuple(self.rules, self.lists[self.to_act], int(k), int(x)) for k, x in out[:n]]

    def clone(self) -> Match:
        """An independent copy of the game (state and actions): try an action on it, the game is untouched."""
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        other.state = self.state.copy()
        other.actions = list(self.actions)
        return other

    def snapshot(self) -> dict:
        """The whole game as plain Python values: each player's HP, energy and cards' uses left."""
        s = self.state
        players = []
        for p in range(2):
            b = E.base(p)
            uses = {self.rules.names[int(c)]: int(s[b + E.P_USES + i]) for i, c in enumerate(self.lists[p])}
            players.append({"deck": self.decks[p], "hp": int(s[b + E.P_HP]), "energy": int(s[b + E.P_ENERGY]),
                            "uses": uses})
        return {"decks": list(self.decks), "seed": self.seed, "turn": self.turn, "to_act": self.to_act,
                "winner": self.winner, "end_reason": None if not self.over else END_REASONS[int(s[E.G_REASON])],
                "rolls_used": int(s[E.G_ROLL]), "players": players}
