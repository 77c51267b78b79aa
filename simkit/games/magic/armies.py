"""Magic War's armies: canonical ids, parsing, costs, seat budgets, the enumeration of every legal army.

An army is a multiset of a race's non-leader units (3.3), written canonically as ``Race:Unit*n,Unit`` (units in
ASCII order, ``*n`` only for n >= 2, the leader left out). Every function takes the scenario's
:class:`~simkit.games.magic.tables.Rules` (read here only through its names and its packed record:
``rules.packed.cards[t].cost``), so the engine's match and the scenario reader above both use them.
"""

from __future__ import annotations

import re

import numpy as np

from simkit.core.errors import ScenarioError
from simkit.core.rng import derive_seed

#: the most steps the listing of every army may take at load (when no ``[armies] pool`` names them)
MAX_ARMY_STEPS = 100_000
ARMY_RE = re.compile(r"^[A-Za-z]+:[A-Za-z]+(\*[2-9])?(,[A-Za-z]+(\*[2-9])?)*$")


def _card(rules, name: str):
    """The packed card of unit ``name``."""
    return rules.packed.cards[rules.type_id(name)]


def count_vectors(costs, caps, budget: int, min_units: int, max_units: int, exact: bool = False,
                  limit: int | None = None) -> list[tuple]:
    """Every vector ``k`` with ``0 <= k_j <= caps[j]``, ``min_units <= sum(k) <= max_units`` and
    ``sum(k_j * costs[j]) <= budget`` (``== budget`` when ``exact``), by direct recursion (the page's 3.3).

    Raises:
        ValueError: the recursion passes ``limit`` steps (too many armies to list).
    """
    out: list[tuple] = []
    n = len(costs)
    k = [0] * n
    steps = [0]

    def rec(j: int, gold: int, units: int) -> None:
        steps[0] += 1
        if limit is not None and steps[0] > limit:
            raise ValueError(f"more than {limit} armies to look through")
        if j == n:
            if units >= min_units and (gold == budget if exact else True):
                out.append(tuple(k))
            return
        for x in range(0, caps[j] + 1):
            g, u = gold + x * costs[j], units + x
            if g > budget or u > max_units:
                break
            k[j] = x
            rec(j + 1, g, u)
        k[j] = 0

    rec(0, 0, 0)
    return out


def army_id(race: str, counts: dict[str, int]) -> str:
    """The canonical id ``Race:Unit*n,Unit`` (units in ASCII order, ``*n`` only for n >= 2)."""
    parts = [u if n == 1 else f"{u}*{n}" for u, n in sorted(counts.items()) if n > 0]
    return f"{race}:" + ",".join(parts)


def armies(rules, race: str, budget: int) -> list[str]:
    """Every legal army of ``race`` at ``budget`` (1..max units, each within max_copies), ids sorted by ASCII."""
    names = rules.race_units[race]
    costs = [int(_card(rules, u).cost) for u in names]
    caps = [int(_card(rules, u).max_copies) for u in names]
    vecs = count_vectors(costs, caps, budget, int(rules.packed.min_units), int(rules.packed.max_units),
                         bool(rules.packed.budget_exact), limit=MAX_ARMY_STEPS)
    return sorted(army_id(race, dict(zip(names, v))) for v in vecs)


def draw_armies(rules, budget: int, n: int, seed: int, spend: str = "all") -> list[str]:
    """``n`` armies per race drawn at ``budget``, without replacement, race by race (file order), ids sorted.

    ``spend = "all"``: among the legal armies costing exactly ``budget`` (a player spends his gold);
    ``"any"``: among every legal army within it. The draw of a race depends only on ``(seed, race, budget,
    spend)``, so two seats with the same budget draw the same armies and a seat's draw does not move when the
    other seat's budget does (``simkit scan`` over ``rules.budgets[1]`` keeps the first seat's armies). A race
    with fewer than ``n`` such armies gives them all.
    """
    out: list[str] = []
    for race in rules.races:
        pool = armies(rules, race, budget)
        if spend == "all":
            pool = [d for d in pool if army_cost(rules, parse_army_counts(rules, d)) == budget]
        if not pool:
            continue
        rng = np.random.default_rng(derive_seed(seed, "magic-armies", race, budget, spend))
        out.extend(pool[i] for i in sorted(rng.choice(len(pool), size=min(n, len(pool)), replace=False)))
    return out


def parse_army_counts(rules, deck: str) -> dict[str, int]:
    """``{unit: count}`` of a canonical army id (no checks: for ids :func:`armies` made)."""
    counts = {}
    for part in deck.partition(":")[2].split(","):
        name, _, k = part.partition("*")
        counts[name] = int(k) if k else 1
    return counts


def parse_army(rules, deck: str) -> tuple[str, dict[str, int]]:
    """``(race, {unit: count})`` of an army id; raises :class:`ScenarioError` naming the army and the rule broken.

    The units may come in any order and repeat; the counts must keep 1..max units and each unit's
    max_copies. What an army costs against the budgets is the seats' business (:func:`check_seat`, when a game
    is set up, and :func:`simkit.games.magic.tables.seat_pools`): a listed army no seat can afford at a
    scenario's budgets (a scan moving a budget) stays an army of the pool and sits in no seat.
    """
    if not isinstance(deck, str) or not ARMY_RE.match(deck.replace(" ", "")):
        raise ScenarioError(f"army {deck!r}: not of the form Race:Unit*n,Unit (regex {ARMY_RE.pattern})")
    race, _, rest = deck.replace(" ", "").partition(":")
    if race not in rules.races:
        raise ScenarioError(f"army {deck!r}: unknown race {race!r} (known: {', '.join(rules.races)})")
    counts: dict[str, int] = {}
    for part in rest.split(","):
        name, _, n = part.partition("*")
        if name == rules.leaders[race]:
            raise ScenarioError(f"army {deck!r}: the leader {name} is not bought [R17]")
        if name not in rules.race_units[race]:
            raise ScenarioError(f"army {deck!r}: {name!r} is not a {race} unit "
                                f"(known: {', '.join(rules.race_units[race])})")
        counts[name] = counts.get(name, 0) + (int(n) if n else 1)
    total = sum(counts.values())
    lo, hi = int(rules.packed.min_units), int(rules.packed.max_units)
    if not lo <= total <= hi:
        raise ScenarioError(f"army {deck!r}: {total} units, an army has {lo} to {hi} [R19]")
    for name, n in counts.items():
        cap = int(_card(rules, name).max_copies)
        if n > cap:
            raise ScenarioError(f"army {deck!r}: {n} x {name}, at most {cap} [R18]")
    return race, counts


def army_cost(rules, counts: dict[str, int]) -> int:
    """The gold an army's units cost."""
    return sum(int(_card(rules, u).cost) * n for u, n in counts.items())


def check_seat(rules, deck: str, seat: int) -> None:
    """Raise :class:`ScenarioError` when army ``deck`` may not sit in ``seat`` (its cost against that seat's budget)."""
    _, counts = parse_army(rules, deck)
    cost, budget = army_cost(rules, counts), rules.budgets[seat]
    if cost > budget or (rules.packed.budget_exact and cost != budget):
        word = "exactly" if rules.packed.budget_exact else "at most"
        raise ScenarioError(f"army {deck!r} costs {cost} gold: seat {seat} ({('first', 'second')[seat]} player) "
                            f"buys with {word} {budget} [R16]")


def seat_ok(rules, deck: str, seat: int) -> bool:
    """True when army ``deck`` may sit in ``seat``."""
    try:
        check_seat(rules, deck, seat)
    except ScenarioError:
        return False
    return True


def canonical_deck(rules, deck: str) -> str:
    """The canonical id of a legal army; raises :class:`ScenarioError` naming an illegal one."""
    race, counts = parse_army(rules, deck)
    return army_id(race, counts)


def army_units(rules, deck: str) -> list[str]:
    """The units of an army, one name per unit, in canonical order (the engine's slot order)."""
    race, counts = parse_army(rules, deck)
    return [u for u, n in sorted(counts.items()) for _ in range(n)]


def all_decks(rules) -> list[str]:
    """Every legal army of every race at the larger budget (those within the smaller one may sit in either seat)."""
    top = max(rules.budgets)
    return [a for race in rules.races for a in armies(rules, race, top) if any(seat_ok(rules, a, s) for s in (0, 1))]
