"""``api_test``: what every simkit game must pass, whatever its rules (in the spirit of pgx's
``api_test`` and OpenSpiel's random-simulation test).

It plays random legal games of a scenario through the game interface alone and checks that:

* the records hold exactly the declared columns (:meth:`simkit.games.Ruleset.columns`: the schema's and the
  scenario's card counters), with winners, end reasons, per-side numbers and counts of the declared kinds;
* a batch of games gives the very games played one at a time (results never depend on the batch);
* every game ends within the game's turn limit;
* replaying a game's recorded actions through its :class:`~simkit.games.Match` rebuilds it (over,
  same winner), and every recorded action was among the match's legal actions when it was played;
* an illegal action raises :class:`simkit.IllegalAction` and leaves the match unchanged;
* ``clone()`` is an independent copy: an action done on it leaves the match unchanged, and the match
  doing the same action reaches the same snapshot.
"""

from __future__ import annotations

import math
from numbers import Integral, Real
from pathlib import Path

import numpy as np

from simkit.core.errors import IllegalAction
from simkit.games import EXPERIENCE_COLUMNS, WINNERS
from simkit.runner import game_seeds
from simkit.scenario import Scenario, load_scenario

__all__ = ["APITestFailure", "api_test"]


class APITestFailure(AssertionError):
    """A game broke the game interface's contract; the message says how and in which game."""


def _fail(problem: str) -> APITestFailure:
    return APITestFailure(problem)


def _check_columns(game, cols: dict, n: int) -> None:
    want = list(game.columns())  # the schema's columns, then the scenario's counter columns
    got = [c for c in cols if c != "action_list"]
    if set(got) != set(want) or len(got) != len(want):
        extra, missing = sorted(set(got) - set(want)), sorted(set(want) - set(got))
        raise _fail(f"{game.name}: play_batch columns differ from the declared ones (undeclared: {extra}, "
                    f"missing: {missing})")
    for c in want:
        if len(cols[c]) != n:
            raise _fail(f"{game.name}: column {c} holds {len(cols[c])} values for {n} games")
    for i in range(n):
        if cols["winner"][i] not in WINNERS:
            raise _fail(f"{game.name}: game {i}: winner {cols['winner'][i]!r} is not one of {WINNERS}")
        if cols["end_reason"][i] not in game.schema.end_reasons:
            raise _fail(f"{game.name}: game {i}: end reason {cols['end_reason'][i]!r} is not declared "
                        f"({', '.join(game.schema.end_reasons)})")
        side = list(game.schema.columns())[len(game.schema.columns()) - 2 * len(game.schema.side_columns):]
        for c in side + list(game.counter_columns()) + ["turns", "actions"]:
            v = cols[c][i]
            if isinstance(v, bool) or not isinstance(v, (Integral, Real)):
                raise _fail(f"{game.name}: game {i}: {c} = {v!r} is not a number")


def _check_experience(game, cols: dict, n: int) -> None:
    """The experience figures of a game that records them (:mod:`simkit.games.kits.experience`) within their ranges."""
    if not game.schema.experience:
        return
    for i in range(n):
        drawn, turns = cols["winner"][i] == "draw", cols["turns"][i]
        figures = {c: cols[c][i] for c in EXPERIENCE_COLUMNS}
        where = f"{game.name}: game {i} ({cols['first_deck'][i]} vs {cols['second_deck'][i]})"
        if figures["lead_changes"] < 0 or figures["decisions"] < 0:
            raise _fail(f"{where}: negative lead changes or decisions: {figures}")
        for c in ("winner_deficit", "decided_turn"):
            if drawn != math.isnan(figures[c]):
                raise _fail(f"{where}: {c} = {figures[c]!r} must be NaN exactly when the game is drawn ({figures})")
        if not drawn and not (0 <= figures["winner_deficit"] <= 2 and 1 <= figures["decided_turn"] <= max(turns, 1)):
            raise _fail(f"{where}: winner_deficit must lie in 0..2 and decided_turn in 1..{turns}: {figures}")
        if figures["decisions"] > 0 and not figures["choices"] >= 1:
            raise _fail(f"{where}: a decision among fewer than one legal action: {figures}")
        if not math.isnan(figures["uncertainty"]) and not 0 <= figures["uncertainty"] <= 1:
            raise _fail(f"{where}: uncertainty must lie in 0..1: {figures}")


def _same_value(a, b) -> bool:
    """Equal, NaN equal to NaN (a figure with no value in both games)."""
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


def _same_game(game, one: dict, many: dict, i: int) -> None:
    for c, values in one.items():
        if not _same_value(values[0], many[c][i]):
            raise _fail(f"{game.name}: game {i} ({many['first_deck'][i]} vs {many['second_deck'][i]}, seed "
                        f"{many['seed'][i]}): {c} is {many[c][i]!r} in a batch but {values[0]!r} played alone")


def _illegal_probes(match, seen: list[tuple]) -> list[tuple]:
    """Actions legal at some other moment of the games but not now (at most three)."""
    legal = set(map(repr, match.legal_actions()))
    return [a for a in seen if repr(a) not in legal][:3]


def _replay_and_probe(game, sc: Scenario, cols: dict, i: int, seen: list[tuple], probes: int) -> int:
    """Replay game ``i`` action by action; probe illegal actions on the way; returns probes made."""
    first, second, seed = cols["first_deck"][i], cols["second_deck"][i], cols["seed"][i]
    actions = cols["action_list"][i]
    where = f"{game.name}: game {i} ({first} vs {second}, seed {seed})"
    m = game.new_match(first, second, seed=seed)
    made = 0
    for k, action in enumerate(actions):
        if m.over:
            raise _fail(f"{where}: the match is over after {k} of {len(actions)} recorded actions")
        legal = m.legal_actions()
        if repr(action) not in set(map(repr, legal)):
            raise _fail(f"{where}: recorded action {k} {action!r} is not among the match's legal actions")
        if made < probes and k % 7 == 3:
            for probe in _illegal_probes(m, seen):
                before = m.snapshot()
                try:
                    m.do(probe)
                except IllegalAction:
                    pass
                else:
                    raise _fail(f"{where}: illegal action {probe!r} (not among the legal actions before action "
                                f"{k}) was accepted")
                if m.snapshot() != before:
                    raise _fail(f"{where}: the refused action {probe!r} changed the game")
                made += 1
        if k % 7 == 3:  # clone(): an independent copy, the same game after the same action
            trial, before = m.clone(), m.snapshot()
            trial.do(action)
            if m.snapshot() != before:
                raise _fail(f"{where}: an action done on clone() before action {k} changed the match it came from")
            m.do(action)
            if trial.snapshot() != m.snapshot() or trial.actions != m.actions:
                raise _fail(f"{where}: clone() before action {k} does not play on as the match itself")
            continue
        m.do(action)
    if not m.over:
        raise _fail(f"{where}: the match is not over after its {len(actions)} recorded actions")
    if m.winner != cols["winner"][i]:
        raise _fail(f"{where}: the replayed match's winner is {m.winner!r}, the record says {cols['winner'][i]!r}")
    again = game.replay(first, second, actions, seed=seed)
    if again.snapshot() != m.snapshot():
        raise _fail(f"{where}: replay() does not rebuild the game played action by action")
    return made


def api_test(scenario: Scenario | str | Path, games: int = 6, seed: int = 0, bots: tuple[str, str] = ("random",
             "random"), probes: int = 12) -> dict:
    """Play ``games`` random legal games of ``scenario`` and check the game interface's contract.

    Args:
        scenario: a loaded scenario or its file.
        games: how many games (random decks from the pool, or from each seat's pool when the game's seats differ).
        seed: picks the decks and the games' seeds.
        bots: the bots that play (random legal play by default).
        probes: at most this many illegal actions tried (actions legal elsewhere, not at that moment).

    Returns:
        What was checked: ``{"games": n, "actions": total, "illegal_probes": k}``.

    Raises:
        APITestFailure: the first broken promise, naming the game, decks and seed.
    """
    sc = scenario if isinstance(scenario, Scenario) else load_scenario(scenario)
    game = sc.game
    pick = np.random.default_rng(seed)
    pool0, pool1 = game.seat_decks()  # the same pool twice unless the game's seats differ
    first = [pool0[int(j)] for j in pick.integers(0, len(pool0), games)]
    second = [pool1[int(j)] for j in pick.integers(0, len(pool1), games)]
    seeds = game_seeds(seed, games)
    many = dict(game.play_batch(first, second, seeds, bots, record_actions=True))
    if "action_list" not in many:
        raise _fail(f"{game.name}: play_batch(record_actions=True) returned no action_list")
    _check_columns(game, many, games)
    _check_experience(game, many, games)
    limit = game.turn_limit
    for i in range(games):
        one = dict(game.play_batch([first[i]], [second[i]], [seeds[i]], bots, record_actions=True))
        _check_columns(game, one, 1)
        _same_game(game, one, many, i)
        if limit is not None and many["turns"][i] > limit:
            raise _fail(f"{game.name}: game {i} lasted {many['turns'][i]} turns, beyond the turn limit {limit}")
        if len(many["action_list"][i]) != many["actions"][i]:
            raise _fail(f"{game.name}: game {i}: actions = {many['actions'][i]} but {len(many['action_list'][i])} "
                        "were recorded")
    seen = list({repr(a): a for g in many["action_list"] for a in g}.values())
    made = 0
    for i in range(games):
        made += _replay_and_probe(game, sc, many, i, seen, max(0, probes - made))
    return {"games": games, "actions": int(sum(many["actions"])), "illegal_probes": made}
