"""The search bot: plans each of its turns by simulating candidate turns (see :mod:`simkit.games.kits.turn_search`).

A :class:`SearchBot` is a scenario's ``[bots.<name>]`` table with a ``policy`` key
(:class:`~simkit.games.miracle.bots_config.SearchConfig`). Whole games are played in compiled code
(:func:`.fast_search.play.play`); :meth:`SearchBot.act` serves the batched loop (recorded games,
games against the random bot) and plays the same games: it plans at the first decision of a turn and
keeps the rest of the plan for the decisions that follow.
"""

from __future__ import annotations

from dataclasses import astuple

import numpy as np

from simkit.core.rng import GameStreams
from simkit.games.kits.turn_search import DEPTH, PARAMS, PLANS, REPLY_TEMPERATURE, TEMPERATURE
from simkit.games.miracle import actions as A
from simkit.games.miracle import rules as R
from simkit.games.miracle.bots import UtilityBot
from simkit.games.miracle.bots_config import SearchConfig
from simkit.games.miracle.fast.pack import pack_state
from simkit.games.miracle.fast_search.play import plan
from simkit.games.miracle.state import State
from simkit.games.miracle.tables import Rules

Player = tuple  # (policy KBot, reply KBot, float64[PARAMS] budget, float64[7] value weights)


def utility_player(bot: UtilityBot, rules: Rules) -> Player:
    """A utility bot as a player of :func:`.fast_search.play.play`: one candidate turn drawn at its
    own temperature, no look-ahead (it plays exactly its own games)."""
    k_bot = bot.compiled(rules).k_bot
    params = np.zeros(PARAMS)
    params[PLANS], params[TEMPERATURE] = 1, bot.config.temperature
    return (k_bot, k_bot, params, np.zeros(7))


class SearchBot:
    """Plans each turn over simulated candidate turns and plays the one worth most.

    Args:
        config: the search table.
        policy: the utility bot named by ``config.policy``.
        reply: the utility bot named by ``config.reply``.
        cap: ``max_actions_per_turn`` of the scenario (a planned turn ends there).
    """

    def __init__(self, config: SearchConfig, policy: UtilityBot, reply: UtilityBot, cap: int):
        self.config, self.policy, self.reply, self.cap = config, policy, reply, int(cap)
        self.name = config.name
        self._memory: dict[int, tuple[int, int, list[int]]] = {}

    def player(self, rules: Rules) -> Player:
        """This bot as a player of :func:`.fast_search.play.play`."""
        cfg = self.config
        params = np.zeros(PARAMS)
        params[PLANS], params[DEPTH] = cfg.plans, cfg.depth
        params[TEMPERATURE], params[REPLY_TEMPERATURE] = cfg.temperature, cfg.reply_temperature
        weights = np.array(astuple(cfg.value), np.float64)
        return (self.policy.compiled(rules).k_bot, self.reply.compiled(rules).k_bot, params, weights)

    def plan(self, rules: Rules, st: State, g: int, rng: GameStreams) -> list[int]:
        """The flat actions this bot plans for game ``g`` of ``st`` from here to the end of the turn
        (advancing ``rng``'s stream of ``g`` as the compiled games do)."""
        fast = self.policy.compiled(rules)
        out = np.empty(self.cap + 1, np.int64)
        n = plan(
            pack_state(st),
            fast.k_rules,
            pack_state(st.take([g])),
            fast.sit,
            fast.layout,
            rng.keys,
            rng.counter,
            self.cap,
            g,
            self.player(rules),
            out,
        )
        return out[:n].tolist()

    def act(self, rules: Rules, st: State, rng: GameStreams) -> R.Actions:
        """The next action of each game's planned turn (planned at the turn's first decision).

        Args:
            rules: the scenario's rules.
            st: the games (not changed).
            rng: one stream per game of ``st``; a game's stream advances only when its turn is planned.

        Returns:
            The actions; PASS for games that are over.
        """
        index = np.full(st.batch, -1, np.int64)
        for g in np.flatnonzero(~st.over):
            key, turn = int(rng.keys[g]), int(st.turn[g])
            kept = self._memory.pop(key, None)
            if kept is not None and kept[:2] == (turn, int(rng.counter[g])):
                actions = kept[2]
            else:
                actions = self.plan(rules, st, int(g), rng)
            index[g] = actions[0]
            if len(actions) > 1:
                self._memory[key] = (turn, int(rng.counter[g]), actions[1:])
        return A.decode(rules, index)
