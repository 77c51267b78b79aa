"""Play batches of Card Duel games between two bots: one tidy record per game.

Every game is played wholly in compiled code (:func:`simkit.games.duel.bots.play_many`), one after
another; its shuffles come from ``derive_seed(seed, "shuffle")`` and its bots' noise from
``derive_seed(seed, "bots")``, so a game's record depends only on the scenario, its decks, the bots
and its seed, never on the batch it was played in.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simkit.core.rng import derive_seed
from simkit.games import SEATS, WINNERS, counter_column
from simkit.games.duel import bots as B
from simkit.games.duel import engine as E
from simkit.games.duel.bots_config import RANDOM, read_bot_settings
from simkit.games.duel.state import (
    ACTION_CAP,
    END_REASONS,
    K_ATTACH,
    K_DISCARD,
    K_EQUIP,
    K_PLAY,
    K_SET,
    K_USE,
    KINDS,
    MAX_DECK,
    PERSONALITY,
    STATE,
    VALUE,
)
from simkit.games.duel.tables import all_decks, canonical_deck, deck_list
from simkit.games.kits.experience import EXPERIENCE, FIGURES, experience_columns
from simkit.games.kits.state import zeros
from simkit.scenario import experience_settings


def game_seeds(seed: int) -> tuple[int, int]:
    """``(shuffle seed, bot seed)`` of the game with seed ``seed``."""
    return derive_seed(seed, "shuffle"), derive_seed(seed, "bots")


def slot_names(rules, cards: Sequence[int]) -> list[str]:
    """The name of each slot of a deck list: the card's name, with ``#k`` when the deck has copies."""
    names = [rules.names[int(c)] for c in cards]
    out, seen = [], {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(f"{name}#{seen[name]}" if names.count(name) > 1 else name)
    return out


def action_tuple(rules, cards: Sequence[int], kind: int, x: int, y: int) -> tuple:
    """The engine's action ``(kind, x, y)`` of the seat whose deck list is ``cards``, as a tuple."""
    verb = KINDS[kind]
    if kind == K_PLAY:
        return (verb, rules.names[x], y) if rules.cards[x].pick else (verb, rules.names[x])
    if kind in (K_EQUIP, K_SET, K_DISCARD):
        return (verb, rules.names[x])
    if kind == K_ATTACH:
        return (verb, rules.names[x], slot_names(rules, cards)[y])
    if kind == K_USE:
        return (verb, slot_names(rules, cards)[x])
    return (verb,)


_settings: list = [None, None]  # the scenario last read and its bot settings


def bot_settings(scenario):
    """The scenario's :class:`~simkit.games.duel.bots_config.BotSettings` (kept for the last scenario)."""
    if _settings[0] is not scenario:
        _settings[:] = [scenario, read_bot_settings(str(scenario.path), scenario.data)]
    return _settings[1]


def bot_names(scenario) -> tuple[str, ...]:
    """``random`` and the scenario's personalities."""
    return bot_settings(scenario).names


def bot_tables(scenario, bots: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """``(kinds int64[2], weights)`` of the two seats' bots (``weights``: two PERSONALITY records).

    Raises:
        ValueError: an unknown bot (the message lists the known ones).
    """
    if len(bots) != 2:
        raise ValueError(f"need two bots (first player's, second player's), got {list(bots)}")
    settings = bot_settings(scenario)
    kinds = np.zeros(2, np.int64)
    weights = zeros(PERSONALITY, 2)
    for seat, name in enumerate(bots):
        if name == RANDOM:
            kinds[seat] = B.BOT_RANDOM
        elif name in settings.personalities:
            kinds[seat] = B.BOT_UTILITY
            weights[seat] = settings.personalities[name]
        else:
            raise ValueError(f"unknown bot {name!r} (the scenario knows: {', '.join(settings.names)})")
    return kinds, weights


def search_tables(scenario, bots: Sequence[str]):
    """``(kinds, policy, reply, params, values, hidden, decks)`` of the two seats for
    :func:`simkit.games.duel.fast_search.play_many`: a utility or random seat plays its own weights,
    a search seat its policy's, reply's, budget, value weights and hidden-card handling; ``decks``:
    every legal deck list of the rules (what a ``sample`` search deals the opponent from).

    Raises:
        ValueError: an unknown bot (the message lists the known ones).
    """
    from simkit.games.duel import fast_search as FS
    from simkit.games.kits.turn_search import budget_params

    settings = bot_settings(scenario)
    plain = [b if b not in settings.searches else RANDOM for b in bots]
    kinds, policy = bot_tables(scenario, plain)
    reply = policy.copy()
    params = np.array([budget_params(plans=1, depth=0, temperature=0.0, reply_temperature=0.0, samples=1,
                                     policy_temperature=0.0)] * 2)
    values = zeros(VALUE, 2)
    hidden = np.zeros(2, np.int64)
    for seat, name in enumerate(bots):
        cfg = settings.searches.get(name)
        if cfg is None:
            continue
        kinds[seat] = B.BOT_SEARCH
        policy[seat] = settings.personalities[cfg.policy]
        reply[seat] = settings.personalities[cfg.reply]
        params[seat] = budget_params(cfg.plans, cfg.depth, cfg.temperature, cfg.reply_temperature, cfg.samples,
                                     cfg.margin, cfg.policy_temperature if cfg.policy_temperature >= 0 else None)
        values[seat] = cfg.value
        hidden[seat] = FS.HIDDEN.index(cfg.hidden)
    return kinds, policy, reply, params, values, hidden, _deck_lists(scenario.rules)


_lists: list = [None, None]  # the rules last read and their legal deck lists


def _deck_lists(rules) -> np.ndarray:
    """``int64[D, deck_size]`` every legal deck list of ``rules`` (kept for the last rules)."""
    if _lists[0] is not rules:
        _lists[:] = [rules, np.array([deck_list(rules, d) for d in all_decks(rules)], np.int64)]
    return _lists[1]


def counter_cards(rules) -> dict[str, tuple[str, ...]]:
    """Every card the engine counts: the weapons and spells a deck chooses, and the core every deck holds."""
    return {"weapon": tuple(rules.names[c] for c in rules.weapons),
            "spell": tuple(rules.names[c] for c in rules.spells),
            "core": tuple(rules.names[c] for c, _ in rules.core)}


def _counter_columns(rules, d0: np.ndarray, d1: np.ndarray, tally: np.ndarray) -> dict[str, list[int]]:
    """The counter columns (:func:`simkit.games.counter_column`) of every card from the games' slot counters
    (``tally``: ``int64[n, 4 * MAX_DECK]``, :func:`~simkit.games.duel.engine.write_tally`) summed over the slots
    of each card in each seat's deck list (``d0``, ``d1``); 0 where a seat does not hold the card."""
    n, size = len(d0), d0.shape[1] if len(d0) else rules.deck_size
    counts = tally.reshape(n, 2, 2, MAX_DECK)[:, :, :, :size]  # game, seat, (played, dealt), slot
    played = {"weapon": "used", "spell": "played", "core": "played"}
    out = {}
    for s, (seat, lists) in enumerate(zip(SEATS, (d0, d1))):
        for category, names in counter_cards(rules).items():
            for name in names:
                held = lists == rules.card_id(name)
                for c, counter in ((0, played[category]), (1, "damage")):
                    out[counter_column(seat, category, name, counter)] = (counts[:, s, c, :] * held).sum(1).tolist()
    return out


def play_batch(
    scenario,
    first_decks: Sequence[str],
    second_decks: Sequence[str],
    seeds: Sequence[int],
    bots: Sequence[str] = ("aggro", "random"),
    record_actions: bool = False,
) -> dict[str, list]:
    """Play one game per (first deck, second deck, seed) to the end.

    Args:
        scenario: a loaded Card Duel scenario.
        first_decks, second_decks: deck ids, one per game; the first deck moves first (seat 0).
        seeds: one seed per game.
        bots: ``(first player's bot, second player's bot)``.
        record_actions: also return each game's actions as :class:`~simkit.games.duel.match.Match`
            tuples (column ``action_list``).

    Returns:
        Columns: first_deck, second_deck, seed, winner, end_reason, turns, first_bot, second_bot,
        actions, the experience figures (:data:`simkit.games.EXPERIENCE_COLUMNS`: lead changes, the winner's
        deepest deficit, the deciding turn, decisions and legal actions per decision, with the lead of
        :mod:`simkit.games.duel.lead`; ``uncertainty`` NaN: no Duel bot estimates a chance to win), first_hp,
        second_hp (final HP), then per seat the counts of every card
        (``first:weapon:Dagger:used``, ``first:spell:Frost:played``, ``first:core:Strike:played``, each also
        ``...:damage``; 0 for a card the seat does not hold): weapon uses (charging ones too) or times a card was
        played, attached or set, and the HP the opponent lost to its effects (poison ticks are not counted).

    Raises:
        ValueError: lengths differ, an unknown bot, or an illegal deck (ScenarioError).
    """
    rules = scenario.rules
    n = len(first_decks)
    if len(second_decks) != n or len(seeds) != n:
        raise ValueError(
            f"got {n} first decks, {len(second_decks)} second decks and {len(seeds)} seeds; need one of each per game"
        )
    searching = any(b in bot_settings(scenario).searches for b in bots)
    if searching:
        from simkit.games.duel import fast_search as FS

        players = search_tables(scenario, bots)
    else:
        kinds, weights = bot_tables(scenario, bots)
    tables = (rules.settings, rules.cards, rules.effects)
    decks = [[canonical_deck(rules, d) for d in ds] for ds in (first_decks, second_decks)]
    lists = {d: deck_list(rules, d) for d in set(decks[0]) | set(decks[1])}
    size = rules.deck_size
    d0 = np.array([lists[d] for d in decks[0]], np.int64).reshape(n, size)
    d1 = np.array([lists[d] for d in decks[1]], np.int64).reshape(n, size)
    pairs = [game_seeds(int(s)) for s in seeds]
    shuffle = np.array([a for a, _ in pairs], np.int64)
    bot = np.array([b for _, b in pairs], np.int64)
    result = np.zeros((n, 6 + 4 * MAX_DECK), np.int64)  # bots.record_result: the outcome, then the counters
    figures = np.zeros((n, len(FIGURES)), np.float64)  # bots.record_figures: how each game played
    watch = (rules.lead, experience_settings(scenario).level_band)  # the lead signal's weights, the level band
    action_list = None
    if not record_actions and searching:
        FS.play_many(d0, d1, shuffle, bot, *players, *tables, result, ACTION_CAP, *watch, figures)
    elif not record_actions:
        B.play_many(d0, d1, shuffle, bot, kinds, weights, *tables, result, ACTION_CAP, *watch, figures)
    else:
        action_list = []
        states = zeros(STATE, 4)  # the game, the bots' view and scratch, the replay
        xp = zeros(EXPERIENCE)
        log = np.zeros((ACTION_CAP, 3), np.int64)
        for g in range(n):
            if searching:
                played = FS.play_one(states[0], states[1:3], d0[g], d1[g], shuffle[g], bot[g], *players, *tables, log,
                                     ACTION_CAP, *watch, xp)
            else:
                played = B.play_one(states[0], states[1:3], d0[g], d1[g], shuffle[g], bot[g], kinds, weights, *tables,
                                    log, ACTION_CAP, *watch, xp)
            B.record_result(states[0], played, result[g])
            B.record_figures(states[0], xp, figures[g])
            seat_lists = (d0[g], d1[g])
            actions, replay = [], states[3]
            E.setup(replay, d0[g], d1[g], shuffle[g], *tables)
            for k, x, y in log[:played]:
                actions.append(action_tuple(rules, seat_lists[int(replay.to_act)], int(k), int(x), int(y)))
                E.step(replay, k, x, y, *tables)
            action_list.append(actions)
    out = {
        "first_deck": decks[0],
        "second_deck": decks[1],
        "seed": [int(s) for s in seeds],
        "winner": [WINNERS[w] for w in result[:, 0].tolist()],
        "end_reason": [END_REASONS[r] for r in result[:, 1].tolist()],
        "turns": result[:, 2].tolist(),
        "first_bot": [bots[0]] * n,
        "second_bot": [bots[1]] * n,
        "actions": result[:, 5].tolist(),
        **experience_columns(figures),
        "first_hp": result[:, 3].tolist(),
        "second_hp": result[:, 4].tolist(),
        **_counter_columns(rules, d0, d1, result[:, 6:]),
    }
    if action_list is not None:
        out["action_list"] = action_list
    return out
