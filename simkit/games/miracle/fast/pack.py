"""The arrays the compiled bot kernels read, packed as named tuples numba can take as arguments.

``pack_rules`` and ``pack_bot`` are built once per scenario and personality; ``pack_state`` wraps
a :class:`~simkit.games.miracle.state.State`'s arrays without copying them. Field names follow
the numpy objects they come from (``Cards``, ``Board``, ``BotTables``, ``BotConfig``).
"""

from __future__ import annotations

from dataclasses import astuple, fields
from typing import NamedTuple

import numpy as np

from simkit.games.miracle.bots_config import BotConfig, Weights
from simkit.games.miracle.bots_tables import BotTables
from simkit.games.miracle.state import DRAW, SECOND, State
from simkit.games.miracle.tables import Rules

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


class Layout(NamedTuple):
    """Start of each part of the flat action layout (:func:`simkit.games.miracle.actions.layout`)."""

    summon: int
    move: int
    attack: int
    use_cell: int
    use_unit: int
    end_turn: int
    size: int


def pack_rules(rules: Rules) -> KRules:
    """The :class:`KRules` of ``rules``."""
    cards, board = rules.cards, rules.board
    eff = cards.effect
    holy, wind = eff.get("HolyLight", {}), eff.get("WindBlessing", {})
    fire, shield = eff.get("InfernoFlame", {}), eff.get("SalamanderShield", {})
    c = np.ascontiguousarray
    return KRules(
        flying=c(cards.flying), anti_air=c(cards.anti_air), attack=c(cards.attack), hp=c(cards.hp),
        cost=c(cards.cost), move=c(cards.move), range_min=c(cards.range_min), range_max=c(cards.range_max),
        splash=c(cards.splash), heal=c(cards.heal), aura=c(cards.aura), aura_range=c(cards.aura_range),
        artifact_effect=c(cards.artifact_effect), artifact_cost=c(cards.artifact_cost),
        distance=c(board.grid.distance), neighbors=c(board.grid.neighbors.astype(np.int16)),
        miracle_distance=c(board.miracle_distance), abyss=c(board.abyss), spawn=c(board.spawn),
        garrisons=c(board.garrisons.astype(np.int16)), garrison_spawn=c(board.garrison_spawn),
        side_units=int(rules.side_units), inferno=int(cards.inferno),
        holy_radius=int(holy.get("radius", 0)), holy_attack=int(holy.get("attack", 0)),
        wind_radius=int(wind.get("radius", 0)), inferno_radius=int(fire.get("radius", 0)),
        inferno_damage=int(fire.get("damage", 0)), inferno_miracle_range=int(fire.get("miracle_range", 0)),
        inferno_garrison_range=int(fire.get("garrison_range", 0)), shield_hp=int(shield.get("hp", 0)),
        units=c(cards.units), stars=c(cards.stars), cooldown=c(cards.cooldown), heal_range=c(cards.heal_range),
        artifact_cooldown=c(cards.artifact_cooldown), holy_duration=int(holy.get("duration", 0)),
        turn_limit=int(rules.turn_limit), start_max_mana=np.array(rules.start_max_mana, np.int64),
        max_mana_cap=int(rules.max_mana_cap), mana_period=int(rules.mana_period),
        mana_phase=np.array(rules.mana_phase, np.int64), unit_steps=np.array(rules.unit_steps, np.int64),
        miracle_hp=int(rules.miracle_hp), full_tie=SECOND if rules.full_tie == "second" else DRAW,
        cooling_len=int(rules.cooling_len), **_spawn_lists(board.spawn, board.garrison_spawn),
    )


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
        temperature=float(config.temperature), garrison_detour=int(config.garrison_detour),
        home_radius=int(config.home_radius), home_guard=int(config.home_guard),
        value=np.ascontiguousarray(tables.value), approach=np.ascontiguousarray(tables.approach),
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
