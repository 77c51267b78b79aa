"""Microseconds per action of the compiled game loop, warm: the figure to compare two versions by.

Usage (from a checkout; to compare two, run it on each in turn, several times, alternating):

    PYTHONPATH=. python scripts/us_per_action.py [GAMES] [RUNS]

Plays the same GAMES balanced mirrors as ``profile_parts.py`` (default 256, fixed random decks
and seeds) RUNS times (default 7) with ``fast.game.play`` after one untimed run, and prints one
JSON line: the fastest and the median run in microseconds per action, and the actions played
(which must not change between versions that play the same games). On this shared 2-core machine
single runs vary by about 5%; the fastest of several is the steadiest figure.
"""

import json
import sys
import time

import numpy as np
from profile_parts import mirror_games  # scripts/ is on the path of a script run from it

from simkit.games.kits.experience import EXPERIENCE, FIGURES
from simkit.games.kits.state import zeros
from simkit.games.miracle.fast.game import play
from simkit.games.miracle.fast.pack import pack_state


def main(games: int = 256, runs: int = 7) -> dict:
    """The fastest and median of ``runs`` timed runs of ``games`` mirrors, in us per action."""
    _, fast, new = mirror_games(games)

    def run() -> tuple[float, int]:
        st, streams = new()
        played = np.zeros(games, np.int64)
        records, figures = zeros(EXPERIENCE, 1), np.zeros((games, len(FIGURES)))  # the experience figures it notes
        started = time.perf_counter()
        play(pack_state(st), fast.k_rules, fast.k_bot, fast.k_bot, fast.layout, fast.sit, streams.keys,
             streams.counter, 80, played, 0.05, records, figures)
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
