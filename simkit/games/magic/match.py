"""One game of Magic War: the :class:`simkit.games.Match` facade over the compiled engine.

Actions are tuples with cells written ``(c, r)`` as on the rules page (``c`` the column 0..4 from the
first player's left, ``r`` the row 0..5 from the first player's back row):

* ``("place", "Pikeman", (1, 1))``: deployment (the first player places all its units, then the second);
* ``("move", (1, 1), (1, 3))``;
* ``("attack", (1, 3), (1, 4))``: a single attack; a combined attack (6.3) adds its joiners' cells in
  ascending cell order and the bearer of the target's per-attack dice reduction:
  ``("attack", (1, 3), (1, 4), ((0, 4), (2, 4)), (1, 3))``;
* ``("skill", (2, 0), (2, 1), 0)``: the source's active skill on the target cell, the last number being the
  tactical cards spent as magic toward its cost;
* ``("end",)``: end the turn.
"""

from __future__ import annotations

import numpy as np

from simkit.core.errors import IllegalAction
from simkit.core.rng import derive_seed
from simkit.core.seats import WINNERS
from simkit.games.magic import engine as E
from simkit.games.magic.tables import army_units, canonical_deck, check_seat


def stream_seeds(seed: int) -> tuple[int, int, int]:
    """``(dice, deck, bots)`` seeds of the game with ``seed`` (11.1: three streams, so a change to card
    effects or bots cannot shift the dice)."""
    return derive_seed(seed, "magic", "dice"), derive_seed(seed, "magic", "deck"), derive_seed(seed, "bots")


def army_array(rules, deck: str) -> np.ndarray:
    """The unit type ids of an army, canonical order (the engine's slot order)."""
    return np.array([rules.type_id(u) for u in army_units(rules, deck)], np.int64)


def new_state(rules, first: str, second: str, seed: int) -> np.ndarray:
    """The engine state of a new game (seat budgets checked: an army costing 13 sits only second)."""
    check_seat(rules, first, 0)
    check_seat(rules, second, 1)
    s = np.zeros(E.STATE_SIZE, np.int64)
    dseed, kseed, _ = stream_seeds(seed)
    E.setup(s, army_array(rules, first), army_array(rules, second), dseed, kseed, rules.ut, rules.st, rules.rc)
    return s


def encode(rules, action) -> tuple[int, int, int, int, int]:
    """The engine's five integers of a Match action tuple; raises :class:`IllegalAction` if malformed."""
    def cell(x):
        if not (isinstance(x, (tuple, list)) and len(x) == 2 and all(isinstance(v, int) and not isinstance(v, bool)
                                                                    for v in x)):
            raise IllegalAction(f"{action!r}: a cell is (c, r), got {x!r}")
        c, r = x
        if not (0 <= c < rules.cols and 0 <= r < rules.rows):
            raise IllegalAction(f"{action!r}: cell {tuple(x)} is off the {rules.cols}x{rules.rows} board")
        return rules.cell(c, r)

    if not isinstance(action, (tuple, list)) or not action or not isinstance(action[0], str):
        raise IllegalAction(f"{action!r} is not an action tuple")
    kind, rest = action[0], tuple(action[1:])
    if kind == "end" and not rest:
        return E.A_END, 0, 0, 0, 0
    if kind == "place" and len(rest) == 2:
        if rest[0] not in rules.types:
            raise IllegalAction(f"{action!r}: unknown unit {rest[0]!r}")
        return E.A_PLACE, rules.type_id(rest[0]), cell(rest[1]), 0, 0
    if kind == "move" and len(rest) == 2:
        return E.A_MOVE, cell(rest[0]), cell(rest[1]), 0, 0
    if kind == "attack" and len(rest) in (2, 4):
        a, b = cell(rest[0]), cell(rest[1])
        if len(rest) == 2:
            return E.A_ATTACK, a, b, 0, a
        if not isinstance(rest[2], (tuple, list)):
            raise IllegalAction(f"{action!r}: the joiners are a tuple of cells")
        cells = [cell(x) for x in rest[2]]
        if cells != sorted(set(cells)):
            raise IllegalAction(f"{action!r}: joiners are listed once each, in ascending cell order")
        mask = 0
        for x in cells:
            mask |= 1 << x
        return E.A_ATTACK, a, b, mask, cell(rest[3])
    if kind == "skill" and len(rest) == 3:
        if isinstance(rest[2], bool) or not isinstance(rest[2], int):
            raise IllegalAction(f"{action!r}: the cards spent are a number")
        return E.A_SKILL, cell(rest[0]), cell(rest[1]), int(rest[2]), 0
    raise IllegalAction(f"{action!r}: unknown action (place, move, attack, skill, end)")


def decode(rules, row) -> tuple:
    """The Match tuple of the engine's five integers (the canonical form of an action)."""
    kind, a, b, c, d = (int(x) for x in row)
    xy = rules.coords
    if kind == E.A_END:
        return ("end",)
    if kind == E.A_PLACE:
        return ("place", rules.types[a], xy(b))
    if kind == E.A_MOVE:
        return ("move", xy(a), xy(b))
    if kind == E.A_ATTACK:
        if c == 0:
            return ("attack", xy(a), xy(b))
        joiners = tuple(xy(i) for i in range(rules.cols * rules.rows) if c >> i & 1)
        return ("attack", xy(a), xy(b), joiners, xy(d))
    return ("skill", xy(a), xy(b), c)


def legal_rows(rules, s: np.ndarray) -> np.ndarray:
    """The legal actions of the state as engine rows ``int64[n, 5]``."""
    out = np.zeros((E.MAX_LEGAL, 5), np.int64)
    n = E.legal(s, out, rules.ut, rules.sk, rules.st, rules.rc, False)
    return out[:min(n, E.MAX_LEGAL)]


def apply(rules, s: np.ndarray, row) -> None:
    """Do one engine action on ``s``; raises :class:`IllegalAction` naming the reason, ``s`` unchanged."""
    kind, a, b, c, d = (int(x) for x in row)
    why = E.check(s, kind, a, b, c, d, rules.ut, rules.sk, rules.st, rules.rc)
    if why != E.R_OK:
        raise IllegalAction(E.REASONS[why])
    E.step(s, kind, a, b, c, d, rules.ut, rules.sk, rules.st, rules.rc)


class Match:
    """A single game between two armies; the first army (seat 0, budget 12) deploys and moves first.

    Args:
        scenario: a loaded Magic War scenario.
        first_deck, second_deck: army ids such as ``"Orc:Goblin*6,OrcInfantry*3"``.
        seed: the game's seed (the dice tape and the tactical pile's shuffle).
    """

    def __init__(self, scenario, first_deck: str, second_deck: str, seed: int = 0):
        self.scenario = scenario
        self.rules = scenario.rules
        self.decks = (canonical_deck(self.rules, first_deck), canonical_deck(self.rules, second_deck))
        self.seed = int(seed)
        self.state = new_state(self.rules, *self.decks, self.seed)
        self.actions: list[tuple] = []

    @property
    def over(self) -> bool:
        return bool(self.state[E.G_PHASE] == E.PH_OVER)

    @property
    def to_act(self) -> int:
        return int(self.state[E.G_CUR])

    @property
    def turn(self) -> int:
        """The global turn (0 during deployment)."""
        return int(self.state[E.G_TURN])

    @property
    def winner(self) -> str | None:
        w = int(self.state[E.G_WINNER])
        return None if w < 0 else WINNERS[w]

    @property
    def end_reason(self) -> str | None:
        return None if not self.over else E.END_REASONS[int(self.state[E.G_REASON])]

    def legal_actions(self) -> list[tuple]:
        """Every action legal now for :attr:`to_act`, in the engine's fixed order."""
        return [decode(self.rules, r) for r in legal_rows(self.rules, self.state)]

    def do(self, action: tuple) -> None:
        """Do one action (raises :class:`simkit.IllegalAction` naming the reason, changing nothing, if illegal)."""
        row = encode(self.rules, action)
        apply(self.rules, self.state, row)
        self.actions.append(tuple(action))

    def unit_at(self, c: int, r: int) -> dict | None:
        """The unit on ``(c, r)`` as in :meth:`snapshot`, or ``None``."""
        for u in self.snapshot()["units"]:
            if u["cell"] == [c, r] and u["state"] == "alive":
                return u
        return None

    def snapshot(self) -> dict:
        """The whole game as plain values (units with type, side, cell, HP; players' magic and cards)."""
        s, r = self.state, self.rules
        units = []
        for u in range(int(s[E.G_NU])):
            b = E.UB + u * E.UF
            t = int(s[b + E.F_TYPE])
            cell = int(s[b + E.F_CELL])
            hp = int(r.ut[t, 4])
            units.append({
                "slot": u, "type": r.types[t], "side": int(s[b + E.F_OWNER]),
                "state": ("unplaced", "alive", "dead")[int(s[b + E.F_STATE])],
                "cell": list(r.coords(cell)) if cell >= 0 else None, "hp": max(0, hp - int(s[b + E.F_DMG])),
                "max_hp": hp, "markers": int(s[b + E.F_DMG]), "moved": int(s[b + E.F_MOVED]),
                "attacked": int(s[b + E.F_ATTACKED]), "skilled": int(s[b + E.F_SKILLED]),
                "free_used": int(s[b + E.F_FREE]), "summoned": int(s[b + E.F_SUMMONED]),
                "effects": [int(s[b + E.F_BDICE]), int(s[b + E.F_BPREC]), int(s[b + E.F_BMOVE])],
            })
        players = []
        for p in range(2):
            b = E.PB0 + p * E.PBS
            players.append({
                "active_magic": int(s[b + E.P_ACTIVE]), "stored_magic": int(s[b + E.P_STORED]),
                "drawn": int(s[b + E.P_DRAWN]), "cap": int(s[b + E.P_CAP]),
                "hand": [int(x) for x in s[b + E.P_H: b + E.P_H + int(s[b + E.P_HAND])]],
                "unlocks": [int(s[b + E.P_UNLOCK4]), int(s[b + E.P_UNLOCK5])],
                "magic_gained": int(s[b + E.P_GAINED]), "magic_spent": int(s[b + E.P_SPENT]),
                "cards_used": int(s[b + E.P_CARDS_USED]), "army_value": int(s[b + E.P_ARMY]),
                "dice": int(s[b + E.P_DICE]), "to_place": int(s[b + E.P_TO_PLACE]),
            })
        return {
            "decks": list(self.decks), "seed": self.seed, "turn": int(s[E.G_TURN]), "to_act": int(s[E.G_CUR]),
            "phase": ("deploy", "play", "over")[int(s[E.G_PHASE])], "winner": self.winner,
            "end_reason": self.end_reason, "dice_rolled": int(s[E.G_DPTR]), "pile_drawn": int(s[E.G_KPTR]),
            "units": units, "players": players,
        }

    def copy(self) -> Match:
        other = Match.__new__(Match)
        other.scenario, other.rules, other.decks, other.seed = self.scenario, self.rules, self.decks, self.seed
        other.state = self.state.copy()
        other.actions = list(self.actions)
        return other
