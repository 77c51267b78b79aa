"""What an explore folder with seat pools tells a designer: each seat's metagame, exploitability and archive.

The same files as :mod:`simkit.explore.outputs`, with a ``seat`` column wherever a deck's answer
depends on its seat (a deck of both pools has a row per seat), and a ``summary.json`` whose
per-seat answers are ``{"first": ..., "second": ...}`` (``seat_pools`` true).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from simkit.core.words import Estimate, seats_guarantee_sentence
from simkit.explore.outputs import card_table
from simkit.explore.seats import SEATS, seat_mixtures, seat_race
from simkit.explore.settings import ExploreSettings
from simkit.explore.space import DeckSpace
from simkit.explore.tally import Tally


def analyse_seats(space: DeckSpace, settings: ExploreSettings, df: pd.DataFrame, state: dict, stopped: str) -> dict:
    """The answers of an explore with seat pools, from its games and its last state.

    Returns:
        dict of DataFrames ``metagame, decks, strongest, archive, dead_cards, matchups`` (each with
        a ``seat`` column but the last two) and ``summary`` (a dict).
    """
    s = settings
    tally = Tally(space.decks, df)
    idx = space.index
    pops = [[idx(d) for d in state["population"][seat]] for seat in SEATS]
    supports, weights, v = seat_mixtures(tally, space, pops, s.support_tol)
    rows, verdicts, in_band = [], [], set()
    for k, seat in enumerate(SEATS):
        searched = sorted({idx(d) for d in state["searched"][seat]} | set(pops[k]))
        verdict = seat_race(tally, supports, weights, v, k, searched, s)
        verdicts.append(verdict)
        ref = v if k == 0 else 1.0 - v
        w = dict(zip(supports[k], weights[k], strict=True))
        for i in space.seats[k]:
            lvl, est, low, high, dec = verdict.get(i, (0, np.nan, np.nan, np.nan, "not searched"))
            if i in pops[k]:
                dec = "metagame" if i in w else "population"
            if i in verdict and not high < ref - s.band:  # its interval reaches the band: not ruled out
                in_band.add(i)
            games = int(tally.n[i].sum()) if k == 0 else int(tally.n[:, i].sum())
            rows.append({"seat": seat, "deck": space.decks[i], "searched": i in verdict, "in_population": i in pops[k],
                         "weight": float(w.get(i, 0.0)), "vs_mix": est, "vs_mix_low": low, "vs_mix_high": high,
                         "vs_mix_level": lvl, "decision": dec, "games": games,
                         **{ax.name: x for ax, x in zip(space.axes, space.cell(i), strict=True)}})
    decks = pd.DataFrame(rows)
    meta = decks[decks["in_population"]].sort_values(["seat", "weight", "vs_mix", "deck"],
                                                     ascending=[True, False, False, True])
    metagame = meta[["seat", "deck", "weight", "vs_mix", "vs_mix_low", "vs_mix_high", "games"]].reset_index(drop=True)
    srch = decks[decks["searched"]].sort_values(["seat", "vs_mix", "deck"], ascending=[True, False, True])
    strongest = srch.groupby("seat", sort=True).head(s.top)[["seat", "deck", "vs_mix", "vs_mix_low", "vs_mix_high",
                                                              "vs_mix_level", "decision", "games"]]
    strongest = strongest.reset_index(drop=True)
    axes = [ax.name for ax in space.axes]
    if axes:
        cells = srch.groupby(["seat", *axes], sort=True)
        archive = cells.head(1).merge(cells.size().rename("searched_in_cell").reset_index(), on=["seat", *axes])
        archive = archive.rename(columns={"vs_mix": "strength"}).sort_values(["seat", *axes])
        archive = archive[["seat", *axes, "deck", "strength", "vs_mix_low", "vs_mix_high", "weight",
                           "searched_in_cell", "games"]].reset_index(drop=True)
    else:
        archive = pd.DataFrame(columns=["seat", "deck", "strength"])
    in_meta = set(supports[0]) | set(supports[1])
    searched_all = {i for verdict in verdicts for i in verdict}
    dead_cards = card_table(space, in_meta, {idx(d) for d in strongest["deck"]}, in_band, searched_all)
    fi, si = np.nonzero(tally.n)
    matchups = pd.DataFrame({
        "first_deck": [space.decks[i] for i in fi], "second_deck": [space.decks[j] for j in si],
        "games": tally.n[fi, si], "first_points": tally.pts[fi, si], "first_rate": tally.pts[fi, si] / tally.n[fi, si],
    })
    exploit, interval, best, said = {}, {}, {}, {}
    for k, seat in enumerate(SEATS):  # seat k's mixture, exploited by the other seat's searched decks
        o = 1 - k
        ref = v if o == 0 else 1.0 - v
        cand = decks[(decks["seat"] == SEATS[o]) & decks["searched"]]
        top = cand.loc[cand["vs_mix"].idxmax()]
        exploit[seat] = float(top["vs_mix"] - ref)
        interval[seat] = [float(cand["vs_mix_low"].max() - ref), float(cand["vs_mix_high"].max() - ref)]
        best[seat] = str(top["deck"])
        said[seat] = Estimate(exploit[seat], *interval[seat])
    met, guarantee = seats_guarantee_sentence(said, s.epsilon, stopped)
    summary = {
        "seat_pools": True,
        "stopped": stopped,
        "guarantee_met": bool(met),
        "guarantee": guarantee,
        "epsilon": s.epsilon,
        "value": round(v, 6),
        "exploitability": exploit,
        "exploitability_interval": interval,
        "best_response": best,
        "games": int(tally.n.sum()),
        "pairs_played": int((tally.n > 0).sum()),
        "pairs": len(space.seats[0]) * len(space.seats[1]),
        "decks": {seat: len(space.seats[k]) for k, seat in enumerate(SEATS)},
        "searched": {seat: int(((decks["seat"] == seat) & decks["searched"]).sum()) for seat in SEATS},
        "population": {seat: [space.decks[i] for i in pops[k]] for k, seat in enumerate(SEATS)},
        "metagame": {seat: {space.decks[i]: round(float(x), 6) for i, x in zip(supports[k], weights[k], strict=True)}
                     for k, seat in enumerate(SEATS)},
        "added": state.get("added", []),
        "strongest": {seat: strongest.loc[strongest["seat"] == seat, "deck"].tolist() for seat in SEATS},
        "dead_cards": [f"{r.category}:{r.card}" for r in dead_cards.itertuples() if r.dead],
        "untested_cards": [f"{r.category}:{r.card}" for r in dead_cards.itertuples() if r.status == "untested"],
        "axes": [ax.spec() for ax in space.axes],
        "settings": s.to_dict(),
    }
    return {"metagame": metagame, "decks": decks, "strongest": strongest, "archive": archive,
            "dead_cards": dead_cards, "matchups": matchups, "summary": summary}
