"""Microseconds per action of the compiled game loop, warm: the figure to compare two versions by.

Usage (from a checkout; to compare two, run it on each in turn, several times, alternating):

    PYTHONPATH=. python scripts/us_per_action.py [GAMES] [RUNS]

Plays the same GAMES balanced mirrors (default 256, fixed random decks and seeds) RUNS times
(default 7) with ``fast.game.play`` after one untimed run, and prints one JSON line: the fastest
and the median run in microseconds per action, and the actions played (which must not change
between versions that play the same games). On this shared 2-core machine single runs vary by
about 5%; the fastest of several is the steadiest figure.
"""

import json
import sys
import time

import numpy as np

import simkit
from simkit.games.miracle import rules as R
from simkit.games.miracle.bots import make_bot
from simkit.games.miracle.cards import parse_deck
from simkit.games.miracle.fast.game import play
from simkit.games.miracle.fast.pack import pack_state
from simkit.rng import GameStreams, derive_seed


def main(games: int = 256, runs: int = 7) -> dict:
    """The fastest and median of ``runs`` timed runs of ``games`` mirrors, in us per action."""
    sc = simkit.load_scenario("scenarios/miracle/base.toml")
    rules = sc.rules
    pick = [derive_seed(0, "deck", i) % len(sc.decks) for i in range(2 * games)]
    parsed = [parse_deck(rules.cards, sc.decks[i]) for i in pick]
    artifact = np.array([p[0] for p in parsed], np.int16).reshape(2, games).T.copy()
    kinds = np.array([p[1] for p in parsed], np.int16).reshape(2, games, 3).transpose(1, 0, 2).copy()
    seeds = [derive_seed(0, "game", i) for i in range(games)]
    fast = make_bot(sc, "balanced").compiled(rules)

    def run() -> tuple[float, int]:
        st, streams = R.new_games(rules, artifact, kinds), GameStreams(seeds)
        played = np.zeros(games, np.int64)
        started = time.perf_counter()
        play(pack_state(st), fast.k_rules, fast.k_bot, fast.k_bot, fast.layout, fast.sit, streams.keys,
             streams.counter, 80, played)
        return time.perf_counter() - started, int(played.sum())

    run()  # load or compile the kernels
    timed = [run() for _ in range(runs)]
    seconds = sorted(s for s, _ in timed)
    actions = timed[0][1]
    return {
        "games": games,
        "actions": actions,
        "us_per_action_min": round(seconds[0] / actions * 1e6, 3),
        "us_per_action_median": round(seconds[len(seconds) // 2] / actions * 1e6, 3),
    }


if __name__ == "__main__":
    args = [int(a) for a in sys.argv[1:3]]
    print(json.dumps(main(*args)))
