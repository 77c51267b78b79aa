"""Forfeits: games an outside bot lost by failing the protocol (a crash, a timeout, a malformed or illegal answer) or
by surrendering (the original Battle of Miracles protocol lets a program resign), counted apart from the games played
to their end.

A forfeited game's row has ``end_reason == "forfeit"``, ``forfeit_seat`` (the seat whose bot failed) and
``forfeit_reason`` (``"timeout: no answer to decision 12 within 5 s ..."``). Every balance table counts only the
games played to their end (:func:`ordinary_games`); :func:`forfeit_table` counts the others by bot, seat and kind,
and :func:`forfeit_words` says so in one sentence for a report's first page.
"""

from __future__ import annotations

import pandas as pd

__all__ = ["FORFEIT", "FORFEIT_KINDS", "KIND_WORDS", "forfeit_parts", "forfeit_table", "forfeit_words",
           "ordinary_games"]

#: the end reason of a forfeited game, and the kinds of failure (the first word of ``forfeit_reason``)
FORFEIT = "forfeit"
FORFEIT_KINDS = ("crash", "timeout", "malformed", "illegal", "surrender")
#: each kind as a noun
KIND_WORDS = {"crash": "crash", "timeout": "timeout", "malformed": "malformed answer", "illegal": "illegal answer",
              "surrender": "surrender"}


def _forfeited(df: pd.DataFrame) -> pd.Series:
    return df["end_reason"].astype(str) == FORFEIT if "end_reason" in df.columns else pd.Series(False, df.index)


def ordinary_games(df: pd.DataFrame) -> pd.DataFrame:
    """The games of ``df`` played to their end (every forfeit left out), its ``attrs`` kept."""
    mask = _forfeited(df)
    if not mask.any():
        return df
    out = df[~mask].reset_index(drop=True)
    out.attrs = dict(df.attrs)
    return out


def forfeit_table(df: pd.DataFrame) -> pd.DataFrame:
    """The forfeits of ``df`` by the bot that failed, its seat and the kind of failure.

    Returns:
        DataFrame ``bot, seat, kind, games, example`` (``example``: one such game's reason in full), most games
        first; empty (those columns) when no game was forfeited; ``attrs["of_games"]``: the games of ``df``.
    """
    cols = ["bot", "seat", "kind", "games", "example"]
    lost = df[_forfeited(df)]
    if lost.empty:
        out = pd.DataFrame(columns=cols)
        out.attrs["of_games"] = len(df)
        return out
    seat = lost["forfeit_seat"].astype(str) if "forfeit_seat" in lost else pd.Series("?", lost.index)
    reason = lost["forfeit_reason"].astype(str) if "forfeit_reason" in lost else pd.Series("?", lost.index)
    bot = [row.get(f"{s}_bot", "?") for s, (_, row) in zip(seat, lost.iterrows())]
    frame = pd.DataFrame({"bot": bot, "seat": seat.to_numpy(), "kind": reason.str.split(":").str[0].to_numpy(),
                          "reason": reason.to_numpy()})
    out = (frame.groupby(["bot", "seat", "kind"], sort=False)
           .agg(games=("reason", "size"), example=("reason", "first")).reset_index())
    out = out.sort_values("games", ascending=False, kind="stable").reset_index(drop=True)[cols]
    out.attrs["of_games"] = len(df)
    return out


def forfeit_parts(table: pd.DataFrame) -> str:
    """The forfeits of a :func:`forfeit_table` in words: ``mine as the first player: 3 crashes; ...``."""
    from simkit.core.words import count

    return "; ".join(f"{r.bot} as the {r.seat} player: {count(int(r.games), KIND_WORDS.get(r.kind, r.kind))}"
                     for r in table.itertuples())


def forfeit_words(table: pd.DataFrame) -> str | None:
    """One sentence for a report's first page: how many games of the results (``table.attrs["of_games"]``) ended by
    forfeit, whose and why, and that every table counts them apart (``None`` when there were none)."""
    if table.empty:
        return None
    n = int(table["games"].sum())
    games = table.attrs.get("of_games", "the")
    return (f"{n} of {games} games ended by a forfeit ({forfeit_parts(table)}). A forfeit is not a win: every table "
            "and figure of this report counts only the games played to their end, and the forfeits table lists them.")
