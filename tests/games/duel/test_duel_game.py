"""Card Duel as a simkit game: scenario and decks, hidden information, seeded randomness, the
single-game facade and replays, the batch records, invariants and the one-source compiled rules."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from duel_positions import DUEL, ROOT, A, B, duel, page, patched, position

from simkit import IllegalAction, ScenarioError, load_scenario
from simkit.core.rng import GameStreams
from simkit.games import get_game
from simkit.games.duel import bots as BOTS
from simkit.games.duel import engine as E
from simkit.games.duel.batch import bot_tables, game_seeds, play_batch
from simkit.games.duel.invariants import DuelInvariants, scramble_hidden
from simkit.games.duel.match import Match
from simkit.games.duel.state import MAX_LEGAL, STATE, Z_DISC, Z_HAND, Z_SRC, Z_TRAP
from simkit.games.kits.state import copy, zeros

# ---- scenario and decks (sections 9, 10) -----------------------------------------------------------


def test_the_interface_is_complete_and_declares_the_schema():
    """The duel registers as a Game with end reasons hp_zero / turn_limit and a final-HP side column."""
    game = get_game("duel")
    assert set(game.schema.end_reasons) == {"hp_zero", "turn_limit"}
    assert game.schema.cap_reason == "turn_limit"
    assert "hp" in game.schema.side_columns
    assert game.hook("deck_cards")(duel().rules, "Longbow+Dagger:Reflect,Frost,Mend") == {
        "weapon": ("Dagger", "Longbow"), "spell": ("Frost", "Mend", "Reflect")}


def test_one_hundred_twenty_canonical_decks_of_twenty_cards():
    """10: C(4,2) x C(6,3) = 120 legal decks, ids WeaponA+WeaponB:SpellA,SpellB,SpellC sorted."""
    sc = duel()
    assert len(sc.decks) == 120 and len(set(sc.decks)) == 120
    assert "Dagger+Longbow:Frost,Mend,Reflect" in sc.decks
    assert sc.canonical_deck("Longbow+Dagger:Reflect,Frost,Mend") == "Dagger+Longbow:Frost,Mend,Reflect"
    snap = page(Match(sc, A, B))["players"][0]
    cards = snap["hand"] + snap["source"]
    assert len(cards) == 20
    assert {c: cards.count(c) for c in set(cards)} == {
        "Strike": 4, "Step": 3, "Guard": 3, "VenomCoating": 1, "Barrier": 1, "Dagger": 1, "Greataxe": 1,
        "Rage": 2, "Reflect": 2, "ShadowBolt": 2}


@pytest.mark.parametrize("deck, words", [
    ("Dagger+Dagger:Frost,Mend,Reflect", "2 different weapons"),
    ("Dagger+Longbow:Frost,Mend", "3 different spells"),
    ("Dagger+Sword:Frost,Mend,Reflect", "unknown weapon 'Sword'"),
    ("Dagger+Longbow:Frost,Mend,Strike", "unknown spell 'Strike'"),
    ("Dagger,Longbow", "expected"),
])
def test_an_illegal_deck_is_named(deck, words):
    """10: an illegal deck is refused with a message naming it and the problem."""
    with pytest.raises(ScenarioError, match=words) as err:
        duel().canonical_deck(deck)
    assert deck in str(err.value)


def test_a_pool_naming_an_illegal_deck_is_rejected_at_load(tmp_path):
    """10: a scenario whose [decks] pool names an illegal deck fails to load, naming file, key and deck."""
    with pytest.raises(ScenarioError, match=r"patch.toml: decks\.pool\[1\]: .*Dagger\+Dagger"):
        patched(tmp_path, '[decks]\npool = ["Dagger+Longbow:Frost,Mend,Reflect", "Dagger+Dagger:Frost,Mend,Venom"]\n')


@pytest.mark.parametrize("text, words", [
    ('[cards.Strike]\ndamage = 3\n', r"cards\.Strike\.damage: unknown key"),
    ('[cards.Strike]\neffects = [{ do = "explode" }]\n', r"cards\.Strike\.effects\[0\]\.do: must be one of"),
    ('[cards.Guard]\nrange = 2\n', r"cards\.Guard\.range: only weapons have range"),
    ('[cards.Dagger]\ncost_mana = 1\n', r"cards\.Dagger\.cost_mana: a weapon card costs no mana"),
    ('[decks]\ndeck_size = 21\n', r"decks\.deck_size: .* make 20 cards, not 21"),
    ('[rules]\nturn_limit_result = "coin"\n', r"rules\.turn_limit_result: must be one of"),
    ('[bots.aggro]\nlike = "nobody"\n', r"bots\.aggro\.like: must name another bot"),
    ('[bots.rush]\ndamage = 1.0\n', r"bots\.rush\.temperature: missing key"),
    ('[sweep]\nrounds = 3\n', r"sweep\.rounds: unknown key"),
])
def test_scenario_errors_name_file_key_and_problem(tmp_path, text, words):
    """Numbers are data: a bad card, deck rule, rule, bot or sweep key is refused as file: key: problem."""
    with pytest.raises(ScenarioError, match=words):
        patched(tmp_path, text)


def test_a_designers_own_card_needs_no_code(tmp_path):
    """9: a new card built from the primitives (a Firebolt: 2 mana, deal 4 piercing) plays at once."""
    sc = patched(tmp_path, """
[cards.Firebolt]
type = "magic"
cost_mana = 2
max_distance = 5
effects = [
  { do = "damage", amount = 4, piercing = true },
  { do = "status", target = "self", kind = "shield", level = 1 },
]
[decks]
spells = ["Firebolt", "Frost", "Mend", "Rage", "Reflect", "ShadowBolt", "Venom"]
""")
    assert len(sc.decks) == 6 * 35
    m = position(first="Dagger+Longbow:Firebolt,Frost,Mend", scenario=sc, p0={"hand": ["Firebolt"]},
                 p1={"statuses": {"shield": 5}})
    m.do(("play", "Firebolt"))
    assert (m.hp(1), m.status(1, "shield"), m.status(0, "shield")) == (21, 5, 1)


def test_quick_scenario_loads_with_its_sweep_table():
    """The demo sweep extends the base, names 6 decks and checks its [sweep] table at load."""
    sc = load_scenario(ROOT / "scenarios" / "duel" / "quick.toml")
    assert len(sc.decks) == 6 and sc.data["sweep"]["games"] == 4
    names = {w for d in sc.decks for w in d.split(":")[0].split("+")}
    spells = {s for d in sc.decks for s in d.split(":")[1].split(",")}
    assert len(names) == 4 and len(spells) == 6


def test_bots_are_data_with_like_inheritance():
    """Bots: random is built in; control inherits aggro's numbers and overrides some; the search rungs come last."""
    sc = duel()
    assert sc.game.bot_names() == ("random", "aggro", "control", "search-1", "search-2")
    kinds, weights = bot_tables(sc, ("aggro", "control"))
    assert kinds.tolist() == [BOTS.BOT_UTILITY, BOTS.BOT_UTILITY]
    assert weights[1].temperature == weights[0].temperature
    assert weights[1].prefer_distance == 5 and weights[0].prefer_distance == 1
    with pytest.raises(ValueError, match="unknown bot 'rush'"):
        bot_tables(sc, ("aggro", "rush"))


# ---- hidden information (section 12) ----------------------------------------------------------------


def test_view_hides_hands_piles_and_traps_but_keeps_their_sizes():
    """12: seat 0's view has no card of seat 1's hand, discard or traps, nor of either source pile;
    their sizes are kept, its own hand, discard and both equipment zones are visible."""
    m = position(p0={"hand": ["Strike", "Rage"], "discard": ["Guard"]},
                 p1={"hand": ["Mend", "Venom"], "discard": ["Step"], "traps": ["Reflect"], "equipment": ["Spear"]})
    v = m.view(0).snapshot()
    n = v["deck_size"]
    mine, theirs = v["players"]
    seen1: dict[str, list] = {}
    for zone, card in zip(theirs["zone"][:n], theirs["card"][:n]):
        seen1.setdefault(zone, []).append(card)
    assert set(seen1) == {"hidden", "equipment"} and set(seen1["hidden"]) == {None}
    assert [theirs["counts"][z] for z in ("hand", "discard", "trap", "source")] == [2, 1, 1, 15]
    zones0 = mine["zone"][:n]
    assert zones0.count("hand") == 2 and zones0.count("discard") == 1 and zones0.count("source") == 0
    assert set(mine["source"]) == {-1} and v["shuffle"] == 0 and v["viewer"] == 0


def _decisions_blind_to_hidden(bots, seed):
    """At every decision of a whole game, the bot to act chooses the same action from the view of the
    real state and from the view of a state whose hidden parts were scrambled."""
    sc = duel()
    kinds, weights = bot_tables(sc, bots)
    r = sc.rules
    m = Match(sc, A, B, seed=seed)
    out = np.zeros((MAX_LEGAL, 3), np.int64)
    scratch = zeros(STATE)
    counter, checked = 0, 0
    while not m.over:
        seat = m.to_act
        other = scramble_hidden(m.state, seat)
        assert other.tobytes() != m.state.tobytes() or m.state.players[1 - seat].counts[Z_SRC] == 0
        picks = []
        for s in (m.state, other):
            v = zeros(STATE)
            E.make_view(s, seat, v)
            picks.append(BOTS.decide(v, kinds[seat], weights[seat], 99, counter, out, scratch, r.settings, r.cards,
                                     r.effects))
        assert picks[0] == picks[1]
        k, x, y, counter = picks[0]
        E.step(m.state, k, x, y, r.settings, r.cards, r.effects)
        checked += 1
    return checked


@pytest.mark.parametrize("bots", [("aggro", "control"), ("random", "random")])
def test_bot_decisions_do_not_depend_on_hidden_information(bots):
    """12: opponent hand, both source piles' order, opponent traps and discard scrambled: same decisions."""
    assert _decisions_blind_to_hidden(bots, seed=11) > 20


def test_legal_actions_of_the_view_are_those_of_the_game():
    """12: a bot needs nothing hidden to know its legal actions: legal(view) == legal(state) all game."""
    sc = duel()
    r = sc.rules
    res = play_batch(sc, [A], [B], [3], ("aggro", "random"), record_actions=True)
    m = Match(sc, A, B, seed=3)
    a, b = np.zeros((MAX_LEGAL, 3), np.int64), np.zeros((MAX_LEGAL, 3), np.int64)
    for action in res["action_list"][0]:
        na = E.legal(m.state, a, r.settings, r.cards)
        nb = E.legal(m.view(m.to_act).state, b, r.settings, r.cards)
        assert na == nb and (a[:na] == b[:nb]).all()
        m.do(action)


# ---- randomness and batches ------------------------------------------------------------------------------


def test_compiled_stream_is_simkits_game_stream():
    """Randomness reuses simkit.core.rng: word k of the compiled stream is GameStreams([seed]).bits word k."""
    for seed in (0, 1, 2**62 + 5):
        words = GameStreams([seed]).bits(5)[0]
        assert [int(E.stream_bits(seed, k)) for k in range(5)] == [int(w) for w in words]


def test_setup_shuffle_comes_from_the_seed():
    """3: the same seed deals the same source piles; another seed deals others."""
    piles = [page(Match(duel(), A, B, seed=s))["players"][0]["source"] for s in (5, 5, 6)]
    assert piles[0] == piles[1] and piles[0] != piles[2]


def test_a_games_record_does_not_depend_on_its_batch():
    """Determinism: six games played together equal each played alone, and equal the recording path (compared
    as text: a NaN experience figure equals itself)."""
    sc = duel()
    firsts, seconds, seeds = list(sc.decks[:6]), list(sc.decks[-6:]), [10, 11, 12, 13, 14, 15]
    together = play_batch(sc, firsts, seconds, seeds, ("aggro", "control"))
    alone = [play_batch(sc, [f], [s], [g], ("aggro", "control")) for f, s, g in zip(firsts, seconds, seeds)]
    recorded = play_batch(sc, firsts, seconds, seeds, ("aggro", "control"), record_actions=True)
    for key, column in together.items():
        assert repr(column) == repr([row[key][0] for row in alone])
        assert repr(column) == repr(recorded[key])


def test_utility_bots_beat_random():
    """Bots: aggro wins at least 95% of 60 games against random (both seats)."""
    sc = duel()
    decks = list(sc.decks)
    rng = np.random.default_rng(1)
    f = [decks[i] for i in rng.integers(0, 120, 30)]
    s = [decks[i] for i in rng.integers(0, 120, 30)]
    one = play_batch(sc, f, s, list(range(30)), ("aggro", "random"))
    two = play_batch(sc, f, s, list(range(30)), ("random", "aggro"))
    wins = one["winner"].count("first") + two["winner"].count("second")
    assert wins >= 57


# ---- the facade, replays, records ----------------------------------------------------------------------


def test_replay_rebuilds_a_recorded_game():
    """Match: replaying a recorded game's actions gives the same winner, turns and HP."""
    sc = duel()
    res = play_batch(sc, [A], [B], [21], ("control", "aggro"), record_actions=True)
    m = sc.game.replay(A, B, res["action_list"][0], seed=21)
    assert (m.winner, m.end_reason, m.turn, m.hp(0), m.hp(1)) == (
        res["winner"][0], res["end_reason"][0], res["turns"][0], res["first_hp"][0], res["second_hp"][0])
    assert m.actions == res["action_list"][0]
    json.dumps(m.actions)  # plain values


def test_replay_names_the_first_illegal_action():
    """Match: an illegal action in a replay raises naming its position and reason."""
    with pytest.raises(IllegalAction, match=r"action 1 \(.advance.,\): .*already advanced or retreated"):
        duel().game.replay(A, B, [("advance",), ("advance",)], seed=0)


@pytest.mark.parametrize("bad, words", [
    (("fly",), "unknown action"),
    (("play", "Excalibur"), "unknown card"),
    (("use", "Bow"), "not a card of the first player's deck"),
    (("attach", "VenomCoating"), "takes 2 argument"),
])
def test_malformed_actions_are_refused(bad, words):
    """Match: malformed actions raise IllegalAction naming the problem; the game is unchanged."""
    m = Match(duel(), A, B, seed=1)
    before = m.snapshot()
    with pytest.raises(IllegalAction, match=words):
        m.do(bad)
    assert m.snapshot() == before


def test_every_listed_action_is_legal_and_every_other_is_refused():
    """Match: over a random game, do() accepts exactly the actions legal_actions() lists among all
    candidate actions (every verb with every card and weapon name and value), leaving refused ones
    without effect."""
    sc = duel()
    names = sc.rules.names
    rng = np.random.default_rng(4)
    m = Match(sc, A, B, seed=4)
    steps = 0
    while not m.over and steps < 80:
        legal = m.legal_actions()
        slots = sorted(set(m.slot_names[m.to_act]))
        candidates = [("advance",), ("retreat",), ("end_play",), ("end_turn",)]
        candidates += [(v, n) for v in ("play", "equip", "set", "discard") for n in names]
        candidates += [("play", "Step", v) for v in range(-3, 4)]
        candidates += [("use", w) for w in slots] + [("attach", "VenomCoating", w) for w in slots]
        for c in candidates:
            trial = m.clone()
            try:
                trial.do(c)
                assert c in legal, c
            except IllegalAction:
                assert c not in legal, c
                assert trial.snapshot() == m.snapshot()
        m.do(legal[rng.integers(len(legal))])
        steps += 1
    assert steps > 30


def test_records_follow_the_declared_schema():
    """Records: the columns of the schema in order, winners and end reasons from the declared sets."""
    sc = duel()
    out = sc.game.play_batch(list(sc.decks[:4]), list(sc.decks[4:8]), [1, 2, 3, 4], ("aggro", "random"))
    assert tuple(out) == sc.game.columns() == get_game("duel").schema.columns() + sc.game.counter_columns()
    assert set(out["end_reason"]) <= {"hp_zero", "turn_limit"}
    assert all(h <= 25 for h in out["first_hp"] + out["second_hp"])


# ---- invariants and narration ---------------------------------------------------------------------------


def test_invariants_hold_over_bot_games_and_catch_broken_states():
    """The check capability: no invariant breaks over two bot games; a card lost, HP above max, a negative status
    and a leaking view are each caught by name."""
    sc = duel()
    inv = sc.game.capability("check")
    assert isinstance(inv, DuelInvariants)
    for bots in (("aggro", "control"), ("random", "random")):
        res = play_batch(sc, [A], [B], [8], bots, record_actions=True)
        m = Match(sc, A, B, seed=8)
        for action in res["action_list"][0]:
            before = m.snapshot()
            m.do(action)
            assert inv.invariants(before, action, m.snapshot()) == []
    m = Match(sc, A, B, seed=8)
    snap = m.snapshot()
    lost = json.loads(json.dumps(snap))
    lost["players"][0]["counts"]["source"] -= 1  # the top card of the source pile gone
    assert "card_conservation" in inv.invariants(snap, ("end_play",), lost)
    high = json.loads(json.dumps(snap))
    high["players"][1]["hp"] = 26
    assert "hp_bounds" in inv.invariants(snap, ("end_play",), high)
    neg = json.loads(json.dumps(snap))
    neg["players"][1]["statuses"]["poison"] = -1
    assert "status_nonnegative" in inv.invariants(snap, ("end_play",), neg)
    far = json.loads(json.dumps(snap))
    far["distance"] = 10
    assert "distance_range" in inv.invariants(snap, ("end_play",), far)


def test_a_leaking_view_is_caught(monkeypatch):
    """The check capability: a view builder that forgets to hide the opponent's hand breaks hidden_information."""
    sc = duel()
    inv = DuelInvariants(sc)
    m = Match(sc, A, B, seed=2)
    real = E.make_view

    def leaky(s, p, v):
        real(s, p, v)
        them, seen = s.players[1 - p], v.players[1 - p]
        for i in range(int(s.deck_size)):
            if them.zone[i] == Z_HAND:
                seen.card[i], seen.zone[i] = them.card[i], Z_HAND

    monkeypatch.setattr(E, "make_view", leaky)
    assert inv.invariants(m.snapshot(), None, m.snapshot()) == ["hidden_information"]


def test_hand_over_the_limit_after_end_turn_is_caught():
    """The check capability: a turn that ends with 7 cards breaks hand_limit."""
    inv = DuelInvariants(duel())
    m = position(phase="discard", p0={"hand": ["Strike"] * 4 + ["Guard"] * 3})
    before = m.snapshot()
    after = json.loads(json.dumps(before))
    after["to_act"] = 1
    assert "hand_limit" in inv.invariants(before, ("end_turn",), after)


def test_narration_tells_the_game():
    """narrate: one line per action and turn start, ending with the result."""
    sc = duel()
    res = play_batch(sc, [A], [B], [5], ("aggro", "control"), record_actions=True)
    lines = sc.game.capability("narrate")(A, B, res["action_list"][0], bots=("aggro", "control"), seed=5)
    assert lines[0].startswith("Card Duel · first: " + A)
    assert lines[-1].startswith(f"game over on turn {res['turns'][0]}")
    assert any("begins" in line for line in lines) and len(lines) > res["actions"][0]


# ---- the rules are written once ---------------------------------------------------------------------------


def test_uncompiled_rules_play_the_same_games():
    """The same source runs compiled and, under NUMBA_DISABLE_JIT=1, as plain Python: same games (compared as
    JSON text, so the experience figures' NaN, ``uncertainty`` and a draw's deficit, compare equal)."""
    code = (
        "import json, sys, warnings; warnings.simplefilter('ignore'); import simkit;"
        "from simkit.games.duel.batch import play_batch;"
        f"sc = simkit.load_scenario({str(DUEL)!r});"
        "out = play_batch(sc, [sc.decks[0], sc.decks[60]], [sc.decks[119], sc.decks[7]], [3, 4], ('aggro', 'random'));"
        "print(json.dumps(out))"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    sc = duel()
    here = play_batch(sc, [sc.decks[0], sc.decks[60]], [sc.decks[119], sc.decks[7]], [3, 4], ("aggro", "random"))
    assert done.stdout.strip() == json.dumps(here)


def test_game_seeds_are_derived_per_purpose():
    """Randomness: a game's shuffle and bot streams are two different seeds derived from its own."""
    a, b = game_seeds(7)
    assert a != b and game_seeds(7) == (a, b) and game_seeds(8)[0] != a


@pytest.mark.parametrize("bots", [("random", "random"), ("aggro", "control")])
def test_duel_passes_api_test(bots):
    """The game interface's contract (simkit.testing.api_test) holds for the duel, random and utility bots."""
    from simkit.testing.api import api_test

    done = api_test(duel(), games=4, bots=bots)
    assert done["games"] == 4 and done["actions"] > 0 and done["illegal_probes"] > 0


def test_turn_limit_hook_reads_the_scenario(tmp_path):
    """The interface's turn_limit is the scenario's [rules] turn_limit."""
    assert duel().game.turn_limit == 60
    assert patched(tmp_path, "[rules]\nturn_limit = 12\n").game.turn_limit == 12


def test_the_python_side_of_a_search_is_the_match():
    """One state API: a clone plays a recorded game on exactly as the match does; a seat's view is a Match of its
    own (nothing hidden in it, the same legal actions as the game) that plays the seat's turn on with the engine;
    the compiled search starts from that view with the hidden zones counted empty (fast_search.root_of)."""
    from simkit.games.duel import fast_search as FS

    sc = duel()
    res = play_batch(sc, [A], [B], [6], ("aggro", "control"), record_actions=True)
    m = Match(sc, A, B, seed=6)
    trial = m.clone()
    for action in res["action_list"][0]:
        seat = m.to_act
        view = m.view(seat)
        assert view.legal_actions() == m.legal_actions() and view.to_act == seat
        if action[0] not in ("end_turn",):
            view.do(action)  # the seat's own action plays on in its view
        trial.do(action)
        m.do(action)
        assert trial.snapshot() == m.snapshot()
    assert trial.over and trial.winner == res["winner"][0]
    start = Match(sc, A, B, seed=6)
    view = start.view(0)
    root = zeros(STATE)
    FS.root_of(start.state, 0, root)
    snap, seen = view.snapshot(), page(view)["players"]
    assert snap["viewer"] == 0 and snap["shuffle"] == 0 and seen[1]["hand"] == [] and seen[0]["source"] == []
    expected = zeros(STATE)
    copy(expected, view.state)
    for q, zones in ((0, (Z_SRC,)), (1, (Z_SRC, Z_HAND, Z_DISC, Z_TRAP))):
        for z in zones:
            assert view.state.players[q].counts[z] > 0 or z in (Z_DISC, Z_TRAP)  # nothing there yet
            expected.players[q].counts[z] = 0
    assert root.tobytes() == expected.tobytes()
