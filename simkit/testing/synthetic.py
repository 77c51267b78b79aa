"""Synthetic results with planted answers, in the exact schema of a sweep (for tests and notebooks).

They are shaped like Battle of Miracles' results (:data:`SYNTHETIC_SCHEMA`: a deck id
``Lead:CardA,CardB,CardC`` holds one "artifact" and its "creature" cards; games end by a fallen
miracle or the turn limit), and record that schema and each deck's cards in their metadata as a
sweep does, so every analysis reads them as it reads a real folder.

Outcomes are drawn from per-game counter-based streams keyed by (pool seed, pairing, game), so two
synthetic sweeps of the same pool and seed play "the same games": their outcomes differ only where
the planted rates differ, like a base and a patched sweep sharing seeds.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

import numpy as np
import pandas as pd

from simkit.core.rng import GameStreams, derive_seed, mix64
from simkit.games import EXPERIENCE_COLUMNS, ResultSchema

__all__ = ["SYNTHETIC_SCHEMA", "synthetic_deck_cards", "synthetic_results", "rate_matrix", "with_experience"]

#: The result schema synthetic results declare.
SYNTHETIC_SCHEMA = ResultSchema(
    end_reasons={"miracle": "a miracle fell", "turn_limit": "turn limit reached"},
    cap_reason="turn_limit",
    side_columns={"miracle_hp": "miracle HP at the end", "dead_stars": "stars of own units killed"},
    card_categories={"artifact": "artifact", "creature": "creature kind"},
)


def synthetic_deck_cards(deck: str) -> dict[str, tuple[str, ...]]:
    """The cards of a synthetic deck id ``Lead:CardA,CardB,...``: ``{"artifact": (Lead,), "creature": (...)}``.

    Raises:
        ValueError: when the id is not of that form.
    """
    lead, sep, rest = str(deck).partition(":")
    cards = tuple(c.strip() for c in rest.split(",")) if rest else ()
    if not sep or not lead.strip() or not cards or any(not c for c in cards):
        raise ValueError(f"deck id {deck!r} is not of the form Artifact:CreatureA,CreatureB,CreatureC")
    return {"artifact": (lead.strip(),), "creature": cards}

RateSpec = Callable[[str, str], float] | Mapping[tuple[str, str], float] | pd.DataFrame | None


def rate_matrix(decks: list[str], win_rate: RateSpec = None) -> np.ndarray:
    """The pooled win rate of each deck against each as a ``float[D, D]`` (mirrors 1/2).

    Args:
        decks: the deck pool.
        win_rate: ``None`` (every matchup even), a function ``(deck, opponent) -> rate``, a mapping
            ``{(deck, opponent): rate}`` (a missing pairing is the complement of its reverse, else
            1/2) or a square DataFrame indexed by deck.

    Returns:
        the matrix; ``m[i, j] + m[j, i] == 1``.

    Raises:
        ValueError: when a rate is outside [0, 1] or a pairing and its reverse do not sum to 1.
    """
    d = len(decks)
    m = np.full((d, d), 0.5)
    if isinstance(win_rate, pd.DataFrame):
        m = win_rate.reindex(index=decks, columns=decks).to_numpy(float)
    elif isinstance(win_rate, Mapping):
        for i, a in enumerate(decks):
            for j, b in enumerate(decks):
                if (a, b) in win_rate:
                    m[i, j] = win_rate[(a, b)]
                elif (b, a) in win_rate:
                    m[i, j] = 1 - win_rate[(b, a)]
    elif callable(win_rate):
        m = np.array([[win_rate(a, b) for b in decks] for a in decks], dtype=float)
    np.fill_diagonal(m, 0.5)
    if np.isnan(m).any() or (m < 0).any() or (m > 1).any():
        raise ValueError("synthetic results: every win rate must be a number in [0, 1]")
    if not np.allclose(m + m.T, 1.0):
        i, j = np.argwhere(~np.isclose(m + m.T, 1.0))[0]
        raise ValueError(f"synthetic results: {decks[i]} vs {decks[j]} and its reverse must sum to 1")
    return m


def synthetic_results(
    decks: list[str],
    games_per_pair: int,
    win_rate: RateSpec = None,
    first_advantage: float = 0.0,
    draw_rate: float = 0.0,
    turn_limit_share: float = 0.1,
    seed: int = 0,
    turn_limit: int = 100,
    miracle_hp: int = 30,
    scenario_hash: str = "synthetic",
    rules_version: str = "synthetic",
    scenario_name: str = "synthetic results",
    bots: tuple[str, str] = ("synthetic", "synthetic"),
) -> pd.DataFrame:
    """Results of a round robin with planted matchup rates and first-player advantage.

    The first player of a game between decks i and j scores ``s = m[i, j] + first_advantage``
    on average (clipped to [0, 1]); so pooled over both seats deck i scores ``m[i, j]`` against
    j, and the first seat scores ``1/2 + first_advantage`` overall. A share ``draw_rate`` of the
    games is drawn (less where ``s`` is too close to 0 or 1 to allow it); draws end at the turn
    limit, decisive games end by a destroyed miracle except for ``turn_limit_share`` of them.

    Args:
        decks: canonical deck ids of the pool.
        games_per_pair: games per ordered pairing (mirrors included).
        win_rate: the planted pooled rates (see :func:`rate_matrix`).
        first_advantage: planted first-seat edge in score rate (0.05 = five points).
        draw_rate: share of drawn games.
        turn_limit_share: share of decisive games that run to the turn limit.
        seed: the pool's seed; game seeds derive from it, the pairing and the game index.
        turn_limit: the last turn (game lengths lie in 1..turn_limit).
        miracle_hp: a miracle's starting HP (bounds the HP columns).
        scenario_hash: written to every row and the meta.
        rules_version: written to every row and the meta.
        scenario_name: written to the meta.
        bots: the two bots' names.

    Returns:
        DataFrame in the sweep's results schema, ``attrs["meta"]`` filled in.

    Raises:
        ValueError: for an empty pool, a malformed deck id, ``games_per_pair < 1`` or bad rates.
    """
    if not decks:
        raise ValueError("synthetic results: the deck pool is empty")
    if games_per_pair < 1:
        raise ValueError(f"synthetic results: games_per_pair must be at least 1, got {games_per_pair}")
    cards = {deck: synthetic_deck_cards(deck) for deck in decks}
    m = rate_matrix(list(decks), win_rate)
    d, n = len(decks), games_per_pair
    fi, si, game = (a.ravel() for a in np.meshgrid(np.arange(d), np.arange(d), np.arange(n), indexing="ij"))
    index = (fi * d + si) * n + game
    pool_key = np.uint64(derive_seed("synthetic", seed))
    seeds = (mix64(pool_key ^ index.astype(np.uint64)) >> np.uint64(1)).astype(np.int64)
    u = GameStreams(seeds).uniform(5)

    s = np.clip(m[fi, si] + first_advantage, 0.0, 1.0)
    draw = np.minimum(draw_rate, 2 * np.minimum(s, 1 - s))
    p_first = s - draw / 2
    winner = np.where(u[:, 0] < p_first, "first", np.where(u[:, 0] < p_first + draw, "draw", "second"))
    decisive = winner != "draw"
    by_miracle = decisive & (u[:, 1] >= turn_limit_share)

    # a miracle falls on the winner's turn: the first player plays odd turns, the second even ones
    turns = 2 + (u[:, 2] * (turn_limit - 2)).astype(int)
    turns = turns - ((turns % 2 == 0) & (winner == "first")) - ((turns % 2 == 1) & (winner == "second"))
    turns = np.where(by_miracle, np.clip(turns, 1, turn_limit), turn_limit)
    half = miracle_hp // 2
    loser_hp = np.where(by_miracle, 0, (u[:, 3] * half).astype(int))
    winner_hp = np.where(decisive, loser_hp + 1 + (u[:, 4] * half).astype(int), loser_hp)
    first_won = winner == "first"
    stars = (u[:, 3:5] * miracle_hp).astype(int)
    stars[~decisive, 1] = stars[~decisive, 0]

    deck_ids = np.asarray(decks, dtype=object)
    out = pd.DataFrame({
        "first_deck": deck_ids[fi], "second_deck": deck_ids[si], "game": game, "seed": seeds,
        "winner": winner, "end_reason": np.where(by_miracle, "miracle", "turn_limit"), "turns": turns,
        "first_miracle_hp": np.where(first_won, winner_hp, loser_hp),
        "second_miracle_hp": np.where(first_won, loser_hp, winner_hp),
        "first_dead_stars": stars[:, 0], "second_dead_stars": stars[:, 1],
        "first_bot": bots[0], "second_bot": bots[1], "scenario_hash": scenario_hash,
        "rules_version": rules_version, "actions": (turns * 3).astype(int),
    })
    out.attrs["meta"] = {
        "scenario_name": scenario_name, "scenario_path": "", "scenario_hash": scenario_hash,
        "rules_version": rules_version, "scenario_text": "", "simkit_version": "synthetic",
        "started": "", "finished": "", "games_per_pair": n, "decks": list(decks), "bots": list(bots),
        "game": "synthetic", "schema": SYNTHETIC_SCHEMA.as_meta(),
        "deck_cards": {d: {k: list(v) for k, v in c.items()} for d, c in cards.items()},
    }
    return out


PlantSpec = float | Callable[[str, str], float]


def _planted(spec: PlantSpec, first: np.ndarray, second: np.ndarray) -> np.ndarray:
    """A planted figure per game: one number for all, or a function of the game's two decks."""
    if callable(spec):
        return np.array([spec(a, b) for a, b in zip(first, second)], dtype=float)
    return np.full(len(first), float(spec))


def with_experience(results: pd.DataFrame, comebacks: PlantSpec = 0.2, decided_early: PlantSpec = 0.4,
                    lead_changes: PlantSpec = 1.0, choices: float = 8.0, uncertainty: float | None = None,
                    seed: int = 0) -> pd.DataFrame:
    """``results`` with planted experience figures (:data:`simkit.games.EXPERIENCE_COLUMNS`), as a game that
    records them would give, its schema saying so.

    Each game's figures are drawn from its own stream (keyed by ``seed`` and the game's seed), so two results of the
    same games get the same draws where the planted shares agree. Under the default ``[experience]`` bars
    (comeback beyond a lead of 0.25, decided early from a third of the game on): a won game is a comeback with
    probability ``comebacks`` (its winner's deficit uniform in 0.3-1, else in 0-0.2) and decided early with
    probability ``decided_early`` (its deciding turn in the game's first third, else after it; a game of fewer
    than 3 turns cannot be decided early); a drawn game has NaN deficit and deciding turn.

    Args:
        results: results (:func:`synthetic_results` or any with ``first_deck, second_deck, seed, winner, turns``).
        comebacks: the planted share of won games that are comebacks, or a function ``(first, second) -> share``.
        decided_early: the planted share of won games decided early (number or function).
        lead_changes: the mean of each game's Poisson number of lead changes (number or function).
        choices: the mean legal actions per decision (each game's mean uniform within +-25% of it).
        uncertainty: each game's uncertainty is uniform in 0-2x this (capped at 1); ``None``: NaN (no search bot).
        seed: the draws' seed.

    Returns:
        a copy of ``results`` with the columns, ``attrs["meta"]["schema"]["experience"]`` set.
    """
    out = results.copy()
    first, second = (out[c].astype(str).to_numpy() for c in ("first_deck", "second_deck"))
    keys = mix64(out["seed"].to_numpy().astype(np.uint64) ^ np.uint64(derive_seed("experience", seed)))
    u = GameStreams((keys >> np.uint64(1)).astype(np.int64)).uniform(7)
    won = (out["winner"] != "draw").to_numpy()
    turns = out["turns"].to_numpy(int)
    back = u[:, 0] < _planted(comebacks, first, second)
    deficit = np.where(back, 0.3 + 0.7 * u[:, 1], 0.2 * u[:, 1])
    early = (u[:, 2] < _planted(decided_early, first, second)) & (turns >= 3)
    third = np.floor(turns / 3).astype(int)
    decided = np.where(early, 1 + (u[:, 3] * third).astype(int).clip(0, np.maximum(third - 1, 0)),
                       third + 1 + (u[:, 3] * (turns - third)).astype(int))
    decided = np.minimum(decided, turns)
    from scipy.stats import poisson

    changes = poisson.ppf(u[:, 6], _planted(lead_changes, first, second))
    out["lead_changes"] = changes.astype(np.int64)
    out["winner_deficit"] = np.where(won, deficit, np.nan)
    out["decided_turn"] = np.where(won, decided.astype(float), np.nan)
    out["decisions"] = np.maximum(turns * 3, 1).astype(np.int64)
    out["choices"] = choices * (0.75 + 0.5 * u[:, 4])
    out["uncertainty"] = np.nan if uncertainty is None else np.minimum(2 * uncertainty * u[:, 5], 1.0)
    meta = dict(out.attrs.get("meta") or {})
    meta["schema"] = {**(meta.get("schema") or SYNTHETIC_SCHEMA.as_meta()), "experience": True}
    out.attrs["meta"] = meta
    return out[[*results.columns, *(c for c in EXPERIENCE_COLUMNS if c not in results.columns)]]
