"""One game of Magic War: the :class:`simkit.games.Match` facade over the compiled engine, the one Python face
of a game's state.

The state is the declared :data:`~simkit.games.magic.state.GAME` record (``m.state``): read it by name
(``m.state.sides[0].active_magic``, ``m.state.units[3].markers``), write a literal position into it with
:func:`simkit.games.kits.state.place`, and :meth:`Match.snapshot` gives it as plain values named by the
declaration; ``over``, ``to_act``, ``winner`` and ``end_reason`` come from its fields through the kit
(:class:`~simkit.games.kits.state.DeclaredMatch`).

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

A search bot's Python side is a match too: :meth:`Match.view` is a seat's view of the game (what it cannot see
drawn again, its dice re-keyed: never the real ones), :meth:`Match.value` the worth of a position by a search
bot's value weights; ``legal_actions``, ``do``, ``over`` and ``to_act`` play and judge it.

A match notes how its game plays as a batch's game does (``m.experience``, the kit's
:data:`~simkit.games.kits.experience.EXPERIENCE` record): every action done is a decision among the actions legal
then, and the lead (:mod:`simkit.games.magic.lead`) is noted at every turn's end and on the final state;
:meth:`Match.experience_figures` gives the figures a batch's record holds for the same game.
"""

from __future__ import annotations

import numpy as np

from simkit.core.errors import IllegalAction
from simkit.core.rng import derive_seed
from simkit.games.kits import experience as X
from simkit.games.kits import state as kit
from simkit.games.magic import engine as E
from simkit.games.magic.armies import army_units, canonical_deck, check_seat
from simkit.games.magic.lead import note_step
from simkit.games.magic.personalities import search_bots
from simkit.games.magic.search import redeal, worth
from simkit.games.magic.state import ALIVE, END_REASONS, GAME, PLAY
from simkit.scenario import experience_settings

#: a buffer of no rows: :func:`~simkit.games.magic.engine.legal` given it only counts the legal actions
_COUNT = np.zeros((0, 5), np.int64)


def stream_seeds(seed: int) -> tuple[int, int, int]:
    """``(dice, deck, bots)`` seeds of the game with ``seed`` (11.1: three streams, so a change to card
    effects or bots cannot shift the dice)."""
    return derive_seed(seed, "magic", "dice"), derive_seed(seed, "magic", "deck"), derive_seed(seed, "bots")


def army_array(rules, deck: str) -> np.ndarray:
    """The card rows of an army, canonical order (the engine's order of unit places)."""
    return np.array([rules.type_id(u) for u in army_units(rules, deck)], np.int64)


def new_state(rules, first: str, second: str, seed: int) -> np.void:
    """The state of a new game, a :data:`~simkit.games.magic.state.GAME` record (seat budgets checked: an army
    costing 13 sits only second)."""
    check_seat(rules, first, 0)
    check_seat(rules, second, 1)
    g = kit.zeros(GAME)
    dice, deck, _ = stream_seeds(seed)
    E.setup(g, army_array(rules, first), army_array(rules, second), dice, deck, rules.packed)
    return g


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
        return E.END, 0, 0, 0, 0
    if kind == "place" and len(rest) == 2:
        if rest[0] not in rules.types:
            raise IllegalAction(f"{action!r}: unknown unit {rest[0]!r}")
        return E.PLACE, rules.type_id(rest[0]), cell(rest[1]), 0, 0
    if kind == "move" and len(rest) == 2:
        return E.MOVE, cell(rest[0]), cell(rest[1]), 0, 0
    if kind == "attack" and len(rest) in (2, 4):
        a, b = cell(rest[0]), cell(rest[1])
        if len(rest) == 2:
            return E.ATTACK, a, b, 0, a
        if not isinstance(rest[2], (tuple, list)):
            raise IllegalAction(f"{action!r}: the joiners are a tuple of cells")
        cells = [cell(x) for x in rest[2]]
        if cells != sorted(set(cells)):
            raise IllegalAction(f"{action!r}: joiners are listed once each, in ascending cell order")
        mask = 0
        for x in cells:
            mask |= 1 << x
        return E.ATTACK, a, b, mask, cell(rest[3])
    if kind == "skill" and len(rest) == 3:
        if isinstance(rest[2], bool) or not isinstance(rest[2], int):
            raise IllegalAction(f"{action!r}: the cards spent are a number")
        return E.SKILL, cell(rest[0]), cell(rest[1]), int(rest[2]), 0
    raise IllegalAction(f"{action!r}: unknown action (place, move, attack, skill, end)")


def decode(rules, row) -> tuple:
    """The Match tuple of the engine's five integers (the canonical form of an action)."""
    kind, a, b, c, d = (int(x) for x in row)
    xy = rules.coords
    if kind == E.END:
        return ("end",)
    if kind == E.PLACE:
        return ("place", rules.types[a], xy(b))
    if kind == E.MOVE:
        return ("move", xy(a), xy(b))
    if kind == E.ATTACK:
        if c == 0:
            return ("attack", xy(a), xy(b))
        joiners = tuple(xy(i) for i in range(rules.cols * rules.rows) if c >> i & 1)
        return ("attack", xy(a), xy(b), joiners, xy(d))
    return ("skill", xy(a), xy(b), c)


def legal_rows(rules, g: np.void) -> np.ndarray:
    """The legal actions of game ``g`` as engine rows ``int64[n, 5]``."""
    out = np.zeros((E.MAX_LEGAL, 5), np.int64)
    n = E.legal(g, out, rules.packed, False)
    return out[:min(n, E.MAX_LEGAL)]


def apply(rules, g: np.void, row) -> None:
    """Do one engine action on game ``g``; raises :class:`IllegalAction` naming the reason, ``g`` unchanged."""
    kind, a, b, c, d = (int(x) for x in row)
    why = E.check(g, kind, a, b, c, d, rules.packed)
    if why != E.OK:
        raise IllegalAction(E.REASONS[why])
    E.step(g, kind, a, b, c, d, rules.packed)


class Match(kit.DeclaredMatch):
    """A single game between two armies; the first army (seat 0, budget 12) deploys and moves first.

    Args:
        scenario: a loaded Magic War scenario.
        first_deck, second_deck: army ids such as ``"Orc:Goblin*6,OrcInfantry*3"``.
        seed: the game's seed (the dice tape and the tactical pile's shuffle).
    """

    END_REASONS = END_REASONS

    def __init__(self, scenario, first_deck: str, second_deck: str, seed: int = 0):
        self.scenario = scenario
        self.rules = scenario.rules
        self.decks = (canonical_deck(self.rules, first_deck), canonical_deck(self.rules, second_deck))
        self.seed = int(seed)
        self.state = new_state(self.rules, *self.decks, self.seed)
        self.actions: list[tuple] = []
        self.band = experience_settings(scenario).level_band
        self.experience = kit.zeros(X.EXPERIENCE)
        X.begin(self.experience)

    @property
    def turn(self) -> int:
        """The global turn (0 during deployment)."""
        return int(self.state.turn)

    def legal_actions(self) -> list[tuple]:
        """Every action legal now for :attr:`to_act`, in the engine's fixed order."""
        return [decode(self.rules, r) for r in legal_rows(self.rules, self.state)]

    def do(self, action: tuple) -> None:
        """Do one action (raises :class:`simkit.IllegalAction` naming the reason, changing nothing, if illegal)."""
        row = encode(self.rules, action)
        g, packed = self.state, self.rules.packed
        legal, turn = E.legal(g, _COUNT, packed, False), int(g.turn)
        apply(self.rules, g, row)
        X.note_choice(self.experience, legal)
        note_step(self.experience, g, turn, packed, self.rules.lead, self.band)
        self.actions.append(tuple(action))

    def experience_figures(self) -> dict[str, float]:
        """The experience figures of the game as it stands (:data:`simkit.games.EXPERIENCE_COLUMNS`, as a batch's
        record holds them once it is over; a game not over is written as a draw: no deficit, no deciding turn)."""
        row = np.zeros(len(X.FIGURES), np.float64)
        winner = int(self.state.winner)
        X.write(self.experience, winner if winner >= 0 else 2, int(self.state.turn), row)
        return {name: values[0] for name, values in X.experience_columns(row).items()}

    def unit_at(self, c: int, r: int) -> np.void | None:
        """The live unit on ``(c, r)`` (its :data:`~simkit.games.magic.state.UNIT` record, read and written by
        name), or ``None``."""
        u = int(self.state.board[self.rules.cell(c, r)]) - 1
        return None if u < 0 or self.state.units[u].status != ALIVE else self.state.units[u]

    def type_at(self, c: int, r: int) -> str | None:
        """The unit type standing on ``(c, r)``, or ``None``."""
        unit = self.unit_at(c, r)
        return None if unit is None else self.rules.types[int(unit.type)]

    def hp_at(self, c: int, r: int) -> int | None:
        """Current HP (6.2: ``max(0, HP - markers)``) of the unit on ``(c, r)``, or ``None``."""
        unit = self.unit_at(c, r)
        return None if unit is None else max(0, int(self.rules.packed.cards[int(unit.type)].hp - unit.markers))

    def set_position(self, units, turn: int = 3, to_act: int | None = None, dice_key: int = 12345,
                     magic=((0, 0), (0, 0)), hands=(0, 0), drawn=(0, 0)) -> None:
        """Make the game the main-phase position written literally (tests and the rule examples), through the
        declaration (:func:`simkit.games.kits.state.place`).

        Args:
            units: exactly the units on the board, in place order: ``(side, type, (c, r))`` or
                ``(side, type, (c, r), markers)``; a side's leader is its leader.
            turn: the global turn; ``to_act`` the seat to act (default: the first on odd turns).
            dice_key: the dice stream's key (the tape starts at its die 0).
            magic: per seat ``(active, stored)``; hands: per seat the tactical cards held (ids 1..n, drawn from
                the pile); drawn: per seat the cards drawn in the game (at least those held).

        The experience figures start again from this position (nothing noted before it counts).
        """
        g, r = self.state, self.rules
        g.units[...] = np.zeros(len(g.units), g.units.dtype)
        g.board[...] = 0
        sides: dict = {0: {}, 1: {}}
        for i, unit in enumerate(units):
            side, name, (c, row) = unit[:3]
            cell, t = r.cell(c, row), r.type_id(name)
            kit.place(g.units[i], {"type": t, "side": side, "cell": cell, "status": ALIVE,
                                   "markers": unit[3] if len(unit) > 3 else 0})
            g.board[cell] = i + 1
            if r.packed.cards[t].leader:
                sides[side].update(leader=i, race=int(r.packed.cards[t].race))
        for p in (0, 1):
            held = int(hands[p])
            sides[p].update(active_magic=magic[p][0], stored_magic=magic[p][1], to_place=0, held=held,
                            drawn=max(int(drawn[p]), held), hand=[k + 1 if k < held else 0 for k in range(len(
                                g.sides[p].hand))])
        kit.place(g, {"places": len(units), "phase": PLAY, "turn": turn, "to_act": (turn - 1) % 2 if to_act is None
                      else to_act, "sides": sides, "dice_key": dice_key, "dice_rolled": 0,
                      "pile_drawn": sum(max(int(d), int(h)) for d, h in zip(drawn, hands))})
        X.begin(self.experience)

    def snapshot(self) -> dict:
        """The whole game as plain values named by its declaration (:data:`~simkit.games.magic.state.GAME`: the
        header, the pile, both sides, the unit places in use, the board), with the armies and the seed."""
        out = {"decks": list(self.decks), "seed": self.seed, **kit.snapshot(self.state)}
        out["units"] = out["units"][:out["places"]]
        return out

    def clone(self) -> Match:
        """An independent copy of the game (state and actions): try an action on it, the game is untouched."""
        other = Match.__new__(Match)
        other.scenario, other.rules, other.decks, other.seed = self.scenario, self.rules, self.decks, self.seed
        copy = np.zeros(1, GAME)
        copy[0] = self.state
        other.state = copy[0]
        other.actions = list(self.actions)
        other.band = self.band
        figures = np.zeros(1, X.EXPERIENCE)
        figures[0] = self.experience
        other.experience = figures[0]
        return other


    def view(self, seat: int, key: int, salt: int = 0) -> Match:
        """``seat``'s view of the game, as a search sees it: a clone whose dice are keyed by ``key`` (a number of
        the bot's own, never the game's) and ``salt``, the opponent's hand and the pile dealt again from their
        multiset (the engine's :func:`~simkit.games.magic.search.redeal`)."""
        other = self.clone()
        other.state.dice_key = int(key)
        redeal(other.state, int(seat), int(salt))
        return other

    def value(self, seat: int, bot: str | None = None) -> float:
        """The position's worth to ``seat`` by the ``value_*`` weights of the scenario's search bot ``bot``
        (default: its first), as the compiled search values it (:func:`~simkit.games.magic.search.worth`).

        Raises:
            ValueError: the scenario has no such search bot.
        """
        bots = search_bots(self.scenario)
        if bot is None and not bots:
            raise ValueError("the scenario defines no search bot ([bots.<name>] with a policy)")
        if bot is not None and bot not in bots:
            raise ValueError(f"unknown search bot {bot!r} (the scenario has: {', '.join(bots) or 'none'})")
        weights = bots[bot or next(iter(bots))].values
        return float(worth(self.state, int(seat), self.rules.packed, weights))
