"""Tests for simkit.testing: invariants, strategies, the match state machine, cases, shrinking and `simkit check`."""

import tomllib
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

import simkit
from simkit.cli import main
from simkit.games.miracle import rules as R
from simkit.games.miracle.cards import parse_deck
from simkit.games.miracle.checking import match_machine
from simkit.games.miracle.checking import strategies as sks
from simkit.games.miracle.checking.checker import (
    Case,
    CheckedMatch,
    InvalidCase,
    Step,
    companion_game,
    read_case,
    replay_case,
    run_batch,
    write_case,
)
from simkit.games.miracle.checking.invariants import (
    STATE_INVARIANTS,
    TRANSITION_INVARIANTS,
    check_states,
    check_transitions,
    scheduled_max_mana,
)
from simkit.games.miracle.state import COOLING, DRAW, FIRST, IN_USE, SECOND, TURN_LIMIT
from simkit.testing.profiles import PROFILES, register_profiles

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "scenarios" / "miracle" / "base.toml"
PRIEST_DECK = "HolyLight:Archer,Priest,Swordsman"
SHIELD_DECK = "SalamanderShield:BlackBat,FrostDragon,Swordsman"
INFERNO_DECK = "InfernoFlame:Archer,Priest,Swordsman"

#: The machine on the base scenario, run by pytest like a designer's own file would (fixed seed). A long property
#: suite, so slow: the default suite runs the machine through `simkit check` (test_check_passes_on_the_base_scenario).
TestBaseScenarioMachine = pytest.mark.slow(seed(20240611)(match_machine(BASE)).TestCase)


# ----------------------------------------------------------------------------------------------
# positions to break


def skirmish(sc):
    """A mid-game position: both sides have units, the first player's stand next to each other."""
    m = sc.new_match(PRIEST_DECK, SHIELD_DECK, seed=0)
    m.summon("Swordsman", 1, (-6, 6, 0))
    m.end_turn()
    m.summon("Swordsman", 1, (6, -6, 0))
    m.end_turn()
    m.summon("Priest", 1, (-7, 6, 1))
    return m


def slot_of(m, uid):
    """The slot of unit ``uid`` in a match's state."""
    return int(np.nonzero(m.state.alive[0] & (m.state.uid[0] == uid))[0][0])


def unit_slot(m, kind):
    st = m.state
    return int(next(u for u in np.nonzero(st.alive[0])[0] if m.rules.cards.kind_name(int(st.kind[0, u])) == kind))


def _hp_above_max(m):
    u = unit_slot(m, "Swordsman")
    m.state.hp[0, u] = m.state.max_hp[0, u] + 1


def _dead_unit_left(m):
    m.state.hp[0, unit_slot(m, "Swordsman")] = 0


def _two_on_a_cell(m):
    st = m.state
    u, v = np.nonzero(st.alive[0] & (st.kind[0] == st.kind[0, unit_slot(m, "Swordsman")]))[0][:2]
    st.cell[0, v] = st.cell[0, u]


def _ground_on_abyss(m):
    m.state.cell[0, unit_slot(m, "Swordsman")] = m.rules.board.grid.index((0, 0, 0))


def _mana_above_max(m):
    m.state.mana[0, 0] = m.state.max_mana[0, 0] + 1


def _max_mana_off_schedule(m):
    m.state.max_mana[0, 1] -= 1
    m.state.mana[0, 1] = min(m.state.mana[0, 1], m.state.max_mana[0, 1])


def _max_mana_above_cap(m):
    m.state.max_mana[0, 0] = m.rules.max_mana_cap + 1
    m.state.mana[0, 0] = 0


def _unit_vanished(m):
    m.state.available[0, 0, 0] -= 1


def _artifact_in_use_for_nothing(m):
    m.state.artifact_state[0, 0] = IN_USE


def _cooling_without_cooldown(m):
    m.state.artifact_state[0, 1] = COOLING
    m.state.artifact_cooldown[0, 1] = 0


def _over_without_reason(m):
    m.state.over[0] = True


def _wrong_winner(m):
    st = m.state
    st.over[0], st.end_reason[0], st.turn[0], st.current[0] = True, TURN_LIMIT, m.rules.turn_limit, 1
    st.miracle_hp[0] = (20, 30)
    st.max_mana[0] = scheduled_max_mana(m.rules, st.turn)[0]
    st.mana[0] = 0
    st.ready[0] = False
    st.winner[0] = FIRST


def _shield_without_bearer(m):
    m.state.shield[0, unit_slot(m, "Priest")] = True


def _enemy_ready(m):
    m.state.ready[0, np.nonzero(m.state.alive[0] & (m.state.side[0] == 1))[0][0]] = True


def _max_hp_off_card(m):
    m.state.max_hp[0, unit_slot(m, "Swordsman")] += 1


def _unit_off_board(m):
    m.state.cell[0, unit_slot(m, "Priest")] = m.rules.board.grid.size


def _unit_of_another_deck(m):
    m.state.kind[0, unit_slot(m, "Priest")] = m.rules.cards.kind_index("BlackBat")


def _cooling_too_long(m):
    m.state.available[0, 0, 0] -= 1
    m.state.cooling[0, 0, 0, 0] = 1


def _buff_too_long(m):
    m.state.buff[0, unit_slot(m, "Priest")] = m.rules.cards.effect["HolyLight"]["duration"] + 1


def _same_id_twice(m):
    m.state.uid[0, unit_slot(m, "Priest")] = m.state.uid[0, unit_slot(m, "Swordsman")]


def _wrong_side_to_act(m):
    m.state.current[0] = 1 - m.state.current[0]
    m.state.ready[0] = False


BROKEN_POSITIONS = {
    "units_alive_hp": [_hp_above_max, _dead_unit_left],
    "one_unit_per_cell_and_layer": [_two_on_a_cell],
    "no_ground_unit_on_abyss": [_ground_on_abyss],
    "mana_within_max": [_mana_above_max],
    "max_mana_follows_schedule": [_max_mana_off_schedule],
    "max_mana_capped": [_max_mana_above_cap],
    "unit_count_conserved": [_unit_vanished],
    "artifact_state_matches_board": [_artifact_in_use_for_nothing],
    "artifact_cooldown_consistent": [_cooling_without_cooldown],
    "game_end_consistent": [_over_without_reason],
    "winner_follows_tie_break": [_wrong_winner],
    "holy_shield_on_bearer": [_shield_without_bearer],
    "only_side_to_act_is_ready": [_enemy_ready],
    "max_hp_follows_card": [_max_hp_off_card],
    "units_on_board_cells": [_unit_off_board],
    "units_match_decks": [_unit_of_another_deck],
    "cooling_within_cooldown": [_cooling_too_long],
    "buff_within_duration": [_buff_too_long],
    "unit_ids_unique": [_same_id_twice],
    "turn_order": [_wrong_side_to_act],
}


def test_a_played_position_breaks_no_state_invariant(base):
    """A legal mid-game position satisfies every state invariant."""
    assert check_states(base.rules, skirmish(base).state) == []


@pytest.mark.parametrize(
    "name, breaker", [(n, b) for n, bs in BROKEN_POSITIONS.items() for b in bs], ids=lambda x: getattr(x, "__name__", x)
)
def test_each_state_invariant_catches_its_break(base, name, breaker):
    """Breaking a position by hand is reported by the invariant that states the rule."""
    m = skirmish(base)
    breaker(m)
    found = {v.invariant.name for v in check_states(base.rules, m.state)}
    assert name in found


def test_every_state_invariant_has_a_breaking_test():
    """The table above breaks every registered state invariant."""
    assert {inv.name for inv in STATE_INVARIANTS} == set(BROKEN_POSITIONS)


def test_state_invariants_run_over_a_whole_batch(base):
    """Violations name the game of the batch they occur in."""
    from simkit.games.miracle.checking.invariants import stack_states

    good, bad = skirmish(base), skirmish(base)
    _hp_above_max(bad)
    found = check_states(base.rules, stack_states([good.state, bad.state, good.state]))
    assert {v.game for v in found} == {1}


def test_winner_follows_the_tie_break_rules(base):
    """More miracle HP wins; then fewer dead stars; then a draw, or the second player with full_tie = second."""
    from simkit.games.miracle.checking.invariants import expected_winner

    st = skirmish(base).state
    cases = [((30, 20), (0, 0), FIRST), ((10, 20), (0, 0), SECOND), ((30, 30), (1, 4), FIRST),
             ((30, 30), (5, 4), SECOND), ((30, 30), (3, 3), DRAW)]
    for hp, stars, want in cases:
        st.miracle_hp[0], st.dead_stars[0] = hp, stars
        assert expected_winner(base.rules, st)[0] == want
    assert expected_winner(replace(base.rules, full_tie="second"), st)[0] == SECOND


def test_max_mana_schedule_matches_the_rulebook(base):
    """Max mana over turns 1..8 is 2,2,2,3,3,3,3,4 for the player whose turn it is (rules page, section 3)."""
    turns = np.arange(1, 9)
    table = scheduled_max_mana(base.rules, turns)
    assert [int(table[i, (t - 1) % 2]) for i, t in enumerate(turns)] == [2, 2, 2, 3, 3, 3, 3, 4]
    assert scheduled_max_mana(base.rules, np.array([100])).max() == base.rules.max_mana_cap


# ----------------------------------------------------------------------------------------------
# transitions


def transition(m, action):
    before = m.state.copy()
    act = m.encode(action)
    m.do(action)
    return before, act, m.state.copy()


def test_played_actions_follow_every_transition_invariant(base):
    """Summons, moves, attacks and ends of turn of a real game break no transition invariant."""
    m = skirmish(base)
    steps = [transition(m, ("end_turn",))]
    for action in (("move", 2, (3, -3, 0)), ("end_turn",), ("move", 1, (-3, 3, 0)), ("end_turn",)):
        steps.append(transition(m, action))
    for before, act, after in steps:
        assert check_transitions(base.rules, before, act, after) == []


def _new_unit(before, after):
    return int(np.nonzero(after.alive[0] & ~before.alive[0])[0][0])


TAMPERED_TRANSITIONS = {
    "miracle_hp_never_rises": (("end_turn",), lambda b, a: a.miracle_hp.__setitem__((0, 0), a.miracle_hp[0, 0] + 1)),
    "dead_stars_never_fall": (("end_turn",), lambda b, a: a.dead_stars.__setitem__((0, 1), -1)),
    "dead_stars_count_the_fallen": (("end_turn",), lambda b, a: a.dead_stars.__setitem__((0, 0), 1)),
    "turn_advances_by_one": (("end_turn",), lambda b, a: a.turn.__setitem__(0, a.turn[0] + 1)),
    "game_ends_by_turn_limit": (("end_turn",), lambda b, a: a.over.__setitem__(0, True)),
    "turn_start_refreshes": (("end_turn",), lambda b, a: a.mana.__setitem__((0, a.current[0]), 0)),
    "cooldowns_tick_at_turn_start": (("end_turn",), lambda b, a: a.cooling.__setitem__((0, 0, 0, 2), 1)),
    "cooldowns_only_tick_at_turn_start": (
        ("summon", "Swordsman", 1, (-6, 7, -1)), lambda b, a: b.cooling.__setitem__((0, 0, 0, 2), 1)
    ),
    "mana_spent_exactly": (
        ("summon", "Swordsman", 1, (-6, 7, -1)), lambda b, a: a.mana.__setitem__((0, 0), a.mana[0, 0] + 1)
    ),
    "summoned_unit_arrives_fresh": (
        ("summon", "Swordsman", 1, (-6, 7, -1)), lambda b, a: a.ready.__setitem__((0, _new_unit(b, a)), True)
    ),
    "move_moves_only_the_mover": (("move", 1, (-5, 5, 0)), lambda b, a: a.hp.__setitem__((0, 1), 1)),
    "priests_heal_at_turn_end": (("end_turn",), lambda b, a: a.hp.__setitem__((0, 0), 1)),
    "buffs_count_down": (("end_turn",), lambda b, a: a.buff.__setitem__((0, 0), 2)),
}


def test_every_transition_invariant_has_a_breaking_test():
    """The table below (and the attack tests) break every registered transition invariant."""
    names = set(TAMPERED_TRANSITIONS) | {"attack_damage_and_counter"}
    assert {inv.name for inv in TRANSITION_INVARIANTS} == names


@pytest.mark.parametrize("name", sorted(TAMPERED_TRANSITIONS))
def test_each_transition_invariant_catches_its_break(base, name):
    """Tampering with a real transition is reported by the invariant that states the rule."""
    action, tamper = TAMPERED_TRANSITIONS[name]
    m = skirmish(base)  # the first player's turn 3: a Swordsman (id 1) and a Priest on the board
    if action[0] == "summon":  # on to turn 5, with mana for it
        m.end_turn()
        m.end_turn()
    before, act, after = transition(m, action)
    assert check_transitions(base.rules, before, act, after) == []
    tamper(before, after)
    assert name in {v.invariant.name for v in check_transitions(base.rules, before, act, after)}


def test_attack_invariant_knows_damage_and_counter(base):
    """An attack that deals no damage, or no counter-attack, breaks attack_damage_and_counter."""
    m = base.new_match(SHIELD_DECK, SHIELD_DECK, seed=0)
    a = m.summon("Swordsman", 1, (-6, 6, 0))
    m.end_turn()
    b = m.summon("Swordsman", 1, (6, -6, 0))
    m.end_turn()
    m.state.cell[0, slot_of(m, b)] = base.rules.board.grid.index((-5, 5, 0))  # an enemy next to unit a
    attacker = slot_of(m, a)
    before, act, after = transition(m, ("attack", a, b))
    assert not after.alive[0].any()  # 2 attack against 2 HP, and the counter-attack the same
    assert check_transitions(base.rules, before, act, after) == []
    after.alive[0, attacker], after.hp[0, attacker] = True, 2  # as if the counter-attack were skipped
    found = {v.invariant.name for v in check_transitions(base.rules, before, act, after)}
    assert "attack_damage_and_counter" in found


def test_attack_on_the_miracle_costs_its_power(base):
    """Hitting the enemy miracle lowers it by the attacker's current attack, checked by the invariant."""
    m = base.new_match(SHIELD_DECK, SHIELD_DECK, seed=0)
    a = m.summon("Swordsman", 1, (-6, 6, 0))
    m.end_turn()
    m.end_turn()
    m.state.cell[0, slot_of(m, a)] = base.rules.board.grid.index((6, -6, 0))  # next to the enemy miracle
    before, act, after = transition(m, ("attack", a, "miracle"))
    assert after.miracle_hp[0, 1] == base.rules.miracle_hp - 2
    assert check_transitions(base.rules, before, act, after) == []
    after.miracle_hp[0, 1] += 1
    assert "attack_damage_and_counter" in {v.invariant.name for v in check_transitions(base.rules, before, act, after)}


def test_registered_invariants_have_statements():
    """Every invariant has a unique name and a one-sentence statement for reports."""
    names = [inv.name for inv in STATE_INVARIANTS + TRANSITION_INVARIANTS]
    assert len(names) == len(set(names))
    assert all(inv.statement for inv in STATE_INVARIANTS + TRANSITION_INVARIANTS)


# ----------------------------------------------------------------------------------------------
# strategies


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_scenario_patches_load_as_valid_variants(base, data, tmp_path_factory):
    """Every drawn patch is valid TOML extending the base, loads, and changes exactly what it says."""
    patch = data.draw(sks.scenario_patches(base))
    text = sks.patch_toml(patch, BASE)
    parsed = tomllib.loads(text)
    assert parsed.pop("extends") == str(BASE)
    assert parsed == patch
    variant = sks.load_variant(base, patch, folder=tmp_path_factory.mktemp("variants"))
    assert variant.rules.turn_limit == patch.get("rules", {}).get("turn_limit", base.rules.turn_limit)
    assert variant.decks == base.decks


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game=sks.played_games(simkit.load_scenario(BASE), max_actions=30), data=st.data())
def test_illegal_actions_are_refused_and_change_nothing(game, data):
    """Whatever the position, a drawn illegal action raises IllegalAction and leaves the game as it was."""
    m = game.match
    action = data.draw(sks.illegal_action(m))
    assert action not in m.legal_actions()
    before = m.snapshot()
    with pytest.raises(simkit.IllegalAction):
        m.do(action)
    assert m.snapshot() == before


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games=st.lists(sks.played_games(simkit.load_scenario(BASE), max_actions=25), min_size=2, max_size=3))
def test_a_batch_of_games_equals_the_games_run_alone(games):
    """Distinct games played together through rules.step reach the states they reach alone."""
    sc = games[0].match.scenario
    rows = []
    for g in games:
        encoded, replay = [], sc.new_match(*g.decks, seed=g.seed)
        for action in g.actions:
            encoded.append(replay.encode(action))
            replay.do(action)
        arts, kinds = zip(*(parse_deck(sc.rules.cards, d) for d in g.decks))
        rows.append((list(arts), [list(k) for k in kinds], encoded, 0))
    finals = run_batch(sc.rules, rows)
    for i, g in enumerate(games):
        assert finals.take([i]).equals(g.match.state)


def test_groups_bias_and_cover_the_legal_actions(base):
    """The action groups hold legal actions only, and advancing moves bring units nearer to an enemy."""
    m = skirmish(base)
    m.end_turn()
    m.end_turn()
    legal = m.legal_actions()
    groups = sks.action_groups(m, legal)
    assert set(a for g in groups.values() for a in g) == set(legal)
    grid, st_ = base.rules.board.grid, m.state
    enemy_cells = [grid.cell(int(c)) for c in st_.cell[0, st_.alive[0] & (st_.side[0] == 1)]]
    for _, uid, cell in groups["advance"]:
        start = grid.cell(int(st_.cell[0, slot_of(m, uid)]))
        targets = enemy_cells + [base.rules.board.miracles[1]]
        assert min(simkit.games.kits.hexgrid.distance(cell, t) for t in targets) < min(
            simkit.games.kits.hexgrid.distance(start, t) for t in targets
        )


def test_companion_games_are_reproducible(base):
    """A companion game depends on its seed only."""
    arts, kinds = zip(*(parse_deck(base.rules.cards, d) for d in (PRIEST_DECK, SHIELD_DECK)))
    a = companion_game(base.rules, list(arts), [list(k) for k in kinds], seed=5, actions=20)
    b = companion_game(base.rules, list(arts), [list(k) for k in kinds], seed=5, actions=20)
    assert a[1].equals(b[1]) and len(a[0]) == len(b[0]) == 20


# ----------------------------------------------------------------------------------------------
# checked games, cases, replays


def test_checked_match_runs_end_of_game_checks(base):
    """A checked game reports nothing, replays, and its batch with companions matches."""
    game = CheckedMatch(base, PRIEST_DECK, INFERNO_DECK, seed=3, companions=[(SHIELD_DECK, PRIEST_DECK, 9)])
    for action in (("summon", "Priest", 1, (-6, 6, 0)), ("end_turn",), ("summon", "Archer", 1, (6, -6, 0))):
        game.play(action)
        game.check()
    game.try_illegal(("summon", "Archer", 1, (6, -6, 0)))
    game.play(("end_turn",))
    game.finish()
    assert game.stats.actions == 4 and game.stats.illegal_refused == 1


def test_a_listed_action_that_is_refused_is_an_invariant_break(base, monkeypatch):
    """When legal_actions() lists an action the match refuses, the checker reports legal_actions_accepted."""
    game = CheckedMatch(base, PRIEST_DECK, INFERNO_DECK)

    def refuse(self, action):
        raise simkit.IllegalAction("refused")

    monkeypatch.setattr(type(game.match), "encode", refuse)
    with pytest.raises(AssertionError, match="legal_actions_accepted"):
        game.play(("end_turn",))


def test_cases_round_trip_and_replay(base, tmp_path):
    """A case written as JSON reads back equal and replays to the same verdict."""
    case = Case(str(BASE), base.hash, (PRIEST_DECK, SHIELD_DECK), 4,
                [Step(("summon", "Priest", 1, (-6, 6, 0))), Step(("move", 1, (-5, 5, 0)), legal=False),
                 Step(("end_turn",))], [(SHIELD_DECK, SHIELD_DECK, 2)])
    path = write_case(case, tmp_path / "case.json")
    assert read_case(path) == case
    assert replay_case(base, read_case(path)) is None


def test_a_step_that_no_longer_applies_makes_the_case_invalid(base):
    """Replaying a 'legal' step that is illegal where it stands raises InvalidCase, not an invariant break."""
    case = Case(str(BASE), base.hash, (PRIEST_DECK, SHIELD_DECK), 0, [Step(("move", 1, (-5, 5, 0)))])
    with pytest.raises(InvalidCase, match="not legal here"):
        replay_case(base, case)
    probe = Case(str(BASE), base.hash, (PRIEST_DECK, SHIELD_DECK), 0, [Step(("end_turn",), legal=False)])
    with pytest.raises(InvalidCase, match="not an illegal probe"):
        replay_case(base, probe)


def test_not_a_case_file_is_bad_input(tmp_path):
    """A JSON file that is not a case is refused with a clear error."""
    (tmp_path / "x.json").write_text('{"steps": 3}')
    with pytest.raises(ValueError, match="not a simkit check case"):
        read_case(tmp_path / "x.json")


# ----------------------------------------------------------------------------------------------
# profiles and the command


def test_profiles_are_registered_and_registering_again_is_harmless():
    """ci, dev and thorough exist with their budgets; a second registration changes nothing."""
    register_profiles()
    register_profiles()
    for name, examples in PROFILES.items():
        assert settings.get_profile(name).max_examples == examples


def test_check_passes_on_the_base_scenario(capsys, tmp_path):
    """`simkit check base.toml` prints a pass summary with examples, actions and checks, exit 0."""
    code = main(["check", str(BASE), "--examples", "3", "--profile", "ci", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "passed: every invariant held" in out
    for word in ("examples", "legal actions", "invariant checks", "time"):
        assert word in out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["check", "no-such.toml"], "file not found"),
        (["check", str(BASE), "--examples", "0"], "--examples must be at least 1"),
    ],
)
def test_check_refuses_bad_input(capsys, argv, message):
    """A missing scenario or a bad budget is one line on stderr and exit 2."""
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_check_reports_a_failure_and_its_replay_command(monkeypatch, capsys, tmp_path):
    """With a rule bug the check exits 1 with the minimal sequence and a replay command that reproduces it."""
    original = R.summon_mask

    def ignores_occupancy(rules, st):
        empty = st.copy()
        empty.alive[:] = False
        return original(rules, empty)

    monkeypatch.setattr(R, "summon_mask", ignores_occupancy)
    assert main(["check", str(BASE), "--profile", "ci", "--out", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "FAILED: invariant legal_targets_follow_the_rules" in out  # an occupied spawn point offered
    assert "may summon" in out and "minimal failing sequence" in out
    replay = next(line.split("replay: ", 1)[1] for line in out.splitlines() if "replay: " in line).split()
    assert replay[:2] == ["simkit", "check"]
    assert main(replay[1:]) == 1
    assert "legal_targets_follow_the_rules" in capsys.readouterr().out
    monkeypatch.setattr(R, "summon_mask", original)  # the bug fixed: the same game passes
    assert main(replay[1:]) == 0
    assert "passed: every invariant held" in capsys.readouterr().out


def test_an_engine_crash_is_a_finding_with_its_case(base, monkeypatch):
    """An exception inside the engine is reported as engine_runs_without_error with the game that leads to it."""
    step = R.step

    def crashes_on_turn_3(rules, st, act):
        if ((st.turn == 3) & (act.kind == R.END_TURN)).any():
            raise IndexError("cooling histogram too short")
        step(rules, st, act)

    monkeypatch.setattr(R, "step", crashes_on_turn_3)
    game = CheckedMatch(base, PRIEST_DECK, SHIELD_DECK)
    game.play(("end_turn",))
    game.play(("end_turn",))
    with pytest.raises(AssertionError, match="engine_runs_without_error: performing .* raised IndexError") as err:
        game.play(("end_turn",))
    assert [s.action for s in err.value.case.steps] == [("end_turn",)] * 3


@pytest.mark.slow
@pytest.mark.long
def test_thorough_check_passes_on_the_base_scenario(tmp_path):
    """The thorough profile (what `simkit check` runs by default) finds nothing in the base scenario."""
    from simkit.games.miracle.checking import run_check

    report = run_check(BASE, profile="thorough", seed=0, out_dir=tmp_path)
    assert report.passed, str(report.failure)
    assert report.stats.ends["miracle"] > 0 and report.stats.ends["turn_limit"] > 0
