"""Play batches of Magic War games between two bots: one tidy record per game.

Every game is played wholly in compiled code (:func:`simkit.games.magic.bots.play_game`), one after
another; its dice tape, its pile's shuffle and its bots' noise come from three seeds derived from its own
(:func:`simkit.games.magic.match.stream_seeds`), so a record depends only on the scenario, the armies, the
bots and the seed, never on the batch.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simkit.core.rng import derive_seed
from simkit.games import SEATS, counter_column
from simkit.games.kits.bot_tables import bot_tables as read_tables
from simkit.games.kits.bot_tables import is_search, number
from simkit.games.magic import bots as B
from simkit.games.magic import engine as E
from simkit.games.magic.match import WINNERS, decode, new_state, stream_seeds
from simkit.games.magic.search import VALUE_NAMES
from simkit.games.magic.search_config import SearchBot, read_search
from simkit.games.magic.search_loop import PARAMS, PLANS
from simkit.games.magic.search_play import BOT_SEARCH
from simkit.games.magic.search_play import play_game as search_play
from simkit.games.magic.tables import U_LEADER, canonical_deck
from simkit.scenario import Field

#: per-side result columns and their words
SIDE_COLUMNS = {
    "leader_hp": "leader HP at the end",
    "army_value": "gold of the army bought",
    "army_left": "gold of the bought army alive at the end",
    "units_lost": "own units lost (leader aside)",
    "kills": "units destroyed",
    "magic_gained": "magic gained",
    "magic_spent": "magic spent from the active pool",
    "cards_drawn": "tactical cards drawn",
    "cards_used": "tactical cards spent as magic",
    "dice": "dice rolled",
    "skills": "active skills used",
    "summons": "units summoned",
    "combined": "combined attacks",
}
_P = {"army_value": E.P_ARMY, "units_lost": E.P_LOST, "kills": E.P_KILLS, "magic_gained": E.P_GAINED,
      "magic_spent": E.P_SPENT, "cards_drawn": E.P_DRAWN, "cards_used": E.P_CARDS_USED, "dice": E.P_DICE,
      "skills": E.P_SKILLS, "summons": E.P_SUMMONS, "combined": E.P_COMBINED}

_cache: list = [None, None]


def read_bots(source: str, data: dict) -> dict[str, np.ndarray | SearchBot]:
    """The ``[bots.<name>]`` tables, read by the kit (:mod:`simkit.games.kits.bot_tables`; ``like = "other"``
    starts from another's keys): a utility personality as its weight vector
    (:data:`~simkit.games.magic.bots.WEIGHT_NAMES`, every weight given, directly or inherited, as a finite
    number, ``noise`` at least 0), a search bot (a table with a ``policy``) as its
    :class:`~simkit.games.magic.search_config.SearchBot`; utility personalities first, then search bots."""
    out: dict = {}
    searches = []
    for name, merged in read_tables(Field(source, data), required=False):
        if is_search(merged):
            searches.append((name, merged))
            continue
        merged.reject_unknown(B.WEIGHT_NAMES)
        out[name] = np.array([number(merged, key, minimum=0 if key == "noise" else None) for key in B.WEIGHT_NAMES],
                             np.float64)
    utility = dict(out)
    for name, merged in searches:
        out[name] = read_search(merged, utility)
    return out


def personalities(scenario) -> dict[str, np.ndarray | SearchBot]:
    """The scenario's bots, utility personalities then search bots (kept for the last scenario read)."""
    if _cache[0] is not scenario:
        _cache[:] = [scenario, read_bots(str(scenario.path), scenario.data)]
    return _cache[1]


def bot_names(scenario) -> tuple[str, ...]:
    """``random``, the scenario's personalities and its search bots."""
    return (B.RANDOM, *personalities(scenario))


def bot_tables(scenario, bots: Sequence[str]) -> tuple[np.ndarray, ...]:
    """``(kinds int64[2], policy float64[2, W], reply, params float64[2, PARAMS], values)`` of the two seats'
    bots: a utility seat's own weights as its policy, a search seat's (``kinds`` :data:`.search_play.BOT_SEARCH`)
    policy, reply, budget and value weights."""
    if len(bots) != 2:
        raise ValueError(f"need two bots (first player's, second player's), got {list(bots)}")
    pers = personalities(scenario)
    kinds = np.zeros(2, np.int64)
    policy = np.zeros((2, len(B.WEIGHT_NAMES)), np.float64)
    reply = np.zeros_like(policy)
    params = np.zeros((2, PARAMS), np.float64)
    params[:, PLANS] = 1
    values = np.zeros((2, len(VALUE_NAMES)), np.float64)
    for seat, name in enumerate(bots):
        bot = pers.get(name)
        if name == B.RANDOM:
            kinds[seat] = B.BOT_RANDOM
        elif isinstance(bot, SearchBot):
            kinds[seat] = BOT_SEARCH
            policy[seat], reply[seat] = pers[bot.policy], pers[bot.reply]
            params[seat], values[seat] = bot.params, bot.values
        elif bot is not None:
            kinds[seat] = B.BOT_UTILITY
            policy[seat] = reply[seat] = bot
        else:
            raise ValueError(f"unknown bot {name!r} (the scenario knows: {', '.join(bot_names(scenario))})")
    return kinds, policy, reply, params, values


def play_state(scenario, first: str, second: str, seed: int, bots: Sequence[str], record: bool = False,
               stats: np.ndarray | None = None):
    """Play one game to its end; returns ``(state, actions as engine rows or None, number of actions)``.

    A game without search seats is played by :func:`~simkit.games.magic.bots.play_game`, one with them by
    :func:`~simkit.games.magic.search_play.play_game` (``stats``, ``int64[4]``: its searches and search
    seats' actions are added there)."""
    rules = scenario.rules
    kinds, policy, reply, params, values = bot_tables(scenario, bots)
    s = new_state(rules, first, second, seed)
    bseed = stream_seeds(seed)[2]
    keys = np.array([derive_seed(bseed, seat) for seat in (0, 1)], np.int64)
    rec = np.zeros((B.ACTION_CAP + 1 if record else 0, 5), np.int64)
    if (kinds == BOT_SEARCH).any():
        stats = np.zeros(4, np.int64) if stats is None else stats
        n = search_play(s, kinds, policy, reply, params, values, keys, rules.ut, rules.sk, rules.st, rules.rc, rec,
                        stats)
    else:
        n = B.play_game(s, kinds, policy, keys, rules.ut, rules.sk, rules.st, rules.rc, rec)
    if n < 0:
        raise RuntimeError(f"magic: game {first} vs {second} seed {seed}: "
                           + ("a bot chose an illegal action" if n == -2 else f"passed {B.ACTION_CAP} actions"))
    return s, (rec[:n] if record else None), n


def side_values(rules, s: np.ndarray) -> dict[str, int]:
    """The per-side columns of a finished game, ``first_<name>`` and ``second_<name>``."""
    out = {}
    for name in SIDE_COLUMNS:
        for p, seat in enumerate(("first", "second")):
            b = E.PB0 + p * E.PBS
            if name == "leader_hp":
                lead = int(s[b + E.P_LEADER])
                v = E.hp_left(s, lead, rules.ut)
            elif name == "army_left":
                v = E.army_left(s, p, rules.ut)
            else:
                v = s[b + _P[name]]
            out[f"{seat}_{name}"] = int(v)
    return out


def counter_cards(rules) -> dict[str, tuple[str, ...]]:
    """Every card the engine counts: the races (their leaders) and every race's unit types."""
    units = sorted({u for race in rules.races for u in rules.race_units[race]})
    return {"race": tuple(rules.races), "unit": tuple(units)}


def counter_values(rules, s: np.ndarray) -> dict[str, int]:
    """The counter columns (:func:`simkit.games.counter_column`) of a finished game: per seat, each unit type's
    units bought (its army's, summoned ones aside), units lost and dice hits on enemy units (``F_HITS``: attacks
    and splash, before reductions; summoned units' hits count for their type), and its leader's hits (race)."""
    cards = counter_cards(rules)
    counts = {(q, t): [0, 0, 0] for q in (0, 1) for t in cards["unit"]}
    leader = [0, 0]
    for u in range(int(s[E.G_NU])):
        b = E.ub(u)
        t, q = int(s[b + E.F_TYPE]), int(s[b + E.F_OWNER])
        if rules.ut[t, U_LEADER] == 1:
            leader[q] += int(s[b + E.F_HITS])
            continue
        c = counts.setdefault((q, rules.types[t]), [0, 0, 0])
        c[0] += int(s[b + E.F_SUMMONED] == 0)
        c[1] += int(s[b + E.F_STATE] == E.US_DEAD)
        c[2] += int(s[b + E.F_HITS])
    out = {}
    for q, seat in enumerate(SEATS):
        race = rules.races[int(s[E.pb(q) + E.P_RACE])]
        for name in cards["race"]:
            out[counter_column(seat, "race", name, "hits")] = leader[q] if name == race else 0
        for name in cards["unit"]:
            bought, lost, hits = counts[(q, name)]
            out[counter_column(seat, "unit", name, "bought")] = bought
            out[counter_column(seat, "unit", name, "lost")] = lost
            out[counter_column(seat, "unit", name, "hits")] = hits
    return out


def play_batch(scenario, first_decks: Sequence[str], second_decks: Sequence[str], seeds: Sequence[int],
               bots: Sequence[str] = ("balanced", "balanced"), record_actions: bool = False) -> dict[str, list]:
    """Play one game per (first army, second army, seed) to the end.

    Returns:
        The columns of :meth:`simkit.games.Ruleset.columns` (one value per game: the schema's, then the counters
        of :func:`counter_values`), plus
        ``action_list`` (each game's actions as :class:`~simkit.games.magic.match.Match` tuples) when
        ``record_actions``.

    Raises:
        ValueError: lengths differ, an unknown bot, an illegal army or one in a seat it cannot afford
            (:class:`~simkit.core.errors.ScenarioError`).
    """
    rules = scenario.rules
    n = len(first_decks)
    if len(second_decks) != n or len(seeds) != n:
        raise ValueError(f"got {n} first armies, {len(second_decks)} second armies and {len(seeds)} seeds; "
                         "need one of each per game")
    bot_tables(scenario, bots)
    cols: dict[str, list] = {k: [] for k in ("first_deck", "second_deck", "seed", "winner", "end_reason", "turns",
                                             "first_bot", "second_bot", "actions")}
    cols.update({f"{seat}_{name}": [] for name in SIDE_COLUMNS for seat in ("first", "second")})
    cols.update({c: [] for c in scenario.game.counter_columns()})
    lists = []
    for first, second, seed in zip(first_decks, second_decks, seeds):
        first, second = canonical_deck(rules, first), canonical_deck(rules, second)
        s, rows, k = play_state(scenario, first, second, int(seed), bots, record_actions)
        cols["first_deck"].append(first)
        cols["second_deck"].append(second)
        cols["seed"].append(int(seed))
        cols["winner"].append(WINNERS[int(s[E.G_WINNER])])
        cols["end_reason"].append(E.END_REASONS[int(s[E.G_REASON])])
        cols["turns"].append(int(s[E.G_TURN]))
        cols["first_bot"].append(bots[0])
        cols["second_bot"].append(bots[1])
        cols["actions"].append(int(k))
        for key, v in side_values(rules, s).items():
            cols[key].append(v)
        for key, v in counter_values(rules, s).items():
            cols[key].append(v)
        if record_actions:
            lists.append([decode(rules, r) for r in rows])
    if record_actions:
        cols["action_list"] = lists
    return cols
