"""The search bot: budget as data, the policy's games at budget 1, deterministic games, legal play."""

from __future__ import annotations

import numpy as np
import pytest
from miracle_positions import BASE

import simkit
from simkit.games.miracle import batch as P
from simkit.games.miracle.batch import bot_names, make_bot
from simkit.games.miracle.bots import bot_settings
from simkit.games.miracle.search import SearchBot

DECKS = ("HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon")
SMALL = """
[bots.small]
like = "search-1"
plans = 3
depth = 1
"""


def patch(tmp_path, text: str, name: str = "patch.toml"):
    """A scenario that extends the base file with ``text``."""
    path = tmp_path / name
    path.write_text(f'extends = "{BASE.as_posix()}"\n{text}', encoding="utf-8")
    return simkit.load_scenario(path)


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """The base scenario with a cheap search bot ``small`` (3 candidate turns, one turn of look-ahead)."""
    return patch(tmp_path_factory.mktemp("search"), SMALL)


def games(sc, bots, n: int = 4, batch_size: int = 4, seed: int = 11, **kw):
    """``n`` games alternating the two test decks' seats."""
    first = [DECKS[i % 2] for i in range(n)]
    second = [DECKS[(i + 1) % 2] for i in range(n)]
    return simkit.play_games(sc, first, second, bots=bots, seeds=seed, batch_size=batch_size, **kw)


# -- the budget as data ------------------------------------------------------------------------


def test_base_scenario_has_search_rungs(base):
    """The base scenario's ladder rungs are search bots built from [bots.search-N] tables."""
    names = bot_names(base)
    assert {"search-1", "search-2", "search-3"} <= set(names)
    bot = make_bot(base, "search-1")
    assert isinstance(bot, SearchBot) and bot.policy.name == bot_settings(base).searches["search-1"].policy


def test_search_3_draws_more_and_wider_candidates_than_search_2(base):
    """search-3 is search-2 (same policy, reply, depth and value) with twice the candidate turns,
    drawn at a higher temperature: the lever the ladder measured (README "Search bots")."""
    s2, s3 = bot_settings(base).searches["search-2"], bot_settings(base).searches["search-3"]
    assert (s3.policy, s3.reply, s3.depth, s3.value) == (s2.policy, s2.reply, s2.depth, s2.value)
    assert s3.plans > s2.plans and s3.temperature > s2.temperature


def test_a_designer_adds_a_rung_without_code(small):
    """A [bots.<name>] table with `like` a search rung is a new search bot with its own budget."""
    cfg = bot_settings(small).searches["small"]
    parent = bot_settings(small).searches["search-1"]
    assert (cfg.plans, cfg.depth) == (3, 1)
    assert cfg.value == parent.value and cfg.policy == parent.policy


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('[bots.s]\nlike = "search-1"\npolicy = "genius"\n', ["patch.toml", "bots.s.policy", "balanced"]),
        ('[bots.s]\nlike = "search-1"\nreply = "random"\n', ["bots.s.reply", "utility personality"]),
        ('[bots.s]\nlike = "search-1"\nplans = 0\n', ["bots.s.plans", "at least 1"]),
        ('[bots.s]\nlike = "search-1"\ndepth = 1.5\n', ["bots.s.depth", "integer"]),
        ('[bots.s]\nlike = "search-1"\nvalue_luck = 1.0\n', ["bots.s.value_luck", "unknown key"]),
        ('[bots.s]\nlike = "search-1"\nvalue_win = "big"\n', ["bots.s.value_win", "must be a number"]),
        ('[bots.s]\npolicy = "balanced"\n', ["bots.s.reply", "missing key"]),
        ('[bots.s]\nlike = "search-1"\nadvance = 1.0\n', ["bots.s.advance", "unknown key"]),
    ],
)
def test_bad_search_tables_are_rejected_naming_file_and_key(tmp_path, text, words):
    """Every problem in a search table is refused when the scenario loads, naming the file and the key."""
    with pytest.raises(simkit.ScenarioError) as err:
        patch(tmp_path, text)
    for word in words:
        assert word in str(err.value)


# -- budget 1: the policy itself -----------------------------------------------------------------


def test_one_plan_without_look_ahead_plays_its_policys_games(tmp_path):
    """A search bot with one candidate turn and no depth plays exactly the games of its policy bot,
    in either seat, against a utility bot."""
    sc = patch(tmp_path, '[bots.mimic]\nlike = "search-1"\nplans = 1\ndepth = 0\ntemperature = 0.3\n')
    assert bot_settings(sc).personalities["balanced"].temperature == 0.3
    for bots, same in ((("mimic", "rush"), ("balanced", "rush")), (("control", "mimic"), ("control", "balanced"))):
        a, b = games(sc, bots), games(sc, same)
        cols = ["winner", "end_reason", "turns", "first_miracle_hp", "second_miracle_hp", "actions"]
        assert a[cols].equals(b[cols])


def test_candidates_without_noise_are_the_policys_own_turn(tmp_path):
    """At candidate temperature 0 every candidate is the policy's greedy turn, valued once: however
    many plans, the search plays the games of its policy bot at temperature 0."""
    sc = patch(tmp_path, '[bots.cold]\nlike = "balanced"\ntemperature = 0.0\n'
                         '[bots.blind]\nlike = "search-1"\nplans = 6\ndepth = 1\ntemperature = 0.0\n')
    cols = ["winner", "end_reason", "turns", "first_miracle_hp", "second_miracle_hp", "actions"]
    assert games(sc, ("blind", "rush"))[cols].equals(games(sc, ("cold", "rush"))[cols])
    warm = patch(tmp_path, '[bots.warm]\nlike = "search-1"\nplans = 6\ndepth = 1\ntemperature = 0.6\n', "warm.toml")
    assert not games(warm, ("warm", "rush"))[cols].equals(games(sc, ("cold", "rush"))[cols])


# -- determinism ------------------------------------------------------------------------------------


def test_same_seed_same_game_whatever_the_batch(small):
    """Games with a search bot depend only on their seeds: the same seeds give the same records,
    one game per batch or all in one."""
    together = games(small, ("small", "balanced"), n=4, batch_size=4)
    alone = games(small, ("small", "balanced"), n=4, batch_size=1)
    again = games(small, ("small", "balanced"), n=4, batch_size=4)
    assert together.equals(alone) and together.equals(again)
    other = games(small, ("small", "balanced"), n=4, batch_size=4, seed=12)
    assert not together[["turns", "actions"]].equals(other[["turns", "actions"]])


def test_batched_loop_plays_the_compiled_games(small):
    """The batched loop (recorded games) plays the same games as the compiled one, in both seats,
    and a search bot against itself."""
    for bots in (("small", "balanced"), ("rush", "small"), ("small", "small")):
        compiled = games(small, bots, n=2)
        recorded = games(small, bots, n=2, record_actions=True)
        assert compiled.equals(recorded.drop(columns="action_list"))


def test_search_bot_plays_only_legal_actions(small):
    """Every action of a recorded game with a search bot replays through the single-match API,
    which refuses illegal actions, and reaches the recorded end."""
    df = games(small, ("small", "small"), n=2, record_actions=True)
    for row in df.itertuples():
        m = small.game.replay(row.first_deck, row.second_deck, row.action_list)
        assert m.over and len(row.action_list) == row.actions


def test_search_bot_plays_against_the_random_bot(small):
    """The random bot can face a search bot (the batched loop), and the search bot wins."""
    df = games(small, ("random", "small"), n=2)
    assert (df.winner == "second").all()


def test_more_plans_change_the_choices(small):
    """With more than one candidate the search bot does not simply play its policy's games."""
    searched = games(small, ("small", "balanced"), n=4)
    policy = games(small, ("balanced", "balanced"), n=4)
    assert not searched[["turns", "actions"]].equals(policy[["turns", "actions"]])


def test_search_bots_are_cached_per_scenario(small):
    """play_batch builds a scenario's search bot once and keeps it between batches."""
    settings = bot_settings(small)
    assert P._bot(small, "small", settings) is P._bot(small, "small", settings)
    assert np.asarray(P._bot(small, "small", settings).player(small.rules)[2]).tolist()[:2] == [3.0, 1.0]
