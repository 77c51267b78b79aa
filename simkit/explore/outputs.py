"""What an explore folder tells a designer, read from its games and its last state, and written beside them.

``metagame.csv`` (the mixture), ``decks.csv`` (every deck: searched or not, its rate against the
mixture and the field with intervals), ``strongest.csv`` (the ``top`` decks by rate against the
field), ``archive.csv`` (the strongest deck of every style cell), ``dead_cards.csv`` (every card's standing:
in a metagame deck, in a strongest deck, in a deck not ruled out of the band, dead, or untested;
:func:`card_table`), ``matchups.csv`` (every explored
ordered pair with its games), ``summary.json`` (the guarantee, exploitability, games) and
``explore.pdf``. Every file is written atomically and depends only on the games and the state,
so a resumed run writes the very same files.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.core.words import Estimate, card_status, guarantee_sentence
from simkit.explore.oracle import field_of, field_race, mixture, race
from simkit.explore.settings import ExploreSettings
from simkit.explore.space import DeckSpace
from simkit.explore.tally import Tally
from simkit.sweep.store import atomic_write

FILES = ("metagame.csv", "decks.csv", "strongest.csv", "archive.csv", "dead_cards.csv", "matchups.csv",
         "summary.json", "explore.pdf")


def analyse(space: DeckSpace, settings: ExploreSettings, df: pd.DataFrame, state: dict, stopped: str) -> dict:
    """The explore run's answers from its games and its last state.

    Returns:
        dict of DataFrames ``metagame, decks, strongest, archive, dead_cards, matchups`` and ``summary`` (a dict).
    """
    s = settings
    tally = Tally(space.decks, df)
    idx = space.index
    pop = [idx(d) for d in state["population"]]
    support, weights = mixture(tally, space, pop, s.support_tol)
    w = dict(zip(support, weights, strict=True))
    searched = sorted({idx(d) for d in state["searched"]} | set(pop))
    verdict = race(tally, support, weights, searched, s)
    field = field_of(space, s)
    contenders = [idx(d) for d in state.get("contenders", [])]
    fv = field_race(tally, contenders, field, s) if contenders else {}
    pred = tally.predicted_field_rate(field)
    rows = []
    for i, deck in enumerate(space.decks):
        lvl, est, low, high, dec = verdict.get(i, (0, np.nan, np.nan, np.nan, "not searched"))
        if i in pop:
            dec = "metagame" if i in w else "population"
        flvl, fest, flow, fhigh, fdec = fv.get(i, (0, np.nan, np.nan, np.nan, ""))
        rows.append({
            "deck": deck, "searched": i in searched, "in_population": i in pop, "weight": float(w.get(i, 0.0)),
            "vs_mix": est, "vs_mix_low": low, "vs_mix_high": high, "vs_mix_level": lvl, "decision": dec,
            "field_rate": fest, "field_low": flow, "field_high": fhigh, "field_level": flvl, "top_race": fdec,
            "predicted_field_rate": float(pred[i]), "games": int(tally.n[i].sum() + tally.n[:, i].sum()),
            **{ax.name: v for ax, v in zip(space.axes, space.cell(i), strict=True)},
        })
    decks = pd.DataFrame(rows)
    meta = decks[decks["in_population"]].sort_values(["weight", "vs_mix", "deck"], ascending=[False, False, True])
    metagame = meta[["deck", "weight", "vs_mix", "vs_mix_low", "vs_mix_high", "games"]].reset_index(drop=True)
    measured = decks[decks["field_level"] > 0].sort_values(["field_rate", "deck"], ascending=[False, True])
    strongest = measured.head(s.top)[["deck", "field_rate", "field_low", "field_high", "field_level", "top_race",
                                      "vs_mix", "games"]].reset_index(drop=True)
    strength = decks["field_rate"].where(decks["field_level"] > 0, decks["predicted_field_rate"])
    arch = decks[decks["searched"]].assign(strength=strength, measured=decks["field_level"] > 0)
    axes = [ax.name for ax in space.axes]
    if axes:
        arch = arch.sort_values(["strength", "deck"], ascending=[False, True])
        cells = arch.groupby(axes, sort=True)
        archive = cells.head(1).merge(cells.size().rename("searched_in_cell").reset_index(), on=axes)
        archive = archive.sort_values(axes)[[*axes, "deck", "strength", "measured", "vs_mix", "weight",
                                             "searched_in_cell", "games"]].reset_index(drop=True)
    else:
        archive = pd.DataFrame(columns=["deck", "strength"])
    searched_rows = decks[decks["searched"]]
    reach = searched_rows[~(searched_rows["vs_mix_high"] < 0.5 - s.band)].index  # an unmeasured deck is not ruled out
    dead_cards = card_table(space, set(w), {idx(d) for d in strongest["deck"]}, set(reach), set(searched_rows.index))
    fi, si = np.nonzero(tally.n)
    matchups = pd.DataFrame({
        "first_deck": [space.decks[i] for i in fi], "second_deck": [space.decks[j] for j in si],
        "games": tally.n[fi, si], "first_points": tally.pts[fi, si],
        "first_rate": tally.pts[fi, si] / tally.n[fi, si],
    })
    cand = decks[decks["searched"]]
    best = cand.loc[cand["vs_mix"].idxmax()] if len(cand) else None
    exploit = float(best["vs_mix"] - 0.5) if best is not None else float("nan")
    interval = [float(cand["vs_mix_low"].max() - 0.5), float(cand["vs_mix_high"].max() - 0.5)]
    not_excluded = cand[(cand["vs_mix_high"] >= 0.5 + s.epsilon) & ~cand["in_population"]]
    met, guarantee = guarantee_sentence(Estimate(exploit, *interval), s.epsilon, stopped)
    summary = {
        "stopped": stopped,
        "guarantee_met": met,
        "guarantee": guarantee,
        "epsilon": s.epsilon,
        "exploitability": exploit,
        "exploitability_interval": interval,
        "best_response": None if best is None else str(best["deck"]),
        "searched_not_excluded": int(len(not_excluded)),
        "games": int(tally.n.sum()),
        "pairs_played": int((tally.n > 0).sum()),
        "decks": len(space),
        "searched": len(searched),
        "population": [space.decks[i] for i in pop],
        "metagame": {space.decks[i]: round(float(x), 6) for i, x in zip(support, weights, strict=True)},
        "added": state.get("added", []),
        "strongest": strongest["deck"].tolist(),
        "dead_cards": [f"{r.category}:{r.card}" for r in dead_cards.itertuples() if r.dead],
        "untested_cards": [f"{r.category}:{r.card}" for r in dead_cards.itertuples() if r.status == "untested"],
        "axes": [ax.spec() for ax in space.axes],
        "settings": s.to_dict(),
    }
    return {"metagame": metagame, "decks": decks, "strongest": strongest, "archive": archive,
            "dead_cards": dead_cards, "matchups": matchups, "summary": summary}


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


def write_outputs(out: Path, answers: dict, title: str) -> None:
    """Write every answer file into the folder ``out``, atomically."""
    out = Path(out)
    for name in ("metagame", "decks", "strongest", "archive", "dead_cards", "matchups"):
        frame = answers[name]
        atomic_write(out / f"{name}.csv", lambda p, f=frame: f.to_csv(p, index=False, float_format="%.6g"))
    text = json.dumps(answers["summary"], indent=2, ensure_ascii=False, default=_plain)
    atomic_write(out / "summary.json", lambda p: p.write_text(text + "\n", encoding="utf-8"))
    from simkit.explore.report import write_explore_pdf  # the report's own pages: one PDF for every run

    atomic_write(out / "explore.pdf", lambda p: write_explore_pdf(p, answers, title))


def _plain(x):
    if isinstance(x, np.generic):
        return x.item()
    raise TypeError(f"not JSON: {type(x).__name__}")
