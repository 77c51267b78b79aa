"""Tune a utility personality's numbers to win more: the strongest player a bot table can express (any game).

    python lab/tune_bot.py --scenario scenarios/krypton/base.toml --start hunter --against hunter \\
        --name tuned --trials 400 --games 400 --out scenarios/krypton/tuned.toml

A bot's table (``[bots.<start>]``, its ``like`` chain followed) is the starting point; every number in it is a
dimension of the search (a switch is on/off, a whole number stays whole), over a range around its value (a
positive weight from 0 to three times it, a negative one from three times it to 0, a zero one -1..1, a count 0
to twice it and at least 4; ``temperature`` 0..1), or the range ``--space key=lo:hi`` gives (``--fix key``
leaves a key as it is). Optuna's TPE sampler (seeded) proposes a table per trial; the trial plays
``--games`` games against each bot of ``--against`` over the same random deals and seeds every trial (the
deals of ``simkit ladder``: random decks, each seed played in both seat orders), so two trials differ by
their numbers, not their luck. The objective is the mean win rate (draws not won) over the opponents. The
start table is the first trial.

The best trial's in-sample rate is biased upward (it was picked among many on these very games), so the script
replays the best table and the start table on fresh deals (``--check-games`` per opponent, another seed) and
prints both with 95% intervals: the figure to quote. ``--out`` writes a scenario that ``extends`` the tuned
scenario and adds ``[bots.<name>]`` (``like = start`` and every tuned number), labelled as simkit's numbers
found by this search, not the designer's; ``simkit ladder <out>`` then measures it like any bot.

Every game is played from its own seed; no result depends on the machine. The trials' order and proposals depend
only on ``--seed`` (the sampler runs one trial at a time).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import optuna

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import simkit  # noqa: E402
from simkit.core.rng import derive_seed  # noqa: E402
from simkit.ladder import deal  # noqa: E402
from simkit.ladder import tally as summary  # noqa: E402
from simkit.scenario import Field, resolve_like, scenario_from_data  # noqa: E402


def space_of(table: dict, overrides: dict[str, tuple[float, float]], fixed: set[str]) -> dict[str, tuple]:
    """The search space of a bot table: ``key -> ("bool",)``, ``("int", lo, hi)`` or ``("float", lo, hi)``."""
    out: dict[str, tuple] = {}
    for key, v in table.items():
        if key in fixed or key == "like" or isinstance(v, str):
            continue
        if isinstance(v, bool):
            out[key] = ("bool",)
        elif isinstance(v, int):
            lo, hi = overrides.get(key, (0, max(2 * v, 4)))
            out[key] = ("int", int(lo), int(hi))
        elif isinstance(v, float):
            if key in overrides:
                lo, hi = overrides[key]
            elif key == "temperature":
                lo, hi = 0.0, 1.0
            elif v > 0:
                lo, hi = 0.0, 3 * v
            elif v < 0:
                lo, hi = 3 * v, 0.0
            else:
                lo, hi = -1.0, 1.0
            out[key] = ("float", float(lo), float(hi))
    return out


def propose(trial: optuna.Trial, space: dict[str, tuple]) -> dict:
    """One table of numbers from ``trial``."""
    out = {}
    for key, kind in space.items():
        if kind[0] == "bool":
            out[key] = trial.suggest_categorical(key, [True, False])
        elif kind[0] == "int":
            out[key] = trial.suggest_int(key, kind[1], kind[2])
        else:
            out[key] = round(trial.suggest_float(key, kind[1], kind[2]), 3)
    return out


def with_bot(data: dict, name: str, table: dict) -> simkit.Scenario:
    """The scenario of ``data`` with ``[bots.<name>]`` set to ``table``."""
    data = dict(data)
    data["bots"] = {**data.get("bots", {}), name: table}
    return scenario_from_data(data)


def play_against(sc: simkit.Scenario, me: str, other: str, deals: list, chunk: int = 256) -> dict:
    """``me`` against ``other`` on ``deals`` (each seed in both seat orders): :func:`simkit.ladder.tally`'s figures."""
    rows = []
    for bots in ((me, other), (other, me)):
        games = [(f, s, seed) for f, s, seeds in deals for seed in seeds]
        for i in range(0, len(games), chunk):
            part = games[i:i + chunk]
            df = simkit.play_games(sc, [g[0] for g in part], [g[1] for g in part], bots=bots,
                                   seeds=[g[2] for g in part], batch_size=len(part))
            rows += [{"first_bot": bots[0], "second_bot": bots[1], "winner": w} for w in df.winner]
    return summary(rows, me, other)


def toml_value(v) -> str:
    """``v`` as a TOML value."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, str):
        return f'"{v}"'
    return repr(v)


def write_out(path: Path, source: Path, name: str, start: str, table: dict, lines: list[str]) -> None:
    """A scenario extending ``source`` with ``[bots.<name>]``: ``like = start`` and the tuned numbers."""
    rel = Path(os.path.relpath(source.resolve(), path.parent.resolve()))
    head = ["# [simkit] A utility personality tuned by lab/tune_bot.py: simkit's numbers found by search,",
            "# not the designer's. What the search saw and what fresh games say:",
            *(f"#   {line}" for line in lines),
            f'extends = "{rel.as_posix()}"', "",
            f"[bots.{name}]", f'like = "{start}"']
    head += [f"{k} = {toml_value(v)}" for k, v in table.items()]
    path.write_text("\n".join(head) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", required=True)
    p.add_argument("--start", required=True, help="the bot table to start from")
    p.add_argument("--against", required=True, help="opponents, comma-separated (the objective: mean win rate)")
    p.add_argument("--name", default="tuned", help="the tuned bot's name")
    p.add_argument("--trials", type=int, default=300)
    p.add_argument("--games", type=int, default=400, help="games per opponent per trial (both seat orders)")
    p.add_argument("--check-games", type=int, default=800, help="fresh games per opponent for the best and the start")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--space", action="append", default=[], help="key=lo:hi, a range of your own")
    p.add_argument("--fix", action="append", default=[], help="a key the search leaves as it is")
    p.add_argument("--out", help="write the tuned bot as a scenario extending --scenario")
    a = p.parse_args(argv)

    sc = simkit.load_scenario(a.scenario)
    bots = Field(f"{a.scenario}: bots", sc.data.get("bots", {}))
    if a.start not in bots.data:
        print(f"{a.scenario}: bots.{a.start}: no such bot table", file=sys.stderr)
        return 2
    start = resolve_like(bots, a.start)
    if "policy" in start:
        print(f"{a.scenario}: bots.{a.start}: a search bot; tune a utility personality", file=sys.stderr)
        return 2
    overrides = {}
    for s in a.space:
        key, _, rng = s.partition("=")
        lo, _, hi = rng.partition(":")
        overrides[key] = (float(lo), float(hi))
    space = space_of(start, overrides, set(a.fix))
    unknown = set(overrides) - set(space)
    if unknown:
        print(f"--space: {', '.join(sorted(unknown))}: not a number of bots.{a.start}", file=sys.stderr)
        return 2
    against = a.against.split(",")
    for o in against:
        if o not in sc.game.bot_names():
            print(f"--against: {sc.unknown_bot(o)}", file=sys.stderr)
            return 2
    deals = deal(sc, max(1, a.games // 2), 1, derive_seed(a.seed, "tune"))
    fresh = deal(sc, max(1, a.check_games // 2), 1, derive_seed(a.seed, "check"))

    def objective(trial: optuna.Trial) -> float:
        table = {"like": a.start, **propose(trial, space)}
        s2 = with_bot(sc.data, a.name, table)
        rates = [play_against(s2, a.name, o, deals)["win_rate"] for o in against]
        return sum(rates) / len(rates)

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(direction="maximize", sampler=optuna.samplers.TPESampler(seed=a.seed))
    study.enqueue_trial({k: start[k] for k in space})
    t0 = time.perf_counter()
    best = -1.0
    for i in range(a.trials):
        study.optimize(objective, n_trials=1)
        if study.best_value > best:
            best = study.best_value
            print(f"trial {i}: mean win rate {best:.1%} in-sample ({time.perf_counter() - t0:.0f} s)", flush=True)
    table = {k: study.best_params[k] for k in space}
    table = {k: (round(v, 3) if isinstance(v, float) else v) for k, v in table.items()}
    lines = [f"{a.trials} trials x {a.games} games against each of {', '.join(against)} (seed {a.seed}); "
             f"best in-sample mean win rate {study.best_value:.1%} (biased up: picked among {a.trials})"]
    s2 = with_bot(sc.data, a.name, {"like": a.start, **table})
    for o in against:
        for who in (a.name, a.start):
            if who == o:
                continue
            m = play_against(s2, who, o, fresh)
            lo, hi = m["win_ci"]
            lines.append(f"{who} vs {o}, {m['games']} fresh games: won {m['won']}, drew {m['drawn']}, "
                         f"lost {m['lost']}: win rate {m['win_rate']:.1%} (95% CI {lo:.1%}-{hi:.1%}), "
                         f"score {m['score']:.3f}")
    lines.append(" ".join(["python lab/tune_bot.py", *(argv or sys.argv[1:])]))
    print("\n".join(lines))
    print(f"[bots.{a.name}]\nlike = \"{a.start}\"\n" + "\n".join(f"{k} = {toml_value(v)}" for k, v in table.items()))
    if a.out:
        write_out(Path(a.out), Path(a.scenario), a.name, a.start, table, lines)
        print(f"wrote {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
