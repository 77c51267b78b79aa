"""Magic War's plan search: the kit's one compiled search (:mod:`simkit.games.kits.turn_search`) over
:mod:`.search`'s six hooks, compiled and cached beside this module.

At a decision of a search seat it draws ``plans`` candidate plans with the policy (the first from the
game's own stream at the policy's own noise, exactly as the policy would play the real game; the rest
at ``temperature``), values each distinct one over ``samples`` determinizations (the seat's view
re-drawn, the plan replayed, ``depth`` turns played on, the position valued) and keeps the policy's own
plan unless another's mean beats it by more than ``margin``. With ``halving`` the same rollouts are spent by
rounds of sequential halving (the kit's docstring).
"""

from __future__ import annotations

from simkit.games.kits import turn_search as kit
from simkit.games.magic.search import copy_game, game_over, play_turn, replay, to_act, value

#: the search budget, in the order of ``params``: the kit's six, the first candidate's noise, sequential halving
PLANS, DEPTH, TEMPERATURE, REPLY_TEMPERATURE, SAMPLES, MARGIN, POLICY_TEMPERATURE, HALVING = (
    kit.PLANS, kit.DEPTH, kit.TEMPERATURE, kit.REPLY_TEMPERATURE, kit.SAMPLES, kit.MARGIN, kit.POLICY_TEMPERATURE,
    kit.HALVING)
PARAMS = kit.HALVING + 1

#: ``search_plan(ctx, g, seat, policy, reply, params, weights, keys, counter, cap, plan, best, seen) -> n``
search_plan = kit.compile_turn_search(
    {"copy_game": copy_game, "play_turn": play_turn, "replay": replay, "game_over": game_over, "to_act": to_act,
     "value": value},
    __file__,
)
