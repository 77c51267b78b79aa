"""Play listed games between two bots, in batches, into one tidy DataFrame (game-agnostic).

The runner only splits the games into batches and stacks the records; the scenario's game
package plays each batch (:meth:`simkit.games.Ruleset.play_batch`). Results never depend on the batch
size: every game draws from its own random stream, seeded by its own seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral
from pathlib import Path

import pandas as pd

from simkit.core.rng import derive_seed
from simkit.scenario import Scenario, load_scenario

__all__ = ["play_games", "game_seeds"]


def _listed(value: str | Sequence[str], n: int) -> list[str]:
    return [value] * n if isinstance(value, str) else list(value)


def game_seeds(seed: int, n: int) -> list[int]:
    """``n`` per-game seeds derived from one base ``seed`` (game ``i`` gets ``derive_seed(seed, i)``)."""
    return [derive_seed(seed, i) for i in range(n)]


def _bot_pair(bots: str | Sequence[str]) -> tuple[str, str]:
    names = [b.strip() for b in bots.split(",")] if isinstance(bots, str) else list(bots)
    if len(names) == 1:
        names *= 2
    if len(names) != 2 or not all(isinstance(b, str) and b for b in names):
        raise ValueError(f"bots: expected two bot names (first player's, second player's), got {bots!r}")
    return names[0], names[1]


def play_games(
    scenario: Scenario | str | Path,
    first_decks: str | Sequence[str],
    second_decks: str | Sequence[str],
    bots: str | Sequence[str] = ("balanced", "random"),
    seeds: int | Sequence[int] = 0,
    batch_size: int = 256,
    record_actions: bool = False,
    progress: bool = False,
) -> pd.DataFrame:
    """Play one game per listed pairing and return one row per game.

    Args:
        scenario: a loaded :class:`Scenario` or the path of its file.
        first_decks: deck ids of the first seat, one per game (the first deck moves first); a single
            string stands for every game.
        second_decks: deck ids of the second seat, the same way.
        bots: ``(first player's bot, second player's bot)``, as a pair or ``"balanced,rush"``;
            one name plays both seats.
        seeds: one seed per game, or one base seed from which each game's seed is derived
            (:func:`game_seeds`).
        batch_size: games played together in one batch (results do not depend on it).
        record_actions: add an ``action_list`` column with each game's actions as tuples.
        progress: show a progress bar over the batches.

    Returns:
        A DataFrame with one row per game, in the order given; columns as the game's
        ``play_batch`` returns them (for Battle of Miracles: first_deck, second_deck, seed,
        winner, end_reason, turns, first/second_miracle_hp, first/second_dead_stars,
        first_bot, second_bot, actions) plus rules_version.

    Raises:
        ValueError: mismatched lengths, an unknown bot (the message lists the known ones), an
            illegal deck or an invalid scenario (ScenarioError).
    """
    if not isinstance(scenario, Scenario):
        scenario = load_scenario(scenario)
    if isinstance(batch_size, bool) or not isinstance(batch_size, int) or batch_size < 1:
        raise ValueError(f"batch_size: must be a positive integer, got {batch_size!r}")
    if isinstance(seeds, bool):
        raise ValueError(f"seeds: expected an integer or one integer per game, got {seeds!r}")
    given = {
        name: len(v)
        for name, v in (("first_decks", first_decks), ("second_decks", second_decks), ("seeds", seeds))
        if not isinstance(v, (str, Integral))
    }
    if len(set(given.values())) > 1:
        counts = ", ".join(f"{k} {v}" for k, v in given.items())
        raise ValueError(f"one item per game expected in each list, got {counts}")
    n = next(iter(given.values()), 1)
    first, second = _listed(first_decks, n), _listed(second_decks, n)
    seed_list = game_seeds(int(seeds), n) if isinstance(seeds, Integral) else [int(s) for s in seeds]
    pair = _bot_pair(bots)
    play_batch = scenario.game.play_batch
    starts = range(0, n, batch_size)
    if progress:
        from tqdm import tqdm

        starts = tqdm(starts, desc="games", unit="batch")
    frames = []
    for at in starts:
        part = slice(at, at + batch_size)
        cols = play_batch(first[part], second[part], seed_list[part], pair, record_actions=record_actions)
        frames.append(pd.DataFrame(cols))
    if not frames:
        frames.append(pd.DataFrame(play_batch([], [], [], pair)))
    out = pd.concat(frames, ignore_index=True)
    out["rules_version"] = scenario.rules_version
    return out
