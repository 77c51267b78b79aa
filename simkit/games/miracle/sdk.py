"""Battle of Miracles' original competition protocol (``"sdk"``): an AI written against the original server's SDK
(the public repository Zijing-Studio/Artifact, its ``doc/`` and ``example/README.md``) plays a seat unchanged.

The mapping, written out in ``docs/outside-bots.md`` ("The original SDK's protocol"):

- framing (:class:`~simkit.outside.process.LengthPrefixed`): to the program, a message's JSON after its length in six
  ASCII digits; from it, a 4-byte big-endian length and the JSON;
- start: the program is started for one game and told ``{"camp": SEAT}``; it answers its ``init`` operation, its
  deck (one artifact, three creatures); that deck is what it plays;
- each decision of its seat: the state as the original logic sends it (``map``: ``units``, ``barracks``,
  ``miracles``; ``players``; ``round``; ``camp``), answered by one operation (``summon``, ``move``, ``attack``,
  ``use``, ``endround``, ``surrender``); a unit's id is simkit's plus 2 (the original counts units from 3), a
  miracle's and an artifact's id is its player's camp;
- the end: no message; the program is ended (the judger kills it).
"""

from __future__ import annotations

import json
import logging

import numpy as np

from simkit.core.errors import IllegalAction, ScenarioError
from simkit.games.miracle import rules as R
from simkit.games.miracle.cards import SALAMANDER_SHIELD
from simkit.games.miracle.state import ARTIFACT_STATES
from simkit.outside.play import ProtocolSeat
from simkit.outside.process import BotFailure, LengthPrefixed

__all__ = ["ARTIFACT_CODES", "REFUSALS_PER_TURN", "STATE_CODES", "UNIT_CODES", "UNIT_ID_OFFSET", "LenientSdkSeat",
           "SdkSeat", "state_message"]

#: the original's numbers for creature kinds, artifacts and artifact states (its Data.json, in the protocol document)
UNIT_CODES = {"Archer": 0, "Swordsman": 1, "BlackBat": 2, "Priest": 3, "VolcanoDragon": 4, "Inferno": 5,
              "FrostDragon": 6}
ARTIFACT_CODES = {"HolyLight": 0, "SalamanderShield": 1, "InfernoFlame": 2, "WindBlessing": 3}
STATE_CODES = {"ready": 0, "in_use": 1, "cooling": 2}
#: an artifact's target: a cell ("Pos", 0) or a unit ("Unit", 1)
POS_TARGET, UNIT_TARGET = 0, 1
#: the original numbers units from 3 (0 and 1 are the miracles); simkit from 1
UNIT_ID_OFFSET = 2
#: what the original sends as an artifact's last target before its first use
NEVER_USED = [-1, -1, -1]
#: the most operations the lenient protocol refuses in one turn before the forfeit (the original's bound was its
#: 3 s a turn; an AI that repeats a refused operation would otherwise never end its turn)
REFUSALS_PER_TURN = 50


def _int(value) -> int | None:
    """``value`` as an integer when the original's ``int()`` would read it as one (an integer or a string of
    digits), else ``None``; a bool or a float is not."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str):
        try:
            return int(value.strip())
        except ValueError:
            return None
    return None


def _cell(value) -> tuple[int, int, int] | None:
    """A position ``[x, y, z]`` (three integers summing to 0) as a tuple, else ``None``."""
    if not isinstance(value, (list, tuple)) or len(value) != 3:
        return None
    cell = tuple(_int(v) for v in value)
    return cell if None not in cell and sum(cell) == 0 else None


def _unit_row(rules, st, u: int, atk: int) -> list:
    """One unit as the original sends it: id, camp, type, cost, atk, max_hp, hp, [min, max] range, max_move,
    cool_down, [x, y, z], level, flying, atk_flying, agility, holy_shield, can_atk, can_move. ``atk_flying`` is 1 for
    an anti-air or a flying kind (a flying unit reaches flying ones: the original's data says so of the BlackBat);
    ``agility`` is 0 (no kind has it); ``can_atk`` and ``can_move`` are both simkit's one ``ready``."""
    cards = rules.cards
    k, lv = int(st.kind[0, u]), int(st.level[0, u]) - 1
    ready = int(bool(st.ready[0, u]))
    return [int(st.uid[0, u]) + UNIT_ID_OFFSET, int(st.side[0, u]), UNIT_CODES[cards.kind_name(k)],
            int(cards.cost[k, lv]), int(atk), int(st.max_hp[0, u]), int(st.hp[0, u]),
            [int(cards.range_min[k, lv]), int(cards.range_max[k, lv])], int(cards.move[k, lv]),
            int(cards.cooldown[k, lv]), list(rules.board.grid.cell(int(st.cell[0, u]))), lv + 1,
            int(bool(cards.flying[k])), int(bool(cards.anti_air[k] or cards.flying[k])), 0,
            int(bool(st.shield[0, u])), ready, ready]


def state_message(match, seat: int, orders: list[list[str]], newly: list[list[int]],
                  last_used: list[list[int]]) -> dict:
    """The state the original logic sends ``seat`` before each of its operations.

    Args:
        match: the game.
        seat: the camp told (``camp``).
        orders: each side's creature kinds in the order its ``init`` listed them (its ``creature_capacity`` order).
        newly: each side's units (protocol ids) summoned since its turn began (kept through the other's turn).
        last_used: each side's artifact's last target cell (``[-1, -1, -1]`` before its first use).
    """
    rules, st = match.rules, match.state
    cards = rules.cards
    atk = R.attack_now(rules, st)[0]
    alive = np.nonzero(st.alive[0])[0]
    units = [_unit_row(rules, st, int(u), atk[u]) for u in sorted(alive, key=lambda u: int(st.uid[0, u]))]
    players = []
    for s in range(2):
        art = int(st.deck_artifact[0, s])
        name = cards.artifacts[art]
        artifact = [s, ARTIFACT_CODES[name], int(cards.artifact_cost[art]), int(cards.artifact_cooldown[art]),
                    int(st.artifact_cooldown[0, s]), STATE_CODES[ARTIFACT_STATES[int(st.artifact_state[0, s])]],
                    UNIT_TARGET if cards.artifact_effect[art] == SALAMANDER_SHIELD else POS_TARGET,
                    list(last_used[s])]
        slots = [cards.kind_name(int(k)) for k in st.deck_kind[0, s]]
        capacity = []
        for kind in orders[s]:
            i = slots.index(kind)
            cooling = st.cooling[0, s, i]
            capacity.append([UNIT_CODES[kind], int(st.available[0, s, i]),
                             [r for r in range(len(cooling)) for _ in range(int(cooling[r]))]])
        players.append([[artifact], int(st.mana[0, s]), int(st.max_mana[0, s]), capacity, list(newly[s])])
    return {"map": {"units": units, "barracks": [int(o) for o in st.garrison_owner[0]],
                    "miracles": [int(h) for h in st.miracle_hp[0]]},
            "players": players, "round": int(st.turn[0]) - 1, "camp": seat}


class SdkSeat(ProtocolSeat):
    """A seat played by a program written against the original competition SDK (the module's docstring).

    Raises:
        ValueError: the scenario has a creature kind or an artifact the original protocol has no number for.
    """

    framing = LengthPrefixed(digits=6, limit=1024)
    #: refuse an operation and ask again, as the original server did, instead of a forfeit (``sdk-lenient``)
    lenient = False

    def __init__(self, bot, seat: int, scenario):
        super().__init__(bot, seat, scenario)
        self.refusals, self.turn_refusals, self.turn = 0, 0, -1
        cards = scenario.rules.cards
        unknown = [k for k in (*cards.kinds, *cards.artifacts) if k not in UNIT_CODES and k not in ARTIFACT_CODES]
        if unknown:
            raise ValueError(f"bot {bot.name!r} speaks the original SDK's protocol, which has no number for "
                             f"{', '.join(unknown)} (a kind or artifact of {scenario.path.name}); it knows "
                             f"{', '.join([*UNIT_CODES, *ARTIFACT_CODES])}")
        self.creatures: list[str] = []

    # -- the start -----------------------------------------------------------------------------------------------

    def choose_deck(self) -> str:
        """Start the program, tell it its camp and read its ``init``: the deck it plays (canonical id).

        Raises:
            BotFailure: it failed, answered no ``init`` (``malformed``) or an illegal deck (``illegal``).
        """
        self.launch()
        answer = self.ask({"camp": self.seat}, start=True)
        params = self._operation(answer, "the start", expect_round=0)
        if params[0] != "init":
            raise BotFailure("illegal", f"at the start: the answer is a {params[0]!r} operation, not the deck "
                                        "(\"init\")")
        p = params[1]
        artifacts, creatures = p.get("artifacts"), p.get("creatures")
        if not (isinstance(artifacts, list) and isinstance(creatures, list)
                and all(isinstance(x, str) for x in [*artifacts, *creatures])):
            raise BotFailure("malformed", "at the start: init needs \"artifacts\" and \"creatures\", lists of "
                                          f"names: {_shown(answer)}")
        if len(artifacts) != 1 or len(creatures) != 3 or len(set(creatures)) != 3:
            raise BotFailure("illegal", f"at the start: a deck is one artifact and three different creatures, got "
                                        f"{artifacts} and {creatures}")
        try:
            deck = self.scenario.canonical_deck(f"{artifacts[0]}:{','.join(creatures)}")
        except (ScenarioError, ValueError) as exc:
            raise BotFailure("illegal", f"at the start: {exc}") from None
        self.creatures = list(creatures)
        return deck

    def start(self, match) -> None:
        """The game begins: no unit yet, no artifact used."""
        cards = match.rules.cards
        own = [cards.kind_name(int(k)) for k in match.state.deck_kind[0, self.seat]]
        self.orders = [[cards.kind_name(int(k)) for k in match.state.deck_kind[0, s]] for s in range(2)]
        if sorted(self.creatures) == sorted(own):
            self.orders[self.seat] = list(self.creatures)
        self.newly: list[list[int]] = [[], []]
        self.last_used = [list(NEVER_USED), list(NEVER_USED)]
        self.next_uid = int(match.state.next_uid[0])

    # -- the game ------------------------------------------------------------------------------------------------

    def decide(self, match) -> tuple:
        """Send the state, read one operation and translate it into the game's action tuple, legal now.

        In the lenient protocol (:attr:`lenient`), an operation that is refused (malformed, naming nothing there, or
        illegal under the rules) is refused as the original server did: the state is sent again and the program
        answers again, up to :data:`REFUSALS_PER_TURN` refusals in one turn.

        Raises:
            BotFailure: a failure of the program, a ``surrender``, or a refused operation (``malformed`` or
                ``illegal``; in the lenient protocol, one past the turn's refusals).
        """
        turn = int(match.state.turn[0])
        if turn != self.turn:
            self.turn, self.turn_refusals = turn, 0
        while True:
            try:
                answer = self.ask(state_message(match, self.seat, self.orders, self.newly, self.last_used))
            except BotFailure as exc:  # a whole message that is not JSON: the original refused it too
                if not (self.lenient and exc.whole):
                    raise
                self._refuse_again(exc)
                continue
            try:
                action = self._translate(match, answer)
                try:
                    match.encode(action)  # the rules' check, the game unchanged
                except IllegalAction as exc:
                    raise BotFailure("illegal", f"decision {self.decisions}: {self.refused(exc)}") from None
                return action
            except BotFailure as exc:
                if not self.lenient or exc.kind == "surrender":
                    raise
                self._refuse_again(exc)

    def _refuse_again(self, exc: BotFailure) -> None:
        """Count a refused operation of the lenient protocol (the state is sent again).

        Raises:
            BotFailure: ``exc``, noting the count, once the turn's refusals are spent.
        """
        self.refusals += 1
        self.turn_refusals += 1
        if self.turn_refusals > REFUSALS_PER_TURN:
            raise BotFailure(exc.kind, f"{exc.detail} (refused operation {self.turn_refusals} of this turn; the "
                                       f"lenient protocol refuses {REFUSALS_PER_TURN} a turn)") from None

    def finish(self, match, result: dict) -> None:
        """The game is over: end the program, and log how many operations were refused (lenient protocol)."""
        if self.refusals:
            logging.getLogger("simkit.outside").warning(
                "bot %r as the %s player: %d operation(s) refused and answered again (lenient protocol), seed %s",
                self.bot.name, ("first", "second")[self.seat], self.refusals, match.seed)
        super().finish(match, result)

    def _translate(self, match, answer: dict) -> tuple:
        """The game's action tuple of an operation (its legality under the rules not checked).

        Raises:
            BotFailure: a ``surrender``, or an operation that is malformed or names something that is not there.
        """
        where = f"decision {self.decisions}"
        verb, p = self._operation(answer, where, expect_round=int(match.state.turn[0]) - 1)
        if verb == "endround":
            return ("end_turn",)
        if verb == "surrender":
            raise BotFailure("surrender", f"{where}: the program surrendered")
        if verb == "summon":
            kind, level, cell = p.get("type"), _int(p.get("level")), _cell(p.get("position"))
            if not isinstance(kind, str) or level is None or cell is None:
                raise BotFailure("malformed", f"{where}: summon needs \"type\", \"level\" and \"position\": "
                                              f"{_shown(answer)}")
            return ("summon", kind, level, cell)
        if verb == "move":
            cell = _cell(p.get("position"))
            if cell is None:
                raise BotFailure("malformed", f"{where}: move needs \"mover\" and \"position\": {_shown(answer)}")
            return ("move", self._unit(match, p.get("mover"), where, "mover"), cell)
        if verb == "attack":
            attacker = self._unit(match, p.get("attacker"), where, "attacker")
            target = _int(p.get("target"))
            if target == 1 - self.seat:
                return ("attack", attacker, "miracle")
            if target == self.seat:
                raise BotFailure("illegal", f"{where}: attacks its own miracle (id {target})")
            return ("attack", attacker, self._unit(match, p.get("target"), where, "target"))
        if verb == "use":
            card = _int(p.get("card"))
            if card != self.seat:
                raise BotFailure("illegal", f"{where}: uses the artifact {p.get('card')!r}; its own is {self.seat}")
            target = p.get("target")
            cell = _cell(target)
            return ("use", cell if cell is not None else self._unit(match, target, where, "target"))
        raise BotFailure("illegal", f"{where}: a {verb!r} operation during the game (it plays summon, move, "
                                    "attack, use, endround, surrender)")

    def witness(self, match, action: tuple) -> None:
        """Remember what the original's state tells and simkit's does not: the units summoned since each side's turn
        began, and each artifact's last target cell."""
        st = match.state
        actor = int(st.current[0]) if action[0] != "end_turn" else 1 - int(st.current[0])
        born = range(self.next_uid, int(st.next_uid[0]))
        self.next_uid = int(st.next_uid[0])
        self.newly[actor] += [uid + UNIT_ID_OFFSET for uid in born]
        if action[0] == "use":
            target = action[1]
            if isinstance(target, tuple):
                self.last_used[actor] = list(target)
            else:
                hits = np.nonzero(st.alive[0] & (st.uid[0] == target))[0]
                if len(hits):
                    self.last_used[actor] = list(match.rules.board.grid.cell(int(st.cell[0, hits[0]])))
        if action[0] == "end_turn" and not match.over:
            self.newly[int(st.current[0])] = []

    def refused(self, exc: Exception) -> str:
        """The rules' refusal, noting that its unit ids are simkit's (the protocol's minus 2)."""
        return f"{exc} (in simkit's words: a unit's id there is the protocol's minus {UNIT_ID_OFFSET})"

    # -- reading an operation ------------------------------------------------------------------------------------

    def _operation(self, answer: dict, where: str, expect_round: int) -> tuple[str, dict]:
        """``(operation type, its parameters)`` of an answer, checked as the original's parser checks it: the
        program's own camp, this round.

        Raises:
            BotFailure: ``malformed`` (no operation) or ``illegal`` (another camp's, another round's).
        """
        verb, params = answer.get("operation_type"), answer.get("operation_parameters")
        if not isinstance(verb, str) or not isinstance(params, dict) or "player" not in answer or "round" not in answer:
            raise BotFailure("malformed", f"{where}: an operation needs \"player\", \"round\", \"operation_type\" and "
                                          f"\"operation_parameters\": {_shown(answer)}")
        player, rnd = _int(answer["player"]), _int(answer["round"])
        if player != self.seat:
            raise BotFailure("illegal", f"{where}: the operation is for player {answer['player']!r}, the program "
                                        f"plays camp {self.seat}")
        if rnd != expect_round:
            raise BotFailure("illegal", f"{where}: the operation is for round {answer['round']!r}, the game is at "
                                        f"round {expect_round}")
        return verb.lower(), params

    def _unit(self, match, value, where: str, role: str) -> int:
        """simkit's id of the unit the protocol's id ``value`` names (a unit on the board).

        Raises:
            BotFailure: ``malformed`` (not an id) or ``illegal`` (no such unit).
        """
        wire = _int(value)
        if wire is None:
            raise BotFailure("malformed", f"{where}: {role} {value!r} is not a unit id")
        st = match.state
        uid = wire - UNIT_ID_OFFSET
        if not (st.alive[0] & (st.uid[0] == uid)).any():
            raise BotFailure("illegal", f"{where}: {role}: no unit with id {wire} on the board")
        return uid


class LenientSdkSeat(SdkSeat):
    """The original SDK's protocol with the original server's tolerance (``"sdk-lenient"``): a refused operation is
    answered by the same state, and the program goes on (up to :data:`REFUSALS_PER_TURN` a turn)."""

    lenient = True


def _shown(answer: dict) -> str:
    """An answer, short, as it was read."""
    text = json.dumps(answer, separators=(",", ":"))
    return text if len(text) <= 160 else text[:160] + "..."
