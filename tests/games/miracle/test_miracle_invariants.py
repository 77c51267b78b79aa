"""Tests for Battle of Miracles' own check invariants (artifact effects, garrisons, legal targets) and the
check that the utility bots offer exactly the rules' legal actions in a checked game.

Each invariant is shown to hold on a real action in a literal position, and to report a plausible
engine mistake (the state after the action edited as that mistake would leave it).
"""

import dataclasses

import numpy as np
import pytest
from miracle_positions import DRAGONS, MELEE, SHIELD, WIND, cell_of, place

from simkit.games.miracle import rules as R
from simkit.games.miracle.checking import rule_invariants as MI
from simkit.games.miracle.checking.checker import CheckedMatch
from simkit.games.miracle.checking.hooks import MiracleChecks
from simkit.games.miracle.checking.invariants import check_states, check_transitions
from simkit.games.miracle.state import COOLING, IN_USE


def broken_by(m, action, mistake=None):
    """Names of the game's transition invariants broken by ``action`` in ``m`` (``mistake`` edits the result)."""
    before = m.state.copy()
    act = m.encode(action)
    m.do(action)
    after = m.state.copy()
    if mistake is not None:
        mistake(after)
    return {v.invariant.name for v in check_transitions(m.rules, before, act, after, MI.TRANSITION_INVARIANTS)}


def state_broken(m):
    """Messages of the game's state invariants broken in ``m``'s position."""
    return [v.message for v in check_states(m.rules, m.state, MI.STATE_INVARIANTS)]


def slot(m, uid):
    return int(np.nonzero(m.state.alive[0] & (m.state.uid[0] == uid))[0][0])


# ----------------------------------------------------------------------------------------------
# garrisons


def test_a_garrison_goes_to_the_side_standing_on_it_even_when_the_other_side_acts(base):
    """A first-player Swordsman on the garrison (0,5,-5): the second player's turn start gives it to the first."""
    m = base.new_match(MELEE, WIND, seed=0)
    place(m, "Swordsman", (0, 5, -5))
    assert broken_by(m, ("end_turn",)) == set()
    assert m.snapshot()["garrisons"][(0, 5, -5)] == 0


def test_a_garrison_left_unclaimed_breaks_the_garrison_invariant(base):
    """The same turn start with the garrison left neutral (captured only by the side to act) is reported."""
    m = base.new_match(MELEE, WIND, seed=0)
    place(m, "Swordsman", (0, 5, -5))
    g = list(m.rules.board.garrisons).index(cell_of(m, (0, 5, -5)))

    def unclaimed(after):
        after.garrison_owner[0, g] = -1

    assert broken_by(m, ("end_turn",), unclaimed) == {"garrisons_follow_ground_units"}


def test_a_garrison_never_changes_hands_within_a_turn(base):
    """A move onto the garrison (0,5,-5) claims nothing until a turn start."""
    m = base.new_match(MELEE, WIND, seed=0)
    uid = place(m, "Swordsman", (0, 3, -3))
    g = list(m.rules.board.garrisons).index(cell_of(m, (0, 5, -5)))

    def claimed_at_once(after):
        after.garrison_owner[0, g] = 0

    assert broken_by(m, ("move", uid, (0, 5, -5)), claimed_at_once) == {"garrisons_follow_ground_units"}


# ----------------------------------------------------------------------------------------------
# artifacts


def holy_light_position(base):
    """First player (HolyLight) with 6 mana, a wounded Swordsman at (-2,2,0), an Archer two cells away at
    (-2,4,-2) and a Priest three cells away at (-5,2,3)."""
    m = base.new_match(MELEE, WIND, seed=0)
    m.state.mana[0, 0] = m.state.max_mana[0, 0] = 6
    sword = place(m, "Swordsman", (-2, 2, 0), hp=1)
    archer = place(m, "Archer", (-2, 4, -2), hp=1)
    priest = place(m, "Priest", (-5, 2, 3), hp=1)
    return m, sword, archer, priest


def test_holy_light_heals_and_buffs_friends_within_two_for_its_duration(base):
    """HolyLight on (-2,2,0): the Swordsman and the Archer (distance 2) are healed and buffed for 4 turn ends,
    the Priest at distance 3 is not."""
    m, sword, archer, priest = holy_light_position(base)
    assert broken_by(m, ("use", (-2, 2, 0))) == set()
    buff = {uid: int(m.state.buff[0, slot(m, uid)]) for uid in (sword, archer, priest)}
    assert buff == {sword: 4, archer: 4, priest: 0}


@pytest.mark.parametrize(
    "mistake",
    [
        lambda m, ids: m.buff.__setitem__((0, slot_in(m, ids[0])), 3),  # one turn short
        lambda m, ids: m.hp.__setitem__((0, slot_in(m, ids[2])), m.max_hp[0, slot_in(m, ids[2])]),  # too far
        lambda m, ids: m.hp.__setitem__((0, slot_in(m, ids[1])), 1),  # the Archer left wounded
    ],
    ids=["bonus one turn short", "priest three cells away healed", "archer two cells away not healed"],
)
def test_a_wrong_holy_light_breaks_the_artifact_invariant(base, mistake):
    """HolyLight's bonus one turn short, a unit beyond its radius healed, or one within it missed: each is reported."""
    m, *ids = holy_light_position(base)
    assert broken_by(m, ("use", (-2, 2, 0)), lambda after: mistake(after, ids)) == {"artifact_effects"}


def slot_in(st, uid):
    return int(np.nonzero(st.alive[0] & (st.uid[0] == uid))[0][0])


def test_wind_blessing_lets_friends_within_one_act_again(base):
    """WindBlessing on (-2,2,0) makes the Swordsman there and the one at (-2,3,-1) ready, not the one at (-2,4,-2);
    readying the far one too is reported."""
    m = base.new_match(WIND, MELEE, seed=0)
    m.state.mana[0, 0] = m.state.max_mana[0, 0] = 8
    near = [place(m, "Swordsman", c, ready=False) for c in ((-2, 2, 0), (-2, 3, -1))]
    far = place(m, "Swordsman", (-2, 4, -2), ready=False)
    again = m.state.copy()
    assert broken_by(m, ("use", (-2, 2, 0))) == set()
    assert [bool(m.state.ready[0, slot(m, u)]) for u in (*near, far)] == [True, True, False]
    m.state = again

    def far_too(after):
        after.ready[0, slot_in(after, far)] = True

    assert broken_by(m, ("use", (-2, 2, 0)), far_too) == {"artifact_effects"}


def test_salamander_shield_gives_its_bearer_hp_and_a_holy_shield(base):
    """SalamanderShield on a Swordsman gives +3 max HP, +3 HP and a holy shield; forgetting the shield is reported."""
    m = base.new_match(SHIELD, MELEE, seed=0)
    m.state.mana[0, 0] = m.state.max_mana[0, 0] = 6
    sword = place(m, "Swordsman", (-2, 2, 0))
    again = m.state.copy()
    assert broken_by(m, ("use", sword)) == set()
    u = slot(m, sword)
    assert (m.state.max_hp[0, u], m.state.hp[0, u], bool(m.state.shield[0, u])) == (5, 5, True)
    m.state = again

    def no_shield(after):
        after.shield[0, slot_in(after, sword)] = False

    assert broken_by(m, ("use", sword), no_shield) == {"artifact_effects"}


def test_inferno_flame_burns_enemies_within_two_and_raises_an_inferno(base):
    """InfernoFlame on (-2,2,0): the enemy Swordsman two cells away at (0,2,-2) takes 2, a friendly one next to the
    target is spared, an Inferno stands on the target; burning the friend too is reported."""
    m = base.new_match(DRAGONS, MELEE, seed=0)
    m.state.mana[0, 0] = m.state.max_mana[0, 0] = 8
    foe = place(m, "Swordsman", (0, 2, -2), side=1)
    friend = place(m, "FrostDragon", (-2, 3, -1))
    again = m.state.copy()
    assert broken_by(m, ("use", (-2, 2, 0))) == set()
    alive = {int(x) for x in m.state.uid[0, m.state.alive[0]]}
    assert foe not in alive and friend in alive  # the Swordsman's 2 HP burnt
    assert m.state.kind[0, m.state.alive[0] & (m.state.cell[0] == cell_of(m, (-2, 2, 0)))].tolist() == [
        m.rules.cards.inferno
    ]
    m.state = again

    def friend_burnt(after):
        after.hp[0, slot_in(after, friend)] -= 2

    assert broken_by(m, ("use", (-2, 2, 0)), friend_burnt) == {"artifact_effects"}


def test_inferno_flame_killing_the_enemys_shield_bearer_recycles_the_enemys_artifact(base):
    """InfernoFlame on (-2,2,0) burns the enemy's SalamanderShield bearer at (0,2,-2) (2 HP, shield already
    broken) to death: the enemy's SalamanderShield, in use, goes to cooling (found by the thorough check: the
    invariant had held the enemy's artifact fixed); leaving it in use is reported, by the artifact's check and the
    deaths' check."""
    m = base.new_match(DRAGONS, SHIELD, seed=0)
    m.state.mana[0, 0] = m.state.max_mana[0, 0] = 8
    bearer = place(m, "Swordsman", (0, 2, -2), side=1, hp=2)
    m.state.equipped[0, slot(m, bearer)] = True
    m.state.artifact_state[0, 1], m.state.artifact_cooldown[0, 1] = IN_USE, 0
    again = m.state.copy()
    assert broken_by(m, ("use", (-2, 2, 0))) == set()
    cooldown = m.rules.cards.artifact_cooldown[m.rules.cards.artifacts.index("SalamanderShield")]
    assert (int(m.state.artifact_state[0, 1]), int(m.state.artifact_cooldown[0, 1])) == (COOLING, cooldown)
    m.state = again

    def still_in_use(after):
        after.artifact_state[0, 1], after.artifact_cooldown[0, 1] = IN_USE, 0

    assert broken_by(m, ("use", (-2, 2, 0)), still_in_use) == {"artifact_effects", "deaths_follow_the_page"}


# ----------------------------------------------------------------------------------------------
# legal targets


def test_inferno_flame_targets_are_within_seven_of_the_own_miracle(base, monkeypatch):
    """The engine offers InfernoFlame cells at distance 7 of the first player's miracle (-7,7,0), such as (0,7,-7),
    and not (1,7,-8) at distance 8; a mask reaching 8 is reported naming such a cell, (-8,0,8)."""
    m = base.new_match(DRAGONS, MELEE, seed=0)
    m.state.mana[0, 0] = m.state.max_mana[0, 0] = 8
    cells, _ = R.use_mask(m.rules, m.state)
    assert cells[0, cell_of(m, (0, 7, -7))] and not cells[0, cell_of(m, (1, 7, -8))]
    assert state_broken(m) == []
    e = m.rules.cards.effect
    wide = {**e, "InfernoFlame": {**e["InfernoFlame"], "miracle_range": 8}}
    use_mask = R.use_mask
    wide_rules = dataclasses.replace(m.rules, cards=dataclasses.replace(m.rules.cards, effect=wide))
    monkeypatch.setattr(R, "use_mask", lambda rules, st: use_mask(wide_rules, st))
    messages = state_broken(m)
    assert messages and "InfernoFlame may target (-8, 0, 8)" in messages[0] and "against the rules" in messages[0]


def test_an_attack_out_of_range_offered_by_the_engine_is_reported(base, monkeypatch):
    """An Archer at (-2,2,0) may attack the enemy Swordsman at (-2,5,-3) (distance 3) but not at (-1,2,-1) (distance 1);
    an attack mask ignoring the minimum range is reported."""
    m = base.new_match(MELEE, WIND, seed=0)
    place(m, "Archer", (-2, 2, 0))
    place(m, "Swordsman", (-2, 5, -3), side=1)
    place(m, "Swordsman", (-1, 2, -1), side=1)
    assert state_broken(m) == []
    attack_mask = R.attack_mask

    def no_minimum(rules, st):
        cards = rules.cards
        lo = np.zeros_like(cards.range_min)
        return attack_mask(dataclasses.replace(rules, cards=dataclasses.replace(cards, range_min=lo)), st)

    monkeypatch.setattr(R, "attack_mask", no_minimum)
    messages = state_broken(m)
    assert messages and "may attack" in messages[0] and "(-1, 2, -1)" in messages[0]


# ----------------------------------------------------------------------------------------------
# the bots' offered actions against the rules' legal mask


def test_a_checked_game_of_the_sweeps_bot_keeps_its_offers_legal(base):
    """Forty actions of the sweeps' own bot in a checked game: every check holds, and at each position the
    bot offers exactly the actions the legal mask lists."""
    game = CheckedMatch(base, MELEE, DRAGONS, seed=3)
    hooks = game.hooks
    for i in range(40):
        game.play(hooks.bot_action(game.match, hooks.bots[0], i))
        game.check()
        assert hooks.legal_differences(game.match.state) == []
    assert game.stats.actions == 40


def test_bot_offers_that_differ_from_the_legal_mask_are_reported(base, monkeypatch):
    """Bots offering one action the legal mask refuses break bots_offer_the_legal_actions."""
    hooks = MiracleChecks(base)
    m = base.new_match(MELEE, DRAGONS, seed=0)
    assert hooks.legal_differences(m.state) == []
    offered = hooks.bot_offers

    def one_more(st):
        out = offered(st)
        out[:, 0] = True  # summon of deck slot 0, L1, on cell 0: no spawn point
        return out

    monkeypatch.setattr(hooks, "bot_offers", one_more)
    (g, message), = hooks.legal_differences(m.state)
    assert g == 0 and "summon(0, 1, 0)" in message


# ----------------------------------------------------------------------------------------------
# moves, deaths, and what an action leaves alone


def test_moves_are_listed_again_from_the_page(base, monkeypatch):
    """A Swordsman at (2,-4,2) beside an enemy at (3,-3,0) may stop at (4,-4,0) but not go on to (5,-4,-1): the
    engine's moves match the page's; a mask that lets enemies never stop a move is reported, naming the cell."""
    m = base.new_match(MELEE, SHIELD, seed=0)
    uid = place(m, "Swordsman", (2, -4, 2))
    place(m, "Swordsman", (3, -3, 0), side=1)
    want = MI.expected_moves(m.rules, m.state)[0, slot(m, uid)]
    assert want[cell_of(m, (4, -4, 0))] and not want[cell_of(m, (5, -4, -1))]
    assert state_broken(m) == []
    move_mask = R.move_mask

    def unstopped(rules, st):
        out = move_mask(rules, st).copy()
        out[0, slot(m, uid), cell_of(m, (5, -4, -1))] = True
        return out

    monkeypatch.setattr(R, "move_mask", unstopped)
    messages = state_broken(m)
    assert messages and "may move to (5, -4, -1) against the rules" in messages[0]


def test_a_dead_units_slot_cools_for_exactly_its_cooldown(base):
    """An L1 Swordsman (cooldown 2) dying on its counter-attack cools 2 turns; a slot put one turn short is
    reported by the deaths' check."""
    m = base.new_match(MELEE, SHIELD, seed=0)
    me = place(m, "Swordsman", (2, -4, 2))
    big = place(m, "Swordsman", (3, -4, 1), side=1, level=3)
    again = m.state.copy()
    assert broken_by(m, ("attack", me, big)) == set()
    m.state = again

    def one_short(after):
        after.cooling[0, 0, 2, 1], after.cooling[0, 0, 2, 2] = after.cooling[0, 0, 2, 2], 0

    assert "deaths_follow_the_page" in broken_by(m, ("attack", me, big), one_short)


@pytest.mark.parametrize("mistake", ["other_unit_ready_again", "mover_ready", "bystander_moved"])
def test_an_action_that_touches_another_unit_is_reported(base, mistake):
    """A move of the Swordsman at (2,-4,2) leaves the Archer at (-3,3,0) as it was; a move that lets another unit
    act again, leaves the mover ready, or moves a bystander is reported."""
    m = base.new_match(MELEE, SHIELD, seed=0)
    mover = place(m, "Swordsman", (2, -4, 2))
    other = place(m, "Archer", (-3, 3, 0), ready=False)
    again = m.state.copy()
    assert broken_by(m, ("move", mover, (3, -4, 1))) == set()
    m.state = again
    u, o = slot(m, mover), slot(m, other)

    def edit(after):
        if mistake == "other_unit_ready_again":
            after.ready[0, o] = True
        elif mistake == "mover_ready":
            after.ready[0, u] = True
        else:
            after.cell[0, o] = cell_of(m, (-3, 4, -1))

    assert "actions_touch_only_their_units" in broken_by(m, ("move", mover, (3, -4, 1)), edit)
