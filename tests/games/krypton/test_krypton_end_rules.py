"""Krypton's authored end rules (simkit's proposals against the lock, not the designer's): sudden death after a
round, the base's HP then tier deciding at the round cap, and a locked game ending drawn at once.

One test per clause on literal positions of the base scenario; the default (the rules page's rule) is held by
``test_krypton_rules.py`` and, game for game, by ``scripts/same_games.py``."""

from __future__ import annotations

import pytest
from krypton_positions import BASE, dice, new, put, scenario, sides, tower, turn

from simkit.scenario import load_scenario


def variant(tmp_path, **rules) -> object:
    """The base scenario with these ``[rules]`` keys (TOML literals), loaded."""
    p = tmp_path / "variant.toml"
    body = "\n".join(f"{k} = {v}" for k, v in rules.items())
    p.write_text(f'extends = "{BASE.as_posix()}"\n[rules]\n{body}\n', encoding="utf-8")
    return load_scenario(p)


def base_hit_in_round(sc, round_: int):
    """Side 0's Warrior beside the enemy's basic base (defence 6) on a plain, in round ``round_``, attacks it with
    one die scripted to 6: 6 + 1 takes 1 of its 10 HP."""
    g = new(sc=sc)
    put(g, 0, 0, (5, -3, -2))
    turn(g, 0, 0, 0)
    g.state.turn = 2 * g.team * (round_ - 1)
    dice(g, 6)
    g.do(("attack", 6, -3, -3))
    return g


# ---- sudden_death_round ------------------------------------------------------------------------------------

def test_sudden_death_a_base_hp_taken_after_the_round_wins(tmp_path):
    """sudden_death_round = 20: in round 21 the first base HP taken ends the game; its taker wins."""
    g = base_hit_in_round(variant(tmp_path, sudden_death_round=20), 21)
    assert g.state.sides[1].base_hp == 9
    assert g.over and g.winner == "first" and g.end_reason == "sudden_death" and g.round == 21
    assert g.legal_actions() == []


def test_sudden_death_a_base_hp_taken_in_the_round_itself_plays_on(tmp_path):
    """sudden_death_round = 20: a base HP taken in round 20 is only an HP (the game goes on)."""
    g = base_hit_in_round(variant(tmp_path, sudden_death_round=20), 20)
    assert g.state.sides[1].base_hp == 9 and not g.over


def test_without_sudden_death_a_late_base_hp_is_only_an_hp():
    """The rules page's rule (sudden_death_round = 0): a base HP taken in round 49 ends nothing."""
    g = base_hit_in_round(scenario(), 49)
    assert g.state.sides[1].base_hp == 9 and not g.over


def test_sudden_death_round_must_come_before_the_cap(tmp_path):
    """A sudden-death round at or past max_rounds would never start: refused naming the key."""
    with pytest.raises(ValueError, match=r"sudden_death_round.*at most 49"):
        variant(tmp_path, sudden_death_round=50)


# ---- turn_limit_result = "base_hp_tier" --------------------------------------------------------------------

def at_the_cap(sc, base_hp, tier):
    """The last hero turn of round 50 ends with the bases at ``base_hp`` and ``tier``."""
    g = new(sc=sc)
    g.state.turn = 2 * g.team * g.rules.settings["max_rounds"] - 1
    sides(g, base_hp=list(base_hp), tier=list(tier))
    g.do(("end",))
    return g


@pytest.mark.parametrize("base_hp, tier, winner", [
    ((8, 7), (1, 2), "first"),    # more base HP wins, whatever the tiers
    ((7, 7), (1, 2), "second"),   # equal HP: the higher tier wins
    ((7, 7), (2, 2), "draw"),     # equal HP and tier: a draw
])
def test_base_hp_tier_at_the_cap_more_hp_then_higher_tier_wins(tmp_path, base_hp, tier, winner):
    """turn_limit_result = "base_hp_tier": at the cap more base HP wins, then the higher base tier, else a draw."""
    g = at_the_cap(variant(tmp_path, turn_limit_result='"base_hp_tier"'), base_hp, tier)
    assert g.over and g.winner == winner and g.end_reason == "turn_limit" and g.round == 50


def test_base_hp_alone_at_the_cap_ignores_the_tier(tmp_path):
    """turn_limit_result = "base_hp" (the rules page's option): equal base HP is a draw whatever the tiers."""
    g = at_the_cap(variant(tmp_path, turn_limit_result='"base_hp"'), (7, 7), (1, 2))
    assert g.over and g.winner == "draw"


# ---- end_at_lock -------------------------------------------------------------------------------------------

def locked_position(sc):
    """Round 30, side 0's first hero ends its turn: every vein dry, 4 energy a side (no Prayer Tower, no upgrade
    to pay for), both bases advanced (defence 10) and one die a side (6 + 1 for a plain never beats 10)."""
    g = new(sc=sc)
    turn(g, 0, 0, 0)
    g.state.turn = 2 * g.team * 29
    g.state.stock[:] = 0
    sides(g, energy=[4, 4], tier=[2, 2])
    return g


def test_end_at_lock_a_locked_game_ends_drawn_at_the_next_hero_turn(tmp_path):
    """end_at_lock = true: the hero turn that starts locked ends the game at once, drawn, end reason "lock"."""
    g = locked_position(variant(tmp_path, end_at_lock="true"))
    g.do(("end",))
    assert g.over and g.winner == "draw" and g.end_reason == "lock" and g.round == 30
    assert g.legal_actions() == [] and g.events[-1][1] == "lock"


def test_end_at_lock_a_second_die_in_reach_is_no_lock(tmp_path):
    """end_at_lock = true: side 1 holding 5 energy (a Prayer Tower's price) is not locked out: the game goes on."""
    g = locked_position(variant(tmp_path, end_at_lock="true"))
    sides(g, energy=[4, 5])
    g.do(("end",))
    assert not g.over and g.round == 30


def test_end_at_lock_a_standing_prayer_tower_is_no_lock(tmp_path):
    """end_at_lock = true: a second die (12 + 1 beats 10) keeps the game going."""
    g = locked_position(variant(tmp_path, end_at_lock="true"))
    tower(g, 1, "Prayer Tower", (3, -4, 1))
    g.do(("end",))
    assert not g.over


def test_without_end_at_lock_a_locked_game_plays_on():
    """The rules page's rule: a locked game goes on to the round cap."""
    g = locked_position(scenario())
    g.do(("end",))
    assert not g.over and g.round == 30


# ---- siege_round -------------------------------------------------------------------------------------------

def test_siege_a_bases_defence_falls_by_the_step_for_every_round_past_the_siege_round(tmp_path):
    """siege_round = 25, siege_step = 2: an advanced base keeps its 10 in round 25, has 8 in round 26 and 6 in 27;
    a basic base (6) is at 0 from round 28 on, never below."""
    g = new(sc=variant(tmp_path, siege_round=25, siege_step=2))
    sides(g, tier=[2, 1])
    seen = []
    for round_ in (25, 26, 27, 28, 40):
        g.state.turn = 2 * g.team * (round_ - 1)
        seen.append((g.base_defense(0), g.base_defense(1)))
    assert seen == [(10, 6), (8, 4), (6, 2), (4, 0), (0, 0)]


def test_siege_one_die_hurts_an_advanced_base_once_its_defence_has_fallen(tmp_path):
    """siege_round = 25: in round 29 the advanced base's defence is 6 (10 - 4): 6 + 1 for a plain takes 1 HP, where
    under the page's rule one die can never hurt it."""
    sc = variant(tmp_path, siege_round=25)
    for rule, hp in ((sc, 9), (scenario(), 10)):
        g = new(sc=rule)
        sides(g, tier=[1, 2])
        put(g, 0, 0, (5, -3, -2))
        turn(g, 0, 0, 0)
        g.state.turn = 2 * g.team * 28
        dice(g, 6)
        g.do(("attack", 6, -3, -3))
        assert g.state.sides[1].base_hp == hp


def test_siege_no_lock_while_a_falling_defence_can_still_be_beaten(tmp_path):
    """siege_round = 25 with end_at_lock: the dry, one-die position of round 30 is no lock (by the cap the bases'
    defence is 0), so the game goes on; the page's rule would end it."""
    g = locked_position(variant(tmp_path, siege_round=25, end_at_lock="true"))
    g.do(("end",))
    assert not g.over


def test_siege_round_must_come_before_the_cap(tmp_path):
    """A siege round at or past max_rounds would never start: refused naming the key."""
    with pytest.raises(ValueError, match=r"siege_round.*at most 49"):
        variant(tmp_path, siege_round=50)


# ---- one engine, two speeds --------------------------------------------------------------------------------

#: one `tuned` mirror per variant in which its end rule decides the game (found in the variants' sweeps)
VARIANT_GAMES = [
    ("variant-lock-draw.toml", "Archer+Archer", "Archer+Knight", 6171483337136615685, "lock"),
    ("variant-sudden-death.toml", "Warrior+Warrior", "Archer+Knight", 6122923127788976758, "sudden_death"),
    ("variant-base-damage.toml", "Archer+Archer", "Archer+Warrior", 3717115042008713489, "turn_limit"),
]


def test_the_end_rules_play_the_same_games_compiled_and_as_plain_python():
    """Each variant's game, ended by its own rule, is the same game (every column and action) compiled and under
    NUMBA_DISABLE_JIT=1: the end rules live once, in the compiled engine."""
    import json
    import os
    import subprocess
    import sys

    from simkit.games.krypton.batch import play_batch

    root = BASE.parents[2]
    games = [(str(BASE.parent / f), a, b, seed) for f, a, b, seed, _ in VARIANT_GAMES]
    code = (
        "import json; from simkit.scenario import load_scenario;"
        "from simkit.games.krypton.batch import play_batch;"
        f"g = {games!r};"
        "print(json.dumps([play_batch(load_scenario(f), [a], [b], [s], ('tuned', 'tuned'), record_actions=True)"
        " for f, a, b, s in g]))"
    )
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(root)}
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    here = [play_batch(scenario(f), [a], [b], [s], ("tuned", "tuned"), record_actions=True) for f, a, b, s in games]
    assert [r["end_reason"][0] for r in here] == [v[-1] for v in VARIANT_GAMES]
    assert here[2]["winner"][0] != "draw"
    assert json.loads(done.stdout) == json.loads(json.dumps(here))
