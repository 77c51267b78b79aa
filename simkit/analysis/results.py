"""The results contract: one row per game, checked once, seen from either seat or from each deck.

A results DataFrame (what :func:`simkit.load_results` returns) has one row per game with the core
columns (``first_deck, second_deck, game, seed, winner ("first"/"second"/"draw"), end_reason,
turns``, both bots, the scenario hash and rules version) plus the game's declared per-side columns;
``df.attrs["meta"]`` describes the sweep, including the game's result schema (end reasons and
their words, per-side columns, card categories) and the cards of each deck by category. Analysis
reads all of it from there, so it never imports a game package: for a folder written before the
schema was recorded, the game is reached through the game interface from the scenario text the
folder keeps.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from simkit.core.seats import SeatPools
from simkit.games import CORE_COLUMNS, WINNERS, ResultSchema

__all__ = [
    "RESULT_COLUMNS",
    "WINNERS",
    "check_results",
    "results_schema",
    "deck_card_table",
    "deck_pool",
    "seat_pools",
    "pairing_games",
    "card_membership",
    "first_score",
    "deck_games",
    "meta_of",
]

RESULT_COLUMNS = CORE_COLUMNS
# columns every analysis needs (the rest are carried for reports and checks)
_NEEDED = ("first_deck", "second_deck", "game", "winner", "end_reason", "turns")
_FIRST_POINTS = {"first": 1.0, "second": 0.0, "draw": 0.5}


def _scenario_of(meta: Mapping):
    """The scenario a results folder keeps as text (merged data), rebuilt through the game interface."""
    text = meta.get("scenario_text")
    if not text:
        return None
    from simkit.scenario import scenario_from_data

    try:
        return scenario_from_data(json.loads(text), str(meta.get("scenario_path") or "results"))
    except Exception:  # an old or foreign scenario text: the caller falls back to what the rows show
        return None


def results_schema(df: pd.DataFrame) -> ResultSchema:
    """The game's result schema for ``df``: recorded in ``meta["schema"]``, else the kept scenario's
    game's, else inferred from the rows (every end reason seen, named by its code)."""
    meta = df.attrs.get("meta") or {}
    if isinstance(meta.get("schema"), Mapping):
        return ResultSchema.from_meta(meta["schema"])
    sc = _scenario_of(meta)
    if sc is not None:
        return sc.game.schema
    reasons = sorted(map(str, df["end_reason"].unique())) if "end_reason" in df.columns else []
    return ResultSchema(end_reasons={r: r.replace("_", " ") for r in reasons})


def deck_card_table(df: pd.DataFrame) -> dict[str, dict[str, tuple[str, ...]]]:
    """The cards of every deck of ``df`` by category: ``meta["deck_cards"]``, else asked of the kept
    scenario's game; a deck nothing is known of counts as one card of its own (category ``deck``)."""
    meta = df.attrs.get("meta") or {}
    decks = deck_pool(df)
    known = meta.get("deck_cards")
    if isinstance(known, Mapping) and all(d in known for d in decks):
        return {d: {k: tuple(v) for k, v in known[d].items()} for d in decks}
    sc = _scenario_of(meta)
    if sc is not None:
        try:
            return {d: {k: tuple(v) for k, v in sc.game.deck_cards(d).items()} for d in decks}
        except Exception:  # a deck the kept scenario does not know
            pass
    return {d: {"deck": (d,)} for d in decks}


def check_results(df: pd.DataFrame, source: str = "results") -> pd.DataFrame:
    """Check that ``df`` follows the results contract well enough to analyse.

    Args:
        df: the results, one row per game.
        source: where they came from, for messages.

    Returns:
        ``df`` itself.

    Raises:
        ValueError: one line naming ``source`` and the first problem (empty dataset, missing
            column, unknown winner or end reason, a deck pairing missing: every ordered pair of the
            decks, or, for results whose seats had their own pools, every first-seat deck against every
            second-seat deck; real games, ``meta["source"] == "real games"``, hold the pairings people played).
    """
    if len(df) == 0:
        raise ValueError(f"{source}: the dataset holds no games")
    missing = [c for c in _NEEDED if c not in df.columns]
    if missing:
        raise ValueError(f"{source}: missing column(s) {', '.join(missing)}")
    bad = ~df["winner"].isin(WINNERS)
    if bad.any():
        raise ValueError(f"{source}: winner must be one of {WINNERS}, got {df['winner'][bad].iloc[0]!r}")
    reasons = (*results_schema(df).end_reasons, "forfeit")  # a forfeit: an outside bot failed (analysis.forfeits)
    bad = ~df["end_reason"].isin(reasons)
    if bad.any():
        raise ValueError(f"{source}: end_reason must be one of {reasons}, got {df['end_reason'][bad].iloc[0]!r}")
    pools = seat_pools(df)
    pairs = df.groupby(["first_deck", "second_deck"], observed=True).size()
    have = set(pairs.index)
    real = (df.attrs.get("meta") or {}).get("source") == "real games"  # games people played: what was played
    gap = None if real else next(((a, b) for a, b in pools.pairs() if (a, b) not in have), None)
    if gap is not None:
        raise ValueError(
            f"{source}: every ordered deck pairing must be played; none of {gap[0]} (first) vs {gap[1]} (second)"
        )
    stray = next((p for p in sorted(have) if not pools.holds(*p)), None)
    if stray is not None:
        raise ValueError(f"{source}: {stray[0]} (first) vs {stray[1]} (second) was played, but the sweep's seat "
                         "pools do not seat them so")
    return df


def deck_pool(df: pd.DataFrame) -> list[str]:
    """Every deck of the results, sorted (the sweep's ``meta["decks"]`` order is not assumed)."""
    return sorted(set(df["first_deck"].astype(str)) | set(df["second_deck"].astype(str)))


def seat_pools(df: pd.DataFrame) -> SeatPools:
    """The two seats' pools of the results, each sorted (:class:`~simkit.core.seats.SeatPools`).

    The sweep's pools as ``meta.json`` records them (``decks`` sit first, ``second_decks`` second; a folder
    that records only ``decks`` had alike seats), kept to the decks the rows hold; results without that
    record had alike seats: every deck of the rows in both pools.
    """
    decks = deck_pool(df)
    meta = df.attrs.get("meta") or {}
    if not meta.get("decks"):
        return SeatPools.alike(decks)
    present = set(decks)
    first = set(map(str, meta["decks"]))
    second = set(map(str, meta.get("second_decks") or meta["decks"]))
    return SeatPools(sorted(first & present), sorted(second & present))


def pairing_games(df: pd.DataFrame) -> pd.Series:
    """Games of every pairing the seat pools make (:func:`seat_pools`), 0 where none was played yet.

    Returns:
        Series indexed by ``(first_deck, second_deck)``, the first seat's pool order, then the second's.
    """
    pools = seat_pools(df)
    index = pd.MultiIndex.from_tuples(pools.pairs(), names=["first_deck", "second_deck"]) if pools.pairings else \
        pd.MultiIndex.from_arrays([[], []], names=["first_deck", "second_deck"])
    return df.groupby(["first_deck", "second_deck"]).size().reindex(index, fill_value=0)


def card_membership(cards: Mapping[str, Mapping[str, Sequence[str]]],
                    categories: Sequence[str] = ()) -> pd.DataFrame:
    """Which cards each deck holds.

    Args:
        cards: each deck's cards by category (:func:`deck_card_table`).
        categories: the order of the categories (the schema's); others follow alphabetically.

    Returns:
        bool DataFrame, one row per deck, one column per card (by category, each alphabetical);
        ``df.attrs["kind"]`` maps a card to its category.
    """
    seen = {k for cs in cards.values() for k in cs}
    order = [c for c in categories if c in seen] + sorted(seen - set(categories))
    kind: dict[str, str] = {}
    for k in order:
        for card in sorted({c for cs in cards.values() for c in cs.get(k, ())}):
            kind.setdefault(card, k)
    member = pd.DataFrame(False, index=pd.Index(list(cards), name="deck"), columns=list(kind))
    for d, cs in cards.items():
        member.loc[d, [c for k in cs for c in cs[k]]] = True
    member.attrs["kind"] = kind
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
