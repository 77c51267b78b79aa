"""scripts/ladder.py: one ladder script for every game, on tiny data (few games, utility bots only)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from script_module import load

ROOT = Path(__file__).resolve().parents[2]
ladder = load("ladder")

# (scenario, rungs weakest first, the best utility): the cheap bots of each game
GAMES = {
    "miracle": ("scenarios/miracle/quick.toml", "random,rush,balanced", "control"),
    "duel": ("scenarios/duel/quick.toml", "random,aggro", "control"),
    "krypton": ("scenarios/krypton/quick.toml", "random,rush", "balanced"),
    "magic": ("scenarios/magic/base.toml", "random,aggro", "balanced"),
}


def run(tmp_path: Path, name: str, *extra: str) -> dict:
    scenario, rungs, against = GAMES[name]
    out = tmp_path / f"{name}.json"
    assert ladder.main(["--scenario", str(ROOT / scenario), "--rungs", rungs, "--against", against,
                        "--games", "4", "--workers", "1", "--json", str(out), *extra]) == 0
    return json.loads(out.read_text())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_plays_its_ladder_in_both_seats_from_its_seat_pools(tmp_path, name, capsys):
    doc = run(tmp_path, name, "--cost-games", "1")
    import simkit

    sc = simkit.load_scenario(ROOT / GAMES[name][0])
    firsts, seconds = sc.game.seat_decks()
    rungs = GAMES[name][1].split(",")
    pairs = [(m["upper"], m["lower"]) for m in doc["matches"]]
    assert pairs[: len(rungs) - 1] == list(zip(rungs[1:], rungs[:-1]))
    assert (rungs[-1], GAMES[name][2]) in pairs
    for m in doc["matches"]:
        assert m["games"] == 4 and m["won"] + m["drawn"] + m["lost"] == 4
        assert m["upper_first"]["games"] == m["upper_second"]["games"] == 2
        for r in m["rows"]:
            assert r["first_deck"] in firsts and r["second_deck"] in seconds
            assert {r["first_bot"], r["second_bot"]} == {m["upper"], m["lower"]}
        # each seed is played twice, the upper bot once in each seat, on the same decks
        by_seed = {}
        for r in m["rows"]:
            by_seed.setdefault(r["seed"], []).append(r)
        assert all(len(v) == 2 and v[0]["first_deck"] == v[1]["first_deck"]
                   and v[0]["first_bot"] == v[1]["second_bot"] for v in by_seed.values())
        assert m["win_ci"][0] <= m["win_rate"] <= m["win_ci"][1]
        assert m["score_ci"][0] <= m["score"] <= m["score_ci"][1]
        assert m["score"] == pytest.approx(m["win_rate"] + m["drawn"] / 8)
    goals = sorted(v["target"] for v in doc["verdicts"])
    assert goals == [0.6] * (len(rungs) - 1) + [0.75]
    assert [c["rung"] for c in doc["costs"]] == [*rungs, GAMES[name][2]]
    for c in doc["costs"]:
        assert c["cpu_s_per_game"] > 0 and c["sweep_pairs"] == len(firsts) * len(seconds)
        assert c["sweep_minutes"] == pytest.approx(c["sweep_pairs"] * c["cpu_s_per_game"] / 2 / 60)
    printed = capsys.readouterr().out
    assert printed.count("PASS ") + printed.count("short ") == len(doc["verdicts"])


def test_the_results_do_not_depend_on_the_workers(tmp_path):
    one = run(tmp_path / "one", "duel")
    two = run(tmp_path / "two", "duel", "--workers", "2")
    for a, b in zip(one["matches"], two["matches"], strict=True):
        assert a["rows"] == b["rows"]
    assert one["verdicts"] == two["verdicts"]


def test_the_plan_gives_every_match_its_targets_once():
    assert ladder.plan(["a", "b", "c"], "u") == {("b", "a"): [0.6], ("c", "b"): [0.6], ("c", "a"): [],
                                                 ("c", "u"): [0.75]}
    # the best utility is the rung below the top: one match, both targets
    assert ladder.plan(["u", "s"], "u") == {("s", "u"): [0.6, 0.75]}
    assert ladder.plan(["a", "b", "c"], None, top_vs_bottom=False) == {("b", "a"): [0.6], ("c", "b"): [0.6]}


def test_a_duration_is_said_in_the_unit_that_reads():
    assert [ladder.duration(x) for x in (3.4, 119, 600, 7300)] == ["3 s", "119 s", "10.0 min", "2.0 h"]


def test_a_verdict_is_on_the_win_rate_and_says_what_the_interval_says():
    m = {"upper": "s", "lower": "u", "win_rate": 0.62, "win_ci": (0.57, 0.67)}
    v = ladder.verdict(m, 0.6)
    assert v["passed"] and not v["ci_clears"]
    assert ladder.verdict_line(v).startswith("PASS  s over u: won 62.0% >= 60%")
    assert ladder.verdict_line(ladder.verdict(m, 0.75)).startswith("short s over u: won 62.0% < 75%")


def test_seeds_per_deal_gives_each_match_its_skill_or_luck(tmp_path, capsys):
    doc = run(tmp_path, "duel", "--games", "8", "--seeds-per-deal", "2")
    for m in doc["matches"]:
        s = m["skill_or_luck"]
        assert s["games"] == 8 and s["deals"] == 2 and s["seeds_per_deal"] == 2
        assert s["total"] >= 0
        if s["total"] > 0:  # a match whose every game gives the first seat the same score has nothing to split
            assert s["share"]["skill"] + s["share"]["decks"] + s["share"]["luck"] == pytest.approx(1)
    assert "skill or luck (2 deals x 2 seat orders x 2 seeds = 8 games" in capsys.readouterr().out


def test_games_not_a_multiple_of_the_design_is_refused():
    with pytest.raises(SystemExit):
        ladder.main(["--scenario", str(ROOT / "scenarios/duel/quick.toml"), "--rungs", "random,aggro",
                     "--games", "6", "--seeds-per-deal", "2"])


def test_a_round_robin_plays_every_pair_once_and_scores_each_bot(tmp_path, capsys):
    assert ladder.plan(["a", "b", "c"], None, round_robin=True) == {("b", "a"): [], ("c", "a"): [], ("c", "b"): []}
    out = tmp_path / "rr.json"
    assert ladder.main(["--scenario", str(ROOT / "scenarios/duel/quick.toml"), "--rungs", "random,aggro,control",
                        "--round-robin", "--games", "4", "--workers", "1", "--json", str(out)]) == 0
    doc = json.loads(out.read_text())
    assert [(m["upper"], m["lower"]) for m in doc["matches"]] == [("aggro", "random"), ("control", "random"),
                                                                  ("control", "aggro")]
    assert doc["verdicts"] == []
    table = doc["round_robin"]
    assert {b: v["games"] for b, v in table.items()} == {"random": 8, "aggro": 8, "control": 8}
    # every game's point goes to one of its two bots
    assert sum(v["score"] * v["games"] for v in table.values()) == pytest.approx(12)
    assert "mean score over its matches" in capsys.readouterr().out


def test_a_game_with_a_lock_round_says_how_many_draws_were_settled_and_when(tmp_path, capsys):
    """Krypton declares ``lock_round``: every row carries its game's lock round (-1: none), a locked game is a
    draw, and the match's figures count them; a game without the capability has no such figures."""
    doc = run(tmp_path, "krypton")
    for m in doc["matches"]:
        k = m["locks"]
        locked = [r for r in m["rows"] if r["lock_round"] >= 0]
        assert k["locked"] == len(locked) and k["games"] == 4 and k["locked_won"] == 0
        assert all(r["winner"] == "draw" and 1 <= r["lock_round"] <= r["turns"] for r in locked)
        assert k["draws_locked"] == len(locked) <= k["draws"] == m["drawn"]
    assert capsys.readouterr().out.count("    locked: ") == len(doc["matches"])
    assert all("locks" not in m for m in run(tmp_path, "duel")["matches"])


def test_the_lock_sentence_says_the_share_the_draws_and_the_rounds():
    k = ladder.locks([{"winner": "draw", "lock_round": 12}, {"winner": "draw", "lock_round": 20},
                      {"winner": "draw", "lock_round": -1}, {"winner": "first", "lock_round": -1}])
    assert (k["locked"], k["draws"], k["draws_locked"], k["locked_won"]) == (2, 3, 2, 0)
    line = ladder.lock_line(k, "round")
    assert "2 of 4 games (50.0%" in line and "2 of the 3 draws, in round 16 (median" in line
    assert "none of them was won" in line
    none = ladder.lock_line(ladder.locks([{"winner": "first", "lock_round": -1}]), "round")
    assert "none of the 1 games (0 drawn) locked" in none
