"""Batched scripted bots for Battle of Miracles.

A bot decides the next action of every game of a batch in one call, ``act(rules, state, rng)``,
and only ever chooses legal actions (``end_turn`` is always legal while a game is on):

* ``random`` (:class:`RandomBot`): a uniformly random legal action, ending the turn among them.
* utility bots (:class:`UtilityBot`): every legal action is scored by weighted features
  (:mod:`simkit.games.miracle.fast.decide` and the scorers it calls, compiled) and the best one is
  played; ``end_turn`` scores the personality's ``end_turn`` weight, so a bot that finds nothing
  better ends its turn. With a ``temperature`` above 0, Gumbel noise from the game's own random
  stream is added to the scores.

* search bots (:class:`simkit.games.miracle.search.SearchBot`): plan each turn by simulating
  candidate turns of a utility bot and valuing where they lead; their budget is data.

Personalities are the scenario's ``[bots.<name>]`` tables (:mod:`simkit.games.miracle.bots_config`).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from simkit.core.rng import GameStreams
from simkit.games.miracle import actions as A
from simkit.games.miracle import rules as R
from simkit.games.miracle.bots_config import RANDOM, BotConfig, BotSettings, read_bot_settings
from simkit.games.miracle.bots_tables import BotTables, build_tables
from simkit.games.miracle.fast.bot import FastScorer
from simkit.games.miracle.state import Actions, State
from simkit.games.miracle.tables import Rules


class Bot(Protocol):
    """What every bot offers."""

    name: str

    def act(self, rules: Rules, st: State, rng: GameStreams) -> Actions:
        """One legal action per game of ``st`` (PASS for games that are over)."""
        ...  # pragma: no cover


class RandomBot:
    """Plays a uniformly random legal action (one uniform draw per game and call)."""

    name = RANDOM

    def act(self, rules: Rules, st: State, rng: GameStreams) -> Actions:
        """A uniformly random legal action per game.

        Args:
            rules: the scenario's rules.
            st: the games (not changed).
            rng: one stream per game of ``st``, in the same order.

        Returns:
            The actions; PASS for games that are over.
        """
        mask = R.legal_mask(rules, st)
        return A.decode(rules, A.sample_uniform(mask, rng.uniform(1)[:, 0]))


class UtilityBot:
    """Scores every legal action by the weighted features of a personality and plays the best.

    Args:
        config: the personality (weights, temperature and tunables).
    """

    def __init__(self, config: BotConfig):
        self.config = config
        self.name = config.name
        self._tables: tuple[Rules, BotTables] | None = None
        self._fast: tuple[Rules, FastScorer] | None = None

    def tables(self, rules: Rules) -> BotTables:
        """The lookup tables of ``rules`` (built on first use, then kept)."""
        if self._tables is None or self._tables[0] is not rules:
            n = A.layout(rules)["end_turn"][1]
            self._tables = (rules, build_tables(rules, n))
        return self._tables[1]

    def compiled(self, rules: Rules) -> FastScorer:
        """The compiled scorer of ``rules`` (built on first use, then kept)."""
        if self._fast is None or self._fast[0] is not rules:
            self._fast = (rules, FastScorer(rules, self.config, self.tables(rules)))
        return self._fast[1]

    def scores(self, rules: Rules, st: State) -> np.ndarray:
        """``float32[B, N]`` the score of every action in the flat layout of :func:`actions.layout`,
        without noise.

        Illegal actions score ``-inf``; ``end_turn`` scores the ``end_turn`` weight (``-inf`` once
        a game is over).
        """
        return self.compiled(rules).scores(st)

    def act(self, rules: Rules, st: State, rng: GameStreams) -> Actions:
        """The best-scoring legal action per game (noisy when the temperature is above 0).

        Args:
            rules: the scenario's rules.
            st: the games (not changed).
            rng: one stream per game of ``st``; one word is drawn per game and call when the
                temperature is above 0, none otherwise.

        Returns:
            The actions; PASS for games that are over.
        """
        word = rng.bits(1)[:, 0] if self.config.temperature > 0 else None
        return A.decode(rules, self.compiled(rules).choose(st, word))


def bot_settings(scenario) -> BotSettings:
    """The validated ``[bots]`` table of ``scenario``.

    Raises:
        ScenarioError: naming the file, the key and the problem.
    """
    return read_bot_settings(str(scenario.path), scenario.data)
