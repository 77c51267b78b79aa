"""The hooks a search bot needs of the Card Duel (its ``search`` capability), over the engine's flat state.

A search must start from its seat's view (rules page section 12), never from the whole state:
:meth:`DuelSearch.root` gives it. In a view the hidden cards are absent, so a search that steps
past the end of the own turn sees the opponent draw nothing and hold no hidden card: a bot that
wants more must guess the hidden cards itself (determinize) from what the view shows.
"""

from __future__ import annotations

import numpy as np

from simkit.games.duel import engine as E
from simkit.games.duel.tables import S_MAX_HP


class DuelSearch:
    """State copy, legal actions, step, end and value for one duel state (``int64[STATE_SIZE]``).

    Args:
        scenario: the loaded duel scenario.
    """

    def __init__(self, scenario):
        r = scenario.rules
        self.st, self.cd, self.ef = r.settings, r.cards, r.effects
        self.max_hp = int(r.settings[S_MAX_HP])
        self._out = np.zeros((E.MAX_LEGAL, 3), np.int64)

    def root(self, state: np.ndarray, seat: int) -> np.ndarray:
        """The view of ``seat`` of ``state`` (a match's ``state``): where a bot's search begins."""
        v = np.zeros(E.STATE_SIZE, np.int64)
        E.make_view(state, seat, v)
        return v

    def copy(self, state: np.ndarray) -> np.ndarray:
        """An independent copy."""
        return state.copy()

    def legal(self, state: np.ndarray) -> np.ndarray:
        """``int64[n, 3]`` the legal actions ``(kind, x, y)`` of the seat to act."""
        n = E.legal(state, self._out, self.st, self.cd)
        return self._out[:n].copy()

    def step(self, state: np.ndarray, action) -> None:
        """Apply a legal action ``(kind, x, y)`` in place."""
        E.step(state, int(action[0]), int(action[1]), int(action[2]), self.st, self.cd, self.ef)

    def over(self, state: np.ndarray) -> bool:
        """True once the game has ended."""
        return int(state[E.G_PHASE]) == E.PH_OVER

    def to_act(self, state: np.ndarray) -> int:
        """The seat to act."""
        return int(state[E.G_CUR])

    def value(self, state: np.ndarray, seat: int) -> float:
        """``seat``'s value in [-1, 1]: the result once over, else the HP difference over max HP."""
        if self.over(state):
            w = int(state[E.G_WINNER])
            return 0.0 if w == E.DRAW else (1.0 if w == seat else -1.0)
        mine, theirs = int(state[E.base(seat) + E.P_HP]), int(state[E.base(1 - seat) + E.P_HP])
        return max(-1.0, min(1.0, (mine - theirs) / self.max_hp))
