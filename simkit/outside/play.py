"""Games with an outside bot: played one decision at a time through the game's ``Match``, never the compiled batch.

:func:`play_batch` is what :meth:`simkit.games.Ruleset.play_batch` calls when a seat's bot is an outside bot (the
others play through the game's ``outside.py``: ``inside_player``). Each outside seat's program is started once per
process and bot and seat, and reused game after game (a sweep's worker keeps its programs for all its chunks); a
program that failed is ended and a fresh one starts for the next game. A failure ends the game as a forfeit: the
record's ``end_reason`` is ``"forfeit"``, ``winner`` the other seat, ``forfeit_seat`` who failed and
``forfeit_reason`` why (``crash``, ``timeout``, ``malformed`` or ``illegal``, then the detail); every other column
is the position the game stopped in. The protocol is ``docs/outside-bots.md``.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Sequence

import numpy as np

from simkit.core.errors import IllegalAction
from simkit.core.rng import derive_seed
from simkit.core.seats import SEATS
from simkit.outside.bots import SIMKIT_PROTOCOL, OutsideBot, check_allowed, outside_bots
from simkit.outside.process import BotFailure, BotProcess, Framing

__all__ = ["FORFEIT", "FORFEIT_COLUMNS", "PROTOCOL", "OutsideSeat", "ProtocolSeat", "TimedSeat", "jsonable",
           "check_pairings", "choosing_own_deck", "own_decks", "play_batch", "play_match"]

#: the protocol's version, sent in every start message
PROTOCOL = 1
#: the end reason of a game a bot forfeited, and the columns that say who and why
FORFEIT = "forfeit"
FORFEIT_COLUMNS = ("forfeit_seat", "forfeit_reason")
#: the most decisions one game may take (a safety net: every game's rules end a game long before)
ACTION_CAP = 200_000


def jsonable(value):
    """``value`` as plain JSON values: tuples and arrays as lists, numpy numbers as numbers, a mapping whose keys are
    not all strings as a list of ``[key, value]`` pairs."""
    if isinstance(value, dict):
        if all(isinstance(k, str) for k in value):
            return {k: jsonable(v) for k, v in value.items()}
        return [[jsonable(k), jsonable(v)] for k, v in value.items()]
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, np.ndarray):
        return jsonable(value.tolist())
    if isinstance(value, np.generic):
        return value.item()
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _key(value) -> str:
    """One canonical text of an action's JSON form (what an answer is matched against)."""
    return json.dumps(jsonable(value), separators=(",", ":"))


# -- the programs of this process ----------------------------------------------------------------------------------

_PROGRAMS: dict[tuple, BotProcess] = {}


def _program(bot: OutsideBot, seat: int) -> tuple[BotProcess, bool]:
    """The running program of ``bot`` in ``seat`` for this process, started when there is none (or it ended);
    ``(program, freshly started)``."""
    key = (os.getpid(), bot.name, seat, bot.command, bot.cwd)
    proc = _PROGRAMS.get(key)
    if proc is not None and proc.alive():
        return proc, False
    if proc is not None:
        proc.end(grace=0)
    proc = _PROGRAMS[key] = BotProcess(bot.command, bot.cwd, label=f"bot {bot.name!r} ({bot.shown()})")
    return proc, True


def _drop(bot: OutsideBot, seat: int) -> None:
    """End ``bot``'s program in ``seat`` (after a failure: the next game starts a fresh one)."""
    proc = _PROGRAMS.pop((os.getpid(), bot.name, seat, bot.command, bot.cwd), None)
    if proc is not None:
        proc.end(grace=0)


class TimedSeat:
    """What every seat played by a program shares: its time limits and how one answer is waited for.

    Args:
        bot: the outside bot.
        seat: 0 (first) or 1 (second).
    """

    def __init__(self, bot: OutsideBot, seat: int):
        self.bot, self.seat = bot, seat
        self.proc: BotProcess | None = None
        self.fresh = False
        self.used = 0.0
        self.decisions = 0

    def ask(self, message: dict, start: bool = False) -> dict:
        """Send ``message`` (the next decision, or the start's question when ``start``) and wait for the answer
        within the time left: the decision's limit, what is left of the game's budget, plus ``start_seconds`` for
        a freshly started program's first answer.

        Raises:
            BotFailure: ``timeout`` (which limit named), ``crash`` or ``malformed``, with the detail.
        """
        if not start:
            self.decisions += 1
        extra = self.bot.start_seconds if self.fresh else 0.0
        game_left = self.bot.game_seconds - self.used
        limit = min(self.bot.decision_seconds, game_left) + extra
        where = "the start" if start else f"decision {self.decisions}"
        self.proc.send(message)
        started = time.monotonic()
        try:
            return self.proc.receive(limit)
        except BotFailure as exc:
            if exc.kind == "timeout":
                which = ("the game's" if game_left < self.bot.decision_seconds else "one decision's")
                raise BotFailure("timeout", f"no answer to {where} within {limit:.3g} s ({which} limit)") from None
            raise BotFailure(exc.kind, f"at {where}: {exc.detail}", whole=exc.whole) from None
        finally:
            self.used += max(0.0, time.monotonic() - started - extra)
            self.fresh = False

    def time_left(self) -> dict:
        """The ``time`` of a decision message: this answer's limit and what is left of the game's budget."""
        extra = self.bot.start_seconds if self.fresh else 0.0
        game_left = self.bot.game_seconds - self.used
        return {"decision": round(min(self.bot.decision_seconds, game_left) + extra, 3),
                "game_left": round(game_left, 3)}


class OutsideSeat(TimedSeat):
    """One seat of one game played by an outside bot's program speaking simkit's protocol (JSON lines); the
    program is kept for the next game."""

    def start(self, info: dict, deck: str) -> None:
        """Send the game's start message with the seat's own ``deck`` (never the other's: it may be hidden), starting
        the program if this process has none running.

        Raises:
            BotFailure: the program cannot be started or its input is closed.
        """
        try:
            self.proc, self.fresh = _program(self.bot, self.seat)
        except BotFailure:
            _drop(self.bot, self.seat)
            raise
        self.proc.send({"type": "start", "protocol": PROTOCOL, **info, "seat": self.seat,
                        "seat_name": SEATS[self.seat], "deck": deck,
                        "time": {"decision": self.bot.decision_seconds, "game": self.bot.game_seconds,
                                 "start": self.bot.start_seconds}})

    def decide(self, observation: dict, legal: list[tuple]) -> tuple:
        """The program's action: sends the decision, waits for its answer within the time left, checks it is one
        of ``legal`` and returns the game's own tuple of it.

        Raises:
            BotFailure: ``timeout``, ``crash``, ``malformed`` or ``illegal``, with the detail.
        """
        answer = self.ask({"type": "decide", "decision": self.decisions + 1, "observation": observation,
                           "legal": [jsonable(a) for a in legal], "time": self.time_left()})
        if "action" not in answer:
            raise BotFailure("malformed", f"decision {self.decisions}: the answer has no \"action\": "
                                          f"{_key(answer)[:120]}")
        wanted = _key(answer["action"])
        for action in legal:
            if _key(action) == wanted:
                return action
        raise BotFailure("illegal", f"decision {self.decisions}: {wanted[:120]} is not one of the {len(legal)} legal "
                                    "actions")

    def finish(self, result: dict) -> None:
        """Send the end message (a program already gone is started again by the next game)."""
        try:
            self.proc.send({"type": "end", **result, "you": SEATS[self.seat]})
        except BotFailure:
            _drop(self.bot, self.seat)

    def fail(self) -> None:
        """End the program after it failed (the next game starts a fresh one)."""
        _drop(self.bot, self.seat)


class ProtocolSeat(TimedSeat):
    """A seat whose program speaks a game's own protocol (a game's ``outside.PROTOCOLS``), such as a competition
    judger's: a fresh program for each game, ended with it (such programs play one game and are then killed). A
    game's subclass sets :attr:`framing` and says what the messages are.

    Args:
        bot: the outside bot.
        seat: 0 (first) or 1 (second).
        scenario: the scenario played.
    """

    #: how the protocol's messages are cut out of the byte stream
    framing: Framing = None

    def __init__(self, bot: OutsideBot, seat: int, scenario):
        super().__init__(bot, seat)
        self.scenario = scenario

    def launch(self) -> None:
        """Start a fresh program for this game.

        Raises:
            BotFailure: ``crash`` when it cannot start.
        """
        self.end()
        self.proc = BotProcess(self.bot.command, self.bot.cwd, framing=self.framing,
                               label=f"bot {self.bot.name!r} ({self.bot.shown()})")
        self.fresh = True

    def choose_deck(self) -> str:  # pragma: no cover - the interface
        """Start the program and ask for its deck (the protocol's start); the deck's id.

        Raises:
            BotFailure: the program failed, or chose no legal deck (``illegal``).
        """
        raise NotImplementedError

    def start(self, match) -> None:
        """The game begins on ``match`` (decks set): the protocol may say so (nothing by default)."""

    def decide(self, match) -> tuple:  # pragma: no cover - the interface
        """The program's next action on ``match`` as the game's tuple (its legality is checked by the caller).

        Raises:
            BotFailure: the program failed, or answered something that is no action (``malformed``, ``illegal``).
        """
        raise NotImplementedError

    def witness(self, match, action: tuple) -> None:
        """``action`` (either seat's) was just played on ``match``: what the protocol must remember of it."""

    def refused(self, exc: Exception) -> str:
        """Why the rules refused the program's action, in words for its forfeit reason."""
        return str(exc)

    def finish(self, match, result: dict) -> None:
        """The game is over: end the program (as the judger does)."""
        self.end()

    def fail(self) -> None:
        """End the program after it failed."""
        self.end()

    def end(self) -> None:
        """End the program, if one runs."""
        if self.proc is not None:
            self.proc.end(grace=0.2)
            self.proc = None


def check_pairings(scenario, pairs: Sequence[Sequence[str]]) -> None:
    """Refuse, before anything is played or written, a pairing of an outside bot with a bot of the scenario that
    cannot decide one action at a time on a ``Match`` (the game's ``inside_player`` refuses it: the search bots of
    Card Duel and Magic War play only in the compiled batch).

    Raises:
        ValueError: one line naming both bots and why.
    """
    found = outside_bots(scenario)
    for pair in pairs:
        outside = [b for b in pair if b in found]
        if not outside:
            continue
        _, inside_player, _ = _hooks(scenario.game)
        for seat, name in enumerate(pair):
            if name in found:
                continue
            try:
                inside_player(scenario, name, seat, 0)
            except ValueError as exc:
                raise ValueError(f"{exc}; here it would face the outside bot {outside[0]!r}: nothing was played") \
                    from None


def choosing_own_deck(scenario, names: Sequence[str]) -> list[str]:
    """The bots of ``names`` whose programs choose their own decks (they speak a protocol of a :class:`ProtocolSeat`,
    such as Battle of Miracles' ``sdk``)."""
    found = outside_bots(scenario)
    programs = [n for n in dict.fromkeys(names) if n in found and found[n].protocol != SIMKIT_PROTOCOL]
    if not programs:  # no program speaks another protocol: the game's outside.py is not even imported
        return []
    protocols = scenario.game.spec.hook("protocols") if scenario.game.spec.has("protocols") else {}
    return [n for n in programs if found[n].protocol in protocols]


def own_decks(scenario, bots: Sequence[str]) -> dict[int, str]:
    """The decks the programs of ``bots`` (first seat's, second's) choose for themselves, by seat: each seat whose
    outside bot speaks a protocol in which the program chooses its own deck (``ProtocolSeat``) is asked once, by a
    program started for the question and ended after it. A sweep plans that seat with this one deck, and ``simkit
    play`` plays it; in each game the program is asked again and must choose the same.

    Raises:
        OutsideBotRefused: a program the command line does not allow.
        ValueError: one line naming the bot, its seat and why it gave no deck (it failed or chose an illegal deck).
    """
    check_allowed(scenario, bots)
    if not choosing_own_deck(scenario, bots):
        return {}
    found = outside_bots(scenario)
    protocols = scenario.game.spec.hook("protocols")
    out: dict[int, str] = {}
    for s, name in enumerate(bots):
        bot = found.get(name)
        if bot is None or bot.protocol not in protocols:
            continue
        seat = protocols[bot.protocol](bot, s, scenario)
        try:
            out[s] = seat.choose_deck()
        except BotFailure as exc:
            raise ValueError(f"bot {name!r} ({bot.shown()}, protocol {bot.protocol}) chooses its own deck, but as the "
                             f"{SEATS[s]} player it gave none: {exc.kind}: {exc.detail}") from None
        finally:
            seat.end()
    return out


def _hooks(game) -> tuple[Callable, Callable, Callable]:
    """The game's ``observe``, ``inside_player`` and ``match_record`` (its ``outside.py``)."""
    missing = [h for h in ("observe", "inside_player", "match_record") if not game.spec.has(h)]
    if missing:
        raise ValueError(f"{game.title} cannot play outside bots yet: its package has no outside.py with "
                         f"{', '.join(missing)}")
    return game.spec.hook("observe"), game.spec.hook("inside_player"), game.spec.hook("match_record")


def play_match(scenario, first: str, second: str, seed: int, bots: Sequence[str]) -> tuple[dict, list[tuple]]:
    """Play one game with at least one outside bot; ``(record, actions)``.

    A seat whose program speaks a protocol in which it chooses its own deck (:class:`ProtocolSeat`) is asked for it
    first; it must choose the deck this game holds its seat to (``first`` or ``second``, found by
    :func:`own_decks`), else it forfeits (``illegal``) before the first turn.

    The record holds the columns of :meth:`simkit.games.Ruleset.columns` (bots and decks aside) and
    :data:`FORFEIT_COLUMNS`.
    """
    game = scenario.game
    _, inside_player, _ = _hooks(game)
    found = outside_bots(scenario)
    protocols = game.spec.hook("protocols") if game.spec.has("protocols") else {}
    seats: list = []
    for s, name in enumerate(bots):
        bot = found.get(name)
        seats.append(inside_player(scenario, name, s, seed) if bot is None else
                     protocols[bot.protocol](bot, s, scenario) if bot.protocol in protocols else OutsideSeat(bot, s))
    try:
        return _play(scenario, seats, first, second, seed, bots)
    finally:  # a program of one game ends with it, however the game ended
        for player in seats:
            if isinstance(player, ProtocolSeat):
                player.end()


def _play(scenario, seats: list, first: str, second: str, seed: int, bots: Sequence[str]) -> tuple[dict, list]:
    """The game of :func:`play_match` between ``seats`` (an inside bot's choice function, or a program's seat)."""
    game = scenario.game
    observe, _, match_record = _hooks(game)
    decks = [first, second]
    forfeit: tuple[int, str] | None = None
    for s, player in enumerate(seats):
        if isinstance(player, ProtocolSeat) and forfeit is None:
            try:
                chosen = player.choose_deck()
                held = scenario.canonical_deck(decks[s])
                if chosen != held:
                    raise BotFailure("illegal", f"at the start: it chose the deck {chosen}, but this game holds its "
                                                f"seat to {held} (the deck it chose when asked before the games)")
            except BotFailure as exc:
                forfeit = (s, f"{exc.kind}: {exc.detail}" if exc.detail.startswith("at the start")
                           else f"{exc.kind}: at the start: {exc.detail}")
                player.fail()
    m = game.new_match(*decks, seed=seed)
    decks = tuple(m.decks)
    info = {"game": game.name, "title": game.title, "scenario": scenario.name, "rules_version": scenario.rules_version,
            "bots": list(bots)}
    for s, player in enumerate(seats):
        if isinstance(player, OutsideSeat) and forfeit is None:
            try:
                player.start({**info, "seed": derive_seed(seed, "outside", s)}, decks[s])
            except BotFailure as exc:
                forfeit = (s, f"{exc.kind}: at the start: {exc.detail}")
                player.fail()
        elif isinstance(player, ProtocolSeat) and forfeit is None:
            player.start(m)
    listeners = [p for p in seats if isinstance(p, ProtocolSeat)]
    n = 0
    while forfeit is None and not m.over:
        p = m.to_act
        player = seats[p]
        if isinstance(player, (OutsideSeat, ProtocolSeat)):
            try:
                if isinstance(player, OutsideSeat):
                    action = player.decide(jsonable(observe(m, p)), m.legal_actions())
                    m.do(action)
                else:
                    action = player.decide(m)
                    try:
                        m.do(action)
                    except IllegalAction as exc:
                        raise BotFailure("illegal", f"decision {player.decisions}: {player.refused(exc)}") from None
            except BotFailure as exc:
                forfeit = (p, f"{exc.kind}: {exc.detail}")
                player.fail()
                break
            except IllegalAction as exc:  # listed as legal but refused: the game's listing is wrong, not the bot
                raise RuntimeError(f"{game.title}: the legal action {action!r} was refused: {exc}") from None
        else:
            action = player(m)
            m.do(action)
        for q in listeners:
            q.witness(m, action)
        n += 1
        if n > ACTION_CAP:
            raise RuntimeError(f"{game.title}: game {first} vs {second} seed {seed} passed {ACTION_CAP} actions")
    record = dict(match_record(m))
    record.update(decks=decks, forfeit_seat="", forfeit_reason="")
    if forfeit is not None:
        record.update(winner=SEATS[1 - forfeit[0]], end_reason=FORFEIT, forfeit_seat=SEATS[forfeit[0]],
                      forfeit_reason=forfeit[1])
    result = {"winner": record["winner"], "end_reason": record["end_reason"], "turns": int(record["turns"]),
              "forfeit": None if forfeit is None else {"seat": SEATS[forfeit[0]], "reason": forfeit[1]}}
    for player in seats:
        if isinstance(player, OutsideSeat) and player.proc is not None and player.proc.alive():
            player.finish(result)
        elif isinstance(player, ProtocolSeat):
            player.finish(m, result)
    return record, list(m.actions)


def play_batch(scenario, first_decks: Sequence[str], second_decks: Sequence[str], seeds: Sequence[int],
               bots: Sequence[str], record_actions: bool = False) -> dict[str, list]:
    """Play one game per (first deck, second deck, seed) with an outside bot in at least one seat.

    Returns:
        The columns of :meth:`simkit.games.Ruleset.columns` and :data:`FORFEIT_COLUMNS`, one value per game, plus
        ``action_list`` when ``record_actions``.

    Raises:
        OutsideBotRefused: a program the command line does not allow (nothing is played).
        ValueError: lengths differ, two bots not given, an illegal deck.
    """
    n = len(first_decks)
    if len(second_decks) != n or len(seeds) != n:
        raise ValueError(f"got {n} first decks, {len(second_decks)} second decks and {len(seeds)} seeds; need one of "
                         "each per game")
    if len(bots) != 2:
        raise ValueError(f"need two bots (first player's, second player's), got {list(bots)}")
    check_allowed(scenario, bots)
    columns = list(scenario.game.columns()) + list(FORFEIT_COLUMNS)
    out: dict[str, list] = {c: [] for c in columns}
    lists = []
    for first, second, seed in zip(first_decks, second_decks, seeds):
        record, actions = play_match(scenario, first, second, int(seed), bots)
        m_decks = record.pop("decks")
        record.update(first_deck=m_decks[0], second_deck=m_decks[1], seed=int(seed), first_bot=bots[0],
                      second_bot=bots[1], actions=len(actions))
        for c in columns:
            out[c].append(record[c])
        lists.append(actions)
    if record_actions:
        out["action_list"] = lists
    return out
