"""Play batches of Krypton Tower War games between two bots: one tidy record per game.

Games are played one after another, compiled (the engine, the utility and random bots and the search bots
are numba functions: :func:`simkit.games.krypton.fast_search.play.play_loop`);
a game's dice and shuffles come from its own stream
(``derive_seed(seed, "krypton")``) and each seat's bot noise from ``derive_seed(seed, "bots", seat)``,
so a record depends only on the scenario, the loadouts, the bots and the seed, never on the batch.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simkit.games import SEATS, counter_column
from simkit.games.kits import experience as X
from simkit.games.kits.bot_tables import RANDOM
from simkit.games.kits.state import zeros
from simkit.games.krypton.bots import MEMORY, WEIGHTS_RECORD, RandomBot, Utility, play_loop, read_bots
from simkit.games.krypton.fast_search.hooks import VALUE_WEIGHTS
from simkit.games.krypton.fast_search.play import MARKS, PLAN_CAP
from simkit.games.krypton.fast_search.play import play_loop as search_loop
from simkit.games.krypton.lead import write_games
from simkit.games.krypton.match import Match
from simkit.games.krypton.search_bot import PARAMS as SEARCH_PARAMS
from simkit.games.krypton.search_bot import SearchBot, read_searches, search_key, view_key
from simkit.games.krypton.tables import CARDS, canonical_deck

#: most decisions of one game (the rules bound a game far below this; reaching it is a bug)
ACTION_CAP = 200_000

TOWER_COLUMNS = {"Attack Tower": "attack_towers", "Prayer Tower": "prayer_towers", "Magic Tower": "magic_towers"}


def card_column(card: str) -> str:
    """The result column counting plays of ``card`` (``card_ignite``, ``card_satans_pact``...)."""
    return "card_" + "".join(ch if ch.isalnum() else "_" for ch in card.lower().replace("'", ""))


#: per-side result columns and their words
SIDE_COLUMNS = {
    "base_hp": "base HP at the end",
    "base_tier": "base tier at the end",
    "energy": "energy at the end",
    "energy_mined": "energy gathered from veins",
    "heroes_lost": "hero deaths",
    "revivals": "revivals (both kinds)",
    "revivals_in_place": "revivals in place",
    "towers_built": "towers built",
    "towers_lost": "own towers destroyed",
    "attack_towers": "Attack Towers built",
    "prayer_towers": "Prayer Towers built",
    "magic_towers": "Magic Towers built",
    "upgrades": "base upgrades",
    "attacks": "attack judgments started",
    "base_damage": "HP taken off the enemy base",
    "cards_played": "magic cards played",
    **{card_column(c): f"{c} played" for c in CARDS},
}

_CARD_COLUMNS = {c: card_column(c) for c in CARDS}
_bots_cache: list = [None, None, None]


def _read(scenario) -> None:
    if _bots_cache[0] is not scenario:
        pers = read_bots(str(scenario.path), scenario.data)
        _bots_cache[:] = [scenario, pers, read_searches(str(scenario.path), scenario.data, pers)]


def personalities(scenario) -> dict:
    """The scenario's utility personalities (kept for the last scenario read)."""
    _read(scenario)
    return _bots_cache[1]


def searches(scenario) -> dict:
    """The scenario's search bots (:class:`~simkit.games.krypton.search_bot.SearchSettings` by name)."""
    _read(scenario)
    return _bots_cache[2]


def bot_names(scenario) -> tuple[str, ...]:
    """``random``, the scenario's personalities, then its search bots."""
    return (RANDOM,) + tuple(personalities(scenario)) + tuple(searches(scenario))


def make_bot(scenario, name: str, seat: int, seed: int):
    """The bot ``name`` for ``seat`` of the game with ``seed``: ``(bot, None)``."""
    if name == RANDOM:
        return RandomBot(seat, seed), None
    pers = personalities(scenario)
    if name in pers:
        return Utility(pers[name], seat, seed), None
    found = searches(scenario)
    if name in found:
        return SearchBot(scenario, found[name], pers, seat, seed), None
    raise ValueError(f"unknown bot {name!r} (the scenario knows: {', '.join(bot_names(scenario))})")


def compile_parts(scenario, bots: Sequence[str]) -> list:
    """The ``compile_parts`` capability: the two halves of :func:`simkit.games.krypton.bots.play_loop`'s compile
    that share little, each compiled (or loaded from numba's cache) by calling it with the argument types the loop
    gives them: the rules (``engine.to_act``, ``legal``, ``apply``) and the bots' choice (``bots.choose_code``).
    Empty when a seat searches (the search loop compiles apart) or the JIT is off."""
    import numba

    from simkit.games.krypton import engine as E
    from simkit.games.krypton.bots import MAXLEGAL, choose_code

    players = [make_bot(scenario, b, s, 0)[0] for s, b in enumerate(bots)]
    if numba.config.DISABLE_JIT or not all(isinstance(p, (Utility, RandomBot)) for p in players):
        return []
    firsts, seconds = scenario.game.seat_decks()
    g = Match(scenario, firsts[0], seconds[0], 0, log=False)
    P, t, i64 = g.packed, numba.typeof, numba.types.int64
    s, R, dist, nbr, lg = t(g.state), t(P.rules), t(P.dist), t(P.nbr), t(np.empty(MAXLEGAL, np.int64))
    dice = [t(d) for d in P.dice]

    def rules() -> None:
        E.to_act.compile((s, R))
        E.legal.compile((s, R, dist, nbr, lg))
        E.apply.compile((s, R, dist, t(g.ev), i64))

    def choice() -> None:
        choose_code.compile((s, R, dist, nbr, i64, t(zeros(WEIGHTS_RECORD, 2)[0]), *dice, t(zeros(MEMORY, 2)[0]),
                             lg, i64))

    return [rules, choice]


def play_one(scenario, first: str, second: str, seed: int, bots: Sequence[str]) -> tuple[Match, list[tuple]]:
    """Play one game to its end; returns the finished :class:`Match` and its actions (also its ``actions``)."""
    m, codes = _play(scenario, first, second, seed, bots)
    m.actions = [m.action_of(c) for c in codes]
    return m, list(m.actions)


def _play(scenario, first: str, second: str, seed: int, bots: Sequence[str]):
    players = [make_bot(scenario, bots[s], s, seed)[0] for s in (0, 1)]
    return play_compiled(scenario, first, second, seed, players)


def play_compiled(scenario, first: str, second: str, seed: int, bots, stats: dict | None = None
                  ) -> tuple[Match, np.ndarray]:
    """One game of two bots (:class:`Utility`, :class:`RandomBot` or :class:`SearchBot`), played by numba to
    its end (:func:`simkit.games.krypton.bots.play_loop` when no seat searches); returns the finished
    :class:`Match` and its action codes (:meth:`Match.action_of` names them; the Match's ``actions`` stays
    empty; its ``experience`` holds the game's figures, noted as it played). ``stats``, when given, receives each
    seat's ``decisions`` and ``searches`` (0 for a seat that does not search)."""
    g = Match(scenario, first, second, seed, log=False)
    P = g.packed
    kinds = np.array([b.kind for b in bots], np.int64)
    W = zeros(WEIGHTS_RECORD, 2)
    mems = zeros(MEMORY, 2)
    policy, reply = zeros(WEIGHTS_RECORD, 2), zeros(WEIGHTS_RECORD, 2)
    params, values = np.zeros((2, SEARCH_PARAMS), np.float64), zeros(VALUE_WEIGHTS, 2)
    keys, counter = np.array([search_key(seed, 0), search_key(seed, 1)], np.uint64), np.zeros(2, np.uint64)
    plans, marks = np.zeros((2, PLAN_CAP + 1), np.int64), zeros(MARKS, 2)
    for s, b in enumerate(bots):
        if isinstance(b, SearchBot):
            policy[s], reply[s], params[s], values[s] = b.policy, b.reply, b.params, b.values
        else:
            W[s], mems[s] = b.W, b.mem
    acts = np.zeros(4096, np.int64)
    n = 0
    searching = any(isinstance(b, SearchBot) for b in bots)
    peeking = view_key(seed, tuple(isinstance(b, SearchBot) and b.settings.peek for b in bots))
    while True:
        if searching:
            n = search_loop(g.games, P.rules_array, P.dist, P.nbr, g.ev, kinds, W, *P.dice, mems, policy, reply,
                            params, values, keys, counter, peeking, plans, marks, acts, n, g.leads,
                            g.experiences)
        else:
            n = play_loop(g.state, P.rules, P.dist, P.nbr, g.ev, kinds, W, *P.dice, mems, acts, n, g.leads,
                          g.experiences)
        if n < 0:
            raise RuntimeError(f"krypton: a bot chose an illegal action in {first} vs {second} seed {seed}")
        if g.over:
            break
        if n > ACTION_CAP:
            raise RuntimeError(f"krypton: game {first} vs {second} seed {seed} passed {ACTION_CAP} actions")
        acts = np.concatenate([acts, np.zeros_like(acts)])
    if stats is not None:
        stats["decisions"] = [int(v) for v in marks["decisions"]]
        stats["searches"] = [int(v) for v in marks["searches"]]
    return g, acts[:n]


#: result column -> the :data:`~simkit.games.krypton.state.SIDE` field it reads
SIDE_FIELDS = {"base_hp": "base_hp", "base_tier": "tier", "energy": "energy", "energy_mined": "mined",
               "heroes_lost": "lost", "revivals": "revivals", "revivals_in_place": "in_place",
               "towers_built": "built_n", "towers_lost": "towers_lost", "upgrades": "upgrades", "attacks": "attacks",
               "base_damage": "base_damage", "cards_played": "cards_played"}


def record_columns(m: Match) -> dict:
    """The per-side columns of a finished game, ``first_<name>`` and ``second_<name>``."""
    per = []
    for side in (0, 1):
        own = m.state.sides[side]
        v = dict.fromkeys(SIDE_COLUMNS, 0)
        v.update({name: int(getattr(own, field)) for name, field in SIDE_FIELDS.items()})
        for i, kind in enumerate(m.packed.towers):
            if kind in TOWER_COLUMNS:
                v[TOWER_COLUMNS[kind]] += int(own.built[i])
        for i, card in enumerate(CARDS):
            v[_CARD_COLUMNS[card]] += int(own.played[i])
        per.append(v)
    return {f"{seat}_{name}": int(per[s][name]) for name in SIDE_COLUMNS for s, seat in enumerate(("first", "second"))}


def counter_cards(rules) -> dict[str, tuple[str, ...]]:
    """Every card the engine counts: the hero classes and the magic cards of the shared pile."""
    return {"class": tuple(rules.classes), "magic": tuple(CARDS)}


def counter_values(g: Match) -> dict[str, int]:
    """The counter columns (:func:`simkit.games.counter_column`) of a finished game: per seat, each hero class's
    attack judgments started and HP its won judgments took (summed over the seat's heroes of that class; 0 for a
    class it does not field), and each magic card's plays and the HP enemy heroes lost to its effects."""
    s, classes = g.state, list(g.packed.classes)
    out = {}
    for side, seat in enumerate(SEATS):
        attacks, dealt = dict.fromkeys(classes, 0), dict.fromkeys(classes, 0)
        own = s.sides[side]
        for k in range(g.team):
            h = own.heroes[k]
            name = classes[int(h.cls)]
            attacks[name] += int(h.attacks)
            dealt[name] += int(h.dealt)
        for name in classes:
            out[counter_column(seat, "class", name, "attacks")] = attacks[name]
            out[counter_column(seat, "class", name, "damage")] = dealt[name]
        for i, card in enumerate(CARDS):
            out[counter_column(seat, "magic", card, "played")] = int(own.played[i])
            out[counter_column(seat, "magic", card, "damage")] = int(own.card_dealt[i])
    return out


def play_batch(scenario, first_decks: Sequence[str], second_decks: Sequence[str], seeds: Sequence[int],
               bots: Sequence[str] = ("balanced", "balanced"), record_actions: bool = False) -> dict[str, list]:
    """Play one game per (first loadout, second loadout, seed) to the end.

    Returns:
        The columns of :meth:`simkit.games.Ruleset.columns` (one value per game: the schema's, the experience
        figures noted as each game played among them, then the counters of :func:`counter_values`), plus
        ``action_list`` when ``record_actions``.

    Raises:
        ValueError: lengths differ, an unknown bot, or an illegal loadout (ScenarioError).
    """
    rules = scenario.rules
    n = len(first_decks)
    if len(second_decks) != n or len(seeds) != n:
        raise ValueError(f"got {n} first loadouts, {len(second_decks)} second loadouts and {len(seeds)} seeds; "
                         "need one of each per game")
    if len(bots) != 2:
        raise ValueError(f"need two bots (first side's, second side's), got {list(bots)}")
    for b in bots:
        if b not in bot_names(scenario):
            raise ValueError(f"unknown bot {b!r} (the scenario knows: {', '.join(bot_names(scenario))})")
    cols: dict[str, list] = {k: [] for k in ("first_deck", "second_deck", "seed", "winner", "end_reason", "turns",
                                             "first_bot", "second_bot", "actions")}
    side_cols: dict[str, list] = {}
    lists = []
    records, winners = zeros(X.EXPERIENCE, n), np.zeros(n, np.int64)
    for i, (first, second, seed) in enumerate(zip(first_decks, second_decks, seeds)):
        first, second = canonical_deck(rules, first), canonical_deck(rules, second)
        g, actions = _play(scenario, first, second, int(seed), bots)
        cols["first_deck"].append(first)
        cols["second_deck"].append(second)
        cols["seed"].append(int(seed))
        cols["winner"].append(g.winner)
        cols["end_reason"].append(g.end_reason)
        cols["turns"].append(g.round)
        cols["first_bot"].append(bots[0])
        cols["second_bot"].append(bots[1])
        cols["actions"].append(len(actions))
        records[i], winners[i] = g.experience, g.state.winner
        for k, v in record_columns(g).items():
            side_cols.setdefault(k, []).append(v)
        for k, v in counter_values(g).items():
            side_cols.setdefault(k, []).append(v)
        if record_actions:
            lists.append([g.action_of(c) for c in actions] if isinstance(actions, np.ndarray) else actions)
    if not n:
        side_cols = {f"{seat}_{name}": [] for name in SIDE_COLUMNS for seat in ("first", "second")}
        side_cols.update({c: [] for c in scenario.game.counter_columns()})
    figures = np.zeros((n, len(X.FIGURES)), np.float64)
    write_games(records, winners, np.array(cols["turns"], np.int64), figures)  # one compiled call a batch
    cols.update(X.experience_columns(figures))
    cols.update(side_cols)
    if record_actions:
        cols["action_list"] = lists
    return cols
