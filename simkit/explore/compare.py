"""Did the metagame move? Two explore runs of the same deck space (base and patch), read from their folders.

The patch run should start from the base run's population (``simkit explore PATCH --start-from BASE``):
then every pairing of the base's metagame decks is played under the patch too, and the base's
mixture can be scored in the patched game: its exploitability there (the best rate a deck the
patch's run searched gets against it, minus 1/2 for alike seats; per seat, minus the other seat's value
in the patched game, when each seat has its own pool) says how far the patch moved the metagame.
``simkit compare BASE PATCH`` on two explore folders prints :func:`metagame_shift`'s verdict and writes
:func:`write_shift_report`.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd

from simkit.core.seats import SeatPools
from simkit.explore.game import Side, by_side
from simkit.explore.tally import Tally
from simkit.sweep import load_results


def metagame_shift(base: str | Path, patch: str | Path) -> dict:
    """The two metagames side by side and the base mixtures' exploitability in the patched game.

    Returns:
        dict with ``weights`` (DataFrame ``seat, deck, base_weight, patch_weight``, every deck of either run's
        mixtures, by side), and by side (``both`` for alike seats, ``first`` and ``second`` otherwise):
        ``base_in_patch`` (the best score a deck the patch searched on the side that meets it gets against the
        base's mixture, minus that side's reference in the patched game; None when no such deck played every
        deck of the base's mixture), its ``interval`` and ``best_response``; both runs' exploitabilities,
        ``epsilon`` (the patch's), ``seats`` and the ``verdict`` sentence (one per side).

    Raises:
        ValueError: a folder that is not a finished explore run, or runs of different deck spaces (or seats).
    """
    sums = []
    for folder in (base, patch):
        path = Path(folder) / "summary.json"
        if not path.exists():
            raise ValueError(f"{folder}: not a finished explore run (no summary.json)")
        sums.append(json.loads(path.read_text(encoding="utf-8")))
    b, p = (by_side(x) for x in sums)
    games = load_results(patch)
    meta = games.attrs["meta"]
    base_meta = load_results(base).attrs["meta"]
    if [base_meta.get(k) for k in ("decks", "second_decks")] != [meta.get(k) for k in ("decks", "second_decks")]:
        raise ValueError("metagame_shift: the two runs explore different deck spaces")
    if b["seats"] != p["seats"]:
        raise ValueError("metagame_shift: the runs seat their decks differently: compare runs of one game")
    decks = list(SeatPools(meta["decks"], meta.get("second_decks") or meta["decks"]).decks)
    tally = Tally(decks, games)
    code = {d: i for i, d in enumerate(decks)}
    z = float(p["settings"].get("z", 2.0))
    searched = pd.read_csv(Path(patch) / "decks.csv")
    searched = searched[searched["searched"].astype(bool)]
    out = {"seats": p["seats"], "base_exploitability": b["exploitability"],
           "patch_exploitability": p["exploitability"], "epsilon": p["epsilon"]}
    rows = []
    for seat in p["seats"]:
        names = sorted(set(b["metagame"][seat]) | set(p["metagame"][seat]))
        rows += [{"seat": seat, "deck": d, "base_weight": b["metagame"][seat].get(d, 0.0),
                  "patch_weight": p["metagame"][seat].get(d, 0.0)} for d in names]
    out["weights"] = pd.DataFrame(rows)
    for key in ("base_in_patch", "interval", "best_response"):
        out[key] = {}
    value = p.get("value", 0.5)
    for k, seat in enumerate(p["seats"]):  # the base's mixture of this side, against the patch's side that meets it
        o = len(p["seats"]) - 1 - k
        meets = Side(p["seats"][o], o, (), k)
        mix, w = [code[d] for d in b["metagame"][seat]], list(b["metagame"][seat].values())
        cands = searched.loc[searched["seat"] == meets.name, "deck"]
        scores = [(deck, *meets.score(tally, code[deck], mix, w)[:2]) for deck in cands]
        found = _best(scores, value if o == 0 else 1.0 - value, z)
        for key in ("base_in_patch", "interval", "best_response"):
            out[key][seat] = found[key]
    out["verdict"] = " ".join(verdict(out, seat) for seat in p["seats"])
    return out


def _best(scores, ref: float, z: float) -> dict:
    """The best estimate above ``ref`` among ``(deck, estimate, se)`` with a finite error, and its interval
    (the best lower and the best upper bound, each clipped to a rate in [0, 1], minus ``ref``)."""
    ok = [(d, e, s) for d, e, s in scores if np.isfinite(s)]
    if not ok:
        return {"base_in_patch": None, "interval": None, "best_response": None}
    deck, est, _ = max(ok, key=lambda x: (x[1], x[0]))
    return {"base_in_patch": float(est - ref), "best_response": deck,
            "interval": [float(max(max(e - z * s, 0.0) for _, e, s in ok) - ref),
                         float(max(min(e + z * s, 1.0) for _, e, s in ok) - ref)]}


def verdict(shift: dict, seat: str) -> str:
    """The sentence saying whether one side's metagame moved (``both`` for alike seats, else a seat's)."""
    def get(k):
        return shift[k][seat]

    alike = seat == "both"
    x, eps, who = get("base_in_patch"), shift["epsilon"], "The base metagame" if alike else \
        f"The base's {seat}-seat metagame"
    if x is None:
        return (f"{who} cannot be scored in the patched game: no deck of the patch's run played all of its decks "
                "(run the patch with --start-from BASE_DIR).")
    from simkit.core.words import Estimate, shift_sentence

    lo, hi = get("interval")
    than = "1/2" if alike else "the other seat's value"
    return shift_sentence(who, Estimate(x, lo, hi, name=get("best_response")), eps, than)


def write_shift_report(shift: dict, out: str | Path, title: str) -> list[Path]:
    """Write the comparison PDF (the verdict, both metagames deck by deck) and ``NAME.weights.csv`` beside it."""
    from textwrap import wrap

    from simkit.report.document import ReportPdf, atomic_outputs, output_paths, text_page, write_csvs

    pdf_path, csvs = output_paths(out, ["weights"])
    w = shift["weights"]
    with atomic_outputs([pdf_path, *csvs.values()]) as temps:
        with ReportPdf(temps[pdf_path], title, title, "simkit compare (explore)", "") as pdf:
            fig = pdf.new_page()
            lines = [*wrap(shift["verdict"], 110), ""]
            seats = shift["seats"]
            for seat in seats:
                part = w[w["seat"] == seat]
                label = "" if seat == "both" else seat + " seat: "
                lines.append(f"{label}{'base':>6} {'patch':>6}  deck")
                lines += [f"{'':{len(label)}}{r.base_weight:6.1%} {r.patch_weight:6.1%}  {r.deck}"
                          for r in part.itertuples()]
                lines.append("")
            be, pe = shift["base_exploitability"], shift["patch_exploitability"]
            lines += wrap(f"Each run's own exploitability: base {_fmt(be)}, patch {_fmt(pe)}.", 110)
            text_page(fig, "Did the metagame move?", [("", lines)])
            pdf.add(fig, "verdict")
            fig = pdf.new_page()
            axes = fig.subplots(len(seats), 1, squeeze=False)[:, 0]
            for ax, seat in zip(axes, seats, strict=True):
                part = w[w["seat"] == seat]
                y = np.arange(len(part))
                ax.barh(y - 0.2, part["base_weight"], 0.4, label="base", color="#999999")
                ax.barh(y + 0.2, part["patch_weight"], 0.4, label="patch", color="#4477aa")
                ax.set_yticks(y, part["deck"], fontsize=6)
                ax.set_xlabel("weight in the metagame")
                ax.set_title("The metagames, deck by deck" + ("" if seat == "both" else f": the {seat} seat"),
                             fontsize=9)
                ax.legend(fontsize=7)
            fig.tight_layout(rect=(0, 0.02, 1, 1))
            pdf.add(fig, "metagames")
        write_csvs({"weights": w}, {"weights": temps[csvs["weights"]]})
    return [pdf_path, *csvs.values()]


def _fmt(x) -> str:
    if isinstance(x, dict) and list(x) == ["both"]:
        x = x["both"]
    return ", ".join(f"{k} {v:+.3f}" for k, v in x.items()) if isinstance(x, dict) else f"{x:+.3f}"


def compare_runs(base: str | Path, patch: str | Path, out: str | Path) -> int:
    """``simkit compare`` on two explore folders: print the verdict and write the comparison; returns 0."""
    shift = metagame_shift(base, patch)
    print(f"verdict: {shift['verdict']}")
    files = write_shift_report(shift, out, f"{Path(base).name} vs {Path(patch).name}: did the metagame move?")
    print(f"comparison: {files[0]}")
    print(f"tables: {files[1].name} beside it (both metagames, deck by deck)")
    return 0
