"""What an explore folder tells a designer, read from its games and its last state, and written beside them.

One set of answers for every deck-choice game (:class:`~simkit.explore.game.DeckGame`), a ``seat`` column
wherever a deck's answer depends on its side (``both`` when the seats are alike; ``first`` and ``second``
when each has its own pool, a deck of both pools having a row per seat): ``metagame.csv`` (each side's
mixture), ``decks.csv`` (every deck of every side: searched or not, its score against the mixture it meets
and, where the game has a field, against the field, with intervals), ``strongest.csv`` (each side's ``top``
decks: by rate against the field where measured, else by score against the mixture), ``archive.csv`` (the
strongest deck of every style cell of each side), ``dead_cards.csv`` (every card's standing: in a metagame deck,
in a strongest deck, in a deck not ruled out of the band, dead, or untested; :func:`card_table`),
``matchups.csv`` (every explored pairing with its games), ``summary.json`` (the guarantee, each side's
exploitability, games; per-side answers keyed by side name) and ``explore.pdf``.
Every file is written atomically and depends only on the games and the state, so a resumed run writes the
very same files.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.core.words import Estimate, card_status, guarantee_sentence, seats_guarantee_sentence
from simkit.explore.game import Against, DeckGame, Side
from simkit.explore.oracle import field_of, field_race, race, race_z, searched_of, state_of
from simkit.explore.settings import ExploreSettings
from simkit.explore.space import DeckSpace
from simkit.explore.tally import Tally
from simkit.sweep.store import atomic_write

FILES = ("metagame.csv", "decks.csv", "strongest.csv", "archive.csv", "dead_cards.csv", "matchups.csv",
         "summary.json", "explore.pdf")

_NO_FIELD = (0, np.nan, np.nan, np.nan, "")


@dataclass(frozen=True)
class _Reading:
    """What the answers are read from: the space and its deck-choice game, the settings, the games, the last state
    (its populations), each side's mixture and what its candidates face, and the field races (alike seats)."""

    space: DeckSpace
    game: DeckGame
    s: ExploreSettings
    tally: Tally
    state: dict
    pops: list[list[int]]
    supports: list
    weights: list
    against: list[Against]
    field: dict
    predicted: np.ndarray


def analyse(space: DeckSpace, settings: ExploreSettings, df: pd.DataFrame, state: dict, stopped: str) -> dict:
    """The explore run's answers from its games and its last state.

    Returns:
        dict of DataFrames ``metagame, decks, strongest, archive, dead_cards, matchups`` and ``summary`` (a dict).
    """
    r = _reading(space, settings, df, state)
    decks = pd.DataFrame([row for side in r.game.sides for row in _deck_rows(r, side)])
    in_meta = {i for sup in r.supports for i in sup}
    reach = {space.index(d) for d in decks.loc[decks["in_band"], "deck"]}
    searched = {space.index(d) for d in decks.loc[decks["searched"], "deck"]}
    strongest = _strongest(decks, r.game, settings.top)
    dead_cards = card_table(space, in_meta, {space.index(d) for d in strongest["deck"]}, reach, searched)
    decks = decks.drop(columns="in_band")
    n, pts = r.tally.n, r.tally.pts
    fi, si = np.nonzero(n)
    matchups = pd.DataFrame({
        "first_deck": [space.decks[i] for i in fi], "second_deck": [space.decks[j] for j in si],
        "games": n[fi, si], "first_points": pts[fi, si], "first_rate": pts[fi, si] / n[fi, si],
    })
    metagame = decks[decks["in_population"]].sort_values(["seat", "weight", "vs_mix", "deck"],
                                                        ascending=[True, False, False, True])
    metagame = metagame[["seat", "deck", "weight", "vs_mix", "vs_mix_low", "vs_mix_high", "games"]]
    answers = {"metagame": metagame.reset_index(drop=True), "decks": decks, "strongest": strongest,
               "archive": _archive(decks, space, r.game), "dead_cards": dead_cards, "matchups": matchups}
    answers["summary"] = _summary(answers, r, stopped)
    answers["summary"]["experience"], answers["summary"]["experience_games"] = _experience(df, r)
    return answers


def _experience(df: pd.DataFrame, r: _Reading) -> tuple[str, int]:
    """How the metagame's games play (the games between decks of the mixtures: a deck of the first side's mixture
    against one of the side it meets), in the report's sentence with its intervals, and how many games it reads;
    the one line saying why when the game records no experience figures."""
    from simkit.analysis.experience import experience_tables
    from simkit.report.experience_page import experience_words

    seats = [{r.space.decks[i] for i in sup} for sup in r.supports]
    first, second = (seats[0], seats[-1])
    mask = df["first_deck"].isin(first) & df["second_deck"].isin(second)
    if len(seats) == 1:  # alike seats: one mixture, either seating
        mask = df["first_deck"].isin(first) & df["second_deck"].isin(first)
    games = df[mask.to_numpy()]
    meta = df.attrs.get("meta") or {}  # the game and scenario, not every round's state (copied at each column read)
    games.attrs = {**df.attrs, "meta": {k: v for k, v in meta.items() if k not in ("rounds", "adaptive_result")}}
    if not len(games):
        return "How the games play: no game between the mixtures' decks was played.", 0
    return experience_words({"experience": experience_tables(games)}) or "", int(len(games))


def _reading(space: DeckSpace, s: ExploreSettings, df: pd.DataFrame, state: dict) -> _Reading:
    """The mixtures and races the answers are read from."""
    game = DeckGame(space, s.horizon)
    state = state_of(state, game)
    tally = Tally(space.decks, df)
    pops = [[space.index(d) for d in state["population"][side.name]] for side in game.sides]
    supports, weights, refs = game.mixtures(tally, pops, s.support_tol)
    value_se = game.value_se(tally, supports, weights)
    field = field_of(space, s) if game.field else []
    contenders = [space.index(d) for d in state.get("contenders", [])]
    fv = field_race(tally, contenders, field, s) if contenders else {}
    pred = tally.predicted_field_rate(field) if game.field else np.full(len(space), np.nan)
    return _Reading(space, game, s, tally, state, pops, supports, weights,
                    game.against(supports, weights, refs, value_se), fv, pred)


def _deck_rows(r: _Reading, side: Side) -> list[dict]:
    """One row per deck of ``side``'s pool: its race against the mixture it meets, its field race, its cell."""
    space, k = r.space, side.index
    searched = sorted(searched_of(r.state, side, space) | set(r.pops[k]))
    verdict = race(r.tally, side, r.against[k], searched, r.s, race_z(r.game, r.s))
    w = dict(zip(r.supports[k], r.weights[k], strict=True))
    rows = []
    for i in side.pool:
        lvl, est, low, high, dec = verdict.get(i, (0, np.nan, np.nan, np.nan, "not searched"))
        if i in r.pops[k]:
            dec = "metagame" if i in w else "population"
        flvl, fest, flow, fhigh, fdec = r.field.get(i, _NO_FIELD)
        rows.append({
            "seat": side.name, "deck": space.decks[i], "searched": i in verdict, "in_population": i in r.pops[k],
            "weight": float(w.get(i, 0.0)), "vs_mix": est, "vs_mix_low": low, "vs_mix_high": high,
            "vs_mix_level": lvl, "decision": dec, "field_rate": fest, "field_low": flow, "field_high": fhigh,
            "field_level": flvl, "top_race": fdec, "predicted_field_rate": float(r.predicted[i]),
            "games": side.games(r.tally, i),
            "in_band": i in verdict and not high < r.against[k].ref - r.s.band,  # its interval reaches the band
            **{ax.name: v for ax, v in zip(space.axes, space.cell(i), strict=True)},
        })
    return rows


def card_table(space: DeckSpace, metagame: set[int], strongest: set[int], reach: set[int],
               searched: set[int]) -> pd.DataFrame:
    """Every card's standing (:func:`simkit.core.words.card_status`): held by a deck of the mixture, by one of the
    strongest decks, by a searched deck whose interval against the mixture reaches the band (not ruled out), dead
    (every searched deck holding it lies below the band with confidence), or untested (no searched deck holds it).

    Args:
        space: the deck space.
        metagame: the mixture's decks (indices; either seat's).
        strongest: the strongest decks named.
        reach: searched decks whose interval against the mixture reaches the band.
        searched: every searched deck.

    Returns:
        ``category, card, metagame_decks, strongest_decks, band_decks, searched_decks, status, dead``, dead cards
        first.
    """
    rows = []
    for card in space.all_cards():
        def holding(decks: set[int], card=card) -> int:
            return sum(1 for i in decks if space.uses(i, card))

        m, t, b, n = holding(metagame), holding(strongest), holding(reach - metagame), holding(searched)
        status = card_status(m, t, b, n)
        rows.append({"category": card[0], "card": card[1], "metagame_decks": m, "strongest_decks": t,
                     "band_decks": b, "searched_decks": n, "status": status, "dead": status == "dead"})
    return pd.DataFrame(rows).sort_values(["dead", "category", "card"], ascending=[False, True, True])


def _strongest(decks: pd.DataFrame, game: DeckGame, top: int) -> pd.DataFrame:
    """Each side's ``top`` decks: by rate against the field where the game has one (the measured decks), else by
    score against the mixture the side meets (the searched decks)."""
    if game.field:
        ranked = decks[decks["field_level"] > 0].sort_values(["seat", "field_rate", "deck"],
                                                             ascending=[True, False, True])
    else:
        played = decks["searched"] & (decks["vs_mix_level"] > 0)  # a deck yet to meet the mixture has no score
        ranked = decks[played].sort_values(["seat", "vs_mix", "deck"], ascending=[True, False, True])
    cols = ["seat", "deck", "field_rate", "field_low", "field_high", "field_level", "top_race", "vs_mix",
            "vs_mix_low", "vs_mix_high", "vs_mix_level", "decision", "games"]
    return ranked.groupby("seat", sort=False).head(top)[cols].reset_index(drop=True)


def _archive(decks: pd.DataFrame, space: DeckSpace, game: DeckGame) -> pd.DataFrame:
    """The strongest searched deck of every style cell of each side, with how many of the cell's decks were
    searched: strength is the rate against the field (measured, else predicted by Bradley-Terry) where the
    game has a field, else the score against the mixture the side meets."""
    axes = [ax.name for ax in space.axes]
    cols = ["seat", *axes, "deck", "strength", "measured", "vs_mix", "vs_mix_low", "vs_mix_high", "weight",
            "searched_in_cell", "games"]
    if not axes:
        return pd.DataFrame(columns=cols)
    if game.field:
        measured = decks["field_level"] > 0
        strength = decks["field_rate"].where(measured, decks["predicted_field_rate"])
    else:
        measured, strength = decks["searched"] & (decks["vs_mix_level"] > 0), decks["vs_mix"]
    arch = decks.assign(strength=strength, measured=measured)[decks["searched"]]
    if not game.field:  # a deck yet to meet the mixture it faces has no strength to rank
        arch = arch[arch["measured"]]
    arch = arch.sort_values(["seat", "strength", "deck"], ascending=[True, False, True])
    cells = arch.groupby(["seat", *axes], sort=True)
    archive = cells.head(1).merge(cells.size().rename("searched_in_cell").reset_index(), on=["seat", *axes])
    return archive.sort_values(["seat", *axes])[cols].reset_index(drop=True)


def _summary(answers: dict, r: _Reading, stopped: str) -> dict:
    """``summary.json``: the guarantee, and per side (by name) its exploitability, mixture, population and
    strongest decks. A side's exploitability is how much the best searched deck of the side that meets it
    (itself when the seats are alike) scores against its mixture above that side's reference."""
    game, space, state, s = r.game, r.space, r.state, r.s
    supports, weights, refs = r.supports, r.weights, [a.ref for a in r.against]
    decks = answers["decks"]
    exploit, interval, best, estimates, open_ = {}, {}, {}, {}, 0
    for side in game.sides:
        o = game.sides[side.opponent]
        ref = refs[o.index]
        cand = decks[(decks["seat"] == o.name) & decks["searched"]]
        # the estimate is the best measured deck's (a population deck is measured: alike seats' lone mixture deck
        # meets only its mirror, level 0); the bounds are every deck's
        met = cand[(cand["vs_mix_level"] > 0) | cand["in_population"]]
        top = met.loc[met["vs_mix"].idxmax()] if len(met) else None
        exploit[side.name] = float(top["vs_mix"] - ref) if top is not None else float("nan")
        interval[side.name] = [float(cand["vs_mix_low"].max() - ref), float(cand["vs_mix_high"].max() - ref)]
        best[side.name] = None if top is None else str(top["deck"])
        estimates[side.name] = Estimate(exploit[side.name], *interval[side.name])
        open_ += int(((cand["vs_mix_high"] >= ref + s.epsilon) & ~cand["in_population"]).sum())
    met, guarantee, z, family = _guarantee(estimates, game, s, stopped)
    games = answers["matchups"]["games"]
    return {
        "seats": list(game.names),
        "stopped": stopped,
        "guarantee_met": bool(met),
        "guarantee": guarantee,
        "epsilon": s.epsilon,
        "value": round(refs[0], 6),
        "exploitability": exploit,
        "exploitability_interval": interval,
        "best_response": best,
        "searched_not_excluded": open_,
        "games": int(games.sum()),
        "pairs_played": int(len(games)),
        "pairs": len(space.seats[0]) * len(space.seats[1]),
        "decks": {side.name: len(side.pool) for side in game.sides},
        "searched": {side.name: int(((decks["seat"] == side.name) & decks["searched"]).sum()) for side in game.sides},
        "population": {side.name: list(state["population"][side.name]) for side in game.sides},
        "metagame": {side.name: {space.decks[i]: round(float(x), 6)
                                 for i, x in zip(supports[side.index], weights[side.index], strict=True)}
                     for side in game.sides},
        "added": state.get("added", []),
        "strongest": {side.name: answers["strongest"].loc[answers["strongest"]["seat"] == side.name, "deck"].tolist()
                      for side in game.sides},
        "dead_cards": [f"{r.category}:{r.card}" for r in answers["dead_cards"].itertuples() if r.dead],
        "untested_cards": [f"{r.category}:{r.card}" for r in answers["dead_cards"].itertuples()
                           if r.status == "untested"],
        "axes": [ax.spec() for ax in space.axes],
        "bounds": {"z": round(z, 4), "alpha": s.alpha, "family": int(family) if s.alpha else 1,
                   "value_se": round(float(r.against[0].se), 6)},
        "settings": s.to_dict(),
    }


def _guarantee(estimates: dict, game: DeckGame, s: ExploreSettings, stopped: str) -> tuple[bool, str, float, int]:
    """The guarantee (met, its sentence with what its bounds are), the bounds' z and the family they hold over."""
    every = s.search == "all"
    if list(estimates) == ["both"]:
        met, guarantee = guarantee_sentence(estimates["both"], s.epsilon, stopped,
                                            scope="deck of the pool" if every else "searched deck")
    else:
        met, guarantee = seats_guarantee_sentence(estimates, s.epsilon, stopped,
                                                  scope="deck of its pool" if every else "searched deck")
    z, family = race_z(game, s), sum(len(side.pool) for side in game.sides) + (len(game.sides) > 1)
    return met, guarantee + "; " + bounds_words(s, z, family), z, family


def bounds_words(s: ExploreSettings, z: float, family: int) -> str:
    """What the bounds are, in words: family-wise over the whole pool (``alpha`` set) or deck by deck."""
    if s.alpha:
        return (f"every bound holds at once with chance at least {1 - s.alpha:.0%} (z = {z:.2f}: Bonferroni over "
                f"{family:,} decks and values and {len(s.looks())} looks, normal approximation)")
    return (f"each bound is {z:g} standard errors (normal approximation), deck by deck, not at once over "
            "every deck (--alpha makes them family-wise)")


def write_outputs(out: Path, answers: dict, title: str) -> None:
    """Write every answer file into the folder ``out``, atomically."""
    out = Path(out)
    for name in ("metagame", "decks", "strongest", "archive", "dead_cards", "matchups"):
        frame = answers[name]
        atomic_write(out / f"{name}.csv", lambda p, f=frame: f.to_csv(p, index=False, float_format="%.6g"))
    text = json.dumps(answers["summary"], indent=2, ensure_ascii=False, default=_plain)
    atomic_write(out / "summary.json", lambda p: p.write_text(text + "\n", encoding="utf-8"))
    from simkit.explore.report import write_explore_pdf

    atomic_write(out / "explore.pdf", lambda p: write_explore_pdf(p, answers, title))


def _plain(x):
    if isinstance(x, np.generic):
        return x.item()
    raise TypeError(f"not JSON: {type(x).__name__}")
