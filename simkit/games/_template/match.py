"""One template game behind the :class:`simkit.games.Match` facade: tests, replays, ``api_test``.

Actions are tuples naming cards: ``("play", "Spark")`` and ``("end",)``. An illegal action raises
:class:`simkit.IllegalAction` naming the reason and changes nothing. The rules are :mod:`.engine`'s; the
state is :mod:`.state`'s declaration, and what the generic layers read of it (``over``, ``to_act``,
``winner``, ``end_reason``, :meth:`Match.snapshot`) comes from that declaration through
:mod:`simkit.games.kits.state`, not from code here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simkit.core.errors import IllegalAction
from simkit.games import WINNERS
from simkit.games._template import bots as B
from simkit.games._template import engine as E
from simkit.games._template import lead as L
from simkit.games._template.batch import action_tuple, game_rolls
from simkit.games._template.state import DRAW, END_REASONS, K_END, K_PLAY, MAX_LEGAL, R_OK, REASONS, STATE
from simkit.games._template.tables import canonical_deck, deck_list
from simkit.games.kits import experience as X
from simkit.games.kits.experience import EXPERIENCE, FIGURES, experience_columns
from simkit.games.kits.state import DeclaredMatch, copy, snapshot, zeros
from simkit.scenario import experience_settings


class Match(DeclaredMatch):
    """A single game; seat 0 (``first_deck``) moves first.

    Args:
        scenario: a loaded template scenario.
        first_deck, second_deck: deck ids.
        seed: the game's seed (its damage rolls come from ``derive_seed(seed, "rolls")``).
    """

    END_REASONS = END_REASONS

    def __init__(self, scenario, first_deck: str, second_deck: str, seed: int = 0):
        self.rules = rules = scenario.rules
        self.decks = (canonical_deck(rules, first_deck), canonical_deck(rules, second_deck))
        self.seed = int(seed)
        self.lists = (deck_list(rules, self.decks[0]), deck_list(rules, self.decks[1]))
        self.rolls = game_rolls(rules, [self.seed])[0]
        self.actions: list[tuple] = []
        self.state = zeros(STATE)
        E.setup(self.state, self.lists[0], self.lists[1], rules.settings, rules.cards)
        self.experience = zeros(EXPERIENCE)  # how the game plays, noted as in the batch (bots.play_one)
        X.begin(self.experience)
        self._band = experience_settings(scenario).level_band

    @property
    def turn(self) -> int:
        """The turn number (seat 0 plays the odd turns)."""
        return int(self.state.turn)

    def hp(self, seat: int) -> int:
        """The HP of ``seat``."""
        return int(self.state.players[seat].hp)

    def encode(self, action: Any) -> tuple[int, int]:
        """The engine's ``(kind, x)`` of an action tuple (raises :class:`IllegalAction` if malformed)."""
        if action == ("end",):
            return K_END, 0
        if not (isinstance(action, tuple) and len(action) == 2 and action[0] == "play"):
            raise IllegalAction(f"unknown action {action!r} (actions: ('play', card), ('end',))")
        names = [self.rules.names[int(c)] for c in self.lists[self.to_act]]
        if action[1] not in names:
            raise IllegalAction(f"{action!r}: the {WINNERS[self.to_act]} player's deck has no card {action[1]!r}")
        return K_PLAY, names.index(action[1])

    def do(self, action: Any) -> None:
        """Do ``action`` for the seat to act.

        Raises:
            IllegalAction: naming the reason; the game is unchanged.
        """
        k, x = self.encode(action)
        r = E.check(self.state, k, x, self.rules.settings, self.rules.cards)
        if r != R_OK:
            raise IllegalAction(f"{action!r}: {REASONS[r]}")
        self.actions.append(action_tuple(self.rules, self.lists[self.to_act], k, x))
        n = E.legal(self.state, np.zeros((MAX_LEGAL, 2), np.int64), self.rules.settings, self.rules.cards)
        B.note_before(self.state, self.experience, n, k, self.rules.lead, self._band)
        E.step(self.state, k, x, self.rules.settings, self.rules.cards, self.rolls)
        if self.over:
            X.note_lead(self.experience, self.state.turn, L.lead(self.state, self.rules.lead), self._band)

    def figures(self) -> dict:
        """How the game has played so far (:data:`simkit.games.EXPERIENCE_COLUMNS`): every action a decision among
        the legal actions of its moment, the lead noted at each turn's end and on the final state; a game not
        over is written as undecided (no deficit, no deciding turn)."""
        row = np.zeros(len(FIGURES), np.float64)
        X.write(self.experience, int(self.state.winner) if self.over else DRAW, int(self.state.turn), row)
        return {name: values[0] for name, values in experience_columns(row[None, :]).items()}

    def legal_actions(self) -> list[tuple]:
        """Every legal action of the seat to act, in the engine's order (cards by slot, ``end`` last)."""
        out = np.zeros((MAX_LEGAL, 2), np.int64)
        n = E.legal(self.state, out, self.rules.settings, self.rules.cards)
        return [action_tuple(self.rules, self.lists[self.to_act], int(k), int(x)) for k, x in out[:n]]

    def clone(self) -> Match:
        """An independent copy of the game (state and actions): try an action on it, the game is untouched."""
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        other.state = zeros(STATE)
        copy(other.state, self.state)
        other.experience = zeros(EXPERIENCE)
        copy(other.experience, self.experience)
        other.actions = list(self.actions)
        return other

    def snapshot(self) -> dict:
        """The whole game as plain Python values, named as :data:`~.state.STATE` declares them (each player's
        ``card`` by name and the ``uses`` left of each), with the decks and the seed."""
        return {"decks": list(self.decks), "seed": self.seed, **snapshot(self.state, {"card": self.rules.names})}
