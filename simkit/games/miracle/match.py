"""One game of Battle of Miracles: the single-match facade over a batch of one.

Used by tests, designers scripting situations and replays. Every action is checked by the rules'
own legality functions (:func:`simkit.games.miracle.rules.reasons`, a reason code from
:mod:`simkit.games.miracle.fast.legal`, put into words here); an illegal one raises
:class:`simkit.IllegalAction` naming the reason and leaves the game unchanged.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from simkit.core.errors import IllegalAction, ScenarioError
from simkit.games.kits.experience import EXPERIENCE, FIGURES, begin, experience_columns, write
from simkit.games.kits.state import zeros
from simkit.games.miracle import rules as R
from simkit.games.miracle.actions import layout
from simkit.games.miracle.bots_config import read_bot_settings
from simkit.games.miracle.cards import SALAMANDER_SHIELD, canonical_deck, parse_deck
from simkit.games.miracle.fast import legal as L
from simkit.games.miracle.state import (
    ARTIFACT_STATES,
    ATTACK,
    DRAW,
    END_REASONS,
    END_TURN,
    MOVE,
    SUMMON,
    TARGET_MIRACLE,
    USE,
    Actions,
    State,
)
from simkit.scenario import experience_settings

Action = tuple
_ONE = np.zeros(1, np.int64)  # the one game of a match, as rules.step_noting names games
_terms: list = [None, (0.0, 0)]  # the scenario last asked about and its experience terms


def _experience_terms(scenario) -> tuple[float, int]:
    """``(level band, max_actions_per_turn)`` of ``scenario`` (kept for the scenario last asked about: a check run
    makes match after match of one scenario)."""
    if _terms[0] is not scenario:
        cap = read_bot_settings(str(scenario.path), scenario.data).max_actions_per_turn
        _terms[:] = [scenario, (experience_settings(scenario).level_band, cap)]
    return _terms[1]


def _is_int(value: Any) -> bool:
    """True for a Python or numpy integer (not a bool, not a float)."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


class Match:
    """A single game between two decks; the first deck moves first.

    Args:
        scenario: a loaded :class:`simkit.Scenario` of this game.
        first_deck, second_deck: deck ids such as ``"HolyLight:Archer,Priest,Swordsman"``.
        seed: the game's seed (kept with the game; the rules themselves use no randomness).

    Raises:
        ScenarioError: a deck is not legal in the scenario.
    """

    def __init__(self, scenario, first_deck: str, second_deck: str, seed: int = 0):
        self.scenario = scenario
        self.rules = scenario.rules
        cards = self.rules.cards
        parsed = [parse_deck(cards, d) for d in (first_deck, second_deck)]
        self.decks = tuple(canonical_deck(cards, d) for d in (first_deck, second_deck))
        self.seed = seed
        self.state: State = R.new_games(
            self.rules,
            np.array([[p[0] for p in parsed]]),
            np.array([[p[1] for p in parsed]]),
        )
        self.actions: list[Action] = []
        # how the game plays (simkit.games.miracle.lead): its experience record, the level band and the turn cap
        self._records = zeros(EXPERIENCE, 1)
        begin(self._records[0])
        self._band, self._cap = _experience_terms(scenario)
        self._in_turn = 0

    # -- lookups ---------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """True once the game has ended."""
        return bool(self.state.over[0])

    @property
    def current(self) -> int:
        """The side to act: 0 first player, 1 second."""
        return int(self.state.current[0])

    @property
    def to_act(self) -> int:
        """The seat whose decision is owed (in this game always the side whose turn it is)."""
        return self.current

    @property
    def winner(self) -> str | None:
        """``"first"``, ``"second"`` or ``"draw"`` once the game is over, else ``None``."""
        if not self.over:
            return None
        w = int(self.state.winner[0])
        return "draw" if w == DRAW else ("first", "second")[w]

    def _cell(self, cell: Any) -> int:
        if not isinstance(cell, (tuple, list)) or not all(_is_int(v) for v in cell):
            raise IllegalAction(f"{cell!r} is not a cell (x, y, z) of integers")
        i = self.rules.board.grid.index(cell)
        if i < 0:
            raise IllegalAction(f"cell {tuple(cell)} is not on the board")
        return i

    def _slot(self, uid: Any) -> int:
        st = self.state
        if not _is_int(uid):
            raise IllegalAction(f"{uid!r} is not a unit id")
        hits = np.nonzero(st.alive[0] & (st.uid[0] == uid))[0]
        if len(hits) == 0:
            raise IllegalAction(f"no unit with id {uid} on the board")
        return int(hits[0])

    def _kind_name(self, slot: int) -> str:
        return self.rules.cards.kind_name(int(self.state.kind[0, slot]))

    # -- actions ---------------------------------------------------------------------------

    def summon(self, kind: str, level: int, cell) -> int:
        """Summon a unit of ``kind`` at ``level`` on a spawn point; returns the new unit's id."""
        uid = int(self.state.next_uid[0])
        self.do(("summon", kind, level, tuple(cell) if isinstance(cell, (list, tuple)) else cell))
        return uid

    def move(self, uid: int, cell) -> None:
        """Move unit ``uid`` to ``cell``."""
        self.do(("move", uid, tuple(cell) if isinstance(cell, (list, tuple)) else cell))

    def attack(self, uid: int, target) -> None:
        """Attack with unit ``uid``; ``target`` is a unit id or ``"miracle"`` (the enemy miracle)."""
        self.do(("attack", uid, target))

    def use(self, target) -> None:
        """Use the current player's artifact on a cell, or on a unit id for SalamanderShield."""
        self.do(("use", tuple(target) if isinstance(target, (list, tuple)) else target))

    def end_turn(self) -> None:
        """End the current player's turn."""
        self.do(("end_turn",))

    def do(self, action: Action) -> None:
        """Perform one action tuple; raises :class:`IllegalAction` (state unchanged) when illegal.

        Every action is a decision among the legal actions of its position, but an ``end_turn`` once the turn has
        reached the scenario's ``max_actions_per_turn`` (a turn the cap ends for a bot, as in a batch); the lead
        is noted when it ends a turn or the game (:meth:`experience`)."""
        act = self.encode(action)
        end = int(act.kind[0]) == END_TURN
        decided = np.array([not (end and self._in_turn >= self._cap)])
        R.step_noting(self.rules, self.state, act, self._records, _ONE, decided, self._band)
        self._in_turn = 0 if end else self._in_turn + 1
        self.actions.append(self._normal(action))

    def experience(self) -> dict[str, float]:
        """The experience figures of the game so far (:data:`simkit.games.EXPERIENCE_COLUMNS`, as a batch records
        them: :mod:`simkit.games.miracle.lead`); a game not over counts as not won."""
        row = np.zeros((1, len(FIGURES)))
        winner = int(self.state.winner[0]) if self.over else DRAW
        write(self._records[0], winner, int(self.state.turn[0]), row[0])
        return {k: v[0] for k, v in experience_columns(row).items()}

    @staticmethod
    def _normal(action: Action) -> Action:
        return tuple(tuple(int(v) for v in x) if isinstance(x, (list, tuple)) else x for x in action)

    def encode(self, action: Action) -> Actions:
        """Check ``action`` and turn it into an engine action batch of one.

        Raises:
            IllegalAction: naming why the action is not legal now.
        """
        if not isinstance(action, (tuple, list)) or not action or not isinstance(action[0], str):
            raise IllegalAction(f"{action!r} is not an action tuple such as ('end_turn',)")
        name, args = action[0], tuple(action[1:])
        arity = {"summon": 3, "move": 2, "attack": 2, "use": 1, "end_turn": 0}
        if name not in arity:
            raise IllegalAction(f"unknown action {name!r} (known: {', '.join(arity)})")
        if len(args) != arity[name]:
            raise IllegalAction(f"{name} takes {arity[name]} argument(s), got {len(args)}")
        if self.over:
            raise IllegalAction(f"{name}: the game is over")
        return getattr(self, f"_check_{name}")(*args)

    def _refuse(self, act: Actions) -> int:
        """The rules' reason code why ``act`` is illegal now (:func:`rules.reasons`; 0 when legal)."""
        return int(R.reasons(self.rules, self.state, act)[0])

    def _check_end_turn(self) -> Actions:
        return Actions.of(END_TURN)

    def _check_summon(self, kind, level, cell) -> Actions:
        rules, st, cur = self.rules, self.state, self.current
        cards = rules.cards
        k = cards.kind_index(kind) if isinstance(kind, str) else -1
        if k < 0:
            raise IllegalAction(f"summon: unknown creature kind {kind!r}")
        deck = [int(x) for x in st.deck_kind[0, cur]]
        if k not in deck:
            raise IllegalAction(f"summon: {kind} is not in the current player's deck {self.decks[cur]}")
        if not _is_int(level) or level not in (1, 2, 3):
            raise IllegalAction(f"summon: level must be 1, 2 or 3, got {level!r}")
        c = self._cell(cell)
        act = Actions.of(SUMMON, deck.index(k), level, c)
        why = self._refuse(act)
        if why == L.NO_UNIT_AVAILABLE:
            raise IllegalAction(f"summon: no {kind} unit available (all on the board or cooling)")
        if why == L.SUMMON_TOO_DEAR:
            cost, mana = int(cards.cost[k, level - 1]), int(st.mana[0, cur])
            raise IllegalAction(f"summon: {kind} L{level} costs {cost} mana, the player has {mana}")
        if why == L.NOT_A_SPAWN_POINT:
            raise IllegalAction(f"summon: {tuple(cell)} is not one of the current player's spawn points")
        if why == L.LAYER_TAKEN:
            layer = "flying" if cards.flying[k] else "ground"
            raise IllegalAction(f"summon: {tuple(cell)} already holds a {layer} unit")
        self._unexpected("summon", why)
        return act

    @staticmethod
    def _unexpected(verb: str, why: int) -> None:
        if why != L.LEGAL:  # pragma: no cover - every reason the rules give for this verb is worded above
            raise IllegalAction(f"{verb}: illegal ({L.REASONS[why]})")

    def _unit_refused(self, verb: str, uid, why: int) -> None:
        if why == L.NOT_OWN_UNIT:
            raise IllegalAction(f"{verb}: unit {uid} belongs to the other player")
        if why == L.NOT_READY:
            raise IllegalAction(f"{verb}: unit {uid} cannot act any more this turn (summoned, moved or attacked)")

    def _check_move(self, uid, cell) -> Actions:
        u = self._slot(uid)
        act = Actions.of(MOVE, u, 0, self._cell(cell))
        why = self._refuse(act)
        self._unit_refused("move", uid, why)
        if why == L.NO_PATH:
            lv = int(self.state.level[0, u])
            steps = int(self.rules.cards.move[self.state.kind[0, u], lv - 1])
            raise IllegalAction(
                f"move: unit {uid} ({self._kind_name(u)}) has no legal path of at most {steps} steps to {tuple(cell)}"
            )
        self._unexpected("move", why)
        return act

    def _check_attack(self, uid, target) -> Actions:
        rules, st = self.rules, self.state
        u = self._slot(uid)
        t = TARGET_MIRACLE if target == "miracle" else self._slot(target)
        act = Actions.of(ATTACK, u, t)
        why = self._refuse(act)
        self._unit_refused("attack", uid, why)
        lv, k = int(st.level[0, u]) - 1, int(st.kind[0, u])
        span = f"{rules.cards.range_min[k, lv]}-{rules.cards.range_max[k, lv]}"
        if why == L.NO_ATTACK:
            raise IllegalAction(f"attack: unit {uid} ({self._kind_name(u)}) has attack 0")
        if why == L.MIRACLE_OUT_OF_RANGE:
            raise IllegalAction(f"attack: the enemy miracle is not within range {span} of unit {uid}")
        if why == L.FRIENDLY_TARGET:
            raise IllegalAction(f"attack: unit {target} is a friendly unit")
        if why == L.TARGET_FLIES:
            raise IllegalAction(f"attack: unit {target} flies; unit {uid} is neither flying nor anti-air")
        if why == L.OUT_OF_RANGE:
            raise IllegalAction(f"attack: unit {target} is not within range {span} of unit {uid}")
        self._unexpected("attack", why)
        return act

    def _check_use(self, target) -> Actions:
        rules, st, cur = self.rules, self.state, self.current
        cards = rules.cards
        art = int(st.deck_artifact[0, cur])
        name = cards.artifacts[art]
        why = self._refuse(Actions.of(USE, 0, -1, -1))  # the artifact itself, before its target is read
        if why == L.ARTIFACT_IN_USE:
            raise IllegalAction(f"use: {name} is in use")
        if why == L.ARTIFACT_COOLING:
            raise IllegalAction(f"use: {name} is cooling ({int(st.artifact_cooldown[0, cur])} turns left)")
        if why == L.ARTIFACT_TOO_DEAR:
            cost, mana = int(cards.artifact_cost[art]), int(st.mana[0, cur])
            raise IllegalAction(f"use: {name} costs {cost} mana, the player has {mana}")
        if cards.artifact_effect[art] == SALAMANDER_SHIELD:
            if isinstance(target, tuple):
                raise IllegalAction(f"use: {name} targets a friendly unit id, not a cell")
            act = Actions.of(USE, 0, self._slot(target), 0)
        else:
            if not isinstance(target, tuple):
                raise IllegalAction(f"use: {name} targets a cell (x, y, z), got {target!r}")
            act = Actions.of(USE, 0, 0, self._cell(target))
        why = self._refuse(act)
        if why == L.SHIELD_ON_ENEMY:
            raise IllegalAction(f"use: {name} must target a friendly unit; unit {target} is an enemy")
        if why == L.BAD_INFERNO_CELL:
            e = cards.effect["InfernoFlame"]
            raise IllegalAction(
                f"use: {name} needs a cell that is not abyss, holds no ground unit, and is within "
                f"{e['miracle_range']} of the own miracle or {e['garrison_range']} of an owned garrison; "
                f"{target} is not"
            )
        self._unexpected("use", why)
        return act

    # -- views -----------------------------------------------------------------------------

    def clone(self) -> Match:
        """An independent copy of the game (state and actions): try an action on it, the game is untouched."""
        other = Match.__new__(Match)
        other.__dict__.update(self.__dict__)
        other.state = self.state.copy()
        other.actions = list(self.actions)
        other._records = self._records.copy()
        return other

    def legal_actions(self) -> list[Action]:
        """Every legal action now as tuples: summons, moves, attacks, artifact uses, then end_turn."""
        if self.over:
            return []
        rules, st = self.rules, self.state
        cards, grid = rules.cards, rules.board.grid
        c, u = grid.size, rules.unit_slots
        cur = self.current
        mask, lay = R.legal_mask(rules, st)[0], layout(rules)

        def part(name: str, *shape: int) -> np.ndarray:
            return mask[slice(*lay[name])].reshape(shape)

        out: list[Action] = []
        for slot, lv, cell in zip(*np.nonzero(part("summon", 3, 3, c))):
            out.append(("summon", cards.kinds[st.deck_kind[0, cur, slot]], int(lv) + 1, grid.cell(cell)))
        uid = st.uid[0]
        for mover, cell in zip(*np.nonzero(part("move", u, c))):
            out.append(("move", int(uid[mover]), grid.cell(cell)))
        for attacker, t in zip(*np.nonzero(part("attack", u, u + 1))):
            out.append(("attack", int(uid[attacker]), "miracle" if t == u else int(uid[t])))
        out += [("use", grid.cell(cell)) for cell in np.nonzero(part("use_cell", c))[0]]
        out += [("use", int(uid[unit])) for unit in np.nonzero(part("use_unit", u))[0]]
        out.append(("end_turn",))
        return out

    def snapshot(self) -> dict:
        """The whole game as plain Python values (two snapshots compare with ``==``)."""
        rules, st = self.rules, self.state
        cards, grid = rules.cards, rules.board.grid
        winner = int(st.winner[0])
        players = []
        for s in range(2):
            kinds = [cards.kinds[k] for k in st.deck_kind[0, s]]
            art = int(st.deck_artifact[0, s])
            players.append({
                "deck": self.decks[s],
                "miracle_hp": int(st.miracle_hp[0, s]),
                "mana": int(st.mana[0, s]),
                "max_mana": int(st.max_mana[0, s]),
                "dead_stars": int(st.dead_stars[0, s]),
                "available": {k: int(st.available[0, s, i]) for i, k in enumerate(kinds)},
                "cooling": {
                    k: sorted(r for r in range(st.cooling.shape[-1]) for _ in range(int(st.cooling[0, s, i, r])))
                    for i, k in enumerate(kinds)
                },
                "artifact": {
                    "name": cards.artifacts[art],
                    "state": ARTIFACT_STATES[st.artifact_state[0, s]],
                    "cooldown": int(st.artifact_cooldown[0, s]),
                },
            })
        atk = R.attack_now(rules, st)[0]
        units = []
        for u in np.nonzero(st.alive[0])[0]:
            k = int(st.kind[0, u])
            units.append({
                "id": int(st.uid[0, u]),
                "side": int(st.side[0, u]),
                "kind": cards.kind_name(k),
                "level": int(st.level[0, u]),
                "pos": grid.cell(int(st.cell[0, u])),
                "hp": int(st.hp[0, u]),
                "max_hp": int(st.max_hp[0, u]),
                "atk": int(atk[u]),
                "flying": bool(cards.flying[k]),
                "can_move": bool(st.ready[0, u]),
                "can_attack": bool(st.ready[0, u]),
                "holy_shield": bool(st.shield[0, u]),
            })
        units.sort(key=lambda d: d["id"])
        return {
            "turn": int(st.turn[0]),
            "current": int(st.current[0]),
            "over": bool(st.over[0]),
            "winner": None if winner < 0 else ("draw" if winner == DRAW else winner),
            "end_reason": END_REASONS[st.end_reason[0]],
            "garrisons": {
                grid.cell(int(c)): (None if st.garrison_owner[0, g] < 0 else int(st.garrison_owner[0, g]))
                for g, c in enumerate(rules.board.garrisons)
            },
            "players": players,
            "units": units,
        }


__all__ = ["Match", "ScenarioError"]
