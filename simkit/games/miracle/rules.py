"""The rules of Battle of Miracles from Python, over a whole batch: new games, ``step``, legality.

The rules are written once, as compiled functions over the batch-first state (:mod:`.state`,
the batch on axis 0): :mod:`.fast.step` applies actions, :mod:`.fast.legal` says which actions are
legal and why one is not. The sweeps' compiled loops call those functions directly; this module is
their face for everything else (``Match``, the random bot, ``simkit check``, tests and scripts):
it packs the scenario's numbers once per :class:`Rules` object and calls the kernels. Nothing here
restates a rule. Under ``NUMBA_DISABLE_JIT=1`` the same functions run as plain Python.

Action batches are :class:`Actions` (kind END_TURN, SUMMON, MOVE, ATTACK, USE or PASS and three
operands, see :class:`~simkit.games.miracle.state.Actions`); the caller of :func:`step` guarantees
legality, e.g. by choosing from :func:`legal_mask` or checking with :func:`reasons`.
"""

from __future__ import annotations

from dataclasses import fields
from typing import NamedTuple

import numpy as np

from simkit.games.miracle.actions import layout
from simkit.games.miracle.fast import experience as fast_experience
from simkit.games.miracle.fast import legal as L
from simkit.games.miracle.fast import step as fast_step
from simkit.games.miracle.fast.pack import KRules, KSit, KState, Layout, new_sit, pack_layout, pack_rules
from simkit.games.miracle.state import (  # noqa: F401 - the action codes, re-exported for callers
    ACTION_NAMES,
    ATTACK,
    END_TURN,
    MOVE,
    PASS,
    SUMMON,
    TARGET_MIRACLE,
    USE,
    Actions,
    State,
    empty_state,
)
from simkit.games.miracle.tables import Rules

#: Packed scenarios kept (a check run meets many variants).
PACKED_KEPT = 64


class Packed(NamedTuple):
    """What the kernels need of one :class:`Rules`: its packed numbers, scratch and flat layout."""

    k_rules: KRules
    scratch: KSit
    layout: Layout


_packed: dict[int, tuple[Rules, Packed]] = {}


def packed(rules: Rules) -> Packed:
    """The :class:`Packed` of ``rules`` (built on first use, then kept while the object lives here)."""
    hit = _packed.get(id(rules))
    if hit is None or hit[0] is not rules:
        if len(_packed) >= PACKED_KEPT:
            _packed.clear()
        board = rules.board
        scratch = new_sit(rules.unit_slots, board.grid.size, board.bits.rows, len(board.garrisons))
        hit = (rules, Packed(pack_rules(rules), scratch, pack_layout(layout(rules))))
        _packed[id(rules)] = hit
    return hit[1]


def _run(st: State, kernel, *args) -> None:
    """``kernel(packed state, *args)`` on ``st``'s arrays, in place (a field that is not C-contiguous
    is worked on as a contiguous copy and written back)."""
    arrays = [getattr(st, f.name) for f in fields(State)]
    work = [np.ascontiguousarray(a) for a in arrays]
    kernel(KState(*work), *args)
    for a, w in zip(arrays, work):
        if a is not w:
            a[...] = w


def _ints(values) -> np.ndarray:
    return np.ascontiguousarray(values, dtype=np.int32)


def new_games(rules: Rules, deck_artifact: np.ndarray, deck_kind: np.ndarray) -> State:
    """B games at the start of turn 1 (the first player's turn start already done).

    Args:
        deck_artifact: ``int[B, 2]`` artifact index of each side's deck.
        deck_kind: ``int[B, 2, 3]`` kind indices of each side's deck, in name order.
    """
    st = empty_state(rules, deck_artifact, deck_kind)
    _run(st, fast_step.start_games, packed(rules).k_rules)
    return st


def step(rules: Rules, st: State, act: Actions) -> None:
    """Apply one legal action per game, in place, then resolve deaths and the end of the game
    (:func:`.fast.step.step`). Games that are over, or whose action is PASS, are left untouched."""
    _run(st, fast_step.step, packed(rules).k_rules, *(_ints(x) for x in act))


def legal_mask(rules: Rules, st: State) -> np.ndarray:
    """``bool[B, N]`` every legal action of each game in the flat layout of
    :func:`simkit.games.miracle.actions.layout` (all False for games that are over)."""
    p = packed(rules)
    out = np.zeros((st.batch, p.layout.size), bool)
    _run(st, L.legal_masks, p.k_rules, p.layout, p.scratch, out)
    return out


def reasons(rules: Rules, st: State, act: Actions) -> np.ndarray:
    """``int64[B]`` why each game's action is illegal now: a code of :mod:`.fast.legal`
    (``LEGAL``, 0, when it is legal; :data:`.fast.legal.REASONS` names them)."""
    p = packed(rules)
    out = np.zeros(st.batch, np.int64)
    _run(st, L.reasons, p.k_rules, p.scratch, *(_ints(x) for x in act), out)
    return out


def _part(rules: Rules, st: State, name: str, shape: tuple[int, ...]) -> np.ndarray:
    lo, hi = layout(rules)[name]
    return legal_mask(rules, st)[:, lo:hi].reshape(st.batch, *shape)


def summon_mask(rules: Rules, st: State) -> np.ndarray:
    """``bool[B, 3, 3, C]`` legal summons by deck slot, level (index 0..2) and cell."""
    return _part(rules, st, "summon", (3, 3, rules.board.grid.size))


def move_mask(rules: Rules, st: State) -> np.ndarray:
    """``bool[B, U, C]`` cells each unit may move to now (only the current player's ready units)."""
    return _part(rules, st, "move", (rules.unit_slots, rules.board.grid.size))


def attack_mask(rules: Rules, st: State) -> np.ndarray:
    """``bool[B, U, U + 1]`` legal attacks by attacker slot and target slot (last column: the enemy miracle)."""
    return _part(rules, st, "attack", (rules.unit_slots, rules.unit_slots + 1))


def use_mask(rules: Rules, st: State) -> tuple[np.ndarray, np.ndarray]:
    """``(cells bool[B, C], units bool[B, U])``: legal targets of the current player's artifact."""
    mask, lay = legal_mask(rules, st), layout(rules)
    return mask[:, slice(*lay["use_cell"])], mask[:, slice(*lay["use_unit"])]


def attack_now(rules: Rules, st: State) -> np.ndarray:
    """``int32[B, U]`` current attack of every slot (0 for empty slots; :func:`.fast.legal.attack_now`)."""
    out = np.zeros((st.batch, rules.unit_slots), np.int32)
    _run(st, L.attacks_now, packed(rules).k_rules, out)
    return out


def spawn_cells(rules: Rules, st: State) -> np.ndarray:
    """``bool[B, C]`` the spawn points of the side to act: its own and its owned garrisons'."""
    p = packed(rules)
    out = np.zeros((st.batch, rules.board.grid.size), bool)
    _run(st, L.spawn_masks, p.k_rules, p.scratch, out)
    return out


def leads(rules: Rules, st: State) -> np.ndarray:
    """``float64[B]`` each game's lead, how far ahead the first seat is (:func:`simkit.games.miracle.lead.lead`)."""
    out = np.zeros(st.batch, np.float64)
    _run(st, fast_experience.leads, packed(rules).k_rules, out)
    return out


def step_noting(rules: Rules, st: State, act: Actions, records: np.ndarray, ids: np.ndarray, decided: np.ndarray,
                band: float) -> None:
    """:func:`step`, noting in ``records[ids[i]]`` what the action tells of how game ``i`` plays: a decision among
    the legal actions of its position where ``decided[i]`` (:func:`.fast.experience.note_choices`), then, after
    :func:`step` itself (this module's, so a check that replaces it is obeyed), the lead when the action ends a turn
    or the game (``band``: the scenario's ``[experience] level_band``; :func:`.fast.experience.note_leads`)."""
    p = packed(rules)
    kind = _ints(act.kind)
    ids = np.ascontiguousarray(ids, np.int64)
    turns = np.ascontiguousarray(st.turn, np.int64).copy()
    was_over = np.ascontiguousarray(st.over, bool).copy()
    _run(st, fast_experience.note_choices, p.k_rules, p.layout, p.scratch, np.empty(p.layout.size, bool), records,
         ids, np.ascontiguousarray(decided, bool), kind)
    step(rules, st, act)
    _run(st, fast_experience.note_leads, p.k_rules, records, ids, turns, was_over, float(band), kind)
