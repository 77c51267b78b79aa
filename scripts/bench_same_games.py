"""Play the same balanced-mirror games on any checkout of simkit, to compare engine versions.

Usage (from the checkout to measure; it needs only ``simkit.play_games``):

    PYTHONPATH=. python scripts/bench_same_games.py BATCH GAMES

Prints one JSON line: speed, and the games' winners and total turns, which must be identical
between versions (an optimisation must not change a single game).
"""

import json
import resource
import sys
import time

import simkit
from simkit.core.rng import derive_seed


def main(batch: int, games: int) -> dict:
    """Play ``games`` balanced mirrors over fixed random deck pairs in batches of ``batch``."""
    sc = simkit.load_scenario("scenarios/miracle/base.toml")
    pick = [derive_seed(0, "deck", i) % len(sc.decks) for i in range(2 * games)]
    first, second = [sc.decks[i] for i in pick[:games]], [sc.decks[i] for i in pick[games:]]
    seeds = [derive_seed(0, "game", i) for i in range(games)]
    started = time.perf_counter()
    df = simkit.play_games(sc, first, second, bots=("balanced", "balanced"), seeds=seeds, batch_size=batch)
    seconds = time.perf_counter() - started
    return {
        "batch": batch, "games": games, "seconds": round(seconds, 2), "games_per_s": round(games / seconds, 2),
        "actions_per_game": round(float(df["actions"].mean()), 1), "winners": df["winner"].value_counts().to_dict(),
        "turns_sum": int(df["turns"].sum()),
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
    }


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]), int(sys.argv[2]))))
