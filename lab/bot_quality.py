"""Measure the quality and speed of the Battle of Miracles bots (figures quoted in README "Bots").

    python lab/bot_quality.py                 # quality figures (a few minutes on 2 cores)
    python lab/bot_quality.py --speed         # also: games/s at B=256 and bot cost per step

Quality: balanced vs random over random decks, both seats; the share of balanced mirrors that
end by a destroyed miracle; mean turns of rush and control mirrors; distinct games over 100
seeds of one pairing, and the same seed giving the same game.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

import simkit
from simkit.runner import game_seeds

BASE = Path(__file__).resolve().parents[1] / "scenarios" / "miracle" / "base.toml"


def random_pairings(sc, n: int, seed: int) -> tuple[list[str], list[str]]:
    """``n`` (first deck, second deck) pairings drawn uniformly from the deck pool."""
    pick = np.random.default_rng(seed).integers(0, len(sc.decks), (2, n))
    return [sc.decks[i] for i in pick[0]], [sc.decks[i] for i in pick[1]]


def measure(games: int = 200, seed: int = 0, scenario=BASE, batch_size: int = 256) -> dict:
    """Play the quality suites and return their figures.

    Args:
        games: games per suite (balanced vs random is split evenly between the two seats).
        seed: base seed of the decks and games.
        scenario: the scenario file or a loaded scenario.
        batch_size: games per batch.

    Returns:
        A dict of named figures (rates in [0, 1], mean turns, counts).
    """
    sc = scenario if isinstance(scenario, simkit.Scenario) else simkit.load_scenario(scenario)
    out: dict = {}

    def play(first, second, bots, seeds, **kw):
        return simkit.play_games(sc, first, second, bots=bots, seeds=seeds, batch_size=batch_size, **kw)

    half = games // 2
    first, second = random_pairings(sc, games, seed)
    t = time.perf_counter()
    a = play(first[:half], second[:half], ("balanced", "random"), game_seeds(seed + 1, half))
    b = play(first[half:], second[half:], ("random", "balanced"), game_seeds(seed + 2, games - half))
    wins = int((a.winner == "first").sum() + (b.winner == "second").sum())
    out["balanced_vs_random_games"] = games
    out["balanced_vs_random_win_rate"] = wins / games
    out["balanced_vs_random_mean_turns"] = float(np.mean([*a.turns, *b.turns]))
    out["balanced_vs_random_seconds"] = time.perf_counter() - t

    first, second = random_pairings(sc, games, seed + 3)
    t = time.perf_counter()
    mirror = play(first, second, "balanced", game_seeds(seed + 4, games))
    out["balanced_mirror_games"] = games
    out["balanced_mirror_miracle_share"] = float((mirror.end_reason == "miracle").mean())
    out["balanced_mirror_mean_turns"] = float(mirror.turns.mean())
    out["balanced_mirror_first_win_rate"] = float((mirror.winner == "first").mean())
    out["balanced_mirror_seconds"] = time.perf_counter() - t

    first, second = random_pairings(sc, half, seed + 5)
    for name in ("rush", "control"):
        t = time.perf_counter()
        df = play(first, second, name, game_seeds(seed + 6, half))
        out[f"{name}_mirror_games"] = half
        out[f"{name}_mean_turns"] = float(df.turns.mean())
        out[f"{name}_miracle_share"] = float((df.end_reason == "miracle").mean())
        out[f"{name}_seconds"] = time.perf_counter() - t

    deck_a, deck_b = "HolyLight:Archer,Priest,Swordsman", "InfernoFlame:BlackBat,FrostDragon,VolcanoDragon"
    seeds = list(range(100))
    t = time.perf_counter()
    runs = play(deck_a, deck_b, ("balanced", "balanced"), seeds + [0], record_actions=True)
    sequences = [tuple(x) for x in runs.action_list]
    out["distinct_games_of_100_seeds"] = len(set(sequences[:100]))
    out["same_seed_same_game"] = sequences[0] == sequences[100]
    out["distinct_winners_of_100_seeds"] = runs.winner[:100].value_counts().to_dict()
    out["diversity_seconds"] = time.perf_counter() - t
    return out


def measure_speed(sc, batch: int = 256, seed: int = 0) -> dict:
    """Games per second at ``batch`` (balanced mirrors, random decks), and the cost per step at B=64 of the
    bot's decision and of applying it."""
    from simkit.core.rng import GameStreams
    from simkit.games.miracle import rules as R
    from simkit.games.miracle.bots import make_bot
    from simkit.games.miracle.cards import parse_deck

    out = {}
    first, second = random_pairings(sc, batch, seed)
    simkit.play_games(sc, first[:1], second[:1], bots="balanced", seeds=[seed])  # loads the kernels
    t = time.perf_counter()
    df = simkit.play_games(sc, first, second, bots="balanced", seeds=game_seeds(seed, batch), batch_size=batch)
    elapsed = time.perf_counter() - t
    out[f"games_per_second_B{batch}"] = batch / elapsed
    out[f"actions_per_game_B{batch}"] = float(df.actions.mean())

    rules, n = sc.rules, 64
    first, second = random_pairings(sc, n, seed + 1)
    parsed = [[parse_deck(rules.cards, d) for d in side] for side in (first, second)]
    art = np.array([[p[0] for p in pair] for pair in zip(*parsed)])
    kinds = np.array([[p[1] for p in pair] for pair in zip(*parsed)])
    st = R.new_games(rules, art, kinds)
    bot, streams = make_bot(sc, "balanced"), GameStreams(np.arange(n))
    spent = dict.fromkeys(("bot", "step"), 0.0)
    for _ in range(150):
        t0 = time.perf_counter()
        act = bot.act(rules, st, streams)
        t1 = time.perf_counter()
        R.step(rules, st, act)
        t2 = time.perf_counter()
        for key, seconds in zip(spent, (t1 - t0, t2 - t1)):
            spent[key] += seconds
    for key, seconds in spent.items():
        out[f"{key}_ms_per_step_B64"] = seconds / 150 * 1000
    return out


def main() -> None:
    """Print the figures."""
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--games", type=int, default=200, help="games per suite (default 200)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--speed", action="store_true", help="also measure speed")
    p.add_argument("--scenario", default=str(BASE))
    args = p.parse_args()
    sc = simkit.load_scenario(args.scenario)
    if args.speed:
        for k, v in measure_speed(sc).items():
            print(f"{k:34} {v:.1f}")
    for k, v in measure(args.games, args.seed, sc).items():
        print(f"{k:34} {v:.3f}" if isinstance(v, float) else f"{k:34} {v}")


if __name__ == "__main__":
    main()
