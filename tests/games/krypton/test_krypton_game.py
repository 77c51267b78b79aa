"""Krypton Tower War through the game interface: the scenario and its errors, loadouts, api_test, the
Match facade (decisions owed by the side that is not acting), seeded randomness independent of the
batch, invariants, narrate and pictures; the bots' targets are slow tests."""

from __future__ import annotations

import pytest
from krypton_positions import BASE, dice, new, put, scenario, tower, turn

from simkit.core.errors import IllegalAction, ScenarioError
from simkit.games import get_game
from simkit.games.krypton.batch import SIDE_COLUMNS, play_batch
from simkit.games.krypton.invariants import KryptonInvariants
from simkit.games.krypton.tables import all_decks
from simkit.scenario import load_scenario
from simkit.testing.api import api_test


def _patched(tmp_path, old: str, new_text: str):
    text = BASE.read_text()
    assert old in text
    p = tmp_path / "patched.toml"
    p.write_text(text.replace(old, new_text))
    return p


def test_base_scenario_loads_with_six_loadouts_in_canonical_order():
    """The default team size 2 gives the page's 6 loadouts, classes in alphabetical order joined by '+'."""
    sc = scenario()
    assert sc.decks == ("Archer+Archer", "Archer+Knight", "Archer+Warrior", "Knight+Knight", "Knight+Warrior",
                        "Warrior+Warrior")
    assert sc.canonical_deck("Warrior + Archer") == "Archer+Warrior"
    assert sc.game.deck_cards("Knight+Archer") == {"class": ("Archer", "Knight")}
    assert sc.game.deck_cards("Archer+Archer") == {"class": ("Archer",)}


@pytest.mark.parametrize("size, count", [(1, 3), (2, 6), (3, 7), (4, 6), (5, 3), (6, 1)])
def test_loadouts_by_team_size_3_6_7_6_3_1(tmp_path, size, count):
    """team_size 1..6 gives 3, 6, 7, 6, 3, 1 legal loadouts (at most 2 of a class)."""
    sc = load_scenario(_patched(tmp_path, "team_size = 2 ", f"team_size = {size} "))
    assert len(sc.decks) == count and len(all_decks(sc.rules)) == count


def test_team_size_beyond_six_is_refused_with_file_key_problem(tmp_path):
    """team_size 7 is refused at load, naming the file and the key."""
    with pytest.raises(ScenarioError, match=r"patched.toml: rules.team_size: must be at most"):
        load_scenario(_patched(tmp_path, "team_size = 2 ", "team_size = 7 "))


def test_unknown_key_and_bad_cell_are_refused(tmp_path):
    """A misspelt key and an off-board cell are refused at load with file: key: problem."""
    with pytest.raises(ScenarioError, match=r"rules.knight_bonuss: unknown key"):
        load_scenario(_patched(tmp_path, "knight_bonus = ", "knight_bonuss = "))
    with pytest.raises(ScenarioError, match=r"map.hill: cell \[-9, 1, 8\] is off the board"):
        load_scenario(_patched(tmp_path, "hill = [[-2, 1, 1]", "hill = [[-9, 1, 8]"))


def test_a_loadout_with_three_of_a_class_or_the_wrong_size_is_refused(tmp_path):
    """Loadouts hold team_size classes, at most 2 of one."""
    three = load_scenario(_patched(tmp_path, "team_size = 2 ", "team_size = 3 "))
    with pytest.raises(ScenarioError, match="at most 2"):
        three.canonical_deck("Archer+Archer+Archer")
    sc = scenario()
    with pytest.raises(ScenarioError, match="team size is 2"):
        sc.canonical_deck("Archer")
    with pytest.raises(ScenarioError, match="unknown class 'Mage'"):
        sc.canonical_deck("Archer+Mage")


def test_the_game_is_registered_and_declares_its_schema():
    """get_game('krypton') gives the game; the schema has end reasons base/turn_limit (and the authored end rules'
    sudden_death and lock, the lock declared as its lock reason) and the usage columns."""
    g = get_game("krypton")
    assert set(g.schema.end_reasons) == {"base", "turn_limit", "sudden_death", "lock"}
    assert g.schema.cap_reason == "turn_limit" and g.schema.lock_reasons == ("lock",)
    for col in ("towers_built", "cards_played", "revivals", "energy_mined", "heroes_lost", "card_satans_pact"):
        assert col in g.schema.side_columns
    assert scenario().game.turn_limit == 50


def test_api_test_passes_with_random_and_utility_bots():
    """simkit.testing.api_test: batch = alone, replays rebuild, illegal actions refused, schema, turn cap."""
    assert api_test(BASE, games=4)["games"] == 4
    assert api_test(BASE, games=2, seed=3, bots=("balanced", "random"))["illegal_probes"] > 0


def test_a_game_record_does_not_depend_on_its_batch():
    """The same game played alone and inside a batch of three gives the same record (a figure with no value, NaN,
    in both)."""
    sc = scenario()
    many = play_batch(sc, ["Archer+Knight", "Knight+Warrior", "Archer+Archer"],
                      ["Warrior+Warrior", "Archer+Knight", "Knight+Knight"], [11, 12, 13], ("random", "random"))
    one = play_batch(sc, ["Knight+Warrior"], ["Archer+Knight"], [12], ("random", "random"))
    nan = "NaN"  # NaN is not equal to itself: compared as a word
    assert {k: nan if v[1] != v[1] else v[1] for k, v in many.items()} == \
        {k: nan if v[0] != v[0] else v[0] for k, v in one.items()}


def test_different_seeds_give_different_games():
    """Dice and shuffles come from the seed: two seeds give two games."""
    sc = scenario()
    r = play_batch(sc, ["Archer+Knight"] * 2, ["Archer+Knight"] * 2, [1, 2], ("random", "random"), record_actions=True)
    assert r["action_list"][0] != r["action_list"][1]


def test_match_to_act_follows_the_decision_owed_not_the_turn():
    """Match.to_act is the defender in a counter window and the dead hero's side for its revival."""
    sc = scenario()
    m = sc.new_match("Warrior+Warrior", "Warrior+Warrior", seed=0)
    put(m, 0, 0, (0, 0, 0))
    put(m, 1, 0, (1, -1, 0), hp=1)
    m.set_hand(1, ["Unyielding Will"])
    turn(m, 0, 0, 0)
    dice(m, 6, 1)
    m.do(("attack", 1, -1, 0))
    assert (m.side, m.to_act) == (0, 1)
    with pytest.raises(IllegalAction):
        m.do(("end",))
    m.do(("pass",))
    assert (m.side, m.to_act) == (0, 1) and m.legal_actions() == [("revive", "base"), ("revive", "place")]
    m.do(("revive", "place"))
    assert m.to_act == 0 and m.actions == [("attack", 1, -1, 0), ("pass",), ("revive", "place")]


def test_replay_rebuilds_a_bot_game_and_refuses_a_bad_action():
    """replay() rebuilds a recorded game; a wrong action is refused with its index."""
    sc = scenario()
    r = play_batch(sc, ["Archer+Warrior"], ["Knight+Knight"], [4], ("balanced", "random"), record_actions=True)
    m = sc.game.replay("Archer+Warrior", "Knight+Knight", r["action_list"][0], seed=4)
    assert m.over and m.winner == r["winner"][0]
    with pytest.raises(IllegalAction, match="action 0"):
        sc.game.replay("Archer+Warrior", "Knight+Knight", [("gather",)], seed=4)


def test_invariants_hold_through_random_and_bot_games():
    """Every invariant holds after every action of random and utility games."""
    sc = scenario()
    inv = KryptonInvariants(sc)
    for bots, seed in ((("random", "random"), 1), (("balanced", "random"), 2)):
        r = play_batch(sc, ["Archer+Knight"], ["Knight+Warrior"], [seed], bots, record_actions=True)
        m = sc.new_match("Archer+Knight", "Knight+Warrior", seed=seed)
        before = m.snapshot()
        assert inv.invariants(None, None, before) == []
        for a in r["action_list"][0]:
            m.do(a)
            after = m.snapshot()
            assert inv.invariants(before, a, after) == [], a
            before = after


@pytest.mark.parametrize("break_it, name", [
    (lambda g: g.place({"sides": {0: {"heroes": {0: {"hp": 9}}}}}), "hp_bounds"),
    (lambda g: g.place({"sides": {1: {"energy": -1}}}), "energy_nonnegative"),
    (lambda g: g.place({"stock": {g.index_of(-4, 4, 0): 0}}), "vein_stock"),
    (lambda g: put(g, 0, 1, (-3, -3, 6)), "one_hero_per_cell"),
    (lambda g: put(g, 0, 0, (-6, 3, 3)), "hero_cells"),
    (lambda g: tower(g, 0, "Magic Tower", (-2, 2, 0)), "tower_cells"),
    (lambda g: g.set_hand(0, ["Curse"] * 4), "hand_limit"),
])
def test_each_invariant_catches_its_break(break_it, name):
    """A state broken on purpose is named by the matching invariant."""
    g = new()
    inv = KryptonInvariants(scenario())
    before = g.snapshot()
    break_it(g)
    assert name in inv.invariants(before, None, g.snapshot())


def test_narrate_tells_counter_cards_and_revival_choices_as_the_deciding_side():
    """The text log names the side that played a counter card and made a revival choice."""
    sc = scenario()
    m = sc.new_match("Warrior+Warrior", "Warrior+Warrior", seed=0)
    lines = sc.game.capability("narrate")("Warrior+Warrior", "Warrior+Warrior", [("end",), ("end",)], seed=0)
    assert lines[0].startswith("Krypton Tower War, seed 0") and any("round 1" in x for x in lines)
    del m
    r = play_batch(sc, ["Archer+Knight"], ["Knight+Warrior"], [5], ("balanced", "balanced"), record_actions=True)
    text = "\n".join(sc.game.capability("narrate")("Archer+Knight", "Knight+Warrior", r["action_list"][0], seed=5))
    assert "chooses:" in text and "game over after" in text


def test_render_game_writes_a_png_and_a_gif(tmp_path):
    """render_game draws the hex map: a PNG of the final board and a GIF with one frame per hero turn."""
    sc = scenario()
    actions = [("end",)] * 4
    assert sc.game.capability("draw")("Archer+Knight", "Warrior+Warrior", actions, tmp_path / "b.png") == 1
    n = sc.game.capability("draw")("Archer+Knight", "Warrior+Warrior", actions, tmp_path / "b.gif")
    assert n == 5 and (tmp_path / "b.gif").stat().st_size > 1000 and (tmp_path / "b.png").read_bytes()[:4] == \
        b"\x89PNG"
    with pytest.raises(ValueError):
        sc.game.capability("draw")("Archer+Knight", "Warrior+Warrior", actions, tmp_path / "b.svg")
    assert not (tmp_path / "b.svg").exists()


def test_results_hold_every_declared_column():
    """play_batch returns the core columns and first_/second_ of every side column."""
    sc = scenario()
    r = play_batch(sc, ["Archer+Knight"], ["Knight+Warrior"], [3], ("random", "balanced"))
    assert set(r) == set(sc.game.columns())
    assert len(SIDE_COLUMNS) == len([c for c in r if c.startswith("first_") and c[6:] in SIDE_COLUMNS])


def test_a_seats_view_hides_the_other_hand_and_its_clones_step_decisions_of_either_side():
    """A search starts from ``Match.view_of``: the other side's hand dealt again from unseen cards, the dice
    re-keyed; a clone steps on its own and follows to_act through a counter window."""
    sc = scenario()
    m = sc.new_match("Warrior+Warrior", "Warrior+Warrior", seed=0)
    m.set_hand(1, ["Curse", "Pursuit"])
    root = m.view_of(0)
    assert len(root.hand(1)) == 2 and sorted(root.hand(1) + root.pile()) == sorted(m.hand(1) + m.pile())
    assert root.hand(0) == m.hand(0) and root.state.key != m.state.key
    put(root, 0, 0, (0, 0, 0))
    put(root, 1, 0, (1, -1, 0))
    root.set_hand(1, ["Curse"])
    turn(root, 0, 0, 0)
    child = root.clone()
    child.do(("attack", 1, -1, 0))
    assert child.to_act == 1 and ("pass",) in child.legal_actions() and root.to_act == 0
    assert child.value(0) == 0.0 and not child.over


@pytest.mark.slow
def test_utility_bots_beat_random_at_least_95_percent():
    """balanced against random over every loadout pairing, both seat orders: >= 95% wins."""
    sc = scenario()
    decks = list(sc.decks)
    first = [a for a in decks for b in decks]
    second = [b for a in decks for b in decks]
    w1 = play_batch(sc, first, second, list(range(36)), ("balanced", "random"))["winner"]
    w2 = play_batch(sc, first, second, list(range(36, 72)), ("random", "balanced"))["winner"]
    wins = w1.count("first") + w2.count("second")
    assert wins / 72 >= 0.95


@pytest.mark.slow
def test_utility_mirrors_end_by_a_destroyed_base_at_least_half_the_time():
    """balanced against balanced over every loadout pairing: >= 50% of games end by a destroyed base."""
    sc = scenario()
    decks = list(sc.decks)
    first = [a for a in decks for b in decks]
    second = [b for a in decks for b in decks]
    ends = play_batch(sc, first, second, list(range(36)), ("balanced", "balanced"))["end_reason"]
    assert ends.count("base") / 36 >= 0.5


def test_utility_bot_decisions_are_blind_to_the_other_hand_and_the_pile():
    """Hands are hidden (rules page section 10): swapping the other side's hand for unseen cards and
    reordering the pile never changes a utility bot's decision."""
    from simkit.games.krypton.bots import Utility, read_bots

    sc = scenario()
    pers = read_bots(str(sc.path), sc.data)["balanced"]
    r = play_batch(sc, ["Archer+Knight"], ["Knight+Warrior"], [9], ("balanced", "balanced"), record_actions=True)
    m = sc.new_match("Archer+Knight", "Knight+Warrior", seed=9)
    checked = 0
    for k, a in enumerate(r["action_list"][0]):
        if k % 5 == 0:
            g = m
            seat = g.to_act
            other = 1 - seat
            unseen = g.hand(other) + g.pile()
            alt = g.clone()
            n = len(g.hand(other))
            alt.set_hand(other, unseen[::-1][:n])
            alt.set_pile(unseen[::-1][n:])
            legal = g.legal_actions()
            assert alt.legal_actions() == legal
            assert Utility(pers, seat, 9).choose(g, legal) == Utility(pers, seat, 9).choose(alt, legal)
            checked += 1
        m.do(a)
    assert checked > 20


# ---- the rules are written once: one engine, two speeds ------------------------------------------------------

def test_uncompiled_rules_and_bots_play_the_same_games():
    """The same source runs compiled and, under NUMBA_DISABLE_JIT=1, as plain Python: the same games (every
    column, the experience figures among them, and every action), for a balanced mirror and a random bot against a
    hunter."""
    import json
    import os
    import subprocess
    import sys

    games = (["Archer+Knight", "Knight+Warrior"], ["Warrior+Warrior", "Archer+Archer"], [3, 4])
    root = BASE.parents[2]
    code = (
        "import json; from simkit.scenario import load_scenario;"
        "from simkit.games.krypton.batch import play_batch;"
        f"sc = load_scenario({str(BASE)!r}); g = {games!r};"
        "out = [play_batch(sc, [g[0][i]], [g[1][i]], [g[2][i]], b, record_actions=True)"
        " for i, b in enumerate((('balanced', 'balanced'), ('random', 'hunter')))];"
        "print(json.dumps(out))"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    sc = scenario()
    here = [play_batch(sc, [games[0][i]], [games[1][i]], [games[2][i]], b, record_actions=True)
            for i, b in enumerate((("balanced", "balanced"), ("random", "hunter")))]
    assert json.dumps(json.loads(done.stdout)) == json.dumps(here)  # as text: NaN (no value) equals NaN there
    assert here[0]["actions"][0] > 100 and here[1]["actions"][0] > 100


def test_compiled_game_loop_plays_what_the_bots_play_one_decision_at_a_time():
    """play_batch's compiled loop (engine and bots in numba) plays the game the Match plays when each bot is
    asked decision by decision through Match.do."""
    from simkit.games.krypton.batch import make_bot

    sc = scenario()
    r = play_batch(sc, ["Knight+Knight"], ["Archer+Warrior"], [11], ("rush", "builder"), record_actions=True)
    g = sc.new_match("Knight+Knight", "Archer+Warrior", 11)
    bots = [make_bot(sc, name, s, 11)[0] for s, name in enumerate(("rush", "builder"))]
    actions = []
    while not g.over:
        a = bots[g.to_act].choose(g, g.legal_actions())
        g.do(a)
        actions.append(a)
    assert actions == r["action_list"][0] and g.state.sides[0].base_hp == r["first_base_hp"][0]
    figures = g.experience_figures()
    assert [figures[c] for c in ("lead_changes", "decided_turn", "decisions", "choices")] == \
        [r[c][0] for c in ("lead_changes", "decided_turn", "decisions", "choices")]
