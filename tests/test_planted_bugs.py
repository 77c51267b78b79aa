"""Proof that the invariant suite catches rule bugs: plant plausible bugs one at a time and hunt them.

Bugs of the numpy engine are monkeypatches of one function of ``simkit.games.miracle.rules`` (the
patch points are ``_end_turn``, ``summon_mask``, ``turn_start``, ``resolve_deaths``, ``_attack``,
``_use``, ``attack_now`` and ``use_mask``; if an optimisation of rules.py renames or inlines one of
them, move the wrapper to the function that now does that job). Bugs of the compiled engine the
sweeps play are one-line edits of ``fast/step.py``'s source, compiled as a module of their own
(kept in pytest's cache folder so numba compiles each only once) and put in the place of
``FastStep`` where ``simkit check`` steps its twin of every game. If a line quoted here changes
in step.py, :func:`compiled_bug` says so: update the quote.

The hunt is the state machine ``simkit check`` runs, under the ``ci`` profile's example budget,
with a fixed hypothesis seed so the result is deterministic.
"""

import dataclasses
import functools
import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest

import simkit.games.miracle.checking.checker as checker
import simkit.games.miracle.checking.hooks as game_checks
from simkit.games.miracle import rules as R
from simkit.games.miracle.checking.check import check_settings, run_check, run_machine
from simkit.games.miracle.checking.machine import match_machine
from simkit.games.miracle.fast import step as fast_step
from simkit.testing.profiles import PROFILES

HUNT_SEED = 0


def heal_past_max(monkeypatch):
    """Priests heal without the max-HP cap (the cap is lifted while ``_end_turn`` heals)."""
    end_turn = R._end_turn

    def buggy(rules, st, b):
        max_hp = st.max_hp.copy()
        st.max_hp[b] = 10_000
        end_turn(rules, st, b)
        st.max_hp[:] = max_hp

    monkeypatch.setattr(R, "_end_turn", buggy)


def summon_onto_occupied_cell(monkeypatch):
    """Summoning ignores the units already on a spawn point (``summon_mask`` sees an empty board)."""
    summon_mask = R.summon_mask

    def buggy(rules, st):
        empty = st.copy()
        empty.alive[:] = False
        return summon_mask(rules, empty)

    monkeypatch.setattr(R, "summon_mask", buggy)


def mana_not_capped(monkeypatch):
    """Max mana grows past ``max_mana_cap`` (``turn_start`` forgets the cap)."""
    turn_start = R.turn_start

    def buggy(rules, st, b):
        turn_start(dataclasses.replace(rules, max_mana_cap=10_000), st, b)

    monkeypatch.setattr(R, "turn_start", buggy)


def dead_unit_left_on_board(monkeypatch):
    """A unit brought to exactly 0 HP stays on the board (``resolve_deaths`` tests ``hp < 0``)."""
    resolve_deaths = R.resolve_deaths

    def buggy(rules, st):
        at_zero = st.alive & (st.hp == 0)
        st.hp[at_zero] = 1
        resolve_deaths(rules, st)
        st.hp[at_zero] = 0

    monkeypatch.setattr(R, "resolve_deaths", buggy)


def cooldown_never_ends(monkeypatch):
    """The cooldown phase is skipped: cooling units and artifacts never come back (``turn_start``)."""
    turn_start = R.turn_start

    def buggy(rules, st, b):
        cur = st.current[b]
        cooling = st.cooling[b, cur].copy()
        state, left = st.artifact_state[b, cur].copy(), st.artifact_cooldown[b, cur].copy()
        turn_start(rules, st, b)
        st.available[b, cur] -= cooling[:, :, 1]
        st.cooling[b, cur] = cooling
        st.artifact_state[b, cur], st.artifact_cooldown[b, cur] = state, left

    monkeypatch.setattr(R, "turn_start", buggy)


def counter_attack_skipped(monkeypatch):
    """The target never strikes back (``_attack`` restores the attacker's HP and shield)."""
    attack = R._attack

    def buggy(rules, st, b, act):
        u = act.a[b]
        hp, shield = st.hp[b, u].copy(), st.shield[b, u].copy()
        attack(rules, st, b, act)
        st.hp[b, u], st.shield[b, u] = hp, shield

    monkeypatch.setattr(R, "_attack", buggy)


def _with_cards(rules, **changes):
    return dataclasses.replace(rules, cards=dataclasses.replace(rules.cards, **changes))


def _with_effect(rules, artifact, key, delta):
    effect = {name: dict(numbers) for name, numbers in rules.cards.effect.items()}
    effect[artifact][key] += delta
    return _with_cards(rules, effect=effect)


def aura_one_cell_too_far(monkeypatch):
    """A priest's aura reaches one cell beyond its range (``attack_now`` adds 1 to ``aura_range``)."""
    attack_now = R.attack_now

    def buggy(rules, st, dist=None):
        return attack_now(_with_cards(rules, aura_range=rules.cards.aura_range + 1), st, dist)

    monkeypatch.setattr(R, "attack_now", buggy)


def holy_light_one_turn_short(monkeypatch):
    """HolyLight's bonus lasts one turn end less than its duration (``_use`` reads duration - 1)."""
    use = R._use

    def buggy(rules, st, b, act):
        use(_with_effect(rules, "HolyLight", "duration", -1), st, b, act)

    monkeypatch.setattr(R, "_use", buggy)


def garrison_captured_only_by_side_to_act(monkeypatch):
    """At a turn start only the side to act claims the garrisons it stands on (``turn_start``)."""
    turn_start = R.turn_start

    def buggy(rules, st, b):
        owner = st.garrison_owner[b].copy()
        turn_start(rules, st, b)
        claimed = st.garrison_owner[b] != owner
        st.garrison_owner[b] = np.where(claimed & (st.garrison_owner[b] != st.current[b][:, None]), owner,
                                        st.garrison_owner[b])

    monkeypatch.setattr(R, "turn_start", buggy)


def inferno_flame_range_8(monkeypatch):
    """InfernoFlame may land 8 cells from the own miracle, not 7 (``use_mask`` reads miracle_range + 1)."""
    use_mask = R.use_mask

    def buggy(rules, st):
        return use_mask(_with_effect(rules, "InfernoFlame", "miracle_range", 1), st)

    monkeypatch.setattr(R, "use_mask", buggy)


def mana_refilled_before_it_grows(monkeypatch):
    """At a turn start mana is refilled to the old max mana, then max mana grows (``turn_start``)."""
    turn_start = R.turn_start

    def buggy(rules, st, b):
        cur = st.current[b]
        old = st.max_mana[b, cur].copy()
        turn_start(rules, st, b)
        st.mana[b, cur] = old

    monkeypatch.setattr(R, "turn_start", buggy)


# ----------------------------------------------------------------------------------------------
# bugs of the compiled engine (fast/step.py): (the line as it is, the line with the bug)

COMPILED_BUGS = {
    "no_counter_from_killed_target": (
        "    if counters(S, R, g, u, t, atk):",
        "    if S.hp[g, t] > 0 and counters(S, R, g, u, t, atk):",
    ),
    "counters_ignore_minimum_range": (
        "    in_range = R.range_min[tk, tl] <= d <= R.range_max[tk, tl]",
        "    in_range = d <= R.range_max[tk, tl]",
    ),
    "heal_range_off_by_one": (
        "if R.heal[kj, lj] > 0 and R.distance[S.cell[g, u], S.cell[g, j]] <= R.heal_range[kj, lj]:",
        "if R.heal[kj, lj] > 0 and R.distance[S.cell[g, u], S.cell[g, j]] < R.heal_range[kj, lj]:",
    ),
    "unit_counts_step_a_turn_early": (
        "        if S.turn[g] == R.unit_steps[i]:",
        "        if S.turn[g] + 1 == R.unit_steps[i]:",
    ),
    "splash_hits_friends": (
        "if not S.alive[g, v] or S.side[g, v] == S.current[g] or R.flying[S.kind[g, v]]:",
        "if not S.alive[g, v] or R.flying[S.kind[g, v]]:",
    ),
}


def compiled_step_module(folder: Path, name: str):
    """``fast/step.py`` with bug ``name`` planted, imported from ``folder`` (written only when changed)."""
    source = Path(fast_step.__file__).read_text(encoding="utf-8")
    old, new = COMPILED_BUGS[name]
    assert source.count(old) == 1, f"fast/step.py no longer holds {old!r} once: update COMPILED_BUGS[{name!r}]"
    path = folder / f"planted_step_{name}.py"
    text = source.replace(old, new)
    if not path.exists() or path.read_text(encoding="utf-8") != text:
        path.write_text(text, encoding="utf-8")
    module_name = f"planted_step_{name}"
    if module_name not in sys.modules:
        spec = importlib.util.spec_from_file_location(module_name, path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    return sys.modules[module_name]


@functools.cache
def compiled_bug(name: str):
    """The planter of compiled bug ``name`` (one per name): the checker's twin engine becomes the buggy
    ``FastStep``."""

    def plant(monkeypatch, folder: Path):
        module = compiled_step_module(folder, name)
        monkeypatch.setattr(game_checks, "FastStep", module.FastStep)
        monkeypatch.setattr(checker, "_hooks", {})

    plant.__name__ = name
    plant.__doc__ = f"fast/step.py: {COMPILED_BUGS[name][1].strip()}"
    plant.compiled = True
    return plant


@pytest.fixture(scope="session")
def compiled_folder(request):
    """Where the planted copies of fast/step.py (and numba's cache of them) live between runs."""
    return Path(request.config.cache.mkdir("planted-compiled-bugs"))


def plant(bug, monkeypatch, folder: Path) -> None:
    """Plant ``bug`` (a numpy monkeypatch or a compiled one)."""
    if getattr(bug, "compiled", False):
        bug(monkeypatch, folder)
    else:
        bug(monkeypatch)


#: The ten bugs of issue 14: five in rules.py, five in fast/step.py, with the checks that may report each.
TEN_BUGS = {
    aura_one_cell_too_far: {"attack_damage_and_counter", "compiled_step_agrees", "legal_targets_follow_the_rules"},
    holy_light_one_turn_short: {"artifact_effects", "compiled_step_agrees", "buff_within_duration"},
    garrison_captured_only_by_side_to_act: {"garrisons_follow_ground_units", "compiled_step_agrees"},
    inferno_flame_range_8: {"legal_targets_follow_the_rules", "compiled_legal_actions_agree"},
    mana_refilled_before_it_grows: {"turn_start_refreshes", "compiled_step_agrees"},
    compiled_bug("no_counter_from_killed_target"): {"compiled_step_agrees"},
    compiled_bug("counters_ignore_minimum_range"): {"compiled_step_agrees"},
    compiled_bug("heal_range_off_by_one"): {"compiled_step_agrees"},
    compiled_bug("unit_counts_step_a_turn_early"): {"compiled_step_agrees"},
    compiled_bug("splash_hits_friends"): {"compiled_step_agrees"},
}
#: How many of the ten the ci hunt must catch.
TEN_CAUGHT = 8

#: bug -> the invariants that may report it (several can break at the same step).
BUGS = {
    heal_past_max: {"units_alive_hp", "priests_heal_at_turn_end"},
    summon_onto_occupied_cell: {"one_unit_per_cell_and_layer", "legal_targets_follow_the_rules"},
    mana_not_capped: {"max_mana_capped", "max_mana_follows_schedule"},
    dead_unit_left_on_board: {"units_alive_hp", "attack_damage_and_counter"},
    cooldown_never_ends: {"cooldowns_tick_at_turn_start"},
    counter_attack_skipped: {"attack_damage_and_counter"},
}


def hunt(base):
    """Run the check's state machine under the ci budget (no shrinking); the failure found or None."""
    machine = match_machine(base)
    return run_machine(machine, check_settings("ci"), seed=HUNT_SEED), machine.stats


@pytest.mark.parametrize(
    "bug",
    [holy_light_one_turn_short, garrison_captured_only_by_side_to_act, compiled_bug("counters_ignore_minimum_range")],
    ids=lambda b: b.__name__,
)
def test_bug_of_issue_14_is_caught_within_the_ci_budget(base, monkeypatch, compiled_folder, bug):
    """Three of issue 14's ten bugs (an artifact effect, the garrison rule, the compiled engine's counter range)
    are caught by the ci hunt, each by a fitting check."""
    plant(bug, monkeypatch, compiled_folder)
    failure, stats = hunt(base)
    assert failure is not None, f"{bug.__name__} went unnoticed in {stats.examples} examples"
    assert set(failure.broken) & TEN_BUGS[bug], failure.broken


@pytest.mark.slow
def test_ci_hunt_catches_at_least_eight_of_the_ten_bugs_of_issue_14(base, compiled_folder, capsys):
    """Planted one at a time, at least eight of issue 14's ten bugs (five in rules.py, five in the compiled
    fast/step.py) are caught by the hunt ``simkit check --profile ci`` runs, each by a fitting check."""
    caught, missed = [], []
    for bug, fitting in TEN_BUGS.items():
        with pytest.MonkeyPatch.context() as monkeypatch:
            plant(bug, monkeypatch, compiled_folder)
            failure, stats = hunt(base)
        if failure is not None and set(failure.broken) & fitting:
            caught.append(f"{bug.__name__}: {sorted(failure.broken)}")
        else:
            missed.append(f"{bug.__name__}: {sorted(failure.broken) if failure else 'unnoticed'}")
    with capsys.disabled():
        print(f"\ncaught {len(caught)} of {len(TEN_BUGS)}:", *caught, "missed:", *missed, sep="\n  ")
    assert len(caught) >= TEN_CAUGHT, missed


@pytest.mark.parametrize("bug", list(BUGS), ids=lambda b: b.__name__)
def test_planted_bug_is_caught_within_the_ci_budget(base, monkeypatch, bug):
    """With the bug planted, the hunt finds it within the ci profile's examples, reported by a fitting invariant."""
    bug(monkeypatch)
    failure, stats = hunt(base)
    assert failure is not None, f"{bug.__name__} went unnoticed in {stats.examples} examples"
    assert set(failure.broken) & BUGS[bug], failure.broken
    assert failure.case is not None and failure.case.steps


def test_without_a_bug_the_same_hunt_finds_nothing(base):
    """The hunt that catches every planted bug passes on the engine as it is (no false alarm)."""
    failure, stats = hunt(base)
    assert failure is None, str(failure)
    assert stats.examples >= PROFILES["ci"] and stats.deaths > 0 and stats.action_kinds["attack"] > 0


@pytest.mark.parametrize(
    "bug, most_actions", [(heal_past_max, 2), (summon_onto_occupied_cell, 5)], ids=lambda x: getattr(x, "__name__", x)
)
def test_check_shrinks_a_planted_bug_to_a_minimal_sequence(base, monkeypatch, tmp_path, bug, most_actions):
    """simkit check shrinks the failing game to the few actions that show the bug, on the base scenario.

    (A priest summoned, then the end of the turn; a unit summoned, two ends of turn, another unit on
    the same spawn point, after one more end of turn when the second player is the one found.)
    """
    bug(monkeypatch)
    report = run_check(base.path, profile="ci", seed=HUNT_SEED, out_dir=tmp_path)
    case = report.failure.case
    assert len(case.steps) <= most_actions, [s.action for s in case.steps]
    assert case.patch is None and report.case_path.exists()
