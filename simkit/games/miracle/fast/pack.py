"""The arrays the compiled kernels read, packed as one reference each: state, rules, bot and scratch.

``pack_rules`` and ``pack_bot`` are built once per scenario and personality; ``pack_state`` wraps
a :class:`~simkit.games.miracle.state.State`'s arrays without copying them. Field names follow
the numpy objects they come from (``Cards``, ``Board``, ``BotTables``, ``BotConfig``).

Each group is described by a named tuple (its fields and what they hold) and handed to the kernels
from Python as that named tuple. Each entry kernel turns it into a numba ``StructRef`` with the same
fields (``S = KStateRef(*state)``) before calling the helpers: a named tuple of arrays costs a
reference count per array at every call that takes it, inlined or not (about 270 ns for the state
and the rules together, paid by every helper of every action), while a StructRef is one reference
and is read with the same ``S.hp`` syntax. Built inside the cached kernels, the StructRefs cost no
compilation when a process starts.
"""

from __future__ import annotations

from dataclasses import astuple, fields
from typing import NamedTuple

import numba
import numpy as np
from numba.core import types
from numba.experimental import structref

from simkit.games.miracle.board import Board
from simkit.games.miracle.bots_config import BotConfig, Weights
from simkit.games.miracle.bots_tables import BotTables
from simkit.games.miracle.cards import unit_worth
from simkit.games.miracle.state import DRAW, SECOND, State
from simkit.games.miracle.tables import Rules

F32 = np.float32
KState = NamedTuple("KState", [(f.name, np.ndarray) for f in fields(State)])
KState.__doc__ = "The arrays of a :class:`State`, same names, batch on axis 0."
KWeights = NamedTuple("KWeights", [(f.name, float) for f in fields(Weights)])
KWeights.__doc__ = "A personality's :class:`Weights` as float64 scalars."


class KRules(NamedTuple):
    """The fixed rules the kernels need (K kinds with the Inferno last, C cells, G garrisons)."""

    flying: np.ndarray  # bool[K]
    anti_air: np.ndarray  # bool[K]
    attack: np.ndarray  # int16[K, 3] by kind and level - 1
    hp: np.ndarray
    cost: np.ndarray
    move: np.ndarray
    range_min: np.ndarray
    range_max: np.ndarray
    splash: np.ndarray
    heal: np.ndarray
    aura: np.ndarray
    aura_range: np.ndarray
    artifact_effect: np.ndarray  # int16[A] HOLY_LIGHT, INFERNO_FLAME, SALAMANDER_SHIELD or WIND_BLESSING
    artifact_cost: np.ndarray  # int16[A]
    distance: np.ndarray  # int16[C, C] hex distance
    neighbors: np.ndarray  # int16[C, 6], -1 off the board
    miracle_distance: np.ndarray  # int16[2, C]
    abyss: np.ndarray  # bool[C]
    spawn: np.ndarray  # bool[2, C]
    garrisons: np.ndarray  # int16[G] cells
    garrison_spawn: np.ndarray  # bool[G, C]
    side_units: int
    inferno: int  # kind index of the Inferno
    holy_radius: int
    holy_attack: int
    wind_radius: int
    inferno_radius: int
    inferno_damage: int
    inferno_miracle_range: int
    inferno_garrison_range: int
    shield_hp: int
    # applying actions (fast/step.py)
    units: np.ndarray  # int16[K - 1, S] unit count of each creature kind at each unit step
    stars: np.ndarray  # int16[K, 3]
    cooldown: np.ndarray  # int16[K, 3]
    heal_range: np.ndarray  # int16[K, 3]
    artifact_cooldown: np.ndarray  # int16[A]
    holy_duration: int
    turn_limit: int
    start_max_mana: np.ndarray  # int64[2]
    max_mana_cap: int
    mana_period: int
    mana_phase: np.ndarray  # int64[2]
    unit_steps: np.ndarray  # int64[S - 1] turns at whose start unit counts rise
    miracle_hp: int
    full_tie: int  # winner code of a full tie: DRAW, or SECOND when ``full_tie = "second"``
    cooling_len: int
    spawn_cells: np.ndarray  # int16[2 + G, C] spawn points of each side, then of each garrison, by cell
    spawn_count: np.ndarray  # int32[2 + G] how many of each row are spawn points
    # row bitboards (simkit.games.kits.bitboard), padded with an empty row above and below: row r + 1 holds row r
    bit_row: np.ndarray  # int64[C] padded row of each cell
    bit_index: np.ndarray  # uint64[C] bit of each cell in its row
    bit_cell: np.ndarray  # int16[R + 2, 64] cell of each row and bit, -1 for none
    valid_bits: np.ndarray  # uint64[R + 2] the board's cells
    walkable_bits: np.ndarray  # uint64[R + 2] the cells that are not abyss
    # the lead signal (simkit/games/miracle/lead.py), the scenario's [lead] weights
    lead_miracle: float  # per HP of a seat's miracle
    lead_garrisons: float  # per garrison owned
    lead_worth: np.ndarray  # float64[K, 3] per unit at full HP: the units weight times its mana value


class KBot(NamedTuple):
    """A personality and its bot tables (see :class:`BotConfig` and :class:`BotTables`)."""

    weights: KWeights
    temperature: float
    garrison_detour: int
    home_radius: int
    home_guard: int
    value: np.ndarray  # float32[K, 3]
    approach: np.ndarray  # int16[K, 3, 2, C]
    garrison_steps: np.ndarray  # int16[G, C]
    miracle_distance: np.ndarray  # int16[2, C]
    action_keys: np.ndarray  # uint64[N]


class KSit(NamedTuple):
    """Scratch arrays for one game at a time (U unit slots, C cells): the bots' situation (:mod:`.situation`),
    the rules' occupancy and move search (:mod:`.legal`) and the scorers' working rows."""

    atk: np.ndarray  # int32[U] current attack, 0 for empty slots
    value: np.ndarray  # float32[U]
    threat: np.ndarray  # float32[2, 2, C] by side to act: enemy attack reaching each cell next turn, [ground, flying]
    threat_key: np.ndarray  # int64[2, side units, 4] by side: what its threat maps were made of (fast/situation.py)
    threatens: np.ndarray  # bool[U] enemy units able to hit the own miracle next turn
    garrison_goal: np.ndarray  # float32[2, C] by side to act
    garrison_key: np.ndarray  # int64[2, 1 + G] by side: what its garrison goals were made of (fast/situation.py)
    garrison_worth: np.ndarray  # float32[C]
    ground: np.ndarray  # int32[C] slot of the ground unit on each cell, -1 if none
    air: np.ndarray  # int32[C] slot of the flying unit on each cell, -1 if none
    own_threat: np.ndarray  # float32[1] summed attack of the enemy units that threaten the own miracle
    home_count: np.ndarray  # int64[1] own units within home_radius of the own miracle
    # scratch of the move scorer (fast/moves.py), kept here so that no decision allocates
    bits: np.ndarray  # uint64[9, R + 2] the move search's row bitboards (fast/moves.py)
    unit_cell: np.ndarray  # int64[4, U] threatening enemies' cells, own units' slots and cells, hunted cells
    threat_flying: np.ndarray  # bool[U]
    move_cells: np.ndarray  # int64[C] a unit's target cells (fast/moves.py)
    spawn_cells: np.ndarray  # int64[C] the summoner's spawn points (fast/summons.py)
    unit_x: np.ndarray  # float32[2, side units] and
    cell_x: np.ndarray  # float32[2, C] per-unit values and their sums near each cell (fast/uses.py)
    target: np.ndarray  # bool[C] the InfernoFlame's targets (fast/uses.py)


def new_sit(units: int, cells: int, rows: int, garrisons: int) -> KSit:
    """Scratch arrays for games with ``units`` slots (two sides' worth) on ``cells`` cells in ``rows``
    bitboard rows with ``garrisons`` garrisons."""
    side_units = units // 2
    return KSit(
        atk=np.zeros(units, np.int32),
        value=np.zeros(units, F32),
        threat=np.zeros((2, 2, cells), F32),
        threat_key=np.full((2, side_units, 4), -2, np.int64),  # matches no units: the first maps are made
        threatens=np.zeros(units, np.bool_),
        garrison_goal=np.zeros((2, cells), F32),
        garrison_key=np.full((2, 1 + garrisons), -2, np.int64),
        garrison_worth=np.zeros(cells, F32),
        ground=np.zeros(cells, np.int32),
        air=np.zeros(cells, np.int32),
        own_threat=np.zeros(1, F32),
        home_count=np.zeros(1, np.int64),
        bits=np.zeros((9, rows + 2), np.uint64),
        unit_cell=np.zeros((4, units), np.int64),
        threat_flying=np.zeros(units, np.bool_),
        move_cells=np.zeros(cells, np.int64),
        spawn_cells=np.zeros(cells, np.int64),
        unit_x=np.zeros((2, side_units), F32),
        cell_x=np.zeros((2, cells), F32),
        target=np.zeros(cells, np.bool_),
    )


class Layout(NamedTuple):
    """Start of each part of the flat action layout (:func:`simkit.games.miracle.actions.layout`)."""

    summon: int
    move: int
    attack: int
    use_cell: int
    use_unit: int
    end_turn: int
    size: int


class Packed(types.StructRef):
    """The numba type of a packed group: its fields' types, literals widened."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


@structref.register
class KStateType(Packed):
    """The numba type of a packed :class:`KState`."""


@structref.register
class KRulesType(Packed):
    """The numba type of a packed :class:`KRules`."""


@structref.register
class KBotType(Packed):
    """The numba type of a packed :class:`KBot`."""


@structref.register
class KSitType(Packed):
    """The numba type of a packed :class:`KSit`."""


class KStateRef(structref.StructRefProxy):
    """A :class:`KState` as one reference."""


class KRulesRef(structref.StructRefProxy):
    """A :class:`KRules` as one reference."""


class KBotRef(structref.StructRefProxy):
    """A :class:`KBot` as one reference."""


class KSitRef(structref.StructRefProxy):
    """A :class:`KSit` as one reference."""


structref.define_proxy(KStateRef, KStateType, list(KState._fields))
structref.define_proxy(KRulesRef, KRulesType, list(KRules._fields))
structref.define_proxy(KBotRef, KBotType, list(KBot._fields))
structref.define_proxy(KSitRef, KSitType, list(KSit._fields))

if numba.config.DISABLE_JIT:  # plain Python: a StructRef cannot be built, the named tuple reads the same
    KStateRef, KRulesRef, KBotRef, KSitRef = KState, KRules, KBot, KSit  # noqa: F811


def pack_rules(rules: Rules) -> KRules:
    """The :class:`KRules` of ``rules``."""
    cards, board = rules.cards, rules.board
    eff = cards.effect
    holy, wind = eff.get("HolyLight", {}), eff.get("WindBlessing", {})
    fire, shield = eff.get("InfernoFlame", {}), eff.get("SalamanderShield", {})
    c = np.ascontiguousarray
    return KRules(
        flying=c(cards.flying),
        anti_air=c(cards.anti_air),
        attack=c(cards.attack),
        hp=c(cards.hp),
        cost=c(cards.cost),
        move=c(cards.move),
        range_min=c(cards.range_min),
        range_max=c(cards.range_max),
        splash=c(cards.splash),
        heal=c(cards.heal),
        aura=c(cards.aura),
        aura_range=c(cards.aura_range),
        artifact_effect=c(cards.artifact_effect),
        artifact_cost=c(cards.artifact_cost),
        distance=c(board.grid.distance),
        neighbors=c(board.grid.neighbors.astype(np.int16)),
        miracle_distance=c(board.miracle_distance),
        abyss=c(board.abyss),
        spawn=c(board.spawn),
        garrisons=c(board.garrisons.astype(np.int16)),
        garrison_spawn=c(board.garrison_spawn),
        side_units=int(rules.side_units),
        inferno=int(cards.inferno),
        holy_radius=int(holy.get("radius", 0)),
        holy_attack=int(holy.get("attack", 0)),
        wind_radius=int(wind.get("radius", 0)),
        inferno_radius=int(fire.get("radius", 0)),
        inferno_damage=int(fire.get("damage", 0)),
        inferno_miracle_range=int(fire.get("miracle_range", 0)),
        inferno_garrison_range=int(fire.get("garrison_range", 0)),
        shield_hp=int(shield.get("hp", 0)),
        units=c(cards.units),
        stars=c(cards.stars),
        cooldown=c(cards.cooldown),
        heal_range=c(cards.heal_range),
        artifact_cooldown=c(cards.artifact_cooldown),
        holy_duration=int(holy.get("duration", 0)),
        turn_limit=int(rules.turn_limit),
        start_max_mana=np.array(rules.start_max_mana, np.int64),
        max_mana_cap=int(rules.max_mana_cap),
        mana_period=int(rules.mana_period),
        mana_phase=np.array(rules.mana_phase, np.int64),
        unit_steps=np.array(rules.unit_steps, np.int64),
        miracle_hp=int(rules.miracle_hp),
        full_tie=SECOND if rules.full_tie == "second" else DRAW,
        cooling_len=int(rules.cooling_len),
        **_spawn_lists(board.spawn, board.garrison_spawn),
        **_row_bits(board),
        lead_miracle=float(rules.lead.miracle_hp),
        lead_garrisons=float(rules.lead.garrisons),
        lead_worth=c(rules.lead.units * unit_worth(cards)),
    )


def _row_bits(board: Board) -> dict[str, np.ndarray]:
    """The row-bitboard fields of :class:`KRules`, rows padded by one empty row on each side."""
    bb = board.bits
    cells = np.arange(board.grid.size)
    bit_cell = np.full((bb.rows + 2, 64), -1, np.int16)
    bit_cell[bb.cell_row + 1, bb.cell_bit.astype(np.int64)] = cells

    def padded(words: np.ndarray) -> np.ndarray:
        return np.concatenate([[0], words, [0]]).astype(np.uint64)

    return {
        "bit_row": (bb.cell_row + 1).astype(np.int64),
        "bit_index": bb.cell_bit.astype(np.uint64),
        "bit_cell": bit_cell,
        "valid_bits": padded(bb.valid),
        "walkable_bits": padded(board.walkable_bits),
    }


def _spawn_lists(spawn: np.ndarray, garrison_spawn: np.ndarray) -> dict[str, np.ndarray]:
    """``spawn_cells`` and ``spawn_count`` of :class:`KRules`: the cells of each spawn mask, in order."""
    masks = np.concatenate([spawn, garrison_spawn])
    cells = np.zeros(masks.shape, np.int16)
    count = masks.sum(1).astype(np.int32)
    for row, mask in enumerate(masks):
        cells[row, : count[row]] = np.flatnonzero(mask)
    return {"spawn_cells": cells, "spawn_count": count}


def pack_bot(config: BotConfig, tables: BotTables) -> KBot:
    """The :class:`KBot` of a personality and its tables."""
    return KBot(
        weights=KWeights(*(float(v) for v in astuple(config.weights))),
        temperature=float(config.temperature),
        garrison_detour=int(config.garrison_detour),
        home_radius=int(config.home_radius),
        home_guard=int(config.home_guard),
        value=np.ascontiguousarray(tables.value),
        approach=np.ascontiguousarray(tables.approach),
        garrison_steps=np.ascontiguousarray(tables.garrison_steps),
        miracle_distance=np.ascontiguousarray(tables.miracle_distance),
        action_keys=np.ascontiguousarray(tables.action_keys),
    )


def pack_layout(layout: dict[str, tuple[int, int]]) -> Layout:
    """The :class:`Layout` of :func:`simkit.games.miracle.actions.layout`'s offsets."""
    return Layout(*(layout[name][0] for name in Layout._fields[:-1]), layout["end_turn"][1])


def pack_state(st: State) -> KState:
    """The arrays of ``st`` (not copied)."""
    return KState(*(getattr(st, f.name) for f in fields(State)))
