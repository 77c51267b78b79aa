"""How many games an adaptive sweep saves, and whether it reaches the same flag decisions as a uniform one.

Reads two finished results folders of the same scenario, deck pool and bots: a uniform sweep (e.g. 100
games per ordered pair) and an adaptive one. For every unit the report flags or not (each deck's rate,
each matchup, the first player overall, per deck and per matchup) it compares the decisions: flagged
beyond the same edge, or not flagged. Prints the games each sweep played, the share of decisions that
agree (per kind and in all) and every disagreement.

    PYTHONPATH=. python lab/adaptive_gain.py UNIFORM_DIR ADAPTIVE_DIR

Example (a 20-deck subset of Battle of Miracles, every fourth deck of the base pool):

    DECKS=$(python -c "import simkit; print(' '.join(simkit.load_scenario('scenarios/miracle/base.toml').decks[::4]))")
    python -m simkit sweep scenarios/miracle/base.toml --games 100 --decks $DECKS --out results/gain-uniform
    python -m simkit sweep scenarios/miracle/base.toml --adaptive --max-games 13333 --decks $DECKS \\
        --out results/gain-adaptive
    python lab/adaptive_gain.py results/gain-uniform results/gain-adaptive
    python -m simkit sweep scenarios/miracle/base.toml --adaptive --decks $DECKS --out results/gain-adaptive-free
    python lab/adaptive_gain.py results/gain-uniform results/gain-adaptive-free

With a bot panel in both folders, the decisions are compared bot by bot (each bot's own flags, as
each bot's report gives them) and in all. With the search rung (each ``search-1`` game costs about
6 times a ``balanced`` one):

    python -m simkit sweep scenarios/miracle/base.toml --games 100 --panel balanced,search-1 --decks $DECKS \\
        --out results/gain-panel-uniform
    python -m simkit sweep scenarios/miracle/base.toml --adaptive --max-games 26666 --panel balanced,search-1 \\
        --decks $DECKS --out results/gain-panel-adaptive
    python lab/adaptive_gain.py results/gain-panel-uniform results/gain-panel-adaptive
"""

from __future__ import annotations

import argparse
import sys

import pandas as pd

from simkit.analysis import analyze
from simkit.sweep import load_results


def decisions(tables: dict) -> pd.DataFrame:
    """One row per unit the report can flag: ``kind, unit, decision`` (``high``/``low`` flagged, or ``none``)."""
    fp = tables["first_player"]
    m = tables["matchups"]
    m = m[~m["mirror"] & (m["deck"] < m["opponent"])]
    units = (
        [("deck", d) for d in tables["decks"]["deck"]]
        + [("matchup", f"{a} vs {b}") for a, b in zip(m["deck"], m["opponent"], strict=True)]
        + [("first_player", s) for s in fp["subject"]]
    )
    out = pd.DataFrame(units, columns=["kind", "unit"]).assign(decision="none")
    for r in tables["flags"].itertuples():
        side = "high" if r.value > r.band_high else "low"
        unit = r.subject
        if r.kind == "matchup":  # named from the winning side: store it as "lower id vs higher id"
            a, b = r.subject.split(" vs ")
            unit, side = (f"{a} vs {b}", "high") if a < b else (f"{b} vs {a}", "low")
        out.loc[(out["kind"] == r.kind) & (out["unit"] == unit), "decision"] = side
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the games and the agreement of the two sweeps' flag decisions."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("uniform")
    p.add_argument("adaptive")
    args = p.parse_args(argv)
    uni, ada = load_results(args.uniform), load_results(args.adaptive)
    mu, ma = uni.attrs["meta"], ada.attrs["meta"]
    if mu["scenario_hash"] != ma["scenario_hash"] or sorted(mu["decks"]) != sorted(ma["decks"]) \
            or mu["bots"] != ma["bots"]:
        print("the two folders differ in scenario, deck pool or bots", file=sys.stderr)
        return 2
    panel = mu.get("plan", {}).get("panel") or []
    if panel != (ma.get("plan", {}).get("panel") or []):
        print("the two folders differ in their bot panel", file=sys.stderr)
        return 2
    parts = []
    for bot in panel or [None]:
        views = [df if bot is None else df[(df["first_bot"] == bot) & (df["second_bot"] == bot)] for df in (uni, ada)]
        du, da = (decisions(analyze(v, bootstrap=0)) for v in views)
        parts.append(du.merge(da, on=["kind", "unit"], suffixes=("_uniform", "_adaptive")).assign(bot=bot))
    both = pd.concat(parts, ignore_index=True)
    if panel:
        both["kind"] = both["bot"] + " " + both["kind"]
    both["agree"] = both["decision_uniform"] == both["decision_adaptive"]
    print(f"uniform : {len(uni):7d} games ({mu['games_per_pair']} per ordered pair)")
    print(f"adaptive: {len(ada):7d} games ({ma['games_per_pair']} per ordered pair), "
          f"{len(ada) / len(uni):.1%} of the uniform sweep's, stopped on "
          f"{(ma.get('adaptive_result') or {}).get('stopped')}")
    for kind, g in both.groupby("kind", sort=False):
        flags_u = int((g["decision_uniform"] != "none").sum())
        flags_a = int((g["decision_adaptive"] != "none").sum())
        print(f"  {kind:13s} {g['agree'].mean():7.1%} of {len(g):4d} decisions agree "
              f"(flagged: uniform {flags_u}, adaptive {flags_a})")
    print(f"  {'all':13s} {both['agree'].mean():7.1%} of {len(both):4d} decisions agree")
    for r in both[~both["agree"]].itertuples():
        print(f"    differs: {r.kind} {r.unit}: uniform {r.decision_uniform}, adaptive {r.decision_adaptive}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
