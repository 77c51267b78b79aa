"""What the engine can hold: a scenario's numbers, and the sums the rules make of them, against the
integer types of the state.

The engine keeps a game in the arrays of :class:`~simkit.games.miracle.state.State`, so a number too
large for its field would wrap or raise in the middle of a sweep. :func:`check_capacity` refuses
such a scenario at load with ``file: key: problem``.
Every limit is ``np.iinfo`` of the dtype :func:`~simkit.games.miracle.state.empty_state` actually
builds, so a limit moves with its dtype. Single stats are checked against their tables' type as they
are read (``cards.TABLE_DTYPE``); this module checks what the rules make of them:

- the turn counter counts to ``turn_limit`` and takes ``turn % mana_period``;
- max mana grows by 1 before the cap applies (``max_mana_cap + 1`` must fit);
- one hit (attack with every aura and HolyLight's bonus, splash, InfernoFlame's burn) is taken off a
  unit's or a miracle's HP in one subtraction;
- max HP is a creature's HP plus SalamanderShield's bonus; HolyLight's duration is a buff counter;
- dead stars count the stars of every unit placed in a game (only a placed unit can die): at most
  ``max_actions_per_turn`` placements a turn, and no more stars than a turn's mana buys when every
  placement costs mana. (Unit ids count placements too, in int32: every scenario whose dead stars
  fit int16 numbers far fewer units than that, so they need no check of their own.)
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING

import numpy as np

from simkit.games.miracle.cards import LEVELS, Cards
from simkit.games.miracle.state import empty_state
from simkit.scenario import Field

if TYPE_CHECKING:  # tables.py (above) calls check_capacity: its Rules is named for the annotations only
    from simkit.games.miracle.tables import Rules


def state_dtypes(rules: Rules) -> dict[str, np.dtype]:
    """The dtype of every :class:`State` field, read off an empty state of no games built from ``rules``."""
    neutral = dataclasses.replace(rules, miracle_hp=1, start_max_mana=(0, 0))  # values never matter here
    st = empty_state(neutral, np.zeros((0, 2), np.int16), np.zeros((0, 2, 3), np.int16))
    return {f.name: getattr(st, f.name).dtype for f in dataclasses.fields(st)}


def _held(dtype: np.dtype) -> str:
    info = np.iinfo(dtype)
    return f"{info.max}, the most the engine's {info.dtype} holds"


def _stat_key(cards: Cards, kind: int, level: int, stat: str) -> str:
    """The scenario key of ``stat`` of ``kind`` at ``level`` (1..3); the Inferno's are under InfernoFlame."""
    if kind == cards.inferno:
        return f"artifacts.InfernoFlame.inferno.{stat}"
    return f"creatures.{cards.kinds[kind]}.{LEVELS[level - 1]}.{stat}"


def _largest_hit(cards: Cards) -> tuple[int, str, str]:
    """``(damage, key, how)``: the most HP one hit can take, the key that weighs most in it, in words.

    An attack is the attacker's base attack, plus the aura of every other friendly unit in range (a
    deck has 3 kinds, each fielding at most its final unit count), plus HolyLight's bonus.
    """
    creatures = len(cards.kinds)
    final = cards.units[:, -1].astype(np.int64)
    aura = cards.aura[:creatures].astype(np.int64).max(1)  # strongest level of each kind
    givers = np.argsort(final * aura)[::-1][:3]
    auras = [(int(final[k] * aura[k]), k) for k in givers if final[k] * aura[k] > 0]
    aura_total = sum(a for a, _ in auras)
    holy = int(cards.effect.get("HolyLight", {}).get("attack", 0))
    best = (-1, "", "")
    for kind in range(creatures + 1):
        for level in (1, 2, 3) if kind < creatures else (1,):  # the Inferno enters at level 1
            base = int(cards.attack[kind, level - 1])
            total = base + aura_total + holy
            parts = {_stat_key(cards, kind, level, "attack"): base, "artifacts.HolyLight.attack": holy}
            if auras:
                top = auras[0][1]
                parts[_stat_key(cards, top, 1 + int(np.argmax(cards.aura[top])), "aura")] = aura_total
            key = max(parts, key=parts.get)
            who = "the Inferno" if kind == creatures else f"{cards.kinds[kind]} {LEVELS[level - 1]}"
            how = (
                f"{who} attacks for up to {total} ({base} base"
                + "".join(f" + {a} from {final[k]} {cards.kinds[k]} auras" for a, k in auras)
                + (f" + {holy} from HolyLight" if holy else "") + ")"
            )
            if total > best[0]:
                best = (total, key, how)
    splash = cards.splash.astype(np.int64)
    if splash.max() > best[0]:
        kind, level = np.unravel_index(int(np.argmax(splash)), splash.shape)
        best = (int(splash.max()), _stat_key(cards, int(kind), int(level) + 1, "splash"),
                f"{cards.kind_name(int(kind))} {LEVELS[int(level)]} splashes {splash.max()}")
    burn = int(cards.effect.get("InfernoFlame", {}).get("damage", 0))
    if burn > best[0]:
        best = (burn, "artifacts.InfernoFlame.damage", "InfernoFlame's burn")
    return best


def _placements(rules: Rules) -> list[tuple[int, int, str]]:
    """``(cost, stars, name)`` of every unit a side can place: each creature level, and the Inferno."""
    cards = rules.cards
    out = [
        (int(cards.cost[k, lv]), int(cards.stars[k, lv]), f"{name} {level}")
        for k, name in enumerate(cards.kinds) for lv, level in enumerate(LEVELS)
    ]
    if "InfernoFlame" in cards.effect:
        out.append((int(cards.effect["InfernoFlame"]["cost"]), int(cards.stars[cards.inferno, 0]), "the Inferno"))
    return out


def _stars_per_turn(rules: Rules, max_actions: int) -> tuple[int, str]:
    """The most dead stars the units one side places in one turn can be worth, and why.

    A bot plays at most ``max_actions`` actions a turn; when every placement costs mana, the turn's
    mana (at most ``max_mana_cap``) also bounds them, at the best stars-per-mana unit.
    """
    placed = _placements(rules)
    cap = rules.max_mana_cap
    bound, why = max_actions * max(s for _, s, _ in placed), "bots.max_actions_per_turn"
    if min(c for c, _, _ in placed) == 0:
        return bound, why + ", a placement may cost 0 mana"
    best, name = max((cap * s // c, n) for c, s, n in placed)
    if best < bound:
        return best, f"max_mana_cap {cap} buys at most that many, of {name}"
    return bound, why


def check_capacity(top: Field, rules: Rules, max_actions_per_turn: int) -> None:
    """Refuse a scenario whose numbers, or the sums the rules make of them, the state cannot hold.

    Args:
        top: the scenario's top-level table (for ``file: key: problem`` messages).
        rules: the rules built from it.
        max_actions_per_turn: ``[bots] max_actions_per_turn``, the most actions a bot plays in a turn.

    Raises:
        ScenarioError: naming the file, the key whose value does not fit and the limit.
    """
    cards = rules.cards
    dt = state_dtypes(rules)
    top_max = {name: int(np.iinfo(d).max) for name, d in dt.items() if d.kind in "iu"}

    def fail(key: str, problem: str):
        return top.fail(problem, key)

    for key, value, field in (
        ("rules.turn_limit", rules.turn_limit, "turn"),
        ("rules.mana_period", rules.mana_period, "turn"),  # turn % mana_period is taken in the turn's type
        ("rules.miracle_hp", rules.miracle_hp, "miracle_hp"),
    ):
        if value > top_max[field]:
            raise fail(key, f"must be at most {_held(dt[field])}, got {value}")
    limit = min(top_max["max_mana"], top_max["mana"]) - 1
    if rules.max_mana_cap > limit:
        raise fail("rules.max_mana_cap", f"must be at most {limit} (max mana + 1 must fit before the cap applies: "
                                         f"{_held(dt['max_mana'])}), got {rules.max_mana_cap}")
    if rules.board.grid.size > top_max["cell"]:
        raise fail("map.bounds", f"the board has {rules.board.grid.size} cells, more than {_held(dt['cell'])}")

    damage, key, how = _largest_hit(cards)
    for field in ("hp", "miracle_hp"):
        if damage > top_max[field]:
            whose = "a unit's" if field == "hp" else "a miracle's"
            raise fail(key, f"{how}, more than {whose} HP can lose in one hit: {_held(dt[field])}")
    shield = int(cards.effect.get("SalamanderShield", {}).get("hp", 0))
    hp = cards.hp.astype(np.int64)
    bonus = np.zeros_like(hp)
    bonus[: len(cards.kinds)] = shield  # a SalamanderShield deck fields no Inferno
    kind, level = (int(i) for i in np.unravel_index(int(np.argmax(hp + bonus)), hp.shape))
    most = int(hp[kind, level] + bonus[kind, level])
    if most > min(top_max["hp"], top_max["max_hp"]):
        key = "artifacts.SalamanderShield.hp" if bonus[kind, level] else _stat_key(cards, kind, level + 1, "hp")
        raise fail(key, f"{cards.kind_name(kind)} {LEVELS[level]} has up to {hp[kind, level]} + "
                        f"{bonus[kind, level]} (SalamanderShield) = {most} HP, above {_held(dt['max_hp'])}")
    if "HolyLight" in cards.effect and cards.effect["HolyLight"]["duration"] > top_max["buff"]:
        raise fail("artifacts.HolyLight.duration",
                   f"must be at most {_held(dt['buff'])}, got {cards.effect['HolyLight']['duration']}")
    for k, name in enumerate(cards.kinds):
        if int(cards.units[k].max()) > min(top_max["available"], top_max["cooling"]):
            raise fail(f"creatures.{name}.units", f"{cards.units[k].max()} units is above {_held(dt['available'])}")
    cooldown = int(cards.artifact_cooldown.max())
    if cooldown > top_max["artifact_cooldown"]:
        raise fail(f"artifacts.{cards.artifacts[int(np.argmax(cards.artifact_cooldown))]}.cooldown",
                   f"must be at most {_held(dt['artifact_cooldown'])}, got {cooldown}")

    stars, why = _stars_per_turn(rules, max_actions_per_turn)
    own_turns = (rules.turn_limit + 1) // 2
    dead = own_turns * stars
    if dead > top_max["dead_stars"]:
        raise fail("rules.turn_limit", f"{own_turns} turns of a side, each placing units worth up to {stars} dead "
                                       f"stars ({why}), could count {dead} dead stars, above {_held(dt['dead_stars'])}")
