"""Batches of template games between two bots: one tidy record per game, played in compiled code.

A game's chance comes from ``derive_seed(seed, "rolls")`` and its bots' noise from
``derive_seed(seed, "bots")``, each a :class:`simkit.core.rng.GameStreams` stream drawn up front, so a
game's record depends only on the scenario, its decks, the bots and its seed, never on its batch.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simkit.core.rng import GameStreams, derive_seed
from simkit.games import WINNERS
from simkit.games._template import bots as B
from simkit.games._template.state import END_REASONS, K_PLAY, MAX_LEGAL, PERSONALITY
from simkit.games._template.tables import canonical_deck, deck_list
from simkit.games.kits.bot_tables import RANDOM
from simkit.games.kits.experience import FIGURES, experience_columns
from simkit.games.kits.state import zeros
from simkit.scenario import experience_settings


def bot_names(scenario) -> tuple[str, ...]:
    """``random`` and the scenario's utility bots."""
    return (RANDOM, *scenario.rules.bots)


def game_rolls(rules, seeds: Sequence[int]) -> np.ndarray:
    """``float64[len(seeds), max_rolls]`` each game's damage rolls (uniforms in [0, 1))."""
    return GameStreams([derive_seed(int(s), "rolls") for s in seeds]).uniform(rules.max_rolls)


def bot_noise(rules, seeds: Sequence[int]) -> np.ndarray:
    """``float64[len(seeds), action_cap, MAX_LEGAL]`` each game's bot noise (uniforms in [0, 1))."""
    n, cap = len(seeds), rules.action_cap
    u = GameStreams([derive_seed(int(s), "bots") for s in seeds]).uniform(cap * MAX_LEGAL)
    return u.reshape(n, cap, MAX_LEGAL)


def bot_tables(rules, bots: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """``(kinds int64[2], weights)`` of the two seats' bots (``weights``: two PERSONALITY records).

    Raises:
        ValueError: an unknown bot (the message lists the known ones).
    """
    if len(bots) != 2:
        raise ValueError(f"need two bots (first player's, second player's), got {list(bots)}")
    kinds = np.zeros(2, np.int64)
    weights = zeros(PERSONALITY, 2)
    for seat, name in enumerate(bots):
        if name == RANDOM:
            kinds[seat] = B.BOT_RANDOM
        elif name in rules.bots:
            kinds[seat], weights[seat] = B.BOT_UTILITY, rules.bots[name]
        else:
            raise ValueError(f"unknown bot {name!r} (the scenario knows: {', '.join((RANDOM, *rules.bots))})")
    return kinds, weights


def action_tuple(rules, deck: Sequence[int], kind: int, x: int) -> tuple:
    """The engine's action ``(kind, x)`` of the seat holding ``deck`` (card ids by slot), as a tuple."""
    return ("play", rules.names[int(deck[x])]) if kind == K_PLAY else ("end",)


def play_batch(scenario, first_decks: Sequence[str], second_decks: Sequence[str], seeds: Sequence[int],
               bots: Sequence[str] = ("greedy", "random"), record_actions: bool = False) -> dict[str, list]:
    """Play one game per (first deck, second deck, seed) to its end (see :attr:`simkit.games.Game.play_batch`).

    Returns:
        Columns first_deck, second_deck, seed, winner, end_reason, turns, first_bot, second_bot, actions, the
        experience figures (:data:`simkit.games.EXPERIENCE_COLUMNS`, with the lead of :mod:`.lead`;
        ``uncertainty`` NaN: no bot here estimates a chance to win), first_hp, second_hp; plus ``action_list``
        when ``record_actions``.

    Raises:
        ValueError: lengths differ, an unknown bot, or an illegal deck (ScenarioError).
    """
    rules = scenario.rules
    n = len(first_decks)
    if len(second_decks) != n or len(seeds) != n:
        raise ValueError(f"got {n} first decks, {len(second_decks)} second decks and {len(seeds)} seeds; "
                         "need one of each per game")
    kinds, weights = bot_tables(rules, bots)
    canon = {d: canonical_deck(rules, d) for d in {*first_decks, *second_decks}}  # each deck read once
    decks = [[canon[d] for d in ds] for ds in (first_decks, second_decks)]
    lists = {d: deck_list(rules, d) for d in canon.values()}
    d0 = np.array([lists[d] for d in decks[0]], np.int64).reshape(n, rules.slots)
    d1 = np.array([lists[d] for d in decks[1]], np.int64).reshape(n, rules.slots)
    result = np.zeros((n, 6), np.int64)
    figures = np.zeros((n, len(FIGURES)), np.float64)  # how each game played (simkit.games.kits.experience)
    logs = np.zeros((n if record_actions else 0, rules.action_cap, 3), np.int64)
    B.play_many(d0, d1, game_rolls(rules, seeds), bot_noise(rules, seeds), kinds, weights, rules.settings,
                rules.cards, result, logs, rules.lead, experience_settings(scenario).level_band, figures)
    out = {
        "first_deck": decks[0], "second_deck": decks[1], "seed": [int(s) for s in seeds],
        "winner": [WINNERS[w] for w in result[:, 0].tolist()],
        "end_reason": [END_REASONS[r] for r in result[:, 1].tolist()],
        "turns": result[:, 2].tolist(), "first_bot": [bots[0]] * n, "second_bot": [bots[1]] * n,
        "actions": result[:, 5].tolist(), **experience_columns(figures),
        "first_hp": result[:, 3].tolist(), "second_hp": result[:, 4].tolist(),
    }
    if record_actions:
        out["action_list"] = [[action_tuple(rules, (d0[g], d1[g])[p], k, x) for k, x, p in logs[g, :result[g, 5]]]
                              for g in range(n)]
    return out
