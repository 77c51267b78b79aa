"""Where a Krypton utility hero heads, as its personality's numbers say: ``guard_within`` (an enemy hero this near
the own base or an own building draws the nearest own hero) and ``siege_odds`` (the expected base HP an attack
must take before the heroes go for the enemy base rather than its Prayer Towers), on literal cells."""

from __future__ import annotations

import pytest
from krypton_positions import BASE, cell, new, put, tower, turn

from simkit.core.errors import ScenarioError
from simkit.games.krypton.batch import make_bot
from simkit.scenario import load_scenario

# a personality that needs no energy (no upgrade, no towers), so no hero is sent to mine
CALM = """
[bots.calm]
like = "balanced"
temperature = 0.0
upgrade = false
prayer_towers = 0
attack_towers = 0
magic_towers = 0
cards = false
"""


def personality(tmp_path, **keys):
    """The base scenario with ``[bots.calm]`` and its ``keys``."""
    extra = "\n".join(f"{k} = {v}" for k, v in keys.items())
    p = tmp_path / "calm.toml"
    p.write_text(f'extends = "{BASE.as_posix()}"\n{CALM}{extra}\n', encoding="utf-8")
    return load_scenario(p)


def walk(sc, g) -> tuple[int, int, int]:
    """Let side 0's bot play its hero's move until it does anything but step; the hero's cell then."""
    bot, _ = make_bot(sc, "calm", 0, seed=1)
    for _ in range(20):
        a = bot.choose(g, g.legal_actions())
        if a[0] != "step":
            break
        g.do(a)
    return cell(g, 0, 0)


def dist(a, b) -> int:
    return sum(abs(x - y) for x, y in zip(a, b)) // 2


@pytest.mark.parametrize("guard, nearer_threat", [(2, True), (0, False)])
def test_an_enemy_two_cells_from_the_own_base_draws_the_nearest_hero_only_within_guard_within(
        tmp_path, guard, nearer_threat):
    """Side 1's Warrior stands on (-4,2,2), two cells from side 0's base (-6,3,3). Side 0's Warrior on (0,0,0)
    with 3 movement points walks towards it at ``guard_within = 2``; at 0 nothing is a threat and it walks
    towards side 1's base (6,-3,-3) instead."""
    sc = personality(tmp_path, guard_within=guard)
    g = new("Warrior+Warrior", "Warrior+Warrior", seed=0)
    put(g, 0, 0, (0, 0, 0))
    put(g, 1, 0, (-4, 2, 2))
    turn(g, 0, 0, 3)
    end = walk(sc, g)
    threat, enemy_base = (-4, 2, 2), (6, -3, -3)
    assert end != (0, 0, 0)
    if nearer_threat:
        assert dist(end, threat) < dist((0, 0, 0), threat)
    else:
        assert dist(end, enemy_base) < dist((0, 0, 0), enemy_base)


@pytest.mark.parametrize("odds, towards_tower", [(0.3, True), (0.0, False)])
def test_with_one_die_the_heroes_go_for_a_prayer_tower_unless_siege_odds_lets_them_at_the_base(
        tmp_path, odds, towards_tower):
    """With one die an attack takes about 0.17 HP off the basic base (6+1 against 6), below ``siege_odds = 0.3``:
    side 0's Warrior on (0,0,0) heads for side 1's Prayer Tower on (-3,0,3), back towards its own
    base; at ``siege_odds = 0`` any odds will do and it heads for side 1's base (6,-3,-3) instead."""
    sc = personality(tmp_path, siege_odds=odds, guard_within=0)
    g = new("Warrior+Warrior", "Warrior+Warrior", seed=0)
    put(g, 0, 0, (0, 0, 0))
    tower(g, 1, "Prayer Tower", (-3, 0, 3))
    turn(g, 0, 0, 3)
    end = walk(sc, g)
    prayer, enemy_base = (-3, 0, 3), (6, -3, -3)
    if towards_tower:
        assert dist(end, prayer) < dist((0, 0, 0), prayer)
    else:
        assert dist(end, enemy_base) < dist((0, 0, 0), enemy_base)


@pytest.mark.parametrize("key, value, problem", [("guard_within", -1, "guard_within"),
                                                 ("guard_within", 1.5, "guard_within"),
                                                 ("siege_odds", '"high"', "siege_odds")])
def test_a_bad_guard_or_siege_number_is_refused_naming_the_key(tmp_path, key, value, problem):
    with pytest.raises(ScenarioError, match=f"bots.calm.{problem}"):
        personality(tmp_path, **{key: value})
