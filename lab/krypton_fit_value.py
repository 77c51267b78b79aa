"""Fit the Krypton search's value weights to game outcomes: what a position at round N says about who wins.

    python lab/krypton_fit_value.py --bots hunter,hunter --repeat 40 --rounds 4,8,12,16,20,25,30,40

The search values a position it cannot play to the end as a weighted sum of own-minus-enemy features
(``value_<feature>`` of a ``[bots.search-N]`` table). This script measures which features predict winning. It
plays every ordered pairing of the pool ``--repeat`` times with ``--bots`` (seeds ``--seed``, ``--seed`` + 1, ...),
to the scenario's round limit, and replays each game from its actions. From every game still on after a
round of ``--rounds`` it takes both sides' positions, read by the search's own feature function
(:meth:`simkit.games.krypton.match.Match.features`, the compiled ``features``: base HP, hero HP on the board,
energy in store, base tier, the Prayer/Attack/Magic Towers *standing*, cards in hand, heroes lost, closeness to
the enemy base), each side's own-minus-enemy differences against whether that side went on to win (a draw is not a
win). A logistic regression of the win on the differences
gives one weight per feature in log-odds: the change in the odds of winning per unit of the feature. 95%
intervals come from ``--boot`` bootstrap resamples of whole games.

Printed: the weights with their intervals, and the lines to paste into a search table (``value_win`` set to
``--value-win``). These are simkit's numbers fitted to its own bots' games, not the designer's.

(Until session 9 the positions were the results columns of games capped at each round, whose tower counts
are towers *built* so far, while the search counts towers standing: the weights fitted then, in
``ladder-tuned.toml``'s ``tuned-fit-N``, price a tower built, not one standing.)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.optimize import minimize

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import simkit  # noqa: E402
from simkit.games.krypton.fast_search.hooks import VALUES  # noqa: E402
from simkit.games.krypton.match import Match  # noqa: E402

#: the search's value features (``value_<name>``), read from positions exactly as the search reads them
FEATURES = tuple(name for name, _ in VALUES if name != "win")


def positions(sc: simkit.Scenario, bots: tuple[str, str], repeat: int, rounds: list[int], seed: int) -> pd.DataFrame:
    """Both sides' own-minus-enemy features after every round of ``rounds`` of every game still on, with ``won``."""
    firsts, seconds = sc.game.seat_decks()
    pairs = [(a, b) for a in firsts for b in seconds] * repeat
    seeds = list(range(seed, seed + len(pairs)))
    full = simkit.play_games(sc, [p[0] for p in pairs], [p[1] for p in pairs], bots=bots, seeds=seeds,
                             record_actions=True)
    caps = sorted(set(rounds))
    rows = []
    for i, game in enumerate(full.itertuples(index=False)):
        g = Match(sc, game.first_deck, game.second_deck, int(game.seed), log=False)
        left = list(caps)
        for a in game.action_list:
            if g.over or not left:
                break
            if g.round > left[0]:  # the first decision after round left[0] was played out
                cap = left.pop(0)
                while left and g.round > left[0]:
                    left.pop(0)
                for seat, name in enumerate(("first", "second")):
                    rows.append({**g.features(seat), "won": float(game.winner == name), "game": i,
                                 "round": cap})
            g.do(tuple(a))
    return pd.DataFrame(rows, columns=[*FEATURES, "won", "game", "round"])


def fit(d: pd.DataFrame) -> np.ndarray:
    """Logistic regression of ``won`` on the features (with an intercept; a tiny ridge keeps it finite)."""
    X = np.column_stack([np.ones(len(d)), d[list(FEATURES)].to_numpy(float)])
    y = d["won"].to_numpy(float)

    def nll(b):
        z = X @ b
        return np.sum(np.logaddexp(0, z) - y * z) + 1e-3 * np.sum(b[1:] ** 2)

    def grad(b):
        p = 1 / (1 + np.exp(-(X @ b)))
        g = X.T @ (p - y)
        g[1:] += 2e-3 * b[1:]
        return g

    return minimize(nll, np.zeros(X.shape[1]), jac=grad, method="BFGS").x


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", default=str(ROOT / "scenarios" / "krypton" / "base.toml"))
    p.add_argument("--bots", default="hunter,hunter", help="the two seats' bots")
    p.add_argument("--repeat", type=int, default=40, help="games per ordered pairing of the pool")
    p.add_argument("--rounds", default="4,8,12,16,20,25,30,40", help="the caps at which positions are read")
    p.add_argument("--seed", type=int, default=5000)
    p.add_argument("--boot", type=int, default=200, help="bootstrap resamples of whole games")
    p.add_argument("--value-win", type=float, default=10.0, help="value_win of the printed table")
    a = p.parse_args(argv)
    sc = simkit.load_scenario(a.scenario)
    if sc.game_name != "krypton":
        print(f"{a.scenario}: game: {sc.game_name!r}, this script fits Krypton's value", file=sys.stderr)
        return 2
    bots = tuple(a.bots.split(","))
    if len(bots) != 2:
        print(f"--bots: two names, got {a.bots!r}", file=sys.stderr)
        return 2
    for b in bots:
        if b not in sc.game.bot_names():
            print(f"--bots: {sc.unknown_bot(b)}", file=sys.stderr)
            return 2
    rounds = [int(r) for r in a.rounds.split(",")]
    d = positions(sc, bots, a.repeat, rounds, a.seed)
    if d.empty or d.won.nunique() < 2:
        print("no game still on at any cap, or no side won: nothing to fit (more --repeat, earlier --rounds)",
              file=sys.stderr)
        return 1
    b = fit(d)
    games = d.game.unique()
    rng = np.random.default_rng(a.seed)
    by_game = {g: part for g, part in d.groupby("game")}
    boots = np.array([fit(pd.concat([by_game[g] for g in rng.choice(games, len(games))], ignore_index=True))
                      for _ in range(a.boot)])
    lo, hi = np.percentile(boots, [2.5, 97.5], axis=0)
    firsts, seconds = sc.game.seat_decks()
    n_games = len(firsts) * len(seconds) * a.repeat
    print(f"# {len(d)} positions ({len(games)} games still on at a cap of {rounds}; {n_games} games of "
          f"{bots[0]} vs {bots[1]}); a side won from {d.won.mean():.1%} of them")
    print("# log-odds of winning per unit of own-minus-enemy feature (95% bootstrap CI over games):")
    for i, k in enumerate(FEATURES, start=1):
        note = "  never differs in these games: not measured" if not d[k].any() else ""
        print(f"#   {k:14s} {b[i]:+.3f} ({lo[i]:+.3f} to {hi[i]:+.3f}){note}")
    print(f"value_win = {a.value_win}")
    for i, k in enumerate(FEATURES, start=1):
        print(f"value_{k} = {b[i]:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
