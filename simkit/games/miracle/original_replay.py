"""The original competition server's replay files, read and replayed through simkit's engine (and written, from a
simkit game, in the same format).

The original server (the public repository Zijing-Studio/Artifact, ``doc/Replayer.md`` and ``game/main.py``)
records a game as big-endian signed 32-bit integers: a first record ``0 0 0 map time 0 0``, then one record of
seven integers per event (``round, event, five parameters``, zero-padded), and a last lone ``-1``. The events read
here (the others are skipped):

==== ================== =========================================================
code event              parameters
==== ================== =========================================================
1    turn start         camp
2    turn end           camp (the player's ``endround``)
3    spawn              type, level, x, y, unit id (a unit appears)
4    move               unit id, x, y
5    attack             attacker id, target id (a miracle's id is its camp, 0 or 1)
6    damage             target id, source id, damage, kind
7    death              unit id
9    artifact used      camp, artifact, x, y, unit id (SalamanderShield: the unit)
10   game end           the winner's camp (2: a draw)
11   deck               camp, artifact, three creature kinds
18   summon             type, level, x, y (the player's summon, or InfernoFlame's Inferno)
==== ================== =========================================================

A creature's type is its kind's number (1 Swordsman, 2 Archer, 3 BlackBat, 4 Priest, 5 VolcanoDragon,
6 FrostDragon, 7 Inferno) plus ten for camp 1; an artifact's likewise (1 HolyLight, 2 SalamanderShield,
3 InfernoFlame, 4 WindBlessing). Cells are the board's cube coordinates ``(x, y, -x-y)``; round ``r`` (from 0) is
simkit's turn ``r + 1``.

:func:`replay_file` rebuilds the game action by action through :class:`~simkit.games.miracle.match.Match` and says,
one line each, every action the engine refuses and every state that differs from the record (a unit the server
spawned, moved or killed that simkit did not, a miracle's HP, the winner). :func:`write_replay` writes a simkit game
in the format (the tests' replays are made so, never copied).
"""

from __future__ import annotations

import struct
from pathlib import Path

from simkit.core.errors import IllegalAction, ScenarioError
from simkit.games.miracle.cards import canonical_deck

__all__ = ["CREATURES", "ARTIFACTS", "read_records", "replay_file", "write_replay"]

#: the original server's numbers of creature kinds and artifacts (its ``creature_names``, ``artifact_names``)
CREATURES = ("", "Swordsman", "Archer", "BlackBat", "Priest", "VolcanoDragon", "FrostDragon", "Inferno")
ARTIFACTS = ("", "HolyLight", "SalamanderShield", "InfernoFlame", "WindBlessing")
TURN_START, TURN_END, SPAWN, MOVE, ATTACK, DAMAGE, DEATH = 1, 2, 3, 4, 5, 6, 7
USE, GAME_END, DECK, SUMMON = 9, 10, 11, 18


def read_records(path: str | Path) -> list[tuple[int, ...]]:
    """The event records of a replay file (its first record, the map's, left out).

    Raises:
        ValueError: one line naming the file: not whole 32-bit integers, no opening record or no closing ``-1``,
            or a record cut short.
    """
    path = Path(path)
    data = path.read_bytes()
    if len(data) % 4:
        raise ValueError(f"{path}: not a replay of the original server ({len(data)} bytes, not whole 32-bit integers)")
    ints = list(struct.unpack(f">{len(data) // 4}i", data))
    if len(ints) < 8 or ints[:3] != [0, 0, 0] or ints[-1] != -1:
        raise ValueError(f"{path}: not a replay of the original server (it opens with 0 0 0 map time 0 0 and ends "
                         "with -1)")
    body = ints[7:-1]
    if len(body) % 7:
        raise ValueError(f"{path}: a record is cut short ({len(body)} integers between the first record and the "
                         "closing -1, not a multiple of 7)")
    return [tuple(body[i:i + 7]) for i in range(0, len(body), 7)]


def _cell(x: int, y: int) -> tuple[int, int, int]:
    return (x, y, -x - y)


def _kind(code: int) -> tuple[int, str]:
    """``(camp, kind name)`` of a creature type code."""
    camp, k = divmod(code, 10)
    return camp, CREATURES[k] if 0 < k < len(CREATURES) else f"creature type {code}"


def _decks(path: Path, records, cards) -> list[str]:
    """Both players' decks from the replay's deck records (event 11), canonical."""
    decks: dict[int, str] = {}
    for r in records:
        if r[1] != DECK:
            continue
        camp, a = r[2], r[3] % 10
        kinds = [CREATURES[c % 10] if 0 < c % 10 < len(CREATURES) else str(c) for c in r[4:7]]
        deck = f"{ARTIFACTS[a] if 0 < a < len(ARTIFACTS) else a}:{','.join(kinds)}"
        try:
            decks[camp] = canonical_deck(cards, deck)
        except ScenarioError as exc:
            raise ValueError(f"{path}: round {r[0]}: deck record of camp {camp}: {deck!r} is not a deck of the "
                             f"scenario ({exc})") from None
    if set(decks) != {0, 1}:
        raise ValueError(f"{path}: no deck record (event 11) for camp {min({0, 1} - set(decks))}")
    return [decks[0], decks[1]]


class _Replayer:
    """The replay of one file through a :class:`Match`, with what differs said in lines."""

    def __init__(self, scenario, path: Path, records):
        from simkit.games.miracle.match import Match

        self.path, self.records = path, records
        decks = _decks(path, records, scenario.rules.cards)
        self.match = Match(scenario, decks[0], decks[1])
        self.ids: dict[int, int] = {}       # the record's unit id -> simkit's
        self.where: dict[int, tuple] = {}   # the record's unit id -> its cell as the record last put it
        self.dead: set[int] = set()         # the record's ids it killed
        self.miracle_hp = [int(scenario.rules.miracle_hp)] * 2
        self.found: list[str] = []
        self.said: set[tuple] = set()
        self.round = 0
        self.winner: int | None = None
        self.pending_spawns: list[tuple] = []

    def say(self, key: tuple | None, text: str) -> None:
        """One line for ``text`` (a state difference once per ``key`` until it changes)."""
        if key is not None:
            if key in self.said:
                return
            self.said.add(key)
        self.found.append(f"{self.path}: round {self.round}: {text}")

    def unit(self, rid: int) -> int | None:
        return self.ids.get(rid)

    def do(self, action: tuple, words: str) -> None:
        """Do one of the record's actions; a refusal is said with the engine's reason."""
        self.check()
        if self.match.over:
            self.say(None, f"{words}: refused: simkit's game is already over ({self.match.winner})")
            return
        try:
            self.match.do(action)
        except IllegalAction as exc:
            self.say(None, f"{words}: refused by simkit's engine: {exc}")

    def check(self) -> None:
        """Compare the record's units and miracles (as its events left them) with simkit's state."""
        snap = self.match.snapshot()
        alive = {u["id"]: u for u in snap["units"]}
        mapped = {}
        for rid, uid in self.ids.items():
            mapped[uid] = rid
            if rid in self.dead:
                if uid in alive:
                    self.say(("alive", rid), f"unit {rid} died in the record; simkit's unit {uid} "
                             f"({alive[uid]['kind']}) is alive with {alive[uid]['hp']} HP")
                continue
            if uid not in alive:
                self.say(("dead", rid), f"unit {rid} is alive in the record; simkit's unit {uid} is not")
            elif tuple(alive[uid]["pos"]) != tuple(self.where[rid]):
                self.say(("pos", rid, self.where[rid]), f"unit {rid} stands at {self.where[rid]} in the record; "
                         f"simkit's unit {uid} at {tuple(alive[uid]['pos'])}")
        for uid, u in alive.items():
            if uid not in mapped:
                self.say(("extra", uid), f"simkit's unit {uid} ({u['kind']} L{u['level']} at {tuple(u['pos'])}) "
                         "never appeared in the record")
        for camp in (0, 1):
            hp = snap["players"][camp]["miracle_hp"]
            if hp != self.miracle_hp[camp]:
                self.say(("miracle", camp, self.miracle_hp[camp], hp), f"camp {camp}'s miracle has "
                         f"{self.miracle_hp[camp]} HP in the record, {hp} in simkit's game")

    def spawn(self, r) -> None:
        """Map the record's new unit id to simkit's unit of that kind and level on that cell."""
        _, kind, level, x, y, rid = r[1], _kind(r[2])[1], r[3], r[4], r[5], r[6]
        cell = _cell(x, y)
        here = [u for u in self.match.snapshot()["units"] if tuple(u["pos"]) == cell and u["kind"] == kind
                and u["level"] == level and u["id"] not in self.ids.values()]
        self.where[rid] = cell
        if here:
            self.ids[rid] = here[0]["id"]
        else:
            self.say(None, f"unit {rid} ({kind} L{level}) appeared at {cell} in the record; simkit's game has no "
                     "such new unit there")

    def run(self) -> None:
        for r in self.records:
            self.round, ev = r[0], r[1]
            if ev == TURN_START:
                self.check()
                if not self.match.over and self.match.current != r[2]:
                    self.say(("turn", r[0]), f"camp {r[2]}'s turn starts in the record; in simkit's game it is "
                             f"camp {self.match.current}'s")
            elif ev == TURN_END:
                self.do(("end_turn",), f"camp {r[2]} ends its turn")
            elif ev == SUMMON:
                camp, kind = _kind(r[2])
                if kind != "Inferno":  # the Inferno comes of InfernoFlame's use, not of a summon
                    self.do(("summon", kind, r[3], _cell(r[4], r[5])),
                            f"camp {camp} summons {kind} L{r[3]} at {_cell(r[4], r[5])}")
            elif ev == SPAWN:
                self.spawn(r)
            elif ev == MOVE:
                uid = self.unit(r[2])
                if uid is None:
                    self.say(None, f"unit {r[2]} moves to {_cell(r[3], r[4])}: simkit knows no such unit")
                else:
                    self.do(("move", uid, _cell(r[3], r[4])), f"unit {r[2]} moves to {_cell(r[3], r[4])}")
                self.where[r[2]] = _cell(r[3], r[4])  # after the move: the check before it sees the old cell
            elif ev == ATTACK:
                uid = self.unit(r[2])
                target = "miracle" if r[3] in (0, 1) else self.unit(r[3])
                if uid is None or target is None:
                    self.say(None, f"unit {r[2]} attacks {'miracle' if r[3] in (0, 1) else 'unit'} {r[3]}: simkit "
                             "knows no such unit")
                else:
                    self.do(("attack", uid, target), f"unit {r[2]} attacks "
                            + (f"camp {r[3]}'s miracle" if target == "miracle" else f"unit {r[3]}"))
            elif ev == DAMAGE and r[2] in (0, 1):
                self.miracle_hp[r[2]] -= r[4]
            elif ev == DEATH:
                self.dead.add(r[2])
            elif ev == USE:
                name = ARTIFACTS[r[3] % 10] if 0 < r[3] % 10 < len(ARTIFACTS) else str(r[3])
                if name == "SalamanderShield":
                    uid = self.unit(r[6])
                    if uid is None:
                        self.say(None, f"camp {r[2]} uses {name} on unit {r[6]}: simkit knows no such unit")
                        continue
                    self.do(("use", uid), f"camp {r[2]} uses {name} on unit {r[6]}")
                else:
                    self.do(("use", _cell(r[4], r[5])), f"camp {r[2]} uses {name} at {_cell(r[4], r[5])}")
            elif ev == GAME_END:
                self.winner = r[2]
        self.check()


def replay_file(scenario, path: str | Path) -> tuple[dict, list[str]]:
    """Replay an original server's replay through simkit's engine: the game as one result row, and what differs.

    Args:
        scenario: a loaded Battle of Miracles scenario (``scenarios/miracle/original-end.toml`` holds the original
            server's end rule).
        path: the replay file.

    Returns:
        ``(row, findings)``: the row has the record columns of a game (decks, winner, end reason, turns, the side
        and counter columns of simkit's game), ``seed`` -1, ``actions`` (simkit's actions done) and ``source``; a game
        simkit's engine did not end is the server's result, recorded as ``end_reason = "forfeit"`` (a surrender,
        crash or timeout ended it) with ``forfeit_seat`` the loser. ``findings``: one line for every refused action
        and every differing state (the file, the round, the action, what differs).

    Raises:
        ValueError: the file is not a replay of the original server, or its decks are not the scenario's.
    """
    from simkit.games.miracle.outside import match_record

    path = Path(path)
    rp = _Replayer(scenario, path, read_records(path))
    rp.run()
    m = rp.match
    record = match_record(m)
    row = {"first_deck": m.decks[0], "second_deck": m.decks[1], "seed": -1, "actions": len(m.actions),
           "source": path.name, **record}
    server = {0: "first", 1: "second", 2: "draw"}.get(rp.winner) if rp.winner is not None else None
    if m.over:
        if server is not None and server != m.winner:
            rp.say(None, f"the record's winner is {server}; simkit's game ends {m.winner} ({record['end_reason']})")
    else:
        loser = {"first": "second", "second": "first"}.get(server or "", "")
        rp.say(None, "simkit's game is not over at the record's end; the server ended it"
               + (f" for {server}" if server else " without a winner"))
        row.update(winner=server or "draw", end_reason="forfeit", forfeit_seat=loser,
                   forfeit_reason=f"crash: the original server ended the game at round {rp.round} before its end "
                   "by the rules (a surrender, a crash or a timeout)")
    return row, rp.found


def write_replay(match, path: str | Path, map_type: int = 0, day_time: int = 0) -> Path:
    """Write a simkit game in the original server's replay format: the game ``match`` holds (its decks and actions)
    played again from the start, each action's events derived from the state before and after it.

    Args:
        match: a :class:`~simkit.games.miracle.match.Match` (its ``actions`` are replayed).
        path: the file to write.
        map_type, day_time: the first record's two numbers (the original server's map picture and time of day).

    Returns:
        ``path``.
    """
    from simkit.games.miracle.match import Match

    g = Match(match.scenario, match.decks[0], match.decks[1], seed=match.seed)
    rid = lambda uid: uid + 1  # noqa: E731 - the record's ids: 0 and 1 are the miracles
    out: list[int] = [0, 0, 0, map_type, day_time, 0, 0]

    def rec(rnd: int, ev: int, *params: int) -> None:
        out.extend([rnd, ev, *params, *[0] * (5 - len(params))])

    def code(kind: str, camp: int) -> int:
        return CREATURES.index(kind) + 10 * camp

    for camp in (0, 1):
        art, kinds = g.decks[camp].split(":")
        rec(0, DECK, camp, ARTIFACTS.index(art) + 10 * camp, *[code(k, camp) for k in kinds.split(",")])
    rec(0, TURN_START, 0)
    for action in match.actions:
        before = g.snapshot()
        rnd, camp = before["turn"] - 1, g.current
        units = {u["id"]: u for u in before["units"]}
        name = action[0]
        if name == "summon":
            x, y, _ = action[3]
            rec(rnd, SUMMON, code(action[1], camp), action[2], x, y)
        elif name == "move":
            rec(rnd, MOVE, rid(action[1]), action[2][0], action[2][1])
        elif name == "attack":
            rec(rnd, ATTACK, rid(action[1]), 1 - camp if action[2] == "miracle" else rid(action[2]))
        elif name == "use":
            art = before["players"][camp]["artifact"]["name"]
            target = action[1]
            if isinstance(target, tuple):
                rec(rnd, USE, camp, ARTIFACTS.index(art) + 10 * camp, target[0], target[1], 0)
            else:
                rec(rnd, USE, camp, ARTIFACTS.index(art) + 10 * camp, 0, 0, rid(target))
        elif name == "end_turn":
            rec(rnd, TURN_END, camp)
        g.do(action)
        after = g.snapshot()
        now = {u["id"]: u for u in after["units"]}
        for uid, u in now.items():
            if uid not in units:
                if u["kind"] == "Inferno":
                    rec(rnd, SUMMON, code("Inferno", u["side"]), u["level"], u["pos"][0], u["pos"][1])
                rec(rnd, SPAWN, code(u["kind"], u["side"]), u["level"], u["pos"][0], u["pos"][1], rid(uid))
            elif u["hp"] < units[uid]["hp"]:
                rec(rnd, DAMAGE, rid(uid), rid(action[1]) if name == "attack" else 0, units[uid]["hp"] - u["hp"], 1)
        for uid in units:
            if uid not in now:
                rec(rnd, DEATH, rid(uid))
        for side in (0, 1):
            lost = before["players"][side]["miracle_hp"] - after["players"][side]["miracle_hp"]
            if lost > 0:
                rec(rnd, DAMAGE, side, rid(action[1]) if name == "attack" else 0, lost, 1)
        if name == "end_turn" and not g.over:
            rec(after["turn"] - 1, TURN_START, g.current)
    if g.over:
        rec(g.snapshot()["turn"] - 1, GAME_END, {"first": 0, "second": 1, "draw": 2}[g.winner])
    out.append(-1)
    Path(path).write_bytes(struct.pack(f">{len(out)}i", *out))
    return Path(path)
