"""Magic War's summon as the page says (issue 52, item 2): 8.2 allows a summon whenever the summoner's 3x3 has an
empty cell and the magic is paid, however many units the game has seen. The engine once kept every unit ever
placed in 48 places and refused the 49th (seen in an Undead mirror on turn 49); it now reuses a dead unit's place
once every place has been taken, and there is always one (state.MAX_UNITS: fewer units are alive than places)."""

from __future__ import annotations

import hypothesis.strategies as st
from hypothesis import given

from simkit.games.kits.state import place
from simkit.games.magic.state import ALIVE, DEAD, MAX_UNITS
from simkit.games.magic.transitions import MagicPage
from tests.magic_positions import position, scenario

UNDEAD = [(0, "UndeadLeader", (2, 0)), (1, "UndeadLeader", (2, 5))]


def with_dead(m, places: int, card: str = "Skeleton") -> None:
    """Fill the unit places after the live units of ``m`` with dead units of ``card`` up to ``places`` in use."""
    t = m.rules.type_id(card)
    g = m.state
    for i in range(int(g.places), places):
        place(g.units[i], {"type": t, "side": i % 2, "cell": 0, "status": DEAD, "markers": 2, "summoned": i % 3 == 0})
    g.places = places


def summon(m):
    """The first player's leader raises a Spirit on (3, 1), paying its 2 magic."""
    m.do(("skill", (2, 0), (3, 1), 0))


def test_a_summon_past_the_old_limit_of_48_places():
    """8.2 [R32]: with 48 places taken (the old table full: two leaders, armies and 28 summons, most dead) the
    summon is legal, takes place 48 and the Spirit acts at once."""
    m = position(UNDEAD + [(0, "Zombie", (2, 1))], magic=((2, 0), (0, 0)))
    with_dead(m, 48)
    assert ("skill", (2, 0), (3, 1), 0) in m.legal_actions()
    summon(m)
    assert m.type_at(3, 1) == "Spirit" and int(m.state.board[m.rules.cell(3, 1)]) - 1 == 48
    assert int(m.state.places) == 49 and int(m.state.sides[0].summons) == 1
    m.do(("move", (3, 1), (3, 3)))
    assert m.type_at(3, 3) == "Spirit"


def test_with_every_place_taken_a_summon_reuses_a_dead_units_place():
    """With all 64 places in use, the summoned unit takes the first dead unit's place, wholly new: no markers,
    its own card and side, summoned, alive; the dead unit's record is gone and nothing else changes."""
    m = position(UNDEAD + [(1, "Wraith", (0, 3), 1)], magic=((2, 0), (0, 0)))
    with_dead(m, MAX_UNITS)
    before = m.snapshot()
    summon(m)
    g = m.state
    spirit = g.units[3]  # the first dead place
    assert (m.rules.types[int(spirit.type)], int(spirit.side), int(spirit.status), int(spirit.markers),
            int(spirit.summoned)) == ("Spirit", 0, ALIVE, 0, 1)
    assert int(g.places) == MAX_UNITS and int(g.board[m.rules.cell(3, 1)]) == 4 and m.hp_at(3, 1) == 1
    after = m.snapshot()
    others = [i for i in range(MAX_UNITS) if i not in (0, 3)]  # all but the summoner and the new Spirit
    assert [after["units"][i] for i in others] == [before["units"][i] for i in others]
    assert m.hp_at(0, 3) == 2 and ("move", (3, 1), (3, 3)) in m.legal_actions()


def test_the_undead_mirror_that_met_the_old_limit_plays_on():
    """The game where the 49th unit place was once refused (an Undead mirror of the base pool, 28 summons by turn
    40) now summons past it: more than 48 units in all, every action legal through the Match."""
    sc = scenario()
    first, second, seed = "Undead:Skeleton*6,Zombie*3", "Undead:Skeleton*5,Zombie*4", 3655611777242761252
    out = sc.game.play_batch([first], [second], [seed], ("balanced", "balanced"), record_actions=True)
    units = 2 + 9 + 9 + out["first_summons"][0] + out["second_summons"][0]
    assert units > 48 and out["end_reason"][0] == "leader"
    m = sc.game.replay(first, second, out["action_list"][0], seed=seed)
    assert m.over and m.winner == out["winner"][0]


cells = st.tuples(st.integers(0, 4), st.integers(0, 5))


@st.composite
def summon_positions(draw):
    """An Undead position: both leaders, a few units of either side, dead places up to any count, magic, cards in
    hand, the first leader's skill and attack flags as a turn may leave them."""
    taken = {(2, 0), (2, 5)}
    units = list(UNDEAD)
    if draw(st.booleans()):  # the first leader elsewhere
        cell = draw(cells.filter(lambda c: c not in taken))
        taken.discard((2, 0))
        units[0] = (0, "UndeadLeader", cell)
        taken.add(cell)
    for _ in range(draw(st.integers(0, 12))):
        cell = draw(cells)
        if cell in taken:
            continue
        taken.add(cell)
        units.append((draw(st.integers(0, 1)), draw(st.sampled_from(["Spirit", "Skeleton", "Zombie", "Wraith"])), cell))
    places = draw(st.integers(len(units), MAX_UNITS))
    return {"units": units, "places": places, "magic": draw(st.integers(0, 3)), "hand": draw(st.integers(0, 2)),
            "skilled": draw(st.booleans()), "attacked": draw(st.booleans())}


@given(summon_positions())
def test_a_summon_is_legal_exactly_when_the_page_allows_it(p):
    """8.2, B.1 summon, 7.3 [R24]: over random positions (any number of dead places), the summons the engine offers
    are exactly those the page allows (transitions.MagicPage: its slot unused, its 2 magic paid by active magic and
    cards, an empty cell of the leader's 3x3), and each offered one is done."""
    m = position(p["units"], magic=((p["magic"], 0), (0, 0)), hands=(p["hand"], 0))
    with_dead(m, p["places"])
    leader = m.state.units[0]
    leader.skilled, leader.attacked = int(p["skilled"]), int(p["attacked"])
    page = MagicPage(scenario().data)
    offered = {a for a in m.legal_actions() if a[0] == "skill"}
    allowed = page.skill_uses_by_the_page(m.snapshot())
    assert offered == allowed
    lx, ly = p["units"][0][2]
    free = [(c, r) for c in range(lx - 1, lx + 2) for r in range(ly - 1, ly + 2) if 0 <= c < 5 and 0 <= r < 6
            and (c, r) != (lx, ly) and m.unit_at(c, r) is None]
    slot_free = not p["skilled"]
    paid = [k for k in range(3) if k <= p["hand"] and 2 - k <= p["magic"]]
    assert {a[2] for a in offered} == (set(free) if slot_free and paid else set())
    for action in sorted(offered)[:2]:
        trial = m.clone()
        trial.do(action)
        assert trial.type_at(*action[2]) == "Spirit"
