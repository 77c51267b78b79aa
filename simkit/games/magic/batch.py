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
from simkit.core.seats import WINNERS
from simkit.games import SEATS, counter_column
from simkit.games.kits.experience import EXPERIENCE, FIGURES, begin, experience_columns, write
from simkit.games.kits.state import zeros
from simkit.games.magic import bots as B
from simkit.games.magic import engine as E
from simkit.games.magic.armies import army_units, canonical_deck
from simkit.games.magic.match import decode, new_state, stream_seeds
from simkit.games.magic.personalities import personalities, read_bots
from simkit.games.magic.search import VALUES
from simkit.games.magic.search_config import SearchBot
from simkit.games.magic.search_loop import PARAMS, PLANS
from simkit.games.magic.search_play import BOT_SEARCH
from simkit.games.magic.search_play import play_game as search_play
from simkit.games.magic.state import END_REASONS
from simkit.scenario import experience_settings

__all__ = ["SIDE_COLUMNS", "bot_names", "bot_tables", "counter_cards", "counter_values", "play_batch", "play_state",
           "read_bots", "side_values"]

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
#: the side columns read straight from a :data:`~simkit.games.magic.state.SIDE` field (column -> field)
_SIDE_FIELDS = {"army_value": "army_value", "units_lost": "units_lost", "kills": "kills",
                "magic_gained": "magic_gained", "magic_spent": "magic_spent", "cards_drawn": "drawn",
                "cards_used": "cards_used", "dice": "dice", "skills": "skills_used", "summons": "summons",
                "combined": "combined"}


def bot_names(scenario) -> tuple[str, ...]:
    """``random``, the scenario's personalities and its search bots."""
    return (B.RANDOM, *personalities(scenario))


def bot_tables(scenario, bots: Sequence[str]) -> tuple[np.ndarray, ...]:
    """``(kinds int64[2], policy, reply, params float64[2, PARAMS], values)`` of the two seats' bots: a utility
    seat's own weights as its policy, a search seat's (``kinds`` :data:`.search_play.BOT_SEARCH`) policy, reply,
    budget and value weights (``policy``, ``reply``: two :data:`~.bots.WEIGHTS` records; ``values`` two
    :data:`~.search.VALUES` records)."""
    if len(bots) != 2:
        raise ValueError(f"need two bots (first player's, second player's), got {list(bots)}")
    pers = personalities(scenario)
    kinds = np.zeros(2, np.int64)
    policy = np.zeros(2, B.WEIGHTS)
    reply = np.zeros(2, B.WEIGHTS)
    params = np.zeros((2, PARAMS), np.float64)
    params[:, PLANS] = 1
    values = np.zeros(2, VALUES)
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
               stats: np.ndarray | None = None, band: float | None = None):
    """Play one game to its end; returns ``(game, actions as engine rows or None, number of actions, experience)``
    (``experience``: the game's :data:`~simkit.games.kits.experience.EXPERIENCE` record, its decisions and its
    lead at each turn's end noted with the scenario's ``[lead]`` weights and ``band``, default its
    ``[experience] level_band``).

    A game without search seats is played by :func:`~simkit.games.magic.bots.play_game`, one with them by
    :func:`~simkit.games.magic.search_play.play_game` (``stats``, ``int64[2, 2]``: per seat its searches and
    search seat's actions are added there)."""
    rules = scenario.rules
    kinds, policy, reply, params, values = bot_tables(scenario, bots)
    g = new_state(rules, first, second, seed)
    bseed = stream_seeds(seed)[2]
    keys = np.array([derive_seed(bseed, seat) for seat in (0, 1)], np.int64)
    rec = np.zeros((B.ACTION_CAP + 1 if record else 0, 5), np.int64)
    band = experience_settings(scenario).level_band if band is None else band
    x = zeros(EXPERIENCE)
    begin(x)
    if (kinds == BOT_SEARCH).any():
        stats = np.zeros((2, 2), np.int64) if stats is None else stats
        n = search_play(g, kinds, policy, reply, params, values, keys, rules.packed, rec, stats, rules.lead, band, x)
    else:
        n = B.play_game(g, kinds, policy, keys, rules.packed, rec, rules.lead, band, x)
    if n < 0:
        raise RuntimeError(f"magic: game {first} vs {second} seed {seed}: "
                           + ("a bot chose an illegal action" if n == -2 else f"passed {B.ACTION_CAP} actions"))
    return g, (rec[:n] if record else None), n, x


def side_values(rules, g: np.void) -> dict[str, int]:
    """The per-side columns of a finished game, ``first_<name>`` and ``second_<name>``."""
    out = {}
    for name in SIDE_COLUMNS:
        for p, seat in enumerate(("first", "second")):
            side = g.sides[p]
            if name == "leader_hp":
                v = E.hp_left(g, int(side.leader), rules.packed)
            elif name == "army_left":
                v = E.army_left(g, p, rules.packed)
            else:
                v = getattr(side, _SIDE_FIELDS[name])
            out[f"{seat}_{name}"] = int(v)
    return out


def counter_cards(rules) -> dict[str, tuple[str, ...]]:
    """Every card the engine counts: the races (their leaders) and every race's unit types."""
    units = sorted({u for race in rules.races for u in rules.race_units[race]})
    return {"race": tuple(rules.races), "unit": tuple(units)}


def counter_values(rules, g: np.void, decks: Sequence[str]) -> dict[str, int]:
    """The counter columns (:func:`simkit.games.counter_column`) of a finished game: per seat, each unit type's
    units bought (its army's: ``decks``), units lost and dice hits on enemy units (the sides' per-card counters:
    attacks and splash, before reductions; summoned units count for their type), and its leader's hits (race)."""
    cards = counter_cards(rules)
    out = {}
    for q, seat in enumerate(SEATS):
        side = g.sides[q]
        race = rules.races[int(side.race)]
        leader_hits = int(side.hits[rules.type_id(rules.leaders[race])])
        for name in cards["race"]:
            out[counter_column(seat, "race", name, "hits")] = leader_hits if name == race else 0
        bought = army_units(rules, decks[q])
        for name in cards["unit"]:
            t = rules.type_id(name)
            out[counter_column(seat, "unit", name, "bought")] = bought.count(name)
            out[counter_column(seat, "unit", name, "lost")] = int(side.lost[t])
            out[counter_column(seat, "unit", name, "hits")] = int(side.hits[t])
    return out


def play_batch(scenario, first_decks: Sequence[str], second_decks: Sequence[str], seeds: Sequence[int],
               bots: Sequence[str] = ("balanced", "balanced"), record_actions: bool = False) -> dict[str, list]:
    """Play one game per (first army, second army, seed) to the end.

    Returns:
        The columns of :meth:`simkit.games.Ruleset.columns` (one value per game: the schema's, its experience
        figures among them (:func:`~simkit.games.kits.experience.experience_columns`), then the counters of
        :func:`counter_values`), plus
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
                                             "first_bot", "second_bot", "actions", *FIGURES)}
    cols.update({f"{seat}_{name}": [] for name in SIDE_COLUMNS for seat in ("first", "second")})
    cols.update({c: [] for c in scenario.game.counter_columns()})
    lists = []
    band = experience_settings(scenario).level_band
    figures = np.zeros((n, len(FIGURES)), np.float64)
    for j, (first, second, seed) in enumerate(zip(first_decks, second_decks, seeds)):
        first, second = canonical_deck(rules, first), canonical_deck(rules, second)
        g, rows, k, x = play_state(scenario, first, second, int(seed), bots, record_actions, band=band)
        write(x, g.winner, g.turn, figures[j])
        cols["first_deck"].append(first)
        cols["second_deck"].append(second)
        cols["seed"].append(int(seed))
        cols["winner"].append(WINNERS[int(g.winner)])
        cols["end_reason"].append(END_REASONS[int(g.reason)])
        cols["turns"].append(int(g.turn))
        cols["first_bot"].append(bots[0])
        cols["second_bot"].append(bots[1])
        cols["actions"].append(int(k))
        for key, v in side_values(rules, g).items():
            cols[key].append(v)
        for key, v in counter_values(rules, g, (first, second)).items():
            cols[key].append(v)
        if record_actions:
            lists.append([decode(rules, r) for r in rows])
    cols.update(experience_columns(figures))
    if record_actions:
        cols["action_list"] = lists
    return cols
