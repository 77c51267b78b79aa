"""Creature kinds, artifacts and decks, read from ``[creatures]`` and ``[artifacts]``.

Kinds are indexed in file order; the Inferno (InfernoFlame's creature) is one extra kind at
index ``K``. Per-level stats are ``int16[K + 1, 3]`` tables indexed ``[kind, level - 1]``; a number
too large for its table is refused at load (``TABLE_DTYPE``).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import numpy as np

from simkit.core.errors import ScenarioError
from simkit.scenario import Field

LEVELS = ("L1", "L2", "L3")
STATS = ("cost", "attack", "hp", "move", "cooldown")
EXTRAS = ("splash", "heal", "heal_range", "aura", "aura_range")

#: Artifacts whose effects the engine knows, with the effect numbers each needs.
ARTIFACT_EFFECTS: dict[str, tuple[str, ...]] = {
    "HolyLight": ("radius", "attack", "duration"),
    "InfernoFlame": ("radius", "damage", "miracle_range", "garrison_range"),
    "SalamanderShield": ("hp",),
    "WindBlessing": ("radius",),
}
HOLY_LIGHT, INFERNO_FLAME, SALAMANDER_SHIELD, WIND_BLESSING = range(4)
EFFECT_CODES = {name: i for i, name in enumerate(ARTIFACT_EFFECTS)}
INFERNO = "Inferno"
#: The integer type of every stat table (and so the range of every stat a scenario may give).
TABLE_DTYPE = np.int16


@dataclass(frozen=True)
class Cards:
    """Stat tables of every kind and artifact.

    Attributes:
        kinds: creature kind names in file order (the Inferno is not among them).
        units: ``int16[K, S]`` unit count of each kind at each step (start, then each unit step).
        cost, attack, hp, range_min, range_max, move, cooldown, stars: ``int16[K + 1, 3]``.
        splash, heal, heal_range, aura, aura_range: ``int16[K + 1, 3]``, 0 where a kind has none.
        flying, anti_air: ``bool[K + 1]``.
        artifacts: artifact names in file order.
        artifact_cost, artifact_cooldown, artifact_effect: ``int16[A]`` (effect codes above).
        effect: the numbers of each artifact's effect, ``{name: {key: value}}``.
    """

    kinds: tuple[str, ...]
    units: np.ndarray
    cost: np.ndarray
    attack: np.ndarray
    hp: np.ndarray
    range_min: np.ndarray
    range_max: np.ndarray
    move: np.ndarray
    cooldown: np.ndarray
    stars: np.ndarray
    splash: np.ndarray
    heal: np.ndarray
    heal_range: np.ndarray
    aura: np.ndarray
    aura_range: np.ndarray
    flying: np.ndarray
    anti_air: np.ndarray
    artifacts: tuple[str, ...]
    artifact_cost: np.ndarray
    artifact_cooldown: np.ndarray
    artifact_effect: np.ndarray
    effect: dict

    @property
    def inferno(self) -> int:
        """Kind index of the Inferno."""
        return len(self.kinds)

    def kind_name(self, kind: int) -> str:
        """Name of kind index ``kind`` (``"Inferno"`` for the extra kind)."""
        return self.kinds[kind] if kind < len(self.kinds) else INFERNO

    def kind_index(self, name: str) -> int:
        """Index of a creature kind by name; ``-1`` when unknown."""
        return self.kinds.index(name) if name in self.kinds else -1


def _range(f: Field, key: str = "range") -> tuple[int, int]:
    lo, hi = f.int_list(key, length=2, dtype=TABLE_DTYPE)
    if lo > hi:
        raise f.fail(f"minimum {lo} is above maximum {hi}", key)
    return lo, hi


def build_cards(top: Field, steps: int) -> Cards:
    """Read and validate the creature and artifact tables.

    Args:
        top: the scenario's top-level table.
        steps: how many unit-count values each kind lists (1 + number of unit steps).
    """
    cf = top.table("creatures")
    kinds = tuple(cf.keys())
    if len(kinds) < 3:
        raise cf.fail(f"a deck needs 3 creature kinds, the scenario defines {len(kinds)}")
    if INFERNO in kinds:
        raise cf.fail(f"{INFERNO!r} is InfernoFlame's creature, not a kind of its own", INFERNO)
    n = len(kinds) + 1
    t = {k: np.zeros((n, 3), dtype=TABLE_DTYPE) for k in (*STATS, "range_min", "range_max", "stars", *EXTRAS)}
    flying = np.zeros(n, dtype=bool)
    anti_air = np.zeros(n, dtype=bool)
    units = np.zeros((len(kinds), steps), dtype=TABLE_DTYPE)
    for k, name in enumerate(kinds):
        kf = cf.table(name)
        counts = kf.int_list("units", length=steps, dtype=TABLE_DTYPE)
        if any(b < a for a, b in zip(counts, counts[1:])):
            raise kf.fail(f"unit counts must not fall, got {counts}", "units")
        units[k] = counts
        flying[k] = kf.bool("flying", False)
        anti_air[k] = kf.bool("anti_air", False)
        for lv, level in enumerate(LEVELS):
            lf = kf.table(level)
            for stat in STATS:
                t[stat][k, lv] = lf.int(stat, dtype=TABLE_DTYPE)
            t["range_min"][k, lv], t["range_max"][k, lv] = _range(lf)
            t["stars"][k, lv] = lv + 1
            for extra in EXTRAS:
                t[extra][k, lv] = lf.int(extra, 0, dtype=TABLE_DTYPE)
            lf.reject_unknown((*STATS, "range", *EXTRAS))
        kf.reject_unknown(("units", "flying", "anti_air", *LEVELS))

    af = top.table("artifacts")
    artifacts = tuple(af.keys())
    if not artifacts:
        raise af.fail("a deck needs an artifact, the scenario defines none")
    effect: dict[str, dict] = {}
    for name in artifacts:
        if name not in ARTIFACT_EFFECTS:
            raise af.fail(f"unknown artifact (known: {', '.join(ARTIFACT_EFFECTS)})", name)
        a = af.table(name)
        keys = ("cost", "cooldown", *ARTIFACT_EFFECTS[name])
        # cost and cooldown go into the int16 artifact tables; the effect numbers are checked with the
        # sums the rules make of them (capacity.py)
        effect[name] = {key: a.int(key, dtype=TABLE_DTYPE if key in ("cost", "cooldown") else None) for key in keys}
        a.reject_unknown(keys + (("inferno",) if name == "InfernoFlame" else ()))
        if name == "InfernoFlame":
            inf = a.table("inferno")
            i = n - 1
            t["cost"][i] = 0
            t["attack"][i] = inf.int("attack", dtype=TABLE_DTYPE)
            t["hp"][i] = inf.int("hp", minimum=1, dtype=TABLE_DTYPE)
            t["range_min"][i], t["range_max"][i] = _range(inf)
            t["move"][i] = inf.int("move", dtype=TABLE_DTYPE)
            t["stars"][i] = inf.int("stars", dtype=TABLE_DTYPE)
            anti_air[i] = inf.bool("anti_air", False)
            flying[i] = False
            inf.reject_unknown(("attack", "hp", "range", "move", "anti_air", "stars"))
    for k in range(len(kinds)):
        for lv, level in enumerate(LEVELS):
            if t["hp"][k, lv] < 1:
                raise cf.fail(f"must be at least 1, got {t['hp'][k, lv]}", f"{kinds[k]}.{level}.hp")
    return Cards(
        kinds=kinds,
        units=units,
        **{k: v for k, v in t.items()},
        flying=flying,
        anti_air=anti_air,
        artifacts=artifacts,
        artifact_cost=np.array([effect[a]["cost"] for a in artifacts], dtype=TABLE_DTYPE),
        artifact_cooldown=np.array([effect[a]["cooldown"] for a in artifacts], dtype=TABLE_DTYPE),
        artifact_effect=np.array([EFFECT_CODES[a] for a in artifacts], dtype=TABLE_DTYPE),
        effect=effect,
    )


def parse_deck(cards: Cards, deck: str) -> tuple[int, tuple[int, int, int]]:
    """Parse ``"Artifact:KindA,KindB,KindC"`` into (artifact index, kind indices in name order).

    Raises:
        ScenarioError: naming the deck and what is wrong with it.
    """
    if not isinstance(deck, str) or deck.count(":") != 1:
        raise ScenarioError(f"deck {deck!r}: expected 'Artifact:KindA,KindB,KindC'")
    artifact, _, rest = deck.partition(":")
    artifact = artifact.strip()
    if "," in artifact:
        raise ScenarioError(f"deck {deck!r}: a deck has exactly 1 artifact")
    names = [s.strip() for s in rest.split(",")]
    if artifact not in cards.artifacts:
        if artifact in cards.kinds:
            raise ScenarioError(f"deck {deck!r}: {artifact!r} is a creature, not an artifact")
        raise ScenarioError(f"deck {deck!r}: unknown artifact {artifact!r} (known: {', '.join(cards.artifacts)})")
    for name in names:
        if name in cards.artifacts:
            raise ScenarioError(f"deck {deck!r}: a deck has exactly 1 artifact, {name!r} is a second one")
        if name not in cards.kinds:
            raise ScenarioError(f"deck {deck!r}: unknown creature {name!r} (known: {', '.join(cards.kinds)})")
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise ScenarioError(f"deck {deck!r}: creature {dup!r} appears twice")
    if len(names) != 3:
        raise ScenarioError(f"deck {deck!r}: a deck has exactly 3 creature kinds, got {len(names)}")
    kinds = sorted(names)
    return cards.artifacts.index(artifact), tuple(cards.kinds.index(k) for k in kinds)  # type: ignore[return-value]


def canonical_deck(cards: Cards, deck: str) -> str:
    """The canonical id ``Artifact:A,B,C`` (creatures in alphabetical order) of a legal deck."""
    a, kinds = parse_deck(cards, deck)
    return f"{cards.artifacts[a]}:{','.join(cards.kinds[k] for k in kinds)}"


def all_decks(cards: Cards) -> list[str]:
    """Every legal deck (1 artifact + 3 distinct kinds), canonical ids in sorted order."""
    return sorted(
        f"{a}:{','.join(trio)}" for a in cards.artifacts for trio in itertools.combinations(sorted(cards.kinds), 3)
    )


def unit_worth(cards: Cards) -> np.ndarray:
    """``float64[K + 1, 3]`` a unit's mana value by kind and level: its cost; the Inferno's, InfernoFlame's cost
    (0 when no artifact is InfernoFlame). What the bots' tables and the lead signal count a unit on the board as."""
    value = cards.cost.astype(np.float64)
    inferno_cost = cards.artifact_cost[cards.artifact_effect == INFERNO_FLAME]
    value[cards.inferno] = float(inferno_cost[0]) if len(inferno_cost) else 0.0
    return value
