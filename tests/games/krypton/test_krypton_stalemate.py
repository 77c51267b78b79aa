"""The Krypton lock (simkit.games.krypton.stalemate): when no base can lose an HP any more without cards.

One test per clause on literal positions of the base scenario (dry veins, energy, dice, base tiers, the
death penalty), then the lock read from recorded games: it holds to the end once it holds, and a locked
game is never won."""

from __future__ import annotations

import pytest
from krypton_positions import BASE, new, scenario, sides, tower

from simkit.games.krypton.batch import play_one
from simkit.games.krypton.match import Match
from simkit.games.krypton.stalemate import can_add_a_die, lock_round, locked
from simkit.scenario import load_scenario


def dry(g: Match, energy=(4, 4), tiers=(2, 2)) -> Match:
    """Every vein empty, the sides' energy and base tiers as given (no Prayer Tower: one die each)."""
    g.state.stock[:] = 0
    sides(g, energy=list(energy), tier=list(tiers))
    return g


def test_dry_veins_no_energy_for_a_die_and_one_die_against_defence_10_is_a_lock():
    """6 on the one die + 1 for a plain (the best cell next to a base) = 7 never beats an advanced base's 10."""
    g = dry(new())
    assert g.dice_count(0) == g.dice_count(1) == 1
    assert locked(g)


def test_a_vein_with_stock_left_is_no_lock():
    g = dry(new())
    g.state.stock[g.index_of(0, 3, -3)] = 4
    assert can_add_a_die(g, 0) and not locked(g)


def test_energy_for_a_prayer_tower_is_no_lock():
    """5 energy pays for a Prayer Tower (a second die: 12 + 1 beats 10)."""
    g = dry(new(), energy=(0, 5))
    assert can_add_a_die(g, 1) and not can_add_a_die(g, 0) and not locked(g)


def test_energy_for_the_next_base_tier_is_no_lock(tmp_path):
    """Under ``base_tiers = "text"`` (levels 1/2/3, upgrades 15 and 30) a side at level 2 with 30 energy can
    still upgrade; with 29 it cannot (and no tower costs that much, the dry board gives nothing more)."""
    p = tmp_path / "text.toml"
    p.write_text(f'extends = "{BASE.as_posix()}"\n[rules]\nbase_tiers = "text"\n', encoding="utf-8")
    sc = load_scenario(p)
    g = dry(new(sc=sc), energy=(0, 4), tiers=(2, 2))
    assert sc.rules.upgrade_cost[1] == 30 and sc.rules.prayer_tier == 2
    sides(g, energy=[0, 4])
    assert not can_add_a_die(g, 1)
    sides(g, energy=[0, 30])
    assert can_add_a_die(g, 1)


def test_energy_the_enemy_could_take_by_a_death_is_no_lock(tmp_path):
    """With ``death_penalty_divisor = 2`` a side holding 4 energy gives 2 for a death: the other side could
    still save up for a tower, so neither side is locked out."""
    p = tmp_path / "penalty.toml"
    p.write_text(f'extends = "{BASE.as_posix()}"\n[rules]\ndeath_penalty_divisor = 2\n', encoding="utf-8")
    g = dry(new(sc=load_scenario(p)), energy=(4, 1))
    assert can_add_a_die(g, 1) and not can_add_a_die(g, 0) and not locked(g)


def test_a_basic_base_can_still_be_hurt_by_one_die():
    """The basic base's defence is 6: a 6 on the die + 1 for a plain beats it."""
    g = dry(new(), tiers=(2, 1))
    assert not locked(g)


def test_a_second_die_can_still_hurt_an_advanced_base():
    """A standing Prayer Tower gives a second die: 12 + 1 beats 10."""
    g = dry(new())
    tower(g, 0, "Prayer Tower", (-3, 4, -1))
    assert g.dice_count(0) == 2 and not locked(g)


@pytest.fixture(scope="module")
def tuned():
    return scenario(BASE.parent / "ladder-tuned.toml")


@pytest.mark.parametrize("seed, drawn", [(3, False), (5, True)])
def test_a_recorded_game_locks_once_for_good_and_only_if_drawn(tuned, seed, drawn):
    """Two `tuned` mirrors: seed 5 is drawn at the round limit and locks at one hero turn, after which every
    hero turn is locked (nothing in a lock can undo it); seed 3 is won (round 14) and never locks."""
    decks = ("Archer+Knight", "Archer+Warrior")
    g, actions = play_one(tuned, *decks, seed, ("tuned", "tuned"))
    assert (g.winner == "draw") == drawn
    at = lock_round(tuned, decks, seed, actions)
    replay, turn, seen = Match(tuned, *decks, seed, log=False), -1, []
    for a in actions:
        if replay.state.turn != turn:
            turn = replay.state.turn
            seen.append((replay.round, locked(replay)))
        replay.do(tuple(a))
    flags = [f for _, f in seen]
    if not drawn:
        assert at is None and not any(flags)
        return
    first = flags.index(True)
    assert all(flags[first:]) and seen[first][0] == at < g.round


def test_the_game_log_says_where_the_game_locked(tuned):
    """`simkit play`'s log (the narrate capability) tells the lock once, between the last hero turn before it and
    the first locked one, and changes no other line; a won game's log has no such line."""
    from simkit.games.krypton.narrate import LOCKED, narrate

    decks = ("Archer+Knight", "Archer+Warrior")
    _, drawn = play_one(tuned, *decks, 5, ("tuned", "tuned"))
    lines = narrate(tuned, *decks, drawn, seed=5)
    assert lines.count(LOCKED) == 1
    after = lines[lines.index(LOCKED) + 1]
    assert "rolls" in after or after.startswith("-- round") or "revives" in after
    _, won = play_one(tuned, *decks, 3, ("tuned", "tuned"))
    assert LOCKED not in narrate(tuned, *decks, won, seed=3)
