"""The Krypton search bot (the kit's compiled search over Krypton's compiled hooks): its budget and weights as
data, checked; games replayed from their seeds alone, the same compiled and as plain Python; answers it owes
outside its own turn (counter windows, revival choices) searched and sensible; blind to the enemy's hand and
the pile; its value the weighted features; games against the utility bot end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pytest
from krypton_positions import BASE, dice, hands, new, put, scenario, turn

from simkit.core.errors import ScenarioError
from simkit.core.seats import SEATS
from simkit.games import EXPERIENCE_COLUMNS
from simkit.games.krypton.batch import bot_names, make_bot, personalities, play_batch, searches
from simkit.games.krypton.fast_search import hooks as H
from simkit.games.krypton.fast_search.play import context
from simkit.games.krypton.search_bot import SearchBot, view_key
from simkit.games.krypton.state import CARDS, HS_DEAD, W_COMPARE
from simkit.scenario import load_scenario

CHEAP = """
[rules]
max_rounds = 6

[bots.cheap]
like = "search-1"
plans = 3
samples = 2
depth = 1

[bots.cheap-halving]
like = "cheap"
plans = 6
halving = true

[bots.cheap-oracle]
like = "cheap"
peek = true
"""


def patch(tmp_path, text: str):
    """The base scenario extended by ``text``."""
    p = tmp_path / "patch.toml"
    p.write_text(f'extends = "{BASE.as_posix()}"\n{text}', encoding="utf-8")
    return load_scenario(p)


@pytest.fixture(scope="module")
def cheap(tmp_path_factory):
    """Six-round games and a small search bot ``cheap`` (3 plans, 2 rollouts each, 1 hero turn ahead)."""
    return patch(tmp_path_factory.mktemp("cheap"), CHEAP)


# -- the budget and the weights as data -----------------------------------------------------------------------


def test_base_scenario_lists_the_search_rungs_after_the_personalities():
    """search-1, search-2 and search-3 are bots of the base scenario, each search-1's weights with a bigger
    budget than the rung below."""
    sc = scenario()
    names = bot_names(sc)
    assert names[-7:-4] == ("search-1", "search-2", "search-3") and "balanced" in names
    s1, s2, s3 = (searches(sc)[f"search-{i}"] for i in (1, 2, 3))
    assert s1.policy in personalities(sc) and s2.value == s1.value == s3.value
    assert (s1.plans, s1.samples) < (s2.plans, s2.samples) < (s3.plans, s3.samples)
    bot, state = make_bot(sc, "search-1", 1, seed=5)
    assert isinstance(bot, SearchBot) and state is None


def test_hunter_search_rungs_are_the_search_rungs_played_by_hunter():
    """hunter-search-1..3 differ from search-1..3 only in policy and reply (both `hunter`, the best utility
    personality); hunter-search-4 doubles hunter-search-3's plans and determinizations."""
    sc = scenario()
    names = bot_names(sc)
    assert names[-4:] == tuple(f"hunter-search-{i}" for i in (1, 2, 3, 4))
    table = searches(sc)
    for i in (1, 2, 3):
        s, h = table[f"search-{i}"], table[f"hunter-search-{i}"]
        assert (h.policy, h.reply) == ("hunter", "hunter") and (s.policy, s.reply) == ("balanced", "balanced")
        assert (h.plans, h.samples, h.depth, h.value) == (s.plans, s.samples, s.depth, s.value)
    h3, h4 = table["hunter-search-3"], table["hunter-search-4"]
    assert (h4.plans, h4.samples, h4.depth) == (2 * h3.plans, 2 * h3.samples, h3.depth)


@pytest.mark.parametrize("text, where", [
    ('plan = 3', "bots.bad.plan: unknown key"),
    ('policy = "greedy"', "bots.bad.policy: must name a utility personality"),
    ('reply = 3', "bots.bad.reply: must name a utility personality"),
    ('plans = 0', "bots.bad.plans: must be a whole number of at least 1"),
    ('samples = 1.5', "bots.bad.samples: must be a whole number"),
    ('samples = 0', "bots.bad.samples: must be a whole number of at least 1"),
    ('depth = -1', "bots.bad.depth: must be a whole number of at least 0"),
    ('temperature = -0.5', "bots.bad.temperature: must be at least 0"),
    ('policy_temperature = -1', "bots.bad.policy_temperature: must be at least 0"),
    ('margin = -1', "bots.bad.margin: must be at least 0"),
    ('value_base = "high"', "bots.bad.value_base: must be a finite number"),
    ('candidates = ["rush"]', "bots.bad.candidates: unknown key"),
    ('halving = "yes"', "bots.bad.halving: must be true or false"),
    ('peek = "yes"', "bots.bad.peek: must be true or false"),
])
def test_a_bad_search_key_is_a_scenario_error_naming_it(tmp_path, text, where):
    """A misspelt key, an unknown policy, a budget or a weight of the wrong kind: ScenarioError naming the key,
    when the scenario loads."""
    with pytest.raises(ScenarioError, match=where.replace(".", r"\.")):
        bot_names(patch(tmp_path, f'[bots.bad]\nlike = "search-1"\n{text}\n'))


# -- determinism ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("bot", ["cheap", "cheap-halving", "cheap-oracle"])
def test_a_search_game_depends_on_its_seed_only_and_replays(cheap, bot):
    """The same seed gives the same game alone or in a batch, in either order; its actions replay it."""
    decks = ("Archer+Knight", "Knight+Warrior")
    alone = play_batch(cheap, [decks[0]], [decks[1]], [21], (bot, "balanced"), record_actions=True)
    batch = play_batch(cheap, [decks[1], decks[0]], [decks[0], decks[1]], [4, 21], (bot, "balanced"),
                       record_actions=True)
    assert alone["action_list"][0] == batch["action_list"][1]
    assert alone["first_base_hp"][0] == batch["first_base_hp"][1]
    m = cheap.game.replay(decks[0], decks[1], alone["action_list"][0], seed=21)
    assert m.over and m.winner == alone["winner"][0]


# -- answers owed outside the own turn ---------------------------------------------------------------------------


def _search_bot(sc, seat: int, name: str = "search-1") -> SearchBot:
    bot, _ = make_bot(sc, name, seat, seed=3)
    return bot


def test_the_search_bot_curses_an_attack_that_would_hurt_its_base():
    """Side 1 holds a Curse when side 0's hero attacks its base 7 against 6: in the compare window the search
    bot (owing the decision outside its turn) plays the Curse, which makes it a tie and saves a base HP."""
    sc = scenario()
    g = new("Warrior+Warrior", "Warrior+Warrior", seed=1)
    put(g, 0, 0, (5, -2, -3))  # plain, next to side 1's base (6, -3, -3)
    turn(g, 0, 0, 0)
    hands(g, [], ["Curse"])
    dice(g, 6)  # the attack die: 6 + plain 1 = 7 against the basic base's 6
    g.do(("attack", 6, -3, -3))
    g.clear_dice()  # from here on the game's own stream
    assert g.to_act == 1 and g.state.judgment.window == W_COMPARE
    legal = g.legal_actions()
    assert legal == [("play", "Curse"), ("pass",)]
    bot = _search_bot(sc, 1)
    assert bot.choose(g, legal) == ("play", "Curse")
    assert bot.searches == 1


def test_the_search_bot_revives_at_the_base_a_hero_that_died_beside_its_own_base():
    """Side 1's Archer dies to an Ignite in side 0's turn, two cells from its own base: revived in place it
    would lie flipped through its next turn, revived at the base it comes back beside the same spot and acts
    at once. The search bot owes the choice outside its turn, values both and revives at the base."""
    sc = scenario()
    g = new("Warrior+Warrior", "Archer+Archer", seed=2)
    put(g, 1, 0, (4, -2, -2), hp=2)  # two cells from side 1's base (6, -3, -3)
    turn(g, 0, 0, 0)
    hands(g, ["Ignite"], [])
    g.do(("play", "Ignite", 4, -2, -2))
    assert g.state.n_revivals_owed and g.to_act == 1 and g.side == 0
    legal = g.legal_actions()
    bot = _search_bot(sc, 1)
    assert bot.choose(g, legal) == ("revive", "base")
    assert bot.searches == 1


# -- hidden information ------------------------------------------------------------------------------------------


def test_the_search_never_reads_the_enemy_hand_or_the_pile(cheap):
    """At every decision of a search game, swapping the enemy's hand with pile cards and reordering the pile
    leaves every determinization the search plays on unchanged, and so its choice (it deals the unseen
    cards again, in card order, before it shuffles them)."""
    decks = ("Archer+Knight", "Knight+Warrior")
    r = play_batch(cheap, [decks[0]], [decks[1]], [8], ("balanced", "cheap"), record_actions=True)
    m = cheap.new_match(decks[0], decks[1], seed=8)
    checked = 0
    for a in r["action_list"][0]:
        g = m
        if g.to_act == 1 and len(g.legal_actions()) > 1 and g.hand(0) and len(g.pile()) > 2:
            alt = g.clone()
            unseen = alt.hand(0) + alt.pile()
            unseen = unseen[1:] + unseen[:1]
            alt.set_hand(0, unseen[:len(g.hand(0))])
            alt.set_pile(unseen[len(g.hand(0)):][::-1])
            assert sorted(alt.hand(0)) != sorted(g.hand(0)) or alt.pile() != g.pile()
            legal = g.legal_actions()
            seen, hidden = _search_bot(cheap, 1, "cheap"), _search_bot(cheap, 1, "cheap")
            assert seen.choose(g, legal) == hidden.choose(alt, legal)
            worlds = [_world(g, 1, salt) for salt in range(3)]
            assert all((w == _world(alt, 1, salt)).all() for salt, w in enumerate(worlds))
            assert any(not (w[0]["pile"] == g.state.pile).all() for w in worlds)
            checked += 1
        m.do(a)
    assert checked >= 10


def _world(g, seat: int, salt: int, peek: tuple[bool, bool] = (False, False)) -> np.ndarray:
    """The compiled search's determinization ``salt`` of game ``g`` for ``seat`` (its work state, a one-game
    array)."""
    P = g.packed
    ctx = context(g.games, P.rules_array, P.dist, P.nbr, *P.dice, view_key(3, peek))
    H.copy_game(ctx, 0, seat, salt)
    return ctx.work.copy()


def test_the_compiled_view_keeps_the_seen_and_redeals_the_unseen_by_salt():
    """The compiled determinization keeps the board, the own hand, the enemy's hand size and the discard pile,
    deals the same unseen cards again (another salt, another deal), re-keys the dice and drops scripted dice."""
    g = new(seed=4)
    hands(g, ["Ignite", "Curse"], ["Shuttle", "Pursuit", "Inspire"])
    s = g.games[0]
    worlds = [_world(g, 0, salt)[0] for salt in range(6)]
    n = len(CARDS)
    for w in worlds:
        assert w["sides"][0] == s["sides"][0]  # the own side, hand included
        assert (w["sides"][1]["heroes"] == s["sides"][1]["heroes"]).all()
        assert w["sides"][1]["n_hand"] == 3 and w["n_pile"] == s["n_pile"]
        for field in ("terrain", "stock", "tower_side", "tower_kind", "tower_hp", "iron_wall", "discard"):
            assert (w[field] == s[field]).all()
        unseen = np.bincount(w["pile"][:w["n_pile"]], minlength=n) + w["sides"][1]["hand"]
        assert (unseen == np.bincount(s["pile"][:s["n_pile"]], minlength=n) + s["sides"][1]["hand"]).all()
        assert w["key"] != s["key"] and w["ctr"] == 0
    assert len({tuple(w["sides"][1]["hand"]) for w in worlds}) > 1 and len({int(w["key"]) for w in worlds}) == 6


def test_an_oracle_searches_the_real_game_and_only_the_peeking_seat_does():
    """A search table with ``peek = true`` is an oracle: its every world is the real game, the future dice (the
    stream's key and counter) and the enemy's hand included; the other seat of the same game still guesses."""
    g = new(seed=4)
    hands(g, ["Ignite", "Curse"], ["Shuttle", "Pursuit", "Inspire"])
    for salt in range(3):
        assert (_world(g, 1, salt, peek=(False, True)) == g.games).all()
        guess = _world(g, 0, salt, peek=(False, True))[0]
        assert guess["key"] != g.state.key and guess["ctr"] == 0


def test_an_oracle_table_reads_as_a_peeking_search(cheap):
    """``peek`` is read from the table (default false) and reaches the bot's own seat only."""
    found = searches(cheap)
    assert found["cheap-oracle"].peek and not found["cheap"].peek
    assert list(_search_bot(cheap, 1, "cheap-oracle").view_key[1:]) == [0, 1]
    assert list(_search_bot(cheap, 0, "cheap").view_key[1:]) == [0, 0]


def test_the_search_value_is_the_weighted_sum_of_its_features_at_every_decision(cheap):
    """The search's value (fast_search.hooks.value_of, through Match.value) is the value weights times the
    own-minus-enemy features at every decision of a game, for both seats; the features the page of VALUES
    names (base HP, hero HP on the board, energy, tier, cards in hand, deaths) are read off the state here, and
    the chance counter is the stream's draws plus the judgments begun."""
    r = play_batch(cheap, ["Archer+Knight"], ["Knight+Warrior"], [5], ("cheap", "balanced"), record_actions=True)
    m = cheap.new_match("Archer+Knight", "Knight+Warrior", seed=5)
    weights = searches(cheap)["cheap"].value
    for a in r["action_list"][0] + [None]:
        s = m.state
        for seat in (0, 1):
            own, foe = s.sides[seat], s.sides[1 - seat]
            f = m.features(seat)
            on_board = [sum(int(x.hp) for x in side.heroes[:m.team] if x.state != HS_DEAD) for side in (own, foe)]
            assert (f["base"], f["hero_hp"], f["energy"], f["tier"], f["cards"], f["deaths"]) == (
                own.base_hp - foe.base_hp, on_board[0] - on_board[1], own.energy - foe.energy, own.tier - foe.tier,
                own.n_hand - foe.n_hand, own.lost - foe.lost)
            want = (0.0 if m.winner == "draw" else weights["value_win"] * (1 if m.winner == SEATS[seat] else -1)) \
                if m.over else sum(weights[f"value_{name}"] * v for name, v in f.items())
            assert m.value(seat, weights) == pytest.approx(want)
        assert m.chance == s.ctr + s.sides[0].attacks + s.sides[1].attacks
        if a is not None:
            m.do(a)
    assert m.over


def test_the_view_keeps_what_the_seat_sees_and_guesses_the_rest_by_salt():
    """Match.view_of(seat, salt): the own hand, the board and the hand sizes kept; another salt, another guess."""
    g = new(seed=4)
    hands(g, ["Ignite", "Curse"], ["Shuttle", "Pursuit", "Inspire"])
    views = [g.view_of(0, salt) for salt in range(6)]
    assert all(v.hand(0) == g.hand(0) and len(v.hand(1)) == 3 for v in views)
    assert all(sorted(v.hand(1) + v.pile()) == sorted(g.hand(1) + g.pile()) for v in views)
    assert len({tuple(v.hand(1)) for v in views}) > 1 and len({int(v.state.key) for v in views}) == 6


def test_a_plan_ends_at_an_attack_even_when_no_die_is_rolled():
    """A base attack on Satan's Pact's fixed die rolls nothing, yet the defender's hidden counter cards could
    answer it: the chance counter grows, so a plan never runs past it (a plan drawn on one guess of the
    enemy's hand would meet a counter window on another)."""
    g = new(seed=6)
    put(g, 0, 0, (5, -2, -3))  # next to side 1's base
    turn(g, 0, 0, 0)
    hands(g, ["Satan's Pact"], [])
    g.do(("play", "Satan's Pact"))
    before, ctr = g.chance, int(g.state.ctr)
    g.do(("attack", 6, -3, -3))
    assert g.state.ctr == ctr and g.in_turn and g.to_act == 0  # no die, no window: the turn goes on
    assert g.chance == before + 1


# -- end to end ---------------------------------------------------------------------------------------------------


def test_a_cheap_search_bot_plays_short_games_in_both_seats(cheap):
    """The cheap search bot against balanced, both seats: games end, every action legal (play_batch checks)."""
    r = play_batch(cheap, ["Archer+Warrior", "Knight+Knight"], ["Knight+Knight", "Archer+Warrior"], [1, 2],
                   ("cheap", "balanced"))
    s = play_batch(cheap, ["Archer+Warrior"], ["Knight+Knight"], [3], ("balanced", "cheap"))
    assert len(r["winner"]) == 2 and len(s["winner"]) == 1
    assert r["first_bot"] == ["cheap", "cheap"] and s["second_bot"] == ["cheap"]


def test_a_search_bot_plays_a_match_and_its_actions_replay(cheap):
    """Asked through the Match facade (seat to act, its legal actions), the search bot plays a whole game whose
    recorded actions replay to the same end."""
    m = cheap.new_match("Knight+Warrior", "Archer+Archer", seed=12)
    bots = [make_bot(cheap, "balanced", 0, 12)[0], make_bot(cheap, "cheap", 1, 12)[0]]
    while not m.over:  # both bots take the Match
        m.do(bots[m.to_act].choose(m, m.legal_actions()))
    again = cheap.game.replay("Knight+Warrior", "Archer+Archer", m.actions, seed=12)
    assert again.snapshot() == m.snapshot() and bots[1].decisions > 0
    played = play_batch(cheap, ["Knight+Warrior"], ["Archer+Archer"], [12], ("balanced", "cheap"),
                        record_actions=True)
    assert played["action_list"][0] == list(m.actions)  # the Match game is the compiled batch's game


_PLAIN = """
import json, sys
from simkit.scenario import load_scenario
from simkit.games.krypton.batch import play_batch
from simkit.games import EXPERIENCE_COLUMNS
r = play_batch(load_scenario(sys.argv[1]), ["Archer+Warrior"], ["Knight+Knight"], [9], (sys.argv[2], sys.argv[2]),
               record_actions=True)
print(json.dumps([[list(a) for a in r["action_list"][0]], [r[c][0] for c in EXPERIENCE_COLUMNS]]))
"""


@pytest.mark.parametrize("bot", ["cheap", "cheap-halving", "cheap-oracle"])
def test_a_search_game_is_the_same_compiled_and_as_plain_python(cheap, bot):
    """Both seats searching (uniformly, by sequential halving, and as oracles), the game played compiled here and with
    NUMBA_DISABLE_JIT=1 in a fresh process: the same actions, decision for decision, and the same experience
    figures."""
    r = play_batch(cheap, ["Archer+Warrior"], ["Knight+Knight"], [9], (bot, bot), record_actions=True)
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    out = subprocess.run([sys.executable, "-c", _PLAIN, str(cheap.path), bot], env=env, capture_output=True,
                         text=True, check=True, timeout=600)
    actions, figures = json.loads(out.stdout)
    plain = [tuple(a) for a in actions]
    assert plain == [tuple(a) for a in r["action_list"][0]] and len(plain) > 50
    assert json.dumps(figures) == json.dumps([r[c][0] for c in EXPERIENCE_COLUMNS])  # as text: NaN equals NaN


@pytest.mark.slow
def test_search_1_plays_whole_games_against_balanced_in_both_seats():
    """search-1 against balanced on the base rules, a few games in each seat order, to their end."""
    sc = scenario()
    decks = ["Archer+Knight", "Knight+Warrior", "Warrior+Warrior"]
    r = play_batch(sc, decks, decks[::-1], [1, 2, 3], ("search-1", "balanced"))
    s = play_batch(sc, decks, decks[::-1], [1, 2, 3], ("balanced", "search-1"))
    assert all(e in ("base", "turn_limit") for e in r["end_reason"] + s["end_reason"])
