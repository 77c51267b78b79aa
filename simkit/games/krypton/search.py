"""The hooks a search bot needs of Krypton Tower War (``Game.search_hooks``), over engine games.

A search must start from its seat's view, never from the whole game: :meth:`KryptonSearch.root`
gives a copy in which what the seat cannot know is guessed. The other side's hand and the pile are
dealt again from the cards the seat cannot see (their counts kept), and the dice stream is keyed
afresh, so the search neither reads the enemy's cards nor foresees the real dice.
"""

from __future__ import annotations

from simkit.games.krypton.engine import Game
from simkit.rng import derive_seed


class KryptonSearch:
    """State copy, legal actions, step, end and value for one game (an engine :class:`Game`).

    Args:
        scenario: the loaded Krypton scenario.
    """

    def __init__(self, scenario):
        self.rules = scenario.rules

    def root(self, state, seat: int) -> Game:
        """``seat``'s view of ``state`` (a :class:`Match` or an engine game): where a search begins."""
        g = getattr(state, "game", state).copy()
        other = 1 - seat
        unseen = list(g.hands[other]) + list(g.pile)
        key = derive_seed(g.key, "view", seat, g.ctr)
        for i in range(len(unseen) - 1, 0, -1):
            j = derive_seed(key, i) % (i + 1)
            unseen[i], unseen[j] = unseen[j], unseen[i]
        k = len(g.hands[other])
        g.hands[other], g.pile = unseen[:k], unseen[k:]
        g.key, g.ctr = key, 0
        return g

    def copy(self, state: Game) -> Game:
        """An independent copy."""
        return state.copy()

    def legal(self, state: Game) -> list[tuple]:
        """The legal actions of the seat to act."""
        return state.legal_actions()

    def step(self, state: Game, action) -> None:
        """Apply a legal action in place."""
        state.do(tuple(action))

    def over(self, state: Game) -> bool:
        return state.over

    def to_act(self, state: Game) -> int:
        """The seat whose decision is owed (a counter window's defender, a revival's side)."""
        return state.to_act

    def value(self, state: Game, seat: int) -> float:
        """``seat``'s value in [-1, 1]: the result once over, else the base HP difference over base HP."""
        if state.over:
            return 0.0 if state.winner == 2 else (1.0 if state.winner == seat else -1.0)
        top = self.rules.settings["base_hp"]
        return max(-1.0, min(1.0, (state.base_hp[seat] - state.base_hp[1 - seat]) / top))
