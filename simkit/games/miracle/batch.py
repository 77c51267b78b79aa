"""Play a batch of Battle of Miracles games between two bots: one tidy record per game.

``play_batch`` is the game's entry point for :func:`simkit.play_games`. Games between two utility
bots are played wholly in compiled code, one game after another (:func:`~simkit.games.miracle.fast.game.play`).
Otherwise (the random bot, or recorded actions) all games of the batch advance together, one
action per game per step, applied by the rules (:func:`simkit.games.miracle.rules.step`, the same
compiled step the whole-game loops call); finished games leave the active set at once so they cost nothing.
Each game draws its bot randomness from its own stream (:class:`simkit.core.rng.GameStreams`), so a
game's record depends only on the scenario, its decks, the bots and its seed, never on the batch
it was played in or on the path that played it."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from simkit.core.rng import GameStreams
from simkit.core.seats import SEATS, WINNERS
from simkit.games import counter_column
from simkit.games.kits.experience import EXPERIENCE, FIGURES, begin, experience_columns, write
from simkit.games.kits.state import zeros
from simkit.games.miracle import rules as R
from simkit.games.miracle.bots import Bot, RandomBot, UtilityBot, bot_settings
from simkit.games.miracle.bots_config import RANDOM, BotSettings
from simkit.games.miracle.cards import SALAMANDER_SHIELD, canonical_deck, parse_deck
from simkit.games.miracle.fast.game import compile_parts as compile_game_parts
from simkit.games.miracle.fast.game import play as play_games
from simkit.games.miracle.fast.pack import pack_state
from simkit.games.miracle.fast_search.play import play as play_searches
from simkit.games.miracle.search import SearchBot, utility_player
from simkit.games.miracle.state import ARTIFACT_CARD, DAMAGE, END_REASONS, PLAYED
from simkit.scenario import experience_settings


def bot_names(scenario) -> tuple[str, ...]:
    """Every bot name ``scenario`` knows: ``random`` and its personalities."""
    return bot_settings(scenario).names


def make_bot(scenario, name: str, settings: BotSettings | None = None) -> Bot:
    """The bot called ``name`` in ``scenario``.

    Args:
        scenario: a loaded Battle of Miracles scenario.
        name: ``random``, one of its ``[bots.<name>]`` personalities or search bots.
        settings: the scenario's bot settings, when already read.

    Raises:
        ValueError: an unknown name (the message lists the known ones).
        ScenarioError: the ``[bots]`` table is invalid.
    """
    settings = bot_settings(scenario) if settings is None else settings
    if name == RANDOM:
        return RandomBot()
    if name in settings.searches:
        cfg = settings.searches[name]
        policy = UtilityBot(settings.personalities[cfg.policy])
        reply = UtilityBot(settings.personalities[cfg.reply])
        return SearchBot(cfg, policy, reply, settings.max_actions_per_turn)
    if name not in settings.personalities:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(settings.names)})")
    return UtilityBot(settings.personalities[name])


def counter_cards(rules) -> dict[str, tuple[str, ...]]:
    """Every card the engine counts (``State.tally``): the artifacts and the creature kinds, in file order."""
    return {"artifact": tuple(rules.cards.artifacts), "creature": tuple(rules.cards.kinds)}


def _record(rules, st, act: R.Actions) -> np.ndarray:
    """``int64[n, 5]`` the actions as (kind, x, y, cell, unit target?) with unit ids, before they are applied."""
    rows = np.arange(st.batch)
    k = act.kind
    summon = k == R.SUMMON
    unit = (k == R.MOVE) | (k == R.ATTACK) | (k == R.USE)
    uid_a = st.uid[rows, np.where(unit, act.a, 0)]
    uid_b = st.uid[rows, np.where(unit & (act.b >= 0), act.b, 0)]
    kind_index = st.deck_kind[rows, st.current, np.where(summon, act.a, 0)]
    effect = rules.cards.artifact_effect[st.deck_artifact[rows, st.current]]
    x = np.where(summon, kind_index, uid_a)
    y = np.where(summon, act.b, np.where(act.b == R.TARGET_MIRACLE, -1, uid_b))
    on_unit = (k == R.USE) & (effect == SALAMANDER_SHIELD)
    return np.stack([k, x, y, act.c, on_unit], 1).astype(np.int64)


def _as_tuple(rules, row) -> tuple:
    """One recorded action as the single-match API spells it (see :class:`Match`)."""
    kind, x, y, cell, on_unit = (int(v) for v in row)
    grid = rules.board.grid
    if kind == R.SUMMON:
        return ("summon", rules.cards.kinds[x], y, grid.cell(cell))
    if kind == R.MOVE:
        return ("move", x, grid.cell(cell))
    if kind == R.ATTACK:
        return ("attack", x, "miracle" if y < 0 else y)
    if kind == R.USE:
        return ("use", y) if on_unit else ("use", grid.cell(cell))
    return ("end_turn",)


def _choose(rules, bots, st, streams: GameStreams) -> R.Actions:
    """Each game's action from the bot of the side to act."""
    if bots[0] is bots[1]:
        return bots[0].act(rules, st, streams)
    b = st.batch
    out = R.Actions.of(R.PASS, batch=b)
    for seat, bot in enumerate(bots):
        rows = np.nonzero(st.current == seat)[0]
        if len(rows) == 0:
            continue
        sub = streams.take(rows)
        act = bot.act(rules, st.take(rows), sub)
        streams.counter[rows] = sub.counter
        for mine, theirs in zip(out, act):
            mine[rows] = theirs
    return out


_last_bots: list = [None, {}]  # the scenario last played and its bots by name, tables built


def _bot(scenario, name: str, settings):
    """The bot ``name`` of ``scenario``, kept between calls for the same scenario object (a sweep
    worker plays chunk after chunk of one scenario; its utility bots build tables once). Sharing is
    safe: a bot's scratch carries nothing from one call to the next, and its kernels hold the GIL."""
    if _last_bots[0] is not scenario:
        _last_bots[:] = [scenario, {}]
    made = _last_bots[1]
    if name not in made:
        made[name] = make_bot(scenario, name, settings)
    return made[name]


def _results(st) -> dict[str, np.ndarray]:
    """The result columns of finished games ``st``, by their codes."""
    return {
        "winner": st.winner.astype(np.int64),
        "end_reason": st.end_reason.astype(np.int64),
        "turns": st.turn.astype(np.int64),
        "hp0": st.miracle_hp[:, 0].astype(np.int64),
        "hp1": st.miracle_hp[:, 1].astype(np.int64),
        "stars0": st.dead_stars[:, 0].astype(np.int64),
        "stars1": st.dead_stars[:, 1].astype(np.int64),
        "tally": st.tally.astype(np.int64),
    }


def _play_compiled(rules, players, st, streams: GameStreams, cap: int, band: float) -> dict[str, np.ndarray]:
    """Play the games of ``st`` between two utility bots to the end, each wholly in compiled code."""
    first, second = (bot.compiled(rules) for bot in players)
    played = np.zeros(st.batch, np.int64)
    figures = np.zeros((st.batch, len(FIGURES)))
    play_games(
        pack_state(st),
        first.k_rules,
        first.k_bot,
        second.k_bot,
        first.layout,
        first.sit,
        streams.keys,
        streams.counter,
        cap,
        played,
        band,
        zeros(EXPERIENCE, 1),
        figures,
    )
    return {**_results(st), "played": played, "figures": figures}


def _play_searches(rules, players, st, streams: GameStreams, cap: int, band: float) -> dict[str, np.ndarray]:
    """Play the games of ``st`` between utility and search bots to the end, each wholly in compiled code."""
    seats = [p.player(rules) if isinstance(p, SearchBot) else utility_player(p, rules) for p in players]
    fast = next(p.policy if isinstance(p, SearchBot) else p for p in players).compiled(rules)
    played = np.zeros(st.batch, np.int64)
    figures = np.zeros((st.batch, len(FIGURES)))
    if st.batch:
        play_searches(
            pack_state(st),
            fast.k_rules,
            pack_state(st.take([0])),
            fast.sit,
            fast.layout,
            streams.keys,
            streams.counter,
            cap,
            played,
            seats[0],
            seats[1],
            band,
            zeros(EXPERIENCE, 1),
            figures,
        )
    return {**_results(st), "played": played, "figures": figures}


def _play_batched(rules, players, st, streams: GameStreams, cap: int, record_actions: bool, band: float):
    """Play the games of ``st`` all as one batch, one action per game per step, the finished ones
    leaving the batch, noting how each plays (:mod:`simkit.games.miracle.lead`; a bot's decision is among the
    legal actions of its position, but for a turn the cap ends); returns the result columns and, when
    ``record_actions``, the action log."""
    n = st.batch
    ids = np.arange(n)
    in_turn = np.zeros(n, np.int64)
    played = np.zeros(n, np.int64)
    records, figures = zeros(EXPERIENCE, n), np.zeros((n, len(FIGURES)))
    for record in records:
        begin(record)
    result = {k: np.zeros(n, np.int64) for k in ("winner", "end_reason", "turns", "hp0", "hp1", "stars0", "stars1")}
    result["tally"] = np.zeros((n, *st.tally.shape[1:]), np.int64)
    log: list[tuple[np.ndarray, np.ndarray]] = []
    while len(ids):
        act = _choose(rules, players, st, streams)
        forced = in_turn >= cap
        act.kind[forced] = R.END_TURN
        if record_actions:
            log.append((ids.copy(), _record(rules, st, act)))
        R.step_noting(rules, st, act, records, ids, ~forced, band)
        played[ids] += 1
        in_turn = np.where(act.kind == R.END_TURN, 0, in_turn + 1)
        done = st.over
        if done.any():
            gone = ids[done]
            for key, column in _results(st.take(done)).items():
                result[key][gone] = column
            for i in gone:
                write(records[i], int(result["winner"][i]), int(result["turns"][i]), figures[i])
            keep = ~done
            st, streams, ids, in_turn = st.take(keep), streams.take(keep), ids[keep], in_turn[keep]
    return {**result, "played": played, "figures": figures}, log


def _counter_columns(rules, artifact: np.ndarray, kinds: np.ndarray, tally: np.ndarray) -> dict[str, list[int]]:
    """The counter columns (:func:`simkit.games.counter_column`) of every card, from the games' ``tally``
    (``int[n, 2, 4, 2]``, see ``State.tally``), artifacts (``int[n, 2]``) and creature kinds (``int[n, 2, 3]``);
    0 where a seat does not hold the card."""
    cards, out = rules.cards, {}
    for s, seat in enumerate(SEATS):
        for a, name in enumerate(cards.artifacts):
            held = artifact[:, s] == a
            for c, counter in ((PLAYED, "used"), (DAMAGE, "damage")):
                out[counter_column(seat, "artifact", name, counter)] = (tally[:, s, ARTIFACT_CARD, c] * held).tolist()
        for k, name in enumerate(cards.kinds):
            held = kinds[:, s, :] == k
            for c, counter in ((PLAYED, "summoned"), (DAMAGE, "damage")):
                out[counter_column(seat, "creature", name, counter)] = (tally[:, s, :3, c] * held).sum(1).tolist()
    return out


def compile_parts(scenario, bots: Sequence[str]) -> list:
    """The parts of the compiled engine a sweep of ``bots`` (first, second) compiles that share no kernel, each
    compiled (or loaded from numba's cache) by calling it (:func:`.fast.game.compile_parts`): the ``compile_parts``
    capability. Empty unless both bots are utility bots (the whole-game loop of :func:`_play_compiled`)."""
    settings = bot_settings(scenario)
    players = [_bot(scenario, b, settings) for b in bots]
    if not all(isinstance(p, UtilityBot) for p in players):
        return []
    fast = players[0].compiled(scenario.rules)
    st = R.empty_state(scenario.rules, np.zeros((0, 2), np.int16), np.zeros((0, 2, 3), np.int16))  # types only
    return compile_game_parts(pack_state(st), fast.k_rules, fast.k_bot, fast.layout, fast.sit)


def play_batch(
    scenario,
    first_decks: Sequence[str],
    second_decks: Sequence[str],
    seeds: Sequence[int],
    bots: Sequence[str] = ("balanced", "random"),
    record_actions: bool = False,
) -> dict[str, list]:
    """Play one game per (first deck, second deck, seed) to the end, all as one batch.

    Args:
        scenario: a loaded Battle of Miracles scenario.
        first_decks, second_decks: deck ids, one per game; the first deck moves first.
        seeds: one seed per game (the bots' randomness).
        bots: ``(first player's bot, second player's bot)`` names.
        record_actions: also return each game's actions as single-match tuples (column ``action_list``).

    Returns:
        Columns of one row per game: first_deck, second_deck, seed, winner (``"first"``,
        ``"second"`` or ``"draw"``), end_reason, turns, first/second_miracle_hp,
        first/second_dead_stars, first_bot, second_bot, actions (number played), the experience figures
        (:data:`simkit.games.EXPERIENCE_COLUMNS`: lead changes, the winner's deepest deficit, the deciding turn,
        decisions and the legal actions per decision, uncertainty NaN: see :mod:`simkit.games.miracle.lead`),
        then per seat the counts of
        every card (``first:creature:Archer:summoned``, ``...:damage``; ``first:artifact:HolyLight:used``,
        ``...:damage``; 0 for a card the seat did not hold): units summoned or artifact uses, and damage dealt
        as applied (a holy shield's blocked hit counts 0; overkill and miracle damage count in full).

    Raises:
        ValueError: lengths differ, an unknown bot name, or an illegal deck (ScenarioError).
    """
    rules = scenario.rules
    n = len(first_decks)
    if len(second_decks) != n or len(seeds) != n:
        raise ValueError(
            f"got {n} first decks, {len(second_decks)} second decks and {len(seeds)} seeds; need one of each per game"
        )
    if len(bots) != 2:
        raise ValueError(f"need two bots (first player's, second player's), got {list(bots)}")
    settings = bot_settings(scenario)
    players = (_bot(scenario, bots[0], settings), _bot(scenario, bots[1], settings))
    decks = [[canonical_deck(rules.cards, d) for d in ds] for ds in (first_decks, second_decks)]
    parsed = [[parse_deck(rules.cards, d) for d in ds] for ds in decks]
    artifact = np.array([[a for a, _ in pair] for pair in zip(*parsed)], np.int16).reshape(n, 2)
    kinds = np.array([[k for _, k in pair] for pair in zip(*parsed)], np.int16).reshape(n, 2, 3)
    seeds = np.asarray(seeds, dtype=np.int64)

    st = R.new_games(rules, artifact, kinds)
    streams = GameStreams(seeds)
    cap = settings.max_actions_per_turn
    band = experience_settings(scenario).level_band
    if not record_actions and all(isinstance(p, UtilityBot) for p in players):
        result, log = _play_compiled(rules, players, st, streams, cap, band), []
    elif not record_actions and all(isinstance(p, (UtilityBot, SearchBot)) for p in players):
        result, log = _play_searches(rules, players, st, streams, cap, band), []
    else:
        result, log = _play_batched(rules, players, st, streams, cap, record_actions, band)
    out = {
        "first_deck": decks[0],
        "second_deck": decks[1],
        "seed": [int(s) for s in seeds],
        "winner": [WINNERS[int(w)] for w in result["winner"]],
        "end_reason": [END_REASONS[int(e)] for e in result["end_reason"]],
        "turns": result["turns"].tolist(),
        "first_miracle_hp": result["hp0"].tolist(),
        "second_miracle_hp": result["hp1"].tolist(),
        "first_dead_stars": result["stars0"].tolist(),
        "second_dead_stars": result["stars1"].tolist(),
        "first_bot": [bots[0]] * n,
        "second_bot": [bots[1]] * n,
        "actions": result["played"].tolist(),
        **experience_columns(result["figures"]),
        **_counter_columns(rules, artifact, kinds, result["tally"]),
    }
    if record_actions:
        games: list[list[tuple]] = [[] for _ in range(n)]
        for g, rows in log:
            for i, row in zip(g.tolist(), rows):
                games[i].append(_as_tuple(rules, row))
        out["action_list"] = games
    return out
