"""What ``simkit tune`` checks and says before its first trial, so that a whole tune is never lost at its end.

Every option is checked before anything is written (the sweeps of the confirmation and the fresh-seed
check are planned up front, so a bad seed or game count is refused before the search, not after it);
the seeds derived from the search seed stay in range however large it is; names that become paths
(a bot's) are made safe; the folder's fixed names are never followed through a planted symlink; and
when the budget or the games per pair cannot support a proposal, one warning says so with its figures.
"""

from __future__ import annotations

import hashlib
import math
import re
import warnings
from collections.abc import Sequence
from pathlib import Path

from simkit.core.rng import SEED_MAX
from simkit.tune.screen import screen_changes

#: the settings a resume may change: they are used only once the search is over (the confirmation
#: and the fresh-seed check), so correcting one never makes the stored search another
AFTER_SEARCH = ("check_seed", "check_games", "confirm", "confirm_games")
#: the names in a tune folder that must be the folder's own files, never symlinks to elsewhere
OWN_NAMES = ("study.db", "study.db-journal", "study.db-wal", "candidates", "fresh")
_SAFE = re.compile(r"[A-Za-z0-9_.+-]+")
#: 1.96 (95%, two-sided): the margin of a difference of two win rates
_Z = 1.96


class TuneWarning(UserWarning):
    """A tune that will run but cannot support a proposal as asked (``simkit tune`` prints it as one line)."""


def derived_seed(seed: int, offset: int) -> int:
    """The sweep seed ``offset`` away from ``seed`` (the confirmation's, the check's), wrapped into
    0..2**63 - 1 so that a search seed near the top of the range still has its own."""
    return (seed + offset) % (SEED_MAX + 1)


def path_name(name: str) -> str:
    """``name`` (a bot's) as part of a file name: itself when it is letters, digits and ``_.+-``; otherwise
    those characters kept, the others ``_``, and a short hash of the name, so no name reaches outside a folder
    (``x/../../evil`` is ``x_.._.._evil-<hash>``) and two names never share a folder."""
    if _SAFE.fullmatch(name) and not name.startswith("."):
        return name
    digest = hashlib.sha256(name.encode()).hexdigest()[:8]
    return f"{re.sub(r'[^A-Za-z0-9_.+-]', '_', name)[:40]}-{digest}"


def refuse_foreign(out: Path) -> None:
    """Refuse a tune folder whose fixed names (the study, its journal, the sweeps' folders) are symlinks:
    tune writes only files it creates itself, inside ``out``.

    Raises:
        ValueError: naming the link.
    """
    for name in OWN_NAMES:
        if (out / name).is_symlink():
            raise ValueError(f"{out / name}: a symbolic link, not this tune folder's own {name}: remove it "
                             "(tune writes only inside --out)")


def candidates_possible(knobs: Sequence, max_changes: int) -> int:
    """How many distinct candidates (the base included) at most ``max_changes`` knobs can make."""
    ways = [sum(1 for v in k.values() if v != k.current) for k in knobs]
    by_size = [1] + [0] * max_changes  # candidates changing exactly j knobs
    for w in ways:
        for j in range(max_changes, 0, -1):
            by_size[j] += by_size[j - 1] * w
    return sum(by_size)


def budget_warning(settings, knobs: Sequence) -> str | None:
    """One sentence when the budget (``settings.trials``) ends the tune before its plan can combine changes, with
    the figures.

    The plan: the base, each knob alone at both ends of its range, ``rounds`` rounds of ``combine``
    combinations, then per anchored stage an anchor, ``rescreen`` knobs at both ends and its rounds (never
    more than the candidates the knobs can make). ``None`` when the budget holds it.

    Args:
        settings: the tune's :class:`~simkit.tune.settings.TuneSettings`.
        knobs: the parsed knobs.
    """
    s = settings
    trials, max_changes, screen, combine, rounds = s.trials, s.max_changes, s.screen, s.combine, s.rounds
    rescreen, stages = s.rescreen, s.stages
    possible = candidates_possible(knobs, max_changes)
    if trials <= 1:
        return (f"--trials {trials}: only the base is played, so nothing can be proposed; give at least "
                f"{min(possible, 2 + len(knobs))}")
    if not screen:
        return None
    singles = len(screen_changes(knobs))
    combos = combine * rounds
    staged = stages * (1 + 2 * rescreen + combine * rounds) if rescreen else 0
    needed = min(possible, 1 + singles + combos + staged)
    if trials >= needed:
        return None
    if needed == possible and possible < 1 + singles + combos + staged:
        plan = f"every candidate at most {max_changes} change(s) of these knobs can make"
    else:
        plan = f"the base, {singles} single changes at the knobs' range ends"
        if combos:
            plan += f", {rounds} round(s) of {combine} predicted combinations"
        if staged:
            plan += f", {stages} anchored stage(s) of {1 + 2 * rescreen + combine * rounds}"
    if trials < 1 + singles:
        ends = (f"the search stops inside the screening ({trials - 1} of the {singles} single changes played, "
                "no combination), so not every knob is tried and a proposal can hold one change only")
    else:
        ends = "the search stops before its combinations are played, so a proposal rests on an incomplete plan"
    return f"--trials {trials} is below the plan's {needed} candidates ({plan}): {ends}; give --trials {needed}"


def games_per_deck(plan) -> int:
    """The fewest non-mirror games any deck plays in one bot pairing of ``plan`` (both seats)."""
    count: dict[str, int] = {}
    for a, b in plan.pairs:
        if a != b:
            count[a] = count.get(a, 0) + plan.games
            count[b] = count.get(b, 0) + plan.games
    return min(count.values(), default=0)


def detectable_change(n: int) -> float:
    """The smallest change of a deck's win rate (near 50%) that ``n`` games before and ``n`` after tell from
    noise at 95%: ``1.96 * sqrt(1/4n + 1/4n)``; 1 when there are no games."""
    return 1.0 if n < 1 else min(1.0, _Z * math.sqrt(0.5 / n))


def noise_warning(plan, band: tuple[float, float]) -> str | None:
    """One sentence when ``plan``'s games per ordered pair are too few to tell a candidate from the base: when
    the smallest change of a deck's win rate they can tell from noise is wider than the report's band
    (45-55%: 10 points), with the games per pair that would do. ``None`` otherwise."""
    n = games_per_deck(plan)
    width = band[1] - band[0]
    change = detectable_change(n)
    if n and change <= width:
        return None
    per_game = n // plan.games if plan.games else 0
    if not per_game:
        return (f"--games {plan.games}: no deck plays another, so no candidate can be told from the base; "
                "give more decks")
    need = math.ceil(0.5 * (_Z / width) ** 2 / per_game)
    return (f"--games {plan.games}: each deck plays {n} games a trial, so a change of its win rate smaller than "
            f"{100 * change:.0f} points cannot be told from noise (95%), wider than the "
            f"{100 * band[0]:.0f}-{100 * band[1]:.0f}% band the tune aims for: candidates are ranked by luck; "
            f"give --games {need} or more")


def warn(message: str | None) -> str | None:
    """Emit ``message`` as a :class:`TuneWarning` (when there is one); returns it."""
    if message:
        warnings.warn(message, TuneWarning, stacklevel=3)
    return message
