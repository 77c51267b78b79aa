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
from simkit.explore.game import Against, Side, by_side
from simkit.explore.tally import Tally
from simkit.sweep import load_results, read_meta


def metagame_shift(base: str | Path, patch: str | Path) -> dict:
    """The two metagames side by side and the base mixtures' exploitability in the patched game.

    The patch may change the decks each seat may hold (Magic War's one more gold for the first seat: every
    12-gold army of the base's first seat still fits 13 gold), as long as every deck of the base's mixtures
    is still in the patch's pool of its seat: the base's mixtures are then still playable in the patched game.

    Returns:
        dict with ``weights`` (DataFrame ``seat, deck, base_weight, patch_weight``, every deck of either run's
        mixtures, by side), and by side (``both`` for alike seats, ``first`` and ``second`` otherwise):
        ``base_in_patch`` (the best score a deck the patch searched on the side that meets it gets against the
        base's mixture, minus that side's reference in the patched game; None when no such deck played every
        deck of the base's mixture), its ``interval`` (the patch's own bounds: its ``z`` and its value's error),
        ``best_response`` and ``scored`` (``[decks scored, decks searched]`` on the side that meets it); both runs'
        exploitabilities, ``epsilon`` (the patch's), ``z``, ``value_se``, ``seats``, ``value`` (the first seat's
        value in both runs and its change, in words, when the seats choose apart: :func:`value_change`),
        ``verdicts`` (one sentence per side) and the ``verdict`` (them joined).

    Raises:
        ValueError: a folder that is not a finished explore run, runs of games whose seats choose differently,
            or a deck of a base mixture the patch's pool of its seat does not hold (one line naming both).
    """
    from simkit.analysis.paired import patch_changes
    from simkit.explore.settings import ExploreSettings

    b, p = _summaries(base, patch)
    games = load_results(patch)
    meta, base_meta = games.attrs["meta"], read_meta(base)
    pools = SeatPools(meta["decks"], meta.get("second_decks") or meta["decks"])
    _check_playable(b, pools, patch)
    settings = ExploreSettings.from_dict(p["settings"])
    bounds = p.get("bounds") or {}  # the patch's own bounds: its width (family-wise with --alpha), its value's error
    z, value_se = float(bounds.get("z", settings.z)), float(bounds.get("value_se", 0.0))
    base_pools = SeatPools(base_meta["decks"], base_meta.get("second_decks") or base_meta["decks"])
    out = {"seats": p["seats"], "base_exploitability": b["exploitability"],
           "base_interval": b["exploitability_interval"], "patch_exploitability": p["exploitability"],
           "patch_interval": p["exploitability_interval"], "epsilon": p["epsilon"], "z": z, "value_se": value_se,
           "alpha": settings.alpha, "changed": patch_changes(base_meta, meta),
           "pools": {"base": _count(base_pools, p["seats"]), "patch": _count(pools, p["seats"])}}
    out["weights"] = _weights(b, p)
    searched = pd.read_csv(Path(patch) / "decks.csv").query("searched")
    decks = list(pools.decks)
    tally, code = Tally(decks, games), {d: i for i, d in enumerate(decks)}
    out.update({key: {} for key in ("base_in_patch", "interval", "best_response", "scored")})
    for k, seat in enumerate(p["seats"]):  # the base's mixture of this side, against the patch's side that meets it
        o = len(p["seats"]) - 1 - k
        meets = Side(p["seats"][o], o, (), k)
        ref = p.get("value", 0.5) if o == 0 else 1.0 - p.get("value", 0.5)
        cands = [code[d] for d in searched.loc[searched["seat"] == meets.name, "deck"]]
        mix = Against([code[d] for d in b["metagame"][seat]], np.array(list(b["metagame"][seat].values())), ref,
                      value_se)
        scored = _score(tally, decks, meets, mix, cands, (settings, z))
        found = _best(scored, ref)
        for key in ("base_in_patch", "interval", "best_response"):
            out[key][seat] = found[key]
        out["scored"][seat] = [len(scored), len(cands)]
    out["value"] = None if p["seats"] == ["both"] else value_change(b, p)
    out["verdicts"] = {seat: verdict(out, seat) for seat in p["seats"]}
    out["verdict"] = " ".join(out["verdicts"].values())
    return out


def value_change(b: dict, p: dict) -> str | None:
    """The first seat's value in both runs and its change, in words (:func:`simkit.core.words.value_change_sentence`):
    each value with its run's own bounds (its ``z`` and its value's standard error), the change's interval the larger
    ``z`` over both errors combined (the runs taken as independent; their shared seeds only make it narrower); None
    for a run written before the value's error was recorded."""
    from simkit.core.words import Estimate, value_change_sentence

    if "value_se" not in (b.get("bounds") or {}) or "value_se" not in (p.get("bounds") or {}):
        return None
    (vb, sb, zb), (vp, sp, zp) = ((r["value"], r["bounds"]["value_se"], r["bounds"]["z"]) for r in (b, p))

    def clip(v, w):
        return Estimate(v, max(v - w, 0.0), min(v + w, 1.0))

    z = max(zb, zp)
    width = z * float(np.hypot(sb, sp))
    return value_change_sentence(clip(vb, zb * sb), clip(vp, zp * sp), Estimate(vp - vb, vp - vb - width,
                                                                                 vp - vb + width))


def _weights(b: dict, p: dict) -> pd.DataFrame:
    """Both runs' mixtures deck by deck: ``seat, deck, base_weight, patch_weight`` (every deck of either)."""
    rows = []
    for seat in p["seats"]:
        names = sorted(set(b["metagame"][seat]) | set(p["metagame"][seat]))
        rows += [{"seat": seat, "deck": d, "base_weight": b["metagame"][seat].get(d, 0.0),
                  "patch_weight": p["metagame"][seat].get(d, 0.0)} for d in names]
    return pd.DataFrame(rows)


def _summaries(base: str | Path, patch: str | Path) -> tuple[dict, dict]:
    """Both runs' ``summary.json`` by side; refused unless both are finished explore runs that seat alike."""
    sums = []
    for folder in (base, patch):
        path = Path(folder) / "summary.json"
        if not path.exists():
            raise ValueError(f"{folder}: not a finished explore run (no summary.json)")
        sums.append(by_side(json.loads(path.read_text(encoding="utf-8"))))
    if sums[0]["seats"] != sums[1]["seats"]:
        raise ValueError("metagame_shift: the runs seat their decks differently: compare runs of one game")
    return sums[0], sums[1]


def _check_playable(b: dict, pools: SeatPools, patch: str | Path) -> None:
    """Refuse, in one line naming the deck and its seat, a base mixture deck the patch's pool of its seat lacks."""
    for k, seat in enumerate(b["seats"]):
        held = set(pools[k])
        where = "" if seat == "both" else f"{seat}-seat "
        for deck in b["metagame"][seat]:
            if deck not in held:
                raise ValueError(f"metagame_shift: {patch}: the base's {where}mixture deck {deck!r} is not in the "
                                 f"patch's {where}pool, so the base's mixture cannot be played in the patched game")


def _score(tally: Tally, decks: list[str], meets: Side, mix: Against, cands: list[int], how: tuple) -> dict:
    """The race (:func:`~simkit.explore.oracle.race`, the patch's ``(settings, z)``) of the candidates of ``meets``
    that played every deck of the base's mixture ``mix`` against it (judged against ``mix.ref`` with the error
    ``mix.se``): ``{deck: (level, estimate, low, high, decision)}``."""
    from simkit.explore.oracle import race

    played = [c for c in cands if np.isfinite(meets.score(tally, c, mix.decks, mix.weights)[1])]  # met every deck
    return {decks[c]: v for c, v in race(tally, meets, mix, played, *how).items()}


def _count(pools: SeatPools, seats: list[str]) -> str:
    """The pools counted in words, per seat whenever the seats choose apart (even equal pools)."""
    if seats == ["both"]:
        return pools.count()
    return f"{len(pools.first)} first-seat x {len(pools.second)} second-seat decks"


def _best(scored: dict, ref: float) -> dict:
    """The best estimate among ``{deck: (level, estimate, low, high, decision)}`` (:func:`~simkit.explore.oracle.race`'s
    answer for the decks that played every deck of the mixture) less ``ref``, and its interval: the best lower and
    the best upper bound, less ``ref``."""
    if not scored:
        return {"base_in_patch": None, "interval": None, "best_response": None}
    deck, (_, est, *_) = max(scored.items(), key=lambda x: (x[1][1], x[0]))
    return {"base_in_patch": float(est - ref), "best_response": deck,
            "interval": [float(max(v[2] for v in scored.values()) - ref),
                         float(max(v[3] for v in scored.values()) - ref)]}


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
    scored = shift.get("scored", {}).get(seat)
    among = None
    if scored is not None:
        meets = "" if alike else ("second" if seat == "first" else "first") + "-seat "
        among = (scored[0], scored[1], f"{meets}decks")
    base = None
    if seat in shift.get("base_interval", {}):  # the base mixture's own exploitability, in the base game
        base = Estimate(shift["base_exploitability"][seat], *shift["base_interval"][seat])
    return shift_sentence(who, Estimate(x, lo, hi, name=get("best_response")), eps, than, among, base)


def write_shift_report(shift: dict, out: str | Path, title: str) -> list[Path]:
    """Write the comparison PDF (the verdict, both metagames deck by deck) and ``NAME.weights.csv`` beside it."""
    from textwrap import wrap

    from simkit.report.document import ReportPdf, atomic_outputs, output_paths, text_page, write_csvs

    pdf_path, csvs = output_paths(out, ["weights"])
    w = shift["weights"]
    with atomic_outputs([pdf_path, *csvs.values()]) as temps:
        with ReportPdf(temps[pdf_path], title, title, "simkit compare (explore)", "") as pdf:
            fig = pdf.new_page()
            lines = [*wrap(changes_line(shift), 110), ""]
            lines += [line for text in shift.get("verdicts", {"": shift["verdict"]}).values()
                      for line in [*wrap(text, 110), ""]]
            lines += wrap(_bounds_words(shift), 110) + [""]
            if shift.get("value"):
                lines += wrap(shift["value"], 110) + [""]
            seats = shift["seats"]
            for seat in seats:
                part = w[w["seat"] == seat]
                label = "" if seat == "both" else seat + " seat: "
                lines.append(f"{label}{'base':>6} {'patch':>6}  deck")
                lines += [f"{'':{len(label)}}{r.base_weight:6.1%} {r.patch_weight:6.1%}  {r.deck}"
                          for r in part.itertuples()]
                lines.append("")
            lines += wrap(_own_words(shift), 110)
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


def changes_line(shift: dict) -> str:
    """What the patch changed (its scenario's keys, base -> patch) and both runs' seat pools, in one line."""
    changed = shift.get("changed") or []
    said = ("The patch changed " + "; ".join(f"{k}: {a} -> {b}" for k, a, b in changed)) if changed else \
        "The two runs' scenarios differ in no rule"
    pools = shift.get("pools")
    if pools:
        said += f". Seat pools: base {pools['base']}, patch {pools['patch']}"
    return said + "."


def _bounds_words(shift: dict) -> str:
    """What the intervals are: the patch run's own bounds (its width, and its value's error when the seats choose
    apart)."""
    z, alpha = shift.get("z", 2.0), shift.get("alpha") or 0.0
    said = f"Each verdict's interval is the patch run's own bounds: {z:.2f} standard errors either side of the score"
    said += f" (family-wise in the patch run, alpha {alpha:g})" if alpha else " (deck by deck)"
    if shift["seats"] != ["both"]:
        said += (f", of the deck's error and the patched game's value's (standard error {shift.get('value_se', 0):.3f})"
                 " combined, less the other seat's value")
    return said + "; a bound is clipped to a score between 0 and 1."


def _own_words(shift: dict) -> str:
    """Each run's own exploitability by side, with its interval (in its own game)."""
    def one(run: str) -> str:
        est, iv = shift[f"{run}_exploitability"], shift.get(f"{run}_interval") or {}
        parts = []
        for seat, x in est.items():
            label = "" if seat == "both" else f"{seat} seat "
            lo_hi = f" (interval {iv[seat][0]:+.3f} to {iv[seat][1]:+.3f})" if seat in iv else ""
            parts.append(f"{label}{x:+.3f}{lo_hi}")
        return f"{run} " + ", ".join(parts)

    return f"Each run's own exploitability, in its own game: {one('base')}; {one('patch')}."


def compare_runs(base: str | Path, patch: str | Path, out: str | Path) -> int:
    """``simkit compare`` on two explore folders: print the verdict and write the comparison; returns 0."""
    shift = metagame_shift(base, patch)
    for text in shift["verdicts"].values():
        print(f"verdict: {text}")
    if shift.get("value"):
        print(f"  {shift['value']}")
    print(f"  {changes_line(shift)}")
    files = write_shift_report(shift, out, f"{Path(base).name} vs {Path(patch).name}: did the metagame move?")
    print(f"comparison: {files[0]}")
    print(f"tables: {files[1].name} beside it (both metagames, deck by deck)")
    return 0
