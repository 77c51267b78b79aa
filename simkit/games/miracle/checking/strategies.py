"""Hypothesis strategies for Battle of Miracles: decks, seeds, scenario variants and actions.

Importable from a designer's own pytest files::

    from hypothesis import given
    from simkit.games.miracle.checking import strategies as sks

    @given(sks.played_games(scenario))
    def test_my_rule(game): ...

Scenario variants are TOML patches that ``extends`` the scenario under test, written into a
temporary folder and loaded with :func:`simkit.load_scenario` (so the loader and its validation
are exercised too). Every bound is relative to the scenario's own numbers.
"""

from __future__ import annotations

import atexit
import hashlib
import json
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from hypothesis import strategies as st

from simkit.games.miracle.tables import reachable_phases
from simkit.scenario import Scenario, load_scenario

#: Action groups the biased chooser knows, simplest first (shrinking prefers earlier ones).
GROUPS = ("end_turn", "move", "advance", "charge", "summon", "use", "attack", "attack_miracle")
#: How often each group is picked when it has a legal action (weights, not probabilities).
WEIGHTS = {"end_turn": 1, "move": 1, "advance": 3, "charge": 3, "summon": 3, "use": 2, "attack": 6, "attack_miracle": 8}

_LEVELS = ("L1", "L2", "L3")


# ----------------------------------------------------------------------------------------------
# decks and seeds


def decks(scenario: Scenario) -> st.SearchStrategy[str]:
    """A deck id from the scenario's deck pool (shrinks toward the pool's first deck)."""
    return st.sampled_from(scenario.decks)


def deck_pairs(scenario: Scenario) -> st.SearchStrategy[tuple[str, str]]:
    """``(first player's deck, second player's deck)``, possibly the same deck twice."""
    return st.tuples(decks(scenario), decks(scenario))


def seeds() -> st.SearchStrategy[int]:
    """A game seed: a non-negative 63-bit integer (shrinks toward 0)."""
    return st.integers(0, 2**63 - 1)


# ----------------------------------------------------------------------------------------------
# scenario variants


def _around(value: int, below: int, above: int, minimum: int) -> st.SearchStrategy[int]:
    return st.integers(max(minimum, value - below), max(minimum, value + above))


@st.composite
def scenario_patches(draw, scenario: Scenario) -> dict[str, Any]:
    """A patch of the scenario's numbers within sane bounds, as a nested dict of TOML tables.

    Each part is present or not: ``[rules]`` (a short turn limit, the mana schedule and cap,
    miracle HP, unit steps, the full-tie rule); up to three creature kinds with new unit counts
    and per-level cost, attack, HP, move and cooldown; up to two artifacts with new cost and
    cooldown. Costs, attacks and cooldowns stay >= 0, HP and move >= 1, unit counts never fall.
    """
    rules, cards = scenario.rules, scenario.rules.cards
    patch: dict[str, Any] = {}
    r: dict[str, Any] = {}
    turn_limit = rules.turn_limit
    if draw(st.booleans()):
        turn_limit = r["turn_limit"] = draw(st.integers(1, min(rules.turn_limit, 16)))
    if draw(st.booleans()):
        cap = r["max_mana_cap"] = draw(st.integers(1, rules.max_mana_cap + 2))
        r["first_max_mana"] = draw(st.integers(0, cap))
        r["second_max_mana"] = draw(st.integers(0, cap))
    if draw(st.booleans()):
        period = r["mana_period"] = draw(st.integers(1, 2 * rules.mana_period))
        r["mana_phase"] = [draw(st.sampled_from(reachable_phases(period, side))) for side in (0, 1)]
    if draw(st.booleans()):
        r["miracle_hp"] = draw(st.integers(1, max(1, rules.miracle_hp // 5)))
    if draw(st.booleans()):
        r["full_tie"] = draw(st.sampled_from(("draw", "second")))
    if rules.unit_steps and draw(st.booleans()):
        n = len(rules.unit_steps)
        steps = draw(st.sets(st.integers(1, turn_limit + 1), min_size=n, max_size=n))
        r["unit_steps"] = sorted(steps)
    if r:
        patch["rules"] = r

    creatures: dict[str, Any] = {}
    for k in draw(st.lists(st.sampled_from(range(len(cards.kinds))), unique=True, max_size=3)):
        table: dict[str, Any] = {}
        if draw(st.booleans()):
            start = draw(_around(int(cards.units[k, 0]), 2, 2, 1))
            table["units"] = [start] + [0] * (cards.units.shape[1] - 1)
            for i in range(1, cards.units.shape[1]):
                table["units"][i] = table["units"][i - 1] + draw(st.integers(0, 2))
        for lv in draw(st.lists(st.sampled_from(range(3)), unique=True, max_size=3)):
            level: dict[str, int] = {}
            bounds = {"cost": (2, 2, 0), "attack": (2, 2, 0), "hp": (2, 3, 1), "move": (1, 2, 1), "cooldown": (2, 2, 0)}
            for stat in draw(st.lists(st.sampled_from(sorted(bounds)), unique=True, min_size=1)):
                value = int(getattr(cards, stat)[k, lv])
                level[stat] = draw(_around(value, *bounds[stat]))
            table[_LEVELS[lv]] = level
        if table:
            creatures[cards.kinds[k]] = table
    if creatures:
        patch["creatures"] = creatures

    artifacts: dict[str, Any] = {}
    for a in draw(st.lists(st.sampled_from(range(len(cards.artifacts))), unique=True, max_size=2)):
        artifacts[cards.artifacts[a]] = {
            "cost": draw(_around(int(cards.artifact_cost[a]), 4, 2, 0)),
            "cooldown": draw(_around(int(cards.artifact_cooldown[a]), 3, 3, 0)),
        }
    if artifacts:
        patch["artifacts"] = artifacts
    return patch


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _key(k: str) -> str:
    return k if _BARE_KEY.fullmatch(k) else json.dumps(k, ensure_ascii=False)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, str)):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {v!r} as a TOML value")


def patch_toml(patch: dict[str, Any], extends: str | Path) -> str:
    """The TOML text of a patch (nested dicts of scalars and lists) that ``extends`` a scenario file."""
    lines = [f"extends = {_value(str(extends))}"]

    def table(prefix: list[str], data: dict[str, Any]) -> None:
        scalars = {k: v for k, v in data.items() if not isinstance(v, dict)}
        if prefix and scalars:
            lines.append("")
            lines.append("[" + ".".join(_key(p) for p in prefix) + "]")
        lines.extend(f"{_key(k)} = {_value(v)}" for k, v in scalars.items())
        for k, v in data.items():
            if isinstance(v, dict):
                table(prefix + [k], v)

    table([], patch)
    return "\n".join(lines) + "\n"


_variant_dir: Path | None = None
_variants: dict[str, Scenario] = {}


def _variants_folder() -> Path:
    global _variant_dir
    if _variant_dir is None or not _variant_dir.exists():
        _variant_dir = Path(tempfile.mkdtemp(prefix="simkit-variants-"))
        atexit.register(shutil.rmtree, _variant_dir, True)
    return _variant_dir


def load_variant(scenario: Scenario, patch: dict[str, Any], folder: str | Path | None = None) -> Scenario:
    """Write ``patch`` as a TOML file extending ``scenario``'s file and load it (cached by content).

    Args:
        scenario: the scenario the patch extends.
        patch: nested dict of TOML tables (see :func:`scenario_patches`).
        folder: where to write the file (default: a temporary folder removed at exit).

    Raises:
        ScenarioError: the patched scenario is not valid.
    """
    text = patch_toml(patch, Path(scenario.path).resolve())
    if folder is None and text in _variants:
        return _variants[text]
    where = Path(folder) if folder is not None else _variants_folder()
    where.mkdir(parents=True, exist_ok=True)
    path = where / f"{Path(scenario.path).stem}-variant-{hashlib.sha256(text.encode()).hexdigest()[:10]}.toml"
    path.write_text(text, encoding="utf-8")
    variant = load_scenario(path)
    if folder is None:
        if len(_variants) >= 256:
            _variants.clear()
        _variants[text] = variant
    return variant


def scenario_variants(scenario: Scenario) -> st.SearchStrategy[Scenario]:
    """A loaded variant of ``scenario`` (see :func:`scenario_patches`)."""
    return scenario_patches(scenario).map(lambda p: load_variant(scenario, p))


# ----------------------------------------------------------------------------------------------
# actions


_cell_indices: dict[int, tuple[object, dict]] = {}


def _cell_index(grid) -> dict:
    """``{cell tuple: index}`` of a grid, built once per grid."""
    hit = _cell_indices.get(id(grid))
    if hit is None or hit[0] is not grid:
        if len(_cell_indices) >= 256:
            _cell_indices.clear()
        hit = _cell_indices[id(grid)] = (grid, {grid.cell(i): i for i in range(grid.size)})
    return hit[1]


def action_groups(match, legal: list[tuple] | None = None) -> dict[str, list[tuple]]:
    """The match's legal actions sorted into :data:`GROUPS`.

    ``advance`` holds, for each unit, the moves that bring it nearest to its nearest enemy (a unit
    or the enemy miracle), when they bring it nearer at all; ``charge`` the same toward the enemy
    miracle alone; ``move`` every move; ``attack_miracle`` the attacks on the enemy miracle and
    ``attack`` those on units. Empty groups are left out.
    """
    legal = match.legal_actions() if legal is None else legal
    groups: dict[str, list[tuple]] = {g: [] for g in GROUPS}
    for a in legal:
        groups["attack_miracle" if a[0] == "attack" and a[2] == "miracle" else a[0]].append(a)
    moves = groups["move"]
    if moves:
        rules, st_ = match.rules, match.state
        grid = rules.board.grid
        cur = match.current
        enemy = np.nonzero(st_.alive[0] & (st_.side[0] != cur))[0]
        targets = grid.distance[:, st_.cell[0, enemy]]  # (C, E)
        near = np.minimum(targets.min(1) if len(enemy) else np.inf, rules.board.miracle_distance[1 - cur])
        slot_of = {int(st_.uid[0, u]): int(u) for u in np.nonzero(st_.alive[0])[0]}
        index = _cell_index(grid)
        to = np.array([index[a[2]] for a in moves])
        start = np.array([st_.cell[0, slot_of[a[1]]] for a in moves])
        uid = np.array([a[1] for a in moves])
        for name, dist in (("advance", near), ("charge", rules.board.miracle_distance[1 - cur])):
            gain = dist[start] - dist[to]
            best = np.zeros(int(uid.max()) + 1)
            np.maximum.at(best, uid, gain)
            keep = (gain > 0) & (gain == best[uid])
            groups[name] = [a for a, ok in zip(moves, keep) if ok]
    return {g: v for g, v in groups.items() if v}


def choose_legal_action(draw, match, groups: dict[str, list[tuple]] | None = None) -> tuple:
    """Draw one legal action of ``match`` with ``draw`` (hypothesis' ``data.draw`` or a composite's).

    A group is drawn by :data:`WEIGHTS` among the non-empty ones, then an action of it, both as
    integer indices (cheap to draw, and they shrink toward ending the turn and the first listed action).

    Raises:
        ValueError: the game is over (no legal action).
    """
    groups = action_groups(match) if groups is None else groups
    if not groups:
        raise ValueError("the game is over: no legal action")
    names = [g for g in GROUPS if g in groups for _ in range(WEIGHTS[g])]
    group = groups[names[draw(st.integers(0, len(names) - 1))]]
    return group[draw(st.integers(0, len(group) - 1))]


@st.composite
def legal_action(draw, match) -> tuple:
    """One legal action of ``match`` now, biased toward attacks, summons and advancing moves.

    See :func:`choose_legal_action`; raises ValueError when the game is over.
    """
    return choose_legal_action(draw, match)


def illegal_action(match, legal: list[tuple] | None = None) -> st.SearchStrategy[tuple]:
    """An action tuple that is *not* legal in ``match`` now.

    Kinds of mistakes: a summon of a kind outside the deck, an impossible level, on a cell that
    is no spawn point, occupied or off the board, or too expensive; moves and attacks by an enemy
    or already-acted unit, by a unit id not on the board, to unreachable cells or out of range;
    an artifact on a wrong target or while not ready; malformed tuples; any action once the game
    is over. A candidate that happens to be legal is turned into a surely illegal one.
    """
    legal = match.legal_actions() if legal is None else legal
    legal_set = set(legal)
    rules, st_ = match.rules, match.state
    grid = rules.board.grid
    cells = [grid.cell(i) for i in range(grid.size)]
    spawn = [grid.cell(i) for i in np.nonzero(rules.board.spawn.any(0))[0]]
    off = [(99, -99, 0), tuple(rules.board.miracles[0]), tuple(rules.board.miracles[1])]
    uids = [int(x) for x in st_.uid[0, st_.alive[0]]] + [int(st_.next_uid[0]) + 7]
    some_cell = st.sampled_from(spawn + off) | st.sampled_from(cells)
    some_unit = st.sampled_from(uids)
    kinds = list(rules.cards.kinds) + ["Dragonfly"]
    candidates = st.one_of(
        st.tuples(st.just("summon"), st.sampled_from(kinds), st.sampled_from([0, 1, 2, 3, 4]), some_cell),
        st.tuples(st.just("move"), some_unit, some_cell),
        st.tuples(st.just("attack"), some_unit, some_unit | st.just("miracle")),
        st.tuples(st.just("use"), some_cell | some_unit),
        st.sampled_from([("end_turn", 1), ("move", uids[0]), ("fly",), ("attack",), ()]),
    )

    def surely_illegal(a: tuple) -> tuple:
        if a not in legal_set:
            return a
        return (a[0], *a[1:], "extra")  # a legal action with one argument too many

    return candidates.map(surely_illegal)


# ----------------------------------------------------------------------------------------------
# played games


@dataclass
class PlayedGame:
    """A game played by hypothesis-drawn legal actions.

    Attributes:
        decks: ``(first, second)`` canonical deck ids.
        seed: the game's seed.
        actions: the action tuples played, in order.
        match: the :class:`Match` after them.
    """

    decks: tuple[str, str]
    seed: int
    actions: list[tuple] = field(default_factory=list)
    match: Any = None


@st.composite
def played_games(draw, scenario: Scenario, max_actions: int = 60) -> PlayedGame:
    """A game of ``scenario`` between drawn decks, played for up to ``max_actions`` legal actions."""
    first, second = draw(deck_pairs(scenario))
    seed = draw(seeds())
    m = scenario.new_match(first, second, seed=seed)
    for _ in range(draw(st.integers(0, max_actions))):
        if m.over:
            break
        m.do(choose_legal_action(draw, m))
    return PlayedGame(decks=m.decks, seed=seed, actions=list(m.actions), match=m)
