"""The template game (simkit/games/_template/): its rules clause by clause on literal positions, the
game interface's contract, the two speeds of its one engine, and sweep, report, check and play end to end."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from simkit import IllegalAction, ScenarioError, load_scenario
from simkit.cli import main
from simkit.games import EXPERIENCE_COLUMNS, game_names, get_game
from simkit.games._template import engine as E
from simkit.games._template import lead as L
from simkit.games._template.batch import play_batch
from simkit.games._template.invariants import TemplateInvariants
from simkit.games._template.match import Match
from simkit.games.kits.state import place
from simkit.testing.api import api_test
from simkit.testing.rule_check import run_invariant_games

ROOT = Path(__file__).resolve().parents[2]
BASE = ROOT / "scenarios" / "_template" / "base.toml"
QUICK = ROOT / "scenarios" / "_template" / "quick.toml"
A, B = "Blast+Jab+Spark", "Drain+Mend+Spark"


@pytest.fixture(scope="module")
def sc():
    """The template's base scenario (all 10 decks)."""
    return load_scenario(BASE)


def position(sc, first=A, second=B, turn=1, p0=None, p1=None, rolls=(0.0,) * 32) -> Match:
    """A match put into a hand-written position: per seat ``hp``, ``energy`` and ``uses`` (card -> uses
    left); ``rolls`` are the damage rolls to come (uniforms: 0.0 the least damage, 0.99 the most). The
    position is written in the state's own names (``simkit.games.kits.state.place``)."""
    m = Match(sc, first, second)
    players = {}
    for seat, spec in enumerate((p0 or {}, p1 or {})):
        names = [sc.rules.names[int(c)] for c in m.lists[seat]]
        players[seat] = {k: v for k, v in spec.items() if k != "uses"}
        players[seat]["uses"] = {names.index(card): left for card, left in spec.get("uses", {}).items()}
    place(m.state, {"turn": turn, "to_act": (turn - 1) % 2, "players": players})
    m.rolls = np.array(rolls, np.float64)
    return m


def uses(m: Match, seat: int) -> dict[str, int]:
    """The uses left of each card of ``seat``, by name (from the snapshot: ``card`` and ``uses`` by slot)."""
    return TemplateInvariants.uses(m.snapshot()["players"][seat])


# ---- registration ------------------------------------------------------------------------------------


def test_the_scenario_names_the_game_and_a_private_folder_is_not_listed(sc):
    """`game = "_template"` loads the folder by name; game_names() lists the shipped games, leaving out a
    folder whose name starts with `_` (the template: a copy under a plain name is listed), private=True adds it."""
    name = sc.game_name
    assert get_game(name) is sc.game.spec and name in game_names(private=True)
    assert (name in game_names()) == (not name.startswith("_"))
    assert len(sc.decks) == 10 and sc.game.bot_names() == ("random", "greedy", "careful")


# ---- the rules, clause by clause -------------------------------------------------------------------------


def test_a_game_starts_at_full_hp_with_the_first_turns_energy(sc):
    """Setup: both at hp 12, every card at its uses; the first player gains 2 energy on turn 1, the second none yet."""
    m = Match(sc, A, B)
    snap = m.snapshot()
    assert (snap["turn"], snap["to_act"]) == (1, 0)
    assert [(p["hp"], p["energy"]) for p in snap["players"]] == [(12, 2), (12, 0)]
    assert uses(m, 0) == {"Blast": 3, "Jab": 2, "Spark": 6}


def test_a_card_costs_energy_and_a_use_and_deals_its_rolled_damage(sc):
    """A play: Spark (cost 1, damage [1, 2]) spends 1 energy and a use; roll 0.0 deals 1, roll 0.99 deals 2."""
    m = position(sc, p0={"energy": 3}, rolls=(0.0, 0.99))
    m.do(("play", "Spark"))
    assert (m.hp(1), m.snapshot()["players"][0]["energy"], uses(m, 0)["Spark"]) == (11, 2, 5)
    m.do(("play", "Spark"))
    assert m.hp(1) == 9


def test_a_heal_never_raises_hp_above_the_start(sc):
    """Mend heals 4, up to hp 12: from 10 it reaches 12, not 14."""
    m = position(sc, first=B, p0={"hp": 10, "energy": 2})
    m.do(("play", "Mend"))
    assert m.hp(0) == 12


def test_energy_is_gained_each_own_turn_up_to_the_cap(sc):
    """end: the turn passes; the next player gains 2 energy, never above max_energy 4."""
    m = position(sc, p1={"energy": 3})
    m.do(("end",))
    assert (m.turn, m.to_act, m.snapshot()["players"][1]["energy"]) == (2, 1, 4)


@pytest.mark.parametrize("action, spec, reason", [
    (("play", "Blast"), {"energy": 2}, "not enough energy"),
    (("play", "Jab"), {"uses": {"Jab": 0}}, "no uses left"),
    (("play", "Mend"), {}, "has no card 'Mend'"),
    (("attack",), {}, "unknown action"),
])
def test_an_illegal_action_is_refused_naming_the_reason_and_changes_nothing(sc, action, spec, reason):
    """Blast costs 3 (2 energy is short), a card with no uses left, a card not in the deck, a verb not in the game."""
    m = position(sc, p0=spec)
    before = m.snapshot()
    assert action not in m.legal_actions()
    with pytest.raises(IllegalAction, match=reason):
        m.do(action)
    assert m.snapshot() == before and m.actions == []


def test_a_player_at_zero_hp_loses_at_once(sc):
    """Blast rolls 4..6: from HP 4 the least roll ends the game, hp_zero, the player who played it wins."""
    m = position(sc, p0={"energy": 4}, p1={"hp": 4})
    m.do(("play", "Blast"))
    assert (m.over, m.winner, m.end_reason, m.legal_actions()) == (True, "first", "hp_zero", [])
    with pytest.raises(IllegalAction, match="the game is over"):
        m.do(("end",))


@pytest.mark.parametrize("hp, winner", [((5, 4), "first"), ((4, 5), "second"), ((4, 4), "draw")])
def test_after_the_last_turn_more_hp_wins_equal_hp_draws(sc, hp, winner):
    """turn_limit 20: ending turn 20 ends the game, turn_limit; more HP wins, equal HP is a draw."""
    m = position(sc, turn=20, p0={"hp": hp[0]}, p1={"hp": hp[1]})
    m.do(("end",))
    assert (m.over, m.winner, m.end_reason, m.turn) == (True, winner, "turn_limit", 20)


# ---- scenario tables -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("text, words", [
    ("[rules]\nhp = 0\n", r"rules\.hp: must be at least 1"),
    ("[rules]\ncards_per_deck = 7\n", r"rules\.cards_per_deck: must be at most 6"),
    ("[cards.Spark]\ndamage = [3, 1]\n", r"cards\.Spark\.damage: min 3 is above max 1"),
    ("[cards.Spark]\npower = 2\n", r"cards\.Spark\.power: unknown key"),
    ('[decks]\npool = ["Blast+Jab+Nova"]\n', r"decks\.pool\[0\]: .*unknown card 'Nova'"),
    ("[bots.greedy]\ndamage = \"lots\"\n", r"bots\.greedy\.damage: must be a number"),
    ("[bots.random]\nwin = 1\n", r"bots\.random: 'random' is the built-in"),
    ("[board]\nsize = 3\n", r"board: unknown top-level key"),
    ("[lead]\nhp = 0\n", r"lead\.hp: must be above 0"),
    ("[lead]\nluck = 1\n", r"lead\.luck: unknown key"),
])
def test_scenario_errors_name_file_key_and_problem(tmp_path, text, words):
    """Numbers are data, checked at load: a bad rule, card, deck or bot is refused as file: key: problem."""
    path = tmp_path / "patch.toml"
    path.write_text(f'extends = "{BASE}"\n{text}', encoding="utf-8")
    with pytest.raises(ScenarioError, match="patch.toml: " + words):
        load_scenario(path)


# ---- how a game played: the lead signal and the experience figures ------------------------------------------


def lead_of(m: Match) -> float:
    """The lead signal of the match's state (the scenario's ``[lead]`` weights)."""
    return L.lead(m.state, m.rules.lead)


def test_the_lead_is_level_at_the_start_and_negates_with_the_seats(sc):
    """Equal HP and energy: 0. HP 10 and energy 2 (standing 11) against HP 4 (standing 4): 7/15; the same two
    players in the other seats: -7/15. A player at 0 HP has lost: the other's lead is 1."""
    assert lead_of(position(sc, p0={"hp": 12, "energy": 2}, p1={"hp": 12, "energy": 2})) == 0.0
    ahead = lead_of(position(sc, p0={"hp": 10, "energy": 2}, p1={"hp": 4, "energy": 0}))
    assert ahead == pytest.approx(7 / 15)
    assert lead_of(position(sc, first=B, second=A, p0={"hp": 4, "energy": 0}, p1={"hp": 10, "energy": 2})) == -ahead
    assert lead_of(position(sc, p0={"hp": 0, "energy": 4}, p1={"hp": 1})) == -1.0


def test_a_wire_to_wire_win(sc):
    """First: Blast (4) takes 5 HP to 1 and both end their turns (12.5 against 1, then 2: ahead), then Jab wins.
    No lead change, never behind, decided at turn 1; decisions among 4 (Blast, Jab, Spark, end), 3, 4, 4."""
    m = position(sc, p0={"hp": 12, "energy": 4}, p1={"hp": 5, "energy": 0})
    for action in (("play", "Blast"), ("end",), ("end",), ("play", "Jab")):
        m.do(action)
    assert (m.winner, m.turn) == ("first", 3)
    f = m.figures()
    assert (f["lead_changes"], f["winner_deficit"], f["decided_turn"], f["decisions"], f["choices"]) == (0, 0, 1, 4,
                                                                                                          3.75)


def test_a_comeback(tmp_path):
    """With [lead] energy = 0 (HP alone): the first player at 3 HP, behind 11 and 11 after turns 1 and 2 (-8/14),
    takes the second from 11 to 1 at turn 3 (Blast 6, Jab, Jab, Spark 2: 3 against 1, 1/2) and wins at turn 5. One
    change, the winner's deficit 4/7, decided at turn 3. Decisions (legal actions): 1: Spark (4), end (4); 2: end
    (4); 3: Blast (4), Jab (3), Jab (3), Spark (2), end (1); 4: end (4); 5: Spark (2): 10 among 31."""
    path = tmp_path / "hp-only.toml"
    path.write_text(f'extends = "{BASE}"\n[lead]\nenergy = 0\n', encoding="utf-8")
    m = position(load_scenario(path), p0={"hp": 3, "energy": 4}, p1={"hp": 12, "energy": 0},
                 rolls=(0.0,) + (0.99,) * 31)
    for action in (("play", "Spark"), ("end",), ("end",), ("play", "Blast"), ("play", "Jab"), ("play", "Jab"),
                   ("play", "Spark"), ("end",), ("end",), ("play", "Spark")):
        m.do(action)
    assert (m.winner, m.turn) == ("first", 5)
    f = m.figures()
    assert (f["lead_changes"], f["decided_turn"], f["decisions"], f["choices"]) == (1, 3, 10, 3.1)
    assert f["winner_deficit"] == pytest.approx(4 / 7)


def test_a_draw_at_the_turn_limit(tmp_path):
    """Turn limit 3: the first leads after turn 1 (12 against 7 + energy 2 * 0.5: 1/5), the second after turn 2
    (Drain 3 and heal 2, Spark 2: 7 against 9 + 0.5), level after turn 3 (two Jabs: 7 + 1 against 7 + 0.5,
    within the band) and equal HP draws. One change, no deficit nor deciding turn; 9 decisions among 27."""
    path = tmp_path / "three.toml"
    path.write_text(f'extends = "{BASE}"\n[rules]\nturn_limit = 3\n', encoding="utf-8")
    m = position(load_scenario(path), p0={"hp": 12, "energy": 4}, p1={"hp": 12, "energy": 2},
                 rolls=(0.0, 0.0) + (0.99,) * 30)
    for action in (("play", "Blast"), ("play", "Spark"), ("end",), ("play", "Drain"), ("play", "Spark"), ("end",),
                   ("play", "Jab"), ("play", "Jab"), ("end",)):
        m.do(action)
    assert (m.winner, m.end_reason, m.hp(0), m.hp(1)) == ("draw", "turn_limit", 7, 7)
    f = m.figures()
    assert (f["lead_changes"], f["decisions"], f["choices"]) == (1, 9, 3.0)
    assert np.isnan(f["winner_deficit"]) and np.isnan(f["decided_turn"])


def test_the_match_records_the_batchs_figures(sc):
    """A batch's games replayed through the Match record the same experience figures."""
    out = play_batch(sc, list(sc.decks[:4]), list(sc.decks[4:8]), [1, 2, 3, 4], ("greedy", "random"),
                     record_actions=True)
    for g in range(4):
        m = Match(sc, out["first_deck"][g], out["second_deck"][g], seed=out["seed"][g])
        for action in out["action_list"][g]:
            m.do(action)
        assert json.dumps(m.figures()) == json.dumps({c: out[c][g] for c in EXPERIENCE_COLUMNS})


# ---- the game interface, bots, invariants -------------------------------------------------------------------


@pytest.mark.parametrize("bots", [("random", "random"), ("greedy", "careful")])
def test_the_game_passes_api_test(sc, bots):
    """The game interface's contract (simkit.testing.api_test) holds, random and utility bots."""
    done = api_test(sc, games=6, bots=bots)
    assert done["games"] == 6 and done["actions"] > 0 and done["illegal_probes"] > 0


def test_the_utility_bots_beat_random(sc):
    """The bots' weights mean something: greedy wins at least 60% of 1,000 games against random, each
    holding every deck against every deck, in both seats (random against random: about half)."""
    first = [a for a in sc.decks for b in sc.decks for _ in range(5)]
    second = [b for a in sc.decks for b in sc.decks for _ in range(5)]
    seeds = list(range(len(first)))
    won = sum(play_batch(sc, first, second, seeds, bots)["winner"].count(seat)
              for bots, seat in ((("greedy", "random"), "first"), (("random", "greedy"), "second")))
    assert won >= 600


def test_the_invariants_hold_over_bot_and_random_games(sc):
    """check: every invariant holds after every action of random and bot games (run_invariant_games)."""
    report = run_invariant_games(sc, TemplateInvariants(sc), games=6)
    assert report.passed and report.actions > 100 and report.invariants == TemplateInvariants.names


@pytest.mark.parametrize("seat, key, value, action, name", [
    (1, "hp", 13, ("play", "Spark"), "hp_bounds"),                  # above the starting 12
    (1, "energy", 5, ("play", "Spark"), "energy_bounds"),           # above max_energy 4
    (1, ("uses", "Mend"), 4, None, "uses_bounds"),                  # Mend has 3 uses
    (0, ("uses", "Spark"), 6, ("play", "Spark"), "play_accounting"),  # the play spent no use
    (None, "turn", 21, ("play", "Spark"), "turn_bounds"),           # beyond turn_limit 20
])
def test_each_invariant_catches_its_broken_state(sc, seat, key, value, action, name):
    """A step broken on purpose in one way breaks that invariant alone (the unbroken step breaks none)."""
    inv = TemplateInvariants(sc)
    m = Match(sc, A, B)
    before = m.snapshot()
    m.do(("play", "Spark"))
    after = json.loads(json.dumps(m.snapshot()))
    assert inv.invariants(before, ("play", "Spark"), after) == []
    where = after if seat is None else after["players"][seat]
    if isinstance(key, tuple):  # ("uses", card): that card's slot of the uses
        where, key = where["uses"], where["card"].index(key[1])
    where[key] = value
    assert inv.invariants(before, action, after) == [name]


def test_narration_tells_the_game(sc):
    """narrate: one line per action, ending with the result."""
    res = play_batch(sc, [A], [B], [7], ("greedy", "careful"), record_actions=True)
    lines = sc.game.capability("narrate")(A, B, res["action_list"][0], bots=("greedy", "careful"), seed=7)
    assert lines[0].startswith(f"Template game · first: {A} (greedy)")
    assert len(lines) == res["actions"][0] + 2 and lines[-1].startswith(f"game over on turn {res['turns'][0]}")


# ---- one engine, two speeds ------------------------------------------------------------------------------------

_GAMES = ("import json, simkit; from simkit.games._template.batch import play_batch;"
          f"sc = simkit.load_scenario({str(BASE)!r});"
          "print(json.dumps(play_batch(sc, list(sc.decks), list(sc.decks[::-1]), list(range(10)), ('greedy', 'random'),"
          " record_actions=True)))")


def test_the_rules_run_compiled_and_as_plain_python_and_play_the_same_games(sc):
    """The same source, compiled by numba here and run as plain Python under NUMBA_DISABLE_JIT=1: the same
    10 games, action by action, and the same experience figures (compared as JSON text: NaN equals NaN)."""
    if type(E.step).__name__ != "CPUDispatcher":
        pytest.skip("this process runs un-jitted too (NUMBA_DISABLE_JIT=1): nothing to compare")
    env = {**os.environ, "NUMBA_DISABLE_JIT": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", _GAMES], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    here = json.dumps(play_batch(sc, list(sc.decks), list(sc.decks[::-1]), list(range(10)), ("greedy", "random"),
                                 record_actions=True))
    assert done.stdout.strip() == here and sum(json.loads(here)["actions"]) > 100


# ---- sweep, report, check, play end to end --------------------------------------------------------------------


def test_sweep_report_check_and_play_run_on_the_quick_scenario(tmp_path, capsys):
    """The generic commands run on the quick scenario unchanged."""
    results, report = tmp_path / "results", tmp_path / "report" / "quick.pdf"
    assert main(["sweep", str(QUICK), "--games", "2", "--out", str(results), "--workers", "1"]) == 0
    assert main(["report", str(results), "-o", str(report), "--bootstrap", "20"]) == 0
    assert report.is_file() and (report.parent / "quick.cards.csv").is_file()
    assert main(["check", str(QUICK), "--profile", "ci", "--examples", "4"]) == 0
    assert main(["play", str(QUICK), A, B, "--bots", "greedy,careful", "--seed", "3",
                 "--json", str(tmp_path / "game.json")]) == 0
    out = capsys.readouterr().out
    assert "16 ordered pairs x 2 games" in out and "PASSED" in out and "game over on turn" in out
