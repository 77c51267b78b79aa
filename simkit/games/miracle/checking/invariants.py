"""Invariants of Battle of Miracles, stated from the rules page and checked over whole batches.

Two kinds, each a registered :class:`Invariant`:

* **state invariants** ``check(rules, st)`` hold in every position (after death resolution);
* **transition invariants** ``check(rules, before, act, after)`` relate a position, the action
  applied to it (an engine :class:`Actions` batch) and the position after it.

Each check finds violations with array masks over the batch (no loop over games) and yields
``(game, message)`` only for the games that break it. The numbers come from the scenario's
``Rules``; the expected values are recomputed here from the rules text, not taken from the
engine's own helpers, so an engine bug cannot hide behind itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, fields

import numpy as np

from simkit.core.seats import WINNERS
from simkit.games.miracle.cards import INFERNO_FLAME, SALAMANDER_SHIELD
from simkit.games.miracle.rules import ATTACK, END_TURN, MOVE, SUMMON, TARGET_MIRACLE, USE, Actions
from simkit.games.miracle.state import (
    ARTIFACT_STATES,
    COOLING,
    DRAW,
    FIRST,
    IN_USE,
    MIRACLE,
    NO_WINNER,
    NOT_OVER,
    READY,
    SECOND,
    TURN_LIMIT,
    State,
)
from simkit.games.miracle.tables import Rules

SIDES = ("first", "second")
#: Messages reported per invariant and batch at most.
MAX_MESSAGES = 5

Found = Iterator[tuple[int, str]]


@dataclass(frozen=True)
class Invariant:
    """One rule invariant.

    Attributes:
        name: short snake_case name, used in reports.
        statement: the invariant in one sentence of the rules' words.
        check: ``(rules, st) -> (game, message)...`` for a state invariant,
            ``(rules, before, act, after) -> ...`` for a transition invariant.
    """

    name: str
    statement: str
    check: Callable[..., Found]


@dataclass(frozen=True)
class Violation:
    """An invariant broken in one game of a batch."""

    invariant: Invariant
    game: int
    message: str

    def __str__(self) -> str:
        return f"{self.invariant.name}: {self.message}"


STATE_INVARIANTS: list[Invariant] = []
TRANSITION_INVARIANTS: list[Invariant] = []


def _winner_word(code) -> str:
    """A recorded winner code in words (``none`` while the game goes on)."""
    return "none" if int(code) == NO_WINNER else WINNERS[int(code)]


def _register(registry: list[Invariant], name: str, statement: str):
    def add(check):
        registry.append(Invariant(name, statement, check))
        return check

    return add


def state_invariant(name: str, statement: str):
    """Decorator registering a state invariant ``check(rules, st)``."""
    return _register(STATE_INVARIANTS, name, statement)


def transition_invariant(name: str, statement: str):
    """Decorator registering a transition invariant ``check(rules, before, act, after)``."""
    return _register(TRANSITION_INVARIANTS, name, statement)


# ----------------------------------------------------------------------------------------------
# running them


def stack_states(states: list[State]) -> State:
    """One batch holding every game of ``states`` in order (concatenated on axis 0)."""
    return State(**{f.name: np.concatenate([getattr(s, f.name) for s in states]) for f in fields(State)})


def stack_actions(actions: list[Actions]) -> Actions:
    """One :class:`Actions` batch holding every action of ``actions`` in order."""
    return Actions(*(np.concatenate([getattr(a, k) for a in actions]) for k in Actions._fields))


def check_states(rules: Rules, st: State, invariants: list[Invariant] | None = None) -> list[Violation]:
    """Every violation of the state invariants in the batch ``st``.

    Args:
        rules: the scenario's rules.
        st: a batch of positions.
        invariants: which to check (default: all of :data:`STATE_INVARIANTS`).

    Returns:
        The violations found, at most :data:`MAX_MESSAGES` per invariant.
    """
    out = []
    for inv in STATE_INVARIANTS if invariants is None else invariants:
        for i, (game, message) in enumerate(inv.check(rules, st)):
            if i == MAX_MESSAGES:
                break
            out.append(Violation(inv, int(game), message))
    return out


def check_transitions(
    rules: Rules, before: State, act: Actions, after: State, invariants: list[Invariant] | None = None
) -> list[Violation]:
    """Every violation of the transition invariants in a batch of ``before -act-> after`` steps.

    Args:
        rules: the scenario's rules.
        before, after: batches of positions, game ``i`` of ``after`` following game ``i`` of ``before``.
        act: the action each game took.
        invariants: which to check (default: all of :data:`TRANSITION_INVARIANTS`).

    Returns:
        The violations found, at most :data:`MAX_MESSAGES` per invariant.
    """
    out = []
    for inv in TRANSITION_INVARIANTS if invariants is None else invariants:
        for i, (game, message) in enumerate(inv.check(rules, before, act, after)):
            if i == MAX_MESSAGES:
                break
            out.append(Violation(inv, int(game), message))
    return out


# ----------------------------------------------------------------------------------------------
# the rules restated


def describe_unit(rules: Rules, st: State, g: int, u: int) -> str:
    """``unit 7 (Swordsman L2, first player) at (x, y, z)`` for slot ``u`` of game ``g``."""
    kind = rules.cards.kind_name(int(st.kind[g, u]))
    cell = rules.board.grid.cell(int(st.cell[g, u])) if 0 <= st.cell[g, u] < rules.board.grid.size else "off board"
    return f"unit {int(st.uid[g, u])} ({kind} L{int(st.level[g, u])}, {SIDES[st.side[g, u]]} player) at {cell}"


def describe_cooling(rules: Rules, st: State, g: int, s: int) -> str:
    """``Archer [1, 3], Priest []``: turns left of each cooling unit of side ``s`` in game ``g``, by kind."""
    parts = []
    for j in range(3):
        left = [r for r in range(st.cooling.shape[-1]) for _ in range(int(st.cooling[g, s, j, r]))]
        parts.append(f"{rules.cards.kinds[st.deck_kind[g, s, j]]} {left}")
    return ", ".join(parts)


def unit_flying(rules: Rules, st: State) -> np.ndarray:
    """``bool[B, U]`` the unit in each slot flies."""
    return rules.cards.flying[st.kind]


def pair_distance(rules: Rules, st: State) -> np.ndarray:
    """``int[B, U, U]`` distance between the cells of every two slots (``[receiver, giver]``)."""
    cell = np.clip(st.cell, 0, rules.board.grid.size - 1)
    return rules.board.grid.distance[cell[:, :, None], cell[:, None, :]]


def current_attack(rules: Rules, st: State) -> np.ndarray:
    """``int[B, U]``: card attack + 1 per other friendly priest aura in reach + HolyLight bonus while buffed."""
    cards = rules.cards
    lv = st.level - 1
    attack = cards.attack[st.kind, lv].astype(np.int32)
    aura = np.where(st.alive, cards.aura[st.kind, lv], 0).astype(np.int32)  # what each slot gives
    if aura.any():
        reach = cards.aura_range[st.kind, lv]
        u = st.alive.shape[1]
        gives = (
            (aura[:, None, :] > 0)
            & (pair_distance(rules, st) <= reach[:, None, :])
            & (st.side[:, :, None] == st.side[:, None, :])
            & ~np.eye(u, dtype=bool)[None]
        )
        attack = attack + (gives * aura[:, None, :]).sum(-1)
    bonus = cards.effect.get("HolyLight", {}).get("attack", 0)
    return np.where(st.alive, attack + np.where(st.buff > 0, bonus, 0), 0)


def hits_air(rules: Rules, kind: np.ndarray) -> np.ndarray:
    """Units of ``kind`` can attack (and counter) flying units: they fly or are anti-air."""
    return rules.cards.flying[kind] | rules.cards.anti_air[kind]


def scheduled_max_mana(rules: Rules, turn: np.ndarray) -> np.ndarray:
    """``int[B, 2]`` max mana of each side once the turn starts up to ``turn`` have happened.

    Max mana grows by one at a side's own turn start when ``turn % mana_period == mana_phase[side]``
    (the first player plays odd turns, the second even ones), never above ``max_mana_cap``.
    """
    t = np.arange(1, rules.turn_limit + 1)
    own = np.stack([t % 2 == 1, t % 2 == 0])
    grow = own & (t[None] % rules.mana_period == np.array(rules.mana_phase)[:, None])
    count = np.concatenate([np.zeros((2, 1), np.int64), np.cumsum(grow, 1)], 1)  # (2, T + 1)
    table = np.minimum(np.array(rules.start_max_mana)[:, None] + count, rules.max_mana_cap)
    return table[:, np.clip(turn, 0, rules.turn_limit)].T


def unit_step(rules: Rules, turn: np.ndarray) -> np.ndarray:
    """``int[B]`` how many unit-count steps have happened by ``turn``."""
    return (np.asarray(turn)[:, None] >= np.array(rules.unit_steps, dtype=np.int64)[None]).sum(1)


def expected_winner(rules: Rules, st: State) -> np.ndarray:
    """``int[B]``: more miracle HP wins; then fewer dead stars; then ``full_tie`` (draw or second)."""
    hp, stars = st.miracle_hp.astype(np.int64), st.dead_stars.astype(np.int64)
    tie = SECOND if rules.full_tie == "second" else DRAW
    by_stars = np.where(stars[:, 0] < stars[:, 1], FIRST, np.where(stars[:, 1] < stars[:, 0], SECOND, tie))
    return np.where(hp[:, 0] > hp[:, 1], FIRST, np.where(hp[:, 1] > hp[:, 0], SECOND, by_stars))


def _per_side(st: State, mask: np.ndarray) -> np.ndarray:
    """``int[B, 2]`` how many slots of each side ``mask`` marks."""
    out = np.zeros((st.batch, 2), np.int64)
    b, u = np.nonzero(mask)
    np.add.at(out, (b, st.side[b, u]), 1)
    return out


def _on_board(st: State) -> np.ndarray:
    """``int[B, 2, 3]`` creatures of each side and deck slot on the board."""
    out = np.zeros((st.batch, 2, 3), np.int64)
    b, u = np.nonzero(st.alive & (st.deck_slot >= 0))
    np.add.at(out, (b, st.side[b, u], st.deck_slot[b, u]), 1)
    return out


# ----------------------------------------------------------------------------------------------
# state invariants


@state_invariant("mana_within_max", "each side's mana is between 0 and its max mana")
def _mana_within_max(rules: Rules, st: State) -> Found:
    for g, s in np.argwhere((st.mana < 0) | (st.mana > st.max_mana)):
        yield g, f"{SIDES[s]} player has mana {st.mana[g, s]} outside [0, max mana {st.max_mana[g, s]}]"


@state_invariant("max_mana_capped", "max mana never exceeds max_mana_cap")
def _max_mana_capped(rules: Rules, st: State) -> Found:
    for g, s in np.argwhere(st.max_mana > rules.max_mana_cap):
        yield g, f"{SIDES[s]} player has max mana {st.max_mana[g, s]} above the cap {rules.max_mana_cap}"


@state_invariant("max_mana_follows_schedule", "max mana is the start value plus one per scheduled own turn start")
def _max_mana_schedule(rules: Rules, st: State) -> Found:
    want = scheduled_max_mana(rules, st.turn)
    for g, s in np.argwhere(st.max_mana != want):
        yield g, (
            f"turn {st.turn[g]}: {SIDES[s]} player has max mana {st.max_mana[g, s]}, the schedule says {want[g, s]}"
        )


@state_invariant("units_alive_hp", "every unit on the board has 0 < HP <= max HP (deaths resolved)")
def _units_alive_hp(rules: Rules, st: State) -> Found:
    for g, u in np.argwhere(st.alive & ((st.hp <= 0) | (st.hp > st.max_hp))):
        yield g, f"{describe_unit(rules, st, g, u)} has HP {st.hp[g, u]} outside (0, max HP {st.max_hp[g, u]}]"


@state_invariant("max_hp_follows_card", "max HP is the card's HP, plus the SalamanderShield bonus on its bearer")
def _max_hp_card(rules: Rules, st: State) -> Found:
    bonus = rules.cards.effect.get("SalamanderShield", {}).get("hp", 0)
    want = rules.cards.hp[st.kind, st.level - 1] + np.where(st.equipped, bonus, 0)
    for g, u in np.argwhere(st.alive & (st.max_hp != want)):
        yield g, f"{describe_unit(rules, st, g, u)} has max HP {st.max_hp[g, u]}, its card gives {want[g, u]}"


@state_invariant("one_unit_per_cell_and_layer", "no two units share a cell on the same layer (ground or flying)")
def _one_per_cell(rules: Rules, st: State) -> Found:
    c = rules.board.grid.size
    count = np.zeros((st.batch, c + 1, 2), np.int64)
    b, u = np.nonzero(st.alive)
    np.add.at(count, (b, np.clip(st.cell[b, u], 0, c), unit_flying(rules, st)[b, u].astype(np.int64)), 1)
    for g, cell, layer in np.argwhere(count[:, :c] > 1):
        ids = [int(st.uid[g, x]) for x in np.nonzero(st.alive[g] & (st.cell[g] == cell))[0]]
        layer_name = ("ground", "flying")[layer]
        yield g, f"{count[g, cell, layer]} {layer_name} units (ids {ids}) on {rules.board.grid.cell(cell)}"


@state_invariant("no_ground_unit_on_abyss", "only flying units stand on the abyss")
def _no_ground_on_abyss(rules: Rules, st: State) -> Found:
    cell = np.clip(st.cell, 0, rules.board.grid.size - 1)
    for g, u in np.argwhere(st.alive & ~unit_flying(rules, st) & rules.board.abyss[cell]):
        yield g, f"{describe_unit(rules, st, g, u)} is a ground unit on the abyss"


@state_invariant("units_on_board_cells", "every unit stands on a board cell (never off the map or on a miracle)")
def _units_on_cells(rules: Rules, st: State) -> Found:
    for g, u in np.argwhere(st.alive & ((st.cell < 0) | (st.cell >= rules.board.grid.size))):
        yield g, f"unit {st.uid[g, u]} stands on cell index {st.cell[g, u]}, not a board cell"


@state_invariant("units_match_decks", "creatures on the board are of their deck slot's kind; Infernos use no slot")
def _units_match_decks(rules: Rules, st: State) -> Found:
    b = np.arange(st.batch)[:, None]
    slot = np.clip(st.deck_slot, 0, 2)
    deck_kind = st.deck_kind[b, st.side, slot]
    creature = st.deck_slot >= 0
    bad = st.alive & np.where(creature, st.kind != deck_kind, st.kind != rules.cards.inferno)
    for g, u in np.argwhere(bad):
        yield g, f"{describe_unit(rules, st, g, u)} does not match deck slot {st.deck_slot[g, u]}"


@state_invariant(
    "unit_count_conserved",
    "units on the board + available + cooling = the unit count of each kind of each side (at this turn's step)",
)
def _unit_count(rules: Rules, st: State) -> Found:
    want = rules.cards.units[st.deck_kind, unit_step(rules, st.turn)[:, None, None]]
    on, cooling = _on_board(st), st.cooling.sum(-1)
    have = on + st.available + cooling
    bad = (have != want) | (st.available < 0) | (st.cooling < 0).any(-1)
    for g, s, j in np.argwhere(bad):
        kind = rules.cards.kinds[st.deck_kind[g, s, j]]
        yield g, (
            f"turn {st.turn[g]}: {SIDES[s]} player's {kind}: {on[g, s, j]} on board + {st.available[g, s, j]} available"
            f" + {cooling[g, s, j]} cooling = {have[g, s, j]}, the unit count is {want[g, s, j]}"
        )


@state_invariant("cooling_within_cooldown", "a cooling unit has between 1 and its kind's longest cooldown turns left")
def _cooling_range(rules: Rules, st: State) -> Found:
    longest = rules.cards.cooldown[st.deck_kind].max(-1)  # (B, 2, 3)
    r = np.arange(st.cooling.shape[-1])
    bad = ((st.cooling > 0) & ((r == 0) | (r > longest[..., None]))).any(-1)
    for g, s, j in np.argwhere(bad):
        kind = rules.cards.kinds[st.deck_kind[g, s, j]]
        yield g, f"{SIDES[s]} player's {kind} cooling {st.cooling[g, s, j].tolist()} beyond cooldown {longest[g, s, j]}"


@state_invariant(
    "artifact_state_matches_board",
    "an artifact is in use exactly while its equipped unit or its Inferno lives (one at most)",
)
def _artifact_board(rules: Rules, st: State) -> Found:
    cards = rules.cards
    effect = cards.artifact_effect[st.deck_artifact]  # (B, 2)
    bearers = _per_side(st, st.alive & st.equipped)
    infernos = _per_side(st, st.alive & (st.kind == cards.inferno))
    in_use = st.artifact_state == IN_USE
    bad = (
        (in_use != (bearers + infernos > 0))
        | (bearers > 1) | (infernos > 1)
        | ((bearers > 0) & (effect != SALAMANDER_SHIELD))
        | ((infernos > 0) & (effect != INFERNO_FLAME))
    )
    for g, s in np.argwhere(bad):
        name = cards.artifacts[st.deck_artifact[g, s]]
        yield g, (
            f"{SIDES[s]} player's {name} is {ARTIFACT_STATES[st.artifact_state[g, s]]} with "
            f"{bearers[g, s]} equipped unit(s) and {infernos[g, s]} Inferno(s) on the board"
        )


@state_invariant(
    "artifact_cooldown_consistent", "an artifact has cooldown left (1..its cooldown) exactly while cooling"
)
def _artifact_cooldown(rules: Rules, st: State) -> Found:
    full = rules.cards.artifact_cooldown[st.deck_artifact]
    cooling = st.artifact_state == COOLING
    cd = st.artifact_cooldown
    bad = np.where(cooling, (cd < 1) | (cd > full), cd != 0)
    bad |= (st.artifact_state < READY) | (st.artifact_state > COOLING)
    for g, s in np.argwhere(bad):
        name = rules.cards.artifacts[st.deck_artifact[g, s]]
        yield g, f"{SIDES[s]} player's {name} is {ARTIFACT_STATES[st.artifact_state[g, s]]} with cooldown {cd[g, s]}"


@state_invariant("holy_shield_on_bearer", "only the SalamanderShield's bearer has a holy shield")
def _shield_on_bearer(rules: Rules, st: State) -> Found:
    for g, u in np.argwhere(st.alive & st.shield & ~st.equipped):
        yield g, f"{describe_unit(rules, st, g, u)} has a holy shield without the SalamanderShield"


@state_invariant("buff_within_duration", "a HolyLight bonus lasts between 0 and its duration turn ends")
def _buff_range(rules: Rules, st: State) -> Found:
    duration = rules.cards.effect.get("HolyLight", {}).get("duration", 0)
    for g, u in np.argwhere(st.alive & ((st.buff < 0) | (st.buff > duration))):
        yield g, f"{describe_unit(rules, st, g, u)} has {st.buff[g, u]} turn ends of bonus left (duration {duration})"


@state_invariant("only_side_to_act_is_ready", "only the side to act has units that may still act")
def _ready_side(rules: Rules, st: State) -> Found:
    for g, u in np.argwhere(st.ready & (~st.alive | (st.side != st.current[:, None]))):
        yield g, f"{describe_unit(rules, st, g, u)} may act on the other player's turn"


@state_invariant("unit_ids_unique", "unit ids on the board are unique and below the next id")
def _unit_ids(rules: Rules, st: State) -> Found:
    ids = np.where(st.alive, st.uid, -1 - np.arange(st.alive.shape[1])[None])  # dead slots: distinct negatives
    srt = np.sort(ids, 1)
    bad = (srt[:, 1:] == srt[:, :-1]).any(1) | (st.alive & (st.uid >= st.next_uid[:, None])).any(1)
    for g in np.nonzero(bad)[0]:
        yield g, f"unit ids {sorted(int(x) for x in st.uid[g, st.alive[g]])} (next id {st.next_uid[g]})"


@state_invariant("turn_order", "turns run 1..turn_limit; the first player plays odd turns, the second even ones")
def _turn_order(rules: Rules, st: State) -> Found:
    bad = (st.turn < 1) | (st.turn > rules.turn_limit) | (st.current != (st.turn - 1) % 2)
    for g in np.nonzero(bad)[0]:
        yield g, f"turn {st.turn[g]} (limit {rules.turn_limit}) is the {SIDES[st.current[g]]} player's"


@state_invariant(
    "game_end_consistent",
    "a game is over exactly when a miracle has fallen or the last turn ended, with its end reason",
)
def _game_end(rules: Rules, st: State) -> Found:
    fallen = (st.miracle_hp <= 0).any(1)
    bad = np.where(
        st.over,
        np.where(
            st.end_reason == MIRACLE,
            ~fallen,
            (st.end_reason != TURN_LIMIT) | (st.turn != rules.turn_limit) | fallen,
        ),
        fallen | (st.end_reason != NOT_OVER) | (st.winner != NO_WINNER),
    )
    for g in np.nonzero(bad)[0]:
        yield g, (
            f"over={bool(st.over[g])}, end reason {int(st.end_reason[g])}, turn {st.turn[g]}, "
            f"miracle HP {st.miracle_hp[g].tolist()}, winner {_winner_word(st.winner[g])}"
        )


@state_invariant(
    "winner_follows_tie_break",
    "the winner has more miracle HP, else fewer dead stars, else the full_tie rule decides",
)
def _winner(rules: Rules, st: State) -> Found:
    want = expected_winner(rules, st)
    for g in np.nonzero(st.over & (st.winner != want))[0]:
        yield g, (
            f"miracle HP {st.miracle_hp[g].tolist()}, dead stars {st.dead_stars[g].tolist()}, full_tie "
            f"{rules.full_tie!r}: winner is {_winner_word(st.winner[g])}, "
            f"the rules say {_winner_word(want[g])}"
        )


# ----------------------------------------------------------------------------------------------
# transition invariants


def _same_unit(before: State, after: State) -> np.ndarray:
    """``bool[B, U]`` the unit of each slot before is still on the board after (same slot, same id)."""
    return before.alive & after.alive & (after.uid == before.uid)


@transition_invariant("miracle_hp_never_rises", "a miracle's HP never rises")
def _miracle_never_rises(rules: Rules, before: State, act: Actions, after: State) -> Found:
    for g, s in np.argwhere(after.miracle_hp > before.miracle_hp):
        yield g, f"{SIDES[s]} miracle rose from {before.miracle_hp[g, s]} to {after.miracle_hp[g, s]} HP"


@transition_invariant("dead_stars_never_fall", "dead stars never fall")
def _stars_never_fall(rules: Rules, before: State, act: Actions, after: State) -> Found:
    for g, s in np.argwhere(after.dead_stars < before.dead_stars):
        yield g, f"{SIDES[s]} player's dead stars fell from {before.dead_stars[g, s]} to {after.dead_stars[g, s]}"


@transition_invariant("dead_stars_count_the_fallen", "dead stars grow by the stars of the units that died, no more")
def _stars_count(rules: Rules, before: State, act: Actions, after: State) -> Found:
    gone = before.alive & ~_same_unit(before, after)
    stars = np.zeros((before.batch, 2), np.int64)
    b, u = np.nonzero(gone)
    np.add.at(stars, (b, before.side[b, u]), rules.cards.stars[before.kind[b, u], before.level[b, u] - 1])
    grew = after.dead_stars.astype(np.int64) - before.dead_stars
    for g, s in np.argwhere(grew != stars):
        yield g, f"{SIDES[s]} player's dead stars grew by {grew[g, s]}; the units that died had {stars[g, s]} stars"


@transition_invariant("turn_advances_by_one", "the turn counter advances by one per end of turn, and only then")
def _turn_advances(rules: Rules, before: State, act: Actions, after: State) -> Found:
    end = act.kind == END_TURN
    advance = end & (before.turn < rules.turn_limit)
    want_turn = before.turn + advance
    want_current = np.where(advance, 1 - before.current, before.current)
    for g in np.nonzero((after.turn != want_turn) | (after.current != want_current))[0]:
        what = "end_turn" if end[g] else "an action other than end_turn"
        yield g, f"{what} on turn {before.turn[g]} led to turn {after.turn[g]} ({SIDES[after.current[g]]} player)"


@transition_invariant(
    "game_ends_by_turn_limit", "ending turn turn_limit ends the game; an earlier end of turn never does"
)
def _ends_by_limit(rules: Rules, before: State, act: Actions, after: State) -> Found:
    end = act.kind == END_TURN
    last = before.turn >= rules.turn_limit
    bad = (
        (end & last & ~(after.over & (after.end_reason == TURN_LIMIT)))
        | (end & ~last & after.over)
        | (~end & after.over & ~before.over & (after.end_reason != MIRACLE))
    )
    for g in np.nonzero(bad)[0]:
        yield g, (
            f"{'end_turn' if end[g] else 'an action'} on turn {before.turn[g]} (limit {rules.turn_limit}) left "
            f"over={bool(after.over[g])}, end reason {int(after.end_reason[g])}"
        )


def _advanced(rules: Rules, before: State, act: Actions) -> np.ndarray:
    """``int[n]`` games whose end of turn started a new turn."""
    return np.nonzero((act.kind == END_TURN) & (before.turn < rules.turn_limit))[0]


@transition_invariant(
    "turn_start_refreshes",
    "at a turn start the side to act gets mana = max mana, its units may act, its bearer regains its holy shield "
    "(no other unit gains one)",
)
def _turn_start(rules: Rules, before: State, act: Actions, after: State) -> Found:
    rows = _advanced(rules, before, act)
    s = after.current[rows]
    mine = after.alive[rows] & (after.side[rows] == s[:, None])
    bad = (
        (after.mana[rows, s] != after.max_mana[rows, s])
        | (after.mana[rows, 1 - s] != before.mana[rows, 1 - s])
        | (after.max_mana[rows, 1 - s] != before.max_mana[rows, 1 - s])
        | (after.ready[rows] != mine).any(1)
        | (mine & after.equipped[rows] & ~after.shield[rows]).any(1)
        | (~mine & after.shield[rows] & ~before.shield[rows]).any(1)
    )
    for i in np.nonzero(bad)[0]:
        g = rows[i]
        yield g, (
            f"turn {after.turn[g]} starts with mana {after.mana[g].tolist()} / max {after.max_mana[g].tolist()} "
            f"(before {before.mana[g].tolist()} / {before.max_mana[g].tolist()}), ready ids "
            f"{[int(x) for x in after.uid[g, after.ready[g]]]}"
        )


@transition_invariant(
    "cooldowns_tick_at_turn_start",
    "at its turn start each of the side's cooling units and its artifact cooldown go down by one; at 0 they are back",
)
def _cooldowns_tick(rules: Rules, before: State, act: Actions, after: State) -> Found:
    rows = _advanced(rules, before, act)
    if len(rows) == 0:
        return
    s = after.current[rows]
    n = np.arange(len(rows))
    units = rules.cards.units
    kinds = before.deck_kind[rows]
    gain = units[kinds, unit_step(rules, after.turn[rows])[:, None, None]] - units[
        kinds, unit_step(rules, before.turn[rows])[:, None, None]
    ]  # (n, 2, 3) unit-count steps of this turn start, both sides
    cool = before.cooling[rows, s]
    shifted = np.zeros_like(cool)
    shifted[..., 1:-1] = cool[..., 2:]
    want_avail = before.available[rows].astype(np.int64) + gain
    want_avail[n, s] += cool[..., 1] if cool.shape[-1] > 1 else 0
    was = before.artifact_state[rows, s] == COOLING
    k = before.artifact_cooldown[rows, s].astype(np.int64)
    want_cd = np.where(was, np.maximum(k - 1, 0), k)
    want_state = np.where(was, np.where(k - 1 > 0, COOLING, READY), before.artifact_state[rows, s])
    bad_units = (
        (after.cooling[rows, s] != shifted).any((-1, -2))
        | (after.cooling[rows, 1 - s] != before.cooling[rows, 1 - s]).any((-1, -2))
        | (after.available[rows] != want_avail).any((-1, -2))
    )
    bad_artifact = (
        (after.artifact_cooldown[rows, s] != want_cd) | (after.artifact_state[rows, s] != want_state)
        | (after.artifact_cooldown[rows, 1 - s] != before.artifact_cooldown[rows, 1 - s])
        | (after.artifact_state[rows, 1 - s] != before.artifact_state[rows, 1 - s])
    )
    for i in np.nonzero(bad_units)[0]:
        g = rows[i]
        want = before.take([g])
        want.cooling[0, s[i]] = shifted[i]
        yield g, (
            f"turn {after.turn[g]} start ({SIDES[s[i]]} player): cooling {describe_cooling(rules, before, g, s[i])} -> "
            f"{describe_cooling(rules, after, g, s[i])}, expected {describe_cooling(rules, want, 0, s[i])}; available "
            f"{before.available[g].tolist()} -> {after.available[g].tolist()}, expected {want_avail[i].tolist()}"
        )
    for i in np.nonzero(bad_artifact)[0]:
        g = rows[i]
        was = [ARTIFACT_STATES[x] for x in before.artifact_state[g]]
        now = [ARTIFACT_STATES[x] for x in after.artifact_state[g]]
        yield g, (
            f"turn {after.turn[g]} start ({SIDES[s[i]]} player): artifacts {was} cooldown "
            f"{before.artifact_cooldown[g].tolist()} -> {now} cooldown {after.artifact_cooldown[g].tolist()}"
        )


@transition_invariant("cooldowns_only_tick_at_turn_start", "within a turn no cooling unit gets closer to availability")
def _cooldowns_hold(rules: Rules, before: State, act: Actions, after: State) -> Found:
    within = act.kind != END_TURN
    bad = within & (after.cooling < before.cooling).any((1, 2, 3))
    bad |= within & (after.artifact_cooldown < before.artifact_cooldown).any(1)
    for g in np.nonzero(bad)[0]:
        yield g, (
            f"cooling {before.cooling[g].tolist()} -> {after.cooling[g].tolist()}, artifact cooldown "
            f"{before.artifact_cooldown[g].tolist()} -> {after.artifact_cooldown[g].tolist()} without a turn start"
        )


@transition_invariant(
    "mana_spent_exactly",
    "a summon costs its card's cost, an artifact its cost, moves and attacks nothing; "
    "the other side's mana is untouched",
)
def _mana_spent(rules: Rules, before: State, act: Actions, after: State) -> Found:
    cards = rules.cards
    b = np.arange(before.batch)
    cur = before.current
    slot = np.clip(act.a, 0, 2)
    level = np.clip(act.b, 1, 3)
    cost = np.select(
        [act.kind == SUMMON, act.kind == USE],
        [cards.cost[before.deck_kind[b, cur, slot], level - 1], cards.artifact_cost[before.deck_artifact[b, cur]]],
        0,
    )
    within = act.kind != END_TURN
    bad = within & (
        (after.mana[b, cur] != before.mana[b, cur] - cost)
        | (after.mana[b, 1 - cur] != before.mana[b, 1 - cur])
        | (after.max_mana != before.max_mana).any(1)
    )
    for g in np.nonzero(bad)[0]:
        yield g, f"mana {before.mana[g].tolist()} -> {after.mana[g].tolist()}, expected a cost of {cost[g]}"


@transition_invariant(
    "summoned_unit_arrives_fresh",
    "a summon puts one new unit of the asked kind and level on the cell, full HP, unable to act; "
    "one unit less available",
)
def _summon_fresh(rules: Rules, before: State, act: Actions, after: State) -> Found:
    rows = np.nonzero(act.kind == SUMMON)[0]
    if len(rows) == 0:
        return
    cards = rules.cards
    cur = before.current[rows]
    slot, level, cell = act.a[rows], act.b[rows], act.c[rows]
    new = after.alive[rows] & ~before.alive[rows]
    count = new.sum(1)
    u = np.argmax(new, 1)
    a = after
    kind = before.deck_kind[rows, cur, slot]
    ok = (
        (count == 1)
        & (a.kind[rows, u] == kind) & (a.level[rows, u] == level) & (a.cell[rows, u] == cell)
        & (a.side[rows, u] == cur) & (a.deck_slot[rows, u] == slot)
        & (a.hp[rows, u] == cards.hp[kind, level - 1]) & (a.max_hp[rows, u] == a.hp[rows, u])
        & ~a.ready[rows, u] & ~a.shield[rows, u] & ~a.equipped[rows, u] & (a.buff[rows, u] == 0)
        & (a.available[rows, cur, slot] == before.available[rows, cur, slot] - 1)
        & (before.alive[rows] == (a.alive[rows] & ~new)).all(1)
    )
    for i in np.nonzero(~ok)[0]:
        g = rows[i]
        yield g, (
            f"summon {cards.kinds[kind[i]]} L{level[i]} on {rules.board.grid.cell(int(cell[i]))}: {count[i]} new "
            f"unit(s)" + (f", the new one is {describe_unit(rules, after, g, u[i])} HP {a.hp[g, u[i]]}/"
                          f"{a.max_hp[g, u[i]]}, may act: {bool(a.ready[g, u[i]])}" if count[i] else "")
        )


@transition_invariant(
    "move_moves_only_the_mover", "a move changes the mover's cell and nothing else; it may not act again"
)
def _move_only(rules: Rules, before: State, act: Actions, after: State) -> Found:
    rows = np.nonzero(act.kind == MOVE)[0]
    if len(rows) == 0:
        return
    n = np.arange(len(rows))
    u, cell = act.a[rows], act.c[rows]
    want_cell = before.cell[rows].copy()
    want_cell[n, u] = cell
    alive = before.alive[rows]
    ok = (
        (after.alive[rows] == alive).all(1)
        & ((after.cell[rows] == want_cell) | ~alive).all(1)
        & ((after.hp[rows] == before.hp[rows]) | ~alive).all(1)
        & ~after.ready[rows, u]
    )
    for i in np.nonzero(~ok)[0]:
        g = rows[i]
        yield g, f"moving {describe_unit(rules, before, g, u[i])} to {rules.board.grid.cell(int(cell[i]))} changed more"


@transition_invariant(
    "attack_damage_and_counter",
    "an attack deals the attacker's attack to the target, the target counters when the attacker is in its range, "
    "splash hits its cone, a holy shield cancels one hit, and units at 0 HP or below die",
)
def _attack_damage(rules: Rules, before: State, act: Actions, after: State) -> Found:
    rows = np.nonzero(act.kind == ATTACK)[0]
    if len(rows) == 0:
        return
    cards, grid = rules.cards, rules.board.grid
    bf = before
    n = np.arange(len(rows))
    u, t = act.a[rows], act.b[rows]
    cur = bf.current[rows]
    atk = current_attack(rules, bf)[rows]  # (n, U)
    power = atk[n, u]
    at_miracle = t == TARGET_MIRACLE
    tt = np.where(at_miracle, 0, t)
    # miracles: the enemy's falls by the attack's power when it is the target; nothing else touches them
    want_mhp = bf.miracle_hp[rows].astype(np.int64)
    want_mhp[n, 1 - cur] -= np.where(at_miracle, power, 0)
    # units: damage each slot takes in this attack
    dmg = np.zeros(bf.alive[rows].shape, np.int64)
    dmg[n, tt] += np.where(at_miracle, 0, power)
    cell = bf.cell[rows]
    d = grid.distance[cell[n, u], cell[n, tt]]
    tk, tl = bf.kind[rows, tt], bf.level[rows, tt] - 1
    counter = (
        ~at_miracle & (d >= cards.range_min[tk, tl]) & (d <= cards.range_max[tk, tl]) & (atk[n, tt] > 0)
        & (~cards.flying[bf.kind[rows, u]] | hits_air(rules, tk))
    )
    dmg[n, u] += np.where(counter, atk[n, tt], 0)
    ak, al = bf.kind[rows, u], bf.level[rows, u] - 1
    splash = cards.splash[ak, al].astype(np.int64)
    splashing = ~at_miracle & (splash > 0) & ~cards.flying[tk]
    victims = (
        splashing[:, None] & bf.alive[rows] & (bf.side[rows] != cur[:, None]) & ~cards.flying[bf.kind[rows]]
        & (grid.distance[cell, cell[n, tt][:, None]] == 1) & (grid.distance[cell, cell[n, u][:, None]] == 2)
    )
    dmg += np.where(victims, splash[:, None], 0)
    shielded = bf.shield[rows] & (dmg > 0)
    want_hp = np.where(shielded, bf.hp[rows], bf.hp[rows] - dmg)
    want_shield = bf.shield[rows] & ~shielded
    alive = bf.alive[rows]
    stays = _same_unit(bf, after)[rows]
    should_stay = alive & (want_hp > 0)
    bad_unit = alive & (
        (stays != should_stay)
        | (stays & ((after.hp[rows] != want_hp) | (after.shield[rows] != want_shield)))
    )
    bad_unit[n, u] |= stays[n, u] & after.ready[rows, u]
    bad_miracle = (after.miracle_hp[rows] != want_mhp).any(1)
    for i in np.nonzero(bad_unit.any(1) | bad_miracle)[0]:
        g = rows[i]
        target = "the enemy miracle" if at_miracle[i] else describe_unit(rules, bf, g, tt[i])
        parts = [f"{describe_unit(rules, bf, g, u[i])} (attack {power[i]}) attacked {target}"]
        if bad_miracle[i]:
            parts.append(f"miracle HP {bf.miracle_hp[g].tolist()} -> {after.miracle_hp[g].tolist()}, "
                         f"expected {want_mhp[i].tolist()}")
        for x in np.nonzero(bad_unit[i])[0]:
            got = f"HP {after.hp[g, x]}" if stays[i, x] else "dead"
            want = f"HP {want_hp[i, x]}" if should_stay[i, x] else "dead"
            parts.append(f"unit {bf.uid[g, x]} had HP {bf.hp[g, x]}{' +shield' if bf.shield[g, x] else ''}, "
                         f"now {got}, expected {want}" + (" and unable to act" if x == u[i] else ""))
        yield g, "; ".join(parts)


@transition_invariant(
    "priests_heal_at_turn_end",
    "at the end of a turn each priest heals the acting side's units in reach (itself too), never above max HP",
)
def _priest_heal(rules: Rules, before: State, act: Actions, after: State) -> Found:
    rows = np.nonzero(act.kind == END_TURN)[0]
    if len(rows) == 0:
        return
    cards = rules.cards
    bf = before.take(rows)
    cur = bf.current
    lv = bf.level - 1
    friendly = bf.alive & (bf.side == cur[:, None])
    heal = np.where(friendly, cards.heal[bf.kind, lv], 0).astype(np.int64)
    amount = np.zeros(bf.alive.shape, np.int64)
    if heal.any():
        gets = (heal[:, None, :] > 0) & (pair_distance(rules, bf) <= cards.heal_range[bf.kind, lv][:, None, :])
        amount = (gets * heal[:, None, :]).sum(-1) * friendly
    want = np.where(amount > 0, np.minimum(bf.hp + amount, bf.max_hp), bf.hp)
    stays = _same_unit(before, after)[rows]
    bad = bf.alive & (~stays | (after.hp[rows] != want))
    for i, x in np.argwhere(bad):
        g = rows[i]
        yield g, (
            f"end of turn {bf.turn[i]}: {describe_unit(rules, bf, i, x)} went from HP {bf.hp[i, x]}/{bf.max_hp[i, x]} "
            f"to {'HP ' + str(after.hp[g, x]) if stays[i, x] else 'gone'}, expected HP {want[i, x]}"
        )


@transition_invariant("buffs_count_down", "each end of turn takes one turn end off every HolyLight bonus")
def _buffs_count_down(rules: Rules, before: State, act: Actions, after: State) -> Found:
    rows = np.nonzero(act.kind == END_TURN)[0]
    want = np.maximum(before.buff[rows] - 1, 0)
    bad = before.alive[rows] & (after.buff[rows] != want)
    for i, x in np.argwhere(bad):
        g = rows[i]
        unit = describe_unit(rules, before, g, x)
        yield g, f"{unit} bonus {before.buff[g, x]} -> {after.buff[g, x]} at the end of turn"
