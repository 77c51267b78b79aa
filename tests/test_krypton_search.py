"""The Krypton search bot: its budget and weights as data, checked; games replayed from their seeds alone;
answers it owes outside its own turn (counter windows, revival choices) searched and sensible; blind to
the enemy's hand and the pile; games against the utility bot end to end."""

from __future__ import annotations

import pytest
from krypton_positions import BASE, dice, new, put, scenario, turn

from simkit.errors import ScenarioError
from simkit.games.krypton.play import bot_names, make_bot, personalities, play_batch, searches
from simkit.games.krypton.search import KryptonSearch
from simkit.games.krypton.search_bot import SearchBot
from simkit.scenario import load_scenario

CHEAP = """
[rules]
max_rounds = 6

[bots.cheap]
like = "search-1"
plans = 3
samples = 2
depth = 1
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
    """search-1 and search-2 are bots of the base scenario; search-2 is search-1's weights with a bigger budget."""
    sc = scenario()
    names = bot_names(sc)
    assert names[-2:] == ("search-1", "search-2") and "balanced" in names
    s1, s2 = searches(sc)["search-1"], searches(sc)["search-2"]
    assert s1.policy in personalities(sc) and s2.value == s1.value
    assert (s2.budget.plans, s2.budget.samples, s2.budget.depth) > (s1.budget.plans, s1.budget.samples,
                                                                     s1.budget.depth)
    bot, state = make_bot(sc, "search-1", 1, seed=5)
    assert isinstance(bot, SearchBot) and state is None


@pytest.mark.parametrize("text, where", [
    ('plan = 3', "bots.bad.plan: unknown key"),
    ('policy = "greedy"', "bots.bad.policy: must name a utility personality"),
    ('reply = 3', "bots.bad.reply: must name a utility personality"),
    ('plans = 0', "bots.bad.plans: must be a whole number of at least 1"),
    ('samples = 1.5', "bots.bad.samples: must be a whole number"),
    ('depth = -1', "bots.bad.depth: must be a whole number of at least 0"),
    ('temperature = -0.5', "bots.bad.temperature: must be at least 0"),
    ('value_base = "high"', "bots.bad.value_base: must be a finite number"),
    ('candidates = ["nobody"]', "bots.bad.candidates: must be a list of utility personalities"),
    ('candidates = ["rush", "hunter"]\nplans = 2', "bots.bad.plans: must leave room for the policy's and the 2"),
])
def test_a_bad_search_key_is_a_scenario_error_naming_it(tmp_path, text, where):
    """A misspelt key, an unknown policy, a budget or a weight of the wrong kind: ScenarioError naming the key,
    when the scenario loads."""
    with pytest.raises(ScenarioError, match=where.replace(".", r"\.")):
        bot_names(patch(tmp_path, f'[bots.bad]\nlike = "search-1"\n{text}\n'))


# -- determinism ------------------------------------------------------------------------------------------------


def test_a_search_game_depends_on_its_seed_only_and_replays(cheap):
    """The same seed gives the same game alone or in a batch, in either order; its actions replay it."""
    decks = ("Archer+Knight", "Knight+Warrior")
    alone = play_batch(cheap, [decks[0]], [decks[1]], [21], ("cheap", "balanced"), record_actions=True)
    batch = play_batch(cheap, [decks[1], decks[0]], [decks[0], decks[1]], [4, 21], ("cheap", "balanced"),
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
    g.hands = [[], ["Curse"]]
    dice(g, 6)  # the attack die: 6 + plain 1 = 7 against the basic base's 6
    g.do(("attack", 6, -3, -3))
    g.clear_dice()  # from here on the game's own stream
    assert g.to_act == 1 and g.judgment["window"] == "compare"
    legal = g.legal_actions()
    assert legal == [("play", "Curse"), ("pass",)]
    bot = _search_bot(sc, 1)
    assert bot.choose(g, legal) == ("play", "Curse")
    assert bot.search.searches == 1 and bot.search.rollouts == 2 * bot.settings.budget.samples


def test_the_search_bot_revives_at_the_base_a_hero_that_died_beside_its_own_base():
    """Side 1's Archer dies to an Ignite in side 0's turn, two cells from its own base: revived in place it
    would lie flipped through its next turn, revived at the base it comes back beside the same spot and acts
    at once. The search bot owes the choice outside its turn, values both and revives at the base."""
    sc = scenario()
    g = new("Warrior+Warrior", "Archer+Archer", seed=2)
    put(g, 1, 0, (4, -2, -2), hp=2)  # two cells from side 1's base (6, -3, -3)
    turn(g, 0, 0, 0)
    g.hands = [["Ignite"], []]
    g.do(("play", "Ignite", 4, -2, -2))
    assert g.pending and g.to_act == 1 and g.side == 0
    legal = g.legal_actions()
    bot = _search_bot(sc, 1)
    assert bot.choose(g, legal) == ("revive", "base")
    worth = dict(bot.search.last)
    assert bot.search.searches == 1 and worth[("revive", "base")] > worth[("revive", "place")]


# -- hidden information ------------------------------------------------------------------------------------------


def test_the_search_never_reads_the_enemy_hand_or_the_pile(cheap):
    """At every decision of a search game, swapping the enemy's hand with pile cards and reordering the pile
    leaves the search bot's choice and the values of its plans unchanged (its rollouts deal the unseen
    cards again)."""
    decks = ("Archer+Knight", "Knight+Warrior")
    r = play_batch(cheap, [decks[0]], [decks[1]], [8], ("balanced", "cheap"), record_actions=True)
    m = cheap.new_match(decks[0], decks[1], seed=8)
    checked = 0
    for a in r["action_list"][0]:
        g = m.game
        if g.to_act == 1 and len(g.legal_actions()) > 1 and g.hands[0] and len(g.pile) > 2:
            alt = g.copy()
            unseen = alt.hands[0] + alt.pile
            unseen = unseen[1:] + unseen[:1]
            alt.hands[0], alt.pile = unseen[:len(g.hands[0])], unseen[len(g.hands[0]):][::-1]
            assert sorted(alt.hands[0]) != sorted(g.hands[0]) or alt.pile != g.pile
            legal = g.legal_actions()
            seen, hidden = _search_bot(cheap, 1, "cheap"), _search_bot(cheap, 1, "cheap")
            assert seen.choose(g, legal) == hidden.choose(alt, legal)
            assert seen.search.last == hidden.search.last  # the same plans, valued the same
            checked += bool(seen.search.searches)
        m.do(a)
    assert checked >= 10


def test_the_view_keeps_what_the_seat_sees_and_guesses_the_rest_by_salt():
    """root(state, seat, salt): the own hand, the board and the hand sizes kept; another salt, another guess."""
    sc = scenario()
    hooks = KryptonSearch(sc)
    g = new(seed=4)
    g.hands = [["Ignite", "Curse"], ["Shuttle", "Pursuit", "Inspire"]]
    views = [hooks.root(g, 0, salt) for salt in range(6)]
    assert all(v.hands[0] == g.hands[0] and len(v.hands[1]) == 3 for v in views)
    assert all(sorted(v.hands[1] + v.pile) == sorted(g.hands[1] + g.pile) for v in views)
    assert len({tuple(v.hands[1]) for v in views}) > 1 and len({v.key for v in views}) == 6


def test_a_plan_ends_at_an_attack_even_when_no_die_is_rolled():
    """A base attack on Satan's Pact's fixed die rolls nothing, yet the defender's hidden counter cards could
    answer it: the chance counter grows, so a plan never runs past it (a plan drawn on one guess of the
    enemy's hand would meet a counter window on another)."""
    sc = scenario()
    hooks = KryptonSearch(sc)
    g = new(seed=6)
    put(g, 0, 0, (5, -2, -3))  # next to side 1's base
    turn(g, 0, 0, 0)
    g.hands = [["Satan's Pact"], []]
    g.do(("play", "Satan's Pact"))
    before, ctr = hooks.chance(g), g.ctr
    g.do(("attack", 6, -3, -3))
    assert g.ctr == ctr and hooks.in_turn(g) and g.to_act == 0  # no die, no window: the turn goes on
    assert hooks.chance(g) == before + 1


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
    while not m.over:  # the search bot takes the Match itself, the utility bot its engine game
        m.do(bots[m.to_act].choose(m if m.to_act == 1 else m.game, m.legal_actions()))
    again = cheap.game.replay("Knight+Warrior", "Archer+Archer", m.actions, seed=12)
    assert again.snapshot() == m.snapshot() and bots[1].search.decisions > 0


@pytest.mark.slow
def test_search_1_plays_whole_games_against_balanced_in_both_seats():
    """search-1 against balanced on the base rules, a few games in each seat order, to their end."""
    sc = scenario()
    decks = ["Archer+Knight", "Knight+Warrior", "Warrior+Warrior"]
    r = play_batch(sc, decks, decks[::-1], [1, 2, 3], ("search-1", "balanced"))
    s = play_batch(sc, decks, decks[::-1], [1, 2, 3], ("balanced", "search-1"))
    assert all(e in ("base", "turn_limit") for e in r["end_reason"] + s["end_reason"])
