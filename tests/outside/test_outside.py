"""Outside bots through the library (docs/outside-bots.md): each way a program can fail is a forfeit recorded with
who and why, and every table counts forfeits apart from the games played to their end."""

from __future__ import annotations

import pytest
from outside_kit import ROOT, bad, scenario

import simkit
from simkit import outside
from simkit.analysis import analyze, forfeit_table, ordinary_games
from simkit.core.rng import derive_seed


@pytest.mark.parametrize("mode, kind", [("crash", "crash"), ("timeout", "timeout"), ("malformed", "malformed"),
                                        ("no-action", "malformed"), ("illegal", "illegal")])
def test_each_failure_is_a_forfeit_with_who_and_why(mode, kind):
    """A program that crashes, says nothing in time, answers something that is not a message or an action, or an
    action that is not legal loses the game by forfeit: end reason ``forfeit``, the other seat wins, and the row
    says which seat failed and why; the next game starts a fresh program and plays normally."""
    sc = scenario("duel")
    outside.configure(given=[f"bad={' '.join(bad(mode))}"], decision_seconds=1.0)
    df = simkit.play_games(sc, sc.decks[0], sc.decks[1], bots=("aggro", "bad"), seeds=[1, 2])
    for row in df.itertuples():
        assert (row.end_reason, row.winner, row.forfeit_seat) == ("forfeit", "first", "second")
        assert row.forfeit_reason.startswith(f"{kind}: ")
    if mode == "crash":
        assert "exited with status 3" in df["forfeit_reason"][0]
        assert "crashing on purpose" in df["forfeit_reason"][0]
    good = outside.give("good", bad("good"))
    df = simkit.play_games(sc, sc.decks[0], sc.decks[1], bots=(good.name, "aggro"), seeds=[1])
    assert df["end_reason"][0] != "forfeit" and df["forfeit_seat"][0] == ""


def test_a_game_time_limit_is_a_timeout():
    """The per-game limit counts the bot's thinking over the whole game: a program slower than the game's budget
    allows forfeits by timeout, naming the game's limit."""
    sc = scenario("duel")
    outside.configure(given=[f"bad={' '.join(bad('timeout'))}"], decision_seconds=5.0, game_seconds=0.5)
    row = simkit.play_games(sc, sc.decks[0], sc.decks[1], bots=("bad", "aggro"), seeds=[1]).iloc[0]
    assert row["forfeit_seat"] == "first" and row["forfeit_reason"].startswith("timeout: ")
    assert "the game's limit" in row["forfeit_reason"]


def test_a_program_that_cannot_start_forfeits_at_the_start():
    """A command that names no program forfeits the game before any decision, saying it cannot start."""
    sc = scenario("duel")
    outside.give("ghost", ["/nonexistent/simkit-bot"])
    row = simkit.play_games(sc, sc.decks[0], sc.decks[1], bots=("aggro", "ghost"), seeds=[1]).iloc[0]
    assert row["end_reason"] == "forfeit" and row["forfeit_reason"].startswith("crash: at the start: cannot start")
    assert row["actions"] == 0


def test_forfeits_are_counted_apart_in_every_table():
    """analyze() leaves forfeited games out of every table and counts them in its own: the decks' games are the
    ordinary games only, and the forfeits table names the bot, its seat and the kind."""
    sc = scenario("duel")
    outside.configure(given=[f"odd={' '.join(bad('crash-odd'))}"])
    decks = list(sc.decks[:2])
    pairs = [(a, b) for a in decks for b in decks]
    seeds = list(range(1, 9))
    df = simkit.play_games(sc, [a for a, _ in pairs for _ in seeds], [b for _, b in pairs for _ in seeds],
                           bots=("odd", "aggro"), seeds=seeds * len(pairs))
    df.insert(2, "game", [i % len(seeds) for i in range(len(df))])
    odd = sum(1 for s in seeds if derive_seed(s, "outside", 0) % 2) * len(pairs)
    assert 0 < odd < len(df)
    assert (df["end_reason"] == "forfeit").sum() == odd
    tables = analyze(df, bootstrap=20)
    table = tables["forfeits"]
    assert table[["bot", "seat", "kind"]].values.tolist() == [["odd", "first", "crash"]]
    assert int(table["games"].sum()) == odd
    assert int(tables["pairing_games"].sum()) == len(df) - odd
    assert (ordinary_games(df)["end_reason"] != "forfeit").all()
    assert forfeit_table(ordinary_games(df)).empty


def test_an_outside_bot_table_is_checked(tmp_path):
    """An outside bot's table with a bad command or an unknown key is refused at load, naming file and key."""
    path = tmp_path / "bad.toml"
    path.write_text(f'extends = "{ROOT / "scenarios" / "duel" / "quick.toml"}"\n[bots.mine]\ncommand = []\n')
    with pytest.raises(simkit.ScenarioError, match=r"bad.toml: bots.mine.command: must be the program"):
        simkit.load_scenario(path)
    path.write_text(f'extends = "{ROOT / "scenarios" / "duel" / "quick.toml"}"\n[bots.mine]\ncommand = ["x"]\n'
                    "timeout = 3\n")
    with pytest.raises(simkit.ScenarioError, match=r"bots.mine.timeout: unknown key"):
        simkit.load_scenario(path)


def test_a_sweep_records_its_programs_and_refuses_to_resume_with_another(tmp_path):
    """A sweep's meta.json records each outside bot's command and protocol; resuming it with another program under
    the same name is refused in one line naming both commands and the --bot that finishes it."""
    import json

    from simkit.sweep import RunOptions, SweepSettings, plan_sweep, run_sweep

    sc = scenario("duel")
    out = tmp_path / "sweep"
    outside.configure(given=[f"mine={' '.join(bad('good'))}"])
    settings = SweepSettings(games=1, decks=tuple(sc.decks[:1]), bots=("mine", "aggro"))
    run_sweep(sc, plan_sweep(sc, settings), out, RunOptions(workers=1, progress=False))
    meta = json.loads((out / "meta.json").read_text())
    assert meta["outside_bots"] == {"mine": {"command": bad("good"), "protocol": "simkit"}}
    outside.reset()
    outside.configure(given=[f"mine={' '.join(bad('crash'))}"])
    with pytest.raises(ValueError, match=r"holds a sweep whose bot 'mine' ran `.*bad_bot.py good`; this one runs "
                                         r"`.*bad_bot.py crash`: give --bot mine=.*bad_bot.py good"):
        run_sweep(sc, plan_sweep(sc, settings), out, RunOptions(workers=1, resume=True, progress=False))


def test_compare_says_how_many_forfeits_it_left_out_of_each_sweep():
    """`simkit compare`'s line on forfeits: each sweep's forfeited games of its games, whose and why, and that only
    games both sweeps played to their end are paired; no line when neither sweep has a forfeit."""
    import pandas as pd

    from simkit.commands.compare import forfeits_left_out

    def games(reasons):
        return pd.DataFrame({"end_reason": ["forfeit" if r else "hp_zero" for r in reasons],
                             "forfeit_seat": ["first" if r else "" for r in reasons],
                             "forfeit_reason": [r for r in reasons], "first_bot": "mine", "second_bot": "aggro"})

    base = games(["crash: exited", "", "", "timeout: no answer", "crash: exited", ""])
    patch = games(["", "", "", "", "", ""])
    assert forfeits_left_out(base, patch) == (
        "forfeits left out: base 3 of 6 games (mine as the first player: 2 crashes; mine as the first player: 1 "
        "timeout); patch 0 of 6 games; compare pairs only the games both sweeps played to their end (a forfeited "
        "game pairs with none)")
    assert forfeits_left_out(patch, patch) is None


@pytest.mark.slow
def test_a_tune_plays_its_trials_and_its_check_with_an_outside_bot(tmp_path, monkeypatch):
    """A small tune whose bot pairing has an outside bot plays every trial and the fresh-seed check with the
    program: the check's sweeps (base and candidate on the check's seed) record it in their meta.json, the check's
    figures are in the summary. (The search's objective is lowered for the changed
    candidate, so that one beats the base and is checked whatever the few games say.)"""
    import json

    from outside_kit import kill_left

    from simkit.sweep import RunOptions
    from simkit.tune import TuneSettings
    from simkit.tune.study import Evaluator

    real = Evaluator.evaluate

    def favour_the_change(self, changes):
        found = real(self, changes)
        return {**found, "objective": found["objective"] - (10.0 if changes else 0.0)}

    monkeypatch.setattr(Evaluator, "evaluate", favour_the_change)
    sc = scenario("miracle")
    pids, out = tmp_path / "pids.txt", tmp_path / "tune"
    outside.configure(given=[f"mine={' '.join(bad('good', pids))}"])
    try:
        settings = TuneSettings(knobs=("creatures.Priest.L1.cost=1..4",), trials=2, max_changes=1,
                                decks=tuple(sc.decks[:2]), bots=("mine,balanced",), games=1, confirm=0)
        result = simkit.run_tune(sc.path, settings, out=out, run=RunOptions(workers=1, progress=False))
        check = result.summary["check"]
        assert check["seed"] is not None and check["pairings"]
        metas = [json.loads(p.read_text()) for p in out.rglob("meta.json")]
        checked = [m for m in metas if m["plan"]["seed"] == check["seed"]]
        assert len(checked) == 2  # the base and the candidate on the check's seed
        assert all(m["outside_bots"] == {"mine": {"command": bad("good", pids), "protocol": "simkit"}} for m in metas)
        assert pids.read_text().split()  # one program, kept for every game of this process (ended at its exit)
    finally:
        kill_left(pids)


@pytest.mark.parametrize("game", ["duel", "magic"])
def test_a_search_bot_that_cannot_face_a_program_is_refused_before_the_sweep(game):
    """Card Duel's and Magic War's search bots play only in the compiled batch: a sweep pairing one with an outside
    bot is refused when planned, in one line naming it; a panel holding both plays each against itself, so it is
    planned."""
    from simkit.sweep import SweepSettings, plan_sweep

    sc = scenario(game)
    outside.configure(given=[f"mine={' '.join(bad('good'))}"])
    with pytest.raises(ValueError, match=r"bot 'search-1' is a search bot; .* cannot face an outside bot yet .*here it "
                                         r"would face the outside bot 'mine': nothing was played"):
        plan_sweep(sc, SweepSettings(games=1, bots=("mine", "search-1")))
    assert plan_sweep(sc, SweepSettings(games=1, panel=("mine", "search-1"))).panel == ("mine", "search-1")
