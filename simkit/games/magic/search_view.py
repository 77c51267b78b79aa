"""The ``search`` capability of Magic War: the compiled search hooks (:mod:`.search`) in Python, over engine states.

For a bot of one's own in Python: :meth:`MagicSearch.view` gives a seat's determinized view (what it cannot
see re-drawn, the dice re-keyed, never the real ones), then ``legal``/``step``/``over``/``to_act``/``value``
play and judge it, exactly as the compiled search bots do.
"""

from __future__ import annotations

import numpy as np

from simkit.games.magic import bots as B
from simkit.games.magic import engine as E
from simkit.games.magic import search as S


class MagicSearch:
    """The search hooks over one scenario's rules, valued with the weights of its search bot ``bot``.

    Args:
        scenario: a loaded Magic War scenario.
        bot: a search bot of the scenario (default: its first); its ``value_*`` weights judge positions.
    """

    def __init__(self, scenario, bot: str | None = None):
        from simkit.games.magic.batch import personalities
        from simkit.games.magic.search_config import SearchBot

        searches = {k: v for k, v in personalities(scenario).items() if isinstance(v, SearchBot)}
        if bot is None and not searches:
            raise ValueError("the scenario defines no search bot ([bots.<name>] with a policy)")
        if bot is not None and bot not in searches:
            raise ValueError(f"unknown search bot {bot!r} (the scenario has: {', '.join(searches) or 'none'})")
        self.bot = bot or next(iter(searches))
        self.weights = searches[self.bot].values
        r = scenario.rules
        self._ctx = (r.ut, r.sk, r.st, r.rc, np.zeros(E.STATE_SIZE, np.int64), np.zeros(E.STATE_SIZE, np.int64),
                     np.zeros((E.MAX_LEGAL, 5), np.int64), np.zeros(E.STATE_SIZE, np.int64), np.zeros(1, np.int64),
                     np.zeros(len(B.WEIGHT_NAMES), np.float64))

    def view(self, state: np.ndarray, seat: int, key: int, salt: int = 0) -> np.ndarray:
        """``seat``'s determinized view of ``state``: its dice keyed by ``key`` (a number of the bot's own, never
        the game's) and ``salt``, the opponent's hand and the pile dealt again from their multiset."""
        S.root_of(state, np.int64(key), self._ctx[4])
        S.copy_game(self._ctx, 0, seat, salt)
        return self._ctx[5].copy()

    def legal(self, state: np.ndarray) -> np.ndarray:
        """``int64[n, 5]`` the legal actions ``(kind, a, b, c, d)`` of the seat to act."""
        n = E.legal(state, self._ctx[6], *self._ctx[:4], False)
        return self._ctx[6][:min(n, E.MAX_LEGAL)].copy()

    def step(self, state: np.ndarray, action) -> None:
        """Apply a legal action ``(kind, a, b, c, d)`` in place."""
        E.step(state, *(int(x) for x in action), *self._ctx[:4])

    def over(self, state: np.ndarray) -> bool:
        """True once the game has ended."""
        return int(state[E.G_PHASE]) == E.PH_OVER

    def to_act(self, state: np.ndarray) -> int:
        """The seat to act."""
        return int(state[E.G_CUR])

    def value(self, state: np.ndarray, seat: int) -> float:
        """``state``'s worth to ``seat`` by the bot's ``value_*`` weights (:func:`.search.value`)."""
        self._ctx[5][:] = state
        return float(S.value(self._ctx, seat, self._ctx[9], self.weights))
