"""First-player advantage: how much moving first is worth, overall, per deck and per matchup."""

from __future__ import annotations

import numpy as np
import pandas as pd

from simkit.analysis.stats import sign_test, wilson_interval

__all__ = ["first_player_advantage", "seat_measured"]


def _seat_counts(df: pd.DataFrame) -> pd.DataFrame:
    """Games, first-seat wins, second-seat wins and draws per ordered (first_deck, second_deck)."""
    w = df["winner"]
    if "first_bot" in df.columns and "second_bot" in df.columns:
        mixed = (df["first_bot"].to_numpy(object) != df["second_bot"].to_numpy(object)).astype(int)
    else:
        mixed = np.zeros(len(df), int)
    counts = pd.DataFrame({
        "first_deck": df["first_deck"].to_numpy(), "second_deck": df["second_deck"].to_numpy(),
        "first_wins": (w == "first").to_numpy(int), "second_wins": (w == "second").to_numpy(int),
        "draws": (w == "draw").to_numpy(int), "mixed_bots": mixed,
    })
    return counts.groupby(["first_deck", "second_deck"], sort=True).agg(
        games=("draws", "size"), first_wins=("first_wins", "sum"),
        second_wins=("second_wins", "sum"), draws=("draws", "sum"), mixed_bots=("mixed_bots", "sum"),
    ).reset_index()


def _finish(t: pd.DataFrame) -> pd.DataFrame:
    points = t["first_wins"] + t["draws"] / 2
    t["first_rate"] = points / t["games"]
    t["advantage"] = t["first_rate"] - 0.5
    low, high = wilson_interval(points, t["games"])
    t["low"], t["high"] = low - 0.5, high - 0.5
    t["p_value"] = sign_test(t["first_wins"], t["second_wins"])
    return t


def first_player_advantage(df: pd.DataFrame) -> pd.DataFrame:
    """The first seat's score rate above one half, with a Wilson 95% interval and a sign test.

    ``advantage`` is the first player's score rate minus 1/2 (0.05 = five points). Per deck it is
    measured over the deck's non-mirror games, in either seat, which makes it exactly half the gap
    between the deck's win rate moving first and moving second. Per matchup it pools both
    seatings of the two decks; a mirror matchup (the deck against itself) is a matchup too.
    ``p_value`` is the exact two-sided binomial test of first-seat wins against second-seat wins,
    draws left out.

    A seat is measured only where the same bot plays both seats: in games where the first seat's bot
    differs from the second's, the difference is a bot-and-seat effect, not the seat's. ``same_bots``
    is true for a row whose games all had one bot in both seats; :func:`seat_measured` says it in words.

    Args:
        df: the results, one row per game.

    Returns:
        tidy DataFrame: ``scope ("overall"/"deck"/"matchup"), subject, deck, opponent, games,
        first_wins, second_wins, draws, first_rate, advantage, low, high, p_value, same_bots``
        (``low``/``high`` bound ``advantage``). The overall row comes first.
    """
    c = _seat_counts(df)
    cols = ["games", "first_wins", "second_wins", "draws", "mixed_bots"]

    overall = c[cols].sum().to_frame().T
    overall.insert(0, "scope", "overall")
    overall.insert(1, "subject", "all games")
    overall.insert(2, "deck", None)
    overall.insert(3, "opponent", None)

    mirror = c["first_deck"] == c["second_deck"]
    by_deck = pd.concat([c[~mirror].rename(columns={"first_deck": "deck"}),
                         c[~mirror].rename(columns={"second_deck": "deck"})])
    deck = by_deck.groupby("deck", sort=True)[cols].sum().reset_index()
    deck.insert(0, "scope", "deck")
    deck.insert(1, "subject", deck["deck"])
    deck.insert(3, "opponent", None)

    a, b = c["first_deck"].to_numpy(object), c["second_deck"].to_numpy(object)
    lower = a <= b
    pair = c.assign(deck=np.where(lower, a, b), opponent=np.where(lower, b, a))
    matchup = pair.groupby(["deck", "opponent"], sort=True)[cols].sum().reset_index()
    matchup.insert(0, "scope", "matchup")
    matchup.insert(1, "subject", matchup["deck"] + " vs " + matchup["opponent"])

    out = pd.concat([overall, deck, matchup], ignore_index=True)
    out[cols] = out[cols].astype(int)
    out["same_bots"] = out.pop("mixed_bots") == 0
    return _finish(out)


def seat_measured(df: pd.DataFrame) -> str | None:
    """``None`` when every game had the same bot in both seats (the seat's worth is measured); else a
    sentence saying the first-seat figures are a bot-and-seat effect and how to measure the seat."""
    if "first_bot" not in df.columns or not len(df):
        return None
    differ = df["first_bot"].to_numpy(object) != df["second_bot"].to_numpy(object)
    if not differ.any():
        return None
    pairs = sorted({f"{a} first, {b} second" for a, b in zip(df["first_bot"][differ], df["second_bot"][differ])})
    return (f"the seats had different bots ({'; '.join(pairs)}) in {int(differ.sum())} of {len(df)} games: there "
            "the first seat's score is a bot-and-seat effect, not the seat's worth, and it is not flagged; to "
            "measure the seat, play the same bot in both seats (--bots B,B) or a panel (--panel A,B)")
