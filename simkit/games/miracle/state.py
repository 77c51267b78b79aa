"""The batched game state: numpy arrays with the batch on axis 0.

Shapes use B (games), U (unit slots, ``Rules.unit_slots``; side ``s`` owns slots
``s * side_units .. (s + 1) * side_units - 1``), C (cells), G (garrisons), R (cooling length).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

if TYPE_CHECKING:  # the scenario reader sits above the state: named for the annotations only
    from simkit.games.miracle.tables import Rules

# artifact_state
READY, IN_USE, COOLING = 0, 1, 2
ARTIFACT_STATES = ("ready", "in_use", "cooling")
# winner
NO_WINNER, FIRST, SECOND, DRAW = -1, 0, 1, 2
# end_reason
NOT_OVER, MIRACLE, TURN_LIMIT = 0, 1, 2
END_REASONS = (None, "miracle", "turn_limit")
# action kinds (Actions.kind) and the attack target that is the enemy miracle
END_TURN, SUMMON, MOVE, ATTACK, USE, PASS = range(6)
ACTION_NAMES = ("end_turn", "summon", "move", "attack", "use", "pass")
TARGET_MIRACLE = -1
# tally: what each side's cards did, by card (deck slots 0..2, then the artifact) and count
ARTIFACT_CARD = 3
PLAYED, DAMAGE = 0, 1  # units summoned or artifact uses; damage dealt (to units and the miracle)


class Actions(NamedTuple):
    """One action per game: ``int[B]`` arrays ``kind`` and three operands whose meaning depends on it:

    =========  ==================  =========================  ============
    kind       a                   b                          c
    =========  ==================  =========================  ============
    SUMMON     deck slot 0..2      level 1..3                 cell
    MOVE       unit slot           -                          cell
    ATTACK     unit slot           target slot, -1 miracle    -
    USE        -                   target slot (shield)       target cell
    =========  ==================  =========================  ============
    """

    kind: np.ndarray
    a: np.ndarray
    b: np.ndarray
    c: np.ndarray

    @classmethod
    def of(cls, kind, a=0, b=0, c=0, batch: int = 1) -> Actions:
        """Broadcast scalars or arrays to a batch of actions."""
        return cls(*(np.broadcast_to(np.asarray(v, dtype=np.int32), (batch,)).copy() for v in (kind, a, b, c)))


@dataclass
class State:
    """B games of Battle of Miracles. Every field is an array with the batch on axis 0."""

    turn: np.ndarray  # int16[B] global turn 1..turn_limit
    current: np.ndarray  # int8[B] side to act: 0 first player, 1 second
    over: np.ndarray  # bool[B]
    winner: np.ndarray  # int8[B] NO_WINNER, FIRST, SECOND or DRAW
    end_reason: np.ndarray  # int8[B] NOT_OVER, MIRACLE or TURN_LIMIT
    mana: np.ndarray  # int16[B, 2]
    max_mana: np.ndarray  # int16[B, 2]
    miracle_hp: np.ndarray  # int16[B, 2]
    dead_stars: np.ndarray  # int16[B, 2]
    deck_artifact: np.ndarray  # int16[B, 2] artifact index
    deck_kind: np.ndarray  # int16[B, 2, 3] kind index of each deck slot (kinds in name order)
    available: np.ndarray  # int16[B, 2, 3] units ready to summon per deck slot
    cooling: np.ndarray  # int16[B, 2, 3, R] cooling units by turns remaining (index 0 unused)
    artifact_state: np.ndarray  # int8[B, 2] READY, IN_USE or COOLING
    artifact_cooldown: np.ndarray  # int16[B, 2] turns of cooling remaining
    garrison_owner: np.ndarray  # int8[B, G] -1 neutral, else side
    alive: np.ndarray  # bool[B, U] slot holds a unit on the board
    side: np.ndarray  # int8[B, U] owner (fixed by slot)
    kind: np.ndarray  # int16[B, U] kind index (K = Inferno)
    level: np.ndarray  # int8[B, U] star level 1..3
    deck_slot: np.ndarray  # int8[B, U] deck slot of its unit, -1 for the Inferno
    cell: np.ndarray  # int16[B, U] cell index
    hp: np.ndarray  # int16[B, U]
    max_hp: np.ndarray  # int16[B, U]
    ready: np.ndarray  # bool[B, U] may still move or attack this turn
    shield: np.ndarray  # bool[B, U] holy shield up
    equipped: np.ndarray  # bool[B, U] bears the SalamanderShield
    buff: np.ndarray  # int8[B, U] turn ends left of HolyLight's attack bonus
    uid: np.ndarray  # int32[B, U] unit id, unique in its game, increasing by appearance
    next_uid: np.ndarray  # int32[B]
    tally: np.ndarray  # int32[B, 2, 4, 2] by side, card (deck slot 0..2, ARTIFACT_CARD) and count (PLAYED, DAMAGE)

    @property
    def batch(self) -> int:
        """B, the number of games."""
        return len(self.turn)

    def copy(self) -> State:
        """A deep copy."""
        return State(**{f.name: getattr(self, f.name).copy() for f in fields(self)})

    def take(self, rows) -> State:
        """The games at ``rows`` (indices or mask) as a new State."""
        return State(**{f.name: getattr(self, f.name)[rows].copy() for f in fields(self)})

    def put(self, rows, other: State) -> None:
        """Write ``other``'s games into this state's ``rows``."""
        for f in fields(self):
            getattr(self, f.name)[rows] = getattr(other, f.name)

    def equals(self, other: State) -> bool:
        """True when every array is equal."""
        return all(np.array_equal(getattr(self, f.name), getattr(other, f.name)) for f in fields(self))


def empty_state(rules: Rules, deck_artifact: np.ndarray, deck_kind: np.ndarray) -> State:
    """B games before the first turn start: decks set, no units, full miracles.

    Args:
        deck_artifact: ``int[B, 2]`` artifact index of each side's deck.
        deck_kind: ``int[B, 2, 3]`` kind indices of each side's deck, in name order.
    """
    deck_artifact = np.asarray(deck_artifact, dtype=np.int16)
    deck_kind = np.asarray(deck_kind, dtype=np.int16)
    b, u = len(deck_artifact), rules.unit_slots
    g = len(rules.board.garrisons)
    units = rules.cards.units[:, 0][deck_kind].astype(np.int16)
    return State(
        turn=np.ones(b, np.int16),
        current=np.zeros(b, np.int8),
        over=np.zeros(b, bool),
        winner=np.full(b, NO_WINNER, np.int8),
        end_reason=np.zeros(b, np.int8),
        mana=np.zeros((b, 2), np.int16),
        max_mana=np.tile(np.array(rules.start_max_mana, np.int16), (b, 1)),
        miracle_hp=np.full((b, 2), rules.miracle_hp, np.int16),
        dead_stars=np.zeros((b, 2), np.int16),
        deck_artifact=deck_artifact,
        deck_kind=deck_kind,
        available=units,
        cooling=np.zeros((b, 2, 3, rules.cooling_len), np.int16),
        artifact_state=np.full((b, 2), READY, np.int8),
        artifact_cooldown=np.zeros((b, 2), np.int16),
        garrison_owner=np.full((b, g), -1, np.int8),
        alive=np.zeros((b, u), bool),
        side=np.tile((np.arange(u) // rules.side_units).astype(np.int8), (b, 1)),
        kind=np.zeros((b, u), np.int16),
        level=np.ones((b, u), np.int8),
        deck_slot=np.full((b, u), -1, np.int8),
        cell=np.zeros((b, u), np.int16),
        hp=np.zeros((b, u), np.int16),
        max_hp=np.zeros((b, u), np.int16),
        ready=np.zeros((b, u), bool),
        shield=np.zeros((b, u), bool),
        equipped=np.zeros((b, u), bool),
        buff=np.zeros((b, u), np.int8),
        uid=np.zeros((b, u), np.int32),
        next_uid=np.ones(b, np.int32),
        tally=np.zeros((b, 2, ARTIFACT_CARD + 1, 2), np.int32),
    )
