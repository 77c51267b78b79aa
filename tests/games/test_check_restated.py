"""Magic War's and Krypton's rules pages restated over snapshots (simkit/games/*/transitions.py).

Each clause test takes a literal position, does one legal action and holds the page's restatement to
it twice: the true step breaks no clause, and the same step with the outcome the clause forbids (one
value of the snapshot changed) is reported under the clause's name. Then the check wiring: the
restated clauses are among the game's invariants and `simkit check --profile ci` runs them.
"""

from __future__ import annotations

import copy
from pathlib import Path

import pytest

import simkit
from simkit.games.krypton.invariants import KryptonInvariants
from simkit.games.krypton.state import HS_BOARD, HS_DEAD
from simkit.games.magic.invariants import MagicInvariants

ROOT = Path(__file__).resolve().parents[2]
CHIEFTAINS = [{"side": "first", "type": "Chieftain", "cell": [2, 0]},
              {"side": "second", "type": "Chieftain", "cell": [2, 5]}]


@pytest.fixture(scope="module")
def magic():
    return MagicInvariants(simkit.load_scenario(ROOT / "scenarios" / "magic" / "base.toml"))


@pytest.fixture(scope="module")
def krypton():
    return KryptonInvariants(simkit.load_scenario(ROOT / "scenarios" / "krypton" / "base.toml"))


def _step(spec, given, action):
    m = spec.example_match(given)
    before = m.snapshot()
    m.do(action)
    return before, m.snapshot()


def _magic_step(spec, given, action):
    """Magic War's step, before and after in the page's words (MagicPage.words of the declared snapshots)."""
    return tuple(spec.page.words(s) for s in _step(spec, given, action))


def _unit(snap, cell):
    return next(u for u in snap["units"] if u["cell"] == list(cell) and u["state"] == "alive")


# ---- Magic War ----------------------------------------------------------------------------------------------

def test_magic_melee_reaches_orthogonal_neighbours_and_the_page_agrees_with_the_offer(magic):
    given = {"units": [*CHIEFTAINS, {"side": "first", "type": "Goblin", "cell": [1, 2]},
                       {"side": "second", "type": "Goblin", "cell": [2, 3]},
                       {"side": "second", "type": "Goblin", "cell": [1, 3]}]}
    m = magic.example_match(given)
    page = magic.page.attacks_by_the_page(m.snapshot())
    assert ("attack", (1, 2), (1, 3)) in page and ("attack", (1, 2), (2, 3)) not in page
    assert magic.legal_problems(m.snapshot(), m.legal_actions()) == []


def test_magic_a_ranged_line_is_blocked_and_leaders_are_immune_on_turn_1(magic):
    given = {"turn": 1, "units": [{"side": "first", "type": "ElfQueen", "cell": [2, 0]},
                                  {"side": "second", "type": "ElfQueen", "cell": [2, 2]},
                                  {"side": "first", "type": "Archer", "cell": [0, 1]},
                                  {"side": "first", "type": "Sprite", "cell": [0, 2]},
                                  {"side": "second", "type": "Archer", "cell": [0, 4]}]}
    m = magic.example_match(given)
    page = magic.page.attacks_by_the_page(m.snapshot())
    assert ("attack", (0, 1), (0, 4)) not in page and ("attack", (2, 0), (2, 2)) not in page
    assert magic.legal_problems(m.snapshot(), m.legal_actions()) == []
    given["turn"] = 3
    assert ("attack", (2, 0), (2, 2)) in magic.page.attacks_by_the_page(magic.example_match(given).snapshot())


def test_magic_a_hit_is_a_marker_and_a_miss_is_none(magic):
    given = {"units": [*CHIEFTAINS, {"side": "first", "type": "Goblin", "cell": [1, 2]},
                       {"side": "second", "type": "Ogre", "cell": [1, 3]}], "faces": [3]}
    before, after = _magic_step(magic, given, ("attack", (1, 2), (1, 3)))
    assert _unit(after, (1, 3))["markers"] == 1 and magic.page.transition_problems(before, ("attack", (1, 2), (1, 3)),
                                                                                    after) == []
    wrong = copy.deepcopy(after)
    _unit(wrong, (1, 3))["markers"] = 0  # a 3 missing a melee unit: the ranged hit number
    assert "attack_dice_and_hits" in magic.page.transition_problems(before, ("attack", (1, 2), (1, 3)), wrong)


def test_magic_joint_defence_takes_one_die_however_many_pikemen(magic):
    given = {"units": [{"side": "first", "type": "Chieftain", "cell": [2, 0]},
                       {"side": "second", "type": "King", "cell": [2, 5]},
                       {"side": "first", "type": "WolfRider", "cell": [2, 2]},
                       {"side": "second", "type": "Crusader", "cell": [2, 3]},
                       {"side": "second", "type": "Pikeman", "cell": [1, 3]},
                       {"side": "second", "type": "Pikeman", "cell": [3, 3]}], "faces": [6, 6]}
    before, after = _magic_step(magic, given, ("attack", (2, 2), (2, 3)))
    assert after["dice_rolled"] == 1 and magic.page.transition_problems(before, ("attack", (2, 2), (2, 3)), after) == []
    wrong = copy.deepcopy(after)
    wrong["dice_rolled"] = 0  # two Pikemen taking a die each
    _unit(wrong, (2, 3))["markers"] = 0
    assert "attack_dice_and_hits" in magic.page.transition_problems(before, ("attack", (2, 2), (2, 3)), wrong)


def test_magic_splash_rolls_for_enemies_in_the_ring_only(magic):
    given = {"units": [*CHIEFTAINS, {"side": "first", "type": "Thunderbird", "cell": [2, 2]},
                       {"side": "second", "type": "Ogre", "cell": [2, 3]},
                       {"side": "first", "type": "Goblin", "cell": [1, 3]},
                       {"side": "second", "type": "Goblin", "cell": [3, 3]}], "faces": [1, 1, 6]}
    action = ("attack", (2, 2), (2, 3))
    before, after = _magic_step(magic, given, action)
    assert after["dice_rolled"] == 3 and _unit(after, (3, 3))["markers"] == 1
    assert magic.page.transition_problems(before, action, after) == []
    wrong = copy.deepcopy(after)
    _unit(wrong, (1, 3))["markers"] = 1  # the friend hit by the splash
    assert magic.page.transition_problems(before, action, wrong) == ["splash_hits_enemies_in_the_ring"]


def test_magic_a_kill_stores_magic_for_the_acting_player(magic):
    given = {"units": [*CHIEFTAINS, {"side": "first", "type": "Goblin", "cell": [1, 2]},
                       {"side": "second", "type": "Goblin", "cell": [1, 3], "markers": 1}], "faces": [6]}
    action = ("attack", (1, 2), (1, 3))
    before, after = _magic_step(magic, given, action)
    assert after["players"][0]["stored_magic"] == 1 and magic.page.transition_problems(before, action, after) == []
    wrong = copy.deepcopy(after)
    wrong["players"][0]["stored_magic"], wrong["players"][1]["stored_magic"] = 0, 1
    assert "kill_magic_to_the_actor" in magic.page.transition_problems(before, action, wrong)


def test_magic_a_move_changes_only_the_movers_cell_and_the_turn_start_activates_magic(magic):
    given = {"units": [*CHIEFTAINS, {"side": "first", "type": "Goblin", "cell": [1, 2]}],
             "magic": {"second": [1, 2]}}
    before, after = _magic_step(magic, given, ("move", (1, 2), (1, 4)))
    assert magic.page.transition_problems(before, ("move", (1, 2), (1, 4)), after) == []
    wrong = copy.deepcopy(after)
    _unit(wrong, (2, 5))["cell"] = [2, 4]
    assert magic.page.transition_problems(before, ("move", (1, 2), (1, 4)), wrong) == ["move_follows_the_page"]
    before, after = _magic_step(magic, given, ("end",))
    assert after["players"][1]["active_magic"] == 3 and magic.page.transition_problems(before, ("end",), after) == []
    wrong = copy.deepcopy(after)
    wrong["players"][1]["active_magic"] = 1  # the stored magic kept waiting
    assert magic.page.transition_problems(before, ("end",), wrong) == ["turn_start_activates_stored_magic"]


# ---- Krypton Tower War --------------------------------------------------------------------------------------

def test_krypton_a_friendly_tower_cell_may_be_entered_and_the_page_agrees_with_the_offer(krypton):
    given = {"heroes": [{"side": "first", "cell": [-1, 2, -1]}], "towers": [{"side": "first", "kind": "Magic Tower",
                                                                              "cell": [0, 0, 0]}],
             "turn": {"side": "first", "points": 3}}
    m = krypton.example_match(given)
    snap = m.snapshot()
    assert ("step", 0, 0, 0) not in krypton.page.steps_by_the_page(snap)  # not adjacent
    given["heroes"][0]["cell"] = [-1, 1, 0]
    m = krypton.example_match(given)
    assert ("step", 0, 0, 0) in krypton.page.steps_by_the_page(m.snapshot())
    assert krypton.legal_problems(m.snapshot(), m.legal_actions()) == []


def test_krypton_an_archer_attacks_at_2_and_not_at_3(krypton):
    given = {"first_deck": "Archer+Warrior", "heroes": [{"side": "first", "cell": [-1, 1, 0]},
                                                        {"side": "second", "cell": [1, 1, -2]}],
             "turn": {"side": "first", "points": 0}}
    m = krypton.example_match(given)
    snap = m.snapshot()
    assert ("attack", 1, 1, -2) in krypton.page.attacks_by_the_page(snap)
    given["heroes"][1]["cell"] = [2, 1, -3]
    assert ("attack", 2, 1, -3) not in krypton.page.attacks_by_the_page(krypton.example_match(given).snapshot())


def test_krypton_entering_a_towers_range_costs_2_hp_and_the_cells_points(krypton):
    given = {"heroes": [{"side": "first", "cell": [-1, 1, 0]}],
             "towers": [{"side": "second", "kind": "Attack Tower", "cell": [1, 0, -1]}],
             "turn": {"side": "first", "points": 3}}
    action = ("step", 0, 1, -1)  # a river cell next to the tower: 3 points
    before, after = _step(krypton, given, action)
    hp = lambda snap: snap["sides"][0]["heroes"][0]["hp"]  # noqa: E731
    assert hp(after) == hp(before) - 2
    assert krypton.page.transition_problems(before, action, after) == []
    wrong = copy.deepcopy(after)
    wrong["sides"][0]["heroes"][0]["hp"] = hp(before)
    assert krypton.page.transition_problems(before, action, wrong) == ["step_costs_and_tower_hits"]


def test_krypton_dice_and_hand_limit_follow_the_towers(krypton):
    given = {"heroes": [{"side": "first", "cell": [-1, 1, 0]}],
             "towers": [{"side": "first", "kind": "Magic Tower", "cell": [-1, 0, 1]}],
             "turn": {"side": "first", "points": 0}}
    before, after = _step(krypton, given, ("end",))
    assert after["hand_limit"][0] == 4 and krypton.page.position_problems(after) == []
    wrong = copy.deepcopy(after)
    wrong["hand_limit"][0] = 3
    assert krypton.page.position_problems(wrong) == ["hand_limit_and_dice"]


def test_krypton_the_death_penalty_is_a_tenth_rounded_down(krypton):
    page = krypton.page

    def snap(states, energy):
        heroes = [[{"state": states[s]}] + [{"state": HS_BOARD}] * (page.team - 1) for s in (0, 1)]
        return {"sides": [{"heroes": heroes[s], "energy": energy[s]} for s in (0, 1)]}

    before = snap([HS_BOARD, HS_BOARD], [19, 0])
    assert page._penalty(before, snap([HS_DEAD, HS_BOARD], [18, 1]))
    assert not page._penalty(before, snap([HS_DEAD, HS_BOARD], [17, 2]))


# ---- the check ----------------------------------------------------------------------------------------------

@pytest.mark.parametrize("game", ["magic", "krypton"])
def test_the_restated_clauses_run_in_the_ci_check(game, tmp_path):
    """The clauses are among the game's invariants, edge positions are probed, and the base scenario passes."""
    from simkit.testing.rule_check import run_check

    report = run_check(ROOT / "scenarios" / game / "base.toml", profile="ci", out_dir=tmp_path)
    spec = MagicInvariants if game == "magic" else KryptonInvariants
    clauses = spec(simkit.load_scenario(ROOT / "scenarios" / game / "base.toml")).clauses
    assert set(clauses) <= set(report.invariants)
    assert report.probes >= 40 and report.passed, report.format()


def test_magic_relabelling_identical_units_and_the_seat_swapped_mirror_change_nothing(magic):
    """Two Goblins listed in the other order, and the board mirrored (c, r) -> (c, 5 - r) with the seats
    swapped, play the same (mirrored) game over the position's legal actions; an image that parts is named."""
    given = {"turn": 3, "units": [*CHIEFTAINS, {"side": "first", "type": "Goblin", "cell": [1, 2]},
                                  {"side": "first", "type": "Goblin", "cell": [3, 2], "markers": 1},
                                  {"side": "second", "type": "Ogre", "cell": [1, 3]},
                                  {"side": "second", "type": "Goblin", "cell": [3, 3]}], "faces": [6, 2, 5]}
    assert magic.metamorphic_problems(given, actions=40) == []
    picks = magic.example_match(given).legal_actions()
    attack = [a for a in picks if a[0] == "attack"][:1]
    assert attack and magic._differ(given, given, attack, lambda a: ("end",), lambda v: v)
