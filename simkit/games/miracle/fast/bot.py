"""The compiled scorer of one personality: packs the scenario once, then chooses for whole batches."""

from __future__ import annotations

import numpy as np

from simkit.games.miracle import actions as A
from simkit.games.miracle.bots_config import BotConfig
from simkit.games.miracle.bots_tables import BotTables
from simkit.games.miracle.fast.decide import decide
from simkit.games.miracle.fast.pack import new_sit, pack_bot, pack_layout, pack_rules, pack_state
from simkit.games.miracle.state import State
from simkit.games.miracle.tables import Rules

_NO_DENSE = np.zeros((0, 0), np.float32)


class FastScorer:
    """Chooses like :class:`~simkit.games.miracle.bots.UtilityBot` with compiled kernels.

    Args:
        rules: the scenario's rules.
        config: the personality.
        tables: its bot tables (``bots_tables.build_tables``).
    """

    def __init__(self, rules: Rules, config: BotConfig, tables: BotTables):
        self.rules = rules
        self.layout = pack_layout(A.layout(rules))
        self.k_rules = pack_rules(rules)
        self.temperature = float(config.temperature)
        self.k_bot = pack_bot(config, tables)
        self.sit = new_sit(
            rules.unit_slots, rules.board.grid.size, rules.board.bits.rows, len(rules.board.garrisons)
        )

    def _run(self, st: State, word: np.ndarray | None, dense: np.ndarray) -> np.ndarray:
        b = st.batch
        word = np.zeros(b, np.uint64) if word is None else np.ascontiguousarray(word, dtype=np.uint64)
        temperature = self.temperature if dense.shape[0] == 0 else 0.0
        best = np.empty(b, np.int64)
        decide(pack_state(st), self.k_rules, self.k_bot, self.layout, self.sit, word, temperature, best, dense)
        return best

    def choose(self, st: State, word: np.ndarray | None) -> np.ndarray:
        """``int64[B]`` the flat index of each game's choice (-1 for games that are over).

        ``word``: ``uint64[B]`` one random word per game when the temperature is above 0, else None.
        """
        return self._run(st, word, _NO_DENSE)

    def scores(self, st: State) -> np.ndarray:
        """``float32[B, N]`` every action's score without noise, ``-inf`` where illegal (for tests)."""
        dense = np.full((st.batch, self.layout.size), -np.inf, np.float32)
        self._run(st, None, dense)
        return dense
