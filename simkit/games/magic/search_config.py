"""Magic War's search bots as data: a ``[bots.<name>]`` table with a ``policy`` (``[bots.search-1]``).

Keys (every one but ``policy`` optional): ``policy`` and ``reply`` (utility personalities: the candidates'
and the look-ahead's own turns, the opponent's turns; ``reply`` defaults to ``policy``), ``plans``
(candidate plans per decision, default 1), ``depth`` (turns played on after a plan, the rest of the
plan's own turn counting as one; default 0), ``temperature`` (the noise of the candidates after the first,
which is always the policy's own plan at its own ``noise``; default that noise), ``reply_temperature`` (default 0),
``samples`` (determinizations per candidate, default 1), ``margin`` (what another candidate's mean must beat
the policy's plan by, default 0), and the value weights ``value_*`` (:data:`~.search.VALUES`, default 0).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from simkit.games.kits.bot_tables import number, search_roles, switch
from simkit.games.kits.state import zeros
from simkit.games.magic.search import VALUE_NAMES, VALUES
from simkit.games.magic.search_loop import (
    DEPTH,
    HALVING,
    MARGIN,
    PARAMS,
    PLANS,
    POLICY_TEMPERATURE,
    REPLY_TEMPERATURE,
    SAMPLES,
    TEMPERATURE,
)
from simkit.scenario import Field

#: a search's budget bounds: candidates, turns looked ahead, determinizations per decision
MAX_PLANS, MAX_DEPTH, MAX_SAMPLES = 1024, 64, 1024
SEARCH_KEYS = ("policy", "reply", "plans", "depth", "temperature", "reply_temperature", "samples", "margin",
               "halving", *VALUE_NAMES)


@dataclass(frozen=True)
class SearchBot:
    """A search bot read from its table: the policy's and reply's names, ``params`` (``float64[PARAMS]``, the
    kit's budget in :mod:`.search_loop`'s order) and ``values`` (a :data:`~.search.VALUES` record)."""

    policy: str
    reply: str
    params: np.ndarray
    values: np.void


def read_search(f: Field, personalities: dict[str, np.void]) -> SearchBot:
    """The :class:`SearchBot` of the merged table ``f``.

    Raises:
        ScenarioError: ``file: bots.<name>.<key>: problem`` for an unknown key, a policy or reply that is no
            utility personality, a budget out of its bounds or a weight that is no finite number.
    """
    f.reject_unknown(SEARCH_KEYS)
    names = search_roles(f, personalities)
    params = np.zeros(PARAMS, np.float64)
    params[PLANS] = number(f, "plans", 1, int, 1, MAX_PLANS)
    params[DEPTH] = number(f, "depth", 0, int, 0, MAX_DEPTH)
    params[SAMPLES] = number(f, "samples", 1, int, 1, MAX_SAMPLES)
    own = float(personalities[names["policy"]].noise)
    params[TEMPERATURE] = number(f, "temperature", own, minimum=0) if f.has("temperature") else own
    params[POLICY_TEMPERATURE] = own  # the first candidate is the policy's own plan
    params[REPLY_TEMPERATURE] = number(f, "reply_temperature", 0.0, minimum=0)
    params[MARGIN] = number(f, "margin", 0.0, minimum=0)
    params[HALVING] = switch(f, "halving", False)
    values = zeros(VALUES)
    for name, key in zip(VALUES.names, VALUE_NAMES):
        setattr(values, name, number(f, key, 0.0))
    return SearchBot(policy=names["policy"], reply=names["reply"], params=params, values=values)
