"""What an explore folder tells a designer, read from its games and its last state, and written beside them.

``metagame.csv`` (the mixture), ``decks.csv`` (every deck: searched or not, its rate against the
mixture and the field with intervals), ``strongest.csv`` (the ``top`` decks by rate against the
field), ``archive.csv`` (the strongest deck of every style cell), ``dead_cards.csv`` (every card:
whether a metagame deck or a deck within the band uses it), ``matchups.csv`` (every explored
ordered pair with its games), ``summary.json`` (the guarantee, exploitability, games) and
``explore.pdf``. Every file is written atomically and depends only on the games and the state,
so a resumed run writes the very same files.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

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
    in_band = decks[decks["searched"] & (decks["vs_mix"] >= 0.5 - s.band)].index.tolist()
    cards = []
    for card in space.all_cards():
        by_meta = [space.decks[i] for i in support if space.uses(i, card)]
        by_band = [space.decks[i] for i in in_band if space.uses(i, card) and i not in w]
        cards.append({"category": card[0], "card": card[1], "metagame_decks": len(by_meta),
                      "band_decks": len(by_band), "dead": not by_meta and not by_band})
    dead_cards = pd.DataFrame(cards).sort_values(["dead", "category", "card"], ascending=[False, True, True])
    fi, si = np.nonzero(tally.n)
    matchups = pd.DataFrame({
        "first_deck": [space.decks[i] for i in fi], "second_deck": [space.decks[j] for j in si],
        "games": tally.n[fi, si], "first_points": tally.pts[fi, si],
        "first_rate": tally.pts[fi, si] / tally.n[fi, si],
    })
    cand = decks[decks["searched"]]
    best = cand.loc[cand["vs_mix"].idxmax()] if len(cand) else None
    exploit = float(best["vs_mix"] - 0.5) if best is not None else float("nan")
    beaten = cand[cand["vs_mix_low"] > 0.5 + s.epsilon]
    not_excluded = cand[(cand["vs_mix_high"] >= 0.5 + s.epsilon) & ~cand["in_population"]]
    summary = {
        "stopped": stopped,
        "guarantee_met": stopped == "settled" and beaten.empty,
        "guarantee": (f"no searched deck beats the metagame by more than epsilon = {s.epsilon:g} with confidence "
                      f"(lower bound of its rate against the mixture above {0.5 + s.epsilon:g}, z = {s.z:g})"),
        "epsilon": s.epsilon,
        "exploitability": exploit,
        "exploitability_interval": [float(cand["vs_mix_low"].max() - 0.5), float(cand["vs_mix_high"].max() - 0.5)],
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
        "axes": [ax.spec() for ax in space.axes],
        "settings": s.to_dict(),
    }
    return {"metagame": metagame, "decks": decks, "strongest": strongest, "archive": archive,
            "dead_cards": dead_cards, "matchups": matchups, "summary": summary}


def write_outputs(out: Path, answers: dict, title: str) -> None:
    """Write every answer file into the folder ``out``, atomically."""
    out = Path(out)
    for name in ("metagame", "decks", "strongest", "archive", "dead_cards", "matchups"):
        frame = answers[name]
        atomic_write(out / f"{name}.csv", lambda p, f=frame: f.to_csv(p, index=False, float_format="%.6g"))
    text = json.dumps(answers["summary"], indent=2, ensure_ascii=False, default=_plain)
    atomic_write(out / "summary.json", lambda p: p.write_text(text + "\n", encoding="utf-8"))
    if answers["summary"].get("seat_pools"):
        from simkit.explore.report import write_explore_pdf as write_pdf
    else:
        from simkit.explore.figure import write_pdf

    atomic_write(out / "explore.pdf", lambda p: write_pdf(p, answers, title))


def _plain(x):
    if isinstance(x, np.generic):
        return x.item()
    raise TypeError(f"not JSON: {type(x).__name__}")
