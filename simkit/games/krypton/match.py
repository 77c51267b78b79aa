"""One game of Krypton Tower War: :class:`Match`, the one Python face of a game's state.

The state is the declared :data:`~simkit.games.krypton.state.GAME` record (:attr:`Match.state`: read and
written by name, ``m.state.sides[0].heroes[1].hp``); what a test, ``narrate``, ``render``, ``check``, the bots'
Python side and the search's Python side see of it comes from the declaration through the kit
(:mod:`simkit.games.kits.state`): :meth:`Match.snapshot` (plain values named as the fields), :meth:`Match.place`
(a literal position written by field) and the :class:`~simkit.games.Match` properties (``over``, ``winner``,
``end_reason``; ``to_act`` is the engine's). The rules are the compiled functions of
:mod:`simkit.games.krypton.engine`; this module holds none. Actions are tuples:

* ``("step", x, y, z)``: the acting hero enters the adjacent cell (move phase).
* ``("attack", x, y, z)``: hero action, attack the enemy hero or base on that cell; ``("attack", x, y, z,
  "tower")``: the enemy tower on that cell (a cell may hold an enemy hero and the tower under it).
* ``("gather",)``, ``("build", tower)``, ``("standby",)``: the other hero actions.
* ``("upgrade",)``: player action, upgrade the own base one tier.
* ``("play", card)`` or ``("play", card, x, y, z)``: play a magic card (its target cell if it has one;
  Unyielding Will names the friendly hero's cell).
* ``("pass",)``: close a counter window without playing (more) cards.
* ``("revive", "base")`` / ``("revive", "place")``: the revival choice for a hero that just died.
* ``("end",)``: end the hero turn (its end phase follows).

``to_act`` is the seat whose decision is owed: the side whose hero turn it is, the defending side in an
attack judgment's counter window, or the side of a hero that just died (its revival choice).

A Match keeps the game's experience figures as it plays (:attr:`Match.experience`, an
:data:`~simkit.games.kits.experience.EXPERIENCE` record): every decision made through :meth:`Match.do` is noted
with the number of legal actions, and the lead (:mod:`simkit.games.krypton.lead`) when a round ends and when the
game ends, as the compiled loops note them; :meth:`Match.experience_figures` reads them.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from simkit.core.errors import IllegalAction
from simkit.core.rng import derive_seed
from simkit.games.kits import experience as X
from simkit.games.kits.state import DeclaredMatch, place, snapshot, zeros
from simkit.games.krypton import engine as E
from simkit.games.krypton import lead as L
from simkit.games.krypton.bots import dice_tables
from simkit.games.krypton.fast_search import hooks as H
from simkit.games.krypton.state import (
    CARDS,
    DRAW,
    END_REASONS,
    GAME,
    HS_DEAD,
    MAXBL,
    MAXDICE,
    MAXH,
    MAXLEGAL,
    SIDE_NAMES,
    TARGET_KINDS,
    pack_rules,
)
from simkit.games.krypton.tables import canonical_deck, parse_loadout

HERO, TOWER, BASE = TARGET_KINDS
CARD_ID = {c: i for i, c in enumerate(CARDS)}
_SOURCES = {E.SRC_JUDGMENT: "judgment", E.SRC_SAME_END: "Same End", E.SRC_TOWER_MOVE: "tower_move",
            E.SRC_TOWER_END: "tower_end"}
_EV_ROOM = 512  # free event rows kept before every action (an action logs far fewer)


class Packed:
    """A scenario's rules as the compiled engine and bots read them (built once per ``Rules``): the
    :data:`~simkit.games.krypton.state.RULES` record ``rules`` (and the one-record array ``rules_array`` it
    views), the map's ``dist`` and ``nbr`` tables, the bots' ``dice`` tables, and the names of the tower kinds,
    the classes and the cells."""

    def __init__(self, tables):
        self.rules = pack_rules(tables)
        self.rules_array = self.rules.base  # the one-record array the record views (the search's context holds it)
        self.dist, self.nbr = E.map_tables(tables)
        self.dice = dice_tables(tables)
        self.towers = list(tables.towers)
        self.classes = list(tables.classes)
        self.cells = [tables.grid.cell(i) for i in range(tables.grid.size)]
        self.index = {c: i for i, c in enumerate(self.cells)}


_PACKED: dict = {}
_LEADS: dict = {}


def scenario_lead(scenario) -> np.ndarray:
    """The scenario's :data:`~simkit.games.krypton.lead.LEAD` record (a one-record array): its ``[lead]`` weights
    and its ``[experience] level_band`` (cached per scenario)."""
    from simkit.scenario import experience_settings

    key = id(scenario)
    if key not in _LEADS or _LEADS[key][0] is not scenario:
        _LEADS[key] = (scenario, L.lead_records(scenario.rules.lead, experience_settings(scenario).level_band))
    return _LEADS[key][1]


def packed(tables) -> Packed:
    """The :class:`Packed` tables of a scenario's ``Rules`` (cached)."""
    key = id(tables)
    if key not in _PACKED or _PACKED[key][0] is not tables:
        _PACKED[key] = (tables, Packed(tables))
    return _PACKED[key][1]


class Match(DeclaredMatch):
    """A single game between two loadouts; the first loadout's side (seat 0) acts first.

    Args:
        scenario: a loaded Krypton scenario.
        first_deck, second_deck: loadout ids such as ``"Archer+Knight"``.
        seed: the game's seed (movement, attack and defence dice, the magic pile's shuffles).
        log: keep the events (``False``: only count them; sweeps and search views).
    """

    END_REASONS = END_REASONS

    def __init__(self, scenario, first_deck: str, second_deck: str, seed: int = 0, log: bool = True):
        self.scenario = scenario
        self.rules = scenario.rules
        self.packed = packed(self.rules)
        self.decks = (canonical_deck(self.rules, first_deck), canonical_deck(self.rules, second_deck))
        self.seed = int(seed)
        self.actions: list[tuple] = []
        self.names: list[list[str]] = []
        classes = np.zeros((2, MAXH), np.int64)
        for side in (0, 1):
            seen: dict = {}
            names = []
            for k, cls in enumerate(parse_loadout(self.rules, self.decks[side])):
                n = seen.get(cls, 0)
                seen[cls] = n + 1
                names.append(self.rules.classes[cls].variants[side][n])
                classes[side, k] = self.packed.classes.index(cls)
            self.names.append(names)
        self.ev = np.zeros((4 * _EV_ROOM if log else 0, E.EVW), np.int64)
        self._decoded: list[tuple] = []
        self.games = zeros(GAME, 1)
        self.state = self.games[0]
        P = self.packed
        E.new_game(self.state, P.rules, P.dist, classes, derive_seed(self.seed, "krypton"), self.ev)
        self.leads = scenario_lead(scenario)  # one-record arrays, as the compiled loops take them
        self.experiences = L.fresh_experience()
        self.lead_weights, self.experience = self.leads[0], self.experiences[0]

    # -- the state, derived from its declaration ------------------------------------------------------------

    @property
    def to_act(self) -> int:
        """The seat whose decision is owed now (not always the side whose hero turn it is)."""
        return int(E.to_act(self.state, self.packed.rules))

    def snapshot(self) -> dict:
        """The whole game as plain values named as the declaration names them (equal snapshots: equal games),
        with what the engine derives from it: ``to_act`` (``None`` once over), each side's ``dice`` and
        ``hand_limit``."""
        out = snapshot(self.state)
        out["to_act"] = None if self.over else self.to_act
        out["dice"] = [self.dice_count(0), self.dice_count(1)]
        out["hand_limit"] = [self.hand_limit(0), self.hand_limit(1)]
        return out

    def place(self, values: Mapping) -> None:
        """Write a literal position into the state, field by field (:func:`simkit.games.kits.state.place`:
        ``{"sides": {1: {"energy": 4, "heroes": {0: {"hp": 2}}}}}``); fields not named keep their values."""
        place(self.state, values)

    def clone(self, log: bool | None = None) -> Match:
        """An independent copy of the game (state, actions, events): try an action on it, the game is untouched
        (``log=False``: a copy that keeps no events, for search views)."""
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        other.games = self.games.copy()
        other.state = other.games[0]
        other.experiences = self.experiences.copy()
        other.experience = other.experiences[0]
        other.actions = list(self.actions)
        keep = self.ev.shape[0] > 0 if log is None else log
        if keep:
            other.ev = self.ev.copy() if self.ev.shape[0] else np.zeros((4 * _EV_ROOM, E.EVW), np.int64)
            other._decoded = list(self._decoded)
        else:
            other.ev = np.zeros((0, E.EVW), np.int64)
            other._decoded = []
        return other

    @property
    def side(self) -> int:
        """The side whose hero turn it is."""
        return int(E.cur_side(self.state))

    @property
    def hero_index(self) -> int:
        """The acting hero's index in its team."""
        return int(E.cur_hero(self.state, self.packed.rules))

    @property
    def round(self) -> int:
        """The round being played (1-based)."""
        return int(self.state.turn) // (2 * self.rules.team_size) + 1

    @property
    def team(self) -> int:
        """Heroes per side."""
        return self.rules.team_size

    def hero(self, side: int, k: int):
        """Hero ``k`` of ``side`` (its record: writing it writes the game)."""
        return self.state.sides[side].heroes[k]

    def hand(self, side: int) -> list[str]:
        """``side``'s hand as card names (in card order)."""
        counts = self.state.sides[side].hand
        return [c for i, c in enumerate(CARDS) for _ in range(int(counts[i]))]

    def set_hand(self, side: int, cards) -> None:
        """Give ``side`` exactly the cards named (a test's literal hand)."""
        counts = [0] * len(CARDS)
        for c in cards:
            counts[CARD_ID[c]] += 1
        self.place({"sides": {side: {"hand": counts, "n_hand": len(cards)}}})

    def pile(self) -> list[str]:
        """The magic pile as card names, bottom to top (the next draw is the last)."""
        return [CARDS[c] for c in self.state.pile[:self.state.n_pile]]

    def discard(self) -> list[str]:
        """The discard pile as card names, in the order played."""
        return [CARDS[c] for c in self.state.discard[:self.state.n_discard]]

    def set_pile(self, cards) -> None:
        """Make the pile exactly the cards named, bottom to top."""
        self.state.n_pile = len(cards)
        self.state.pile[:len(cards)] = [CARD_ID[c] for c in cards]

    # -- the engine's answers about the state ---------------------------------------------------------------

    def cell_of(self, i: int) -> tuple[int, int, int]:
        """The cube cell of cell index ``i``."""
        return self.packed.cells[i]

    def index_of(self, x: int, y: int, z: int) -> int:
        """The cell index of cube cell ``(x, y, z)``."""
        return self.packed.index[(x, y, z)]

    def dist(self, a: int, b: int) -> int:
        """Hex distance between two cell indices."""
        return int(self.packed.dist[a, b])

    def hero_at(self, cell: int) -> tuple[int, int] | None:
        """``(side, index)`` of the hero on ``cell`` (on the board), else ``None``."""
        h = E.hero_at(self.state, self.packed.rules, cell)
        return None if h < 0 else (h // MAXH, h % MAXH)

    def dice_count(self, side: int) -> int:
        """``side``'s dice in attack judgments."""
        return int(E.dice_count(self.state, self.packed.rules, side))

    def hand_limit(self, side: int) -> int:
        """``side``'s magic hand limit."""
        return int(E.hand_limit(self.state, self.packed.rules, side))

    def terrain_points(self, cell: int) -> int:
        """Terrain points of ``cell`` now."""
        return int(E.terrain_points(self.state, self.packed.rules, cell))

    def base_defense(self, side: int) -> int:
        """``side``'s base defence at its tier."""
        return int(E.base_defense(self.state, self.packed.rules, side))

    def buildable(self, cell: int) -> bool:
        """A tower may stand on ``cell``."""
        return bool(E.buildable(self.state, self.packed.rules, cell))

    def attack_targets(self, side: int, k: int) -> list[tuple[str, int]]:
        """The enemy heroes, towers and base within hero ``k``'s range, as ``(kind, cell)`` targets."""
        out = np.empty(MAXBL, np.int64)
        n = E.attack_targets(self.state, self.packed.rules, self.packed.dist, side, k, out)
        return [(TARGET_KINDS[t // 1000], int(t % 1000)) for t in out[:n]]

    # -- actions as tuples -----------------------------------------------------------------------------------

    def attack_action(self, target: tuple[str, int]) -> tuple:
        """The action naming ``target``: ``("attack", x, y, z)`` for a hero or the base, ``("attack", x, y, z,
        "tower")`` for a tower (a cell may hold an enemy hero and the tower under it)."""
        kind, c = target
        return ("attack",) + self.cell_of(c) + ((TOWER,) if kind == TOWER else ())

    def attack_target(self, action: tuple) -> tuple[str, int]:
        """The ``(kind, cell)`` target an attack action names (see :meth:`attack_action`)."""
        c = self.index_of(*action[1:4])
        if len(action) == 5:
            return TOWER, c
        return (BASE, c) if c in self.rules.bases else (HERO, c)

    def action_of(self, code: int) -> tuple:
        """The tuple naming action ``code``."""
        kind, a, b = E.dec(int(code))
        name = E.KIND_NAMES[kind]
        if kind == E.K_STEP:
            return (name,) + self.cell_of(a)
        if kind == E.K_ATTACK:
            return self.attack_action((TARGET_KINDS[b], a))
        if kind == E.K_BUILD:
            return name, self.packed.towers[a]
        if kind == E.K_PLAY:
            return ("play", CARDS[a]) + (self.cell_of(b) if b >= 0 else ())
        if kind == E.K_REVIVE:
            return name, ("base", "place")[a]
        return (name,)

    def code_of(self, action: tuple) -> int | None:
        """The code of an action tuple (``None``: not an action of this game)."""
        try:
            kind = action[0]
            if kind == "step" and len(action) == 4:
                return E.enc(E.K_STEP, self.index_of(*action[1:4]), -1)
            if kind == "attack" and len(action) in (4, 5) and (len(action) == 4 or action[4] == TOWER):
                tk, c = self.attack_target(action)
                return E.enc(E.K_ATTACK, c, TARGET_KINDS.index(tk))
            if kind == "build" and len(action) == 2:
                return E.enc(E.K_BUILD, self.packed.towers.index(action[1]), -1)
            if kind == "play" and len(action) in (2, 5):
                cell = self.index_of(*action[2:5]) if len(action) == 5 else -1
                return E.enc(E.K_PLAY, CARD_ID[action[1]], cell)
            if kind == "revive" and len(action) == 2:
                return E.enc(E.K_REVIVE, ("base", "place").index(action[1]), -1)
            if kind in ("gather", "standby", "upgrade", "pass", "end") and len(action) == 1:
                return E.enc(E.KIND_NAMES.index(kind), 0, -1)
        except (KeyError, ValueError, TypeError, IndexError):
            return None
        return None

    def legal_codes(self) -> np.ndarray:
        """The codes of every decision legal now."""
        out = np.empty(MAXLEGAL, np.int64)
        P = self.packed
        n = E.legal(self.state, P.rules, P.dist, P.nbr, out)
        return out[:n]

    def legal_actions(self) -> list[tuple]:
        """Every decision legal now, for :attr:`to_act` (empty once the game is over)."""
        return [self.action_of(c) for c in self.legal_codes()]

    def do(self, action: tuple) -> None:
        """Make one decision (raises :class:`simkit.IllegalAction`, changing nothing, if illegal)."""
        if not isinstance(action, (tuple, list)) or not action:
            raise IllegalAction(f"{action!r} is not an action tuple")
        action = tuple(action)
        if self.over:
            raise IllegalAction(f"the game is over; {action!r} refused")
        code = self.code_of(action)
        if code is None or self.action_of(code) != action:
            raise IllegalAction(self._why(action))
        self.do_code(code, action)

    def do_code(self, code: int, action: tuple | None = None) -> None:
        """Make the decision ``code`` (raises :class:`IllegalAction` naming it if it is not legal)."""
        if self.ev.shape[0] and self.ev.shape[0] - self.state.n_events < _EV_ROOM:
            self.ev = np.concatenate([self.ev, np.zeros((max(self.ev.shape[0], 4 * _EV_ROOM), E.EVW), np.int64)])
        P = self.packed
        action = self.action_of(code) if action is None else action
        s, turn = self.state, int(self.state.turn)
        legal = 0 if self.over else int(E.legal(s, P.rules, P.dist, P.nbr, np.empty(MAXLEGAL, np.int64)))
        if E.do(s, P.rules, P.dist, P.nbr, self.ev, int(code)) != E.OK:
            raise IllegalAction(self._why(action))
        if s.script_overrun:
            raise AssertionError("a test rolled more dice than it scripted")
        X.note_choice(self.experience, legal)
        L.note_turn(s, P.rules, self.lead_weights, self.experience, turn)
        self.actions.append(action)

    def lead_now(self) -> float:
        """How far ahead the first side is now, -1 to +1 (:func:`simkit.games.krypton.lead.lead`)."""
        return float(L.lead(self.state, self.packed.rules, self.lead_weights))

    def experience_figures(self) -> dict:
        """The game's experience figures so far (:data:`simkit.games.EXPERIENCE_COLUMNS` -> value), for its result
        once over (a game not over counts as drawn, as its record does)."""
        row = np.zeros(len(X.FIGURES))
        X.write(self.experience, int(self.state.winner) if self.over else DRAW, self.round, row)
        return {name: values[0] for name, values in X.experience_columns(row).items()}

    def _why(self, action: tuple) -> str:
        s = self.state
        who = ("seat 0", "seat 1")[self.to_act]
        if s.n_revivals_owed:
            return f"{action!r}: {who} owes a revival choice ('revive', 'base'|'place')"
        if s.judgment.on:
            return f"{action!r}: {who} owes a counter-window decision (a counter card or 'pass')"
        owed = s.this_turn.blood_owed[:s.this_turn.n_blood_owed]
        if len(owed) and action[:1] in (("end",), ("standby",), ("step",), ("gather",), ("build",)):
            words = ", ".join(str(self.attack_action((TARGET_KINDS[t // 1000], int(t % 1000)))) for t in owed)
            return f"{action!r}: Blood Battle still owes the judgments {words} (normal magic and upgrades allowed)"
        if action[:1] == ("attack",) and len(action) == 4 and self.code_of(action + (TOWER,)) is not None \
                and s.tower_side[self.index_of(*action[1:4])] >= 0:
            return f"{action!r}: a tower is attacked as {action + (TOWER,)!r}"
        return f"{action!r} is not legal now for {who} (round {self.round}, hero turn {int(s.turn)})"

    # -- tests' hooks -----------------------------------------------------------------------------------------

    def script_dice(self, *values: int) -> None:
        """Script the next dice (movement, attack, defence) in order; a die beyond them fails the action."""
        s = self.state
        if len(values) > len(s.scripted):
            raise ValueError(f"at most {len(s.scripted)} scripted dice")
        s.n_scripted = len(values) if values else -1
        s.next_scripted = 0
        s.scripted[:len(values)] = values
        s.script_overrun = 0

    def clear_dice(self) -> None:
        """Drop the scripted dice: from here on the game's own stream."""
        self.place({"n_scripted": 0, "next_scripted": 0, "script_overrun": 0})

    def roll_die(self) -> int:
        """One die as the game rolls it (scripted or from its stream)."""
        return int(E.die(self.state, self.packed.rules))

    def next_turn(self) -> None:
        """Start the next hero turn now (draw, preparation, roll), as the end of the current one would."""
        E.next_turn(self.state, self.packed.rules, self.packed.dist, self.ev)

    def damage_hero(self, side: int, k: int, amount: int, source: str = "judgment") -> int:
        """``amount`` damage to hero ``k`` of ``side`` as the rules deal it (death follows at once); returns
        the HP it actually lost."""
        src = {v: k for k, v in _SOURCES.items()}.get(source)
        src = E.SRC_CARD + CARD_ID[source] if src is None else src
        return int(E.damage_hero(self.state, self.packed.rules, self.ev, side, k, amount, src))

    # -- the search's Python side: the compiled functions it plays with -----------------------------------------

    def view_of(self, seat: int, salt: int = 0) -> Match:
        """``seat``'s view of the game, where a search begins: a copy keeping no events in which the other
        side's hand and the pile are dealt again from the cards ``seat`` cannot see and the dice stream is
        keyed afresh (the compiled search's own deal, :func:`~simkit.games.krypton.fast_search.hooks.determinize`);
        ``salt`` picks one guess among many."""
        view = self.clone(log=False)
        key = derive_seed(int(self.state.key), "view", seat, int(self.state.ctr), int(salt))
        H.determinize(self.state, view.state, seat, key, np.empty(len(self.state.pile), np.int64))
        return view

    @property
    def in_turn(self) -> bool:
        """The decision owed is a move of the side whose hero turn it is (no counter window or revival choice)."""
        return bool(H.in_turn(self.state))

    @property
    def chance(self) -> int:
        """A count that grows whenever chance or hidden cards may enter the game: the draws made on the game's
        stream (dice, shuffles) plus the attack judgments begun (the defender's hidden counter cards may answer
        in them, even when no die is rolled)."""
        return int(H.chance(self.state))

    @property
    def moment(self) -> tuple:
        """The decision's place in the game as public counters: hero turn, draws, events logged, the open
        counter window (its code, -1: none) and the windows closed, revival choices owed."""
        s = self.state
        j = s.judgment
        return (int(s.turn), int(s.ctr), int(s.n_events), int(j.window) if j.on else -1,
                bin(int(j.closed)).count("1") if j.on else 0, int(s.n_revivals_owed))

    def features(self, seat: int) -> dict[str, float]:
        """The own-minus-enemy features the search's value weighs, by the names of
        :data:`~simkit.games.krypton.fast_search.hooks.VALUES` (the compiled ``features``)."""
        f = zeros(H.FEATURES)
        H.features(self.state, self.packed.rules, self.packed.dist, seat, f)
        return {name: float(getattr(f, f"{name}_diff")) for name, _ in H.VALUES[1:]}

    def value(self, seat: int, weights: Mapping | None = None) -> float:
        """``seat``'s value of the position.

        Without ``weights``: in [-1, 1], the result once over, else the base HP difference over base HP.
        With ``weights`` (``value_<name>`` of :data:`~simkit.games.krypton.fast_search.hooks.VALUES`): the
        compiled search's value (the result times ``value_win`` once over, else the weighted features).
        """
        s = self.state
        if weights is None:
            if self.over:
                return 0.0 if s.winner == DRAW else (1.0 if s.winner == seat else -1.0)
            top = self.rules.settings["base_hp"]
            return max(-1.0, min(1.0, (int(s.sides[seat].base_hp) - int(s.sides[1 - seat].base_hp)) / top))
        w = zeros(H.VALUE_WEIGHTS)
        for name in H.VALUE_NAMES:
            setattr(w, name, float(weights[name]))
        return float(H.value_of(s, self.packed.rules, self.packed.dist, seat, w))

    # -- the event log -------------------------------------------------------------------------------------------

    @property
    def events(self) -> list[tuple]:
        """The events so far as tuples ``(hero turn, kind, ...)`` (empty when the game keeps none)."""
        n = min(int(self.state.n_events), self.ev.shape[0])
        for row in self.ev[len(self._decoded):n]:
            self._decoded.append(self._event(row))
        return list(self._decoded[:n])

    def _event(self, row) -> tuple:
        turn, kind = int(row[0]), int(row[1])
        a = [int(v) for v in row[2:10]]
        name = E.EVENT_NAMES[kind]
        if kind == E.EV_DICE:
            na, nd = a[1], a[2]
            return (turn, name, a[0], [int(v) for v in row[5:5 + na]],
                    [int(v) for v in row[5 + MAXDICE:5 + MAXDICE + nd]])
        if kind == E.EV_DAMAGE:
            src = a[3]
            return (turn, name, a[0], a[1], a[2], _SOURCES.get(src) or CARDS[src - E.SRC_CARD])
        if kind == E.EV_REVIVE:
            return (turn, name, a[0], a[1], ("base", "place")[a[2]])
        if kind == E.EV_ATTACK:
            return (turn, name, a[0], a[1], a[2], TARGET_KINDS[a[3]])
        if kind == E.EV_COUNTER:
            return (turn, name, a[0], CARDS[a[1]])
        if kind == E.EV_PLAY:
            return (turn, name, a[0], CARDS[a[1]], a[2])
        if kind == E.EV_BUILD:
            return (turn, name, a[0], a[1], a[2], self.packed.towers[a[3]])
        if kind == E.EV_DESTROYED:
            return (turn, name, a[0], a[1], self.packed.towers[a[2]])
        width = {E.EV_ROLL: 4, E.EV_STEP: 5, E.EV_DEATH: 4, E.EV_RETURN: 3, E.EV_UNFLIP: 2, E.EV_NO_SPAWN: 2,
                 E.EV_TOTALS: 3, E.EV_GATHER: 4, E.EV_UPGRADE: 2, E.EV_STANDBY: 2, E.EV_IRON: 2, E.EV_BASE_HIT: 3,
                 E.EV_BASE_DESTROYED: 1, E.EV_CAP: 1, E.EV_END: 2, E.EV_LOCK: 0,
                 E.EV_SUDDEN_DEATH: 1}[kind]
        return (turn, name) + tuple(a[:width])

    # -- words ------------------------------------------------------------------------------------------------

    def hero_words(self, side: int, k: int) -> str:
        """``Settan Sniper (Archer)``: a hero's side, name and class."""
        return f"{SIDE_NAMES[side]} {self.names[side][k]} ({self.packed.classes[self.hero(side, k).cls]})"

    def heroes_on_board(self, side: int) -> list[int]:
        """Indices of ``side``'s heroes on the board (face up or flipped)."""
        return [k for k in range(self.team) if self.hero(side, k).state != HS_DEAD]

    def towers(self, side: int | None = None) -> dict[int, str]:
        """Cell -> tower kind name of the towers standing (of ``side`` only, if given), in cell order."""
        s = self.state
        return {c: self.packed.towers[int(s.tower_kind[c])] for c in range(self.rules.grid.size)
                if s.tower_side[c] >= 0 and (side is None or s.tower_side[c] == side)}
