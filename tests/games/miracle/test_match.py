"""The single-match facade: illegal actions, unit ids, replays and legal_actions against do."""

import json
import random

import pytest
from miracle_positions import DRAGONS, MELEE, SHIELD, WIND, place, set_mana

from simkit import IllegalAction, ScenarioError
from simkit.games.miracle.match import Match

LINE = [(2 + k, -4, 2 - k) for k in range(6)]  # LINE[i] and LINE[j] are |i - j| apart


def clone(m: Match) -> Match:
    """A new match of the same decks holding a copy of ``m``'s state."""
    other = Match(m.scenario, *m.decks, seed=m.seed)
    other.state = m.state.copy()
    return other


def random_play(m: Match, seed: int, actions: int) -> None:
    """Play ``actions`` random legal actions (ending the turn one time in five)."""
    rng = random.Random(seed)
    for _ in range(actions):
        if m.over:
            return
        legal = m.legal_actions()
        m.do(("end_turn",) if rng.random() < 0.2 else rng.choice(legal))


@pytest.fixture
def position(base):
    """Turn 3: the first player's Swordsman and Priest may act; the second player has a Swordsman and a bat."""
    m = base.new_match(MELEE, SHIELD)
    sword = m.summon("Swordsman", 1, (-6, 6, 0))
    m.end_turn()
    enemy = m.summon("Swordsman", 1, (6, -6, 0))
    m.end_turn()
    priest = place(m, "Priest", LINE[0])
    bat = place(m, "BlackBat", LINE[4], side=1)
    far = place(m, "Swordsman", (0, 6, -6), side=1)
    return m, {"sword": sword, "enemy": enemy, "priest": priest, "bat": bat, "far": far}


ILLEGAL = [
    ("end_turn", "not an action tuple"),
    (("fly",), "unknown action 'fly'"),
    (("move", "sword"), "move takes 2 argument"),
    (("summon", "Dragon", 1, (-6, 7, -1)), "unknown creature kind"),
    (("summon", "BlackBat", 1, (-6, 7, -1)), "not in the current player's deck"),
    (("summon", "Archer", 4, (-6, 7, -1)), "level must be 1, 2 or 3"),
    (("summon", "Archer", 1, (9, 9, -18)), "not on the board"),
    (("summon", "Archer", 1, "spawn"), "is not a cell"),
    (("summon", "Archer", 1.0, (-6, 7, -1)), "level must be 1, 2 or 3"),
    (("summon", "Archer", 1, (-6.4, 7.2, -0.8)), "is not a cell"),
    (("move", "sword", (-5.0, 5.0, 0.0)), "is not a cell"),
    (("summon", "Archer", 2, (-6, 7, -1)), "costs 4 mana, the player has 2"),
    (("summon", "Archer", 1, (0, 0, 0)), "not one of the current player's spawn points"),
    (("summon", "Swordsman", 1, (-6, 6, 0)), "already holds a ground unit"),
    (("move", 99, (-5, 5, 0)), "no unit with id 99"),
    (("move", True, (-5, 5, 0)), "is not a unit id"),
    (("move", "enemy", (5, -5, 0)), "belongs to the other player"),
    (("move", "sword", (0, 6, -6)), "no legal path of at most 3 steps"),
    (("attack", "sword", "far"), "not within range 1-1"),
    (("attack", "sword", "miracle"), "enemy miracle is not within range"),
    (("attack", "sword", "priest"), "is a friendly unit"),
    (("attack", "priest", "bat"), "has attack 0"),
    (("use", (0, 0, 0)), "HolyLight costs 6 mana, the player has 2"),
]


@pytest.mark.parametrize("action, reason", ILLEGAL)
def test_illegal_action_raises_with_a_reason_and_changes_nothing(position, action, reason):
    """Each illegal action raises IllegalAction naming the reason and leaves the game unchanged."""
    m, ids = position
    if isinstance(action, tuple):  # unit names of the position -> their ids
        action = tuple(ids.get(x, x) if isinstance(x, str) else x for x in action)
    before, history = m.snapshot(), list(m.actions)
    with pytest.raises(IllegalAction, match=reason):
        m.do(action)
    assert m.snapshot() == before
    assert m.actions == history


def test_unit_already_spent_cannot_act(position):
    """A unit that has moved this turn is refused a second action, and the game is unchanged."""
    m, ids = position
    m.move(ids["sword"], (-5, 5, 0))
    before = m.snapshot()
    with pytest.raises(IllegalAction, match="cannot act any more this turn"):
        m.move(ids["sword"], (-4, 4, 0))
    assert m.snapshot() == before


def test_artifact_states_are_named_when_refused(base):
    """Using a cooling artifact, or an in-use one, is refused with the artifact's state."""
    m = base.new_match(WIND, SHIELD)
    set_mana(m, 8)
    m.use((0, 0, 0))
    set_mana(m, 8)
    with pytest.raises(IllegalAction, match=r"WindBlessing is cooling \(12 turns left\)"):
        m.use((0, 0, 0))
    m2 = base.new_match(DRAGONS, SHIELD)
    set_mana(m2, 16)
    m2.use((-3, 4, -1))
    with pytest.raises(IllegalAction, match="InfernoFlame is in use"):
        m2.use((-3, 5, -2))
    m3 = base.new_match(MELEE, SHIELD)
    set_mana(m3, 6)
    with pytest.raises(IllegalAction, match="targets a cell"):
        m3.use(1)


def test_illegal_deck_is_refused_with_its_name(base):
    """A match with an illegal deck raises ScenarioError naming the deck."""
    with pytest.raises(ScenarioError, match="Swordsman"):
        base.new_match("HolyLight:Archer,Swordsman,Swordsman", SHIELD)


def test_unit_ids_increase_by_appearance_and_are_never_reused(base):
    """Every unit, the Inferno included, gets the next id; ids of dead units are not given again."""
    m = base.new_match(DRAGONS, MELEE)
    set_mana(m, 20)
    a = m.summon("BlackBat", 1, (-6, 6, 0))
    b = m.summon("FrostDragon", 1, (-7, 6, 1))
    m.use((-3, 4, -1))
    inferno = max(u["id"] for u in m.snapshot()["units"])
    m.end_turn()
    set_mana(m, 4)
    c = m.summon("Swordsman", 1, (6, -6, 0))
    assert [a, b, inferno, c] == [1, 2, 3, 4]
    m.end_turn()
    enemy = place(m, "Swordsman", (-6, 7, -1), side=1)
    m.attack(b, enemy)
    assert enemy == 5 and all(u["id"] != enemy for u in m.snapshot()["units"])
    set_mana(m, 2)
    assert m.summon("BlackBat", 1, (-6, 7, -1)) == 6
    m.end_turn()
    set_mana(m, 2)
    assert m.summon("Swordsman", 1, (6, -7, 1)) == 7
    assert [u["id"] for u in m.snapshot()["units"]] == [a, b, inferno, c, 6, 7]


def test_replay_of_the_recorded_actions_gives_the_same_game(base):
    """scenario.game.replay(decks, m.actions) rebuilds the same snapshot, also from JSON-decoded actions."""
    m = base.new_match(MELEE, DRAGONS, seed=7)
    random_play(m, seed=7, actions=250)
    assert len(m.actions) == 250 or m.over
    again = base.game.replay(MELEE, DRAGONS, m.actions, seed=7)
    assert again.snapshot() == m.snapshot()
    decoded = json.loads(json.dumps(m.actions))
    assert base.game.replay(MELEE, DRAGONS, decoded).snapshot() == m.snapshot()


def test_replay_names_the_first_illegal_action(base):
    """A replay stops at an illegal action and names its index."""
    with pytest.raises(IllegalAction, match=r"action 1 \('move', 1, \(0, 0, 0\)\)"):
        base.game.replay(MELEE, DRAGONS, [("summon", "Swordsman", 1, (-6, 6, 0)), ("move", 1, (0, 0, 0))])


@pytest.mark.parametrize("deck, seed, actions", [(MELEE, 1, 0), (DRAGONS, 2, 60), (SHIELD, 3, 120), (WIND, 4, 200)])
def test_every_listed_legal_action_is_accepted(base, deck, seed, actions):
    """In a few played positions, do accepts every action legal_actions lists."""
    m = base.new_match(deck, MELEE)
    random_play(m, seed, actions)
    set_mana(m, 12)
    legal = m.legal_actions()
    assert ("end_turn",) in legal
    for action in legal:
        clone(m).do(action)


def test_summons_and_moves_outside_legal_actions_are_refused(base):
    """legal_actions lists exactly the summons and moves do accepts: every other one is refused."""
    m = base.new_match(SHIELD, DRAGONS)
    random_play(m, 5, 90)
    set_mana(m, 12)
    legal = set(m.legal_actions())
    grid = m.rules.board.grid
    cur = m.current
    kinds = m.snapshot()["players"][cur]["deck"].split(":")[1].split(",")
    units = [u["id"] for u in m.snapshot()["units"] if u["side"] == cur]
    candidates = [("summon", k, lv, grid.cell(c)) for k in kinds for lv in (1, 2, 3) for c in range(grid.size)]
    candidates += [("move", u, grid.cell(c)) for u in units for c in range(grid.size)]
    for action in candidates:
        try:
            m.encode(action)
            accepted = True
        except IllegalAction:
            accepted = False
        assert accepted == (action in legal), action
