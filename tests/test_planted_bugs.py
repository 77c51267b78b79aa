"""Proof that the invariant suite catches rule bugs: plant plausible bugs one at a time and hunt them.

Each bug is a monkeypatch of one function of ``simkit.games.miracle.rules`` (the patch points are
``_end_turn``, ``summon_mask``, ``turn_start``, ``resolve_deaths`` and ``_attack``; if an
optimisation of rules.py renames or inlines one of them, move the wrapper to the function that now
does that job). The hunt is the state machine ``simkit check`` runs, under the ``ci`` profile's
example budget, with a fixed hypothesis seed so the result is deterministic.
"""

import dataclasses

import pytest

from simkit.games.miracle import rules as R
from simkit.testing.check import check_settings, run_check, run_machine
from simkit.testing.machine import match_machine
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


#: bug -> the invariants that may report it (several can break at the same step).
BUGS = {
    heal_past_max: {"units_alive_hp", "priests_heal_at_turn_end"},
    summon_onto_occupied_cell: {"one_unit_per_cell_and_layer"},
    mana_not_capped: {"max_mana_capped", "max_mana_follows_schedule"},
    dead_unit_left_on_board: {"units_alive_hp", "attack_damage_and_counter"},
    cooldown_never_ends: {"cooldowns_tick_at_turn_start"},
    counter_attack_skipped: {"attack_damage_and_counter"},
}


def hunt(base):
    """Run the check's state machine under the ci budget (no shrinking); the failure found or None."""
    machine = match_machine(base)
    return run_machine(machine, check_settings("ci"), seed=HUNT_SEED), machine.stats


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
