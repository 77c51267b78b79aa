"""Coverage of an adaptive sweep's 95% intervals on synthetic results with planted rates.

Runs many adaptive sweeps through the real round planner (:class:`simkit.sweep.AdaptiveLayout`,
:func:`simkit.sweep.next_round`), but instead of playing games it draws each game's outcome from the
planted rates (a counter-based draw keyed by the game's seed and the simulation), so the stopping
depends on the data exactly as in a real sweep. At the end of each sweep every unit's reported 95%
interval is checked against its planted value: matchup rates, deck rates (average over opponents),
and first-seat rates overall, per deck and per matchup. Prints the coverage per kind (it must be
at least 95%) and, for the group-sequential flags, how often a unit whose planted rate lies inside its
band was flagged (``false_flags``, per unit), the share of sweeps with such a flag in a kind, the false
discovery rate (``fdr``: Holm and Benjamini-Hochberg both keep it at most alpha = 5%; exit 1 above it)
and how often a unit beyond its band was flagged (``power``).

    PYTHONPATH=. python lab/adaptive_coverage.py [--sweeps 200] [--decks 8]
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
import pandas as pd

from simkit.analysis.sequential import AdaptiveSettings, unit_status
from simkit.core.rng import derive_seed, mix64
from simkit.core.seats import SeatPools
from simkit.sweep import AdaptiveLayout, SweepPlan, next_round


def planted(d: int, seed: int) -> tuple[list[str], np.ndarray, np.ndarray]:
    """A pool of ``d`` decks with planted rates: ``m[i, j]`` pooled matchup rate (strength gaps, a few
    lopsided pairs), ``f[i, j]`` the first seat's mean score in (i first, j second)."""
    rng = np.random.default_rng(seed)
    decks = [f"D{i}:X,Y,Z" for i in range(d)]
    strength = rng.normal(0, 0.8, d)
    m = 1 / (1 + np.exp(-(strength[:, None] - strength[None, :])))
    np.fill_diagonal(m, 0.5)
    adv = rng.uniform(-0.02, 0.12, (d, d))
    f = np.clip(m + adv, 0.02, 0.98)
    m = (f + 1 - f.T) / 2  # the pooled rate the seats imply
    return decks, m, f


def simulate(settings: AdaptiveSettings, d: int = 8, sweep_seed: int = 0, draw_rate: float = 0.1) -> pd.DataFrame:
    """One adaptive sweep on planted rates; returns its units with ``truth`` and ``covered`` columns."""
    decks, m, f = planted(d, sweep_seed)
    plan = SweepPlan(scenario_path="", scenario_hash="synthetic", pools=SeatPools.alike(decks),
                     games=settings.first_steps, bots=("synthetic", "synthetic"), seed=sweep_seed, chunk_size=10**9,
                     adaptive=settings)
    layout = AdaptiveLayout(plan)
    code = {x: i for i, x in enumerate(decks)}
    key = np.uint64(derive_seed("coverage", sweep_seed))
    frames: list[pd.DataFrame] = []
    df = None
    while True:
        target, _, _ = next_round(layout, df)
        if target is None:
            break
        first = layout.chunk_count
        layout.add_round(target, {})
        for k in range(first, layout.chunk_count):
            c = layout.chunk(k)
            fi = np.array([code[x] for x in c.first_decks])
            si = np.array([code[x] for x in c.second_decks])
            u = (mix64(np.asarray(c.seeds, np.uint64) ^ key) >> np.uint64(11)).astype(float) / 2.0**53
            p = f[fi, si]
            draw = np.minimum(draw_rate, 2 * np.minimum(p, 1 - p))
            winner = np.where(u < p - draw / 2, "first", np.where(u < p + draw / 2, "draw", "second"))
            frames.append(pd.DataFrame({"first_deck": c.first_decks, "second_deck": c.second_decks, "game": c.games,
                                        "winner": winner}))
        df = pd.concat(frames, ignore_index=True)
    units = unit_status(df, settings, SeatPools.alike(decks))
    i = units["deck"].map(code)
    j = units["opponent"].map(code)
    fp_pair = (f + f.T) / 2
    truth = np.select(
        [units["kind"].eq("matchup"), units["kind"].eq("deck"),
         units["scope"].eq("matchup"), units["scope"].eq("deck"), units["scope"].eq("overall")],
        [m[i.fillna(0).astype(int), j.fillna(0).astype(int)],
         ((m.sum(1) - 0.5) / (d - 1))[i.fillna(0).astype(int)],
         fp_pair[i.fillna(0).astype(int), j.fillna(0).astype(int)],
         ((fp_pair.sum(1) - np.diag(fp_pair)) / (d - 1))[i.fillna(0).astype(int)],
         np.full(len(units), f.mean())],
    )
    units["truth"] = truth
    units["covered"] = (units["low"] <= truth) & (truth <= units["high"])
    lo = units["kind"].map(lambda k: settings.band(k)[0])
    hi = units["kind"].map(lambda k: settings.band(k)[1])
    units["truth_inside"] = (truth >= lo) & (truth <= hi)
    units["flagged"] = units["p_adjusted"] < settings.alpha
    units["sweep_games"] = len(df)
    return units


def coverage(sweeps: int, d: int, settings: AdaptiveSettings) -> pd.DataFrame:
    """Coverage per unit kind over ``sweeps`` simulated adaptive sweeps."""
    all_units = pd.concat([simulate(settings, d, s).assign(sweep=s) for s in range(sweeps)], ignore_index=True)
    all_units["unit"] = all_units["kind"] + "/" + all_units["scope"]
    t = all_units.groupby("unit").agg(intervals=("covered", "size"), coverage=("covered", "mean"),
                                      mean_width=("high", "mean"))
    t["mean_width"] = (all_units["high"] - all_units["low"]).groupby(all_units["unit"]).mean()
    inside = all_units[all_units["truth_inside"]]
    beyond = all_units[~all_units["truth_inside"]]
    t["false_flags"] = inside.groupby("unit")["flagged"].mean()
    t["power"] = beyond.groupby("unit")["flagged"].mean()
    # a family with a false flag in it (the error rate Holm bounds; BH bounds the false share instead)
    fam = inside.groupby(["sweep", "unit"])["flagged"].any().groupby("unit").mean()
    t["sweeps_with_a_false_flag"] = fam
    # the false discovery rate: the mean over sweeps of false flags / flags (0 without a flag)
    per = all_units.assign(false=all_units["flagged"] & all_units["truth_inside"]).groupby(["sweep", "unit"])
    fdp = per["false"].sum() / per["flagged"].sum().clip(lower=1)
    t["fdr"] = fdp.groupby("unit").mean()
    t.attrs["games"] = all_units.groupby("sweep")["sweep_games"].first().mean()
    return t


def main(argv: list[str] | None = None) -> int:
    """Print the coverage table; exit 1 if a kind is below 95%."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sweeps", type=int, default=200, help="simulated adaptive sweeps")
    p.add_argument("--decks", type=int, default=8, help="decks in each simulated pool")
    p.add_argument("--precision", type=float, default=0.2)
    p.add_argument("--max-games", type=int, default=4000)
    args = p.parse_args(argv)
    settings = AdaptiveSettings(precision=args.precision, max_games=args.max_games)
    started = time.perf_counter()
    t = coverage(args.sweeps, args.decks, settings)
    print(f"{args.sweeps} adaptive sweeps of {args.decks} decks (precision {args.precision}, max games "
          f"{args.max_games}, about {t.attrs['games']:.0f} games each), planted rates, 10% draws:")
    print(t.to_string(float_format=lambda x: f"{x:.4f}"))
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0 if (t["coverage"] >= 0.95).all() and (t["fdr"].fillna(0) <= 0.05).all() else 1


if __name__ == "__main__":
    sys.exit(main())
