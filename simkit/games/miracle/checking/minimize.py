"""Shrink a failing case to a short action sequence that breaks the same invariant.

Hypothesis' own shrinker works on its choice sequence and needs hundreds of whole runs of the
state machine here (minutes per failure); this one works on what a designer reads, the steps of
a :class:`~simkit.games.miracle.checking.checker.Case`: it drops the scenario patch (or keys of it) and the
companion games when the failure survives without them, then deletes chunks of steps, halving the chunk size, keeping
every deletion after which the game still replays (each step legal where it stands) and still
breaks the same invariant. ``simkit check`` uses it on the first failure hypothesis finds.
"""

from __future__ import annotations

import time
from dataclasses import replace

from simkit.core.errors import ScenarioError
from simkit.games.miracle.checking.checker import Case, InvalidCase, InvariantBroken, replay_case
from simkit.games.miracle.checking.strategies import load_variant
from simkit.scenario import Scenario

#: Invariants only the end-of-game checks find.
END_OF_GAME = ("replay_reproduces_game", "batch_equals_alone")


def scenario_of(base: Scenario, case: Case) -> Scenario:
    """The scenario a case plays: ``base`` or its variant by the case's patch."""
    return load_variant(base, case.patch) if case.patch else base


def reproduce(base: Scenario, case: Case, invariant: str) -> InvariantBroken | None:
    """Replay ``case`` on ``base`` (or its patch); the failure if it breaks ``invariant``, else None."""
    try:
        found = replay_case(scenario_of(base, case), case, finish=invariant in END_OF_GAME, every_step=False)
    except (InvalidCase, ScenarioError):
        return None
    return found.about(invariant) if found is not None else None


def minimize_case(base: Scenario, failure: InvariantBroken, seconds: float = 60.0) -> tuple[InvariantBroken, int]:
    """A failure with the fewest steps found within ``seconds`` that breaks the same invariant.

    Args:
        base: the scenario under check (variants are patches of it).
        failure: the failure to shrink (with its case).
        seconds: time budget; the best case so far is returned when it runs out.

    Returns:
        ``(failure, tries)``: the smallest failure found (``failure`` itself if nothing smaller
        reproduces) and how many replays it took.
    """
    if failure.case is None:
        return failure, 0
    deadline = time.monotonic() + seconds
    invariant = failure.invariant
    best = reproduce(base, failure.case, invariant)
    tries = 1
    if best is None:  # does not reproduce on its own (should not happen): keep what we have
        return failure, tries
    while time.monotonic() < deadline:
        before = len(best.case.steps), str(best.case.patch), len(best.case.companions)
        for simpler in (_without_patch, _without_companions):
            case = simpler(base, best.case)
            if case is None:
                continue
            tries += 1
            found = reproduce(base, case, invariant)
            if found is not None:
                best = found
        best, more = _simplify_patch(base, best, invariant, deadline)
        tries += more
        best, more = _delete_chunks(base, best, invariant, deadline)
        tries += more
        if (len(best.case.steps), str(best.case.patch), len(best.case.companions)) == before:
            break
    return best, tries


def _without_patch(base: Scenario, case: Case) -> Case | None:
    return replace(case, patch=None, scenario=str(base.path)) if case.patch is not None else None


def _without_companions(base: Scenario, case: Case) -> Case | None:
    return replace(case, companions=[]) if case.companions else None


def _paths(patch: dict, prefix: tuple = ()) -> list[tuple]:
    """Key paths of a nested patch, each table before the keys inside it."""
    out = []
    for key, value in patch.items():
        out.append(prefix + (key,))
        if isinstance(value, dict):
            out += _paths(value, prefix + (key,))
    return out


def _drop(patch: dict, path: tuple) -> dict:
    """A copy of ``patch`` without ``path``; tables left empty are dropped too."""
    if len(path) == 1:
        return {k: v for k, v in patch.items() if k != path[0]}
    inner = _drop(patch[path[0]], path[1:])
    out = dict(patch)
    if inner:
        out[path[0]] = inner
    else:
        del out[path[0]]
    return out


def _simplify_patch(
    base: Scenario, best: InvariantBroken, invariant: str, deadline: float
) -> tuple[InvariantBroken, int]:
    """Take keys out of the variant's patch (whole tables first) while the failure reproduces."""
    tries = 0
    i = 0
    while best.case.patch and time.monotonic() < deadline:
        paths = _paths(best.case.patch)
        if i >= len(paths):
            break
        patch = _drop(best.case.patch, paths[i])
        tries += 1
        found = reproduce(base, replace(best.case, patch=patch or None), invariant)
        if found is not None:
            best = found
        else:
            i += 1
    return best, tries


def _delete_chunks(
    base: Scenario, best: InvariantBroken, invariant: str, deadline: float
) -> tuple[InvariantBroken, int]:
    """Delete chunks of steps (halving the size down to single steps) while the failure reproduces."""
    tries = 0
    size = max(1, len(best.case.steps) // 2)
    while time.monotonic() < deadline:
        removed = False
        i = 0
        while i < len(best.case.steps) and time.monotonic() < deadline:
            steps = best.case.steps[:i] + best.case.steps[i + size:]
            tries += 1
            found = reproduce(base, replace(best.case, steps=steps), invariant)
            if found is not None and len(found.case.steps) < len(best.case.steps):
                best, removed = found, True
            else:
                i += size
        if size == 1 and not removed:
            break
        if not removed:
            size = max(1, size // 2)
    return best, tries
