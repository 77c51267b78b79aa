"""Cards: win rates of the decks holding each card, of each pair of cards of one category (synergy), and
what each card did in the games (the engine's counters: how often it was summoned, bought or played, and
its damage or effect per game), with the change of those counts between two sweeps.

A deck's cards and their categories come from the results' metadata (the game's ``deck_cards`` hook,
recorded by the sweep), and the counters from the results' counter columns
(:func:`simkit.games.counter_column`, their words in the schema's ``card_counters``), so the same
functions serve every game."""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pandas as pd

from simkit.analysis.results import card_membership, deck_card_table, deck_games, deck_pool, results_schema
from simkit.analysis.stats import Z95, wilson_interval
from simkit.games import SEATS, parse_counter_column

__all__ = ["USAGE_COLUMNS", "card_pair_synergy", "card_usage", "card_usage_change", "card_win_rates",
           "counter_columns", "deck_membership"]

USAGE_COLUMNS = ("category", "card", "counter", "words", "games", "total", "mean", "sd", "low", "high")
CHANGE_COLUMNS = ("category", "card", "counter", "words", "base_games", "base", "base_low", "base_high",
                  "patch_games", "patch", "patch_low", "patch_high", "change", "low", "high", "significant")


def _deck_totals(df: pd.DataFrame) -> pd.DataFrame:
    """Games and points of each deck over its non-mirror games, indexed by deck."""
    decks = deck_pool(df)
    view = deck_games(df, mirrors=False)
    return view.groupby("deck").agg(games=("row", "size"), points=("points", "sum")).reindex(decks, fill_value=0)


def _rates(games, points) -> dict[str, np.ndarray]:
    games = np.asarray(games, dtype=float)
    points = np.asarray(points, dtype=float)
    low, high = wilson_interval(points, games)
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = points / games
    return {"games": games.astype(int), "points": points, "win_rate": rate, "low": low, "high": high}


def deck_membership(df: pd.DataFrame) -> pd.DataFrame:
    """Which cards each deck of ``df`` holds (:func:`~simkit.analysis.results.card_membership` of its
    decks in :func:`~simkit.analysis.results.deck_pool` order, categories in the game's order)."""
    member = card_membership(deck_card_table(df), tuple(results_schema(df).card_categories))
    kind = member.attrs["kind"]
    member = member.loc[deck_pool(df)]
    member.attrs["kind"] = kind
    return member


def card_win_rates(df: pd.DataFrame) -> pd.DataFrame:
    """Marginal win rate of the decks holding each card, with a Wilson 95% interval.

    Every non-mirror game counts once for each deck in it that holds the card (a game between two
    holders counts for both, a win and a loss). The interval treats those deck-games as
    independent, which is close while few games have the card on both sides.

    Args:
        df: the results, one row per game.

    Returns:
        DataFrame ``card, kind (its category, e.g. "artifact"), decks, games, points, win_rate, low,
        high``, by category in the game's order, each group strongest first.
    """
    totals = _deck_totals(df)
    member = deck_membership(df)
    m = member.to_numpy(float)
    out = pd.DataFrame({
        "card": member.columns,
        "kind": [member.attrs["kind"][c] for c in member.columns],
        "decks": m.sum(0).astype(int),
        **_rates(m.T @ totals["games"].to_numpy(float), m.T @ totals["points"].to_numpy(float)),
    })
    out["group"] = out["kind"].map({k: i for i, k in enumerate(dict.fromkeys(member.attrs["kind"].values()))})
    out = out.sort_values(["group", "win_rate", "card"], ascending=[True, False, True], ignore_index=True)
    return out.drop(columns="group")


def _main_effects_fit(member: pd.DataFrame, games: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Each deck's win rate as predicted by an additive model of its cards (weighted least squares).

    ``rate(deck) ~ intercept + sum of its cards' effects``, weighted by the deck's games; the
    prediction is unique even though the effects are not (every deck holds a fixed number of
    cards of each category), so the minimum-norm solution serves.
    """
    x = np.hstack([np.ones((len(member), 1)), member.to_numpy(float)])
    ok = games > 0
    rate = np.divide(points, games, out=np.full(len(games), 0.5), where=ok)
    root = np.sqrt(games)
    coef, *_ = np.linalg.lstsq(x[ok] * root[ok, None], rate[ok] * root[ok], rcond=None)
    return x @ coef


def card_pair_synergy(df: pd.DataFrame) -> pd.DataFrame:
    """Win rate of decks holding each pair of cards of one category, against what the two alone predict.

    Pairs are formed within every category whose decks hold two or more of its cards (Battle of
    Miracles: creature kinds; the Card Duel: weapons and spells). "What the two alone predict" is
    an additive model: every deck's win rate is fitted (weighted by games) as a sum of one effect
    per card it holds, of every category; ``expected`` is that fit averaged over the decks holding
    the pair, and ``synergy = win_rate - expected`` is what the pair does beyond its cards'
    separate effects (positive: better together). Fitting the effects jointly keeps a strong card
    from lending its strength to the cards it is often paired with. ``low``/``high`` bound the
    pair's win rate (Wilson 95%); ``synergy_low``/``synergy_high`` shift that interval by
    ``expected``, so they carry the pair's own sampling noise only.

    Args:
        df: the results, one row per game.

    Returns:
        DataFrame ``category, card_a, card_b, decks, games, points, win_rate, low, high, expected,
        synergy, synergy_low, synergy_high``, sorted by synergy, largest first.
    """
    totals = _deck_totals(df)
    member = deck_membership(df)
    games = totals["games"].to_numpy(float)
    points = totals["points"].to_numpy(float)
    fitted_points = _main_effects_fit(member, games, points) * games
    rows = []
    for category in dict.fromkeys(member.attrs["kind"].values()):
        cards = [c for c in member.columns if member.attrs["kind"][c] == category]
        if member[cards].sum(axis=1).max() < 2:
            continue
        for a, b in combinations(cards, 2):
            both = (member[a] & member[b]).to_numpy(float)
            rows.append({"category": category, "card_a": a, "card_b": b, "decks": int(both.sum()),
                         "games": games @ both, "points": points @ both, "fitted": fitted_points @ both})
    out = pd.DataFrame(rows, columns=["category", "card_a", "card_b", "decks", "games", "points", "fitted"])
    out = out[out["games"] > 0].reset_index(drop=True)
    out = out.assign(**_rates(out["games"], out["points"]))
    out["expected"] = out["fitted"] / out["games"]
    out["synergy"] = out["win_rate"] - out["expected"]
    out["synergy_low"] = out["low"] - out["expected"]
    out["synergy_high"] = out["high"] - out["expected"]
    out = out.drop(columns="fitted")
    return out.sort_values(["synergy", "card_a", "card_b"], ascending=[False, True, True], ignore_index=True)


def counter_columns(df: pd.DataFrame) -> dict[tuple[str, str, str], dict[str, str]]:
    """The counter columns of ``df`` by ``(category, card, counter)``, each with its column per seat
    (empty for results of a sweep or a game without counters)."""
    out: dict[tuple[str, str, str], dict[str, str]] = {}
    for col in df.columns:
        parsed = parse_counter_column(col)
        if parsed is not None:
            seat, category, card, counter = parsed
            out.setdefault((category, card, counter), {})[seat] = col
    return {k: v for k, v in out.items() if set(v) == set(SEATS)}


def _holders(df: pd.DataFrame, cards: list[tuple[str, str]]) -> dict[tuple[str, str], np.ndarray]:
    """For each ``(category, card)`` of a deck category, ``bool[2, n]``: which seat of each game held it."""
    table = deck_card_table(df)
    decks = list(table)
    where = {d: i for i, d in enumerate(decks)}
    held = np.array([[card in table[d].get(category, ()) for (category, card) in cards] for d in decks], bool)
    held = held.reshape(len(decks), len(cards))
    rows = [df[f"{seat}_deck"].astype(str).map(where).to_numpy() for seat in SEATS]
    return {c: np.stack([held[r, j] for r in rows]) for j, c in enumerate(cards)}


def card_usage(df: pd.DataFrame) -> pd.DataFrame:
    """What each card did per game, from the counters the engine recorded: mean per game with a 95% interval.

    A card of a deck category (a creature kind, a weapon, a unit type) counts in the games of the seats whose
    deck held it; a card of a category of its own (cards drawn from a shared pile) in every seat's games. Each
    seat of a game is one observation; the interval is the normal one of a mean (mean +- 1.96 sd / sqrt(n)).

    Args:
        df: the results, one row per game.

    Returns:
        DataFrame ``category, card, counter, words (the counter in the game's words), games (seat-games
        counted), total, mean, sd, low, high``, by category and card in the game's order, counters in the
        schema's order. Empty (same columns) when the results hold no counters (an older sweep, or a game
        that counts nothing): ``attrs["counted"]`` says which.
    """
    found = counter_columns(df)
    schema = results_schema(df)
    if not found:
        out = pd.DataFrame(columns=list(USAGE_COLUMNS))
        out.attrs["counted"] = False
        return out
    order = {c: i for i, c in enumerate(schema.card_counters)}
    keys = sorted(found, key=lambda k: (order.get(k[0], len(order)), k[0]))
    deck_kinds = set(schema.card_categories)
    held = _holders(df, list(dict.fromkeys((c, card) for c, card, _ in keys if c in deck_kinds)))
    rows = []
    for category, card, counter in keys:
        values = np.stack([df[found[(category, card, counter)][seat]].to_numpy(float) for seat in SEATS])
        mask = held.get((category, card), np.ones_like(values, bool))
        x = values[mask]
        n = len(x)
        mean = x.mean() if n else np.nan
        sd = x.std(ddof=1) if n > 1 else (0.0 if n else np.nan)
        half = Z95 * sd / np.sqrt(n) if n else np.nan
        rows.append({"category": category, "card": card, "counter": counter,
                     "words": schema.card_counters.get(category, {}).get(counter, counter), "games": n,
                     "total": float(x.sum()), "mean": mean, "sd": sd, "low": mean - half, "high": mean + half})
    out = pd.DataFrame(rows, columns=list(USAGE_COLUMNS))
    out.attrs["counted"] = True
    return out


def card_usage_change(base: pd.DataFrame, patch: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """Each card's counts per game before and after a patch, and the change with a simultaneous interval.

    The change is ``patch - base`` of the means of :func:`card_usage`; its interval is the normal one of
    a difference of two independent means, widened for the number of counts compared (Bonferroni: every
    interval holds at once with probability ``1 - alpha``), so a change is ``significant`` exactly when its
    interval leaves out 0, and a designer can read each row alone.

    Args:
        base, patch: the :func:`card_usage` tables of the two sweeps.
        alpha: the family's error rate.

    Returns:
        DataFrame ``category, card, counter, words, base_games, base, base_low, base_high, patch_games,
        patch, patch_low, patch_high, change, low, high, significant``, the largest significant changes
        (relative to the base) first, cards neither sweep's decks held left out; empty when either sweep holds
        no counters. ``attrs["z"]`` is the
        interval's z, ``attrs["compared"]`` the number of counts compared.
    """
    key = ["category", "card", "counter"]
    if base.empty or patch.empty:
        out = pd.DataFrame(columns=list(CHANGE_COLUMNS))
        out.attrs.update(z=np.nan, compared=0, counted=(not base.empty, not patch.empty))
        return out
    b = base.rename(columns={"games": "base_games", "mean": "base", "low": "base_low", "high": "base_high",
                             "sd": "base_sd"})
    p = patch.rename(columns={"games": "patch_games", "mean": "patch", "low": "patch_low", "high": "patch_high",
                              "sd": "patch_sd"})
    m = b[key + ["words", "base_games", "base", "base_low", "base_high", "base_sd"]].merge(
        p[key + ["patch_games", "patch", "patch_low", "patch_high", "patch_sd"]], on=key, how="outer")
    m = m[(m["base_games"].fillna(0) > 0) | (m["patch_games"].fillna(0) > 0)]  # cards neither pool held
    m["words"] = m["words"].fillna(m["counter"])
    ok = (m["base_games"] > 0) & (m["patch_games"] > 0)
    compared = int(ok.sum())
    from scipy import stats

    z = float(stats.norm.ppf(1 - alpha / (2 * max(compared, 1))))
    se = np.sqrt(m["base_sd"] ** 2 / m["base_games"] + m["patch_sd"] ** 2 / m["patch_games"])
    m["change"] = np.where(ok, m["patch"] - m["base"], np.nan)
    m["low"] = np.where(ok, m["change"] - z * se, np.nan)
    m["high"] = np.where(ok, m["change"] + z * se, np.nan)
    m["significant"] = ok & ((m["low"] > 0) | (m["high"] < 0))
    scale = m["base"].abs().where(m["base"].abs() > 0, 1.0)
    m["_rank"] = -(m["change"].abs() / scale).fillna(0) - m["significant"].astype(float) * 1e9
    m = m.sort_values(["_rank", "category", "card", "counter"], ignore_index=True)
    out = m[list(CHANGE_COLUMNS)].copy()
    out["base_games"] = out["base_games"].fillna(0).astype(int)
    out["patch_games"] = out["patch_games"].fillna(0).astype(int)
    out.attrs.update(z=z, compared=compared, counted=(True, True))
    return out
