"""The results contract: one row per game, checked once, seen from either seat or from each deck.

A results DataFrame (what ``simkit.load_results`` returns) has one row per game with
``first_deck, second_deck, game, seed, winner ("first"/"second"/"draw"), end_reason
("miracle"/"turn_limit"), turns``, both miracle HPs and dead-star sums, both bots, the scenario
hash and rules version; ``df.attrs["meta"]`` describes the sweep. Deck ids are canonical
``Artifact:CreatureA,CreatureB,CreatureC``; their cards are read from the id string alone, so
analysis never needs a game package.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = [
    "RESULT_COLUMNS",
    "WINNERS",
    "END_REASONS",
    "check_results",
    "deck_cards",
    "deck_pool",
    "card_membership",
    "first_score",
    "deck_games",
    "meta_of",
]

RESULT_COLUMNS = (
    "first_deck", "second_deck", "game", "seed", "winner", "end_reason", "turns",
    "first_miracle_hp", "second_miracle_hp", "first_dead_stars", "second_dead_stars",
    "first_bot", "second_bot", "scenario_hash", "rules_version",
)
# columns every analysis needs (the rest are carried for reports and checks)
_NEEDED = ("first_deck", "second_deck", "game", "winner", "end_reason", "turns")
WINNERS = ("first", "second", "draw")
END_REASONS = ("miracle", "turn_limit")
_FIRST_POINTS = {"first": 1.0, "second": 0.0, "draw": 0.5}


def check_results(df: pd.DataFrame, source: str = "results") -> pd.DataFrame:
    """Check that ``df`` follows the results contract well enough to analyse.

    Args:
        df: the results, one row per game.
        source: where they came from, for messages.

    Returns:
        ``df`` itself.

    Raises:
        ValueError: one line naming ``source`` and the first problem (empty dataset, missing
            column, unknown winner or end reason, malformed deck id, a deck pairing missing).
    """
    if len(df) == 0:
        raise ValueError(f"{source}: the dataset holds no games")
    missing = [c for c in _NEEDED if c not in df.columns]
    if missing:
        raise ValueError(f"{source}: missing column(s) {', '.join(missing)}")
    bad = ~df["winner"].isin(WINNERS)
    if bad.any():
        raise ValueError(f"{source}: winner must be one of {WINNERS}, got {df['winner'][bad].iloc[0]!r}")
    bad = ~df["end_reason"].isin(END_REASONS)
    if bad.any():
        raise ValueError(f"{source}: end_reason must be one of {END_REASONS}, got {df['end_reason'][bad].iloc[0]!r}")
    decks = deck_pool(df)
    for deck in decks:
        deck_cards(deck)
    pairs = df.groupby(["first_deck", "second_deck"], observed=True).size()
    if len(pairs) != len(decks) ** 2:
        have = set(pairs.index)
        gap = next((a, b) for a in decks for b in decks if (a, b) not in have)
        raise ValueError(
            f"{source}: every ordered deck pairing must be played; none of {gap[0]} (first) vs {gap[1]} (second)"
        )
    return df


def deck_cards(deck: str) -> tuple[str, tuple[str, ...]]:
    """The artifact and creature kinds of a canonical deck id.

    Args:
        deck: ``"Artifact:CreatureA,CreatureB,CreatureC"``.

    Returns:
        ``(artifact, (creature, ...))``.

    Raises:
        ValueError: when the id is not of that form.
    """
    artifact, sep, rest = str(deck).partition(":")
    creatures = tuple(c.strip() for c in rest.split(",")) if rest else ()
    if not sep or not artifact.strip() or not creatures or any(not c for c in creatures):
        raise ValueError(f"deck id {deck!r} is not of the form Artifact:CreatureA,CreatureB,CreatureC")
    return artifact.strip(), creatures


def deck_pool(df: pd.DataFrame) -> list[str]:
    """Every deck of the results, sorted (the sweep's ``meta["decks"]`` order is not assumed)."""
    return sorted(set(df["first_deck"].astype(str)) | set(df["second_deck"].astype(str)))


def card_membership(decks: list[str]) -> pd.DataFrame:
    """Which cards each deck holds.

    Args:
        decks: canonical deck ids.

    Returns:
        bool DataFrame, one row per deck, one column per card (artifacts first, then creature
        kinds, each alphabetical); ``df.attrs["kind"]`` maps a card to ``"artifact"`` or ``"creature"``.
    """
    parsed = {d: deck_cards(d) for d in decks}
    artifacts = sorted({a for a, _ in parsed.values()})
    creatures = sorted({c for _, cs in parsed.values() for c in cs})
    member = pd.DataFrame(False, index=pd.Index(decks, name="deck"), columns=artifacts + creatures)
    for d, (a, cs) in parsed.items():
        member.loc[d, [a, *cs]] = True
    member.attrs["kind"] = {**{a: "artifact" for a in artifacts}, **{c: "creature" for c in creatures}}
    return member


def first_score(df: pd.DataFrame) -> np.ndarray:
    """The first player's points in each game: 1 win, 1/2 draw, 0 loss."""
    return df["winner"].map(_FIRST_POINTS).to_numpy(dtype=float)


def deck_games(df: pd.DataFrame, mirrors: bool = False) -> pd.DataFrame:
    """Each game seen from both decks: two rows per game (one per seat).

    Args:
        df: the results.
        mirrors: keep games of a deck against itself (their points always sum to one win).

    Returns:
        DataFrame with ``deck, opponent, seat ("first"/"second"), points, row`` where ``row`` is
        the game's position in ``df``.
    """
    points = first_score(df)
    row = np.arange(len(df))
    first = pd.DataFrame({
        "deck": df["first_deck"].to_numpy(), "opponent": df["second_deck"].to_numpy(),
        "seat": "first", "points": points, "row": row,
    })
    second = pd.DataFrame({
        "deck": df["second_deck"].to_numpy(), "opponent": df["first_deck"].to_numpy(),
        "seat": "second", "points": 1.0 - points, "row": row,
    })
    out = pd.concat([first, second], ignore_index=True)
    if not mirrors:
        out = out[out["deck"] != out["opponent"]].reset_index(drop=True)
    return out


def meta_of(df: pd.DataFrame) -> dict:
    """The sweep's description (``df.attrs["meta"]``), completed from the rows where it is silent.

    Returns:
        dict with at least ``scenario_name, scenario_hash, rules_version, games_per_pair, decks,
        bots, games`` (values read from the rows when the meta lacks them).
    """
    meta = dict(df.attrs.get("meta") or {})
    decks = deck_pool(df)
    meta.setdefault("decks", decks)
    if "games_per_pair" not in meta:
        meta["games_per_pair"] = int(df.groupby(["first_deck", "second_deck"]).size().max())
    for key in ("scenario_hash", "rules_version"):
        if key not in meta and key in df.columns:
            meta[key] = ", ".join(sorted(map(str, df[key].unique())))
    if "bots" not in meta and {"first_bot", "second_bot"} <= set(df.columns):
        meta["bots"] = [", ".join(sorted(map(str, df[c].unique()))) for c in ("first_bot", "second_bot")]
    meta.setdefault("scenario_name", meta.get("scenario_hash", "unnamed scenario"))
    meta.setdefault("bots", ["?", "?"])
    meta["games"] = len(df)
    return meta
