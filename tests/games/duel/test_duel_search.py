"""The Card Duel's search bot: the generic turn-search loop compiled against the duel's hooks
(issue 15 point 1, issue 17 point 5): a rung of data, deterministic, stronger than its policy, and
blind to what its seat cannot see."""

from __future__ import annotations

import numpy as np
import pytest

import simkit
from simkit.games.duel import engine as E
from simkit.games.duel import fast_search as FS
from simkit.games.duel.batch import bot_names, bot_settings, game_seeds, play_batch, search_tables
from simkit.games.duel.invariants import scramble_hidden
from simkit.games.duel.match import Match
from simkit.games.duel.state import MAX_LEGAL, R_OK
from simkit.games.duel.tables import deck_list
from simkit.games.kits import turn_search as loop
from simkit.scenario import ScenarioError
from simkit.testing import api_test
from tests.duel_positions import A, B, duel, patched

QUICK = "scenarios/duel/quick.toml"


def test_search_rung_is_data():
    """The rung search-1 is a [bots] table with a policy: its budget and value weights are read from the file."""
    sc = duel()
    assert "search-1" in bot_names(sc)
    cfg = bot_settings(sc).searches["search-1"]
    assert (cfg.policy, cfg.plans, cfg.depth, cfg.hidden, cfg.samples) == ("control", 16, 1, "absent", 1)
    assert cfg.value.hp == 1.0 and cfg.value.win == 100.0


def test_search_naming_an_unknown_policy_is_refused(tmp_path):
    """A search table whose policy is no personality fails with the file, the key and the problem."""
    with pytest.raises(ScenarioError, match=r"bots\.search-9\.policy: .*got 'rush'"):
        bot_settings(patched(tmp_path, '[bots.search-9]\npolicy = "rush"\nplans = 2\n'))


def test_same_seed_same_game_whatever_the_batch():
    """A game with a search bot depends only on its seed: alone or among others, the same record (compared as
    text: a NaN experience figure equals itself)."""
    sc = simkit.load_scenario(QUICK)
    decks = list(sc.decks)
    first, second, seeds = decks[:4], decks[2:6], [5, 6, 7, 8]
    whole = play_batch(sc, first, second, seeds, bots=("search-1", "aggro"))
    for g in (0, 3):
        alone = play_batch(sc, [first[g]], [second[g]], [seeds[g]], bots=("search-1", "aggro"))
        for column, values in alone.items():
            assert repr(values[0]) == repr(whole[column][g]), column
    again = play_batch(sc, first, second, seeds, bots=("search-1", "aggro"))
    assert repr(again) == repr(whole)


def test_search_beats_its_policy():
    """search-1 beats aggro in more than half of 100 games over the quick pool, both seats."""
    sc = simkit.load_scenario(QUICK)
    decks = list(sc.decks)
    pick = np.random.default_rng(3)
    first = [decks[int(j)] for j in pick.integers(0, len(decks), 50)]
    second = [decks[int(j)] for j in pick.integers(0, len(decks), 50)]
    seeds = list(range(50))
    a = play_batch(sc, first, second, seeds, bots=("search-1", "aggro"))
    b = play_batch(sc, first, second, seeds, bots=("aggro", "search-1"))
    wins = a["winner"].count("first") + b["winner"].count("second")
    assert wins > 50, wins


def _plan(sc, state, seat, players, counter):
    """The turn search-1 plans for ``seat`` from ``state`` (its view) with the bot stream at ``counter``."""
    r = sc.rules
    kinds, policy, reply, params, values, hidden, decks = players
    plans, _, _, _, samples, _, _, _ = loop.budget(params[seat])
    ctx = FS.make_ctx(r.settings, r.cards, r.effects, samples)
    own = deck_list(r, (A, B)[seat])
    FS.prepare(ctx, state, seat, own, decks, hidden[seat], samples, np.uint64(counter))
    plan, best = np.zeros(FS.TURN_CAP + 1, np.int64), np.zeros(FS.TURN_CAP + 1, np.int64)
    keys = np.array([game_seeds(11)[1]], np.uint64)
    n = FS.search_turn(ctx, 0, seat, policy[seat], reply[seat], params[seat], values[seat], keys,
                       np.array([counter], np.uint64), FS.TURN_CAP, plan, best,
                       np.zeros(plans, np.uint64))
    return best[:n].tolist()


SAMPLING = '[bots.search-s]\nlike = "search-1"\nplans = 8\nhidden = "sample"\nsamples = 3\n'


@pytest.mark.parametrize("bot", ["search-1", "search-s"])
def test_search_decisions_do_not_depend_on_hidden_information(bot, tmp_path):
    """12: at every turn start of a whole game, the search plans the same turn from the real state and from
    one whose hidden parts (opponent hand, traps, discard, both source piles, the stream) were scrambled:
    search-1 (hidden cards absent) and a search dealing 3 worlds from the view (hidden = "sample")."""
    sc = patched(tmp_path, SAMPLING)
    players = search_tables(sc, (bot, bot))
    m = Match(sc, A, B, seed=11)
    r = sc.rules
    checked, turn = 0, -1
    while not m.over and checked < 12:
        seat = m.to_act
        if m.turn != turn:
            turn = m.turn
            plans = [_plan(sc, s, seat, players, checked) for s in (m.state, scramble_hidden(m.state, seat))]
            assert plans[0] == plans[1] and plans[0]
            checked += 1
            for a in plans[0]:
                k, x, y = FS.decode(a)
                if m.over or E.check(m.state, k, x, y, r.settings, r.cards) != R_OK:
                    break
                E.step(m.state, k, x, y, r.settings, r.cards, r.effects)
            continue
        legal = np.zeros((MAX_LEGAL, 3), np.int64)
        n = E.legal(m.state, legal, r.settings, r.cards)
        E.step(m.state, *legal[n - 1], r.settings, r.cards, r.effects)
    assert checked >= 8


def test_a_sampling_search_is_data_and_its_games_depend_on_the_seed_only(tmp_path):
    """hidden = "sample" with samples = 3 is read from the file; its games alone or in a batch are the same, and
    they differ from search-1's (the worlds it values on are not the hidden-cards-absent one)."""
    sc = patched(tmp_path, SAMPLING)
    cfg = bot_settings(sc).searches["search-s"]
    assert (cfg.hidden, cfg.samples, cfg.plans, cfg.policy) == ("sample", 3, 8, "control")
    decks = list(sc.decks)[:6]
    first, second, seeds = decks[:3], decks[3:], [4, 5, 6]
    whole = play_batch(sc, first, second, seeds, bots=("search-s", "aggro"))
    alone = play_batch(sc, [first[1]], [second[1]], [seeds[1]], bots=("search-s", "aggro"))
    assert all(repr(values[0]) == repr(whole[column][1]) for column, values in alone.items())
    absent = play_batch(sc, first, second, seeds, bots=("search-1", "aggro"))
    assert whole["actions"] != absent["actions"]


@pytest.mark.parametrize("text, message", [
    ('hidden = "peek"', r"hidden: must be one of absent, sample, got 'peek'"),
    ("samples = 0", r"samples: must be a whole number from 1 to 64"),
    ("margin = -1", r"margin: must be at least 0"),
])
def test_a_search_table_with_a_bad_hidden_or_samples_is_refused(tmp_path, text, message):
    """What a search does with hidden cards is one of two named ways, its worlds 1 to 64, its margin >= 0."""
    with pytest.raises(ScenarioError, match=message):
        bot_settings(patched(tmp_path, f'[bots.search-9]\nlike = "search-1"\n{text}\n'))


def test_api_test_passes_with_the_search_bot():
    """The game interface's contract holds when search-1 plays aggro."""
    out = api_test(QUICK, games=4, seed=2, bots=("search-1", "aggro"))
    assert out["games"] == 4
